//! Argument completion (`completion/complete`): what a completion handler receives
//! ([`CompletionRequest`]) and returns ([`Completion`], or anything [`IntoCompletion`]).
//!
//! A completion handler is attached to the thing it completes: a prompt argument with
//! [`Prompt::complete`](crate::prompts::Prompt::complete), a template variable with
//! [`ResourceTemplate::complete`](crate::resources::ResourceTemplate::complete), or a fixed
//! list with `complete_from`. The server answers `completion/complete`:
//!
//! - for `ref/prompt` by prompt name, and for `ref/resource` by the template string exactly as
//!   `resources/templates/list` publishes it;
//! - with -32602 for a reference to nothing (or to a definition the caller may not see, which
//!   is the same thing, see [`authorization`](crate::authorization)), and for an argument the
//!   prompt or template does not have;
//! - with no values for a real argument that has no completion handler;
//! - with at most 100 values, plus `total` and `hasMore`.
//!
//! The server advertises the `completions` capability exactly when at least one completion
//! handler is registered; without one, `completion/complete` is -32601.
//!
//! ```
//! use mcp_test::completion::Completion;
//! let c = Completion::new((0..250).map(|i| format!("v{i}")));
//! assert_eq!(c.values().len(), 100);
//! assert_eq!(c.total(), Some(250));
//! assert_eq!(c.has_more(), Some(true));
//! ```

use crate::context::Context;
use crate::tool::ToolError;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

/// The most values one completion may carry (spec §9).
pub const MAX_VALUES: usize = 100;

/// What the client asked to complete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompletionRequest {
    /// The argument or variable being completed.
    pub argument: String,
    /// What the client has typed so far.
    pub value: String,
    /// The values of other arguments or variables already resolved (`context.arguments`).
    pub context: BTreeMap<String, String>,
}

impl CompletionRequest {
    /// A request to complete `argument` from `value`, with no context.
    pub fn new(argument: impl Into<String>, value: impl Into<String>) -> Self {
        CompletionRequest {
            argument: argument.into(),
            value: value.into(),
            context: BTreeMap::new(),
        }
    }

    /// Adds a resolved argument to the context.
    #[must_use]
    pub fn with_context(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.context.insert(name.into(), value.into());
        self
    }
}

/// The `completion` object of a `completion/complete` result: at most 100 values, plus how many
/// there are in all and whether more exist.
///
/// ```
/// use mcp_test::completion::Completion;
/// let c = Completion::new(["flask", "fastapi"]);
/// assert_eq!(serde_json::to_value(&c).unwrap(),
///            serde_json::json!({"values": ["flask", "fastapi"], "total": 2, "hasMore": false}));
///
/// // A source that knows there are more than it returned says so.
/// let c = Completion::new(["a"]).with_total(5000);
/// assert_eq!(c.has_more(), Some(true));
/// ```
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    values: Vec<String>,
    total: Option<u64>,
    has_more: Option<bool>,
}

impl Completion {
    /// All the values there are: the first 100 are kept, `total` is their number, `hasMore`
    /// says whether any were cut.
    pub fn new<I, S>(values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut values: Vec<String> = values.into_iter().map(Into::into).collect();
        let total = values.len() as u64;
        values.truncate(MAX_VALUES);
        Completion {
            has_more: Some(total > values.len() as u64),
            total: Some(total),
            values,
        }
    }

    /// No values.
    pub fn empty() -> Self {
        Completion::new(Vec::<String>::new())
    }

    /// Sets the total number of values there are (at least the number returned); `hasMore`
    /// follows.
    #[must_use]
    pub fn with_total(mut self, total: u64) -> Self {
        let total = total.max(self.values.len() as u64);
        self.total = Some(total);
        self.has_more = Some(total > self.values.len() as u64);
        self
    }

    /// The values, at most 100.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// The total number of values, if known.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// Whether more values exist than were returned, if known.
    pub fn has_more(&self) -> Option<bool> {
        self.has_more
    }
}

/// What a completion handler may return: a [`Completion`], or the values themselves
/// (`Vec<String>`, `Vec<&str>`), which [`Completion::new`] caps at 100.
#[diagnostic::on_unimplemented(
    message = "a completion handler cannot return `{Self}`",
    label = "`{Self}` is not a completion",
    note = "return the values (`Vec<String>`, `Vec<&str>`) or a `Completion`, as `Ok(..)` of a `Result<_, ToolError>`",
    note = "for a future (an `async fn` helper's result), `.await` it: `Ok(helper().await)`"
)]
pub trait IntoCompletion {
    /// Converts the handler's return value.
    fn into_completion(self) -> Completion;
}

impl IntoCompletion for Completion {
    fn into_completion(self) -> Completion {
        self
    }
}

impl IntoCompletion for Vec<String> {
    fn into_completion(self) -> Completion {
        Completion::new(self)
    }
}

impl IntoCompletion for Vec<&str> {
    fn into_completion(self) -> Completion {
        Completion::new(self)
    }
}

/// A registered completion handler.
pub(crate) type Completer = Arc<
    dyn Fn(Context, CompletionRequest) -> BoxFuture<'static, Result<Completion, ToolError>>
        + Send
        + Sync,
>;

pub(crate) fn completer<F, Fut, R>(handler: F) -> Completer
where
    F: Fn(Context, CompletionRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
    R: IntoCompletion,
{
    Arc::new(move |ctx, request| {
        let fut = handler(ctx, request);
        Box::pin(async move { Ok(fut.await?.into_completion()) })
    })
}

/// The values of `values` that start with the typed text, ignoring case, in order.
pub(crate) fn static_completer<I, S>(values: I) -> Completer
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let values: Arc<[String]> = values.into_iter().map(Into::into).collect();
    completer(move |_ctx, request: CompletionRequest| {
        let typed = request.value.to_lowercase();
        let hits: Vec<String> = values
            .iter()
            .filter(|v| v.to_lowercase().starts_with(&typed))
            .cloned()
            .collect();
        async move { Ok(Completion::new(hits)) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_never_undercount() {
        let c = Completion::new(["a", "b", "c"]).with_total(1);
        assert_eq!((c.total(), c.has_more()), (Some(3), Some(false)));
        assert_eq!(Completion::empty().values().len(), 0);
        let exactly = Completion::new((0..100).map(|i| i.to_string()));
        assert_eq!(
            (exactly.total(), exactly.has_more()),
            (Some(100), Some(false))
        );
    }

    #[tokio::test]
    async fn fixed_lists_filter_by_prefix_ignoring_case() {
        let complete = static_completer(["Paris", "park", "party", "Rome"]);
        let ctx = Context::builder().build();
        let got = complete(ctx.clone(), CompletionRequest::new("city", "PAR"))
            .await
            .unwrap();
        assert_eq!(got.values(), ["Paris", "park", "party"]);
        let all = complete(ctx, CompletionRequest::new("city", ""))
            .await
            .unwrap();
        assert_eq!(all.total(), Some(4));
    }
}
