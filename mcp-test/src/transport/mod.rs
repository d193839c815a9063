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

/// What an incremental reader (`ndjson::LineReader`, `sse::EventReader`) gives for `pieces`
/// pushed one after another: a stream cut at those places.
#[cfg(test)]
fn push_all<'a, R, T>(
    reader: &mut R,
    pieces: impl IntoIterator<Item = &'a [u8]>,
    push: impl Fn(&mut R, &[u8], &mut Vec<T>),
) -> Vec<T> {
    let mut out = Vec::new();
    for piece in pieces {
        push(reader, piece, &mut out);
    }
    out
}

/// [`push_all`], then the reader finished: what the whole stream reads as.
#[cfg(test)]
fn read_in_pieces<R, T>(
    mut reader: R,
    pieces: &[&[u8]],
    push: impl Fn(&mut R, &[u8], &mut Vec<T>),
    finish: impl FnOnce(R, &mut Vec<T>),
) -> Vec<T> {
    let mut out = push_all(&mut reader, pieces.iter().copied(), push);
    finish(reader, &mut out);
    out
}
