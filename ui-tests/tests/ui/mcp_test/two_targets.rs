use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server, stdio = "my-server")]
async fn in_process_and_stdio() {}

#[mcp_test(http = "http://127.0.0.1:8080/mcp", principal = "alice", server = server, stdio = ["my-server"])]
async fn all_three() {}

fn main() {}
