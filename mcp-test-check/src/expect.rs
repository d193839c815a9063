//! Expected findings: a committed list of the defects and warnings a server is known to
//! have, each with the spec clause that justifies it, compared with a [`CheckReport`]
//! (`mcp-test check --expect FILE`).
//!
//! The file is JSON:
//!
//! ```json
//! {
//!   "server": "server-everything 2026.8.31 over stdio",
//!   "findings": [
//!     {
//!       "severity": "warning",
//!       "probe": "lists/tools/list",
//!       "clause": "pagination/invalid-cursor",
//!       "contains": "invalid cursor",
//!       "why": "server/utilities/pagination.mdx §Error Handling: \"Invalid cursors SHOULD result in an error with code -32602\"; it answers a bad cursor with the first page"
//!     }
//!   ]
//! }
//! ```
//!
//! - `severity` (`defect` or `warning`) and `probe` are required; `clause` (a clause id of
//!   [`spec::clauses`](mcp_test::spec::clauses)), `contains` (a substring of the message) and
//!   `era` (`2026-07-28` or `2025-11-25`: the session that found it, for a server checked in
//!   both eras) narrow the entry; `why` says which spec sentence the server breaks, quoted, and how.
//! - `seen` (optional, ignored when matching) keeps the messages the entry was written from.
//! - Only defects and warnings are compared: info notes are never alarms.
//! - `security` (optional) lists the security findings the server really draws, each
//!   `{"rule", "subject", "why"}`: `rule` a rule id of
//!   [`security::RULES`](crate::security::RULES), `subject` (optional) the tool, prompt or
//!   resource, `why` what makes it genuine. They are compared as findings are: every security
//!   finding must match an entry, and every entry a finding.
//! - Every defect and warning of the report must match an entry, and every entry must match at
//!   least one of them: a finding no entry expects is a false alarm or a new defect, an entry
//!   that matches nothing is a defect that went away (or an entry to update).
//!
//! ```
//! use mcp_test_check::{CheckReport, Expectations, Finding, Probe, Severity};
//! use mcp_test::spec::clauses;
//!
//! let report = CheckReport {
//!     target: "demo".into(),
//!     probes: vec![Probe {
//!         name: "prompts/arguments".into(),
//!         findings: vec![Finding {
//!             severity: Severity::Warning,
//!             probe: "prompts/arguments".into(),
//!             message: "an unknown prompt: -32602 expected; got error -32603".into(),
//!             clause: clauses::find("prompts/errors").copied(),
//!             request: None,
//!             era: None,
//!         }],
//!         skipped: None,
//!         duration: None,
//!     }],
//!     ..CheckReport::default()
//! };
//! let expected = Expectations::parse(
//!     r#"{"server": "demo", "findings": [
//!         {"severity": "warning", "probe": "prompts/arguments", "clause": "prompts/errors",
//!          "contains": "unknown prompt",
//!          "why": "server/prompts.mdx §Error Handling: Invalid prompt name SHOULD be -32602"}
//!     ]}"#,
//!     "demo.json",
//! )
//! .unwrap();
//! let comparison = expected.compare(&report);
//! assert!(comparison.matches(), "{}", comparison.to_text());
//!
//! // A listed finding that disappears is a mismatch too.
//! let comparison = expected.compare(&CheckReport::default());
//! assert!(!comparison.matches());
//! assert_eq!(comparison.unmatched.len(), 1);
//!
//! // A malformed file names the file and the JSON pointer of the bad entry.
//! let err = Expectations::parse(
//!     r#"{"findings": [{"severity": "fatal", "probe": "x"}]}"#,
//!     "bad.json",
//! )
//! .unwrap_err();
//! assert!(err.to_string().starts_with("bad.json: at /findings/0/severity:"), "{err}");
//! ```

use super::{CheckReport, Finding, SecurityFinding, Severity};
use mcp_test::cases::Era;
use mcp_test::spec::clauses;
use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use std::path::Path;

/// The expected defects and warnings of one server, as read from an expect file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expectations {
    /// What the file is about (free text).
    pub server: String,
    /// The expected findings, in the order written.
    pub findings: Vec<Expected>,
    /// The expected security findings (`security`), in the order written.
    pub security: Vec<ExpectedSecurity>,
}

/// One expected security finding: its rule, the item it concerns, and why it is genuine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedSecurity {
    /// The rule id (`hidden/zero-width`).
    pub rule: String,
    /// The tool, prompt or resource; `None` matches any.
    pub subject: Option<String>,
    /// Why the finding is genuine, not a false alarm.
    pub why: String,
}

impl ExpectedSecurity {
    /// Whether `finding` is one this entry expects.
    pub fn matches(&self, finding: &SecurityFinding) -> bool {
        finding.rule.id == self.rule
            && self
                .subject
                .as_ref()
                .is_none_or(|s| finding.subject.as_ref() == Some(s))
    }

    fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("rule".into(), json!(self.rule));
        if let Some(s) = &self.subject {
            m.insert("subject".into(), json!(s));
        }
        m.insert("why".into(), json!(self.why));
        Value::Object(m)
    }
}

/// One expected finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// [`Severity::Defect`] or [`Severity::Warning`].
    pub severity: Severity,
    /// The probe that reports it, e.g. `prompts/arguments`.
    pub probe: String,
    /// The id of the clause it breaks (`resources/not-found`); `None` matches any clause,
    /// and a finding with no clause.
    pub clause: Option<String>,
    /// A substring of the finding's message; `None` matches any message.
    pub contains: Option<String>,
    /// The era of the session that found it (`"era": "2025-11-25"`), for a server checked in
    /// both; `None` matches a finding of either era.
    pub era: Option<Era>,
    /// Why the server breaks the spec: the sentence, quoted, and what the server does.
    pub why: String,
    /// The messages the entry was written from (for a reader; not matched).
    pub seen: Vec<String>,
}

impl Expected {
    /// Whether `finding` is one this entry expects.
    pub fn matches(&self, finding: &Finding) -> bool {
        finding.severity == self.severity
            && finding.probe == self.probe
            && self
                .clause
                .as_deref()
                .is_none_or(|id| finding.clause.is_some_and(|c| c.id == id))
            && self
                .contains
                .as_deref()
                .is_none_or(|s| finding.message.contains(s))
            && self.era.is_none_or(|era| finding.era == Some(era))
    }

    /// The entry in one line: `[warning] probe (clause …, containing "…")`.
    pub fn describe(&self) -> String {
        let mut s = format!("[{}] {}", self.severity, self.probe);
        let mut narrowing = Vec::new();
        if let Some(c) = &self.clause {
            narrowing.push(format!("clause {c}"));
        }
        if let Some(t) = &self.contains {
            narrowing.push(format!("containing {t:?}"));
        }
        if let Some(era) = self.era {
            narrowing.push(format!("in {era}"));
        }
        if !narrowing.is_empty() {
            let _ = write!(s, " ({})", narrowing.join(", "));
        }
        s
    }

    fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("severity".into(), json!(self.severity));
        m.insert("probe".into(), json!(self.probe));
        if let Some(c) = &self.clause {
            m.insert("clause".into(), json!(c));
        }
        if let Some(t) = &self.contains {
            m.insert("contains".into(), json!(t));
        }
        if let Some(era) = self.era {
            m.insert("era".into(), json!(era));
        }
        m.insert("why".into(), json!(self.why));
        if !self.seen.is_empty() {
            m.insert("seen".into(), json!(self.seen));
        }
        Value::Object(m)
    }
}

/// Why an expect file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ExpectError {
    /// The file could not be read.
    #[error("cannot read {file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not JSON.
    #[error("{file}: not JSON: {source}")]
    Syntax {
        /// The file.
        file: String,
        /// Where and why parsing stopped.
        source: serde_json::Error,
    },
    /// The file is JSON but not an expect file.
    #[error("{file}: at {}: {message}", if pointer.is_empty() { "the top level" } else { pointer })]
    Invalid {
        /// The file.
        file: String,
        /// The JSON pointer of the bad value (empty for the whole document).
        pointer: String,
        /// What is wrong with it.
        message: String,
    },
    /// The file could not be written.
    #[error("cannot write {file}: {source}")]
    Write {
        /// The file.
        file: String,
        /// What the system said.
        source: std::io::Error,
    },
}

/// The result of comparing a report with [`Expectations`].
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// Defects and warnings no entry expects: false alarms or new defects.
    pub unexpected: Vec<Finding>,
    /// Entries (index in the file, entry) that matched no finding: gone, or to update.
    pub unmatched: Vec<(usize, Expected)>,
    /// How many defects and warnings an entry expected.
    pub expected: usize,
    /// Entries without a `why`.
    pub unjustified: Vec<usize>,
    /// Security findings no `security` entry expects.
    pub unexpected_security: Vec<SecurityFinding>,
    /// `security` entries (index, entry) that matched no security finding.
    pub unmatched_security: Vec<(usize, ExpectedSecurity)>,
}

impl Comparison {
    /// Whether the report is exactly what the file expects.
    pub fn matches(&self) -> bool {
        self.unexpected.is_empty()
            && self.unmatched.is_empty()
            && self.unexpected_security.is_empty()
            && self.unmatched_security.is_empty()
    }

    /// Every mismatch, the unexpected findings in full, then a one-line verdict.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if !self.unexpected.is_empty() {
            let _ = writeln!(
                out,
                "Findings the expect file does not list ({}):",
                self.unexpected.len()
            );
            for f in &self.unexpected {
                let _ = writeln!(out, "  [{}] {}", f.severity, f.probe);
                let _ = writeln!(out, "    message: {}", f.message.replace('\n', "\n      "));
                match &f.clause {
                    Some(c) => {
                        let _ = writeln!(out, "    clause: {} — {c}", c.id);
                    }
                    None => {
                        let _ = writeln!(out, "    clause: none");
                    }
                }
                if let Some(r) = &f.request {
                    let _ = writeln!(out, "    request: {r}");
                }
            }
        }
        if !self.unmatched.is_empty() {
            let _ = writeln!(
                out,
                "Expected findings the report does not have ({}):",
                self.unmatched.len()
            );
            for (i, e) in &self.unmatched {
                let _ = writeln!(out, "  /findings/{i}: {}", e.describe());
            }
        }
        if !self.unexpected_security.is_empty() {
            let _ = writeln!(
                out,
                "Security findings the expect file does not list ({}):",
                self.unexpected_security.len()
            );
            for f in &self.unexpected_security {
                let _ = writeln!(
                    out,
                    "  [{}] {} {}: {}",
                    f.rule.risk,
                    f.rule.id,
                    f.subject.as_deref().unwrap_or("-"),
                    f.message
                );
                let _ = writeln!(
                    out,
                    "    at {} {}; excerpt: {}",
                    f.source, f.pointer, f.excerpt
                );
            }
        }
        for (i, e) in &self.unmatched_security {
            let _ = writeln!(
                out,
                "Expected security finding the report does not have: /security/{i}: {} {}",
                e.rule,
                e.subject.as_deref().unwrap_or("(any)")
            );
        }
        for i in &self.unjustified {
            let _ = writeln!(out, "note: /findings/{i} has no `why`");
        }
        let _ = writeln!(
            out,
            "expect: {} ({} expected finding{}, {} unexpected, {} entr{} matched nothing)",
            if self.matches() { "match" } else { "MISMATCH" },
            self.expected,
            if self.expected == 1 { "" } else { "s" },
            self.unexpected.len(),
            self.unmatched.len(),
            if self.unmatched.len() == 1 {
                "y"
            } else {
                "ies"
            },
        );
        out
    }
}

/// The findings an expect file compares: defects and warnings.
fn alarms(report: &CheckReport) -> impl Iterator<Item = &Finding> {
    report
        .findings()
        .filter(|f| matches!(f.severity, Severity::Defect | Severity::Warning))
}

impl Expectations {
    /// Reads an expect file.
    pub fn load(path: &Path) -> Result<Self, ExpectError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ExpectError::Read {
            file: file.clone(),
            source,
        })?;
        Self::parse(&text, &file)
    }

    /// Parses the text of an expect file; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, ExpectError> {
        let doc: Value = serde_json::from_str(text).map_err(|source| ExpectError::Syntax {
            file: file.to_owned(),
            source,
        })?;
        let invalid = |pointer: String, message: String| ExpectError::Invalid {
            file: file.to_owned(),
            pointer,
            message,
        };
        let Some(top) = doc.as_object() else {
            return Err(invalid(
                String::new(),
                "an expect file is an object {\"server\", \"findings\"}".into(),
            ));
        };
        if let Some(key) = top
            .keys()
            .find(|k| !["server", "findings", "security"].contains(&k.as_str()))
        {
            return Err(invalid(
                format!("/{}", escape(key)),
                "unknown key; an expect file has `server`, `findings` and `security`".into(),
            ));
        }
        let server = match top.get("server") {
            None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(invalid("/server".into(), "must be a string".into())),
        };
        let entries = match top.get("findings") {
            Some(Value::Array(a)) => a,
            Some(_) => return Err(invalid("/findings".into(), "must be an array".into())),
            None => {
                return Err(invalid(
                    String::new(),
                    "`findings` is missing (an empty array when nothing is expected)".into(),
                ));
            }
        };
        let findings = entries
            .iter()
            .enumerate()
            .map(|(i, entry)| {
                parse_entry(entry, &format!("/findings/{i}"))
                    .map_err(|(pointer, message)| invalid(pointer, message))
            })
            .collect::<Result<_, _>>()?;
        let security = match top.get("security") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .map(|(i, entry)| {
                    parse_security(entry, &format!("/security/{i}"))
                        .map_err(|(pointer, message)| invalid(pointer, message))
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(invalid("/security".into(), "must be an array".into())),
        };
        Ok(Expectations {
            server,
            findings,
            security,
        })
    }

    /// Compares a report with these expectations: defects and warnings only.
    pub fn compare(&self, report: &CheckReport) -> Comparison {
        let mut used = vec![false; self.findings.len()];
        let mut comparison = Comparison::default();
        for finding in alarms(report) {
            let mut any = false;
            for (i, e) in self.findings.iter().enumerate() {
                if e.matches(finding) {
                    used[i] = true;
                    any = true;
                }
            }
            if any {
                comparison.expected += 1;
            } else {
                comparison.unexpected.push(finding.clone());
            }
        }
        comparison.unmatched = self
            .findings
            .iter()
            .enumerate()
            .filter(|(i, _)| !used[*i])
            .map(|(i, e)| (i, e.clone()))
            .collect();
        comparison.unjustified = self
            .findings
            .iter()
            .enumerate()
            .filter(|(_, e)| e.why.trim().is_empty())
            .map(|(i, _)| i)
            .collect();
        let mut used = vec![false; self.security.len()];
        for finding in &report.security {
            let mut any = false;
            for (i, e) in self.security.iter().enumerate() {
                if e.matches(finding) {
                    used[i] = true;
                    any = true;
                }
            }
            if !any {
                comparison.unexpected_security.push(finding.clone());
            }
        }
        comparison.unmatched_security = self
            .security
            .iter()
            .enumerate()
            .filter(|(i, _)| !used[*i])
            .map(|(i, e)| (i, e.clone()))
            .collect();
        comparison
    }

    /// A starting file for `report`: the entries of `previous` that still match a finding,
    /// kept as written, then one new entry (with an empty `why` for a human to fill in) per
    /// severity, probe and clause of the defects and warnings no kept entry expects.
    pub fn from_report(report: &CheckReport, previous: Option<&Expectations>) -> Self {
        let mut findings: Vec<Expected> = Vec::new();
        if let Some(previous) = previous {
            let unmatched: Vec<usize> = previous
                .compare(report)
                .unmatched
                .iter()
                .map(|(i, _)| *i)
                .collect();
            findings.extend(
                previous
                    .findings
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !unmatched.contains(i))
                    .map(|(_, e)| e.clone()),
            );
        }
        let kept = findings.len();
        for f in alarms(report) {
            if findings[..kept].iter().any(|e| e.matches(f)) {
                continue;
            }
            let clause = f.clause.map(|c| c.id.to_owned());
            let message = f.message.clone();
            // Narrowed to its era only for a server checked in both.
            let era = f.era.filter(|_| report.other_era.is_some());
            match findings[kept..].iter_mut().find(|e| {
                e.severity == f.severity && e.probe == f.probe && e.clause == clause && e.era == era
            }) {
                Some(e) => e.seen.push(message),
                None => findings.push(Expected {
                    severity: f.severity,
                    probe: f.probe.clone(),
                    clause,
                    contains: None,
                    era,
                    why: String::new(),
                    seen: vec![message],
                }),
            }
        }
        // Security entries: the previous ones that still match, then one per rule and
        // subject found that none expects, with an empty `why`.
        let mut security: Vec<ExpectedSecurity> = previous
            .map(|p| {
                p.security
                    .iter()
                    .filter(|e| report.security.iter().any(|f| e.matches(f)))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        for f in &report.security {
            if !security.iter().any(|e| e.matches(f)) {
                security.push(ExpectedSecurity {
                    rule: f.rule.id.to_owned(),
                    subject: f.subject.clone(),
                    why: String::new(),
                });
            }
        }
        Expectations {
            server: previous.map_or_else(|| report.target.clone(), |p| p.server.clone()),
            findings,
            security,
        }
    }

    /// The file's JSON (`security` only when it lists something).
    pub fn to_json(&self) -> Value {
        let mut json = json!({
            "server": self.server,
            "findings": self.findings.iter().map(Expected::to_json).collect::<Vec<_>>(),
        });
        if !self.security.is_empty() {
            json["security"] = json!(
                self.security
                    .iter()
                    .map(ExpectedSecurity::to_json)
                    .collect::<Vec<_>>()
            );
        }
        json
    }

    /// Writes the file, pretty-printed.
    pub fn write(&self, path: &Path) -> Result<(), ExpectError> {
        let text = serde_json::to_string_pretty(&self.to_json()).unwrap_or_default() + "\n";
        std::fs::write(path, text).map_err(|source| ExpectError::Write {
            file: path.display().to_string(),
            source,
        })
    }
}

/// One `security` entry, or the pointer and message of what is wrong with it.
fn parse_security(entry: &Value, at: &str) -> Result<ExpectedSecurity, (String, String)> {
    const KEYS: [&str; 3] = ["rule", "subject", "why"];
    let Some(m) = entry.as_object() else {
        return Err((
            at.to_owned(),
            "a security entry is an object {\"rule\", \"subject\", \"why\"}".into(),
        ));
    };
    if let Some(key) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err((
            format!("{at}/{}", escape(key)),
            format!("unknown key; a security entry has {}", KEYS.join(", ")),
        ));
    }
    let string = |key: &str| -> Result<Option<String>, (String, String)> {
        match m.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err((format!("{at}/{key}"), "must be a string".into())),
        }
    };
    let Some(rule) = string("rule")? else {
        return Err((at.to_owned(), "`rule` is missing".into()));
    };
    if crate::security::rule(&rule).is_none() {
        return Err((
            format!("{at}/rule"),
            format!("{rule:?} is not a rule id of mcp_test_check::security::RULES"),
        ));
    }
    Ok(ExpectedSecurity {
        rule,
        subject: string("subject")?,
        why: string("why")?.unwrap_or_default(),
    })
}

/// One entry, or the pointer and message of what is wrong with it.
fn parse_entry(entry: &Value, at: &str) -> Result<Expected, (String, String)> {
    const KEYS: [&str; 7] = [
        "severity", "probe", "clause", "contains", "era", "why", "seen",
    ];
    let Some(m) = entry.as_object() else {
        return Err((
            at.to_owned(),
            "an entry is an object {\"severity\", \"probe\", \"clause\", \"contains\", \"why\"}"
                .into(),
        ));
    };
    if let Some(key) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err((
            format!("{at}/{}", escape(key)),
            format!("unknown key; an entry has {}", KEYS.join(", ")),
        ));
    }
    let string = |key: &str| -> Result<Option<String>, (String, String)> {
        match m.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err((format!("{at}/{key}"), "must be a string".into())),
        }
    };
    let severity = match string("severity")?.as_deref() {
        Some("defect") => Severity::Defect,
        Some("warning") => Severity::Warning,
        Some("info") => {
            return Err((
                format!("{at}/severity"),
                "info notes are not compared; an entry is a \"defect\" or a \"warning\"".into(),
            ));
        }
        Some(other) => {
            return Err((
                format!("{at}/severity"),
                format!("{other:?} is not a severity; use \"defect\" or \"warning\""),
            ));
        }
        None => return Err((at.to_owned(), "`severity` is missing".into())),
    };
    let Some(probe) = string("probe")?.filter(|p| !p.is_empty()) else {
        return Err((at.to_owned(), "`probe` is missing or empty".into()));
    };
    let clause = string("clause")?;
    if let Some(id) = &clause
        && clauses::find(id).is_none()
    {
        return Err((
            format!("{at}/clause"),
            format!("{id:?} is not a clause id of mcp_test::spec::clauses"),
        ));
    }
    let contains = string("contains")?;
    if contains.as_deref() == Some("") {
        return Err((
            format!("{at}/contains"),
            "empty; leave it out to match any message".into(),
        ));
    }
    let era = match string("era")?.as_deref() {
        None => None,
        Some(text) if text == Era::Current.revision() => Some(Era::Current),
        Some(text) if text == Era::Legacy.revision() => Some(Era::Legacy),
        Some(other) => {
            return Err((
                format!("{at}/era"),
                format!(
                    "{other:?} is not an era; use {:?} or {:?}",
                    Era::Current.revision(),
                    Era::Legacy.revision()
                ),
            ));
        }
    };
    let why = string("why")?.unwrap_or_default();
    let seen = match m.get("seen") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| (format!("{at}/seen/{i}"), "must be a string".to_owned()))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err((format!("{at}/seen"), "must be an array of strings".into()));
        }
    };
    Ok(Expected {
        severity,
        probe,
        clause,
        contains,
        era,
        why,
        seen,
    })
}

/// A key as one JSON pointer segment (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Probe;

    fn finding(severity: Severity, probe: &str, message: &str, clause: Option<&str>) -> Finding {
        Finding {
            severity,
            probe: probe.into(),
            message: message.into(),
            clause: clause.map(|id| *clauses::find(id).unwrap()),
            request: None,
            era: None,
        }
    }

    fn report(findings: Vec<Finding>) -> CheckReport {
        CheckReport {
            target: "t".into(),
            probes: findings
                .into_iter()
                .map(|f| Probe {
                    name: f.probe.clone(),
                    findings: vec![f],
                    skipped: None,
                    duration: None,
                })
                .collect(),
            ..CheckReport::default()
        }
    }

    fn parse(text: &str) -> Expectations {
        Expectations::parse(text, "f.json").unwrap()
    }

    fn err(text: &str) -> String {
        Expectations::parse(text, "f.json").unwrap_err().to_string()
    }

    #[test]
    fn an_empty_list_matches_a_report_with_only_info_notes() {
        let e = parse(r#"{"server": "s", "findings": []}"#);
        let r = report(vec![finding(Severity::Info, "a/b", "note", None)]);
        let c = e.compare(&r);
        assert!(c.matches(), "{}", c.to_text());
        assert!(c.to_text().contains("expect: match"));
    }

    #[test]
    fn an_unlisted_warning_is_unexpected_and_shown_in_full() {
        let e = parse(r#"{"findings": []}"#);
        let mut f = finding(
            Severity::Warning,
            "lists/tools/list",
            "bad cursor answered a result",
            Some("pagination/invalid-cursor"),
        );
        f.request = Some(crate::Shown {
            method: "tools/list".into(),
            id: Some(7),
        });
        let c = e.compare(&report(vec![f]));
        assert!(!c.matches());
        assert_eq!(c.unexpected.len(), 1);
        let text = c.to_text();
        for needle in [
            "[warning] lists/tools/list",
            "message: bad cursor answered a result",
            "clause: pagination/invalid-cursor",
            "request: tools/list (id 7)",
            "expect: MISMATCH",
        ] {
            assert!(text.contains(needle), "{needle:?} not in\n{text}");
        }
    }

    #[test]
    fn an_entry_that_matches_nothing_is_reported_by_pointer() {
        let e = parse(
            r#"{"findings": [{"severity": "defect", "probe": "resources/not-found", "why": "w"}]}"#,
        );
        let c = e.compare(&report(vec![]));
        assert_eq!(c.unmatched.len(), 1);
        assert!(
            c.to_text()
                .contains("/findings/0: [defect] resources/not-found")
        );
    }

    #[test]
    fn severity_probe_clause_and_contains_all_narrow_the_match() {
        let f = finding(
            Severity::Defect,
            "resources/not-found",
            "a missing resource must be -32602; got -32002",
            Some("resources/not-found"),
        );
        let entry = |extra: &str| {
            parse(&format!(
                r#"{{"findings": [{{"severity": "defect", "probe": "resources/not-found"{extra}}}]}}"#
            ))
            .findings
            .remove(0)
        };
        assert!(entry("").matches(&f));
        assert!(entry(r#", "clause": "resources/not-found""#).matches(&f));
        assert!(entry(r#", "contains": "got -32002""#).matches(&f));
        assert!(!entry(r#", "clause": "resources/not-found-not-empty""#).matches(&f));
        assert!(!entry(r#", "contains": "got -32601""#).matches(&f));
        let mut warning = f.clone();
        warning.severity = Severity::Warning;
        assert!(!entry("").matches(&warning));
        let mut other_probe = f.clone();
        other_probe.probe = "prompts/arguments".into();
        assert!(!entry("").matches(&other_probe));
        // A clause in the entry does not match a finding without one.
        let mut no_clause = f;
        no_clause.clause = None;
        assert!(!entry(r#", "clause": "resources/not-found""#).matches(&no_clause));
        assert!(entry("").matches(&no_clause));
    }

    #[test]
    fn one_entry_may_cover_several_findings() {
        let e = parse(
            r#"{"findings": [{"severity": "warning", "probe": "p", "contains": "cursor", "why": "w"}]}"#,
        );
        let r = report(vec![
            finding(Severity::Warning, "p", "bad cursor on tools", None),
            finding(Severity::Warning, "p", "bad cursor on prompts", None),
        ]);
        let c = e.compare(&r);
        assert!(c.matches(), "{}", c.to_text());
        assert_eq!(c.expected, 2);
    }

    #[test]
    fn an_entry_without_why_is_noted_but_still_matches() {
        let e = parse(r#"{"findings": [{"severity": "warning", "probe": "p"}]}"#);
        let c = e.compare(&report(vec![finding(Severity::Warning, "p", "m", None)]));
        assert!(c.matches());
        assert_eq!(c.unjustified, vec![0]);
        assert!(c.to_text().contains("note: /findings/0 has no `why`"));
    }

    #[test]
    fn malformed_files_name_the_file_and_the_pointer() {
        assert!(err("{").starts_with("f.json: not JSON: "), "{}", err("{"));
        assert_eq!(
            err("[]"),
            "f.json: at the top level: an expect file is an object {\"server\", \"findings\"}"
        );
        assert!(err(r#"{"server": "s"}"#).contains("`findings` is missing"));
        assert!(
            err(r#"{"findings": [], "finding": []}"#)
                .starts_with("f.json: at /finding: unknown key")
        );
        assert!(err(r#"{"findings": {}}"#).starts_with("f.json: at /findings: must be an array"));
        assert!(err(r#"{"findings": [1]}"#).starts_with("f.json: at /findings/0: an entry is"));
        let cases = [
            (r#"{"probe": "p"}"#, "at /findings/1: `severity` is missing"),
            (
                r#"{"severity": "info", "probe": "p"}"#,
                "at /findings/1/severity: info notes are not compared",
            ),
            (
                r#"{"severity": "defect"}"#,
                "at /findings/1: `probe` is missing",
            ),
            (
                r#"{"severity": "defect", "probe": 3}"#,
                "at /findings/1/probe: must be a string",
            ),
            (
                r#"{"severity": "defect", "probe": "p", "clause": "no/such"}"#,
                "at /findings/1/clause: \"no/such\" is not a clause id",
            ),
            (
                r#"{"severity": "defect", "probe": "p", "contains": ""}"#,
                "at /findings/1/contains: empty",
            ),
            (
                r#"{"severity": "defect", "probe": "p", "clasue": "x"}"#,
                "at /findings/1/clasue: unknown key",
            ),
            (
                r#"{"severity": "defect", "probe": "p", "a/b": 1}"#,
                "at /findings/1/a~1b: unknown key",
            ),
            (
                r#"{"severity": "defect", "probe": "p", "seen": ["x", 2]}"#,
                "at /findings/1/seen/1: must be a string",
            ),
        ];
        for (entry, want) in cases {
            let text =
                format!(r#"{{"findings": [{{"severity": "warning", "probe": "ok"}}, {entry}]}}"#);
            let got = err(&text);
            assert!(
                got.starts_with(&format!("f.json: {want}")),
                "{entry}: {got}"
            );
        }
    }

    #[test]
    fn load_names_a_missing_file() {
        let e = Expectations::load(Path::new("/nonexistent/mcp-test/e.json")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot read /nonexistent/mcp-test/e.json: "),
            "{e}"
        );
    }

    #[test]
    fn from_report_groups_new_findings_and_keeps_matching_entries() {
        let previous = parse(
            r#"{"server": "kept name", "findings": [
                {"severity": "warning", "probe": "a", "why": "still there"},
                {"severity": "defect", "probe": "gone", "why": "fixed since"}
            ]}"#,
        );
        let r = report(vec![
            finding(Severity::Warning, "a", "one", None),
            finding(
                Severity::Defect,
                "resources/not-found",
                "m1",
                Some("resources/not-found"),
            ),
            finding(
                Severity::Defect,
                "resources/not-found",
                "m2",
                Some("resources/not-found"),
            ),
            finding(Severity::Info, "i", "note", None),
        ]);
        let written = Expectations::from_report(&r, Some(&previous));
        assert_eq!(written.server, "kept name");
        assert_eq!(written.findings.len(), 2, "{:?}", written.findings);
        assert_eq!(written.findings[0].why, "still there");
        let new = &written.findings[1];
        assert_eq!(new.probe, "resources/not-found");
        assert_eq!(new.clause.as_deref(), Some("resources/not-found"));
        assert_eq!(new.seen, vec!["m1".to_owned(), "m2".to_owned()]);
        assert!(new.why.is_empty());
        // What it writes reads back the same, and matches the report it came from.
        let text = serde_json::to_string(&written.to_json()).unwrap();
        let again = parse(&text);
        assert_eq!(again, written);
        assert!(again.compare(&r).matches());
        // Without a previous file, the server is the report's target.
        assert_eq!(Expectations::from_report(&r, None).server, "t");
    }
}
