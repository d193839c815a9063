//! `mcp-test check` and time, as a user runs it: the connect timeout that applies and why,
//! and the lines that say what is awaited while a server is silent.

use mcp_test::transport::http::{HttpConfig, bind_local, serve};
use mcp_test_check::example_server;
use serde_json::Value;
use std::time::Duration;

mod support;
use support::{Run, mcp_test};

/// [`mcp_test`], failing the test rather than hanging it.
async fn bounded(args: &[&str]) -> Run {
    tokio::time::timeout(Duration::from_secs(120), mcp_test(args))
        .await
        .expect("mcp-test ends")
}

#[cfg(unix)]
#[tokio::test]
async fn a_silent_server_gets_waiting_lines_then_a_clear_error_at_the_connect_timeout() {
    // `sleep` never reads its stdin nor writes to its stdout: no answer ever comes.
    let run = bounded(&[
        "check",
        "--connect-timeout",
        "7",
        "--format",
        "json",
        "--",
        "sleep",
        "60",
    ])
    .await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    // What is awaited, for how long so far, and until when: on stderr only.
    assert!(
        run.stderr
            .contains("starting `sleep 60` (connect timeout 7 s, as --connect-timeout says)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "waiting for the answer to the handshake (server/discover, or initialize for a 2025-era server): 5 s so far, connect timeout 7 s, as --connect-timeout says"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "cannot connect: `sleep 60`: no answer to the handshake within the connect timeout of 7 s, as --connect-timeout says (`--connect-timeout SECS` waits longer)"
        ),
        "{}",
        run.stderr
    );
    // stdout is the JSON report alone, saying which connect timeout applied.
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report on stdout");
    assert_eq!(report["connect_timeout"], "7 s, as --connect-timeout says");
    assert!(
        report["incomplete"]
            .as_str()
            .is_some_and(|i| i.contains("within the connect timeout of 7 s")),
        "{report:#}"
    );
    // --quiet silences the waiting lines, not the error.
    let quiet = bounded(&[
        "check",
        "--quiet",
        "--connect-timeout",
        "6",
        "--",
        "sleep",
        "60",
    ])
    .await;
    assert_eq!(quiet.status, 2, "{}", quiet.stderr);
    assert!(!quiet.stderr.contains("waiting for"), "{}", quiet.stderr);
    assert!(
        quiet.stderr.contains("within the connect timeout of 6 s"),
        "{}",
        quiet.stderr
    );
}

#[tokio::test]
async fn the_report_says_which_connect_timeout_applied_and_why() {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, example_server(), HttpConfig::default()));
    let run = bounded(&["check", "--quiet", "--format", "json", "--url", &url]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    assert_eq!(
        report["connect_timeout"],
        "30 s, for a server reached by URL"
    );
    let text = bounded(&["check", "--url", &url]).await;
    assert!(
        text.stdout
            .contains("Connect timeout: 30 s, for a server reached by URL"),
        "{}",
        text.stdout
    );
    assert!(
        text.stderr
            .contains("(connect timeout 30 s, for a server reached by URL)"),
        "{}",
        text.stderr
    );
}
