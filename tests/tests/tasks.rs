//! The tasks extension (`io.modelcontextprotocol/tasks`) as a downstream crate tests it: the
//! conformance fixture's task tools in process (under a paused clock, so their timers take no
//! real time) and over HTTP, the helpers of `mcp_test::testing`, a custom task store, TTL
//! expiry with an injected clock, `notifications/tasks` on `subscriptions/listen`, and every
//! task message the runtime sends checked against the extension's official schema.

#[allow(dead_code)] // the example's `main`
#[path = "../../mcp-test/examples/conformance.rs"]
mod conformance;

use futures_util::future::BoxFuture;
use mcp_test::tasks::{MemoryTaskStore, StoreError, TaskRecord, TaskStatus, TaskStore};
use mcp_test::testing::http::oneshot;
use mcp_test::testing::{
    RequestOptions, answer, answer_task, call_tool, call_tool_as_task, cancel_task, get_task,
    poll_task, request, run_task, run_tool, task_id, task_status, update_task,
};
use mcp_test::{
    Caller, Context, Identity, Server, Tool, ToolError, assert_rpc_error, assert_task_status,
    assert_tool_error, assert_tool_text,
};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The fixture with no poll interval, so polls wait the minimum.
fn fixture() -> Server {
    conformance::conformance_builder()
        .task_poll_interval(None)
        .build()
        .unwrap()
}

fn opts() -> RequestOptions {
    RequestOptions::new().client_capabilities(json!({"elicitation": {}}))
}

/// Checks a response to a task message against the extension's schema (and the core
/// envelope), panicking with every violation.
#[track_caller]
fn conforms(method: &str, response: &Value) {
    match mcp_test::spec::check_task_response(method, response) {
        Some(Ok(())) => {}
        Some(Err(e)) => panic!("{method}: {e}\n{response:#}"),
        None => panic!("{method}: not a task message: {response:#}"),
    }
}

/// Polls as `poll_task` does, checking every `tasks/get` answer against the schema.
async fn settle(server: &Server, id: &str) -> Value {
    let settled = poll_task(server, id, &opts()).await;
    conforms("tasks/get", &settled);
    settled
}

#[tokio::test(start_paused = true)]
async fn a_task_tool_answers_with_a_handle_and_completes() {
    let server = fixture();
    let created = call_tool_as_task(
        &server,
        "slow_compute",
        json!({"seconds": 30, "label": "lc"}),
        &opts(),
    )
    .await;
    conforms("tools/call", &created);
    assert_task_status!(created, "working");
    assert_eq!(created["result"]["resultType"], "task");
    assert!(created["result"].get("requestState").is_none());
    assert!(created["result"].get("pollIntervalMs").is_none());
    assert_eq!(created["result"]["ttlMs"], 3_600_000);
    let id = task_id(&created).to_owned();
    // Durable before the answer: an immediate tasks/get resolves.
    let working = get_task(&server, &id, &opts()).await;
    conforms("tasks/get", &working);
    assert_task_status!(working, "working");
    assert_eq!(working["result"]["resultType"], "complete");
    let done = settle(&server, &id).await;
    let task = assert_task_status!(done, "completed");
    assert_tool_text!(task["result"].clone(), "Computed lc after 30 s");
    assert!(
        task["result"]["_meta"]
            .get("io.modelcontextprotocol/related-task")
            .is_none()
    );
}

#[tokio::test(start_paused = true)]
async fn without_the_extension_a_call_runs_to_its_result_and_tasks_methods_are_refused() {
    let server = fixture();
    let plain = call_tool(
        &server,
        "slow_compute",
        json!({"seconds": 2, "label": "sync"}),
        &RequestOptions::new(),
    )
    .await;
    assert_tool_text!(plain, "Computed sync after 2 s");
    assert!(plain["result"].get("taskId").is_none());
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let options = if method == "tasks/update" {
            RequestOptions::new().input_responses(json!({}))
        } else {
            RequestOptions::new()
        };
        let reply = request(&server, method, json!({"taskId": "x"}), &options).await;
        let error = assert_rpc_error!(reply, -32021);
        assert_eq!(
            error.data.unwrap()["requiredCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
            json!({}),
            "{method}"
        );
    }
    // A required-task tool refuses a client without the extension.
    let refused = call_tool(&server, "failing_job", json!({}), &RequestOptions::new()).await;
    assert_rpc_error!(refused, -32021, "io.modelcontextprotocol/tasks");
    // Removed v1 methods stay unknown.
    for method in ["tasks/result", "tasks/list"] {
        let reply = request(&server, method, json!({"taskId": "x"}), &opts().declaring()).await;
        assert_rpc_error!(reply, -32601);
    }
}

/// Declares the tasks extension on top of `opts()`.
trait Declaring {
    fn declaring(self) -> RequestOptions;
}

impl Declaring for RequestOptions {
    fn declaring(self) -> RequestOptions {
        self.client_capabilities(
            json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}),
        )
    }
}

#[tokio::test(start_paused = true)]
async fn tool_errors_complete_and_protocol_errors_fail() {
    let server = fixture();
    let failing = run_task(&server, "failing_job", json!({}), &opts()).await;
    conforms("tasks/get", &failing);
    let task = assert_task_status!(failing, "completed");
    assert_tool_error!(task["result"].clone(), "could not be processed");

    let broken = run_task(&server, "protocol_error_job", json!({}), &opts()).await;
    conforms("tasks/get", &broken);
    let task = assert_task_status!(broken, "failed");
    assert_eq!(task["error"]["code"], -32603);
    assert!(task.get("result").is_none());
    assert!(
        task["statusMessage"]
            .as_str()
            .unwrap()
            .contains("backend is unavailable")
    );
}

#[tokio::test(start_paused = true)]
async fn cancel_stops_a_running_task_and_is_idempotent_on_a_finished_one() {
    let server = fixture();
    let created = call_tool_as_task(
        &server,
        "slow_compute",
        json!({"seconds": 60, "label": "c"}),
        &opts(),
    )
    .await;
    let id = task_id(&created).to_owned();
    let ack = cancel_task(&server, &id, &opts()).await;
    conforms("tasks/cancel", &ack);
    assert_eq!(ack["result"]["resultType"], "complete");
    assert!(ack["result"].get("status").is_none());
    let cancelled = get_task(&server, &id, &opts()).await;
    conforms("tasks/get", &cancelled);
    assert_task_status!(cancelled, "cancelled");
    // Long after the 60 s the run would have taken, it is still cancelled: the run stopped.
    tokio::time::sleep(Duration::from_secs(1_200)).await;
    assert_task_status!(get_task(&server, &id, &opts()).await, "cancelled");
    // Cancelling again (a terminal task) acknowledges and changes nothing.
    let again = cancel_task(&server, &id, &opts()).await;
    conforms("tasks/cancel", &again);
    assert_task_status!(get_task(&server, &id, &opts()).await, "cancelled");
    // An unknown id is -32602.
    assert_rpc_error!(cancel_task(&server, "nope", &opts()).await, -32602);
    assert_rpc_error!(
        get_task(&server, "nope", &opts()).await,
        -32602,
        "Task not found"
    );
}

#[tokio::test]
async fn questions_in_a_task_are_answered_with_tasks_update() {
    let server = fixture();
    let created = call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "a.txt"}),
        &opts(),
    )
    .await;
    conforms("tools/call", &created);
    let id = task_id(&created).to_owned();
    let waiting = settle(&server, &id).await;
    let task = assert_task_status!(waiting, "input_required");
    assert_eq!(
        task["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    // Unknown keys are ignored: still waiting.
    let ignored = update_task(&server, &id, json!({"unknown-key": {"x": 1}}), &opts()).await;
    conforms("tasks/update", &ignored);
    assert_task_status!(get_task(&server, &id, &opts()).await, "input_required");
    let done = answer_task(
        &server,
        &id,
        json!({"confirm": answer::accept(json!({"confirm": true}))}),
        &opts(),
    )
    .await;
    conforms("tasks/get", &done);
    let task = assert_task_status!(done, "completed");
    assert_tool_text!(task["result"].clone(), "Deleted a.txt");
}

#[tokio::test]
async fn a_partial_answer_keeps_the_task_waiting_for_the_rest() {
    let server = fixture();
    let created = call_tool_as_task(&server, "multi_input", json!({}), &opts()).await;
    let id = task_id(&created).to_owned();
    let waiting = settle(&server, &id).await;
    let task = assert_task_status!(waiting, "input_required");
    let mut keys: Vec<&str> = task["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["confirm", "name"]);
    let partial = answer_task(
        &server,
        &id,
        json!({"name": answer::accept(json!({"name": "Ada"}))}),
        &opts(),
    )
    .await;
    let task = assert_task_status!(partial, "input_required");
    let keys: Vec<&String> = task["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["confirm"]);
    let done = answer_task(
        &server,
        &id,
        json!({"confirm": answer::accept(json!({"confirm": true}))}),
        &opts(),
    )
    .await;
    let task = assert_task_status!(done, "completed");
    assert_tool_text!(task["result"].clone(), "name: \"Ada\"; confirmed: true");
}

#[tokio::test]
async fn a_malformed_answer_fails_the_task_with_the_json_rpc_error() {
    let server = fixture();
    let created = call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "b.txt"}),
        &opts(),
    )
    .await;
    let id = task_id(&created).to_owned();
    settle(&server, &id).await;
    let failed = answer_task(&server, &id, json!({"confirm": "yes please"}), &opts()).await;
    conforms("tasks/get", &failed);
    let task = assert_task_status!(failed, "failed");
    assert_eq!(task["error"]["code"], -32602);
    assert!(
        task["error"]["message"]
            .as_str()
            .unwrap()
            .contains("inputResponses[\"confirm\"]"),
        "{task:#}"
    );
}

#[tokio::test]
async fn multi_round_input_is_resolved_before_the_task_is_created() {
    let server = fixture();
    let round1 = call_tool_as_task(&server, "test_tool_with_task", json!({}), &opts()).await;
    assert_eq!(round1["result"]["resultType"], "input_required");
    assert!(round1["result"].get("taskId").is_none());
    let state = round1["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_owned();
    let retry = opts()
        .request_state(state)
        .input_responses(json!({"user_name": answer::accept(json!({"name": "Alice"}))}));
    let round2 = call_tool_as_task(&server, "test_tool_with_task", json!({}), &retry).await;
    conforms("tools/call", &round2);
    assert_eq!(round2["result"]["resultType"], "task");
    assert!(round2["result"].get("requestState").is_none());
    let done = settle(&server, task_id(&round2)).await;
    let task = assert_task_status!(done, "completed");
    assert_tool_text!(task["result"].clone(), "Hello, Alice! (from a task)");
}

#[tokio::test]
async fn a_task_belongs_to_its_principal() {
    let server = fixture();
    let created = call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "c.txt"}),
        &opts().principal("alice"),
    )
    .await;
    let id = task_id(&created).to_owned();
    let other = opts().principal("mallory");
    assert_rpc_error!(
        get_task(&server, &id, &other).await,
        -32602,
        "Task not found"
    );
    assert_rpc_error!(cancel_task(&server, &id, &other).await, -32602);
    assert!(task_status(&get_task(&server, &id, &opts().principal("alice")).await).is_some());
}

/// A clock the test moves by hand.
#[derive(Clone, Default)]
struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    fn now(&self) -> SystemTime {
        UNIX_EPOCH
            + Duration::from_secs(1_764_066_600)
            + Duration::from_millis(self.0.load(Ordering::SeqCst))
    }
    fn advance(&self, by: Duration) {
        self.0.fetch_add(by.as_millis() as u64, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn a_task_expires_after_its_ttl_on_the_injected_clock() {
    let clock = ManualClock::default();
    let store = Counting::default();
    let server = conformance::conformance_builder()
        .task_store(store.clone())
        .task_poll_interval(Some(Duration::from_millis(250)))
        .task_ttl(Some(Duration::from_secs(60)))
        .task_clock({
            let clock = clock.clone();
            move || clock.now()
        })
        .build()
        .unwrap();
    let created = call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "d.txt"}),
        &opts(),
    )
    .await;
    assert_eq!(created["result"]["createdAt"], "2025-11-25T10:30:00.000Z");
    assert_eq!(created["result"]["ttlMs"], 60_000);
    assert_eq!(created["result"]["pollIntervalMs"], 250);
    let id = task_id(&created).to_owned();
    clock.advance(Duration::from_millis(59_999));
    assert!(task_status(&get_task(&server, &id, &opts()).await).is_some());
    clock.advance(Duration::from_millis(1));
    assert_rpc_error!(get_task(&server, &id, &opts()).await, -32602, "expired");
    // Expired tasks are removed: the id is now unknown.
    assert_rpc_error!(get_task(&server, &id, &opts()).await, -32602, "not found");
    // A task nobody asks about again is removed too, when the next task is created.
    let forgotten = call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "e.txt"}),
        &opts(),
    )
    .await;
    let forgotten = task_id(&forgotten).to_owned();
    assert!(store.inner.get(&forgotten).await.unwrap().is_some());
    clock.advance(Duration::from_secs(61));
    call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "f.txt"}),
        &opts(),
    )
    .await;
    assert!(store.inner.get(&forgotten).await.unwrap().is_none());
}

/// A store that counts its writes, over the in-memory one.
#[derive(Clone, Default)]
struct Counting {
    inner: Arc<MemoryTaskStore>,
    puts: Arc<AtomicUsize>,
}

impl TaskStore for Counting {
    fn put(&self, task: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        self.puts.fetch_add(1, Ordering::SeqCst);
        self.inner.put(task)
    }
    fn get(&self, task_id: &str) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>> {
        self.inner.get(task_id)
    }
    fn remove(&self, task_id: &str) -> BoxFuture<'_, Result<(), StoreError>> {
        self.inner.remove(task_id)
    }
}

/// A store that is down.
struct Down;

impl TaskStore for Down {
    fn put(&self, _: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Err(StoreError("the database is unreachable".into())) })
    }
    fn get(&self, _: &str) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(async { Err(StoreError("the database is unreachable".into())) })
    }
    fn remove(&self, _: &str) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Err(StoreError("the database is unreachable".into())) })
    }
}

#[tokio::test]
async fn tasks_live_in_the_store_the_server_was_given() {
    let store = Counting::default();
    let server = conformance::conformance_builder()
        .task_store(store.clone())
        .task_poll_interval(None)
        .build()
        .unwrap();
    let created = call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "e.txt"}),
        &opts(),
    )
    .await;
    let id = task_id(&created).to_owned();
    settle(&server, &id).await;
    let kept = store.inner.get(&id).await.unwrap().unwrap();
    assert_eq!(kept.status, TaskStatus::InputRequired);
    assert_eq!(
        kept.owner.as_deref(),
        Some(mcp_test::testing::DEFAULT_PRINCIPAL)
    );
    assert!(store.puts.load(Ordering::SeqCst) >= 2);

    // A store that fails makes the call fail with -32603 naming it, never a handle.
    let down = conformance::conformance_builder()
        .task_store(Down)
        .build()
        .unwrap();
    let reply = call_tool_as_task(&down, "confirm_delete", json!({"filename": "f"}), &opts()).await;
    assert_rpc_error!(reply, -32603, "the database is unreachable");
}

#[tokio::test]
async fn status_changes_reach_a_listen_stream_that_asked_for_the_task() {
    let server = fixture();
    let created = call_tool_as_task(
        &server,
        "confirm_delete",
        json!({"filename": "g.txt"}),
        &opts(),
    )
    .await;
    let id = task_id(&created).to_owned();
    settle(&server, &id).await;
    let (sink, mut notifications) = tokio::sync::mpsc::unbounded_channel();
    let caller = Caller {
        notifications: Some(sink),
        ..Caller::new(Identity::principal(mcp_test::testing::DEFAULT_PRINCIPAL))
    };
    let listen = json!({"jsonrpc": "2.0", "id": "l1", "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}},
        "notifications": {"taskIds": [id]}}});
    let listening = {
        let server = server.clone();
        tokio::spawn(async move { server.handle_json_with(&listen.to_string(), &caller).await })
    };
    let ack = notifications.recv().await.unwrap();
    assert_eq!(ack.method, "notifications/subscriptions/acknowledged");
    assert_eq!(
        serde_json::to_value(&ack).unwrap()["params"]["notifications"]["taskIds"],
        json!([id])
    );
    answer_task(
        &server,
        &id,
        json!({"confirm": answer::accept(json!({"confirm": false}))}),
        &opts(),
    )
    .await;
    // working (after the answer), then completed; each a complete DetailedTask.
    let mut seen = Vec::new();
    while seen.last().map(String::as_str) != Some("completed") {
        let note = notifications.recv().await.unwrap();
        assert_eq!(note.method, "notifications/tasks");
        let wire = serde_json::to_value(&note).unwrap();
        mcp_test::spec::check_tasks("TaskStatusNotification", &wire)
            .unwrap_or_else(|e| panic!("{e}\n{wire:#}"));
        assert_eq!(wire["params"]["taskId"], id);
        seen.push(wire["params"]["status"].as_str().unwrap().to_owned());
    }
    assert_eq!(seen, ["working", "completed"]);
    server.close_subscriptions();
    listening.await.unwrap();

    // Task notifications need the extension declared.
    let undeclared = json!({"jsonrpc": "2.0", "id": "l2", "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "notifications": {"taskIds": [id]}}});
    let (sink, _rx) = tokio::sync::mpsc::unbounded_channel();
    let caller = Caller {
        notifications: Some(sink),
        ..Caller::default()
    };
    let reply: Value = serde_json::from_str(
        &server
            .handle_json_with(&undeclared.to_string(), &caller)
            .await
            .unwrap(),
    )
    .unwrap();
    assert_rpc_error!(reply, -32021);
}

#[tokio::test]
async fn discover_advertises_the_extension_only_with_a_task_tool() {
    let server = fixture();
    let discovered = mcp_test::testing::discover(&server, &RequestOptions::new()).await;
    assert_eq!(
        discovered["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({})
    );
    /// Never a task.
    #[derive(Tool)]
    struct Plain {}
    impl Plain {
        async fn run(self, _ctx: &Context) -> Result<&'static str, ToolError> {
            Ok("plain")
        }
    }
    let plain = Server::builder("plain", "1")
        .tool::<Plain>()
        .build()
        .unwrap();
    let discovered = mcp_test::testing::discover(&plain, &RequestOptions::new()).await;
    assert!(
        discovered["result"]["capabilities"]
            .get("extensions")
            .is_none()
    );
    assert_rpc_error!(get_task(&plain, "x", &opts()).await, -32601);
}

/// `run_tool` runs a task tool as a plain call: `enter_task` returns at once.
#[tokio::test]
async fn run_tool_runs_a_task_tool_as_a_plain_call() {
    /// Confirms, as a task.
    #[derive(Tool)]
    #[tool(task = "optional")]
    struct Confirm {}
    impl Confirm {
        async fn run(self, ctx: &Context) -> Result<String, ToolError> {
            ctx.enter_task().await;
            let answer = ctx
                .elicit(
                    "Sure?",
                    json!({"type": "object", "properties": {"ok": {"type": "boolean"}}}),
                )
                .key("ok")
                .await?;
            Ok(format!(
                "in task: {}, accepted: {}",
                ctx.in_task(),
                answer.is_accepted()
            ))
        }
    }
    assert_eq!(
        Confirm::task_support(),
        mcp_test::tasks::TaskSupport::Optional
    );
    let ctx = Context::builder().elicitation().build();
    let asked = run_tool::<Confirm>(&ctx, json!({})).await.unwrap();
    assert!(asked.input_required().unwrap().get("ok").is_some());
    let ctx = Context::builder()
        .elicitation()
        .answer("ok", answer::accept(json!({"ok": true})))
        .build();
    let done = run_tool::<Confirm>(&ctx, json!({})).await.unwrap();
    assert_tool_text!(done, "in task: false, accepted: true");
}

#[tokio::test]
async fn over_http_mcp_name_must_mirror_the_task_id() {
    let url = mcp_test_downstream::serve_http(fixture()).await;
    let client = mcp_test::testing::TestContext::http(&url)
        .with(|o| o.client_capabilities(json!({"elicitation": {}})));
    let created = client
        .call_tool_as_task("confirm_delete", json!({"filename": "h.txt"}))
        .await;
    let id = task_id(&created).to_owned();
    let waiting = client.poll_task(&id).await;
    assert_task_status!(waiting, "input_required");
    let done = client
        .answer_task(
            &id,
            json!({"confirm": answer::accept(json!({"confirm": true}))}),
        )
        .await;
    assert_task_status!(done, "completed");
    // A raw tasks/get whose Mcp-Name names another task is refused with -32020; with the
    // mirrored Mcp-Name it is served.
    let app = mcp_test::transport::http::router(fixture(), Default::default());
    let created = call_tool_as_task(&fixture(), "greet", json!({"name": "x"}), &opts()).await;
    assert_tool_text!(created, "Hello, x!");
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/get", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}},
        "taskId": "some-task"}});
    let headers = mcp_test::testing::mirrored_headers(&body);
    assert!(
        headers
            .iter()
            .any(|(k, v)| k == "mcp-name" && v == "some-task"),
        "{headers:?}"
    );
    let post = |name: &str| {
        http::Request::post("/mcp")
            .header("host", "localhost")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tasks/get")
            .header("mcp-name", name)
            .body(body.to_string())
            .unwrap()
    };
    let mismatched = oneshot(&app, post("another-task")).await;
    assert_eq!(mismatched.status(), 400);
    assert_rpc_error!(mismatched, -32020, "Mcp-Name");
    let mirrored = oneshot(&app, post("some-task")).await;
    assert_rpc_error!(mirrored, -32602, "Task not found");
}

// ---------------------------------------------------------------------------------------------
// `check` on a server that declares the extension.
// ---------------------------------------------------------------------------------------------

mod checker {
    use super::*;
    use mcp_test::target::{Connection, Exchange, Target, TargetError, TargetFuture};
    use mcp_test::wire::Era;
    use mcp_test_check::{CheckOptions, CheckReport, check};

    /// Tallies, as a task.
    #[derive(Tool)]
    #[tool(task = "optional", annotations(read_only))]
    struct Tally {}
    impl Tally {
        async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
            ctx.enter_task().await;
            Ok("tallied")
        }
    }

    /// Asks for a confirmation, as a task.
    #[derive(Tool)]
    #[tool(task = "optional", annotations(read_only))]
    struct Confirm {}
    impl Confirm {
        async fn run(self, ctx: &Context) -> Result<String, ToolError> {
            ctx.enter_task().await;
            let answer = ctx
                .elicit(
                    "Go on?",
                    json!({"type": "object", "properties": {"go": {"type": "boolean"}}}),
                )
                .await?;
            Ok(format!("accepted: {}", answer.is_accepted()))
        }
    }

    /// Only ever a task.
    #[derive(Tool)]
    #[tool(task = "required", annotations(read_only))]
    struct NeedsTask {}
    impl NeedsTask {
        async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
            ctx.enter_task().await;
            Ok("done in a task")
        }
    }

    /// Fails with a JSON-RPC error, in a task.
    #[derive(Tool)]
    #[tool(task = "optional", annotations(read_only))]
    struct Breaks {}
    impl Breaks {
        async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
            ctx.enter_task().await;
            Err(ToolError::protocol(mcp_test::ErrorObject::internal(
                "Internal error: the backend is down",
            )))
        }
    }

    fn server() -> Server {
        Server::builder("tasks", "1")
            .tool::<Tally>()
            .tool::<Confirm>()
            .tool::<NeedsTask>()
            .tool::<Breaks>()
            .task_poll_interval(None)
            .build()
            .unwrap()
    }

    /// How a test rewrites a response to the request it answers.
    type Rewrite = fn(&Value, &mut Value);

    /// The server with its answers rewritten: `needs_task` listed with
    /// `execution.taskSupport: "required"`, then `rewrite`.
    struct Rewritten {
        server: Server,
        rewrite: Rewrite,
    }

    fn lists_required(request: &Value, response: &mut Value) {
        if request["method"] == "tools/list"
            && let Some(tools) = response
                .pointer_mut("/result/tools")
                .and_then(Value::as_array_mut)
        {
            for tool in tools {
                if tool["name"] == "needs_task" {
                    tool["execution"] = json!({"taskSupport": "required"});
                }
            }
        }
    }

    impl Target for Rewritten {
        fn label(&self) -> String {
            "tasks server, rewritten".into()
        }
        fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
            Box::pin(async move {
                let mut exchange: Exchange = self.server.send(message, caller).await?;
                if let Some(response) = exchange.response.as_mut() {
                    lists_required(message, response);
                    (self.rewrite)(message, response);
                }
                Ok::<_, TargetError>(exchange)
            })
        }
        fn connection(&self) -> Connection {
            Connection::new().with_era(Era::Current)
        }
    }

    async fn check_with(rewrite: Rewrite) -> CheckReport {
        let target = Rewritten {
            server: server(),
            rewrite,
        };
        check(&target, &CheckOptions::default()).await
    }

    fn task_findings(report: &CheckReport) -> Vec<String> {
        report
            .findings()
            .filter(|f| f.probe.starts_with("tasks/"))
            .map(|f| {
                format!(
                    "{} {}: {}",
                    f.probe,
                    f.clause.map_or("-", |c| c.id),
                    f.message
                )
            })
            .collect()
    }

    #[tokio::test]
    async fn a_correct_server_passes_every_tasks_probe() {
        let report = check_with(|_, _| {}).await;
        assert!(task_findings(&report).is_empty(), "{}", report.to_text());
        assert!(!report.has_defects(), "{}", report.to_text());
        for probe in [
            "tasks/undeclared",
            "tasks/unknown-id",
            "tasks/required",
            "tasks/lifecycle",
            "tasks/cancel",
        ] {
            let ran = report.probes.iter().find(|p| p.name == probe).unwrap();
            assert!(ran.skipped.is_none(), "{probe}: {:?}", ran.skipped);
        }
        // The required-task tool is exercised, not skipped.
        assert!(
            report.tools.iter().all(|t| t.called),
            "{}",
            report.to_text()
        );
    }

    #[tokio::test]
    async fn without_the_extension_the_tasks_probes_are_skipped() {
        let plain = Server::builder("plain", "1")
            .tool::<super::conformance_free::Echo>()
            .build()
            .unwrap();
        let report = check(&plain, &CheckOptions::default()).await;
        let skipped = report
            .probes
            .iter()
            .find(|p| p.name == "tasks/lifecycle")
            .unwrap();
        assert!(
            skipped
                .skipped
                .as_deref()
                .is_some_and(|why| why.contains("does not declare")),
            "{skipped:?}"
        );
    }

    /// Each break makes its probe report exactly its clause.
    #[tokio::test]
    async fn each_broken_rule_is_reported_with_its_clause() {
        fn cancel_not_empty(request: &Value, response: &mut Value) {
            if request["method"] == "tasks/cancel" && response.get("result").is_some() {
                response["result"]["status"] = json!("cancelled");
            }
        }
        fn get_not_complete(request: &Value, response: &mut Value) {
            if request["method"] == "tasks/get" && response.get("result").is_some() {
                response["result"]["resultType"] = json!("task");
            }
        }
        fn completed_without_result(request: &Value, response: &mut Value) {
            if request["method"] == "tasks/get"
                && let Some(result) = response.get_mut("result").and_then(Value::as_object_mut)
                && result.get("status") == Some(&json!("completed"))
            {
                result.remove("result");
            }
        }
        fn failed_without_error(request: &Value, response: &mut Value) {
            if request["method"] == "tasks/get"
                && let Some(result) = response.get_mut("result").and_then(Value::as_object_mut)
                && result.get("status") == Some(&json!("failed"))
            {
                result.remove("error");
            }
        }
        fn undeclared_not_32021(request: &Value, response: &mut Value) {
            if request["params"]["taskId"] == "mcp-test-check-undeclared" {
                *response = json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32602, "message": "Task not found"}});
            }
        }
        fn unknown_id_found(request: &Value, response: &mut Value) {
            if request["method"] == "tasks/get"
                && request["params"]["taskId"] == "mcp-test-check-no-such-task"
            {
                *response = json!({"jsonrpc": "2.0", "id": request["id"], "result": {"resultType": "complete"}});
            }
        }
        fn required_not_32021(request: &Value, response: &mut Value) {
            if request["method"] == "tools/call"
                && request["params"]["name"] == "needs_task"
                && response.pointer("/error/code") == Some(&json!(-32021))
            {
                *response = json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": "no"}});
            }
        }
        fn not_durable(request: &Value, response: &mut Value) {
            static FIRST: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
            if request["method"] == "tasks/get"
                && let Some(id) = request["params"]["taskId"].as_str()
                && id != "mcp-test-check-no-such-task"
                && id != "mcp-test-check-undeclared"
            {
                let mut first = FIRST.lock().unwrap();
                if !first.iter().any(|seen| seen == id) {
                    first.push(id.to_owned());
                    *response = json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32602, "message": "Task not found"}});
                }
            }
        }
        let cases: [(Rewrite, &str, &str); 8] = [
            (cancel_not_empty, "tasks/cancel", "tasks/cancel-ack"),
            (get_not_complete, "tasks/lifecycle", "tasks/get-result-type"),
            (
                completed_without_result,
                "tasks/lifecycle",
                "tasks/get-completed",
            ),
            (failed_without_error, "tasks/lifecycle", "tasks/get-failed"),
            (
                undeclared_not_32021,
                "tasks/undeclared",
                "tasks/undeclared-methods",
            ),
            (unknown_id_found, "tasks/unknown-id", "tasks/unknown-id-get"),
            (
                required_not_32021,
                "tasks/required",
                "tasks/required-capability",
            ),
            (not_durable, "tasks/lifecycle", "tasks/durable-create"),
        ];
        for (rewrite, probe, clause) in cases {
            let report = check_with(rewrite).await;
            let found = task_findings(&report);
            assert!(
                !found.is_empty()
                    && found
                        .iter()
                        .all(|f| f.starts_with(&format!("{probe} {clause}:"))),
                "{clause}: {found:#?}"
            );
        }
    }
}

/// A tool with nothing to do with tasks.
mod conformance_free {
    use super::*;

    /// Echoes.
    #[derive(Tool)]
    #[tool(annotations(read_only))]
    pub struct Echo {
        /// What to echo.
        pub text: String,
    }
    impl Echo {
        async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
            Ok(self.text)
        }
    }
}
