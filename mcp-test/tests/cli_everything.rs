//! `mcp-test check` against a real 2025-era server in another language: the reference
//! "everything" server, installed by `npx -y` as part of the command under test. Needs
//! Node.js (`npx`) and the npm registry.

#[tokio::test]
async fn check_completes_against_the_2025_era_everything_server() {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args([
            "check",
            "--timeout",
            "60",
            "--",
            "npx",
            "-y",
            "@modelcontextprotocol/server-everything@2026.8.31",
            "stdio",
        ])
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(std::time::Duration::from_secs(1200), command)
        .await
        .expect("mcp-test check finishes within 20 minutes")
        .expect("mcp-test runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // It completes: a report with the era it found, probes and cases, and an exit status
    // that is the verdict (0 or 1), not a failure to connect.
    assert!(
        stdout.contains("(protocol 2025-11-25 (initialize handshake))"),
        "{stdout}\n{stderr}"
    );
    assert!(stderr.contains("protocol era: 2025-11-25"), "{stderr}");
    assert!(stdout.contains("Summary"), "{stdout}");
    assert!(stdout.contains("schema cases agreeing:"), "{stdout}");
    assert!(!stdout.contains("the server stopped answering"), "{stdout}");
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "status {code:?}\n{stdout}\n{stderr}"
    );
}
