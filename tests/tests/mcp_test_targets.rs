//! `#[mcp_test]` over a server in another process: the conformance fixture started as a child
//! process (`stdio = ..`), and served over HTTP on a free 127.0.0.1 port (`http = ..`). The
//! helpers, assertions and request options work as they do in process.

#[allow(dead_code)] // the example's `main`
#[path = "../../mcp-test/examples/conformance.rs"]
mod conformance;

use mcp_test::testing::{TestContext, result};
use mcp_test::{assert_rpc_error, assert_tool_text, mcp_test};
use serde_json::json;

/// Serves the fixture over HTTP on 127.0.0.1, on a port the system picks, and returns its URL.
/// The server is a task of the test's runtime, so it ends with the test.
async fn serve_fixture() -> String {
    mcp_test_downstream::serve_http(conformance::conformance_server()).await
}

const FIXTURE: &str = env!("CARGO_BIN_EXE_conformance_fixture");

#[mcp_test(stdio = env!("CARGO_BIN_EXE_conformance_fixture"))]
async fn stdio_starts_the_binary(mcp: TestContext) {
    assert!(
        mcp.label().contains("conformance_fixture"),
        "{}",
        mcp.label()
    );
    assert!(
        mcp.try_server().is_none(),
        "the server is in another process"
    );
    assert_tool_text!(
        mcp.call_tool("test_simple_text", json!({})).await,
        "This is a simple text response for testing."
    );
    assert_rpc_error!(mcp.call_tool("nope", json!({})).await, -32602);
}

#[mcp_test(stdio = [FIXTURE], capabilities(sampling), timeout = 30_000)]
async fn stdio_requests_carry_the_options() {
    // Reached without a parameter, as from a helper or a test-case function.
    let mcp = TestContext::current();
    assert!(mcp.options().identity().principal.is_some());
    assert_tool_text!(
        mcp.call_tool("test_missing_capability", json!({})).await,
        "The client declared sampling"
    );
}

#[mcp_test(stdio = FIXTURE)]
async fn stdio_without_the_capability_is_refused(mcp: TestContext) {
    assert_rpc_error!(
        mcp.call_tool("test_missing_capability", json!({})).await,
        -32021
    );
}

#[mcp_test(http = serve_fixture().await, capabilities(sampling))]
async fn http_evaluates_the_url_in_the_test(mcp: TestContext) -> Result<(), String> {
    let label = mcp.label();
    if !(label.starts_with("http://127.0.0.1:") && label.ends_with("/mcp")) {
        return Err(format!("unexpected label {label}"));
    }
    assert_tool_text!(
        mcp.call_tool("test_missing_capability", json!({})).await,
        "The client declared sampling"
    );
    let tools = result(mcp.list_tools().await);
    assert!(tools["tools"].as_array().is_some_and(|t| !t.is_empty()));
    Ok(())
}

#[mcp_test(http = serve_fixture().await, protocol = "1900-01-01", flavor = "multi_thread")]
async fn http_requests_carry_the_protocol_option(mcp: TestContext) {
    let error = assert_rpc_error!(mcp.discover().await, -32022);
    assert_eq!(error.data.unwrap()["requested"], "1900-01-01");
}

/// A server an `async fn` builds: `server = f().await`, as the compile error for `server = f`
/// suggests (`ui-tests/tests/ui/mcp_test/async_server.rs`).
async fn built_later() -> mcp_test::Server {
    conformance::conformance_server()
}

#[mcp_test(server = built_later().await)]
async fn server_takes_an_awaited_builder(mcp: TestContext) {
    let tools = result(mcp.list_tools().await);
    assert!(tools["tools"].as_array().is_some_and(|t| !t.is_empty()));
}
