//! [`ClientError`]: why a call of the [`Client`](crate::client::Client) failed, and the
//! depth limit one of its variants names ([`MAX_JSON_DEPTH`]).
//!
//! Both are the client's, and reached by users as `client::ClientError` and
//! `client::MAX_JSON_DEPTH` (re-exported there). They are defined in the target layer because
//! the target layer names the error: [`TargetError::Client`](super::TargetError::Client)
//! wraps it and the builders of [`HttpOptions`](super::HttpOptions) return it. The client
//! implements [`Target`](super::Target), so it imports `target`; with the error here, nothing
//! of `target` imports the client back.

use super::challenge::Challenge;
use crate::tool::error::error_chain;
use std::time::Duration;

/// How deep a message from a server may nest (arrays and objects): 128, serde_json's
/// recursion limit, which every parse of the client goes through (the crate never turns it
/// off), so a hostile `[[[[...` can neither overflow the stack nor take long to parse. A
/// deeper message fails its request with [`ClientError::TooDeep`].
pub const MAX_JSON_DEPTH: usize = 128;

/// Why a [`Client`](crate::client::Client) call failed. Each message names what happened and, for a child process,
/// ends with the tail of its stderr.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The program could not be started.
    #[error("could not start `{program}`: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// Reading from or writing to the transport failed; the `io::Error` is the source.
    #[error("{what}: {source}{stderr}")]
    Io {
        /// What the client was doing.
        what: String,
        /// The I/O error.
        source: std::io::Error,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// The client was closed ([`Client::close`](crate::client::Client::close)) before this message.
    #[error("cannot send {request}: the client was closed")]
    ClientClosed {
        /// The message (method and id).
        request: String,
    },
    /// No reply within the timeout.
    #[error("no reply to {request} within {after:?}{stderr}")]
    Timeout {
        /// The request (method and id).
        request: String,
        /// The timeout.
        after: Duration,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// The child closed its stdout (usually: it exited) before replying.
    #[error("the server process closed its stdout before replying to {request}{stderr}")]
    Closed {
        /// The request (method and id).
        request: String,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// The child wrote a line to stdout that is not a JSON-RPC message (stdio servers must
    /// write only MCP messages there).
    #[error(
        "the server wrote a line to stdout that is not a JSON-RPC message: {line:?} ({reason}){stderr}"
    )]
    NotJson {
        /// The line.
        line: String,
        /// Why it is not a message.
        reason: String,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// A message from the server was longer than one of the client's limits; it was read
    /// and thrown away.
    #[error(
        "{what} from the server is longer than the client's limit {limit_name} of {limit} bytes (it had at least {bytes} bytes); raise it with Client::with_{limit_name}{stderr}"
    )]
    TooLarge {
        /// What was too long: "a line on stdout", "the reply body to tools/call (id 3)", "an
        /// SSE event of the reply to ...".
        what: String,
        /// Which limit: `max_line_bytes`, `max_event_bytes` or `max_response_bytes` (each set
        /// by the `Client::with_` method of that name).
        limit_name: &'static str,
        /// How many bytes were read of it before it was given up (at least).
        bytes: usize,
        /// The limit.
        limit: usize,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// A message from the server nests deeper than [`MAX_JSON_DEPTH`]; it was not parsed.
    #[error(
        "{what} from the server nests deeper than the client's JSON depth limit of {MAX_JSON_DEPTH}: {line}{stderr}"
    )]
    TooDeep {
        /// Where: "a line on stdout", "the reply body to ...".
        what: String,
        /// The start of the message.
        line: String,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// A message from the server is not valid UTF-8 (JSON-RPC messages MUST be UTF-8).
    #[error(
        "{what} from the server is not valid UTF-8 (an invalid byte at offset {at}; JSON-RPC messages must be UTF-8): {line}{stderr}"
    )]
    NotUtf8 {
        /// Where: "a line on stdout", "the reply body to ...".
        what: String,
        /// The offset of the first invalid byte.
        at: usize,
        /// The message, invalid bytes replaced, quoted up to [`MAX_QUOTED_BYTES`](crate::client::MAX_QUOTED_BYTES).
        line: String,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// The URL is not an `http://` URL (or `https://`, with feature `tls`).
    #[error("bad URL {url:?}: {reason}")]
    BadUrl {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// A header to send ([`HttpOptions::header`](super::HttpOptions::header)) is not a valid HTTP header.
    #[error("header {header:?}: {reason}")]
    BadHeader {
        /// The header name, or the line given.
        header: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A certificate authority to trust (`HttpOptions::ca_cert_pem`, feature `tls`) is not usable, or the
    /// TLS configuration could not be built.
    #[error("TLS: {reason}")]
    Tls {
        /// Why.
        reason: String,
    },
    /// The server answered HTTP 401: it needs authorization (2026-07-28
    /// `basic/authorization`). Send credentials in a header ([`HttpOptions::header`](super::HttpOptions::header), e.g.
    /// `Authorization: Bearer TOKEN`); `resource_metadata` is where the server says how to
    /// get them (its OAuth 2.0 protected-resource metadata, RFC 9728).
    #[error("{}", unauthorized_message(.url, .www_authenticate.as_deref(), .resource_metadata.as_deref()))]
    Unauthorized {
        /// The URL.
        url: String,
        /// The `WWW-Authenticate` challenges, if any (joined with `, `).
        www_authenticate: Option<String>,
        /// The `resource_metadata` URL a challenge names (RFC 9728 §5.1), if any.
        resource_metadata: Option<String>,
    },
    /// The server answered HTTP 403: it understood the request and refuses it. For a token
    /// short of scope (2026-07-28 `basic/authorization` §Runtime Insufficient Scope Errors)
    /// the challenge says `error="insufficient_scope"` and names the `scope` the request
    /// needs: get a token with those scopes and the ones held before (a step-up
    /// authorization) and retry. A 403 without a challenge is another refusal, such as a
    /// foreign `Origin`.
    ///
    /// ```
    /// # use mcp_test::client::{Challenge, ClientError};
    /// fn step_up_scopes(error: &ClientError) -> Option<&[String]> {
    ///     match error {
    ///         ClientError::Forbidden { challenge: Some(c), .. } if c.is_insufficient_scope() => {
    ///             Some(&c.scope)
    ///         }
    ///         _ => None,
    ///     }
    /// }
    /// # let _ = step_up_scopes;
    /// ```
    #[error("{}", forbidden_message(.url, *.status, .challenge.as_deref(), .body))]
    Forbidden {
        /// The URL.
        url: String,
        /// The status: 403.
        status: u16,
        /// The `WWW-Authenticate` challenge, read, when the reply has one (boxed: it keeps
        /// the error small).
        challenge: Option<Box<Challenge>>,
        /// The body, as text (up to the first 4 KiB): for the runtime, the JSON-RPC error
        /// that names what was refused.
        body: String,
    },
    /// An HTTP request could not be sent, or its reply could not be read (nobody listening,
    /// the connection dropped).
    #[error("POST {url}: {what} failed: {}", error_chain(.source.as_ref()))]
    Connection {
        /// The URL.
        url: String,
        /// What failed: sending the request, or reading the reply.
        what: String,
        /// The underlying error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The HTTP reply is not usable: an empty body, or a body that holds no JSON-RPC response.
    #[error("HTTP {status}: {reason}; body: {body}")]
    Http {
        /// The status.
        status: u16,
        /// Why.
        reason: String,
        /// The body, as text.
        body: String,
    },
    /// A protocol-level surprise: an error where a result was needed, a result of the wrong
    /// shape, an input request no answer covers.
    #[error("{0}")]
    Protocol(String),
    /// The server answered, but not with the request's id: over HTTP a reply whose
    /// JSON-RPC response carries another id; on stdio no reply with the request's id came
    /// within the timeout while replies with ids matching no request in flight did.
    #[error("{}", wrong_id_message(.request, .expected, .got, .after.as_ref(), .stderr))]
    WrongId {
        /// The request (method and id).
        request: String,
        /// The request's id, as JSON text (`7`, `"a"`).
        expected: String,
        /// The ids the server answered with instead, as JSON text.
        got: Vec<String>,
        /// On stdio, how long the client waited for a reply with the right id; `None` over
        /// HTTP, where the reply to a POST is the reply to its request.
        after: Option<Duration>,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
    /// The child did not exit within the close grace after its stdin was closed, and was
    /// killed (`SIGKILL` on Unix: there is no `SIGTERM` first).
    #[error(
        "the server process did not exit within {after:?} after its stdin was closed (killed){stderr}"
    )]
    NoExit {
        /// How long the client waited.
        after: Duration,
        /// The tail of the child's stderr, if any.
        stderr: String,
    },
}

/// The message of [`ClientError::WrongId`].
fn wrong_id_message(
    request: &str,
    expected: &str,
    got: &[String],
    after: Option<&Duration>,
    stderr: &str,
) -> String {
    let ids = got.join(", ");
    match after {
        Some(after) => format!(
            "no reply to {request} within {after:?}: the server answered with id {ids} instead of {expected} (a response must carry the id of its request){stderr}"
        ),
        None => format!(
            "the reply to {request} carries id {ids} instead of {expected} (a response must carry the id of its request){stderr}"
        ),
    }
}

/// The message of [`ClientError::Forbidden`].
fn forbidden_message(url: &str, status: u16, challenge: Option<&Challenge>, body: &str) -> String {
    let mut out = format!("{url} refused the request (HTTP {status}");
    if let Some(challenge) = challenge {
        out.push_str(&format!(", WWW-Authenticate: {}", challenge.header));
    }
    out.push(')');
    match challenge {
        Some(c) if c.is_insufficient_scope() && !c.scope.is_empty() => out.push_str(&format!(
            ": the token lacks scope for it; get one with scope {:?} as well as those it had (step-up authorization) and retry",
            c.scope.join(" ")
        )),
        Some(c) if c.is_insufficient_scope() => {
            out.push_str(": the token lacks scope for it, and the challenge names none")
        }
        _ => {
            let body = body.trim();
            if !body.is_empty() {
                let shown: String = body.chars().take(300).collect();
                let more = if shown.len() < body.len() { "..." } else { "" };
                out.push_str(&format!("; body: {shown}{more}"));
            }
        }
    }
    out
}

fn unauthorized_message(
    url: &str,
    www_authenticate: Option<&str>,
    resource_metadata: Option<&str>,
) -> String {
    let mut out = format!("{url} needs authorization (HTTP 401");
    if let Some(challenge) = www_authenticate {
        out.push_str(&format!(", WWW-Authenticate: {challenge}"));
    }
    out.push(')');
    match resource_metadata {
        Some(metadata) => out.push_str(&format!(
            "; its protected-resource metadata (how to get a token): {metadata}"
        )),
        None => out.push_str("; the challenge names no protected-resource metadata"),
    }
    out.push_str("; send credentials in a header, e.g. `Authorization: Bearer TOKEN`");
    out
}
