//! The raw-HTTP probes: requests a correct client never sends, posted through the crate's one
//! HTTP client ([`HttpClient`]) beside the MCP client, to see the server refuse them.

use super::{Note, Out, Shown};
use crate::cases::shorten;
use crate::client::{ClientError, HttpClient};
use crate::spec::clauses;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue};
use serde_json::{Value, json};
use std::time::Duration;

/// Sends `tools/list` whose `Mcp-Method` header says `tools/call`: the server must answer
/// HTTP 400 with -32020 (HeaderMismatch).
pub(super) async fn header_mirroring(url: &str, timeout: Duration) -> Out {
    let mut out = Vec::new();
    let on = Some(Shown {
        method: "tools/list (Mcp-Method: tools/call)".to_owned(),
        id: None,
    });
    let uri = match HttpClient::parse_url(url) {
        Ok(uri) => uri,
        Err(e) => {
            out.push(Note::info(format!(
                "{url} is not a usable URL, so the probe did not run: {e}"
            )));
            return out;
        }
    };
    let body = crate::wire::build::build_request("tools/list", json!({}));
    let headers = modern_headers("tools/call");
    let reply = match HttpClient::new()
        .post(&uri, headers, body.to_string().into(), timeout)
        .await
    {
        Ok(reply) => reply,
        Err(ClientError::Timeout { .. }) => {
            out.push(
                Note::broke(
                    &clauses::JSONRPC_RESPONSE,
                    format!(
                        "no answer within {timeout:?} to a request with a mismatched Mcp-Method header"
                    ),
                )
                .on(on),
            );
            return out;
        }
        Err(e) => {
            out.push(
                Note::broke(
                    &clauses::JSONRPC_RESPONSE,
                    format!("no answer to a request with a mismatched Mcp-Method header: {e}"),
                )
                .on(on),
            );
            return out;
        }
    };
    let code = reply
        .messages()
        .iter()
        .find_map(|m| m.pointer("/error/code").and_then(Value::as_i64));
    let status = reply.status.as_u16();
    if code != Some(-32020) || status != 400 {
        out.push(
            Note::broke(
                &clauses::HTTP_HEADER_MISMATCH,
                format!(
                    "a request whose Mcp-Method header (tools/call) disagrees with its body (tools/list) must be HTTP 400 with -32020; got HTTP {status}: {}",
                    shorten(&reply.text(), 200)
                ),
            )
            .on(on),
        );
    }
    out
}

/// Posts `body` (a request without the `_meta` envelope) with the headers a 2026-07-28 client
/// sends: `MCP-Protocol-Version: 2026-07-28` and the `Mcp-Method` of the body. A dual-era
/// server keys on that header, so without it the request may rightly be served as 2025-era.
/// Returns the first JSON-RPC message of the reply.
pub(super) async fn post_modern(
    url: &str,
    body: &Value,
    timeout: Duration,
) -> Result<Value, String> {
    let uri = HttpClient::parse_url(url).map_err(|e| format!("{url} is not a usable URL: {e}"))?;
    let headers = modern_headers(body.get("method").and_then(Value::as_str).unwrap_or(""));
    let reply = HttpClient::new()
        .post(&uri, headers, body.to_string().into(), timeout)
        .await
        .map_err(|e| e.to_string())?;
    reply.messages().into_iter().next().ok_or_else(|| {
        format!(
            "HTTP {} with no JSON-RPC message: {}",
            reply.status.as_u16(),
            shorten(&reply.text(), 200)
        )
    })
}

/// The headers of a 2026-07-28 POST: JSON in, JSON or SSE out, `MCP-Protocol-Version`, and
/// `Mcp-Method: method` (left out when `method` is empty or not a header value).
fn modern_headers(method: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    headers.insert(
        crate::headers::PROTOCOL_VERSION,
        HeaderValue::from_static(crate::wire::PROTOCOL_VERSION),
    );
    if !method.is_empty()
        && let Ok(value) = HeaderValue::from_str(method)
    {
        headers.insert(crate::headers::METHOD, value);
    }
    headers
}
