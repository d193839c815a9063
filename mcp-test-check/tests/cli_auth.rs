//! `mcp-test auth-server` and `mcp-test check --auth-issuer`, end to end on 127.0.0.1: the
//! command's authorization server, the example server behind the runtime's token validator
//! trusting it, and `check` getting its tokens from the mint (the local issuer) or by
//! client_credentials (`--client-id`, `--client-secret`), as for an issuer of the user's own;
//! and `--auth-scope`, the scopes a tool needs beyond those the server names.

use mcp_test::auth::TokenValidator;
use mcp_test::transport::http::{HttpConfig, bind_local, router};
use mcp_test::{Access, Context, Server, Tool, ToolError};
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

/// Each `auth/*` probe: its name, why it was skipped, and its findings worse than info.
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
                p["findings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|f| f["severity"] != "info")
                    .count(),
            )
        })
        .collect()
}

/// Every finding's message of the JSON report `stdout`.
fn messages(stdout: &str) -> Vec<String> {
    let report: Value = serde_json::from_str(stdout).expect("a JSON report");
    report["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .flat_map(|p| p["findings"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f["message"].as_str().map(str::to_owned))
        .collect()
}

/// Lists the notes (needs `notes.read`).
#[derive(Tool)]
#[tool(annotations(read_only))]
struct ReadNotes {}

impl ReadNotes {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok("no notes".into())
    }
}

/// Adds a note (needs `notes.write`).
#[derive(Tool)]
#[tool(annotations(destructive = false))]
struct AddNote {
    /// The note
    #[tool(min_length = 1, max_length = 100)]
    text: String,
}

impl AddNote {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("added {}", self.text))
    }
}

/// A server on 127.0.0.1 trusting `issuer` whose write tool needs a scope its metadata does
/// not name (`scopes_supported` is `notes.read` alone); its URL.
async fn notes(issuer: &str) -> String {
    let listener = bind_local(0).await.expect("a free port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let validator = TokenValidator::new(issuer, &url).scopes_supported(["notes.read"]);
    let server = Server::builder("notes", "1.0.0")
        .tool_with_access::<ReadNotes>(Access::scopes(["notes.read"]))
        .tool_with_access::<AddNote>(Access::scopes(["notes.write"]))
        .build()
        .expect("a valid server");
    let app = router(
        server,
        HttpConfig::default().authenticator(validator.clone()),
    )
    .merge(validator.metadata_router());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_scope_asks_for_the_scope_a_write_tool_needs() {
    let (_auth, env) = auth_server().await;
    let issuer = env
        .iter()
        .find(|(n, _)| n == "MCP_TEST_AUTH_ISSUER")
        .map(|(_, v)| v.clone())
        .expect("the issuer");
    let url = notes(&issuer).await;
    let base = [
        "check",
        "--quiet",
        "--format",
        "json",
        "--allow-writes",
        "--url",
        &url,
        "--auth-issuer",
        &issuer,
    ];
    let run = |extra: &'static [&'static str]| {
        let mut args = base.to_vec();
        args.extend(extra);
        async move { (mcp_test(&args).await, args.join(" ")) }
    };
    for (extra, sees) in [
        (&[][..], false),
        (&["--auth-scope", "notes.write"][..], true),
    ] {
        let (out, args) = run(extra).await;
        // A 403 for want of scope is how the server should answer: no defect either way.
        assert_eq!(out.status, 0, "{args}:\n{}{}", out.stdout, out.stderr);
        let report: Value = serde_json::from_str(&out.stdout).expect("a JSON report");
        let add_note: Vec<&Value> = report["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .filter(|o| o["case"]["tool"] == "add_note")
            .collect();
        assert!(!add_note.is_empty(), "{args}: no case of add_note");
        assert_eq!(
            add_note.iter().all(|o| o["agrees"] == true),
            sees,
            "{args}: {add_note:#?}"
        );
        let all = messages(&out.stdout);
        let refused = all.iter().any(|m| m.contains("refused for want of scope"));
        assert_eq!(refused, !sees, "{args}: {all:#?}");
        let held = if sees {
            "held scope \"notes.read notes.write\""
        } else {
            "held scope \"notes.read\""
        };
        assert!(
            all.iter().any(|m| m.contains(held)),
            "{args}: {held} in {all:#?}"
        );
    }

    // A scope is one word: the flag says so before anything is sent.
    let bad = mcp_test(&[
        "check",
        "--url",
        &url,
        "--auth-issuer",
        &issuer,
        "--auth-scope",
        "notes.read notes.write",
    ])
    .await;
    assert_eq!(bad.status, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("give each scope its own --auth-scope"),
        "{}",
        bad.stderr
    );
    let alone = mcp_test(&["check", "--url", &url, "--auth-scope", "notes.write"]).await;
    assert_eq!(alone.status, 2, "{}", alone.stderr);
    assert!(alone.stderr.contains("--auth-issuer"), "{}", alone.stderr);
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
        // The report says which scopes the check's token held, and whence.
        let said = messages(&run.stdout);
        assert!(
            said.iter().any(|m| m.contains(r#"held scope "mcp" (the 401 challenge's scope: "mcp"; the metadata's scopes_supported: "mcp"; asked for with --auth-scope: none)"#)),
            "{said:#?}"
        );
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
