//! `multi-round/discipline` (spec §8): the schema cases ran without client capabilities, so a
//! server may ask for none of them.
//!
//! An `input_required` result that asks anything is a defect (the server must answer -32021
//! with `data.requiredCapabilities` instead), and a -32021 must carry
//! `requiredCapabilities`. Read from the cases' outcomes; nothing is sent. The same question
//! asked by many cases of one tool is one finding, with the count.
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`MISSING_CLIENT_CAPABILITY`](clauses::MISSING_CLIENT_CAPABILITY),
//! [`MRTR_DECLARED_ONLY`](clauses::MRTR_DECLARED_ONLY).

use crate::Shown;
use crate::checker::{Checker, Note};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::VerifyReport;
use mcp_test::spec;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes;
use mcp_test::wire::error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY;
use serde_json::Value;
use std::collections::BTreeMap;

/// The probe's id.
pub(crate) const ID: &str = "multi-round/discipline";

/// The row: [`multi_round_discipline`] of the cases' outcomes.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(multi_round_discipline(&mut r.c, &r.report))
}

/// The input requests of the schema cases: (tool, key, method) -> (the first case's title
/// and request, how many cases).
type Asked<'a> = BTreeMap<(&'a str, &'a str, &'a str), (&'a str, Option<Shown>, usize)>;

/// Without client capabilities: no input requests, and -32021 names what it needs. The
/// same question asked by many cases of one tool is one finding, with the count.
pub(crate) async fn multi_round_discipline(c: &mut Checker<'_>, report: &VerifyReport) {
    let mut out = Vec::new();
    let mut asked: Asked<'_> = BTreeMap::new();
    for o in &report.outcomes {
        let Some(r) = &o.response else { continue };
        let on = Some(Shown {
            method: "tools/call".to_owned(),
            id: r["id"].as_i64(),
        });
        let result = &r["result"];
        if result.get("resultType").and_then(Value::as_str) == Some("input_required")
            && let Some(requests) = result.get("inputRequests").and_then(Value::as_object)
        {
            // The cases declare no client capabilities, so the server may ask for none.
            for (key, req) in requests {
                let method = req.get("method").and_then(Value::as_str).unwrap_or("?");
                asked
                    .entry((o.case.tool.as_str(), key.as_str(), method))
                    .or_insert((o.case.title.as_str(), on.clone(), 0))
                    .2 += 1;
            }
        }
        if c.modern()
            && r.pointer("/error/code").and_then(Value::as_i64)
                == Some(i64::from(error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY))
            && let Err(e) = spec::check("MissingRequiredClientCapabilityError", r)
        {
            out.push(
                Note::broke(
                    &clauses::MISSING_CLIENT_CAPABILITY,
                    format!(
                        "{} › {}: a {MISSING_REQUIRED_CLIENT_CAPABILITY} error must name the capabilities it needs in data.requiredCapabilities: {e}",
                        o.case.tool, o.case.title
                    ),
                )
                .on(on),
            );
        }
    }
    for ((tool, key, method), (title, on, n)) in asked {
        let more = match n {
            1 => String::new(),
            n => format!(
                " (and in {} more case{})",
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        };
        out.push(
            Note::broke(
                &clauses::MRTR_DECLARED_ONLY,
                format!(
                    "{tool} › {title}{more}: input request {key:?} ({method}) asks for a capability the client did not declare, which a server must not do (the spec's answer is {MISSING_REQUIRED_CLIENT_CAPABILITY})"
                ),
            )
            .on(on),
        );
    }
    c.push_probe(ID, out);
}
