//! `mcp-test auth-server` and `mcp-test check --auth-issuer`, end to end on 127.0.0.1: the
//! command's authorization server, the example server behind the runtime's token validator
//! trusting it, and `check` getting its tokens from the mint (the local issuer) or by
//! client_credentials (`--client-id`, `--client-secret`), as for an issuer of the user's own.

use mcp_test::auth::TokenValidator;
use mcp_test::transport::http::{HttpConfig, bind_local, router};
use mcp_test_check::example_server;
use serde_json::Value;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

mod support;
use support::mcp_test;

/// `mcp-test auth-server --print-env`, running, with the `NAME=VALUE` lines it printed.
async fn auth_server() -> (tokio::process::Child, Vec<(String, String)>) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args(["auth-server", "--print-env"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("mcp-test auth-server starts");
    let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    let read = async {
        let first = lines
            .next_line()
            .await
            .expect("stdout reads")
            .expect("a line");
        assert!(
            first.starts_with("listening on http://127.0.0.1:"),
            "{first}"
        );
        let mut env = Vec::new();
        for _ in 0..3 {
            let line = lines
                .next_line()
                .await
                .expect("stdout reads")
                .expect("a line");
            let (name, value) = line.split_once('=').expect("NAME=VALUE");
            env.push((name.to_owned(), value.to_owned()));
        }
        env
    };
    let env = tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .expect("auth-server prints its issuer within 20 s");
    (child, env)
}

/// The example server on 127.0.0.1 trusting `issuer`, every request needing scope `mcp`; its
/// URL.
async fn protected(issuer: &str) -> String {
    let listener = bind_local(0).await.expect("a free port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let validator = TokenValidator::new(issuer, &url).require_scopes(["mcp"]);
    let app = router(
        example_server(),
        HttpConfig::default().authenticator(validator.clone()),
    )
    .merge(validator.metadata_router());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn probes(stdout: &str) -> Vec<(String, Option<String>, usize)> {
    let report: Value = serde_json::from_str(stdout).expect("a JSON report");
    report["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .filter(|p| p["name"].as_str().is_some_and(|n| n.starts_with("auth/")))
        .map(|p| {
            (
                p["name"].as_str().unwrap_or_default().to_owned(),
                p["skipped"].as_str().map(str::to_owned),
                p["findings"].as_array().map_or(0, Vec::len),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_probes_a_server_trusting_the_commands_authorization_server() {
    let (_auth, env) = auth_server().await;
    let get = |name: &str| {
        env.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {name} in {env:?}"))
    };
    let issuer = get("MCP_TEST_AUTH_ISSUER");
    let url = protected(&issuer).await;

    // Without a token the check cannot run.
    let refused = mcp_test(&["check", "--quiet", "--url", &url]).await;
    assert_eq!(refused.status, 2, "{}{}", refused.stdout, refused.stderr);

    let secret = get("MCP_TEST_AUTH_CLIENT_SECRET");
    let client = get("MCP_TEST_AUTH_CLIENT_ID");
    for extra in [
        vec![],
        vec!["--client-id", &client, "--client-secret", &secret],
    ] {
        let mut args = vec!["check", "--quiet", "--format", "json", "--url", &url];
        args.extend(["--auth-issuer", &issuer]);
        args.extend(extra.iter().copied());
        let run = mcp_test(&args).await;
        assert_eq!(run.status, 0, "{args:?}:\n{}{}", run.stdout, run.stderr);
        let ran = probes(&run.stdout);
        assert_eq!(ran.len(), 5, "{ran:?}");
        for (name, skipped, findings) in ran {
            assert!(skipped.is_none(), "{args:?}: {name} skipped: {skipped:?}");
            assert_eq!(findings, 0, "{args:?}: {name}");
        }
    }

    let wrong = mcp_test(&[
        "check",
        "--quiet",
        "--url",
        &url,
        "--auth-issuer",
        &issuer,
        "--client-id",
        &client,
        "--client-secret",
        "not-the-secret",
    ])
    .await;
    assert_eq!(wrong.status, 2);
    assert!(wrong.stderr.contains("invalid_client"), "{}", wrong.stderr);
}
