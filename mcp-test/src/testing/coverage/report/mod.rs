//! The coverage report: the files of every process that recorded (see the [module
//! docs](super)) merged per server, as a table ([`Coverage::to_text`]) or JSON
//! ([`Coverage::to_json`]).
//!
//! What counts: every tool of the server's universe (for an action tool, every action
//! instead), resource, resource template, prompt and completion reference (a prompt argument or
//! template variable with a completion handler). One is covered when at least one request named
//! it, whatever its outcome; the outcome columns say what the requests got. A request naming
//! something outside the universe (an unknown tool, a URI no resource or template matches) is
//! shown as a row marked "not listed" and counts in no total. A kind the universe does not
//! know (a remote server the suite never listed it for) has no total either.
//!
//! ```
//! use mcp_test::testing::coverage::report::{Coverage, Outcome};
//!
//! let process_1 = r#"{"v":1,"event":"universe","source":"registry","target":"t","server":{"name":"s","version":"1"},"tools":[{"name":"add","actions":[]},{"name":"sub","actions":[]}],"resources":[],"templates":[],"prompts":[],"completions":[]}
//! {"v":1,"event":"request","target":"t","server":{"name":"s","version":"1"},"in_process":true,"method":"tools/call","outcome":"success","tool":"add"}"#;
//! let process_2 = r#"{"v":1,"event":"request","target":"t","server":{"name":"s","version":"1"},"in_process":true,"method":"tools/call","outcome":"execution_error","tool":"add"}"#;
//! let coverage = Coverage::from_texts([("1.jsonl", process_1), ("2.jsonl", process_2)]).unwrap();
//! let server = &coverage.servers()[0];
//! assert_eq!(server.processes(), 2);
//! assert_eq!(server.tools()[0].counts().get(Outcome::ExecutionError), 1);
//! assert!(!server.tools()[1].covered());
//! assert_eq!(coverage.summary().items().to_string(), "1/2 (50.0%)");
//! assert!(coverage.to_text().contains("UNCOVERED"));
//! ```

use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;

mod merge;
mod render;
#[cfg(test)]
mod tests;

/// What one request got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Outcome {
    /// A result (for `tools/call`, one without `isError`; a created task counts here).
    Success,
    /// A `tools/call` result with `isError` from argument validation: the runtime's `Invalid
    /// arguments ...`, or an SDK's `Input validation error ...`.
    ValidationError,
    /// JSON-RPC error -32021: a client capability or extension the request needs is missing.
    MissingCapability,
    /// An `input_required` result: one round of a multi-round request.
    InputRequired,
    /// Any other `tools/call` result with `isError`: the tool failed.
    ExecutionError,
    /// Any other JSON-RPC error (or no reply to a request).
    ProtocolError,
}

impl Outcome {
    /// Every outcome, in column order.
    pub const ALL: [Outcome; 6] = [
        Outcome::Success,
        Outcome::ValidationError,
        Outcome::MissingCapability,
        Outcome::InputRequired,
        Outcome::ExecutionError,
        Outcome::ProtocolError,
    ];

    /// Its name in the event files and the JSON report.
    ///
    /// ```
    /// use mcp_test::testing::coverage::Outcome;
    /// assert_eq!(Outcome::MissingCapability.as_str(), "missing_capability");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::ValidationError => "validation_error",
            Outcome::MissingCapability => "missing_capability",
            Outcome::InputRequired => "input_required",
            Outcome::ExecutionError => "execution_error",
            Outcome::ProtocolError => "protocol_error",
        }
    }

    /// Its column head in the table.
    pub fn column(self) -> &'static str {
        match self {
            Outcome::Success => "ok",
            Outcome::ValidationError => "invalid",
            Outcome::MissingCapability => "-32021",
            Outcome::InputRequired => "input_req",
            Outcome::ExecutionError => "tool_err",
            Outcome::ProtocolError => "rpc_err",
        }
    }

    fn parse(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == name)
    }

    fn index(self) -> usize {
        Outcome::ALL
            .iter()
            .position(|o| *o == self)
            .unwrap_or_default()
    }
}

/// How many requests got each outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts([u64; 6]);

impl Counts {
    /// The requests that got `outcome`.
    pub fn get(&self, outcome: Outcome) -> u64 {
        self.0[outcome.index()]
    }

    /// Every request.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    fn add(&mut self, outcome: Outcome) {
        self.0[outcome.index()] += 1;
    }

    fn merge(&mut self, other: &Counts) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }

    fn to_json(self) -> Value {
        Value::Object(
            Outcome::ALL
                .into_iter()
                .map(|o| (o.as_str().to_owned(), Value::from(self.get(o))))
                .collect(),
        )
    }
}

/// One row of a table: a tool (with its action), a resource, a template, a prompt, a
/// completion reference or a method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    name: String,
    detail: Option<String>,
    listed: bool,
    counts: Counts,
}

impl Row {
    /// The tool, URI, template, prompt, `ref/prompt NAME` / `ref/resource TEMPLATE`, or method.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The action of an action tool's row, or the argument of a completion reference.
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// Whether the row is in the server's universe (else a request named something the server
    /// does not list, and the row counts in no total).
    pub fn listed(&self) -> bool {
        self.listed
    }

    /// Whether any request named it.
    pub fn covered(&self) -> bool {
        self.counts.total() > 0
    }

    /// The outcomes of the requests that named it.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    fn to_json(&self, detail: &str) -> Value {
        let mut row = Map::new();
        row.insert("name".into(), self.name.clone().into());
        if let Some(d) = &self.detail {
            row.insert(detail.into(), d.clone().into());
        }
        row.insert("listed".into(), self.listed.into());
        row.insert("covered".into(), self.covered().into());
        row.insert("requests".into(), self.counts.total().into());
        row.insert("outcomes".into(), self.counts.to_json());
        Value::Object(row)
    }
}

/// Covered out of total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// How many were covered.
    pub covered: usize,
    /// How many there are.
    pub total: usize,
}

impl Tally {
    /// The covered share in percent (100 when there is nothing to cover).
    ///
    /// ```
    /// use mcp_test::testing::coverage::report::Tally;
    /// assert_eq!(Tally { covered: 1, total: 4 }.percent(), 25.0);
    /// assert_eq!(Tally::default().percent(), 100.0);
    /// ```
    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            100.0
        } else {
            #[allow(clippy::cast_precision_loss)]
            let share = self.covered as f64 * 100.0 / self.total as f64;
            share
        }
    }

    fn of<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Tally {
        rows.into_iter()
            .filter(|r| r.listed)
            .fold(Tally::default(), |t, r| Tally {
                covered: t.covered + usize::from(r.covered()),
                total: t.total + 1,
            })
    }

    fn plus(self, other: Tally) -> Tally {
        Tally {
            covered: self.covered + other.covered,
            total: self.total + other.total,
        }
    }

    fn to_json(self) -> Value {
        json!({"covered": self.covered, "total": self.total})
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{} ({:.1}%)",
            self.covered,
            self.total,
            self.percent()
        )
    }
}

/// Covered out of total, per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Tools (an action tool is covered when any of its actions is).
    pub tools: Tally,
    /// Actions of action tools.
    pub actions: Tally,
    /// Resources.
    pub resources: Tally,
    /// Resource templates.
    pub templates: Tally,
    /// Prompts.
    pub prompts: Tally,
    /// Completion references.
    pub completions: Tally,
    /// Tools without actions, counted apart so that [`items`](Self::items) counts an action
    /// tool by its actions.
    plain_tools: Tally,
}

impl Summary {
    /// Everything counted once: each tool without actions, each action, resource, template,
    /// prompt and completion reference.
    pub fn items(&self) -> Tally {
        self.plain_tools
            .plus(self.actions)
            .plus(self.resources)
            .plus(self.templates)
            .plus(self.prompts)
            .plus(self.completions)
    }

    fn plus(self, other: Summary) -> Summary {
        Summary {
            tools: self.tools.plus(other.tools),
            actions: self.actions.plus(other.actions),
            resources: self.resources.plus(other.resources),
            templates: self.templates.plus(other.templates),
            prompts: self.prompts.plus(other.prompts),
            completions: self.completions.plus(other.completions),
            plain_tools: self.plain_tools.plus(other.plain_tools),
        }
    }

    fn to_json(self) -> Value {
        let items = self.items();
        json!({
            "tools": self.tools.to_json(),
            "actions": self.actions.to_json(),
            "resources": self.resources.to_json(),
            "templates": self.templates.to_json(),
            "prompts": self.prompts.to_json(),
            "completions": self.completions.to_json(),
            "items": {"covered": items.covered, "total": items.total, "percent": (items.percent() * 10.0).round() / 10.0},
        })
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = |t: Tally| format!("{}/{}", t.covered, t.total);
        write!(
            f,
            "tools {} (actions {}), resources {}, templates {}, prompts {}, completions {}: {} items covered",
            t(self.tools),
            t(self.actions),
            t(self.resources),
            t(self.templates),
            t(self.prompts),
            t(self.completions),
            self.items()
        )
    }
}

/// Where a server's universe came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Universe {
    /// The registry of an in-process server: complete.
    Registry,
    /// The list results the suite obtained from a server in another process.
    Listed,
    /// Nothing: a server in another process the suite never listed.
    Unknown,
}

/// The coverage of one server, merged over every process: its name and version, in the test
/// process or in another ([`ServerCoverage::in_process`]), over every era, transport and port
/// it was reached by.
#[derive(Clone, Debug)]
pub struct ServerCoverage {
    name: String,
    in_process: bool,
    labels: Vec<String>,
    processes: usize,
    universe: Universe,
    /// The kinds the universe knows (`tools`, `resources`...).
    known: BTreeSet<&'static str>,
    tools: Vec<Row>,
    resources: Vec<Row>,
    templates: Vec<Row>,
    prompts: Vec<Row>,
    completions: Vec<Row>,
    methods: Vec<Row>,
    summary: Summary,
}

impl ServerCoverage {
    /// `NAME VERSION`, or the target's label when the server never said its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether it answered in the test process (an in-process `Server`); the same name and
    /// version reached in another process (a child over stdio, a URL) is another
    /// `ServerCoverage`.
    pub fn in_process(&self) -> bool {
        self.in_process
    }

    /// The targets it was reached as (`demo 1.0.0 (in process)`, a command line, a URL).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// How many processes (files) recorded it.
    pub fn processes(&self) -> usize {
        self.processes
    }

    /// Where its universe came from.
    pub fn universe(&self) -> Universe {
        self.universe
    }

    /// A row per tool, or per action of an action tool (detail: the action), listed ones
    /// first.
    pub fn tools(&self) -> &[Row] {
        &self.tools
    }

    /// A row per resource URI.
    pub fn resources(&self) -> &[Row] {
        &self.resources
    }

    /// A row per resource template: reads of URIs it matches (and no resource has).
    pub fn templates(&self) -> &[Row] {
        &self.templates
    }

    /// A row per prompt.
    pub fn prompts(&self) -> &[Row] {
        &self.prompts
    }

    /// A row per completion reference (detail: the argument).
    pub fn completions(&self) -> &[Row] {
        &self.completions
    }

    /// A row per method sent, listed or not (every method counts here, lists and discovery
    /// included).
    pub fn methods(&self) -> &[Row] {
        &self.methods
    }

    /// Covered out of total, per kind.
    pub fn summary(&self) -> Summary {
        self.summary
    }
}

/// Why the files could not be read into a report.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CoverageError {
    /// The directory could not be read.
    #[error(
        "cannot read the coverage directory {}: {source} (set {}=DIR, an absolute path, while the tests run)",
        dir.display(),
        super::format::ENV
    )]
    Dir {
        /// The directory.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The directory holds no `*.jsonl` file.
    #[error(
        "the coverage directory {} holds no recording (*.jsonl): did the tests run with {}={}?",
        dir.display(),
        super::format::ENV,
        dir.display()
    )]
    Empty {
        /// The directory.
        dir: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read {}: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a coverage event.
    #[error("{}:{line}: {reason}", file.display())]
    Corrupt {
        /// The file.
        file: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// The merged coverage of every recording in a directory.
#[derive(Clone, Debug)]
pub struct Coverage {
    servers: Vec<ServerCoverage>,
    files: usize,
    requests: usize,
}

impl Coverage {
    /// Every server, by name.
    pub fn servers(&self) -> &[ServerCoverage] {
        &self.servers
    }

    /// How many files (processes) were merged.
    pub fn files(&self) -> usize {
        self.files
    }

    /// How many requests were recorded.
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// Covered out of total, over every server.
    pub fn summary(&self) -> Summary {
        self.servers
            .iter()
            .fold(Summary::default(), |sum, s| sum.plus(s.summary))
    }

    /// Keeps only the rows that need attention: uncovered ones. The summaries still count
    /// every row.
    pub fn retain_uncovered(&mut self) {
        for server in &mut self.servers {
            for rows in [
                &mut server.tools,
                &mut server.resources,
                &mut server.templates,
                &mut server.prompts,
                &mut server.completions,
            ] {
                rows.retain(|r| r.listed && !r.covered());
            }
            server.methods.clear();
        }
    }
}
