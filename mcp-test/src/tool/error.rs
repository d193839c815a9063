//! [`ToolError`], the error every handler returns, and how `?` converts other errors into it.
//! Below [`Context`](crate::Context), whose [`require`](crate::Context::require) returns it.

use crate::rounds::ask::AskError;
use crate::wire::{Content, ErrorObject};
use std::fmt;

/// An error a handler returns: a tool's `run` (or [`Tool::call`](crate::Tool::call)), a
/// resource or template read, a prompt's get, or a completion.
///
/// It is one of three things, and what the client receives depends on which, and on the kind
/// of handler that returned it:
///
/// - **The handler's own words** ([`ToolError::new`], [`ToolError::with_content`]): the request
///   cannot be served as asked (an unknown city, a date in the past). From a tool it is a *tool
///   execution error*, a result with `isError: true` whose text the model can read and correct
///   itself from (spec §7, SEP-1303). From any other handler, which has no such result, it is
///   -32602 *Invalid params* with the message as written: what the spec asks for bad
///   arguments.
/// - **Another error, converted by `?`**: any `std::error::Error` converts, its message followed
///   by its sources. From a tool it is an `isError: true` result too; from any other handler
///   it is -32603 *Internal error*: a failed database query is not the client's fault.
/// - **A protocol error** ([`ToolError::protocol`], or `.into()` on an [`ErrorObject`]): answered
///   as that JSON-RPC error, from every handler (for example -32021 when a tool needs a client
///   capability the request did not declare, or [`NotFound`](crate::resources::NotFound)).
///
/// | handler | `ToolError::new(..)` | `?` on another error | an [`ErrorObject`] | a panic |
/// |---|---|---|---|---|
/// | tool (`run`, [`Tool::call`](crate::Tool::call)) | `isError: true`, the message as content | `isError: true` | that error | -32603, `data.tool`, `data.panic` |
/// | resource or template read | -32602, the message, `data.uri` | -32603, `data.uri` | that error (-32602 gets `data.uri`) | -32603, `data.uri`, `data.panic` |
/// | prompt get | -32602, the message, `data.prompt` | -32603, `data.prompt` | that error | -32603, `data.prompt`, `data.panic` |
/// | completion | -32602, the message, `data.argument` | -32603, `data.argument` | that error | -32603, `data.argument`, `data.panic` |
///
/// Before any handler runs, the server answers what it can tell by itself: a tool's arguments
/// that break its input schema are an `isError` result naming the JSON pointer; an unknown
/// tool or prompt, a prompt's missing or unknown argument, and a URI no resource or template
/// serves are -32602.
///
/// For an internal failure in words of your own, return
/// [`ErrorObject::internal`](crate::wire::ErrorObject::internal).
///
/// ```
/// use mcp_test::{ToolError, wire::ErrorObject};
///
/// // The handler's own words: `isError` from a tool, -32602 from a prompt or resource.
/// let rejected = ToolError::new("no forecast for Atlantis");
/// assert!(rejected.is_rejection());
///
/// // Another error, through `?`: `isError` from a tool, -32603 from a prompt or resource.
/// let failed: ToolError = "12x".parse::<i32>().unwrap_err().into();
/// assert_eq!(failed.to_string(), "invalid digit found in string");
/// assert!(!failed.is_rejection() && failed.protocol_error().is_none());
///
/// // A protocol error, answered as it is everywhere.
/// let p: ToolError = ErrorObject::invalid_params("Invalid params: bad date").into();
/// assert_eq!(p.protocol_error().unwrap().code, -32602);
/// ```
///
/// The same handler error from a tool and from a prompt:
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::prompts::Prompt;
///
/// /// Forecasts the weather.
/// #[derive(Tool)]
/// struct Forecast {
///     city: String,
/// }
///
/// impl Forecast {
///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
///         Err(ToolError::new(format!("no forecast for {}", self.city)))
///     }
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Trip {
///     city: String,
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let trip = Prompt::new("trip").get(|_ctx: Context, trip: Trip| async move {
///     Err::<String, _>(ToolError::new(format!("no trips to {}", trip.city)))
/// });
/// let server = Server::builder("travel", "1.0.0").tool::<Forecast>().prompt(trip).build().unwrap();
/// let mcp = TestContext::new(server);
/// assert_tool_error!(mcp.call_tool("forecast", json!({"city": "Atlantis"})).await, "no forecast for Atlantis");
/// let error = assert_rpc_error!(
///     mcp.get_prompt("trip", json!({"city": "Atlantis"})).await,
///     -32602,
///     "no trips to Atlantis"
/// );
/// assert_eq!(error.data.unwrap()["prompt"], "trip");
/// # }
/// ```
pub struct ToolError {
    kind: ToolErrorKind,
}

pub(crate) enum ToolErrorKind {
    /// The handler's own words ([`ToolError::new`], [`ToolError::with_content`]): `isError: true`
    /// from a tool, -32602 from any other handler.
    Rejected(Vec<Content>),
    /// Another error, converted by `?`: `isError: true` from a tool, -32603 from any other
    /// handler.
    Failed(Vec<Content>),
    /// Becomes this JSON-RPC error.
    Protocol(ErrorObject),
}

impl ToolError {
    /// The handler's own words about why the request cannot be served, as one text block: a
    /// tool execution error (`isError: true`) from a tool, -32602 *Invalid params* with this
    /// message from a resource, prompt or completion handler. See the [table](ToolError).
    pub fn new(message: impl fmt::Display) -> Self {
        ToolError {
            kind: ToolErrorKind::Rejected(vec![Content::text(message.to_string())]),
        }
    }

    /// As [`ToolError::new`], with arbitrary content blocks (a resource, prompt or completion
    /// handler's -32602 carries their text, one line each).
    pub fn with_content(content: Vec<Content>) -> Self {
        ToolError {
            kind: ToolErrorKind::Rejected(content),
        }
    }

    /// Whether this is the handler's own words ([`ToolError::new`],
    /// [`ToolError::with_content`]) rather than an error converted by `?` or a protocol error.
    pub fn is_rejection(&self) -> bool {
        matches!(self.kind, ToolErrorKind::Rejected(_))
    }

    /// A protocol error, answered as a JSON-RPC error rather than an `isError` result.
    pub fn protocol(error: ErrorObject) -> Self {
        ToolError {
            kind: ToolErrorKind::Protocol(error),
        }
    }

    /// The JSON-RPC error this answers with, if it is a protocol error.
    pub fn protocol_error(&self) -> Option<&ErrorObject> {
        match &self.kind {
            ToolErrorKind::Protocol(e) => Some(e),
            ToolErrorKind::Rejected(_) | ToolErrorKind::Failed(_) => None,
        }
    }

    pub(crate) fn into_kind(self) -> ToolErrorKind {
        self.kind
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ToolErrorKind::Protocol(e) => fmt::Display::fmt(e, f),
            ToolErrorKind::Rejected(content) | ToolErrorKind::Failed(content) => {
                let mut first = true;
                for block in content {
                    if !first {
                        f.write_str("\n")?;
                    }
                    first = false;
                    match block.as_text() {
                        Some(text) => f.write_str(text)?,
                        None => write!(f, "[{} content]", block.kind())?,
                    }
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ToolErrorKind::Protocol(e) => f.debug_tuple("ToolError::Protocol").field(e).finish(),
            ToolErrorKind::Rejected(c) => f.debug_tuple("ToolError::Rejected").field(c).finish(),
            ToolErrorKind::Failed(c) => f.debug_tuple("ToolError::Failed").field(c).finish(),
        }
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for ToolError {
    fn from(error: E) -> Self {
        // A question the client cannot answer (or answered wrongly) is a protocol error:
        // -32021 for a missing capability, -32602 for a malformed answer.
        if let Some(ask) = (&error as &dyn std::any::Any).downcast_ref::<AskError>() {
            return ToolError::protocol(ask.to_error_object());
        }
        ToolError {
            kind: ToolErrorKind::Failed(vec![Content::text(error_chain(&error))]),
        }
    }
}

/// An error and its sources, `: `-separated: many errors say little until their source
/// (hyper's "client error (Connect): tcp connect error: Connection refused").
pub(crate) fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut out = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        out.push_str(": ");
        out.push_str(&e.to_string());
        source = e.source();
    }
    out
}

impl From<ErrorObject> for ToolError {
    fn from(error: ErrorObject) -> Self {
        ToolError::protocol(error)
    }
}
