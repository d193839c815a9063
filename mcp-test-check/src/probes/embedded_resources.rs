//! `tools/embedded-resources`: a server that returns `resource` content from its tools
//! should implement the `resources` capability (server/tools.mdx §Embedded Resources).
//!
//! Read from the outcomes of the schema cases: no request is sent. Skipped when the server
//! declares `resources`, or when its capabilities are not known.
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`EMBEDDED_RESOURCES_CAPABILITY`](clauses::EMBEDDED_RESOURCES_CAPABILITY).

use crate::checker::{Checker, Note};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::Outcome;
use mcp_test::spec::clauses;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "tools/embedded-resources";

/// The row: [`embedded_resources`] of the cases' outcomes.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let declared = r.has("resources");
        embedded_resources(&mut r.c, &r.report.outcomes, declared);
    })
}

/// `tools/embedded-resources`: a server that returns `resource` content from its tools
/// should implement the `resources` capability (server/tools.mdx §Embedded Resources);
/// `declared`: whether it declared it (`None`: not known, and the probe is skipped).
pub(crate) fn embedded_resources(
    c: &mut Checker<'_>,
    outcomes: &[Outcome],
    declared: Option<bool>,
) {
    match declared {
        Some(false) => {}
        Some(true) => {
            return c.skip_probe(ID, "the server declares the `resources` capability");
        }
        None => {
            return c.skip_probe(ID, "the server's capabilities are not known");
        }
    }
    let era = c.era;
    let mut out = Vec::new();
    let mut tools: Vec<&str> = Vec::new();
    for outcome in outcomes {
        let Some(response) = &outcome.response else {
            continue;
        };
        let embeds = response
            .pointer("/result/content")
            .and_then(Value::as_array)
            .is_some_and(|c| c.iter().any(|b| b.get("type") == Some(&json!("resource"))));
        if embeds && !tools.contains(&outcome.case.tool.as_str()) {
            tools.push(&outcome.case.tool);
            out.push(
                Note::broke_in(
                    era,
                    &clauses::EMBEDDED_RESOURCES_CAPABILITY,
                    format!(
                        "tool {:?} returned an embedded resource, yet the server does not declare the `resources` capability",
                        outcome.case.tool
                    ),
                )
                .on(Some(crate::Shown {
                    method: "tools/call".to_owned(),
                    id: response.get("id").and_then(Value::as_i64),
                })),
            );
        }
    }
    c.push_probe(ID, out);
}
