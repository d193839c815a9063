//! `mcp-test serve --cassette FILE [--http ADDR]`: a mock server answering from a recorded
//! session over stdio, or Streamable HTTP on 127.0.0.1 (see `mcp_test::cassette::Responder`
//! for how requests are matched).

use clap::Args;
use mcp_test::cassette::{Cassette, CassetteTarget};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The cassette to answer from (written by `mcp-test record` or `cassette::Recorder`).
    #[arg(long, value_name = "FILE")]
    cassette: PathBuf,
    /// Serve Streamable HTTP on ADDR (a 127.0.0.1 address; port 0 picks one) at /mcp instead
    /// of stdio; prints `listening on ADDR` on stderr.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
}

pub(crate) async fn run(args: ServeArgs) -> ExitCode {
    let cassette = match Cassette::load(&args.cassette) {
        Ok(cassette) => cassette,
        Err(e) => {
            eprintln!("mcp-test serve: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(addr) = &args.http {
        let target = std::sync::Arc::new(CassetteTarget::new(&cassette));
        return super::record::serve_http("serve", addr, target).await;
    }
    match mcp_test::cassette::serve(&cassette, tokio::io::stdin(), tokio::io::stdout()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-test serve: {e}");
            ExitCode::from(2)
        }
    }
}
