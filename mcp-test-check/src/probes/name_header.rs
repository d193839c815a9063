//! `http/name-header-mismatch`: a `tools/call` of a tool the server lists, whose mirrored
//! `Mcp-Name` header names another tool, is refused with HTTP 400 and -32020.
//!
//! The first tool `check` may call (consented, with a base case) is called with its base-case
//! arguments, posted raw beside the session with every mirrored header, but `Mcp-Name` set to
//! another name: another listed tool's, or a made-up one when it is the only tool. A server
//! that processes the body must reject a request whose headers disagree with it, with HTTP 400
//! and -32020 (HeaderMismatch): 2026-07-28 streamable-http §Server Validation
//! ([`clauses::HTTP_HEADER_MISMATCH`], MUST). `http/header-mirroring` tries `Mcp-Method`, the
//! version header and an unknown tool; this one a tool the server has, where a server that
//! routes by the header or by the body would run something.
//!
//! No answer at all breaks `jsonrpc/response-required`.

use super::http_exchange::{Wire, call_headers, first_base_call, put};
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::HEADER_MISMATCH;
use std::time::Duration;

pub(crate) const ID: &str = "http/name-header-mismatch";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let Some(call) = first_base_call(r, ID, "mcp-test-name-header-mismatch") else {
            return;
        };
        let (name, body) = (call.name.as_str(), &call.body);
        let other = r
            .listed
            .iter()
            .find(|n| n.as_str() != name && !n.is_empty() && n.is_ascii())
            .cloned()
            .unwrap_or_else(|| format!("{name}-mcp-test-other"));
        let mut headers = call_headers(&call.tool, body);
        put(&mut headers, mcp_test::headers::NAME, &other);
        let on = Some(Shown {
            method: format!("tools/call {name} (Mcp-Name: {other})"),
            id: None,
        });
        let out: Out = match Wire::new(&call.url, &call.options, r.options.timeout) {
            Ok(wire) => match wire.post(headers, body, Duration::ZERO).await {
                Ok(reply) => judge(name, &other, reply.status, reply.code(), &reply.brief())
                    .into_iter()
                    .collect(),
                Err(e) => vec![Note::broke(
                    &clauses::JSONRPC_RESPONSE,
                    format!(
                        "no answer to a tools/call of {name} whose Mcp-Name header says {other:?}: {e}"
                    ),
                )],
            },
            Err(e) => vec![Note::info(format!("the probe did not run: {e}"))],
        };
        r.c.push_probe(ID, out.into_iter().map(|n| n.on(on.clone())).collect());
    })
}

/// What the reply (its HTTP `status`, its first JSON-RPC error `code`, in `brief`) to a call
/// of `name` whose `Mcp-Name` said `other` shows.
pub(crate) fn judge(
    name: &str,
    other: &str,
    status: u16,
    code: Option<i64>,
    brief: &str,
) -> Option<Note> {
    if status == 400 && code == Some(i64::from(HEADER_MISMATCH)) {
        return None;
    }
    Some(Note::broke(
        &clauses::HTTP_HEADER_MISMATCH,
        format!(
            "a tools/call of {name:?} whose Mcp-Name header says {other:?} must be refused with HTTP 400 and {HEADER_MISMATCH} (HeaderMismatch); got {brief}"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn only_400_with_header_mismatch_refuses_it() {
        assert!(judge("add", "echo", 400, Some(-32020), "HTTP 400").is_none());
        for (status, code) in [(200, None), (400, Some(-32602)), (200, Some(-32020))] {
            let note = judge("add", "echo", status, code, "HTTP x").expect("a finding");
            assert_eq!(note.clause, Some(clauses::HTTP_HEADER_MISMATCH));
            assert_eq!(note.severity, Severity::Defect);
            assert!(note.message.contains("must"), "{}", note.message);
        }
    }
}
