//! `multi-round/input-responses`: a server validates the `inputResponses` of a retry.
//!
//! The first tool whose base case (`rule:base`) asked for input, or answered -32021, is
//! called again with that base case declaring every client capability; when it asks
//! (`input_required`), the retry carries its `requestState` and, as `inputResponses`, a
//! string: not an `InputResponses` object. A server that validates it answers an error, an
//! `isError` result, or asks again; one that completes the call took it for answers:
//! basic/patterns/mrtr.mdx §Error Handling, "Servers **SHOULD** validate that the data
//! provided by the client is a valid `InputResponses` object"
//! ([`clauses::MRTR_VALIDATE_RESPONSES`]). Only a tool the schema cases call is called, with
//! its base case.

use crate::run::Run;
use crate::{Note, Out, brief};
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::{Happened, every_client_capability};
use mcp_test::spec::clauses;
use mcp_test::target::synthesize_answer;
use mcp_test::wire::meta_keys;
use serde_json::{Map, Value, json};

pub(crate) const ID: &str = "multi-round/input-responses";

/// What the retry carries as `inputResponses`.
const NOT_RESPONSES: &str = "mcp-test: not an InputResponses object";

/// The tools whose base case asked for input or answered -32021, with its arguments.
pub(crate) fn asking_calls(r: &Run<'_>) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    for o in &r.report.outcomes {
        if o.case.source == "rule:base"
            && matches!(
                o.happened,
                Happened::InputRequired | Happened::NeedsCapabilities { .. }
            )
            && !out.iter().any(|(t, _)| *t == o.case.tool)
        {
            out.push((o.case.tool.clone(), o.case.args.clone().into_value()));
        }
    }
    out
}

/// The first tool that asked (of the first `max` of [`asking_calls`]) whose `input_required`
/// round, called again in the session declaring `capabilities`, `answer` can answer: the
/// tool, what `answer` tells of its answers, and the params of the retry (the answers as
/// `inputResponses`, with the round's `requestState`). The rounds are not kept for the
/// results and errors probes: `multi-round/driven` judges the rounds of the same calls.
pub(crate) async fn answered_round<T>(
    r: &mut Run<'_>,
    max: usize,
    capabilities: &Value,
    answer: impl Fn(&Value) -> Option<(Map<String, Value>, T)>,
    out: &mut Out,
) -> Option<(String, T, Value)> {
    for (tool, arguments) in asking_calls(r).into_iter().take(max) {
        if r.c.dead.is_some() {
            break;
        }
        let mut params = json!({
            "name": tool,
            "arguments": arguments,
            "_meta": {meta_keys::CLIENT_CAPABILITIES: capabilities},
        });
        let (id, body) = r.c.session.body("tools/call", params.clone());
        let Some(first) = r.c.send_unkept("tools/call", id, body, out).await else {
            continue;
        };
        let result = first.get("result").unwrap_or(&Value::Null);
        if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
            continue;
        }
        let Some((responses, told)) = answer(result) else {
            continue;
        };
        params["inputResponses"] = Value::Object(responses);
        if let Some(state) = result.get("requestState") {
            params["requestState"] = state.clone();
        }
        return Some((tool, told, params));
    }
    None
}

/// The answers to every question of an `input_required` result: the first question `take`
/// answers gets that answer, every other its synthesized one. `None` when the result asks
/// nothing or a question has no synthesized answer.
pub(crate) fn answers_with(
    result: &Value,
    mut take: impl FnMut(&str, &Value) -> Option<Value>,
) -> Option<Map<String, Value>> {
    let mut responses = Map::new();
    let mut taken = false;
    for (key, request) in result.get("inputRequests")?.as_object()? {
        let answer = match (!taken).then(|| take(key, request)).flatten() {
            Some(answer) => {
                taken = true;
                answer
            }
            None => synthesize_answer(request)?,
        };
        responses.insert(key.clone(), answer);
    }
    Some(responses)
}

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let mut out = Vec::new();
        if let Some((tool, arguments)) = asking_calls(r).into_iter().next() {
            let mut params = json!({
                "name": tool,
                "arguments": arguments,
                "_meta": {meta_keys::CLIENT_CAPABILITIES: every_client_capability()},
            });
            // Not kept for the results and errors probes: the rounds are `multi-round/driven`'s
            // to judge, as it drives the same calls.
            let (id, body) = r.c.session.body("tools/call", params.clone());
            if let Some(first) = r.c.send_unkept("tools/call", id, body, &mut out).await {
                let result = first.get("result").unwrap_or(&Value::Null);
                if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
                    params["inputResponses"] = json!(NOT_RESPONSES);
                    if let Some(state) = result.get("requestState") {
                        params["requestState"] = state.clone();
                    }
                    let (id, body) = r.c.session.body("tools/call", params);
                    if let Some(retry) = r.c.send_unkept("tools/call", id, body, &mut out).await {
                        out.extend(judge(&tool, &retry).map(|n| n.on(r.c.last.clone())));
                    }
                } else {
                    out.push(r.c.info(format!(
                        "{tool}, called with every client capability, did not ask this time ({}), so no retry was sent",
                        brief(&first)
                    )));
                }
            }
        }
        r.c.push_probe(ID, out);
    })
}

/// Judges the reply to the retry whose `inputResponses` was a string.
fn judge(tool: &str, retry: &Value) -> Option<Note> {
    let result = retry.get("result")?;
    if result.get("isError") == Some(&json!(true))
        || result.get("resultType").and_then(Value::as_str) == Some("input_required")
    {
        return None;
    }
    Some(Note::broke(
        &clauses::MRTR_VALIDATE_RESPONSES,
        format!(
            "{tool}: a retry whose inputResponses is a string, not an InputResponses object, completed ({}); a server should validate the input responses and refuse them, or ask again",
            brief(retry)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn refusing_or_asking_again_is_no_finding() {
        let error = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "inputResponses must be an object"}});
        assert_eq!(judge("t", &error), None);
        let again = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "input_required", "inputRequests": {}}});
        assert_eq!(judge("t", &again), None);
        let failed = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "isError": true, "content": []}});
        assert_eq!(judge("t", &failed), None);
    }

    #[test]
    fn completing_is_a_should() {
        let done = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "content": [{"type": "text", "text": "ok"}]}});
        let note = judge("t", &done).expect("a finding");
        assert_eq!(note.clause, Some(clauses::MRTR_VALIDATE_RESPONSES));
        assert_eq!(note.severity, Severity::Warning);
        assert!(note.message.contains("should"));
    }
}
