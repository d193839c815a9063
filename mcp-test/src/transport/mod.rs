//! Serving a [`Server`](crate::Server) over the two transports of MCP 2026-07-28:
//! [`stdio`] (newline-delimited JSON on stdin/stdout) and `http` (Streamable HTTP on axum,
//! feature `http`), the one SSE parser ([`sse`]) every reader of a Streamable HTTP body
//! uses, and the line framing ([`ndjson`]) the stdio client reads a server's stdout with.
//! Both transports serve the 2025-11-25 `initialize` era too, each connection one
//! [`Session`](crate::session::Session) (see [`session`](crate::session)).

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
pub mod ndjson;
pub mod sse;
pub mod stdio;
