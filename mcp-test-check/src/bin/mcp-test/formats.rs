//! The report formats of `check` for CI, and where their results point: the `--format`
//! values, `--html FILE` and `--sarif FILE` beside the printed format, the GitHub job summary,
//! and the file SARIF and GitHub annotations are located in (`--location`, else found from
//! the server command or the repository's manifest).

use clap::{Args, ValueEnum};
use mcp_test_check::CheckReport;
use mcp_test_check::sarif::Artifact;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What `check` prints on stdout.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    /// The human report.
    Text,
    /// The JSON report.
    Json,
    /// JUnit XML: a test case per probe and schema case.
    Junit,
    /// SARIF 2.1.0, for GitHub code scanning and other dashboards.
    Sarif,
    /// GitHub Actions workflow commands (annotations); with GITHUB_STEP_SUMMARY set, also
    /// the Markdown job summary appended to that file.
    Github,
    /// One self-contained HTML page.
    Html,
}

/// The files written beside the printed format, and where results point.
#[derive(Args, Default)]
pub(super) struct OutputArgs {
    /// Also write the JSON report to FILE, whatever --format prints.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write the HTML report to FILE, whatever --format prints.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Also write the SARIF report to FILE, whatever --format prints.
    #[arg(long, value_name = "FILE")]
    sarif: Option<PathBuf>,
    /// The file SARIF results and GitHub annotations point at, relative to the repository
    /// (code scanning shows a result only at a file). Default: the source file the server
    /// command runs (`python server.py` → server.py), else the first of package.json,
    /// pyproject.toml, Cargo.toml, go.mod found from the current directory up to the
    /// repository's root.
    #[arg(long, value_name = "FILE")]
    location: Option<PathBuf>,
}

/// What a source file of a server is named like.
const SOURCE_EXTENSIONS: &[&str] = &[
    "py", "js", "mjs", "cjs", "ts", "mts", "rs", "go", "java", "kt", "rb", "php", "cs", "sh", "jar",
];

/// The manifests looked for when the command runs no source file of the repository.
const MANIFESTS: &[&str] = &["package.json", "pyproject.toml", "Cargo.toml", "go.mod"];

/// The repository's root: the nearest directory from `dir` up holding `.git`.
fn repository_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// `path` relative to `root`, with `/`; `None` when it is outside.
fn relative(path: &Path, root: &Path) -> Option<String> {
    let path = path.canonicalize().ok()?;
    let root = root.canonicalize().ok()?;
    let rest = path.strip_prefix(&root).ok()?;
    Some(
        rest.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// The file results point at, for a check of `command` (empty for a URL), from `cwd`.
pub(super) fn artifact(location: Option<&Path>, command: &[String], cwd: &Path) -> Artifact {
    let root = repository_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    if let Some(location) = location {
        let path = cwd.join(location);
        let uri =
            relative(&path, &root).unwrap_or_else(|| location.to_string_lossy().replace('\\', "/"));
        return Artifact::new(uri, read(&path));
    }
    let source = command.iter().find_map(|arg| {
        let path = cwd.join(arg);
        let is_source = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e));
        (is_source && path.is_file())
            .then(|| relative(&path, &root).map(|uri| (uri, path)))
            .flatten()
    });
    if let Some((uri, path)) = source {
        return Artifact::new(uri, read(&path));
    }
    for dir in cwd.ancestors() {
        for manifest in MANIFESTS {
            let path = dir.join(manifest);
            if path.is_file()
                && let Some(uri) = relative(&path, &root)
            {
                return Artifact::new(uri, read(&path));
            }
        }
        if dir == root {
            break;
        }
    }
    // Nothing to point at: the program, as the command names it.
    Artifact::new(
        command
            .first()
            .map_or_else(|| "mcp.json".to_owned(), Clone::clone),
        None,
    )
}

/// Writes `text` to `path`, saying which flag's file could not be written.
pub(super) fn write(flag: &str, path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {flag} {}: {e}", path.display()))
}

/// Prints `report` in `format` on stdout (unless `print` is false) and writes the files
/// asked for; with the GitHub
/// format and `GITHUB_STEP_SUMMARY` set, appends the job summary to that file. An error
/// names the file that could not be written.
pub(super) fn emit(
    report: &CheckReport,
    format: Format,
    output: &OutputArgs,
    command: &[String],
    print: bool,
) -> Result<(), String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let artifact = artifact(output.location.as_deref(), command, &cwd);
    let sarif =
        || serde_json::to_string_pretty(&report.to_sarif(&artifact)).unwrap_or_default() + "\n";
    let text = match format {
        Format::Text => report.to_text(),
        Format::Json => serde_json::to_string_pretty(&report.to_json()).unwrap_or_default() + "\n",
        Format::Junit => report.to_junit(),
        Format::Sarif => sarif(),
        Format::Github => report.to_github(&artifact),
        Format::Html => report.to_html(),
    };
    if print {
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(text.as_bytes());
        let _ = stdout.flush();
    }
    if let Some(path) = &output.json {
        let json = serde_json::to_string_pretty(&report.to_json()).unwrap_or_default() + "\n";
        write("--json", path, &json)?;
    }
    if let Some(path) = &output.html {
        write("--html", path, &report.to_html())?;
    }
    if let Some(path) = &output.sarif {
        write("--sarif", path, &sarif())?;
    }
    if format == Format::Github {
        step_summary(&report.to_markdown_summary())?;
    }
    Ok(())
}

/// Appends `markdown` to the file `GITHUB_STEP_SUMMARY` names, when it is set (as on a
/// GitHub Actions runner).
pub(super) fn step_summary(markdown: &str) -> Result<(), String> {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let path = PathBuf::from(path);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(markdown.as_bytes()))
        .map_err(|e| {
            format!(
                "cannot append the job summary to GITHUB_STEP_SUMMARY ({}): {e}",
                path.display()
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory removed when dropped.
    struct Dir(PathBuf);

    impl Dir {
        fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn the_source_file_a_command_runs_is_the_location() {
        // A directory of this test's own (no shared state between tests or runs).
        let dir = Dir(std::env::temp_dir().join(format!(
            "mcp-test-location-{}-{:?}",
            std::process::id(),
            std::time::SystemTime::now()
        )));
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(
            dir.path().join("src/server.py"),
            "x\n@tool\ndef add(): ...\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("pyproject.toml"), "").unwrap();
        let command = ["python".to_owned(), "src/server.py".to_owned()];
        let found = artifact(None, &command, dir.path());
        assert_eq!(found.uri, "src/server.py");
        assert_eq!(found.line_of("add"), 3);
        // A command that runs no file of the repository: the manifest.
        let found = artifact(
            None,
            &["npx".to_owned(), "some-server".to_owned()],
            dir.path(),
        );
        assert_eq!(found.uri, "pyproject.toml");
        // From a subdirectory, the path is still the repository's.
        let found = artifact(None, &[], &dir.path().join("src"));
        assert_eq!(found.uri, "pyproject.toml");
        let named = artifact(Some(Path::new("server.py")), &[], &dir.path().join("src"));
        assert_eq!(named.uri, "src/server.py");
    }
}
