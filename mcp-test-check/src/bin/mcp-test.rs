//! `mcp-test`: check any MCP server, or generate Rust tests for it.
//!
//! ```text
//! mcp-test check [--url URL | -- CMD ARGS...] [--format text|json|junit] [--deadline SECS]
//!                [--jobs N] [--max-jobs N] [--case-time SECS] [--all-cases] [--properties N]
//!                [--no-open-world | --allow-writes | --allow-destructive] [--tool NAME]...
//!                [--values FILE] [--value TOOL:/pointer=VALUE]...
//!                [--expect FILE] [--write-expect FILE] [--fail-on-security LEVEL] [--pin FILE]
//! mcp-test generate [--edge-cases] [--verify] -o FILE [--url URL | -- CMD ARGS...]
//! mcp-test list tools|resources|templates|prompts [TARGET]
//! mcp-test call TOOL [k=v... | JSON] [--answer KEY=JSON]... [--answers FILE] [TARGET]
//! mcp-test read URI [TARGET]
//! mcp-test prompt NAME [k=v...] [TARGET]
//! mcp-test complete (--prompt NAME | --template URI) ARGUMENT [VALUE] [TARGET]
//! mcp-test record --out FILE [--http ADDR] TARGET
//! mcp-test replay CASSETTE [--times N] [--overwrite] TARGET
//! mcp-test serve --cassette FILE [--http ADDR] [--strict-match]
//! mcp-test coverage [DIR] [--format text|json] [--json FILE] [--uncovered] [--fail-under PCT]
//! mcp-test surface [TARGET]
//! mcp-test diff OLD [NEW | TARGET] [--fail-on breaking|additive] [--format text|json|markdown]
//! mcp-test auth-server [--port N] [--print-env]
//! ```
//!
//! TARGET is `--url URL [--header 'Name: value']... [--ca-cert FILE]` or `-- CMD ARGS...`.
//!
//! Without a target, both work on the bundled example server, in process.

// Beside this file, in a folder with no main.rs (so cargo takes it for no binary of its own).
#[path = "mcp-test/adhoc.rs"]
mod adhoc;
#[path = "mcp-test/auth_server.rs"]
mod auth_server;
#[path = "mcp-test/coverage.rs"]
mod coverage;
#[path = "mcp-test/formats.rs"]
mod formats;
#[path = "mcp-test/load.rs"]
mod load;
#[path = "mcp-test/open.rs"]
mod open;
#[path = "mcp-test/record.rs"]
mod record;
#[path = "mcp-test/replay.rs"]
mod replay;
#[path = "mcp-test/serve.rs"]
mod serve;
#[path = "mcp-test/surface.rs"]
mod surface;

use formats::Format;
use open::{OpenError, Served, TargetArgs, connect_timeout, http_options, open, target_label};

use clap::{Args, Parser, Subcommand};
use mcp_test::cases::values::{Values, parse_assignment, values_from_json};
use mcp_test::cases::{CaseOptions, check_values, list_tools};
use mcp_test::client::{ClientError, HttpOptions};
use mcp_test::target::{Target, TargetError};
use mcp_test_check::ai::AiOptions;
use mcp_test_check::generate::{self, AiGenerate, GenerateConfig, generate_tests};
use mcp_test_check::{
    CheckOptions, CheckReport, Consent, Expectations, Risk, check_connected_with_progress,
    check_unauthorized, check_with_progress,
};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "mcp-test",
    version,
    about = "Checks any MCP server against the 2026-07-28 spec and its own tool schemas"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs protocol probes and schema-derived cases against a server and reports findings by
    /// severity. Exits 1 on any defect, else 2 when the check could not run to its end (the
    /// server could not be reached or needs authorization, or the deadline passed), else 0;
    /// every format prints a report in each case. With --expect: 0 when the defects and
    /// warnings are those the file lists, 1 when not, 2 when the check could not run to its
    /// end. Without a target, checks the bundled example server. Tools are called only with
    /// consent, read from their annotations: by default read-only ones (open-world ones
    /// marked in the report); --no-open-world, --allow-writes, --allow-destructive and --tool
    /// NAME move the line, and the report lists every tool, whether it was called, and the
    /// flag that would call it.
    Check(CheckArgs),
    /// Writes a Rust test file with the schema-derived cases of a server.
    Generate(GenerateArgs),
    #[command(flatten)]
    Adhoc(adhoc::Adhoc),
    /// Prints the MCP coverage of a test suite run with MCP_TEST_COVERAGE=DIR: per server,
    /// the tools and actions, resources, templates, prompts and completion references the
    /// tests exercised, with the outcomes they got, uncovered rows marked. Exits 2 when the
    /// recordings cannot be read, 1 under --fail-under, else 0.
    Coverage(coverage::CoverageArgs),
    /// Prints the server's surface as JSON: its tools (with input and output schemas and
    /// annotations), resources, resource templates, prompts (every page) and capabilities,
    /// sorted, for `mcp-test diff`. Exits 2 when it cannot be read, else 0.
    Surface(surface::SurfaceArgs),
    /// Lists the changes from one surface to another (OLD and NEW files, or OLD and a
    /// target), each classed breaking, additive or cosmetic with where it is and why. Exits
    /// 2 when a surface cannot be read, 1 when --fail-on CLASS is given and a change of
    /// that class or worse exists, else 0.
    Diff(surface::DiffArgs),
    AuthServer(auth_server::AuthServerArgs),
    /// Records a session into a cassette (JSON Lines) as a proxy: speaks MCP over stdio to the
    /// client that starts it and forwards every message to the server after `--` (or
    /// `--url`), both eras, server requests and their answers included. Secret header values
    /// are never written; ids, requestState, task ids and timestamps are marked volatile.
    Record(record::RecordArgs),
    /// Replays a cassette against a live server and reports any difference (exchange, line,
    /// JSON pointer, recorded and live values), writing the live session to
    /// CASSETTE.pending. Exits 1 on a difference, 2 when it cannot run.
    Replay(replay::ReplayArgs),
    /// Serves a cassette over stdio: a mock server answering each request with the recorded
    /// response it matches (method and params, ids and progress tokens aside, and what a
    /// client declares about itself unless --strict-match), under the live id; an unmatched
    /// request gets -32601 (method never recorded) or -32602 naming the closest recorded
    /// request and where its params differ.
    Serve(serve::ServeArgs),
    /// Measures a server under load: latency percentiles (p50/p90/p99/max) and throughput per
    /// call, errors by code, and the memory and descriptors of a server it started, at a
    /// fixed --concurrency or over a --ramp that finds the last concurrency within
    /// --max-p99 and --max-error-rate. Exits 0 within the bounds, 1 when one was broken, 2
    /// when it could not run.
    Load(load::LoadArgs),
}

/// Which tools may be called, by the classes of their annotations (`mcp_test_check::Consent`).
#[derive(Args)]
struct ConsentArgs {
    /// Do not call open-world tools: those whose `openWorldHint` is true or absent, which may
    /// reach outside this machine (a paid or rate-limited API). By default only
    /// read-only tools (`readOnlyHint: true`) are called, open-world ones included and marked.
    #[arg(long)]
    no_open_world: bool,
    /// Also call additive writes: tools not read-only with `destructiveHint: false`, which
    /// only add (a commit, a new branch) but still write.
    #[arg(long)]
    allow_writes: bool,
    /// Call every tool, even those the spec's defaults make potentially destructive (neither
    /// `readOnlyHint: true` nor `destructiveHint: false`).
    #[arg(long)]
    allow_destructive: bool,
    /// Call this tool whatever its annotations say (repeatable).
    #[arg(long = "tool", value_name = "NAME")]
    tools: Vec<String>,
}

impl ConsentArgs {
    fn consent(&self) -> Consent {
        let mut consent = Consent::default();
        consent.open_world = !self.no_open_world;
        consent.allow_writes = self.allow_writes;
        consent.allow_destructive = self.allow_destructive;
        consent.allow_tools = self.tools.clone();
        consent
    }
}

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    output: formats::OutputArgs,
    /// Only one valid case per tool and action (no boundary or negative cases).
    #[arg(long)]
    no_edge_cases: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    consent: ConsentArgs,
    /// The overall deadline in seconds, connecting included (0: none). When it passes the
    /// check stops sending, reports what ran, and exits 2 (1 if it found a defect). Closing
    /// the server afterwards takes at most --close-grace more.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    deadline: u64,
    /// Seconds a stdio server gets to exit once its stdin is closed at the end; one still
    /// running is then stopped with its process group (SIGTERM, then SIGKILL) and reported
    /// (transport/shutdown). 2 s is what the official Python and TypeScript SDK clients wait.
    #[arg(long, value_name = "SECS", default_value_t = mcp_test::client::DEFAULT_CLOSE_GRACE.as_secs())]
    close_grace: u64,
    /// How many schema cases run at once (1: one after the other, as is every other request of
    /// the check, which also names exactly the case after which a server stopped answering).
    #[arg(long, value_name = "N", default_value_t = mcp_test_check::DEFAULT_JOBS as u64,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// How many schema cases may be in flight for a server slow to answer each (a quarter of
    /// a second or more) but not slowed by more of them: one more for each case that comes back
    /// within twice the first cases' median, one fewer for each that does not, never below
    /// --jobs. --jobs 1 stays one at a time.
    #[arg(long, value_name = "N", default_value_t = mcp_test_check::DEFAULT_MAX_JOBS as u64,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    max_jobs: u64,
    /// Seconds one schema case may run (0: up to --timeout). A case still running then is
    /// cancelled and reported as a note, with its tool's later cases not sent: check is meant
    /// to finish in seconds, and each case of a slow tool would wait as long again.
    #[arg(long, value_name = "SECS", default_value_t = mcp_test_check::DEFAULT_CASE_TIME.as_secs())]
    case_time: u64,
    /// Send every schema case. By default a case is sent only when no earlier one probes the
    /// same rule the same way (the same change to a property of the same schema), and every
    /// tool's base case is sent; the report counts what was left out.
    #[arg(long)]
    all_cases: bool,
    /// After the schema cases, property tests: N cases per property for each tool (and
    /// action) the cases call, with generated valid arguments and arguments broken in exactly
    /// one place, shrunk to the smallest that fail (probe tools/properties). Same tools,
    /// --jobs and --case-time as the cases.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    properties: Option<u32>,
    #[command(flatten)]
    values: ValueArgs,
    /// Compare the defects and warnings with an expect file (JSON: `{"server", "findings":
    /// [{"severity", "probe", "clause", "contains", "why"}]}`): exit 0 when they match, 1
    /// when a finding is not listed or a listed one is missing. The comparison goes to stderr.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Write the defects and warnings found as an expect file, each new entry with an empty
    /// `why` to fill in. With --expect, the entries of that file that still match are kept.
    #[arg(long, value_name = "FILE")]
    write_expect: Option<PathBuf>,
    /// Exit 1 when a security finding of this risk or higher is found (high, medium or low).
    /// Security findings are reported in every format either way, apart from the spec's.
    #[arg(long, value_name = "LEVEL", value_parser = parse_risk)]
    fail_on_security: Option<Risk>,
    /// A surface the user approved (the JSON `mcp-test surface` writes): every description
    /// or schema of an approved tool, prompt or resource that the server now lists changed is
    /// a security finding (rug/pin-changed).
    #[arg(long, value_name = "FILE")]
    pin: Option<PathBuf>,
    #[command(flatten)]
    auth: auth_server::AuthArgs,
}

/// `--fail-on-security`: a risk.
fn parse_risk(text: &str) -> Result<Risk, String> {
    match text {
        "high" => Ok(Risk::High),
        "medium" => Ok(Risk::Medium),
        "low" => Ok(Risk::Low),
        _ => Err(format!("`{text}` is no risk: use high, medium or low")),
    }
}

/// Values to send instead of generated ones.
#[derive(Args)]
struct ValueArgs {
    /// A JSON file of values to send in every valid case, by tool and JSON pointer into the
    /// arguments: {"read_file": {"/path": "/etc/hostname"}, "*": {"/timezone": "UTC"}}. "*"
    /// applies to every tool whose input schema declares the pointer; a tool's own entry wins.
    #[arg(long, value_name = "FILE")]
    values: Option<PathBuf>,
    /// One value, as TOOL:/pointer=VALUE (repeatable; wins over --values). VALUE is JSON when
    /// it parses as JSON, else a string: read_file:/path=/etc/hostname, '*:/limit=5',
    /// 'get_note:/id="42"' (the string "42"). A value its schema rejects is an error.
    #[arg(long = "value", value_name = "TOOL:/POINTER=VALUE", value_parser = parse_assignment)]
    value: Vec<(String, String, serde_json::Value)>,
}

impl ValueArgs {
    /// The values of the file, then of each --value; an error names the file and where in it.
    fn load(&self) -> Result<Values, String> {
        let mut values = Values::new();
        if let Some(path) = &self.values {
            let file = path.display();
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--values {file}: cannot read it: {e}"))?;
            let doc: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| format!("--values {file}: not JSON: {e}"))?;
            values = values_from_json(&doc).map_err(|e| format!("--values {file}: {e}"))?;
        }
        for (tool, pointer, value) in &self.value {
            values
                .entry(tool.clone())
                .or_default()
                .insert(pointer.clone(), value.clone());
        }
        Ok(values)
    }

    /// Checks `values` against the tools of `target` before anything runs.
    async fn check(values: &Values, target: &dyn Target, timeout: Duration) -> Result<(), String> {
        if values.is_empty() {
            return Ok(());
        }
        let tools = list_tools(target, timeout)
            .await
            .map_err(|e| format!("cannot check the given values: {e}"))?;
        let mut options = CaseOptions::default();
        options.values = values.clone();
        let errors: Vec<String> = check_values(&tools, &options)
            .iter()
            .map(|e| format!("  {}", e.to_string().replace('\n', "\n  ")))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the given values cannot be used:\n{}",
                errors.join("\n")
            ))
        }
    }
}

#[derive(Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Seconds each request is waited for: the tool list, and each case --verify runs. The \
     handshake waits --connect-timeout"
)))]
struct GenerateArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// The file to write.
    #[arg(short, long)]
    output: std::path::PathBuf,
    /// Boundary and negative cases from the schema rules (otherwise one valid case per tool and
    /// action).
    #[arg(long, conflicts_with = "ai_generate")]
    edge_cases: bool,
    /// Dry-run every case first; a case the server disagrees with becomes an ignored test.
    /// Only the cases of tools the consent flags allow are run (by default read-only ones),
    /// as `check` calls them; the others are written unverified.
    #[arg(long)]
    verify: bool,
    #[command(flatten)]
    consent: ConsentArgs,
    #[command(flatten)]
    values: ValueArgs,
    #[command(flatten)]
    ai: AiArgs,
}

#[derive(Args)]
struct AiArgs {
    /// Edge cases plus cases suggested by a model behind any OpenAI-compatible endpoint
    /// (https:// or http://), each validated against the real schema.
    #[arg(long)]
    ai_generate: bool,
    /// The endpoint's base URL (default: $MCP_TEST_AI_BASE_URL, else
    /// https://api.openai.com/v1).
    #[arg(long)]
    ai_base_url: Option<String>,
    /// The model (default: $MCP_TEST_AI_MODEL).
    #[arg(long)]
    ai_model: Option<String>,
    /// The API key (default: $MCP_TEST_AI_API_KEY; not needed for a localhost URL).
    #[arg(long)]
    ai_api_key: Option<String>,
    /// Where responses are cached (default: .mcp-test-cache).
    #[arg(long)]
    ai_cache_dir: Option<std::path::PathBuf>,
    /// Neither read nor write cached responses.
    #[arg(long, conflicts_with = "ai_cache_dir")]
    no_ai_cache: bool,
    /// Ignore cached responses older than this many seconds.
    #[arg(long)]
    ai_cache_max_age: Option<u64>,
    /// Seconds to wait for each answer of the model.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    ai_timeout: u64,
    /// The most tokens the model may answer with (sent as max_tokens).
    #[arg(long, value_name = "N", default_value_t = mcp_test_check::ai::DEFAULT_MAX_TOKENS)]
    ai_max_tokens: u32,
    /// Ask for JSON mode (response_format: json_object); retried without it on a 400 that
    /// names it. `--ai-strict-json false` never sends it.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    ai_strict_json: bool,
    /// A CA certificate (PEM) to trust for an https:// model endpoint, beside the webpki roots.
    #[arg(long, value_name = "FILE")]
    ai_ca_cert: Option<PathBuf>,
    /// Fail instead of falling back to the rules engine when the model is not configured or
    /// does not answer.
    #[arg(long, requires = "ai_generate")]
    require_ai: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-test: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let code = runtime.block_on(async {
        let run = async {
            match cli.command {
                Command::Check(args) => run_check(args).await,
                Command::Generate(args) => run_generate(args).await,
                Command::Adhoc(command) => adhoc::run(command).await,
                Command::Coverage(args) => coverage::run(args),
                Command::Surface(args) => surface::run_surface(args).await,
                Command::Diff(args) => surface::run_diff(args).await,
                Command::AuthServer(args) => auth_server::run(args).await,
                Command::Record(args) => record::run(args).await,
                Command::Replay(args) => replay::run(args).await,
                Command::Serve(args) => serve::run(args).await,
                Command::Load(args) => load::run(args).await,
            }
        };
        // A stdio server runs in a process group of its own, out of reach of the terminal's
        // Ctrl-C: on SIGINT the run is dropped, and with it the client, which ends the
        // server's group.
        tokio::select! {
            code = run => code,
            _ = tokio::signal::ctrl_c() => {
                eprintln!("mcp-test: interrupted; the server was stopped");
                ExitCode::from(130)
            }
        }
    });
    // A stdio child that ignores its closed stdin must not keep us alive.
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}

/// Why `mcp-test generate` wrote nothing.
#[derive(Debug, thiserror::Error)]
enum GenerateError {
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error("{0}")]
    Values(String),
    #[error(transparent)]
    Generate(#[from] generate::GenerateError),
    #[error("--ai-ca-cert: {0}")]
    AiCaCert(#[source] ClientError),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

async fn run_check(mut args: CheckArgs) -> ExitCode {
    let started = Instant::now();
    let progress = !args.quiet;
    let values = match args.values.load() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("mcp-test: {e}");
            return ExitCode::from(2);
        }
    };
    // A bad expect file is found before the server is started.
    let expected = match args.expect.as_deref().map(Expectations::load).transpose() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("mcp-test: --expect: {e}");
            return ExitCode::from(2);
        }
    };
    // So is a bad pin.
    let pin = match args.pin.as_deref().map(load_pin).transpose() {
        Ok(pin) => pin,
        Err(e) => {
            eprintln!("mcp-test: --pin {e}");
            return ExitCode::from(2);
        }
    };
    let auth_issuer = match args.auth.prepare(&mut args.target).await {
        Ok(issuer) => issuer,
        Err(e) => {
            eprintln!("mcp-test: {e}");
            return ExitCode::from(2);
        }
    };
    let deadline = (args.deadline > 0).then(|| Duration::from_secs(args.deadline));
    // The connections of its own that the check opens over stdio (one for the probes that
    // must not spoil the session, one for the 2025-11-25 side of a server that serves both)
    // find a process started beside the first: a server that takes a second to start costs
    // that second about once.
    let spares = open::prespawn(
        &args.target,
        if args.target.era.0.is_some() { 1 } else { 2 },
    )
    .await;
    let opening = open(&args.target, progress);
    let opened = match deadline {
        None => opening.await,
        Some(deadline) => match tokio::time::timeout(deadline, opening).await {
            Ok(opened) => opened,
            Err(_) => Err(OpenError::Deadline {
                target: target_label(&args.target),
                after: deadline,
            }),
        },
    };
    let opened = match opened {
        Ok(o) => o,
        Err(OpenError::Handshake {
            source:
                TargetError::Client(ClientError::Unauthorized {
                    url,
                    www_authenticate,
                    resource_metadata,
                }),
            ..
        }) => {
            // Not the server's fault: say so, and validate the metadata it points to.
            let options = http_options(&args.target).unwrap_or_default();
            let timeout = Duration::from_secs(args.target.timeout.max(1));
            let report = check_unauthorized(
                &url,
                &options,
                www_authenticate.as_deref(),
                resource_metadata.as_deref(),
                timeout,
            )
            .await;
            eprintln!(
                "mcp-test: cannot check: {}",
                report
                    .incomplete
                    .as_deref()
                    .unwrap_or("needs authorization")
            );
            if let Err(e) = formats::emit(
                &report,
                args.format,
                &args.output,
                &args.target.command,
                true,
            ) {
                eprintln!("mcp-test: {e}");
                return ExitCode::from(2);
            }
            return ExitCode::from(report.exit_code());
        }
        Err(e) => {
            eprintln!("mcp-test: cannot connect: {e}");
            let mut report = CheckReport::not_checked(
                target_label(&args.target),
                format!("cannot connect: {e}"),
            );
            if args.target.url.is_some() || !args.target.command.is_empty() {
                let connect = connect_timeout(args.target.connect_timeout, &args.target.command);
                report.connect_timeout = Some(connect.to_string());
            }
            // The text format says it on stderr only, as above; the files asked for are
            // written all the same, so CI sees why there are no findings.
            let print = !matches!(args.format, Format::Text);
            if let Err(e) = formats::emit(
                &report,
                args.format,
                &args.output,
                &args.target.command,
                print,
            ) {
                eprintln!("mcp-test: {e}");
                return ExitCode::from(2);
            }
            return ExitCode::from(report.exit_code());
        }
    };
    let timeout = Duration::from_secs(args.target.timeout.max(1));
    if let Err(e) = ValueArgs::check(&values, opened.target(), timeout).await {
        eprintln!("mcp-test: {e}");
        opened.close().await;
        return ExitCode::from(2);
    }
    let mut cases = CaseOptions::default().edge_cases(!args.no_edge_cases);
    cases.values = values;
    let options = CheckOptions::default()
        .cases(cases)
        .timeout(timeout)
        .open_world(!args.consent.no_open_world)
        .allow_writes(args.consent.allow_writes)
        .allow_destructive(args.consent.allow_destructive)
        .allow_tools(args.consent.tools.iter().cloned())
        // What connecting left of the deadline.
        .deadline(deadline.map(|d| d.saturating_sub(started.elapsed())))
        .close_grace(Duration::from_secs(args.close_grace))
        .jobs(usize::try_from(args.jobs).unwrap_or(1))
        .max_jobs(usize::try_from(args.max_jobs).unwrap_or(1))
        .case_time((args.case_time > 0).then(|| Duration::from_secs(args.case_time)))
        .properties(args.properties)
        .all_cases(args.all_cases)
        .auth_issuer(auth_issuer)
        .pin(pin)
        // A connection of its own for what must not spoil the session, and for a server's
        // other era.
        .reconnect(open::reconnect(&args.target, spares.clone()).ok())
        // Which request is still awaited, every few seconds, on stderr.
        .on_waiting(progress.then_some(|line: &str| eprintln!("mcp-test: {line}")));
    let mut on_progress = |line: &str| {
        if progress {
            eprintln!("mcp-test: {line}");
        }
    };
    let mut report = match &opened.served {
        Served::Remote(connected) => {
            check_connected_with_progress(connected, &options, &mut on_progress).await
        }
        Served::InProcess(server) => check_with_progress(server, &options, &mut on_progress).await,
    };
    spares.close().await;
    report.connect_timeout = opened.connect.as_ref().map(ToString::to_string);
    if let Some(why) = &report.incomplete
        && progress
    {
        eprintln!("mcp-test: incomplete: {why}");
    }
    if let Err(e) = formats::emit(
        &report,
        args.format,
        &args.output,
        &args.target.command,
        true,
    ) {
        eprintln!("mcp-test: {e}");
        return ExitCode::from(2);
    }
    // A `--tool` that names no listed tool called nothing: most likely a typo.
    if !report.tools.is_empty() {
        for name in &args.consent.tools {
            if !report.tools.iter().any(|t| &t.name == name) {
                eprintln!(
                    "mcp-test: --tool {name}: the server lists no tool of that name, so it was not called"
                );
            }
        }
    }
    if let Some(path) = &args.write_expect {
        let written = Expectations::from_report(&report, expected.as_ref());
        if let Err(e) = written.write(path) {
            eprintln!("mcp-test: --write-expect: {e}");
            return ExitCode::from(2);
        }
        eprintln!(
            "mcp-test: wrote {} ({} entries; fill in each empty `why`)",
            path.display(),
            written.findings.len()
        );
    }
    if let (Some(expected), Some(path)) = (&expected, &args.expect) {
        let comparison = expected.compare(&report);
        eprint!(
            "mcp-test: --expect {}:\n{}",
            path.display(),
            comparison.to_text()
        );
        // A check cut short proves nothing either way.
        return ExitCode::from(if report.cut_short().is_some() {
            2
        } else if comparison.matches() {
            0
        } else {
            1
        });
    }
    let security_fails = args
        .fail_on_security
        .is_some_and(|level| report.fails_on_security(level));
    ExitCode::from(if security_fails {
        report.exit_code().max(1)
    } else {
        report.exit_code()
    })
}

/// Reads a pinned surface: `FILE: why` when it is none.
fn load_pin(path: &std::path::Path) -> Result<mcp_test::surface::Surface, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    mcp_test::surface::Surface::from_text(&text).map_err(|e| format!("{}: {e}", path.display()))
}

async fn run_generate(args: GenerateArgs) -> ExitCode {
    match generate(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-test generate: {e}");
            ExitCode::from(1)
        }
    }
}

async fn generate(args: GenerateArgs) -> Result<(), GenerateError> {
    let values = args.values.load().map_err(GenerateError::Values)?;
    let ai = if args.ai.ai_generate {
        let mut options = AiOptions::from_env(
            args.ai.ai_base_url.clone(),
            args.ai.ai_model.clone(),
            args.ai.ai_api_key.clone(),
        )
        .cache_max_age(args.ai.ai_cache_max_age.map(Duration::from_secs))
        .timeout(Duration::from_secs(args.ai.ai_timeout.max(1)))
        .max_tokens(args.ai.ai_max_tokens)
        .strict_json(args.ai.ai_strict_json);
        if args.ai.no_ai_cache {
            options = options.cache_dir(None);
        } else if let Some(dir) = &args.ai.ai_cache_dir {
            options = options.cache_dir(Some(dir.clone()));
        }
        if let Some(path) = &args.ai.ai_ca_cert {
            options = options.http(
                HttpOptions::new()
                    .ca_cert_file(path)
                    .map_err(GenerateError::AiCaCert)?,
            );
        }
        Some(AiGenerate::new(options).required(args.ai.require_ai))
    } else {
        None
    };
    let opened = open(&args.target, true).await?;
    let target = opened.target();
    let mut cases = CaseOptions::default().edge_cases(args.edge_cases);
    cases.values = values;
    let config = GenerateConfig::new(opened.source.clone(), target.label())
        .cases(cases)
        .verify(args.verify)
        .consent(args.consent.consent())
        .timeout(Duration::from_secs(args.target.timeout.max(1)))
        .ai(ai);
    let generated =
        generate_tests(target, &config, &mut |line| eprintln!("mcp-test: {line}")).await;
    opened.close().await;
    let generated = generated?;
    for warning in &generated.warnings {
        eprintln!("mcp-test: warning: {warning}");
    }
    if let Some(suggested) = &generated.suggested {
        eprintln!(
            "mcp-test: AI suggested cases: {}, kept after schema validation: {} (dropped {})",
            suggested.proposed,
            suggested.cases.len(),
            suggested.dropped
        );
    }
    eprintln!(
        "mcp-test: {} cases from {} tools",
        generated.cases, generated.tools
    );
    for tool in &generated.not_verified {
        eprintln!("mcp-test: verify: not run (no consent): {tool}");
    }
    if let Some(bad) = generated.disagreements {
        eprintln!(
            "mcp-test: verify: {} of {} predictions hold; {bad} disagreeing cases become ignored tests",
            generated.cases - bad,
            generated.cases
        );
    }
    std::fs::write(&args.output, &generated.text).map_err(|source| GenerateError::Write {
        path: args.output.clone(),
        source,
    })?;
    eprintln!("mcp-test: wrote {}", args.output.display());
    Ok(())
}
