//! `era` takes "2026-07-28", "2025-11-25" or `both`, once; `both` runs the body twice, so it
//! returns `()`; and a server command cannot be started in another era.

use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server, era = "2024-11-05")]
async fn an_unknown_revision() {}

#[mcp_test(server = server, era = legacy)]
async fn a_word_that_is_not_both() {}

#[mcp_test(server = server, era = 2025)]
async fn a_number() {}

#[mcp_test(server = server, era = both)]
async fn both_returning_a_result() -> Result<(), String> {
    Ok(())
}

#[mcp_test(server = server, era = both, era = "2025-11-25")]
async fn twice() {}

#[mcp_test(http_command = ["my-server"], era = "2025-11-25")]
async fn a_server_command() {}

fn main() {}
