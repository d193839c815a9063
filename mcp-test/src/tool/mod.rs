//! The [`Tool`] trait, what handlers may return ([`IntoToolResult`]), and tool errors
//! ([`ToolError`]).

pub(crate) mod error;

pub use crate::returns::{IntoToolResult, Json};
pub use error::ToolError;
pub(crate) use error::ToolErrorKind;

use crate::context::Context;
use crate::wire::{CallToolResult, ToolAnnotations, ToolDefinition};
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
