//! The transport fixture server as a real process: stdio by default, or
//! `--http 127.0.0.1:PORT` to serve `/mcp` over HTTP (port 0 picks one and prints
//! `listening on ADDR` to stderr).

use mcp_test::transport::{http, stdio};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = mcp_test_downstream::transport_server();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => stdio::serve_stdio(server).await,
        [flag, addr] if flag == "--http" => {
            let listener = tokio::net::TcpListener::bind(addr.as_str()).await?;
            eprintln!("listening on {}", listener.local_addr()?);
            http::serve(listener, server, http::HttpConfig::default()).await
        }
        _ => {
            eprintln!("usage: transport_fixture [--http 127.0.0.1:PORT]");
            std::process::exit(2)
        }
    }
}
