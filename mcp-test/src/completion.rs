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

pub use crate::returns::IntoCompletion;
pub use crate::wire::Completion;

use crate::context::Context;
use crate::tool::ToolError;
use futures_util::future::BoxFuture;
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

/// The most values one completion may carry (spec §9).
pub use crate::wire::MAX_COMPLETION_VALUES as MAX_VALUES;

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
pub(crate) fn static_completer(values: impl IntoIterator<Item = impl Into<String>>) -> Completer {
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
