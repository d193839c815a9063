//! Serving a [`Server`](crate::Server) over the two transports of MCP 2026-07-28:
//! [`stdio`] (newline-delimited JSON on stdin/stdout) and `http` (Streamable HTTP on axum,
//! feature `http`), and the one SSE parser ([`sse`]) every reader of a Streamable HTTP body
//! uses.

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
pub mod sse;
pub mod stdio;
