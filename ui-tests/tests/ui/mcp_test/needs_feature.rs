//! `#[mcp_test(stdio = ..)]`, `#[mcp_test(http = ..)]` and `#[mcp_test(rmcp = ..)]` without the
//! `client`, `http` and `rmcp` features (the ui-tests use mcp-test's default features).
//! trybuild compiles no `#[test]` function, so this calls what the attribute expands to.

use mcp_test::testing::RequestOptions;

fn main() {
    let _ = mcp_test::__private::stdio_context("my-server", RequestOptions::new());
    let _ = mcp_test::__private::http_context("http://127.0.0.1:8080/mcp", RequestOptions::new());
    let _ = mcp_test::__private::rmcp_context(MyHandler, RequestOptions::new());
}

struct MyHandler;
