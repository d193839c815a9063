//! The Streamable HTTP side of the client: one POST per message, JSON or SSE replies.
//!
//! The HTTP client is hyper-util's legacy client over plain HTTP/1: the server side already
//! depends on hyper, so it adds no TLS stack and almost no crates, and the client only ever
//! talks to local servers.

use super::{ClientError, Exchange, describe};
use crate::wire::ToolDefinition;
use crate::wire::build::mirrored_headers_for;
use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderName, HeaderValue};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use std::sync::Mutex;
use std::time::Duration;

const SESSION_ID: &str = "mcp-session-id";

pub(super) struct HttpTransport {
    url: String,
    uri: http::Uri,
    client: HyperClient<HttpConnector, Full<Bytes>>,
    /// 2025-era only: the session id the server minted at `initialize`.
    session: Mutex<Option<HeaderValue>>,
    /// 2025-era only: the negotiated revision, sent as `MCP-Protocol-Version`.
    legacy_version: Mutex<Option<String>>,
}

impl HttpTransport {
    pub(super) fn new(url: &str) -> Result<Self, ClientError> {
        let bad = |reason: &str| ClientError::BadUrl {
            url: url.to_owned(),
            reason: reason.to_owned(),
        };
        let uri: http::Uri = url.parse().map_err(|e| bad(&format!("{e}")))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some(other) => {
                return Err(bad(&format!(
                    "the scheme is {other:?}; this client speaks plain http:// only (no TLS)"
                )));
            }
            None => return Err(bad("no scheme; expected http://HOST:PORT/PATH")),
        }
        if uri.host().is_none() {
            return Err(bad("no host"));
        }
        Ok(HttpTransport {
            url: url.to_owned(),
            uri,
            client: HyperClient::builder(TokioExecutor::new()).build_http(),
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

    fn build(
        &self,
        body: &Value,
        tools: &[ToolDefinition],
    ) -> Result<http::Request<Full<Bytes>>, ClientError> {
        let text = serde_json::to_string(body).expect("a JSON value always encodes");
        let mut request = http::Request::post(self.uri.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .body(Full::new(Bytes::from(text)))
            .expect("a POST with static headers builds");
        let mut pairs = mirrored_headers_for(body, tools);
        if let Some(version) = self.legacy_version.lock().expect("version lock").clone()
            && !pairs
                .iter()
                .any(|(n, _)| n == crate::headers::PROTOCOL_VERSION)
        {
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
            request.headers_mut().insert(header, value);
        }
        if let Some(session) = self.session.lock().expect("session lock").clone() {
            request.headers_mut().insert(SESSION_ID, session);
        }
        Ok(request)
    }

    pub(super) async fn exchange(
        &self,
        body: &Value,
        tools: &[ToolDefinition],
        timeout: Duration,
    ) -> Result<Exchange, ClientError> {
        let request = self.build(body, tools)?;
        let what = describe(body);
        let round_trip = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| ClientError::Http {
                    status: 0,
                    reason: format!("POST {} for {what} failed: {e}", self.url),
                    body: String::new(),
                })?;
            let (parts, incoming) = response.into_parts();
            let bytes = incoming
                .collect()
                .await
                .map_err(|e| ClientError::Http {
                    status: parts.status.as_u16(),
                    reason: format!("reading the reply to {what} failed: {e}"),
                    body: String::new(),
                })?
                .to_bytes();
            Ok::<_, ClientError>((parts, bytes))
        };
        let (parts, bytes) = tokio::time::timeout(timeout, round_trip)
            .await
            .map_err(|_| ClientError::Timeout {
                request: what.clone(),
                after: timeout,
                stderr: String::new(),
            })??;
        if let Some(session) = parts.headers.get(SESSION_ID) {
            *self.session.lock().expect("session lock") = Some(session.clone());
        }
        let status = parts.status.as_u16();
        let content_type = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let expects_reply = body.get("id").is_some();
        let text = || String::from_utf8_lossy(&bytes).into_owned();
        if bytes.iter().all(u8::is_ascii_whitespace) {
            if !expects_reply && parts.status.is_success() {
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
        let messages = crate::transport::http::messages(&bytes);
        let mut response = None;
        let mut notifications = Vec::new();
        for message in messages {
            if message.get("result").is_some() || message.get("error").is_some() {
                response = Some(message);
            } else {
                notifications.push(message);
            }
        }
        if expects_reply && response.is_none() {
            return Err(ClientError::Http {
                status,
                reason: format!(
                    "the reply to {what} ({}) holds no JSON-RPC response",
                    content_type.as_deref().unwrap_or("no Content-Type")
                ),
                body: text(),
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
