//! A client for any MCP server: a child process over stdio, or a URL over Streamable HTTP.
//!
//! [`Client`] speaks revision 2026-07-28 to a server written in any language, so a test of an
//! external server reads like a test of an in-process one: every request helper of
//! [`testing`](crate::testing) ([`call_tool`](crate::testing::call_tool),
//! [`list_tools`](crate::testing::list_tools), ...) takes a `&Client` where it takes a
//! `&Server` (both implement [`Target`]), and every unwrapper and `assert_*` macro works on the
//! responses.
//!
//! - **stdio** ([`Client::spawn`]): starts the program with piped stdin/stdout/stderr, writes
//!   one JSON message per line, routes replies by id, collects stderr
//!   ([`Client::stderr`]), records anything on stdout that is not a JSON-RPC message
//!   ([`Client::transport_events`]), and on [`Client::close`] closes stdin and gives the
//!   process a short grace ([`Client::with_close_grace`]) to exit before killing it. The child
//!   is killed when the last clone of the client is dropped.
//! - **HTTP** ([`Client::http`]): POSTs each message with `Accept: application/json,
//!   text/event-stream` and every mirrored header (`MCP-Protocol-Version`, `Mcp-Method`,
//!   `Mcp-Name`, and `Mcp-Param-*` for the called tool's `x-mcp-header` arguments, learnt from
//!   `tools/list`), and reads a JSON or SSE reply and its status ([`Exchange`]).
//! - Every call has a timeout (default 30 s, [`Client::with_timeout`], or the helpers'
//!   `RequestOptions::timeout`); on stdio a timed-out request is cancelled with
//!   `notifications/cancelled`. A reply with the wrong id is [`ClientError::WrongId`], never
//!   taken for the answer nor reported as silence.
//! - [`Client::call_rounds`] drives a multi-round (`input_required`) request to completion
//!   with scripted [`Answers`]; [`Client::era`] tells a 2026-07-28 server from a 2025-11-25 one.
//!   In the 2025-11-25 era the server asks its questions with requests of its own on the
//!   connection, and the client answers them from the same answers
//!   ([`Client::with_answers`], and those given to `call_rounds`).
//!
//! ```no_run
//! use mcp_test::client::{Answers, Client};
//! use mcp_test::testing::answer;
//! use mcp_test::testing::{call_tool, list_tools, result, RequestOptions};
//! use mcp_test::assert_tool_text;
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::spawn(tokio::process::Command::new("./my-server")).await?;
//! let tools = result(list_tools(&client, &RequestOptions::new()).await);
//! assert!(!tools["tools"].as_array().unwrap().is_empty());
//! assert_tool_text!(call_tool(&client, "echo", json!({"text": "hi"}), &RequestOptions::new()).await, "hi");
//!
//! let rounds = client
//!     .call_rounds(
//!         &client.tool_call_body("greet", json!({})),
//!         &Answers::new().answer("user_name", answer::accept(json!({"name": "Ada"}))),
//!     )
//!     .await?;
//! assert_tool_text!(rounds.last(), "Hello, Ada!");
//! let status = client.close().await?;
//! assert!(status.is_some_and(|s| s.success()));
//! # Ok(())
//! # }
//! ```

#[cfg(feature = "http")]
pub(crate) mod auth;
#[cfg(feature = "http")]
mod http;
mod limits;
#[cfg(feature = "client")]
mod stdio;

// Only data, in `target` with no feature; named here too, beside the client that sends it.
pub use crate::target::HttpOptions;
// The one hyper client, for the AI client and the checker's raw probes (feature `cases`).
#[cfg(feature = "http")]
#[allow(unused_imports)]
#[doc(hidden)]
pub use http::{HttpClient, HttpReply, unauthorized};

pub use crate::target::{Answers, Exchange, Rounds, TransportEvent};
// The client's error, defined in `target` (whose `TargetError` and `HttpOptions` name it) so
// that `target` imports nothing from here.
pub use crate::target::client_error::{ClientError, MAX_JSON_DEPTH};
// What a 401 or 403 challenge asks of the token, as those errors carry it.
pub use crate::target::challenge::Challenge;
pub use limits::{
    DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_RESPONSE_BYTES, MAX_KEPT_BYTES, MAX_KEPT_MESSAGES, MAX_QUOTED_BYTES,
    MAX_STDERR_BYTES,
};

use crate::server::Caller;
use crate::target::{Connection, DriveError, Target, TargetError, TargetFuture, describe};
#[cfg(feature = "http")]
use crate::wire::ToolDefinition;
use crate::wire::{Era, PROTOCOL_VERSION, error_codes, meta_keys};
use serde_json::{Map, Value, json};
use std::process::ExitStatus;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// The timeout of one call unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long [`Client::era`] waits for an answer to `server/discover` before it also tries the
/// legacy `initialize` handshake.
pub const DEFAULT_PROBE_WAIT: Duration = Duration::from_secs(5);

/// How long [`Client::close`] waits for a stdio server to exit after its stdin is closed,
/// unless told otherwise ([`Client::with_close_grace`]), before it kills it: 2 s, what the
/// official Python and TypeScript SDK clients wait before they send SIGTERM (the spec asks for
/// "a reasonable time" and names none).
pub const DEFAULT_CLOSE_GRACE: Duration = crate::target::CLOSE_GRACE;

/// The 2025-era revision [`Client::era`] offers in `initialize`: the legacy era's
/// ([`Era::revision`](crate::wire::Era::revision)).
pub const LEGACY_PROTOCOL_VERSION: &str = crate::wire::Era::Legacy.revision();

/// What [`Client::era`] found: the era, and the result that showed it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Handshake {
    /// The era the server speaks.
    pub era: Era,
    /// The `DiscoverResult` of a 2026-07-28 server, or the `InitializeResult` of a 2025-era
    /// server (after which `notifications/initialized` has been sent).
    pub result: Value,
    /// The revision in use: 2026-07-28, or the one the 2025-era server chose.
    pub protocol_version: String,
    /// Why the era is 2025-11-25 although the server answered `server/discover`, when its
    /// own word decided it: its `supportedVersions` (or a -32022's `data.supported`) named
    /// 2025-11-25 and not 2026-07-28. `None` otherwise.
    pub negotiation: Option<String>,
}

enum Transport {
    #[cfg(feature = "client")]
    Stdio(stdio::StdioTransport),
    #[cfg(feature = "http")]
    Http(http::HttpTransport),
}

/// The reading limits of [`Client`]'s `with_max_*_bytes`.
#[derive(Clone, Copy)]
enum Limit {
    /// A stdio line.
    Line,
    /// An SSE event.
    Event,
    /// One HTTP reply.
    Response,
}

struct Inner {
    transport: Transport,
    timeout: Duration,
    close_grace: Duration,
    capabilities: Value,
    /// Whether [`Client::with_capabilities`] set `capabilities`: then `initialize` declares
    /// them as they are.
    capabilities_set: bool,
    probe_wait: Duration,
    next_id: AtomicI64,
    /// The request ids this connection has sent: a 2025-11-25 session never sends one twice
    /// ([`session_ids`](crate::target::session_ids)).
    ids: crate::target::session_ids::SessionIds,
    /// The `initialize` result, once a 2025-11-25 handshake succeeded: the session's ids
    /// are then kept unique, and its `serverInfo` is the connection's.
    legacy: std::sync::OnceLock<Value>,
    /// The answers to the server's own requests (2025 era), shared with the transport.
    answers: Arc<crate::target::answering::AnswerSources>,
    #[cfg(feature = "http")]
    tools: tokio::sync::Mutex<Option<Vec<ToolDefinition>>>,
}

/// A connection to an MCP server in another process: see the [module docs](self).
///
/// Cloning is cheap and shares the connection.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => format!("stdio `{}`", t.program()),
            #[cfg(feature = "http")]
            Transport::Http(t) => format!("http {}", t.url()),
        };
        f.debug_struct("Client").field("transport", &kind).finish()
    }
}

impl Client {
    fn new(transport: Transport, answers: Arc<crate::target::answering::AnswerSources>) -> Client {
        Client {
            inner: Arc::new(Inner {
                transport,
                timeout: DEFAULT_TIMEOUT,
                close_grace: DEFAULT_CLOSE_GRACE,
                capabilities: json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}),
                capabilities_set: false,
                probe_wait: DEFAULT_PROBE_WAIT,
                next_id: AtomicI64::new(1),
                ids: crate::target::session_ids::SessionIds::default(),
                legacy: std::sync::OnceLock::new(),
                answers,
                #[cfg(feature = "http")]
                tools: tokio::sync::Mutex::new(None),
            }),
        }
    }

    #[cfg(feature = "client")]
    /// Starts `command` with piped stdin, stdout and stderr and speaks MCP over them.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use mcp_test::client::{Client, ClientError};
    /// let err = Client::spawn(tokio::process::Command::new("/no/such/program")).await.unwrap_err();
    /// assert!(matches!(err, ClientError::Spawn { .. }));
    /// assert!(err.to_string().contains("/no/such/program"));
    /// # }
    /// ```
    pub async fn spawn(command: tokio::process::Command) -> Result<Client, ClientError> {
        Client::spawn_now(command)
    }

    #[cfg(feature = "client")]
    /// [`Client::spawn`] without the `async`: it must still run inside a tokio runtime.
    pub(crate) fn spawn_now(command: tokio::process::Command) -> Result<Client, ClientError> {
        let answers = Arc::<crate::target::answering::AnswerSources>::default();
        Ok(Client::new(
            Transport::Stdio(stdio::StdioTransport::spawn(command, answers.clone())?),
            answers,
        ))
    }

    #[cfg(feature = "client")]
    /// Speaks MCP over a pair of streams the way it would over a child's pipes: `reader` is
    /// the server's output, `writer` its input (for example the halves of a
    /// `tokio::io::duplex` served by [`transport::stdio::serve`](crate::transport::stdio::serve)).
    ///
    /// ```
    /// use mcp_test::client::Client;
    /// use mcp_test::testing::{discover, result, RequestOptions};
    /// use mcp_test::transport::stdio::{serve, StdioConfig};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = mcp_test::Server::builder("demo", "1.0.0").build().unwrap();
    /// let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    /// let (server_read, server_write) = tokio::io::split(server_end);
    /// tokio::spawn(serve(server, server_read, server_write, StdioConfig::default()));
    /// let (read, write) = tokio::io::split(client_end);
    /// let client = Client::connect(read, write);
    /// let discovered = result(discover(&client, &RequestOptions::new()).await);
    /// assert_eq!(discovered["supportedVersions"][0], "2026-07-28");
    /// # }
    /// ```
    pub fn connect(
        reader: impl tokio::io::AsyncRead + Send + Unpin + 'static,
        writer: impl tokio::io::AsyncWrite + Send + Unpin + 'static,
    ) -> Client {
        let answers = Arc::<crate::target::answering::AnswerSources>::default();
        Client::new(
            Transport::Stdio(stdio::StdioTransport::connect(
                reader,
                writer,
                answers.clone(),
            )),
            answers,
        )
    }

    #[cfg(feature = "http")]
    /// Speaks MCP over Streamable HTTP to `url` (`http://HOST:PORT/PATH`, or `https://` with
    /// feature `tls`). Nothing is sent until the first call.
    ///
    /// ```
    /// use mcp_test::client::Client;
    /// assert!(Client::http("http://127.0.0.1:9/mcp").is_ok());
    /// let err = Client::http("ftp://example.com/mcp").unwrap_err();
    /// assert!(err.to_string().contains("ftp"));
    /// ```
    pub fn http(url: &str) -> Result<Client, ClientError> {
        Client::http_with(url, &HttpOptions::default())
    }

    #[cfg(feature = "http")]
    /// [`Client::http`] with headers on every request and, with feature `tls`, certificate
    /// authorities to trust ([`HttpOptions`]). A reply with status 401 is
    /// [`ClientError::Unauthorized`], one with 403 [`ClientError::Forbidden`] (with its
    /// [`Challenge`]: a token short of scope names the scopes to step up to).
    ///
    /// ```
    /// use mcp_test::client::{Client, HttpOptions};
    /// let options = HttpOptions::new().header("Authorization", "Bearer token")?;
    /// let client = Client::http_with("http://127.0.0.1:9/mcp", &options)?;
    /// # let _ = client;
    /// # Ok::<(), mcp_test::client::ClientError>(())
    /// ```
    pub fn http_with(url: &str, options: &HttpOptions) -> Result<Client, ClientError> {
        let answers = Arc::<crate::target::answering::AnswerSources>::default();
        Ok(Client::new(
            Transport::Http(http::HttpTransport::new(url, options, answers.clone())?),
            answers,
        ))
    }

    #[cfg(feature = "http")]
    /// The same connection sending `name: value` on every HTTP request from now on (ignored
    /// over stdio). An invalid header is [`ClientError::BadHeader`]. Call it before cloning.
    ///
    /// ```
    /// use mcp_test::client::Client;
    /// let client = Client::http("http://127.0.0.1:9/mcp")?.with_header("X-Api-Key", "k")?;
    /// assert_eq!(client.http_options().unwrap().header_value("x-api-key"), Some("k"));
    /// # Ok::<(), mcp_test::client::ClientError>(())
    /// ```
    #[allow(irrefutable_let_patterns)]
    pub fn with_header(self, name: &str, value: &str) -> Result<Client, ClientError> {
        let Transport::Http(t) = &self.inner.transport else {
            return Ok(self);
        };
        let options = t.options().clone().header(name, value)?;
        let mut outcome = Ok(());
        let client = self.map_inner(|inner| {
            if let Transport::Http(t) = &mut inner.transport {
                outcome = t.set_options(&options);
            }
        });
        outcome.map(|()| client)
    }

    #[cfg(feature = "http")]
    /// The headers and trusted authorities of an HTTP client; `None` over stdio.
    #[allow(irrefutable_let_patterns)]
    pub fn http_options(&self) -> Option<HttpOptions> {
        match &self.inner.transport {
            Transport::Http(t) => Some(t.options().clone()),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The same connection with another per-call timeout (default [`DEFAULT_TIMEOUT`]).
    /// Call it before cloning: it applies to this handle and handles cloned from it.
    ///
    /// ```
    /// # use mcp_test::client::Client;
    /// let client = Client::http("http://127.0.0.1:9/mcp").unwrap()
    ///     .with_timeout(std::time::Duration::from_secs(2));
    /// # let _ = client;
    /// ```
    #[must_use]
    pub fn with_timeout(self, timeout: Duration) -> Client {
        self.map_inner(|inner| inner.timeout = timeout)
    }

    /// The same connection with another close grace (default [`DEFAULT_CLOSE_GRACE`]): how
    /// long [`Client::close`] waits for a stdio server to exit after closing its stdin before
    /// it kills it. Call it before cloning.
    ///
    /// ```
    /// # use mcp_test::client::Client;
    /// let client = Client::http("http://127.0.0.1:9/mcp").unwrap()
    ///     .with_close_grace(std::time::Duration::from_secs(1));
    /// # let _ = client;
    /// ```
    #[must_use]
    pub fn with_close_grace(self, grace: Duration) -> Client {
        self.map_inner(|inner| inner.close_grace = grace)
    }

    /// The same connection with another probe wait for [`Client::era`] (default
    /// [`DEFAULT_PROBE_WAIT`]). Call it before cloning.
    #[must_use]
    pub fn with_probe_wait(self, wait: Duration) -> Client {
        self.map_inner(|inner| inner.probe_wait = wait)
    }

    /// The same connection declaring other client capabilities in the requests it builds
    /// itself ([`Client::era`], [`Client::tool_call_body`], the `tools/list` it sends to learn
    /// `x-mcp-header` parameters). Default: elicitation (form and URL), sampling and roots.
    ///
    /// In the 2025-11-25 era they are what `initialize` declares, as they are: declaring
    /// elicitation, sampling or roots there invites the server's own requests, which the
    /// client answers from its answers ([`Client::with_answers`]) and those of the
    /// [`Client::call_rounds`] in flight.
    #[must_use]
    pub fn with_capabilities(self, capabilities: Value) -> Client {
        self.map_inner(|inner| {
            inner.capabilities = capabilities;
            inner.capabilities_set = true;
        })
    }

    /// The same connection answering the questions a server asks, in either era, from
    /// `answers` (the [`Answers`] the round driver uses):
    ///
    /// - in 2026-07-28, [`Client::call_rounds`] resends an `input_required` request with
    ///   `inputResponses` (the answers given to it come first, these next);
    /// - in 2025-11-25, the server asks with a request of its own on the open connection
    ///   (`elicitation/create`, `sampling/createMessage`, `roots/list`; on stdio a line, over
    ///   HTTP an event of the reply's SSE stream), and the client answers it there. A server
    ///   of this crate's runtime names the question's key in
    ///   `params._meta["io.github.mcp-test/inputKey"]`
    ///   ([`meta_keys::INPUT_KEY`]), so answers by key
    ///   apply in both eras; from another server the request is looked up under its method's
    ///   name (so answers in order, by method, by a responder or synthesized apply). A
    ///   question no answer covers gets a JSON-RPC error naming the keys the answers have.
    ///
    /// With answers, `initialize` declares elicitation (form and URL), sampling and roots
    /// (unless [`Client::with_capabilities`] said otherwise); without, it declares none of
    /// them, and a server's request for one is -32601. `ping` is always answered.
    ///
    /// ```
    /// use mcp_test::client::{Answers, Client};
    /// use mcp_test::testing::answer;
    /// let client = Client::http("http://127.0.0.1:9/mcp").unwrap()
    ///     .with_answers(Answers::new().answer("name", answer::accept(serde_json::json!({"name": "Ada"}))));
    /// # let _ = client;
    /// ```
    #[must_use]
    pub fn with_answers(self, answers: Answers) -> Client {
        self.inner.answers.set_fixed(answers);
        self
    }

    /// Reads no message longer than `bytes` from the server: sets the line, event and
    /// response limits at once ([`Client::with_max_line_bytes`],
    /// [`Client::with_max_event_bytes`], [`Client::with_max_response_bytes`]; each defaults to
    /// [`DEFAULT_MAX_MESSAGE_BYTES`]). A message over a limit is read and thrown away, and the
    /// request waiting for it fails with [`ClientError::TooLarge`] naming the limit. Panics if
    /// the client was cloned.
    ///
    /// ```no_run
    /// # async fn f() -> Result<(), mcp_test::client::ClientError> {
    /// use mcp_test::client::Client;
    /// let client = Client::spawn(tokio::process::Command::new("my-server"))
    ///     .await?
    ///     .with_max_message_bytes(1 << 20);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_max_message_bytes(self, bytes: usize) -> Client {
        self.with_max_line_bytes(bytes)
            .with_max_event_bytes(bytes)
            .with_max_response_bytes(bytes)
    }

    /// Reads no line longer than `bytes` from a stdio server's stdout (default
    /// [`DEFAULT_MAX_LINE_BYTES`]); nothing over HTTP. Panics if the client was cloned.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// # #[cfg(unix)] {
    /// use mcp_test::client::{Client, ClientError};
    /// use tokio::process::Command;
    /// let mut server = Command::new("sh");
    /// server.args(["-c", "read line; head -c 5000 /dev/zero | tr '\\0' x; echo; cat >/dev/null"]);
    /// let client = Client::spawn(server).await.unwrap().with_max_line_bytes(1000);
    /// let err = client.call("tools/list", serde_json::json!({})).await.unwrap_err();
    /// assert!(matches!(err, ClientError::TooLarge { limit_name: "max_line_bytes", limit: 1000, .. }), "{err}");
    /// # }
    /// # }
    /// ```
    #[must_use]
    pub fn with_max_line_bytes(self, bytes: usize) -> Client {
        self.with_limit(Limit::Line, bytes)
    }

    /// Reads no SSE event longer than `bytes` from a Streamable HTTP reply (default
    /// [`DEFAULT_MAX_EVENT_BYTES`]); nothing on stdio. Panics if the client was cloned.
    ///
    /// ```
    /// # use mcp_test::client::Client;
    /// let client = Client::http("http://127.0.0.1:9/mcp").unwrap().with_max_event_bytes(1 << 20);
    /// # let _ = client;
    /// ```
    #[must_use]
    pub fn with_max_event_bytes(self, bytes: usize) -> Client {
        self.with_limit(Limit::Event, bytes)
    }

    /// Reads no more than `bytes` of one Streamable HTTP reply, a JSON body or an SSE stream
    /// up to its response (default [`DEFAULT_MAX_RESPONSE_BYTES`]); nothing on stdio. Panics if
    /// the client was cloned.
    ///
    /// ```
    /// # use mcp_test::client::Client;
    /// let client = Client::http("http://127.0.0.1:9/mcp").unwrap().with_max_response_bytes(8 << 20);
    /// # let _ = client;
    /// ```
    #[must_use]
    pub fn with_max_response_bytes(self, bytes: usize) -> Client {
        self.with_limit(Limit::Response, bytes)
    }

    /// Sets one reading limit, on the transport it applies to; a limit of the other transport
    /// is left alone.
    #[cfg_attr(
        not(any(feature = "client", feature = "http")),
        allow(unused_variables)
    )]
    fn with_limit(self, limit: Limit, bytes: usize) -> Client {
        self.map_inner(|inner| match (&mut inner.transport, limit) {
            #[cfg(feature = "client")]
            (Transport::Stdio(t), Limit::Line) => t.set_max_line(bytes),
            #[cfg(feature = "http")]
            (Transport::Http(t), Limit::Event) => t.set_max_event(bytes),
            #[cfg(feature = "http")]
            (Transport::Http(t), Limit::Response) => t.set_max_body(bytes),
            #[allow(unreachable_patterns)]
            _ => {}
        })
    }

    fn map_inner(self, f: impl FnOnce(&mut Inner)) -> Client {
        match Arc::try_unwrap(self.inner) {
            Ok(mut inner) => {
                f(&mut inner);
                Client {
                    inner: Arc::new(inner),
                }
            }
            Err(shared) => panic!(
                "Client::with_*: configure the client before cloning it (it has {} handles)",
                Arc::strong_count(&shared)
            ),
        }
    }

    /// A fresh request id, unique among the ids this client generates.
    pub fn next_id(&self) -> i64 {
        self.inner.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// A request body with the protocol `_meta` this client declares (2026-07-28 and its
    /// capabilities) and a fresh id.
    ///
    /// ```
    /// # use mcp_test::client::Client;
    /// let client = Client::http("http://127.0.0.1:9/mcp").unwrap();
    /// let body = client.request_body("tools/list", serde_json::json!({}));
    /// assert_eq!(body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    /// ```
    pub fn request_body(&self, method: &str, params: Value) -> Value {
        let mut params = match params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            meta.entry(meta_keys::PROTOCOL_VERSION)
                .or_insert_with(|| Value::from(PROTOCOL_VERSION));
            meta.entry(meta_keys::CLIENT_CAPABILITIES)
                .or_insert_with(|| self.inner.capabilities.clone());
            meta.entry(meta_keys::CLIENT_INFO).or_insert_with(
                || json!({"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}),
            );
        }
        json!({"jsonrpc": "2.0", "id": self.next_id(), "method": method, "params": params})
    }

    /// A `tools/call` body for tool `name` (see [`Client::request_body`]).
    pub fn tool_call_body(&self, name: &str, arguments: Value) -> Value {
        self.request_body("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// Sends `body` (a request or a notification) and returns the exchange. A JSON-RPC error
    /// is a successful exchange: it is in [`Exchange::response`].
    ///
    /// After a 2025-11-25 handshake ([`Client::initialize`], or [`Client::era`] finding a
    /// 2025-era server) the session never sends a request id twice, as that revision
    /// requires: a request whose id this connection already sent goes out under a fresh one
    /// ([`Client::next_id`]) and its response comes back under the id `body` has. An id sent
    /// for the first time goes out as it is.
    pub async fn exchange(&self, body: &Value) -> Result<Exchange, ClientError> {
        self.exchange_within(body, self.inner.timeout).await
    }

    pub(crate) async fn exchange_within(
        &self,
        body: &Value,
        timeout: Duration,
    ) -> Result<Exchange, ClientError> {
        // In a 2025-11-25 session a request id is never sent twice: a reused one goes out
        // fresh and its reply comes back under the caller's id. Before the handshake (and in
        // 2026-07-28, which forbids only reusing an id still in flight) ids are only noted.
        let claimed = if self.inner.legacy.get().is_some() {
            Some(self.inner.ids.claim(body, &|| self.next_id()))
        } else {
            self.inner.ids.note(body);
            None
        };
        let body = claimed.as_ref().map_or(body, |c| &c.wire);
        let mut exchange = match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.exchange(body, timeout).await?,
            #[cfg(feature = "http")]
            Transport::Http(t) => {
                let tools = self.tools_for(body, timeout).await;
                let exchange = t.exchange(body, &tools, timeout).await?;
                self.learn_tools(body, &exchange).await;
                exchange
            }
        };
        if let Some(claimed) = &claimed {
            claimed.restore(&mut exchange);
        }
        Ok(exchange)
    }

    /// Sends `body` and returns its JSON-RPC response (`null` for a notification).
    pub async fn send(&self, body: &Value) -> Result<Value, ClientError> {
        Ok(self.exchange(body).await?.response.unwrap_or(Value::Null))
    }

    /// Sends a request built by [`Client::request_body`] and returns its `result`; a JSON-RPC
    /// error is [`ClientError::Protocol`] naming the code and message.
    pub async fn call(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let response = self.send(&self.request_body(method, params)).await?;
        result_of(method, response)
    }

    /// The tool definitions an HTTP `tools/call` needs for its `Mcp-Param-*` headers: learnt
    /// from `tools/list` (every page), fetched once when the client has not seen it yet.
    #[cfg(feature = "http")]
    #[allow(irrefutable_let_patterns)]
    async fn tools_for(&self, body: &Value, timeout: Duration) -> Vec<ToolDefinition> {
        if body.get("method").and_then(Value::as_str) != Some("tools/call") {
            return Vec::new();
        }
        let mut cache = self.inner.tools.lock().await;
        if cache.is_none() {
            let Transport::Http(t) = &self.inner.transport else {
                return Vec::new();
            };
            let mut tools = Vec::new();
            let mut cursor: Option<String> = None;
            for _page in 0..100 {
                let mut params = json!({});
                if let Some(c) = &cursor {
                    params["cursor"] = Value::from(c.as_str());
                }
                let list = self.request_body("tools/list", params);
                self.inner.ids.note(&list);
                let Ok(exchange) = t.exchange(&list, &[], timeout).await else {
                    break;
                };
                let result = exchange.response.and_then(|r| r.get("result").cloned());
                let Some(result) = result else { break };
                tools.extend(parse_tools(&result));
                cursor = result
                    .get("nextCursor")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                if cursor.is_none() {
                    break;
                }
            }
            *cache = Some(tools);
        }
        cache.clone().unwrap_or_default()
    }

    #[cfg(feature = "http")]
    async fn learn_tools(&self, body: &Value, exchange: &Exchange) {
        if body.get("method").and_then(Value::as_str) != Some("tools/list") {
            return;
        }
        let Some(result) = exchange.response.as_ref().and_then(|r| r.get("result")) else {
            return;
        };
        let mut cache = self.inner.tools.lock().await;
        let tools = cache.get_or_insert_with(Vec::new);
        for tool in parse_tools(result) {
            tools.retain(|t| t.name != tool.name);
            tools.push(tool);
        }
    }

    /// Tells a 2026-07-28 server from a 2025-era one, as `basic/versioning.mdx` §Backward
    /// Compatibility says a dual-era client does: it probes with `server/discover`.
    ///
    /// - A `DiscoverResult` is a modern server. An `UnsupportedProtocolVersionError` (-32022)
    ///   whose `data.supported` lists 2026-07-28 is retried once; one that lists only legacy
    ///   revisions is a legacy server.
    /// - Another recognised modern error (-32020, -32021) is a modern server refusing the
    ///   probe: [`ClientError::Protocol`].
    /// - Anything else is a legacy server, which gets the 2025-11-25 `initialize` handshake
    ///   (then `notifications/initialized`): any other JSON-RPC error (the fallback is not keyed
    ///   to one code), an HTTP 4xx whose body holds no recognised modern error, a reply with
    ///   another id ([`ClientError::WrongId`]), or silence.
    /// - Silence: when `server/discover` has no answer within the probe wait
    ///   ([`Client::with_probe_wait`], default [`DEFAULT_PROBE_WAIT`]), `initialize` is sent as
    ///   well and the first decisive answer wins, so a silent legacy server is found quickly
    ///   and a modern server still starting (`npx -y` installing it) is not mistaken for one.
    #[allow(irrefutable_let_patterns)]
    pub async fn era(&self) -> Result<Handshake, ClientError> {
        let discover_body = self.request_body("server/discover", json!({}));
        let discover = self.exchange(&discover_body);
        tokio::pin!(discover);
        let first = tokio::select! {
            outcome = &mut discover => Some(outcome),
            () = tokio::time::sleep(self.inner.probe_wait) => None,
        };
        let verdict = match first {
            Some(outcome) => classify_discover(outcome),
            None => {
                let initialize_body = self.initialize_body();
                let initialize = self.exchange(&initialize_body);
                tokio::pin!(initialize);
                let mut discover_done = false;
                let mut legacy_reason = "no answer to server/discover".to_owned();
                let mut older = None;
                loop {
                    tokio::select! {
                        outcome = &mut discover, if !discover_done => {
                            discover_done = true;
                            match classify_discover(outcome) {
                                Discovered::Legacy(reason) => legacy_reason = reason,
                                // The initialize in flight is the one its word asks for.
                                Discovered::Older(why) => {
                                    legacy_reason.clone_from(&why);
                                    older = Some(why);
                                }
                                decisive => break decisive,
                            }
                        }
                        outcome = &mut initialize => {
                            let outcome = outcome.and_then(|e| {
                                result_of("initialize", e.response.unwrap_or(Value::Null))
                            });
                            match outcome {
                                Ok(result) => {
                                    let mut handshake = self.finish_legacy(result).await?;
                                    handshake.negotiation = older;
                                    return Ok(handshake);
                                }
                                Err(e) if discover_done => {
                                    return Err(ClientError::Protocol(format!(
                                        "the server is neither modern nor legacy: {legacy_reason}; {e}"
                                    )));
                                }
                                // A modern server refuses initialize: its discover answer decides.
                                Err(_) => {
                                    let outcome = (&mut discover).await;
                                    break classify_discover(outcome);
                                }
                            }
                        }
                    }
                }
            }
        };
        let verdict = match verdict {
            Discovered::RetryVersion => classify_discover(
                self.exchange(&self.request_body("server/discover", json!({})))
                    .await,
            ),
            other => other,
        };
        match verdict {
            Discovered::Modern(result) => Ok(Handshake {
                era: Era::Current,
                result,
                protocol_version: PROTOCOL_VERSION.to_owned(),
                negotiation: None,
            }),
            Discovered::Legacy(reason) => {
                let response = self.send(&self.initialize_body()).await?;
                let result = result_of("initialize", response).map_err(|e| {
                    ClientError::Protocol(format!("{e} (server/discover: {reason})"))
                })?;
                self.finish_legacy(result).await
            }
            Discovered::Older(why) => {
                let response = self.send(&self.initialize_body()).await?;
                let result = result_of("initialize", response)
                    .map_err(|e| ClientError::Protocol(format!("{e} ({why})")))?;
                let mut handshake = self.finish_legacy(result).await?;
                handshake.negotiation = Some(why);
                Ok(handshake)
            }
            Discovered::RetryVersion => Err(ClientError::Protocol(format!(
                "server/discover: {} twice, though the server lists 2026-07-28 as supported",
                crate::wire::error_codes::UNSUPPORTED_PROTOCOL_VERSION
            ))),
            Discovered::Fatal(e) => Err(e),
        }
    }

    /// The 2025-11-25 `initialize` request this client sends to a legacy server. In that era
    /// `elicitation`, `sampling` and `roots` invite the server's own requests, so they are
    /// declared only when the client has answers ([`Client::with_answers`]) or its
    /// capabilities were set ([`Client::with_capabilities`]); else a server that honours the
    /// declaration would ask and get -32601.
    fn initialize_body(&self) -> Value {
        let keep = self.inner.capabilities_set || self.inner.answers.has_fixed();
        self.initialize_body_declaring(self.inner.capabilities.clone(), keep)
    }

    fn initialize_body_declaring(&self, capabilities: Value, answers: bool) -> Value {
        let mut capabilities = capabilities;
        if let Some(capabilities) = capabilities.as_object_mut()
            && !answers
        {
            for served_by_the_client in ["elicitation", "sampling", "roots"] {
                // (the capability names of answering::ANSWERED_METHODS)
                capabilities.remove(served_by_the_client);
            }
        }
        json!({
            "jsonrpc": "2.0", "id": self.next_id(), "method": "initialize",
            "params": {
                "protocolVersion": LEGACY_PROTOCOL_VERSION,
                "capabilities": capabilities,
                "clientInfo": {"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}
            }
        })
    }

    /// Speaks the 2025-11-25 `initialize` handshake at once (then
    /// `notifications/initialized`), without probing with `server/discover` as
    /// [`Client::era`] does: for a test that speaks the 2025 era to a server serving both.
    /// A JSON-RPC error or a result without `protocolVersion` is [`ClientError::Protocol`].
    pub async fn initialize(&self) -> Result<Handshake, ClientError> {
        let response = self.send(&self.initialize_body()).await?;
        let result = result_of("initialize", response)?;
        self.finish_legacy(result).await
    }

    /// [`Client::initialize`] declaring `capabilities` as they are (a test context's).
    pub(crate) async fn initialize_declaring(
        &self,
        capabilities: Value,
    ) -> Result<Handshake, ClientError> {
        let response = self
            .send(&self.initialize_body_declaring(capabilities, true))
            .await?;
        let result = result_of("initialize", response)?;
        self.finish_legacy(result).await
    }

    /// The answers to the server's own requests, shared with the transport.
    pub(crate) fn answer_sources(&self) -> Arc<crate::target::answering::AnswerSources> {
        self.inner.answers.clone()
    }

    /// After a successful `initialize`: remembers the revision and sends
    /// `notifications/initialized`.
    #[allow(irrefutable_let_patterns)]
    async fn finish_legacy(&self, result: Value) -> Result<Handshake, ClientError> {
        let protocol_version = result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ClientError::Protocol(format!(
                    "initialize: the result has no protocolVersion: {result}"
                ))
            })?
            .to_owned();
        #[cfg(feature = "http")]
        if let Transport::Http(t) = &self.inner.transport {
            t.set_protocol_version(&protocol_version);
        }
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await?;
        let _ = self.inner.legacy.set(result.clone());
        Ok(Handshake {
            era: Era::Legacy,
            result,
            protocol_version,
            negotiation: None,
        })
    }

    /// Drives a multi-round request (`tools/call`, `prompts/get`, `resources/read`) to its
    /// final response: after each `input_required` result it answers every input request
    /// from `answers`, echoes `requestState` (or leaves it out when the server sent none),
    /// and retries with a fresh id. A JSON-RPC error ends the run; it is the last response.
    /// Retries take fresh ids from this client ([`Client::next_id`]); see
    /// [`target::drive`](crate::target::drive), which this calls.
    ///
    /// In the 2025-11-25 era the server asks on the open connection instead, and `answers`
    /// answer those requests while this call runs (before the client's own,
    /// [`Client::with_answers`]); the run is then one round.
    pub async fn call_rounds(&self, body: &Value, answers: &Answers) -> Result<Rounds, DriveError> {
        let _answering = self.inner.answers.during(answers);
        let answers = self.inner.answers.with_fixed(answers);
        let next_id = || Value::from(self.next_id());
        crate::target::drive(self, body, &answers, &Caller::default(), Some(&next_id)).await
    }

    /// The process id of the server this client started ([`Client::spawn`]); `None` over HTTP
    /// or streams ([`Client::connect`]). A load run samples its memory and descriptors from
    /// `/proc/PID`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use mcp_test::client::Client;
    /// assert_eq!(Client::http("http://127.0.0.1:9/mcp").unwrap().process_id(), None);
    /// # #[cfg(unix)] {
    /// let client = Client::spawn(tokio::process::Command::new("cat")).await.unwrap();
    /// assert!(client.process_id().is_some());
    /// client.close().await.unwrap();
    /// # }
    /// # }
    /// ```
    pub fn process_id(&self) -> Option<u32> {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.pid(),
            #[cfg(feature = "http")]
            Transport::Http(_) => None,
        }
    }

    /// Everything the child has written to stderr so far (empty over HTTP).
    pub fn stderr(&self) -> String {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.stderr(),
            #[cfg(feature = "http")]
            Transport::Http(_) => String::new(),
        }
    }

    /// What the server did on the transport that a checker may hold against it, in order:
    /// lines on stdout that are not JSON-RPC messages, replies to no request in flight or sent
    /// twice, requests from the server, messages that are not UTF-8, too long or too deep.
    pub fn transport_events(&self) -> Vec<TransportEvent> {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.events(),
            #[cfg(feature = "http")]
            Transport::Http(t) => t.events(),
        }
    }

    /// Ends the session. On stdio: closes the child's stdin and waits up to the close grace
    /// ([`Client::with_close_grace`], default [`DEFAULT_CLOSE_GRACE`]) for it to exit, and
    /// returns its exit status; a child still running then is killed (`SIGKILL` on Unix, with
    /// no `SIGTERM` first) and the error is [`ClientError::NoExit`]. Over HTTP, or on streams
    /// from [`Client::connect`], there is no process: `Ok(None)`. Other clones of this client
    /// can no longer send.
    pub async fn close(&self) -> Result<Option<ExitStatus>, ClientError> {
        self.close_within(self.inner.close_grace).await
    }

    /// [`Client::close`] with this grace instead of the client's.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use mcp_test::client::{Client, ClientError};
    /// use std::time::Duration;
    /// # #[cfg(unix)] {
    /// // `sleep` never reads its stdin, so closing it does not end the process.
    /// let mut command = tokio::process::Command::new("sleep");
    /// command.arg("30");
    /// let client = Client::spawn(command).await.unwrap();
    /// let err = client.close_within(Duration::from_millis(100)).await.unwrap_err();
    /// assert!(matches!(err, ClientError::NoExit { .. }), "{err}");
    /// # }
    /// # }
    /// ```
    #[cfg_attr(not(feature = "client"), allow(unused_variables))]
    pub async fn close_within(&self, grace: Duration) -> Result<Option<ExitStatus>, ClientError> {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.close(grace).await,
            #[cfg(feature = "http")]
            Transport::Http(_) => Ok(None),
        }
    }
}

#[cfg(feature = "http")]
fn parse_tools(result: &Value) -> Vec<ToolDefinition> {
    result
        .get("tools")
        .and_then(Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| serde_json::from_value(t.clone()).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// What one `server/discover` probe says about the server's era.
enum Discovered {
    /// A `DiscoverResult`.
    Modern(Value),
    /// -32022 listing 2026-07-28: send the probe again.
    RetryVersion,
    /// Not a modern answer: why.
    Legacy(String),
    /// A modern answer naming 2025-11-25 among the versions the server serves, and not
    /// 2026-07-28: the era its own word gives, with why.
    Older(String),
    /// The probe failed in a way that decides nothing.
    Fatal(ClientError),
}

/// The modern errors whose presence identifies a modern server (HeaderMismatch,
/// MissingRequiredClientCapability; -32022 is handled on its own).
const MODERN_ERRORS: [i32; 2] = [
    error_codes::HEADER_MISMATCH,
    error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY,
];

fn classify_discover(outcome: Result<Exchange, ClientError>) -> Discovered {
    let exchange = match outcome {
        Ok(exchange) => exchange,
        Err(ClientError::Timeout { .. }) => {
            return Discovered::Legacy("no answer to server/discover".to_owned());
        }
        // Not a modern answer (some 2025-era HTTP servers answer a request they refuse with
        // an error under an id of their own): initialize decides.
        Err(e @ ClientError::WrongId { .. }) => {
            return Discovered::Legacy(format!("server/discover: {e}"));
        }
        Err(ClientError::Http { status, .. }) if (400..500).contains(&status) => {
            return Discovered::Legacy(format!(
                "server/discover got HTTP {status} without a recognised modern error"
            ));
        }
        Err(e) => return Discovered::Fatal(e),
    };
    let response = exchange.response.unwrap_or(Value::Null);
    if let Some(result) = response.get("result") {
        let Some(versions) = result.get("supportedVersions").and_then(Value::as_array) else {
            return Discovered::Fatal(ClientError::Protocol(format!(
                "server/discover: the result has no supportedVersions array: {result}"
            )));
        };
        // "The client should choose one of these for subsequent requests" (server/discover.mdx
        // §DiscoverResult): a server that does not list 2026-07-28 is not spoken to in it.
        return by_supported(
            versions,
            "its server/discover result lists supportedVersions",
            || Discovered::Modern(result.clone()),
        );
    }
    let code = response["error"]["code"].as_i64();
    if code == Some(i64::from(error_codes::UNSUPPORTED_PROTOCOL_VERSION)) {
        let Some(supported) = response["error"]["data"]["supported"].as_array() else {
            return Discovered::Fatal(ClientError::Protocol(format!(
                "server/discover: -32022 without data.supported, so no version to retry with: {response}"
            )));
        };
        return by_supported(
            supported,
            "server/discover was refused with -32022 naming data.supported",
            || Discovered::RetryVersion,
        );
    }
    if code.is_some_and(|c| MODERN_ERRORS.iter().any(|m| i64::from(*m) == c)) {
        return Discovered::Fatal(ClientError::Protocol(format!(
            "server/discover was refused with a modern error, so the server is modern: {response}"
        )));
    }
    Discovered::Legacy(format!("server/discover answered {response}"))
}

/// What a list of the versions a server serves (`supportedVersions`, or a -32022's
/// `data.supported`) decides: `modern()` when it names 2026-07-28, the 2025-11-25 handshake when
/// it names that and not 2026-07-28 (versioning.mdx: "The client **SHOULD** select a mutually
/// supported version"), and no era at all when it names neither. `said` is where the list came
/// from, for the reason given.
fn by_supported(versions: &[Value], said: &str, modern: impl FnOnce() -> Discovered) -> Discovered {
    let names = |v: &str| versions.iter().any(|x| x == v);
    let listed = Value::from(versions.to_vec());
    if names(PROTOCOL_VERSION) {
        modern()
    } else if names(LEGACY_PROTOCOL_VERSION) {
        Discovered::Older(format!(
            "{said} {listed}, without {PROTOCOL_VERSION}: spoken to in {LEGACY_PROTOCOL_VERSION} (initialize), a version it names"
        ))
    } else {
        Discovered::Fatal(ClientError::Protocol(format!(
            "{said} {listed}: no revision in common with this client ({PROTOCOL_VERSION}, {LEGACY_PROTOCOL_VERSION})"
        )))
    }
}

fn result_of(method: &str, response: Value) -> Result<Value, ClientError> {
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(ClientError::Protocol(format!(
            "{method}: expected a result, got {response}"
        ))),
    }
}

impl Target for Client {
    fn label(&self) -> String {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.program().to_owned(),
            #[cfg(feature = "http")]
            Transport::Http(t) => t.url().to_owned(),
        }
    }

    /// The caller's timeout applies when it has one, else the client's.
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let timeout = caller.timeout.unwrap_or(self.inner.timeout);
            let exchange = self.exchange_within(message, timeout).await?;
            if message.get("id").is_some() && exchange.response.is_none() {
                return Err(TargetError::NoResponse {
                    request: describe(message),
                });
            }
            Ok(exchange)
        })
    }

    /// On stdio: `text` written as one line, and its reply (under `null`, or the id `text`
    /// carries when it is JSON with one) waited for up to the caller's timeout, else the
    /// client's; none by then is an exchange without a response. Over HTTP: not supported
    /// (post it with an HTTP client of your own, which sees the status too).
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let timeout = caller.timeout.unwrap_or(self.inner.timeout);
            match &self.inner.transport {
                #[cfg(feature = "client")]
                Transport::Stdio(t) => Ok(t.exchange_text(text, timeout).await?),
                #[cfg(feature = "http")]
                Transport::Http(_) => {
                    let _ = (text, timeout);
                    Err(TargetError::Unsupported {
                        what: "sending text that is not a JSON value through the HTTP client"
                            .to_owned(),
                    })
                }
            }
        })
    }

    /// The transport, the HTTP endpoint (URL and options) over HTTP, and the transport events
    /// so far ([`Client::transport_events`]), and after a 2025-11-25 handshake the
    /// `serverInfo` it named ([`Connection::server_info`]). The era is not kept here:
    /// [`Client::era`] probes it; `cases::Connected` keeps what it found.
    fn connection(&self) -> Connection {
        let mut connection = Connection::new().with_events(Client::transport_events(self));
        // After a 2025-11-25 handshake: the server it named.
        if let Some(info) = self.inner.legacy.get().and_then(|r| r.get("serverInfo")) {
            connection = connection.with_server_info(info.clone());
        }
        match &self.inner.transport {
            #[cfg(feature = "http")]
            Transport::Http(t) => connection
                .with_transport(crate::spec::clauses::Transport::Http)
                .with_http(crate::target::HttpEndpoint::new(
                    t.url(),
                    t.options().clone(),
                )),
            #[cfg(feature = "client")]
            Transport::Stdio(_) => {
                connection.with_transport(crate::spec::clauses::Transport::Stdio)
            }
        }
    }
}
