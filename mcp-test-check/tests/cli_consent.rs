//! `mcp-test check`'s consent flags as a user runs them: `--no-open-world`, `--allow-writes`,
//! `--allow-destructive` and `--tool NAME` parse and are documented in `--help`, and over
//! Streamable HTTP (where the raw HTTP probes call tools again) a default check of a git-like
//! server writes nothing, while `--allow-writes` does.

#[path = "consent/git_like.rs"]
mod git_like;

mod support;

use git_like::Git;
use mcp_test::transport::http::{HttpConfig, bind_local, serve};
use serde_json::Value;
use std::sync::Arc;
use support::mcp_test;

#[tokio::test]
async fn the_consent_flags_are_in_the_help() {
    let run = mcp_test(&["check", "--help"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    for flag in [
        "--no-open-world",
        "--allow-writes",
        "--allow-destructive",
        "--tool <NAME>",
    ] {
        assert!(run.stdout.contains(flag), "{flag}:\n{}", run.stdout);
    }
}

#[tokio::test]
async fn a_tool_flag_naming_no_listed_tool_says_so() {
    let run = mcp_test(&["check", "--quiet", "--tool", "serach_notes"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "mcp-test: --tool serach_notes: the server lists no tool of that name, so it was not called"
        ),
        "{}",
        run.stderr
    );
    let run = mcp_test(&["check", "--quiet", "--tool", "notes"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    assert!(
        run.stdout.contains("Tools (2 of 2 called;"),
        "{}",
        run.stdout
    );
}

/// Serves a fresh fixture over HTTP on 127.0.0.1 and checks it with `flags`: the JSON report
/// and the fixture.
async fn check_over_http(flags: &[&str]) -> (Value, Arc<Git>) {
    let git = Git::new();
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = tokio::spawn(serve(
        listener,
        git_like::server(git.clone()),
        HttpConfig::default(),
    ));
    let mut args = vec!["check", "--quiet", "--format", "json", "--url", &url];
    args.extend_from_slice(flags);
    let run = mcp_test(&args).await;
    server.abort();
    assert_eq!(run.status, 0, "{flags:?}: {}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    (report, git)
}

/// The tools the report says were called.
fn called(report: &Value) -> Vec<&str> {
    report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["called"] == true)
        .filter_map(|t| t["name"].as_str())
        .collect()
}

#[tokio::test]
async fn over_http_a_default_check_writes_nothing_and_allow_writes_does() {
    let (report, git) = check_over_http(&[]).await;
    assert_eq!(git.snapshot(), Git::new().snapshot(), "{report}");
    assert_eq!(called(&report), ["fetch_url", "status"], "{report}");
    let listed: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(listed, git_like::TOOLS, "{report}");

    let (report, git) = check_over_http(&["--allow-writes"]).await;
    assert_ne!(git.snapshot(), Git::new().snapshot(), "{report}");
    assert_eq!(
        called(&report),
        ["checkout", "commit", "create_branch", "fetch_url", "status"],
        "{report}"
    );
}

#[tokio::test]
async fn over_http_no_open_world_and_a_named_tool() {
    let (report, git) = check_over_http(&["--no-open-world", "--tool", "reset_hard"]).await;
    assert_eq!(called(&report), ["reset_hard", "status"], "{report}");
    assert!(git.fetched.lock().unwrap().is_empty());
}
