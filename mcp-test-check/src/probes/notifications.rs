//! What a request causes besides its response: `notifications/logging`,
//! `notifications/progress` and `notifications/server-initiated`.
//!
//! - `notifications/logging`: each tool whose base case succeeded is called again, once
//!   without `io.modelcontextprotocol/logLevel` (a 2026-07-28 server must then send no
//!   `notifications/message`), once at `debug` and once at `emergency` (a message below the
//!   level asked for is noted: the spec only permits those at or above it); a server that
//!   logs must declare `logging`; an unknown level should be -32602.
//! - `notifications/progress`: the same calls carry a fresh `progressToken` each (none on
//!   the first): a progress notification must name the token of its request, must increase,
//!   and must not come after its request completed (seen when a token of an earlier request
//!   turns up among a later request's notifications).
//! - `notifications/server-initiated`: a 2026-07-28 server sends requests to the client only
//!   through `input_required` results, never as JSON-RPC requests beside a response (on
//!   stdio the transport sees those, and `transport/hygiene` reports them), and sends
//!   `notifications/cancelled` only to end a subscription, never beside an ordinary response.
//!
//! What the notifications of one request break is [`judge`]'s, a pure function tested below.
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`CANCELLED_ONLY_SUBSCRIPTIONS`](clauses::CANCELLED_ONLY_SUBSCRIPTIONS),
//! [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE),
//! [`LOGGING_CAPABILITY`](clauses::LOGGING_CAPABILITY),
//! [`LOGGING_INVALID_LEVEL`](clauses::LOGGING_INVALID_LEVEL),
//! [`LOGGING_NOT_REQUESTED`](clauses::LOGGING_NOT_REQUESTED), [`MRTR_ONLY`](clauses::MRTR_ONLY),
//! [`PROGRESS_INCREASES`](clauses::PROGRESS_INCREASES),
//! [`PROGRESS_STOPS`](clauses::PROGRESS_STOPS), [`PROGRESS_TOKENS`](clauses::PROGRESS_TOKENS),
//! [`SCHEMA`](clauses::SCHEMA).

use crate::Shown;
use crate::checker::{Checker, Note, Out};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::{Era, Happened, VerifyReport};
use mcp_test::spec;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::INVALID_PARAMS;
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};

/// The probes of the row, in the order they are recorded.
pub(crate) const IDS: [&str; 3] = [
    "notifications/logging",
    "notifications/progress",
    "notifications/server-initiated",
];

/// The row: [`notifications`] over the cases' outcomes.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(notifications(&mut r.c, &r.report, r.declared.as_ref()))
}

/// At most this many tools are called again.
const TOOLS: usize = 5;

/// At most this many on a server the schema cases found slow to answer each request
/// ([`Checker::slow`]): how a server logs and reports progress is mostly its SDK's, the same
/// for every tool, so on a server that takes a second a request one tool says it for a
/// fifth of the time. The calls stay one at a time: over stdio a notification names no
/// request, and one in flight beside another could be taken for the other's.
const TOOLS_WHEN_SLOW: usize = 1;

/// A log level's place in the order of server/utilities/logging.mdx (the wire's
/// [`LoggingLevel`](mcp_test::wire::LoggingLevel), lowest first); `None` for no level.
fn rank(level: &str) -> Option<mcp_test::wire::LoggingLevel> {
    serde_json::from_value(Value::from(level)).ok()
}

/// One request sent, as the notifications it caused are judged.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sent {
    /// What it was, for the findings: `tool "work" at debug`.
    pub(crate) label: String,
    /// The `io.modelcontextprotocol/logLevel` it asked for.
    pub(crate) log_level: Option<String>,
    /// Its `progressToken`.
    pub(crate) token: Option<Value>,
    /// The tokens of the requests before it, all complete.
    pub(crate) earlier: Vec<Value>,
    /// Whether the server declared `logging` (`None`: not known).
    pub(crate) logging_declared: Option<bool>,
}

/// What the notifications of one request break: (logging, progress, server requests).
pub(crate) fn judge(era: Era, sent: &Sent, notes: &[Value]) -> (Out, Out, Out) {
    let (mut logging, mut progress, mut requests) = (Vec::new(), Vec::new(), Vec::new());
    let mut last: Option<f64> = None;
    let mut undeclared = false;
    for note in notes {
        let method = note.get("method").and_then(Value::as_str).unwrap_or("");
        let params = note.get("params").unwrap_or(&Value::Null);
        if note.get("id").is_some() && note.get("method").is_some() {
            // A 2025-era server may send requests; 2026-07-28 has no such message.
            if era == Era::Current {
                requests.push(Note::broke(
                    &clauses::MRTR_ONLY,
                    format!(
                        "{}: the server sent a {method} request beside the response instead of an input_required result: {note}",
                        sent.label
                    ),
                ));
            }
            continue;
        }
        match method {
            "notifications/message" => {
                if let Err(e) = spec::check_in(era, "LoggingMessageNotification", note) {
                    logging.push(Note::broke_in(
                        era,
                        &clauses::SCHEMA,
                        format!("{}: {e}", sent.label),
                    ));
                }
                if sent.logging_declared == Some(false) && !undeclared {
                    undeclared = true;
                    logging.push(Note::broke_in(
                        era,
                        &clauses::LOGGING_CAPABILITY,
                        format!(
                            "{}: the server sent notifications/message but did not declare the `logging` capability: {note}",
                            sent.label
                        ),
                    ));
                }
                let level = params.get("level").and_then(Value::as_str);
                match (&sent.log_level, era) {
                    (None, Era::Current) => logging.push(Note::broke(
                        &clauses::LOGGING_NOT_REQUESTED,
                        format!(
                            "{}: the request set no io.modelcontextprotocol/logLevel, yet the server sent {note}",
                            sent.label
                        ),
                    )),
                    (Some(asked), Era::Current) => {
                        if let (Some(got), Some(floor)) = (level.and_then(rank), rank(asked))
                            && got < floor
                        {
                            // The spec permits messages at or above the level (MAY); one
                            // below it is outside that permission, but no clause forbids it.
                            logging.push(Note::info(format!(
                                "{}: a {} message for a request that asked for {asked} and above (server/utilities/logging.mdx §Per-request log level permits messages at or above the requested level): {note}",
                                sent.label,
                                level.unwrap_or("?")
                            )));
                        }
                    }
                    _ => {}
                }
            }
            // 2026-07-28 servers cancel only subscriptions, and check opens none while an
            // ordinary request is in flight; a 2025-era server may cancel its own requests.
            "notifications/cancelled" if era == Era::Current => requests.push(Note::broke(
                &clauses::CANCELLED_ONLY_SUBSCRIPTIONS,
                format!(
                    "{}: the server sent notifications/cancelled, which it must not send but to end a subscriptions/listen stream: {note}",
                    sent.label
                ),
            )),
            "notifications/progress" => {
                if let Err(e) = spec::check_in(era, "ProgressNotification", note) {
                    progress.push(Note::broke_in(
                        era,
                        &clauses::SCHEMA,
                        format!("{}: {e}", sent.label),
                    ));
                }
                let token = params.get("progressToken").unwrap_or(&Value::Null);
                if sent.token.as_ref() == Some(token) {
                    let Some(value) = params.get("progress").and_then(Value::as_f64) else {
                        continue;
                    };
                    if let Some(before) = last
                        && value <= before
                    {
                        progress.push(Note::broke_in(
                            era,
                            &clauses::PROGRESS_INCREASES,
                            format!(
                                "{}: progress went from {before} to {value} for token {token}",
                                sent.label
                            ),
                        ));
                    }
                    last = Some(value);
                } else if sent.earlier.contains(token) {
                    progress.push(Note::broke_in(
                        era,
                        &clauses::PROGRESS_STOPS,
                        format!(
                            "{}: a progress notification for token {token}, whose request had already completed: {note}",
                            sent.label
                        ),
                    ));
                } else {
                    progress.push(Note::broke_in(
                        era,
                        &clauses::PROGRESS_TOKENS,
                        format!(
                            "{}: a progress notification for token {token}, which {}: {note}",
                            sent.label,
                            match &sent.token {
                                Some(t) => format!("is not the request's token ({t})"),
                                None => "no request sent (this one carried no progressToken)".to_owned(),
                            }
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    (logging, progress, requests)
}

/// Files what [`judge`] found in the notifications of request `id` (a `method`) under the
/// probes of logging, progress and server requests, each note on that request.
fn file(found: (Out, Out, Out), method: &str, id: i64, outs: [&mut Out; 3]) {
    let on = Some(Shown {
        method: method.to_owned(),
        id: Some(id),
    });
    let [logging, progress, requests] = outs;
    for (notes, out) in [(found.0, logging), (found.1, progress), (found.2, requests)] {
        out.extend(notes.into_iter().map(|n| n.on(on.clone())));
    }
}

/// [`Checker::req`], keeping the notifications the request caused.
async fn req_notes(
    c: &mut Checker<'_>,
    method: &str,
    params: Value,
    out: &mut Out,
) -> Option<(i64, Value, Vec<Value>)> {
    if c.dead.is_some() {
        return None;
    }
    let (id, body) = c.session.body(method, params);
    c.last = Some(Shown {
        method: method.to_owned(),
        id: Some(id),
    });
    match c.session.exchange(body).await {
        Ok((response, notes)) => {
            c.log_response(method, id, response.clone());
            Some((id, response, notes))
        }
        Err(e) => {
            out.push(c.no_answer(&format!("{method} (id {id})"), &e));
            c.after_failure(e.to_string()).await;
            None
        }
    }
}

/// The probes `notifications/logging`, `notifications/progress` and
/// `notifications/server-initiated`, over the tools whose base case succeeded.
pub(crate) async fn notifications(
    c: &mut Checker<'_>,
    report: &VerifyReport,
    declared: Option<&Value>,
) {
    let names = [
        "notifications/logging",
        "notifications/progress",
        "notifications/server-initiated",
    ];
    let mut tools: Vec<(&str, &Value)> = Vec::new();
    for o in &report.outcomes {
        if o.case.source == "rule:base"
            && matches!(o.happened, Happened::Success { .. })
            && !tools.iter().any(|(t, _)| *t == o.case.tool)
            && tools.len() < if c.slow { TOOLS_WHEN_SLOW } else { TOOLS }
        {
            tools.push((o.case.tool.as_str(), &o.case.args));
        }
    }
    if tools.is_empty() {
        for name in names {
            c.skip_probe(name, "no tool call succeeded with its base case");
        }
        return;
    }
    let modern = c.modern();
    let era = c.era;
    let logging_declared = declared.map(|d| d.get("logging").is_some_and(|v| !v.is_null()));
    let (mut logging, mut progress, mut requests) = (Vec::new(), Vec::new(), Vec::new());
    let mut earlier: Vec<Value> = Vec::new();
    for (i, (tool, args)) in tools.into_iter().enumerate() {
        let mut levels: Vec<Option<&str>> = vec![None, Some("debug")];
        if modern {
            levels.push(Some("emergency"));
        }
        for level in levels {
            let token = level.map(|l| json!(format!("mcp-test-progress-{i}-{l}")));
            let mut meta = serde_json::Map::new();
            if let Some(level) = level {
                meta.insert(meta_keys::LOG_LEVEL.to_owned(), json!(level));
            }
            if let Some(token) = &token {
                meta.insert(meta_keys::PROGRESS_TOKEN.to_owned(), token.clone());
            }
            let mut params = json!({"name": tool, "arguments": args});
            if !meta.is_empty() {
                params["_meta"] = Value::Object(meta);
            }
            let Some((id, _, notes)) = req_notes(c, "tools/call", params, &mut logging).await
            else {
                break;
            };
            let sent = Sent {
                label: match level {
                    Some(l) => format!("tool {tool:?} with logLevel {l} and a progressToken"),
                    None => format!("tool {tool:?} without logLevel or progressToken"),
                },
                log_level: level.map(str::to_owned),
                token: token.clone(),
                earlier: earlier.clone(),
                logging_declared,
            };
            let found = judge(era, &sent, &notes);
            let outs = [&mut logging, &mut progress, &mut requests];
            file(found, "tools/call", id, outs);
            earlier.extend(token);
        }
    }
    if modern {
        // A list request at debug: a server may log on any request that asks.
        let params = json!({"_meta": {meta_keys::LOG_LEVEL: "debug"}});
        if let Some((id, _, notes)) = req_notes(c, "tools/list", params, &mut logging).await {
            let sent = Sent {
                label: "tools/list with logLevel debug".to_owned(),
                log_level: Some("debug".to_owned()),
                earlier: earlier.clone(),
                logging_declared,
                ..Sent::default()
            };
            let found = judge(era, &sent, &notes);
            let outs = [&mut logging, &mut progress, &mut requests];
            file(found, "tools/list", id, outs);
        }
        // Only a server that declares `logging` is held to its error handling: one that
        // logs nothing has no levels to recognise, and may ignore the field.
        let params = json!({"_meta": {meta_keys::LOG_LEVEL: "mcp-test-no-such-level"}});
        if logging_declared == Some(true) {
            let clause = &clauses::LOGGING_INVALID_LEVEL;
            c.req_invalid_params("tools/list", params, &mut logging, clause, |got| {
                format!(
                    "tools/list with io.modelcontextprotocol/logLevel \"mcp-test-no-such-level\" should be {INVALID_PARAMS}; got {got}"
                )
            })
            .await;
        }
    } else if logging_declared == Some(true) {
        let params = json!({"level": "mcp-test-no-such-level"});
        let clause = &clauses::LOGGING_INVALID_LEVEL;
        c.req_invalid_params("logging/setLevel", params, &mut logging, clause, |got| {
            format!(
                "logging/setLevel with the level \"mcp-test-no-such-level\" should be {INVALID_PARAMS}; got {got}"
            )
        })
        .await;
    }
    c.push_probe("notifications/logging", logging);
    c.push_probe("notifications/progress", progress);
    if modern {
        c.push_probe("notifications/server-initiated", requests);
    } else {
        c.skip_probe(
            "notifications/server-initiated",
            "a 2025-era server may send requests to the client, and cancel them",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(token: &str, value: f64) -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
               "params": {"progressToken": token, "progress": value}})
    }

    fn log(level: &str) -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/message",
               "params": {"level": level, "data": "x"}})
    }

    fn ids(out: &Out) -> Vec<Option<&str>> {
        out.iter().map(|n| n.clause.map(|c| c.id)).collect()
    }

    #[test]
    fn logs_need_a_level_asked_for_and_the_capability() {
        let plain = Sent {
            logging_declared: Some(true),
            ..Sent::default()
        };
        let (l, p, r) = judge(Era::Current, &plain, &[log("info")]);
        assert_eq!(ids(&l), [Some("logging/not-requested")]);
        assert!(p.is_empty() && r.is_empty());
        // 2025-11-25 has no per-request level: nothing to hold against it.
        assert!(judge(Era::Legacy, &plain, &[log("info")]).0.is_empty());
        let asked = Sent {
            log_level: Some("error".into()),
            logging_declared: Some(false),
            ..Sent::default()
        };
        let (l, _, _) = judge(Era::Current, &asked, &[log("debug"), log("error")]);
        assert_eq!(ids(&l), [Some("logging/capability"), None]);
        let (l, _, _) = judge(Era::Legacy, &asked, &[log("debug")]);
        assert_eq!(ids(&l), [Some("legacy/logging/capability")]);
    }

    #[test]
    fn progress_names_its_token_increases_and_stops() {
        let sent = Sent {
            token: Some(json!("t2")),
            earlier: vec![json!("t1")],
            ..Sent::default()
        };
        let ok = [progress("t2", 1.0), progress("t2", 1.5)];
        assert!(judge(Era::Current, &sent, &ok).1.is_empty());
        let (_, p, _) = judge(
            Era::Current,
            &sent,
            &[
                progress("t2", 1.0),
                progress("t2", 1.0),
                progress("t1", 3.0),
                progress("zz", 1.0),
            ],
        );
        assert_eq!(
            ids(&p),
            [
                Some("progress/increasing"),
                Some("progress/stop-after-completion"),
                Some("progress/known-tokens")
            ]
        );
        let none = Sent::default();
        assert_eq!(
            ids(&judge(Era::Legacy, &none, &[progress("t", 1.0)]).1),
            [Some("legacy/progress/known-tokens")]
        );
    }

    #[test]
    fn server_requests_beside_a_response_are_2026_defects_only() {
        let request =
            json!({"jsonrpc": "2.0", "id": 9, "method": "elicitation/create", "params": {}});
        let sent = Sent::default();
        assert_eq!(
            ids(&judge(Era::Current, &sent, std::slice::from_ref(&request)).2),
            [Some("mrtr/server-requests")]
        );
        assert!(judge(Era::Legacy, &sent, &[request]).2.is_empty());
        let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                               "params": {"requestId": 3}});
        assert_eq!(
            ids(&judge(Era::Current, &sent, std::slice::from_ref(&cancelled)).2),
            [Some("cancellation/server-only-subscriptions")]
        );
        assert!(judge(Era::Legacy, &sent, &[cancelled]).2.is_empty());
    }
}
