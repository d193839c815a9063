//! What `check` found: [`Finding`]s by [`Severity`], grouped by [`Probe`], in a
//! [`CheckReport`] that renders as text, JSON or JUnit XML.

use crate::ToolClass;
use mcp_test::cases::{Era, VerifyReport, shorten};
use mcp_test::spec::clauses::{self, Area, Check, Clause, Level, Transport};
use serde::Serialize;
use serde_json::{Value, json};
use std::fmt::{self, Write as _};
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

impl From<Level> for Severity {
    /// The severity of breaking a clause of this level: MUST and MUST NOT make a defect,
    /// SHOULD and SHOULD NOT a warning, MAY a note.
    fn from(level: Level) -> Self {
        match level {
            Level::Must | Level::MustNot => Severity::Defect,
            Level::Should | Level::ShouldNot => Severity::Warning,
            Level::May => Severity::Info,
        }
    }
}

/// One thing found wrong (or noted) about a server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// How bad: the level of [`clause`](Self::clause) when there is one
    /// ([`Severity::from`]), else [`Severity::Info`].
    pub severity: Severity,
    /// The probe that found it, e.g. `lists/tools/list`.
    pub probe: String,
    /// What was found.
    pub message: String,
    /// The spec clause the server broke; `None` for a note no clause backs.
    pub clause: Option<Clause>,
    /// The request that showed it, when one did.
    pub request: Option<Shown>,
    /// The protocol era of the session that found it: a server that serves both eras is
    /// checked in each ([`CheckReport::other_era`]). `None`: not known.
    pub era: Option<Era>,
}

/// The request that showed a finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// Its method, e.g. `tools/call`.
    pub method: String,
    /// Its JSON-RPC id (`None` for a raw HTTP probe sent outside the session's ids).
    pub id: Option<i64>,
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.id {
            Some(id) => write!(f, "{} (id {id})", self.method),
            None => f.write_str(&self.method),
        }
    }
}

/// One probe and what it found; it passes when it ran and found no defect and no warning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Probe {
    /// `area/name`, e.g. `methods/removed`.
    pub name: String,
    /// What it found.
    pub findings: Vec<Finding>,
    /// Why it did not run, when it did not: it is then neither passed nor failed.
    pub skipped: Option<String>,
    /// How long it took, when measured; in JSON, `ms`.
    #[serde(rename = "ms", serialize_with = "mcp_test::cases::serialize_millis")]
    pub duration: Option<Duration>,
}

impl Probe {
    /// Whether the probe ran and found nothing worse than an info note.
    pub fn passed(&self) -> bool {
        self.skipped.is_none() && self.findings.iter().all(|f| f.severity == Severity::Info)
    }

    /// Whether the probe found a defect or a warning.
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.severity != Severity::Info)
    }

    /// The area of the probe: the part of its name before `/`.
    pub fn area(&self) -> &str {
        self.name.split('/').next().unwrap_or("")
    }
}

/// How much a security finding matters: a scale of its own, apart from [`Severity`], since
/// no spec clause backs it. `mcp-test check` exits 1 on a security finding only when asked
/// (`--fail-on-security LEVEL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    /// Text aimed at the model that no user sees, an instruction to read or send secrets, a
    /// secret in a result: harm if a client passes it on.
    High,
    /// A pattern attacks use that honest servers rarely show.
    Medium,
    /// Worth a look; honest servers show it at times.
    Low,
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Risk::High => "high",
            Risk::Medium => "medium",
            Risk::Low => "low",
        })
    }
}

/// One security rule: what it looks for and where the attack it comes from is described.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SecurityRule {
    /// A stable id, `area/name`, e.g. `hidden/tag-characters`.
    pub id: &'static str,
    /// How much a finding of this rule matters.
    pub risk: Risk,
    /// One line: what the rule finds.
    pub title: &'static str,
    /// Why it matters, for a reader who has not seen the attack.
    pub help: &'static str,
    /// The published write-up or advisory the rule comes from (a URL).
    pub source: &'static str,
}

/// A security finding, with its evidence: the message it was found in, the JSON pointer
/// inside it, and the excerpt with anything invisible shown escaped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SecurityFinding {
    /// The rule that found it.
    pub rule: &'static SecurityRule,
    /// What was found, in a sentence.
    pub message: String,
    /// The message it is in: `tools/list`, `tools/call read_file`, `resources/read
    /// file:///a`, `initialize`, ...
    pub source: String,
    /// The tool, prompt, resource or template it concerns, when one.
    pub subject: Option<String>,
    /// Where in that message, as a JSON pointer (`/tools/3/description`).
    pub pointer: String,
    /// The text found, invisible and control characters escaped (`\u{E0041}`).
    pub excerpt: String,
    /// What the hidden text says once decoded (tag characters to ASCII), when any hid.
    pub decoded: Option<String>,
    /// The era of the session it was found in.
    pub era: Option<Era>,
}

/// How much of the requirements matrix ([`clauses::ALL`]) a check covered in one area, for
/// the server's era: the requirements a probe that ran checks, those whose probes did not run
/// (a capability the server does not declare, another transport, a deadline), those a client
/// could check that no probe checks yet, and those no client can check from outside a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// The area of the protocol.
    pub area: Area,
    /// Requirements checked by a probe that ran.
    pub checked: usize,
    /// Requirements whose probes did not run.
    pub skipped: usize,
    /// Requirements a client could check that no probe checks yet.
    pub not_yet: usize,
    /// Requirements that cannot be checked from outside.
    pub outside: usize,
}

/// One tool the server listed, its [`ToolClass`], and whether `check` called it.
///
/// `called` is read from the requests `check` sent (a `tools/call` naming the tool, with valid
/// arguments or broken on purpose), not from what it meant to send, so the report cannot claim
/// a call that did not happen or miss one that did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ListedTool {
    /// The tool's name.
    pub name: String,
    /// What its annotations say calling it may do.
    pub class: ToolClass,
    /// Whether it may reach outside the machine (`openWorldHint` true or absent), whatever its
    /// class: the report marks such a tool when it was called.
    pub open_world: bool,
    /// Whether `check` sent a `tools/call` of it.
    pub called: bool,
    /// Why it was not called, when it was not.
    pub not_called: Option<String>,
    /// When only consent held it back: the flags that would call it, e.g. `--allow-writes or
    /// --tool commit`.
    pub allow_with: Option<String>,
}

impl ListedTool {
    /// A tool and its class, not called, with no reason yet.
    pub(crate) fn new(name: &str, tool: &Value) -> Self {
        ListedTool {
            name: name.to_owned(),
            class: ToolClass::of(tool),
            open_world: crate::consent::open_world(tool),
            called: false,
            not_called: None,
            allow_with: None,
        }
    }
}

/// What `check` found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckReport {
    /// The target's label.
    pub target: String,
    /// The protocol era found.
    pub era: Option<Era>,
    /// The transport the server was reached over (`None`: in this process).
    pub transport: Option<Transport>,
    /// Every probe, in the order run.
    pub probes: Vec<Probe>,
    /// The schema-derived cases and their outcomes.
    pub cases: VerifyReport,
    /// How many derived cases were not sent, each of a kind a case sent already probed
    /// ([`CheckOptions::all_cases`](super::CheckOptions::all_cases) sends them).
    pub cases_left_out: usize,
    /// Every tool the server listed, in the order listed: its class, whether `check` called
    /// it, and when not, why and which flags would.
    pub tools: Vec<ListedTool>,
    /// Why the check did not run to its end, when it did not: the server could not be
    /// reached ([`CheckReport::not_checked`]), or the overall deadline passed
    /// ([`CheckOptions::deadline`](super::CheckOptions::deadline)). What ran is still
    /// reported; `mcp-test check` then exits 2 unless it found a defect.
    pub incomplete: Option<String>,
    /// The connect timeout that applied to the handshake, and why (`30 s, since the command
    /// runs the server at once`): set by `mcp-test check` for a server it started or reached
    /// by URL; `None` otherwise.
    pub connect_timeout: Option<String>,
    /// Why [`era`](Self::era) is 2025-11-25 for a server that answered `server/discover`,
    /// when its own word decided it (its `supportedVersions` named 2025-11-25 and not
    /// 2026-07-28): then no 2026-07-28 rule was probed, and the report says so once (a note
    /// of `discovery/fields`).
    pub negotiation: Option<String>,
    /// The check of the server's other era, for a server that serves both (a 2026-07-28
    /// server that also answered `initialize` with an `InitializeResult`): its 2025-11-25
    /// session, with probes of its own, on a connection of its own. Its findings count in
    /// [`findings`](Self::findings) and the exit code, each naming its era; `None` when one
    /// era was checked (`--era` pins one). It has no `other_era` of its own.
    pub other_era: Option<Box<CheckReport>>,
    /// The security findings (`security` rules), kept apart from the spec's findings: each
    /// names its rule and carries its evidence. A server checked in both eras has them here
    /// once each, not in [`other_era`](Self::other_era).
    pub security: Vec<SecurityFinding>,
    /// The first definitions this session listed, as a surface document: what a fresh
    /// session and a pin (`--pin`) are compared with; `None` when nothing was listed. Not in
    /// the JSON report. Public, as every field is, so that a report can be built with
    /// `..CheckReport::default()`.
    #[serde(skip)]
    pub listed: Option<Value>,
}

impl CheckReport {
    /// Every finding of every probe, in every era checked (this era's, then
    /// [`other_era`](Self::other_era)'s).
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.probes
            .iter()
            .chain(self.other_era.iter().flat_map(|o| o.probes.iter()))
            .flat_map(|p| p.findings.iter())
    }

    /// The eras checked: this report's, then [`other_era`](Self::other_era)'s.
    pub fn eras(&self) -> Vec<Era> {
        self.era
            .into_iter()
            .chain(self.other_era.iter().filter_map(|o| o.era))
            .collect()
    }

    /// This report and [`other_era`](Self::other_era)'s, each one era.
    pub(crate) fn sessions(&self) -> impl Iterator<Item = &CheckReport> {
        std::iter::once(self).chain(self.other_era.as_deref())
    }

    /// Why the check, or the other era's, did not run to its end, when it did not.
    pub fn cut_short(&self) -> Option<&str> {
        self.sessions().find_map(|s| s.incomplete.as_deref())
    }

    /// How many findings have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings().filter(|f| f.severity == severity).count()
    }

    /// How many security findings have this risk.
    ///
    /// ```
    /// use mcp_test_check::{CheckReport, Risk};
    /// assert_eq!(CheckReport::default().security_count(Risk::High), 0);
    /// ```
    pub fn security_count(&self, risk: Risk) -> usize {
        self.security.iter().filter(|f| f.rule.risk == risk).count()
    }

    /// Whether a security finding of `level` or a higher risk was found: what
    /// `--fail-on-security LEVEL` exits 1 on.
    ///
    /// ```
    /// use mcp_test_check::{CheckReport, Risk};
    /// assert!(!CheckReport::default().fails_on_security(Risk::Low));
    /// ```
    pub fn fails_on_security(&self, level: Risk) -> bool {
        // `Risk` orders High first: a risk at least `level` is one not after it.
        self.security.iter().any(|f| f.rule.risk <= level)
    }

    /// What the check covered of the requirements that bind the server's era, per area (in
    /// the order of [`Area::ALL`]; an area with no requirement for the era is left out). A
    /// requirement counts as checked when one of its probes ran, as skipped when none did or
    /// when it shows only on another transport than the server's.
    ///
    /// ```
    /// use mcp_test_check::{check, example_server, CheckOptions};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let report = check(&example_server(), &CheckOptions::default()).await;
    /// let tools = report.coverage().into_iter().find(|c| c.area.name() == "tools").unwrap();
    /// assert!(tools.checked > 0);
    /// # }
    /// ```
    pub fn coverage(&self) -> Vec<Coverage> {
        let era = self.era.unwrap_or(Era::Current);
        let ran = |name: &str| {
            self.probes
                .iter()
                .any(|p| p.name == name && p.skipped.is_none())
        };
        let mut out = Vec::new();
        for area in Area::ALL {
            let mut c = Coverage {
                area,
                checked: 0,
                skipped: 0,
                not_yet: 0,
                outside: 0,
            };
            for clause in clauses::ALL
                .iter()
                .filter(|c| c.area == area && c.binds(era))
            {
                let on_transport = match (clause.transport, self.transport) {
                    (Transport::Any, _) => true,
                    (wanted, Some(actual)) => wanted == actual,
                    (_, None) => false,
                };
                match clause.check {
                    Check::Outside(_) => c.outside += 1,
                    Check::NotYet(_) => c.not_yet += 1,
                    Check::Probes(names) if on_transport && names.iter().any(|n| ran(n)) => {
                        c.checked += 1
                    }
                    Check::Probes(_) => c.skipped += 1,
                }
            }
            if c.checked + c.skipped + c.not_yet + c.outside > 0 {
                out.push(c);
            }
        }
        out
    }

    /// Whether any finding is a defect (`mcp-test check` then exits 1).
    pub fn has_defects(&self) -> bool {
        self.count(Severity::Defect) > 0
    }

    /// Fails the calling test when any finding is a defect, with the defects first (probe,
    /// clause and message each) and then the whole report, so the failure alone says what
    /// broke and what else the check saw. Warnings and notes pass. A check that ran no probe
    /// at all (the server could not be reached: [`CheckReport::not_checked`]) fails too,
    /// naming why: it tested nothing.
    ///
    /// ```
    /// use mcp_test_check::{CheckOptions, check, example_server};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// check(&example_server(), &CheckOptions::default()).await.assert_no_defects();
    /// # }
    /// ```
    #[track_caller]
    pub fn assert_no_defects(&self) {
        let defects: Vec<&Finding> = self
            .findings()
            .filter(|f| f.severity == Severity::Defect)
            .collect();
        let ran = self
            .sessions()
            .any(|s| s.probes.iter().any(|p| p.skipped.is_none()));
        if defects.is_empty() && !ran {
            panic!(
                "mcp-test check ran no probe on {}, so it tested nothing: {}\n{}",
                self.target,
                self.incomplete
                    .as_deref()
                    .unwrap_or("every probe was skipped"),
                self.to_text()
            );
        }
        if defects.is_empty() {
            return;
        }
        let mut out = format!("{} defect(s) found by mcp-test check:\n", defects.len());
        for finding in defects {
            let clause = finding
                .clause
                .as_ref()
                .map_or(String::new(), |c| format!(" [{c}]"));
            let _ = writeln!(out, "- {}{clause}: {}", finding.probe, finding.message);
        }
        panic!("{out}\n{}", self.to_text());
    }

    /// The human report: every finding, the probes not run, the tools and the requirements
    /// covered, for each era checked, then the summary table by severity.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let eras: Vec<String> = self.eras().iter().map(ToString::to_string).collect();
        let eras = if eras.is_empty() {
            "unknown".to_owned()
        } else if self.other_era.is_some() {
            // Both eras: the revisions say it.
            self.eras()
                .iter()
                .map(|e| e.revision())
                .collect::<Vec<_>>()
                .join(" and ")
        } else {
            eras.join(" and ")
        };
        let _ = writeln!(out, "mcp-test check: {} (protocol {eras})", self.target);
        if let Some(connect) = &self.connect_timeout {
            let _ = writeln!(out, "Connect timeout: {connect}");
        }
        let dual = self.other_era.is_some();
        for session in self.sessions() {
            if dual {
                let era = session.era.map_or("unknown", |e| e.revision());
                let _ = writeln!(out, "\n=== The {era} session ===");
            }
            session.section(&mut out);
        }
        let (mut passed, mut ran, mut not_run, mut agreeing, mut cases) = (0, 0, 0, 0, 0);
        let mut left_out = 0;
        for session in self.sessions() {
            let skipped = session
                .probes
                .iter()
                .filter(|p| p.skipped.is_some())
                .count();
            passed += session.probes.iter().filter(|p| p.passed()).count();
            ran += session.probes.len() - skipped;
            not_run += skipped;
            agreeing += session.cases.outcomes.iter().filter(|o| o.agrees).count();
            cases += session.cases.outcomes.len();
            left_out += session.cases_left_out;
        }
        self.security_section(&mut out);
        let _ = writeln!(out, "\nSummary");
        let _ = writeln!(out, "  {:<10} {:>6}", "severity", "count");
        for s in [Severity::Defect, Severity::Warning, Severity::Info] {
            let _ = writeln!(out, "  {:<10} {:>6}", s.to_string(), self.count(s));
        }
        let _ = writeln!(
            out,
            "  probes passed: {passed}/{ran} run ({not_run} not run); schema cases agreeing: {agreeing}/{cases}"
        );
        if left_out > 0 {
            let _ = writeln!(
                out,
                "  schema cases not sent: {left_out}, each of a kind a case sent probed (--all-cases sends them)"
            );
        }
        let _ = writeln!(
            out,
            "  security: {} high, {} medium, {} low",
            self.security_count(Risk::High),
            self.security_count(Risk::Medium),
            self.security_count(Risk::Low)
        );
        out
    }

    /// The security section of [`to_text`](Self::to_text): each finding with its rule, where
    /// it is and its evidence.
    fn security_section(&self, out: &mut String) {
        if self.security.is_empty() {
            return;
        }
        let _ = writeln!(out, "\nSecurity ({} finding(s))", self.security.len());
        for f in &self.security {
            let subject = f
                .subject
                .as_deref()
                .map(|s| format!(" {s:?}"))
                .unwrap_or_default();
            let era = f.era.map(|e| format!(" [{e}]")).unwrap_or_default();
            let _ = writeln!(
                out,
                "  [{}] {}{subject}: {}{era}",
                f.rule.risk, f.rule.id, f.message
            );
            let _ = writeln!(out, "      at {} {}", f.source, f.pointer);
            let _ = writeln!(out, "      excerpt: {}", f.excerpt);
            if let Some(decoded) = &f.decoded {
                let _ = writeln!(out, "      decoded: {decoded}");
            }
            let _ = writeln!(out, "      rule: {} ({})", f.rule.title, f.rule.source);
        }
    }

    /// One era's part of [`to_text`](Self::to_text): why the era, whether it ran to its end,
    /// its findings, the probes not run, the tools and the requirements covered.
    fn section(&self, out: &mut String) {
        if let Some(why) = &self.incomplete {
            let _ = writeln!(out, "\nIncomplete: {}", indent(why));
        }
        let mut findings: Vec<&Finding> = self.probes.iter().flat_map(|p| &p.findings).collect();
        if findings.is_empty() {
            let _ = writeln!(out, "\nNo findings.");
        } else {
            let _ = writeln!(out, "\nFindings:");
            findings.sort_by_key(|f| f.severity);
            for f in findings {
                let _ = writeln!(
                    out,
                    "  [{}] {}: {}",
                    f.severity,
                    f.probe,
                    indent(&f.message)
                );
                if let Some(request) = &f.request {
                    let _ = writeln!(out, "      request: {request}");
                }
                if let Some(clause) = &f.clause {
                    let _ = writeln!(out, "      clause: {clause}: {}", indent(clause.text));
                }
            }
        }
        let skipped: Vec<&Probe> = self.probes.iter().filter(|p| p.skipped.is_some()).collect();
        if !skipped.is_empty() {
            let _ = writeln!(out, "\nProbes not run:");
            for p in &skipped {
                let why = p.skipped.as_deref().unwrap_or("");
                let _ = writeln!(out, "  {}: {}", p.name, indent(why));
            }
        }
        if !self.tools.is_empty() {
            let called = self.tools.iter().filter(|t| t.called).count();
            let _ = writeln!(
                out,
                "\nTools ({called} of {} called; classes from their annotations, server/tools.mdx)",
                self.tools.len()
            );
            for t in &self.tools {
                let what = if t.called && t.open_world {
                    "called [open world: may reach outside this machine]".to_owned()
                } else if t.called {
                    "called".to_owned()
                } else {
                    let why = t.not_called.as_deref().unwrap_or("not called");
                    match &t.allow_with {
                        Some(flags) => format!("not called: {why}; call it with {flags}"),
                        None => format!("not called: {why}"),
                    }
                };
                let _ = writeln!(out, "  {} ({}): {}", t.name, t.class, indent(&what));
            }
        }
        let coverage = self.coverage();
        if !coverage.is_empty() {
            let _ = writeln!(
                out,
                "\nRequirements of the spec (mcp-test's matrix, REQUIREMENTS.md)"
            );
            let _ = writeln!(
                out,
                "  {:<14} {:>8} {:>8} {:>15} {:>14}",
                "area", "checked", "skipped", "not probed yet", "not checkable"
            );
            let mut total = (0, 0, 0, 0);
            for c in &coverage {
                let _ = writeln!(
                    out,
                    "  {:<14} {:>8} {:>8} {:>15} {:>14}",
                    c.area.name(),
                    c.checked,
                    c.skipped,
                    c.not_yet,
                    c.outside
                );
                total = (
                    total.0 + c.checked,
                    total.1 + c.skipped,
                    total.2 + c.not_yet,
                    total.3 + c.outside,
                );
            }
            let _ = writeln!(
                out,
                "  {:<14} {:>8} {:>8} {:>15} {:>14}",
                "all", total.0, total.1, total.2, total.3
            );
        }
    }

    /// The machine report: `{target, era, eras, negotiation, transport, incomplete,
    /// connect_timeout, summary: {defect, warning, info}, findings, probes, cases, tools:
    /// [{name, class, open_world, called, not_called, allow_with}], coverage: [{area, checked,
    /// skipped, not_yet, outside}], other_era}`; a tool's `class` is `read-only`,
    /// `open-world`, `additive-write` or `destructive` ([`ToolClass`]); `incomplete` is `null`
    /// for a check that ran to its end, `connect_timeout` (which applied, and why) `null`
    /// unless the command line started or reached the server. A finding carries its `era`,
    /// its `clause` (`{id, revision, file, section, level, text}`) and `request` (`{method,
    /// id}`), or `null`; a probe has its `era` and `status` `passed`, `failed` or `skipped`
    /// (with `skipped`: why). Every probe and every case has `ms`, the milliseconds it took (a
    /// probe's includes its requests; the `tools/schema-cases` probe's is the wall time of
    /// all cases, which run `jobs` at a time). `cases_left_out` counts the derived cases not
    /// sent, each of a kind a case sent probed.
    ///
    /// For a server checked in both eras, `eras` names both, `summary` and `findings` cover
    /// both, and `other_era` is the 2025-11-25 session's report in the same shape (without an
    /// `other_era` of its own); else `other_era` is `null`.
    pub fn to_json(&self) -> Value {
        let mut json = self.session_json();
        json["eras"] = json!(self.eras());
        json["summary"] = json!({
            "defect": self.count(Severity::Defect),
            "warning": self.count(Severity::Warning),
            "info": self.count(Severity::Info),
        });
        json["findings"] = json!(self.findings().collect::<Vec<_>>());
        json["security"] = json!(self.security);
        json["security_summary"] = json!({
            "high": self.security_count(Risk::High),
            "medium": self.security_count(Risk::Medium),
            "low": self.security_count(Risk::Low),
        });
        json["other_era"] = self
            .other_era
            .as_ref()
            .map_or(Value::Null, |o| o.session_json());
        json
    }

    /// One era's part of [`to_json`](Self::to_json).
    fn session_json(&self) -> Value {
        let count = |severity: Severity| {
            self.probes
                .iter()
                .flat_map(|p| &p.findings)
                .filter(|f| f.severity == severity)
                .count()
        };
        json!({
            "target": self.target,
            "era": self.era,
            "eras": self.era.into_iter().collect::<Vec<_>>(),
            "negotiation": self.negotiation,
            "incomplete": self.incomplete,
            "connect_timeout": self.connect_timeout,
            "summary": {
                "defect": count(Severity::Defect),
                "warning": count(Severity::Warning),
                "info": count(Severity::Info),
            },
            "findings": self.probes.iter().flat_map(|p| &p.findings).collect::<Vec<_>>(),
            "probes": self.probes.iter().map(|p| json!({
                "name": p.name,
                "era": self.era,
                "status": if p.skipped.is_some() { "skipped" } else if p.passed() { "passed" } else { "failed" },
                "passed": p.passed(),
                "skipped": p.skipped,
                "findings": p.findings,
                "ms": p.duration.map(|d| (d.as_secs_f64() * 10_000.0).round() / 10.0),
            })).collect::<Vec<_>>(),
            "cases": self.cases.outcomes,
            "cases_left_out": self.cases_left_out,
            "tools": self.tools,
            "transport": self.transport,
            "coverage": self.coverage(),
            "other_era": null,
        })
    }

    /// A JUnit XML report: one test case per probe and per schema case, and a skipped one
    /// (`cases.TOOL`, `not called`) per listed tool `check` did not call, saying why and what
    /// would call it; a probe with a defect or a warning, or a disagreeing case, is a
    /// failure. A check that did not run to its end has a test case `check/complete` with an
    /// `<error>` saying why.
    ///
    /// A server checked in both eras has the test cases of each: the other era's classnames
    /// end in its revision (`probes.2025-11-25`, `cases.2025-11-25.TOOL`).
    pub fn to_junit(&self) -> String {
        let mut body = String::new();
        let (mut failures, mut errors, mut total) = (0, 0, 0);
        for (i, session) in self.sessions().enumerate() {
            let suffix = match (i, session.era) {
                (0, _) | (_, None) => String::new(),
                (_, Some(era)) => format!(".{era}"),
            };
            let (f, e, t) = session.junit_cases(&suffix, &mut body);
            failures += f;
            errors += e;
            total += t;
        }
        // One test case per security rule that found something, failing with its evidence.
        let mut rules: Vec<&'static SecurityRule> = Vec::new();
        for f in &self.security {
            if !rules.iter().any(|r| r.id == f.rule.id) {
                rules.push(f.rule);
            }
        }
        for rule in rules {
            let found: Vec<String> = self
                .security
                .iter()
                .filter(|f| f.rule.id == rule.id)
                .map(|f| {
                    format!(
                        "[{}] {}: {} at {} {}; excerpt: {}",
                        f.rule.risk,
                        f.subject.as_deref().unwrap_or("-"),
                        f.message,
                        f.source,
                        f.pointer,
                        f.excerpt
                    )
                })
                .collect();
            let _ = writeln!(
                body,
                "    <testcase classname=\"security\" name=\"{}\"><failure message=\"{}\">{}</failure></testcase>",
                xml(rule.id),
                xml(&shorten(&found[0], 200)),
                xml(&format!(
                    "{}\n{}\nsource: {}",
                    found.join("\n"),
                    rule.help,
                    rule.source
                ))
            );
            failures += 1;
            total += 1;
        }
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"mcp-test check: {}\" tests=\"{total}\" failures=\"{failures}\" errors=\"{errors}\">\n{body}  </testsuite>\n</testsuites>\n",
            xml(&self.target)
        )
    }

    /// One era's test cases of [`to_junit`](Self::to_junit), their classnames ending in
    /// `suffix`: how many failed, how many are errors, how many there are.
    fn junit_cases(&self, suffix: &str, body: &mut String) -> (usize, usize, usize) {
        let mut failures = 0;
        if let Some(why) = &self.incomplete {
            let _ = writeln!(
                body,
                "    <testcase classname=\"check{suffix}\" name=\"complete\"><error message=\"{}\">{}</error></testcase>",
                xml(&shorten(why, 200)),
                xml(why)
            );
        }
        for p in &self.probes {
            let _ = write!(
                body,
                "    <testcase classname=\"probes{suffix}\" name=\"{}\">",
                xml(&p.name)
            );
            if let Some(why) = &p.skipped {
                let _ = write!(body, "<skipped message=\"{}\"/>", xml(why));
            } else if p.failed() {
                failures += 1;
                let text: Vec<String> = p
                    .findings
                    .iter()
                    .map(|f| match &f.clause {
                        Some(clause) => format!("[{}] {} ({clause})", f.severity, f.message),
                        None => format!("[{}] {}", f.severity, f.message),
                    })
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
                "    <testcase classname=\"cases{suffix}.{}\" name=\"{}\">",
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
        let not_called: Vec<&ListedTool> = self.tools.iter().filter(|t| !t.called).collect();
        for t in &not_called {
            let why = t.not_called.as_deref().unwrap_or("not called");
            let message = match &t.allow_with {
                Some(flags) => format!("{} ({}): {why}; call it with {flags}", t.name, t.class),
                None => format!("{} ({}): {why}", t.name, t.class),
            };
            let _ = writeln!(
                body,
                "    <testcase classname=\"cases{suffix}.{}\" name=\"not called\"><skipped message=\"{}\"/></testcase>",
                xml(&t.name),
                xml(&message)
            );
        }
        let errors = usize::from(self.incomplete.is_some());
        let total = self.probes.len() + self.cases.outcomes.len() + not_called.len() + errors;
        (failures, errors, total)
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

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(
        expected = "ran no probe on unreachable, so it tested nothing: connection refused"
    )]
    fn a_check_that_ran_no_probe_fails_its_test() {
        CheckReport::not_checked("unreachable", "connection refused").assert_no_defects();
    }

    use super::*;

    fn report(severity: Severity) -> CheckReport {
        CheckReport {
            target: "demo".to_owned(),
            probes: vec![Probe {
                name: "tools/definitions-and-unknown-tool".to_owned(),
                findings: vec![Finding {
                    severity,
                    probe: "tools/definitions-and-unknown-tool".to_owned(),
                    message: "a tool named `` is listed".to_owned(),
                    clause: None,
                    request: None,
                    era: None,
                }],
                skipped: None,
                duration: None,
            }],
            ..CheckReport::default()
        }
    }

    #[test]
    fn no_defect_passes_and_a_defect_fails_naming_it_and_the_whole_report() {
        report(Severity::Warning).assert_no_defects();
        report(Severity::Info).assert_no_defects();
        let failed = std::panic::catch_unwind(|| report(Severity::Defect).assert_no_defects())
            .expect_err("a defect fails the test");
        let message = failed
            .downcast_ref::<String>()
            .expect("the panic carries the report");
        assert!(
            message.starts_with("1 defect(s) found by mcp-test check:\n- tools/definitions-and-unknown-tool: a tool named `` is listed\n"),
            "{message}"
        );
        assert!(message.contains("mcp-test check: demo"), "{message}");
    }
}
