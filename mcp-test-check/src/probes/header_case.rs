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
use crate::table::Run;
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
    let first = first.map(|w| (w.response(&id), w.brief()));
    let second = second.map(|w| (w.status, w.response(&id), w.brief()));
    judge(first, second)
        .into_iter()
        .map(|n| n.on(on.clone()))
        .collect()
}

/// Judges the two replies: `lower` (the response, and the reply in brief) to the request with
/// lowercase header names, `titled` (status, response, brief) to the one in Title-Case.
fn judge(
    lower: Result<(Option<Value>, String), String>,
    titled: Result<(u16, Option<Value>, String), String>,
) -> Option<Note> {
    let served = |r: &Option<Value>| r.as_ref().is_some_and(|m| m.get("result").is_some());
    match lower {
        Ok((response, _)) if served(&response) => {}
        Ok((_, brief)) => {
            return Some(Note::info(format!(
                "server/discover with lowercase header names was not served ({brief}), so the case of header names was not compared"
            )));
        }
        Err(e) => {
            return Some(Note::info(format!(
                "server/discover with lowercase header names got no reply ({e}), so the case of header names was not compared"
            )));
        }
    }
    match titled {
        Ok((_, response, _)) if served(&response) => None,
        Ok((status, response, brief)) if (400..500).contains(&status) || response.is_some() => {
            Some(Note::broke(
                &clauses::HTTP_HEADER_CASE,
                format!(
                    "header names must be compared case-insensitively: server/discover with its headers named `Mcp-Method`, `Mcp-Protocol-Version`, `Content-Type` was refused ({brief}), while the same request with the names in lowercase was served"
                ),
            ))
        }
        Ok((_, _, brief)) => Some(Note::info(format!(
            "server/discover with its header names in Title-Case got {brief}, and with them in lowercase a result"
        ))),
        Err(e) => Some(Note::info(format!(
            "server/discover with its header names in Title-Case got no reply: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn served() -> Result<(Option<Value>, String), String> {
        Ok((
            Some(json!({"jsonrpc": "2.0", "id": "x", "result": {}})),
            "HTTP 200".into(),
        ))
    }

    #[test]
    fn both_served_is_no_finding() {
        let titled = Ok((
            200,
            Some(json!({"jsonrpc": "2.0", "id": "x", "result": {}})),
            "HTTP 200".into(),
        ));
        assert_eq!(judge(served(), titled), None);
    }

    #[test]
    fn refused_only_in_title_case_breaks_the_rule() {
        let refusal = json!({"jsonrpc": "2.0", "id": "x", "error": {"code": -32020, "message": "missing Mcp-Method"}});
        let titled = Ok((
            400,
            Some(refusal),
            "HTTP 400 (application/json): ...".into(),
        ));
        let note = judge(served(), titled).expect("a finding");
        assert_eq!(note.clause, Some(clauses::HTTP_HEADER_CASE));
        assert_eq!(note.severity, Severity::Defect);
        assert!(note.message.contains("must"), "{}", note.message);
        assert!(note.message.contains("HTTP 400"), "{}", note.message);
    }

    #[test]
    fn nothing_is_judged_when_lowercase_is_not_served_or_no_reply_came() {
        let refused = Ok((None, "HTTP 401".into()));
        let titled = Ok((401, None, "HTTP 401".into()));
        let note = judge(refused, titled.clone()).expect("a note");
        assert_eq!(note.severity, Severity::Info);
        let note = judge(served(), Err("no reply within 1s".into())).expect("a note");
        assert_eq!(note.severity, Severity::Info);
        let note = judge(served(), Ok((502, None, "HTTP 502".into()))).expect("a note");
        assert_eq!(note.severity, Severity::Info);
    }
}
