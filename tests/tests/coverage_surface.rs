//! Coverage of a test suite as a downstream crate gathers it. Under `MCP_TEST_COVERAGE`, the
//! requests `assert_properties!` and `assert_schema_cases!` send are recorded like those of
//! the request helpers, so a tool tested only by properties counts as covered; and an rmcp
//! server is one row of the report whether or not the suite discovered it.

use mcp_test::testing::TestContext;
use mcp_test::testing::coverage::report::Coverage;
use mcp_test::testing::coverage::{ENV, Recorder};
use mcp_test::{
    Context, Server, Tool, ToolError, assert_properties, assert_schema_cases, assert_tool_text,
    mcp_test,
};
use serde_json::json;
use std::path::PathBuf;

/// Adds two integers.
#[derive(Tool)]
struct Add {
    a: i64,
    b: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.a.wrapping_add(self.b).to_string())
    }
}

/// Shouts a text.
#[derive(Tool)]
struct Shout {
    text: String,
}

impl Shout {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.text.to_uppercase())
    }
}

fn calc() -> Server {
    Server::builder("calc", "1.0.0")
        .tool::<Add>()
        .tool::<Shout>()
        .build()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-test-coverage-surface-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `add` is tested by properties only, `shout` by schema cases only. Passes on its own; the
/// test below runs it in a process of its own with `MCP_TEST_COVERAGE` set (the variable is
/// read once per process).
#[mcp_test(server = calc)]
async fn properties_and_schema_cases_only(mcp: TestContext) {
    assert_properties!(mcp, only = "add", cases = 8, no_regressions = ());
    assert_schema_cases!(mcp, only = "shout");
}

#[test]
fn property_and_schema_case_requests_are_recorded_under_the_variable() {
    let dir = scratch("env");
    let status = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "properties_and_schema_cases_only",
            "--exact",
            "--test-threads",
            "1",
        ])
        .env(ENV, &dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run the suite in a process of its own");
    assert!(status.success(), "the suite failed: {status}");
    let coverage = Coverage::load(&dir).expect("the recorded coverage");
    std::fs::remove_dir_all(&dir).expect("remove the scratch folder");
    let names: Vec<&str> = coverage.servers().iter().map(|s| s.name()).collect();
    assert_eq!(names, ["calc 1.0.0"]);
    let calc = &coverage.servers()[0];
    for tool in calc.tools() {
        assert!(
            tool.covered() && tool.counts().total() > 0,
            "{} is uncovered although the suite tested it",
            tool.name()
        );
    }
    assert_eq!(calc.tools().len(), 2);
}

mod rmcp_server {
    use super::*;
    use mcp_test_downstream::rmcp_calculator::Calculator;

    #[tokio::test]
    async fn an_rmcp_server_is_one_row_with_or_without_discovery() {
        let dir = scratch("rmcp");
        let recorder = Recorder::new(&dir);
        // No discovery: the replies carry no serverInfo.
        let undiscovered = TestContext::rmcp(Calculator).record_coverage(&recorder);
        assert_tool_text!(
            undiscovered.call_tool("add", json!({"a": 2, "b": 3})).await,
            "5"
        );
        let coverage = Coverage::load(&dir).expect("the recorded coverage");
        let names: Vec<&str> = coverage.servers().iter().map(|s| s.name()).collect();
        assert_eq!(names, ["calculator 2.1.0"]);
        // Discovered, in another context: still the same one row.
        let discovered = TestContext::rmcp(Calculator).record_coverage(&recorder);
        discovered.discover().await;
        assert_tool_text!(
            discovered.call_tool("add", json!({"a": 1, "b": 1})).await,
            "2"
        );
        let coverage = Coverage::load(&dir).expect("the recorded coverage");
        std::fs::remove_dir_all(&dir).expect("remove the scratch folder");
        let names: Vec<&str> = coverage.servers().iter().map(|s| s.name()).collect();
        assert_eq!(names, ["calculator 2.1.0"]);
        assert_eq!(coverage.servers()[0].tools()[0].counts().total(), 2);
    }
}
