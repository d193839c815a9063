//! `mcp-test record`, `replay` and `serve` as a user runs them: the real binary as a recording
//! proxy between this test (the client, on the proxy's stdin and stdout) and the conformance
//! fixture (over stdio: this test binary started again as the server; over Streamable HTTP:
//! served in this process on 127.0.0.1), the cassette replayed, and served back.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[allow(dead_code)]
#[path = "../../mcp-test/examples/conformance.rs"]
mod conformance;
mod fixture;

/// Set in the environment of the stdio fixture (this binary, started again).
const FIXTURE_ENV: &str = "MCP_TEST_CASSETTE_FIXTURE";

/// Not a test: the conformance server over stdio, when this binary is started as the stdio
/// fixture ([`fixture::serve_stdio`]).
#[tokio::test]
#[ignore = "the stdio fixture server, started by the cassette tests"]
async fn fixture_stdio_server() {
    fixture::serve_stdio(FIXTURE_ENV, conformance::conformance_server).await;
}

/// `-- sh -c ... THIS_BINARY`: the fixture over stdio.
fn stdio_target() -> Vec<String> {
    fixture::stdio_target(FIXTURE_ENV)
}

async fn http_url() -> String {
    fixture::http_url(conformance::conformance_server()).await
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-test-cli-cassettes-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientCapabilities": {}})
}

/// The session the test client sends, with ids from `first`.
fn session(first: i64) -> Vec<Value> {
    vec![
        json!({"jsonrpc": "2.0", "id": first, "method": "server/discover", "params": {"_meta": meta()}}),
        json!({"jsonrpc": "2.0", "id": first + 1, "method": "tools/list", "params": {"_meta": meta()}}),
        json!({"jsonrpc": "2.0", "id": first + 2, "method": "tools/call", "params": {"_meta": meta(),
            "name": "test_simple_text", "arguments": {}}}),
    ]
}

/// Runs `mcp-test ARGS` with `messages` on its stdin, one at a time (each answer awaited), and
/// returns the answers and the exit code.
async fn converse(args: &[String], messages: &[Value]) -> (Vec<Value>, Option<i32>) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut answers = Vec::new();
    for message in messages {
        stdin
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        loop {
            let line = tokio::time::timeout(std::time::Duration::from_secs(60), lines.next_line())
                .await
                .expect("an answer within 60 s")
                .unwrap()
                .expect("the command ended before it answered");
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer.get("id") == message.get("id") {
                answers.push(answer);
                break;
            }
        }
    }
    drop(stdin);
    let status = tokio::time::timeout(std::time::Duration::from_secs(60), child.wait())
        .await
        .expect("the command exits once its stdin closes")
        .unwrap();
    (answers, status.code())
}

async fn mcp_test(args: &[String]) -> (String, String, Option<i32>) {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .await
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

fn args(words: &[&str], path: &Path, target: &[String]) -> Vec<String> {
    let mut all: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    all.push(path.display().to_string());
    all.extend(target.iter().cloned());
    all
}

#[tokio::test]
async fn a_stdio_session_is_recorded_replayed_and_served_back() {
    let dir = scratch("stdio");
    let cassette = dir.join("session.jsonl");
    let (live, code) = converse(
        &args(&["record", "--out"], &cassette, &stdio_target()),
        &session(1),
    )
    .await;
    assert_eq!(code, Some(0));
    assert_eq!(
        live[2]["result"]["content"][0]["text"],
        "This is a simple text response for testing."
    );
    let text = std::fs::read_to_string(&cassette).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0]["mcpTestCassette"], 1);
    assert_eq!(lines[0]["era"], "2026-07-28");
    assert_eq!(lines[3]["response"], live[2]);

    // `replay --times 2 CASSETTE -- ...`: the cassette is positional.
    let (out, err, code) = mcp_test(&args(
        &["replay", "--times", "2"],
        &cassette,
        &stdio_target(),
    ))
    .await;
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("replay 2/2: no difference"), "{out}");

    // Served back: the same answers under the new ids.
    let (served, code) = converse(
        &args(&["serve", "--cassette"], &cassette, &[]),
        &session(100),
    )
    .await;
    assert_eq!(code, Some(0));
    assert_eq!(served[2]["id"], 102);
    assert_eq!(served[2]["result"], live[2]["result"]);
    // A method never recorded: -32601 naming what was.
    let (unknown, _) = converse(
        &args(&["serve", "--cassette"], &cassette, &[]),
        &[json!({"jsonrpc": "2.0", "id": 7, "method": "prompts/list", "params": {"_meta": meta()}})],
    )
    .await;
    assert_eq!(unknown[0]["error"]["code"], -32601);
    let message = unknown[0]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("prompts/list") && message.contains("tools/call"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_url_session_keeps_secret_headers_out_and_a_changed_answer_fails_the_replay() {
    let dir = scratch("url");
    let cassette = dir.join("session.jsonl");
    let url = http_url().await;
    let target = [
        "--url".to_owned(),
        url.clone(),
        "--header".to_owned(),
        "Authorization: Bearer s3cr3t-value".to_owned(),
        "--header".to_owned(),
        "X-Region: eu".to_owned(),
    ];
    let mut record = vec![
        "record".to_owned(),
        "--out".to_owned(),
        cassette.display().to_string(),
    ];
    record.extend(target.iter().cloned());
    let (live, code) = converse(&record, &session(1)).await;
    assert_eq!(code, Some(0));
    assert_eq!(live.len(), 3);
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(!text.contains("s3cr3t"), "{text}");
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["headers"]["authorization"], "[redacted]", "{header}");
    assert_eq!(header["headers"]["x-region"], "eu", "{header}");

    let mut replay = vec!["replay".to_owned(), cassette.display().to_string()];
    replay.extend(target.iter().cloned());
    let (out, err, code) = mcp_test(&replay).await;
    assert_eq!(code, Some(0), "{out}{err}");

    // One recorded answer changed: the replay names it and writes the live session.
    std::fs::write(
        &cassette,
        text.replace("This is a simple text response for testing.", "Changed."),
    )
    .unwrap();
    let (out, err, code) = mcp_test(&replay).await;
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("exchange 3 (line 4, `tools/call`) at /response/result/content/0/text"),
        "{err}"
    );
    assert!(err.contains("recorded: \"Changed.\""), "{err}");
    let pending = dir.join("session.jsonl.pending");
    assert!(
        std::fs::read_to_string(&pending)
            .unwrap()
            .contains("This is a simple text response for testing.")
    );

    // --overwrite re-records; the replay then passes.
    let mut overwrite = replay.clone();
    overwrite.insert(1, "--overwrite".to_owned());
    let (out, err, code) = mcp_test(&overwrite).await;
    assert_eq!(code, Some(0), "{out}{err}");
    let (out, err, code) = mcp_test(&replay).await;
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        !std::fs::read_to_string(&cassette)
            .unwrap()
            .contains("s3cr3t")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_cassette_that_is_not_one_is_refused_with_its_line() {
    let dir = scratch("bad");
    let cassette = dir.join("bad.jsonl");
    std::fs::write(
        &cassette,
        "{\"mcpTestCassette\": 1, \"target\": \"t\", \"recordedAt\": \"x\"}\nnot json\n",
    )
    .unwrap();
    let (_, err, code) = mcp_test(&args(&["serve", "--cassette"], &cassette, &[])).await;
    assert_eq!(code, Some(2));
    assert!(
        err.contains("bad.jsonl:2") && err.contains("not JSON"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts `mcp-test ARGS` (which prints `listening on ADDR`) and returns it with its URL.
async fn listening(args: &[String]) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = tokio::time::timeout(std::time::Duration::from_secs(60), lines.next_line())
        .await
        .expect("listening within 60 s")
        .unwrap()
        .expect("a line on stderr");
    let addr = line
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("{line}"));
    (child, format!("http://{addr}/mcp"))
}

#[tokio::test]
async fn over_http_a_session_is_recorded_and_served_back() {
    use mcp_test::client::Client;
    let dir = scratch("http");
    let cassette = dir.join("session.jsonl");
    let mut record = vec![
        "record".to_owned(),
        "--out".to_owned(),
        cassette.display().to_string(),
        "--http".to_owned(),
        "127.0.0.1:0".to_owned(),
    ];
    record.extend(stdio_target());
    let (mut proxy, url) = listening(&record).await;
    let client = Client::http(&url).unwrap();
    let mut live = Vec::new();
    for message in session(1) {
        live.push(client.send(&message).await.unwrap());
    }
    proxy.kill().await.unwrap();
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");

    let (mut served, url) = listening(&args(
        &["serve", "--http", "127.0.0.1:0", "--cassette"],
        &cassette,
        &[],
    ))
    .await;
    let client = Client::http(&url).unwrap();
    for (message, recorded) in session(50).iter().zip(&live) {
        let answer = client.send(message).await.unwrap();
        assert_eq!(answer["id"], message["id"]);
        assert_eq!(answer["result"], recorded["result"]);
    }
    // Only loopback is served.
    let (_, err, code) = mcp_test(&args(
        &["serve", "--http", "0.0.0.0:0", "--cassette"],
        &cassette,
        &[],
    ))
    .await;
    assert_eq!(code, Some(2));
    assert!(err.contains("loopback"), "{err}");
    served.kill().await.unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `_meta` of a 2026-07-28 request from a client declaring `capabilities`, named `name`.
fn meta_of(capabilities: Value, name: &str) -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientCapabilities": capabilities,
           "io.modelcontextprotocol/clientInfo": {"name": name, "version": "1.0.0"}})
}

/// `serve` answers a client that declares other capabilities and names itself otherwise than
/// the recording client did (`--strict-match` does not), except where the recorded answer
/// depended on them: a question the client must declare to be asked.
#[tokio::test]
async fn serve_tolerates_what_another_client_declares_unless_strict() {
    let dir = scratch("tolerant");
    let cassette = dir.join("session.jsonl");
    let recorded = meta_of(json!({"elicitation": {}, "roots": {}}), "recording-client");
    let lines = [
        json!({"mcpTestCassette": 1, "era": "2026-07-28", "target": "t", "recordedAt": "x"}),
        json!({"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"_meta": recorded, "name": "test_simple_text", "arguments": {}}},
               "response": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
                "content": [{"type": "text", "text": "simple"}]}}}),
        json!({"request": {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"_meta": recorded, "name": "ask", "arguments": {}}},
               "response": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "input_required",
                "inputRequests": {"user_name": {"method": "elicitation/create", "params": {
                    "mode": "form", "message": "Name?", "requestedSchema": {"type": "object"}}}}}}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&cassette, text).unwrap();
    let other = meta_of(json!({"sampling": {}}), "another-client");
    let asked = [
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
               "params": {"_meta": other, "name": "test_simple_text", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call",
               "params": {"_meta": other, "name": "ask", "arguments": {}}}),
    ];

    let (tolerant, code) = converse(&args(&["serve", "--cassette"], &cassette, &[]), &asked).await;
    assert_eq!(code, Some(0));
    assert_eq!(tolerant[0]["id"], 10);
    assert_eq!(tolerant[0]["result"]["content"][0]["text"], "simple");
    // The recorded answer asks for elicitation, which this client does not declare.
    assert_eq!(tolerant[1]["error"]["code"], -32602, "{}", tolerant[1]);
    let why = tolerant[1]["error"]["message"].as_str().unwrap();
    assert!(
        why.contains("line 3") && why.contains("needs elicitation"),
        "{why}"
    );

    let (strict, code) = converse(
        &args(&["serve", "--strict-match", "--cassette"], &cassette, &[]),
        &asked[..1],
    )
    .await;
    assert_eq!(code, Some(0));
    assert_eq!(strict[0]["error"]["code"], -32602, "{}", strict[0]);
    let why = strict[0]["error"]["message"].as_str().unwrap();
    assert!(why.contains("clientCapabilities"), "{why}");
    std::fs::remove_dir_all(&dir).unwrap();
}
