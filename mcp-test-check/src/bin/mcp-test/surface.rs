//! `mcp-test surface [TARGET]`: a server's surface as JSON (`mcp_test::surface::Surface`);
//! `mcp-test diff OLD [NEW | TARGET]`: the classed drift between two surfaces, a CI gate with
//! `--fail-on`.
//!
//! Exit codes of `diff`: 2 when a surface cannot be read (a file that is not there, not JSON,
//! or of the wrong shape: the message names the file and the line or JSON pointer; a target
//! that cannot be reached); else 1 when `--fail-on CLASS` is given and a change of that
//! class or worse exists; else 0.

use super::open::{TargetArgs, open};
use clap::{Args, ValueEnum};
use mcp_test::surface::{Class, Drift, Surface, diff};
use mcp_test_check::html::drift_html;
use mcp_test_check::sarif::{Artifact, drift_to_sarif};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The `--timeout` of `surface` and of `diff` with a target.
const FETCH_TIMEOUT_HELP: &str = "Seconds each list request (every page of tools, resources, \
    templates and prompts) is waited for; one that takes longer fails the command (exit 2). \
    The handshake waits --connect-timeout";

#[derive(Args)]
#[command(mut_arg("timeout", |a| a.help(FETCH_TIMEOUT_HELP)))]
pub(super) struct SurfaceArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
#[command(mut_arg("timeout", |a| a.help(FETCH_TIMEOUT_HELP)))]
pub(super) struct DiffArgs {
    /// The surface before: a file `mcp-test surface` wrote (or any JSON object with tools,
    /// resources, resourceTemplates, prompts and capabilities).
    #[arg(value_name = "OLD")]
    old: PathBuf,
    /// The surface after, a file. Without it, the surface of the target (--url URL or
    /// -- CMD ARGS; the bundled example server when neither is given).
    #[arg(value_name = "NEW", conflicts_with_all = ["url", "command"])]
    new: Option<PathBuf>,
    /// Exit 1 when a change of this class or worse exists (breaking: only breaking ones;
    /// additive: additive or breaking ones).
    #[arg(long, value_enum, value_name = "CLASS")]
    fail_on: Option<FailOn>,
    /// Output format: markdown is fit for a pull-request comment, sarif for code scanning
    /// (a result per change, located at its item's line in OLD), html for a browser.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also write the HTML page to FILE, whatever --format prints.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Also write the SARIF log to FILE, whatever --format prints.
    #[arg(long, value_name = "FILE")]
    sarif: Option<PathBuf>,
    #[command(flatten)]
    target: TargetArgs,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Breaking,
    Additive,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Markdown,
    Sarif,
    Html,
}

/// Prints the target's surface as JSON. Exits 2 when it cannot be read, else 0.
pub(super) async fn run_surface(args: SurfaceArgs) -> ExitCode {
    match live(&args.target, !args.quiet).await {
        Ok(surface) => print(&surface.to_text()),
        Err(e) => {
            eprintln!("mcp-test surface: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints the drift from OLD to NEW (or the target). See the module docs for the exit codes.
pub(super) async fn run_diff(args: DiffArgs) -> ExitCode {
    let fail = |e: &str| {
        eprintln!("mcp-test diff: {e}");
        ExitCode::from(2)
    };
    let old = match read(&args.old) {
        Ok(surface) => surface,
        Err(e) => return fail(&e),
    };
    let new = match &args.new {
        Some(path) => read(path),
        None => live(&args.target, !args.quiet).await,
    };
    let new = match new {
        Ok(surface) => surface,
        Err(e) => return fail(&e),
    };
    let drift = diff(&old, &new);
    let names = Names {
        old: args.old.display().to_string(),
        new: args.new.as_ref().map_or_else(
            || crate::open::target_label(&args.target),
            |p| p.display().to_string(),
        ),
        artifact: old_artifact(&args.old),
    };
    for (flag, path, format) in [
        ("--html", &args.html, Format::Html),
        ("--sarif", &args.sarif, Format::Sarif),
    ] {
        if let Some(path) = path
            && let Err(e) = crate::formats::write(flag, path, &render(&drift, format, &names))
        {
            return fail(&e);
        }
    }
    let code = print(&render(&drift, args.format, &names));
    if code != ExitCode::SUCCESS {
        return code;
    }
    let threshold = args.fail_on.map(|f| match f {
        FailOn::Breaking => Class::Breaking,
        FailOn::Additive => Class::Additive,
    });
    match threshold {
        Some(class) if drift.fails_on(class) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}

/// What a rendering names: the two surfaces, and the file SARIF results point at.
struct Names {
    old: String,
    new: String,
    artifact: Artifact,
}

/// OLD as SARIF's location: its path from the repository's root, with its text so each
/// result points at its item's line.
fn old_artifact(old: &Path) -> Artifact {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    crate::formats::artifact(Some(old), &[], &cwd)
}

fn render(drift: &Drift, format: Format, names: &Names) -> String {
    match format {
        Format::Text => drift.to_text(),
        Format::Json => serde_json::to_string_pretty(&drift.to_json()).unwrap_or_default() + "\n",
        Format::Markdown => drift.to_markdown(),
        Format::Sarif => {
            serde_json::to_string_pretty(&drift_to_sarif(drift, &names.artifact))
                .unwrap_or_default()
                + "\n"
        }
        Format::Html => drift_html(drift, &names.old, &names.new),
    }
}

/// The surface in the file at `path`; an error names the file, and the line or pointer.
fn read(path: &Path) -> Result<Surface, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    Surface::from_text(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The surface of the target the options name.
async fn live(target: &TargetArgs, progress: bool) -> Result<Surface, String> {
    let opened = open(target, progress)
        .await
        .map_err(|e| format!("cannot connect: {e}"))?;
    let timeout = Duration::from_secs(target.timeout.max(1));
    let surface = Surface::fetch_within(opened.target(), timeout).await;
    opened.close().await;
    surface.map_err(|e| format!("{}: {e}", opened.target().label()))
}

/// Writes `text` to stdout: 2 when stdout is closed.
fn print(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-test: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}
