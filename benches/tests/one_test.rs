//! The subject of the cold-start bench: one `#[mcp_test]` test per binary run, timed as a whole
//! process (spawn, runtime, server build, one call, exit), as cargo-nextest runs each test.

use mcp_test::testing::TestContext;
use mcp_test::{assert_tool_text, mcp_test};
use serde_json::json;

#[mcp_test(server = mcp_test_benches::add_server)]
async fn adds(mcp: TestContext) {
    assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 3})).await, "5");
}

#[mcp_test(server = mcp_test_benches::fifty_tool_server)]
async fn fifty_tools_first_call(mcp: TestContext) {
    let arguments = mcp_test_benches::fifty_first_request()["params"]["arguments"].clone();
    assert_tool_text!(
        mcp.call_tool("tool49", arguments).await,
        mcp_test_benches::FIFTY_TEXT
    );
}
