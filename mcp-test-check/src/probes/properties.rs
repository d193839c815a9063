//! `check --properties N`: the property tests of [`properties`](mcp_test::cases::properties) run
//! against any server, each failing invariant a finding of probe `tools/properties`.
//!
//! Only an invariant a clause backs calls the server wrong, at the clause's level:
//!
//! | failure | finding |
//! |---|---|
//! | no answer to a call, or to the request after it | defect: JSON-RPC 2.0 §5, a call MUST get a Response ([`clauses::JSONRPC_RESPONSE`]) |
//! | `structuredContent` missing or not matching the `outputSchema` | defect: server/tools.mdx §Output Schema ([`clauses::OUTPUT_SCHEMA`]) |
//! | arguments broken in one place accepted | defect: server/tools.mdx §Security Considerations, servers MUST validate all tool inputs ([`clauses::VALIDATE_TOOL_INPUTS`]) |
//! | valid arguments answered with a JSON-RPC error | note: no clause forbids a server error |
//! | broken arguments answered with a JSON-RPC error, or a tool error that does not name the place | note: the spec lists input validation errors among tool execution errors, with no MUST |
//!
//! The tools are those the schema cases call (never a potentially destructive tool unless
//! allowed, never a tool that requires tasks), with the same `--jobs` and `--case-time`; a case
//! cancelled for its time has no verdict, and a tool whose schema cases outlasted the case
//! time gets no property tests (a note says so): each would wait as long again.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE),
//! [`OUTPUT_SCHEMA`](clauses::OUTPUT_SCHEMA),
//! [`VALIDATE_TOOL_INPUTS`](clauses::VALIDATE_TOOL_INPUTS).

use crate::CheckOptions;
use crate::Note;
use crate::checker::Checker;
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use serde_json::Value;

/// The probe's name.
pub(crate) const PROBE: &str = "tools/properties";

/// The probe's id, as the table names it.
pub(crate) const ID: &str = PROBE;

/// The row: the property tests of the tools the schema cases call.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let cases = r.options.properties.unwrap_or_default();
        // A tool whose schema cases outlasted `--case-time` would cost that again on every
        // property case, and the cases already said it is slow: its properties are not run.
        let slow = slow_tools(&r.report.outcomes);
        let (tools, held): (Vec<Value>, Vec<Value>) = r
            .property_tools
            .iter()
            .cloned()
            .partition(|t| !slow.contains(t.get("name").and_then(Value::as_str).unwrap_or("")));
        let held: Vec<&str> = held
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .collect();
        property_tests(&mut r.c, &tools, &held, cases, r.options).await;
    })
}

/// The tools a valid schema case of which was cut at the case time.
fn slow_tools(outcomes: &[mcp_test::cases::Outcome]) -> std::collections::BTreeSet<&str> {
    outcomes
        .iter()
        .filter(|o| matches!(o.happened, mcp_test::cases::Happened::Slow { .. }))
        .map(|o| o.case.tool.as_str())
        .collect()
}

/// Runs the property tests of `tools` and records probe [`PROBE`], with a note naming the
/// tools `held` back.
pub(crate) async fn property_tests(
    c: &mut Checker<'_>,
    tools: &[Value],
    held: &[&str],
    cases: u32,
    options: &CheckOptions,
) {
    use mcp_test::cases::properties::{FailureKind, PropertyOptions, run_tools};
    if c.dead.is_some() || c.session.past_deadline() {
        let why = c.dead.clone().map_or_else(
            || mcp_test::target::DEADLINE_PASSED.to_owned(),
            |d| format!("the server had stopped answering ({d})"),
        );
        return c.skip_probe(PROBE, why);
    }
    let mut property_options = PropertyOptions::default()
        .cases(cases)
        .selection(options.cases.selection.clone())
        .timeout(options.timeout)
        .max_shrink_calls(128);
    property_options.case_time = options.case_time;
    property_options.before_each = options.before_each.clone();
    let report = run_tools(&c.session, tools, &property_options, c.jobs).await;
    let era = c.era;
    let mut out = Vec::new();
    if !held.is_empty() {
        out.push(Note::info(format!(
            "no property tests of {}: their schema cases outlasted the case time (`--case-time`), which every property case would wait again",
            held.join(", ")
        )));
    }
    for problem in &report.problems {
        out.push(Note::info(format!("no property tests: {problem}")));
    }
    for f in &report.failures {
        let who = match &f.action {
            Some(a) => format!("tool {:?}, action {a:?}", f.tool),
            None => format!("tool {:?}", f.tool),
        };
        let response = f
            .response
            .as_ref()
            .map_or_else(|| "none".to_owned(), crate::brief);
        let at = f
            .pointer
            .as_ref()
            .map(|p| format!(" (broken at `{p}`)"))
            .unwrap_or_default();
        let message = format!(
            "{who}: property `{}`: {}; minimal arguments {}{at}, shrunk in {} calls; response: {response}",
            f.invariant, f.message, f.args, f.shrink_calls
        );
        // Silence within the timeout is no verdict: the spec puts no time on an answer (the
        // timeout is the client's); the call is still waited for (`Checker::settle`).
        let silent = crate::checker::timed_out_text(&f.message)
            || f.message
                .split_once("(tools/list): ")
                .is_some_and(|(_, e)| crate::checker::timed_out_text(e));
        out.push(match f.kind {
            FailureKind::NoAnswer | FailureKind::StoppedAnswering if silent => Note::info(format!(
                "{message} (within the {} timeout; `--timeout SECS` waits longer: the spec puts no time on an answer, so this is no verdict)",
                crate::checker::seconds(options.timeout)
            )),
            FailureKind::NoAnswer | FailureKind::StoppedAnswering => {
                Note::broke_in(era, &clauses::JSONRPC_RESPONSE, message)
            }
            FailureKind::NoStructured | FailureKind::OutputMismatch => {
                Note::broke_in(era, &clauses::OUTPUT_SCHEMA, message)
            }
            FailureKind::AcceptedInvalid => {
                Note::broke_in(era, &clauses::VALIDATE_TOOL_INPUTS, message)
            }
            FailureKind::RpcError
            | FailureKind::RpcErrorOnInvalid
            | FailureKind::Unnamed
            | FailureKind::User => Note::info(message),
        });
    }
    // A call left unanswered (a slow tool, say) says nothing of the next request: the server
    // is taken for gone only when it does not answer one more.
    let unanswered = report.failures.iter().find(|f| {
        matches!(
            f.kind,
            FailureKind::NoAnswer | FailureKind::StoppedAnswering
        )
    });
    if let Some(f) = unanswered
        && c.dead.is_none()
        && let (_, Err(e)) = c.session.request("tools/list", Value::Null).await
    {
        c.dead = Some(format!("{}; then tools/list: {e}", f.message));
    }
    // Recorded with its findings even when the server stopped answering during it.
    let dead = c.dead.take();
    c.push_probe(PROBE, out);
    c.dead = dead;
}
