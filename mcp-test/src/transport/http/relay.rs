//! Streamable HTTP in front of any [`Target`]: each POSTed message sent to the target, its
//! notifications and reply written back (JSON, or SSE when notifications came first). What
//! serves a recorded session (`mcp-test serve --cassette FILE --http ADDR`) and the recording
//! proxy (`mcp-test record --http ADDR`), with the endpoint's checks of the runtime's own
//! HTTP transport: the path, the DNS-rebinding protection of Host and Origin, the body limit,
//! the request timeout and the status of an error.
//!
//! It serves requests one by one, each answered on its POST: no `Mcp-Session-Id` is minted and
//! GET (the standalone stream) is 405, which a client of either era takes as "no stream". A
//! 2025-era server's own requests are answered by the target (the client's answers), not
//! relayed to the HTTP client.
//!
//! ```
//! use mcp_test::transport::http::HttpConfig;
//! use mcp_test::transport::http::relay::target_router;
//! use mcp_test::testing::http::oneshot;
//! use mcp_test::Server;
//! use std::sync::Arc;
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = Server::builder("demo", "1.0.0").build().unwrap();
//! let router = target_router(Arc::new(server), HttpConfig::default());
//! let request = http::Request::post("/mcp")
//!     .header("content-type", "application/json")
//!     .header("accept", "application/json, text/event-stream")
//!     .body(r#"{"jsonrpc": "2.0", "id": 1, "method": "nope"}"#.to_owned())
//!     .unwrap();
//! let response = oneshot(&router, request).await;
//! assert_eq!(response.status(), 404);
//! assert!(String::from_utf8_lossy(response.body()).contains("-32601"));
//! # }
//! ```

use super::{
    HttpConfig, accepted, check_host_and_origin, json_body, json_error, read_message, sse_frame,
    sse_response, status_for,
};
use crate::server::Caller;
use crate::target::Target;
use crate::wire::{ErrorObject, RequestId};
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use http::header::ALLOW;
use http::{Method, StatusCode};
use serde_json::Value;
use std::sync::Arc;

struct Relay {
    target: Arc<dyn Target>,
    config: HttpConfig,
}

/// The endpoint in front of `target` as an axum router (see the [module docs](self)).
pub fn target_router(target: Arc<dyn Target>, config: HttpConfig) -> Router {
    let path = config.path.clone();
    Router::new()
        .route(&path, axum::routing::any(endpoint))
        .with_state(Arc::new(Relay { target, config }))
}

/// Serves `router` ([`target_router`], [`lines_router`]) on `listener` until the future is
/// dropped or fails.
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: Router,
) -> std::io::Result<()> {
    axum::serve(listener, router).await
}

/// The message of a POST, after the endpoint's checks: 405 for another method, 403 for a
/// Host or Origin not allowed (DNS rebinding), the body's limit and JSON.
async fn posted(
    config: &HttpConfig,
    request: http::Request<Body>,
) -> Result<Value, http::Response<Body>> {
    let (parts, body) = request.into_parts();
    if parts.method != Method::POST {
        return Err(http::Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(ALLOW, "POST")
            .body(Body::from("the MCP endpoint accepts POST only"))
            .expect("static response"));
    }
    if let Err(reason) = check_host_and_origin(config, &parts.headers) {
        return Err(json_error(
            StatusCode::FORBIDDEN,
            None,
            ErrorObject::invalid_request(reason),
        ));
    }
    read_message(config, body).await
}

/// Each endpoint answers a refused request with its error response (`Err`), anything else
/// (`Ok`) with what its server said.
type Answer = Result<http::Response<Body>, http::Response<Body>>;

async fn endpoint(State(relay): State<Arc<Relay>>, request: http::Request<Body>) -> Answer {
    let message = posted(&relay.config, request).await?;
    let caller = Caller {
        timeout: Some(relay.config.request_timeout),
        ..Caller::default()
    };
    let id = message.get("id").and_then(RequestId::from_value);
    let exchange = relay.target.send(&message, &caller).await.map_err(|e| {
        json_error(
            StatusCode::BAD_GATEWAY,
            id,
            ErrorObject::internal(format!("Internal error: {}: {e}", relay.target.label())),
        )
    })?;
    let Some(response) = exchange.response else {
        return Ok(accepted());
    };
    if !exchange.notifications.is_empty() {
        let frames: Vec<Result<axum::body::Bytes, std::convert::Infallible>> = exchange
            .notifications
            .iter()
            .chain(std::iter::once(&response))
            .map(|m| Ok(sse_frame(&m.to_string())))
            .collect();
        return Ok(sse_response(Body::from_stream(futures_util::stream::iter(
            frames,
        ))));
    }
    let status = match response
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64)
    {
        None => StatusCode::OK,
        Some(code) => status_for(
            i32::try_from(code).unwrap_or(crate::wire::error_codes::INTERNAL_ERROR),
            true,
            relay.config.error_status,
        ),
    };
    Ok(json_body(status, response.to_string()))
}

/// Where a message passed by [`lines_router`] went: from the HTTP client to the line server,
/// or back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Direction {
    /// A POSTed message, written to the line server.
    ToServer,
    /// A line of the line server, sent to the HTTP client.
    ToClient,
}

/// What [`lines_router`] calls with every JSON message it passes (a recording proxy's tap).
pub type Watch = Arc<dyn Fn(Direction, &Value) + Send + Sync>;

/// The bridge of [`lines_router`]: the line server's input, the POSTs awaiting their reply
/// (by request id, the latest last), and the watch.
struct Lines {
    to_server: tokio::sync::mpsc::UnboundedSender<String>,
    pending: std::sync::Mutex<Vec<(String, tokio::sync::mpsc::UnboundedSender<Value>)>>,
    watch: Option<Watch>,
    config: HttpConfig,
}

fn locked<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Streamable HTTP in front of a server that speaks newline-delimited JSON (a child's pipes,
/// or one end of a `tokio::io::duplex`), both eras passed through as they are: each POSTed
/// message is written as a line; a request's POST gets the server's reply as JSON, or an SSE
/// stream of what the server sent while it was in flight (notifications, and a 2025-era
/// server's own requests, whose answers the client POSTs back and which are written on as
/// lines) and then the reply. A server message goes with the request in flight whose progress
/// token it names, else the latest; with none in flight it is dropped (there is no GET
/// stream). `watch`, when given, sees every message in both directions.
///
/// ```
/// use mcp_test::transport::http::HttpConfig;
/// use mcp_test::transport::http::relay::lines_router;
/// use mcp_test::transport::stdio::{StdioConfig, serve};
/// use mcp_test::testing::http::oneshot;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let (ours, theirs) = tokio::io::duplex(1 << 16);
/// let (server_in, server_out) = tokio::io::split(theirs);
/// let server = mcp_test::Server::builder("demo", "1.0.0").build().unwrap();
/// tokio::spawn(serve(server, server_in, server_out, StdioConfig::default()));
/// let (read, write) = tokio::io::split(ours);
/// let router = lines_router(read, write, None, HttpConfig::default());
/// let request = http::Request::post("/mcp")
///     .header("content-type", "application/json")
///     .body(r#"{"jsonrpc": "2.0", "id": 1, "method": "nope"}"#.to_owned())
///     .unwrap();
/// let response = oneshot(&router, request).await;
/// assert!(String::from_utf8_lossy(response.body()).contains("-32601"));
/// # }
/// ```
pub fn lines_router<R, W>(
    from_server: R,
    to_server: W,
    watch: Option<Watch>,
    config: HttpConfig,
) -> Router
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let path = config.path.clone();
    let bridge = Arc::new(Lines {
        to_server: tx,
        pending: std::sync::Mutex::default(),
        watch,
        config,
    });
    let mut writer = to_server;
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        while let Some(mut line) = rx.recv().await {
            line.push('\n');
            if writer.write_all(line.as_bytes()).await.is_err() || writer.flush().await.is_err() {
                return;
            }
        }
    });
    let reading = Arc::downgrade(&bridge);
    tokio::spawn(async move {
        let limit = reading
            .upgrade()
            .map_or(4 << 20, |b| b.config.max_body_bytes);
        let mut lines = crate::transport::ndjson::Lines::new(from_server, limit);
        while let Some(line) = lines.next_line().await {
            let crate::transport::ndjson::Line::Complete(bytes) = line else {
                continue;
            };
            let Ok(message) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            let Some(bridge) = reading.upgrade() else {
                return;
            };
            bridge.server_sent(message);
        }
        // The server ended: every POST still waiting gets its stream closed.
        if let Some(bridge) = reading.upgrade() {
            locked(&bridge.pending).clear();
        }
    });
    Router::new()
        .route(&path, axum::routing::any(lines_endpoint))
        .with_state(bridge)
}

impl Lines {
    fn server_sent(&self, message: Value) {
        if let Some(watch) = &self.watch {
            watch(Direction::ToClient, &message);
        }
        let mut pending = locked(&self.pending);
        let id = message.get("id").map(Value::to_string);
        if message.get("method").is_none() {
            // A reply: to the POST of its request, which it ends.
            if let Some(id) = id
                && let Some(at) = pending.iter().position(|(k, _)| *k == id)
            {
                let (_, sink) = pending.remove(at);
                let _ = sink.send(message);
            }
            return;
        }
        let params = message.get("params");
        let token = params
            .and_then(|p| p.get("progressToken"))
            .or_else(|| params.and_then(|p| p.get("_meta")?.get("progressToken")))
            .map(Value::to_string);
        let owner = token
            .and_then(|t| pending.iter().position(|(k, _)| *k == t))
            .or_else(|| pending.len().checked_sub(1));
        if let Some(at) = owner {
            let _ = pending[at].1.send(message);
        }
    }

    fn pass_on(&self, message: &Value) {
        if let Some(watch) = &self.watch {
            watch(Direction::ToServer, message);
        }
        let _ = self.to_server.send(message.to_string());
    }
}

async fn lines_endpoint(State(bridge): State<Arc<Lines>>, request: http::Request<Body>) -> Answer {
    let message = posted(&bridge.config, request).await?;
    let (Some(id), Some(_)) = (message.get("id"), message.get("method")) else {
        // A notification, or the client's answer to a server request.
        bridge.pass_on(&message);
        return Ok(accepted());
    };
    let (sink, mut replies) = tokio::sync::mpsc::unbounded_channel();
    let key = id.to_string();
    locked(&bridge.pending).push((key.clone(), sink));
    bridge.pass_on(&message);
    let timeout = bridge.config.request_timeout;
    let first = match tokio::time::timeout(timeout, replies.recv()).await {
        Ok(Some(first)) => first,
        Ok(None) | Err(_) => {
            locked(&bridge.pending).retain(|(k, _)| *k != key);
            return Err(json_error(
                StatusCode::GATEWAY_TIMEOUT,
                RequestId::from_value(id),
                ErrorObject::internal(format!(
                    "Internal error: the server sent no reply within {} s",
                    timeout.as_secs()
                )),
            ));
        }
    };
    if first.get("method").is_none() {
        return Ok(json_body(StatusCode::OK, first.to_string()));
    }
    // Messages before the reply: an SSE stream that ends with it.
    let stream = futures_util::stream::unfold(
        (Some(first), replies, false),
        |(first, mut replies, done)| async move {
            if done {
                return None;
            }
            let next = match first {
                Some(first) => first,
                None => replies.recv().await?,
            };
            let last = next.get("method").is_none();
            Some((
                Ok::<_, std::convert::Infallible>(sse_frame(&next.to_string())),
                (None, replies, last),
            ))
        },
    );
    Ok(sse_response(Body::from_stream(stream)))
}
