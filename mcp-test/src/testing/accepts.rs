//! What the test surface accepts: the conversion traits behind its `impl Trait` parameters,
//! with their implementations. `AsResponse` (what every unwrapper and `assert_*` macro takes,
//! with `ResponseError`, why a value holds no response), `IntoTestServer` (what
//! `#[mcp_test(server = ..)]` takes), `IntoCommand` (the server `TestContext::stdio` and
//! `#[mcp_test(stdio = ..)]` start) and `HttpUrl` (what `#[mcp_test(http = ..)]` takes). Each says in its `#[diagnostic::on_unimplemented]` what to
//! write instead, so that a wrong value, a helper's future without `.await` above all, is
//! reported in the test's terms. Re-exported where they are used.

use crate::server::{BuildError, Server, ServerBuilder};
use crate::wire::{self, CallToolResult};
use serde_json::Value;
use std::fmt;

/// Anything a test receives from a server: a JSON-RPC response as a [`Value`], as JSON text
/// (`&str`, `String`, or the `Option<String>` of [`Server::handle_json`](crate::Server::handle_json)),
/// a typed [`wire::Response`], or a bare [`CallToolResult`].
///
/// Every unwrapper and `assert_*` macro takes an `impl AsResponse`, so one assertion works on
/// whatever a test has in hand. A transport adds its own response type with one impl.
///
/// ```
/// use mcp_test::testing::{text_response, AsResponse};
/// use mcp_test::CallToolResult;
/// use serde_json::json;
///
/// let rpc = json!({"jsonrpc": "2.0", "id": 1, "result": {
///     "resultType": "complete", "content": [{"type": "text", "text": "done"}]}});
/// assert_eq!(text_response(&rpc), "done");
/// assert_eq!(text_response(rpc.to_string()), "done");
/// assert_eq!(text_response(CallToolResult::text("done")), "done");
/// assert!(CallToolResult::text("x").response_json().is_ok());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a response to assert on",
    label = "not a response",
    note = "if this is a request helper's future, did you forget `.await`? `mcp.call_tool(\"add\", args).await`",
    note = "a response is a `serde_json::Value`, JSON text (`&str`, `String`), a `wire::Response`, a `CallToolResult`, an `Exchange`, `Rounds`, a `RunOutcome<CallToolResult>`, an `http::Response<Bytes>`, or an `Option` of one of these"
)]
pub trait AsResponse {
    /// The response as JSON: a JSON-RPC response object (with `result` or `error`), or a bare
    /// result object. `Err` says why there is none (text that is not JSON, a notification's
    /// missing reply); its text is what the unwrappers and `assert_*` macros panic with.
    fn response_json(&self) -> Result<Value, ResponseError>;
}

/// Why a value a test holds has no JSON-RPC response in it: the error of
/// [`AsResponse::response_json`]. Its text is the panic message of every unwrapper and
/// `assert_*` macro given such a value.
///
/// An implementation of [`AsResponse`] outside this crate says why in its own words with
/// [`ResponseError::Other`] (or `.into()` on a `String`).
///
/// ```
/// use mcp_test::testing::{AsResponse, ResponseError};
///
/// let err = "not json".response_json().unwrap_err();
/// assert!(matches!(err, ResponseError::NotJson { .. }));
/// assert!(err.to_string().starts_with("the response is not JSON"));
///
/// let none: Option<serde_json::Value> = None;
/// assert!(matches!(none.response_json(), Err(ResponseError::Missing)));
///
/// let custom = ResponseError::from("the socket closed".to_owned());
/// assert_eq!(custom.to_string(), "the socket closed");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResponseError {
    /// Text that is not JSON.
    #[error("the response is not JSON ({source}); received text:\n{text}")]
    NotJson {
        /// The text received.
        text: String,
        /// The parse error.
        source: serde_json::Error,
    },
    /// A tool result that does not serialize to JSON.
    #[error("the tool result does not serialize: {0}")]
    Unserializable(#[source] serde_json::Error),
    /// No response at all (`None`): the server answered nothing, as it does for a notification.
    #[error("there is no response: the server answered nothing, as it does for a notification")]
    Missing,
    /// A multi-round run without a response in its last round.
    #[error("the run has no response")]
    EmptyRun,
    /// An exchange without a JSON-RPC response (an HTTP 202, or a notification).
    #[error("the exchange has no JSON-RPC response (HTTP status {status:?})")]
    NoReply {
        /// The HTTP status, if the exchange was over HTTP.
        status: Option<u16>,
    },
    /// Any other reason, in the words of the [`AsResponse`] implementation.
    #[error("{0}")]
    Other(String),
}

impl From<String> for ResponseError {
    fn from(reason: String) -> Self {
        ResponseError::Other(reason)
    }
}

impl AsResponse for Value {
    fn response_json(&self) -> Result<Value, ResponseError> {
        Ok(self.clone())
    }
}

impl AsResponse for str {
    fn response_json(&self) -> Result<Value, ResponseError> {
        serde_json::from_str(self).map_err(|source| ResponseError::NotJson {
            text: self.to_owned(),
            source,
        })
    }
}

impl AsResponse for String {
    fn response_json(&self) -> Result<Value, ResponseError> {
        self.as_str().response_json()
    }
}

impl AsResponse for wire::Response {
    fn response_json(&self) -> Result<Value, ResponseError> {
        Ok(self.to_value())
    }
}

impl AsResponse for CallToolResult {
    fn response_json(&self) -> Result<Value, ResponseError> {
        serde_json::to_value(self).map_err(ResponseError::Unserializable)
    }
}

impl<T: AsResponse> AsResponse for Option<T> {
    fn response_json(&self) -> Result<Value, ResponseError> {
        match self {
            Some(response) => response.response_json(),
            None => Err(ResponseError::Missing),
        }
    }
}

impl<T: AsResponse + ?Sized> AsResponse for &T {
    fn response_json(&self) -> Result<Value, ResponseError> {
        (**self).response_json()
    }
}

/// A multi-round run is its last response for every unwrapper and assertion.
impl AsResponse for crate::target::Rounds {
    fn response_json(&self) -> Result<Value, ResponseError> {
        self.exchanges
            .last()
            .and_then(|e| e.response.clone())
            .ok_or(ResponseError::EmptyRun)
    }
}

/// An exchange is its JSON-RPC response for every unwrapper and assertion.
impl AsResponse for crate::target::Exchange {
    fn response_json(&self) -> Result<Value, ResponseError> {
        self.response.clone().ok_or(ResponseError::NoReply {
            status: self.status,
        })
    }
}

/// What `#[mcp_test(server = ..)]` accepts: a [`Server`], a [`ServerBuilder`] (built here), or
/// a `Result<Server, E>` (unwrapped here). A build failure panics with the reason.
///
/// ```
/// use mcp_test::testing::IntoTestServer;
/// use mcp_test::Server;
/// let server = Server::builder("demo", "1.0.0").into_test_server();
/// assert_eq!(server.info().name, "demo");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a server to test",
    label = "expected a `Server`, a `ServerBuilder` or a `Result<Server, _>`",
    note = "`#[mcp_test(server = f)]` calls `f()`, and `server = expr` takes the expression as it is",
    note = "if it is a future (an `async fn` that builds the server), `.await` it: `server = f().await`; or make `f` a plain `fn`, since building a `Server` needs no `.await`"
)]
pub trait IntoTestServer {
    /// The server.
    fn into_test_server(self) -> Server;
}

impl IntoTestServer for Server {
    fn into_test_server(self) -> Server {
        self
    }
}

impl IntoTestServer for ServerBuilder {
    #[track_caller]
    fn into_test_server(self) -> Server {
        self.build()
            .unwrap_or_else(|e: BuildError| panic!("the test server could not be built: {e}"))
    }
}

impl<E: fmt::Display> IntoTestServer for Result<Server, E> {
    #[track_caller]
    fn into_test_server(self) -> Server {
        self.unwrap_or_else(|e| panic!("the test server could not be built: {e}"))
    }
}

/// What [`TestContext::stdio`](crate::testing::TestContext::stdio) and `#[mcp_test(stdio = ..)]` accept as the server to start: a
/// program path (`&str`, `String`, `&Path`, `PathBuf`), a `[program, args..]` array or
/// `Vec`, or a built `tokio::process::Command` or `std::process::Command`.
///
/// ```
/// use mcp_test::testing::IntoCommand;
/// let command = ["python3", "-m", "my_server"].into_command();
/// assert_eq!(command.as_std().get_program(), "python3");
/// assert_eq!(command.as_std().get_args().count(), 2);
/// ```
#[cfg(feature = "client")]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a command to start a server with",
    label = "expected a program path, a [program, args..] array, or a Command",
    note = "`#[mcp_test(stdio = ..)]` and `TestContext::stdio` take a path, an array such as `[\"python3\", \"server.py\"]`, or a `tokio::process::Command`"
)]
pub trait IntoCommand {
    /// The command.
    fn into_command(self) -> tokio::process::Command;
}

#[cfg(feature = "client")]
mod into_command {
    use super::IntoCommand;
    use std::ffi::OsStr;
    use std::path::{Path, PathBuf};

    fn from_parts<S: AsRef<OsStr>>(parts: &[S]) -> tokio::process::Command {
        let (program, args) = parts.split_first().unwrap_or_else(|| {
            panic!("IntoCommand: the command array is empty; give at least the program")
        });
        let mut command = tokio::process::Command::new(program);
        command.args(args);
        command
    }

    impl IntoCommand for tokio::process::Command {
        fn into_command(self) -> tokio::process::Command {
            self
        }
    }
    impl IntoCommand for std::process::Command {
        fn into_command(self) -> tokio::process::Command {
            tokio::process::Command::from(self)
        }
    }
    /// A program path: the command runs it with no arguments.
    macro_rules! program_path {
        ($($path:ty),*) => {$(
            impl IntoCommand for $path {
                fn into_command(self) -> tokio::process::Command {
                    tokio::process::Command::new(self)
                }
            }
        )*};
    }
    program_path!(&str, String, &Path, PathBuf);

    impl<S: AsRef<OsStr>, const N: usize> IntoCommand for [S; N] {
        fn into_command(self) -> tokio::process::Command {
            from_parts(&self)
        }
    }
    impl<S: AsRef<OsStr>> IntoCommand for Vec<S> {
        fn into_command(self) -> tokio::process::Command {
            from_parts(&self)
        }
    }
}

/// What `#[mcp_test(http = ..)]` takes: anything `AsRef<str>`. A trait of its own so that
/// what is not a URL, a fixture's future above all, is reported with what to write.
#[cfg(feature = "http")]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a URL to send requests to",
    label = "expected a URL such as \"http://127.0.0.1:8080/mcp\" (`&str`, `String`)",
    note = "if this starts the server and is async, did you forget `.await`? `#[mcp_test(http = start_server().await)]`"
)]
pub trait HttpUrl {
    /// The URL.
    fn url(&self) -> &str;
}

#[cfg(feature = "http")]
impl<T: AsRef<str>> HttpUrl for T {
    fn url(&self) -> &str {
        self.as_ref()
    }
}
