//! `tasks/listen-no-progress`: no progress or log messages on a task's listen stream.
//!
//! How (Streamable HTTP, a server that declares `io.modelcontextprotocol/tasks`): the first
//! tool whose base case, called with the extension declared, answers with a task handle (the
//! task-only tools first, at most [`MAX_TOOLS`] tried) is called so with a `progressToken` and a log level in its
//! `_meta`, which invite both kinds of notification. A `subscriptions/listen` for that task
//! (`notifications.taskIds`) is posted on a connection of its own and read while the task is
//! followed to its end as `tasks/lifecycle` follows it (polled, its questions answered), and
//! a moment after ([`listen_while`]). A `notifications/progress` or `notifications/message`
//! on that stream breaks the tasks extension's §Task Status Notifications: they "**MUST NOT**
//! be sent on the `subscriptions/listen` stream for a task"
//! ([`clauses::TASKS_LISTEN_NO_PROGRESS`]). What the polls show is `tasks/lifecycle`'s to
//! judge, not this probe's. A listen refused, or silent within the timeout, is a note. Over
//! stdio `check` keeps no long-lived request open.

use super::request_scoped::{Heard, listen_while, on_the_stream};
use super::tasks::{base_cases, declaring, follow_task, meta};
use crate::Shown;
use crate::checker::Out;
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};
use std::collections::HashSet;

pub(crate) const ID: &str = "tasks/listen-no-progress";

/// The JSON-RPC id of the probe's listen request (the session numbers its own).
const LISTEN_ID: &str = "mcp-test-task-listen";

/// The progress token of the task's `tools/call`.
const TOKEN: &str = "mcp-test-task-progress";

/// At most this many tools are called until one answers with a task handle.
const MAX_TOOLS: usize = 8;

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let Some(http) = r.connection.http.clone() else {
            return;
        };
        // The tools listed as task-only first: they answer with a task handle.
        let mut cases = base_cases(r);
        cases.sort_by_key(|c| {
            !r.task_only
                .iter()
                .any(|t| t.get("name").and_then(Value::as_str) == Some(c.tool.as_str()))
        });
        let mut tried = HashSet::new();
        for case in cases {
            if tried.len() >= MAX_TOOLS || r.c.dead.is_some() {
                break;
            }
            if !tried.insert(case.tool.clone()) {
                continue;
            }
            let mut call_meta = meta(declaring());
            call_meta[meta_keys::PROGRESS_TOKEN] = json!(TOKEN);
            call_meta[meta_keys::LOG_LEVEL] = json!("debug");
            let params = json!({"name": case.tool, "arguments": case.args, "_meta": call_meta});
            let (id, body) = r.c.session.body("tools/call", params);
            r.called.record(&body);
            // Not kept for the results probe, whose core schema has no task handle.
            let mut ignored = Vec::new();
            let Some(created) = r.c.send_unkept("tools/call", id, body, &mut ignored).await else {
                break;
            };
            let Some(task_id) = task_handle(&created) else {
                continue;
            };
            let (_, mut listen) = r.c.session.body(
                "subscriptions/listen",
                json!({"notifications": {"taskIds": [task_id]}, "_meta": meta(declaring())}),
            );
            listen["id"] = json!(LISTEN_ID);
            let timeout = r.c.session.timeout;
            let c = &mut r.c;
            let tool = case.tool.clone();
            // The task's own findings are `tasks/lifecycle`'s.
            let work = async move {
                let mut ignored = Vec::new();
                follow_task(c, &tool, &created, &mut ignored).await;
            };
            let (heard, _) = listen_while(&http.url, &http.options, &listen, timeout, work).await;
            let shown = Some(Shown {
                method: format!("subscriptions/listen for task {task_id} (id {LISTEN_ID:?})"),
                id: None,
            });
            let out: Out = judge(&case.tool, &heard)
                .into_iter()
                .map(|n| n.on(shown.clone()))
                .collect();
            return r.c.push_probe(ID, out);
        }
        r.c.skip_probe(ID, "no tool answered its base case with a task handle");
    })
}

/// The task id of a `tools/call` answered with a task handle.
fn task_handle(reply: &Value) -> Option<String> {
    let result = reply.get("result")?;
    if result.get("resultType").and_then(Value::as_str) != Some("task") {
        return None;
    }
    result.get("taskId")?.as_str().map(str::to_owned)
}

/// What the task's listen stream showed; see the [module docs](self).
fn judge(tool: &str, heard: &Heard) -> Out {
    on_the_stream(
        heard,
        &["notifications/progress", "notifications/message"],
        &clauses::TASKS_LISTEN_NO_PROGRESS,
        |method, note| {
            format!(
                "{tool}: the subscriptions/listen stream for its task carried {method} ({note}); progress and log notifications must not be sent on a task's listen stream"
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn ack() -> Value {
        crate::probes::request_scoped::tests::acknowledged(json!({"taskIds": ["t1"]}))
    }

    #[test]
    fn only_a_task_handle_is_followed() {
        let handle = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "task",
            "taskId": "t1", "status": "working"}});
        assert_eq!(task_handle(&handle).as_deref(), Some("t1"));
        let done = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
            "content": []}});
        assert_eq!(task_handle(&done), None);
    }

    #[test]
    fn task_status_notifications_are_no_finding() {
        let status = json!({"jsonrpc": "2.0", "method": "notifications/tasks",
            "params": {"_meta": {meta_keys::SUBSCRIPTION_ID: LISTEN_ID}, "taskId": "t1",
                "status": "completed"}});
        assert!(judge("t", &Heard::Open(vec![ack(), status])).is_empty());
    }

    #[test]
    fn progress_or_a_log_message_breaks_the_clause() {
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": TOKEN, "progress": 1}});
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": "working"}});
        let notes = judge("t", &Heard::Open(vec![ack(), progress, log]));
        assert_eq!(notes.len(), 2);
        for note in &notes {
            assert_eq!(note.clause, Some(clauses::TASKS_LISTEN_NO_PROGRESS));
            assert_eq!(note.severity, Severity::Defect);
        }
    }

    #[test]
    fn no_stream_is_a_note() {
        let notes = judge("t", &Heard::Nothing("no message within 10s".to_owned()));
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].severity, Severity::Info);
    }
}
