use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server)]
fn not_async() {}

fn main() {}
