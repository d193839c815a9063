//! `base/connection-reuse`: a 2026-07-28 server takes the retry of a multi-round request on
//! another connection than the one its first round came on.
//!
//! How (Streamable HTTP): a tool the schema cases call whose base case asked for input is
//! called again in the check's session, declaring every client capability. When it asks
//! (`input_required`), the retry, carrying its `requestState` and a synthesized answer to
//! every question, is sent over a connection of its own (a fresh HTTP client: a new TCP
//! connection, nothing sent on it before). When that retry is refused (a JSON-RPC error or an
//! `isError` result), the same two rounds are sent again, both in the session, to tell a
//! server that refuses the answers themselves from one that needs the connection: refused on
//! the new connection but served in the session, the server required that a client reuse
//! the same connection for related operations, which basic/index.mdx §Statelessness says it
//! **SHOULD NOT** ([`clauses::STATELESS_NO_REUSE`]): a warning. A reply on the new
//! connection that is no JSON-RPC message (an HTTP failure, a timeout) may have other causes:
//! a note. Over stdio another connection would be a second process, which `check` does not
//! start. Only tools the schema cases call are called, with their base case, and at most
//! [`MAX_TOOLS`] of them until one asks a question `check` can answer.

use super::input_responses::{answered_round, answers_with};
use super::stateless::first_on_a_connection;
use crate::Shown;
use crate::checker::{Note, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::every_client_capability;
use mcp_test::spec::clauses;
use serde_json::{Map, Value, json};

pub(crate) const ID: &str = "base/connection-reuse";

/// At most this many tools are called until one asks a question `check` can answer.
const MAX_TOOLS: usize = 3;

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let Some(http) = r.connection.http.clone() else {
            return;
        };
        let mut out = Vec::new();
        let capabilities = every_client_capability();
        let Some((tool, (), retry)) =
            answered_round(r, MAX_TOOLS, &capabilities, synthesized, &mut out).await
        else {
            return r.c.skip_probe(
                ID,
                "no tool the cases call asked, with every client capability, questions check can answer",
            );
        };
        let (id, body) = r.c.session.body("tools/call", retry);
        r.called.record(&body);
        let shown = Some(Shown {
            method: "tools/call".to_owned(),
            id: Some(id),
        });
        let fresh =
            first_on_a_connection(&http.url, &http.options, &body, r.c.session.timeout).await;
        // Refused on the new connection: the same rounds in the session, to compare.
        let mut in_session = None;
        if matches!(&fresh, Ok(reply) if refused(reply))
            && let Some((again, (), retry)) =
                answered_round(r, MAX_TOOLS, &capabilities, synthesized, &mut out).await
            && again == tool
        {
            let (id, body) = r.c.session.body("tools/call", retry);
            in_session = r.c.send_unkept("tools/call", id, body, &mut out).await;
        }
        out.extend(judge(&tool, &fresh, in_session.as_ref()).map(|n| n.on(shown.clone())));
        r.c.push_probe(ID, out);
    })
}

/// A synthesized answer to every question of an `input_required` result; `None` when one
/// has none.
fn synthesized(result: &Value) -> Option<(Map<String, Value>, ())> {
    answers_with(result, |_, _| None).map(|responses| (responses, ()))
}

/// Whether a reply refuses the call: a JSON-RPC error or an `isError` result.
fn refused(reply: &Value) -> bool {
    reply.get("error").is_some() || reply.pointer("/result/isError") == Some(&json!(true))
}

/// What the retry on a new connection (`fresh`) and the same rounds in the session
/// (`in_session`, sent only when `fresh` refused) show; see the [module docs](self).
fn judge(tool: &str, fresh: &Result<Value, String>, in_session: Option<&Value>) -> Option<Note> {
    match fresh {
        Err(why) => Some(Note::info(format!(
            "{tool}: the retry of its input_required round, sent on a new connection, got no JSON-RPC answer ({why}), so whether the server needs the same connection was not seen"
        ))),
        Ok(reply) if refused(reply) => {
            let served = in_session.filter(|r| r.get("result").is_some() && !refused(r))?;
            Some(Note::broke(
                &clauses::STATELESS_NO_REUSE,
                format!(
                    "{tool}: the retry of its input_required round (its requestState and answers), sent on a new connection, was refused ({}), where the same rounds on one connection were served ({}); a server should not require that a client reuse the same connection for related operations",
                    brief(reply),
                    brief(served)
                ),
            ))
        }
        Ok(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn done() -> Value {
        json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete",
            "content": [{"type": "text", "text": "confirmed"}]}})
    }

    fn error() -> Value {
        json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "unknown requestState"}})
    }

    #[test]
    fn every_question_gets_its_synthesized_answer() {
        let asked = json!({"resultType": "input_required", "requestState": "s1",
            "inputRequests": {"roots": {"method": "roots/list"}}});
        let (responses, ()) = synthesized(&asked).expect("answers");
        assert_eq!(responses["roots"], json!({"roots": []}));
        let unanswerable = json!({"resultType": "input_required",
            "inputRequests": {"k": {"method": "other/thing"}}});
        assert!(synthesized(&unanswerable).is_none());
    }

    #[test]
    fn served_on_the_new_connection_or_refused_on_both_is_no_finding() {
        assert!(judge("t", &Ok(done()), None).is_none());
        assert!(judge("t", &Ok(error()), Some(&error())).is_none());
        let is_error = json!({"jsonrpc": "2.0", "id": 4, "result": {"resultType": "complete",
            "isError": true, "content": []}});
        assert!(judge("t", &Ok(error()), Some(&is_error)).is_none());
        // The rounds in the session could not be sent.
        assert!(judge("t", &Ok(error()), None).is_none());
    }

    #[test]
    fn refused_only_on_the_new_connection_is_a_should_not() {
        let note = judge("t", &Ok(error()), Some(&done())).expect("a finding");
        assert_eq!(note.clause, Some(clauses::STATELESS_NO_REUSE));
        assert_eq!(note.severity, Severity::Warning);
        assert!(note.message.contains("should not"), "{}", note.message);
    }

    #[test]
    fn no_answer_on_the_new_connection_is_a_note() {
        let note = judge("t", &Err("HTTP 502".to_owned()), None).expect("a note");
        assert_eq!(note.severity, Severity::Info);
    }
}
