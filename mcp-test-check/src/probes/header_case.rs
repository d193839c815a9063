//! `http/header-name-case`: a server compares header names case-insensitively.
//!
//! The same `server/discover` (which changes nothing) is posted twice beside the session, with
//! every mirrored header: once with the header names in lowercase, as this crate's client
//! writes them, and once in Title-Case (`Mcp-Method`, `Mcp-Protocol-Version`,
//! `Content-Type`). Only the case of the names differs, so a server that serves the first and
//! refuses the second (an HTTP 4xx, or a JSON-RPC error) compares names case-sensitively:
//! 2026-07-28 streamable-http §Case Sensitivity, "Clients and servers **MUST** use
//! case-insensitive comparisons for header names" ([`clauses::HTTP_HEADER_CASE`]). When the
//! lowercase request is not served, or a request gets no reply, nothing is judged (a note).

use super::http_exchange::{Wire, endpoint, json_headers, put};
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use mcp_test::__check::HttpClient;
use mcp_test::client::HttpOptions;
use mcp_test::spec::clauses;
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "http/header-name-case";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, options) = endpoint(r);
        let out = probe(&url, &options, r.options.timeout).await;
        r.c.push_probe(ID, out);
    })
}

async fn probe(url: &str, options: &HttpOptions, timeout: Duration) -> Out {
    let (lower, titled) = match (
        Wire::new(url, options, timeout),
        HttpClient::with_title_case_headers(options),
    ) {
        (Ok(lower), Ok(client)) => {
            let titled = Wire {
                client,
                uri: lower.uri.clone(),
                timeout,
            };
            (lower, titled)
        }
        (Err(e), _) => return vec![Note::info(format!("the probe did not run: {e}"))],
        (_, Err(e)) => return vec![Note::info(format!("the probe did not run: {e}"))],
    };
    let mut body = mcp_test::wire::build::build_request("server/discover", json!({}));
    body["id"] = json!("mcp-test-header-case");
    let mut headers = json_headers();
    for (name, value) in mcp_test::wire::build::mirrored_headers(&body) {
        put(&mut headers, &name, &value);
    }
    let first = lower.post(headers.clone(), &body, Duration::ZERO).await;
    let second = titled.post(headers, &body, Duration::ZERO).await;
    let on = Some(Shown {
        method: "server/discover (header names in Title-Case)".to_owned(),
        id: None,
    });
    let id = body["id"].clone();
    let answer = |w: super::http_exchange::Watched| (w.status, w.response(&id), w.brief());
    let (first, second) = (first.map(answer), second.map(answer));
    judge(first, second)
        .into_iter()
        .map(|n| n.on(on.clone()))
        .collect()
}

/// Judges the two replies: `lower` (status, response, the reply in brief) to the request with
/// lowercase header names, `titled` to the one in Title-Case.
fn judge(lower: Result<Answer, String>, titled: Result<Answer, String>) -> Option<Note> {
    let (lower, titled) = match (lower, titled) {
        (Ok(lower), Ok(titled)) => (lower, titled),
        (Err(e), _) | (_, Err(e)) => {
            return Some(Note::info(format!(
                "server/discover got no reply ({e}), so the case of header names was not compared"
            )));
        }
    };
    let served = |a: &Answer| a.1.as_ref().is_some_and(|m| m.get("result").is_some());
    let code = |a: &Answer| a.1.as_ref().and_then(|m| m.pointer("/error/code")).cloned();
    if served(&titled) || (lower.0 == titled.0 && code(&lower) == code(&titled)) {
        // Served both ways, or answered alike: the case made no difference.
        return None;
    }
    if !served(&lower) {
        return Some(Note::info(format!(
            "server/discover was not served with lowercase header names ({}) and was answered otherwise with them in Title-Case ({}), so the case of header names was not judged",
            lower.2, titled.2
        )));
    }
    if (400..500).contains(&titled.0) || titled.1.is_some() {
        return Some(Note::broke(
            &clauses::HTTP_HEADER_CASE,
            format!(
                "header names must be compared case-insensitively: server/discover with its headers named `Mcp-Method`, `Mcp-Protocol-Version`, `Content-Type` was refused ({}), while the same request with the names in lowercase was served",
                titled.2
            ),
        ));
    }
    Some(Note::info(format!(
        "server/discover with its header names in Title-Case got {}, and with them in lowercase a result",
        titled.2
    )))
}

/// A reply: its status, the response to the request, and the reply in brief.
type Answer = (u16, Option<Value>, String);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn served() -> Result<Answer, String> {
        Ok((
            200,
            Some(json!({"jsonrpc": "2.0", "id": "x", "result": {}})),
            "HTTP 200".into(),
        ))
    }

    fn refused(status: u16, code: i64) -> Result<Answer, String> {
        let error = json!({"jsonrpc": "2.0", "id": "x", "error": {"code": code, "message": "no"}});
        Ok((
            status,
            Some(error),
            format!("HTTP {status} (application/json): ..."),
        ))
    }

    #[test]
    fn both_served_or_answered_alike_is_no_finding() {
        assert_eq!(judge(served(), served()), None);
        assert_eq!(judge(refused(200, -32603), refused(200, -32603)), None);
    }

    #[test]
    fn refused_only_in_title_case_breaks_the_rule() {
        let note = judge(served(), refused(400, -32020)).expect("a finding");
        assert_eq!(note.clause, Some(clauses::HTTP_HEADER_CASE));
        assert_eq!(note.severity, Severity::Defect);
        assert!(note.message.contains("must"), "{}", note.message);
        assert!(note.message.contains("HTTP 400"), "{}", note.message);
    }

    #[test]
    fn what_cannot_be_compared_is_a_note() {
        let note = judge(refused(401, -32001), refused(400, -32020)).expect("a note");
        assert_eq!(note.severity, Severity::Info);
        let note = judge(served(), Err("no reply within 1s".into())).expect("a note");
        assert_eq!(note.severity, Severity::Info);
        let note = judge(served(), Ok((502, None, "HTTP 502".into()))).expect("a note");
        assert_eq!(note.severity, Severity::Info);
    }
}
