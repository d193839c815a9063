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
    HttpConfig, accepted, check_host_and_origin, json_error, read_message, sse_frame, sse_response,
    status_for,
};
use crate::server::Caller;
use crate::target::Target;
use crate::wire::{ErrorObject, RequestId};
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use http::header::{ALLOW, CONTENT_TYPE};
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

/// Serves `target` over Streamable HTTP on `listener` until the future is dropped or fails.
pub async fn serve_target(
    listener: tokio::net::TcpListener,
    target: Arc<dyn Target>,
    config: HttpConfig,
) -> std::io::Result<()> {
    axum::serve(listener, target_router(target, config)).await
}

async fn endpoint(
    State(relay): State<Arc<Relay>>,
    request: http::Request<Body>,
) -> http::Response<Body> {
    let (parts, body) = request.into_parts();
    if parts.method != Method::POST {
        return http::Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(ALLOW, "POST")
            .body(Body::from("the MCP endpoint accepts POST only"))
            .expect("static response");
    }
    if let Err(reason) = check_host_and_origin(&relay.config, &parts.headers) {
        return json_error(
            StatusCode::FORBIDDEN,
            None,
            ErrorObject::invalid_request(reason),
        );
    }
    let message = match read_message(&relay.config, body).await {
        Ok(message) => message,
        Err(response) => return response,
    };
    let caller = Caller {
        timeout: Some(relay.config.request_timeout),
        ..Caller::default()
    };
    let id = message.get("id").and_then(RequestId::from_value);
    let exchange = match relay.target.send(&message, &caller).await {
        Ok(exchange) => exchange,
        Err(e) => {
            return json_error(
                StatusCode::BAD_GATEWAY,
                id,
                ErrorObject::internal(format!("Internal error: {}: {e}", relay.target.label())),
            );
        }
    };
    let Some(response) = exchange.response else {
        return accepted();
    };
    if !exchange.notifications.is_empty() {
        let frames: Vec<Result<axum::body::Bytes, std::convert::Infallible>> = exchange
            .notifications
            .iter()
            .chain(std::iter::once(&response))
            .map(|m| Ok(sse_frame(&m.to_string())))
            .collect();
        return sse_response(Body::from_stream(futures_util::stream::iter(frames)));
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
    http::Response::builder()
        .status(status)
        .header(CONTENT_TYPE, "application/json")
        .body(Body::from(response.to_string()))
        .expect("static response")
}
