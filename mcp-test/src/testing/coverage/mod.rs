//! MCP coverage of a test suite: which tools, actions, resources, templates, prompts and
//! completion references the tests exercised, and which outcome each request got.
//!
//! # Recording
//!
//! Off by default. Set `MCP_TEST_COVERAGE=DIR` (an absolute path: cargo runs each test binary
//! in its package's folder) while the tests run, and every request the test surface sends is
//! recorded: the request helpers ([`call_tool`](super::call_tool), [`list_tools`](super::list_tools),
//! [`read_resource`](super::read_resource), [`send`](super::send), the `TestContext` methods,
//! the task helpers...), the round helpers ([`drive_tool`](super::drive_tool),
//! `TestContext::call_tool_rounds`), `assert_schema_cases!` and `assert_properties!`. Recording only looks at what
//! passed: it sends nothing and changes no reply, so no test can see it. When the variable is
//! unset, the cost is one cached check per request.
//!
//! Each process appends to a file of its own, `DIR/<pid>-<nanos>-<n>.jsonl`, one JSON object
//! per line, written whole with one `write` per event (nothing is lost when the process ends
//! without running destructors, as a test process does). `mcp-test coverage DIR` merges the
//! files of every test binary and every nextest process ([`report`]).
//!
//! A test that wants recording of its own, without touching the environment, wraps its
//! context: [`TestContext::record_coverage`](super::TestContext::record_coverage) with a
//! [`Recorder`] on a directory.
//!
//! # What is recorded
//!
//! - Per request: the server (name and version), the method, what it named (tool and action
//!   of `tools/call`, URI of `resources/read`, prompt of `prompts/get`, reference and argument
//!   of `completion/complete`), and its [`Outcome`].
//! - The server's universe, so that uncovered rows can be shown. For an in-process
//!   [`Server`], its registry, read directly (no request is sent): every tool
//!   with its actions, every resource, template and prompt, and every prompt argument and
//!   template variable with a completion handler. For a server in another process, the
//!   `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list` results the
//!   suite itself obtained: recording never sends a request of its own, which could disturb a
//!   test that counts requests or a server with state. What the suite never listed is then
//!   unknown, and the report says so.
//!
//! `tasks/*` requests count in the rows of their method only (a task is not traced back to
//! its tool), and a tool run without a server ([`Driver`](super::Driver),
//! [`run_tool`](super::run_tool)) is not recorded.
//!
//! The server of a request is the in-process server's info, else the `serverInfo` in the
//! reply's `_meta` (2026-07-28) or result (`server/discover`, `initialize`), else what the
//! target knew before asking ([`Connection::server_info`](crate::target::Connection::server_info):
//! an rmcp handler in process states its name and version, a 2025-11-25 session its
//! `initialize` result's), else it is found at report time from other requests to the same
//! target; else the target's label stands. So a server is one row whether or not the suite
//! discovered it, in whichever era, over whichever transport and port it was reached.
//!
//! A server is its name and version, and whether it answered in this process: the requests
//! an in-process [`Server`] answered (through a `TestContext::new`, a 2025-era session of it)
//! are one row, whose universe is the union of the registries of the servers with that name
//! and version; the requests to a server of that name in another process (a child over
//! stdio, `TestContext::http_command`, a URL) are another, whose universe is what the suite
//! listed, over stdio and HTTP, in both eras alike. The same name in process and in a
//! binary may be other code, and the registry says nothing of what the binary serves.
//!
//! ```
//! use mcp_test::testing::coverage::{Recorder, report};
//! use mcp_test::testing::TestContext;
//! use mcp_test::Server;
//! use serde_json::json;
//!
//! /// Adds.
//! #[derive(mcp_test::Tool)]
//! #[tool(name = "add")]
//! struct Add { a: i64, b: i64 }
//! impl Add {
//!     async fn run(self, _ctx: &mcp_test::Context) -> Result<String, mcp_test::ToolError> {
//!         Ok((self.a + self.b).to_string())
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let dir = std::env::temp_dir().join(format!("mcp-coverage-doc-{}", std::process::id()));
//! let recorder = Recorder::new(&dir);
//! let server = Server::builder("calc", "1.0.0").tool::<Add>().build().unwrap();
//! let mcp = TestContext::new(server).record_coverage(&recorder);
//! mcp.call_tool("add", json!({"a": 1, "b": 2})).await;
//! mcp.call_tool("add", json!({"a": "one"})).await;
//!
//! let coverage = report::Coverage::load(&dir).unwrap();
//! let calc = &coverage.servers()[0];
//! assert_eq!(calc.name(), "calc 1.0.0");
//! assert_eq!(calc.tools()[0].counts().get(report::Outcome::Success), 1);
//! assert_eq!(calc.tools()[0].counts().get(report::Outcome::ValidationError), 1);
//! std::fs::remove_dir_all(&dir).unwrap();
//! # }
//! ```

mod format;
pub mod report;

pub use format::{ENV, FORMAT_VERSION};
pub use report::Outcome;

use crate::server::{Caller, Server};
use crate::target::answered::watched;
use crate::target::{Connection, Exchange, Target, TargetError, TargetFuture};
use crate::wire::meta_keys;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Writes coverage events to a file of its own in a directory; cheap to clone (clones share
/// the file). Created lazily: nothing is written until the first request is recorded.
///
/// A write that fails (a full disk, a directory that cannot be created) turns this recorder off
/// with one line on stderr: recording never fails a test.
///
/// ```
/// use mcp_test::testing::coverage::Recorder;
/// let recorder = Recorder::new(std::env::temp_dir().join("never-written"));
/// assert!(recorder.file().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Recorder {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    dir: PathBuf,
    state: Mutex<State>,
    failed: AtomicBool,
}

#[derive(Debug, Default)]
struct State {
    file: Option<(PathBuf, File)>,
    /// The fingerprints of the universes written so far.
    universes: HashSet<u64>,
}

/// Tells apart the files of several recorders of one process.
static NEXT_FILE: AtomicU64 = AtomicU64::new(0);

impl Recorder {
    /// A recorder writing to a new file in `dir` (created, with its parents, on the first
    /// event).
    pub fn new(dir: impl AsRef<Path>) -> Recorder {
        Recorder {
            inner: Arc::new(Inner {
                dir: dir.as_ref().to_path_buf(),
                state: Mutex::new(State::default()),
                failed: AtomicBool::new(false),
            }),
        }
    }

    /// The recorder `MCP_TEST_COVERAGE` asks for, if set and not empty: one per process,
    /// looked up once (a later change of the variable is not seen).
    pub fn from_env() -> Option<&'static Recorder> {
        static GLOBAL: OnceLock<Option<Recorder>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| match std::env::var_os(ENV) {
                Some(dir) if !dir.is_empty() => Some(Recorder::new(dir)),
                _ => None,
            })
            .as_ref()
    }

    /// The directory this recorder writes to.
    pub fn dir(&self) -> &Path {
        &self.inner.dir
    }

    /// The file written so far, once something was recorded.
    pub fn file(&self) -> Option<PathBuf> {
        self.lock().file.as_ref().map(|(path, _)| path.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records one request `message` sent to `target` and the `exchange` it got: the server's
    /// universe first when this process has not written it yet, then the request. A
    /// notification (no `id`) is not recorded.
    ///
    /// `in_process` is the in-process [`Server`] that answered, when one did: its registry is
    /// the universe, read directly. `None`: a server in another process, whose universe is
    /// what the `*/list` results recorded show. [`Recording`] and the test helpers know which
    /// it was (the in-process server says so when it answers); a caller of this method says.
    ///
    /// ```
    /// use mcp_test::testing::coverage::{Recorder, report};
    /// use mcp_test::target::Target;
    /// use mcp_test::{Caller, Server};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let dir = std::env::temp_dir().join(format!("mcp-record-fn-doc-{}", std::process::id()));
    /// let recorder = Recorder::new(&dir);
    /// let server = Server::builder("demo", "1.0.0").build().unwrap();
    /// let ping = mcp_test::mcp_request!("server/discover");
    /// let exchange = server.send(&ping, &Caller::default()).await.unwrap();
    /// recorder.record(&server, Some(&server), &ping, &exchange);
    /// let coverage = report::Coverage::load(&dir).unwrap();
    /// assert_eq!(coverage.servers()[0].name(), "demo 1.0.0");
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// # }
    /// ```
    pub fn record(
        &self,
        target: &(impl Target + ?Sized),
        in_process: Option<&Server>,
        message: &Value,
        exchange: &Exchange,
    ) {
        if self.inner.failed.load(Ordering::Relaxed) {
            return;
        }
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            return;
        };
        if message.get("id").is_none() {
            return;
        }
        let label = target.label();
        let response = exchange.response.as_ref();
        let mut lines = Vec::with_capacity(2);
        let server = match in_process {
            Some(server) => {
                let info = json!({"name": server.info().name, "version": server.info().version});
                let fingerprint = registry_fingerprint(server);
                if !self.lock().universes.contains(&fingerprint) {
                    lines.push((Some(fingerprint), registry_universe(server, &label, &info)));
                }
                Some(info)
            }
            // Else what the target knew of its server before asking (an rmcp handler in
            // process), so a reply without `serverInfo` is not a second row under the label.
            None => response
                .and_then(server_info)
                .or_else(|| known_server_info(target)),
        };
        if in_process.is_none()
            && let Some(event) = listed_universe(method, response, &label, server.as_ref())
        {
            lines.push((None, event));
        }
        lines.push((
            None,
            request_event(
                method,
                message,
                response,
                &label,
                server,
                in_process.is_some(),
            ),
        ));
        self.write(&lines);
    }

    fn write(&self, lines: &[(Option<u64>, Value)]) {
        let mut state = self.lock();
        let mut text = String::new();
        for (fingerprint, event) in lines {
            if let Some(fingerprint) = fingerprint
                && !state.universes.insert(*fingerprint)
            {
                continue;
            }
            text.push_str(&event.to_string());
            text.push('\n');
        }
        if let Err(e) = self.append(&mut state, &text) {
            self.inner.failed.store(true, Ordering::Relaxed);
            eprintln!(
                "mcp-test coverage: cannot write to {}: {e}; recording is off for the rest of this process",
                self.inner.dir.display()
            );
        }
    }

    fn append(&self, state: &mut State, text: &str) -> std::io::Result<()> {
        if state.file.is_none() {
            std::fs::create_dir_all(&self.inner.dir)?;
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let path = self.inner.dir.join(format!(
                "{}-{nanos}-{}.jsonl",
                std::process::id(),
                NEXT_FILE.fetch_add(1, Ordering::Relaxed)
            ));
            let file = OpenOptions::new()
                .append(true)
                .create_new(true)
                .open(&path)?;
            state.file = Some((path, file));
        }
        match &mut state.file {
            // One write per batch of lines: a line is never split by another thread's.
            Some((_, file)) => file.write_all(text.as_bytes()),
            None => Ok(()),
        }
    }
}

/// Sends `message` to `target`, and records the exchange with the process's recorder when
/// `MCP_TEST_COVERAGE` is set (a transport failure is not recorded).
pub(crate) async fn send_recorded(
    target: &(impl Target + ?Sized),
    message: &Value,
    caller: &Caller,
) -> Result<Exchange, TargetError> {
    let Some(recorder) = Recorder::from_env() else {
        return target.send(message, caller).await;
    };
    let (sent, in_process) = watched(target.send(message, caller)).await;
    if let Ok(exchange) = &sent {
        recorder.record(target, in_process.as_ref(), message, exchange);
    }
    sent
}

/// A [`Target`] that records every request sent through it, then passes the reply on
/// unchanged; everything else is the wrapped target's.
///
/// ```
/// use mcp_test::target::Target;
/// use mcp_test::testing::coverage::{Recorder, Recording};
/// use mcp_test::{Caller, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let dir = std::env::temp_dir().join(format!("mcp-recording-doc-{}", std::process::id()));
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let recording = Recording::new(&server, Recorder::new(&dir));
/// let reply = recording.send(&mcp_test::mcp_request!("server/discover"), &Caller::default()).await.unwrap();
/// assert!(reply.response.unwrap()["result"].is_object());
/// assert!(recording.recorder().file().is_some());
/// std::fs::remove_dir_all(&dir).unwrap();
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Recording<T> {
    target: T,
    recorder: Recorder,
}

impl<T: Target> Recording<T> {
    /// Records what is sent to `target` with `recorder`.
    pub fn new(target: T, recorder: Recorder) -> Self {
        Recording { target, recorder }
    }

    /// The recorder.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }
}

impl<T: Target> Target for Recording<T> {
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let (sent, in_process) = watched(self.target.send(message, caller)).await;
            let exchange = sent?;
            self.recorder
                .record(&self.target, in_process.as_ref(), message, &exchange);
            Ok(exchange)
        })
    }

    /// Text that is not a JSON value is no MCP request: passed on, not recorded.
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        self.target.send_text(text, caller)
    }

    fn label(&self) -> String {
        self.target.label()
    }

    fn connection(&self) -> Connection {
        self.target.connection()
    }
}

/// A cheap fingerprint of what an in-process server serves: its name, version and the keys
/// of its registry.
fn registry_fingerprint(server: &Server) -> u64 {
    let mut hasher = DefaultHasher::new();
    server.info().name.hash(&mut hasher);
    server.info().version.hash(&mut hasher);
    for tool in server.tool_definitions() {
        tool.name.hash(&mut hasher);
    }
    0u8.hash(&mut hasher);
    for resource in server.resource_definitions() {
        resource.uri.hash(&mut hasher);
    }
    0u8.hash(&mut hasher);
    for template in server.resource_template_definitions() {
        template.uri_template.hash(&mut hasher);
    }
    0u8.hash(&mut hasher);
    for prompt in server.prompt_definitions() {
        prompt.name.hash(&mut hasher);
    }
    hasher.finish()
}

/// The actions of an action tool: the `enum` of its `action` property.
fn actions(input_schema: &Value) -> Vec<Value> {
    input_schema
        .pointer("/properties/action/enum")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter(|n| n.is_string()).cloned().collect())
        .unwrap_or_default()
}

fn tool_entry(name: &str, input_schema: &Value) -> Value {
    json!({"name": name, "actions": actions(input_schema)})
}

/// The universe of an in-process server, from its registry.
fn registry_universe(server: &Server, label: &str, info: &Value) -> Value {
    let tools: Vec<Value> = server
        .tool_definitions()
        .iter()
        .map(|t| tool_entry(&t.name, &t.input_schema))
        .collect();
    let completions: Vec<Value> = server
        .completion_references()
        .into_iter()
        .map(|(kind, name, argument)| json!({"ref": kind, "name": name, "argument": argument}))
        .collect();
    json!({
        "v": FORMAT_VERSION,
        "event": "universe",
        "source": "registry",
        "target": label,
        "server": info,
        "tools": tools,
        "resources": server.resource_definitions().iter().map(|r| r.uri.as_str()).collect::<Vec<_>>(),
        "templates": server.resource_template_definitions().iter().map(|t| t.uri_template.as_str()).collect::<Vec<_>>(),
        "prompts": server.prompt_definitions().iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        "completions": completions,
    })
}

/// The part of a remote server's universe a list result the suite obtained shows.
fn listed_universe(
    method: &str,
    response: Option<&Value>,
    label: &str,
    server: Option<&Value>,
) -> Option<Value> {
    let result = response?.get("result")?;
    let (kind, items): (&str, Vec<Value>) = match method {
        "tools/list" => (
            "tools",
            list_items(result, "tools")
                .filter_map(|t| {
                    Some(tool_entry(
                        t.get("name")?.as_str()?,
                        t.get("inputSchema").unwrap_or(&Value::Null),
                    ))
                })
                .collect(),
        ),
        "resources/list" => ("resources", strings(result, "resources", "uri")),
        "resources/templates/list" => (
            "templates",
            strings(result, "resourceTemplates", "uriTemplate"),
        ),
        "prompts/list" => ("prompts", strings(result, "prompts", "name")),
        _ => return None,
    };
    let mut event = Map::new();
    event.insert("v".into(), FORMAT_VERSION.into());
    event.insert("event".into(), "universe".into());
    event.insert("source".into(), "list".into());
    event.insert("target".into(), label.into());
    event.insert("server".into(), server.cloned().unwrap_or(Value::Null));
    event.insert(kind.into(), Value::Array(items));
    Some(Value::Object(event))
}

fn list_items<'a>(result: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    result
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn strings(result: &Value, key: &str, field: &str) -> Vec<Value> {
    list_items(result, key)
        .filter_map(|item| item.get(field).filter(|v| v.is_string()).cloned())
        .collect()
}

/// The server's name and version from a reply: `_meta` of a 2026-07-28 result, or the
/// `serverInfo` of `server/discover` and `initialize`.
fn server_info(response: &Value) -> Option<Value> {
    let result = response.get("result")?;
    let info = result
        .get("_meta")
        .and_then(|m| m.get(meta_keys::SERVER_INFO))
        .or_else(|| result.get("serverInfo"))?;
    let name = info.get("name")?.as_str()?;
    let version = info.get("version").and_then(Value::as_str).unwrap_or("");
    Some(json!({"name": name, "version": version}))
}

/// The server's name and version as the target knew them before any reply
/// ([`Connection::server_info`]), or as its handshake gave them (a 2025-11-25 session's
/// `initialize` result, whose replies carry no `serverInfo`; a `server/discover` result).
fn known_server_info(target: &(impl Target + ?Sized)) -> Option<Value> {
    let connection = target.connection();
    let info = connection.server_info.or_else(|| {
        let handshake = connection.handshake?;
        handshake
            .get("serverInfo")
            .or_else(|| handshake.get("_meta")?.get(meta_keys::SERVER_INFO))
            .cloned()
    })?;
    let name = info.get("name")?.as_str()?;
    let version = info.get("version").and_then(Value::as_str).unwrap_or("");
    Some(json!({"name": name, "version": version}))
}

/// Whether an `isError` result's text is the argument validation of the runtime (`Invalid
/// arguments for tool NAME`, `Invalid arguments: ...`) or of the official SDKs (`Input
/// validation error: ...`).
fn is_validation_error(result: &Value) -> bool {
    list_items(result, "content")
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .any(|text| {
            let text = text.trim_start();
            text.starts_with("Invalid arguments") || text.starts_with("Input validation error")
        })
}

/// The outcome of one request from its reply.
fn outcome(method: &str, response: Option<&Value>) -> Outcome {
    let Some(response) = response else {
        return Outcome::ProtocolError;
    };
    if let Some(error) = response.get("error") {
        let missing = i64::from(crate::wire::error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY);
        return match error.get("code").and_then(Value::as_i64) {
            Some(code) if code == missing => Outcome::MissingCapability,
            _ => Outcome::ProtocolError,
        };
    }
    let Some(result) = response.get("result") else {
        return Outcome::ProtocolError;
    };
    if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
        return Outcome::InputRequired;
    }
    if method == "tools/call" && result.get("isError") == Some(&Value::Bool(true)) {
        return if is_validation_error(result) {
            Outcome::ValidationError
        } else {
            Outcome::ExecutionError
        };
    }
    Outcome::Success
}

fn request_event(
    method: &str,
    message: &Value,
    response: Option<&Value>,
    label: &str,
    server: Option<Value>,
    in_process: bool,
) -> Value {
    let params = message.get("params").unwrap_or(&Value::Null);
    let mut event = Map::new();
    event.insert("v".into(), FORMAT_VERSION.into());
    event.insert("event".into(), "request".into());
    event.insert("target".into(), label.into());
    event.insert("server".into(), server.unwrap_or(Value::Null));
    event.insert("in_process".into(), in_process.into());
    event.insert("method".into(), method.into());
    event.insert("outcome".into(), outcome(method, response).as_str().into());
    let string = |v: Option<&Value>| v.and_then(Value::as_str).map(Value::from);
    match method {
        "tools/call" => {
            if let Some(name) = string(params.get("name")) {
                event.insert("tool".into(), name);
            }
            if let Some(action) = string(params.pointer("/arguments/action")) {
                event.insert("action".into(), action);
            }
        }
        "resources/read" => {
            if let Some(uri) = string(params.get("uri")) {
                event.insert("uri".into(), uri);
            }
        }
        "prompts/get" => {
            if let Some(name) = string(params.get("name")) {
                event.insert("prompt".into(), name);
            }
        }
        "completion/complete" => {
            let reference = params.get("ref").unwrap_or(&Value::Null);
            if let Some(kind) = string(reference.get("type")) {
                event.insert("ref".into(), kind);
            }
            if let Some(name) = string(reference.get("name").or_else(|| reference.get("uri"))) {
                event.insert("name".into(), name);
            }
            if let Some(argument) = string(params.pointer("/argument/name")) {
                event.insert("argument".into(), argument);
            }
        }
        _ => {}
    }
    Value::Object(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of the calling test's own under the system's temporary one, named after
    /// `name`, the process and the thread, so that tests running at once never share one.
    pub(super) fn scratch_dir(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!(
            "{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ))
    }

    #[test]
    fn outcomes_follow_the_reply() {
        let call = "tools/call";
        assert_eq!(outcome(call, None), Outcome::ProtocolError);
        assert_eq!(
            outcome(call, Some(&json!({"error": {"code": -32021}}))),
            Outcome::MissingCapability
        );
        assert_eq!(
            outcome(call, Some(&json!({"error": {"code": -32602}}))),
            Outcome::ProtocolError
        );
        assert_eq!(
            outcome(
                call,
                Some(&json!({"result": {"resultType": "input_required"}}))
            ),
            Outcome::InputRequired
        );
        let invalid = json!({"result": {"isError": true,
            "content": [{"type": "text", "text": "Invalid arguments for tool add:\n/a: ..."}]}});
        assert_eq!(outcome(call, Some(&invalid)), Outcome::ValidationError);
        let failed = json!({"result": {"isError": true,
            "content": [{"type": "text", "text": "division by zero"}]}});
        assert_eq!(outcome(call, Some(&failed)), Outcome::ExecutionError);
        assert_eq!(outcome("prompts/get", Some(&failed)), Outcome::Success);
        assert_eq!(
            outcome(call, Some(&json!({"result": {}}))),
            Outcome::Success
        );
    }

    #[test]
    fn requests_name_what_they_exercised() {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "completion/complete",
            "params": {"ref": {"type": "ref/resource", "uri": "file:///{path}"},
                       "argument": {"name": "path", "value": ""}}});
        let event = request_event(
            "completion/complete",
            &message,
            Some(&json!({"result": {}})),
            "t",
            None,
            false,
        );
        assert_eq!(event["ref"], "ref/resource");
        assert_eq!(event["name"], "file:///{path}");
        assert_eq!(event["argument"], "path");
        assert_eq!(event["outcome"], "success");
        let message = json!({"id": 2, "method": "tools/call",
            "params": {"name": "items", "arguments": {"action": "get", "data": {}}}});
        let event = request_event("tools/call", &message, None, "t", None, false);
        assert_eq!(
            (&event["tool"], &event["action"]),
            (&json!("items"), &json!("get"))
        );
    }

    #[test]
    fn threads_of_one_process_append_whole_lines_to_one_file() {
        let dir = scratch_dir("mcp-cov-threads");
        let recorder = Recorder::new(&dir);
        let server = Server::builder("demo", "1.0.0").build().unwrap();
        let reply = Exchange {
            response: Some(json!({"jsonrpc": "2.0", "id": 1, "result": {}})),
            ..Exchange::default()
        };
        std::thread::scope(|scope| {
            for thread in 0..8 {
                let (recorder, server, reply) = (&recorder, &server, &reply);
                scope.spawn(move || {
                    for i in 0..50 {
                        let message = json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get",
                            "params": {"name": format!("p{thread}")}});
                        recorder.record(server, Some(server), &message, reply);
                    }
                });
            }
        });
        let coverage = report::Coverage::load(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((coverage.files(), coverage.requests()), (1, 400));
        let [demo] = coverage.servers() else {
            panic!("one server: {:?}", coverage.servers())
        };
        assert_eq!(demo.prompts().len(), 8);
        assert!(demo.prompts().iter().all(|p| p.counts().total() == 50));
    }

    /// No downcast: the in-process server says it answered, through a context and through a
    /// recording inside another; a target that answers itself is a server elsewhere.
    #[tokio::test]
    async fn recordings_learn_of_the_in_process_server_that_answered() {
        let base = std::env::temp_dir().join(format!("mcp-cov-answered-{}", std::process::id()));
        let (inner_dir, outer_dir, other_dir) =
            (base.join("inner"), base.join("outer"), base.join("other"));
        let server = Server::builder("demo", "1.0.0").build().unwrap();
        let inner = Recording::new(
            crate::testing::TestContext::new(server),
            Recorder::new(&inner_dir),
        );
        let outer = Recording::new(&inner, Recorder::new(&outer_dir));
        let discover = crate::mcp_request!("server/discover");
        outer.send(&discover, &Caller::default()).await.unwrap();
        for dir in [&inner_dir, &outer_dir] {
            let coverage = report::Coverage::load(dir).unwrap();
            let [demo] = coverage.servers() else {
                panic!("one server: {:?}", coverage.servers())
            };
            assert_eq!(demo.name(), "demo 1.0.0");
            assert_eq!(demo.universe(), report::Universe::Registry);
        }

        /// Answers `tools/list` itself, naming no server: not in process.
        struct Elsewhere;
        impl Target for Elsewhere {
            fn label(&self) -> String {
                "elsewhere".to_owned()
            }
            fn send<'a>(&'a self, message: &'a Value, _: &'a Caller) -> TargetFuture<'a> {
                let response = json!({"jsonrpc": "2.0", "id": message["id"],
                    "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}});
                Box::pin(async move {
                    Ok(Exchange {
                        response: Some(response),
                        ..Exchange::default()
                    })
                })
            }
        }
        let other = Recording::new(Elsewhere, Recorder::new(&other_dir));
        let list = crate::mcp_request!("tools/list");
        other.send(&list, &Caller::default()).await.unwrap();
        let coverage = report::Coverage::load(&other_dir).unwrap();
        assert_eq!(coverage.servers()[0].universe(), report::Universe::Listed);
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_directory_that_cannot_be_made_turns_recording_off() {
        let file = std::env::temp_dir().join(format!("mcp-cov-blocker-{}", std::process::id()));
        std::fs::write(&file, "").unwrap();
        let recorder = Recorder::new(file.join("sub"));
        let server = Server::builder("demo", "1.0.0").build().unwrap();
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        recorder.record(&server, Some(&server), &message, &Exchange::default());
        assert!(recorder.inner.failed.load(Ordering::Relaxed));
        assert!(recorder.file().is_none());
        std::fs::remove_file(&file).unwrap();
    }
}
