//! # mcp-test-check
//!
//! Checks any MCP server, in either protocol era, over stdio, Streamable HTTP or in process,
//! and reports findings by severity, each quoting the spec clause it rests on. The library
//! side of the `mcp-test` command line, which this crate also builds (feature `cli`, on by
//! default), on top of [`mcp_test`]'s targets, client, case generator and requirements
//! matrix.
//!
//! - [`check`] runs the protocol probes and the schema-derived cases against any
//!   [`Target`] and returns a [`CheckReport`]: what was found, and its text, JSON and JUnit
//!   forms. [`CheckReport::assert_no_defects`] fails a Rust test with the whole report.
//! - The protocol probes: discovery, methods, lists, tool definitions, the schema cases,
//!   resources and prompts, result shapes and error codes, transport hygiene;
//! - the multi-round probes: without client capabilities a tool that asks the user must answer
//!   -32021; with every capability declared, each tool whose base case asks is driven to its
//!   final response with synthesized answers ([`target::drive`](mcp_test::target::drive)),
//!   every round checked against the official schema, and a tampered `requestState` must be
//!   refused;
//! - over Streamable HTTP, raw requests beside the session (`http_probes`): mirrored headers
//!   that disagree with the body or are missing, a foreign `Origin`, content types and
//!   statuses, and GET, DELETE and sessions as the era of the server has them;
//! - one overall deadline ([`CheckOptions::deadline`]): when it passes the check stops
//!   sending and reports what ran, saying it was cut short ([`CheckReport::incomplete`]);
//! - for a connected server ([`check_connected`]), closing it with a short grace and
//!   recording how it ended (`transport/shutdown`);
//! - [`generate`] writes Rust test files from the derived cases (`mcp-test generate`), with
//!   cases suggested by a model through [`ai`];
//! - [`example_server`] is the bundled server the command line checks when given no target.
//!
//! What the outcomes of the schema cases mean (an off-by-one at a declared bound, a tool error
//! on valid arguments, no answer...) is decided in `classify`, from the cases and outcomes
//! alone.
//!
//! ```
//! use mcp_test_check::{CheckOptions, check, example_server};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let report = check(&example_server(), &CheckOptions::default()).await;
//! report.assert_no_defects();
//! assert_eq!(report.findings().count(), 0, "{}", report.to_text());
//! # }
//! ```

#![warn(missing_docs)]

pub mod ai;
mod authorization;
mod catalog;
mod classify;
mod deadline;
mod expect;
mod http_probes;
mod notifications;
mod options;
mod probes;
mod properties;
mod raw_http;
mod report;
mod rounds;
mod shutdown;
mod stdio_framing;
mod tasks;

mod example_server;
pub mod generate;

pub use authorization::{AUTHORIZATION_PROBE, check_unauthorized};
pub use deadline::DEFAULT_DEADLINE;
pub use example_server::example_server;
pub use expect::{Comparison, ExpectError, Expectations, Expected};
pub use options::{CheckOptions, DEFAULT_CASE_TIME, DEFAULT_JOBS};
pub use report::{CheckReport, Finding, Probe, Severity, Shown, SkippedTool};
pub use shutdown::{SHUTDOWN_PROBE, check_connected, check_connected_with_progress};

use mcp_test::cases::{Era, derive_split};
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::target::Target;
use mcp_test::validation::SchemaValidator;
use probes::Checker;
use serde_json::Value;
use std::time::Duration;

/// Checks a server: protocol probes (discovery, results, errors, methods, lists, tools,
/// multi-round, resources and prompts, transport) and the schema-derived cases.
///
/// ```
/// use mcp_test_check::{check, example_server, CheckOptions};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let report = check(&example_server(), &CheckOptions::default()).await;
/// assert_eq!(report.findings().count(), 0, "{}", report.to_text());
/// assert!(!report.has_defects());
/// # }
/// ```
pub async fn check(target: &dyn Target, options: &CheckOptions) -> CheckReport {
    check_with_progress(target, options, &mut |_| {}).await
}

/// [`check`], calling `progress` with a line before each step.
pub async fn check_with_progress(
    target: &dyn Target,
    options: &CheckOptions,
    progress: &mut (dyn FnMut(&str) + Send),
) -> CheckReport {
    let era = target.era().unwrap_or(Era::Current);
    let mut c = Checker::new(target, era, options.timeout);
    c.jobs = options.jobs;
    c.case_time = options.case_time;
    let deadline = deadline::start(&mut c, options);
    progress("discovery: server/discover");
    let discover = c.discovery().await;
    // The capabilities the server declared: a 2026-07-28 server's from `server/discover`, a
    // 2025-era server's from its `InitializeResult` (kept by the target). `None`: not known.
    let declared = match era {
        Era::Current => discover
            .as_ref()
            .and_then(|d| d.get("capabilities"))
            .cloned()
            .or_else(|| target.declared_capabilities()),
        Era::Legacy => target.declared_capabilities(),
    };
    let has = |capability: &str| -> Option<bool> {
        declared
            .as_ref()
            .map(|d| d.get(capability).is_some_and(|v| !v.is_null()))
    };
    progress("methods: removed and unknown methods, unsupported versions");
    c.methods().await;
    let mut report = mcp_test::cases::VerifyReport::default();
    let mut skipped_tools = Vec::new();
    // The tools the property tests may call: those the schema cases call.
    let mut property_tools: Vec<Value> = Vec::new();
    if c.offered("tools", has("tools")).await {
        progress("lists: tools/list pagination, order, bad cursor");
        let tools = c.tool_lists().await;
        progress("tools: definitions and unknown tools");
        c.tool_definitions(&tools).await;
        let listed: Vec<String> = tools
            .iter()
            .filter_map(|t| Some(t.get("name")?.as_str()?.to_owned()))
            .collect();
        let tasks_declared = era == Era::Current && tasks::declares_extension(declared.as_ref());
        let (tools, task_only, skipped) = callable_tools(tools, options, tasks_declared);
        skipped_tools = skipped;
        let (cases, problems, bad_values) = derive_split(&tools, &options.cases);
        property_tools.clone_from(&tools);
        // A value the user gave that does not fit is the user's mistake, not the server's:
        // that tool is not called.
        skipped_tools.extend(bad_values.into_iter().map(|e| SkippedTool {
            reason: match &e.action {
                Some(action) => format!(
                    "action {action:?}: the value given for `{}` {}",
                    e.pointer, e.message
                ),
                None => format!("the value given for `{}` {}", e.pointer, e.message),
            },
            name: e.tool,
        }));
        property_tools.retain(|t| {
            let name = t.get("name").and_then(Value::as_str);
            !skipped_tools.iter().any(|s| Some(s.name.as_str()) == name)
        });
        let era_now = era;
        c.probe("tools/input-schemas", |out| {
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
                        era_now,
                        &clauses::TOOL_INPUT_SCHEMA,
                        format!("the input schema is not a valid JSON Schema: {p}"),
                    )
                } else {
                    Note::info(format!("no cases derived: {p}"))
                });
            }
        });
        progress("tools: malformed tools/call requests, names in another case");
        c.malformed_calls(&tools).await;
        c.name_case(&listed, &cases).await;
        progress(&format!("cases: {} schema-derived cases", cases.len()));
        report = c.run_cases(&tools, &cases, progress).await;
        c.embedded_resources(&report.outcomes, has("resources"));
        progress("multi-round: input_required results, -32021 without capabilities");
        c.multi_round_discipline(&report).await;
        progress("multi-round: tools that ask, driven with every client capability");
        c.multi_round_driven(&report).await;
        progress("notifications: log messages, progress, server requests");
        c.notifications(&report, declared.as_ref()).await;
        if tasks_declared {
            progress("tasks: the io.modelcontextprotocol/tasks lifecycle");
            let (task_cases, _, _) = derive_split(&task_only, &options.cases);
            let base: Vec<_> = cases
                .iter()
                .chain(&task_cases)
                .filter(|c| c.source == "rule:base")
                .cloned()
                .collect();
            c.tasks(&task_only, &base).await;
        } else {
            for probe in tasks::PROBES {
                c.skip_probe(
                    probe,
                    "the server does not declare the io.modelcontextprotocol/tasks extension",
                );
            }
        }
    } else {
        for probe in [
            "lists/tools/list",
            "tools/definitions-and-unknown-tool",
            "tools/names-and-headers",
            "tools/input-schemas",
            "tools/malformed-calls",
            "tools/name-case",
            "tools/schema-cases",
            "tools/embedded-resources",
            "tools/output-schema",
            "multi-round/discipline",
            "multi-round/driven",
            "notifications/logging",
            "notifications/progress",
            "notifications/server-initiated",
        ]
        .into_iter()
        .chain(tasks::PROBES)
        {
            c.skip_probe(probe, "the server offers no tools");
        }
    }
    let mut templates = Vec::new();
    if c.offered("resources", has("resources")).await {
        progress("resources: list, templates, read, resource-not-found");
        templates = c.resources().await;
    } else {
        for probe in [
            "lists/resources/list",
            "lists/resources/templates/list",
            "resources/contents",
            "resources/not-found",
        ] {
            c.skip_probe(probe, "the server offers no resources");
        }
    }
    let mut prompts = Vec::new();
    if c.offered("prompts", has("prompts")).await {
        progress("prompts: list, unknown prompt, missing arguments, contents");
        prompts = c.prompts(has("completions") == Some(true)).await;
    } else {
        for probe in ["lists/prompts/list", "prompts/arguments", "prompts/get"] {
            c.skip_probe(probe, "the server offers no prompts");
        }
    }
    // Declared, completion is probed; undeclared, it must be -32601.
    if has("completions") == Some(true) {
        progress("completion: unknown prompt, listed arguments");
        c.completion(&prompts, &templates).await;
    } else {
        c.skip_probe(
            "completion/complete",
            match has("completions") {
                None => "the server's capabilities are not known",
                _ => "the server did not declare the `completions` capability",
            },
        );
        if has("completions") == Some(false) {
            c.offered("completions", Some(false)).await;
        }
    }
    // Without feature `http` there is no HTTP client, so no target has an HTTP URL.
    let url = target.http_url();
    // The raw HTTP probes (`http_probes`); their names, for skipping.
    let http_probe_names = [
        "http/header-mirroring",
        "http/origin",
        "http/responses",
        "http/status-codes",
        "http/earlier-revisions",
        "http/authorization",
    ];
    match url {
        None => {
            for probe in http_probe_names {
                c.skip_probe(probe, "not reached over Streamable HTTP");
            }
        }
        Some(_) if !deadline::allows(deadline.as_deref(), "the raw HTTP probes") => {
            for probe in http_probe_names {
                c.skip_probe(probe, mcp_test::target::DEADLINE_PASSED);
            }
        }
        Some(url) => {
            progress("HTTP: mirrored headers, Origin, content types, status codes, GET and DELETE");
            let http = target.http_options().unwrap_or_default();
            for (probe, found) in http_probes::run(&url, &http, era, options.timeout).await {
                match found {
                    Ok(out) => c.push_probe(probe, out),
                    Err(why) => c.skip_probe(probe, why),
                }
            }
            progress("HTTP: protected-resource metadata");
            let (found, mut out, _) =
                authorization::protected_resource(&url, &http, None, options.timeout).await;
            out.extend(authorization::invalid_token(&url, &http, found, options.timeout).await);
            c.push_probe(AUTHORIZATION_PROBE, out);
        }
    }
    if let Some(n) = options.properties {
        progress(&format!("properties: {n} cases per property and tool"));
        properties::run(&mut c, &property_tools, n, options).await;
    }
    progress("subscriptions and cache hints: subscriptions/listen, cacheScope of pages");
    c.subscriptions(declared.as_ref()).await;
    c.cache_pages(declared.as_ref()).await;
    progress("methods: initialize, sent last, as a 2025-era client sends it");
    c.initialize_last().await;
    progress("results and errors: every response received");
    c.results_and_errors(target.protocol_version());
    c.transport(target).await;
    let mut checked = CheckReport {
        target: target.label(),
        era: Some(era),
        transport: target.transport(),
        probes: c.into_probes(),
        cases: report,
        skipped_tools,
        incomplete: None,
    };
    deadline::finish(deadline.as_deref(), &mut checked);
    checked
}

/// Not public API: the code that turns one reply into findings, for the fuzz target
/// `reply_to_finding`. `reply` is the outcome of each schema case of a small bounded tool
/// whose bit is set in `pattern` (the others succeed), classified ([`classify`]), and the
/// response to `method` that the results and errors probe reads; `target` is only the
/// checker's session (nothing is sent).
#[doc(hidden)]
pub fn __fuzz_reply_to_findings(
    target: &dyn Target,
    era: Era,
    method: &str,
    reply: &Value,
    pattern: u32,
) -> Vec<Finding> {
    use mcp_test::cases::{Happened, Outcome, derive_cases};
    let schema = serde_json::json!({"type": "object", "properties": {
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "city": {"type": "string", "maxLength": 8}
    }, "required": ["days"], "additionalProperties": false});
    let cases = derive_cases(
        "forecast",
        &schema,
        &mcp_test::cases::CaseOptions::default(),
    )
    .unwrap_or_default();
    let outcomes: Vec<Outcome> = cases
        .into_iter()
        .enumerate()
        .map(|(i, case)| {
            let happened = if pattern & (1 << (i % 32)) != 0 {
                Happened::from_response(reply)
            } else {
                Happened::Success { text: "ok".into() }
            };
            Outcome {
                agrees: happened.agrees_with(case.expectation),
                case,
                happened,
                response: Some(reply.clone()),
                duration: None,
            }
        })
        .collect();
    let mut findings: Vec<Finding> = classify::findings(era, &outcomes)
        .into_iter()
        .map(|n| n.into_finding("tools/schema-cases"))
        .collect();
    let mut c = Checker::new(target, era, Duration::from_secs(1));
    c.log_response(method, 1, reply.clone());
    c.results_and_errors(None);
    findings.extend(
        c.into_probes()
            .into_iter()
            .flat_map(|p| p.findings.into_iter()),
    );
    findings
}

/// The tools `check` may call, the tools it calls only as tasks, and the others with why
/// not: a tool whose `execution.taskSupport` is `"required"` (a client MUST NOT call it
/// without task augmentation, server/tools.mdx) is exercised by the tasks probes when the
/// server declares the tasks extension, and skipped otherwise; unless allowed, a potentially
/// destructive tool (by the defaults of server/tools.mdx, `readOnlyHint: false` and
/// `destructiveHint: true`) is skipped.
fn callable_tools(
    tools: Vec<Value>,
    options: &CheckOptions,
    tasks_declared: bool,
) -> (Vec<Value>, Vec<Value>, Vec<SkippedTool>) {
    let mut callable = Vec::new();
    let mut task_only = Vec::new();
    let mut skipped = Vec::new();
    for tool in tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        let hint = |key: &str| {
            tool.pointer(&format!("/annotations/{key}"))
                .and_then(Value::as_bool)
        };
        let required = tool
            .pointer("/execution/taskSupport")
            .and_then(Value::as_str)
            == Some("required");
        let reason = if hint("readOnlyHint") != Some(true)
            && hint("destructiveHint") != Some(false)
            && !options.allow_destructive
            && !options.allow_tools.iter().any(|t| t == name)
        {
            Some("potentially destructive: not annotated readOnlyHint: true or destructiveHint: false, and by the defaults of server/tools.mdx a tool is not read-only and is destructive; allow it with --allow-destructive or --tool NAME".to_owned())
        } else if required && !tasks_declared {
            Some("execution.taskSupport is \"required\": a client MUST NOT call it without task augmentation (server/tools.mdx), and the server does not declare the io.modelcontextprotocol/tasks extension".to_owned())
        } else {
            None
        };
        match reason {
            Some(reason) => skipped.push(SkippedTool {
                name: name.to_owned(),
                reason,
            }),
            None if required => task_only.push(tool),
            None => callable.push(tool),
        }
    }
    (callable, task_only, skipped)
}

/// What one probe found, before it becomes [`Finding`]s.
type Out = Vec<Note>;

/// One thing a probe found: a clause broken, whose level sets the severity, or a note no
/// clause backs (always [`Severity::Info`]); with the request that showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Note {
    severity: Severity,
    clause: Option<Clause>,
    message: String,
    request: Option<Shown>,
}

impl Note {
    /// `clause` was broken, as `message` tells.
    pub(crate) fn broke(clause: &Clause, message: impl Into<String>) -> Self {
        Note {
            severity: Severity::from(clause.level),
            clause: Some(*clause),
            message: message.into(),
            request: None,
        }
    }

    /// For the record: no clause is broken.
    pub(crate) fn info(message: impl Into<String>) -> Self {
        Note {
            severity: Severity::Info,
            clause: None,
            message: message.into(),
            request: None,
        }
    }

    /// `clause` as it reads in `era`: a 2025-era server is held to the 2025-11-25 twin of a
    /// rule ([`clauses::in_2025`]); where that revision has none, the finding is a note
    /// naming the 2026-07-28 rule.
    pub(crate) fn broke_in(era: Era, clause: &Clause, message: impl Into<String>) -> Self {
        match era {
            Era::Current => Note::broke(clause, message),
            Era::Legacy => match clauses::in_2025(clause) {
                Some(old) => Note::broke(old, message),
                None => Note::info(format!(
                    "{} (2026-07-28 asks this, {clause}; 2025-11-25 does not)",
                    message.into()
                )),
            },
        }
    }

    /// The request that showed it.
    pub(crate) fn on(mut self, request: Option<Shown>) -> Self {
        self.request = request;
        self
    }

    fn into_finding(self, probe: &str) -> Finding {
        Finding {
            severity: self.severity,
            probe: probe.to_owned(),
            message: self.message,
            clause: self.clause,
            request: self.request,
        }
    }
}

/// A response in one line: the error code and message, or the result shortened.
fn brief(r: &Value) -> String {
    if let Some(e) = r.get("error") {
        format!(
            "error {} {:?}",
            e.get("code").unwrap_or(&Value::Null),
            e.get("message").and_then(Value::as_str).unwrap_or("")
        )
    } else {
        format!(
            "result {}",
            mcp_test::cases::shorten(&r.get("result").unwrap_or(r).to_string(), 160)
        )
    }
}
