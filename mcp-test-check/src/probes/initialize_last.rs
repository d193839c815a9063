//! `methods/initialize-on-a-modern-server`: `initialize` sent to a 2026-07-28 server as a
//! 2025-era client sends it, last of all the probes that talk to the server.
//!
//! Any error is right (its code is implementation-defined) and should name the supported
//! versions; a dual-era server may answer with an `InitializeResult`, held to the 2025-11-25
//! schema. Either way the response carries the request's id.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`ERROR_ID`](clauses::ERROR_ID),
//! [`INITIALIZE_NAMES_VERSIONS`](clauses::INITIALIZE_NAMES_VERSIONS),
//! [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE), [`LEGACY_SCHEMA`](clauses::LEGACY_SCHEMA),
//! [`RESULT_ID`](clauses::RESULT_ID).

use crate::Shown;
use crate::checker::{Checker, Note, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::Era;
use mcp_test::spec;
use mcp_test::spec::clauses;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "methods/initialize-on-a-modern-server";

/// The row: [`initialize_last`].
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        r.serves_legacy = initialize_last(&mut r.c).await;
    })
}

/// `initialize` sent to a 2026-07-28 server as a 2025-era client sends it: no `_meta`
/// and, over HTTP, no `MCP-Protocol-Version` header. Any error is right (the code is
/// implementation-defined), and a dual-era server MAY answer it with an
/// `InitializeResult`, checked against the 2025-11-25 schema; an error SHOULD name the
/// supported versions (a SHOULD for a server that supports only modern versions, which
/// is what an error here shows).
///
/// It runs last: a dual-era server that answers it may serve the rest of the connection
/// (stdio) as a 2025-era session, which is its right, and no later probe may then be held
/// to 2026-07-28.
///
/// Returns whether the server answered with an `InitializeResult`: its word that it serves
/// 2025-11-25 too, which `check` then checks on a connection of its own (`crate::other_era`).
pub(crate) async fn initialize_last(c: &mut Checker<'_>) -> bool {
    if !c.modern() || c.dead.is_some() {
        c.skip_probe(
            ID,
            if c.modern() {
                "the server had stopped answering"
            } else {
                "a 2025-era server: initialize is its handshake"
            },
        );
        return false;
    }
    let mut out = Vec::new();
    let id = c.session.next_id();
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {"protocolVersion": mcp_test::wire::LEGACY_PROTOCOL_VERSION, "capabilities": {},
                   "clientInfo": {"name": "mcp-test", "version": "0"}}});
    c.last = Some(Shown {
        method: "initialize".to_owned(),
        id: Some(id),
    });
    let answer = send_as_legacy(c, body).await;
    let serves_legacy = answer.as_ref().is_ok_and(|r| {
        r.pointer("/result/protocolVersion")
            .and_then(Value::as_str)
            .is_some()
    });
    match answer {
        Err(e) => out.push(c.no_answer(&format!("initialize (id {id})"), &e)),
        Ok(r) => {
            if let Some(error) = r.get("error") {
                let listed = error
                    .pointer("/data/supported")
                    .and_then(Value::as_array)
                    .is_some_and(|v| !v.is_empty())
                    || error.to_string().contains("2026-07-28");
                if !listed {
                    out.push(c.broke(
                        &clauses::INITIALIZE_NAMES_VERSIONS,
                        format!(
                            "the error answering initialize names no supported protocol version; got {}",
                            brief(&r)
                        ),
                    ));
                }
            } else if let Err(e) = spec::check_response_in(Era::Legacy, "initialize", &r) {
                // A dual-era server answered as a 2025-era one: held to that schema.
                out.push(
                    Note::broke(&clauses::LEGACY_SCHEMA, format!("initialize: {e}"))
                        .on(c.last.clone()),
                );
            }
            if r.get("id") != Some(&json!(id)) {
                let clause = if r.get("error").is_some() {
                    &clauses::ERROR_ID
                } else {
                    &clauses::RESULT_ID
                };
                out.push(c.broke(
                    clause,
                    format!("the response to initialize (id {id}) has id {}", r["id"]),
                ));
            }
        }
    }
    c.push_probe(ID, out);
    serves_legacy
}

/// Sends `body` as a 2025-era client would: over HTTP with no `MCP-Protocol-Version`
/// header (a dual-era server keys on it), on stdio as it is.
async fn send_as_legacy(c: &Checker<'_>, body: Value) -> Result<Value, String> {
    if let Some(mcp_test::target::HttpEndpoint { url, options, .. }) =
        c.session.target.connection().http
    {
        return super::raw_http::post_legacy(&url, &options, &body, c.session.timeout).await;
    }
    c.session.raw(body).await.map_err(|e| e.to_string())
}
