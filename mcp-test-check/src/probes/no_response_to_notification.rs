//! `base/no-response-to-notification`: a notification gets no response.
//!
//! How: the probe sends `notifications/cancelled` for a request id never sent (a notification
//! every server knows, which changes nothing: the spec lets a receiver ignore a cancellation of
//! no request in flight), then a request that changes nothing (`server/discover` of a
//! 2026-07-28 server, `ping` of a 2025-era one), and judges what came back before that
//! request's answer. Nothing waits longer than the request's own timeout.
//!
//! - A reply the transport hands back for the notification itself (an HTTP 2xx with a JSON-RPC
//!   response in its body, an in-process server's response) breaks the clause. An HTTP error
//!   status with a JSON-RPC error body does not: Streamable HTTP allows it for a notification
//!   the server cannot accept.
//! - On stdio, a reply to the notification comes before the request's answer, and the client
//!   takes a reply without the request's id for the request in flight: an answer under another
//!   id followed by a second answer under the request's id shows that the server answered the
//!   notification, and so does a reply under null to no request in flight (the reply came
//!   before the request went out; a late reply to an earlier request carries its id). An
//!   answer under another id alone, or a reply under an id to no request in flight, may also
//!   be a wrong id or a late reply to something else: a note.
//!
//! Clauses quoted: `base/no-response-to-notification` (2026-07-28, MUST NOT) and, for a
//! 2025-era server, `legacy/base/no-response-to-notification` (2025-11-25, MUST NOT).

use crate::Shown;
use crate::checker::{Checker, Note, Out, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::Caller;
use mcp_test::cases::Era;
use mcp_test::spec::clauses;
use mcp_test::target::{Target, TransportEvent};
use serde_json::{Value, json};

pub(crate) const ID: &str = "base/no-response-to-notification";

/// The `reason` of the notification, so a reader of a server's log sees what it was.
pub(crate) const REASON: &str =
    "mcp-test check: cancels no request in flight, to see that a notification gets no response";

/// The notification sent.
const METHOD: &str = "notifications/cancelled";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let out = probe(&mut r.c).await;
        r.c.push_probe(ID, out);
    })
}

/// What the probe saw: the notification's exchange and the request that followed it.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// The HTTP status of the notification's reply, when over HTTP.
    pub status: Option<u16>,
    /// A response the transport handed back for the notification.
    pub direct: Option<Value>,
    /// The request sent after it: method and id.
    pub follow_method: String,
    pub follow_id: i64,
    /// Its answer, as the client matched it.
    pub follow: Option<Value>,
    /// The transport events from the notification on (replies to no request in flight,
    /// second replies).
    pub events: Vec<TransportEvent>,
}

async fn probe(c: &mut Checker<'_>) -> Out {
    let mut out = Vec::new();
    if c.dead.is_some() {
        return out;
    }
    // An id this session never sends: the notification cancels nothing.
    let never_sent = c.session.next_id();
    let notification = json!({"jsonrpc": "2.0", "method": METHOD,
        "params": {"requestId": never_sent, "reason": REASON}});
    let before = c.session.target.connection().events.len();
    c.last = Some(Shown {
        method: METHOD.to_owned(),
        id: None,
    });
    let mut seen = Seen::default();
    match Target::send(&c.session, &notification, &Caller::default()).await {
        Ok(exchange) => {
            seen.status = exchange.status;
            seen.direct = exchange.response;
        }
        Err(e) => {
            out.push(c.info(format!(
                "{METHOD} (a notification) could not be sent, so this was not checked: {e}"
            )));
            return out;
        }
    }
    let follow = if c.modern() {
        "server/discover"
    } else {
        "ping"
    };
    let (id, body) = c.session.body(follow, json!({}));
    seen.follow_method = follow.to_owned();
    seen.follow_id = id;
    // Not kept for the results and errors probes: an answer here may be the reply to the
    // notification, which this probe judges.
    seen.follow = c.send_unkept(follow, id, body.clone(), &mut out).await;
    if seen
        .follow
        .as_ref()
        .is_some_and(|f| f.get("id") != Some(&json!(id)))
    {
        // The request's own answer comes after the reply taken for it: one more request that
        // changes nothing lets the client read it.
        let (id2, body2) = c.session.body(follow, json!({}));
        let _ = c.send_unkept(follow, id2, body2, &mut out).await;
    }
    seen.events = c
        .session
        .target
        .connection()
        .events
        .into_iter()
        .skip(before)
        .collect();
    let shown = Some(Shown {
        method: METHOD.to_owned(),
        id: None,
    });
    let found = judge(c.era, &seen);
    if found.iter().any(|n| n.clause.is_some()) {
        // The replies this probe called a response to its notification are judged here, not
        // again by `transport/hygiene` as replies to no request in flight.
        c.judged_events
            .extend(answering(&seen).into_iter().map(|i| before + i));
    }
    out.extend(found.into_iter().map(|n| n.on(shown.clone())));
    out
}

/// The events of `seen` that [`judge`] takes for the server answering the notification: a
/// reply under the follow-up request's id after the answer the client matched to it, or a
/// reply under null to no request in flight (indices into `seen.events`).
fn answering(seen: &Seen) -> Vec<usize> {
    let follow_id = seen.follow_id.to_string();
    let mismatched = seen
        .follow
        .as_ref()
        .is_some_and(|f| f.get("id") != Some(&json!(seen.follow_id)));
    seen.events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            if mismatched {
                reply_under(e, &follow_id)
            } else {
                matches!(e, TransportEvent::UnmatchedReply { id, .. } if id == "null")
            }
        })
        .map(|(i, _)| i)
        .collect()
}

/// Whether `event` is a reply under `id` (JSON text) to no request in flight, or a second one.
fn reply_under(event: &TransportEvent, id: &str) -> bool {
    match event {
        TransportEvent::UnmatchedReply { id: got, .. }
        | TransportEvent::DuplicateReply { id: got, .. } => got == id,
        _ => false,
    }
}

/// What `seen` shows about the server; see the [module docs](self).
pub(crate) fn judge(era: Era, seen: &Seen) -> Vec<Note> {
    let clause = &clauses::NO_RESPONSE_TO_NOTIFICATION;
    let mut out = Vec::new();
    if let Some(reply) = &seen.direct {
        match seen.status {
            // Streamable HTTP: a notification the server cannot accept is an HTTP error
            // status, whose body may be a JSON-RPC error response.
            Some(status) if !(200..300).contains(&status) => out.push(Note::info(format!(
                "{METHOD} (a notification) was refused with HTTP {status} and {}",
                brief(reply)
            ))),
            _ => out.push(Note::broke_in(
                era,
                clause,
                format!(
                    "the server answered {METHOD}, a notification, with a response ({}); a notification must not get a response",
                    brief(reply)
                ),
            )),
        }
        return out;
    }
    let follow_id = seen.follow_id.to_string();
    if let Some(follow) = &seen.follow
        && follow.get("id") != Some(&json!(seen.follow_id))
    {
        let got = follow.get("id").unwrap_or(&Value::Null);
        if seen.events.iter().any(|e| reply_under(e, &follow_id)) {
            out.push(Note::broke_in(
                era,
                clause,
                format!(
                    "after {METHOD} (a notification) a reply under id {got} ({}) came before the answer to {} (id {follow_id}), which came after it: the server answered the notification, and a notification must not get a response",
                    brief(follow),
                    seen.follow_method
                ),
            ));
        } else {
            out.push(Note::info(format!(
                "after {METHOD} (a notification) the answer to {} (id {follow_id}) came under id {got} ({}): a reply to the notification or an answer under the wrong id, which this client cannot tell apart",
                seen.follow_method,
                brief(follow)
            )));
        }
        return out;
    }
    for event in &seen.events {
        if let TransportEvent::UnmatchedReply { id, line } = event
            && id != &follow_id
        {
            // A reply under null, to no request in flight, right after the notification: a
            // late reply to an earlier request carries that request's id (and a request given
            // up on is ignored by the client), so this answers the notification.
            if id == "null" {
                out.push(Note::broke_in(
                    era,
                    clause,
                    format!(
                        "right after {METHOD} (a notification), with no request in flight, the server sent a reply under id null ({line}): it answered the notification, and a notification must not get a response"
                    ),
                ));
            } else {
                out.push(Note::info(format!(
                    "after {METHOD} (a notification) a reply to no request in flight came (id {id}: {line}); it may answer the notification, or be a late reply to an earlier request"
                )));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn seen(direct: Option<Value>, follow: Value, events: Vec<TransportEvent>) -> Seen {
        Seen {
            status: None,
            direct,
            follow_method: "server/discover".to_owned(),
            follow_id: 7,
            follow: Some(follow),
            events,
        }
    }

    fn answer(id: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete"}})
    }

    /// The one note `found` holds, which is of `severity`.
    #[track_caller]
    fn only(found: &[Note], severity: Severity) -> &Note {
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].severity, severity);
        &found[0]
    }

    /// `found` is one defect of the clause, saying what must not be.
    #[track_caller]
    fn breaks_the_clause(found: &[Note]) {
        let note = only(found, Severity::Defect);
        assert_eq!(note.clause, Some(clauses::NO_RESPONSE_TO_NOTIFICATION));
        assert!(note.message.contains("must not"), "{}", note.message);
    }

    #[test]
    fn no_reply_before_the_requests_answer_is_fine() {
        assert!(judge(Era::Current, &seen(None, answer(json!(7)), Vec::new())).is_empty());
    }

    #[test]
    fn a_reply_to_the_notification_breaks_the_clause() {
        let reply = json!({"jsonrpc": "2.0", "id": null, "result": {}});
        let found = judge(
            Era::Current,
            &seen(Some(reply), answer(json!(7)), Vec::new()),
        );
        breaks_the_clause(&found);
        // A 2025-era server is held to the 2025-11-25 twin.
        let reply = json!({"jsonrpc": "2.0", "id": null, "result": {}});
        let found = judge(
            Era::Legacy,
            &seen(Some(reply), answer(json!(7)), Vec::new()),
        );
        assert_eq!(
            found[0].clause,
            Some(clauses::LEGACY_NO_RESPONSE_TO_NOTIFICATION)
        );
    }

    #[test]
    fn an_http_error_status_with_an_error_body_is_allowed() {
        let reply = json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "no"}});
        let mut s = seen(Some(reply), answer(json!(7)), Vec::new());
        s.status = Some(400);
        let found = judge(Era::Current, &s);
        only(&found, Severity::Info);
        s.status = Some(200);
        assert_eq!(judge(Era::Current, &s)[0].severity, Severity::Defect);
    }

    #[test]
    fn a_reply_taken_for_the_request_then_its_own_answer_breaks_the_clause() {
        let second = TransportEvent::DuplicateReply {
            id: "7".to_owned(),
            line: "{\"id\":7}".to_owned(),
        };
        let found = judge(Era::Current, &seen(None, answer(Value::Null), vec![second]));
        breaks_the_clause(&found);
    }

    #[test]
    fn what_could_be_something_else_is_a_note() {
        // An answer under another id, and no second answer: maybe only a wrong id.
        let found = judge(Era::Current, &seen(None, answer(Value::Null), Vec::new()));
        only(&found, Severity::Info);
        // A reply to no request in flight under an id: maybe a late reply to something earlier.
        let stray = TransportEvent::UnmatchedReply {
            id: "3".to_owned(),
            line: "{}".to_owned(),
        };
        let found = judge(Era::Current, &seen(None, answer(json!(7)), vec![stray]));
        only(&found, Severity::Info);
    }

    /// On stdio a reply to the notification that comes before the next request is a reply
    /// under null to no request in flight: the notification was answered.
    #[test]
    fn a_null_reply_to_no_request_right_after_the_notification_breaks_the_clause() {
        let stray = TransportEvent::UnmatchedReply {
            id: "null".to_owned(),
            line: r#"{"jsonrpc":"2.0","id":null,"result":{}}"#.to_owned(),
        };
        let found = judge(Era::Current, &seen(None, answer(json!(7)), vec![stray]));
        breaks_the_clause(&found);
    }

    /// The replies taken for an answer to the notification are the ones `transport/hygiene`
    /// must leave alone; another stray reply stays its to judge.
    #[test]
    fn the_replies_that_answer_the_notification_are_named() {
        let null = TransportEvent::UnmatchedReply {
            id: "null".to_owned(),
            line: "{}".to_owned(),
        };
        let other = TransportEvent::UnmatchedReply {
            id: "3".to_owned(),
            line: "{}".to_owned(),
        };
        let s = seen(None, answer(json!(7)), vec![other.clone(), null]);
        assert_eq!(answering(&s), vec![1]);
        // The client took the null reply for the follow-up's answer: its real answer, under
        // its id, came after.
        let late = TransportEvent::UnmatchedReply {
            id: "7".to_owned(),
            line: "{}".to_owned(),
        };
        let s = seen(None, answer(Value::Null), vec![other, late]);
        assert_eq!(answering(&s), vec![1]);
    }
}
