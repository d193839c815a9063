//! Snapshots of task responses are stable from run to run: `assert_response_snapshot!`
//! redacts a task's id and timestamps by default (as it does ids, server info and
//! `requestState`), and a test adds redactions of its own or keeps a default's value, per
//! assertion and per test, as a downstream crate writes it.

use mcp_test::testing::{DEFAULT_REDACTIONS, Redactions, TestContext, normalize, task_id};
use mcp_test::{Context, Server, Tool, ToolError, assert_response_snapshot, mcp_test};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes a report, in the background.
#[derive(Tool)]
#[tool(task = "optional")]
struct Report {
    /// The report's title.
    title: String,
}

impl Report {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.enter_task().await;
        Ok(format!("report: {}", self.title))
    }
}

static NONCES: AtomicU64 = AtomicU64::new(1);

/// Answers with a fresh nonce each call.
#[derive(Tool)]
struct Nonce {}

impl Nonce {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("nonce {}", NONCES.fetch_add(1, Ordering::Relaxed)))
    }
}

fn reports() -> Server {
    Server::builder("reports", "1.0.0")
        .tool::<Report>()
        .tool::<Nonce>()
        .task_poll_interval(None)
        .build()
        .unwrap()
}

#[mcp_test(server = reports)]
async fn a_task_handle_and_its_result_snapshot_the_same_every_run(mcp: TestContext) {
    let created = mcp
        .call_tool_as_task("report", json!({"title": "q3"}))
        .await;
    assert_response_snapshot!(created);
    let done = mcp.poll_task(task_id(&created)).await;
    assert_response_snapshot!(done);
}

#[mcp_test(server = reports)]
async fn two_tasks_normalize_alike(mcp: TestContext) {
    let first = mcp.call_tool_as_task("report", json!({"title": "a"})).await;
    let second = mcp.call_tool_as_task("report", json!({"title": "a"})).await;
    assert_ne!(task_id(&first), task_id(&second));
    assert_eq!(normalize(&first), normalize(&second));
    for field in ["taskId", "createdAt", "lastUpdatedAt"] {
        assert_eq!(normalize(&first)["result"][field], format!("[{field}]"));
    }
}

#[mcp_test(server = reports)]
async fn one_assertion_adds_a_redaction(mcp: TestContext) {
    assert_response_snapshot!(mcp.call_tool("nonce", json!({})).await, {
        ".result.content[].text" => "[nonce]",
    });
}

#[mcp_test(server = reports)]
async fn one_test_adds_and_removes(mcp: TestContext) {
    // The whole test: nonces redacted, the (deterministic) request id kept.
    let _redactions = Redactions::new()
        .add(".result.content[].text", "[nonce]")
        .remove(".id")
        .bind_to_scope();
    assert_response_snapshot!(
        "one_test_adds_and_removes",
        mcp.call_tool("nonce", json!({})).await
    );
}

#[test]
fn a_removal_holds_for_its_scope_only() {
    let response = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}});
    Redactions::new().remove(".id").bind(|| {
        assert_eq!(normalize(&response)["id"], 3);
    });
    assert_eq!(normalize(&response)["id"], "[id]");
    assert!(DEFAULT_REDACTIONS.iter().any(|r| r.selector == ".id"));
}

/// What the snapshot files above hold: placeholders where a value changes between runs,
/// the test's own redactions, and the id one test kept.
#[test]
fn the_snapshot_files_hold_placeholders() {
    let created = include_str!(
        "snapshots/snapshot_redactions__a_task_handle_and_its_result_snapshot_the_same_every_run.snap"
    );
    for placeholder in ["[id]", "[taskId]", "[createdAt]", "[lastUpdatedAt]"] {
        assert!(created.contains(placeholder), "{placeholder}:\n{created}");
    }
    let done = include_str!(
        "snapshots/snapshot_redactions__a_task_handle_and_its_result_snapshot_the_same_every_run-2.snap"
    );
    assert!(done.contains("\"taskId\": \"[taskId]\""), "{done}");
    assert!(done.contains("report: q3"), "{done}");
    let one = include_str!("snapshots/snapshot_redactions__one_assertion_adds_a_redaction.snap");
    assert!(one.contains("\"text\": \"[nonce]\""), "{one}");
    let test = include_str!("snapshots/snapshot_redactions__one_test_adds_and_removes.snap");
    assert!(test.contains("\"text\": \"[nonce]\""), "{test}");
    assert!(!test.contains("[id]"), "{test}");
}
