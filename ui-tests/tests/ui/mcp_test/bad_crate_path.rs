use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(crate = "not a path", server = server)]
async fn not_a_path() {}

#[mcp_test(crate = mcp_test::<u8>, server = server)]
async fn not_a_plain_path() {}

#[mcp_test(crate = mcp_test, server = server, crate = ::mcp_test)]
async fn twice() {}

// No test for a path that names no crate: a `#[test]` fn is not compiled outside `cargo test`,
// so trybuild's build never resolves it. `tests/renamed` proves a renamed path works.

fn main() {}
