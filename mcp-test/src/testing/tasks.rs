//! Testing the tasks extension (`io.modelcontextprotocol/tasks`): call a tool as a task, poll
//! it until it settles, answer its questions, cancel it, and assert on its status.
//!
//! Every helper declares the extension in the request's client capabilities (beside what the
//! options declare) and works over any [`Target`]: an in-process [`Server`](crate::Server), a
//! server over stdio or HTTP.
//!
//! Polling honours the task's `pollIntervalMs`. A test server built with
//! [`ServerBuilder::task_poll_interval(None)`](crate::ServerBuilder::task_poll_interval) sends
//! none, and the poll waits from a millisecond up between `tasks/get`s. Every wait is on
//! tokio's clock: under `#[mcp_test(start_paused = true)]` (feature `test-util`) or
//! `#[tokio::test(start_paused = true)]` every wait, the server's `pollIntervalMs` and the
//! tool's own timers included, is virtual, so no test sleeps.

use super::request::{RequestOptions, TestContext, send_at};
use crate::target::Target;
use crate::tasks::TaskStatus;
use serde::Serialize;
use serde_json::{Map, Value};
use std::future::Future;
use std::panic::Location;
use std::time::Duration;

/// How long [`poll_task`] polls before it gives up (virtual under a paused clock).
pub const POLL_LIMIT: Duration = Duration::from_secs(60);

/// The longest wait between two polls of a task that suggests no interval.
const MAX_BACKOFF: Duration = Duration::from_millis(250);

/// The status of a task in `response`: a JSON-RPC response (its `result`), or a task object
/// itself (a `CreateTaskResult`, a `tasks/get` result, `notifications/tasks` params). `None`
/// when it carries no known status.
///
/// ```
/// use mcp_test::tasks::TaskStatus;
/// use mcp_test::testing::task_status;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"taskId": "t", "status": "working"}});
/// assert_eq!(task_status(&response), Some(TaskStatus::Working));
/// assert_eq!(task_status(&json!({"status": "completed"})), Some(TaskStatus::Completed));
/// assert_eq!(task_status(&json!({"content": []})), None);
/// ```
pub fn task_status(response: &Value) -> Option<TaskStatus> {
    task_object(response)
        .get("status")
        .and_then(Value::as_str)
        .and_then(TaskStatus::parse)
}

/// The task object in `response`: its `result` when it is a JSON-RPC response, else itself.
fn task_object(response: &Value) -> &Value {
    response.get("result").unwrap_or(response)
}

/// The `taskId` of the task in `response` (see [`task_status`]); panics naming what arrived
/// when there is none, e.g. when the call answered with a plain result.
///
/// ```
/// use mcp_test::testing::task_id;
/// use serde_json::json;
/// let created = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "task", "taskId": "t-9", "status": "working"}});
/// assert_eq!(task_id(&created), "t-9");
/// ```
///
/// ```should_panic
/// use mcp_test::testing::task_id;
/// // Panics: expected a task (a taskId), got a complete result.
/// task_id(&serde_json::json!({"result": {"resultType": "complete", "content": []}}));
/// ```
#[track_caller]
pub fn task_id(response: &Value) -> &str {
    match task_object(response).get("taskId").and_then(Value::as_str) {
        Some(id) => id,
        None => panic!(
            "expected a task (a taskId), got {}:\n{}",
            describe(response),
            pretty(response)
        ),
    }
}

fn describe(response: &Value) -> String {
    if let Some(error) = response.get("error") {
        return format!("the JSON-RPC error {}", error.get("code").unwrap_or(error));
    }
    match task_object(response)
        .get("resultType")
        .and_then(Value::as_str)
    {
        Some(kind) => format!("a {kind} result"),
        None => "a result without resultType".to_owned(),
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// Calls tool `name` with `arguments` declaring the tasks extension, and returns the complete
/// JSON-RPC response: a `CreateTaskResult` (`resultType: "task"`) when the server made a task,
/// else what the call answered (a plain result, `input_required`, an error).
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::testing::{call_tool_as_task, task_id};
///
/// /// Counts, as a task.
/// #[derive(Tool)]
/// #[tool(task = "optional")]
/// struct Count { to: u32 }
/// impl Count {
///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
///         ctx.enter_task().await;
///         Ok(format!("counted to {}", self.to))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("s", "1").tool::<Count>().build().unwrap();
/// let created = call_tool_as_task(&server, "count", json!({"to": 3}), &RequestOptions::new()).await;
/// assert_eq!(created["result"]["resultType"], "task");
/// assert!(!task_id(&created).is_empty());
/// // Without the extension declared, the same call runs to its result.
/// let plain = mcp_test::testing::call_tool(&server, "count", json!({"to": 3}), &RequestOptions::new()).await;
/// assert_tool_text!(plain, "counted to 3");
/// # }
/// ```
#[track_caller]
pub fn call_tool_as_task(
    server: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let options = options.declaring_tasks();
    let body = options.tool_call_body("call_tool_as_task", name, arguments);
    let caller = Location::caller();
    async move { send_at(server, &body, &options, caller).await }
}

fn task_params(task_id: &str) -> Map<String, Value> {
    let mut params = Map::new();
    params.insert("taskId".to_owned(), Value::from(task_id));
    params
}

/// Sends `tasks/get` for `task_id` and returns the complete JSON-RPC response.
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::testing::get_task;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// # #[derive(Tool)] #[tool(task = "optional")] struct Count {}
/// # impl Count { async fn run(self, _: &Context) -> Result<String, ToolError> { Ok("1".into()) } }
/// let server = Server::builder("s", "1").tool::<Count>().build().unwrap();
/// let unknown = get_task(&server, "no-such-task", &RequestOptions::new()).await;
/// assert_rpc_error!(unknown, -32602, "Task not found");
/// # }
/// ```
#[track_caller]
pub fn get_task(
    server: &(impl Target + ?Sized),
    task_id: &str,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    get_task_at(server, task_id, options, Location::caller())
}

async fn get_task_at(
    server: &(impl Target + ?Sized),
    task_id: &str,
    options: &RequestOptions,
    caller: &'static Location<'static>,
) -> Value {
    let options = options.declaring_tasks();
    let body = options.task_body("get_task", "tasks/get", task_params(task_id));
    send_at(server, &body, &options, caller).await
}

/// Sends `tasks/update` delivering `input_responses` (keyed like the task's
/// `inputRequests`, e.g. with [`answer`](crate::testing::answer)) and returns the complete
/// JSON-RPC response, the acknowledgement. See [`answer_task`] to also wait for the task.
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::testing::update_task;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// # #[derive(Tool)] #[tool(task = "optional")] struct Count {}
/// # impl Count { async fn run(self, _: &Context) -> Result<String, ToolError> { Ok("1".into()) } }
/// let server = Server::builder("s", "1").tool::<Count>().build().unwrap();
/// let reply = update_task(&server, "no-such-task", json!({}), &RequestOptions::new()).await;
/// assert_rpc_error!(reply, -32602);
/// # }
/// ```
#[track_caller]
pub fn update_task(
    server: &(impl Target + ?Sized),
    task_id: &str,
    input_responses: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let body = update_body(task_id, input_responses, options);
    let caller = Location::caller();
    async move { send_at(server, &body, &options.declaring_tasks(), caller).await }
}

#[track_caller]
fn update_body(task_id: &str, input_responses: impl Serialize, options: &RequestOptions) -> Value {
    let options = options.declaring_tasks();
    let mut params = task_params(task_id);
    let responses = match serde_json::to_value(input_responses) {
        Ok(value @ Value::Object(_)) => value,
        Ok(other) => panic!(
            "update_task: input_responses must be a JSON object keyed like the task's inputRequests, got {}",
            crate::wire::json_type(&other)
        ),
        Err(e) => panic!("update_task: input_responses do not serialize: {e}"),
    };
    params.insert("inputResponses".to_owned(), responses);
    options.task_body("update_task", "tasks/update", params)
}

/// Sends `tasks/cancel` for `task_id` and returns the complete JSON-RPC response.
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::testing::{call_tool_as_task, cancel_task, get_task, task_id};
///
/// /// Waits for ever.
/// #[derive(Tool)]
/// #[tool(task = "optional")]
/// struct Forever {}
/// impl Forever {
///     async fn run(self, _: &Context) -> Result<String, ToolError> {
///         std::future::pending::<()>().await;
///         Ok("never".into())
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("s", "1").tool::<Forever>().build().unwrap();
/// let opts = RequestOptions::new();
/// let created = call_tool_as_task(&server, "forever", json!({}), &opts).await;
/// let ack = cancel_task(&server, task_id(&created), &opts).await;
/// assert_eq!(ack["result"]["resultType"], "complete");
/// assert_task_status!(get_task(&server, task_id(&created), &opts).await, "cancelled");
/// # }
/// ```
#[track_caller]
pub fn cancel_task(
    server: &(impl Target + ?Sized),
    task_id: &str,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let options = options.declaring_tasks();
    let body = options.task_body("cancel_task", "tasks/cancel", task_params(task_id));
    let caller = Location::caller();
    async move { send_at(server, &body, &options, caller).await }
}

/// Polls `tasks/get` until the task settles: a terminal status (`completed`, `failed`,
/// `cancelled`) or `input_required`, and returns that complete response. Waits
/// `pollIntervalMs` between polls; when the task suggests none, 1 ms, then twice as long
/// after each poll, up to 250 ms. Panics on a JSON-RPC error, or when the task has not
/// settled after [`POLL_LIMIT`].
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::testing::{call_tool_as_task, poll_task, task_id};
///
/// /// Sleeps, then answers.
/// #[derive(Tool)]
/// #[tool(task = "optional")]
/// struct Nap {}
/// impl Nap {
///     async fn run(self, _: &Context) -> Result<String, ToolError> {
///         tokio::time::sleep(std::time::Duration::from_secs(30)).await;
///         Ok("rested".into())
///     }
/// }
///
/// // A paused clock: the 30 s nap and the polls take no real time.
/// # fn main() {
/// # tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build().unwrap().block_on(async {
/// let server = Server::builder("s", "1").tool::<Nap>().build().unwrap();
/// let opts = RequestOptions::new();
/// let created = call_tool_as_task(&server, "nap", json!({}), &opts).await;
/// let done = poll_task(&server, task_id(&created), &opts).await;
/// assert_task_status!(done, "completed");
/// assert_tool_text!(done["result"]["result"].clone(), "rested");
/// # });
/// # }
/// ```
#[track_caller]
pub fn poll_task<'a>(
    server: &'a (impl Target + ?Sized),
    task_id: &'a str,
    options: &'a RequestOptions,
) -> impl std::future::Future<Output = Value> + 'a {
    poll_task_at(server, task_id, options, Location::caller())
}

async fn poll_task_at(
    server: &(impl Target + ?Sized),
    task_id: &str,
    options: &RequestOptions,
    caller: &'static Location<'static>,
) -> Value {
    let started = tokio::time::Instant::now();
    let mut backoff = Duration::from_millis(1);
    loop {
        let response = get_task_at(server, task_id, options, caller).await;
        if response.get("error").is_some() {
            panic!(
                "poll_task (at {caller}): tasks/get for task {task_id:?} failed:\n{}",
                pretty(&response)
            );
        }
        match task_status(&response) {
            Some(status) if status.is_terminal() || status == TaskStatus::InputRequired => {
                return response;
            }
            Some(_) => {}
            None => panic!(
                "poll_task (at {caller}): tasks/get for task {task_id:?} answered without a known status:\n{}",
                pretty(&response)
            ),
        }
        if started.elapsed() >= POLL_LIMIT {
            panic!(
                "poll_task (at {caller}): task {task_id:?} did not settle within {} s; last answer:\n{}",
                POLL_LIMIT.as_secs(),
                pretty(&response)
            );
        }
        let interval = task_object(&response)
            .get("pollIntervalMs")
            .and_then(Value::as_u64)
            .filter(|ms| *ms > 0)
            .map_or(backoff, Duration::from_millis);
        backoff = (backoff * 2).min(MAX_BACKOFF);
        tokio::time::sleep(interval.min(POLL_LIMIT)).await;
    }
}

/// Answers a task's questions: sends `tasks/update` with `input_responses`, panics unless it
/// is acknowledged, then [`poll_task`]s until the task settles again and returns that
/// response.
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::testing::{answer, answer_task, call_tool_as_task, poll_task, task_id};
///
/// /// Asks a name, as a task.
/// #[derive(Tool)]
/// #[tool(task = "optional")]
/// struct Hello {}
/// impl Hello {
///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
///         ctx.enter_task().await;
///         let name = ctx.elicit("Name?", json!({"type": "object",
///             "properties": {"name": {"type": "string"}}})).key("name").await?;
///         Ok(format!("Hello, {}!", name.accepted().map_or(json!(null), |c| c["name"].clone())))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("s", "1").tool::<Hello>().task_poll_interval(None).build().unwrap();
/// let opts = RequestOptions::new().client_capabilities(json!({"elicitation": {}}));
/// let created = call_tool_as_task(&server, "hello", json!({}), &opts).await;
/// let id = task_id(&created).to_owned();
/// let waiting = poll_task(&server, &id, &opts).await;
/// assert_task_status!(waiting, "input_required");
/// assert!(waiting["result"]["inputRequests"]["name"].is_object());
/// let done = answer_task(&server, &id, json!({"name": answer::accept(json!({"name": "Ada"}))}), &opts).await;
/// assert_task_status!(done, "completed");
/// assert_eq!(done["result"]["result"]["content"][0]["text"], "Hello, \"Ada\"!");
/// # }
/// ```
#[track_caller]
pub fn answer_task<'a>(
    server: &'a (impl Target + ?Sized),
    task_id: &'a str,
    input_responses: impl Serialize + 'a,
    options: &'a RequestOptions,
) -> impl std::future::Future<Output = Value> + 'a {
    let body = update_body(task_id, input_responses, options);
    let caller = Location::caller();
    async move {
        let ack = send_at(server, &body, &options.declaring_tasks(), caller).await;
        if ack.get("result").is_none() {
            panic!(
                "answer_task (at {caller}): tasks/update for task {task_id:?} was not acknowledged:\n{}",
                pretty(&ack)
            );
        }
        poll_task_at(server, task_id, options, caller).await
    }
}

/// Calls tool `name` as a task and, when the server made one, polls it until it settles;
/// returns the settled `tasks/get` response, or the call's own response when it answered
/// without a task (a plain result, `input_required`, an error).
///
/// ```
/// use mcp_test::prelude::*;
/// use mcp_test::testing::run_task;
///
/// /// Fails as a tool, in a task.
/// #[derive(Tool)]
/// #[tool(task = "required")]
/// struct Broken {}
/// impl Broken {
///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
///         ctx.enter_task().await;
///         Err(ToolError::new("out of paper"))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("s", "1").tool::<Broken>().task_poll_interval(None).build().unwrap();
/// let settled = run_task(&server, "broken", json!({}), &RequestOptions::new()).await;
/// // A tool execution error completes the task, with isError in its result.
/// let task = assert_task_status!(settled, "completed");
/// assert_tool_error!(task["result"].clone(), "out of paper");
/// # }
/// ```
#[track_caller]
pub fn run_task(
    server: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let create = call_tool_as_task(server, name, arguments, options);
    let caller = Location::caller();
    async move { run_task_after(server, create, options, caller).await }
}

async fn run_task_after(
    server: &(impl Target + ?Sized),
    create: impl Future<Output = Value>,
    options: &RequestOptions,
    caller: &'static Location<'static>,
) -> Value {
    let created = create.await;
    let is_task = created
        .pointer("/result/resultType")
        .and_then(Value::as_str)
        == Some("task");
    if !is_task {
        return created;
    }
    let id = task_id(&created).to_owned();
    poll_task_at(server, &id, options, caller).await
}

/// Asserts that `response` (a JSON-RPC response or a task object, see
/// [`task_status`](crate::testing::task_status)) holds a task with status `expected` (the wire
/// spelling: `"working"`, `"input_required"`, `"completed"`, `"failed"`, `"cancelled"`), and
/// returns the task object. Panics naming the status that arrived and showing the response.
///
/// ```
/// use mcp_test::assert_task_status;
/// use serde_json::json;
/// let done = json!({"result": {"taskId": "t", "status": "completed", "result": {"content": []}}});
/// let task = assert_task_status!(done, "completed");
/// assert_eq!(task["taskId"], "t");
/// ```
///
/// ```should_panic
/// use mcp_test::assert_task_status;
/// // Panics: expected task status "completed", got "failed".
/// assert_task_status!(serde_json::json!({"status": "failed", "error": {"code": -32603}}), "completed");
/// ```
#[macro_export]
macro_rules! assert_task_status {
    ($response:expr, $expected:expr $(,)?) => {
        $crate::testing::__task_status(&$response, $expected)
    };
}

#[doc(hidden)]
#[track_caller]
pub fn __task_status(response: &Value, expected: &str) -> Value {
    if TaskStatus::parse(expected).is_none() {
        panic!(
            "assert_task_status!: {expected:?} is not a task status; expected one of \"working\", \"input_required\", \"completed\", \"failed\", \"cancelled\""
        );
    }
    let task = task_object(response);
    match task.get("status").and_then(Value::as_str) {
        Some(status) if status == expected => task.clone(),
        Some(status) => panic!(
            "expected task status {expected:?}, got {status:?}:\n{}",
            pretty(response)
        ),
        None => panic!(
            "expected a task with status {expected:?}, got {}:\n{}",
            describe(response),
            pretty(response)
        ),
    }
}

impl TestContext {
    /// [`call_tool_as_task`] with this context.
    ///
    /// ```
    /// use mcp_test::prelude::*;
    /// # #[derive(Tool)] #[tool(task = "optional")] struct Count {}
    /// # impl Count { async fn run(self, ctx: &Context) -> Result<String, ToolError> { ctx.enter_task().await; Ok("1".into()) } }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(Server::builder("s", "1").tool::<Count>().build().unwrap());
    /// let created = mcp.call_tool_as_task("count", json!({})).await;
    /// let id = mcp_test::testing::task_id(&created).to_owned();
    /// assert_task_status!(mcp.poll_task(&id).await, "completed");
    /// # }
    /// ```
    #[track_caller]
    pub fn call_tool_as_task(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> impl Future<Output = Value> {
        call_tool_as_task(self.target(), name, arguments, self.options())
    }

    /// [`get_task`] with this context.
    #[track_caller]
    pub fn get_task(&self, task_id: &str) -> impl Future<Output = Value> {
        get_task(self.target(), task_id, self.options())
    }

    /// [`update_task`] with this context.
    #[track_caller]
    pub fn update_task(
        &self,
        task_id: &str,
        input_responses: impl Serialize,
    ) -> impl Future<Output = Value> {
        update_task(self.target(), task_id, input_responses, self.options())
    }

    /// [`cancel_task`] with this context.
    #[track_caller]
    pub fn cancel_task(&self, task_id: &str) -> impl Future<Output = Value> {
        cancel_task(self.target(), task_id, self.options())
    }

    /// [`poll_task`] with this context.
    #[track_caller]
    pub fn poll_task<'a>(
        &'a self,
        task_id: &'a str,
    ) -> impl std::future::Future<Output = Value> + 'a {
        poll_task(self.target(), task_id, self.options())
    }

    /// [`answer_task`] with this context.
    #[track_caller]
    pub fn answer_task<'a>(
        &'a self,
        task_id: &'a str,
        input_responses: impl Serialize + 'a,
    ) -> impl std::future::Future<Output = Value> + 'a {
        answer_task(self.target(), task_id, input_responses, self.options())
    }

    /// [`run_task`] with this context.
    #[track_caller]
    pub fn run_task(&self, name: &str, arguments: impl Serialize) -> impl Future<Output = Value> {
        run_task(self.target(), name, arguments, self.options())
    }
}
