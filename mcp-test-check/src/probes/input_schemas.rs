//! `tools/input-schemas`: the schema cases derived from each callable tool's `inputSchema`
//! (`mcp_test::cases::derive_split`), one of each kind unless `--all-cases`
//! ([`case_sampling`](super::case_sampling)).
//!
//! An input schema that is not a valid JSON Schema breaks the spec; one this crate found no
//! valid arguments for may be fine, and is noted. A value the user gave (`--value`) that does
//! not fit its schema is the user's mistake: that tool is not called by any later probe (the
//! row takes it out of `Run::tools`), and the report says why.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`TOOL_INPUT_SCHEMA`](clauses::TOOL_INPUT_SCHEMA).

use crate::checker::Note;
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::derive_split;
use mcp_test::spec::clauses;
use mcp_test::validation::SchemaValidator;
use serde_json::Value;

/// The probe's id.
pub(crate) const ID: &str = "tools/input-schemas";

/// The row: derives the cases, which later rows run, and the tools the property tests call.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let (cases, problems, bad_values) = derive_split(&r.tools, &r.options.cases);
        let (cases, left_out) = if r.options.all_cases {
            (cases, 0)
        } else {
            super::case_sampling::sample(cases, &r.tools)
        };
        r.cases = cases;
        r.cases_left_out = left_out;
        // A value the user gave that does not fit is the user's mistake, not the server's:
        // that tool is not called.
        for e in bad_values {
            let why = match &e.action {
                Some(action) => format!(
                    "action {action:?}: the value given for `{}` {}",
                    e.pointer, e.message
                ),
                None => format!("the value given for `{}` {}", e.pointer, e.message),
            };
            r.not_called(&e.tool, why);
        }
        // From here on no probe calls a tool held back, malformed calls included.
        let (kept, held): (Vec<Value>, Vec<Value>) = std::mem::take(&mut r.tools)
            .into_iter()
            .partition(|t| !r.held_back(t.get("name").and_then(Value::as_str).unwrap_or("")));
        r.tools = kept;
        r.property_tools = r.tools.clone();
        let era = r.c.era;
        let tools: Vec<&Value> = r.tools.iter().chain(&held).collect();
        r.c.probe(ID, |out| {
            for p in problems {
                // A schema that does not compile breaks the spec; one this crate found no
                // valid arguments for may be fine: noted.
                let schema = tools
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(p.tool.as_str()))
                    .and_then(|t| t.get("inputSchema"));
                let invalid = schema.is_some_and(|s| SchemaValidator::new(s).is_err());
                out.push(if invalid {
                    Note::broke_in(
                        era,
                        &clauses::TOOL_INPUT_SCHEMA,
                        format!("the input schema is not a valid JSON Schema: {p}"),
                    )
                } else {
                    Note::info(format!("no cases derived: {p}"))
                });
            }
        });
    })
}
