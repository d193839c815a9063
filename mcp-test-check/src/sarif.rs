//! SARIF 2.1.0, the format GitHub code scanning and other CI dashboards read: a check's
//! findings ([`CheckReport::to_sarif`]) and a surface's drift ([`drift_to_sarif`]).
//!
//! One rule per spec clause a finding rests on (its id, its level, the quoted sentence and
//! the spec's address as help), one per security rule, and one result per finding with the
//! request that showed it. GitHub code scanning shows only results with a physical location,
//! so each result points at an [`Artifact`]: a file of the repository the user names, by
//! default the file the server command runs or the repository's manifest
//! (`mcp-test check --sarif-file`). Where the finding names a tool, prompt or resource and the
//! file mentions it, the result points at that line. The method, tool or resource is also a
//! logical location.

use crate::report::{CheckReport, Finding, Risk, SecurityFinding, SecurityRule, Severity};
use mcp_test::cases::Era;
use mcp_test::spec::clauses::Clause;
use mcp_test::surface::{Change, Class, Drift};
use serde_json::{Map, Value, json};

/// The SARIF schema a log names in `$schema`.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The file a SARIF result points at, and its text when it could be read, to find the line
/// of the tool or prompt a finding names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Artifact {
    /// Its path, relative to the repository's root and written with `/` (what GitHub code
    /// scanning resolves against the checkout).
    pub uri: String,
    /// Its text, when read.
    pub text: Option<String>,
}

impl Artifact {
    /// The file at `uri`, with its text.
    pub fn new(uri: impl Into<String>, text: Option<String>) -> Self {
        Artifact {
            uri: uri.into(),
            text,
        }
    }

    /// The first line (from 1) that names `name` as a quoted string, else as a word; 1 when
    /// none does or the text is unknown.
    pub fn line_of(&self, name: &str) -> usize {
        let Some(text) = &self.text else { return 1 };
        if name.is_empty() {
            return 1;
        }
        let quoted = [format!("\"{name}\""), format!("'{name}'")];
        let as_word = |line: &str| {
            line.match_indices(name).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                let after = line[at + name.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                !word(before) && !word(after)
            })
        };
        let lines: Vec<&str> = text.lines().collect();
        let find = |hit: &dyn Fn(&str) -> bool| lines.iter().position(|l| hit(l));
        find(&|l| quoted.iter().any(|q| l.contains(q.as_str())))
            .or_else(|| find(&as_word))
            .map_or(1, |i| i + 1)
    }

    /// A SARIF location at `line` of this file.
    fn location(&self, line: usize, logical: Vec<Value>) -> Value {
        let mut location = json!({
            "physicalLocation": {
                "artifactLocation": { "uri": self.uri },
                "region": { "startLine": line },
            }
        });
        if !logical.is_empty() {
            location["logicalLocations"] = Value::Array(logical);
        }
        location
    }
}

/// The SARIF level of a severity: defect → `error`, warning → `warning`, info → `note`.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Defect => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The SARIF level of a security risk: high → `error`, medium → `warning`, low → `note`.
pub fn risk_level(risk: Risk) -> &'static str {
    match risk {
        Risk::High => "error",
        Risk::Medium => "warning",
        Risk::Low => "note",
    }
}

/// GitHub's `security-severity` for a risk (a score out of 10: high from 7, medium from 4).
fn security_severity(risk: Risk) -> &'static str {
    match risk {
        Risk::High => "8.0",
        Risk::Medium => "5.0",
        Risk::Low => "2.0",
    }
}

/// The rule id of a finding: its clause's id, or `note/PROBE` for a note no clause backs.
fn rule_id(finding: &Finding) -> String {
    match &finding.clause {
        Some(clause) => clause.id.to_owned(),
        None => format!("note/{}", finding.probe),
    }
}

/// The rule id of a security finding: `security/` and its rule's id.
fn security_rule_id(rule: &SecurityRule) -> String {
    format!("security/{}", rule.id)
}

/// The rules of a log, in the order first used, each once.
#[derive(Default)]
struct Rules {
    ids: Vec<String>,
    rules: Vec<Value>,
}

impl Rules {
    /// The index of rule `id`, added by `make` when new.
    fn index(&mut self, id: &str, make: impl FnOnce() -> Value) -> usize {
        if let Some(i) = self.ids.iter().position(|known| known == id) {
            return i;
        }
        self.ids.push(id.to_owned());
        self.rules.push(make());
        self.ids.len() - 1
    }
}

/// A rule for a spec clause.
fn clause_rule(clause: &Clause) -> Value {
    let url = clause.url();
    json!({
        "id": clause.id,
        "name": pascal(clause.id),
        "shortDescription": { "text": format!("{} {} §{}", clause.level, clause.file, clause.section) },
        "fullDescription": { "text": clause.text },
        "helpUri": url,
        "help": {
            "text": format!("{}\n\n{} ({}): {url}", clause.text, clause.location(), clause.level),
            "markdown": format!("> {}\n\n[{} ({})]({url})", clause.text, clause.location(), clause.level),
        },
        "defaultConfiguration": { "level": level(clause.level.into()) },
        "properties": {
            "tags": ["mcp", "protocol", clause.area.name()],
            "precision": "very-high",
            "revision": clause.revision,
        },
    })
}

/// A rule for a note no clause backs.
fn note_rule(id: &str, probe: &str) -> Value {
    json!({
        "id": id,
        "name": pascal(id),
        "shortDescription": { "text": format!("A note of the probe {probe}") },
        "fullDescription": { "text": format!("Something the probe {probe} noted for the record; no spec clause backs it, so it is never a defect or a warning.") },
        "help": {
            "text": format!("A note of mcp-test's probe {probe}, for the record: no spec clause backs it, so it is neither a defect nor a warning."),
            "markdown": format!("A note of mcp-test's probe `{probe}`, for the record: no spec clause backs it, so it is neither a defect nor a warning."),
        },
        "defaultConfiguration": { "level": "note" },
        "properties": { "tags": ["mcp"] },
    })
}

/// A rule for a security rule.
fn security_rule(rule: &SecurityRule) -> Value {
    json!({
        "id": security_rule_id(rule),
        "name": pascal(rule.id),
        "shortDescription": { "text": rule.title },
        "fullDescription": { "text": rule.help },
        "helpUri": rule.source,
        "help": {
            "text": format!("{}\n\nSource: {}", rule.help, rule.source),
            "markdown": format!("{}\n\nSource: <{}>", rule.help, rule.source),
        },
        "defaultConfiguration": { "level": risk_level(rule.risk) },
        "properties": {
            "tags": ["mcp", "security"],
            "precision": "high",
            "security-severity": security_severity(rule.risk),
        },
    })
}

/// `tools/not-found` as `ToolsNotFound`: SARIF's rule `name` is a PascalCase identifier.
fn pascal(id: &str) -> String {
    id.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// A stable fingerprint of a result across runs: FNV-1a of what identifies it (rule, where,
/// era and message without request ids), so a dashboard can tell a finding seen before from
/// a new one.
fn fingerprint(parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The message of a finding without the request ids that differ from run to run.
fn stable(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find("id ") {
        out.push_str(&rest[..at + 3]);
        rest = rest[at + 3..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out + rest
}

fn era_name(era: Option<Era>) -> String {
    era.map_or_else(String::new, |e| e.to_string())
}

impl CheckReport {
    /// The report as a SARIF 2.1.0 log: one run of the tool `mcp-test`, its rules (a spec
    /// clause each, a note rule per probe whose note no clause backs, a security rule each),
    /// a result per finding and per security finding, all located in `artifact`. The
    /// invocation says whether the check ran to its end, and lists the probes that did not
    /// run as notifications; the run's properties list the tools called and not called.
    ///
    /// ```
    /// use mcp_test_check::{check, example_server, CheckOptions, sarif::Artifact};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let report = check(&example_server(), &CheckOptions::default()).await;
    /// let log = report.to_sarif(&Artifact::new("src/main.rs", None));
    /// assert_eq!(log["version"], "2.1.0");
    /// assert_eq!(log["runs"][0]["tool"]["driver"]["name"], "mcp-test");
    /// # }
    /// ```
    pub fn to_sarif(&self, artifact: &Artifact) -> Value {
        let mut rules = Rules::default();
        let mut results = Vec::new();
        for finding in self.findings() {
            let id = rule_id(finding);
            let index = rules.index(&id, || match &finding.clause {
                Some(clause) => clause_rule(clause),
                None => note_rule(&id, &finding.probe),
            });
            let mut logical = vec![json!({
                "name": finding.probe,
                "fullyQualifiedName": format!("probe/{}", finding.probe),
                "kind": "module",
            })];
            let mut text = finding.message.clone();
            if let Some(request) = &finding.request {
                logical.push(json!({
                    "name": request.method,
                    "fullyQualifiedName": format!("method/{}", request.method),
                    "kind": "function",
                }));
                text.push_str(&format!(" (request: {request})"));
            }
            if let Some(era) = finding.era {
                text.push_str(&format!(" [{era}]"));
            }
            let era = era_name(finding.era);
            let mut properties = Map::new();
            properties.insert("probe".into(), json!(finding.probe));
            properties.insert("era".into(), json!(finding.era));
            properties.insert("severity".into(), json!(finding.severity));
            if let Some(request) = &finding.request {
                properties.insert(
                    "request".into(),
                    json!({ "method": request.method, "id": request.id }),
                );
            }
            results.push(json!({
                "ruleId": id,
                "ruleIndex": index,
                "level": level(finding.severity),
                "message": { "text": text },
                "locations": [artifact.location(1, logical)],
                "partialFingerprints": {
                    "mcpTest/v1": fingerprint(&[&id, &finding.probe, &era, &stable(&finding.message)]),
                },
                "properties": properties,
            }));
        }
        for finding in &self.security {
            results.push(security_result(&mut rules, finding, artifact));
        }
        let notifications: Vec<Value> = self
            .sessions()
            .flat_map(|session| {
                session.probes.iter().filter_map(move |probe| {
                    probe.skipped.as_ref().map(|why| {
                        let era = session.era.map_or(String::new(), |e| format!(" [{e}]"));
                        json!({
                            "level": "note",
                            "descriptor": { "id": probe.name },
                            "message": { "text": format!("not run{era}: {why}") },
                        })
                    })
                })
            })
            .collect();
        let mut invocation = json!({
            "executionSuccessful": self.cut_short().is_none(),
            "toolExecutionNotifications": notifications,
        });
        if let Some(why) = self.cut_short() {
            invocation["exitCodeDescription"] = json!(format!("incomplete: {why}"));
        }
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "class": t.class,
                    "called": t.called,
                    "notCalled": t.not_called,
                    "allowWith": t.allow_with,
                })
            })
            .collect();
        json!({
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [{
                "tool": { "driver": driver(rules.rules) },
                "automationDetails": { "id": format!("mcp-test/check/{}/", self.target) },
                "invocations": [invocation],
                "results": results,
                "properties": {
                    "target": self.target,
                    "eras": self.eras(),
                    "summary": {
                        "defect": self.count(Severity::Defect),
                        "warning": self.count(Severity::Warning),
                        "info": self.count(Severity::Info),
                        "security": self.security.len(),
                    },
                    "tools": tools,
                },
            }],
        })
    }
}

/// The result of one security finding, its rule added to `rules`.
fn security_result(rules: &mut Rules, finding: &SecurityFinding, artifact: &Artifact) -> Value {
    let id = security_rule_id(finding.rule);
    let index = rules.index(&id, || security_rule(finding.rule));
    let mut logical = Vec::new();
    if let Some(subject) = &finding.subject {
        logical.push(json!({
            "name": subject,
            "fullyQualifiedName": format!("{}{}", finding.source, finding.pointer),
            "kind": "member",
        }));
    }
    let line = finding
        .subject
        .as_deref()
        .map_or(1, |subject| artifact.line_of(subject));
    let mut text = format!(
        "{} (in {} at {}: \"{}\")",
        finding.message, finding.source, finding.pointer, finding.excerpt
    );
    if let Some(decoded) = &finding.decoded {
        text.push_str(&format!("; hidden text decoded: \"{decoded}\""));
    }
    json!({
        "ruleId": id,
        "ruleIndex": index,
        "level": risk_level(finding.rule.risk),
        "message": { "text": text },
        "locations": [artifact.location(line, logical)],
        "partialFingerprints": {
            "mcpTest/v1": fingerprint(&[
                &id,
                &finding.source,
                &finding.pointer,
                finding.subject.as_deref().unwrap_or(""),
            ]),
        },
        "properties": {
            "source": finding.source,
            "pointer": finding.pointer,
            "excerpt": finding.excerpt,
            "decoded": finding.decoded,
            "era": finding.era,
            "risk": finding.rule.risk,
        },
    })
}

/// The tool component `mcp-test`, with `rules`.
fn driver(rules: Vec<Value>) -> Value {
    json!({
        "name": "mcp-test",
        "fullName": "mcp-test check",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "informationUri": env!("CARGO_PKG_REPOSITORY"),
        "rules": rules,
    })
}

/// The SARIF level of a class of change: breaking → `error`; additive and cosmetic, which no
/// client trips over, → `note`.
pub fn class_level(class: Class) -> &'static str {
    match class {
        Class::Breaking => "error",
        Class::Additive | Class::Cosmetic => "note",
    }
}

/// A surface's drift as a SARIF 2.1.0 log: a rule per class of change (`drift/breaking`,
/// `drift/additive`, `drift/cosmetic`) and a result per change, located in `artifact` (the
/// approved surface file, at the line of the item that changed) with the item as a logical
/// location.
///
/// ```
/// use mcp_test::surface::{diff, Surface};
/// use mcp_test_check::sarif::{Artifact, drift_to_sarif};
/// let old = Surface::from_text(r#"{"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}"#)
///     .unwrap();
/// let new = Surface::default();
/// let log = drift_to_sarif(&diff(&old, &new), &Artifact::new("surface.json", None));
/// assert_eq!(log["runs"][0]["results"][0]["ruleId"], "drift/breaking");
/// ```
pub fn drift_to_sarif(drift: &Drift, artifact: &Artifact) -> Value {
    let mut rules = Rules::default();
    let results: Vec<Value> = drift
        .changes
        .iter()
        .map(|change| drift_result(&mut rules, change, artifact))
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver(rules.rules) },
            "automationDetails": { "id": "mcp-test/diff/" },
            "invocations": [{ "executionSuccessful": true }],
            "results": results,
        }],
    })
}

fn drift_result(rules: &mut Rules, change: &Change, artifact: &Artifact) -> Value {
    let class = change.class.to_string();
    let id = format!("drift/{class}");
    let index = rules.index(&id, || {
        json!({
            "id": id,
            "name": pascal(&id),
            "shortDescription": { "text": format!("A {class} change of the server's surface") },
            "fullDescription": { "text": match change.class {
                Class::Breaking => "A client that worked can now fail or be harmed: something removed or renamed, a new required input, an input narrowed, an output widened, a safety promise withdrawn, or a change that could not be proven compatible.",
                Class::Additive => "Something new that no working client can trip over: a new tool, an optional input, a loosened input constraint, a safety promise added.",
                Class::Cosmetic => "Nothing a client can observe changes: a description, a title, the order of a list, a schema rewritten to accept the same values.",
            } },
            "help": {
                "text": format!("mcp-test diff classes every change of a server's surface (its tools, resources, templates, prompts and capabilities) as breaking, additive or cosmetic; this one is {class}."),
                "markdown": format!("`mcp-test diff` classes every change of a server's surface (its tools, resources, templates, prompts and capabilities) as breaking, additive or cosmetic; this one is **{class}**."),
            },
            "defaultConfiguration": { "level": class_level(change.class) },
            "properties": { "tags": ["mcp", "drift"] },
        })
    });
    let location = &change.location;
    let logical = vec![json!({
        "name": location.item,
        "fullyQualifiedName": format!("{}{}", location.item, location.pointer),
        "kind": "member",
    })];
    json!({
        "ruleId": id,
        "ruleIndex": index,
        "level": class_level(change.class),
        "message": { "text": format!("{location}: {}", change.reason) },
        "locations": [artifact.location(artifact.line_of(&location.item), logical)],
        "partialFingerprints": {
            "mcpTest/v1": fingerprint(&[&id, &location.to_string(), &change.reason]),
        },
    })
}
