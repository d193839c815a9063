//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a `tools/call` answered
//! with a task handle, then `tasks/get`, `tasks/update`, `tasks/cancel` and
//! `notifications/tasks` on `subscriptions/listen`.
//!
//! # Declaring task support
//!
//! A tool says whether its calls may become tasks with [`TaskSupport`]:
//! [`Tool::task_support`](crate::Tool::task_support), or `#[tool(task = "optional")]` on a
//! derived tool. `forbidden` (the default) never makes a task; `optional` makes one when the
//! client declared the extension on the request; `required` too, and a client that did not
//! declare it gets -32021 with `data.requiredCapabilities.extensions` naming the extension.
//! A server with at least one task tool advertises the extension in `server/discover` and
//! serves the three `tasks/*` methods; each answers -32021 to a request that does not declare
//! the extension.
//!
//! Where a client learns a tool's task support depends on the era. 2026-07-28 removed
//! `Tool.execution` (tasks left the core for this extension, SEP-2663, whose per-request
//! capability is the one handshake), so `tools/list` names none there, and a `required` tool
//! tells a client that did not declare the extension by its -32021. A 2025-11-25 session
//! ([`session`](crate::session)) lists it as that revision's `Tool` does,
//! `execution.taskSupport` (`"optional"` or `"required"`; absent means `"forbidden"`), and,
//! serving no tasks in that era, answers a call to a `required` tool -32601, as
//! server/tools.mdx asks of a call that is not a task.
//!
//! # When a call becomes a task
//!
//! The server decides, per call: the handler runs at once, and
//!
//! - if it finishes without waiting, the call answers with the plain result (the immediate
//!   shortcut the extension allows);
//! - if it asks a question (elicitation, sampling, roots) before it first waits on anything
//!   else, the call answers `input_required`, exactly as a multi-round call: the multi-round
//!   phase is resolved synchronously, before any task exists;
//! - the first time it waits on anything else (a timer, I/O, or an explicit
//!   [`Context::enter_task`](crate::Context::enter_task)), the call answers with a task handle
//!   (`resultType: "task"`): the task is stored before the answer is sent, so a `tasks/get`
//!   right after resolves.
//!
//! The task then runs the handler again in the background, from the start, with every answer
//! of the multi-round phase (the replay model of [`rounds`](crate::rounds)). Questions it asks
//! there put the task in `input_required` with those `inputRequests`; `tasks/update` delivers
//! answers (a partial set keeps the task waiting for the rest; unknown or already answered
//! keys are ignored), and once every outstanding question is answered the handler replays
//! again with all answers. A result becomes `completed` (a tool execution error too, with
//! `isError: true`), a JSON-RPC error becomes `failed` with that `error`. `tasks/cancel`
//! stops the background run and marks the task `cancelled`; on a finished task it changes
//! nothing and acknowledges all the same.
//!
//! # Store, TTL and clock
//!
//! What `tasks/get` observes lives in a [`TaskStore`] ([`MemoryTaskStore`] by default; set
//! another with [`ServerBuilder::task_store`](crate::ServerBuilder::task_store)). Every task
//! carries a TTL from its creation (`ttlMs`, default one hour,
//! [`ServerBuilder::task_ttl`](crate::ServerBuilder::task_ttl)); after it, the task is removed
//! and its id answers -32602 "Task has expired". The clock it is measured with is injectable
//! ([`ServerBuilder::task_clock`](crate::ServerBuilder::task_clock)), so a test expires a
//! task without sleeping. The background runs themselves live in the serving process.
//!
//! A task belongs to the principal that created it: to anyone else its id is unknown.

pub(crate) mod extension;

pub(crate) use extension::missing_extension;
pub use extension::{EXTENSION, declared_in};

use crate::context::Context;
use crate::rounds::{Bounded, RoundHandle, TaskPhase, run_bounded};
use crate::subscriptions::{Change, Hub};
use crate::wire::{ErrorObject, InputRequests, params};
use futures_util::future::{AbortHandle, Abortable, BoxFuture};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Whether a tool's calls may become tasks.
///
/// ```
/// use mcp_test::tasks::TaskSupport;
/// let support: TaskSupport = "required".parse().unwrap();
/// assert_eq!(support, TaskSupport::Required);
/// assert_eq!(TaskSupport::default().as_str(), "forbidden");
/// assert!("sometimes".parse::<TaskSupport>().unwrap_err().contains("\"forbidden\", \"optional\" or \"required\""));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// Never a task (the default).
    #[default]
    Forbidden,
    /// A task when the client declared the extension on the request.
    Optional,
    /// A task when the client declared the extension; -32021 when it did not.
    Required,
}

impl TaskSupport {
    /// The attribute and wire spelling: `forbidden`, `optional` or `required`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

impl FromStr for TaskSupport {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "forbidden" => Ok(TaskSupport::Forbidden),
            "optional" => Ok(TaskSupport::Optional),
            "required" => Ok(TaskSupport::Required),
            other => Err(format!(
                "unknown task support {other:?}: expected \"forbidden\", \"optional\" or \"required\""
            )),
        }
    }
}

/// A task's status.
///
/// ```
/// use mcp_test::tasks::TaskStatus;
/// assert!(TaskStatus::Cancelled.is_terminal());
/// assert!(!TaskStatus::InputRequired.is_terminal());
/// assert_eq!(TaskStatus::InputRequired.as_str(), "input_required");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// The request is being processed.
    Working,
    /// The task waits for answers to its `inputRequests`.
    InputRequired,
    /// Finished with a result (a tool execution error too).
    Completed,
    /// Finished with a JSON-RPC error.
    Failed,
    /// Cancelled before it finished.
    Cancelled,
}

impl TaskStatus {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the status is final: `completed`, `failed` or `cancelled`.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }

    /// The status spelled `s` on the wire.
    pub fn parse(s: &str) -> Option<TaskStatus> {
        Some(match s {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }
}

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One task as a [`TaskStore`] keeps it: what `tasks/get` shows, plus the answers its
/// background runs replay with and the principal it belongs to. Serializable, so a store may
/// keep it anywhere.
///
/// ```
/// use mcp_test::tasks::{TaskRecord, TaskStatus};
/// use std::time::{Duration, UNIX_EPOCH};
/// let mut task = TaskRecord::new("t-1", UNIX_EPOCH + Duration::from_secs(1_764_066_600));
/// task.ttl = Some(Duration::from_secs(60));
/// let wire = task.detailed();
/// assert_eq!(wire["status"], "working");
/// assert_eq!(wire["createdAt"], "2025-11-25T10:30:00.000Z");
/// assert_eq!(wire["ttlMs"], 60000);
/// task.status = TaskStatus::Completed;
/// task.result = Some(serde_json::json!({"content": [], "resultType": "complete"}));
/// assert_eq!(task.detailed()["result"]["content"], serde_json::json!([]));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaskRecord {
    /// The server-generated, unguessable id.
    pub task_id: String,
    /// The current status.
    pub status: TaskStatus,
    /// A message describing the status.
    pub status_message: Option<String>,
    /// When the task was created.
    pub created_at: SystemTime,
    /// When its status last changed.
    pub last_updated_at: SystemTime,
    /// How long after creation the task may be discarded; `None` for unlimited.
    pub ttl: Option<Duration>,
    /// The suggested polling interval.
    pub poll_interval: Option<Duration>,
    /// The outstanding questions (status `input_required`).
    pub input_requests: InputRequests,
    /// Every answer delivered so far, by key: what the next background run replays with.
    pub answers: Map<String, Value>,
    /// The final result (status `completed`).
    pub result: Option<Value>,
    /// The JSON-RPC error (status `failed`).
    pub error: Option<ErrorObject>,
    /// The principal the task belongs to.
    pub owner: Option<String>,
}

impl TaskRecord {
    /// A `working` task created at `now`, with no TTL, no poll interval and nothing else.
    pub fn new(task_id: impl Into<String>, now: SystemTime) -> Self {
        TaskRecord {
            task_id: task_id.into(),
            status: TaskStatus::Working,
            status_message: None,
            created_at: now,
            last_updated_at: now,
            ttl: None,
            poll_interval: None,
            input_requests: InputRequests::default(),
            answers: Map::new(),
            result: None,
            error: None,
            owner: None,
        }
    }

    /// The `Task` fields: id, status, message, timestamps, `ttlMs`, `pollIntervalMs`.
    fn base(&self) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("taskId".into(), Value::from(self.task_id.as_str()));
        out.insert("status".into(), Value::from(self.status.as_str()));
        if let Some(message) = &self.status_message {
            out.insert("statusMessage".into(), Value::from(message.as_str()));
        }
        out.insert("createdAt".into(), Value::from(iso8601(self.created_at)));
        out.insert(
            "lastUpdatedAt".into(),
            Value::from(iso8601(self.last_updated_at)),
        );
        out.insert(
            "ttlMs".into(),
            self.ttl.map_or(Value::Null, |ttl| Value::from(millis(ttl))),
        );
        // pollIntervalMs is a positive integer when present: a zero interval is left out.
        if let Some(interval) = self.poll_interval.filter(|i| millis(*i) > 0) {
            out.insert("pollIntervalMs".into(), Value::from(millis(interval)));
        }
        out
    }

    /// The `DetailedTask` of the task's current status, as `tasks/get` and
    /// `notifications/tasks` carry it (without `resultType`).
    pub fn detailed(&self) -> Value {
        let mut out = self.base();
        match self.status {
            TaskStatus::InputRequired => {
                out.insert("inputRequests".into(), self.input_requests.to_value());
            }
            TaskStatus::Completed => {
                out.insert(
                    "result".into(),
                    self.result.clone().unwrap_or_else(|| json!({})),
                );
            }
            TaskStatus::Failed => {
                let error = self.error.clone().unwrap_or_else(|| {
                    ErrorObject::internal("Internal error: the task failed without an error")
                });
                out.insert(
                    "error".into(),
                    serde_json::to_value(error).unwrap_or(Value::Null),
                );
            }
            TaskStatus::Working | TaskStatus::Cancelled => {}
        }
        Value::Object(out)
    }

    /// The `CreateTaskResult` of this task: its `Task` fields and `resultType: "task"`.
    pub fn create_result(&self) -> Value {
        let mut out = self.base();
        out.insert("resultType".into(), Value::from("task"));
        Value::Object(out)
    }

    fn expired(&self, now: SystemTime) -> bool {
        self.ttl
            .and_then(|ttl| self.created_at.checked_add(ttl))
            .is_some_and(|deadline| now >= deadline)
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `t` as an ISO 8601 UTC timestamp with milliseconds, e.g. `2025-11-25T10:30:00.000Z`.
///
/// ```
/// use mcp_test::tasks::iso8601;
/// use std::time::{Duration, UNIX_EPOCH};
/// assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
/// assert_eq!(iso8601(UNIX_EPOCH + Duration::from_millis(951_782_400_123)), "2000-02-29T00:00:00.123Z");
/// ```
pub fn iso8601(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2);
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

/// A [`TaskStore`] failure; the request it served answers -32603 with this message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("task store: {0}")]
pub struct StoreError(pub String);

/// Where tasks are kept: what `tasks/get` observes. Implement it to keep tasks in your own
/// storage; [`MemoryTaskStore`] is the default.
///
/// The runtime writes a task ([`TaskStore::put`]) before it answers with the task's handle,
/// so a store must make a put visible to the next get.
///
/// ```
/// use mcp_test::tasks::{MemoryTaskStore, StoreError, TaskRecord, TaskStore};
/// use futures_util::future::BoxFuture;
/// use std::sync::Arc;
///
/// /// A store that counts its writes and keeps tasks in memory.
/// #[derive(Default)]
/// struct Counting { inner: MemoryTaskStore, puts: std::sync::atomic::AtomicUsize }
///
/// impl TaskStore for Counting {
///     fn put(&self, task: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
///         self.puts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
///         self.inner.put(task)
///     }
///     fn get(&self, task_id: &str) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>> {
///         self.inner.get(task_id)
///     }
///     fn remove(&self, task_id: &str) -> BoxFuture<'_, Result<(), StoreError>> {
///         self.inner.remove(task_id)
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let store = Counting::default();
/// store.put(TaskRecord::new("t-1", std::time::SystemTime::now())).await.unwrap();
/// assert!(store.get("t-1").await.unwrap().is_some());
/// let server = mcp_test::Server::builder("s", "1").task_store(store).build().unwrap();
/// # let _ = server;
/// # }
/// ```
pub trait TaskStore: Send + Sync + 'static {
    /// Inserts or replaces the task with `task.task_id`.
    fn put(&self, task: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>>;
    /// The task with this id, if it is kept.
    fn get(&self, task_id: &str) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>>;
    /// Forgets the task with this id (nothing happens when there is none).
    fn remove(&self, task_id: &str) -> BoxFuture<'_, Result<(), StoreError>>;
}

/// The default [`TaskStore`]: a map in memory, lost with the process.
///
/// ```
/// use mcp_test::tasks::{MemoryTaskStore, TaskRecord, TaskStore};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let store = MemoryTaskStore::default();
/// store.put(TaskRecord::new("t-1", std::time::SystemTime::now())).await.unwrap();
/// assert_eq!(store.get("t-1").await.unwrap().unwrap().task_id, "t-1");
/// store.remove("t-1").await.unwrap();
/// assert!(store.get("t-1").await.unwrap().is_none());
/// # }
/// ```
#[derive(Debug, Default)]
pub struct MemoryTaskStore {
    tasks: Mutex<HashMap<String, TaskRecord>>,
}

impl MemoryTaskStore {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, TaskRecord>> {
        // Every update is one insert or remove: a poisoned map is still consistent.
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl TaskStore for MemoryTaskStore {
    fn put(&self, task: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        self.map().insert(task.task_id.clone(), task);
        Box::pin(std::future::ready(Ok(())))
    }

    fn get(&self, task_id: &str) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>> {
        let task = self.map().get(task_id).cloned();
        Box::pin(std::future::ready(Ok(task)))
    }

    fn remove(&self, task_id: &str) -> BoxFuture<'_, Result<(), StoreError>> {
        self.map().remove(task_id);
        Box::pin(std::future::ready(Ok(())))
    }
}

/// The clock tasks are timed with.
pub(crate) type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// A task's background run: the handler, run in the context it is given, to a wire result.
pub(crate) type Runner =
    Arc<dyn Fn(Context) -> BoxFuture<'static, Result<Value, ErrorObject>> + Send + Sync>;

/// How a server keeps its tasks.
pub(crate) struct TaskConfig {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) ttl: Option<Duration>,
    pub(crate) poll_interval: Option<Duration>,
    pub(crate) clock: Clock,
}

impl Default for TaskConfig {
    fn default() -> Self {
        TaskConfig {
            store: Arc::new(MemoryTaskStore::default()),
            ttl: Some(Duration::from_secs(3_600)),
            poll_interval: Some(Duration::from_millis(500)),
            clock: Arc::new(SystemTime::now),
        }
    }
}

/// A task's background run in this process.
struct Live {
    ctx: Context,
    runner: Runner,
    abort: Option<AbortHandle>,
}

/// A server's tasks: the store, and the runs in progress.
pub(crate) struct Tasks {
    config: TaskConfig,
    live: Mutex<HashMap<String, Live>>,
    /// Serializes read-modify-write sequences on the store.
    writing: tokio::sync::Mutex<()>,
    hub: Arc<Hub>,
    /// When each task this process created expires, so that tasks nobody asks about again
    /// are removed too (at the next task creation).
    expiries: Mutex<Vec<(SystemTime, String)>>,
}

impl fmt::Debug for Tasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tasks")
            .field("ttl", &self.config.ttl)
            .field("poll_interval", &self.config.poll_interval)
            .finish_non_exhaustive()
    }
}

/// A fresh, unguessable task id: 128 random bits as a UUID-shaped string.
fn new_task_id() -> Result<String, ErrorObject> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        ErrorObject::internal(format!("Internal error: no randomness for a task id: {e}"))
    })?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

fn store_failed(error: &StoreError) -> ErrorObject {
    ErrorObject::internal(format!("Internal error: {error}"))
}

fn not_found(task_id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "Failed to retrieve task: Task not found: {task_id:?}"
    ))
}

impl Tasks {
    pub(crate) fn new(config: TaskConfig, hub: Arc<Hub>) -> Self {
        Tasks {
            config,
            live: Mutex::new(HashMap::new()),
            writing: tokio::sync::Mutex::new(()),
            hub,
            expiries: Mutex::new(Vec::new()),
        }
    }

    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<String, Live>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> SystemTime {
        (self.config.clock)()
    }

    /// Creates a task for the call in `ctx`, stores it, starts its background run and
    /// returns its `CreateTaskResult`.
    pub(crate) async fn create(
        self: &Arc<Self>,
        ctx: &Context,
        runner: Runner,
        answers: Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        self.remove_expired().await;
        let mut task = TaskRecord::new(new_task_id()?, self.now());
        task.ttl = self.config.ttl;
        task.poll_interval = self.config.poll_interval;
        task.answers = answers;
        task.owner = ctx.principal().map(str::to_owned);
        let created = task.create_result();
        {
            let _writing = self.writing.lock().await;
            self.config
                .store
                .put(task.clone())
                .await
                .map_err(|e| store_failed(&e))?;
        }
        if let Some(deadline) = task.ttl.and_then(|ttl| task.created_at.checked_add(ttl)) {
            self.expiries
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((deadline, task.task_id.clone()));
        }
        let mut background = ctx.clone();
        // Progress and log notifications are not sent for tasks (the request has been
        // answered).
        background.notifier = crate::notify::Notifier::default();
        self.live().insert(
            task.task_id.clone(),
            Live {
                ctx: background,
                runner,
                abort: None,
            },
        );
        self.start_run(&task);
        Ok(created)
    }

    /// Removes the tasks of this process whose TTL has passed, and stops their runs.
    async fn remove_expired(&self) {
        let now = self.now();
        let expired: Vec<String> = {
            let mut expiries = self.expiries.lock().unwrap_or_else(|e| e.into_inner());
            let (gone, kept) = std::mem::take(&mut *expiries)
                .into_iter()
                .partition(|(deadline, _)| *deadline <= now);
            *expiries = kept;
            gone.into_iter().map(|(_, id)| id).collect()
        };
        for task_id in expired {
            if let Some(live) = self.live().remove(&task_id)
                && let Some(abort) = live.abort
            {
                abort.abort();
            }
            // A store that fails here is asked again when the task is next read.
            let _ = self.config.store.remove(&task_id).await;
        }
    }

    /// Starts a background run of `task` with its answers.
    fn start_run(self: &Arc<Self>, task: &TaskRecord) {
        let mut live = self.live();
        let Some(entry) = live.get_mut(&task.task_id) else {
            return;
        };
        let handle = RoundHandle::with_phase(task.answers.clone(), 1, TaskPhase::Inside);
        let mut ctx = entry.ctx.clone();
        ctx.round = handle.clone();
        let run = (entry.runner)(ctx);
        let (abort, registration) = AbortHandle::new_pair();
        if let Some(old) = entry.abort.replace(abort) {
            old.abort();
        }
        let tasks = Arc::clone(self);
        let task_id = task.task_id.clone();
        let work = async move {
            let outcome = run_bounded(&handle, run).await;
            let used = handle.lock().used.clone();
            tasks.finish_run(&task_id, outcome, used).await;
        };
        tokio::spawn(Abortable::new(work, registration));
    }

    /// Records how a background run ended.
    async fn finish_run(
        self: &Arc<Self>,
        task_id: &str,
        outcome: Bounded<Result<Value, ErrorObject>>,
        used: Map<String, Value>,
    ) {
        let _writing = self.writing.lock().await;
        let Ok(Some(mut task)) = self.config.store.get(task_id).await else {
            return;
        };
        if task.status.is_terminal() {
            return;
        }
        task.last_updated_at = self.now();
        match outcome {
            Bounded::Finished(Ok(result)) => {
                task.status = TaskStatus::Completed;
                task.status_message = None;
                task.result = Some(result);
            }
            Bounded::Finished(Err(error)) | Bounded::Failed(error) => {
                task.status = TaskStatus::Failed;
                task.status_message = Some(format!("Request failed: {}", error.message));
                task.error = Some(error);
            }
            Bounded::Asked(questions) => {
                task.answers.extend(used);
                task.status = TaskStatus::InputRequired;
                task.status_message = Some(format!(
                    "Waiting for {} answer(s) through tasks/update",
                    questions.len()
                ));
                task.input_requests = questions;
            }
            Bounded::Detached => {
                let error =
                    ErrorObject::internal("Internal error: a task's background run was detached");
                task.status = TaskStatus::Failed;
                task.status_message = Some(error.message.clone());
                task.error = Some(error);
            }
        }
        if task.status.is_terminal() {
            self.live().remove(task_id);
        }
        // A write that fails leaves the task as it was last stored.
        let _ = self.save(&task).await;
    }

    /// Stores `task` and tells the subscribers to it how it stands now.
    async fn save(&self, task: &TaskRecord) -> Result<(), ErrorObject> {
        self.config
            .store
            .put(task.clone())
            .await
            .map_err(|e| store_failed(&e))?;
        self.announce(task);
        Ok(())
    }

    fn announce(&self, task: &TaskRecord) {
        self.hub.announce(Change::Task {
            task_id: task.task_id.clone(),
            owner: task.owner.clone(),
            detailed: task.detailed(),
        });
    }

    /// The task `params.taskId` names, as `ctx`'s principal may see it; an expired task is
    /// removed.
    async fn load(
        &self,
        ctx: &Context,
        params: &Map<String, Value>,
    ) -> Result<TaskRecord, ErrorObject> {
        if !declared_in(ctx.client_capabilities()) {
            return Err(missing_extension(ctx.method()));
        }
        let task_id = params::required(
            params,
            "taskId",
            Value::as_str,
            "a string",
            "the id a CreateTaskResult returned",
        )?;
        let task = self
            .config
            .store
            .get(task_id)
            .await
            .map_err(|e| store_failed(&e))?
            .filter(|task| task.owner.as_deref() == ctx.principal())
            .ok_or_else(|| not_found(task_id))?;
        if task.expired(self.now()) {
            if let Some(live) = self.live().remove(task_id)
                && let Some(abort) = live.abort
            {
                abort.abort();
            }
            self.config
                .store
                .remove(task_id)
                .await
                .map_err(|e| store_failed(&e))?;
            return Err(ErrorObject::invalid_params(format!(
                "Failed to retrieve task: Task has expired: {task_id:?}"
            )));
        }
        Ok(task)
    }

    /// `tasks/get`.
    pub(crate) async fn get(
        &self,
        ctx: &Context,
        params: &Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let task = self.load(ctx, params).await?;
        let mut result = task.detailed();
        result["resultType"] = Value::from("complete");
        Ok(result)
    }

    /// `tasks/update`: delivers answers to outstanding questions.
    pub(crate) async fn update(
        self: &Arc<Self>,
        ctx: &Context,
        params: &Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let _writing = self.writing.lock().await;
        let mut task = self.load(ctx, params).await?;
        let responses = params::required(
            params,
            "inputResponses",
            Value::as_object,
            "an object keyed like the task's inputRequests",
            "answers keyed like the task's inputRequests",
        )?;
        if task.status != TaskStatus::InputRequired {
            // Nothing is outstanding: every key is unknown or already answered, and ignored.
            return Ok(json!({}));
        }
        let mut still = InputRequests::default();
        let mut answered = 0;
        for (key, question) in task.input_requests.iter() {
            match responses.get(key) {
                Some(answer) => {
                    task.answers.insert(key.to_owned(), answer.clone());
                    answered += 1;
                }
                None => still.push(key.to_owned(), question.clone()),
            }
        }
        if answered == 0 {
            return Ok(json!({}));
        }
        task.input_requests = still;
        task.last_updated_at = self.now();
        let resume = task.input_requests.is_empty();
        if resume {
            task.status = TaskStatus::Working;
            task.status_message = None;
        }
        self.save(&task).await?;
        if resume {
            self.start_run(&task);
        }
        Ok(json!({}))
    }

    /// `tasks/cancel`: stops the background run; a finished task is left as it is.
    pub(crate) async fn cancel(
        &self,
        ctx: &Context,
        params: &Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let _writing = self.writing.lock().await;
        let mut task = self.load(ctx, params).await?;
        if task.status.is_terminal() {
            return Ok(json!({}));
        }
        if let Some(live) = self.live().remove(&task.task_id)
            && let Some(abort) = live.abort
        {
            abort.abort();
        }
        task.status = TaskStatus::Cancelled;
        task.status_message = Some("Cancelled by the client (tasks/cancel)".to_owned());
        task.input_requests = InputRequests::default();
        task.last_updated_at = self.now();
        self.save(&task).await?;
        Ok(json!({}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_are_distinct_and_uuid_shaped() {
        let a = new_task_id().unwrap();
        let b = new_task_id().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(a.matches('-').count(), 4);
    }

    #[test]
    fn timestamps_are_iso_8601() {
        let t = UNIX_EPOCH + Duration::from_secs(1_764_066_600) + Duration::from_millis(7);
        assert_eq!(iso8601(t), "2025-11-25T10:30:00.007Z");
        let leap = UNIX_EPOCH + Duration::from_secs(4_107_542_399);
        assert_eq!(iso8601(leap), "2100-02-28T23:59:59.000Z");
    }

    #[test]
    fn a_zero_poll_interval_is_left_out_and_no_ttl_is_null() {
        let mut task = TaskRecord::new("t", UNIX_EPOCH);
        task.poll_interval = Some(Duration::ZERO);
        let wire = task.detailed();
        assert!(wire.get("pollIntervalMs").is_none());
        assert_eq!(wire["ttlMs"], Value::Null);
    }

    #[test]
    fn a_task_expires_at_its_ttl_from_creation() {
        let mut task = TaskRecord::new("t", UNIX_EPOCH);
        assert!(!task.expired(UNIX_EPOCH + Duration::from_secs(1_000_000)));
        task.ttl = Some(Duration::from_secs(10));
        assert!(!task.expired(UNIX_EPOCH + Duration::from_secs(9)));
        assert!(task.expired(UNIX_EPOCH + Duration::from_secs(10)));
    }
}
