//! The raw-HTTP probes: requests a correct client never sends, posted through the crate's one
//! HTTP client ([`HttpClient`]) beside the MCP client, to see the server refuse them.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`HTTP_DECODE_BASE64`](clauses::HTTP_DECODE_BASE64),
//! [`HTTP_HEADER_MISMATCH`](clauses::HTTP_HEADER_MISMATCH),
//! [`HTTP_HEADER_MISSING`](clauses::HTTP_HEADER_MISSING),
//! [`HTTP_VERSION_HEADER_MISMATCH`](clauses::HTTP_VERSION_HEADER_MISMATCH),
//! [`HTTP_VERSION_HEADER_MISSING`](clauses::HTTP_VERSION_HEADER_MISSING),
//! [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE).

use super::http_exchange::json_headers;
use crate::checker::timeout_text;
use crate::{Note, Out, Shown};
use http::{HeaderMap, HeaderValue};
use mcp_test::__check::HttpClient;
use mcp_test::cases::shorten;
use mcp_test::client::{ClientError, HttpOptions};
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::wire::error_codes::{HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION};
use serde_json::{Value, json};
use std::time::Duration;

/// The mirrored-header rules of 2026-07-28, each on a request that changes nothing:
///
/// - `tools/list` whose `Mcp-Method` header says `tools/call`;
/// - `server/discover` whose `MCP-Protocol-Version` header disagrees with its `_meta`;
/// - `server/discover` without `Mcp-Method`;
/// - `server/discover` without `MCP-Protocol-Version`, only when `modern_only` (a server that
///   also serves clients older than 2025-06-18 MAY take it as 2025-03-26);
/// - `tools/call` of a tool that does not exist, whose name is not ASCII and so is sent
///   Base64-encoded in `Mcp-Name`: the server must decode it, so it matches (no -32020).
///
/// The first four must be HTTP 400 with -32020 (HeaderMismatch).
pub(crate) async fn header_mirroring(
    url: &str,
    options: &HttpOptions,
    timeout: Duration,
    modern_only: bool,
) -> Out {
    let mut out = Vec::new();
    let uri = match HttpClient::parse_url(url) {
        Ok(uri) => uri,
        Err(e) => {
            out.push(Note::info(format!(
                "{url} is not a usable URL, so the probe did not run: {e}"
            )));
            return out;
        }
    };
    let client = match HttpClient::with_options(options) {
        Ok(client) => client,
        Err(e) => {
            out.push(Note::info(format!("the probe did not run: {e}")));
            return out;
        }
    };
    let post = |body: Value, headers: HeaderMap| {
        let (client, uri) = (client.clone(), uri.clone());
        async move {
            client
                .post(&uri, headers, body.to_string().into(), timeout)
                .await
        }
    };
    let version_key = mcp_test::wire::meta_keys::PROTOCOL_VERSION;
    let discover = mcp_test::wire::build::build_request("server/discover", json!({}));
    let older = mcp_test::wire::build::build_request(
        "server/discover",
        json!({"_meta": {version_key: mcp_test::wire::LEGACY_PROTOCOL_VERSION}}),
    );
    // (the request shown, what is wrong with it, body, headers, clause)
    type Case<'a> = (&'a str, &'a str, Value, HeaderMap, &'a Clause);
    let mut cases: Vec<Case> = vec![
        (
            "tools/list (Mcp-Method: tools/call)",
            "a request whose Mcp-Method header (tools/call) disagrees with its body (tools/list)",
            mcp_test::wire::build::build_request("tools/list", json!({})),
            modern_headers("tools/call"),
            &clauses::HTTP_HEADER_MISMATCH,
        ),
        (
            "server/discover (MCP-Protocol-Version: 2026-07-28, _meta: 2025-11-25)",
            "a request whose MCP-Protocol-Version header (2026-07-28) disagrees with its _meta (2025-11-25)",
            older,
            modern_headers("server/discover"),
            &clauses::HTTP_VERSION_HEADER_MISMATCH,
        ),
        (
            "server/discover (no Mcp-Method)",
            "a request without the Mcp-Method header",
            discover.clone(),
            modern_headers(""),
            &clauses::HTTP_HEADER_MISSING,
        ),
    ];
    if modern_only {
        let mut headers = modern_headers("server/discover");
        headers.remove(mcp_test::headers::PROTOCOL_VERSION);
        cases.push((
            "server/discover (no MCP-Protocol-Version)",
            "a request without the MCP-Protocol-Version header, at a server that refuses 2025-era initialize (so supports no client older than 2025-06-18),",
            discover,
            headers,
            &clauses::HTTP_VERSION_HEADER_MISSING,
        ));
    }
    for (what, says, body, headers, clause) in cases {
        let on = Some(Shown {
            method: what.to_owned(),
            id: None,
        });
        let reply = match post(body, headers).await {
            Ok(reply) => reply,
            Err(e) => {
                out.push(no_answer(what, e, timeout).on(on));
                continue;
            }
        };
        let code = first_code(&reply);
        let status = reply.status.as_u16();
        if status == 400 && code == Some(i64::from(HEADER_MISMATCH)) {
            continue;
        }
        // A version mismatch refused for the body's version rather than for the mismatch:
        // refused all the same, and which check comes first the spec does not say.
        if clause == &clauses::HTTP_VERSION_HEADER_MISMATCH
            && status == 400
            && code == Some(i64::from(UNSUPPORTED_PROTOCOL_VERSION))
        {
            out.push(
                Note::info(format!(
                    "{what}: refused as {UNSUPPORTED_PROTOCOL_VERSION} (UnsupportedProtocolVersion) rather than {HEADER_MISMATCH} (HeaderMismatch)"
                ))
                .on(on),
            );
            continue;
        }
        out.push(
            Note::broke(
                clause,
                format!(
                    "{says} must be HTTP 400 with {HEADER_MISMATCH}; got HTTP {status}: {}",
                    shorten(&reply.text(), 200)
                ),
            )
            .on(on),
        );
    }
    // An encoded Mcp-Name that matches once decoded.
    let name = "mcp-test-no-such-tool-\u{e9}";
    let body = mcp_test::wire::build::build_call_request(name, json!({}));
    let mut headers = modern_headers("tools/call");
    if let Ok(value) = HeaderValue::from_str(&mcp_test::headers::encode_value(name)) {
        headers.insert(mcp_test::headers::NAME, value);
    }
    let what = "tools/call of an unknown tool (Mcp-Name Base64-encoded)";
    let on = Some(Shown {
        method: what.to_owned(),
        id: None,
    });
    match post(body, headers).await {
        Ok(reply) if first_code(&reply) == Some(i64::from(HEADER_MISMATCH)) => out.push(
            Note::broke(
                &clauses::HTTP_DECODE_BASE64,
                format!(
                    "an Mcp-Name of {:?}, which decodes to the body's name {name:?}, was refused as a mismatch: HTTP {}: {}",
                    mcp_test::headers::encode_value(name),
                    reply.status.as_u16(),
                    shorten(&reply.text(), 200)
                ),
            )
            .on(on),
        ),
        Ok(_) => {}
        Err(e) => out.push(no_answer(what, e, timeout).on(on)),
    }
    out
}

/// The JSON-RPC error code of the first message of `reply` that has one.
fn first_code(reply: &mcp_test::__check::HttpReply) -> Option<i64> {
    reply
        .messages()
        .iter()
        .find_map(|m| m.pointer("/error/code").and_then(Value::as_i64))
}

/// A request of the probe that got no answer: a request must be answered, but silence within
/// the timeout is no verdict (a note naming it, [`timeout_text`]).
fn no_answer(what: &str, e: ClientError, timeout: Duration) -> Note {
    match e {
        ClientError::Timeout { .. } => Note::info(timeout_text(what, timeout)),
        e => Note::broke(
            &clauses::JSONRPC_RESPONSE,
            format!("no answer to {what}: {e}"),
        ),
    }
}

/// Posts `body` (a request without the `_meta` envelope) with the headers a 2026-07-28 client
/// sends: `MCP-Protocol-Version: 2026-07-28` and the `Mcp-Method` of the body. A dual-era
/// server keys on that header, so without it the request may rightly be served as 2025-era.
/// Returns the first JSON-RPC message of the reply.
pub(crate) async fn post_modern(
    url: &str,
    options: &HttpOptions,
    body: &Value,
    timeout: Duration,
) -> Result<Value, String> {
    let method = body.get("method").and_then(Value::as_str).unwrap_or("");
    post_first_message(url, options, body, modern_headers(method), timeout).await
}

/// Posts `body` as a 2025-era client does before any handshake: JSON in, JSON or SSE out,
/// and no `MCP-Protocol-Version` or `Mcp-Method` header. Returns the first JSON-RPC message
/// of the reply.
pub(crate) async fn post_legacy(
    url: &str,
    options: &HttpOptions,
    body: &Value,
    timeout: Duration,
) -> Result<Value, String> {
    post_first_message(url, options, body, json_headers(), timeout).await
}

async fn post_first_message(
    url: &str,
    options: &HttpOptions,
    body: &Value,
    headers: HeaderMap,
    timeout: Duration,
) -> Result<Value, String> {
    let uri = HttpClient::parse_url(url).map_err(|e| format!("{url} is not a usable URL: {e}"))?;
    let reply = HttpClient::with_options(options)
        .map_err(|e| e.to_string())?
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

/// The headers of a 2026-07-28 POST: [`json_headers`], `MCP-Protocol-Version`, and
/// `Mcp-Method: method` (left out when `method` is empty or not a header value).
pub(crate) fn modern_headers(method: &str) -> HeaderMap {
    let mut headers = json_headers();
    headers.insert(
        mcp_test::headers::PROTOCOL_VERSION,
        HeaderValue::from_static(mcp_test::wire::PROTOCOL_VERSION),
    );
    if !method.is_empty()
        && let Ok(value) = HeaderValue::from_str(method)
    {
        headers.insert(mcp_test::headers::METHOD, value);
    }
    headers
}
