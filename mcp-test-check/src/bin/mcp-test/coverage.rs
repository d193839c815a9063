//! `mcp-test coverage [DIR]`: the MCP coverage of a test suite, from the files its processes
//! recorded with `MCP_TEST_COVERAGE=DIR` (`mcp_test::testing::coverage`).

use clap::{Args, ValueEnum};
use mcp_test::testing::coverage::{ENV, report::Coverage};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(super) struct CoverageArgs {
    /// The directory the tests recorded to; default: $MCP_TEST_COVERAGE.
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also write the JSON report to FILE (for CI), whatever --format prints.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write the HTML page (a map of the items by outcome, and their tables) to FILE,
    /// whatever --format prints.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Print only the uncovered rows (the summaries still count every row).
    #[arg(long)]
    uncovered: bool,
    /// Exit 1 when less than PCT percent of the items (tools without actions, actions,
    /// resources, templates, prompts, completion references) are covered.
    #[arg(long, value_name = "PCT", value_parser = percent)]
    fail_under: Option<f64>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

fn percent(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("expected a percentage from 0 to 100, got {text:?}")),
    }
}

/// Prints the report. Exits 2 when the recordings cannot be read (naming the directory, or
/// the file and line), 1 when --fail-under is not met, else 0.
pub(super) fn run(args: CoverageArgs) -> ExitCode {
    let fail = |e: &dyn std::fmt::Display| {
        eprintln!("mcp-test coverage: {e}");
        ExitCode::from(2)
    };
    let dir = match args
        .dir
        .or_else(|| std::env::var_os(ENV).map(PathBuf::from))
    {
        Some(dir) => dir,
        None => {
            return fail(&format!(
                "no directory: give DIR, or set {ENV} to the directory the tests recorded to"
            ));
        }
    };
    let mut coverage = match Coverage::load(&dir) {
        Ok(coverage) => coverage,
        Err(e) => return fail(&e),
    };
    let summary = coverage.summary();
    if let Some(file) = &args.json {
        let text = serde_json::to_string_pretty(&coverage.to_json()).unwrap_or_default() + "\n";
        if let Err(e) = std::fs::write(file, text) {
            return fail(&format!("cannot write --json {}: {e}", file.display()));
        }
    }
    if let Some(file) = &args.html {
        let page = mcp_test_check::html::coverage_html(&coverage.to_json());
        if let Err(e) = std::fs::write(file, page) {
            return fail(&format!("cannot write --html {}: {e}", file.display()));
        }
    }
    if args.uncovered {
        coverage.retain_uncovered();
    }
    let out = match args.format {
        Format::Text => coverage.to_text(),
        Format::Json => {
            serde_json::to_string_pretty(&coverage.to_json()).unwrap_or_default() + "\n"
        }
        Format::Html => mcp_test_check::html::coverage_html(&coverage.to_json()),
    };
    // A closed stdout (`| head`) is not an error of the report.
    let _ = std::io::stdout().write_all(out.as_bytes());
    // Nothing to cover reads as 100 %: a suite that recorded nothing (the variable not set
    // where the tests ran, the wrong directory) must not meet --fail-under.
    if summary.items().total == 0 {
        eprintln!(
            "mcp-test coverage: no MCP tool, resource, template or prompt was recorded in {}: nothing was covered (were the tests run with {ENV} set to this directory?)",
            dir.display()
        );
        if args.fail_under.is_some() {
            return ExitCode::from(1);
        }
    }
    match args.fail_under {
        Some(pct) if summary.items().percent() < pct => {
            eprintln!(
                "mcp-test coverage: {} of the items covered, under --fail-under {pct}%",
                summary.items()
            );
            ExitCode::from(1)
        }
        _ => ExitCode::SUCCESS,
    }
}
