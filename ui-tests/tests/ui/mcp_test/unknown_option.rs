use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server, principle = "alice")]
async fn misspelled() {}

#[mcp_test(server = server, capabilities(elicitation, telepathy))]
async fn unknown_capability() {}

#[mcp_test(server = server, flavor = "single_thread")]
async fn unknown_flavor() {}

fn main() {}
