//! `#[mcp_test(stdio = ..)]`, `#[mcp_test(http = ..)]`, `#[mcp_test(http_command = ..)]`,
//! `#[mcp_test(rmcp = ..)]` and `#[mcp_test(start_paused = true)]` without the `client`,
//! `http`, `rmcp` and `test-util` features (the ui-tests use mcp-test's default features).
//! trybuild compiles no `#[test]` function, so this calls what the attribute expands to.

use mcp_test::testing::RequestOptions;

fn main() {
    let _ = mcp_test::__private::stdio_context("my-server", RequestOptions::new());
    let _ = mcp_test::__private::http_context("http://127.0.0.1:8080/mcp", RequestOptions::new());
    let _ = mcp_test::__private::rmcp_context(MyHandler, RequestOptions::new());
    let _ = mcp_test::__private::http_command_context(["my-server"], RequestOptions::new());
    let mut builder = mcp_test::__private::tokio::runtime::Builder::new_current_thread();
    mcp_test::__private::start_paused(&mut builder, true);
}

struct MyHandler;
