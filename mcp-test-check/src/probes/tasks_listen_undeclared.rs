//! `tasks/listen-undeclared`: task status notifications asked for by a client that does not
//! declare the tasks extension are refused with an error naming the missing capability.
//!
//! How: for a server that declares `io.modelcontextprotocol/tasks`, it sends
//! `subscriptions/listen` with `notifications.taskIds` (a made-up task id) from a client that
//! declares no extension, and reads the answer for at most the per-call timeout. Over
//! Streamable HTTP it reads the reply itself, up to its first message, and then closes it
//! (which ends a stream on HTTP); elsewhere the session sends it (on stdio a request given up
//! on is cancelled).
//!
//! - An error with -32021 keeps the clause. Another error is a note: the server may have
//!   refused the request for another reason first (the unknown task id), which a client cannot
//!   tell apart.
//! - A stream that opens (`notifications/subscriptions/acknowledged`, any other notification)
//!   or a result breaks it.
//! - No answer within the timeout is a note: over stdio a stream that opened shows nothing
//!   before it ends.
//!
//! Clause quoted: `tasks/listen-undeclared` (ext-tasks, MUST).

use super::http_exchange::read_messages;
use crate::Shown;
use crate::checker::{Checker, Note, Out, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::tasks::EXTENSION;
use mcp_test::wire::error_codes;
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "tasks/listen-undeclared";

const METHOD: &str = "subscriptions/listen";

/// The made-up task id listened to.
const TASK_ID: &str = "mcp-test-check-listen-undeclared";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let out = probe(&mut r.c).await;
        r.c.push_probe(ID, out);
    })
}

/// What came back for the listen request.
#[derive(Debug)]
pub(crate) enum Heard {
    /// The messages of the reply up to the first (an HTTP stream), or the response.
    Messages(Vec<Value>),
    /// Nothing within the timeout.
    Silent(String),
}

async fn probe(c: &mut Checker<'_>) -> Out {
    let mut out = Vec::new();
    if c.dead.is_some() {
        return out;
    }
    let params = json!({"notifications": {"taskIds": [TASK_ID]},
        "_meta": {"io.modelcontextprotocol/clientCapabilities": {}}});
    let (id, body) = c.session.body(METHOD, params);
    let shown = Some(Shown {
        method: METHOD.to_owned(),
        id: Some(id),
    });
    c.last = shown.clone();
    let heard = match c.session.target.connection().http {
        Some(http) => match read_messages(
            &http.url,
            &http.options,
            &body,
            c.session.timeout,
            Duration::ZERO,
        )
        .await
        {
            Ok(messages) if messages.is_empty() => {
                Heard::Silent(format!("no message within {:?}", c.session.timeout))
            }
            Ok(messages) => Heard::Messages(messages),
            Err(e) => {
                out.push(c.info(format!("{METHOD} could not be read: {e}")));
                return out;
            }
        },
        None => match c.session.raw(body).await {
            Ok(response) => Heard::Messages(vec![response]),
            Err(e) if mcp_test::cases::over_limit(&e) => {
                out.push(c.info(format!("{METHOD}: {e}")));
                return out;
            }
            Err(e) => Heard::Silent(e.to_string()),
        },
    };
    out.extend(judge(&heard).into_iter().map(|n| n.on(shown.clone())));
    out
}

/// What `heard` shows; see the [module docs](self).
pub(crate) fn judge(heard: &Heard) -> Option<Note> {
    let messages = match heard {
        Heard::Silent(why) => {
            return Some(Note::info(format!(
                "{METHOD} with notifications.taskIds, from a client without {EXTENSION}, got no answer ({why}): a stream that opened would break the rule that it is refused, but silence cannot be told apart from a slow answer"
            )));
        }
        Heard::Messages(messages) => messages,
    };
    let first = messages.first()?;
    if let Some(error) = first.get("error") {
        let code = error.get("code").and_then(Value::as_i64);
        if code == Some(i64::from(error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY)) {
            return None;
        }
        return Some(Note::info(format!(
            "{METHOD} with notifications.taskIds, from a client without {EXTENSION}, was refused with {}, not {} naming the missing capability; the task id is made up, and a server may refuse it for that first",
            brief(first),
            error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY
        )));
    }
    let what = match first.get("method").and_then(Value::as_str) {
        Some(method) => format!("the stream opened ({method})"),
        None => brief(first),
    };
    Some(Note::broke(
        &clauses::TASKS_LISTEN_UNDECLARED,
        format!(
            "{METHOD} with notifications.taskIds, from a client that does not declare {EXTENSION}, was not refused: {what}; the server must return a JSON-RPC error specifying the missing capabilities"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn minus_32021_keeps_the_clause() {
        let r = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32021, "message": "no",
            "data": {"requiredCapabilities": {"extensions": {EXTENSION: {}}}}}});
        assert!(judge(&Heard::Messages(vec![r])).is_none());
    }

    #[test]
    fn another_error_or_silence_is_a_note() {
        let r = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}});
        let note = judge(&Heard::Messages(vec![r])).expect("a note");
        assert_eq!(note.severity, Severity::Info);
        let note = judge(&Heard::Silent("timed out".to_owned())).expect("a note");
        assert_eq!(note.severity, Severity::Info);
    }

    #[test]
    fn an_opened_stream_or_a_result_breaks_it() {
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 1}, "notifications": {}}});
        let result = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}});
        for first in [ack, result] {
            let note = judge(&Heard::Messages(vec![first])).expect("a finding");
            assert_eq!(note.severity, Severity::Defect);
            assert_eq!(note.clause, Some(clauses::TASKS_LISTEN_UNDECLARED));
            assert!(note.message.contains("must"), "{}", note.message);
        }
    }
}
