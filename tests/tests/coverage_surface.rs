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

/// The conformance fixture as a binary of this crate.
const FIXTURE: &str = env!("CARGO_BIN_EXE_conformance_fixture");

/// One server binary exercised over stdio and over HTTP (`http_command`, a port of its own
/// every run), in both eras, is one row, named by its `serverInfo` whichever era the request
/// went in; the same server answering in process is a row of its own, not that one: so
/// `--fail-under` reads what the suite did to each.
#[tokio::test]
async fn a_server_binary_is_one_row_over_stdio_and_http_in_both_eras() {
    use mcp_test::wire::Era;
    use mcp_test_downstream::conformance::conformance_server;
    let dir = scratch("eras-transports");
    let recorder = Recorder::new(&dir);
    let simple = "This is a simple text response for testing.";
    let stdio = TestContext::stdio([FIXTURE]).record_coverage(&recorder);
    let http = TestContext::http_command([FIXTURE, "--http", "127.0.0.1:0"])
        .await
        .record_coverage(&recorder);
    let in_process = TestContext::new(conformance_server()).record_coverage(&recorder);
    // Listed once, over stdio in 2026-07-28: the universe of the binary's row.
    assert!(mcp_test::testing::result(stdio.list_tools().await)["tools"].is_array());
    assert_tool_text!(stdio.call_tool("test_simple_text", json!({})).await, simple);
    mcp_test::assert_tool_error!(
        http.call_tool("test_error_handling", json!({})).await,
        "intentionally"
    );
    // A stdio process speaks the era its first message chose: fresh processes for 2025.
    let stdio_2025 = TestContext::stdio([FIXTURE])
        .record_coverage(&recorder)
        .in_era(Era::Legacy);
    let http_2025 = TestContext::http_command([FIXTURE, "--http", "127.0.0.1:0"])
        .await
        .record_coverage(&recorder)
        .in_era(Era::Legacy);
    let image = stdio_2025.call_tool("test_image_content", json!({})).await;
    assert_eq!(
        mcp_test::testing::result(image)["content"][0]["type"],
        "image"
    );
    let audio = http_2025.call_tool("test_audio_content", json!({})).await;
    assert_eq!(
        mcp_test::testing::result(audio)["content"][0]["type"],
        "audio"
    );
    // In process, in both eras: the other row.
    assert_tool_text!(
        in_process.call_tool("test_simple_text", json!({})).await,
        simple
    );
    assert_tool_text!(
        in_process
            .in_era(Era::Legacy)
            .call_tool("test_simple_text", json!({}))
            .await,
        simple
    );
    let coverage = Coverage::load(&dir).expect("the recorded coverage");
    std::fs::remove_dir_all(&dir).expect("remove the scratch folder");
    let rows: Vec<(&str, bool)> = coverage
        .servers()
        .iter()
        .map(|s| (s.name(), s.in_process()))
        .collect();
    let name = coverage.servers()[0].name();
    assert!(
        !name.contains("127.0.0.1") && !name.contains("2025"),
        "{rows:?}"
    );
    assert_eq!(rows, [(name, true), (name, false)], "{rows:?}");
    let [here, binary] = coverage.servers() else {
        unreachable!()
    };
    // Two requests in process (one per era); four to the binary, over two transports.
    assert_eq!(
        here.tools().iter().map(|t| t.counts().total()).sum::<u64>(),
        2
    );
    let called: Vec<(&str, u64)> = binary
        .tools()
        .iter()
        .filter(|t| t.counts().total() > 0)
        .map(|t| (t.name(), t.counts().total()))
        .collect();
    assert_eq!(
        called,
        [
            ("test_audio_content", 1),
            ("test_error_handling", 1),
            ("test_image_content", 1),
            ("test_simple_text", 1)
        ],
        "{called:?}"
    );
    assert!(
        binary.tools().iter().all(|t| t.listed()),
        "every call is of a listed tool"
    );
    let over_http = |l: &&String| l.contains("http://127.0.0.1:");
    assert!(
        binary.labels().iter().filter(over_http).count() == 2
            && binary.labels().iter().any(|l| !over_http(&l)),
        "reached over stdio and at two ports: {:?}",
        binary.labels()
    );
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
