//! `http/stream-notifications`: the notifications on a request's SSE stream relate to it.
//!
//! The first tool `check` calls is called again with its base case (`rule:base`), posted raw
//! beside the session with a `progressToken` of the probe's own, and its reply read until the
//! response (within the check's timeout). A `notifications/progress` on that stream whose
//! `progressToken` is not the request's relates to another request: 2026-07-28
//! streamable-http §Receiving Messages, "These notifications **MUST** relate to the
//! originating client request" ([`clauses::HTTP_STREAM_RELATED`]). Other notifications carry
//! nothing that ties them to a request, so they are not judged.

use super::http_exchange::{Watched, Wire, call_headers, first_base_call};
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses::{self, Clause};
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "http/stream-notifications";

/// The progress token of the probe's request.
pub(crate) const TOKEN: &str = "mcp-test-stream-progress";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let Some(mut call) = first_base_call(r, ID, "mcp-test-stream-notifications") else {
            return;
        };
        let name = &call.name;
        call.body["params"]["_meta"]["progressToken"] = json!(TOKEN);
        let on = Some(Shown {
            method: format!("tools/call {name} (progressToken {TOKEN:?})"),
            id: None,
        });
        let out: Out = match Wire::new(&call.url, &call.options, r.options.timeout) {
            Ok(wire) => {
                r.called.record(&call.body);
                match wire
                    .post(
                        call_headers(&call.tool, &call.body),
                        &call.body,
                        Duration::ZERO,
                    )
                    .await
                {
                    Ok(reply) => {
                        unrelated(&clauses::HTTP_STREAM_RELATED, &reply, &json!(TOKEN), "must")
                    }
                    Err(e) => vec![Note::info(format!(
                        "tools/call {name}, posted raw, got no reply: {e}"
                    ))],
                }
            }
            Err(e) => vec![Note::info(format!("the probe did not run: {e}"))],
        };
        r.c.push_probe(ID, out.into_iter().map(|n| n.on(on.clone())).collect());
    })
}

/// Every `notifications/progress` on the stream of `reply` whose `progressToken` is not
/// `token` (the request's), as a breach of `clause`, whose level `must` words ("must" or
/// "should").
pub(crate) fn unrelated(clause: &Clause, reply: &Watched, token: &Value, must: &str) -> Out {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for message in reply.messages() {
        if message.get("method").and_then(Value::as_str) != Some("notifications/progress") {
            continue;
        }
        let other = message
            .pointer("/params/progressToken")
            .unwrap_or(&Value::Null);
        if other == token || seen.contains(other) {
            continue;
        }
        seen.push(other.clone());
        out.push(Note::broke(
            clause,
            format!(
                "notifications on a request's SSE stream {must} relate to that request: the stream of a request with progressToken {token} carried notifications/progress for progressToken {other}"
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use bytes::Bytes;
    use http::HeaderMap;

    fn stream(messages: &[Value]) -> Watched {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", "text/event-stream".parse().unwrap());
        let body: String = messages
            .iter()
            .map(|m| format!("event: message\ndata: {m}\n\n"))
            .collect();
        Watched {
            status: 200,
            headers,
            body: Bytes::from(body),
            ended: true,
        }
    }

    fn progress(token: &str) -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
               "params": {"progressToken": token, "progress": 1}})
    }

    fn response() -> Value {
        json!({"jsonrpc": "2.0", "id": "x", "result": {"content": []}})
    }

    #[test]
    fn progress_for_the_request_is_no_finding() {
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
                         "params": {"level": "info", "data": "hi"}});
        let reply = stream(&[progress(TOKEN), log, response()]);
        assert!(unrelated(&clauses::HTTP_STREAM_RELATED, &reply, &json!(TOKEN), "must").is_empty());
    }

    #[test]
    fn progress_for_another_token_breaks_the_rule_once() {
        let reply = stream(&[progress("other"), progress("other"), response()]);
        let out = unrelated(&clauses::HTTP_STREAM_RELATED, &reply, &json!(TOKEN), "must");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].clause, Some(clauses::HTTP_STREAM_RELATED));
        assert_eq!(out[0].severity, Severity::Defect);
        assert!(out[0].message.contains("must relate"), "{}", out[0].message);
        assert!(out[0].message.contains("\"other\""), "{}", out[0].message);
        let out = unrelated(
            &clauses::LEGACY_HTTP_STREAM_RELATED,
            &reply,
            &json!(TOKEN),
            "should",
        );
        assert_eq!(out[0].severity, Severity::Warning);
    }
}
