//! The notes server (`mcp_test_downstream::notes`) as a process serving HTTP:
//! `notes_server --http 127.0.0.1:PORT (--trust-issuer ISSUER [--scopes-supported A,B] |
//! --static-token TOKEN)`. Port 0 picks one; it prints `listening on ADDR` once bound.

use mcp_test_downstream::notes::{NotesAuth, notes_router};

fn usage() -> ! {
    eprintln!(
        "usage: notes_server --http 127.0.0.1:PORT (--trust-issuer ISSUER [--scopes-supported A,B] | --static-token TOKEN)"
    );
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut addr, mut issuer, mut supported, mut token) = (None, None, Vec::new(), None);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--http" => addr = Some(value()),
            "--trust-issuer" => issuer = Some(value()),
            "--scopes-supported" => {
                supported = value().split(',').map(str::to_owned).collect();
            }
            "--static-token" => token = Some(value()),
            _ => usage(),
        }
    }
    let auth = match (issuer, token) {
        (Some(issuer), None) => NotesAuth::Issuer {
            issuer,
            scopes_supported: supported,
        },
        (None, Some(token)) => NotesAuth::Static(token),
        _ => usage(),
    };
    let listener = tokio::net::TcpListener::bind(addr.unwrap_or_else(|| usage())).await?;
    let bound = listener.local_addr()?;
    let app = notes_router(&format!("http://{bound}/mcp"), auth);
    println!("listening on {bound}");
    axum::serve(listener, app).await
}
