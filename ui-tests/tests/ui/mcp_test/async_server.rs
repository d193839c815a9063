//! `#[mcp_test(server = server)]` with an `async fn server()`. trybuild compiles no `#[test]`
//! function, so this calls what the attribute expands to.

use mcp_test::Server;
use mcp_test::testing::IntoTestServer;

/// Building a server needs no `.await`, but this one is an `async fn`.
async fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

fn main() {
    let _ = IntoTestServer::into_test_server(server());
}
