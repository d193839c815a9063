//! The [`Tool`] trait, what handlers may return ([`IntoToolResult`]), and tool errors
//! ([`ToolError`]).

pub(crate) mod error;

pub use error::ToolError;
pub(crate) use error::ToolErrorKind;

use crate::context::Context;
use crate::wire::{CallToolResult, Content, ToolAnnotations, ToolDefinition};
use serde_json::Value;
use std::future::Future;

/// An MCP tool: a Rust type whose values are the tool's parsed arguments.
///
/// `#[derive(Tool)]` implements this from the type's fields and doc comments; it can also be
/// implemented by hand, which is how to serve a tool whose schema is written out as JSON.
///
/// The type *is* the arguments (as with `clap::Parser`): the server validates the JSON arguments
/// against [`Tool::input_schema`], [`parses`](Tool::parse) them into `Self`, then
/// [`calls`](Tool::call) the value with the request's [`Context`]. Shared state such as a
/// database pool lives in the server's state or the request's assigns, both reached through the
/// context.
///
/// # A hand-written tool
///
/// ```
/// use mcp_test::{CallToolResult, Context, Tool, ToolError};
/// use serde_json::{json, Value};
///
/// struct Echo { text: String }
///
/// impl Tool for Echo {
///     const NAME: &'static str = "echo";
///
///     fn description() -> Option<String> {
///         Some("Echoes its input".into())
///     }
///
///     fn input_schema() -> Value {
///         json!({
///             "type": "object",
///             "properties": {"text": {"type": "string"}},
///             "required": ["text"],
///             "additionalProperties": false
///         })
///     }
///
///     fn parse(arguments: Value) -> Result<Self, ToolError> {
///         // The server has already validated `arguments` against `input_schema`.
///         Ok(Echo { text: arguments["text"].as_str().unwrap_or_default().to_owned() })
///     }
///
///     async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
///         Ok(CallToolResult::text(self.text))
///     }
/// }
///
/// assert_eq!(Echo::definition().name, "echo");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP tool",
    label = "`{Self}` does not implement `Tool`",
    note = "derive it: `#[derive(Tool)]` on a struct whose fields are the arguments (or on an enum, one variant per action), and an `async fn run(self, ctx: &Context) -> Result<String, ToolError>` (or another tool result) in an `impl` of the type",
    note = "or implement `mcp_test::Tool` by hand, to serve a tool whose schema is written out as JSON"
)]
pub trait Tool: Sized + Send + 'static {
    /// The tool's unique name: 1–128 characters of `[A-Za-z0-9_.-]`.
    const NAME: &'static str;

    /// Display title.
    fn title() -> Option<String> {
        None
    }

    /// What the tool does, for the model.
    fn description() -> Option<String> {
        None
    }

    /// JSON Schema (2020-12) of the arguments, with `"type": "object"` at the root.
    fn input_schema() -> Value;

    /// JSON Schema of `structuredContent`, if the tool returns structured output. When present,
    /// the server checks every successful result against it.
    fn output_schema() -> Option<Value> {
        None
    }

    /// Behaviour hints.
    fn annotations() -> Option<ToolAnnotations> {
        None
    }

    /// Whether a call may become a task (the tasks extension; see [`tasks`](crate::tasks)).
    /// Default: [`TaskSupport::Forbidden`](crate::tasks::TaskSupport::Forbidden). Derived
    /// tools set it with `#[tool(task = "optional")]` or `#[tool(task = "required")]`.
    fn task_support() -> crate::tasks::TaskSupport {
        crate::tasks::TaskSupport::Forbidden
    }

    /// Builds `Self` from arguments the server has already validated against the input schema.
    /// An error here becomes an `isError` result.
    fn parse(arguments: Value) -> Result<Self, ToolError>;

    /// [`Tool::parse`] from borrowed arguments: what the server calls. It keeps the arguments
    /// of a call (a call that asks for input binds its `requestState` to them, a task re-runs
    /// with them), so a tool that parses from a borrow costs no copy of them.
    /// `#[derive(Tool)]` deserializes straight from the borrow; the default clones the
    /// arguments into [`Tool::parse`].
    ///
    /// ```
    /// use mcp_test::{CallToolResult, Context, Tool, ToolError};
    /// use serde_json::{json, Value};
    ///
    /// struct Echo(String);
    ///
    /// impl Tool for Echo {
    ///     const NAME: &'static str = "echo";
    ///     fn input_schema() -> Value {
    ///         json!({"type": "object", "properties": {"text": {"type": "string"}}})
    ///     }
    ///     fn parse(arguments: Value) -> Result<Self, ToolError> {
    ///         Self::parse_borrowed(&arguments)
    ///     }
    ///     fn parse_borrowed(arguments: &Value) -> Result<Self, ToolError> {
    ///         Ok(Echo(arguments["text"].as_str().unwrap_or_default().to_owned()))
    ///     }
    ///     async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
    ///         Ok(CallToolResult::text(self.0))
    ///     }
    /// }
    ///
    /// assert_eq!(Echo::parse_borrowed(&json!({"text": "hi"})).unwrap().0, "hi");
    /// ```
    fn parse_borrowed(arguments: &Value) -> Result<Self, ToolError> {
        Self::parse(arguments.clone())
    }

    /// Runs the tool.
    fn call(self, ctx: &Context) -> impl Future<Output = Result<CallToolResult, ToolError>> + Send;

    /// The tool as `tools/list` publishes it.
    fn definition() -> ToolDefinition {
        ToolDefinition {
            name: Self::NAME.to_owned(),
            title: Self::title(),
            description: Self::description(),
            input_schema: Self::input_schema(),
            output_schema: Self::output_schema(),
            annotations: Self::annotations(),
            icons: None,
            meta: None,
        }
    }
}

/// What a tool handler may return.
///
/// | return type | result |
/// |---|---|
/// | `String`, `&'static str` | one text block |
/// | [`Content`] / `Vec<Content>` | those blocks (text, image, audio, resource link, embedded resource) |
/// | [`Json<T>`] | `structuredContent` plus its JSON as text; publishes `T`'s `outputSchema` |
/// | `serde_json::Value` | the JSON as one text block (unstructured) |
/// | [`CallToolResult`] | as is |
/// | `()` | an empty content list |
/// | `Result<T, E>` with `E: Into<ToolError>` | `T`'s result, or `isError: true` |
///
/// ```
/// use mcp_test::{IntoToolResult, Json};
/// let r = Json(serde_json::json!({"t": 21})).into_tool_result().unwrap();
/// assert_eq!(r.structured_content, Some(serde_json::json!({"t": 21})));
/// assert_eq!(r.content[0].as_text(), Some(r#"{"t":21}"#));
/// ```
#[diagnostic::on_unimplemented(
    message = "a tool cannot return `{Self}`",
    label = "`{Self}` is not a tool result",
    note = "return text (`String`, `&'static str`), `Content` or `Vec<Content>`, structured output (`Json<T>` with `T: Serialize + JsonSchema`), a `serde_json::Value`, a `CallToolResult`, `()`, or a `Result` of one of these whose error converts into `ToolError`",
    note = "for a number or another value, return `Json(value)` (structured) or `value.to_string()` (text); for a future, `.await` it"
)]
pub trait IntoToolResult {
    /// Converts the handler's return value into a result.
    fn into_tool_result(self) -> Result<CallToolResult, ToolError>;

    /// The `outputSchema` this return type implies, if it is structured.
    fn output_schema() -> Option<Value> {
        None
    }
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(self)
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoToolResult for Content {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![self]))
    }
}

impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(self))
    }
}

impl IntoToolResult for Value {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self.to_string()))
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(Vec::new()))
    }
}

impl<T: IntoToolResult, E: Into<ToolError>> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        self.map_err(Into::into).and_then(T::into_tool_result)
    }

    fn output_schema() -> Option<Value> {
        T::output_schema()
    }
}

/// Structured tool output: answers with `structuredContent` and the serialized JSON as a text
/// block, and makes the tool publish `T`'s JSON Schema as its `outputSchema`.
///
/// # Key order
///
/// Every object in the output, at every depth, has its keys sorted, in `structuredContent` and
/// in the text alike: a struct's fields do not keep their declaration order. JSON objects are
/// unordered (RFC 8259), and one canonical spelling keeps snapshots and caches stable whatever
/// `serde_json` features other crates of the build turn on (with `preserve_order`, maps would
/// otherwise keep insertion order). Arrays keep their order. Published schemas sort their keys
/// the same way ([`schema::publish`](crate::schema::publish)).
///
/// ```
/// use mcp_test::{IntoToolResult, Json};
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Forecast {
///     city: String,
///     celsius: f64,
///     hourly: Vec<Hour>,
/// }
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Hour {
///     time: String,
///     rain: bool,
/// }
///
/// let forecast = Forecast {
///     city: "Paris".into(),
///     celsius: 21.5,
///     hourly: vec![Hour { time: "09:00".into(), rain: false }, Hour { time: "10:00".into(), rain: true }],
/// };
/// let result = Json(forecast).into_tool_result().unwrap();
/// assert_eq!(
///     result.content[0].as_text().unwrap(),
///     r#"{"celsius":21.5,"city":"Paris","hourly":[{"rain":false,"time":"09:00"},{"rain":true,"time":"10:00"}]}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

impl<T: serde::Serialize + schemars::JsonSchema> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        let mut value = serde_json::to_value(&self.0)
            .map_err(|e| ToolError::new(format!("could not serialize the tool's output: {e}")))?;
        // A no-op unless some crate of the build turned on serde_json's `preserve_order`.
        value.sort_all_objects();
        Ok(CallToolResult::structured(value))
    }

    fn output_schema() -> Option<Value> {
        Some(crate::schema::schema_for::<T>())
    }
}
