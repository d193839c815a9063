//! The Streamable HTTP transport and its header rules. The runtime's router holds every rule;
//! each break undoes one, by rewriting a request before the router sees it (a header made to
//! agree with the body, an `Origin` dropped) or a response head after it.

use super::{Breaks, HTTP, Hooks, Switch, method};
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode};
use mcp_test::{Context, ServerBuilder, Tool, ToolError};
use serde_json::{Value, json};

pub struct Http;

/// Says in which zone an item is shelved: a tool whose arguments a client mirrors as
/// `Mcp-Param-*` headers, which the server validates. Its name sorts after the other tools',
/// so the probes that call only the first few call the same tools as without it.
#[derive(Tool)]
#[tool(name = "zone", annotations(read_only, idempotent))]
struct Zone {
    /// The region, at most 20 characters
    #[tool(header = "Region", max_length = 20)]
    region: String,
    /// The shelf, 0 to 255
    #[tool(header = "Shelf")]
    shelf: u8,
}

impl Zone {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("{} shelf {}", self.region, self.shelf))
    }
}

/// The progress token of an unrelated request, which `http/progress-elsewhere` sends.
const OTHER_TOKEN: &str = "broken-server-another-request";

const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const METHOD: &str = "mcp-method";
const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

fn header<'a>(head: &'a http::request::Parts, name: &str) -> Option<&'a str> {
    head.headers.get(name).and_then(|v| v.to_str().ok())
}

fn set(head: &mut http::request::Parts, name: &'static str, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        head.headers.insert(name, value);
    }
}

impl Hooks for Http {
    fn switches(&self) -> &'static [Switch] {
        &[
            Switch {
                name: "http/origin-unchecked",
                about: "serves a request whatever its Origin",
                clause: "http/origin",
                probe: "http/origin",
                transports: HTTP,
            },
            Switch {
                name: "http/method-header-unchecked",
                about: "serves a request whose Mcp-Method disagrees with its body",
                clause: "http/header-mismatch",
                probe: "http/header-mirroring",
                transports: HTTP,
            },
            Switch {
                name: "http/name-header-unchecked",
                about: "serves a tools/call of one of its tools whose Mcp-Name names another",
                clause: "http/header-mismatch",
                probe: "http/name-header-mismatch",
                transports: HTTP,
            },
            Switch {
                name: "http/method-header-optional",
                about: "serves a request without Mcp-Method",
                clause: "http/header-missing",
                probe: "http/header-mirroring",
                transports: HTTP,
            },
            Switch {
                name: "http/version-header-unchecked",
                about: "serves a request as the version of its MCP-Protocol-Version header when _meta names another",
                clause: "http/version-header-mismatch",
                probe: "http/header-mirroring",
                transports: HTTP,
            },
            Switch {
                name: "http/version-header-optional",
                about: "serves a request without MCP-Protocol-Version, though it speaks only 2026-07-28",
                clause: "http/version-header-missing",
                probe: "http/header-mirroring",
                transports: HTTP,
            },
            Switch {
                name: "http/name-header-not-decoded",
                about: "refuses a Base64-encoded Mcp-Name as a mismatch, without decoding it",
                clause: "http/decode-base64",
                probe: "http/header-mirroring",
                transports: HTTP,
            },
            Switch {
                name: "http/content-type-text-plain",
                about: "answers requests with Content-Type: text/plain",
                clause: "http/content-type",
                probe: "http/responses",
                transports: HTTP,
            },
            Switch {
                name: "http/notification-200",
                about: "answers a notification with 200 instead of 202",
                clause: "http/notification-202",
                probe: "http/responses",
                transports: HTTP,
            },
            Switch {
                name: "http/request-on-stream",
                about: "sends a roots/list request on the SSE reply to server/discover",
                clause: "http/no-requests-on-stream",
                probe: "http/responses",
                transports: HTTP,
            },
            Switch {
                name: "http/sse-buffered",
                about: "streams the reply to server/discover (a log message first) with X-Accel-Buffering: yes",
                clause: "http/x-accel-buffering",
                probe: "http/responses",
                transports: HTTP,
            },
            Switch {
                name: "http/stream-left-open",
                about: "leaves the SSE reply to a server/discover with a string id open after the response (check's own client numbers its requests, so only the raw probe sees it)",
                clause: "http/response-ends-stream",
                probe: "http/responses",
                transports: HTTP,
            },
            Switch {
                name: "http/unsupported-version-200",
                about: "answers an unsupported protocol version with HTTP 200",
                clause: "http/unsupported-version",
                probe: "http/status-codes",
                transports: HTTP,
            },
            Switch {
                name: "http/unknown-method-200",
                about: "answers an unknown method with HTTP 200",
                clause: "http/method-not-found-404",
                probe: "http/status-codes",
                transports: HTTP,
            },
            Switch {
                name: "http/get-stream",
                about: "answers GET with an (empty) SSE stream, as a 2025-era server",
                clause: "http/get-delete-405",
                probe: "http/earlier-revisions",
                transports: HTTP,
            },
            Switch {
                name: "http/mints-session",
                about: "puts an Mcp-Session-Id on every response",
                clause: "http/no-sessions",
                probe: "http/earlier-revisions",
                transports: HTTP,
            },
            Switch {
                name: "http/last-event-id-refused",
                about: "refuses a request that carries Last-Event-ID",
                clause: "http/last-event-id-ignored",
                probe: "http/earlier-revisions",
                transports: HTTP,
            },
            Switch {
                name: "http/param-header-unchecked",
                about: "serves a tools/call of zone whose Mcp-Param headers disagree with its arguments",
                clause: "http/param-headers",
                probe: "http/param-headers",
                transports: HTTP,
            },
            Switch {
                name: "http/param-integer-as-text",
                about: "compares an integer Mcp-Param header with its argument as text, so refuses Mcp-Param-Shelf: 7.0 for 7",
                clause: "http/param-numeric",
                probe: "http/param-headers",
                transports: HTTP,
            },
            Switch {
                name: "http/progress-elsewhere",
                about: "sends, on the SSE reply to a tools/call with a string id (check's own client numbers its requests, so only the raw probe sees it), progress for another request's token",
                clause: "http/stream-notifications-related",
                probe: "http/stream-notifications",
                transports: HTTP,
            },
        ]
    }

    fn build(&self, builder: ServerBuilder) -> ServerBuilder {
        builder.tool::<Zone>()
    }

    fn outgoing(
        &self,
        on: &Breaks,
        request: Option<&Value>,
        _message: &mut Value,
        before: &mut Vec<Value>,
    ) {
        let method = method(request);
        if on.on("http/request-on-stream") && method == Some("server/discover") {
            before.push(
                json!({"jsonrpc": "2.0", "id": "broken-server-roots", "method": "roots/list"}),
            );
        }
        if on.on("http/progress-elsewhere")
            && method == Some("tools/call")
            && request
                .and_then(|r| r.get("id"))
                .is_some_and(Value::is_string)
        {
            before.push(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": OTHER_TOKEN, "progress": 1}}));
        }
        if on.on("http/sse-buffered") && method == Some("server/discover") {
            before.push(json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "broken_server: discovering"}}));
        }
    }

    fn http_request(&self, on: &Breaks, head: &mut http::request::Parts) -> Option<Response> {
        if on.on("http/origin-unchecked") {
            head.headers.remove(http::header::ORIGIN);
        }
        if on.on("http/name-header-not-decoded")
            && header(head, "mcp-name").is_some_and(|v| v.starts_with("=?base64?"))
        {
            let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32020,
                "message": "Header mismatch: Mcp-Name does not match the body"}});
            return Some(
                (
                    StatusCode::BAD_REQUEST,
                    [(http::header::CONTENT_TYPE, "application/json")],
                    body.to_string(),
                )
                    .into_response(),
            );
        }
        if on.on("http/get-stream") && head.method == http::Method::GET {
            return Some(
                (
                    StatusCode::OK,
                    [(http::header::CONTENT_TYPE, "text/event-stream")],
                    "",
                )
                    .into_response(),
            );
        }
        if on.on("http/last-event-id-refused") && head.headers.contains_key("last-event-id") {
            return Some((StatusCode::BAD_REQUEST, "streams are not resumable").into_response());
        }
        None
    }

    fn http_message(&self, on: &Breaks, head: &mut http::request::Parts, message: &mut Value) {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let body_version = message
            .pointer("/params/_meta")
            .and_then(|m| m.get(VERSION_KEY))
            .and_then(Value::as_str)
            .map(str::to_owned);
        if on.on("http/method-header-unchecked")
            && header(head, METHOD).is_some_and(|h| h != method)
        {
            set(head, METHOD, &method);
        }
        if on.on("http/method-header-optional")
            && header(head, METHOD).is_none()
            && !method.is_empty()
        {
            set(head, METHOD, &method);
        }
        if on.on("http/version-header-unchecked")
            && let (Some(header), Some(body)) = (header(head, PROTOCOL_VERSION), &body_version)
            && header != body
            && let Some(meta) = message.pointer_mut("/params/_meta")
        {
            meta[VERSION_KEY] = json!(header);
        }
        if on.on("http/name-header-unchecked")
            && method == "tools/call"
            && let Some(name) = message.pointer("/params/name").and_then(Value::as_str)
            && ["add", "echo", "work", "total", "confirm"].contains(&name)
            && header(head, "mcp-name").is_some_and(|h| h != name)
        {
            set(head, "mcp-name", name);
        }
        let arguments = message.pointer("/params/arguments").cloned();
        let zone_call =
            method == "tools/call" && message.pointer("/params/name") == Some(&json!("zone"));
        if zone_call
            && on.on("http/param-header-unchecked")
            && let Some(arguments) = &arguments
        {
            for (name, field) in [("mcp-param-region", "region"), ("mcp-param-shelf", "shelf")] {
                if let Some(value) = arguments
                    .get(field)
                    .and_then(mcp_test::headers::param_value)
                {
                    set(head, name, &value);
                }
            }
        }
        if zone_call
            && on.on("http/param-integer-as-text")
            && let Some(shelf) = arguments.as_ref().and_then(|a| a.get("shelf"))
            && header(head, "mcp-param-shelf")
                .is_some_and(|h| shelf.as_u64().map(|n| n.to_string()).as_deref() != Some(h))
        {
            // Different as text: made to differ in value too, so the server refuses it.
            set(head, "mcp-param-shelf", "broken-server-not-the-shelf");
        }
        if on.on("http/version-header-optional")
            && header(head, PROTOCOL_VERSION).is_none()
            && let Some(body) = &body_version
        {
            set(head, PROTOCOL_VERSION, body);
        }
    }

    fn http_keep_open(&self, on: &Breaks, request: &Value) -> bool {
        on.on("http/stream-left-open")
            && request.get("method").and_then(Value::as_str) == Some("server/discover")
            && request.get("id").is_some_and(Value::is_string)
    }

    fn http_response(
        &self,
        on: &Breaks,
        request: &http::request::Parts,
        head: &mut http::response::Parts,
    ) {
        let content_type = head
            .headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if on.on("http/content-type-text-plain")
            && head.status == StatusCode::OK
            && content_type.starts_with("application/json")
        {
            head.headers.insert(
                http::header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain"),
            );
        }
        if on.on("http/notification-200") && head.status == StatusCode::ACCEPTED {
            head.status = StatusCode::OK;
        }
        if on.on("http/unsupported-version-200")
            && head.status == StatusCode::BAD_REQUEST
            && header(request, PROTOCOL_VERSION).is_some_and(|v| v != "2026-07-28")
        {
            head.status = StatusCode::OK;
        }
        if on.on("http/unknown-method-200") && head.status == StatusCode::NOT_FOUND {
            head.status = StatusCode::OK;
        }
        if on.on("http/sse-buffered") {
            head.headers
                .insert("x-accel-buffering", HeaderValue::from_static("yes"));
        }
        if on.on("http/mints-session") {
            head.headers.insert(
                "mcp-session-id",
                HeaderValue::from_static("broken-server-session"),
            );
        }
    }
}
