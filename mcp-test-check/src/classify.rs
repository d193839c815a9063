//! What the outcomes of the schema cases say about a server: pure functions from the cases and
//! their outcomes to findings, with no server involved.
//!
//! The severity of each finding is the level of the clause it quotes, and a finding no clause
//! backs is a note ([`Note::info`]):
//!
//! | what happened | finding |
//! |---|---|
//! | no answer to a call within `--timeout` | note naming the timeout and `--timeout SECS`: the spec puts no time on an answer; the call is still waited for, and one left unanswered while the server answers others is a defect at the end of the check (`Checker::settle`) |
//! | no answer to a call otherwise (the server exited or closed the stream) | defect: JSON-RPC 2.0 §5, a call MUST get a Response ([`clauses::JSONRPC_RESPONSE`]) |
//! | a reply past a limit of the client (too long, too deep) | note naming the limit: no clause caps a message, so no verdict on the server |
//! | invalid arguments accepted | defect: server/tools.mdx §Security Considerations, servers MUST validate all tool inputs ([`clauses::VALIDATE_TOOL_INPUTS`]) |
//! | a valid value on an inclusive bound refused while the interior value of the same property passed | defect: basic/index.mdx §Implementation Requirements, servers MUST validate according to the schema's dialect, in which the bound is inclusive ([`clauses::SCHEMA_DIALECT`]) |
//! | valid arguments answered `isError: true` | note, one per tool: how a tool reports a business-logic failure (server/tools.mdx §Error Handling) |
//! | valid arguments answered -32603 | warning: an error running a listed tool on arguments its inputSchema accepts originates from the tool, which CallToolResult.isError says SHOULD be reported in the result, not as a protocol error ([`clauses::TOOL_ERRORS_IN_RESULT`]) |
//! | valid arguments answered another JSON-RPC error | note: no clause makes a server accept every schema-valid call |
//! | any of the three above (an off-by-one included), on a tool that may write, after a call of a tool that may write succeeded | note naming that earlier call: the refusal may come from the state it changed ("already claimed"), not from the arguments |
//! | invalid arguments answered -32603 | note: a rejection, if not the clearest |
//! | -32021, with or without `requiredCapabilities` | nothing: a missing client capability is never a verdict on the arguments |
//!
//! Near-identical findings (the same tool, the same kind, the same message once the values
//! sent and any numbers are taken out) become one, which counts them and shows the first.

use super::{Note, Shown};
use mcp_test::cases::{Case, Era, Expectation, Happened, Outcome};
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::{INTERNAL_ERROR, MISSING_REQUIRED_CLIENT_CAPABILITY};
use serde_json::Value;
use std::collections::BTreeSet;

/// What kind of finding an outcome makes, before grouping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    NoAnswer,
    TimedOut,
    NeedsScope,
    OverLimit,
    AcceptedInvalid,
    OffByOne,
    ToolErrorOnValid,
    InternalErrorOnValid,
    RejectedValid,
    InternalErrorOnInvalid,
    AfterWrite,
}

/// One finding before grouping: its kind, the tool, the text that groups it, the case's label
/// (which the note's message starts with) and the note.
struct Single {
    kind: Kind,
    tool: String,
    key: String,
    label: String,
    note: Note,
}

/// The findings of the schema cases' outcomes, grouped, in the order first seen. `writes`
/// names the tools that may change state ([`ToolClass::may_write`](crate::ToolClass)): a
/// valid case of one refused after a call of one succeeded is judged on the state that call
/// may have changed, as a note naming it, never a defect.
pub(super) fn findings(era: Era, outcomes: &[Outcome], writes: &BTreeSet<String>) -> Vec<Note> {
    let singles: Vec<Single> = outcomes
        .iter()
        .filter_map(|o| single(era, o, outcomes, writes))
        .collect();
    group(singles)
}

/// For a case of a tool that may write: the first call of a tool that may write that
/// succeeded before it was sent (a lower request id; with cases in flight together, sent
/// earlier is enough for it to have changed what this one met).
fn earlier_write<'a>(
    o: &Outcome,
    all: &'a [Outcome],
    writes: &BTreeSet<String>,
) -> Option<&'a Outcome> {
    if !writes.contains(&o.case.tool) {
        return None;
    }
    let id = |o: &Outcome| o.response.as_ref()?.get("id")?.as_i64();
    let mine = id(o);
    all.iter().find(|other| {
        !std::ptr::eq(*other, o)
            && writes.contains(&other.case.tool)
            && matches!(
                other.happened,
                Happened::Success { .. } | Happened::InputRequired
            )
            && match (id(other), mine) {
                (Some(theirs), Some(mine)) => theirs < mine,
                // No ids to go by: the order the outcomes were kept in, which is the order
                // the cases were sent.
                _ => all
                    .iter()
                    .position(|x| std::ptr::eq(x, *other))
                    .zip(all.iter().position(|x| std::ptr::eq(x, o)))
                    .is_some_and(|(theirs, mine)| theirs < mine),
            }
    })
}

fn label(case: &Case) -> String {
    format!("{} › {} [{}]", case.tool, case.title, case.source)
}

fn shown(outcome: &Outcome) -> Option<Shown> {
    Some(Shown {
        method: "tools/call".to_owned(),
        id: outcome
            .response
            .as_ref()
            .and_then(|r| r.get("id"))
            .and_then(Value::as_i64),
    })
}

/// A failure within the timeout (`no answer to tools/call (id 7) within 1s`) as the note
/// words it, naming the timeout and the flag that raises it.
fn message_with_timeout(message: &str) -> String {
    let message = message
        .strip_prefix("no answer to the call: ")
        .unwrap_or(message);
    let what = message
        .strip_prefix("no answer to ")
        .or_else(|| message.strip_prefix("no reply to "))
        .and_then(|rest| rest.split_once(" within "))
        .map_or("the call", |(what, _)| what);
    let after = message
        .split_once(" within ")
        .and_then(|(_, after)| after.split_whitespace().next())
        .unwrap_or("")
        .trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
    let timeout = match after.strip_suffix("ms") {
        Some(ms) => ms.parse::<f64>().ok().map(|ms| ms / 1000.0),
        None => after.strip_suffix('s').and_then(|s| s.parse::<f64>().ok()),
    }
    .and_then(|secs| std::time::Duration::try_from_secs_f64(secs).ok());
    match timeout {
        Some(timeout) => crate::checker::timeout_text(what, timeout),
        None => format!(
            "{message} (`--timeout SECS` waits longer; the spec puts no time on an answer, so this is no verdict)"
        ),
    }
}

/// Whether `happened` refuses the arguments: a tool error or a JSON-RPC error other than
/// -32021 (a missing client capability says nothing about the arguments).
fn refuses(happened: &Happened) -> bool {
    match happened {
        Happened::ToolError { .. } => true,
        Happened::RpcError { code, .. } => *code != i64::from(MISSING_REQUIRED_CLIENT_CAPABILITY),
        _ => false,
    }
}

fn single(era: Era, o: &Outcome, all: &[Outcome], writes: &BTreeSet<String>) -> Option<Single> {
    let case = &o.case;
    let label = label(case);
    let args = &case.args;
    let make = |kind, key: String, note: Note| {
        Some(Single {
            kind,
            tool: case.tool.clone(),
            key: without_values(&key, args),
            label: label.clone(),
            note: note.on(shown(o)),
        })
    };
    match (&o.happened, case.expectation) {
        // No answer within the timeout: the spec puts no time on an answer (the timeout is
        // the client's), so a note naming it; `Checker::settle` judges the call later.
        (Happened::Failed { message }, _) if crate::checker::timed_out_text(message) => make(
            Kind::TimedOut,
            message.clone(),
            Note::info(format!(
                "{label}: {}; arguments {args}",
                message_with_timeout(message)
            )),
        ),
        // A 403 insufficient_scope: the server refused the check's token, as it should; what
        // the tool does went unchecked. A note saying how to let the check see it.
        (Happened::Failed { message }, _) if crate::checker::refused_for_scope_text(message) => {
            make(
                Kind::NeedsScope,
                message.clone(),
                Note::info(format!(
                    "{label}: {}; arguments {args}",
                    crate::checker::refused_for_scope("the call", message)
                )),
            )
        }
        // JSON-RPC 2.0 §5: "When a rpc call is made, the Server MUST reply with a Response".
        (Happened::Failed { message }, _) => make(
            Kind::NoAnswer,
            message.clone(),
            Note::broke_in(
                era,
                &clauses::JSONRPC_RESPONSE,
                format!("{label}: the server gave no answer ({message}); arguments {args}"),
            ),
        ),
        // No clause caps the size or depth of a message: the client's limit, not the server,
        // stopped it. A note naming the limit, one per tool and limit.
        (Happened::OverLimit { message }, _) => make(
            Kind::OverLimit,
            message.clone(),
            Note::info(format!(
                "{label}: the reply went past a limit of this client, so it was not read ({message}); no clause caps a message, so this is no verdict on the server"
            )),
        ),
        (Happened::NeedsCapabilities { .. } | Happened::Slow { .. }, _) => None,
        (Happened::RpcError { code, .. }, _)
            if *code == i64::from(MISSING_REQUIRED_CLIENT_CAPABILITY) =>
        {
            None
        }
        // server/tools.mdx §Security Considerations: "Servers MUST: Validate all tool inputs".
        (Happened::Success { .. } | Happened::InputRequired, Expectation::Error) => make(
            Kind::AcceptedInvalid,
            format!("{} {}", case.title, case.rationale),
            Note::broke_in(
                era,
                &clauses::VALIDATE_TOOL_INPUTS,
                format!(
                    "{label}: accepted invalid arguments (a missing validation): {}; arguments {args}",
                    case.rationale
                ),
            ),
        ),
        (h, Expectation::Success) if refuses(h) => {
            // A tool that writes may refuse a call for the state an earlier write left
            // ("already claimed" after the base case claimed it): what the arguments were
            // refused for is not known, so a note names that call, and no clause is quoted.
            if let Some(earlier) = earlier_write(o, all, writes) {
                let id = earlier
                    .response
                    .as_ref()
                    .and_then(|r| r.get("id"))
                    .map_or(String::new(), |id| format!(" (tools/call id {id})"));
                return make(
                    Kind::AfterWrite,
                    h.to_string(),
                    Note::info(format!(
                        "{label}: refused arguments its inputSchema accepts ({h}), after the earlier call {}{id} of a tool that may write succeeded; the refusal may come from the state that call changed, so it is no verdict on the arguments; arguments {args}",
                        self::label(&earlier.case),
                    )),
                );
            }
            if let Some(interior) = interior_that_passed(o, all) {
                let boundary = case.boundary.as_ref()?;
                let at = |args: &Value| {
                    args.pointer(&boundary.pointer)
                        .map_or("?".to_owned(), Value::to_string)
                };
                // Nothing makes a server accept every call its inputSchema allows, but here
                // only the edge fails while the interior passes: the server validates its own
                // schema with the bound exclusive, against the dialect, where "Clients and
                // servers MUST validate schemas according to their declared or default
                // dialect" (basic/index.mdx §Implementation Requirements; 2020-12 bounds such
                // as `minimum`, `maxLength` and `maxItems` are inclusive).
                return make(
                    Kind::OffByOne,
                    format!("{} {}", boundary.pointer, boundary.keyword),
                    Note::broke_in(
                        era,
                        &clauses::SCHEMA_DIALECT,
                        format!(
                            "{label}: refused `{}` = {}, on the {} its own inputSchema declares, while the interior value {} passed ({}): an off-by-one; {h}; arguments {args}",
                            boundary.pointer,
                            at(args),
                            bound_name(&boundary.keyword),
                            at(&interior.case.args),
                            interior.case.title,
                        ),
                    ),
                );
            }
            match h {
                // server/tools.mdx §Error Handling: a tool execution error is how a tool
                // reports input validation and business-logic failures. Grouped per tool.
                Happened::ToolError { text } => make(
                    Kind::ToolErrorOnValid,
                    String::new(),
                    Note::info(format!("{label}: {text:?}")),
                ),
                // The tool exists and its own inputSchema accepts the arguments: an internal
                // error running it originates from the tool, which CallToolResult.isError
                // says SHOULD be reported in the result (isError: true), not as a protocol
                // error. SHOULD: a warning. No clause makes a tool succeed.
                Happened::RpcError { code, message } if *code == i64::from(INTERNAL_ERROR) => make(
                    Kind::InternalErrorOnValid,
                    message.clone(),
                    Note::broke_in(
                        era,
                        &clauses::TOOL_ERRORS_IN_RESULT,
                        format!(
                            "{label}: an internal error ({INTERNAL_ERROR} {message:?}) on arguments its own inputSchema accepts; an error that originates from the tool should be reported in the result with isError: true, not as a protocol error, so the model sees it; arguments {args}"
                        ),
                    ),
                ),
                // No clause makes a server accept every schema-valid call.
                other => make(
                    Kind::RejectedValid,
                    other.to_string(),
                    Note::info(format!(
                        "{label}: refused arguments its inputSchema accepts: {other}; no clause makes a server accept every schema-valid call; arguments {args}"
                    )),
                ),
            }
        }
        // Invalid input is a tool execution error or a protocol error (server/tools.mdx
        // §Error Handling); an internal error still refuses it, but no clause says MUST.
        (Happened::RpcError { code, message }, Expectation::Error)
            if *code == i64::from(INTERNAL_ERROR) =>
        {
            make(
                Kind::InternalErrorOnInvalid,
                message.clone(),
                Note::info(format!(
                    "{label}: invalid arguments gave an internal error ({INTERNAL_ERROR} {message:?}) rather than a clear rejection"
                )),
            )
        }
        _ => None,
    }
}

/// For a valid boundary case that was refused: the valid case of the same tool whose
/// arguments differ from it only at the boundary's pointer (its interior counterpart), if
/// that one passed.
fn interior_that_passed<'a>(o: &Outcome, all: &'a [Outcome]) -> Option<&'a Outcome> {
    let boundary = o.case.boundary.as_ref()?;
    let blank = |args: &Value| {
        let mut args = args.clone();
        if let Some(v) = args.pointer_mut(&boundary.pointer) {
            *v = Value::Null;
        }
        args
    };
    let mine = blank(&o.case.args);
    all.iter().find(|other| {
        other.case.tool == o.case.tool
            && other.case.expectation == Expectation::Success
            && other.case.boundary.is_none()
            && matches!(
                other.happened,
                Happened::Success { .. } | Happened::InputRequired
            )
            && other.case.args.pointer(&boundary.pointer).is_some()
            && other.case.args.pointer(&boundary.pointer) != o.case.args.pointer(&boundary.pointer)
            && blank(&other.case.args) == mine
    })
}

fn bound_name(keyword: &str) -> String {
    match keyword {
        "minimum" | "maximum" | "minLength" | "maxLength" | "minItems" | "maxItems" => {
            format!("inclusive {keyword}")
        }
        "exclusiveMinimum" => "smallest integer past its exclusiveMinimum".to_owned(),
        "exclusiveMaximum" => "largest integer under its exclusiveMaximum".to_owned(),
        other => other.to_owned(),
    }
}

/// `text` with every string and number value of `args` (and every other run of digits) taken
/// out: "no note n-12 in /tmp/sample" and "no note n-7 in /tmp/x" group together when those
/// were the values sent.
fn without_values(text: &str, args: &Value) -> String {
    let mut values = Vec::new();
    leaves(args, &mut values);
    values.sort_by_key(|v| std::cmp::Reverse(v.chars().count()));
    let mut out = text.to_owned();
    for v in values.iter().filter(|v| v.chars().count() >= 2) {
        out = out.replace(v.as_str(), "…");
    }
    // An empty string sent shows as `""`: the same place as any other value.
    if values.iter().any(String::is_empty) {
        out = if out.contains("\\\"\\\"") {
            out.replace("\\\"\\\"", "\\\"…\\\"") // quoted inside a quoted message
        } else {
            out.replace("\"\"", "\"…\"")
        };
    }
    let mut squeezed = String::with_capacity(out.len());
    let mut in_digits = false;
    for c in out.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                squeezed.push('#');
            }
            in_digits = true;
        } else {
            squeezed.push(c);
            in_digits = false;
        }
    }
    squeezed
}

fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|i| leaves(i, out)),
        Value::Object(map) => map.values().for_each(|i| leaves(i, out)),
        _ => {}
    }
}

/// One note per (tool, kind, key), counting the others; tool errors on valid arguments are
/// one note per tool.
fn group(singles: Vec<Single>) -> Vec<Note> {
    let mut groups: Vec<(Single, usize)> = Vec::new();
    for s in singles {
        let same = |g: &Single| {
            g.kind == s.kind
                && g.tool == s.tool
                && (s.kind == Kind::ToolErrorOnValid || g.key == s.key)
        };
        match groups.iter_mut().find(|(g, _)| same(g)) {
            Some((_, n)) => *n += 1,
            None => groups.push((s, 1)),
        }
    }
    groups
        .into_iter()
        .map(|(Single { kind, tool, label, note, .. }, n)| {
            let mut first = note;
            if kind == Kind::ToolErrorOnValid {
                first.message = format!(
                    "tool {tool:?}: {n} schema-valid case{} answered with a tool execution error (isError: true), how a tool reports a business-logic failure (server/tools.mdx §Error Handling); not a protocol defect; e.g. {}",
                    if n == 1 { "" } else { "s" },
                    first.message
                );
            } else if n > 1 {
                let more = n - 1;
                let rest = first
                    .message
                    .strip_prefix(&format!("{label}: "))
                    .unwrap_or(&first.message);
                first.message = format!(
                    "{label} (and {more} more case{} like it): {rest}",
                    if more == 1 { "" } else { "s" }
                );
            }
            first
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use mcp_test::cases::{Boundary, CaseOptions, derive_cases};
    use serde_json::json;

    fn outcome(case: &Case, happened: Happened) -> Outcome {
        Outcome {
            agrees: happened.agrees_with(case.expectation),
            case: case.clone(),
            happened,
            response: Some(json!({"jsonrpc": "2.0", "id": 7})),
            duration: None,
        }
    }

    fn ok() -> Happened {
        Happened::Success { text: "ok".into() }
    }

    fn tool_error(text: &str) -> Happened {
        Happened::ToolError { text: text.into() }
    }

    fn rpc(code: i64, message: &str) -> Happened {
        Happened::RpcError {
            code,
            message: message.into(),
        }
    }

    /// The cases of a tool with one bounded integer and one free string.
    fn cases() -> Vec<Case> {
        let schema = json!({"type": "object", "properties": {
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
            "city": {"type": "string"}
        }, "required": ["days"], "additionalProperties": false});
        derive_cases("forecast", &schema, &CaseOptions::default()).unwrap()
    }

    /// Runs every case through `server`, which sees each case.
    fn run(server: impl Fn(&Case) -> Happened) -> Vec<Outcome> {
        cases().iter().map(|c| outcome(c, server(c))).collect()
    }

    /// A server that validates correctly; `valid` answers each valid case.
    fn correct(valid: impl Fn(&Case) -> Happened) -> impl Fn(&Case) -> Happened {
        move |c| match c.expectation {
            Expectation::Error => rpc(-32602, "invalid params"),
            _ => valid(c),
        }
    }

    fn at_max(c: &Case) -> bool {
        c.boundary
            == Some(Boundary {
                pointer: "/days".into(),
                keyword: "maximum".into(),
            })
    }

    #[test]
    fn a_correct_server_has_no_findings() {
        assert!(findings(Era::Current, &run(correct(|_| ok())), &BTreeSet::new()).is_empty());
    }

    #[test]
    fn refusing_only_the_inclusive_maximum_is_an_off_by_one_warning_without_a_clause() {
        let outcomes = run(correct(|c| {
            if at_max(c) {
                tool_error("days must be less than 7")
            } else {
                ok()
            }
        }));
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert_eq!(notes.len(), 1, "{notes:#?}");
        let n = &notes[0];
        assert_eq!(
            (n.severity, n.clause),
            (Severity::Defect, Some(clauses::SCHEMA_DIALECT))
        );
        assert!(
            n.message.starts_with(
                "forecast › accepts `/days` at exactly maximum 7 [rule:bounds]: refused `/days` = 7, on the inclusive maximum its own inputSchema declares, while the interior value 4 passed (accepts valid arguments): an off-by-one; tool error"
            ),
            "{}",
            n.message
        );
        assert_eq!(n.request.as_ref().and_then(|r| r.id), Some(7));
    }

    /// Each outcome of `run` with a request id of its own, in the order the cases were sent.
    fn numbered(mut outcomes: Vec<Outcome>) -> Vec<Outcome> {
        for (i, o) in outcomes.iter_mut().enumerate() {
            o.response = Some(json!({"jsonrpc": "2.0", "id": 10 + i}));
        }
        outcomes
    }

    /// A stateful tool: the first valid call claims the item, every later one is refused.
    fn claimed_after_the_first(outcomes: &mut [Outcome]) {
        let mut claimed = false;
        for o in outcomes
            .iter_mut()
            .filter(|o| o.case.expectation == Expectation::Success)
        {
            o.happened = if claimed {
                tool_error("already claimed")
            } else {
                ok()
            };
            o.agrees = o.happened.agrees_with(o.case.expectation);
            claimed = true;
        }
    }

    #[test]
    fn a_write_tool_refusing_after_an_earlier_write_succeeded_is_a_note_naming_that_call() {
        let mut outcomes = numbered(run(correct(|_| ok())));
        claimed_after_the_first(&mut outcomes);
        let first = outcomes
            .iter()
            .find(|o| o.case.expectation == Expectation::Success)
            .unwrap();
        let (first_label, first_id) = (
            label(&first.case),
            first.response.as_ref().unwrap()["id"].clone(),
        );
        assert!(
            outcomes.iter().any(at_max_outcome),
            "the cases hold the bound"
        );
        let writes = BTreeSet::from(["forecast".to_owned()]);
        let notes = findings(Era::Current, &outcomes, &writes);
        assert!(!notes.is_empty());
        for n in &notes {
            assert_eq!((n.severity, n.clause), (Severity::Info, None), "{n:#?}");
            assert!(
                n.message.contains(&format!(
                    "after the earlier call {first_label} (tools/call id {first_id}) of a tool that may write succeeded"
                )),
                "{}",
                n.message
            );
        }
        // The same outcomes of a tool that writes nothing: the bound refused while its
        // interior passed is the off-by-one it was before.
        let read_only = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert!(
            read_only.iter().any(
                |n| n.severity == Severity::Defect && n.clause == Some(clauses::SCHEMA_DIALECT)
            ),
            "{read_only:#?}"
        );
    }

    #[test]
    fn a_write_tool_refusing_before_any_write_succeeded_keeps_its_verdict() {
        // The bound is sent first, and refused; nothing had written yet, so the state it met
        // is the server's own, and the off-by-one stands.
        let mut outcomes = run(correct(|c| {
            if at_max(c) {
                tool_error("days must be less than 7")
            } else {
                ok()
            }
        }));
        let at = outcomes.iter().position(at_max_outcome).unwrap();
        let bound = outcomes.remove(at);
        outcomes.insert(0, bound);
        let outcomes = numbered(outcomes);
        let writes = BTreeSet::from(["forecast".to_owned()]);
        let notes = findings(Era::Current, &outcomes, &writes);
        assert_eq!(notes.len(), 1, "{notes:#?}");
        assert_eq!(
            (notes[0].severity, notes[0].clause),
            (Severity::Defect, Some(clauses::SCHEMA_DIALECT))
        );
    }

    fn at_max_outcome(o: &Outcome) -> bool {
        at_max(&o.case)
    }

    #[test]
    fn a_boundary_refused_with_its_interior_is_no_off_by_one() {
        // Everything valid refused: one isError note for the tool, no warning.
        let outcomes = run(correct(|_| tool_error("no such city: sample")));
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert_eq!(notes.len(), 1, "{notes:#?}");
        let valid = outcomes
            .iter()
            .filter(|o| o.case.expectation == Expectation::Success)
            .count();
        assert_eq!(notes[0].severity, Severity::Info);
        assert!(
            notes[0].message.starts_with(&format!(
                "tool \"forecast\": {valid} schema-valid cases answered with a tool execution error (isError: true)"
            )),
            "{}",
            notes[0].message
        );
        assert!(notes[0].message.contains(
            "e.g. forecast › accepts valid arguments [rule:base]: \"no such city: sample\""
        ));
    }

    #[test]
    fn an_internal_error_on_valid_arguments_is_a_warning_grouped_modulo_the_values() {
        let outcomes = run(correct(|c| {
            let days = c.args["days"].as_i64().unwrap_or(0);
            rpc(-32603, &format!("forecast for {days} days failed"))
        }));
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert_eq!(notes.len(), 1, "{notes:#?}");
        let n = &notes[0];
        // CallToolResult.isError: errors that originate from the tool SHOULD be reported in
        // the result; the word is the clause's.
        assert_eq!(
            (n.severity, n.clause),
            (Severity::Warning, Some(clauses::TOOL_ERRORS_IN_RESULT))
        );
        assert!(
            n.message.contains(
                " more cases like it): an internal error (-32603 \"forecast for 4 days failed\")"
            ),
            "{}",
            n.message
        );
        assert!(n.message.contains("should"), "{}", n.message);
        assert!(!n.message.contains("must"), "{}", n.message);
        // A 2025-era server is held to the 2025-11-25 twin.
        let notes = findings(Era::Legacy, &outcomes, &BTreeSet::new());
        assert_eq!(notes[0].clause, Some(clauses::LEGACY_TOOL_ERRORS_IN_RESULT));
    }

    #[test]
    fn other_refusals_group_by_message_and_code() {
        let outcomes = run(correct(|c| {
            if c.args.get("city").is_some() {
                rpc(-32602, &format!("unknown city {}", c.args["city"]))
            } else {
                rpc(-32000, "quota exceeded")
            }
        }));
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        let texts: Vec<&str> = notes.iter().map(|n| n.message.as_str()).collect();
        assert_eq!(notes.len(), 2, "{texts:#?}");
        assert!(
            notes
                .iter()
                .all(|n| n.severity == Severity::Info && n.clause.is_none())
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("-32602 (\"unknown city \\\"sample\\\"\")")),
            "{texts:#?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("-32000 (\"quota exceeded\")")),
            "{texts:#?}"
        );
    }

    #[test]
    fn no_answer_within_the_timeout_is_a_note_naming_it() {
        let timed_out = mcp_test::target::TargetError::Timeout {
            request: "tools/call (id 7)".into(),
            after: std::time::Duration::from_millis(1500),
        };
        let outcomes = run(|_| Happened::Failed {
            message: timed_out.to_string(),
        });
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert!(!notes.is_empty());
        for note in &notes {
            assert_eq!(note.severity, Severity::Info, "{notes:#?}");
            assert_eq!(note.clause, None, "{notes:#?}");
            assert!(
                note.message
                    .contains("tools/call (id 7) within the 1.5 s timeout"),
                "{}",
                note.message
            );
            assert!(
                note.message.contains("`--timeout SECS`"),
                "{}",
                note.message
            );
        }
    }

    #[test]
    fn a_refusal_for_want_of_scope_is_a_note_saying_how_to_give_it() {
        let forbidden = mcp_test::client::ClientError::Forbidden {
            url: "http://127.0.0.1:1/mcp".into(),
            status: 403,
            challenge: Some(Box::new(mcp_test::client::Challenge::parse(
                r#"Bearer error="insufficient_scope", scope="notes.write""#,
            ))),
            body: String::new(),
        };
        let outcomes = run(|_| Happened::Failed {
            message: forbidden.to_string(),
        });
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert!(!notes.is_empty());
        for note in &notes {
            assert_eq!(note.severity, Severity::Info, "{notes:#?}");
            assert!(note.message.contains("--auth-scope"), "{}", note.message);
            assert!(note.message.contains("notes.write"), "{}", note.message);
        }
        // Another 403 is still no answer.
        let origin = mcp_test::client::ClientError::Forbidden {
            url: "http://127.0.0.1:1/mcp".into(),
            status: 403,
            challenge: None,
            body: "Origin refused".into(),
        };
        let outcomes = run(|_| Happened::Failed {
            message: origin.to_string(),
        });
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert!(
            notes.iter().all(|n| n.severity == Severity::Defect),
            "{notes:#?}"
        );
    }

    #[test]
    fn missing_client_capabilities_are_never_a_verdict_on_the_arguments() {
        let outcomes = run(|_| rpc(-32021, "needs elicitation"));
        assert!(findings(Era::Current, &outcomes, &BTreeSet::new()).is_empty());
        let outcomes = run(|_| Happened::NeedsCapabilities {
            required: json!({"elicitation": {}}),
        });
        assert!(findings(Era::Current, &outcomes, &BTreeSet::new()).is_empty());
        // Nor is a -32021 at the boundary an off-by-one.
        let outcomes = run(correct(|c| {
            if at_max(c) {
                rpc(-32021, "needs roots")
            } else {
                ok()
            }
        }));
        assert!(findings(Era::Current, &outcomes, &BTreeSet::new()).is_empty());
    }

    #[test]
    fn no_answer_is_a_defect_quoting_json_rpc_and_accepting_invalid_input_quotes_validation() {
        let outcomes = run(|c| {
            if at_max(c) {
                Happened::Failed {
                    message: "the server exited before replying to tools/call (id 3)".into(),
                }
            } else {
                ok()
            }
        });
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        let defects: Vec<&Note> = notes
            .iter()
            .filter(|n| n.severity == Severity::Defect)
            .collect();
        assert_eq!(defects.len(), notes.len(), "{notes:#?}");
        let no_answer: Vec<&&Note> = defects
            .iter()
            .filter(|n| n.clause == Some(clauses::JSONRPC_RESPONSE))
            .collect();
        assert_eq!(no_answer.len(), 1);
        assert!(
            no_answer[0]
                .message
                .contains("the server gave no answer (the server exited before replying")
        );
        let missing = notes
            .iter()
            .filter(|n| n.clause == Some(clauses::VALIDATE_TOOL_INPUTS))
            .count();
        let invalid = outcomes
            .iter()
            .filter(|o| o.case.expectation == Expectation::Error)
            .count();
        assert_eq!(missing, invalid, "one per missing validation: {notes:#?}");
        // A 2025-era server is held to the 2025-11-25 twin.
        let legacy = findings(Era::Legacy, &outcomes, &BTreeSet::new());
        assert!(
            legacy
                .iter()
                .any(|n| n.clause == Some(clauses::LEGACY_VALIDATE_TOOL_INPUTS))
        );
    }

    #[test]
    fn a_reply_past_a_limit_of_the_client_is_a_note_naming_it_not_a_defect() {
        let outcomes = run(|_| {
            Happened::OverLimit {
            message: "a line on stdout from the server is longer than the client's limit max_line_bytes of 100 bytes".into(),
        }
        });
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert_eq!(notes.len(), 1, "one per tool and limit: {notes:#?}");
        assert_eq!((notes[0].severity, notes[0].clause), (Severity::Info, None));
        assert!(
            notes[0].message.contains("max_line_bytes"),
            "{}",
            notes[0].message
        );
        assert!(
            notes[0].message.contains("no verdict on the server"),
            "{}",
            notes[0].message
        );
    }

    #[test]
    fn an_internal_error_on_invalid_arguments_is_a_note() {
        let outcomes = run(|c| match c.expectation {
            Expectation::Error => rpc(-32603, "panic"),
            _ => ok(),
        });
        let notes = findings(Era::Current, &outcomes, &BTreeSet::new());
        assert_eq!(notes.len(), 1, "{notes:#?}");
        assert_eq!(notes[0].severity, Severity::Info);
        assert!(notes[0].message.contains(
            "more cases like it): invalid arguments gave an internal error (-32603 \"panic\")"
        ));
    }

    #[test]
    fn values_and_numbers_are_taken_out_of_the_grouping_key() {
        let args = json!({"path": "/tmp/sample.txt", "n": 12});
        assert_eq!(
            without_values("no file /tmp/sample.txt (12 bytes, line 3)", &args),
            "no file … (… bytes, line #)"
        );
    }
}
