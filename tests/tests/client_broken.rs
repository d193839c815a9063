//! `mcp_test::client::Client` against real processes: the transport fixture binary, and
//! deliberately broken servers (small `sh` scripts and a raw TCP responder). Every failure is
//! a `ClientError` naming what happened, with the server's stderr; nothing hangs.

#![cfg(unix)]

use mcp_test::client::{Client, ClientError, TransportEvent};
use mcp_test::testing::{RequestOptions, call_tool, list_tools, result};
use mcp_test::wire::Era;
use mcp_test::{assert_rpc_error, assert_tool_text};
use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

fn sh(script: &str) -> Command {
    let mut command = Command::new("sh");
    command.arg("-c").arg(script);
    command
}

async fn client_for(script: &str, timeout: Duration) -> Client {
    Client::spawn(sh(script))
        .await
        .unwrap()
        .with_timeout(timeout)
}

#[tokio::test]
async fn a_real_server_process_over_stdio() {
    let client = Client::spawn(Command::new(env!("CARGO_BIN_EXE_transport_fixture")))
        .await
        .unwrap();
    let opts = RequestOptions::new();
    let tools = result(list_tools(&client, &opts).await);
    assert!(tools["tools"].as_array().is_some_and(|t| !t.is_empty()));
    assert_tool_text!(
        call_tool(&client, "forecast", json!({"region": "Oslo"}), &opts).await,
        "sunny in Oslo"
    );
    assert_rpc_error!(call_tool(&client, "nope", json!({}), &opts).await, -32602);
    assert!(
        client.transport_events().is_empty(),
        "{:?}",
        client.transport_events()
    );
    // Closing stdin ends the server: it exits by itself, successfully.
    let status = client.close().await.unwrap().expect("a child process");
    assert!(status.success(), "{status:?}");
    // A closed client sends nothing more.
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(err.to_string().contains("closed"), "{err}");
}

#[tokio::test]
async fn non_json_on_stdout_and_no_answer_is_an_error_quoting_the_line() {
    let client = client_for(
        "read line; echo 'Server starting...'; cat >/dev/null",
        Duration::from_millis(500),
    )
    .await;
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    match &err {
        ClientError::NotJson { line, .. } => assert_eq!(line, "Server starting..."),
        other => panic!("expected NotJson, got {other:?}"),
    }
    assert!(
        client.transport_events()[0]
            .to_string()
            .contains("Server starting...")
    );
    client.close().await.unwrap();
}

/// A stray line answers nothing: the requests in flight stay in flight, each gets its own
/// answer by id whatever came between, and the line is one transport event.
#[tokio::test]
async fn a_stray_line_on_stdout_loses_no_answer_in_flight() {
    let client = client_for(
        // Reads both requests, writes two stray lines, then answers the second before the
        // first, each with its own id and method.
        r#"read a; read b; echo 'debug: two requests in'; echo '{"oops": 1}'
           for r in "$b" "$a"; do
             id=$(printf %s "$r" | sed 's/.*"id":\([0-9]*\).*/\1/')
             m=$(printf %s "$r" | sed 's/.*"method":"\([^"]*\)".*/\1/')
             echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"method\":\"$m\"}}"
           done; cat >/dev/null"#,
        Duration::from_secs(20),
    )
    .await;
    let (a, b) = tokio::join!(
        client.call("tools/list", json!({})),
        client.call("prompts/list", json!({}))
    );
    assert_eq!(a.unwrap()["method"], "tools/list");
    assert_eq!(b.unwrap()["method"], "prompts/list");
    let events: Vec<String> = client
        .transport_events()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events[0].contains("debug: two requests in"), "{events:?}");
    assert!(events[1].contains("oops"), "{events:?}");
    client.close().await.unwrap();
}

#[tokio::test]
async fn a_server_that_exits_is_reported_with_its_stderr() {
    let client = client_for(
        "read line; echo 'panic: out of cheese' >&2; exit 3",
        Duration::from_secs(30),
    )
    .await;
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(matches!(err, ClientError::Closed { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("closed its stdout"), "{message}");
    assert!(message.contains("out of cheese"), "{message}");
    let status = client.close().await.unwrap().unwrap();
    assert_eq!(status.code(), Some(3));
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let client = client_for("cat >/dev/null", Duration::from_millis(300)).await;
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(matches!(err, ClientError::Timeout { .. }), "{err:?}");
    assert!(err.to_string().contains("tools/list"), "{err}");
    // `cat` ends at end of input, so closing stdin ends it.
    assert!(client.close().await.unwrap().unwrap().success());
}

#[tokio::test]
async fn a_reply_with_the_wrong_id_is_reported_as_such_not_as_silence() {
    let client = client_for(
        r#"read line; echo '{"jsonrpc":"2.0","id":999,"result":{}}'; cat >/dev/null"#,
        Duration::from_millis(500),
    )
    .await;
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    match &err {
        ClientError::WrongId {
            expected,
            got,
            after,
            ..
        } => {
            assert_eq!(expected, "1");
            assert_eq!(got, &["999"]);
            assert_eq!(*after, Some(Duration::from_millis(500)));
        }
        other => panic!("expected WrongId, got {other:?}"),
    }
    let message = err.to_string();
    assert!(
        message.contains("tools/list (id 1)") && message.contains("id 999 instead of 1"),
        "{message}"
    );
    let events = client.transport_events();
    assert!(events[0].to_string().contains("id 999"), "{events:?}");
    // A later request that simply gets no answer is a timeout again: the stray reply came
    // before it was sent.
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(matches!(err, ClientError::Timeout { .. }), "{err:?}");
    client.close().await.unwrap();
}

/// Serves each of `replies` (a status line onwards) to one connection on 127.0.0.1, in turn.
async fn scripted_http(replies: Vec<Vec<u8>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        for reply in replies {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut buf = vec![0_u8; 8192];
            let _ = socket.read(&mut buf).await;
            let _ = socket.write_all(&reply).await;
        }
    });
    url
}

fn http_reply(content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Over HTTP the reply to a POST answers its request: a response in it with another id is a
/// wrong-id reply (JSON or SSE), not the answer and not "no reply". An error whose id is
/// `null` (the server could not read the id) is still the answer.
#[tokio::test]
async fn an_http_reply_with_the_wrong_id_is_reported_as_such() {
    let url = scripted_http(vec![
        http_reply(
            "application/json",
            r#"{"jsonrpc":"2.0","id":999,"result":{"resultType":"complete","tools":[]}}"#,
        ),
        http_reply(
            "text/event-stream",
            concat!(
                "event: message\n",
                r#"data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
                "\n\nevent: message\n",
                r#"data: {"jsonrpc":"2.0","id":"x","result":{}}"#,
                "\n\n"
            ),
        ),
        http_reply(
            "application/json",
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        ),
    ])
    .await;
    let client = Client::http(&url)
        .unwrap()
        .with_timeout(Duration::from_secs(10));
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    match &err {
        ClientError::WrongId {
            expected,
            got,
            after,
            ..
        } => {
            assert_eq!(expected, "1");
            assert_eq!(got, &["999"]);
            assert_eq!(*after, None);
        }
        other => panic!("expected WrongId, got {other:?}"),
    }
    assert!(err.to_string().contains("id 999 instead of 1"), "{err}");
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(
        err.to_string().contains(r#"id "x" instead of 2"#),
        "{err:?}"
    );
    let response = client
        .send(&client.request_body("tools/list", json!({})))
        .await
        .unwrap();
    assert_eq!(response["error"]["code"], -32700);
}

#[tokio::test]
async fn a_server_that_ignores_the_end_of_its_input_is_killed_after_the_close_grace() {
    // The close grace, not the (long) call timeout, bounds the wait.
    let client = client_for("exec sleep 60", Duration::from_secs(60))
        .await
        .with_close_grace(Duration::from_millis(300));
    let started = std::time::Instant::now();
    let err = client.close().await.unwrap_err();
    match &err {
        ClientError::NoExit { after, .. } => assert_eq!(*after, Duration::from_millis(300)),
        other => panic!("expected NoExit, got {other:?}"),
    }
    assert!(err.to_string().contains("(killed)"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // `sleep` ends on SIGTERM: reported so, not as one that needed SIGKILL (the server is
    // the client's child, and stays a zombie until the client waits for it).
    let stops: Vec<_> = client
        .transport_events()
        .into_iter()
        .filter(|e| matches!(e, TransportEvent::GroupStopped { .. }))
        .collect();
    assert!(
        matches!(
            stops.as_slice(),
            [TransportEvent::GroupStopped {
                server_exited: false,
                sigkill: false
            }]
        ),
        "{stops:?}"
    );
    // An explicit grace overrides the client's.
    let client = client_for("exec sleep 60", Duration::from_secs(60)).await;
    let err = client
        .close_within(Duration::from_millis(100))
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::NoExit { .. }), "{err:?}");
}

#[tokio::test]
async fn a_program_that_does_not_exist_is_a_spawn_error() {
    let err = Client::spawn(Command::new("/nonexistent/mcp-server"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("/nonexistent/mcp-server"), "{err}");
}

#[tokio::test]
async fn the_era_probe_falls_back_to_initialize_for_a_2025_server() {
    // A 2025-11-25 server: -32601 for server/discover, then the initialize handshake.
    let script = r#"
        read discover
        echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'
        read initialize
        echo "$initialize" >&2
        echo '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}}'
        read initialized
        echo "$initialized" >&2
        cat >/dev/null
    "#;
    let client = client_for(script, Duration::from_secs(30)).await;
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Legacy, "{handshake:?}");
    assert_eq!(handshake.protocol_version, "2025-11-25");
    assert_eq!(handshake.result["serverInfo"]["name"], "old");
    client.close().await.unwrap();
    let stderr = client.stderr();
    assert!(stderr.contains(r#""method":"initialize""#), "{stderr}");
    assert!(stderr.contains("notifications/initialized"), "{stderr}");
}

#[tokio::test]
async fn an_http_reply_that_is_not_json_rpc_is_an_error_with_status_and_body() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut buf = vec![0_u8; 8192];
        let _ = socket.read(&mut buf).await;
        let _ = socket
            .write_all(
                b"HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\ncontent-length: 11\r\nconnection: close\r\n\r\nupstream???",
            )
            .await;
    });
    let client = Client::http(&url).unwrap();
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    match &err {
        ClientError::Http { status, body, .. } => {
            assert_eq!(*status, 502);
            assert_eq!(body, "upstream???");
        }
        other => panic!("expected an HTTP error, got {other:?}"),
    }
}

#[tokio::test]
async fn nobody_listening_is_an_http_error_naming_the_url() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let client = Client::http(&url).unwrap();
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(err.to_string().contains(&url), "{err}");
}

/// A legacy server that answers `server/discover` with an error other than -32601 (here
/// -32600, "Server not initialized"): the fallback is not keyed to one code
/// (`basic/versioning.mdx` §Backward Compatibility: anything but a recognised modern error
/// identifies a legacy server).
#[tokio::test]
async fn the_era_probe_falls_back_on_any_error_that_is_not_modern() {
    let script = r#"
        read discover
        echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Server not initialized"}}'
        read initialize
        echo '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}}'
        cat >/dev/null
    "#;
    let client = client_for(script, Duration::from_secs(30)).await;
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Legacy, "{handshake:?}");
    assert_eq!(handshake.protocol_version, "2025-11-25");
    client.close().await.unwrap();
}

/// A legacy server that ignores an unknown request: after the probe wait the client sends
/// `initialize` too, and the legacy answer wins well before the call timeout.
#[tokio::test]
async fn the_era_probe_falls_back_on_silence_after_the_probe_wait() {
    let script = r#"
        read discover
        read initialize
        echo '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"quiet","version":"1"}}}'
        cat >/dev/null
    "#;
    let client = client_for(script, Duration::from_secs(60))
        .await
        .with_probe_wait(Duration::from_millis(200));
    let started = std::time::Instant::now();
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Legacy, "{handshake:?}");
    assert_eq!(handshake.result["serverInfo"]["name"], "quiet");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "fell back only after {:?}",
        started.elapsed()
    );
    client.close().await.unwrap();
}

/// A modern server slow to answer (still starting) is not taken for a legacy one: it
/// refuses the `initialize` sent after the probe wait, and its discover answer decides.
#[tokio::test]
async fn a_slow_modern_server_is_still_found_modern() {
    let script = r#"
        read discover
        sleep 1
        echo '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"public"}}'
        read initialize
        echo '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: initialize"}}'
        cat >/dev/null
    "#;
    let client = client_for(script, Duration::from_secs(30))
        .await
        .with_probe_wait(Duration::from_millis(100));
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Current, "{handshake:?}");
    client.close().await.unwrap();
    assert!(
        client.transport_events().is_empty(),
        "{:?}",
        client.transport_events()
    );
}

/// A -32022 that lists 2026-07-28 is retried; one that lists no revision this client speaks
/// is an error naming the server's answer.
#[tokio::test]
async fn the_era_probe_retries_a_listed_version_and_refuses_no_common_one() {
    let script = r#"
        read discover
        echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2099-01-01"],"requested":"2026-07-28"}}}'
        cat >/dev/null
    "#;
    let client = client_for(script, Duration::from_secs(30)).await;
    let err = client.era().await.unwrap_err();
    assert!(err.to_string().contains("no revision in common"), "{err}");
    assert!(err.to_string().contains("2099-01-01"), "{err}");
    client.close().await.unwrap();
}

/// The server's word on versions decides the era: a `server/discover` result (or a -32022)
/// that names 2025-11-25 and not 2026-07-28 is followed by the 2025-11-25 handshake
/// (server/discover.mdx: "The client should choose one of these for subsequent requests"),
/// and the handshake says why, once.
#[test_case::test_case(
    r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2025-11-25","2025-06-18"],"capabilities":{},"ttlMs":0,"cacheScope":"public"}}"#,
    "supportedVersions";
    "a discover result without 2026-07-28"
)]
#[test_case::test_case(
    r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2025-11-25"],"requested":"2026-07-28"}}}"#,
    "-32022";
    "a -32022 naming only 2025-11-25"
)]
#[tokio::test]
async fn the_era_probe_follows_the_versions_the_server_names(discover: &str, said: &str) {
    let script = format!(
        r#"
        read discover
        echo '{discover}'
        read initialize
        echo '{{"jsonrpc":"2.0","id":2,"result":{{"protocolVersion":"2025-11-25","capabilities":{{}},"serverInfo":{{"name":"older","version":"1"}}}}}}'
        read initialized
        cat >/dev/null
    "#
    );
    let client = client_for(&script, Duration::from_secs(30)).await;
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Legacy, "{handshake:?}");
    assert_eq!(handshake.protocol_version, "2025-11-25");
    let why = handshake.negotiation.expect("the reason is kept");
    assert!(why.contains(said) && why.contains("2025-11-25"), "{why}");
    client.close().await.unwrap();
    assert!(
        client.transport_events().is_empty(),
        "{:?}",
        client.transport_events()
    );
}

/// Streamable HTTP: a 400 whose body holds no recognised modern error is a legacy server
/// (`basic/transports/streamable-http.mdx` §Backward Compatibility), so the client falls back
/// to `initialize` and keeps the session id the server mints.
#[tokio::test]
async fn an_http_400_without_a_modern_error_is_a_legacy_server() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let replies: [&[u8]; 3] = [
        b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 92\r\nconnection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Bad Request: Server not init\"},\"id\":null}",
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: s-1\r\ncontent-length: 126\r\nconnection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"serverInfo\":{\"name\":\"old\",\"version\":\"1\"}}}",
        b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
    ];
    tokio::spawn(async move {
        for reply in replies {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut buf = vec![0_u8; 8192];
            let _ = socket.read(&mut buf).await;
            let _ = socket.write_all(reply).await;
        }
    });
    let client = Client::http(&url)
        .unwrap()
        .with_timeout(Duration::from_secs(30));
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Legacy, "{handshake:?}");
    assert_eq!(handshake.result["serverInfo"]["name"], "old");
}

/// Streamable HTTP after the 2025-era handshake: every request carries the negotiated revision
/// in `MCP-Protocol-Version` (2025-11-25 basic/transports.mdx §Protocol Version Header), even a
/// body built with the 2026-07-28 `_meta` (which names 2026-07-28): a 2025-era server rejects
/// a version header it does not support.
#[tokio::test]
async fn after_a_legacy_http_handshake_the_header_is_the_negotiated_version() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let replies: [&[u8]; 4] = [
        b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 92\r\nconnection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Bad Request: Server not init\"},\"id\":null}",
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: s-1\r\ncontent-length: 126\r\nconnection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"serverInfo\":{\"name\":\"old\",\"version\":\"1\"}}}",
        b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 46\r\nconnection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[]}}",
    ];
    let (tx, rx) = tokio::sync::oneshot::channel::<String>();
    tokio::spawn(async move {
        let mut last = String::new();
        for reply in replies {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut buf = vec![0_u8; 8192];
            let n = socket.read(&mut buf).await.unwrap_or(0);
            last = String::from_utf8_lossy(&buf[..n]).into_owned();
            let _ = socket.write_all(reply).await;
        }
        let _ = tx.send(last);
    });
    let client = Client::http(&url)
        .unwrap()
        .with_timeout(Duration::from_secs(30));
    assert_eq!(client.era().await.unwrap().era, Era::Legacy);
    let body = client.request_body("tools/list", json!({}));
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    let response = client.send(&body).await.unwrap();
    assert_eq!(response["result"]["tools"], json!([]), "{response}");
    let request = rx.await.unwrap().to_ascii_lowercase();
    assert!(
        request.contains("mcp-protocol-version: 2025-11-25\r\n"),
        "{request}"
    );
    assert!(!request.contains("2026-07-28\r\n"), "{request}");
    assert!(request.contains("mcp-session-id: s-1\r\n"), "{request}");
}

/// A 2025-era HTTP server that refuses `server/discover` with an error under an id of its own
/// is still found legacy: a wrong-id answer is not a modern one, so `initialize` decides.
#[tokio::test]
async fn a_wrong_id_answer_to_the_era_probe_falls_back_to_initialize() {
    let refused = r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Missing session ID"}}"#;
    let url = scripted_http(vec![
        format!(
            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{refused}",
            refused.len()
        )
        .into_bytes(),
        http_reply(
            "application/json",
            r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}}"#,
        ),
        b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_vec(),
    ])
    .await;
    let client = Client::http(&url)
        .unwrap()
        .with_timeout(Duration::from_secs(10));
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Legacy, "{handshake:?}");
    assert_eq!(handshake.result["serverInfo"]["name"], "old");
}

#[tokio::test]
async fn requests_from_the_server_get_an_answer_not_silence() {
    // A 2025-era server may ping its client, or ask for roots, and wait for the answer before
    // it answers anything else: `ping` gets an empty result, what the client declared no
    // capability for gets -32601. The requests are still recorded, for the checker to judge.
    let client = client_for(
        r#"read req
id=$(printf '%s' "$req" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')
echo '{"jsonrpc":"2.0","id":"s1","method":"ping"}'
read a1
echo '{"jsonrpc":"2.0","id":"s2","method":"roots/list"}'
read a2
echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"answers\":[$a1,$a2]}}"
cat >/dev/null"#,
        Duration::from_secs(5),
    )
    .await;
    let result = client.call("tools/list", json!({})).await.unwrap();
    let answers = &result["answers"];
    assert_eq!(
        answers[0],
        json!({"jsonrpc": "2.0", "id": "s1", "result": {}}),
        "{result}"
    );
    assert_eq!(answers[1]["id"], "s2", "{result}");
    assert_eq!(answers[1]["error"]["code"], -32601, "{result}");
    let events = client.transport_events();
    assert_eq!(events.len(), 2, "{events:?}");
    client.close().await.unwrap();
}

/// A server that floods stderr (about 8 MiB here) is drained and never blocks; the client
/// keeps only the tail, and says how much it dropped.
#[tokio::test]
async fn a_stderr_flood_is_drained_and_only_its_tail_kept() {
    let client = client_for(
        "read line; head -c 8000000 /dev/zero | tr '\\0' x >&2; echo 'the last words' >&2; exit 4",
        Duration::from_secs(60),
    )
    .await;
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(matches!(err, ClientError::Closed { .. }), "{err:?}");
    let stderr = client.stderr();
    assert!(
        stderr.len() <= mcp_test::client::MAX_STDERR_BYTES + 100,
        "{} bytes kept",
        stderr.len()
    );
    assert!(
        stderr.contains("earlier bytes of stderr not kept"),
        "{}",
        &stderr[..200]
    );
    assert!(
        stderr.ends_with("the last words\n"),
        "{}",
        &stderr[stderr.len() - 100..]
    );
    client.close().await.unwrap();
}

/// A line longer than the limit is read to its end and thrown away; the request waiting for
/// it fails naming the limit as soon as the line goes over it, and the connection goes on.
#[tokio::test]
async fn a_line_over_the_limit_fails_its_request_naming_the_limit() {
    let client = client_for(
        r#"read line; printf '{"jsonrpc":"2.0","id":1,"result":{"x":"'; head -c 50000 /dev/zero | tr '\0' a; echo '"}}'; read line; echo '{"jsonrpc":"2.0","id":2,"result":{"tools":[],"resultType":"complete"}}'; cat >/dev/null"#,
        Duration::from_secs(30),
    )
    .await
    .with_max_message_bytes(10_000);
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    match &err {
        ClientError::TooLarge {
            what,
            limit_name,
            bytes,
            limit,
            ..
        } => {
            assert!(what.starts_with("a line on stdout"), "{what}");
            assert_eq!(*limit_name, "max_line_bytes");
            assert_eq!(*limit, 10_000);
            // Reported as soon as it went over, not when (if ever) it ends.
            assert!(*bytes > 10_000, "{bytes}");
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert!(
        err.to_string()
            .contains("limit max_line_bytes of 10000 bytes"),
        "{err}"
    );
    // The next message is read as usual.
    let ok = client.call("tools/list", json!({})).await.unwrap();
    assert_eq!(ok["tools"], json!([]), "{ok}");
    assert!(
        client.transport_events().iter().any(|e| e
            .to_string()
            .contains("over the client's limit of 10000 bytes")),
        "{:?}",
        client.transport_events()
    );
    client.close().await.unwrap();
}

/// A flood of stray replies is counted, not kept: the first 10,000 are events, the rest one
/// `Dropped` count.
#[tokio::test]
async fn a_flood_of_stray_replies_keeps_a_bounded_number_of_events() {
    let client = client_for(
        r#"read line; i=0; while [ $i -lt 10500 ]; do echo '{"jsonrpc":"2.0","id":999,"result":{}}'; i=$((i+1)); done; echo '{"jsonrpc":"2.0","id":1,"result":{"tools":[],"resultType":"complete"}}'; cat >/dev/null"#,
        Duration::from_secs(60),
    )
    .await;
    client.call("tools/list", json!({})).await.unwrap();
    let events = client.transport_events();
    assert_eq!(events.len(), mcp_test::client::MAX_KEPT_MESSAGES + 1);
    assert!(
        events
            .last()
            .unwrap()
            .to_string()
            .starts_with("500 more events"),
        "{}",
        events.last().unwrap()
    );
    client.close().await.unwrap();
}

/// Over HTTP a body longer than the limit is given up at the limit, not buffered whole.
#[tokio::test]
async fn an_http_body_over_the_limit_is_an_error_naming_the_limit() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"x":"{}"}}}}"#,
        "a".repeat(50_000)
    );
    let url = scripted_http(vec![http_reply("application/json", &body)]).await;
    let client = Client::http(&url)
        .unwrap()
        .with_timeout(Duration::from_secs(30))
        .with_max_message_bytes(10_000);
    let err = client.call("tools/list", json!({})).await.unwrap_err();
    assert!(
        matches!(err, ClientError::TooLarge { limit: 10_000, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("reply body"), "{err}");
}

/// Whether process `pid` is running (not gone, not a zombie), from `/proc` (Linux).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(')')?.1.trim_start().chars().next()?;
            Some(state != 'Z' && state != 'X')
        })
        .unwrap_or(false)
}

/// The pid a script wrote to `file`, once it is there.
async fn pid_in(file: &std::path::Path) -> u32 {
    for _ in 0..200 {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("no pid in {}", file.display());
}

/// Closing a server ends every process it started: a grandchild that holds stdout and one
/// that ignores SIGTERM, while the server itself exits at end of input or ignores it.
#[tokio::test]
async fn closing_a_server_leaves_no_process_it_started() {
    if !std::path::Path::new("/proc/self/stat").exists() {
        return; // the check reads /proc
    }
    let dir = std::env::temp_dir().join(format!("mcp-test-orphans-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, server) in [
        // Exits at end of input, leaving a grandchild that holds its stdout.
        ("exits", "sleep 300 & echo $! > {pid}; cat >/dev/null"),
        // Ignores end of input and SIGTERM, with a grandchild that ignores SIGTERM too.
        (
            "stubborn",
            "trap '' TERM; (trap '' TERM; sleep 300) & echo $! > {pid}; while true; do sleep 1; done",
        ),
    ] {
        let pid_file = dir.join(format!("{name}.pid"));
        let _ = std::fs::remove_file(&pid_file);
        let script = server.replace("{pid}", &pid_file.display().to_string());
        let client = client_for(&script, Duration::from_secs(5)).await;
        let grandchild = pid_in(&pid_file).await;
        assert!(running(grandchild), "{name}: the grandchild started");
        let _ = client.close_within(Duration::from_millis(300)).await;
        // SIGKILL is sent by the time close returns; the kernel ends the process right after.
        let mut gone = false;
        for _ in 0..100 {
            if !running(grandchild) {
                gone = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            gone,
            "{name}: the grandchild {grandchild} outlived the close by 2 s"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
