//! The raw-HTTP probes: requests a correct client never sends, posted through the crate's one
//! HTTP client ([`HttpClient`]) beside the MCP client, to see the server refuse them.

use super::{Out, Severity};
use crate::cases::shorten;
use crate::client::{ClientError, HttpClient};
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue};
use serde_json::{Value, json};
use std::time::Duration;

/// Sends `tools/list` whose `Mcp-Method` header says `tools/call`: the server must answer
/// HTTP 400 with -32020 (HeaderMismatch).
pub(super) async fn header_mirroring(url: &str, timeout: Duration) -> Out {
    let mut out = Vec::new();
    let uri = match HttpClient::parse_url(url) {
        Ok(uri) => uri,
        Err(e) => {
            out.push((Severity::Defect, format!("{url} is not a usable URL: {e}")));
            return out;
        }
    };
    let body = crate::wire::build::build_request("tools/list", json!({}));
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
    headers.insert(
        crate::headers::METHOD,
        HeaderValue::from_static("tools/call"),
    );
    let reply = match HttpClient::new()
        .post(&uri, headers, body.to_string().into(), timeout)
        .await
    {
        Ok(reply) => reply,
        Err(ClientError::Timeout { .. }) => {
            out.push((
                Severity::Defect,
                format!(
                    "no answer within {timeout:?} to a request with a mismatched Mcp-Method header"
                ),
            ));
            return out;
        }
        Err(e) => {
            out.push((
                Severity::Defect,
                format!("no answer to a request with a mismatched Mcp-Method header: {e}"),
            ));
            return out;
        }
    };
    let code = reply
        .messages()
        .iter()
        .find_map(|m| m.pointer("/error/code").and_then(Value::as_i64));
    let status = reply.status.as_u16();
    if code != Some(-32020) || status != 400 {
        out.push((
            Severity::Defect,
            format!(
                "a request whose Mcp-Method header (tools/call) disagrees with its body (tools/list) must be HTTP 400 with -32020; got HTTP {status}: {}",
                shorten(&reply.text(), 200)
            ),
        ));
    }
    out
}
