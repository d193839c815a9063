//! `tools/name-case`: a tool called by its name in another case (`add` as `ADD`).
//!
//! The first tool with a valid case, whose other-case name matches no other listed tool, is
//! called by that name with the case's arguments; a success means the server does not treat
//! tool names as case-sensitive (server/tools.mdx §Tool Names). Only a tool `check` may call
//! has cases, so the call can reach no other. A success whose text says the tool is unknown
//! (`Error: Unknown tool: READ_QUERY`, `tool "X" not found`) is the server refusing the name
//! in a result rather than an error: it did not run the tool ([`judge`]).
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`TOOL_NAME_CASE`](clauses::TOOL_NAME_CASE).

use crate::checker::{Checker, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::{Case, Expectation, Happened};
use mcp_test::spec::clauses;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "tools/name-case";

/// The row: [`name_case`] over the tools listed and the cases derived.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(name_case(&mut r.c, &r.listed, &r.cases))
}

/// `tools/name-case`: the first tool with a valid case, called by its name in another
/// case (`add` as `ADD`) with that case's arguments; a success means the server does not
/// consider names case-sensitive (server/tools.mdx §Tool Names). `listed` are the names
/// of every listed tool: a tool whose other-case name matches another listed tool,
/// ignoring case, is not tried, so the call can only reach the tool the check may call.
pub(crate) async fn name_case(c: &mut Checker<'_>, listed: &[String], cases: &[Case]) {
    let mut out = Vec::new();
    let candidate = cases.iter().find_map(|case| {
        if case.expectation != Expectation::Success {
            return None;
        }
        let variant = other_case(&case.tool)?;
        let clash = listed
            .iter()
            .filter(|n| n.eq_ignore_ascii_case(&case.tool))
            .count();
        (clash == 1).then_some((case, variant))
    });
    let Some((case, variant)) = candidate else {
        return c.skip_probe(
            ID,
            "no tool the check may call has a valid case and a name with letters",
        );
    };
    let params = json!({"name": variant, "arguments": case.args});
    if let Some(r) = c.req("tools/call", params, &mut out).await {
        match judge(&variant, &r) {
            Verdict::Refused => {}
            Verdict::RefusedInResult(text) => out.push(c.info(format!(
                "calling {variant:?}, a tool it does not list, answered a result whose text says the tool is unknown ({text:?}): the name was refused, in a result rather than an error (server/tools.mdx §Error Handling lists an unknown tool among the protocol errors)"
            ))),
            Verdict::Unsure(text) => out.push(c.info(format!(
                "calling {variant:?}, a tool it does not list, answered a result that reads like an error ({text:?}), so whether it ran {:?} cannot be told (server/tools.mdx §Tool Names)",
                case.tool
            ))),
            Verdict::Ran => out.push(c.broke(
                &clauses::TOOL_NAME_CASE,
                format!(
                    "calling {variant:?}, a tool it does not list, ran its tool {:?} ({}): the name was not considered case-sensitive",
                    case.tool,
                    brief(&r)
                ),
            )),
        }
    }
    c.push_probe(ID, out);
}

/// What the answer to a call of a tool by its name in another case says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A JSON-RPC error, a tool error, or no result: the tool did not run.
    Refused,
    /// A success (or input request) whose text says the tool is unknown: refused, in a result.
    RefusedInResult(String),
    /// A success whose text reads like an error, without saying the tool is unknown: whether
    /// the tool ran cannot be told.
    Unsure(String),
    /// A success (or an input request) that says nothing of an error: the tool ran.
    Ran,
}

/// Judges `response`, the answer to a `tools/call` of `variant` (a listed tool's name in
/// another case). Conservative: a success counts as the tool running only when its text says
/// nothing of an unknown tool or an error.
pub(crate) fn judge(variant: &str, response: &Value) -> Verdict {
    if !matches!(
        Happened::from_response(response),
        Happened::Success { .. } | Happened::InputRequired
    ) {
        return Verdict::Refused;
    }
    let text = texts(response);
    let lower = text.to_lowercase();
    let unknown = [
        "unknown tool",
        "unknown_tool",
        "no such tool",
        "tool not found",
        "invalid tool",
        "tool does not exist",
        "tool doesn't exist",
    ];
    let about_it = [
        "unknown",
        "not found",
        "no such",
        "does not exist",
        "doesn't exist",
        "not exist",
        "not registered",
        "not available",
        "not recognized",
        "not recognised",
        "not supported",
    ];
    let names_it = lower.contains(&variant.to_lowercase());
    let shown = mcp_test::cases::shorten(&text, 160);
    if unknown.iter().any(|w| lower.contains(w))
        || (names_it && about_it.iter().any(|w| lower.contains(w)))
    {
        return Verdict::RefusedInResult(shown);
    }
    let trimmed = lower.trim_start();
    if trimmed.starts_with("error")
        || trimmed.starts_with("failed")
        || trimmed.starts_with("exception")
    {
        return Verdict::Unsure(shown);
    }
    Verdict::Ran
}

/// The text of every text block of a result's `content`, joined by newlines.
fn texts(response: &Value) -> String {
    response
        .pointer("/result/content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// `name` in another case: upper case, or lower case if it is all upper case already;
/// `None` when it has no ASCII letter.
fn other_case(name: &str) -> Option<String> {
    let upper = name.to_ascii_uppercase();
    let variant = if upper == name {
        name.to_ascii_lowercase()
    } else {
        upper
    };
    (variant != name).then_some(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(text: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
               "content": [{"type": "text", "text": text}], "isError": false}})
    }

    #[test]
    fn a_success_that_says_the_tool_is_unknown_is_a_refusal() {
        for text in [
            "Error: Unknown tool: READ_QUERY",
            "unknown tool",
            "Tool READ_QUERY not found",
            "No such tool: READ_QUERY",
            "tool 'READ_QUERY' does not exist",
            "Error: READ_QUERY is not registered",
        ] {
            assert!(
                matches!(
                    judge("READ_QUERY", &result(text)),
                    Verdict::RefusedInResult(_)
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn a_success_that_reads_like_another_error_is_unsure() {
        for text in [
            "Error: database is locked",
            "Failed to run the query",
            "error",
        ] {
            assert!(
                matches!(judge("READ_QUERY", &result(text)), Verdict::Unsure(_)),
                "{text}"
            );
        }
    }

    #[test]
    fn a_plain_success_ran_the_tool_and_errors_did_not() {
        assert_eq!(judge("READ_QUERY", &result("[{\"id\": 1}]")), Verdict::Ran);
        // "not found" about something else than the tool is the tool's own answer.
        assert_eq!(
            judge("GET_NOTE", &result("note n-9 not found")),
            Verdict::Ran
        );
        // Text that only mentions errors further on is the tool's output.
        assert_eq!(judge("LINT", &result("0 errors, 2 warnings")), Verdict::Ran);
        let asked = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required",
                          "inputRequests": {}}});
        assert_eq!(judge("ASK", &asked), Verdict::Ran);
        let tool_error = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
                               "content": [{"type": "text", "text": "Unknown tool"}], "isError": true}});
        assert_eq!(judge("ASK", &tool_error), Verdict::Refused);
        let rpc_error = json!({"jsonrpc": "2.0", "id": 1,
                              "error": {"code": -32602, "message": "Unknown tool: ASK"}});
        assert_eq!(judge("ASK", &rpc_error), Verdict::Refused);
    }

    #[test]
    fn another_case_of_a_name() {
        assert_eq!(other_case("add").as_deref(), Some("ADD"));
        assert_eq!(other_case("getUser").as_deref(), Some("GETUSER"));
        assert_eq!(other_case("ADD").as_deref(), Some("add"));
        assert_eq!(other_case("1-2"), None);
    }
}
