//! `mcp-test serve --cassette FILE [--http ADDR]`: a mock server answering from a recorded
//! session over stdio, or Streamable HTTP on 127.0.0.1 (see `mcp_test::cassette::Responder`
//! for how requests are matched).

use clap::Args;
use mcp_test::cassette::{Cassette, MatchMode};
use mcp_test::transport::http::HttpConfig;
use mcp_test::transport::http::relay::lines_router;
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
    /// Match each request's params exactly as recorded, ids and progress tokens aside. By
    /// default what a client declares about itself is left out (in `_meta` the protocol
    /// version, client capabilities and clientInfo; a 2025-11-25 initialize's protocolVersion,
    /// capabilities and clientInfo), unless the recorded answer depended on it (it asks for
    /// elicitation, sampling or roots, or is a -32021 or -32022 error).
    #[arg(long)]
    strict_match: bool,
}

pub(crate) async fn run(args: ServeArgs) -> ExitCode {
    let cassette = match Cassette::load(&args.cassette) {
        Ok(cassette) => cassette,
        Err(e) => {
            eprintln!("mcp-test serve: {e}");
            return ExitCode::from(2);
        }
    };
    let mode = if args.strict_match {
        MatchMode::Strict
    } else {
        MatchMode::Tolerant
    };
    if let Some(addr) = &args.http {
        // The cassette's line server (which asks a 2025-era session's questions and awaits
        // the answers) behind the HTTP bridge.
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let (server_in, server_out) = tokio::io::split(theirs);
        tokio::spawn(async move {
            mcp_test::cassette::serve_with(&cassette, mode, server_in, server_out).await
        });
        let (read, write) = tokio::io::split(ours);
        let router = lines_router(read, write, None, HttpConfig::default());
        return super::record::serve_http("serve", addr, router).await;
    }
    let serving =
        mcp_test::cassette::serve_with(&cassette, mode, tokio::io::stdin(), tokio::io::stdout());
    match serving.await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-test serve: {e}");
            ExitCode::from(2)
        }
    }
}
