//! `mcp-test load TARGET`: latency and throughput of a server under concurrency, over the
//! engine of `mcp_test_check::load`.
//!
//! Exit codes: 0 when every step kept within the bounds; 1 when a bound was broken (a fixed
//! run's p99 or error rate; a ramp whose first step already broke one); 2 when it could not
//! run (a bad flag or scenario file, a server that cannot be reached, no tool to call).

use super::open::{OpenError, Served, Spares, TargetArgs, open, reconnect};
use clap::{Args, ValueEnum};
use mcp_test::cases::list_tools;
use mcp_test_check::Consent;
use mcp_test_check::load::{self, Connections, LoadOptions, Pool, Scenario};
use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args)]
pub(super) struct LoadArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// A scenario file (JSON): `{"calls": [{"tool": NAME, "arguments": {..}, "weight": N},
    /// {"method": M, "params": {..}}]}`. Without it, each read-only tool is called with its
    /// base case (the consent flags move the line, as for `check`).
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    /// How long each step runs, e.g. 10s, 500ms, 2m (default 10s unless --requests is given).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    duration: Option<Duration>,
    /// How many requests each step sends (with --duration: whichever ends first).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    requests: Option<u64>,
    /// How many clients send at once.
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "ramp",
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    concurrency: u64,
    /// A ramp of concurrencies, each a step: a list (1,2,4,8) or START:STEP:MAX, adding STEP
    /// (4:4:32) or multiplying by it (1:x2:64). The ramp stops at the first step that breaks
    /// a bound and reports the last concurrency within them.
    #[arg(long, value_name = "LIST|START:STEP:MAX", value_parser = parse_ramp)]
    ramp: Option<Ramp>,
    /// How the clients reach the server: a number of connections they share (1, the default
    /// for a command: one process takes every request pipelined), or `per-client` (the
    /// default for --url: one HTTP session, or one process, a client).
    #[arg(long, value_name = "N|per-client", value_parser = parse_connections)]
    connections: Option<Connections>,
    /// A step whose p99 latency is above this many milliseconds breaks its bound.
    #[arg(long, value_name = "MS")]
    max_p99: Option<f64>,
    /// A step whose errors (JSON-RPC errors, isError results, transport failures) are more
    /// than this fraction of its requests breaks its bound.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0)]
    max_error_rate: f64,
    /// The longest the whole run may take, whatever else says.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "600s")]
    max_duration: Duration,
    /// The length of an interval of the time series (and of the progress line).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "1s")]
    interval: Duration,
    /// Also sample this process's memory and descriptors (an HTTP server's; repeatable).
    #[arg(long = "pid", value_name = "PID")]
    pids: Vec<u32>,
    /// Output format (html: one self-contained page with charts of the run).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also write the HTML page to FILE, whatever --format prints.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// A progress line on stderr each interval, even when stderr is not a terminal.
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// Do not call open-world tools (default scenario only).
    #[arg(long)]
    no_open_world: bool,
    /// Also call additive writes (default scenario only).
    #[arg(long)]
    allow_writes: bool,
    /// Call every tool, even potentially destructive ones (default scenario only).
    #[arg(long)]
    allow_destructive: bool,
    /// Call this tool whatever its annotations say (repeatable; default scenario only).
    #[arg(long = "tool", value_name = "NAME")]
    tools: Vec<String>,
    /// Seconds each stdio server gets to exit once its stdin is closed at the end.
    #[arg(long, value_name = "SECS", default_value_t = 2)]
    close_grace: u64,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

/// The concurrencies of `--ramp`.
#[derive(Clone, Debug)]
struct Ramp(Vec<usize>);

/// The most steps a ramp may have.
const MAX_STEPS: usize = 64;
/// The highest concurrency.
const MAX_CONCURRENCY: usize = 10_000;

fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .map_or((text, "s"), |at| text.split_at(at));
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is no duration: write e.g. 10s, 500ms, 2m"))?;
    let secs = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(format!("`{text}`: unknown unit `{unit}` (ms, s, m or h)")),
    };
    if !(secs > 0.0 && secs <= 7.0 * 86_400.0) {
        return Err(format!(
            "`{text}`: a duration is above 0 and at most a week"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn parse_ramp(text: &str) -> Result<Ramp, String> {
    let number = |s: &str| -> Result<usize, String> {
        match s.trim().parse::<usize>() {
            Ok(n @ 1..=MAX_CONCURRENCY) => Ok(n),
            _ => Err(format!(
                "`{s}` in `{text}` is no concurrency (a whole number from 1 to {MAX_CONCURRENCY})"
            )),
        }
    };
    let steps = if let [start, step, max] = text.split(':').collect::<Vec<_>>()[..] {
        let (start, max) = (number(start)?, number(max)?);
        let (times, by) = match step.trim().strip_prefix('x') {
            Some(factor) => (true, number(factor)?),
            None => (false, number(step)?),
        };
        if times && by < 2 {
            return Err(format!("`{text}`: a factor is 2 or more"));
        }
        let mut steps = vec![start];
        let mut at = start;
        while steps.len() < MAX_STEPS {
            at = if times { at * by } else { at + by };
            if at > max {
                break;
            }
            steps.push(at);
        }
        steps
    } else {
        text.split(',').map(number).collect::<Result<Vec<_>, _>>()?
    };
    if steps.len() > MAX_STEPS {
        return Err(format!("`{text}`: at most {MAX_STEPS} steps"));
    }
    Ok(Ramp(steps))
}

fn parse_connections(text: &str) -> Result<Connections, String> {
    if text == "per-client" {
        return Ok(Connections::PerClient);
    }
    match text.parse::<usize>() {
        Ok(n @ 1..=MAX_CONCURRENCY) => Ok(Connections::Shared(n)),
        _ => Err(format!(
            "`{text}`: a number of connections from 1 to {MAX_CONCURRENCY}, or per-client"
        )),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("mcp-test load: {message}");
    ExitCode::from(2)
}

pub(super) async fn run(args: LoadArgs) -> ExitCode {
    if args.target.url.is_none() && args.target.command.is_empty() {
        return fail("name the server: --url URL, or -- CMD ARGS...");
    }
    if !(0.0..=1.0).contains(&args.max_error_rate) {
        return fail("--max-error-rate is a fraction from 0 to 1");
    }
    if let Some(ms) = args.max_p99
        && !(ms > 0.0 && ms.is_finite())
    {
        return fail("--max-p99 is a number of milliseconds above 0");
    }
    let scenario = match &args.scenario {
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => return fail(&format!("--scenario {}: {e}", path.display())),
            };
            match Scenario::from_json(&text, &path.display().to_string()) {
                Ok(scenario) => Some(scenario),
                Err(e) => return fail(&e.to_string()),
            }
        }
        None => None,
    };
    let notes = !args.quiet && (args.progress || std::io::stderr().is_terminal());
    let opened = match open(&args.target, notes).await {
        Ok(opened) => opened,
        Err(e) => return fail(&open_error(&e)),
    };
    let Served::Remote(connected) = opened.served else {
        return fail("name the server: --url URL, or -- CMD ARGS...");
    };
    let timeout = Duration::from_secs(args.target.timeout.max(1));
    let grace = Duration::from_secs(args.close_grace);
    let (scenario, skipped) = match scenario {
        Some(scenario) => (scenario, Vec::new()),
        None => match list_tools(&connected, timeout).await {
            Ok(tools) => {
                let mut consent = Consent::default();
                consent.open_world = !args.no_open_world;
                consent.allow_writes = args.allow_writes;
                consent.allow_destructive = args.allow_destructive;
                consent.allow_tools.clone_from(&args.tools);
                Scenario::from_tools(&tools, &consent)
            }
            Err(e) => {
                let _ = connected.client.close_within(grace).await;
                return fail(&format!("tools/list: {e}"));
            }
        },
    };
    if scenario.calls.is_empty() {
        let _ = connected.client.close_within(grace).await;
        let held: Vec<String> = skipped
            .iter()
            .map(|s| format!("  {}: {}", s.tool, s.why))
            .collect();
        return fail(&format!(
            "no tool to call (give --scenario FILE, or --tool NAME){}{}",
            if held.is_empty() { "" } else { ":\n" },
            held.join("\n")
        ));
    }
    let connections = args.connections.unwrap_or(if args.target.url.is_some() {
        Connections::PerClient
    } else {
        Connections::Shared(1)
    });
    let mut options = LoadOptions::default();
    options.scenario = scenario;
    options.steps = match &args.ramp {
        Some(Ramp(steps)) => steps.clone(),
        None => vec![usize::try_from(args.concurrency).unwrap_or(1)],
    };
    options.requests = args.requests;
    options.duration = match (args.duration, args.requests) {
        (None, None) => Some(Duration::from_secs(10)),
        (d, _) => d,
    };
    options.max_duration = args.max_duration;
    options.timeout = timeout;
    options.max_p99 = args.max_p99.map(|ms| Duration::from_secs_f64(ms / 1000.0));
    options.max_error_rate = args.max_error_rate;
    options.connections = connections;
    options.interval = args.interval.max(Duration::from_millis(10));
    options.pids.clone_from(&args.pids);
    let more = match reconnect(&args.target, Spares::default()) {
        Ok(more) => Some(more),
        Err(e) => {
            let _ = connected.client.close_within(grace).await;
            return fail(&e.to_string());
        }
    };
    let pool = Pool::new(connected, more);
    let progress = |line: &str| {
        if notes {
            eprintln!("mcp-test load: {line}");
        }
    };
    let outcome = load::run(&pool, &options, &progress).await;
    pool.close(grace).await;
    let mut report = match outcome {
        Ok(report) => report,
        Err(e) => return fail(&e.to_string()),
    };
    report.skipped = skipped;
    let text = match args.format {
        Format::Text => report.to_text(),
        Format::Json => match serde_json::to_string_pretty(&report) {
            Ok(json) => json + "\n",
            Err(e) => return fail(&format!("the report does not serialize: {e}")),
        },
        Format::Html => report.to_html(),
    };
    if let Some(path) = &args.html
        && let Err(e) = std::fs::write(path, report.to_html())
    {
        return fail(&format!("cannot write --html {}: {e}", path.display()));
    }
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).is_err() {
        return ExitCode::from(2);
    }
    if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn open_error(e: &OpenError) -> String {
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_their_units() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("ten").unwrap_err().contains("ten"));
        assert!(parse_duration("5d").unwrap_err().contains("unknown unit"));
    }

    #[test]
    fn ramps_are_lists_or_start_step_max() {
        assert_eq!(parse_ramp("1,2,4").unwrap().0, [1, 2, 4]);
        assert_eq!(parse_ramp("4:4:16").unwrap().0, [4, 8, 12, 16]);
        assert_eq!(parse_ramp("1:x2:64").unwrap().0, [1, 2, 4, 8, 16, 32, 64]);
        assert!(parse_ramp("1,0").unwrap_err().contains("`0`"));
        assert!(parse_ramp("1:x1:8").unwrap_err().contains("factor"));
        assert_eq!(parse_connections("per-client"), Ok(Connections::PerClient));
        assert_eq!(parse_connections("4"), Ok(Connections::Shared(4)));
        assert!(parse_connections("0").is_err());
    }
}
