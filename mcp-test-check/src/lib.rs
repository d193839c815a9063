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
//! - Tools are called only with consent ([`ToolClass`], from each tool's annotations by the
//!   defaults of server/tools.mdx): by default read-only and open-world ones;
//!   [`CheckOptions::open_world`], [`CheckOptions::allow_writes`],
//!   [`CheckOptions::allow_destructive`] and [`CheckOptions::allow_tools`] move the line, and
//!   [`CheckReport::tools`] lists every tool, whether a `tools/call` of it was sent, and what
//!   would call one that was not.
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
mod annotations;
mod checker;
mod classify;
mod consent;
mod deadline;
mod expect;
pub mod github;
pub mod html;
mod issuer;
mod options;
mod probes;
mod reconnect;
mod report;
mod run;
pub mod sarif;
pub mod security;
mod shutdown;
mod table;
mod window;

mod example_server;
pub mod generate;
pub mod load;

pub use consent::{Consent, ToolClass};
pub use example_server::example_server;
pub use expect::{Comparison, ExpectError, Expectations, Expected, ExpectedSecurity};
pub use issuer::{AuthIssuer, Grant, IssuerError};
pub use options::{
    CheckOptions, DEFAULT_CASE_TIME, DEFAULT_DEADLINE, DEFAULT_JOBS, DEFAULT_MAX_JOBS,
};
pub use probes::authorization::{AUTHORIZATION_PROBE, check_unauthorized};
pub use reconnect::Reconnect;
pub use report::{
    CheckReport, Finding, ListedTool, Probe, Risk, SecurityFinding, SecurityRule, Severity, Shown,
};
pub use shutdown::{SHUTDOWN_PROBE, check_connected, check_connected_with_progress};

use checker::Checker;
pub(crate) use checker::{Note, Out, brief};
use mcp_test::cases::Era;
use mcp_test::target::Target;
use serde_json::Value;
use std::time::Duration;

/// Checks a server: protocol probes (discovery, results, errors, methods, lists, tools,
/// multi-round, resources and prompts, transport) and the schema-derived cases.
///
/// Only the tools `options` consent to are called: by default read-only and open-world ones
/// ([`ToolClass`]); the report's [`tools`](CheckReport::tools) says which were called.
///
/// Every request goes as the target's caller: anonymously to a bare `Server`, as its
/// options say through a `TestContext` (`check(&mcp, ..)` in a `#[mcp_test]` test sees and
/// calls the tools behind the context's scopes). To check a bare server as some caller, wrap
/// it: `check(&TestContext::with_options(server, RequestOptions::new().scopes(["admin"])), ..)`.
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
    let started = std::time::Instant::now();
    let (mut report, serves_legacy, own) = check_one(target, options, progress).await;
    close_own(own).await;
    other_era(&mut report, serves_legacy, None, options, started, progress).await;
    security::after_check(&mut report, options, progress).await;
    report
}

/// What a check in the first era says of the other: `None` when no other era is looked for
/// (the era was 2025-11-25, or pinned by the caller); else whether the server answered the
/// `initialize` of `methods/initialize-on-a-modern-server` with an `InitializeResult`.
pub(crate) type ServesLegacy = Option<bool>;

/// One session's check: the probe table over `target`, in its era. Also returns the process
/// of their own that the probes writing what a client must not wrote to, when it still runs
/// ([`run::Run::own`]), for the caller to close ([`close_own`]) beside what it closes.
pub(crate) async fn check_one(
    target: &dyn Target,
    options: &CheckOptions,
    progress: &mut (dyn FnMut(&str) + Send),
) -> (
    CheckReport,
    ServesLegacy,
    Option<mcp_test::cases::Connected>,
) {
    let connection = target.connection();
    let era = connection.era.unwrap_or(Era::Current);
    // Every request of the session goes through `recording`, which keeps the tool names sent
    // in `tools/call`, so the report says which tools were called from what was sent.
    let called = consent::Called::default();
    // And every exchange is read for security findings as it goes (`security::watch`).
    static WARM: std::sync::Once = std::sync::Once::new();
    WARM.call_once(|| {
        std::thread::spawn(security::warm);
    });
    let watch = security::watch::Watch::new(Some(era));
    if let Some(handshake) = &connection.handshake {
        let method = match era {
            Era::Legacy => "initialize",
            Era::Current => "server/discover",
        };
        watch.handshake(method, handshake);
    }
    let recording = consent::Recording {
        inner: target,
        called: called.clone(),
        watch: Some({
            let watch = watch.clone();
            std::sync::Arc::new(
                move |message: &Value, response: Option<&Value>, notifications: &[Value]| {
                    watch.saw(message, response, notifications)
                },
            )
        }),
    };
    let mut c = Checker::new(&recording, era, options.timeout);
    if let Some(identity) = &options.identity {
        c.session = c
            .session
            .with_caller(mcp_test::Caller::new(identity.clone()));
    }
    c.jobs = options.jobs;
    c.max_jobs = options.max_jobs;
    c.before_each = options.before_each.clone();
    c.case_time = options.case_time;
    if let Some(note) = options.on_waiting {
        c.session.on_waiting(note);
    }
    let deadline = deadline::start(&mut c, options);
    let mut run = run::Run::new(c, options, connection, progress);
    run.deadline = deadline.clone();
    run.called = called;
    table::run(&mut run).await;
    // The exposure rules over HTTP (`security::exposure`): beside the session, on requests
    // of their own.
    let exposure = match &run.connection.http {
        Some(http) if deadline::allows(run.deadline.as_deref(), "the exposure rules") => {
            (run.progress)("security: session ids, a token in the URL, CORS with credentials");
            security::exposure::Http {
                url: http.url.clone(),
                options: http.options.clone(),
                era,
                timeout: options.timeout,
            }
            .run(!options.second_session)
            .await
        }
        _ => security::exposure::Found::default(),
    };
    let own = run.own.take().map(|(own, _)| own);
    // The requests that outlasted the timeout, if any, judged now (`checker::patience`).
    run.c.settle(&mut *run.progress).await;
    let tools = called_tools(&run);
    let serves_legacy =
        (era == Era::Current && !run.connection.era_chosen).then_some(run.serves_legacy);
    let mut checked = CheckReport {
        target: target.label(),
        era: Some(era),
        transport: run.connection.transport,
        probes: run.c.into_probes(),
        cases: run.report,
        cases_left_out: run.cases_left_out,
        tools,
        incomplete: None,
        connect_timeout: None,
        negotiation: run.connection.negotiation.clone(),
        other_era: None,
        security: Vec::new(),
        listed: None,
    };
    let (security, listed) = watch.take();
    checked.security = security;
    checked.listed = Some(listed);
    exposure.record(&mut checked);
    deadline::finish(deadline.as_deref(), &mut checked);
    (checked, serves_legacy, own)
}

/// Closes the connection [`check_one`] returned, if any, giving its process
/// [`CLOSE_GRACE`](probes::malformed_message::CLOSE_GRACE) to exit.
pub(crate) async fn close_own(own: Option<mcp_test::cases::Connected>) {
    if let Some(own) = own {
        let _ = own
            .client
            .close_within(probes::malformed_message::CLOSE_GRACE)
            .await;
    }
}

/// Checks the 2025-11-25 side of a server first checked in 2026-07-28, when it serves that
/// era too (versioning.mdx §Backward Compatibility: "A dual-era server selects its behavior
/// from how the client opens"): on a connection of its own ([`CheckOptions::reconnect`])
/// opened with `initialize`, with what is left of the deadline, into
/// [`CheckReport::other_era`]. Whether it does is the server's to say: the `initialize` of
/// that connection answered with an `InitializeResult`. A server that answered the one
/// `initialize_last` sent is known to, and gets the whole connect timeout; any other gets
/// [`LEGACY_PROBE_WAIT`], and a refusal is a note. The probes run once a server are not run
/// again. Without a way to connect again, a note says the era was not checked.
///
/// `beside` is how a 2025-11-25 session begun beside the first one ended
/// ([`other_era_beside`]), when one was: its report is taken as it is, and a connection it
/// could not open is opened again here only for a server known to serve that era.
pub(crate) async fn other_era(
    report: &mut CheckReport,
    serves_legacy: ServesLegacy,
    beside: Option<Beside>,
    options: &CheckOptions,
    started: std::time::Instant,
    progress: &mut (dyn FnMut(&str) + Send),
) {
    let legacy = Era::Legacy;
    let Some(serves_legacy) = serves_legacy.filter(|_| !options.second_session) else {
        return;
    };
    match beside {
        Some(Beside::Checked(other)) => {
            report.other_era = Some(Box::new(other));
            return;
        }
        Some(Beside::NotOpened(e)) if !serves_legacy => {
            return note_not_served(report, &e);
        }
        Some(Beside::NotOpened(_)) | None => {}
    }
    if report.incomplete.is_some() {
        return;
    }
    let Some(reconnect) = &options.reconnect else {
        if serves_legacy {
            note_on_initialize(
                report,
                format!(
                    "the server serves {legacy} too (it answered initialize with an InitializeResult), and that era was not checked: no way to open a connection of its own was given (CheckOptions::reconnect; mcp-test check gives one)"
                ),
            );
        }
        return;
    };
    let mut options = options.clone();
    options.second_session = true;
    if let Some(deadline) = options.deadline {
        let left = deadline.saturating_sub(started.elapsed());
        if left.is_zero() {
            if serves_legacy {
                let mut other = CheckReport::not_checked(
                    report.target.clone(),
                    format!(
                        "the {legacy} session: {}",
                        mcp_test::target::DEADLINE_PASSED
                    ),
                );
                other.era = Some(legacy);
                report.other_era = Some(Box::new(other));
            }
            return;
        }
        options.deadline = Some(left);
    }
    progress(&format!(
        "eras: does the server serve {legacy} too? initialize on a connection of its own"
    ));
    let opened = if serves_legacy {
        reconnect.open(legacy).await
    } else {
        open_legacy_within_probe_wait(reconnect).await
    };
    let other = match opened {
        Ok(connected) => {
            progress(&format!(
                "eras: the server serves {legacy} too: checking that era"
            ));
            shutdown::check_and_close(&connected, &options, progress).await
        }
        Err(e) if !serves_legacy => return note_not_served(report, &e),
        Err(e) => {
            let mut other = CheckReport::not_checked(
                report.target.clone(),
                format!("the {legacy} session could not be opened: {e}"),
            );
            other.era = Some(legacy);
            other
        }
    };
    report.other_era = Some(Box::new(other));
}

/// Opens a 2025-11-25 connection of its own, giving the server [`LEGACY_PROBE_WAIT`].
async fn open_legacy_within_probe_wait(
    reconnect: &Reconnect,
) -> Result<mcp_test::cases::Connected, mcp_test::target::TargetError> {
    tokio::time::timeout(LEGACY_PROBE_WAIT, reconnect.open(Era::Legacy))
        .await
        .unwrap_or_else(|_| {
            Err(mcp_test::target::TargetError::Client(
                mcp_test::client::ClientError::Timeout {
                    request: "initialize".to_owned(),
                    after: LEGACY_PROBE_WAIT,
                    stderr: String::new(),
                },
            ))
        })
}

/// The note of a server that did not answer a 2025-11-25 `initialize` on a connection of its
/// own, nor its modern session's.
fn note_not_served(report: &mut CheckReport, e: &mcp_test::target::TargetError) {
    note_on_initialize(
        report,
        format!(
            "the server was not checked in {}: initialize on a connection of its own was not answered with an InitializeResult ({e})",
            Era::Legacy
        ),
    );
}

/// How a 2025-11-25 session begun beside the first ended ([`other_era_beside`]).
pub(crate) enum Beside {
    /// The server answered its `initialize`; the session was checked and closed.
    Checked(CheckReport),
    /// The connection could not be opened within [`LEGACY_PROBE_WAIT`].
    NotOpened(mcp_test::target::TargetError),
}

/// Whether the 2025-11-25 session may run beside the first one rather than after it: the
/// first was opened in 2026-07-28 without a pinned era, a way to connect again was given,
/// and nothing that may write is consented to (`--allow-writes`, `--allow-destructive`,
/// `--allow-tool`). Read-only calls on two processes of one server cannot change what the
/// other session sees; writes could, so with any of those the sessions take turns.
pub(crate) fn may_run_beside(options: &CheckOptions, era: Era, era_chosen: bool) -> bool {
    era == Era::Current
        && !era_chosen
        && !options.second_session
        && options.reconnect.is_some()
        && !options.allow_writes
        && !options.allow_destructive
        && options.allow_tools.is_empty()
}

/// The 2025-11-25 session of [`other_era`], begun at once beside the first session
/// ([`may_run_beside`]): a server that answers its `initialize` with an `InitializeResult`
/// is checked in that era on a connection of its own while the first era is; one that does
/// not within [`LEGACY_PROBE_WAIT`] is [`Beside::NotOpened`], judged once the first session
/// says whether it serves that era. Without a way to connect again, `None`.
pub(crate) async fn other_era_beside(
    options: &CheckOptions,
    progress: &mut (dyn FnMut(&str) + Send),
) -> Option<Beside> {
    let reconnect = options.reconnect.as_ref()?;
    let mut options = options.clone();
    options.second_session = true;
    Some(match open_legacy_within_probe_wait(reconnect).await {
        Ok(connected) => {
            Beside::Checked(shutdown::check_and_close(&connected, &options, progress).await)
        }
        Err(e) => Beside::NotOpened(e),
    })
}

/// How long a server not known to serve 2025-11-25 gets to answer the `initialize` of a
/// connection of its own ([`other_era`]): a server that serves only 2026-07-28 refuses it at
/// once (versioning.mdx §Compatibility Matrix: "the server rejects `initialize` with a
/// JSON-RPC error"), and one that stays silent must not cost a whole connect timeout.
pub(crate) const LEGACY_PROBE_WAIT: Duration = Duration::from_secs(5);

/// Adds an info note about the server's other era to `methods/initialize-on-a-modern-server`.
fn note_on_initialize(report: &mut CheckReport, message: String) {
    let era = report.era;
    if let Some(probe) = report
        .probes
        .iter_mut()
        .find(|p| p.name == probes::initialize_last::ID)
    {
        probe.findings.push(Finding {
            severity: Severity::Info,
            probe: probe.name.clone(),
            message,
            clause: None,
            request: None,
            era,
        });
    }
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
    let mut findings: Vec<Finding> = classify::findings(era, &outcomes, &Default::default())
        .into_iter()
        .map(|n| n.into_finding("tools/schema-cases", Some(era)))
        .collect();
    let mut c = Checker::new(target, era, Duration::from_secs(1));
    c.log_response(method, 1, reply.clone());
    probes::results_and_errors::results_and_errors(&mut c, None);
    findings.extend(
        c.into_probes()
            .into_iter()
            .flat_map(|p| p.findings.into_iter()),
    );
    findings
}

/// The tools `check` may call, the tools it calls only as tasks, and every listed tool with
/// its class ([`ToolClass`]), those it may not call with why and which flags would.
///
/// Consent first ([`consent::consent`]): by default read-only and open-world tools are called,
/// `--no-open-world`, `--allow-writes`, `--allow-destructive` and `--tool NAME` move the line.
/// Then a tool whose `execution.taskSupport` is `"required"` (a client MUST NOT call it without
/// task augmentation, server/tools.mdx) is called only by the tasks probes, when the server
/// declares the tasks extension, and not at all otherwise.
fn callable_tools(
    tools: Vec<Value>,
    options: &CheckOptions,
    tasks_declared: bool,
) -> (Vec<Value>, Vec<Value>, Vec<ListedTool>) {
    let mut callable = Vec::new();
    let mut task_only = Vec::new();
    let mut listed = Vec::new();
    let consent = consent::Consent::from(options);
    for tool in tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        let mut entry = ListedTool::new(name, &tool);
        let required = tool
            .pointer("/execution/taskSupport")
            .and_then(Value::as_str)
            == Some("required");
        match consent::consent_for(&tool, &consent) {
            Err(held) => {
                entry.not_called = Some(held.why);
                entry.allow_with = Some(held.allow_with);
            }
            Ok(()) if required && !tasks_declared => {
                entry.not_called = Some("execution.taskSupport is \"required\": a client MUST NOT call it without task augmentation (server/tools.mdx), and the server does not declare the io.modelcontextprotocol/tasks extension".to_owned());
            }
            Ok(()) if required => task_only.push(tool),
            Ok(()) => callable.push(tool),
        }
        listed.push(entry);
    }
    (callable, task_only, listed)
}

/// Completes the listed tools of a run that ended: whether each was called, from the
/// `tools/call` requests actually sent, and why one that was allowed was not.
fn called_tools(run: &run::Run<'_>) -> Vec<ListedTool> {
    let mut tools = run.listed_tools.clone();
    for t in &mut tools {
        t.called = run.called.contains(&t.name);
        if t.called {
            // Called, whatever held it back on paper: the report says what was sent.
            t.not_called = None;
            t.allow_with = None;
        } else if t.not_called.is_none() {
            let derived = run.cases.iter().any(|c| c.tool == t.name);
            t.not_called = Some(if run.c.dead.is_some() || run.c.session.past_deadline() {
                "the check ended before calling it (the server stopped answering, or the deadline passed)".to_owned()
            } else if !derived
                && !run
                    .task_only
                    .iter()
                    .any(|v| v.get("name").and_then(Value::as_str) == Some(t.name.as_str()))
            {
                "no case could be derived from its input schema (tools/input-schemas says why)"
                    .to_owned()
            } else {
                "no call of it was sent".to_owned()
            });
        }
    }
    tools
}
