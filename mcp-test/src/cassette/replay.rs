//! Replaying a cassette as a test: the recorded requests sent in order to a live target,
//! volatile values carried forward, the answers compared around the volatile marks.

use super::diff::{Difference, differences};
use super::error::CassetteError;
use super::format::{Cassette, CassetteWriter, Recorded, lock, volatile_pointers};
use super::record::{Recorder, http_headers};
use crate::server::Caller;
use crate::setters;
use crate::target::{Answers, Target};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The environment variable that makes a replay re-record: `MCP_TEST_CASSETTE=overwrite`
/// writes the live session over the cassette instead of comparing.
pub const CASSETTE_ENV: &str = "MCP_TEST_CASSETTE";

/// What a replay does with the live answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayMode {
    /// Compare them with the recorded ones; on a difference write `<cassette>.pending`.
    Compare,
    /// Write them over the cassette (re-record the same requests); nothing is compared.
    Overwrite,
}

/// How a cassette is replayed. `#[non_exhaustive]`: start from [`ReplayOptions::new`].
///
/// ```
/// use mcp_test::cassette::{ReplayMode, ReplayOptions};
/// use std::time::Duration;
/// let options = ReplayOptions::new()
///     .mode(ReplayMode::Compare)
///     .poll_deadline(Duration::from_secs(10));
/// assert_eq!(options.mode, Some(ReplayMode::Compare));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReplayOptions {
    /// Who sends the requests (in process: identity, assigns, timeout).
    pub caller: Caller,
    /// Compare or overwrite; `None` (the default) reads [`CASSETTE_ENV`]: `overwrite` there
    /// overwrites, anything else compares.
    pub mode: Option<ReplayMode>,
    /// How long a task poll that the recording saw further along is repeated before it is
    /// compared as it stands (default 30 s).
    pub poll_deadline: Duration,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            caller: Caller::default(),
            mode: None,
            poll_deadline: Duration::from_secs(30),
        }
    }
}

impl ReplayOptions {
    /// The defaults: an anonymous caller, the mode from [`CASSETTE_ENV`], 30 s of re-polling.
    pub fn new() -> Self {
        ReplayOptions::default()
    }

    setters! {
        /// Sends as `caller`.
        caller: Caller;
        /// Compares or overwrites, whatever the environment says.
        mode(mode: ReplayMode) => mode = Some(mode);
        /// Re-polls a task at most this long.
        poll_deadline(deadline: Duration) => poll_deadline = deadline;
    }
}

/// What a replay that found no difference did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Replay {
    /// Recorded messages sent (requests and notifications).
    pub sent: usize,
    /// Responses compared.
    pub compared: usize,
    /// Recorded task polls skipped because the live task was already further along.
    pub polls_skipped: usize,
    /// Extra task polls sent because the live task was not yet as far along as recorded.
    pub polls_added: usize,
    /// Whether the cassette was overwritten ([`ReplayMode::Overwrite`]).
    pub overwritten: bool,
}

/// Replays the cassette at `path` against `target` with the default [`ReplayOptions`]: see
/// [`replay_with`].
pub async fn replay(
    target: &(impl Target + ?Sized),
    path: impl AsRef<Path>,
) -> Result<Replay, CassetteError> {
    replay_with(target, path, &ReplayOptions::new()).await
}

/// Replays the cassette at `path` against `target`: each recorded client message in order,
/// each response compared with the recorded one.
///
/// - **Carried forward**: where a recorded request holds a volatile value an earlier recorded
///   response produced (a `requestState`, a task id), the value the live server produced at
///   the same place is sent instead, so multi-round calls and task polling replay.
/// - **Compared around the marks**: the values the cassette marks volatile (ids,
///   `requestState`, task ids, timestamps, server info: the snapshots' default redactions and
///   more, [`volatile_pointers`](super::volatile_pointers)) are compared for presence only;
///   everything else of the response, and of the notifications the request caused (its
///   progress and log messages), must be equal. The server's announcements (list changes,
///   resource updates, task status) come when the server chooses and are not compared.
/// - **Task polls**: a `tasks/get` whose live task is not yet where the recording saw it is
///   repeated (at the task's `pollIntervalMs`, up to [`ReplayOptions::poll_deadline`]); one
///   whose live task is already further skips the recorded polls in between.
/// - **A difference** fails with [`CassetteError::Differs`], which lists each (exchange,
///   line, JSON pointer, recorded and live values), after writing the live session to
///   `<cassette>.pending` for review: accept it by moving it over the cassette, or re-record
///   with `MCP_TEST_CASSETTE=overwrite` ([`ReplayMode::Overwrite`]).
///
/// ```
/// use mcp_test::cassette::{CassetteError, Recorder, replay};
/// use mcp_test::testing::{RequestOptions, list_tools};
/// use mcp_test::Server;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let dir = std::env::temp_dir().join(format!("replay-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("session.jsonl");
/// let recorder = Recorder::create(Server::builder("demo", "1.0.0").build().unwrap(), &path).unwrap();
/// list_tools(&recorder, &RequestOptions::new()).await;
/// recorder.finish().unwrap();
///
/// // The same server answers the same: no difference.
/// let same = Server::builder("demo", "1.0.0").build().unwrap();
/// assert_eq!(replay(&same, &path).await.unwrap().compared, 1);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # }
/// ```
pub async fn replay_with(
    target: &(impl Target + ?Sized),
    path: impl AsRef<Path>,
    options: &ReplayOptions,
) -> Result<Replay, CassetteError> {
    let path = path.as_ref();
    let cassette = Cassette::load(path)?;
    let mode = options.mode.unwrap_or_else(|| {
        match std::env::var(CASSETTE_ENV).ok().as_deref().map(str::trim) {
            Some("overwrite") => ReplayMode::Overwrite,
            _ => ReplayMode::Compare,
        }
    });
    let live_log = SharedBuf::default();
    let writer = CassetteWriter::to_writer(
        Box::new(live_log.clone()),
        path,
        &target.label(),
        http_headers(&target),
    );
    let recorder = Recorder::new(target, writer);
    let mut run = Run {
        cassette: &cassette,
        recorder: &recorder,
        options,
        carried: Vec::new(),
        found: Vec::new(),
        replay: Replay::default(),
    };
    run.all().await?;
    recorder.finish()?;
    let Run {
        found, mut replay, ..
    } = run;
    let live = live_log.take();
    let pending = pending_path(path);
    if mode == ReplayMode::Overwrite {
        // In one step: another test replaying the cassette reads the old one or this.
        super::format::write_atomically(path, &live)?;
        let _ = std::fs::remove_file(&pending);
        replay.overwritten = true;
        return Ok(replay);
    }
    if found.is_empty() {
        let _ = std::fs::remove_file(&pending);
        return Ok(replay);
    }
    let written = std::fs::write(&pending, &live).is_ok();
    Err(CassetteError::Differs {
        source_name: cassette.source.clone(),
        differences: found,
        pending: written.then_some(pending),
    })
}

/// Where a replay that found differences writes the live session: `<cassette>.pending`.
pub fn pending_path(cassette: &Path) -> PathBuf {
    let mut name = cassette.as_os_str().to_owned();
    name.push(".pending");
    PathBuf::from(name)
}

struct Run<'r, T: Target + ?Sized> {
    cassette: &'r Cassette,
    recorder: &'r Recorder<&'r T>,
    options: &'r ReplayOptions,
    /// Recorded volatile values and the live values produced at the same places.
    carried: Vec<(Value, Value)>,
    found: Vec<Difference>,
    replay: Replay,
}

impl<T: Target + ?Sized> Run<'_, T> {
    async fn all(&mut self) -> Result<(), CassetteError> {
        let entries: Vec<(usize, &Recorded)> = self
            .cassette
            .entries
            .iter()
            .enumerate()
            .filter(|(_, r)| r.entry.request.is_some())
            .collect();
        let mut at = 0;
        while at < entries.len() {
            let (index, recorded) = entries[at];
            let request = self.carry_into(recorded.entry.request.as_ref().expect("filtered"));
            let mut live = self.send(recorded, &request).await?;
            self.replay.sent += 1;
            let mut compared = (index, recorded);
            if recorded.entry.method() == Some("tasks/get") {
                live = self.poll_until(recorded, &request, live).await?;
                // The live task is further along: skip to the recorded poll that saw it so.
                let live_status = status(live.0.as_ref());
                if live_status != status(recorded.entry.response.as_ref()) {
                    let task = task_of(recorded);
                    let ahead = entries[at + 1..]
                        .iter()
                        .take_while(|(_, r)| {
                            r.entry.method() == Some("tasks/get") && task_of(r) == task
                        })
                        .position(|(_, r)| status(r.entry.response.as_ref()) == live_status);
                    if let Some(ahead) = ahead {
                        // The current recorded poll and those before the one compared.
                        self.replay.polls_skipped += ahead + 1;
                        at += ahead + 1;
                        compared = entries[at];
                    }
                }
            }
            if compared.1.entry.is_request() {
                self.compare(compared.0, compared.1, &live);
                self.replay.compared += 1;
            }
            at += 1;
        }
        Ok(())
    }

    async fn send(
        &self,
        recorded: &Recorded,
        request: &Value,
    ) -> Result<(Option<Value>, Vec<Value>), CassetteError> {
        let exchange = self
            .recorder
            .send(request, &self.options.caller)
            .await
            .map_err(|source| CassetteError::Target {
                source_name: self.cassette.source.clone(),
                line: recorded.line,
                method: recorded.entry.method().unwrap_or_default().to_owned(),
                target: self.recorder.label(),
                source: Box::new(source),
            })?;
        Ok((exchange.response, exchange.notifications))
    }

    /// Re-polls while the live task is still `working` where the recording saw it further.
    async fn poll_until(
        &mut self,
        recorded: &Recorded,
        request: &Value,
        mut live: (Option<Value>, Vec<Value>),
    ) -> Result<(Option<Value>, Vec<Value>), CassetteError> {
        let wanted = status(recorded.entry.response.as_ref());
        let started = Instant::now();
        while status(live.0.as_ref()) == Some("working")
            && wanted.is_some_and(|w| w != "working")
            && started.elapsed() < self.options.poll_deadline
        {
            let interval = live
                .0
                .as_ref()
                .and_then(|r| r.get("result")?.get("pollIntervalMs")?.as_u64())
                .unwrap_or(50)
                .clamp(10, 1_000);
            tokio::time::sleep(Duration::from_millis(interval)).await;
            live = self.send(recorded, request).await?;
            self.replay.polls_added += 1;
        }
        Ok(live)
    }

    /// `request` with each volatile value an earlier response produced replaced by the live
    /// value produced at the same place (its id kept).
    fn carry_into(&self, request: &Value) -> Value {
        let mut request = request.clone();
        if let Some(params) = request.get_mut("params") {
            substitute(params, &self.carried);
        }
        request
    }

    fn compare(&mut self, index: usize, recorded: &Recorded, live: &(Option<Value>, Vec<Value>)) {
        let whole = |response: Option<&Value>, notes: &[Value]| {
            let mut line = serde_json::Map::new();
            if let Some(response) = response {
                line.insert("response".into(), response.clone());
            }
            let notes: Vec<Value> = notes.iter().filter(|n| caused(n)).cloned().collect();
            if !notes.is_empty() {
                line.insert("notifications".into(), Value::from(notes));
            }
            Value::Object(line)
        };
        let mut was = whole(
            recorded.entry.response.as_ref(),
            &recorded.entry.notifications,
        );
        let mut now = whole(live.0.as_ref(), &live.1);
        // The response: around the recorded marks, each recorded volatile value carried
        // forward to the live one at the same place.
        for pointer in recorded
            .entry
            .volatile
            .iter()
            .filter(|p| p.starts_with("/response"))
        {
            if let (Some(old), Some(new)) = (was.pointer(pointer), now.pointer(pointer))
                && old != new
                && pointer != "/response/id"
                && !self.carried.iter().any(|(k, _)| k == old)
            {
                self.carried.push((old.clone(), new.clone()));
            }
            for side in [&mut was, &mut now] {
                if let Some(value) = side.pointer_mut(pointer) {
                    *value = Value::from("[volatile]");
                }
            }
        }
        // The notifications: each side around its own marks (their places may shift).
        for side in [&mut was, &mut now] {
            let notes = serde_json::json!({"notifications": side.get("notifications")});
            for pointer in volatile_pointers(&notes) {
                if let Some(value) = side.pointer_mut(&pointer) {
                    *value = Value::from("[volatile]");
                }
            }
        }
        let method = recorded.entry.method().unwrap_or_default().to_owned();
        for (pointer, recorded_value, live_value) in differences("", &was, &now) {
            self.found.push(Difference {
                exchange: index + 1,
                line: recorded.line,
                method: method.clone(),
                pointer,
                recorded: recorded_value,
                live: live_value,
            });
        }
    }
}

/// Whether a notification is one a request causes, compared on replay: its progress and its
/// log messages. The server's announcements (`notifications/*/list_changed`,
/// `notifications/resources/updated`, task status) come when the server chooses, so which
/// exchange they fall in is no behaviour of the request; they are recorded, not compared.
fn caused(notification: &Value) -> bool {
    matches!(
        notification.get("method").and_then(Value::as_str),
        Some("notifications/progress" | "notifications/message")
    )
}

fn substitute(value: &mut Value, carried: &[(Value, Value)]) {
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| substitute(v, carried)),
        Value::Array(items) => items.iter_mut().for_each(|v| substitute(v, carried)),
        other => {
            if let Some((_, live)) = carried.iter().find(|(recorded, _)| recorded == other) {
                *other = live.clone();
            }
        }
    }
}

fn status(response: Option<&Value>) -> Option<&str> {
    response?.get("result")?.get("status")?.as_str()
}

fn task_of(recorded: &Recorded) -> Option<&Value> {
    recorded
        .entry
        .request
        .as_ref()?
        .get("params")?
        .get("taskId")
}

/// The client's recorded answers to the server's own requests (2025-era `elicitation/create`,
/// `sampling/createMessage`, `roots/list`) as an [`Answers`] script: give it to the client a
/// 2025-era cassette is replayed through (`Client::with_answers`), so the live server's
/// questions get the answers the recorded client gave. A question is answered by the recorded
/// one with the same method and params (the first not yet used, else the last used); none
/// leaves it unanswered.
///
/// ```
/// use mcp_test::cassette::{Cassette, recorded_answers};
/// use serde_json::json;
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "era": "2025-11-25", "target": "t", "recordedAt": "x"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "ask"}}, "#,
///     r#""serverRequests": [{"request": {"jsonrpc": "2.0", "id": "s1", "method": "elicitation/create", "params": {"message": "Name?"}}, "#,
///     r#""response": {"jsonrpc": "2.0", "id": "s1", "result": {"action": "accept", "content": {"name": "Ada"}}}}]}"#, "\n",
/// );
/// let answers = recorded_answers(&Cassette::parse(text, "t").unwrap());
/// let asked = json!({"method": "elicitation/create", "params": {"message": "Name?"}});
/// assert_eq!(answers.find("elicitation/create", &asked).unwrap()["content"]["name"], "Ada");
/// ```
pub fn recorded_answers(cassette: &Cassette) -> Answers {
    let recorded: Vec<(Value, Value)> = cassette
        .entries
        .iter()
        .flat_map(|r| r.entry.server_requests.iter())
        .filter_map(|asked| {
            let result = asked.response.as_ref()?.get("result")?.clone();
            let mut question = serde_json::json!({"method": asked.request.get("method")?});
            if let Some(params) = asked.request.get("params") {
                question["params"] = params.clone();
            }
            Some((question, result))
        })
        .collect();
    let used = Mutex::new((vec![false; recorded.len()], None::<usize>));
    Answers::new().respond(move |_key, question| {
        let mut used = lock(&used);
        let matching: Vec<usize> = (0..recorded.len())
            .filter(|&i| recorded[i].0 == *question)
            .collect();
        let chosen = matching
            .iter()
            .copied()
            .find(|&i| !used.0[i])
            .or_else(|| used.1.filter(|l| matching.contains(l)))
            .or(matching.last().copied())?;
        used.0[chosen] = true;
        used.1 = Some(chosen);
        Some(recorded[chosen].1.clone())
    })
}

/// An in-memory sink for the live session of a replay.
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl SharedBuf {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut lock(&self.0))
    }
}

impl std::io::Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        lock(&self.0).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Replays a recorded session against a target and panics with every difference: the
/// panicking form of [`replay`](crate::cassette::replay) (the function returns a result).
/// Use it in an async test; the path is relative to the working directory (a test's crate).
///
/// On a difference the message lists each (exchange, line of the cassette, JSON pointer,
/// recorded and live values) and the live session is written to `<cassette>.pending`:
/// accept it with `mv <cassette>.pending <cassette>`, or re-record every cassette a test
/// replays with `MCP_TEST_CASSETTE=overwrite cargo test`.
///
/// ```
/// use mcp_test::assert_cassette;
/// use mcp_test::cassette::Recorder;
/// use mcp_test::testing::{RequestOptions, list_tools};
/// use mcp_test::Server;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// # let dir = std::env::temp_dir().join(format!("assert-cassette-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// # let path = dir.join("x.jsonl");
/// let server = || Server::builder("demo", "1.0.0").build().unwrap();
/// let recorder = Recorder::create(server(), &path).unwrap();
/// list_tools(&recorder, &RequestOptions::new()).await;
/// recorder.finish().unwrap();
///
/// assert_cassette!(server(), &path);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # }
/// ```
#[macro_export]
macro_rules! assert_cassette {
    ($target:expr, $path:expr $(,)?) => {
        match $crate::cassette::replay(&$target, $path).await {
            ::core::result::Result::Ok(_) => {}
            ::core::result::Result::Err(error) => ::core::panic!("{}", error),
        }
    };
}
