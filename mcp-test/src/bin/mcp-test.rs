//! `mcp-test`: check any MCP server, or generate Rust tests for it.
//!
//! ```text
//! mcp-test check [--url URL | -- CMD ARGS...] [--format text|json|junit]
//! mcp-test generate [--edge-cases] [--verify] -o FILE [--url URL | -- CMD ARGS...]
//! ```
//!
//! Without a target, both work on the bundled example server, in process.

use clap::{Args, Parser, Subcommand, ValueEnum};
use mcp_test::cases::ai::{self, AiError, AiOptions};
use mcp_test::cases::generate::{GenerateOptions, ServerSource, render};
use mcp_test::cases::{
    CaseOptions, CheckOptions, Connected, ListToolsError, check::check_with_progress,
    derive_for_tools, example_server, list_tools, verify_with,
};
use mcp_test::client::{Client, ClientError};
use mcp_test::target::{Target, TargetError};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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
    /// severity. Exits 1 on any defect, 2 when the server could not be reached. Without a
    /// target, checks the bundled example server.
    Check(CheckArgs),
    /// Writes a Rust test file with the schema-derived cases of a server.
    Generate(GenerateArgs),
}

#[derive(Args)]
struct TargetArgs {
    /// A Streamable HTTP server, e.g. http://127.0.0.1:8080/mcp.
    #[arg(long, conflicts_with = "command")]
    url: Option<String>,
    /// Per-call timeout in seconds: a call that takes longer is reported, not waited on.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// Seconds to wait for the first answer (a `npx -y ...` server installs itself first).
    #[arg(long, default_value_t = 300)]
    connect_timeout: u64,
    /// A stdio server: the program and its arguments, after `--`.
    #[arg(last = true, value_name = "CMD ARGS")]
    command: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
}

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Only one valid case per tool and action (no boundary or negative cases).
    #[arg(long)]
    no_edge_cases: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// Call every tool, even those not annotated `readOnlyHint: true` or
    /// `destructiveHint: false` (by the spec's defaults potentially destructive), which are
    /// otherwise not called.
    #[arg(long)]
    allow_destructive: bool,
    /// Call this potentially destructive tool (repeatable).
    #[arg(long = "tool", value_name = "NAME")]
    tools: Vec<String>,
}

#[derive(Args)]
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
    #[arg(long)]
    verify: bool,
    #[command(flatten)]
    ai: AiArgs,
}

#[derive(Args)]
struct AiArgs {
    /// Edge cases plus cases suggested by a model behind any OpenAI-compatible endpoint,
    /// each validated against the real schema.
    #[arg(long)]
    ai_generate: bool,
    /// The endpoint's base URL (default: $MCP_TEST_AI_BASE_URL).
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
        match cli.command {
            Command::Check(args) => run_check(args).await,
            Command::Generate(args) => run_generate(args).await,
        }
    });
    // A stdio child that ignores its closed stdin must not keep us alive.
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}

/// Why the server could not be reached.
#[derive(Debug, thiserror::Error)]
enum OpenError {
    /// The client could not be made: a bad URL, a program that does not start.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The server did not answer the handshake.
    #[error("{target}: {source}")]
    Handshake {
        /// The URL, or the command line in backquotes.
        target: String,
        /// What the client said.
        source: TargetError,
    },
}

/// Why `mcp-test generate` wrote nothing.
#[derive(Debug, thiserror::Error)]
enum GenerateError {
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error(transparent)]
    ListTools(#[from] ListToolsError),
    #[error("--require-ai: {0}")]
    RequireAi(#[source] AiError),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The server to talk to, and what to close afterwards.
struct Opened {
    target: Box<dyn Target>,
    client: Option<Client>,
    source: ServerSource,
}

async fn open(args: &TargetArgs, progress: bool) -> Result<Opened, OpenError> {
    // The client waits up to the connect timeout; each call of the check is bounded by
    // `--timeout` on top of that.
    let timeout = Duration::from_secs(args.connect_timeout.max(args.timeout).max(1));
    let note = |s: &str| {
        if progress {
            eprintln!("mcp-test: {s}");
        }
    };
    if let Some(url) = &args.url {
        note(&format!("connecting to {url}"));
        let client = Client::http(url)?
            .with_timeout(timeout)
            .with_capabilities(serde_json::json!({}));
        let connected = Connected::probe(client.clone(), url.clone())
            .await
            .map_err(|source| OpenError::Handshake {
                target: url.clone(),
                source,
            })?;
        note(&format!("protocol era: {}", connected.era));
        return Ok(Opened {
            target: Box::new(connected),
            client: Some(client),
            source: ServerSource::Url(url.clone()),
        });
    }
    if let Some((program, rest)) = args.command.split_first() {
        let label = args.command.join(" ");
        note(&format!("starting `{label}`"));
        let mut command = tokio::process::Command::new(program);
        command.args(rest);
        // The handshake declares no client capabilities, and the checker's requests declare
        // their own: none for the schema cases, every one when it drives a tool that asks.
        let client = Client::spawn(command)
            .await?
            .with_timeout(timeout)
            .with_capabilities(serde_json::json!({}));
        let connected = Connected::probe(client.clone(), label.clone())
            .await
            .map_err(|source| OpenError::Handshake {
                target: format!("`{label}`"),
                source,
            })?;
        note(&format!("protocol era: {}", connected.era));
        return Ok(Opened {
            target: Box::new(connected),
            client: Some(client),
            source: ServerSource::Command(args.command.clone()),
        });
    }
    note("no target given: checking the bundled example server in process");
    Ok(Opened {
        target: Box::new(example_server()),
        client: None,
        source: ServerSource::Example,
    })
}

async fn run_check(args: CheckArgs) -> ExitCode {
    let progress = !args.quiet;
    let opened = match open(&args.target, progress).await {
        Ok(o) => o,
        Err(e) => {
            eprintln!("mcp-test: cannot connect: {e}");
            return ExitCode::from(2);
        }
    };
    let options = CheckOptions {
        cases: CaseOptions {
            edge_cases: !args.no_edge_cases,
            ..CaseOptions::default()
        },
        timeout: Duration::from_secs(args.target.timeout.max(1)),
        allow_destructive: args.allow_destructive,
        allow_tools: args.tools.clone(),
    };
    let mut on_progress = |line: &str| {
        if progress {
            eprintln!("mcp-test: {line}");
        }
    };
    let report = check_with_progress(opened.target.as_ref(), &options, &mut on_progress).await;
    if let Some(client) = &opened.client {
        let _ = client.close().await;
    }
    let text = match args.format {
        Format::Text => report.to_text(),
        Format::Json => serde_json::to_string_pretty(&report.to_json()).unwrap_or_default() + "\n",
        Format::Junit => report.to_junit(),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    if report.has_defects() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
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
    let opened = open(&args.target, true).await?;
    let timeout = Duration::from_secs(args.target.timeout.max(1));
    let target = opened.target.as_ref();
    let tools = list_tools(target, timeout).await?;
    let options = CaseOptions {
        edge_cases: args.edge_cases || args.ai.ai_generate,
        ..CaseOptions::default()
    };
    let (mut cases, problems) = derive_for_tools(&tools, &options);
    for p in &problems {
        eprintln!("mcp-test: warning: {p}");
    }
    if args.ai.ai_generate {
        let mut ai_options = AiOptions::from_env(
            args.ai.ai_base_url.clone(),
            args.ai.ai_model.clone(),
            args.ai.ai_api_key.clone(),
        )
        .cache_max_age(args.ai.ai_cache_max_age.map(Duration::from_secs));
        if args.ai.no_ai_cache {
            ai_options = ai_options.cache_dir(None);
        } else if let Some(dir) = &args.ai.ai_cache_dir {
            ai_options = ai_options.cache_dir(Some(dir.clone()));
        }
        match ai::suggest(&ai_options, &target.label(), &tools).await {
            Ok(suggested) => {
                eprintln!(
                    "mcp-test: AI suggested cases: {}, kept after schema validation: {} (dropped {})",
                    suggested.proposed,
                    suggested.cases.len(),
                    suggested.dropped
                );
                cases.extend(suggested.cases);
            }
            Err(e) if args.ai.require_ai => return Err(GenerateError::RequireAi(e)),
            Err(e) => eprintln!("mcp-test: warning: {e}; using the rules engine only"),
        }
    }
    eprintln!("mcp-test: {} cases from {} tools", cases.len(), tools.len());
    let outcomes = if args.verify {
        let report = verify_with(target, &cases, timeout).await;
        let bad = report.disagreements().count();
        eprintln!(
            "mcp-test: verify: {} of {} predictions hold; {bad} disagreeing cases become ignored tests",
            report.outcomes.len() - bad,
            report.outcomes.len()
        );
        Some(report.outcomes)
    } else {
        None
    };
    if let Some(client) = &opened.client {
        let _ = client.close().await;
    }
    let text = render(
        &cases,
        outcomes.as_deref(),
        &GenerateOptions {
            source: opened.source,
            label: target.label(),
        },
    );
    std::fs::write(&args.output, text).map_err(|source| GenerateError::Write {
        path: args.output.clone(),
        source,
    })?;
    eprintln!("mcp-test: wrote {}", args.output.display());
    Ok(())
}
