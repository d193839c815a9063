//! `multi-round/elicitation-content`: a server validates the content of an accepted form.
//!
//! A tool the schema cases call whose base case asked for input is called again declaring
//! every client capability. When it asks with a form elicitation (`elicitation/create` in form
//! mode, a `requestedSchema` with properties), the retry accepts that form with content broken
//! in one place: a property of another type, a value outside its `enum`, or a required
//! property left out; every other question gets its synthesized answer. A server that
//! validates answers an error, an `isError` result, or asks again; one that completes the call
//! took the content as it was: client/elicitation.mdx §Form Mode Security, "Servers
//! **SHOULD** validate received data matches the requested schema"
//! ([`clauses::ELICITATION_VALIDATE`]). Only tools the schema cases call are called, with
//! their base case, and at most [`MAX_TOOLS`] of them until one asks with a form.

use super::input_responses::{answered_round, answers_with};
use crate::run::Run;
use crate::{Note, brief};
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::every_client_capability;
use mcp_test::spec::clauses;
use mcp_test::target::synthesize_answer;
use serde_json::{Map, Value, json};

pub(crate) const ID: &str = "multi-round/elicitation-content";

/// At most this many tools are called until one asks with a form.
const MAX_TOOLS: usize = 3;

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let mut out = Vec::new();
        let capabilities = every_client_capability();
        let Some((tool, broken, retry)) = answered_round(
            r,
            MAX_TOOLS,
            &capabilities,
            responses_with_one_broken,
            &mut out,
        )
        .await
        else {
            return r.c.skip_probe(
                ID,
                "no tool the cases call asked with a form elicitation whose content can be broken",
            );
        };
        let (id, body) = r.c.session.body("tools/call", retry);
        if let Some(retry) = r.c.send_unkept("tools/call", id, body, &mut out).await {
            out.extend(judge(&tool, &broken, &retry).map(|n| n.on(r.c.last.clone())));
        }
        r.c.push_probe(ID, out);
    })
}

/// The answers to an `input_required` result's questions: the first form elicitation accepted
/// with content broken in one place, every other question its synthesized answer. Also what
/// was broken, for the finding. `None` when no form can be broken or a question has no
/// synthesized answer.
fn responses_with_one_broken(result: &Value) -> Option<(Map<String, Value>, String)> {
    let mut broken = None;
    let responses = answers_with(result, |key, request| {
        if request.get("method").and_then(Value::as_str) != Some("elicitation/create")
            || request.pointer("/params/mode").and_then(Value::as_str) == Some("url")
        {
            return None;
        }
        let (content, what) = off_schema(request.pointer("/params/requestedSchema")?)?;
        broken = Some(format!("{key:?}: {what}"));
        Some(json!({"action": "accept", "content": content}))
    })?;
    Some((responses, broken?))
}

/// Content for a flat form schema, valid but in one place: the first property that can be
/// given a value of another kind gets one; failing that, a required property is left out.
fn off_schema(schema: &Value) -> Option<(Value, String)> {
    let valid = synthesize_answer(&json!({"method": "elicitation/create",
        "params": {"requestedSchema": schema}}))?;
    let mut content = valid.get("content")?.as_object()?.clone();
    let properties = schema.get("properties")?.as_object()?;
    for (name, property) in properties {
        let (wrong, what) = if property.get("enum").is_some()
            || property.get("oneOf").is_some()
            || property.get("anyOf").is_some()
        {
            (
                json!("mcp-test-not-an-option"),
                "a value none of its options allows",
            )
        } else {
            match property.get("type").and_then(Value::as_str) {
                Some("string") => (json!(7), "the number 7 for a string"),
                Some("number" | "integer") => (json!("seven"), "a string for a number"),
                Some("boolean") => (json!("yes"), "a string for a boolean"),
                Some("array") => (json!("mcp-test"), "a string for an array"),
                _ => continue,
            }
        };
        content.insert(name.clone(), wrong);
        return Some((Value::Object(content), format!("`{name}` given {what}")));
    }
    let required = schema.get("required")?.as_array()?;
    let name = required.iter().find_map(Value::as_str)?;
    content.remove(name);
    Some((
        Value::Object(content),
        format!("the required `{name}` left out"),
    ))
}

/// Judges the reply to the retry whose accepted form content was broken.
fn judge(tool: &str, broken: &str, retry: &Value) -> Option<Note> {
    let result = retry.get("result")?;
    if result.get("isError") == Some(&json!(true))
        || result.get("resultType").and_then(Value::as_str) == Some("input_required")
    {
        return None;
    }
    Some(Note::broke(
        &clauses::ELICITATION_VALIDATE,
        format!(
            "{tool}: an accepted form whose content does not match its requestedSchema ({broken}) completed the call ({}); a server should validate the content and refuse it, or ask again",
            brief(retry)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn form(schema: Value) -> Value {
        json!({"resultType": "input_required", "inputRequests": {
            "name": {"method": "elicitation/create", "params": {"mode": "form",
                     "message": "Your name?", "requestedSchema": schema}},
            "roots": {"method": "roots/list"}}})
    }

    #[test]
    fn one_place_is_broken_and_the_other_questions_answered() {
        let schema = json!({"type": "object", "required": ["name"],
            "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}});
        let (responses, broken) = responses_with_one_broken(&form(schema)).unwrap();
        assert_eq!(responses["name"]["action"], "accept");
        assert_eq!(responses["name"]["content"]["age"], "seven");
        assert!(responses["name"]["content"]["name"].is_string());
        assert_eq!(responses["roots"], json!({"roots": []}));
        assert_eq!(broken, "\"name\": `age` given a string for a number");

        let choice = json!({"type": "object",
            "properties": {"size": {"type": "string", "enum": ["S", "M"]}}});
        let (responses, _) = responses_with_one_broken(&form(choice)).unwrap();
        assert_eq!(
            responses["name"]["content"]["size"],
            "mcp-test-not-an-option"
        );
    }

    #[test]
    fn a_form_with_nothing_to_break_is_not_sent() {
        let empty = json!({"type": "object", "properties": {}});
        assert!(responses_with_one_broken(&form(empty)).is_none());
        let url = json!({"resultType": "input_required", "inputRequests": {"k": {
            "method": "elicitation/create", "params": {"mode": "url", "url": "https://x"}}}});
        assert!(responses_with_one_broken(&url).is_none());
    }

    #[test]
    fn refusing_or_asking_again_is_no_finding_and_completing_a_should() {
        let error = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "bad"}});
        assert_eq!(judge("t", "x", &error), None);
        let again = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "input_required"}});
        assert_eq!(judge("t", "x", &again), None);
        let done = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete",
            "content": [{"type": "text", "text": "Hello, 7!"}]}});
        let note = judge("t", "`name` given the number 7 for a string", &done).expect("a finding");
        assert_eq!(note.clause, Some(clauses::ELICITATION_VALIDATE));
        assert_eq!(note.severity, Severity::Warning);
        assert!(note.message.contains("should"));
    }
}
