//! Declaring prompts: [`Prompt`], what a prompt handler may return ([`IntoPromptResult`]), and
//! the wire types of `prompts/list` and `prompts/get`.
//!
//! # Typed arguments
//!
//! Prompt arguments are `{string: string}` on the wire. A handler names a Rust type for them
//! (`T: Deserialize + JsonSchema`), and the prompt's argument list is derived from that type:
//! each field is an argument, its doc comment the description, and it is `required` unless it
//! is an `Option` or has a default. Fields parse from the text (numbers, booleans, enums).
//! [`Prompt::argument`] adds arguments or overrides derived ones (title, description).
//!
//! `prompts/get` checks the arguments before the handler runs, each failure a -32602 naming
//! the argument: a required argument missing, an argument the prompt does not have, a value
//! that does not parse into its field. The handler may refuse arguments itself with
//! [`ToolError::new`]: that is -32602 too, with its message as written and `data.prompt`,
//! while another error its `?` converts is -32603 (every handler kind is in [`ToolError`]'s
//! table).
//!
//! ```
//! use mcp_test::{Context, Server, ToolError};
//! use mcp_test::prompts::{Prompt, PromptMessage};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Review {
//!     /// The code to review.
//!     code: String,
//!     /// The language of the code.
//!     language: Option<String>,
//! }
//!
//! let review = Prompt::new("code_review")
//!     .description("Asks for a code review")
//!     .get(|_ctx: Context, args: Review| async move {
//!         let language = args.language.unwrap_or_else(|| "unknown".into());
//!         Ok::<_, ToolError>(vec![PromptMessage::user_text(format!(
//!             "Review this {language} code:\n{}", args.code
//!         ))])
//!     })
//!     .complete_from("language", ["python", "rust", "go"]);
//!
//! let arguments = &review.definition().arguments.as_ref().unwrap();
//! assert_eq!(arguments[0].name, "code");
//! assert_eq!(arguments[0].required, Some(true));
//! assert_eq!(arguments[1].description.as_deref(), Some("The language of the code."));
//! assert_eq!(arguments[1].required, Some(false));
//!
//! let server = Server::builder("reviews", "1.0.0").prompt(review).build().unwrap();
//! assert!(server.capabilities().prompts.is_some());
//! ```

pub use crate::returns::IntoPromptResult;
pub use crate::wire::{GetPromptResult, PromptMessage};

use crate::authorization::Access;
use crate::completion::{
    Completer, CompletionRequest, IntoCompletion, completer, static_completer,
};
use crate::context::Context;
use crate::setters;
use crate::string_args::StringArgsError;
use crate::tool::ToolError;
use futures_util::future::BoxFuture;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::sync::Arc;

/// A prompt as `prompts/list` publishes it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptDefinition {
    /// Unique name.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// What the prompt provides.
    pub description: Option<String>,
    /// Its arguments; absent when it has none.
    pub arguments: Option<Vec<PromptArgument>>,
    /// Icons.
    pub icons: Option<Vec<Value>>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

impl PromptDefinition {
    /// The argument called `name`, if the prompt has one.
    pub(crate) fn argument_named(&self, name: &str) -> Option<&PromptArgument> {
        self.arguments.iter().flatten().find(|a| a.name == name)
    }

    /// Checks `arguments` against the argument list: each failure names the argument.
    pub(crate) fn check_arguments(
        &self,
        arguments: &[(String, String)],
    ) -> Result<(), ArgumentError> {
        let prompt = self.name.clone();
        for (arg, _) in arguments {
            if self.argument_named(arg).is_none() {
                let known: Vec<&str> = self
                    .arguments
                    .iter()
                    .flatten()
                    .map(|a| a.name.as_str())
                    .collect();
                let argument = arg.clone();
                return Err(if known.is_empty() {
                    ArgumentError::NoArguments { prompt, argument }
                } else {
                    let known = known.join(", ");
                    ArgumentError::Unknown {
                        prompt,
                        argument,
                        known,
                    }
                });
            }
        }
        for required in self.arguments.iter().flatten() {
            if required.is_required() && !arguments.iter().any(|(a, _)| *a == required.name) {
                let argument = required.name.clone();
                return Err(ArgumentError::Missing { prompt, argument });
            }
        }
        Ok(())
    }
}

/// Why the arguments of a `prompts/get` do not fit the prompt.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ArgumentError {
    #[error("prompt {prompt} takes no arguments, got `{argument}`")]
    NoArguments { prompt: String, argument: String },
    #[error("prompt {prompt} has no argument `{argument}` (its arguments: {known})")]
    Unknown {
        prompt: String,
        argument: String,
        known: String,
    },
    #[error("prompt {prompt} requires the argument `{argument}`")]
    Missing { prompt: String, argument: String },
}

/// One argument of a prompt, as `prompts/list` publishes it.
///
/// ```
/// use mcp_test::prompts::PromptArgument;
/// let a = PromptArgument::new("city").required().description("Where");
/// assert_eq!(serde_json::to_value(&a).unwrap(),
///            serde_json::json!({"name": "city", "description": "Where", "required": true}));
/// ```
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptArgument {
    /// The argument's name.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// What the argument is.
    pub description: Option<String>,
    /// Whether it must be provided.
    pub required: Option<bool>,
}

impl PromptArgument {
    /// An optional argument.
    pub fn new(name: impl Into<String>) -> Self {
        PromptArgument {
            name: name.into(),
            title: None,
            description: None,
            required: Some(false),
        }
    }

    /// Makes it required.
    #[must_use]
    pub fn required(mut self) -> Self {
        self.required = Some(true);
        self
    }

    setters! {
        /// Sets the display title.
        title(title: impl Into<String>) => title = Some(title.into());
        /// Sets the description.
        description(description: impl Into<String>) => description = Some(description.into());
    }

    fn is_required(&self) -> bool {
        self.required == Some(true)
    }
}

/// A get handler with the arguments still to deserialize: `Err` names the argument that does
/// not fit.
pub(crate) type GetFn = Arc<
    dyn Fn(
            Context,
            &[(String, String)],
        )
            -> Result<BoxFuture<'static, Result<GetPromptResult, ToolError>>, StringArgsError>
        + Send
        + Sync,
>;

/// A prompt: its definition, who may use it, its handler and its argument completions.
///
/// ```
/// use mcp_test::{Access, Context, ToolError};
/// use mcp_test::prompts::{Prompt, PromptArgument, PromptMessage};
/// use mcp_test::wire::Content;
///
/// // No arguments.
/// let simple = Prompt::new("test_simple_prompt")
///     .description("A simple prompt")
///     .text("This is a simple prompt for testing.");
///
/// // Untyped arguments, declared one by one.
/// let greet = Prompt::new("greet")
///     .argument(PromptArgument::new("name").required().description("Who to greet"))
///     .get(|_ctx: Context, args: std::collections::BTreeMap<String, String>| async move {
///         Ok::<_, ToolError>(format!("Say hello to {}", args["name"]))
///     });
///
/// // Any content block, for staff only.
/// let image = Prompt::new("test_prompt_with_image")
///     .access(Access::scopes(["staff"]))
///     .get(|_ctx: Context, ()| async move {
///         Ok::<_, ToolError>(vec![
///             PromptMessage::user(Content::image_bytes(&[0x89, b'P', b'N', b'G'], "image/png")),
///             PromptMessage::user_text("Please analyze the image above."),
///         ])
///     });
/// # let _ = (simple, greet, image);
/// ```
#[must_use]
pub struct Prompt {
    pub(crate) definition: PromptDefinition,
    pub(crate) access: Access,
    pub(crate) handler: Option<GetFn>,
    pub(crate) completers: Vec<(String, Completer)>,
    declared: Vec<PromptArgument>,
    derived: Vec<PromptArgument>,
}

impl fmt::Debug for Prompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prompt")
            .field("definition", &self.definition)
            .field("access", &self.access)
            .field("has_handler", &self.handler.is_some())
            .field(
                "completions",
                &self.completers.iter().map(|c| &c.0).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Prompt {
    /// A prompt named `name`, with no arguments and no handler yet.
    pub fn new(name: impl Into<String>) -> Self {
        Prompt {
            definition: PromptDefinition {
                name: name.into(),
                title: None,
                description: None,
                arguments: None,
                icons: None,
                meta: None,
            },
            access: Access::public(),
            handler: None,
            completers: Vec::new(),
            declared: Vec::new(),
            derived: Vec::new(),
        }
    }

    setters! {
        /// Sets the display title.
        title(title: impl Into<String>) => definition.title = Some(title.into());

        /// Sets the description.
        description(description: impl Into<String>)
            => definition.description = Some(description.into());

        /// Sets the icons (the spec's `Icon` objects).
        icons(icons: Vec<Value>) => definition.icons = Some(icons);
        /// Sets the definition's `_meta`.
        meta(meta: Map<String, Value>) => definition.meta = Some(meta);

        /// Who may see and get it (default: everyone). A denied caller gets the answer of an
        /// unknown prompt; see [`authorization`](crate::authorization).
        access: Access;
    }

    /// Declares an argument, or replaces the one of that name derived from the handler's
    /// argument type.
    pub fn argument(mut self, argument: PromptArgument) -> Self {
        self.declared.retain(|a| a.name != argument.name);
        self.declared.push(argument);
        self.refresh_arguments();
        self
    }

    /// Answers `prompts/get` with `handler`, which receives the arguments as an `A`; the
    /// argument list is derived from `A`'s JSON Schema (see the [module docs](self)). Use `()`
    /// for no arguments, or a map to take exactly the [declared](Prompt::argument) ones.
    pub fn get<A, F, Fut, R>(mut self, handler: F) -> Self
    where
        A: DeserializeOwned + JsonSchema + Send + 'static,
        F: Fn(Context, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: IntoPromptResult,
    {
        self.derived = arguments_of(&crate::schema::schema_for::<A>());
        self.handler = Some(Arc::new(move |ctx, pairs| {
            let args: A = crate::string_args::from_pairs(pairs.iter().cloned())?;
            let fut = handler(ctx, args);
            Ok(Box::pin(async move { Ok(fut.await?.into_prompt_result()) }))
        }));
        self.refresh_arguments();
        self
    }

    /// Answers with one fixed user text message.
    pub fn text(self, text: impl Into<String>) -> Self {
        let text: Arc<str> = text.into().into();
        self.get(move |_ctx, ()| {
            let text = text.to_string();
            async move { Ok(text) }
        })
    }

    /// Completes the argument `argument` with `handler`. See
    /// [`completion`](crate::completion).
    pub fn complete<F, Fut, R>(mut self, argument: impl Into<String>, handler: F) -> Self
    where
        F: Fn(Context, CompletionRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: IntoCompletion,
    {
        self.completers.push((argument.into(), completer(handler)));
        self
    }

    /// Completes `argument` from a fixed list: the values starting with what the client typed
    /// (ignoring case), in the given order.
    pub fn complete_from(
        mut self,
        argument: impl Into<String>,
        values: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.completers
            .push((argument.into(), static_completer(values)));
        self
    }

    /// The definition `prompts/list` publishes.
    pub fn definition(&self) -> &PromptDefinition {
        &self.definition
    }

    fn refresh_arguments(&mut self) {
        let mut all = self.derived.clone();
        for declared in &self.declared {
            match all.iter_mut().find(|a| a.name == declared.name) {
                Some(slot) => *slot = declared.clone(),
                None => all.push(declared.clone()),
            }
        }
        self.definition.arguments = (!all.is_empty()).then_some(all);
    }
}

/// The prompt arguments a JSON Schema describes: each property of an object schema, required
/// when the schema says so.
fn arguments_of(schema: &Value) -> Vec<PromptArgument> {
    let Some(schema) = schema.as_object() else {
        return Vec::new();
    };
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = crate::schema::required_names(schema).collect();
    properties
        .iter()
        .map(|(name, prop)| PromptArgument {
            name: name.clone(),
            title: prop.get("title").and_then(Value::as_str).map(str::to_owned),
            description: prop
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            required: Some(required.contains(&name.as_str())),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// First.
        b: String,
        a: Option<u8>,
        #[serde(default)]
        c: bool,
    }

    fn prompt() -> Prompt {
        Prompt::new("p").get(|_ctx: Context, _args: Args| async move { Ok("x") })
    }

    #[test]
    fn arguments_follow_the_schema_and_declarations_override_them() {
        let p = prompt().argument(PromptArgument::new("a").required().title("A"));
        let args = p.definition().arguments.clone().unwrap();
        let names: Vec<_> = args.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names.len(), 3);
        let get = |n: &str| args.iter().find(|a| a.name == n).unwrap().clone();
        assert_eq!(get("b").required, Some(true));
        assert_eq!(get("b").description.as_deref(), Some("First."));
        assert_eq!(get("c").required, Some(false));
        assert_eq!(get("a").title.as_deref(), Some("A"));
        assert_eq!(get("a").required, Some(true));
    }

    #[test]
    fn argument_checks_name_the_argument() {
        let p = prompt();
        let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
        assert!(p.definition().check_arguments(&[pair("b", "x")]).is_ok());
        let e = p.definition().check_arguments(&[]).unwrap_err().to_string();
        assert!(e.contains("requires the argument `b`"), "{e}");
        let e = p
            .definition()
            .check_arguments(&[pair("b", "x"), pair("z", "1")])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no argument `z`") && e.contains("a, b, c"),
            "{e}"
        );
        let none = Prompt::new("n").text("t");
        assert!(none.definition().arguments.is_none());
        let e = none
            .definition()
            .check_arguments(&[pair("z", "1")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("takes no arguments"), "{e}");
    }
}
