//! The stdio transport: in process over `tokio::io::duplex`, and as a real child process
//! (the `transport_fixture` binary of this crate). Every wait is bounded.

use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test_downstream::transport_server;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const LIMIT: Duration = Duration::from_secs(30);

fn request(id: Value, method: &str, mut params: Value) -> String {
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": {}});
    format!(
        "{}\n",
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    )
}

fn call(id: i64, name: &str, arguments: Value) -> String {
    request(
        json!(id),
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

/// A client end of an in-process stdio server.
struct Pipe {
    to_server: tokio::io::DuplexStream,
    from_server: tokio::io::Lines<BufReader<tokio::io::DuplexStream>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Pipe {
    fn start(config: StdioConfig) -> Pipe {
        let (client_in, server_out) = tokio::io::duplex(1 << 16);
        let (to_server, server_in) = tokio::io::duplex(1 << 16);
        let task = tokio::spawn(serve(transport_server(), server_in, server_out, config));
        Pipe {
            to_server,
            from_server: BufReader::new(client_in).lines(),
            task,
        }
    }

    async fn send(&mut self, line: &str) {
        self.to_server.write_all(line.as_bytes()).await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(LIMIT, self.from_server.next_line())
            .await
            .expect("the server wrote in time")
            .unwrap()
            .expect("the server wrote a line");
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout held a non-JSON line {line:?}: {e}"))
    }

    /// Closes the input and waits for the server to exit, returning what it wrote meanwhile.
    async fn close(mut self) -> Vec<Value> {
        self.to_server.shutdown().await.unwrap();
        drop(self.to_server);
        tokio::time::timeout(LIMIT, self.task)
            .await
            .expect("the server exits on end of input")
            .unwrap()
            .unwrap();
        let mut rest = Vec::new();
        while let Ok(Some(line)) = self.from_server.next_line().await {
            rest.push(serde_json::from_str(&line).unwrap());
        }
        rest
    }
}

#[tokio::test]
async fn answers_and_exits_on_end_of_input() {
    let mut pipe = Pipe::start(StdioConfig::default());
    pipe.send(&request(json!(1), "server/discover", json!({})))
        .await;
    let reply = pipe.next().await;
    assert_eq!(reply["id"], 1);
    mcp_test::spec::check_response("server/discover", &reply).unwrap();
    assert!(pipe.close().await.is_empty());
}

#[tokio::test]
async fn a_slow_call_and_a_fast_call_overlap() {
    let mut pipe = Pipe::start(StdioConfig::default());
    // Each rendezvous waits for the other: both answer only if they run at once.
    pipe.send(&call(1, "rendezvous", json!({"label": "a"})))
        .await;
    pipe.send(&call(2, "rendezvous", json!({"label": "b"})))
        .await;
    let mut ids = vec![
        pipe.next().await["id"].clone(),
        pipe.next().await["id"].clone(),
    ];
    ids.sort_by_key(|v| v.as_i64());
    assert_eq!(ids, [json!(1), json!(2)]);
    // And a sleeping call does not hold up a later quick one.
    pipe.send(&call(3, "sleep", json!({"ms": 60_000}))).await;
    pipe.send(&request(json!(4), "tools/list", json!({}))).await;
    assert_eq!(pipe.next().await["id"], 4);
    pipe.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}\n").await;
    assert!(
        pipe.close().await.is_empty(),
        "a cancelled request is never answered"
    );
}

#[tokio::test]
async fn notifications_come_before_their_response() {
    let mut pipe = Pipe::start(StdioConfig::default());
    let mut line: Value = serde_json::from_str(&call(1, "progress", json!({"steps": 2}))).unwrap();
    line["params"]["_meta"]["progressToken"] = json!(5);
    line["params"]["_meta"]["io.modelcontextprotocol/logLevel"] = json!("debug");
    pipe.send(&format!("{line}\n")).await;
    let got: Vec<Value> = vec![
        pipe.next().await,
        pipe.next().await,
        pipe.next().await,
        pipe.next().await,
    ];
    assert_eq!(got[0]["method"], "notifications/progress");
    assert_eq!(got[0]["params"]["progressToken"], 5);
    assert_eq!(got[1]["params"]["progress"], 2.0);
    assert_eq!(got[2]["method"], "notifications/message");
    assert_eq!(got[2]["params"]["level"], "info");
    assert_eq!(got[3]["id"], 1);
    assert_eq!(got[3]["result"]["content"][0]["text"], "done");
    pipe.close().await;
}

#[tokio::test]
async fn bad_lines_get_errors_and_the_server_keeps_serving() {
    let mut pipe = Pipe::start(StdioConfig {
        max_line_bytes: 256,
        ..StdioConfig::default()
    });
    pipe.send("{not json\n").await;
    assert_eq!(pipe.next().await["error"]["code"], -32700);
    pipe.send(&format!("{}\n", "x".repeat(1000))).await;
    let reply = pipe.next().await;
    assert_eq!(reply["error"]["code"], -32600);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("256 bytes")
    );
    pipe.to_server.write_all(b"\xff\xfe\n").await.unwrap();
    assert_eq!(pipe.next().await["error"]["code"], -32700);
    pipe.send("\n   \n").await; // blank lines are skipped
    pipe.send(&request(json!("still"), "tools/list", json!({})))
        .await;
    assert_eq!(pipe.next().await["id"], "still");
    pipe.close().await;
}

#[tokio::test]
async fn unknown_and_late_cancellations_are_ignored() {
    let mut pipe = Pipe::start(StdioConfig::default());
    pipe.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":99}}\n").await;
    pipe.send(&request(json!(1), "server/discover", json!({})))
        .await;
    assert_eq!(pipe.next().await["id"], 1);
    pipe.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}\n").await;
    pipe.send(&request(json!(2), "server/discover", json!({})))
        .await;
    assert_eq!(pipe.next().await["id"], 2);
    pipe.close().await;
}

#[tokio::test]
async fn in_flight_requests_finish_after_end_of_input() {
    let mut pipe = Pipe::start(StdioConfig::default());
    pipe.send(&call(1, "sleep", json!({"ms": 50}))).await;
    let rest = pipe.close().await;
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0]["result"]["content"][0]["text"], "slept");
}

/// The same server as a real child process: stdout carries only MCP messages, calls overlap,
/// and closing stdin ends the process.
#[tokio::test]
async fn drives_a_real_child_process() {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_transport_fixture"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the fixture binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let script = [
        call(1, "rendezvous", json!({"label": "a"})),
        call(2, "rendezvous", json!({"label": "b"})),
        request(json!(3), "server/discover", json!({})),
    ]
    .concat();
    stdin.write_all(script.as_bytes()).await.unwrap();
    let mut replies = Vec::new();
    for _ in 0..3 {
        let line = tokio::time::timeout(LIMIT, stdout.next_line())
            .await
            .expect("the child answered in time")
            .unwrap()
            .expect("a line");
        let reply: Value = serde_json::from_str(&line).expect("stdout carries only JSON-RPC");
        replies.push(reply);
    }
    let mut ids: Vec<i64> = replies.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, [1, 2, 3]);
    drop(stdin);
    let status = tokio::time::timeout(LIMIT, child.wait())
        .await
        .expect("the child exits on EOF")
        .unwrap();
    assert!(status.success());
    assert_eq!(
        stdout.next_line().await.unwrap(),
        None,
        "nothing after the answers"
    );
}
