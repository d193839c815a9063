//! # mcp-test
//!
//! Declarative tests, and a spec-exact runtime, for MCP (Model Context Protocol) servers on
//! revision **2026-07-28**.
//!
//! - [`Tool`] is an MCP tool: a Rust type whose values are the tool's arguments;
//!   [`#[derive(Tool)]`](derive@Tool) generates its input schema, parsing and validation.
//! - [`Server`] serves tools on the real wire: `server/discover`, `tools/list`, `tools/call`,
//!   with the envelope, error codes, cache hints and `resultType` of the spec. Its entry point
//!   takes JSON text and returns JSON text ([`Server::handle_json`]), so every test exercises
//!   serialization. A connection to it ([`session::Session`]: stdio, HTTP, or in process)
//!   speaks 2026-07-28 or the 2025-11-25 `initialize` handshake, fixed by its first message
//!   ([`ServerBuilder::eras`] chooses the eras served).
//! - [`resources`] and [`prompts`] declare resources, RFC 6570 resource templates
//!   ([`uri_template`]) and prompts with typed builders; [`completion`] completes their
//!   arguments; [`Access`] restricts any definition to the callers allowed to see it
//!   ([`authorization`]).
//! - [`wire`] is the wire model: JSON-RPC envelope, `_meta`, content blocks, results, errors.
//! - [`testing`] is the test surface: [`#[mcp_test]`](macro@mcp_test),
//!   [`TestContext`](testing::TestContext) (in process, over stdio or over HTTP), the request
//!   helpers and the `assert_*` macros. `use mcp_test::prelude::*;` ([`prelude`]) imports what
//!   a test file needs. With feature `rmcp`, the same surface tests a server built with rmcp,
//!   the official Rust SDK (module `rmcp`, `#[mcp_test(rmcp = ..)]`).
//! - [`surface`] reads a server's surface (tools with their schemas and annotations,
//!   resources, templates, prompts, capabilities) from any target into one document, and
//!   classes the drift between two as breaking, additive or cosmetic
//!   ([`surface::diff()`]; `assert_surface_snapshot!` with feature `insta`).
//!
//! ```
//! use mcp_test::prelude::*;
//!
//! /// Adds two integers.
//! #[derive(Tool)]
//! struct Add {
//!     /// The first addend
//!     a: i64,
//!     /// The second addend
//!     b: i64,
//! }
//!
//! impl Add {
//!     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
//!         Ok((self.a + self.b).to_string())
//!     }
//! }
//!
//! fn calculator() -> Server {
//!     Server::builder("calculator", "1.0.0").tool::<Add>().build().unwrap()
//! }
//!
//! // In a test file: #[mcp_test(server = calculator)] async fn adds(mcp: TestContext) { .. }
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let mcp = TestContext::new(calculator());
//! assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 3})).await, "5");
//! // The input schema comes from the type: arguments that break it never reach `run`.
//! assert_tool_error!(mcp.call_tool("add", json!({"a": 2, "b": "three"})).await, "/b");
//! # }
//! ```

#![warn(missing_docs)]

// `#[derive(Tool)]` names `::mcp_test`; this lets the crate's own derived tools (the bundled
// example server of `cases`) use it too.
extern crate self as mcp_test;

/// Builder methods, one entry each, with the caller's docs and attributes, each `#[must_use]`:
///
/// - `field: Type;` gives `pub fn field(mut self, field: Type) -> Self`, which sets `self.field`;
/// - `name(value: Type) => path.to.field = expr;` gives `pub fn name(mut self, value: Type) ->
///   Self`, which sets `self.path.to.field` to `expr` (written in terms of `value`).
///
/// One spelling of a setter for every builder of the library, so that a builder reads as the
/// list of what it sets. Exported, hidden, for the options types of `mcp-test-check`; not part
/// of the API.
#[doc(hidden)]
#[macro_export]
macro_rules! __setters {
    () => {};
    ($(#[$attr:meta])* $field:ident: $ty:ty; $($rest:tt)*) => {
        $(#[$attr])*
        #[must_use]
        #[allow(clippy::double_must_use)] // some builders are `#[must_use]` types already
        pub fn $field(mut self, $field: $ty) -> Self {
            self.$field = $field;
            self
        }
        $crate::__setters! { $($rest)* }
    };
    ($(#[$attr:meta])* $name:ident($value:ident: $ty:ty) => $($field:ident).+ = $set:expr; $($rest:tt)*) => {
        $(#[$attr])*
        #[must_use]
        #[allow(clippy::double_must_use)] // some builders are `#[must_use]` types already
        pub fn $name(mut self, $value: $ty) -> Self {
            self.$($field).+ = $set;
            self
        }
        $crate::__setters! { $($rest)* }
    };
}
pub(crate) use __setters as setters;

#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub mod auth;
pub mod authorization;
#[cfg(feature = "cases")]
#[cfg_attr(docsrs, doc(cfg(feature = "cases")))]
pub mod cases;
pub mod cassette;
mod catalog;
#[cfg(any(feature = "client", feature = "http"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "client", feature = "http"))))]
pub mod client;
pub mod completion;
mod context;
mod derive_support;
pub mod headers;
pub mod notify;
mod pagination;
pub mod prompts;
mod request_state;
pub mod resources;
pub mod returns;
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub mod rmcp;
pub mod rounds;
pub mod schema;
mod server;
pub mod session;
pub mod spec;
pub mod string_args;
mod subscriptions;
pub mod surface;
pub mod target;
pub mod tasks;
pub mod testing;
mod tool;
pub mod transport;
pub mod uri_template;
pub mod validation;
pub mod wire;

/// Not public API: the pieces of the case engine and the HTTP client that `mcp-test-check`,
/// which depends on this exact version, builds its probes on. No semver guarantee.
#[doc(hidden)]
#[cfg(feature = "cases")]
pub mod __check {
    pub use crate::cases::target::{Deadline, Late, LateOutcome, Session};
    #[cfg(feature = "http")]
    pub use crate::client::auth::challenge_param;
    #[cfg(feature = "http")]
    pub use crate::client::{HttpClient, HttpReply, unauthorized};
}

pub use authorization::Access;
pub use context::{Context, ContextBuilder, Extensions, Identity, MissingState};
pub use server::{BuildError, Caller, Server, ServerBuilder};
pub use tool::{IntoToolResult, Json, Tool, ToolError};
pub use wire::{CallToolResult, Content, ErrorObject};

#[doc = include_str!("testing/mcp_test_attr.md")]
pub use mcp_test_macros::mcp_test;
/// `#[mcp_test]` under the name `test`, so `#[mcp_test::test(server = ..)]` composes with
/// `rstest`, which recognises a test attribute by its last path segment. See
/// [`mcp_test`](macro@mcp_test).
pub use mcp_test_macros::mcp_test as test;

#[doc = include_str!("derive_tool.md")]
pub use mcp_test_macros::Tool;

/// Everything a test file needs, in one import: `use mcp_test::prelude::*;`.
///
/// - to write a server: [`Tool`] (the trait and `#[derive(Tool)]`), [`Context`],
///   [`ToolError`], [`Server`], [`Json`], [`CallToolResult`], [`Content`];
/// - to test it: [`#[mcp_test]`](macro@crate::mcp_test), [`TestContext`](crate::testing::TestContext),
///   [`RequestOptions`](crate::testing::RequestOptions), the `assert_*` macros and
///   [`mcp_request!`](crate::mcp_request);
/// - for multi-round tools: [`Answers`](crate::target::Answers), [`answer`](crate::testing::answer),
///   and what the helpers return, [`Rounds`](crate::target::Rounds) and
///   [`Exchange`](crate::target::Exchange);
/// - `serde_json`'s [`json!`](serde_json::json), for the arguments every helper takes.
///
/// ```
/// use mcp_test::prelude::*;
///
/// /// Says hello.
/// #[derive(Tool)]
/// struct Hello {}
///
/// impl Hello {
///     async fn run(self, _ctx: &Context) -> Result<&'static str, ToolError> {
///         Ok("hello")
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let mcp = TestContext::new(Server::builder("demo", "1.0.0").tool::<Hello>().build().unwrap());
/// assert_tool_text!(mcp.call_tool("hello", json!({})).await, "hello");
/// # }
/// ```
pub mod prelude {
    #[cfg(feature = "insta")]
    #[doc(no_inline)]
    pub use crate::assert_response_snapshot;
    #[cfg(feature = "cases")]
    #[doc(no_inline)]
    pub use crate::assert_schema_cases;
    #[cfg(feature = "insta")]
    #[doc(no_inline)]
    pub use crate::assert_surface_snapshot;
    #[doc(no_inline)]
    pub use crate::target::{Answers, Exchange, Rounds};
    #[doc(no_inline)]
    pub use crate::testing::{RequestOptions, TestContext, answer};
    #[doc(no_inline)]
    pub use crate::{CallToolResult, Content, Context, Json, Server, Tool, ToolError};
    #[doc(no_inline)]
    pub use crate::{
        assert_input_required, assert_rpc_error, assert_task_status, assert_tool_error,
        assert_tool_json, assert_tool_text, mcp_request,
    };
    #[doc(no_inline)]
    pub use mcp_test_macros::mcp_test;
    #[doc(no_inline)]
    pub use serde_json::json;
}

/// Not public API: what code generated by `mcp-test-macros` calls. The macros crate is pinned to
/// this crate's exact version, so this module may change in any release. Every path a macro
/// expands to goes through here (beside `::core`), so the public modules can move freely.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "insta")]
    pub use insta;
    pub use schemars;
    pub use serde;
    pub use serde_json;
    pub use std::string::String;
    pub use std::vec;
    pub use tokio;
    // #[derive(Tool)]
    pub use crate::context::Context;
    pub use crate::derive_support::*;
    pub use crate::tasks::TaskSupport;
    pub use crate::tool::{IntoToolResult, Tool, ToolError};
    pub use crate::wire::{CallToolResult, ToolAnnotations};
    // #[mcp_test]
    pub use crate::testing::attr_support::*;
    pub use crate::testing::{IntoTestServer, RequestOptions, TestContext};
    pub use crate::wire::Era;
}
