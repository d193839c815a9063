//! A server's surface (its tools with their input and output schemas and annotations,
//! resources, resource templates, prompts and capabilities) as one document, and the drift
//! between two of them, classed by what it does to clients.
//!
//! - [`Surface`] is the document: [`Surface::fetch`] reads it from any
//!   [`Target`](crate::target::Target) (an in-process [`Server`](crate::Server), a stdio or
//!   HTTP `client::Client`, an rmcp server, a
//!   [`TestContext`](crate::testing::TestContext)) in either era, every page of every list;
//!   [`Surface::from_text`] reads one another tool wrote, or a person; `to_text` writes it
//!   normalized (sorted), fit for a file under version control or a snapshot
//!   (`assert_surface_snapshot!`, feature `insta`).
//! - [`diff()`] compares two surfaces and returns the [`Drift`]: every [`Change`] with its
//!   [`Location`] (the item, and a JSON pointer into it), its [`Class`] (breaking, additive,
//!   cosmetic) and the reason, rendered as text, JSON or Markdown. The rules are in the
//!   [`diff`](mod@diff) module's docs.
//!
//! `mcp-test surface [TARGET]` prints a surface, and `mcp-test diff OLD NEW --fail-on
//! breaking` gates a CI run on it.
//!
//! ```
//! use mcp_test::prelude::*;
//! use mcp_test::surface::{diff, Class, Surface};
//!
//! /// Says hello.
//! #[derive(Tool)]
//! struct Hello {
//!     /// Who to greet
//!     name: String,
//! }
//! impl Hello {
//!     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
//!         Ok(format!("hello {}", self.name))
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = Server::builder("demo", "1.0.0").tool::<Hello>().build().unwrap();
//! let new = Surface::fetch(&server).await.unwrap();
//! // What the last release offered, as `mcp-test surface` wrote it.
//! let old = Surface::from_text(r#"{"tools": [{"name": "hello", "inputSchema": {
//!     "type": "object", "properties": {"name": {"type": "string"}}}}]}"#).unwrap();
//! let drift = diff(&old, &new);
//! // `name` became required: a client that left it out now fails.
//! assert_eq!(drift.worst(), Some(Class::Breaking));
//! println!("{}", drift.to_text());
//! # }
//! ```

pub mod diff;
mod document;
mod fetch;

pub use diff::{Change, Class, Drift, ItemKind, Location, Variant, diff};
pub use document::{Surface, SurfaceError};
pub use fetch::{DEFAULT_FETCH_TIMEOUT, FetchError};
