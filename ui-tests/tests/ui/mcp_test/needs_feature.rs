//! `#[mcp_test(stdio = ..)]` and `#[mcp_test(http = ..)]` without the `client` and `http`
//! features (the ui-tests use mcp-test's default features). trybuild compiles no `#[test]`
//! function, so this calls what the attribute expands to.

use mcp_test::testing::RequestOptions;

fn main() {
    let _ = mcp_test::__private::stdio_context("my-server", RequestOptions::new());
    let _ = mcp_test::__private::http_context("http://127.0.0.1:8080/mcp", RequestOptions::new());
}
