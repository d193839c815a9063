//! `headers` and `bearer` are what an HTTP client sends: not for a server in process, over
//! stdio or rmcp; `headers` are `(name, value)` pairs with names HTTP allows, `Authorization`
//! once; a written `bearer` is the token alone.

use mcp_test::{Server, mcp_test};

fn server() -> Server {
    Server::builder("demo", "1.0.0").build().unwrap()
}

#[mcp_test(server = server, bearer = "t")]
async fn a_bearer_in_process() {}

#[mcp_test(stdio = "srv", headers = [("X-Tenant", "acme")])]
async fn headers_over_stdio() {}

#[mcp_test(http_command = ["srv"], headers = "X-Tenant: acme")]
async fn one_string() {}

#[mcp_test(http_command = ["srv"], headers = [("X-Tenant", "acme"), "X-Trace"])]
async fn not_a_pair() {}

#[mcp_test(http_command = ["srv"], headers = [("X Tenant", "acme")])]
async fn a_name_with_a_space() {}

#[mcp_test(http = "http://127.0.0.1:1/mcp", bearer = "t", headers = [("authorization", "Basic x")])]
async fn authorization_twice() {}

#[mcp_test(http_command = ["srv"], bearer = "Bearer abc")]
async fn the_scheme_in_the_token() {}

#[mcp_test(http_command = ["srv"], bearer = "a b")]
async fn two_words() {}

#[mcp_test(http_command = ["srv"], bearer = "t", bearer = "u")]
async fn twice() {}

fn main() {}
