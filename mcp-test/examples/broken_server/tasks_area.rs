//! The tasks extension (`io.modelcontextprotocol/tasks`): three task tools on the correct
//! server (`tally`, a task when the client declares the extension; `tally_confirmed`, which asks
//! inside its task; `tally_task`, listed with `execution.taskSupport: "required"`), and one
//! switch per probed `ext-tasks` row but `tasks/no-task-for-undeclared` and `tasks/get-failed`
//! (a tool that fails would be a finding of the schema cases on the correct server), each a
//! rewrite of what the runtime answers.

use super::{Breaks, HTTP, Hooks, Incoming, STDIO, Switch, method};
use mcp_test::{Context, ServerBuilder, Tool, ToolError};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Mutex;

pub struct Tasks;

/// Tallies, as a task when the client declares the extension.
#[derive(Tool)]
#[tool(name = "tally", task = "optional", annotations(read_only, idempotent))]
struct Tally {}

impl Tally {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.enter_task().await;
        Ok("tallied")
    }
}

/// Tallies, only ever as a task.
#[derive(Tool)]
#[tool(
    name = "tally_task",
    task = "required",
    annotations(read_only, idempotent)
)]
struct TallyTask {}

impl TallyTask {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.enter_task().await;
        Ok("tallied in a task")
    }
}

/// Asks for a go-ahead inside its task, then tallies.
#[derive(Tool)]
#[tool(
    name = "tally_confirmed",
    task = "optional",
    annotations(read_only, idempotent)
)]
struct TallyConfirmed {}

impl TallyConfirmed {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.enter_task().await;
        let schema = json!({"type": "object", "properties": {"go": {"type": "boolean"}}});
        let answer = ctx.elicit("Tally?", schema).key("go").await?;
        Ok(format!("tallied: {}", answer.is_accepted()))
    }
}

/// The task ids already answered once, for `tasks/not-durable`.
static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// The task ids of `tasks/update`s acknowledged, and of the tasks whose key was reused once
/// after, for `tasks/input-key-reused`.
static UPDATED: Mutex<Option<HashSet<String>>> = Mutex::new(None);
static REUSED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Whether `task_id` is in `set`; inserts it when `insert`.
fn in_set(set: &Mutex<Option<HashSet<String>>>, task_id: &str, insert: bool) -> bool {
    let mut set = set.lock().unwrap_or_else(|e| e.into_inner());
    let set = set.get_or_insert_with(HashSet::new);
    if insert {
        !set.insert(task_id.to_owned())
    } else {
        set.contains(task_id)
    }
}

/// The ids the checker sends for tasks that do not exist.
fn made_up(id: &str) -> bool {
    id.starts_with("mcp-test-check-")
}

const SWITCHES: &[Switch] = &[
    Switch {
        name: "tasks/methods-without-extension",
        about: "answers tasks/* from a client without the extension -32602, not -32021",
        clause: "tasks/undeclared-methods",
        probe: "tasks/undeclared",
        transports: STDIO,
    },
    Switch {
        name: "tasks/required-served",
        about: "answers a required-task tool called without the extension -32603, not -32021",
        clause: "tasks/required-capability",
        probe: "tasks/required",
        transports: STDIO,
    },
    Switch {
        name: "tasks/handle-result-type",
        about: "answers with a task handle whose resultType is \"complete\"",
        clause: "tasks/result-type-task",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/not-durable",
        about: "answers the first tasks/get of each task -32602, as if it were not created yet",
        clause: "tasks/durable-create",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/get-result-type",
        about: "answers tasks/get with resultType \"task\"",
        clause: "tasks/get-result-type",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/completed-without-result",
        about: "leaves the result out of a completed task",
        clause: "tasks/get-completed",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/bad-status",
        about: "answers tasks/get with a status the extension does not define",
        clause: "tasks/get-status",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/input-required-without-requests",
        about: "leaves inputRequests out of a task waiting for input",
        clause: "tasks/get-input-required",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/update-result-type",
        about: "acknowledges tasks/update with resultType \"task\"",
        clause: "tasks/update-result-type",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/input-key-reused",
        about: "once a task's question was answered, asks another question under the same key before it completes",
        clause: "tasks/input-keys-unique",
        probe: "tasks/lifecycle",
        transports: STDIO,
    },
    Switch {
        name: "tasks/cancel-not-empty",
        about: "acknowledges tasks/cancel with the task's status",
        clause: "tasks/cancel-ack",
        probe: "tasks/cancel",
        transports: STDIO,
    },
    Switch {
        name: "tasks/cancel-result-type",
        about: "acknowledges tasks/cancel with resultType \"task\"",
        clause: "tasks/cancel-result-type",
        probe: "tasks/cancel",
        transports: STDIO,
    },
    Switch {
        name: "tasks/unknown-id-resolves",
        about: "answers tasks/get for an unknown task id with an empty result",
        clause: "tasks/unknown-id-get",
        probe: "tasks/unknown-id",
        transports: STDIO,
    },
    Switch {
        name: "tasks/unknown-id-cancel-acknowledged",
        about: "acknowledges tasks/cancel for an unknown task id",
        clause: "tasks/unknown-id-update-cancel",
        probe: "tasks/unknown-id",
        transports: STDIO,
    },
    Switch {
        name: "tasks/progress-on-listen",
        about: "sends notifications/progress on a subscriptions/listen stream for a task it created",
        clause: "tasks/listen-no-progress",
        probe: "tasks/listen-no-progress",
        // Over stdio check keeps no listen stream open.
        transports: HTTP,
    },
    Switch {
        name: "tasks/listen-undeclared-accepted",
        about: "opens a subscriptions/listen stream for task ids to a client without the extension",
        clause: "tasks/listen-undeclared",
        probe: "tasks/listen-undeclared",
        // Over stdio the stream that opens shows nothing before the request is given up on.
        transports: HTTP,
    },
];

impl Hooks for Tasks {
    fn switches(&self) -> &'static [Switch] {
        SWITCHES
    }

    fn build(&self, builder: ServerBuilder) -> ServerBuilder {
        builder
            .tool::<Tally>()
            .tool::<TallyTask>()
            .tool::<TallyConfirmed>()
            .task_poll_interval(None)
    }

    fn incoming(&self, on: &Breaks, message: &mut Value) -> Incoming {
        // A listen for a task it created: acknowledged, then progress, then ended.
        if on.on("tasks/progress-on-listen")
            && method(Some(message)) == Some("subscriptions/listen")
            && let Some(ids) = message
                .pointer("/params/notifications/taskIds")
                .and_then(Value::as_array)
            && !ids.iter().any(|id| id.as_str().is_none_or(made_up))
        {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            let with_id = json!({"io.modelcontextprotocol/subscriptionId": id});
            let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"_meta": with_id, "notifications": {"taskIds": ids}}});
            let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"_meta": with_id, "progressToken": "fixture-task", "progress": 1.0}});
            let end = json!({"jsonrpc": "2.0", "id": id,
                "result": {"resultType": "complete", "_meta": with_id}});
            return Incoming::Answer(vec![ack, progress, end]);
        }
        // The listen request only `tasks/listen-undeclared` sends (a made-up task id): served
        // as if the client had declared the extension.
        if on.on("tasks/listen-undeclared-accepted")
            && method(Some(message)) == Some("subscriptions/listen")
            && message
                .pointer("/params/notifications/taskIds")
                .and_then(Value::as_array)
                .is_some_and(|ids| ids.iter().any(|id| id.as_str().is_some_and(made_up)))
            && let Some(meta) = message
                .pointer_mut("/params/_meta")
                .and_then(Value::as_object_mut)
        {
            meta.insert(
                "io.modelcontextprotocol/clientCapabilities".into(),
                json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
            );
        }
        Incoming::Pass
    }

    fn outgoing(
        &self,
        on: &Breaks,
        request: Option<&Value>,
        message: &mut Value,
        _before: &mut Vec<Value>,
    ) {
        let asked = method(request);
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let task_id = request
            .and_then(|r| r.pointer("/params/taskId"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let tool = request
            .and_then(|r| r.pointer("/params/name"))
            .and_then(Value::as_str);
        // The correct server lists the required-task tool as such.
        if asked == Some("tools/list")
            && let Some(tools) = message
                .pointer_mut("/result/tools")
                .and_then(Value::as_array_mut)
        {
            for listed in tools {
                if listed["name"] == "tally_task" {
                    listed["execution"] = json!({"taskSupport": "required"});
                }
            }
        }
        let code = message.pointer("/error/code").and_then(Value::as_i64);
        match asked {
            Some("tools/call") => {
                if on.on("tasks/required-served")
                    && tool == Some("tally_task")
                    && code == Some(-32021)
                {
                    *message = json!({"jsonrpc": "2.0", "id": id,
                        "error": {"code": -32603, "message": "Internal error"}});
                }
                if on.on("tasks/handle-result-type")
                    && message.pointer("/result/resultType") == Some(&json!("task"))
                {
                    message["result"]["resultType"] = json!("complete");
                }
            }
            Some("tasks/get" | "tasks/update" | "tasks/cancel")
                if on.on("tasks/methods-without-extension") && code == Some(-32021) =>
            {
                *message = json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32602, "message": "Task not found"}});
            }
            _ => {}
        }
        let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
            if asked == Some("tasks/get")
                && made_up(&task_id)
                && on.on("tasks/unknown-id-resolves")
                && code == Some(-32602)
            {
                *message =
                    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete"}});
            }
            if asked == Some("tasks/cancel")
                && made_up(&task_id)
                && on.on("tasks/unknown-id-cancel-acknowledged")
                && code == Some(-32602)
            {
                *message =
                    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete"}});
            }
            return;
        };
        match asked {
            Some("tasks/get") => {
                if on.on("tasks/get-result-type") {
                    result.insert("resultType".into(), json!("task"));
                }
                if on.on("tasks/input-required-without-requests")
                    && result.get("status") == Some(&json!("input_required"))
                {
                    result.remove("inputRequests");
                }
                if on.on("tasks/bad-status") {
                    result.insert("status".into(), json!("paused"));
                }
                if on.on("tasks/completed-without-result")
                    && result.get("status") == Some(&json!("completed"))
                {
                    result.remove("result");
                }
                if on.on("tasks/input-key-reused")
                    && result.get("status") == Some(&json!("completed"))
                    && in_set(&UPDATED, &task_id, false)
                    && !in_set(&REUSED, &task_id, true)
                {
                    result.remove("result");
                    result.insert("status".into(), json!("input_required"));
                    result.insert(
                        "inputRequests".into(),
                        json!({"go": {"method": "elicitation/create", "params": {
                            "mode": "form", "message": "Tally once more?",
                            "requestedSchema": {"type": "object",
                                "properties": {"again": {"type": "boolean"}}}}}}),
                    );
                }
                if on.on("tasks/not-durable") {
                    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
                    if seen.get_or_insert_with(HashSet::new).insert(task_id) {
                        *message = json!({"jsonrpc": "2.0", "id": id,
                            "error": {"code": -32602, "message": "Failed to retrieve task: Task not found"}});
                    }
                }
            }
            Some("tasks/update") => {
                if on.on("tasks/update-result-type") {
                    result.insert("resultType".into(), json!("task"));
                }
                if on.on("tasks/input-key-reused") {
                    in_set(&UPDATED, &task_id, true);
                }
            }
            Some("tasks/cancel") => {
                if on.on("tasks/cancel-not-empty") {
                    result.insert("status".into(), json!("cancelled"));
                }
                if on.on("tasks/cancel-result-type") {
                    result.insert("resultType".into(), json!("task"));
                }
            }
            _ => {}
        }
    }
}
