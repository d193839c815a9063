//! What the HTTP probes that send tool calls and watch SSE streams share: the endpoint of a
//! run, a raw POST or GET whose SSE reply is read event by event within a bound (or while
//! other work runs), a 2025-era session opened raw ([`RawSession`]), and the base cases those
//! probes may call again.

use crate::run::Run;
use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderName, HeaderValue, Method};
use http_body_util::{BodyExt, Full};
use mcp_test::__check::HttpClient;
use mcp_test::cases::shorten;
use mcp_test::client::HttpOptions;
use mcp_test::transport::sse::{Event, events};
use serde_json::Value;
use std::time::Duration;

/// The run's HTTP endpoint: its URL and what the client sends with every request. A row that
/// needs `Transport::Http` has one.
pub(crate) fn endpoint(r: &Run<'_>) -> (String, HttpOptions) {
    let http = r.connection.http.as_ref();
    (
        http.map(|h| h.url.clone()).unwrap_or_default(),
        http.map(|h| h.options.clone()).unwrap_or_default(),
    )
}

/// The base case (`rule:base`) of each tool `check` calls, as `(tool definition, arguments)`:
/// the only calls a probe may make again. Task-only tools are not among them.
pub(crate) fn base_calls(r: &Run<'_>) -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    for case in r.cases.iter().filter(|c| c.source == "rule:base") {
        let Some(tool) = r
            .tools
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(case.tool.as_str()))
        else {
            continue;
        };
        if out
            .iter()
            .any(|(t, _): &(Value, Value)| t.get("name") == tool.get("name"))
        {
            continue;
        }
        out.push((tool.clone(), case.args.clone().into_value()));
    }
    out
}

/// The first of [`base_calls`] with the run's endpoint, for a probe that posts it again.
pub(crate) struct BaseCall {
    pub url: String,
    pub options: HttpOptions,
    /// The tool's definition.
    pub tool: Value,
    pub name: String,
    /// Its `tools/call` request with the base case's arguments.
    pub body: Value,
}

/// The first base call, its request given the id `request_id`; `None` when there is none,
/// after recording `probe` with nothing found (a row with `Needs::base_call` has one).
pub(crate) fn first_base_call(r: &mut Run<'_>, probe: &str, request_id: &str) -> Option<BaseCall> {
    let (url, options) = endpoint(r);
    let Some((tool, arguments)) = base_calls(r).into_iter().next() else {
        r.c.push_probe(probe, Vec::new());
        return None;
    };
    let name = tool
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let mut body = mcp_test::wire::build::build_call_request(&name, arguments);
    body["id"] = Value::from(request_id);
    Some(BaseCall {
        url,
        options,
        tool,
        name,
        body,
    })
}

/// The header of a 2025-era session's id.
pub(crate) const SESSION_ID: &str = "mcp-session-id";

/// The header that resumes an SSE stream after the event it names.
pub(crate) const LAST_EVENT_ID: &str = "last-event-id";

/// Sets (or, for an empty value, removes) a header; a name or value that cannot be sent is
/// left out.
pub(crate) fn put(headers: &mut HeaderMap, name: &str, value: &str) {
    let Ok(name) = HeaderName::from_bytes(name.as_bytes()) else {
        return;
    };
    if value.is_empty() {
        headers.remove(&name);
    } else if let Ok(value) = HeaderValue::from_str(value) {
        headers.insert(name, value);
    }
}

/// The headers of a 2026-07-28 POST of `body` (a `tools/call` of `tool`, a definition as
/// listed): [`json_headers`], every mirrored header, and an `Mcp-Param-{Name}` for every
/// `x-mcp-header` argument the body carries.
pub(crate) fn call_headers(tool: &Value, body: &Value) -> HeaderMap {
    let mut headers = json_headers();
    for (name, value) in mcp_test::wire::build::mirrored_headers(body) {
        put(&mut headers, &name, &value);
    }
    let arguments = body.pointer("/params/arguments").unwrap_or(&Value::Null);
    let schema = tool.get("inputSchema").unwrap_or(&Value::Null);
    for param in mcp_test::headers::header_params(schema) {
        if let Some(value) = param
            .lookup(arguments)
            .and_then(mcp_test::headers::param_value)
        {
            put(&mut headers, &param.header_name(), &value);
        }
    }
    headers
}

/// JSON in, JSON or SSE out.
pub(crate) fn json_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    headers
}

/// [`json_headers`] and the headers mirroring `body` (those that cannot be sent left out): the
/// headers of a POST on a connection of its own.
pub(crate) fn mirrored_json_headers(body: &Value) -> HeaderMap {
    let mut headers = json_headers();
    for (name, value) in mcp_test::wire::build::mirrored_headers_for(body, &[]) {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            headers.insert(name, value);
        }
    }
    headers
}

/// POSTs `body` with its [`mirrored_json_headers`] on a connection of its own and reads the
/// reply until it ends, `timeout` passes, or `after_first` after its first JSON-RPC message (at
/// once for [`Duration::ZERO`]); then drops the connection, which ends a stream the server
/// opened. The messages read, in order.
pub(crate) async fn read_messages(
    url: &str,
    options: &HttpOptions,
    body: &Value,
    timeout: Duration,
    after_first: Duration,
) -> Result<Vec<Value>, String> {
    use tokio::time::Instant;

    let wire = Wire::new(url, options, timeout)?;
    let mut until = Instant::now() + timeout;
    let bytes = Bytes::from(body.to_string());
    let (_, mut incoming) = wire
        .head(Method::POST, mirrored_json_headers(body), bytes, until)
        .await?;
    let mut bytes = Vec::new();
    let mut first = false;
    loop {
        let frame = match tokio::time::timeout_at(until, incoming.frame()).await {
            Err(_) | Ok(None) => break,
            Ok(Some(Err(e))) => return Err(e.to_string()),
            Ok(Some(Ok(frame))) => frame,
        };
        if let Ok(data) = frame.into_data() {
            bytes.extend_from_slice(&data);
        }
        if !first && !mcp_test::transport::sse::messages(&bytes).is_empty() {
            if after_first.is_zero() {
                break;
            }
            first = true;
            until = until.min(Instant::now() + after_first);
        }
    }
    Ok(mcp_test::transport::sse::messages(&bytes))
}

/// One reply read as it came: status, headers, the raw body so far, and how it ended.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watched {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
    /// The body ended (the server closed the stream) before the watch did.
    pub ended: bool,
}

impl Watched {
    pub(crate) fn content_type(&self) -> String {
        self.headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase()
    }

    pub(crate) fn is_sse(&self) -> bool {
        self.content_type().starts_with("text/event-stream")
    }

    /// Whether the reply opened a stream: 200 with an SSE body.
    pub(crate) fn is_open_stream(&self) -> bool {
        self.status == 200 && self.is_sse()
    }

    /// The SSE events of the body (none for a body that is not SSE).
    pub(crate) fn events(&self) -> Vec<Event> {
        if !self.is_sse() {
            return Vec::new();
        }
        events(&String::from_utf8_lossy(&self.body))
    }

    /// The JSON-RPC messages of the body: the body when it is JSON, else every SSE event's.
    pub(crate) fn messages(&self) -> Vec<Value> {
        mcp_test::transport::sse::messages(&self.body)
    }

    /// The response (a message with `result` or `error`) whose id is `id`.
    pub(crate) fn response(&self, id: &Value) -> Option<Value> {
        self.messages()
            .into_iter()
            .find(|m| is_response(m) && m.get("id") == Some(id))
    }

    /// The first message with a result.
    pub(crate) fn result(&self) -> Option<Value> {
        self.messages()
            .into_iter()
            .find_map(|m| m.get("result").cloned())
    }

    /// The `Mcp-Session-Id` the reply carries (a 2025-era session).
    pub(crate) fn session(&self) -> Option<&HeaderValue> {
        self.headers.get(SESSION_ID)
    }

    /// The JSON-RPC error code of the first message that has one.
    pub(crate) fn code(&self) -> Option<i64> {
        self.messages()
            .iter()
            .find_map(|m| m.pointer("/error/code").and_then(Value::as_i64))
    }

    /// `HTTP 200 (application/json): {...}`, shortened.
    pub(crate) fn brief(&self) -> String {
        let text = String::from_utf8_lossy(&self.body);
        let ct = self.content_type();
        let ct = if ct.is_empty() {
            "no Content-Type"
        } else {
            &ct
        };
        if text.trim().is_empty() {
            format!("HTTP {} ({ct}) with an empty body", self.status)
        } else {
            format!("HTTP {} ({ct}): {}", self.status, shorten(&text, 200))
        }
    }
}

/// Whether `message` is a JSON-RPC response.
pub(crate) fn is_response(message: &Value) -> bool {
    message.get("method").is_none()
        && (message.get("result").is_some() || message.get("error").is_some())
}

/// A 2025-era session a probe opened raw on a [`Wire`] ([`Wire::open_session`]).
pub(crate) struct RawSession {
    /// The reply to `initialize`, read to its response.
    pub reply: Watched,
    /// The version the server chose (the one asked for, when its result names none).
    pub version: String,
    /// The `Mcp-Session-Id` the server minted, if it did.
    pub id: Option<HeaderValue>,
}

impl RawSession {
    /// The headers of a message in the session: [`json_headers`] (with `Accept` only
    /// `text/event-stream` when `sse_only`, for a GET stream), its version and its id.
    pub(crate) fn headers(&self, sse_only: bool) -> HeaderMap {
        let mut headers = json_headers();
        if sse_only {
            headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
        }
        put(
            &mut headers,
            mcp_test::headers::PROTOCOL_VERSION,
            &self.version,
        );
        if let Some(id) = &self.id {
            headers.insert(SESSION_ID, id.clone());
        }
        headers
    }
}

/// A raw HTTP client for one probe: any method, any headers, every wait bounded.
pub(crate) struct Wire {
    pub client: HttpClient,
    pub uri: http::Uri,
    pub timeout: Duration,
}

impl Wire {
    /// The client of `url`, or why there is none.
    pub(crate) fn new(url: &str, options: &HttpOptions, timeout: Duration) -> Result<Self, String> {
        let uri =
            HttpClient::parse_url(url).map_err(|e| format!("{url} is not a usable URL: {e}"))?;
        let client = HttpClient::with_options(options)
            .map_err(|e| format!("no HTTP client for {url}: {e}"))?;
        Ok(Wire {
            client,
            uri,
            timeout,
        })
    }

    /// Sends one request and waits until `deadline` for the head of its reply: the status and
    /// headers (with no body yet), and the body still to read. `Err`: no head in time, or a
    /// failure to send.
    pub(crate) async fn head(
        &self,
        method: Method,
        headers: HeaderMap,
        bytes: Bytes,
        deadline: tokio::time::Instant,
    ) -> Result<
        (
            Watched,
            impl BodyExt<Data = Bytes, Error: std::fmt::Display> + Unpin,
        ),
        String,
    > {
        let mut request = http::Request::new(Full::new(bytes));
        *request.method_mut() = method;
        *request.uri_mut() = self.uri.clone();
        *request.headers_mut() = headers;
        let response = tokio::time::timeout_at(deadline, self.client.send_raw(request))
            .await
            .map_err(|_| format!("no reply within {:?}", self.timeout))?
            .map_err(|e| format!("sending the request failed: {e}"))?;
        let (parts, incoming) = response.into_parts();
        let head = Watched {
            status: parts.status.as_u16(),
            headers: parts.headers,
            ..Watched::default()
        };
        Ok((head, incoming))
    }

    /// Sends one request and reads its reply until the body ends, until `done` says the body
    /// so far is enough (then `settle` longer, for the server to end it), or until the
    /// timeout, whichever comes first. `Err`: no reply head within the timeout, or a failure
    /// to send.
    pub(crate) async fn watch(
        &self,
        method: Method,
        headers: HeaderMap,
        body: Option<&Value>,
        settle: Duration,
        done: impl Fn(&[u8]) -> bool,
    ) -> Result<Watched, String> {
        let bytes = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
        let deadline = tokio::time::Instant::now() + self.timeout;
        let (mut watched, mut incoming) = self.head(method, headers, bytes, deadline).await?;
        let mut data = Vec::new();
        let mut until = deadline;
        loop {
            match tokio::time::timeout_at(until, incoming.frame()).await {
                Err(_) => break,
                Ok(None) => {
                    watched.ended = true;
                    break;
                }
                Ok(Some(Err(_))) => {
                    // The connection broke: the body ended, as far as a client can tell.
                    watched.ended = true;
                    break;
                }
                Ok(Some(Ok(frame))) => {
                    if let Ok(chunk) = frame.into_data() {
                        data.extend_from_slice(&chunk);
                    }
                }
            }
            if until == deadline && done(&data) {
                until = (tokio::time::Instant::now() + settle).min(deadline);
            }
        }
        watched.body = Bytes::from(data);
        Ok(watched)
    }

    /// Sends one request and reads its reply into `sink` as it comes (head first, then each
    /// piece of the body), until the body ends or the timeout: for a stream watched while
    /// something else happens, and dropped when that is done. `Err`: no reply head.
    async fn watch_into(
        &self,
        method: Method,
        headers: HeaderMap,
        sink: &std::cell::RefCell<Option<Watched>>,
    ) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        let (head, mut incoming) = self.head(method, headers, Bytes::new(), deadline).await?;
        *sink.borrow_mut() = Some(head);
        let mut data = Vec::new();
        loop {
            match tokio::time::timeout_at(deadline, incoming.frame()).await {
                Err(_) => return Ok(()),
                Ok(None | Some(Err(_))) => {
                    if let Some(w) = sink.borrow_mut().as_mut() {
                        w.ended = true;
                    }
                    return Ok(());
                }
                Ok(Some(Ok(frame))) => {
                    if let Ok(chunk) = frame.into_data() {
                        data.extend_from_slice(&chunk);
                        if let Some(w) = sink.borrow_mut().as_mut() {
                            w.body = Bytes::from(data.clone());
                        }
                    }
                }
            }
        }
    }

    /// Reads the reply to `method` with `headers` while `work` runs; what was read of it when
    /// `work` ended (`None`: not even its head), and `work`'s output.
    pub(crate) async fn watch_while<T>(
        &self,
        method: Method,
        headers: HeaderMap,
        work: impl std::future::Future<Output = T>,
    ) -> (Option<Watched>, T) {
        let sink = std::cell::RefCell::new(None);
        let output = {
            let watch = async {
                let _ = self.watch_into(method, headers, &sink).await;
                std::future::pending::<()>().await;
            };
            tokio::select! {
                output = work => output,
                () = watch => unreachable!("the watch never ends by itself"),
            }
        };
        (sink.into_inner(), output)
    }

    /// Opens a 2025-era session: POSTs `initialize` (id `id`, declaring `capabilities`,
    /// asking for 2025-11-25) and reads the reply to its response and `settle` longer. Sends
    /// no `notifications/initialized`. `Err`: why there is no session, as "initialize, `how`,
    /// got no reply (..)" or "initialize, `how`, was not served (..)".
    pub(crate) async fn open_session(
        &self,
        id: &str,
        capabilities: Value,
        settle: Duration,
        how: &str,
    ) -> Result<RawSession, String> {
        let version = mcp_test::wire::LEGACY_PROTOCOL_VERSION;
        let init = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": capabilities,
                "clientInfo": {"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}}});
        let reply = self
            .post(json_headers(), &init, settle)
            .await
            .map_err(|e| format!("initialize, {how}, got no reply ({e})"))?;
        let Some(result) = reply
            .response(&init["id"])
            .and_then(|r| r.get("result").cloned())
        else {
            return Err(format!(
                "initialize, {how}, was not served ({})",
                reply.brief()
            ));
        };
        Ok(RawSession {
            version: result
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or(version)
                .to_owned(),
            id: reply.session().cloned(),
            reply,
        })
    }

    /// Sends `notifications/initialized` in `session`, ignoring the reply.
    pub(crate) async fn send_initialized(&self, session: &RawSession) {
        let initialized =
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let _ = self
            .post(session.headers(false), &initialized, Duration::ZERO)
            .await;
    }

    /// Ends `session` with a DELETE, when the server minted an id for it.
    pub(crate) async fn end_session(&self, session: &RawSession) {
        let Some(id) = &session.id else {
            return;
        };
        let mut headers = HeaderMap::new();
        headers.insert(SESSION_ID, id.clone());
        put(
            &mut headers,
            mcp_test::headers::PROTOCOL_VERSION,
            &session.version,
        );
        let _ = self
            .watch(Method::DELETE, headers, None, Duration::ZERO, |_| true)
            .await;
    }

    /// POSTs `body` and reads the reply until the response to it (then `settle` longer).
    pub(crate) async fn post(
        &self,
        headers: HeaderMap,
        body: &Value,
        settle: Duration,
    ) -> Result<Watched, String> {
        let id = body.get("id").cloned().unwrap_or(Value::Null);
        self.watch(Method::POST, headers, Some(body), settle, move |data| {
            mcp_test::transport::sse::messages(data)
                .iter()
                .any(|m| is_response(m) && m.get("id") == Some(&id))
        })
        .await
    }
}
