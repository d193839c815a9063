//! Testing the HTTP transport in process: send requests through its router with no socket
//! ([`oneshot`], [`oneshot_stream`]), or post JSON-RPC bodies with every mirrored header a
//! correct client sends ([`TestRouter`]). The router's responses are [`AsResponse`], so every
//! unwrapper and assertion of [`testing`](super) accepts them.

use super::{AsResponse, put_mirrored_headers_for};
use crate::server::Server;
use crate::transport::http::{HttpConfig, Router, messages, router};
use crate::wire::ToolDefinition;
use axum::body::{Body, Bytes};
use http::header::{CONTENT_TYPE, HOST};
use serde_json::Value;

/// Sends one request through `router` in process, with no socket (`tower::ServiceExt::oneshot`),
/// and collects the whole response body: the in-process way to test the HTTP transport.
///
/// ```
/// use mcp_test::testing::http::oneshot;
/// use mcp_test::transport::http::{router, HttpConfig};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let app = router(mcp_test::Server::builder("s", "1").build().unwrap(), HttpConfig::default());
/// let get = http::Request::get("/mcp").body(String::new()).unwrap();
/// let response = oneshot(&app, get).await;
/// assert_eq!(response.status(), 405);
/// assert_eq!(response.headers()["allow"], "POST");
/// # }
/// ```
pub async fn oneshot<B: Into<Body>>(
    router: &Router,
    request: http::Request<B>,
) -> http::Response<Bytes> {
    let (parts, body) = respond(router, request.map(Into::into)).await;
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    http::Response::from_parts(parts, bytes)
}

/// The router's response to `request`, its head and its body (a router never fails).
async fn respond(router: &Router, request: http::Request<Body>) -> (http::response::Parts, Body) {
    use tower::ServiceExt as _;
    let response = router
        .clone()
        .oneshot(request)
        .await
        .unwrap_or_else(|never| match never {});
    response.into_parts()
}

/// An HTTP response of the router is a response for every unwrapper and assertion of
/// [`testing`](super): its JSON-RPC response is the body (JSON), or the last message of
/// the SSE stream.
///
/// ```
/// use mcp_test::testing::text_response;
/// let body = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}\n\n";
/// let resp = http::Response::builder().status(200).body(bytes::Bytes::from(body)).unwrap();
/// assert_eq!(text_response(&resp), "ok");
/// ```
impl AsResponse for http::Response<Bytes> {
    fn response_json(&self) -> Result<Value, super::ResponseError> {
        let text = String::from_utf8_lossy(self.body());
        match messages(self.body())
            .into_iter()
            .rev()
            .find(|m| m.get("result").is_some() || m.get("error").is_some())
        {
            Some(response) => Ok(response),
            None => Err(format!(
                "the HTTP response (status {}) carries no JSON-RPC response; body:\n{text}",
                self.status()
            )
            .into()),
        }
    }
}

/// Sends one request through `router` in process and returns the response head with a reader
/// over its body, message by message, for streams that stay open (`subscriptions/listen`, long
/// SSE answers). Dropping the reader closes the stream, which cancels the request.
pub async fn oneshot_stream(
    router: &Router,
    request: http::Request<String>,
) -> (http::response::Parts, MessageStream) {
    let (parts, body) = respond(router, request.map(Body::from)).await;
    (
        parts,
        MessageStream {
            body,
            buffer: String::new(),
        },
    )
}

/// Reads JSON-RPC messages one at a time from a response body (JSON or SSE); see
/// [`oneshot_stream`].
pub struct MessageStream {
    body: Body,
    buffer: String,
}

impl std::fmt::Debug for MessageStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MessageStream")
            .field("buffered", &self.buffer.len())
            .finish()
    }
}

impl MessageStream {
    /// The next message, or `None` when the body ends.
    pub async fn next(&mut self) -> Option<Value> {
        use http_body_util::BodyExt as _;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                match messages(event.as_bytes()).pop() {
                    Some(message) => return Some(message),
                    None => continue,
                }
            }
            match self.body.frame().await {
                Some(Ok(frame)) => {
                    if let Some(data) = frame.data_ref() {
                        self.buffer.push_str(&String::from_utf8_lossy(data));
                    }
                }
                _ => {
                    let rest = std::mem::take(&mut self.buffer);
                    return messages(rest.as_bytes()).pop();
                }
            }
        }
    }
}

/// The HTTP transport of a server, for tests: posts JSON-RPC bodies through the router in
/// process (no socket), with every mirrored header a correct client sends
/// ([`put_mirrored_headers_for`], including the `Mcp-Param-*` headers of the server's
/// `x-mcp-header` arguments). Every unwrapper and assertion of [`testing`](super) accepts the
/// responses.
///
/// ```
/// use mcp_test::testing::http::TestRouter;
/// use mcp_test::testing::{build_request, rpc_error};
/// use mcp_test::transport::http::HttpConfig;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = mcp_test::Server::builder("s", "1").build().unwrap();
/// let http = TestRouter::new(server, HttpConfig::default());
/// let resp = http.post(&build_request("ping", serde_json::Value::Null)).await;
/// assert_eq!(resp.status(), 404);
/// assert_eq!(rpc_error(&resp).code, -32601);
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct TestRouter {
    router: Router,
    tools: Vec<ToolDefinition>,
}

impl TestRouter {
    /// The router of `server` under `config`.
    pub fn new(server: Server, config: HttpConfig) -> Self {
        let tools = server.tool_definitions().to_vec();
        TestRouter {
            router: router(server, config),
            tools,
        }
    }

    /// The underlying router.
    pub fn router(&self) -> &Router {
        &self.router
    }

    /// Posts `body` with its mirrored headers and a localhost `Host`.
    pub async fn post(&self, body: &Value) -> http::Response<Bytes> {
        let mut request = http::Request::post("/mcp")
            .header(HOST, "localhost")
            .header(CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream")
            .body(body.to_string())
            .expect("a valid request");
        put_mirrored_headers_for(&mut request, body, &self.tools);
        self.send(request).await
    }

    /// Sends a request exactly as built (for header tests).
    pub async fn send(&self, request: http::Request<String>) -> http::Response<Bytes> {
        oneshot(&self.router, request).await
    }
}
