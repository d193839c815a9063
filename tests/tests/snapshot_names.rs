//! Unnamed `assert_response_snapshot!`s in `#[mcp_test]` tests are named after each test, so
//! the tests of one file write distinct snapshot files (they used to share the name of the
//! generated body and overwrite each other), and each header shows the expression as written.

use mcp_test::testing::TestContext;
use mcp_test::{Context, Server, Tool, ToolError, assert_response_snapshot, mcp_test};
use serde_json::json;

/// Echoes its text.
#[derive(Tool)]
struct Echo {
    text: String,
}

impl Echo {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

fn echo() -> Server {
    Server::builder("echo", "1.0.0")
        .tool::<Echo>()
        .build()
        .unwrap()
}

#[mcp_test(server = echo)]
async fn echoes_hello(mcp: TestContext) {
    assert_response_snapshot!(mcp.call_tool("echo", json!({"text": "hello"})).await);
}

#[mcp_test(server = echo)]
async fn echoes_twice(mcp: TestContext) {
    let first = mcp.call_tool("echo", json!({"text": "one"})).await;
    assert_response_snapshot!(first);
    // A second unnamed snapshot in the same test gets insta's `-2` suffix.
    assert_response_snapshot!(mcp.call_tool("echo", json!({"text": "two"})).await);
}

/// The files the two tests above compare against: one per test (and per snapshot), each headed
/// by the expression the test wrote.
#[test]
fn each_test_has_its_own_snapshot_files() {
    let files = [
        (
            include_str!("snapshots/snapshot_names__echoes_hello.snap"),
            r#"expression: "mcp.call_tool(\"echo\", json!({\"text\": \"hello\"})).await""#,
            "hello",
        ),
        (
            include_str!("snapshots/snapshot_names__echoes_twice.snap"),
            "expression: first",
            "one",
        ),
        (
            include_str!("snapshots/snapshot_names__echoes_twice-2.snap"),
            r#"expression: "mcp.call_tool(\"echo\", json!({\"text\": \"two\"})).await""#,
            "two",
        ),
    ];
    for (file, expression, text) in files {
        let header = format!("---\nsource: tests/tests/snapshot_names.rs\n{expression}\n---\n");
        assert!(
            file.starts_with(&header),
            "expected {header:?} at the top of:\n{file}"
        );
        assert!(file.contains(&format!("\"text\": \"{text}\"")), "{file}");
    }
}
