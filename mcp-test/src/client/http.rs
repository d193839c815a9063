//! The Streamable HTTP side of the client: one POST per message, JSON or SSE replies.
//!
//! [`HttpClient`] is the crate's one HTTP client: hyper-util's legacy client over HTTP/1, and
//! with feature `tls` over HTTPS too (rustls over ring, webpki's roots plus any private CA of
//! [`HttpOptions`]). [`HttpTransport`] (the MCP client), the AI case generator and the
//! checker's raw-HTTP probes all send through it, with the headers of [`HttpOptions`] on every
//! request, and read SSE bodies with the one parser,
//! [`transport::sse`](crate::transport::sse).

use super::ClientError;
use super::auth::Challenge;
use super::limits::{
    DEFAULT_MAX_EVENT_BYTES, MAX_KEPT_BYTES, MAX_KEPT_MESSAGES, is_too_deep, quoted,
};
use crate::target::answering::AnswerSources;
use crate::target::{Exchange, HttpOptions, TransportEvent, describe};
use crate::transport::sse::EventReader;
use crate::wire::ToolDefinition;
use crate::wire::build::mirrored_headers_for;
use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What connects: plain TCP, or TCP then TLS for `https://` (feature `tls`).
#[cfg(feature = "tls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "tls"))]
type Connector = HttpConnector;

// `HttpOptions` is only data ([`target`](crate::target)); what it asks of the HTTP stack is
// here.
impl HttpOptions {
    /// The connector these options ask for.
    fn connector(&self) -> Result<Connector, ClientError> {
        let mut tcp = HttpConnector::new();
        #[cfg(not(feature = "tls"))]
        {
            tcp.enforce_http(true);
            Ok(tcp)
        }
        #[cfg(feature = "tls")]
        {
            tcp.enforce_http(false);
            let tls = |reason: String| ClientError::Tls { reason };
            let mut roots = rustls::RootCertStore::empty();
            roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
            for cert in &self.ca_certs {
                roots
                    .add(rustls_pki_types::CertificateDer::from(cert.clone()))
                    .map_err(|e| tls(format!("the CA certificate cannot be trusted: {e}")))?;
            }
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let config = rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .map_err(|e| tls(format!("no TLS version to offer: {e}")))?
                .with_root_certificates(roots)
                .with_no_client_auth();
            Ok(hyper_rustls::HttpsConnectorBuilder::new()
                .with_tls_config(config)
                .https_or_http()
                .enable_http1()
                .wrap_connector(tcp))
        }
    }
}

/// The crate's one HTTP client: sends a request with the given headers (and those of its
/// [`HttpOptions`]) and reads the whole reply. Cloning shares the connection pool.
#[derive(Clone)]
pub struct HttpClient {
    hyper: HyperClient<Connector, Full<Bytes>>,
    /// The longest reply body read; a longer one is [`ClientError::TooLarge`].
    max_body: usize,
    /// What it was built from.
    options: Arc<HttpOptions>,
}

/// One HTTP reply, read whole (for the AI client and the checker's raw probes, feature
/// `cases`; the MCP client reads its replies as they arrive).
#[derive(Clone, Debug)]
#[cfg_attr(not(feature = "cases"), allow(dead_code))]
pub struct HttpReply {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The body.
    pub body: Bytes,
}

#[cfg_attr(not(feature = "cases"), allow(dead_code))]
impl HttpReply {
    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The `Content-Type`, when present and readable.
    pub fn content_type(&self) -> Option<String> {
        self.headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    }

    /// The JSON-RPC messages of the body: the body when it is JSON, else every SSE event
    /// that is ([`transport::sse::messages`](crate::transport::sse::messages)).
    pub fn messages(&self) -> Vec<Value> {
        crate::transport::sse::messages(&self.body)
    }
}

/// The error of a reply with status 401: the server wants credentials. The
/// `WWW-Authenticate` challenges are kept, and the `resource_metadata` URL one names
/// (RFC 9728 §5.1).
pub fn unauthorized(url: &str, headers: &HeaderMap) -> ClientError {
    let challenges: Vec<String> = headers
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(str::to_owned)
        .collect();
    let resource_metadata = challenges
        .iter()
        .find_map(|c| super::auth::challenge_param(c, "resource_metadata"));
    ClientError::Unauthorized {
        url: url.to_owned(),
        www_authenticate: (!challenges.is_empty()).then(|| challenges.join(", ")),
        resource_metadata,
    }
}

/// The error of a reply with status 403: its challenge read, when it has one, and its body.
fn forbidden(url: &str, headers: &HeaderMap, body: &str) -> ClientError {
    let challenges: Vec<&str> = headers
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    ClientError::Forbidden {
        url: url.to_owned(),
        status: StatusCode::FORBIDDEN.as_u16(),
        challenge: (!challenges.is_empty())
            .then(|| Box::new(Challenge::parse(&challenges.join(", ")))),
        body: body.to_owned(),
    }
}

impl HttpClient {
    /// A client that sends the headers of `options` and trusts its certificate authorities.
    pub fn with_options(options: &HttpOptions) -> Result<Self, ClientError> {
        Ok(HttpClient {
            hyper: HyperClient::builder(TokioExecutor::new()).build(options.connector()?),
            max_body: super::limits::DEFAULT_MAX_MESSAGE_BYTES,
            options: Arc::new(options.clone()),
        })
    }

    /// [`HttpClient::with_options`], writing every header name in Title-Case
    /// (`Mcp-Method`, `Mcp-Protocol-Version`) rather than lowercase: to see that a server
    /// compares header names case-insensitively.
    pub fn with_title_case_headers(options: &HttpOptions) -> Result<Self, ClientError> {
        Ok(HttpClient {
            hyper: HyperClient::builder(TokioExecutor::new())
                .http1_title_case_headers(true)
                .build(options.connector()?),
            max_body: super::limits::DEFAULT_MAX_MESSAGE_BYTES,
            options: Arc::new(options.clone()),
        })
    }

    /// The options it was built from.
    pub fn options(&self) -> &HttpOptions {
        &self.options
    }

    /// `url` as a URI this client can reach: `http://HOST[:PORT]/PATH`, or `https://` with
    /// feature `tls`.
    pub fn parse_url(url: &str) -> Result<http::Uri, ClientError> {
        let bad = |reason: String| ClientError::BadUrl {
            url: url.to_owned(),
            reason,
        };
        let uri: http::Uri = url.parse().map_err(|e| bad(format!("{e}")))?;
        match uri.scheme_str() {
            Some("http") => {}
            #[cfg(feature = "tls")]
            Some("https") => {}
            #[cfg(not(feature = "tls"))]
            Some("https") => {
                return Err(bad(
                    "https:// needs feature `tls` of mcp-test (the mcp-test binary has it); this build speaks plain http:// only".into(),
                ));
            }
            Some(other) => {
                return Err(bad(format!(
                    "the scheme is {other:?}; expected http:// or https://"
                )));
            }
            None => return Err(bad("no scheme; expected http://HOST:PORT/PATH".into())),
        }
        if uri.host().is_none() {
            return Err(bad("no host".into()));
        }
        Ok(uri)
    }

    /// Sends `request` with the extra headers of the options added (a header the request
    /// already has is not replaced) and returns the reply's head and unread body.
    pub fn send_raw(
        &self,
        mut request: http::Request<Full<Bytes>>,
    ) -> hyper_util::client::legacy::ResponseFuture {
        let headers = request.headers_mut();
        for (name, value) in &self.options.headers {
            if !headers.contains_key(name) {
                headers.append(name.clone(), value.clone());
            }
        }
        self.hyper.request(request)
    }

    /// POSTs `body` to `uri` with `headers` and reads the whole reply, all within `timeout`.
    /// Any status is a reply; an error means nothing usable came back:
    /// [`ClientError::Connection`] or [`ClientError::Timeout`].
    #[cfg_attr(not(feature = "cases"), allow(dead_code))]
    pub async fn post(
        &self,
        uri: &http::Uri,
        headers: HeaderMap,
        body: Bytes,
        timeout: Duration,
    ) -> Result<HttpReply, ClientError> {
        self.request(http::Method::POST, uri, headers, body, timeout)
            .await
    }

    /// [`HttpClient::post`] with any method.
    pub async fn request(
        &self,
        method: http::Method,
        uri: &http::Uri,
        headers: HeaderMap,
        body: Bytes,
        timeout: Duration,
    ) -> Result<HttpReply, ClientError> {
        let mut request = http::Request::new(Full::new(body));
        let verb = method.to_string();
        *request.method_mut() = method;
        *request.uri_mut() = uri.clone();
        *request.headers_mut() = headers;
        let failed = |what: &str, source: Box<dyn std::error::Error + Send + Sync>| {
            ClientError::Connection {
                url: uri.to_string(),
                what: what.to_owned(),
                source,
            }
        };
        let round_trip = async {
            let response = self
                .send_raw(request)
                .await
                .map_err(|e| failed("sending the request", Box::new(e)))?;
            let (parts, incoming) = response.into_parts();
            // Read no more than the limit: a body that never ends, or one far too long, is
            // given up at the limit rather than buffered whole.
            let body = http_body_util::Limited::new(incoming, self.max_body)
                .collect()
                .await
                .map_err(|e| {
                    if e.is::<http_body_util::LengthLimitError>() {
                        ClientError::TooLarge {
                            what: format!("the reply body of {verb} {uri}"),
                            limit_name: "max_response_bytes",
                            bytes: self.max_body + 1,
                            limit: self.max_body,
                            stderr: String::new(),
                        }
                    } else {
                        failed("reading the reply", e)
                    }
                })?
                .to_bytes();
            Ok(HttpReply {
                status: parts.status,
                headers: parts.headers,
                body,
            })
        };
        tokio::time::timeout(timeout, round_trip)
            .await
            .map_err(|_| ClientError::Timeout {
                request: format!("{verb} {uri}"),
                after: timeout,
                stderr: String::new(),
            })?
    }
}

const SESSION_ID: &str = "mcp-session-id";

pub(super) struct HttpTransport {
    url: String,
    uri: http::Uri,
    client: HttpClient,
    /// 2025-era only: the session id the server minted at `initialize`.
    session: Mutex<Option<HeaderValue>>,
    /// 2025-era only: the negotiated revision, sent as `MCP-Protocol-Version`.
    legacy_version: Mutex<Option<String>>,
    /// The longest SSE event read.
    max_event: usize,
    /// What the server did on the transport that a checker may hold against it.
    events: Mutex<Vec<TransportEvent>>,
    /// The answers to the server's own requests (2025 era, on a reply's SSE stream).
    answers: Arc<AnswerSources>,
}

/// How long a stream is still read after the response came, for what the server sends after
/// it (a second reply, say): the server should end the stream with the response, and one that
/// does not is not waited on longer than this.
const AFTER_RESPONSE: Duration = Duration::from_millis(200);

/// An HTTP reply read as a stream: its status and headers, the JSON-RPC messages of its body
/// up to the response, and the start of the body for error messages.
struct StreamedReply {
    status: StatusCode,
    headers: HeaderMap,
    /// Every JSON-RPC message, in order; notifications past [`MAX_KEPT_MESSAGES`] or
    /// [`MAX_KEPT_BYTES`] are not kept.
    messages: Vec<Value>,
    /// The first 4 KiB of the body, as text.
    head: String,
    /// Whether the body was empty or whitespace.
    blank: bool,
    /// Whether the time ran out before the response came.
    timed_out: bool,
    /// The offset of the first byte that is not UTF-8 (0 for an SSE stream).
    not_utf8: Option<usize>,
    /// A message too deep to parse: its start.
    too_deep: Option<String>,
    /// The ids of responses that came after the response to the request.
    duplicates: Vec<String>,
    /// The SSE stream was still open [`AFTER_RESPONSE`] after the response.
    left_open: bool,
    /// Notifications not kept.
    notes_dropped: usize,
}

impl StreamedReply {
    fn content_type(&self) -> Option<String> {
        self.headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    }
}

impl HttpTransport {
    /// Reads no reply body longer than `bytes`.
    pub(super) fn set_max_body(&mut self, bytes: usize) {
        self.client.max_body = bytes;
    }

    /// Reads no SSE event longer than `bytes`.
    pub(super) fn set_max_event(&mut self, bytes: usize) {
        self.max_event = bytes;
    }

    /// What the server did on the transport so far.
    pub(super) fn events(&self) -> Vec<TransportEvent> {
        self.events.lock().expect("events lock").clone()
    }

    fn record(&self, event: TransportEvent) {
        let mut events = self.events.lock().expect("events lock");
        if events.len() < MAX_KEPT_MESSAGES {
            events.push(event);
        }
    }

    pub(super) fn new(
        url: &str,
        options: &HttpOptions,
        answers: Arc<AnswerSources>,
    ) -> Result<Self, ClientError> {
        Ok(HttpTransport {
            url: url.to_owned(),
            uri: HttpClient::parse_url(url)?,
            client: HttpClient::with_options(options)?,
            session: Mutex::new(None),
            legacy_version: Mutex::new(None),
            max_event: DEFAULT_MAX_EVENT_BYTES,
            events: Mutex::new(Vec::new()),
            answers,
        })
    }

    pub(super) fn url(&self) -> &str {
        &self.url
    }

    pub(super) fn options(&self) -> &HttpOptions {
        self.client.options()
    }

    /// Sends the headers of `options` from now on (the limit on reply bodies is kept).
    pub(super) fn set_options(&mut self, options: &HttpOptions) -> Result<(), ClientError> {
        let max_body = self.client.max_body;
        self.client = HttpClient::with_options(options)?;
        self.client.max_body = max_body;
        Ok(())
    }

    pub(super) fn set_protocol_version(&self, version: &str) {
        *self.legacy_version.lock().expect("version lock") = Some(version.to_owned());
    }

    /// The headers of a POST of `body`: content negotiation, every mirrored header, and the
    /// 2025-era version and session.
    fn headers(&self, body: &Value, tools: &[ToolDefinition]) -> Result<HeaderMap, ClientError> {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(
            ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        let mut pairs = mirrored_headers_for(body, tools);
        // After the 2025-era handshake the header is the negotiated revision on every request
        // (2025-11-25 basic/transports.mdx §Protocol Version Header: MUST), whatever version
        // the body's `_meta` names: a 2025-era server ignores `_meta` but rejects a header it
        // does not support.
        if let Some(version) = self.legacy_version.lock().expect("version lock").clone() {
            pairs.retain(|(n, _)| n != crate::headers::PROTOCOL_VERSION);
            pairs.push((crate::headers::PROTOCOL_VERSION.to_owned(), version));
        }
        for (name, value) in pairs {
            let header = HeaderName::from_bytes(name.as_bytes()).map_err(|e| {
                ClientError::Protocol(format!("`{name}` is not a valid HTTP header name: {e}"))
            })?;
            let value = HeaderValue::from_str(&value).map_err(|e| {
                ClientError::Protocol(format!(
                    "the value {value:?} for header `{name}` cannot be sent: {e}"
                ))
            })?;
            headers.insert(header, value);
        }
        if let Some(session) = self.session.lock().expect("session lock").clone() {
            headers.insert(SESSION_ID, session);
        }
        Ok(headers)
    }

    pub(super) async fn exchange(
        &self,
        body: &Value,
        tools: &[ToolDefinition],
        timeout: Duration,
    ) -> Result<Exchange, ClientError> {
        let headers = self.headers(body, tools)?;
        let text = serde_json::to_string(body).expect("a JSON value always encodes");
        let what = describe(body);
        let expects_reply = body.get("id").is_some();
        let expected = body.get("id");
        let reply = self
            .read_reply(headers, Bytes::from(text), timeout, &what, expected)
            .await?;
        if reply.status == StatusCode::UNAUTHORIZED {
            return Err(unauthorized(&self.url, &reply.headers));
        }
        if reply.status == StatusCode::FORBIDDEN {
            return Err(forbidden(&self.url, &reply.headers, &reply.head));
        }
        if let Some(session) = reply.headers.get(SESSION_ID) {
            *self.session.lock().expect("session lock") = Some(session.clone());
        }
        let status = reply.status.as_u16();
        let content_type = reply.content_type();
        if let Some(at) = reply.not_utf8 {
            let event = TransportEvent::NotUtf8 {
                what: format!("the reply to {what}"),
                at,
                line: quoted(&reply.head),
            };
            self.record(event);
            return Err(ClientError::NotUtf8 {
                what: format!("the reply to {what}"),
                at,
                line: quoted(&reply.head),
                stderr: String::new(),
            });
        }
        if let Some(line) = reply.too_deep {
            self.record(TransportEvent::TooDeep {
                what: format!("the reply to {what}"),
                line: line.clone(),
            });
            return Err(ClientError::TooDeep {
                what: format!("the reply to {what}"),
                line,
                stderr: String::new(),
            });
        }
        if reply.notes_dropped > 0 {
            self.record(TransportEvent::NotificationsDropped {
                id: expected.unwrap_or(&Value::Null).to_string(),
                count: reply.notes_dropped,
            });
        }
        if reply.left_open {
            self.record(TransportEvent::StreamLeftOpen {
                request: what.clone(),
                after: AFTER_RESPONSE,
            });
        }
        for id in &reply.duplicates {
            self.record(TransportEvent::DuplicateReply {
                id: id.clone(),
                line: format!("in the SSE stream of the reply to {what}"),
            });
        }
        if reply.blank && !reply.timed_out {
            if !expects_reply && reply.status.is_success() {
                return Ok(Exchange {
                    response: None,
                    notifications: Vec::new(),
                    status: Some(status),
                    content_type,
                });
            }
            return Err(ClientError::Http {
                status,
                reason: format!("the reply to {what} has an empty body"),
                body: String::new(),
            });
        }
        let mut response = None;
        let mut notifications = Vec::new();
        // Responses that carry another id than the request's: a wrong-id reply, not the answer.
        let mut wrong_ids = Vec::new();
        for message in reply.messages {
            if message.get("result").is_some() || message.get("error").is_some() {
                if expects_reply && !answers(&message, expected) {
                    let id = message.get("id").unwrap_or(&Value::Null).to_string();
                    if !wrong_ids.contains(&id) {
                        wrong_ids.push(id);
                    }
                    continue;
                }
                if response.is_none() {
                    response = Some(message);
                }
            } else {
                notifications.push(message);
            }
        }
        if response.is_none() && !wrong_ids.is_empty() {
            return Err(ClientError::WrongId {
                request: what,
                expected: expected.unwrap_or(&Value::Null).to_string(),
                got: wrong_ids,
                after: reply.timed_out.then_some(timeout),
                stderr: String::new(),
            });
        }
        if reply.timed_out && (response.is_none() && expects_reply) {
            return Err(ClientError::Timeout {
                request: what,
                after: timeout,
                stderr: String::new(),
            });
        }
        if expects_reply && response.is_none() {
            return Err(ClientError::Http {
                status,
                reason: format!(
                    "the reply to {what} ({}) holds no JSON-RPC response",
                    content_type.as_deref().unwrap_or("no Content-Type")
                ),
                body: reply.head,
            });
        }
        Ok(Exchange {
            response,
            notifications,
            status: Some(status),
            content_type,
        })
    }

    /// POSTs `body` and reads the reply as it arrives, within `timeout`: a JSON body whole
    /// (up to the response limit), an SSE stream event by event until the response to the
    /// request (`expected` id) is in, and [`AFTER_RESPONSE`] more; never more than the
    /// response limit in all, nor an event longer than the event limit.
    async fn read_reply(
        &self,
        headers: HeaderMap,
        body: Bytes,
        timeout: Duration,
        what: &str,
        expected: Option<&Value>,
    ) -> Result<StreamedReply, ClientError> {
        let uri = &self.uri;
        let deadline = tokio::time::Instant::now() + timeout;
        let timed_out = || ClientError::Timeout {
            request: what.to_owned(),
            after: timeout,
            stderr: String::new(),
        };
        let failed = |what: &str, source: Box<dyn std::error::Error + Send + Sync>| {
            ClientError::Connection {
                url: uri.to_string(),
                what: what.to_owned(),
                source,
            }
        };
        let mut request = http::Request::new(Full::new(body));
        *request.method_mut() = http::Method::POST;
        *request.uri_mut() = uri.clone();
        *request.headers_mut() = headers;
        let response = tokio::time::timeout_at(deadline, self.client.send_raw(request))
            .await
            .map_err(|_| timed_out())?
            .map_err(|e| failed("sending the request", Box::new(e)))?;
        let (parts, mut incoming) = response.into_parts();
        let sse = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| {
                t.trim_start()
                    .to_ascii_lowercase()
                    .starts_with("text/event-stream")
            });
        let max_body = self.client.max_body;
        let mut reply = StreamedReply {
            status: parts.status,
            headers: parts.headers,
            messages: Vec::new(),
            head: String::new(),
            blank: true,
            timed_out: false,
            not_utf8: None,
            too_deep: None,
            duplicates: Vec::new(),
            left_open: false,
            notes_dropped: 0,
        };
        let mut head = Vec::new();
        let mut read = 0_usize;
        let mut whole = Vec::new();
        let mut reader = EventReader::new(self.max_event);
        let mut events = Vec::new();
        let mut kept_bytes = 0_usize;
        let mut notifications = 0_usize;
        // When the response came: the stream is read a moment more, then given up.
        let mut answered: Option<tokio::time::Instant> = None;
        loop {
            let until = answered.map_or(deadline, |at| (at + AFTER_RESPONSE).min(deadline));
            let frame = match tokio::time::timeout_at(until, incoming.frame()).await {
                Err(_) => {
                    reply.timed_out = answered.is_none();
                    reply.left_open = answered.is_some();
                    break;
                }
                Ok(None) => break,
                Ok(Some(Err(e))) if answered.is_some() => {
                    let _ = e;
                    break;
                }
                Ok(Some(frame)) => frame.map_err(|e| failed("reading the reply", Box::new(e)))?,
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            read = read.saturating_add(data.len());
            if head.len() < 4096 {
                head.extend_from_slice(&data[..data.len().min(4096 - head.len())]);
            }
            if reply.blank && !data.iter().all(u8::is_ascii_whitespace) {
                reply.blank = false;
            }
            if read > max_body {
                if answered.is_some() {
                    break;
                }
                return Err(ClientError::TooLarge {
                    what: if sse {
                        format!("the SSE stream of the reply to {what}")
                    } else {
                        format!("the reply body to {what}")
                    },
                    limit_name: "max_response_bytes",
                    bytes: read,
                    limit: max_body,
                    stderr: String::new(),
                });
            }
            if !sse {
                whole.extend_from_slice(&data);
                continue;
            }
            reader.push(&data, &mut events);
            for event in events.drain(..) {
                let event = match event {
                    Ok(event) => event,
                    Err(too) if answered.is_none() => {
                        return Err(ClientError::TooLarge {
                            what: format!("an SSE event of the reply to {what}"),
                            limit_name: "max_event_bytes",
                            bytes: too.bytes,
                            limit: too.limit,
                            stderr: String::new(),
                        });
                    }
                    Err(_) => continue,
                };
                let message = match serde_json::from_str::<Value>(&event.data) {
                    Ok(message) => message,
                    Err(e) if is_too_deep(&e) => {
                        if answered.is_none() && reply.too_deep.is_none() {
                            reply.too_deep = Some(quoted(&event.data));
                        }
                        continue;
                    }
                    // Events whose data is not JSON are skipped.
                    Err(_) => continue,
                };
                let is_response = message.get("result").is_some() || message.get("error").is_some();
                if is_response && expected.is_some() && answers(&message, expected) {
                    if answered.is_some() {
                        reply
                            .duplicates
                            .push(message.get("id").unwrap_or(&Value::Null).to_string());
                        continue;
                    }
                    answered = Some(tokio::time::Instant::now());
                } else if !is_response {
                    // A request from the server in a 2025-era session is answered at once
                    // with a POST of its own: the server waits for it before it sends the
                    // response. (2026-07-28 has no requests from the server on a reply.)
                    if message.get("id").is_some()
                        && message.get("method").is_some()
                        && self.legacy_version.lock().expect("version lock").is_some()
                    {
                        self.answer_server(&message, deadline).await;
                    }
                    // Requests from the server on the stream are judged by the probes of
                    // `check` that provoke them; here they count as notifications.
                    notifications += 1;
                    kept_bytes += event.data.len();
                    if notifications > MAX_KEPT_MESSAGES || kept_bytes > MAX_KEPT_BYTES {
                        reply.notes_dropped += 1;
                        continue;
                    }
                }
                reply.messages.push(message);
            }
            if reply.too_deep.is_some() && answered.is_none() {
                break;
            }
        }
        if sse {
            if answered.is_none() && !reply.timed_out {
                reader.finish(&mut events);
                for event in events.drain(..).filter_map(Result::ok) {
                    match serde_json::from_str::<Value>(&event.data) {
                        Ok(message) => reply.messages.push(message),
                        Err(e) if is_too_deep(&e) && reply.too_deep.is_none() => {
                            reply.too_deep = Some(quoted(&event.data));
                        }
                        Err(_) => {}
                    }
                }
            }
            if reader.invalid_utf8() {
                reply.not_utf8 = Some(0);
            }
        } else if !reply.timed_out {
            match std::str::from_utf8(&whole) {
                Err(e) => reply.not_utf8 = Some(e.valid_up_to()),
                Ok(text) => match serde_json::from_str::<Value>(text) {
                    Ok(value) => reply.messages.push(value),
                    Err(e) if is_too_deep(&e) => reply.too_deep = Some(quoted(text)),
                    // Not JSON: perhaps SSE without its content type.
                    Err(_) => reply.messages = crate::transport::sse::messages(&whole),
                },
            }
        }
        reply.head = String::from_utf8_lossy(&head).into_owned();
        Ok(reply)
    }
}

impl HttpTransport {
    /// POSTs the client's answer to `request`, a request from the server on a reply's
    /// stream, with the session's headers, by `deadline`. The server acknowledges it with
    /// 202 and no body; whatever it says, the request's own reply tells the rest.
    async fn answer_server(&self, request: &Value, deadline: tokio::time::Instant) {
        let answer = self.answers.respond(request);
        let Ok(headers) = self.headers(&answer, &[]) else {
            return;
        };
        let text = serde_json::to_string(&answer).expect("a JSON value always encodes");
        let mut post = http::Request::new(Full::new(Bytes::from(text)));
        *post.method_mut() = http::Method::POST;
        *post.uri_mut() = self.uri.clone();
        *post.headers_mut() = headers;
        if let Ok(Ok(reply)) = tokio::time::timeout_at(deadline, self.client.send_raw(post)).await {
            // Read (and drop) the acknowledgement so the connection can be reused.
            let _ = tokio::time::timeout_at(deadline, reply.into_body().collect()).await;
        }
    }
}

/// Whether `response` answers the request whose id is `id`: it carries that id, or it is an
/// error whose id is `null` (a server that could not read the id, basic/index.mdx §Error
/// Responses).
fn answers(response: &Value, id: Option<&Value>) -> bool {
    match response.get("id") {
        Some(got) if Some(got) == id => true,
        None | Some(Value::Null) => response.get("error").is_some(),
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_is_spoken_with_feature_tls_and_named_without_it() {
        let parsed = HttpClient::parse_url("https://example.com/mcp");
        #[cfg(feature = "tls")]
        assert!(parsed.is_ok(), "{parsed:?}");
        #[cfg(not(feature = "tls"))]
        assert!(
            parsed.unwrap_err().to_string().contains("feature `tls`"),
            "https:// without the feature must name it"
        );
        let err = HttpClient::parse_url("ftp://example.com/mcp").unwrap_err();
        assert!(err.to_string().contains("\"ftp\""), "{err}");
    }

    #[test]
    fn a_bad_header_line_never_shows_its_value() {
        let err = HttpOptions::new()
            .header_line("Authorization Bearer s3cret")
            .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("Authorization ..."), "{text}");
        assert!(!text.contains("s3cret"), "{text}");
        let err = HttpOptions::new()
            .header("X-Key", "line\nbreak s3cret")
            .unwrap_err();
        assert!(!err.to_string().contains("s3cret"), "{err}");
        assert!(err.to_string().contains("X-Key"), "{err}");
    }
}
