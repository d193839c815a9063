//! `tools/malformed-calls`: `tools/call` requests that break the `CallToolRequest` schema.
//!
//! A call without a tool name (2025-11-25: without `params`), and calls whose `arguments` is
//! a string or an array. Any error, or a tool error, is a rejection; -32603 is noted; a
//! success for a tool that requires arguments means its inputs were not validated.
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`VALIDATE_TOOL_INPUTS`](clauses::VALIDATE_TOOL_INPUTS).

use crate::checker::{Checker, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::Happened;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::{INTERNAL_ERROR, INVALID_PARAMS};
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "tools/malformed-calls";

/// The row: [`malformed_calls`] of the tools `check` may call.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(malformed_calls(&mut r.c, &r.tools))
}

/// `tools/malformed-calls`: `tools/call` without a tool name (2025-11-25: without
/// `params`), and with `arguments` a string and an array. An error of any kind, or a
/// tool error, is a rejection; -32603 is noted (the spec's example for a protocol error
/// is -32602, but no clause asks for it); a success for a tool that requires arguments
/// means its inputs were not validated (server/tools.mdx §Security Considerations).
/// `tools` are the tools the check may call: a server that accepts malformed arguments
/// runs the tool.
pub(crate) async fn malformed_calls(c: &mut Checker<'_>, tools: &[Value]) {
    let mut out = Vec::new();
    // No tool name: nothing can run, whatever the server does with it.
    let (what, body) = if c.modern() {
        let (id, body) = c.session.body("tools/call", json!({}));
        ("tools/call whose params have no `name`", (id, body))
    } else {
        let (id, mut body) = c.session.body("tools/call", json!({}));
        if let Some(b) = body.as_object_mut() {
            b.remove("params");
        }
        ("tools/call without params", (id, body))
    };
    if let Some(r) = c.send("tools/call", body.0, body.1, &mut out).await {
        match Happened::from_response(&r) {
            Happened::RpcError { code, .. } if code == i64::from(INTERNAL_ERROR) => out.push(c.info(format!(
                "{what} answered {INTERNAL_ERROR} (Internal error); server/tools.mdx §Error Handling counts a malformed request among the protocol errors, with {INVALID_PARAMS} (Invalid params) as its example"
            ))),
            Happened::RpcError { .. } | Happened::ToolError { .. } => {}
            other => out.push(c.info(format!(
                "{what} answered {other}; server/tools.mdx §Error Handling counts a malformed request among the protocol errors, answered with a JSON-RPC error"
            ))),
        }
    }
    let required = |t: &Value| {
        t.pointer("/inputSchema/required")
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty())
    };
    let tool = tools.iter().find(|t| required(t)).or_else(|| tools.first());
    if let Some(tool) = tool
        && let Some(name) = tool.get("name").and_then(Value::as_str)
    {
        let needs = required(tool);
        let kinds = [("a string", json!("mcp-test")), ("an array", json!([]))];
        let requests = kinds
            .iter()
            .map(|(_, arguments)| ("tools/call", json!({"name": name, "arguments": arguments})))
            .collect();
        let answers = c.req_each(requests, &mut out).await;
        for ((shown, answer), (kind, _)) in answers.into_iter().zip(kinds) {
            c.last = Some(shown);
            let Some(r) = answer else {
                continue;
            };
            let what = format!("tools/call of {name:?} with `arguments` {kind}");
            match Happened::from_response(&r) {
                Happened::RpcError { code, .. } if code == i64::from(INTERNAL_ERROR) => out.push(c.info(format!(
                    "{what} answered {INTERNAL_ERROR} (Internal error); server/tools.mdx §Error Handling counts a malformed request (one that fails the CallToolRequest schema) among the protocol errors, with {INVALID_PARAMS} (Invalid params) as its example"
                ))),
                Happened::Success { .. } | Happened::InputRequired if needs => {
                    out.push(c.broke(
                        &clauses::VALIDATE_TOOL_INPUTS,
                        format!(
                            "{what} was accepted ({}), though its input schema is an object with required properties",
                            brief(&r)
                        ),
                    ));
                }
                Happened::Success { .. } | Happened::InputRequired => out.push(c.info(
                    format!(
                        "{what} was accepted ({}); `arguments` must be an object (CallToolRequest)",
                        brief(&r)
                    ),
                )),
                _ => {}
            }
        }
    }
    c.push_probe(ID, out);
}
