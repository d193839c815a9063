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
//!   ([`Client::violations`]), and on [`Client::close`] closes stdin and expects the process
//!   to exit. The child is killed when the last clone of the client is dropped.
//! - **HTTP** ([`Client::http`]): POSTs each message with `Accept: application/json,
//!   text/event-stream` and every mirrored header (`MCP-Protocol-Version`, `Mcp-Method`,
//!   `Mcp-Name`, and `Mcp-Param-*` for the called tool's `x-mcp-header` arguments, learnt from
//!   `tools/list`), and reads a JSON or SSE reply and its status ([`Exchange`]).
//! - Every call has a timeout (default 30 s, [`Client::with_timeout`], or the helpers'
//!   `RequestOptions::timeout`); on stdio a timed-out request is cancelled with
//!   `notifications/cancelled`.
//! - [`Client::call_rounds`] drives a multi-round (`input_required`) request to completion
//!   with scripted [`Answers`]; [`Client::era`] tells a 2026-07-28 server from a 2025-11-25 one.
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
mod http;
#[cfg(feature = "client")]
mod stdio;

// The one hyper client, for the AI client and the checker's raw probes (feature `cases`).
#[cfg(feature = "http")]
#[allow(unused_imports)]
pub(crate) use http::{HttpClient, HttpReply};

pub use crate::target::{Answers, Exchange, Rounds};

use crate::server::Caller;
use crate::target::{DriveError, Target, TargetError, TargetFuture, describe};
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

/// The 2025-era revision [`Client::era`] offers in `initialize`.
pub const LEGACY_PROTOCOL_VERSION: &str = "2025-11-25";

/// Why a [`Client`] call failed. Each message names what happened and, for a child process,
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
    /// Reading from or writing to the transport failed.
    #[error("{0}")]
    Io(String),
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
    /// The URL is not a plain `http://` URL.
    #[error("bad URL {url:?}: {reason}")]
    BadUrl {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// An HTTP request could not be sent, or its reply could not be read (nobody listening,
    /// the connection dropped).
    #[error("POST {url}: {what} failed: {}", chain(.source.as_ref()))]
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
    /// The child did not exit after its stdin was closed.
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
}

enum Transport {
    #[cfg(feature = "client")]
    Stdio(stdio::StdioTransport),
    #[cfg(feature = "http")]
    Http(http::HttpTransport),
}

struct Inner {
    transport: Transport,
    timeout: Duration,
    capabilities: Value,
    next_id: AtomicI64,
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
    fn new(transport: Transport) -> Client {
        Client {
            inner: Arc::new(Inner {
                transport,
                timeout: DEFAULT_TIMEOUT,
                capabilities: json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}),
                next_id: AtomicI64::new(1),
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
        Ok(Client::new(Transport::Stdio(stdio::StdioTransport::spawn(
            command,
        )?)))
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
        Client::new(Transport::Stdio(stdio::StdioTransport::connect(
            reader, writer,
        )))
    }

    #[cfg(feature = "http")]
    /// Speaks MCP over Streamable HTTP to `url` (`http://HOST:PORT/PATH`; no TLS). Nothing is
    /// sent until the first call.
    ///
    /// ```
    /// use mcp_test::client::Client;
    /// assert!(Client::http("http://127.0.0.1:9/mcp").is_ok());
    /// let err = Client::http("https://example.com/mcp").unwrap_err();
    /// assert!(err.to_string().contains("https"));
    /// ```
    pub fn http(url: &str) -> Result<Client, ClientError> {
        Ok(Client::new(Transport::Http(http::HttpTransport::new(url)?)))
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

    /// The same connection declaring other client capabilities in the requests it builds
    /// itself ([`Client::era`], [`Client::tool_call_body`], the `tools/list` it sends to learn
    /// `x-mcp-header` parameters). Default: elicitation (form and URL), sampling and roots.
    #[must_use]
    pub fn with_capabilities(self, capabilities: Value) -> Client {
        self.map_inner(|inner| inner.capabilities = capabilities)
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
    pub async fn exchange(&self, body: &Value) -> Result<Exchange, ClientError> {
        self.exchange_within(body, self.inner.timeout).await
    }

    pub(crate) async fn exchange_within(
        &self,
        body: &Value,
        timeout: Duration,
    ) -> Result<Exchange, ClientError> {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.exchange(body, timeout).await,
            #[cfg(feature = "http")]
            Transport::Http(t) => {
                let tools = self.tools_for(body, timeout).await;
                let exchange = t.exchange(body, &tools, timeout).await?;
                self.learn_tools(body, &exchange).await;
                Ok(exchange)
            }
        }
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

    /// Tells a 2026-07-28 server from a 2025-era one: sends `server/discover`; on -32601
    /// performs the 2025-11-25 `initialize` handshake (then `notifications/initialized`). A
    /// -32022 (unsupported version) whose `data.supported` lists 2026-07-28 is retried once.
    /// Any other error, or a discover result without `supportedVersions`, is
    /// [`ClientError::Protocol`].
    #[allow(irrefutable_let_patterns)]
    pub async fn era(&self) -> Result<Handshake, ClientError> {
        let discover = || self.send_built("server/discover");
        let mut response = discover().await?;
        // -32022 names the versions the server supports: retry once if 2026-07-28 is one.
        let unsupported = response["error"]["code"].as_i64()
            == Some(i64::from(error_codes::UNSUPPORTED_PROTOCOL_VERSION));
        let supported = response["error"]["data"]["supported"].as_array();
        if unsupported && supported.is_some_and(|s| s.iter().any(|v| v == PROTOCOL_VERSION)) {
            response = discover().await?;
        }
        if let Some(result) = response.get("result") {
            if !result.get("supportedVersions").is_some_and(Value::is_array) {
                return Err(ClientError::Protocol(format!(
                    "server/discover: the result has no supportedVersions array: {result}"
                )));
            }
            return Ok(Handshake {
                era: Era::Current,
                result: result.clone(),
                protocol_version: PROTOCOL_VERSION.to_owned(),
            });
        }
        let code = response["error"]["code"].as_i64();
        if code != Some(i64::from(error_codes::METHOD_NOT_FOUND)) {
            return Err(ClientError::Protocol(format!(
                "server/discover: expected a result, or -32601 from a 2025-era server; got {response}"
            )));
        }
        let initialize = json!({
            "jsonrpc": "2.0", "id": self.next_id(), "method": "initialize",
            "params": {
                "protocolVersion": LEGACY_PROTOCOL_VERSION,
                "capabilities": self.inner.capabilities,
                "clientInfo": {"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}
            }
        });
        let result = result_of("initialize", self.send(&initialize).await?)?;
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
        Ok(Handshake {
            era: Era::Legacy,
            result,
            protocol_version,
        })
    }

    async fn send_built(&self, method: &str) -> Result<Value, ClientError> {
        self.send(&self.request_body(method, json!({}))).await
    }

    /// Drives a multi-round request (`tools/call`, `prompts/get`, `resources/read`) to its
    /// final response: after each `input_required` result it answers every input request
    /// from `answers`, echoes `requestState` (or leaves it out when the server sent none),
    /// and retries with a fresh id. A JSON-RPC error ends the run; it is the last response.
    /// Retries take fresh ids from this client ([`Client::next_id`]); see
    /// [`target::drive`](crate::target::drive), which this calls.
    pub async fn call_rounds(&self, body: &Value, answers: &Answers) -> Result<Rounds, DriveError> {
        let next_id = || Value::from(self.next_id());
        crate::target::drive(self, body, answers, &Caller::default(), Some(&next_id)).await
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

    /// What the server did that the transport forbids, in order: lines on stdout that are
    /// not JSON-RPC messages, replies to no request in flight, requests from the server.
    pub fn violations(&self) -> Vec<String> {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.violations(),
            #[cfg(feature = "http")]
            Transport::Http(_) => Vec::new(),
        }
    }

    /// Ends the session. On stdio: closes the child's stdin and waits (up to the timeout) for
    /// it to exit, killing it otherwise ([`ClientError::NoExit`]), and returns its exit status.
    /// Over HTTP, or on streams from [`Client::connect`], there is no process: `Ok(None)`.
    /// Other clones of this client can no longer send.
    pub async fn close(&self) -> Result<Option<ExitStatus>, ClientError> {
        match &self.inner.transport {
            #[cfg(feature = "client")]
            Transport::Stdio(t) => t.close(self.inner.timeout).await,
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

fn result_of(method: &str, response: Value) -> Result<Value, ClientError> {
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(ClientError::Protocol(format!(
            "{method}: expected a result, got {response}"
        ))),
    }
}

/// An error and its sources, `: `-separated: hyper's errors say little until their source
/// ("client error (Connect): tcp connect error: Connection refused").
fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut out = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        out.push_str(": ");
        out.push_str(&e.to_string());
        source = e.source();
    }
    out
}

/// The last 4 KiB of a child's stderr, as a suffix for error messages.
#[cfg(feature = "client")]
fn stderr_tail(stderr: &str) -> String {
    let stderr = stderr.trim_end();
    if stderr.is_empty() {
        return String::new();
    }
    let mut start = stderr.len().saturating_sub(4096);
    while !stderr.is_char_boundary(start) {
        start += 1;
    }
    format!("\n--- server stderr ---\n{}", &stderr[start..])
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

    fn transport_violations(&self) -> Vec<String> {
        self.violations()
    }

    fn http_url(&self) -> Option<String> {
        match &self.inner.transport {
            #[cfg(feature = "http")]
            Transport::Http(t) => Some(t.url().to_owned()),
            #[cfg(feature = "client")]
            Transport::Stdio(_) => None,
        }
    }
}
