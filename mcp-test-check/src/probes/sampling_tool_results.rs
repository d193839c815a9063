//! `multi-round/sampling-tool-results`: a server answers a sampling tool use with tool results.
//!
//! A tool the schema cases call whose base case asked for input is called again declaring
//! every client capability and `sampling.tools`. When it asks for sampling with tools (a
//! `sampling/createMessage` whose `tools` is not empty), the retry answers that request as a
//! model that wants a tool: an assistant message with one `tool_use` ([`USE_ID`], the first
//! tool offered, no input) and `stopReason: "toolUse"`; every other question gets its
//! synthesized answer. When the next round asks for sampling again with that tool use among
//! its messages, the message after it must be a user message of `tool_result`s only, one of
//! them for [`USE_ID`]: client/sampling.mdx §Security Considerations, "Servers **MUST** ensure
//! that when replying to a `stopReason: "toolUse"`, each `ToolUseContent` item is responded to
//! with a `ToolResultContent` item with a matching `toolUseId`, and that the user message
//! contains only tool results" ([`clauses::SAMPLING_TOOL_RESULTS`]). A next round that
//! completes, asks something else, or starts a conversation without the tool use is not
//! judged. Only tools the schema cases call are called, with their base case, and at most
//! [`MAX_TOOLS`] of them until one asks for sampling with tools.

use super::input_responses::{answered_round, answers_with};
use crate::run::Run;
use crate::{Note, Out};
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::every_client_capability;
use mcp_test::spec::clauses;
use serde_json::{Map, Value, json};

pub(crate) const ID: &str = "multi-round/sampling-tool-results";

/// The id of the tool use the probe's answer asks for.
pub(crate) const USE_ID: &str = "mcp-test-tool-use-1";

/// At most this many tools are called until one asks for sampling with tools.
const MAX_TOOLS: usize = 3;

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let mut capabilities = every_client_capability();
        capabilities["sampling"]["tools"] = json!({});
        let mut out = Vec::new();
        let with_tool_use = |result: &Value| responses_with_tool_use(result).map(|r| (r, ()));
        let Some((tool, (), retry)) =
            answered_round(r, MAX_TOOLS, &capabilities, with_tool_use, &mut out).await
        else {
            return r.c.skip_probe(
                ID,
                "no tool the cases call asked a client that declares sampling.tools for sampling with tools",
            );
        };
        let (id, body) = r.c.session.body("tools/call", retry);
        if let Some(retry) = r.c.send_unkept("tools/call", id, body, &mut out).await {
            let last = r.c.last.clone();
            out.extend(judge(&tool, &retry).into_iter().map(|n| n.on(last.clone())));
        }
        r.c.push_probe(ID, out);
    })
}

/// The answers to an `input_required` result's questions: the first sampling request with
/// tools answered with a tool use ([`tool_use`]), every other question its synthesized
/// answer. `None` when no request samples with tools or a question has no synthesized answer.
fn responses_with_tool_use(result: &Value) -> Option<Map<String, Value>> {
    let mut used = false;
    let responses = answers_with(result, |_, request| {
        if request.get("method").and_then(Value::as_str) != Some("sampling/createMessage") {
            return None;
        }
        let name = request.pointer("/params/tools/0/name")?.as_str()?;
        used = true;
        Some(tool_use(name))
    })?;
    used.then_some(responses)
}

/// A model's answer that calls `tool`: a `CreateMessageResult` with one `tool_use`.
fn tool_use(tool: &str) -> Value {
    json!({"role": "assistant", "model": "mcp-test", "stopReason": "toolUse",
        "content": [{"type": "tool_use", "id": USE_ID, "name": tool, "input": {}}]})
}

/// A message's content as a list (a single block is one).
fn blocks(message: &Value) -> Vec<&Value> {
    match message.get("content") {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(one) => vec![one],
        None => Vec::new(),
    }
}

/// Judges the round after the tool use; see the [module docs](self).
fn judge(tool: &str, retry: &Value) -> Out {
    let mut out = Vec::new();
    let Some(requests) = retry
        .pointer("/result/inputRequests")
        .and_then(Value::as_object)
    else {
        return out;
    };
    for (key, request) in requests {
        if request.get("method").and_then(Value::as_str) != Some("sampling/createMessage") {
            continue;
        }
        let Some(messages) = request
            .pointer("/params/messages")
            .and_then(Value::as_array)
        else {
            continue;
        };
        let used = |m: &Value| {
            m.get("role").and_then(Value::as_str) == Some("assistant")
                && blocks(m).iter().any(|b| {
                    b.get("type").and_then(Value::as_str) == Some("tool_use")
                        && b.get("id").and_then(Value::as_str) == Some(USE_ID)
                })
        };
        let Some(at) = messages.iter().position(used) else {
            continue;
        };
        let wrong = match messages.get(at + 1) {
            None => Some("no message follows it".to_owned()),
            Some(next) if next.get("role").and_then(Value::as_str) != Some("user") => {
                Some(format!(
                    "the message after it has role {}",
                    next.get("role").unwrap_or(&Value::Null)
                ))
            }
            Some(next) => {
                let content = blocks(next);
                let others: Vec<&str> = content
                    .iter()
                    .map(|b| b.get("type").and_then(Value::as_str).unwrap_or("?"))
                    .filter(|t| *t != "tool_result")
                    .collect();
                let answered = content.iter().any(|b| {
                    b.get("type").and_then(Value::as_str) == Some("tool_result")
                        && b.get("toolUseId").and_then(Value::as_str) == Some(USE_ID)
                });
                if !others.is_empty() {
                    Some(format!(
                        "the user message after it holds {} content{}",
                        others.join(", "),
                        if answered {
                            " beside its tool result"
                        } else {
                            ", and no tool result for it"
                        }
                    ))
                } else if !answered {
                    Some(format!(
                        "no tool_result in the user message after it has toolUseId {USE_ID:?}"
                    ))
                } else {
                    None
                }
            }
        };
        if let Some(wrong) = wrong {
            out.push(Note::broke(
                &clauses::SAMPLING_TOOL_RESULTS,
                format!(
                    "{tool}: answered a sampling request with stopReason \"toolUse\" (tool_use {USE_ID:?}); the next round's sampling request {key:?} carries that tool use, but {wrong}; each tool use must be answered with a tool_result of a matching toolUseId, in a user message of tool results only"
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn asked() -> Value {
        json!({"resultType": "input_required", "inputRequests": {
            "ok": {"method": "elicitation/create", "params": {"mode": "form",
                "message": "Go?", "requestedSchema": {"type": "object",
                    "properties": {"ok": {"type": "boolean"}}}}},
            "lookup": {"method": "sampling/createMessage", "params": {"maxTokens": 50,
                "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
                "tools": [{"name": "find", "inputSchema": {"type": "object"}}]}}}})
    }

    fn next_round(after: Value) -> Value {
        let mut messages = vec![
            json!({"role": "user", "content": {"type": "text", "text": "Hi"}}),
            json!({"role": "assistant", "content": [{"type": "tool_use", "id": USE_ID,
                "name": "find", "input": {}}]}),
        ];
        if !after.is_null() {
            messages.push(after);
        }
        json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "input_required",
            "inputRequests": {"lookup-2": {"method": "sampling/createMessage",
                "params": {"maxTokens": 50, "messages": messages}}}}})
    }

    #[test]
    fn the_sampling_with_tools_is_answered_with_a_tool_use() {
        let responses = responses_with_tool_use(&asked()).expect("answers");
        assert_eq!(responses["lookup"]["stopReason"], "toolUse");
        assert_eq!(responses["lookup"]["content"][0]["name"], "find");
        assert_eq!(responses["ok"]["action"], "accept");
        let no_tools = json!({"resultType": "input_required", "inputRequests": {
            "s": {"method": "sampling/createMessage", "params": {"maxTokens": 5,
                "messages": []}}}});
        assert!(responses_with_tool_use(&no_tools).is_none());
    }

    #[test]
    fn tool_results_only_or_no_such_round_is_no_finding() {
        let results = json!({"role": "user", "content": [{"type": "tool_result",
            "toolUseId": USE_ID, "content": [{"type": "text", "text": "found"}]}]});
        assert!(judge("t", &next_round(results)).is_empty());
        let done = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete",
            "content": []}});
        assert!(judge("t", &done).is_empty());
        // A sampling request without the tool use: another conversation, not judged.
        let other = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "input_required",
            "inputRequests": {"s": {"method": "sampling/createMessage", "params": {
                "maxTokens": 5, "messages": [{"role": "user",
                    "content": {"type": "text", "text": "Again"}}]}}}}});
        assert!(judge("t", &other).is_empty());
    }

    #[test]
    fn text_beside_or_instead_of_the_result_breaks_the_clause() {
        let text = json!({"role": "user", "content": {"type": "text", "text": "found"}});
        let mixed = json!({"role": "user", "content": [
            {"type": "tool_result", "toolUseId": USE_ID, "content": []},
            {"type": "text", "text": "and more"}]});
        let other_id = json!({"role": "user", "content": [
            {"type": "tool_result", "toolUseId": "another", "content": []}]});
        for (after, says) in [
            (text, "text content"),
            (mixed, "text content"),
            (other_id, "no tool_result"),
            (Value::Null, "no message follows"),
        ] {
            let notes = judge("t", &next_round(after));
            assert_eq!(notes.len(), 1, "{says}");
            assert_eq!(notes[0].clause, Some(clauses::SAMPLING_TOOL_RESULTS));
            assert_eq!(notes[0].severity, Severity::Defect);
            assert!(notes[0].message.contains(says), "{}", notes[0].message);
        }
    }
}
