//! The trait every target implements ([`Target`]), the description of its connection
//! ([`Connection`]), and what one exchange carries or how it fails ([`Exchange`],
//! [`TargetError`]): what the round driver and every target build on. See the
//! [`target`](super) module.

use super::http_options::HttpOptions;
use crate::server::Caller;
use crate::setters;
use crate::wire::Era;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// The future a [`Target`] returns: boxed, so the trait stays object-safe, and named here so
/// an implementation needs no crate beyond `mcp_test`.
pub type TargetFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Exchange, TargetError>> + Send + 'a>>;

/// Something that answers JSON-RPC: send one message, get its reply and the notifications it
/// caused. See the [module docs](super).
///
/// Implementing it takes two methods, [`label`](Target::label) and [`send`](Target::send);
/// [`connection`](Target::connection) defaults to "nothing known". A wrapper forwards it:
///
/// ```
/// use mcp_test::target::{Connection, Target, TargetFuture};
/// use mcp_test::wire::Era;
/// use mcp_test::{Caller, Server};
/// use serde_json::Value;
///
/// /// A target that logs every message before the in-process server answers it.
/// struct Logged(Server);
///
/// impl Target for Logged {
///     fn label(&self) -> String {
///         "logged".to_owned()
///     }
///     fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
///         eprintln!("-> {message}");
///         self.0.send(message, caller)
///     }
///     fn connection(&self) -> Connection {
///         self.0.connection()
///     }
/// }
///
/// let logged = Logged(Server::builder("demo", "1.0.0").build().unwrap());
/// assert_eq!(logged.connection().era, Some(Era::Current));
/// assert_eq!(logged.connection().transport, None);
/// ```
pub trait Target: Send + Sync {
    /// A short name for reports and failure messages: the server's command line, URL, or
    /// name and version in process.
    fn label(&self) -> String;

    /// Sends one JSON-RPC message (a request or a notification) and returns the exchange:
    /// the reply (`None` for a notification) and the notifications that came before it.
    ///
    /// `caller` is who is asking. An in-process server honours all of it (identity, assigns,
    /// timeout); a remote one sees only the message, and the client applies the timeout.
    ///
    /// An error means the transport failed: the process exited, the connection dropped, the
    /// reply did not come in time, or it was not JSON-RPC. A JSON-RPC error is a successful
    /// exchange.
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a>;

    /// What is known of the connection now: the era, the transport, the HTTP endpoint, the
    /// capabilities and protocol revision the handshake gave, and the transport events so
    /// far. A snapshot, built on each call: read it once and keep what you need rather than
    /// calling it per message. The default knows nothing ([`Connection::default`]).
    fn connection(&self) -> Connection {
        Connection::default()
    }

    /// Sends `text` as one message exactly as given, JSON or not: how a checker sees what a
    /// server makes of a malformed message, which no JSON value encodes. What comes back is
    /// what the transport hands back for it: in process the server's answer; on stdio the
    /// reply under `null` (or under the id `text` carries, when it is JSON with one) that came
    /// within the caller's timeout, else none. `text` must hold no newline (stdio frames a
    /// message as one line).
    ///
    /// The default cannot send text: [`TargetError::Unsupported`]. The in-process
    /// [`Server`](crate::Server), the stdio client and the wrappers of this crate can.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_test::target::Target;
    /// use mcp_test::{Caller, Server};
    ///
    /// let server = Server::builder("demo", "1.0.0").build().unwrap();
    /// let exchange = server.send_text("{\"jsonrpc\": ", &Caller::default()).await.unwrap();
    /// let reply = exchange.response.unwrap();
    /// assert_eq!(reply["error"]["code"], -32700);
    /// assert!(reply["id"].is_null());
    /// # });
    /// ```
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        let _ = (text, caller);
        Box::pin(async move {
            Err(TargetError::Unsupported {
                what: format!("sending text that is not a JSON value to {}", self.label()),
            })
        })
    }
}

/// What is known of a [`Target`]'s connection ([`Target::connection`]): one description for
/// the checker, the session and the reports. Every field is optional knowledge: `None` (or
/// empty) means "not known" or "not that kind of connection", never an error.
///
/// `#[non_exhaustive]`: build one with [`Connection::new`] and the `with_*` setters (or set
/// the public fields of a `Connection::default()`).
///
/// ```
/// use mcp_test::target::{Connection, HttpEndpoint, HttpOptions};
/// use mcp_test::spec::clauses::Transport;
/// use mcp_test::wire::Era;
/// use serde_json::json;
///
/// let connection = Connection::new()
///     .with_era(Era::Legacy)
///     .with_transport(Transport::Http)
///     .with_http(HttpEndpoint::new("http://127.0.0.1:9/mcp", HttpOptions::new()))
///     .with_capabilities(json!({"tools": {}}))
///     .with_protocol_version("2025-06-18");
/// assert_eq!(connection.era, Some(Era::Legacy));
/// assert_eq!(connection.http.unwrap().url, "http://127.0.0.1:9/mcp");
/// assert!(connection.events.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Connection {
    /// The protocol era the target speaks, when it is known (found when connecting). `None`
    /// means "not probed"; the in-process [`Server`](crate::Server) is [`Era::Current`].
    pub era: Option<Era>,
    /// The transport the server is reached over: stdio (a child's pipes, or any stream with
    /// stdio's framing) or Streamable HTTP; `None` for a server in this process. The checker
    /// counts a transport's requirements as skipped on another transport.
    pub transport: Option<crate::spec::clauses::Transport>,
    /// The server's Streamable HTTP endpoint and what the target's HTTP client sends with,
    /// when it is reached over HTTP: the checker then also sends raw requests (mirrored
    /// headers that disagree with the body, a 2025-era client's requests), with the same
    /// headers and trusted certificate authorities, so a server behind authorization or a
    /// private CA is probed as the client reaches it.
    pub http: Option<HttpEndpoint>,
    /// The capabilities the server declared when the connection was made, when the target
    /// kept them: the `capabilities` of a 2025-era `InitializeResult` (or of a
    /// `DiscoverResult`). `None` means "not known"; the checker then reads a 2026-07-28
    /// server's capabilities from `server/discover` itself.
    pub capabilities: Option<Value>,
    /// The protocol revision the connection uses, when the target knows it: for a 2025-era
    /// server the `protocolVersion` its `InitializeResult` chose (which may be older than
    /// 2025-11-25). `None`: not known, or 2026-07-28's per-request version.
    pub protocol_version: Option<String>,
    /// What the server did on the transport so far that a checker may hold against it:
    /// lines on stdout that are not JSON-RPC, replies to no request, requests from the
    /// server. Facts, not verdicts: whether one breaks the spec depends on the era (a
    /// 2025-era server may send requests). Empty for a server in this process.
    pub events: Vec<TransportEvent>,
    /// The handshake's result as the server sent it, when the target kept it: a 2025-era
    /// server's `InitializeResult` (or a 2026-07-28 server's `DiscoverResult`). `None`: not
    /// kept. The checker holds an `InitializeResult` to the rule that it states the server's
    /// capabilities and information.
    pub handshake: Option<Value>,
    /// The server's `Implementation` (`{"name": .., "version": ..}`) when the target knows it
    /// without asking: an rmcp handler served in process states it before any request.
    /// `None`: not known before a reply says it. Coverage names the server of a reply that
    /// carries no `serverInfo` with it, so one server is one row whether or not the suite
    /// discovered it.
    pub server_info: Option<Value>,
    /// The [`era`](Connection::era) was chosen by the caller (a check's `--era`,
    /// `cases::Connected::connect` with an era), not found by asking the server: a server
    /// that serves both eras may speak the other too.
    pub era_chosen: bool,
    /// Why the era is the one it is, when the server's own word decided it against
    /// 2026-07-28 ([`Handshake::negotiation`](crate::client::Handshake::negotiation): its
    /// `server/discover` named 2025-11-25 and not 2026-07-28). `None` otherwise. A checker
    /// says it once, and probes none of the 2026-07-28 rules there.
    pub negotiation: Option<String>,
}

impl Connection {
    /// Nothing known: the same as [`Connection::default`].
    pub fn new() -> Self {
        Connection::default()
    }

    setters! {
        /// With [`era`](Connection::era) known.
        with_era(era: Era) => era = Some(era);
        /// With the [`transport`](Connection::transport) known.
        with_transport(transport: crate::spec::clauses::Transport) => transport = Some(transport);
        /// With the [`http`](Connection::http) endpoint known.
        with_http(http: HttpEndpoint) => http = Some(http);
        /// With the declared [`capabilities`](Connection::capabilities) known.
        with_capabilities(capabilities: Value) => capabilities = Some(capabilities);

        /// With the [`protocol_version`](Connection::protocol_version) known.
        with_protocol_version(version: impl Into<String>)
            => protocol_version = Some(version.into());

        /// With these transport [`events`](Connection::events).
        with_events(events: Vec<TransportEvent>) => events = events;
        /// With the [`handshake`](Connection::handshake) result kept.
        with_handshake(handshake: Value) => handshake = Some(handshake);
        /// With the server's [`server_info`](Connection::server_info) known.
        with_server_info(info: Value) => server_info = Some(info);
    }
}

/// A Streamable HTTP endpoint as a target's client reaches it ([`Connection::http`]): the URL
/// and the [`HttpOptions`] (extra headers, trusted certificate authorities) sent with every
/// request.
///
/// ```
/// use mcp_test::target::{HttpEndpoint, HttpOptions};
/// let endpoint = HttpEndpoint::new("http://127.0.0.1:9/mcp", HttpOptions::new());
/// assert_eq!(endpoint.url, "http://127.0.0.1:9/mcp");
/// assert!(endpoint.options.header_names().is_empty());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct HttpEndpoint {
    /// The endpoint's URL.
    pub url: String,
    /// What the client sends with every request.
    pub options: HttpOptions,
}

impl HttpEndpoint {
    /// The endpoint at `url`, reached with `options`.
    pub fn new(url: impl Into<String>, options: HttpOptions) -> Self {
        HttpEndpoint {
            url: url.into(),
            options,
        }
    }
}

/// Something a server did on its transport that a checker may hold against it
/// ([`Connection::events`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportEvent {
    /// A line on stdout that is not JSON.
    NotJson {
        /// The line.
        line: String,
        /// Why it does not parse.
        reason: String,
    },
    /// A line on stdout that is JSON but not a JSON-RPC message.
    NotJsonRpc {
        /// The line.
        line: String,
    },
    /// A reply whose id matches no request in flight.
    UnmatchedReply {
        /// The id as JSON text.
        id: String,
        /// The line.
        line: String,
    },
    /// A JSON-RPC request from the server (forbidden on 2026-07-28 stdio; a 2025-era server
    /// may send some).
    ServerRequest {
        /// Its method.
        method: String,
        /// The line.
        line: String,
    },
    /// A message longer than the client's limit, read and thrown away.
    TooLarge {
        /// How many bytes it had.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// Events past the client's limit of kept events, counted and not kept.
    Dropped {
        /// How many.
        count: usize,
    },
    /// A message that is not valid UTF-8 (a line on stdout, an HTTP reply body or SSE event).
    NotUtf8 {
        /// Where it was: "a line on stdout", "the reply to tools/list (id 4)".
        what: String,
        /// The offset of the first invalid byte (in the line or body; 0 when not known).
        at: usize,
        /// The message, invalid bytes replaced, quoted.
        line: String,
    },
    /// A message nesting deeper than the client's JSON depth limit, not parsed.
    TooDeep {
        /// Where it was.
        what: String,
        /// The start of the message.
        line: String,
    },
    /// A second reply to a request already answered.
    DuplicateReply {
        /// The id as JSON text.
        id: String,
        /// The line.
        line: String,
    },
    /// An SSE stream still open a moment after the response it carried (the client stopped
    /// reading it then).
    StreamLeftOpen {
        /// The request (method and id).
        request: String,
        /// How long after the response it was still open.
        after: std::time::Duration,
    },
    /// Bytes of stderr not kept: only the last `MAX_STDERR_BYTES` are.
    StderrDropped {
        /// How many bytes were dropped.
        bytes: usize,
    },
    /// The server's notifications with one reply past what the client keeps (over HTTP,
    /// requests on the reply's stream count among them).
    NotificationsDropped {
        /// The request (its id as JSON text).
        id: String,
        /// How many were not kept.
        count: usize,
    },
    /// The server's process group had to be stopped when the client closed: the server
    /// exited but left processes running, or did not exit within the close grace.
    GroupStopped {
        /// Whether the server itself had exited (the group held what it left behind).
        server_exited: bool,
        /// Whether SIGTERM was not enough and SIGKILL followed.
        sigkill: bool,
    },
    /// A request from the server the client could not answer: the answers queued for a
    /// server that does not read its input were full (a flood of requests).
    Unanswered {
        /// How many requests went unanswered.
        count: usize,
    },
}

impl std::fmt::Display for TransportEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TransportEvent::NotJson { line, reason } => {
                write!(f, "a line on stdout is not JSON ({reason}): {line:?}")
            }
            TransportEvent::NotJsonRpc { line } => {
                write!(
                    f,
                    "a line on stdout is JSON but not a JSON-RPC message: {line}"
                )
            }
            TransportEvent::UnmatchedReply { id, line } => {
                write!(f, "a reply to no request in flight (id {id}): {line}")
            }
            TransportEvent::ServerRequest { method, line } => {
                write!(f, "the server sent a {method} request: {line}")
            }
            TransportEvent::TooLarge { bytes, limit } => write!(
                f,
                "a line on stdout of {bytes} bytes, over the client's limit of {limit} bytes, was thrown away"
            ),
            TransportEvent::Dropped { count } => write!(
                f,
                "{count} more events were counted and not kept (the client keeps the first 10,000)"
            ),
            TransportEvent::NotUtf8 { what, at, line } => write!(
                f,
                "{what} is not valid UTF-8 (an invalid byte at offset {at}): {line}"
            ),
            TransportEvent::TooDeep { what, line } => write!(
                f,
                "{what} nests deeper than the client's JSON depth limit of 128 and was not parsed: {line}"
            ),
            TransportEvent::DuplicateReply { id, line } => {
                write!(
                    f,
                    "a second reply to the request with id {id}, already answered: {line}"
                )
            }
            TransportEvent::StreamLeftOpen { request, after } => write!(
                f,
                "the SSE stream of the reply to {request} was still open {after:?} after the response; the client stopped reading it"
            ),
            TransportEvent::StderrDropped { bytes } => write!(
                f,
                "the server wrote more to stderr than the client keeps: {bytes} earlier bytes were drained and dropped, the last 256 KiB kept"
            ),
            TransportEvent::NotificationsDropped { id, count } => write!(
                f,
                "{count} notifications (or requests) sent with the reply to id {id} were not kept (the client keeps 10,000 or 16 MiB per request)"
            ),
            TransportEvent::GroupStopped {
                server_exited,
                sigkill,
            } => write!(
                f,
                "{}; they were stopped with SIGTERM{}",
                if *server_exited {
                    "the server exited but left processes of its process group running"
                } else {
                    "the server did not exit within the close grace, so its process group was stopped"
                },
                if *sigkill {
                    ", which they ignored, then SIGKILL"
                } else {
                    ""
                }
            ),
            TransportEvent::Unanswered { count } => write!(
                f,
                "{count} requests from the server went unanswered: the server sent them faster than it read the answers"
            ),
        }
    }
}

/// One exchange as seen on the wire: the reply, the notifications that came with it, and for
/// HTTP the status and content type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exchange {
    /// The JSON-RPC response; `None` for a notification (HTTP 202, or nothing on stdio).
    pub response: Option<Value>,
    /// The notifications that came before the response: in process, every notification the
    /// request sent; on HTTP the SSE events of this reply; on stdio every notification the
    /// server wrote while this request was in flight.
    pub notifications: Vec<Value>,
    /// The HTTP status (`None` in process and on stdio).
    pub status: Option<u16>,
    /// The HTTP `Content-Type` (`None` in process, on stdio, or when absent).
    pub content_type: Option<String>,
}

impl Exchange {
    /// The notifications of `method` (e.g. `notifications/progress`), in order.
    ///
    /// ```
    /// use mcp_test::target::Exchange;
    /// use serde_json::json;
    /// let exchange = Exchange {
    ///     notifications: vec![json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})],
    ///     ..Exchange::default()
    /// };
    /// assert_eq!(exchange.notifications_of("notifications/progress").count(), 1);
    /// assert_eq!(exchange.notifications_of("notifications/message").count(), 0);
    /// ```
    pub fn notifications_of<'a>(&'a self, method: &'a str) -> impl Iterator<Item = &'a Value> {
        self.notifications
            .iter()
            .filter(move |n| n.get("method").and_then(Value::as_str) == Some(method))
    }
}

/// Why a [`Target`] could not deliver a reply.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TargetError {
    /// The client failed: the process, the pipe or the HTTP exchange (the source says which).
    #[cfg(any(feature = "client", feature = "http"))]
    #[error(transparent)]
    Client(#[from] super::client_error::ClientError),
    /// The target answered with text that is not JSON.
    #[error("the server answered with text that is not JSON ({source}): {text}")]
    InvalidJson {
        /// The text received.
        text: String,
        /// The parse error.
        source: serde_json::Error,
    },
    /// No reply within the caller's deadline.
    #[error("no answer to {request} within {after:?}")]
    Timeout {
        /// The request: method and id.
        request: String,
        /// The deadline.
        after: Duration,
    },
    /// No reply within the caller's deadline, while the target sent replies whose ids match
    /// no request in flight ([`TransportEvent::UnmatchedReply`]): the server answered, under
    /// the wrong id.
    #[error(
        "no reply to {request} within {after:?}: the server answered with id {} instead of {expected} (a response must carry the id of its request)",
        got.join(", ")
    )]
    WrongId {
        /// The request: method and id.
        request: String,
        /// The request's id, as JSON text.
        expected: String,
        /// The ids the server answered with meanwhile, as JSON text.
        got: Vec<String>,
        /// The deadline.
        after: Duration,
    },
    /// An overall deadline passed (the checker's `--deadline`): the message was not sent, or
    /// its reply was no longer waited for. Not the target's fault, unlike
    /// [`TargetError::Timeout`].
    #[error("{DEADLINE_PASSED} ({after:?}): {request} was not sent, or its reply not waited for")]
    DeadlinePassed {
        /// The message: method and id.
        request: String,
        /// The deadline, counted from when the run began.
        after: Duration,
    },
    /// The target cannot do what was asked of it (send text that is not a JSON value).
    #[error("this target does not support {what}")]
    Unsupported {
        /// What was asked.
        what: String,
    },
    /// A request got no reply at all (the target treated it as a notification).
    #[error("no response to the request {request}")]
    NoResponse {
        /// The request: method and id.
        request: String,
    },
}

/// How the message of [`TargetError::DeadlinePassed`] begins.
#[doc(hidden)]
pub const DEADLINE_PASSED: &str = "cut short by the overall deadline";

/// `client::DEFAULT_CLOSE_GRACE`, here so that `check`'s default (feature `cases`, which a build
/// may have without a client) names the same figure.
#[cfg(any(feature = "cases", feature = "client", feature = "http"))]
#[doc(hidden)]
pub const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// "METHOD (id ID)" for failure messages.
pub(crate) fn describe(message: &Value) -> String {
    match message.get("method").and_then(Value::as_str) {
        Some(method) => format!(
            "{method} (id {})",
            message.get("id").unwrap_or(&Value::Null)
        ),
        None => "the message".to_owned(),
    }
}
