//! `methods/removed-and-unknown` and `methods/unsupported-version`: what a server answers to
//! methods it must not serve and to requests in a version it does not speak.
//!
//! - An unknown method, and for a 2026-07-28 server the methods that revision removed (`ping`,
//!   `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`), must be -32601; a
//!   2025-era server must answer `ping` with an empty result.
//! - A 2026-07-28 server asked for protocol version 1999-01-01 (in `server/discover`, which
//!   every 2026-07-28 server serves whatever its capabilities) must answer -32022 with
//!   `data.supported` (2026-07-28 among them) and `data.requested`; a `tools/list` without the
//!   `_meta` envelope must be -32602 (-32020, a header mismatch, is accepted over HTTP, and
//!   -32601 from a server that declared no tools).
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`JSONRPC_METHOD_NOT_FOUND`](clauses::JSONRPC_METHOD_NOT_FOUND),
//! [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE), [`LEGACY_PING`](clauses::LEGACY_PING),
//! [`META_REQUIRED`](clauses::META_REQUIRED), [`SCHEMA`](clauses::SCHEMA),
//! [`UNSUPPORTED_VERSION`](clauses::UNSUPPORTED_VERSION).

use crate::Shown;
use crate::checker::{Checker, Note, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::{
    HEADER_MISMATCH, INVALID_PARAMS, METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION,
};
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};

/// The probe of methods a server must not serve.
pub(crate) const REMOVED_AND_UNKNOWN: &str = "methods/removed-and-unknown";
/// The probe of a version the server does not speak, and of a request without `_meta`.
pub(crate) const UNSUPPORTED_VERSION: &str = "methods/unsupported-version";

/// The row: [`methods`], told whether the server declared `tools`.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    let tools = r.has("tools");
    Box::pin(methods(&mut r.c, tools))
}

/// Records [`REMOVED_AND_UNKNOWN`] and [`UNSUPPORTED_VERSION`]. `tools`: whether the server
/// declared the `tools` capability (`None`: not known).
pub(crate) async fn methods(c: &mut Checker<'_>, tools: Option<bool>) {
    let mut out = Vec::new();
    let mut expect_32601 = vec!["mcp-test/no-such-method"];
    if c.modern() {
        expect_32601.extend([
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
        ]);
    }
    let requests = expect_32601.iter().map(|m| (*m, json!({}))).collect();
    let answers = c.req_each(requests, &mut out).await;
    for ((shown, answer), method) in answers.into_iter().zip(expect_32601) {
        c.last = Some(shown);
        if let Some(r) = answer
            && r.pointer("/error/code").and_then(Value::as_i64) != Some(i64::from(METHOD_NOT_FOUND))
        {
            let what = if method.starts_with("mcp-test/") {
                "an unknown method"
            } else {
                "a method 2026-07-28 removed"
            };
            out.push(c.broke(
                &clauses::JSONRPC_METHOD_NOT_FOUND,
                format!(
                    "{method} ({what}) must be {METHOD_NOT_FOUND}; got {}",
                    brief(&r)
                ),
            ));
        }
    }
    if !c.modern()
        && let Some(r) = c.req("ping", json!({}), &mut out).await
        && r.get("error").is_some()
    {
        // 2025-11-25 has ping (2026-07-28 removed it, hence -32601 above).
        out.push(
            Note::broke(
                &clauses::LEGACY_PING,
                format!(
                    "ping must be answered with an empty result; got {}",
                    brief(&r)
                ),
            )
            .on(c.last.clone()),
        );
    }
    c.push_probe(REMOVED_AND_UNKNOWN, out);
    if !c.modern() {
        c.skip_probe(
            UNSUPPORTED_VERSION,
            "a 2025-era server: version negotiation is the initialize handshake",
        );
        return;
    }
    let mut out = Vec::new();
    let meta = json!({"_meta": {
        meta_keys::PROTOCOL_VERSION: "1999-01-01",
        meta_keys::CLIENT_CAPABILITIES: {},
    }});
    // server/discover: every 2026-07-28 server serves it, whatever its capabilities, so a
    // server without tools is not asked for a method it rightly does not have.
    if let Some(r) = c.req("server/discover", meta, &mut out).await {
        if r.pointer("/error/code").and_then(Value::as_i64)
            != Some(i64::from(UNSUPPORTED_PROTOCOL_VERSION))
        {
            out.push(c.broke(
                &clauses::UNSUPPORTED_VERSION,
                format!(
                    "a request for protocol version 1999-01-01 must be {UNSUPPORTED_PROTOCOL_VERSION} (UnsupportedProtocolVersion); got {}",
                    brief(&r)
                ),
            ));
        } else {
            let data = r.pointer("/error/data");
            let supported = data
                .and_then(|d| d.get("supported"))
                .and_then(Value::as_array);
            // UnsupportedProtocolVersionError requires data.supported and
            // data.requested (schema.ts).
            if !supported.is_some_and(|s| s.contains(&json!("2026-07-28"))) {
                out.push(c.broke(
                    &clauses::SCHEMA,
                    format!("the {UNSUPPORTED_PROTOCOL_VERSION} error must list the supported versions, 2026-07-28 among them, in data.supported; data is {}", data.unwrap_or(&Value::Null)),
                ));
            }
            if data.and_then(|d| d.get("requested")) != Some(&json!("1999-01-01")) {
                out.push(c.broke(
                    &clauses::SCHEMA,
                    format!("the {UNSUPPORTED_PROTOCOL_VERSION} error must echo the requested version in data.requested"),
                ));
            }
        }
    }
    let id = c.session.next_id();
    let bare = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {}});
    c.last = Some(Shown {
        method: "tools/list".to_owned(),
        id: Some(id),
    });
    match send_without_envelope(c, bare).await {
        Ok(r) => {
            // The body has no version, the header says 2026-07-28: a server may call that
            // a header mismatch (-32020). A server that declared no tools may find the
            // method missing before the envelope: the spec fixes no order of the checks.
            let code = r.pointer("/error/code").and_then(Value::as_i64);
            let no_tools = tools == Some(false) && code == Some(i64::from(METHOD_NOT_FOUND));
            if !no_tools
                && !matches!(code, Some(n) if n == i64::from(INVALID_PARAMS) || n == i64::from(HEADER_MISMATCH))
            {
                out.push(c.broke(
                    &clauses::META_REQUIRED,
                    format!(
                        "a request without the `_meta` envelope must be {INVALID_PARAMS}; got {}",
                        brief(&r)
                    ),
                ));
            }
            c.log_response("tools/list", id, r);
        }
        Err(e) => out.push(c.no_answer("tools/list without `_meta`", &e)),
    }
    c.push_probe(UNSUPPORTED_VERSION, out);
}

/// Sends a request that lacks the `_meta` envelope. Over HTTP it still carries
/// `MCP-Protocol-Version: 2026-07-28` and `Mcp-Method`, which the client derives from
/// `_meta` and so would leave out: a dual-era server keys on that header, and without it
/// rightly serves the request as 2025-era.
async fn send_without_envelope(c: &Checker<'_>, body: Value) -> Result<Value, String> {
    if let Some(mcp_test::target::HttpEndpoint { url, options, .. }) =
        c.session.target.connection().http
    {
        return super::raw_http::post_modern(&url, &options, &body, c.session.timeout).await;
    }
    c.session.raw(body).await.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    use crate::probes::test_targets::Refusing;

    /// A 2026-07-28 server without tools answers tools/list -32601, rightly: the version
    /// probe asks with server/discover, which it serves, so it draws no finding.
    #[tokio::test]
    async fn a_server_without_tools_that_handles_versions_draws_no_finding() {
        // It finds a method missing before it looks at the version or the envelope (the
        // spec fixes no order): tools/list is -32601, whatever its `_meta` says.
        let server = Refusing {
            server: mcp_test::Server::builder("no-tools", "1.0.0")
                .build()
                .expect("builds"),
            method: "tools/list",
            error: json!({"code": -32601, "message": "Method not found"}),
        };
        let mut c = Checker::new(
            &server,
            mcp_test::cases::Era::Current,
            Duration::from_secs(5),
        );
        methods(&mut c, Some(false)).await;
        let probes = c.into_probes();
        let version = probes
            .iter()
            .find(|p| p.name == UNSUPPORTED_VERSION)
            .expect("the probe ran");
        assert!(version.skipped.is_none(), "{version:?}");
        assert!(version.findings.is_empty(), "{:?}", version.findings);
        let removed = probes
            .iter()
            .find(|p| p.name == REMOVED_AND_UNKNOWN)
            .expect("the probe ran");
        assert!(removed.findings.is_empty(), "{:?}", removed.findings);
    }
}
