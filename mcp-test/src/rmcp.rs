//! Servers built with [rmcp](https://docs.rs/rmcp), the official Rust SDK, under the same test
//! surface (feature `rmcp`).
//!
//! [`RmcpServer::serve`] runs any rmcp 3.11 [`ServerHandler`] in this
//! process, on the test's tokio runtime, and speaks to it over an in-memory pipe
//! (`tokio::io::duplex`) with the [`Client`] that speaks to every other server: newline-delimited
//! JSON-RPC, the way the server would be spoken to over stdio, through rmcp's own transport and
//! service loop. Nothing is mocked on either side, so what a test sees is what an MCP client
//! would see: rmcp's `server/discover` answer, its argument checking, its `input_required`
//! rounds, its errors.
//!
//! An [`RmcpServer`] is a [`Target`], so everything that takes a target takes it:
//! [`TestContext::rmcp`](crate::testing::TestContext::rmcp) and `#[mcp_test(rmcp = ..)]`, every
//! request helper and `assert_*` macro, the round driver, `assert_schema_cases!` and
//! `mcp_test_check::check` (the checker's crate).
//!
//! ```
//! use mcp_test::rmcp::RmcpServer;
//! use mcp_test::testing::TestContext;
//! use mcp_test::assert_tool_text;
//! use rmcp::handler::server::wrapper::Parameters;
//! use rmcp::model::{ServerCapabilities, ServerConfig};
//! use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct AddArgs {
//!     a: i64,
//!     b: i64,
//! }
//!
//! #[derive(Clone)]
//! struct Calculator;
//!
//! #[tool_router]
//! impl Calculator {
//!     /// Adds two integers.
//!     #[tool]
//!     fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
//!         (a + b).to_string()
//!     }
//! }
//!
//! #[tool_handler]
//! impl ServerHandler for Calculator {
//!     fn get_info(&self) -> ServerConfig {
//!         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let mcp = TestContext::rmcp(Calculator);
//! assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 3})).await, "5");
//! # }
//! ```
//!
//! Identity options of [`RequestOptions`](crate::testing::RequestOptions) (principal, tenant,
//! scopes, assigns) do not reach an rmcp server, as they do not reach a server over stdio or
//! HTTP: rmcp authenticates its callers itself.

use crate::client::{Client, ClientError};
use crate::server::Caller;
use crate::target::{Connection, Target, TargetError, TargetFuture};
use ::rmcp::{ServerHandler, ServiceExt};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The size of each direction of the in-memory pipe: large enough that a reply of any usual
/// size is written in one go, small enough to cost nothing. A larger message still passes, in
/// pieces, as it would through a pipe to a child process.
const PIPE_BYTES: usize = 256 * 1024;

/// An rmcp server running in this process, and the client connected to it: a [`Target`]. See
/// the [module docs](self).
///
/// The server runs on a task of the runtime that called [`RmcpServer::serve`]; it stops when
/// the `RmcpServer` is dropped (the task is aborted, which drops rmcp's running service), or
/// when [`RmcpServer::close`] closes its input first.
#[derive(Debug)]
pub struct RmcpServer {
    client: Client,
    label: String,
    /// The handler's `get_info().server_info` (name and version), known before any request.
    server_info: Value,
    task: AbortOnDrop,
    /// Why rmcp's service stopped, once it has: an error starting the service, or the task's
    /// panic. Quoted by a failing request, so a test says why the server went away.
    stopped: Arc<Mutex<Option<String>>>,
}

impl RmcpServer {
    /// Serves `handler` on a task of the current tokio runtime and connects a client to it.
    /// Nothing is sent until the first request: rmcp's server waits for the client to open
    /// the session (`server/discover` in 2026-07-28, `initialize` in the 2025 era), which the
    /// first helper call does.
    ///
    /// # Panics
    ///
    /// Outside a tokio runtime (as `tokio::spawn` does). `#[mcp_test]` and `#[tokio::test]`
    /// bodies run inside one.
    pub fn serve<S: ServerHandler>(handler: S) -> RmcpServer {
        let info = handler.get_info();
        let label = format!(
            "rmcp server {} {} (in process)",
            info.server_info.name, info.server_info.version
        );
        let server_info = serde_json::json!({
            "name": info.server_info.name,
            "version": info.server_info.version,
        });
        let (client_end, server_end) = tokio::io::duplex(PIPE_BYTES);
        let stopped = Arc::new(Mutex::new(None));
        let record = Arc::clone(&stopped);
        let task = tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_end);
            let why = match handler.serve((read, write)).await {
                Ok(running) => match running.waiting().await {
                    Ok(_) => "the server's service loop ended".to_owned(),
                    Err(e) => format!("the server's service loop failed: {e}"),
                },
                Err(e) => format!("the server did not start its session: {e}"),
            };
            if let Ok(mut slot) = record.lock() {
                *slot = Some(why);
            }
        });
        let (read, write) = tokio::io::split(client_end);
        RmcpServer {
            client: Client::connect(read, write),
            label,
            server_info,
            task: AbortOnDrop(task),
            stopped,
        }
    }

    /// The client connected to the server: for what [`Target`] does not expose, such as
    /// [`Client::call_rounds`] or a timeout of its own ([`RmcpServer::with_timeout`]).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// How long a request waits for its reply when the caller sets no timeout (the client's
    /// default otherwise, [`crate::client::DEFAULT_TIMEOUT`]).
    pub fn with_timeout(mut self, timeout: Duration) -> RmcpServer {
        self.client = self.client.with_timeout(timeout);
        self
    }

    /// Closes the server's input, as a client closes a child's stdin, and waits up to
    /// `grace` for rmcp's service to stop; then stops it.
    pub async fn close(mut self, grace: Duration) {
        let _ = self.client.close_within(grace).await;
        if tokio::time::timeout(grace, &mut self.task.0).await.is_err() {
            self.task.0.abort();
        }
    }

    /// Why the server stopped, if it has.
    fn stopped(&self) -> Option<String> {
        self.stopped.lock().ok().and_then(|slot| slot.clone())
    }
}

/// The server's task, aborted when dropped: dropping rmcp's running service stops it.
#[derive(Debug)]
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Target for RmcpServer {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let error = match Target::send(&self.client, message, caller).await {
                Ok(exchange) => return Ok(exchange),
                Err(error) => error,
            };
            let Some(why) = self.stopped() else {
                return Err(error);
            };
            // The client saw the pipe close; say why rmcp closed it.
            let why = format!(" ({} stopped: {why})", self.label);
            Err(match error {
                TargetError::Client(ClientError::Closed { request, stderr }) => {
                    TargetError::Client(ClientError::Closed {
                        request,
                        stderr: stderr + &why,
                    })
                }
                TargetError::Client(ClientError::Io {
                    what,
                    source,
                    stderr,
                }) => TargetError::Client(ClientError::Io {
                    what,
                    source,
                    stderr: stderr + &why,
                }),
                other => other,
            })
        })
    }

    fn connection(&self) -> Connection {
        self.client
            .connection()
            .with_server_info(self.server_info.clone())
    }
}
