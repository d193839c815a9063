//! The cross-feature matrix's server (`mcp_test_downstream::matrix`) as a process, over stdio.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    mcp_test::transport::stdio::serve_stdio(mcp_test_downstream::matrix::matrix_server()).await
}
