//! `start_paused` takes `true` or `false`, and pauses a current_thread runtime only.

use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server, start_paused = 3)]
async fn a_number() {}

#[mcp_test(server = server, start_paused = "yes")]
async fn a_string() {}

#[mcp_test(server = server, start_paused = true, flavor = "multi_thread")]
async fn on_many_threads() {}

#[mcp_test(server = server, start_paused = true, start_paused = false)]
async fn twice() {}

fn main() {}
