//! `mcp-test serve --cassette FILE`: a mock server answering from a recorded session over
//! stdio (see `mcp_test::cassette::Responder` for how requests are matched).

use clap::Args;
use mcp_test::cassette::Cassette;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The cassette to answer from (written by `mcp-test record` or `cassette::Recorder`).
    #[arg(long, value_name = "FILE")]
    cassette: PathBuf,
}

pub(crate) async fn run(args: ServeArgs) -> ExitCode {
    let cassette = match Cassette::load(&args.cassette) {
        Ok(cassette) => cassette,
        Err(e) => {
            eprintln!("mcp-test serve: {e}");
            return ExitCode::from(2);
        }
    };
    match mcp_test::cassette::serve(&cassette, tokio::io::stdin(), tokio::io::stdout()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-test serve: {e}");
            ExitCode::from(2)
        }
    }
}
