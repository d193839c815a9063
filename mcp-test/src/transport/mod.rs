//! Serving a [`Server`](crate::Server) over the two transports of MCP 2026-07-28:
//! [`stdio`] (newline-delimited JSON on stdin/stdout) and `http` (Streamable HTTP on axum,
//! feature `http`), the one SSE parser ([`sse`]) every reader of a Streamable HTTP body
//! uses, and the line framing ([`ndjson`]) the stdio client reads a server's stdout with.

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
pub mod ndjson;
pub mod sse;
pub mod stdio;
