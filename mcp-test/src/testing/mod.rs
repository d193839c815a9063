//! The declarative test surface: request builders, request helpers that go through the server's
//! real path, unwrappers, and the `assert_*` macros.
//!
//! - **Builders** make request bodies with the protocol fields filled in:
//!   [`protocol_fields`], [`build_request`], [`build_call_request`], [`build_action_request`],
//!   the [`mcp_request!`](crate::mcp_request) macro, and the mirrored HTTP headers
//!   ([`mirrored_headers`], [`put_mirrored_headers`]).
//! - **Request helpers** ([`call_tool`], [`list_tools`], [`read_resource`], [`get_prompt`],
//!   [`complete`], [`discover`], [`request`], ...) encode a request to JSON text, dispatch it
//!   through [`Server::handle_json_with`](crate::Server::handle_json_with) — scopes, schema
//!   validation, handler, output validation, round boundary — and return the complete JSON-RPC
//!   response. [`RequestOptions`] says who is asking and what the request carries;
//!   [`TestContext`] bundles a server with options, and is what
//!   [`#[mcp_test]`](macro@crate::mcp_test) hands a test.
//! - **Unwrappers** ([`text_response`], [`json_response`], [`error_text`], [`image_response`],
//!   [`unwrap_text`], ...) and the **assertions** ([`assert_tool_text!`](crate::assert_tool_text),
//!   [`assert_tool_json!`](crate::assert_tool_json), [`assert_tool_error!`](crate::assert_tool_error),
//!   [`assert_rpc_error!`](crate::assert_rpc_error),
//!   [`assert_input_required!`](crate::assert_input_required)) take anything [`AsResponse`]
//!   accepts, and on the wrong branch panic naming the branch they found, with everything
//!   received.
//!
//! Every helper and assertion that can fail reports the test's line: the sync ones are
//! `#[track_caller]` (the panic is located there), and the async ones (the request, task and
//! round helpers, free or on [`TestContext`]) capture where they were called before they are
//! awaited and begin their panic message with it (`tests/orders.rs:42:20: stdio ... gave no
//! reply to tools/call "refund": ...`), since a panic inside a future is located in
//! mcp-test's sources. A question a round script has no answer for lists the keys the script
//! does answer, so a misspelt key shows.
//!
//! ```
//! use mcp_test::prelude::*;
//!
//! /// Divides two integers.
//! #[derive(Tool)]
//! struct Divide {
//!     /// The dividend
//!     a: i64,
//!     /// The divisor
//!     b: i64,
//! }
//!
//! impl Divide {
//!     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
//!         if self.b == 0 {
//!             return Err(ToolError::new("division by zero"));
//!         }
//!         Ok((self.a / self.b).to_string())
//!     }
//! }
//!
//! fn calculator() -> Server {
//!     Server::builder("calculator", "1.0.0").tool::<Divide>().build().unwrap()
//! }
//!
//! // In a test suite: #[mcp_test(server = calculator)] async fn divides(mcp: TestContext) {..}
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let mcp = TestContext::new(calculator());
//! assert_tool_text!(mcp.call_tool("divide", json!({"a": 6, "b": 3})).await, "2");
//! assert_tool_error!(mcp.call_tool("divide", json!({"a": 1, "b": 0})).await, "by zero");
//! assert_tool_error!(mcp.call_tool("divide", json!({"a": "x", "b": 1})).await, "/a");
//! assert_rpc_error!(mcp.call_tool("multiply", json!({})).await, -32602, "Unknown tool");
//! # }
//! ```

mod accepts;
mod assert;
pub(crate) mod attr_support;
pub mod coverage;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
#[cfg(all(feature = "client", feature = "http"))]
mod http_command;
mod in_process;
mod request;
mod request_macro;
mod response;
mod rounds;
mod snapshot;
mod surface_snapshot;
mod tasks;

pub use crate::wire::build::{
    __with_id, __with_meta, REQUEST_ID, build_action_request, build_call_request, build_request,
    mirrored_headers, mirrored_headers_for, protocol_fields, put_mirrored_headers,
    put_mirrored_headers_for,
};
#[cfg(feature = "client")]
pub use accepts::IntoCommand;
pub use accepts::{AsResponse, IntoTestServer, ResponseError};
pub use assert::__assert;
#[cfg(all(feature = "client", feature = "http"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "client", feature = "http"))))]
pub use http_command::{
    DEFAULT_STARTUP, HttpCommand, HttpCommandError, HttpProcess, IntoHttpCommand, PORT,
};
pub use request::{
    DEFAULT_PRINCIPAL, DEFAULT_WAIT, RequestOptions, TestContext, call_tool, complete, discover,
    exchange, get_prompt, list_prompts, list_resource_templates, list_resources, list_tools,
    read_resource, request, send,
};
pub use response::{
    audio_response, error_text, image_response, input_required, json_response, result, rpc_error,
    text_response, unwrap_json, unwrap_single, unwrap_text,
};
pub use rounds::{MAX_ROUNDS, drive_tool};
#[cfg(feature = "insta")]
pub use snapshot::__case_guard;
pub use snapshot::{
    __case_of, DEFAULT_REDACTIONS, DefaultRedaction, Redactions, RedactionsGuard, normalize,
};
pub use surface_snapshot::__surface_json;
pub use tasks::{
    __task_status, POLL_LIMIT, answer_task, call_tool_as_task, cancel_task, get_task, poll_task,
    run_task, task_id, task_status, update_task,
};

/// The in-process side of multi-round testing: run a tool inside the round boundary of
/// [`crate::rounds`] with scripted answers ([`run_tool`], [`Driver`]), and build those answers
/// ([`answer`]). A [`RunOutcome`]`<CallToolResult>` is an [`AsResponse`], so the `assert_*`
/// macros take it too.
pub use in_process::{DriveError, Driver, RunOutcome, Transcript, answer, run_in_round, run_tool};
