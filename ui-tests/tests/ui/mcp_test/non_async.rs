use mcp_test::{mcp_test, Server};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server)]
fn not_async() {}

fn main() {}
