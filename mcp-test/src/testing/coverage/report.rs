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
//! {"v":1,"event":"request","target":"t","server":{"name":"s","version":"1"},"method":"tools/call","outcome":"success","tool":"add"}"#;
//! let process_2 = r#"{"v":1,"event":"request","target":"t","server":{"name":"s","version":"1"},"method":"tools/call","outcome":"execution_error","tool":"add"}"#;
//! let coverage = Coverage::from_texts([("1.jsonl", process_1), ("2.jsonl", process_2)]).unwrap();
//! let server = &coverage.servers()[0];
//! assert_eq!(server.processes(), 2);
//! assert_eq!(server.tools()[0].counts().get(Outcome::ExecutionError), 1);
//! assert!(!server.tools()[1].covered());
//! assert_eq!(coverage.summary().items().to_string(), "1/2 (50.0%)");
//! assert!(coverage.to_text().contains("UNCOVERED"));
//! ```

use crate::uri_template::UriTemplate;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

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

/// The coverage of one server, merged over every process.
#[derive(Clone, Debug)]
pub struct ServerCoverage {
    name: String,
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

/// One line, parsed.
enum Event {
    Universe {
        target: String,
        server: Option<String>,
        registry: bool,
        tools: Option<Vec<(String, Vec<String>)>>,
        resources: Option<Vec<String>>,
        templates: Option<Vec<String>>,
        prompts: Option<Vec<String>>,
        completions: Option<Vec<(String, String, String)>>,
    },
    Request {
        target: String,
        server: Option<String>,
        method: String,
        outcome: Outcome,
        tool: Option<String>,
        action: Option<String>,
        uri: Option<String>,
        prompt: Option<String>,
        reference: Option<(String, String, String)>,
    },
}

impl Event {
    fn target(&self) -> &str {
        match self {
            Event::Universe { target, .. } | Event::Request { target, .. } => target,
        }
    }

    fn server(&self) -> Option<&str> {
        match self {
            Event::Universe { server, .. } | Event::Request { server, .. } => server.as_deref(),
        }
    }
}

fn field<'a>(event: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    event.get(key).ok_or_else(|| format!("/{key} is missing"))
}

fn string(event: &Map<String, Value>, key: &str) -> Result<String, String> {
    match field(event, key)? {
        Value::String(s) => Ok(s.clone()),
        other => Err(format!("/{key}: expected a string, got {other}")),
    }
}

fn optional_string(event: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match event.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("/{key}: expected a string, got {other}")),
    }
}

fn server_name(event: &Map<String, Value>) -> Result<Option<String>, String> {
    match event.get("server") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(server)) => {
            let name = string(server, "name").map_err(|e| format!("/server{e}"))?;
            let version = string(server, "version").map_err(|e| format!("/server{e}"))?;
            Ok(Some(if version.is_empty() {
                name
            } else {
                format!("{name} {version}")
            }))
        }
        Some(other) => Err(format!("/server: expected an object or null, got {other}")),
    }
}

fn string_list(event: &Map<String, Value>, key: &str) -> Result<Option<Vec<String>>, String> {
    let Some(value) = event.get(key) else {
        return Ok(None);
    };
    let Value::Array(items) = value else {
        return Err(format!("/{key}: expected an array, got {value}"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(format!("/{key}/{i}: expected a string, got {other}")),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn object_list<T>(
    event: &Map<String, Value>,
    key: &str,
    each: impl Fn(&Map<String, Value>) -> Result<T, String>,
) -> Result<Option<Vec<T>>, String> {
    let Some(value) = event.get(key) else {
        return Ok(None);
    };
    let Value::Array(items) = value else {
        return Err(format!("/{key}: expected an array, got {value}"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::Object(object) => each(object).map_err(|e| format!("/{key}/{i}{e}")),
            other => Err(format!("/{key}/{i}: expected an object, got {other}")),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn parse_line(line: &str) -> Result<Event, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(event) = value else {
        return Err(format!("expected a JSON object, got {value}"));
    };
    match field(&event, "v")? {
        Value::Number(n) if n.as_u64() == Some(super::format::FORMAT_VERSION) => {}
        other => {
            return Err(format!(
                "/v: this mcp-test reads coverage format {}, got {other}",
                super::format::FORMAT_VERSION
            ));
        }
    }
    let target = string(&event, "target")?;
    let server = server_name(&event)?;
    match string(&event, "event")?.as_str() {
        "universe" => Ok(Event::Universe {
            target,
            server,
            registry: string(&event, "source")? == "registry",
            tools: object_list(&event, "tools", |tool| {
                let name = string(tool, "name")?;
                let actions = string_list(tool, "actions")?.unwrap_or_default();
                Ok((name, actions))
            })?,
            resources: string_list(&event, "resources")?,
            templates: string_list(&event, "templates")?,
            prompts: string_list(&event, "prompts")?,
            completions: object_list(&event, "completions", |c| {
                Ok((
                    string(c, "ref")?,
                    string(c, "name")?,
                    string(c, "argument")?,
                ))
            })?,
        }),
        "request" => {
            let outcome = string(&event, "outcome")?;
            let outcome = Outcome::parse(&outcome).ok_or_else(|| {
                format!(
                    "/outcome: expected one of {}, got {outcome:?}",
                    Outcome::ALL.map(Outcome::as_str).join(", ")
                )
            })?;
            let reference = match optional_string(&event, "ref")? {
                Some(kind) => Some((
                    kind,
                    optional_string(&event, "name")?.unwrap_or_default(),
                    optional_string(&event, "argument")?.unwrap_or_default(),
                )),
                None => None,
            };
            Ok(Event::Request {
                target,
                server,
                method: string(&event, "method")?,
                outcome,
                tool: optional_string(&event, "tool")?,
                action: optional_string(&event, "action")?,
                uri: optional_string(&event, "uri")?,
                prompt: optional_string(&event, "prompt")?,
                reference,
            })
        }
        other => Err(format!(
            "/event: expected \"universe\" or \"request\", got {other:?}"
        )),
    }
}

/// What one server's events add up to, before rows are made.
#[derive(Default)]
struct Acc {
    labels: BTreeSet<String>,
    files: BTreeSet<usize>,
    registry: bool,
    known: BTreeSet<&'static str>,
    u_tools: BTreeMap<String, BTreeSet<String>>,
    u_resources: BTreeSet<String>,
    u_templates: BTreeSet<String>,
    u_prompts: BTreeSet<String>,
    u_completions: BTreeSet<(String, String, String)>,
    tools: BTreeMap<(String, Option<String>), Counts>,
    reads: BTreeMap<String, Counts>,
    prompts: BTreeMap<String, Counts>,
    completions: BTreeMap<(String, String, String), Counts>,
    methods: BTreeMap<String, Counts>,
}

impl Acc {
    fn add(&mut self, file: usize, event: Event) {
        self.files.insert(file);
        self.labels.insert(event.target().to_owned());
        match event {
            Event::Universe {
                registry,
                tools,
                resources,
                templates,
                prompts,
                completions,
                ..
            } => {
                self.registry |= registry;
                if registry {
                    self.known.extend([
                        "tools",
                        "resources",
                        "templates",
                        "prompts",
                        "completions",
                    ]);
                }
                if let Some(tools) = tools {
                    self.known.insert("tools");
                    for (name, actions) in tools {
                        self.u_tools.entry(name).or_default().extend(actions);
                    }
                }
                if let Some(resources) = resources {
                    self.known.insert("resources");
                    self.u_resources.extend(resources);
                }
                if let Some(templates) = templates {
                    self.known.insert("templates");
                    self.u_templates.extend(templates);
                }
                if let Some(prompts) = prompts {
                    self.known.insert("prompts");
                    self.u_prompts.extend(prompts);
                }
                if let Some(completions) = completions {
                    self.known.insert("completions");
                    self.u_completions.extend(completions);
                }
            }
            Event::Request {
                method,
                outcome,
                tool,
                action,
                uri,
                prompt,
                reference,
                ..
            } => {
                match method.as_str() {
                    "tools/call" => {
                        let key = (tool.unwrap_or_default(), action);
                        self.tools.entry(key).or_default().add(outcome);
                    }
                    "resources/read" => {
                        self.reads
                            .entry(uri.unwrap_or_default())
                            .or_default()
                            .add(outcome);
                    }
                    "prompts/get" => {
                        self.prompts
                            .entry(prompt.unwrap_or_default())
                            .or_default()
                            .add(outcome);
                    }
                    "completion/complete" => {
                        let key = reference.unwrap_or_default();
                        self.completions.entry(key).or_default().add(outcome);
                    }
                    _ => {}
                }
                self.methods.entry(method).or_default().add(outcome);
            }
        }
    }

    fn finish(self, name: String) -> ServerCoverage {
        let mut tools = Vec::new();
        let mut plain_tools = Vec::new();
        let mut actions_rows = Vec::new();
        // Calls grouped by tool: the listed tools' rows, then the others.
        let mut calls: BTreeMap<String, Vec<(Option<String>, Counts)>> = BTreeMap::new();
        for ((tool, action), counts) in self.tools {
            calls.entry(tool).or_default().push((action, counts));
        }
        for (tool, actions) in &self.u_tools {
            let made = calls.remove(tool).unwrap_or_default();
            if actions.is_empty() {
                let mut counts = Counts::default();
                for (_, c) in &made {
                    counts.merge(c);
                }
                let row = Row {
                    name: tool.clone(),
                    detail: None,
                    listed: true,
                    counts,
                };
                plain_tools.push(row.clone());
                tools.push(row);
                continue;
            }
            let mut by_action: BTreeMap<&str, Counts> = BTreeMap::new();
            let mut other = Counts::default();
            for (action, counts) in &made {
                match action.as_deref().filter(|a| actions.contains(*a)) {
                    Some(a) => by_action.entry(a).or_default().merge(counts),
                    None => other.merge(counts),
                }
            }
            for action in actions {
                let row = Row {
                    name: tool.clone(),
                    detail: Some(action.clone()),
                    listed: true,
                    counts: by_action.get(action.as_str()).copied().unwrap_or_default(),
                };
                actions_rows.push(row.clone());
                tools.push(row);
            }
            if other.total() > 0 {
                tools.push(Row {
                    name: tool.clone(),
                    detail: Some("(no listed action)".to_owned()),
                    listed: false,
                    counts: other,
                });
            }
        }
        for (tool, made) in calls {
            for (action, counts) in made {
                tools.push(Row {
                    name: tool.clone(),
                    detail: action,
                    listed: false,
                    counts,
                });
            }
        }
        let tools_tally = {
            let mut tally = Tally::of(&plain_tools);
            for tool in self.u_tools.iter().filter(|(_, a)| !a.is_empty()) {
                tally.total += 1;
                tally.covered += usize::from(
                    tools
                        .iter()
                        .any(|r| r.listed && r.name == *tool.0 && r.covered()),
                );
            }
            tally
        };

        let mut resources: Vec<Row> = self
            .u_resources
            .iter()
            .map(|uri| Row {
                name: uri.clone(),
                detail: None,
                listed: true,
                counts: self.reads.get(uri).copied().unwrap_or_default(),
            })
            .collect();
        let parsed: Vec<(String, Option<UriTemplate>)> = self
            .u_templates
            .iter()
            .map(|t| (t.clone(), UriTemplate::parse(t).ok()))
            .collect();
        let mut template_counts: HashMap<&str, Counts> = HashMap::new();
        for (uri, counts) in &self.reads {
            if self.u_resources.contains(uri) {
                continue;
            }
            let matched = parsed.iter().find(|(source, template)| match template {
                Some(template) => template.match_uri(uri).is_some(),
                None => source == uri,
            });
            match matched {
                Some((source, _)) => template_counts.entry(source).or_default().merge(counts),
                None => resources.push(Row {
                    name: uri.clone(),
                    detail: None,
                    listed: false,
                    counts: *counts,
                }),
            }
        }
        let templates: Vec<Row> = self
            .u_templates
            .iter()
            .map(|t| Row {
                name: t.clone(),
                detail: None,
                listed: true,
                counts: template_counts.get(t.as_str()).copied().unwrap_or_default(),
            })
            .collect();

        let mut prompts: Vec<Row> = self
            .u_prompts
            .iter()
            .map(|p| Row {
                name: p.clone(),
                detail: None,
                listed: true,
                counts: self.prompts.get(p).copied().unwrap_or_default(),
            })
            .collect();
        prompts.extend(
            self.prompts
                .iter()
                .filter(|(p, _)| !self.u_prompts.contains(*p))
                .map(|(p, counts)| Row {
                    name: p.clone(),
                    detail: None,
                    listed: false,
                    counts: *counts,
                }),
        );

        let reference_row =
            |(kind, name, argument): &(String, String, String), listed, counts| Row {
                name: format!("{kind} {name}"),
                detail: Some(argument.clone()),
                listed,
                counts,
            };
        let mut completions: Vec<Row> = self
            .u_completions
            .iter()
            .map(|r| {
                reference_row(
                    r,
                    true,
                    self.completions.get(r).copied().unwrap_or_default(),
                )
            })
            .collect();
        completions.extend(
            self.completions
                .iter()
                .filter(|(r, _)| !self.u_completions.contains(*r))
                .map(|(r, counts)| reference_row(r, false, *counts)),
        );

        let methods = self
            .methods
            .into_iter()
            .map(|(m, counts)| Row {
                name: m,
                detail: None,
                listed: false,
                counts,
            })
            .collect();
        let summary = Summary {
            tools: tools_tally,
            actions: Tally::of(&actions_rows),
            resources: Tally::of(&resources),
            templates: Tally::of(&templates),
            prompts: Tally::of(&prompts),
            completions: Tally::of(&completions),
            plain_tools: Tally::of(&plain_tools),
        };
        ServerCoverage {
            name,
            labels: self.labels.into_iter().collect(),
            processes: self.files.len(),
            universe: if self.registry {
                Universe::Registry
            } else if self.known.is_empty() {
                Universe::Unknown
            } else {
                Universe::Listed
            },
            known: self.known,
            tools,
            resources,
            templates,
            prompts,
            completions,
            methods,
            summary,
        }
    }
}

/// The merged coverage of every recording in a directory.
#[derive(Clone, Debug)]
pub struct Coverage {
    servers: Vec<ServerCoverage>,
    files: usize,
    requests: usize,
}

impl Coverage {
    /// Reads and merges every `*.jsonl` file of `dir`. Errors name the directory, or the file
    /// and line that is not a coverage event.
    pub fn load(dir: impl AsRef<Path>) -> Result<Coverage, CoverageError> {
        let dir = dir.as_ref();
        let entries = std::fs::read_dir(dir).map_err(|source| CoverageError::Dir {
            dir: dir.to_path_buf(),
            source,
        })?;
        let mut paths = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|source| CoverageError::Dir {
                dir: dir.to_path_buf(),
                source,
            })?;
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "jsonl") && path.is_file() {
                paths.push(path);
            }
        }
        if paths.is_empty() {
            return Err(CoverageError::Empty {
                dir: dir.to_path_buf(),
            });
        }
        paths.sort();
        let mut texts = Vec::with_capacity(paths.len());
        for path in paths {
            let text = std::fs::read_to_string(&path).map_err(|source| CoverageError::Read {
                file: path.clone(),
                source,
            })?;
            texts.push((path, text));
        }
        Coverage::from_texts(texts.iter().map(|(p, t)| (p.as_path(), t.as_str())))
    }

    /// Merges recordings given as `(file name, text)`, one per process.
    pub fn from_texts<'a, P: AsRef<Path> + ?Sized + 'a>(
        files: impl IntoIterator<Item = (&'a P, &'a str)>,
    ) -> Result<Coverage, CoverageError> {
        let mut parsed: Vec<Vec<Event>> = Vec::new();
        for (file, text) in files {
            let mut events = Vec::new();
            for (number, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                events.push(parse_line(line).map_err(|reason| CoverageError::Corrupt {
                    file: file.as_ref().to_path_buf(),
                    line: number + 1,
                    reason,
                })?);
            }
            parsed.push(events);
        }
        // The server of an event that does not name one: its target's server in the same
        // process, else the one server its target has anywhere, else the target's label.
        let mut everywhere: HashMap<String, BTreeSet<String>> = HashMap::new();
        for event in parsed.iter().flatten() {
            if let Some(server) = event.server() {
                everywhere
                    .entry(event.target().to_owned())
                    .or_default()
                    .insert(server.to_owned());
            }
        }
        let mut servers: BTreeMap<String, Acc> = BTreeMap::new();
        let mut requests = 0;
        let files = parsed.len();
        for (file, events) in parsed.into_iter().enumerate() {
            let mut here: HashMap<String, String> = HashMap::new();
            for event in &events {
                if let Some(server) = event.server() {
                    here.entry(event.target().to_owned())
                        .or_insert_with(|| server.to_owned());
                }
            }
            for event in events {
                let name = match event.server() {
                    Some(server) => server.to_owned(),
                    None => here.get(event.target()).cloned().unwrap_or_else(|| {
                        match everywhere.get(event.target()) {
                            Some(found) if found.len() == 1 => {
                                found.iter().next().cloned().unwrap_or_default()
                            }
                            _ => event.target().to_owned(),
                        }
                    }),
                };
                requests += usize::from(matches!(event, Event::Request { .. }));
                servers.entry(name).or_default().add(file, event);
            }
        }
        Ok(Coverage {
            servers: servers
                .into_iter()
                .map(|(name, acc)| acc.finish(name))
                .collect(),
            files,
            requests,
        })
    }

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

    /// The report as JSON, for CI: per server its rows and summary, then the overall summary.
    pub fn to_json(&self) -> Value {
        let rows = |rows: &[Row], detail: &str| -> Value {
            Value::Array(rows.iter().map(|r| r.to_json(detail)).collect())
        };
        let servers: Vec<Value> = self
            .servers
            .iter()
            .map(|s| {
                json!({
                    "server": s.name,
                    "targets": s.labels,
                    "processes": s.processes,
                    "universe": match s.universe {
                        Universe::Registry => "registry",
                        Universe::Listed => "listed",
                        Universe::Unknown => "unknown",
                    },
                    "known": s.known.iter().collect::<Vec<_>>(),
                    "tools": rows(&s.tools, "action"),
                    "resources": rows(&s.resources, "detail"),
                    "templates": rows(&s.templates, "detail"),
                    "prompts": rows(&s.prompts, "detail"),
                    "completions": rows(&s.completions, "argument"),
                    "methods": rows(&s.methods, "detail"),
                    "summary": s.summary.to_json(),
                })
            })
            .collect();
        json!({
            "version": super::format::FORMAT_VERSION,
            "files": self.files,
            "requests": self.requests,
            "servers": servers,
            "summary": self.summary().to_json(),
        })
    }

    /// The report as text: per server a table per kind, uncovered rows marked `UNCOVERED`,
    /// requests to things the server does not list marked `not listed`, and a summary line;
    /// then the overall summary.
    pub fn to_text(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut out = format!(
            "MCP coverage: {} from {}, {}\n",
            plural(self.requests, "request", "requests"),
            plural(self.files, "process", "processes"),
            plural(self.servers.len(), "server", "servers")
        );
        for server in &self.servers {
            out.push('\n');
            let universe = match server.universe {
                Universe::Registry => "in process: every registered item",
                Universe::Listed => "in another process: the items the suite listed",
                Universe::Unknown => "in another process, never listed: only what was requested",
            };
            out.push_str(&format!(
                "== {} ({universe}; {} process{})\n",
                server.name,
                server.processes,
                if server.processes == 1 { "" } else { "es" }
            ));
            let sections: [(&str, &str, &[Row], &str); 5] = [
                ("tool", "action", &server.tools, "tools"),
                ("resource", "", &server.resources, "resources"),
                ("template", "", &server.templates, "templates"),
                ("prompt", "", &server.prompts, "prompts"),
                ("completion", "argument", &server.completions, "completions"),
            ];
            let mut tables: Vec<Vec<Vec<String>>> = sections
                .into_iter()
                .filter(|(_, _, rows, _)| !rows.is_empty())
                .map(|(head, detail, rows, kind)| {
                    table(head, detail, rows, server.known.contains(kind))
                })
                .collect();
            if !server.methods.is_empty() {
                tables.push(table("method", "", &server.methods, false));
            }
            out.push_str(&render(&tables));
            out.push_str(&format!("   {}\n", server.summary));
        }
        out.push_str(&format!("\ntotal: {}\n", self.summary()));
        out
    }
}

/// The cells of one table: a head row, then a row each; a dot for a zero count.
fn table(head: &str, detail: &str, rows: &[Row], known: bool) -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = Vec::with_capacity(rows.len() + 1);
    let mut first = vec![head.to_owned(), detail.to_owned(), "requests".to_owned()];
    first.extend(Outcome::ALL.map(|o| o.column().to_owned()));
    first.push(String::new());
    lines.push(first);
    for row in rows {
        let mut line = vec![
            if row.name.is_empty() {
                "(none given)".to_owned()
            } else {
                row.name.clone()
            },
            row.detail.clone().unwrap_or_default(),
            row.counts.total().to_string(),
        ];
        line.extend(Outcome::ALL.map(|o| match row.counts.get(o) {
            0 => ".".to_owned(),
            n => n.to_string(),
        }));
        line.push(
            if !row.listed && known {
                "not listed"
            } else if row.listed && !row.covered() {
                "UNCOVERED"
            } else {
                ""
            }
            .to_owned(),
        );
        lines.push(line);
    }
    lines
}

/// The tables of one server, their columns aligned across all of them: the count columns
/// right-aligned, the detail column left out when no row has one.
fn render(tables: &[Vec<Vec<String>>]) -> String {
    let lines = || tables.iter().flatten();
    let columns = 3 + Outcome::ALL.len() + 1;
    let widths: Vec<usize> = (0..columns)
        .map(|c| lines().map(|l| l[c].chars().count()).max().unwrap_or(0))
        .collect();
    let show_detail = tables
        .iter()
        .any(|t| t.iter().skip(1).any(|l| !l[1].is_empty()));
    let mut out = String::new();
    for line in lines() {
        let mut text = String::from("   ");
        for (c, cell) in line.iter().enumerate() {
            if c == 1 && !show_detail {
                continue;
            }
            let pad = widths[c].saturating_sub(cell.chars().count());
            if (2..columns - 1).contains(&c) {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            }
            text.push_str("  ");
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn universe(server: &str, tools: Value) -> String {
        json!({"v": 1, "event": "universe", "source": "registry", "target": format!("{server} (in process)"),
            "server": {"name": server, "version": "1.0.0"}, "tools": tools,
            "resources": ["file:///a"], "templates": ["file:///items/{id}"], "prompts": ["greet"],
            "completions": [{"ref": "ref/prompt", "name": "greet", "argument": "name"}]})
        .to_string()
    }

    fn request(
        server: Option<&str>,
        target: &str,
        method: &str,
        outcome: &str,
        extra: Value,
    ) -> String {
        let mut event = json!({"v": 1, "event": "request", "target": target,
            "server": server.map(|s| json!({"name": s, "version": "1.0.0"})),
            "method": method, "outcome": outcome});
        if let (Value::Object(event), Value::Object(extra)) = (&mut event, extra) {
            event.extend(extra);
        }
        event.to_string()
    }

    #[test]
    fn files_of_several_processes_merge_per_server_and_row() {
        let tools =
            json!([{"name": "add", "actions": []}, {"name": "items", "actions": ["get", "put"]}]);
        let one = [
            universe("calc", tools.clone()),
            request(
                Some("calc"),
                "calc",
                "tools/call",
                "success",
                json!({"tool": "add"}),
            ),
            request(
                Some("calc"),
                "calc",
                "tools/call",
                "validation_error",
                json!({"tool": "items", "action": "get"}),
            ),
            request(
                Some("calc"),
                "calc",
                "resources/read",
                "success",
                json!({"uri": "file:///items/7"}),
            ),
        ]
        .join("\n");
        let two = [
            universe("calc", tools),
            request(
                Some("calc"),
                "calc",
                "tools/call",
                "execution_error",
                json!({"tool": "add"}),
            ),
            request(
                Some("calc"),
                "calc",
                "tools/call",
                "protocol_error",
                json!({"tool": "nope"}),
            ),
            request(
                Some("calc"),
                "calc",
                "completion/complete",
                "success",
                json!({"ref": "ref/prompt", "name": "greet", "argument": "name"}),
            ),
            request(
                Some("calc"),
                "calc",
                "resources/read",
                "protocol_error",
                json!({"uri": "file:///zzz"}),
            ),
        ]
        .join("\n");
        let coverage =
            Coverage::from_texts([("1.jsonl", one.as_str()), ("2.jsonl", two.as_str())]).unwrap();
        assert_eq!((coverage.files(), coverage.requests()), (2, 7));
        let [calc] = coverage.servers() else {
            panic!("one server: {:?}", coverage.servers())
        };
        assert_eq!(calc.processes(), 2);
        let add = &calc.tools()[0];
        assert_eq!(
            (
                add.name(),
                add.counts().get(Outcome::Success),
                add.counts().get(Outcome::ExecutionError)
            ),
            ("add", 1, 1)
        );
        let get = &calc.tools()[1];
        assert_eq!(
            (get.detail(), get.counts().get(Outcome::ValidationError)),
            (Some("get"), 1)
        );
        assert!(!calc.tools()[2].covered(), "items put was never called");
        let nope = &calc.tools()[3];
        assert_eq!((nope.name(), nope.listed()), ("nope", false));
        assert_eq!(calc.templates()[0].counts().total(), 1);
        assert!(!calc.resources()[0].covered());
        assert_eq!(
            (calc.resources()[1].name(), calc.resources()[1].listed()),
            ("file:///zzz", false)
        );
        let summary = calc.summary();
        assert_eq!(
            summary.tools,
            Tally {
                covered: 2,
                total: 2
            }
        );
        assert_eq!(
            summary.actions,
            Tally {
                covered: 1,
                total: 2
            }
        );
        assert_eq!(
            summary.completions,
            Tally {
                covered: 1,
                total: 1
            }
        );
        assert_eq!(
            summary.prompts,
            Tally {
                covered: 0,
                total: 1
            }
        );
        // add, get, put, file:///a, the template, greet, the completion reference.
        assert_eq!(
            summary.items(),
            Tally {
                covered: 4,
                total: 7
            }
        );
        let text = coverage.to_text();
        assert!(text.contains("== calc 1.0.0 (in process"), "{text}");
        assert!(
            text.lines()
                .any(|l| l.contains("items") && l.contains("put") && l.ends_with("UNCOVERED")),
            "{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.contains("nope") && l.ends_with("not listed")),
            "{text}"
        );
        assert!(text.contains("4/7 (57.1%) items covered"), "{text}");
        let json = coverage.to_json();
        assert_eq!(
            json["summary"]["items"],
            json!({"covered": 4, "total": 7, "percent": 57.1})
        );
        assert_eq!(json["servers"][0]["tools"][1]["action"], "get");
        assert_eq!(
            json["servers"][0]["tools"][1]["outcomes"]["validation_error"],
            1
        );
    }

    #[test]
    fn a_remote_server_is_named_from_its_other_requests_and_its_lists() {
        let one = [
            request(
                None,
                "http://x/mcp",
                "tools/call",
                "success",
                json!({"tool": "echo"}),
            ),
            request(
                Some("remote"),
                "http://x/mcp",
                "server/discover",
                "success",
                json!({}),
            ),
        ]
        .join("\n");
        let listed = json!({"v": 1, "event": "universe", "source": "list", "target": "http://x/mcp",
            "server": {"name": "remote", "version": "1.0.0"}, "tools": [{"name": "echo", "actions": []}, {"name": "add", "actions": []}]});
        let two = [
            listed.to_string(),
            request(
                None,
                "http://x/mcp",
                "prompts/get",
                "success",
                json!({"prompt": "p"}),
            ),
        ]
        .join("\n");
        let coverage =
            Coverage::from_texts([("a.jsonl", one.as_str()), ("b.jsonl", two.as_str())]).unwrap();
        let [remote] = coverage.servers() else {
            panic!("one server: {:?}", coverage.servers())
        };
        assert_eq!(remote.name(), "remote 1.0.0");
        assert_eq!(remote.universe(), Universe::Listed);
        assert_eq!(
            remote.summary().tools,
            Tally {
                covered: 1,
                total: 2
            }
        );
        // Prompts were never listed: the prompt requested is shown, and counts in no total.
        assert_eq!(remote.summary().prompts, Tally::default());
        assert_eq!(remote.prompts()[0].name(), "p");
    }

    #[test]
    fn a_corrupt_line_names_its_file_and_line() {
        let good = request(Some("s"), "t", "ping", "success", json!({}));
        let text = format!(
            "{good}\n\n{{\"v\": 1, \"event\": \"request\", \"target\": \"t\", \"method\": \"x\", \"outcome\": \"fine\"}}\n"
        );
        let e = Coverage::from_texts([("p.jsonl", text.as_str())]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p.jsonl:3: /outcome: expected one of success, validation_error, missing_capability, input_required, execution_error, protocol_error, got \"fine\""
        );
        let e = Coverage::from_texts([("q.jsonl", "{\"v\": 1, \"event\"")]).unwrap_err();
        assert!(e.to_string().starts_with("q.jsonl:1: not JSON: "), "{e}");
        let e = Coverage::from_texts([("r.jsonl", "{\"v\": 2}")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.jsonl:1: /v: this mcp-test reads coverage format 1, got 2"
        );
        let e = Coverage::from_texts([("s.jsonl", r#"{"v": 1, "event": "universe", "source": "list", "target": "t", "tools": [{"name": 3}]}"#)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.jsonl:1: /tools/0/name: expected a string, got 3"
        );
    }

    #[test]
    fn a_missing_or_empty_directory_is_named() {
        let dir = std::env::temp_dir().join(format!(
            "mcp-cov-report-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let e = Coverage::load(&dir).unwrap_err();
        assert!(matches!(e, CoverageError::Dir { .. }), "{e}");
        assert!(e.to_string().contains(&dir.display().to_string()), "{e}");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), "not a recording").unwrap();
        let e = Coverage::load(&dir).unwrap_err();
        assert!(
            e.to_string().contains("holds no recording (*.jsonl)"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_uncovered_rows_can_be_kept() {
        let text = [
            universe(
                "calc",
                json!([{"name": "add", "actions": []}, {"name": "sub", "actions": []}]),
            ),
            request(
                Some("calc"),
                "calc",
                "tools/call",
                "success",
                json!({"tool": "add"}),
            ),
        ]
        .join("\n");
        let mut coverage = Coverage::from_texts([("1.jsonl", text.as_str())]).unwrap();
        coverage.retain_uncovered();
        let names: Vec<&str> = coverage.servers()[0]
            .tools()
            .iter()
            .map(Row::name)
            .collect();
        assert_eq!(names, ["sub"]);
        assert_eq!(
            coverage.summary().tools,
            Tally {
                covered: 1,
                total: 2
            }
        );
    }
}
