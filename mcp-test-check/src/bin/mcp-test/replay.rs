//! `mcp-test replay CASSETTE [--times N] [--overwrite] [TARGET]`: replays a recorded session
//! against a live server (a fresh connection each time) and reports any difference; the
//! command-line form of `mcp_test::cassette::replay`.

use super::open::{TargetArgs, http_options};
use clap::Args;
use mcp_test::cassette::{Cassette, ReplayMode, ReplayOptions, recorded_answers, replay_with};
use mcp_test::client::{Client, ClientError};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Seconds each replayed request waits for the live server's reply; one that takes \
     longer stops the replay (exit 2)"
)))]
pub(crate) struct ReplayArgs {
    /// The cassette to replay.
    #[arg(value_name = "CASSETTE")]
    cassette: PathBuf,
    /// How many times to replay it, each over a fresh connection (a fresh process for a
    /// stdio server); stops at the first difference.
    #[arg(long, value_name = "N", default_value_t = 1)]
    times: u32,
    /// Write the live session over the cassette instead of comparing (re-record the same
    /// requests). Without it, MCP_TEST_CASSETTE=overwrite does the same.
    #[arg(long)]
    overwrite: bool,
    #[command(flatten)]
    target: TargetArgs,
}

/// Exits 0 when every replay matched, 1 on a difference (the live session is then in
/// `CASSETTE.pending`), 2 when the cassette or the server could not be used.
pub(crate) async fn run(args: ReplayArgs) -> ExitCode {
    let mut options = ReplayOptions::new();
    if args.overwrite {
        options = options.mode(ReplayMode::Overwrite);
    }
    // A 2025-era server asks its questions on the connection: the recorded client's answers
    // answer them.
    let cassette = match Cassette::load(&args.cassette) {
        Ok(cassette) => cassette,
        Err(e) => {
            eprintln!("mcp-test replay: {e}");
            return ExitCode::from(2);
        }
    };
    let times = args.times.max(1);
    for run in 1..=times {
        let client = match connect(&args.target)
            .await
            .map(|c| c.with_answers(recorded_answers(&cassette)))
        {
            Ok(client) => client,
            Err(e) => {
                eprintln!("mcp-test replay: {e}");
                return ExitCode::from(2);
            }
        };
        let outcome = replay_with(&client, &args.cassette, &options).await;
        let _ = client.close().await;
        match outcome {
            Ok(replay) if replay.overwritten => {
                println!(
                    "replay {run}/{times}: re-recorded {}",
                    args.cassette.display()
                );
            }
            Ok(replay) => println!(
                "replay {run}/{times}: no difference ({} responses compared, {} task polls added, {} skipped)",
                replay.compared, replay.polls_added, replay.polls_skipped
            ),
            Err(e @ mcp_test::cassette::CassetteError::Differs { .. }) => {
                eprintln!("mcp-test replay {run}/{times}: {e}");
                return ExitCode::from(1);
            }
            Err(e) => {
                eprintln!("mcp-test replay {run}/{times}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

/// A connection with no handshake of its own: the cassette's first requests are the session's.
async fn connect(target: &TargetArgs) -> Result<Client, ClientError> {
    let timeout = Duration::from_secs(target.timeout.max(1));
    if let Some(url) = &target.url {
        return Ok(Client::http_with(url, &http_options(target)?)?.with_timeout(timeout));
    }
    let Some((program, rest)) = target.command.split_first() else {
        return Err(ClientError::Protocol(
            "no target: give `-- CMD ARGS...` or `--url URL`".to_owned(),
        ));
    };
    let mut command = tokio::process::Command::new(program);
    command.args(rest);
    Ok(Client::spawn(command).await?.with_timeout(timeout))
}
