use mcp_test::testing::TestContext;
use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server)]
async fn takes_a_number(mcp: TestContext, n: u32) {}

fn main() {}
