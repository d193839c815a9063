//! The Streamable HTTP side of the client: one POST per message, JSON or SSE replies.
//!
//! [`HttpClient`] is the crate's one HTTP client: hyper-util's legacy client over plain
//! HTTP/1. The server side already depends on hyper, so it adds no TLS stack and almost no
//! crates, and the client only ever talks to local servers. [`HttpTransport`] (the MCP
//! client), the AI case generator and the checker's raw-HTTP probes all post through it, and
//! read SSE bodies with the one parser, [`transport::sse`](crate::transport::sse).

use super::{ClientError, Exchange, describe};
use crate::wire::ToolDefinition;
use crate::wire::build::mirrored_headers_for;
use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use std::sync::Mutex;
use std::time::Duration;

/// The crate's one HTTP client: POSTs a body with the given headers and reads the whole reply.
/// Cloning shares the connection pool.
#[derive(Clone)]
pub(crate) struct HttpClient {
    hyper: HyperClient<HttpConnector, Full<Bytes>>,
    /// The longest reply body read; a longer one is [`ClientError::TooLarge`].
    max_body: usize,
}

/// One HTTP reply, read whole.
#[derive(Clone, Debug)]
pub(crate) struct HttpReply {
    /// The status.
    pub(crate) status: StatusCode,
    /// The headers.
    pub(crate) headers: HeaderMap,
    /// The body.
    pub(crate) body: Bytes,
}

impl HttpReply {
    /// The body as text (invalid UTF-8 replaced).
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The `Content-Type`, when present and readable.
    pub(crate) fn content_type(&self) -> Option<String> {
        self.headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    }

    /// The JSON-RPC messages of the body: the body when it is JSON, else every SSE event
    /// that is ([`transport::sse::messages`](crate::transport::sse::messages)).
    pub(crate) fn messages(&self) -> Vec<Value> {
        crate::transport::sse::messages(&self.body)
    }
}

impl HttpClient {
    pub(crate) fn new() -> Self {
        HttpClient {
            hyper: HyperClient::builder(TokioExecutor::new()).build_http(),
            max_body: super::DEFAULT_MAX_MESSAGE_BYTES,
        }
    }

    /// `url` as a URI this client can reach: `http://HOST[:PORT]/PATH` (no TLS).
    pub(crate) fn parse_url(url: &str) -> Result<http::Uri, ClientError> {
        let bad = |reason: String| ClientError::BadUrl {
            url: url.to_owned(),
            reason,
        };
        let uri: http::Uri = url.parse().map_err(|e| bad(format!("{e}")))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some(other) => {
                return Err(bad(format!(
                    "the scheme is {other:?}; this client speaks plain http:// only (no TLS)"
                )));
            }
            None => return Err(bad("no scheme; expected http://HOST:PORT/PATH".into())),
        }
        if uri.host().is_none() {
            return Err(bad("no host".into()));
        }
        Ok(uri)
    }

    /// POSTs `body` to `uri` with `headers` and reads the whole reply, all within `timeout`.
    /// Any status is a reply; an error means nothing usable came back:
    /// [`ClientError::Connection`] or [`ClientError::Timeout`].
    pub(crate) async fn post(
        &self,
        uri: &http::Uri,
        headers: HeaderMap,
        body: Bytes,
        timeout: Duration,
    ) -> Result<HttpReply, ClientError> {
        let mut request = http::Request::new(Full::new(body));
        *request.method_mut() = http::Method::POST;
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
                .hyper
                .request(request)
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
                            what: format!("the reply body of POST {uri}"),
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
                request: format!("POST {uri}"),
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
}

impl HttpTransport {
    /// Reads no reply body longer than `bytes`.
    pub(super) fn set_max_body(&mut self, bytes: usize) {
        self.client.max_body = bytes;
    }

    pub(super) fn new(url: &str) -> Result<Self, ClientError> {
        Ok(HttpTransport {
            url: url.to_owned(),
            uri: HttpClient::parse_url(url)?,
            client: HttpClient::new(),
            session: Mutex::new(None),
            legacy_version: Mutex::new(None),
        })
    }

    pub(super) fn url(&self) -> &str {
        &self.url
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
        let reply = self
            .client
            .post(&self.uri, headers, Bytes::from(text), timeout)
            .await
            .map_err(|e| match e {
                // Name the request, not the POST.
                ClientError::Timeout { after, stderr, .. } => ClientError::Timeout {
                    request: what.clone(),
                    after,
                    stderr,
                },
                other => other,
            })?;
        if let Some(session) = reply.headers.get(SESSION_ID) {
            *self.session.lock().expect("session lock") = Some(session.clone());
        }
        let status = reply.status.as_u16();
        let content_type = reply.content_type();
        let expects_reply = body.get("id").is_some();
        if reply.body.iter().all(u8::is_ascii_whitespace) {
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
        let expected = body.get("id");
        for message in reply.messages() {
            if message.get("result").is_some() || message.get("error").is_some() {
                if expects_reply && !answers(&message, expected) {
                    let id = message.get("id").unwrap_or(&Value::Null).to_string();
                    if !wrong_ids.contains(&id) {
                        wrong_ids.push(id);
                    }
                    continue;
                }
                response = Some(message);
            } else {
                notifications.push(message);
            }
        }
        if response.is_none() && !wrong_ids.is_empty() {
            return Err(ClientError::WrongId {
                request: what,
                expected: expected.unwrap_or(&Value::Null).to_string(),
                got: wrong_ids,
                after: None,
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
                body: reply.text(),
            });
        }
        Ok(Exchange {
            response,
            notifications,
            status: Some(status),
            content_type,
        })
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
