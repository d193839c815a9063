//! `#[mcp_test(start_paused = true)]`: the test's runtime starts with tokio's clock paused, so
//! a task tool's half-minute of work and the polls at the server's poll interval take no real
//! time, as a downstream crate's task tests want.

use mcp_test::testing::TestContext;
use mcp_test::{Context, Server, Tool, ToolError, assert_task_status, mcp_test};
use serde_json::json;
use std::time::Duration;

/// Compiles the quarterly report, in the background: half a minute of work.
#[derive(Tool)]
#[tool(task = "optional")]
struct Compile {}

impl Compile {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.enter_task().await;
        tokio::time::sleep(Duration::from_secs(30)).await;
        Ok("compiled".to_owned())
    }
}

/// The server's default poll interval stands (no `task_poll_interval(None)`).
fn reports() -> Server {
    Server::builder("reports", "1.0.0")
        .tool::<Compile>()
        .build()
        .unwrap()
}

#[mcp_test(server = reports, start_paused = true)]
async fn a_long_task_runs_on_the_paused_clock(mcp: TestContext) {
    // Advancing the clock by hand is allowed only when it is paused.
    tokio::time::advance(Duration::ZERO).await;
    let started = tokio::time::Instant::now();
    let created = mcp.call_tool_as_task("compile", json!({})).await;
    let interval = created["result"]["pollIntervalMs"].as_u64();
    assert!(interval.is_some_and(|ms| ms > 0), "{created:#}");
    let done = mcp.poll_task(mcp_test::testing::task_id(&created)).await;
    assert_task_status!(done, "completed");
    assert_eq!(done["result"]["result"]["content"][0]["text"], "compiled");
    // Thirty seconds of the paused clock went by, polled at the server's interval.
    assert!(started.elapsed() >= Duration::from_secs(30));
}

#[mcp_test(server = reports, start_paused = false)]
async fn start_paused_false_is_the_real_clock(mcp: TestContext) {
    assert!(mcp.list_tools().await["result"]["tools"].is_array());
}
