//! `subscriptions/listen` on both transports: the acknowledgement first, every notification
//! tagged with the subscription id, filters honoured, list changes delivered, cancellation.

use mcp_test::Server;
use mcp_test::testing::http::{oneshot, oneshot_stream};
use mcp_test::transport::http::{HttpConfig, router};
use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test_downstream::transport_server;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const LIMIT: Duration = Duration::from_secs(30);

fn message(id: Value, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": {}});
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn listen(id: &str, notifications: Value) -> Value {
    message(
        json!(id),
        "subscriptions/listen",
        json!({"notifications": notifications}),
    )
}

fn announce(id: i64) -> Value {
    message(
        json!(id),
        "tools/call",
        json!({"name": "announce", "arguments": {}}),
    )
}

struct Stdio {
    input: tokio::io::DuplexStream,
    output: tokio::io::Lines<BufReader<tokio::io::DuplexStream>>,
}

impl Stdio {
    fn start(server: Server) -> Stdio {
        let (client_in, server_out) = tokio::io::duplex(1 << 16);
        let (input, server_in) = tokio::io::duplex(1 << 16);
        tokio::spawn(serve(server, server_in, server_out, StdioConfig::default()));
        Stdio {
            input,
            output: BufReader::new(client_in).lines(),
        }
    }
    async fn send(&mut self, message: &Value) {
        self.input
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(LIMIT, self.output.next_line())
            .await
            .expect("a message in time")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    }
}

#[tokio::test]
async fn stdio_subscription_sees_a_tool_list_change_and_ends_on_cancel() {
    let server = transport_server();
    let mut io = Stdio::start(server.clone());
    io.send(&listen(
        "sub-1",
        json!({"toolsListChanged": true, "promptsListChanged": true}),
    ))
    .await;
    let ack = io.next().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub-1"
    );
    // The server has tools but no prompts: it honours only the tools part of the filter.
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true})
    );

    io.send(&announce(2)).await;
    let mut got = [io.next().await, io.next().await];
    got.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(got[0]["method"], "notifications/tools/list_changed");
    assert_eq!(
        got[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub-1"
    );
    assert_eq!(got[1]["id"], 2);

    io.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "sub-1"}}))
        .await;
    io.send(&announce(3)).await;
    let reply = io.next().await;
    assert_eq!(
        reply["id"], 3,
        "nothing more for a cancelled subscription: {reply}"
    );
}

#[tokio::test]
async fn a_subscription_gets_only_what_it_asked_for_and_a_graceful_close() {
    let server = transport_server();
    let mut io = Stdio::start(server.clone());
    io.send(&listen(
        "sub-r",
        json!({"resourceSubscriptions": ["file:///x"]}),
    ))
    .await;
    let ack = io.next().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // No resources on this server: nothing is honoured.
    assert_eq!(ack["params"]["notifications"], json!({}));
    io.send(&announce(2)).await;
    assert_eq!(
        io.next().await["id"],
        2,
        "no tools notification for this filter"
    );
    server.close_subscriptions();
    let closed = io.next().await;
    assert_eq!(closed["id"], "sub-r");
    assert_eq!(closed["result"]["resultType"], "complete");
    assert_eq!(
        closed["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub-r"
    );
    mcp_test::spec::check_response("subscriptions/listen", &closed).unwrap();
}

#[tokio::test]
async fn bad_filters_are_invalid_params() {
    let server = transport_server();
    let mut io = Stdio::start(server);
    io.send(&listen("bad", json!({"toolsListChanged": "yes"})))
        .await;
    let reply = io.next().await;
    assert_eq!(reply["error"]["code"], -32602);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("notifications.toolsListChanged must be a boolean")
    );
}

#[tokio::test]
async fn listen_without_a_streaming_transport_is_an_error_not_a_hang() {
    let server = transport_server();
    let reply = server
        .handle_json(&listen("x", json!({"toolsListChanged": true})).to_string())
        .await
        .unwrap();
    let reply: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(reply["error"]["code"], -32603);
}

fn post(body: &Value, method: &str, name: Option<&str>) -> http::Request<String> {
    let mut req = http::Request::post("/mcp")
        .header("host", "localhost")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = name {
        req = req.header("mcp-name", name);
    }
    req.body(body.to_string()).unwrap()
}

#[tokio::test]
async fn http_subscription_streams_changes_and_closing_the_stream_cancels() {
    let app = router(transport_server(), HttpConfig::default());
    let (head, mut stream) = oneshot_stream(
        &app,
        post(
            &listen("h1", json!({"toolsListChanged": true})),
            "subscriptions/listen",
            None,
        ),
    )
    .await;
    assert_eq!(head.status, 200);
    assert_eq!(head.headers["content-type"], "text/event-stream");
    let ack = tokio::time::timeout(LIMIT, stream.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "h1"
    );

    let resp = oneshot(&app, post(&announce(2), "tools/call", Some("announce"))).await;
    assert_eq!(resp.status(), 200);
    let change = tokio::time::timeout(LIMIT, stream.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(change["method"], "notifications/tools/list_changed");
    assert_eq!(
        change["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "h1"
    );
    drop(stream); // closing the stream is how an HTTP client cancels
    let resp = oneshot(&app, post(&announce(3), "tools/call", Some("announce"))).await;
    assert_eq!(
        resp.status(),
        200,
        "the server keeps serving after the cancel"
    );
}
