//! `check`: the schema-derived cases plus the protocol probes a careful reviewer of a server
//! would run, as findings by severity.

use super::target::Session;
use super::{
    CaseOptions, DEFAULT_TIMEOUT, Era, Expectation, Happened, Outcome, Target, VerifyReport,
    derive_for_tools, run_in, shorten,
};
use crate::spec;
use crate::validation::SchemaValidator;
use crate::wire::meta_keys;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};
use std::fmt::{self, Write as _};
use std::sync::Mutex;
use std::time::Duration;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Breaks the spec or the server's own schema: `mcp-test check` exits 1.
    Defect,
    /// A SHOULD not met, or a behaviour worth a look.
    Warning,
    /// For the record.
    Info,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Defect => "defect",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// One thing found wrong (or noted) about a server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// How bad.
    pub severity: Severity,
    /// The probe that found it, e.g. `lists/pagination`.
    pub probe: String,
    /// What was found.
    pub message: String,
}

/// One probe and what it found; it passes when it found no defect and no warning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Probe {
    /// `area/name`, e.g. `methods/removed`.
    pub name: String,
    /// What it found.
    pub findings: Vec<Finding>,
}

impl Probe {
    /// Whether the probe found nothing worse than an info note.
    pub fn passed(&self) -> bool {
        self.findings.iter().all(|f| f.severity == Severity::Info)
    }
}

/// What `check` found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckReport {
    /// The target's label.
    pub target: String,
    /// The protocol era found.
    pub era: Option<Era>,
    /// Every probe, in the order run.
    pub probes: Vec<Probe>,
    /// The schema-derived cases and their outcomes.
    pub cases: VerifyReport,
}

impl CheckReport {
    /// Every finding of every probe.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.probes.iter().flat_map(|p| p.findings.iter())
    }

    /// How many findings have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings().filter(|f| f.severity == severity).count()
    }

    /// Whether any finding is a defect (`mcp-test check` then exits 1).
    pub fn has_defects(&self) -> bool {
        self.count(Severity::Defect) > 0
    }

    /// The human report: every finding, then the summary table by severity.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let era = self.era.map_or("unknown".to_owned(), |e| e.to_string());
        let _ = writeln!(out, "mcp-test check: {} (protocol {era})", self.target);
        let findings: Vec<&Finding> = self.findings().collect();
        if findings.is_empty() {
            let _ = writeln!(out, "\nNo findings.");
        } else {
            let _ = writeln!(out, "\nFindings:");
            let mut sorted = findings.clone();
            sorted.sort_by_key(|f| f.severity);
            for f in sorted {
                let _ = writeln!(
                    out,
                    "  [{}] {}: {}",
                    f.severity,
                    f.probe,
                    indent(&f.message)
                );
            }
        }
        let agreeing = self.cases.outcomes.iter().filter(|o| o.agrees).count();
        let _ = writeln!(out, "\nSummary");
        let _ = writeln!(out, "  {:<10} {:>6}", "severity", "count");
        for s in [Severity::Defect, Severity::Warning, Severity::Info] {
            let _ = writeln!(out, "  {:<10} {:>6}", s.to_string(), self.count(s));
        }
        let passed = self.probes.iter().filter(|p| p.passed()).count();
        let _ = writeln!(
            out,
            "  probes passed: {passed}/{}; schema cases agreeing: {agreeing}/{}",
            self.probes.len(),
            self.cases.outcomes.len()
        );
        out
    }

    /// The machine report: `{target, era, summary: {defect, warning, info}, findings, probes,
    /// cases}`.
    pub fn to_json(&self) -> Value {
        json!({
            "target": self.target,
            "era": self.era,
            "summary": {
                "defect": self.count(Severity::Defect),
                "warning": self.count(Severity::Warning),
                "info": self.count(Severity::Info),
            },
            "findings": self.findings().collect::<Vec<_>>(),
            "probes": self.probes.iter().map(|p| json!({
                "name": p.name, "passed": p.passed(), "findings": p.findings
            })).collect::<Vec<_>>(),
            "cases": self.cases.outcomes,
        })
    }

    /// A JUnit XML report: one test case per probe and per schema case; a probe with a
    /// defect or a warning, or a disagreeing case, is a failure.
    pub fn to_junit(&self) -> String {
        let mut body = String::new();
        let mut failures = 0;
        for p in &self.probes {
            let _ = write!(
                body,
                "    <testcase classname=\"probes\" name=\"{}\">",
                xml(&p.name)
            );
            if !p.passed() {
                failures += 1;
                let text: Vec<String> = p
                    .findings
                    .iter()
                    .map(|f| format!("[{}] {}", f.severity, f.message))
                    .collect();
                let _ = write!(
                    body,
                    "<failure message=\"{}\">{}</failure>",
                    xml(&shorten(&text[0], 200)),
                    xml(&text.join("\n"))
                );
            }
            body.push_str("</testcase>\n");
        }
        for o in &self.cases.outcomes {
            let _ = write!(
                body,
                "    <testcase classname=\"cases.{}\" name=\"{}\">",
                xml(&o.case.tool),
                xml(&o.case.title)
            );
            if !o.agrees {
                failures += 1;
                let _ = write!(
                    body,
                    "<failure message=\"predicted {}, happened {}\">{}</failure>",
                    o.case.expectation,
                    xml(&o.happened.to_string()),
                    xml(&format!("{}\narguments: {}", o.case.rationale, o.case.args))
                );
            }
            body.push_str("</testcase>\n");
        }
        let total = self.probes.len() + self.cases.outcomes.len();
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"mcp-test check: {}\" tests=\"{total}\" failures=\"{failures}\">\n{body}  </testsuite>\n</testsuites>\n",
            xml(&self.target)
        )
    }
}

fn indent(s: &str) -> String {
    s.replace('\n', "\n      ")
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What `check` runs.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Which cases to derive (edge cases are on by default).
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
    let mut c = Checker {
        session: Session::new(target, options.timeout),
        era,
        log: Mutex::new(Vec::new()),
        probes: Vec::new(),
        dead: None,
    };
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
    progress("multi-round: input_required results");
    c.multi_round(&report).await;
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
        let findings = header_mirroring(&url, options.timeout).await;
        c.push_probe("http/header-mirroring", findings);
    }
    progress("results and errors: every response received");
    c.results_and_errors();
    c.transport(target);
    CheckReport {
        target: target.label(),
        era: Some(era),
        probes: c.probes,
        cases: report,
    }
}

/// One request and its answer, kept for the results/errors probes.
struct Logged {
    method: String,
    id: i64,
    response: Value,
}

struct Checker<'a> {
    session: Session<'a>,
    era: Era,
    log: Mutex<Vec<Logged>>,
    probes: Vec<Probe>,
    /// Set when the server stopped answering: what happened.
    dead: Option<String>,
}

type Out = Vec<(Severity, String)>;

impl Checker<'_> {
    fn probe(&mut self, name: &str, f: impl FnOnce(&mut Out)) {
        let mut out = Vec::new();
        f(&mut out);
        self.push_probe(name, out);
    }

    fn push_probe(&mut self, name: &str, out: Out) {
        let mut seen = HashSet::new();
        let findings = out
            .into_iter()
            .filter(|(s, m)| seen.insert((*s, m.clone())))
            .map(|(severity, message)| Finding {
                severity,
                probe: name.to_owned(),
                message,
            })
            .collect();
        self.probes.push(Probe {
            name: name.to_owned(),
            findings,
        });
    }

    /// Sends a request; a transport failure is recorded (and later probes skip).
    async fn req(&mut self, method: &str, params: Value, out: &mut Out) -> Option<Value> {
        if self.dead.is_some() {
            return None;
        }
        let (id, result) = self.session.request(method, params).await;
        match result {
            Ok(response) => {
                self.log
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(Logged {
                        method: method.to_owned(),
                        id,
                        response: response.clone(),
                    });
                Some(response)
            }
            Err(e) => {
                out.push((
                    Severity::Defect,
                    format!("no answer to {method} (id {id}): {e}"),
                ));
                self.after_failure(e.to_string()).await;
                None
            }
        }
    }

    /// After a call got no answer: the server is dead unless it still answers `tools/list`
    /// (a hang in one handler is then reported, and the check goes on).
    async fn after_failure(&mut self, message: String) {
        let (_, alive) = self.session.request("tools/list", json!({})).await;
        if alive.is_err() {
            self.dead = Some(message);
        }
    }

    fn modern(&self) -> bool {
        self.era == Era::Current
    }

    async fn discovery(&mut self) -> Option<Value> {
        let mut out = Vec::new();
        let mut discovered = None;
        if self.modern() {
            if let Some(r) = self.req("server/discover", json!({}), &mut out).await {
                match r.get("result") {
                    None => out.push((
                        Severity::Defect,
                        format!("server/discover answered an error: {}", r["error"]),
                    )),
                    Some(result) => {
                        let versions = result.get("supportedVersions").and_then(Value::as_array);
                        if !versions.is_some_and(|v| v.contains(&json!("2026-07-28"))) {
                            out.push((
                                Severity::Defect,
                                format!(
                                    "supportedVersions does not list 2026-07-28: {}",
                                    result.get("supportedVersions").unwrap_or(&Value::Null)
                                ),
                            ));
                        }
                        if !result.get("capabilities").is_some_and(Value::is_object) {
                            out.push((
                                Severity::Defect,
                                "the discover result has no `capabilities` object".into(),
                            ));
                        }
                        let info = result.pointer("/_meta/io.modelcontextprotocol~1serverInfo");
                        match info {
                            None => out.push((
                                Severity::Warning,
                                "the discover result does not name the server in _meta[\"io.modelcontextprotocol/serverInfo\"]".into(),
                            )),
                            Some(info)
                                if !(info.get("name").is_some_and(Value::is_string)
                                    && info.get("version").is_some_and(Value::is_string)) =>
                            {
                                out.push((
                                    Severity::Defect,
                                    format!("serverInfo needs a string name and version: {info}"),
                                ));
                            }
                            Some(_) => {}
                        }
                        discovered = Some(result.clone());
                    }
                }
            }
        } else {
            out.push((
                Severity::Warning,
                "the server does not speak 2026-07-28 (server/discover is -32601); it was checked over the 2025-11-25 initialize handshake, and the 2026-only probes were skipped".into(),
            ));
        }
        self.push_probe("discovery/fields", out);
        discovered
    }

    async fn methods(&mut self) {
        let mut out = Vec::new();
        let mut expect_32601 = vec!["mcp-test/no-such-method"];
        if self.modern() {
            expect_32601.extend([
                "initialize",
                "ping",
                "logging/setLevel",
                "resources/subscribe",
                "resources/unsubscribe",
            ]);
        }
        for method in expect_32601 {
            let params = if method == "initialize" {
                json!({"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "mcp-test", "version": "0"}})
            } else {
                json!({})
            };
            if let Some(r) = self.req(method, params, &mut out).await
                && r.pointer("/error/code").and_then(Value::as_i64) != Some(-32601)
            {
                let what = if method.starts_with("mcp-test/") {
                    "an unknown method"
                } else {
                    "a method 2026-07-28 removed"
                };
                out.push((
                    Severity::Defect,
                    format!("{method} ({what}) must be -32601; got {}", brief(&r)),
                ));
            }
        }
        self.push_probe("methods/removed-and-unknown", out);
        if !self.modern() {
            return;
        }
        let mut out = Vec::new();
        let meta = json!({"_meta": {
            meta_keys::PROTOCOL_VERSION: "1999-01-01",
            meta_keys::CLIENT_CAPABILITIES: {},
        }});
        if let Some(r) = self.req("tools/list", meta, &mut out).await {
            if r.pointer("/error/code").and_then(Value::as_i64) != Some(-32022) {
                out.push((
                    Severity::Defect,
                    format!(
                        "a request for protocol version 1999-01-01 must be -32022 (UnsupportedProtocolVersion); got {}",
                        brief(&r)
                    ),
                ));
            } else {
                let data = r.pointer("/error/data");
                let supported = data
                    .and_then(|d| d.get("supported"))
                    .and_then(Value::as_array);
                if !supported.is_some_and(|s| s.contains(&json!("2026-07-28"))) {
                    out.push((
                        Severity::Warning,
                        format!("the -32022 error should list the supported versions in data.supported; data is {}", data.unwrap_or(&Value::Null)),
                    ));
                }
                if data.and_then(|d| d.get("requested")) != Some(&json!("1999-01-01")) {
                    out.push((
                        Severity::Warning,
                        "the -32022 error should echo the requested version in data.requested"
                            .into(),
                    ));
                }
            }
        }
        let id = self.session.next_id();
        let bare = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {}});
        match self.session.raw(bare).await {
            Ok(r) => {
                // Over HTTP the missing version is first a missing MCP-Protocol-Version
                // header (-32020).
                let code = r.pointer("/error/code").and_then(Value::as_i64);
                if !matches!(code, Some(-32602 | -32020)) {
                    out.push((
                        Severity::Defect,
                        format!(
                            "a request without the `_meta` envelope must be -32602; got {}",
                            brief(&r)
                        ),
                    ));
                }
                self.log_response("tools/list", id, r);
            }
            Err(e) => out.push((Severity::Defect, format!("no answer to tools/list: {e}"))),
        }
        self.push_probe("methods/unsupported-version", out);
    }

    fn log_response(&self, method: &str, id: i64, response: Value) {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Logged {
                method: method.to_owned(),
                id,
                response,
            });
    }

    /// Every page of a list method; findings for loops, duplicates and a list that does not
    /// end.
    async fn pages(&mut self, method: &str, key: &str, out: &mut Out) -> Option<Vec<Value>> {
        let mut items = Vec::new();
        let mut cursors = HashSet::new();
        let mut cursor: Option<String> = None;
        for _ in 0..200 {
            let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
            let r = self.req(method, params, out).await?;
            let Some(result) = r.get("result") else {
                out.push((
                    Severity::Defect,
                    format!("{method} answered an error: {}", brief(&r)),
                ));
                return None;
            };
            let Some(page) = result.get(key).and_then(Value::as_array) else {
                out.push((
                    Severity::Defect,
                    format!("the {method} result has no `{key}` array"),
                ));
                return None;
            };
            items.extend(page.iter().cloned());
            match result.get("nextCursor") {
                None | Some(Value::Null) => return Some(items),
                Some(Value::String(next)) => {
                    if !cursors.insert(next.clone()) {
                        out.push((
                            Severity::Defect,
                            format!(
                                "{method} pagination loops: nextCursor {next:?} was already returned"
                            ),
                        ));
                        return Some(items);
                    }
                    cursor = Some(next.clone());
                }
                Some(other) => {
                    out.push((
                        Severity::Defect,
                        format!("{method}: nextCursor must be a string, got {other}"),
                    ));
                    return Some(items);
                }
            }
        }
        out.push((
            Severity::Defect,
            format!("{method} did not end within 200 pages"),
        ));
        Some(items)
    }

    /// Pagination, stable order, duplicates and a bad cursor for one list method.
    async fn list_probe(&mut self, method: &str, key: &str, id_field: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let first = self.pages(method, key, &mut out).await.unwrap_or_default();
        let names = |items: &[Value]| -> Vec<String> {
            items
                .iter()
                .map(|t| t.get(id_field).map(Value::to_string).unwrap_or_default())
                .collect()
        };
        let mut seen = HashSet::new();
        for n in names(&first) {
            if !seen.insert(n.clone()) {
                out.push((
                    Severity::Defect,
                    format!("{method} lists {id_field} {n} more than once"),
                ));
            }
        }
        if self.dead.is_none() {
            let mut again_out = Vec::new();
            if let Some(second) = self.pages(method, key, &mut again_out).await
                && names(&second) != names(&first)
            {
                out.push((
                    Severity::Defect,
                    format!(
                        "{method} is not stable across calls: first {:?}, then {:?}",
                        names(&first),
                        names(&second)
                    ),
                ));
            }
            let bad = json!({"cursor": "mcp-test-not-a-cursor"});
            if let Some(r) = self.req(method, bad, &mut out).await
                && r.get("error").is_none()
            {
                out.push((
                    Severity::Warning,
                    format!(
                        "{method} with an invalid cursor SHOULD be -32602; it answered a result"
                    ),
                ));
            }
        }
        self.push_probe(&format!("lists/{method}"), out);
        first
    }

    async fn tool_lists(&mut self) -> Vec<Value> {
        self.list_probe("tools/list", "tools", "name").await
    }

    async fn tool_definitions(&mut self, tools: &[Value]) {
        let mut out = Vec::new();
        for tool in tools {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
            if self.modern()
                && let Err(e) = spec::check("Tool", tool)
            {
                out.push((Severity::Defect, format!("tool {name:?}: {e}")));
            }
            if let Some(schema) = tool.get("outputSchema")
                && let Err(e) = SchemaValidator::new(schema)
            {
                out.push((
                    Severity::Defect,
                    format!("tool {name:?}: outputSchema does not compile: {e}"),
                ));
            }
        }
        let params = json!({"name": "mcp-test-no-such-tool", "arguments": {}});
        if let Some(r) = self.req("tools/call", params, &mut out).await {
            match Happened::from_response(&r) {
                Happened::RpcError { code: -32602, .. } => {}
                Happened::ToolError { .. } => out.push((
                    Severity::Warning,
                    "an unknown tool answered isError: true; the spec says JSON-RPC -32602".into(),
                )),
                other => out.push((
                    Severity::Defect,
                    format!("calling an unknown tool must be -32602; got {other}"),
                )),
            }
        }
        self.push_probe("tools/definitions-and-unknown-tool", out);
    }

    async fn run_cases(
        &mut self,
        tools: &[Value],
        cases: &[super::Case],
        progress: &mut (dyn FnMut(&str) + Send),
    ) -> VerifyReport {
        let mut report = VerifyReport::default();
        let mut out = Vec::new();
        let mut outputs = Vec::new();
        let output_schemas: BTreeMap<&str, &Value> = tools
            .iter()
            .filter_map(|t| Some((t.get("name")?.as_str()?, t.get("outputSchema")?)))
            .collect();
        let mut skipped = 0;
        for (i, case) in cases.iter().enumerate() {
            if self.dead.is_some() {
                skipped += 1;
                continue;
            }
            if i % 25 == 0 && i > 0 {
                progress(&format!("cases: {i}/{}", cases.len()));
            }
            let (happened, response) = run_in(&self.session, case).await;
            if let Some(r) = &response {
                self.log_response("tools/call", r["id"].as_i64().unwrap_or(-1), r.clone());
            }
            let agrees = happened.agrees_with(case.expectation);
            let label = format!("{} › {} [{}]", case.tool, case.title, case.source);
            match (&happened, case.expectation) {
                (Happened::Failed { message }, _) => {
                    out.push((
                        Severity::Defect,
                        format!(
                            "{label}: the server gave no answer ({message}); arguments {}",
                            case.args
                        ),
                    ));
                    self.after_failure(message.clone()).await;
                }
                (Happened::Success { .. } | Happened::InputRequired, Expectation::Error) => {
                    out.push((
                        Severity::Defect,
                        format!(
                            "{label}: accepted invalid arguments (a missing validation): {}; arguments {}",
                            case.rationale, case.args
                        ),
                    ));
                }
                (h, Expectation::Success) if !agrees => out.push((
                    Severity::Warning,
                    format!(
                        "{label}: rejected valid arguments: {h}; arguments {}",
                        case.args
                    ),
                )),
                (
                    Happened::RpcError {
                        code: -32603,
                        message,
                    },
                    Expectation::Error,
                ) => {
                    out.push((
                        Severity::Warning,
                        format!("{label}: invalid arguments gave an internal error (-32603 {message:?}) rather than a clear rejection"),
                    ));
                }
                _ => {}
            }
            if let (Happened::Success { .. }, Some(schema), Some(r)) =
                (&happened, output_schemas.get(case.tool.as_str()), &response)
            {
                outputs.extend(output_findings(&case.tool, schema, &r["result"]));
            }
            report.outcomes.push(Outcome {
                case: case.clone(),
                happened,
                agrees,
                response,
            });
        }
        if skipped > 0 {
            out.push((
                Severity::Info,
                format!("{skipped} cases skipped after the server stopped answering"),
            ));
        }
        self.push_probe("tools/schema-cases", out);
        self.push_probe("tools/output-schema", outputs);
        report
    }

    async fn multi_round(&mut self, report: &VerifyReport) {
        let mut out = Vec::new();
        for o in &report.outcomes {
            let Some(r) = &o.response else { continue };
            let result = &r["result"];
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                continue;
            }
            if let Some(requests) = result.get("inputRequests").and_then(Value::as_object) {
                // The checker declares no client capabilities, so the server may ask for none.
                for (key, req) in requests {
                    out.push((
                        Severity::Defect,
                        format!(
                            "{} › {}: input request {key:?} ({}) asks for a capability the client did not declare; the server should answer -32021",
                            o.case.tool,
                            o.case.title,
                            req.get("method").and_then(Value::as_str).unwrap_or("?")
                        ),
                    ));
                }
            }
            if let Some(state) = result.get("requestState").and_then(Value::as_str) {
                let params = json!({"name": o.case.tool, "arguments": o.case.args,
                                    "requestState": format!("{state}tampered")});
                if let Some(r) = self.req("tools/call", params, &mut out).await
                    && r.get("error").is_none()
                {
                    out.push((
                        Severity::Defect,
                        format!(
                            "{} › {}: a tampered requestState was accepted: {}",
                            o.case.tool,
                            o.case.title,
                            brief(&r)
                        ),
                    ));
                }
            }
        }
        self.push_probe("multi-round/discipline", out);
    }

    async fn resources(&mut self) {
        let resources = self.list_probe("resources/list", "resources", "uri").await;
        let mut out = Vec::new();
        for res in resources.iter().take(10) {
            if let Some(uri) = res.get("uri").and_then(Value::as_str)
                && let Some(r) = self
                    .req("resources/read", json!({"uri": uri}), &mut out)
                    .await
                && r.get("error").is_some()
            {
                out.push((
                    Severity::Warning,
                    format!("reading the listed resource {uri} failed: {}", brief(&r)),
                ));
            }
        }
        let missing = json!({"uri": "mcp-test://no/such/resource"});
        if let Some(r) = self.req("resources/read", missing, &mut out).await {
            match r.pointer("/error/code").and_then(Value::as_i64) {
                Some(-32602) => {}
                Some(-32002) if !self.modern() => {}
                Some(code) => out.push((
                    Severity::Defect,
                    format!("a missing resource must be -32602 (2026-07-28); got {code}"),
                )),
                None => out.push((
                    Severity::Defect,
                    format!(
                        "reading a missing resource answered a result: {}",
                        brief(&r)
                    ),
                )),
            }
        }
        self.push_probe("resources/not-found", out);
    }

    async fn prompts(&mut self) {
        let prompts = self.list_probe("prompts/list", "prompts", "name").await;
        let mut out = Vec::new();
        for prompt in &prompts {
            let Some(name) = prompt.get("name").and_then(Value::as_str) else {
                continue;
            };
            let required = prompt
                .get("arguments")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|x| x["required"] == json!(true)));
            if required
                && let Some(r) = self
                    .req(
                        "prompts/get",
                        json!({"name": name, "arguments": {}}),
                        &mut out,
                    )
                    .await
                && r.pointer("/error/code").and_then(Value::as_i64) != Some(-32602)
            {
                out.push((
                    Severity::Defect,
                    format!(
                        "prompt {name:?} without its required arguments must be -32602; got {}",
                        brief(&r)
                    ),
                ));
            }
        }
        let unknown = json!({"name": "mcp-test-no-such-prompt"});
        if let Some(r) = self.req("prompts/get", unknown, &mut out).await
            && r.pointer("/error/code").and_then(Value::as_i64) != Some(-32602)
        {
            out.push((
                Severity::Defect,
                format!("an unknown prompt must be -32602; got {}", brief(&r)),
            ));
        }
        self.push_probe("prompts/arguments", out);
    }

    fn results_and_errors(&mut self) {
        let log = std::mem::take(&mut *self.log.lock().unwrap_or_else(|e| e.into_inner()));
        let mut results = Vec::new();
        let mut errors = Vec::new();
        for entry in &log {
            let r = &entry.response;
            if r.get("id") != Some(&json!(entry.id)) {
                errors.push((
                    Severity::Defect,
                    format!(
                        "the response to {} (id {}) has id {}",
                        entry.method,
                        entry.id,
                        r.get("id").unwrap_or(&Value::Null)
                    ),
                ));
            }
            if let Some(code) = r.pointer("/error/code") {
                match code.as_i64() {
                    Some(-32002 | -32042) if self.modern() => errors.push((
                        Severity::Defect,
                        format!(
                            "{} answered {code}, a code 2026-07-28 servers must not emit",
                            entry.method
                        ),
                    )),
                    Some(c) if (-32019..=-32000).contains(&c) => errors.push((
                        Severity::Warning,
                        format!("{} answered the legacy code {c}", entry.method),
                    )),
                    None => errors.push((
                        Severity::Defect,
                        format!(
                            "{}: the error code must be an integer, got {code}",
                            entry.method
                        ),
                    )),
                    _ => {}
                }
            }
            if !self.modern() {
                continue;
            }
            if let Some(result) = r.get("result") {
                if result.get("resultType").is_none() {
                    results.push((
                        Severity::Defect,
                        format!(
                            "the {} result has no resultType (required on every 2026-07-28 result)",
                            entry.method
                        ),
                    ));
                    continue;
                }
                if let Err(e) = spec::check_response(&entry.method, r) {
                    results.push((Severity::Defect, format!("{}: {e}", entry.method)));
                }
            } else if r.get("error").is_some()
                && let Err(e) = spec::check("JSONRPCErrorResponse", r)
            {
                errors.push((Severity::Defect, format!("{}: {e}", entry.method)));
            }
        }
        self.push_probe("results/shape-and-cache-hints", results);
        self.push_probe("errors/codes-and-ids", errors);
    }

    fn transport(&mut self, target: &dyn Target) {
        // A 2025-era server may send requests; the checker declared no capabilities, so it
        // should not have to, but that is not a transport defect in that era.
        let severity = if self.modern() {
            Severity::Defect
        } else {
            Severity::Warning
        };
        let mut out: Out = target
            .transport_violations()
            .into_iter()
            .map(|v| (severity, v))
            .collect();
        if let Some(dead) = &self.dead {
            out.push((
                Severity::Defect,
                format!("the server stopped answering: {dead}"),
            ));
        }
        self.push_probe("transport/hygiene", out);
    }
}

fn output_findings(tool: &str, schema: &Value, result: &Value) -> Out {
    let mut out = Vec::new();
    let Ok(validator) = SchemaValidator::new(schema) else {
        return out;
    };
    match result.get("structuredContent") {
        None => out.push((
            Severity::Defect,
            format!(
                "tool {tool:?} has an outputSchema but a successful result has no structuredContent"
            ),
        )),
        Some(content) => {
            let violations = validator.violations(content);
            if !violations.is_empty() {
                out.push((
                    Severity::Defect,
                    format!(
                        "tool {tool:?}: structuredContent does not match the outputSchema:\n{}",
                        crate::validation::describe(&violations)
                    ),
                ));
            }
        }
    }
    out
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
            shorten(&r.get("result").unwrap_or(r).to_string(), 160)
        )
    }
}

impl Probe {
    /// The area of the probe: the part of its name before `/`.
    pub fn area(&self) -> &str {
        self.name.split('/').next().unwrap_or("")
    }
}

/// Sends `tools/list` whose `Mcp-Method` header says `tools/call`: the server must answer
/// HTTP 400 with -32020 (HeaderMismatch).
#[cfg(feature = "http")]
async fn header_mirroring(url: &str, timeout: Duration) -> Out {
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client as HyperClient;
    use hyper_util::rt::TokioExecutor;
    let mut out = Vec::new();
    let client: HyperClient<_, Full<bytes::Bytes>> =
        HyperClient::builder(TokioExecutor::new()).build_http();
    let body = crate::wire::build::build_request("tools/list", json!({}));
    let request = http::Request::post(url)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json, text/event-stream")
        .header("MCP-Protocol-Version", crate::wire::PROTOCOL_VERSION)
        .header("Mcp-Method", "tools/call")
        .body(Full::new(bytes::Bytes::from(body.to_string())));
    let Ok(request) = request else {
        out.push((Severity::Defect, format!("{url} is not a usable URL")));
        return out;
    };
    let exchange = async {
        let response = client.request(request).await.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        Ok::<_, String>((status, String::from_utf8_lossy(&bytes).into_owned()))
    };
    let (status, text) = match tokio::time::timeout(timeout, exchange).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => {
            out.push((
                Severity::Defect,
                format!("no answer to a request with a mismatched Mcp-Method header: {e}"),
            ));
            return out;
        }
        Err(_) => {
            out.push((
                Severity::Defect,
                format!(
                    "no answer within {timeout:?} to a request with a mismatched Mcp-Method header"
                ),
            ));
            return out;
        }
    };
    // A JSON body, or the first SSE `data:` line.
    let reply: Option<Value> = serde_json::from_str(&text).ok().or_else(|| {
        text.lines()
            .find_map(|l| l.strip_prefix("data:"))
            .and_then(|d| serde_json::from_str(d.trim()).ok())
    });
    let code = reply
        .as_ref()
        .and_then(|r| r.pointer("/error/code"))
        .and_then(Value::as_i64);
    if code != Some(-32020) || status != 400 {
        out.push((
            Severity::Defect,
            format!(
                "a request whose Mcp-Method header (tools/call) disagrees with its body (tools/list) must be HTTP 400 with -32020; got HTTP {status}: {}",
                shorten(&text, 200)
            ),
        ));
    }
    out
}
