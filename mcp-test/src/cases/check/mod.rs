//! Protocol probes and the findings report behind `mcp-test check`: the schema-derived cases
//! plus the probes a careful reviewer of a server would run, as findings by severity.
//!
//! - [`report`](CheckReport): what was found, and its text, JSON and JUnit forms;
//! - the protocol probes run over any [`Target`]: discovery, methods, lists, tool
//!   definitions, the schema cases, resources and prompts, result shapes and error codes,
//!   transport hygiene;
//! - the multi-round probes: without client capabilities a tool that asks the user must answer
//!   -32021; with every capability declared, each tool whose base case asks is driven to its
//!   final response with synthesized answers ([`target::drive`](crate::target::drive)), every
//!   round checked against the official schema, and a tampered `requestState` must be
//!   refused;
//! - over Streamable HTTP, raw requests whose mirrored headers disagree with the body.

mod probes;
#[cfg(feature = "http")]
mod raw_http;
mod report;
mod rounds;

pub use report::{CheckReport, Finding, Probe, Severity};

use super::{CaseOptions, DEFAULT_TIMEOUT, Era, derive_for_tools};
use crate::target::Target;
use probes::Checker;
use serde_json::{Value, json};
use std::time::Duration;

/// What `check` runs.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Which cases to derive (edge cases are on by default). The cases always run without
    /// client capabilities, whatever [`CaseOptions::client_capabilities`](CaseOptions) says: a
    /// tool that needs one must answer -32021, and the multi-round probe then drives it with
    /// every capability declared.
    pub cases: CaseOptions,
    /// The per-call timeout (a server that hangs is reported, not waited on).
    pub timeout: Duration,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            cases: CaseOptions::default(),
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

/// Checks a server: protocol probes (discovery, results, errors, methods, lists, tools,
/// multi-round, resources and prompts, transport) and the schema-derived cases.
///
/// ```
/// use mcp_test::cases::{check, example_server, CheckOptions};
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
    progress("discovery: server/discover");
    let discover = c.discovery().await;
    progress("methods: removed and unknown methods, unsupported versions");
    c.methods().await;
    progress("lists: tools/list pagination, order, bad cursor");
    let tools = c.tool_lists().await;
    progress("tools: definitions and unknown tools");
    c.tool_definitions(&tools).await;
    let (cases, problems) = derive_for_tools(&tools, &options.cases);
    c.probe("tools/input-schemas", |out| {
        for p in problems {
            out.push((Severity::Defect, format!("no cases derived: {p}")));
        }
    });
    progress(&format!("cases: {} schema-derived cases", cases.len()));
    let report = c.run_cases(&tools, &cases, progress).await;
    progress("multi-round: input_required results, -32021 without capabilities");
    c.multi_round_discipline(&report).await;
    progress("multi-round: tools that ask, driven with every client capability");
    c.multi_round_driven(&report).await;
    let capabilities = discover
        .as_ref()
        .and_then(|d| d.get("capabilities"))
        .cloned()
        .unwrap_or(json!({}));
    if capabilities.get("resources").is_some() || era == Era::Legacy {
        progress("resources: list, read, resource-not-found");
        c.resources().await;
    }
    if capabilities.get("prompts").is_some() || era == Era::Legacy {
        progress("prompts: list, unknown prompt, missing arguments");
        c.prompts().await;
    }
    // Without feature `http` there is no HTTP client, so no target has an HTTP URL.
    #[cfg(feature = "http")]
    if let Some(url) = target.http_url()
        && era == Era::Current
    {
        progress("HTTP: mirrored headers");
        let findings = raw_http::header_mirroring(&url, options.timeout).await;
        c.push_probe("http/header-mirroring", findings);
    }
    progress("results and errors: every response received");
    c.results_and_errors();
    c.transport(target);
    CheckReport {
        target: target.label(),
        era: Some(era),
        probes: c.into_probes(),
        cases: report,
    }
}

/// What one probe found, before it becomes [`Finding`]s.
type Out = Vec<(Severity, String)>;

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
            super::shorten(&r.get("result").unwrap_or(r).to_string(), 160)
        )
    }
}
