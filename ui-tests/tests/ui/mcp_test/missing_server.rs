use mcp_test::mcp_test;

#[mcp_test(principal = "alice")]
async fn no_server() {}

fn main() {}
