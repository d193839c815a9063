use mcp_test::testing::{TestContext, text_response};
use mcp_test::{assert_rpc_error, assert_tool_text};
use serde_json::json;

/// A helper a test calls: the request helpers are async, and their futures are not responses.
async fn adds(mcp: TestContext) {
    assert_tool_text!(mcp.call_tool("add", json!({"a": 1, "b": 2})), "3");
    let _text = text_response(mcp.list_tools());
}

/// Something that is not a response at all.
fn asserts_on_a_number() {
    assert_rpc_error!(42, -32602);
}

fn main() {}
