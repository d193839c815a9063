//! A tool's task support as each era publishes it, and `check` on a server of this runtime
//! with a task-only tool: it finds nothing, and never calls the tool the way its era forbids.

use mcp_test::cases::Connected;
use mcp_test::client::Client;
use mcp_test::target::Target;
use mcp_test::testing::TestContext;
use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test::wire::Era;
use mcp_test::{Context, Server, Tool, ToolError};
use mcp_test_check::{CheckOptions, CheckReport, Severity, check};
use serde_json::json;
use std::time::Duration;

/// Only ever runs as a task.
#[derive(Tool)]
#[tool(name = "export", task = "required", annotations(read_only))]
struct Export {}

impl Export {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.enter_task().await;
        Ok("exported".into())
    }
}

/// May run as a task.
#[derive(Tool)]
#[tool(name = "report", task = "optional", annotations(read_only))]
struct Report {}

impl Report {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok("reported".into())
    }
}

/// Never a task.
#[derive(Tool)]
#[tool(name = "echo", annotations(read_only))]
struct Echo {
    text: String,
}

impl Echo {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

fn server(eras: &[Era]) -> Server {
    Server::builder("task-support", "1.0.0")
        .tool::<Export>()
        .tool::<Report>()
        .tool::<Echo>()
        .eras(eras.iter().copied())
        .build()
        .unwrap()
}

/// The `execution` of each listed tool, by name.
fn executions(list: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    let mut found: Vec<(String, serde_json::Value)> = list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                t.get("execution").cloned().unwrap_or_default(),
            )
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[tokio::test]
async fn the_2025_era_lists_execution_task_support() {
    let mcp = TestContext::new(server(&[Era::Current, Era::Legacy])).in_era(Era::Legacy);
    let list = mcp.list_tools().await;
    assert_eq!(
        executions(&list),
        vec![
            ("echo".to_owned(), serde_json::Value::Null),
            ("export".to_owned(), json!({"taskSupport": "required"})),
            ("report".to_owned(), json!({"taskSupport": "optional"})),
        ],
        "{list}"
    );
    mcp_test::spec::check_response_in(Era::Legacy, "tools/list", &list)
        .unwrap_or_else(|e| panic!("{e}: {list}"));
    // server/tools.mdx: a call to a "required" tool that is not a task is -32601; this
    // runtime serves no tasks in 2025-11-25. The others run as plain calls.
    let refused = mcp.call_tool("export", json!({})).await;
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    mcp_test::assert_tool_text!(mcp.call_tool("report", json!({})).await, "reported");
}

/// 2026-07-28 removed `Tool.execution` (tasks left the core for the extension, SEP-2663, whose
/// per-request capability is the one handshake): the tool says so by its -32021 instead.
#[tokio::test]
async fn the_2026_era_lists_no_execution() {
    let mcp = TestContext::new(server(&[Era::Current]));
    let list = mcp.list_tools().await;
    assert!(executions(&list).iter().all(|(_, e)| e.is_null()), "{list}");
    let refused = mcp.call_tool("export", json!({})).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert!(
        refused["error"]["data"]["requiredCapabilities"]["extensions"]
            .get("io.modelcontextprotocol/tasks")
            .is_some(),
        "{refused}"
    );
}

fn options() -> CheckOptions {
    CheckOptions::default()
        .timeout(Duration::from_secs(10))
        .deadline(Some(Duration::from_secs(60)))
        .case_time(None)
}

fn flagged(report: &CheckReport) -> Vec<String> {
    report
        .findings()
        .filter(|f| f.severity != Severity::Info)
        .map(|f| format!("{}: {}", f.probe, f.message))
        .collect()
}

/// In 2025-11-25 the task-only tool is published as one, so `check` does not call it (the
/// server serves no 2025 tasks), and finds nothing.
#[tokio::test]
async fn check_leaves_a_task_only_tool_alone_in_the_2025_era() {
    let (client_end, server_end) = tokio::io::duplex(1024 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve(
        server(&[Era::Legacy]),
        server_read,
        server_write,
        StdioConfig::default(),
    ));
    let (read, write) = tokio::io::split(client_end);
    let connected = Connected::probe(Client::connect(read, write), "task support, 2025")
        .await
        .unwrap();
    assert_eq!(connected.connection().era, Some(Era::Legacy));
    let report = check(&connected, &options()).await;
    assert!(flagged(&report).is_empty(), "{}", report.to_text());
    let export = report
        .tools
        .iter()
        .find(|t| t.name == "export")
        .unwrap_or_else(|| panic!("{}", report.to_text()));
    assert!(!export.called, "{}", report.to_text());
    assert!(
        export
            .not_called
            .as_deref()
            .is_some_and(|why| why.contains("taskSupport")),
        "{}",
        report.to_text()
    );
}

/// In 2026-07-28 `check` calls the task-only tool with the extension declared and follows its
/// task to the end; its -32021 to a call without the extension is what that revision says, so
/// nothing is flagged.
#[tokio::test]
async fn check_drives_a_task_only_tool_in_the_2026_era() {
    let report = check(&server(&[Era::Current]), &options()).await;
    assert!(flagged(&report).is_empty(), "{}", report.to_text());
    for probe in ["tasks/lifecycle", "tasks/cancel"] {
        let ran = report
            .probes
            .iter()
            .find(|p| p.name == probe)
            .unwrap_or_else(|| panic!("{probe}: {}", report.to_text()));
        assert!(
            ran.skipped.is_none() && ran.passed(),
            "{}",
            report.to_text()
        );
    }
    let export = report.tools.iter().find(|t| t.name == "export").unwrap();
    assert!(export.called, "{}", report.to_text());
}
