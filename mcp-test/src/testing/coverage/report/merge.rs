//! Reading and merging the recordings: each line parsed into an event, the events of every
//! process gathered per server, then made into rows ([`Coverage::load`],
//! [`Coverage::from_texts`]).

use super::{
    Counts, Coverage, CoverageError, Outcome, Row, ServerCoverage, Summary, Tally, Universe,
};
use crate::uri_template::UriTemplate;
use serde_json::{Map, Value};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

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
        /// Whether an in-process server answered; `None` in a file written before requests
        /// said so.
        in_process: Option<bool>,
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

    /// Whether an in-process server answered, when the event says: a registry is one's.
    fn in_process(&self) -> Option<bool> {
        match self {
            Event::Universe { registry, .. } => Some(*registry),
            Event::Request { in_process, .. } => *in_process,
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
    list(event, key, |item| match item {
        Value::String(s) => Ok(s.clone()),
        other => Err(format!(": expected a string, got {other}")),
    })
}

fn object_list<T>(
    event: &Map<String, Value>,
    key: &str,
    each: impl Fn(&Map<String, Value>) -> Result<T, String>,
) -> Result<Option<Vec<T>>, String> {
    list(event, key, |item| match item {
        Value::Object(object) => each(object),
        other => Err(format!(": expected an object, got {other}")),
    })
}

/// The array at `key`, each item read by `each` (whose error is put after the item's
/// pointer); `None` when there is no such key.
fn list<T>(
    event: &Map<String, Value>,
    key: &str,
    each: impl Fn(&Value) -> Result<T, String>,
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
        .map(|(i, item)| each(item).map_err(|e| format!("/{key}/{i}{e}")))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn parse_line(line: &str) -> Result<Event, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(event) = value else {
        return Err(format!("expected a JSON object, got {value}"));
    };
    match field(&event, "v")? {
        Value::Number(n)
            if n.as_u64() == Some(crate::testing::coverage::format::FORMAT_VERSION) => {}
        other => {
            return Err(format!(
                "/v: this mcp-test reads coverage format {}, got {other}",
                crate::testing::coverage::format::FORMAT_VERSION
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
            let in_process = match event.get("in_process") {
                None | Some(Value::Null) => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(other) => return Err(format!("/in_process: expected a boolean, got {other}")),
            };
            Ok(Event::Request {
                target,
                server,
                in_process,
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

impl Row {
    /// A row of `name` with no detail.
    fn new(name: &str, listed: bool, counts: Counts) -> Row {
        Row {
            name: name.to_owned(),
            detail: None,
            listed,
            counts,
        }
    }
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
                for (kind, listed, into) in [
                    ("resources", resources, &mut self.u_resources),
                    ("templates", templates, &mut self.u_templates),
                    ("prompts", prompts, &mut self.u_prompts),
                ] {
                    if let Some(listed) = listed {
                        self.known.insert(kind);
                        into.extend(listed);
                    }
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

    fn finish(self, name: String, in_process: bool) -> ServerCoverage {
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
            .map(|uri| Row::new(uri, true, self.reads.get(uri).copied().unwrap_or_default()))
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
                None => resources.push(Row::new(uri, false, *counts)),
            }
        }
        let templates: Vec<Row> = self
            .u_templates
            .iter()
            .map(|t| {
                Row::new(
                    t,
                    true,
                    template_counts.get(t.as_str()).copied().unwrap_or_default(),
                )
            })
            .collect();

        let mut prompts: Vec<Row> = self
            .u_prompts
            .iter()
            .map(|p| Row::new(p, true, self.prompts.get(p).copied().unwrap_or_default()))
            .collect();
        prompts.extend(
            self.prompts
                .iter()
                .filter(|(p, _)| !self.u_prompts.contains(*p))
                .map(|(p, counts)| Row::new(p, false, *counts)),
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
            in_process,
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

impl Coverage {
    /// Reads and merges every `*.jsonl` file of `dir`. Errors name the directory, or the file
    /// and line that is not a coverage event.
    pub fn load(dir: impl AsRef<Path>) -> Result<Coverage, CoverageError> {
        let dir = dir.as_ref();
        let unreadable = |source| CoverageError::Dir {
            dir: dir.to_path_buf(),
            source,
        };
        let mut paths = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(unreadable)? {
            let entry = entry.map_err(unreadable)?;
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
        // A server is its name and whether it answered in process (in process first).
        let mut servers: BTreeMap<(String, Reverse<bool>), Acc> = BTreeMap::new();
        // A request of a file written before requests said whether an in-process server
        // answered goes where a registry of its server's name is, in any file.
        let registries: BTreeSet<String> = parsed
            .iter()
            .flatten()
            .filter(|e| matches!(e, Event::Universe { registry: true, .. }))
            .filter_map(|e| e.server().map(str::to_owned))
            .collect();
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
            let named: Vec<(String, Event)> = events
                .into_iter()
                .map(|event| {
                    let name = match event.server() {
                        Some(server) => server.to_owned(),
                        None => {
                            here.get(event.target()).cloned().unwrap_or_else(|| {
                                match everywhere.get(event.target()) {
                                    Some(found) if found.len() == 1 => {
                                        found.iter().next().cloned().unwrap_or_default()
                                    }
                                    _ => event.target().to_owned(),
                                }
                            })
                        }
                    };
                    (name, event)
                })
                .collect();
            for (name, event) in named {
                let in_process = event
                    .in_process()
                    .unwrap_or_else(|| registries.contains(&name));
                requests += usize::from(matches!(event, Event::Request { .. }));
                servers
                    .entry((name, Reverse(in_process)))
                    .or_default()
                    .add(file, event);
            }
        }
        Ok(Coverage {
            servers: servers
                .into_iter()
                .map(|((name, Reverse(in_process)), acc)| acc.finish(name, in_process))
                .collect(),
            files,
            requests,
        })
    }
}
