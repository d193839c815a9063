//! The tasks extension probes (`io.modelcontextprotocol/tasks`), for a 2026-07-28 server that
//! declares the extension in `server/discover`. Every clause they quote is an `ext-tasks` row
//! of the requirements matrix.
//!
//! - `tasks/undeclared`: without the extension declared, `tasks/get`, `tasks/update` and
//!   `tasks/cancel` answer -32021, and no tool call answers with a task handle;
//! - `tasks/unknown-id`: an unknown `taskId` is -32602 on `tasks/get` (MUST) and on
//!   `tasks/update` and `tasks/cancel` (SHOULD);
//! - `tasks/required`: a tool whose `execution.taskSupport` is `"required"`, called by a client
//!   that did not declare the extension, answers -32021 naming the extension unless it serves
//!   the call without a task (and is then exercised as a task, not skipped);
//! - `tasks/lifecycle`: each tool whose base case, called with the extension declared, answers
//!   with a task handle is followed to its end: the handle, a `tasks/get` right after it, then
//!   polls (honouring `pollIntervalMs`) to a terminal status, answering `input_required`
//!   questions with synthesized answers through `tasks/update`; every answer is checked
//!   against the extension's schema and its status's rule (a completed task carries its
//!   result, a failed one its error), and a key of `inputRequests` answered in an earlier
//!   round must not come back naming another request;
//! - `tasks/cancel`: one such tool is called again and cancelled at once: the acknowledgement
//!   is an empty `complete` result (the task may still end otherwise: cancellation is
//!   cooperative).
//!
//! Responses here are not kept for the generic results probe, whose core schema has no
//! `resultType: "task"`: they are checked against the extension's own schema instead.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`TASKS_CANCEL_ACK`](clauses::TASKS_CANCEL_ACK),
//! [`TASKS_CANCEL_RESULT_TYPE`](clauses::TASKS_CANCEL_RESULT_TYPE),
//! [`TASKS_DURABLE`](clauses::TASKS_DURABLE),
//! [`TASKS_GET_COMPLETED`](clauses::TASKS_GET_COMPLETED),
//! [`TASKS_GET_FAILED`](clauses::TASKS_GET_FAILED),
//! [`TASKS_GET_INPUT_REQUIRED`](clauses::TASKS_GET_INPUT_REQUIRED),
//! [`TASKS_GET_RESULT_TYPE`](clauses::TASKS_GET_RESULT_TYPE),
//! [`TASKS_GET_STATUS`](clauses::TASKS_GET_STATUS),
//! [`TASKS_INPUT_KEYS_UNIQUE`](clauses::TASKS_INPUT_KEYS_UNIQUE),
//! [`TASKS_NOT_UNDECLARED`](clauses::TASKS_NOT_UNDECLARED),
//! [`TASKS_REQUIRED_CAPABILITY`](clauses::TASKS_REQUIRED_CAPABILITY),
//! [`TASKS_RESULT_TYPE`](clauses::TASKS_RESULT_TYPE),
//! [`TASKS_UNDECLARED_METHODS`](clauses::TASKS_UNDECLARED_METHODS),
//! [`TASKS_UNKNOWN_ID_GET`](clauses::TASKS_UNKNOWN_ID_GET),
//! [`TASKS_UNKNOWN_ID_OTHERS`](clauses::TASKS_UNKNOWN_ID_OTHERS),
//! [`TASKS_UPDATE_RESULT_TYPE`](clauses::TASKS_UPDATE_RESULT_TYPE).

use crate::checker::Checker;
use crate::run::Run;
use crate::{Note, Out, Shown, brief};
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::Case;
use mcp_test::cases::derive_split;
use mcp_test::spec;
use mcp_test::spec::clauses;
use mcp_test::target::synthesize_answer;
use mcp_test::tasks::EXTENSION;
use mcp_test::wire::{error_codes, meta_keys};
use serde_json::{Map, Value, json};
use std::time::Duration;

/// At most this many task tools are followed through `tasks/lifecycle`.
const MAX_TASK_TOOLS: usize = 5;
/// At most this many `tasks/get` per task.
const MAX_POLLS: usize = 200;
/// The longest wait between two polls, whatever the task suggests.
const MAX_POLL_WAIT: Duration = Duration::from_secs(2);
/// At most this many `input_required` rounds answered per task.
const MAX_ANSWER_ROUNDS: usize = 8;

/// Capabilities that declare the extension, and everything a question may need.
pub(crate) fn declaring() -> Value {
    let mut caps = mcp_test::cases::every_client_capability();
    caps["extensions"] = json!({ EXTENSION: {} });
    caps
}

/// The `_meta` of a request declaring `caps`.
pub(crate) fn meta(caps: Value) -> Value {
    json!({ meta_keys::CLIENT_CAPABILITIES: caps })
}

fn code(r: &Value) -> Option<i64> {
    r.pointer("/error/code").and_then(Value::as_i64)
}

fn result_type(r: &Value) -> Option<&str> {
    r.pointer("/result/resultType").and_then(Value::as_str)
}

/// Sends a task request: like [`Checker::req`], but the response is not kept for the
/// core-schema results probe.
async fn task_req(
    c: &mut Checker<'_>,
    method: &str,
    params: Value,
    out: &mut Out,
) -> Option<Value> {
    let (id, body) = c.session.body(method, params);
    c.send_unkept(method, id, body, out).await
}

/// The row: every tasks probe, over the tools that require tasks and the base cases.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let base = base_cases(r);
        tasks(&mut r.c, &r.task_only, &base).await;
    })
}

/// The base case of every tool the schema cases call and of every task-only tool.
pub(crate) fn base_cases(r: &Run<'_>) -> Vec<Case> {
    let (task_cases, _, _) = derive_split(&r.task_only, &r.options.cases);
    r.cases
        .iter()
        .chain(&task_cases)
        .filter(|c| c.source == "rule:base")
        .cloned()
        .collect()
}

/// Every tasks probe. `tools` are the tools the schema cases called, `task_only` those
/// listed with `execution.taskSupport: "required"`; `base` the base case of each.
pub(crate) async fn tasks(c: &mut Checker<'_>, task_only: &[Value], base: &[Case]) {
    let mut undeclared = Vec::new();
    let handles = tasks_lifecycle(c, base, &mut undeclared).await;
    tasks_undeclared(c, undeclared).await;
    tasks_unknown_id(c).await;
    tasks_required(c, task_only, base).await;
    tasks_cancel(c, handles, base).await;
}

/// The params of `method` (`tasks/get`, `tasks/update`, `tasks/cancel`) for `task_id`, with
/// `_meta`; an update answers nothing.
fn task_params(method: &str, task_id: &str, meta: Value) -> Value {
    let mut params = json!({"taskId": task_id, "_meta": meta});
    if method == "tasks/update" {
        params["inputResponses"] = json!({});
    }
    params
}

/// `out` holds what the lifecycle found calling task tools without the extension.
async fn tasks_undeclared(c: &mut Checker<'_>, mut out: Out) {
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let params = task_params(method, "mcp-test-check-undeclared", meta(json!({})));
        let Some(r) = task_req(c, method, params, &mut out).await else {
            break;
        };
        if code(&r) != Some(i64::from(error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY)) {
            out.push(c.broke(
                &clauses::TASKS_UNDECLARED_METHODS,
                format!(
                    "{method} from a client that did not declare {EXTENSION} must be {}; got {}",
                    error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY,
                    brief(&r)
                ),
            ));
        }
    }
    c.push_probe("tasks/undeclared", out);
}

async fn tasks_unknown_id(c: &mut Checker<'_>) {
    let mut out = Vec::new();
    for (method, clause) in [
        ("tasks/get", &clauses::TASKS_UNKNOWN_ID_GET),
        ("tasks/update", &clauses::TASKS_UNKNOWN_ID_OTHERS),
        ("tasks/cancel", &clauses::TASKS_UNKNOWN_ID_OTHERS),
    ] {
        let params = task_params(method, "mcp-test-check-no-such-task", meta(declaring()));
        let Some(r) = task_req(c, method, params, &mut out).await else {
            break;
        };
        if code(&r) != Some(i64::from(error_codes::INVALID_PARAMS)) {
            out.push(c.broke(
                clause,
                format!(
                    "{method} for a taskId the server never issued should be {}; got {}",
                    error_codes::INVALID_PARAMS,
                    brief(&r)
                ),
            ));
        }
    }
    c.push_probe("tasks/unknown-id", out);
}

async fn tasks_required(c: &mut Checker<'_>, task_only: &[Value], base: &[Case]) {
    if task_only.is_empty() {
        return c.skip_probe(
            "tasks/required",
            "no tool lists execution.taskSupport: \"required\"",
        );
    }
    let mut out = Vec::new();
    for tool in task_only {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let Some(case) = base.iter().find(|c| c.tool == name) else {
            out.push(Note::info(format!(
                "{name}: no valid arguments could be derived, so it was not called"
            )));
            continue;
        };
        let params = json!({"name": name, "arguments": case.args, "_meta": meta(json!({}))});
        let Some(r) = task_req(c, "tools/call", params, &mut out).await else {
            break;
        };
        if let Some(note) = judge_required(name, &r) {
            out.push(note.on(c.last.clone()));
        }
    }
    c.push_probe("tasks/required", out);
}

/// What a call without the extension declared says of `name`, a tool listed with
/// `execution.taskSupport: "required"`. The clause binds a server that cannot serve the call
/// without a task: one that served it (a result that is no task handle) shows it could,
/// whatever its listing says, and a task handle is `tasks/undeclared`'s to judge. An error
/// must be -32021 naming the extension.
fn judge_required(name: &str, r: &Value) -> Option<Note> {
    if r.get("error").is_none() {
        return (result_type(r) != Some("task")).then(|| {
            Note::info(format!(
                "{name} lists execution.taskSupport \"required\" but, called without {EXTENSION} declared, served the call without a task: it can, so -32021 was not owed"
            ))
        });
    }
    let names_extension = r
        .pointer("/error/data/requiredCapabilities/extensions")
        .and_then(Value::as_object)
        .is_some_and(|e| e.contains_key(EXTENSION));
    let missing = i64::from(error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY);
    (code(r) != Some(missing) || !names_extension).then(|| {
        Note::broke(
            &clauses::TASKS_REQUIRED_CAPABILITY,
            format!(
                "{name} lists execution.taskSupport \"required\"; called without {EXTENSION} declared it must answer {missing} with data.requiredCapabilities.extensions naming it; got {}",
                brief(r)
            ),
        )
    })
}

/// Follows each task tool's base case to the end; returns the tools that answered with a
/// task handle.
async fn tasks_lifecycle(c: &mut Checker<'_>, base: &[Case], undeclared: &mut Out) -> Vec<String> {
    let mut out = Vec::new();
    let mut handles = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for case in base {
        if handles.len() >= MAX_TASK_TOOLS || c.dead.is_some() {
            break;
        }
        if !seen.insert(case.tool.as_str()) {
            continue;
        }
        let params = json!({"name": case.tool, "arguments": case.args, "_meta": meta(declaring())});
        let Some(created) = task_req(c, "tools/call", params, &mut out).await else {
            break;
        };
        let result = created.get("result").unwrap_or(&Value::Null);
        let has_task_id = result.get("taskId").is_some();
        match result_type(&created) {
            Some("task") => {}
            _ if has_task_id => {
                out.push(c.broke(
                    &clauses::TASKS_RESULT_TYPE,
                    format!(
                        "{}: the answer carries a taskId but resultType {:?}, not \"task\"",
                        case.tool,
                        result.get("resultType")
                    ),
                ));
                continue;
            }
            _ => continue,
        }
        handles.push(case.tool.clone());
        follow_task(c, &case.tool, &created, &mut out).await;
        // Called without the extension, the same call must not make a task. It may run
        // to its end instead, which for work that makes a task can take long: no answer
        // within the timeout is noted, not called wrong.
        let params = json!({"name": case.tool, "arguments": case.args, "_meta": meta(json!({}))});
        let (id, body) = c.session.body("tools/call", params);
        c.last = Some(Shown {
            method: "tools/call".to_owned(),
            id: Some(id),
        });
        let plain = match c.session.raw(body).await {
            Ok(plain) => plain,
            Err(e) => {
                undeclared.push(c.info(format!(
                    "{}: called without {EXTENSION} declared, it gave no answer ({e}); a call that cannot make a task may take as long as its task would",
                    case.tool
                )));
                c.after_failure(e.to_string()).await;
                continue;
            }
        };
        if result_type(&plain) == Some("task") {
            undeclared.push(c.broke(
                &clauses::TASKS_NOT_UNDECLARED,
                format!(
                    "{}: called without {EXTENSION} declared, it answered with a task handle",
                    case.tool
                ),
            ));
            if let Some(id) = plain.pointer("/result/taskId").and_then(Value::as_str) {
                let id = id.to_owned();
                cancel_quietly(c, &id).await;
            }
        }
    }
    if handles.is_empty() && out.is_empty() {
        c.skip_probe(
            "tasks/lifecycle",
            "no tool answered its base case with a task handle",
        );
    } else {
        c.push_probe("tasks/lifecycle", out);
    }
    handles
}

async fn cancel_quietly(c: &mut Checker<'_>, task_id: &str) {
    let params = json!({"taskId": task_id, "_meta": meta(declaring())});
    let mut ignored = Vec::new();
    let _ = task_req(c, "tasks/cancel", params, &mut ignored).await;
}

/// The handle, an immediate `tasks/get`, then polls to a terminal status.
pub(crate) async fn follow_task(c: &mut Checker<'_>, tool: &str, created: &Value, out: &mut Out) {
    let result = &created["result"];
    if let Err(e) = spec::check_tasks("CreateTaskResult", result) {
        out.push(c.broke(
            &clauses::TASKS_RESULT_TYPE,
            format!("{tool}: the task handle is not a CreateTaskResult: {e}"),
        ));
    }
    let Some(task_id) = result.get("taskId").and_then(Value::as_str) else {
        return;
    };
    let task_id = task_id.to_owned();
    let mut answered_rounds = 0;
    // The questions answered so far, by key (`tasks/input-keys-unique`).
    let mut answered = Map::new();
    // A task is followed for as long as one call may take.
    let until = tokio::time::Instant::now() + c.session.timeout;
    for poll in 0..MAX_POLLS {
        if poll > 0 && tokio::time::Instant::now() >= until {
            out.push(Note::info(format!(
                "{tool}: task {task_id} had not finished {} s after it was created; cancelled it",
                c.session.timeout.as_secs()
            )));
            return cancel_quietly(c, &task_id).await;
        }
        let params = json!({"taskId": task_id, "_meta": meta(declaring())});
        let Some(got) = task_req(c, "tasks/get", params, out).await else {
            return;
        };
        if got.get("error").is_some() {
            let clause = if poll == 0 {
                &clauses::TASKS_DURABLE
            } else {
                &clauses::TASKS_GET_STATUS
            };
            out.push(c.broke(
                clause,
                format!(
                    "{tool}: tasks/get for the task it returned ({task_id}){} failed: {}",
                    if poll == 0 {
                        " right after the handle"
                    } else {
                        ""
                    },
                    brief(&got)
                ),
            ));
            return;
        }
        let status = check_detailed(c, tool, &got, out);
        match status.as_deref() {
            Some("working") => {}
            Some("input_required") => {
                if answered_rounds >= MAX_ANSWER_ROUNDS {
                    out.push(Note::info(format!(
                        "{tool}: task {task_id} still asked for input after {MAX_ANSWER_ROUNDS} rounds of synthesized answers; cancelled it"
                    )));
                    return cancel_quietly(c, &task_id).await;
                }
                answered_rounds += 1;
                out.extend(reused_keys(c, tool, &task_id, &got, &mut answered));
                if !answer(c, tool, &task_id, &got, out).await {
                    return cancel_quietly(c, &task_id).await;
                }
            }
            // Terminal, or a status the extension does not define (reported above).
            _ => return,
        }
        let wait = got
            .pointer("/result/pollIntervalMs")
            .and_then(Value::as_u64)
            .map_or(Duration::from_millis(50), Duration::from_millis)
            .min(MAX_POLL_WAIT);
        tokio::time::sleep(wait).await;
    }
    out.push(Note::info(format!(
        "{tool}: task {task_id} had not finished after {MAX_POLLS} polls; cancelled it"
    )));
    cancel_quietly(c, &task_id).await;
}

/// What an `input_required` round (`got`, a `tasks/get` answer) shows of its keys: a key
/// answered in an earlier round that now names another request breaks
/// [`clauses::TASKS_INPUT_KEYS_UNIQUE`]. The same key with the same request is not judged: an
/// update's acknowledgement is eventually consistent, so a poll may still show a question
/// already answered. Records this round's questions in `answered`.
fn reused_keys(
    c: &Checker<'_>,
    tool: &str,
    task_id: &str,
    got: &Value,
    answered: &mut Map<String, Value>,
) -> Out {
    let mut out = Vec::new();
    let Some(requests) = got
        .pointer("/result/inputRequests")
        .and_then(Value::as_object)
    else {
        return out;
    };
    for (key, request) in requests {
        match answered.get(key) {
            Some(earlier) if earlier != request => out.push(c.broke(
                &clauses::TASKS_INPUT_KEYS_UNIQUE,
                format!(
                    "{tool}: task {task_id} asks {key:?} for {}, a key it already used for {}, which was answered; a key must be unique over the lifetime of a task",
                    brief_request(request),
                    brief_request(earlier)
                ),
            )),
            Some(_) => {}
            None => {
                answered.insert(key.clone(), request.clone());
            }
        }
    }
    out
}

/// An input request in a few words: its method and message.
fn brief_request(request: &Value) -> String {
    let method = request.get("method").and_then(Value::as_str).unwrap_or("?");
    match request.pointer("/params/message").and_then(Value::as_str) {
        Some(message) => format!("{method} {message:?}"),
        None => method.to_owned(),
    }
}

/// Checks one `tasks/get` answer; returns its status.
fn check_detailed(c: &Checker<'_>, tool: &str, got: &Value, out: &mut Out) -> Option<String> {
    let result = got.get("result").unwrap_or(&Value::Null);
    let complete = result.get("resultType").and_then(Value::as_str) == Some("complete");
    if !complete {
        out.push(c.broke(
            &clauses::TASKS_GET_RESULT_TYPE,
            format!(
                "{tool}: the tasks/get result has resultType {}, not \"complete\"",
                result.get("resultType").unwrap_or(&Value::Null)
            ),
        ));
    }
    let status = result.get("status").and_then(Value::as_str);
    let (clause, field) = match status {
        Some("input_required") => (&clauses::TASKS_GET_INPUT_REQUIRED, Some("inputRequests")),
        Some("completed") => (&clauses::TASKS_GET_COMPLETED, Some("result")),
        Some("failed") => (&clauses::TASKS_GET_FAILED, Some("error")),
        _ => (&clauses::TASKS_GET_STATUS, None),
    };
    if let Some(field) = field
        && result.get(field).is_none()
    {
        out.push(c.broke(
            clause,
            format!("{tool}: a {} task has no `{field}`", status.unwrap_or("?")),
        ));
    } else if complete && let Err(e) = spec::check_tasks("GetTaskResult", result) {
        out.push(c.broke(clause, format!("{tool}: tasks/get: {e}")));
    } else if status == Some("completed")
        && let Err(e) = spec::check("CallToolResult", &result["result"])
    {
        out.push(c.broke(
            &clauses::TASKS_GET_COMPLETED,
            format!("{tool}: the completed task's result is not a CallToolResult: {e}"),
        ));
    }
    status.map(str::to_owned)
}

/// Answers every question of an `input_required` task with a synthesized answer; returns
/// whether the task may go on.
async fn answer(
    c: &mut Checker<'_>,
    tool: &str,
    task_id: &str,
    got: &Value,
    out: &mut Out,
) -> bool {
    let Some(requests) = got
        .pointer("/result/inputRequests")
        .and_then(Value::as_object)
    else {
        return false;
    };
    let mut responses = Map::new();
    for (key, request) in requests {
        match synthesize_answer(request) {
            Some(answer) => {
                responses.insert(key.clone(), answer);
            }
            None => {
                out.push(Note::info(format!(
                    "{tool}: task {task_id} asked {key:?} ({}), which check cannot answer; cancelled it",
                    request.get("method").and_then(Value::as_str).unwrap_or("?")
                )));
                return false;
            }
        }
    }
    let params =
        json!({"taskId": task_id, "inputResponses": responses, "_meta": meta(declaring())});
    let Some(ack) = task_req(c, "tasks/update", params, out).await else {
        return false;
    };
    if ack.get("error").is_some() {
        out.push(Note::info(format!(
            "{tool}: tasks/update with synthesized answers was refused: {}",
            brief(&ack)
        )));
        return false;
    }
    if result_type(&ack) != Some("complete") {
        out.push(c.broke(
            &clauses::TASKS_UPDATE_RESULT_TYPE,
            format!(
                "{tool}: the tasks/update acknowledgement has resultType {}, not \"complete\"",
                ack.pointer("/result/resultType").unwrap_or(&Value::Null)
            ),
        ));
    }
    true
}

/// Calls the first task tool again and cancels the task at once.
async fn tasks_cancel(c: &mut Checker<'_>, handles: Vec<String>, base: &[Case]) {
    let Some(tool) = handles.first() else {
        return c.skip_probe(
            "tasks/cancel",
            "no tool answered its base case with a task handle",
        );
    };
    let Some(case) = base.iter().find(|c| &c.tool == tool) else {
        return c.skip_probe("tasks/cancel", "no base case");
    };
    let mut out = Vec::new();
    let params = json!({"name": case.tool, "arguments": case.args, "_meta": meta(declaring())});
    let Some(created) = task_req(c, "tools/call", params, &mut out).await else {
        return c.push_probe("tasks/cancel", out);
    };
    let Some(task_id) = created.pointer("/result/taskId").and_then(Value::as_str) else {
        out.push(Note::info(format!(
            "{tool}: the second call answered without a task ({}), so there was nothing to cancel",
            brief(&created)
        )));
        return c.push_probe("tasks/cancel", out);
    };
    let task_id = task_id.to_owned();
    let params = json!({"taskId": task_id, "_meta": meta(declaring())});
    if let Some(ack) = task_req(c, "tasks/cancel", params, &mut out).await {
        check_ack(c, tool, &ack, &mut out);
    }
    c.push_probe("tasks/cancel", out);
}

fn check_ack(c: &Checker<'_>, tool: &str, ack: &Value, out: &mut Out) {
    let Some(result) = ack.get("result") else {
        out.push(c.broke(
            &clauses::TASKS_CANCEL_ACK,
            format!(
                "{tool}: tasks/cancel of a running task failed: {}",
                brief(ack)
            ),
        ));
        return;
    };
    if result.get("resultType").and_then(Value::as_str) != Some("complete") {
        out.push(c.broke(
            &clauses::TASKS_CANCEL_RESULT_TYPE,
            format!(
                "{tool}: the tasks/cancel acknowledgement has resultType {}, not \"complete\"",
                result.get("resultType").unwrap_or(&Value::Null)
            ),
        ));
    }
    let extra: Vec<&str> = ["taskId", "status", "result", "error", "inputRequests"]
        .into_iter()
        .filter(|k| result.get(*k).is_some())
        .collect();
    if !extra.is_empty() {
        out.push(c.broke(
            &clauses::TASKS_CANCEL_ACK,
            format!(
                "{tool}: the tasks/cancel acknowledgement is not empty: it carries {}",
                extra.join(", ")
            ),
        ));
    }
}

/// The probes, for skipping them together.
pub(crate) const PROBES: [&str; 5] = [
    "tasks/undeclared",
    "tasks/unknown-id",
    "tasks/required",
    "tasks/lifecycle",
    "tasks/cancel",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn a_required_task_tool_is_judged_only_when_it_refuses() {
        let refused = |code: i64, data: Value| json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "x", "data": data}});
        let naming = json!({"requiredCapabilities": {"extensions": {EXTENSION: {}}}});
        assert!(judge_required("t", &refused(-32021, naming.clone())).is_none());
        for wrong in [refused(-32603, naming), refused(-32021, json!({}))] {
            let note = judge_required("t", &wrong).expect("a finding");
            assert_eq!(note.severity, Severity::Defect);
            assert_eq!(note.clause, Some(clauses::TASKS_REQUIRED_CAPABILITY));
        }
        // Served without a task: it could, so nothing was owed.
        let served = json!({"jsonrpc": "2.0", "id": 1,
            "result": {"resultType": "complete", "content": []}});
        let note = judge_required("t", &served).expect("a note");
        assert_eq!(note.severity, Severity::Info);
        // A task handle is tasks/undeclared's to judge.
        let handle = json!({"jsonrpc": "2.0", "id": 1,
            "result": {"resultType": "task", "taskId": "t1", "status": "working"}});
        assert!(judge_required("t", &handle).is_none());
    }
}
