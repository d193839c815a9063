//! `tools/schema-cases` and `tools/output-schema`: the schema-derived cases, run against the
//! server, and the `structuredContent` of each success held to its tool's `outputSchema`.
//!
//! The cases run `jobs` at a time (more for a server slow to answer each but not slowed by
//! more of them: `crate::window`), each followed by a liveness request; a server that stops
//! answering right after a case is a finding naming that case, and the cases after it are not
//! sent. A case still running after `--case-time` is cancelled and its tool's later valid
//! cases are not sent. What each answer means for the server is `crate::classify`'s.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE),
//! [`OUTPUT_SCHEMA`](clauses::OUTPUT_SCHEMA).

use crate::Shown;
use crate::checker::{Checker, Note, Out};
use crate::run::Run;
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::{Case, Era, Expectation, Happened, Outcome, VerifyReport, run_in};
use mcp_test::spec::clauses;
use mcp_test::validation::SchemaValidator;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The probe of the cases.
pub(crate) const SCHEMA_CASES: &str = "tools/schema-cases";
/// The probe of the results against their output schemas.
pub(crate) const OUTPUT_SCHEMA: &str = "tools/output-schema";

/// The row: runs the cases, whose outcomes later rows go by.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        (r.progress)(&format!("cases: {} schema-derived cases", r.cases.len()));
        r.report = run_cases(&mut r.c, &r.tools, &r.cases, &mut *r.progress).await;
    })
}

/// Records [`SCHEMA_CASES`] and [`OUTPUT_SCHEMA`].
pub(crate) async fn run_cases(
    c: &mut Checker<'_>,
    tools: &[Value],
    cases: &[Case],
    progress: &mut (dyn FnMut(&str) + Send),
) -> VerifyReport {
    let mut report = VerifyReport::default();
    let mut out = Vec::new();
    let mut outputs = Vec::new();
    let output_schemas: BTreeMap<&str, &Value> = tools
        .iter()
        .filter_map(|t| Some((t.get("name")?.as_str()?, t.get("outputSchema")?)))
        .collect();
    // The cases run `jobs` at a time, each followed by a liveness request, so one slow
    // tool does not hold up the rest; once a liveness request goes unanswered no further
    // case is sent. The outcomes are then read in the cases' order.
    let jobs = c.jobs.max(1);
    let window = crate::window::Window::new(jobs, c.max_jobs);
    let stopped = AtomicBool::new(false);
    // A case still running after `case_time` is cancelled, and its tool's later valid
    // cases are not sent: each would wait as long again.
    let case_time = c.case_time.filter(|t| *t < c.session.timeout);
    let slow_tools: Mutex<HashSet<&str>> = Mutex::new(HashSet::new());
    // A tool's first valid case runs before its other valid cases are sent: they then learn
    // whether it is slow (and are not sent) before they wait as long. Invalid cases go at
    // once, since a server rejects them before any slow work.
    let firsts: Mutex<HashMap<&str, Arc<tokio::sync::Mutex<bool>>>> = Mutex::default();
    let limit_ms = case_time.map_or(0, |t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX));
    let ran: Vec<Option<Ran>> = {
        let this = &*c;
        let stopped = &stopped;
        let slow_tools = &slow_tools;
        let window = &window;
        let firsts = &firsts;
        let total = cases.len();
        futures_util::stream::iter(cases.iter())
            .map(|case| async move {
                let mut first = None;
                if case.expectation != Expectation::Error {
                    let gate = firsts
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .entry(case.tool.as_str())
                        .or_default()
                        .clone();
                    let ran = gate.lock_owned().await;
                    if !*ran {
                        first = Some(ran);
                    }
                }
                let _room = window.enter().await;
                if stopped.load(AtomicOrdering::SeqCst) || this.dead.is_some() {
                    return None;
                }
                // Without client capabilities: a tool that asks must answer -32021, which
                // the multi-round probes look at.
                let is_slow = |tool: &str| {
                    slow_tools
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .contains(tool)
                };
                // Invalid arguments are still sent: a server rejects them before any
                // slow work, and they are what the cases check most.
                if case.expectation != Expectation::Error && is_slow(&case.tool) {
                    let happened = Happened::Slow {
                        limit_ms,
                        sent: false,
                    };
                    return Some((happened, None, true, Duration::ZERO));
                }
                if let Some(hook) = &this.before_each {
                    hook.run(&case.tool);
                }
                let started = Instant::now();
                let (happened, response) = match case_time {
                    None => run_in(&this.session, case, None).await,
                    Some(limit) => match this.session.call_within(case, limit).await {
                        Some(ran) => ran,
                        None => {
                            slow_tools
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .insert(case.tool.as_str());
                            let happened = Happened::Slow {
                                limit_ms,
                                sent: true,
                            };
                            (happened, None)
                        }
                    },
                };
                let took = started.elapsed();
                if let Some(mut ran) = first {
                    *ran = true;
                }
                let alive = this.alive().await || this.session.past_deadline();
                if !alive {
                    stopped.store(true, AtomicOrdering::SeqCst);
                } else if !matches!(happened, Happened::Slow { .. }) {
                    window.record(started.elapsed());
                }
                Some((happened, response, alive, took))
            })
            .buffered(window.max())
            .enumerate()
            .map(|(i, ran)| {
                if i % 25 == 0 && i > 0 {
                    progress(&format!("cases: {i}/{total}"));
                }
                ran
            })
            .collect()
            .await
    };
    c.slow = window.slow();
    let mut skipped = 0;
    for (case, ran) in cases.iter().zip(ran) {
        let Some((happened, response, alive, took)) = ran.filter(|_| c.dead.is_none()) else {
            skipped += 1;
            continue;
        };
        if let Some(r) = &response {
            c.log_response("tools/call", r["id"].as_i64().unwrap_or(-1), r.clone());
        }
        let shown = Some(Shown {
            method: "tools/call".to_owned(),
            id: response.as_ref().and_then(|r| r["id"].as_i64()),
        });
        let agrees = happened.agrees_with(case.expectation);
        // What a call without an answer means is `classify`'s, below; here, whether the
        // server was still there after the case.
        if !alive {
            let label = format!("{} › {}", case.tool, case.title);
            match &happened {
                Happened::Failed { message } => c.dead = Some(message.clone()),
                _ => {
                    // Answered, then gone: this case killed or wedged the server (or,
                    // with several in flight, one of them did).
                    let widest = window.widest();
                    let at_once = if widest > 1 {
                        format!(
                            "; up to {widest} cases were in flight at once, `--jobs 1` pins it down"
                        )
                    } else {
                        String::new()
                    };
                    out.push(
                        c.broke(
                            &clauses::JSONRPC_RESPONSE,
                            format!(
                                "the server stopped answering right after the case {label} (its call was answered; the next request got no answer{at_once}); arguments {}",
                                case.args
                            ),
                        )
                        .on(shown.clone()),
                    );
                    c.dead = Some(format!("after the case {label}"));
                }
            }
        }
        if let (Happened::Success { .. }, Some(schema), Some(r)) =
            (&happened, output_schemas.get(case.tool.as_str()), &response)
        {
            outputs.extend(
                output_findings(c.era, &case.tool, schema, &r["result"])
                    .into_iter()
                    .map(|n| n.on(shown.clone())),
            );
        }
        report.outcomes.push(Outcome {
            case: case.clone(),
            happened,
            agrees,
            response,
            duration: Some(took),
        });
    }
    // The tools whose outcomes may depend on what an earlier call wrote.
    let writes = tools
        .iter()
        .filter(|t| crate::ToolClass::of(t).may_write())
        .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect();
    out.extend(crate::classify::findings(c.era, &report.outcomes, &writes));
    out.extend(slow_notes(&report.outcomes));
    if skipped > 0 {
        out.push(Note::info(format!(
            "{skipped} cases skipped after the server stopped answering"
        )));
    }
    c.push_probe(SCHEMA_CASES, out);
    if output_schemas.is_empty() {
        c.skip_probe(OUTPUT_SCHEMA, "no tool called declares an outputSchema");
    } else {
        c.push_probe(OUTPUT_SCHEMA, outputs);
    }
    report
}

fn output_findings(era: Era, tool: &str, schema: &Value, result: &Value) -> Out {
    let mut out = Vec::new();
    let Ok(validator) = SchemaValidator::new(schema) else {
        return out;
    };
    match result.get("structuredContent") {
        None => out.push(Note::broke_in(
            era,
            &clauses::OUTPUT_SCHEMA,
            format!(
                "tool {tool:?} has an outputSchema but a successful result has no structuredContent"
            ),
        )),
        Some(content) => {
            let violations = validator.violations(content);
            if !violations.is_empty() {
                out.push(Note::broke_in(
                    era,
                    &clauses::OUTPUT_SCHEMA,
                    format!(
                        "tool {tool:?}: structuredContent does not match the outputSchema:\n{}",
                        mcp_test::validation::describe(&violations)
                    ),
                ));
            }
        }
    }
    out
}

/// What running one case gave: what happened, the response, whether the server still answered
/// afterwards, and how long the call took.
type Ran = (Happened, Option<Value>, bool, Duration);

/// One note per tool with cases cancelled for their time ([`Happened::Slow`]): how many, and
/// how to wait for them.
fn slow_notes(outcomes: &[Outcome]) -> Vec<Note> {
    let mut by_tool: BTreeMap<&str, (usize, usize, u64)> = BTreeMap::new();
    for outcome in outcomes {
        if let Happened::Slow { limit_ms, sent } = outcome.happened {
            let entry = by_tool.entry(outcome.case.tool.as_str()).or_default();
            if sent {
                entry.0 += 1;
            } else {
                entry.1 += 1;
            }
            entry.2 = limit_ms;
        }
    }
    by_tool
        .into_iter()
        .map(|(tool, (cancelled, unsent, limit_ms))| {
            Note::info(format!(
                "tool {tool:?}: {cancelled} case(s) still running after {limit_ms} ms were cancelled and {unsent} more not sent, so their predictions were not checked (`--case-time SECS` waits longer)"
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::example_server;
    use crate::{CheckOptions, Severity, check};
    use mcp_test::target::{Target, TargetFuture};
    use mcp_test::{Caller, Server};
    use serde_json::Value;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// The example server, wedged for good right after it answers the first call that sends
    /// an unknown property.
    struct WedgedAfterUnknownProperty {
        server: Server,
        wedged: AtomicBool,
    }

    impl Target for WedgedAfterUnknownProperty {
        fn label(&self) -> String {
            "wedged".to_owned()
        }
        fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
            Box::pin(async move {
                if self.wedged.load(Ordering::SeqCst) {
                    std::future::pending::<()>().await;
                }
                let killer = message["method"] == "tools/call"
                    && message
                        .pointer("/params/arguments/unexpected_property")
                        .is_some();
                let answer = self.server.send(message, caller).await;
                if killer {
                    self.wedged.store(true, Ordering::SeqCst);
                }
                answer
            })
        }
    }

    #[tokio::test]
    async fn the_liveness_check_after_each_case_names_the_case_that_wedged_the_server() {
        let target = WedgedAfterUnknownProperty {
            server: example_server(),
            wedged: AtomicBool::new(false),
        };
        let options = CheckOptions {
            timeout: Duration::from_millis(300),
            ..CheckOptions::default()
        };
        let report = check(&target, &options).await;
        let finding = report
            .findings()
            .find(|f| f.message.contains("stopped answering right after the case"))
            .unwrap_or_else(|| panic!("no liveness finding:\n{}", report.to_text()));
        assert_eq!(finding.probe, "tools/schema-cases");
        assert_eq!(finding.severity, Severity::Defect);
        assert!(
            finding.message.contains("unknown property"),
            "{}",
            finding.message
        );
        assert_eq!(
            finding.clause.map(|c| c.id),
            Some("jsonrpc/response-required")
        );
        // The cases after it were not sent to a server that no longer answers.
        assert!(
            report
                .findings()
                .any(|f| f.message.contains("cases skipped after")),
            "{}",
            report.to_text()
        );
    }

    /// The example server, counting the calls in flight at once; each call waits until a
    /// second one arrives or 50 ms pass, so concurrent calls overlap.
    struct Counting {
        server: Server,
        now: std::sync::atomic::AtomicUsize,
        most: std::sync::atomic::AtomicUsize,
    }

    impl Target for Counting {
        fn label(&self) -> String {
            "counting".to_owned()
        }
        fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
            Box::pin(async move {
                let call = message["method"] == "tools/call";
                if call {
                    let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
                    self.most.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                let answer = self.server.send(message, caller).await;
                if call {
                    self.now.fetch_sub(1, Ordering::SeqCst);
                }
                answer
            })
        }
    }

    #[tokio::test(start_paused = true)]
    async fn cases_run_jobs_at_a_time_and_one_after_the_other_with_one_job() {
        for (jobs, want) in [(1, 1), (3, 3)] {
            let target = Counting {
                server: example_server(),
                now: Default::default(),
                most: Default::default(),
            };
            let options = CheckOptions {
                jobs,
                ..CheckOptions::default()
            };
            let report = check(&target, &options).await;
            assert_eq!(report.count(Severity::Defect), 0, "{}", report.to_text());
            assert!(report.cases.outcomes.len() > jobs, "{}", report.to_text());
            assert_eq!(target.most.load(Ordering::SeqCst), want, "jobs = {jobs}");
        }
    }
}
