//! `completion/complete`, for a server that declared `completions`.
//!
//! An unknown prompt should be -32602 (server/utilities/completion.mdx §Error Handling); the
//! completions of a few listed prompt arguments and template variables are checked for a
//! consistent `total` and `hasMore` (noted: [`completion_notes`]), and, for a 2025-era server,
//! at most 100 values.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`COMPLETION_ERRORS`](clauses::COMPLETION_ERRORS).

use super::content::SAMPLE;
use crate::checker::Checker;
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::INVALID_PARAMS;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "completion/complete";

/// The row: [`completion`] over the prompts and templates listed.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(completion(&mut r.c, &r.prompts, &r.templates))
}

/// `completion/complete`, for a server that declared `completions`: an unknown prompt
/// should be -32602 (server/utilities/completion.mdx §Error Handling); the completions of
/// a few listed prompt arguments and template variables are checked for a consistent
/// `total` and `hasMore` (noted), and, for a 2025-era server, at most 100 values (the
/// 2025-11-25 schema says so in words only; 2026-07-28's `maxItems` is checked with every
/// result).
pub(crate) async fn completion(c: &mut Checker<'_>, prompts: &[Value], templates: &[Value]) {
    let mut out = Vec::new();
    let unknown = json!({"ref": {"type": "ref/prompt", "name": "mcp-test-no-such-prompt"},
                         "argument": {"name": "mcp-test", "value": ""}});
    let clause = &clauses::COMPLETION_ERRORS;
    c.req_invalid_params("completion/complete", unknown, &mut out, clause, |got| {
        format!("completing an argument of an unknown prompt: {INVALID_PARAMS} expected; got {got}")
    })
    .await;
    let mut refs = Vec::new();
    for prompt in prompts.iter().take(SAMPLE) {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        for argument in prompt
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .take(SAMPLE)
        {
            if let Some(arg) = argument.get("name").and_then(Value::as_str) {
                refs.push((json!({"type": "ref/prompt", "name": name}), arg.to_owned()));
            }
        }
    }
    for template in templates.iter().take(SAMPLE) {
        let Some(uri) = template.get("uriTemplate").and_then(Value::as_str) else {
            continue;
        };
        for variable in template_variables(uri).into_iter().take(SAMPLE) {
            refs.push((json!({"type": "ref/resource", "uri": uri}), variable));
        }
    }
    // Independent requests, sent at once (`Checker::req_each`).
    let requests = refs
        .iter()
        .map(|(reference, argument)| {
            let params = json!({"ref": reference, "argument": {"name": argument, "value": ""}});
            ("completion/complete", params)
        })
        .collect();
    let answers = c.req_each(requests, &mut out).await;
    for ((shown, answer), (reference, argument)) in answers.into_iter().zip(refs) {
        c.last = Some(shown);
        let Some(r) = answer else {
            continue;
        };
        if let Some(result) = r.get("result") {
            let what = format!("completing {argument:?} of {reference}");
            for message in completion_notes(result) {
                out.push(c.info(format!("{what}: {message}")));
            }
            let count = result
                .pointer("/completion/values")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            if !c.modern() && count > 100 {
                out.push(c.info(format!(
                    "{what}: {count} values; the 2025-11-25 schema says they must not exceed 100 items"
                )));
            }
        }
    }
    c.push_probe(ID, out);
}

/// The variable names of an RFC 6570 template (`{id}`, `{+path}`, `{?a,b}`...).
fn template_variables(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let expression = &rest[open + 1..open + close];
        let expression = expression.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for var in expression.split(',') {
            let var = var.trim_end_matches('*');
            let var = var.split(':').next().unwrap_or(var);
            if !var.is_empty() && !names.iter().any(|n| n == var) {
                names.push(var.to_owned());
            }
        }
        rest = &rest[open + close + 1..];
    }
    names
}

/// Notes on a `CompleteResult` whose `total` or `hasMore` disagree with its values (the
/// schema describes them; no clause binds them).
pub(crate) fn completion_notes(result: &Value) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(completion) = result.get("completion") else {
        return notes;
    };
    let count = completion
        .get("values")
        .and_then(Value::as_array)
        .map_or(0, Vec::len) as u64;
    let total = completion.get("total").and_then(Value::as_u64);
    let more = completion.get("hasMore").and_then(Value::as_bool);
    if let Some(total) = total
        && total < count
    {
        notes.push(format!(
            "total is {total}, fewer than the {count} values sent (total counts every option available)"
        ));
    }
    match (more, total) {
        (Some(true), Some(total)) if total <= count => notes.push(format!(
            "hasMore is true, yet total ({total}) says all {count} values were sent"
        )),
        (Some(false), Some(total)) if total > count => notes.push(format!(
            "hasMore is false, yet total ({total}) is more than the {count} values sent"
        )),
        _ => {}
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_totals_must_agree_with_the_values() {
        let ok = json!({"completion": {"values": ["a", "b"], "total": 10, "hasMore": true}});
        assert!(completion_notes(&ok).is_empty());
        let ok = json!({"completion": {"values": ["a"], "total": 1, "hasMore": false}});
        assert!(completion_notes(&ok).is_empty());
        let few = json!({"completion": {"values": ["a", "b"], "total": 1}});
        assert_eq!(completion_notes(&few).len(), 1);
        let more = json!({"completion": {"values": ["a"], "total": 1, "hasMore": true}});
        assert_eq!(completion_notes(&more).len(), 1);
        let less = json!({"completion": {"values": ["a"], "total": 5, "hasMore": false}});
        assert_eq!(completion_notes(&less).len(), 1);
    }

    #[test]
    fn template_variables_are_read_from_every_expression() {
        assert_eq!(
            template_variables("file:///{+path}{?a,b*}"),
            ["path", "a", "b"]
        );
        assert_eq!(template_variables("x://items/{id}/{id}"), ["id"]);
        assert!(template_variables("x://plain").is_empty());
    }
}
