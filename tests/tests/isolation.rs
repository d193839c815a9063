//! Isolation: a tool that panics, hangs, or loops past its timeout gets its error, and the other
//! calls keep flowing, on stdio and on HTTP.
//!
//! A handler that loops *without ever yielding* cannot be interrupted by any async runtime; it
//! holds one worker thread until it returns. The timeout covers every handler that awaits.

use mcp_test::testing::http::oneshot;
use mcp_test::transport::http::{HttpConfig, messages, router};
use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test::{Caller, Identity};
use mcp_test_downstream::transport_server;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const LIMIT: Duration = Duration::from_secs(60);
const TOOL_TIMEOUT: Duration = Duration::from_millis(300);

fn call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "name": name, "arguments": arguments}})
}

fn misbehaving() -> Vec<(i64, &'static str)> {
    vec![(1, "panic"), (2, "hang"), (3, "spin")]
}

fn check_failure(reply: &Value) {
    let id = reply["id"].as_i64().unwrap();
    assert_eq!(reply["error"]["code"], -32603, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    match id {
        1 => assert!(message.contains("panicked"), "{message}"),
        _ => assert!(
            message.contains("did not finish within 300 ms"),
            "{message}"
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_isolates_misbehaving_tools() {
    let (client_in, server_out) = tokio::io::duplex(1 << 16);
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let config = StdioConfig {
        caller: Caller::new(Identity::anonymous()).with_timeout(TOOL_TIMEOUT),
        ..StdioConfig::default()
    };
    let task = tokio::spawn(serve(transport_server(), server_in, server_out, config));
    let mut lines = BufReader::new(client_in).lines();
    let mut script = String::new();
    for (id, mode) in misbehaving() {
        script.push_str(&format!(
            "{}\n",
            call(id, "misbehave", json!({"mode": mode}))
        ));
    }
    for id in 10..20 {
        script.push_str(&format!("{}\n", call(id, "sleep", json!({"ms": 0}))));
    }
    input.write_all(script.as_bytes()).await.unwrap();
    let mut failures = 0;
    let mut successes = 0;
    for _ in 0..13 {
        let line = tokio::time::timeout(LIMIT, lines.next_line())
            .await
            .expect("answered in time")
            .unwrap()
            .unwrap();
        let reply: Value = serde_json::from_str(&line).unwrap();
        if reply["id"].as_i64().unwrap() < 10 {
            check_failure(&reply);
            failures += 1;
        } else {
            assert_eq!(reply["result"]["content"][0]["text"], "slept");
            successes += 1;
        }
    }
    assert_eq!((failures, successes), (3, 10));
    drop(input);
    tokio::time::timeout(LIMIT, task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_isolates_misbehaving_tools() {
    let app = router(
        transport_server(),
        HttpConfig::default().request_timeout(TOOL_TIMEOUT),
    );
    let post = |body: Value| {
        let name = body["params"]["name"].as_str().unwrap().to_owned();
        http::Request::post("/mcp")
            .header("host", "localhost")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", name)
            .body(body.to_string())
            .unwrap()
    };
    let mut tasks = Vec::new();
    for (id, mode) in misbehaving() {
        let app = app.clone();
        let req = post(call(id, "misbehave", json!({"mode": mode})));
        tasks.push(tokio::spawn(async move { oneshot(&app, req).await }));
    }
    for id in 10..20 {
        let app = app.clone();
        let req = post(call(id, "sleep", json!({"ms": 0})));
        tasks.push(tokio::spawn(async move { oneshot(&app, req).await }));
    }
    for task in tasks {
        let resp = tokio::time::timeout(LIMIT, task).await.unwrap().unwrap();
        let reply = messages(resp.body()).pop().unwrap();
        if reply["id"].as_i64().unwrap() < 10 {
            check_failure(&reply);
        } else {
            assert_eq!(resp.status(), 200);
            assert_eq!(reply["result"]["content"][0]["text"], "slept");
        }
    }
}
