//! One server, both eras: the runtime answers the 2025-11-25 `initialize` handshake beside
//! 2026-07-28, in process (a `Session`), over stdio, and to mcp-test's own client in
//! `Era::Legacy`; a tool that elicits, written once, passes the same assertions in both eras.

use mcp_test::client::Client;
use mcp_test::rounds::Elicitation;
use mcp_test::session::Session;
use mcp_test::spec::check_response_in;
use mcp_test::target::{Answers, Target};
use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test::wire::Era;
use mcp_test::{CallToolResult, Caller, Context, Server, Tool, ToolError};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Asks for a name, the same code in both eras.
struct Greet;

impl Tool for Greet {
    const NAME: &'static str = "greet";
    fn input_schema() -> Value {
        json!({"type": "object", "additionalProperties": false})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Greet)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}},
                            "required": ["name"]});
        ctx.progress(1.0, Some(2.0), Some("asking"));
        Ok(match ctx.elicit("What is your name?", schema).await {
            Ok(Elicitation::Accept(form)) => {
                CallToolResult::text(format!("Hello, {}!", form["name"].as_str().unwrap_or("?")))
            }
            Ok(Elicitation::Decline) => CallToolResult::text("Hello, whoever you are."),
            Ok(Elicitation::Cancel) => CallToolResult::error_text("cancelled"),
            Err(e) if e.is_not_supported() => CallToolResult::text("Hello! (no questions here)"),
            Err(e) => return Err(e.into()),
        })
    }
}

/// Logs at two levels.
struct Chatty;

impl Tool for Chatty {
    const NAME: &'static str = "chatty";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Chatty)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        ctx.log(
            mcp_test::wire::LoggingLevel::Debug,
            None,
            json!("debug line"),
        );
        ctx.log(
            mcp_test::wire::LoggingLevel::Error,
            None,
            json!("error line"),
        );
        Ok(CallToolResult::text("said"))
    }
}

fn server() -> Server {
    Server::builder("eras", "1.0.0")
        .tool::<Greet>()
        .tool::<Chatty>()
        .logging()
        .instructions("Say hello.")
        .resource(
            mcp_test::resources::Resource::new("file:///notes.txt", "notes")
                .mime_type("text/plain")
                .text("remember"),
        )
        .build()
        .unwrap()
}

fn initialize(id: i64, version: &str, capabilities: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": capabilities,
        "clientInfo": {"name": "eras-test", "version": "1"}}})
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

async fn send(session: &Session, message: Value) -> Value {
    let exchange = session.send(&message, &Caller::default()).await.unwrap();
    exchange.response.unwrap_or(Value::Null)
}

/// A 2025-era session in process, initialized with `capabilities`, whose server requests are
/// answered by `answer` (the elicitation/create params in, the result out).
fn legacy_session(
    server: Server,
    answer: impl Fn(&Value) -> Value + Send + 'static,
) -> (Session, mpsc::UnboundedReceiver<Value>) {
    let (out, mut requests) = mpsc::unbounded_channel::<Value>();
    let (others_tx, others) = mpsc::unbounded_channel();
    let session = Session::new(server, Some(out));
    let answering = session.clone();
    tokio::spawn(async move {
        while let Some(message) = requests.recv().await {
            if message.get("id").is_some() {
                assert_eq!(message["method"], "elicitation/create", "{message}");
                let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": answer(&message["params"])});
                assert!(answering.deliver(&reply), "the session waits for {reply}");
            } else {
                let _ = others_tx.send(message);
            }
        }
    });
    (session, others)
}

#[tokio::test]
async fn initialize_negotiates_a_2025_revision_and_declares_what_is_registered() {
    let session = Session::new(server(), None);
    let reply = send(&session, initialize(1, "2025-11-25", json!({}))).await;
    check_response_in(Era::Legacy, "initialize", &reply).unwrap();
    let result = &reply["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(result["serverInfo"]["name"], "eras");
    assert_eq!(result["instructions"], "Say hello.");
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(result["capabilities"]["resources"]["subscribe"], true);
    assert!(result["capabilities"]["logging"].is_object());
    assert!(result["capabilities"].get("prompts").is_none());
    assert!(result["capabilities"].get("extensions").is_none());
    assert_eq!(session.era(), Some(Era::Legacy));
    assert!(!session.initialized());
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send(&session, note).await, Value::Null);
    assert!(session.initialized());
    let again = send(&session, initialize(2, "2025-11-25", json!({}))).await;
    assert_eq!(again["error"]["code"], -32600, "{again}");

    // An older supported revision is echoed; an unknown one gets the latest.
    for (offered, chosen) in [("2025-06-18", "2025-06-18"), ("2024-11-05", "2025-11-25")] {
        let session = Session::new(server(), None);
        let reply = send(&session, initialize(1, offered, json!({}))).await;
        assert_eq!(reply["result"]["protocolVersion"], chosen, "{reply}");
    }
    // A malformed initialize names what is wrong.
    let session = Session::new(server(), None);
    let reply = send(
        &session,
        request(1, "initialize", json!({"capabilities": {}})),
    )
    .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("protocolVersion")
    );
    assert_eq!(session.era(), None);
}

#[tokio::test]
async fn a_2025_session_serves_results_in_2025_shape() {
    let session = Session::new(server(), None);
    send(&session, initialize(1, "2025-11-25", json!({}))).await;
    for (id, method, params) in [
        (2, "ping", json!({})),
        (3, "tools/list", json!({})),
        (4, "resources/list", json!({})),
        (5, "resources/read", json!({"uri": "file:///notes.txt"})),
        (6, "tools/call", json!({"name": "chatty", "arguments": {}})),
        (
            7,
            "resources/subscribe",
            json!({"uri": "file:///notes.txt"}),
        ),
        (8, "logging/setLevel", json!({"level": "info"})),
    ] {
        let reply = send(&session, request(id, method, params)).await;
        assert!(reply.get("result").is_some(), "{method}: {reply}");
        check_response_in(Era::Legacy, method, &reply)
            .unwrap_or_else(|e| panic!("{method}: {e}: {reply}"));
        let result = reply["result"].as_object().unwrap();
        for key in ["resultType", "ttlMs", "cacheScope"] {
            assert!(!result.contains_key(key), "{method} carries {key}: {reply}");
        }
    }
    // The 2026-only methods do not exist in this era.
    for method in ["server/discover", "subscriptions/listen"] {
        let reply = send(&session, request(9, method, json!({}))).await;
        assert_eq!(reply["error"]["code"], -32601, "{method}: {reply}");
    }
    let bad = send(
        &session,
        request(10, "logging/setLevel", json!({"level": "loud"})),
    )
    .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
}

#[tokio::test]
async fn set_level_decides_which_log_messages_are_sent() {
    let session = Session::new(server(), None);
    send(&session, initialize(1, "2025-11-25", json!({}))).await;
    let call = request(2, "tools/call", json!({"name": "chatty"}));
    let silent = session.send(&call, &Caller::default()).await.unwrap();
    assert!(
        silent.notifications.is_empty(),
        "{:?}",
        silent.notifications
    );
    send(
        &session,
        request(3, "logging/setLevel", json!({"level": "warning"})),
    )
    .await;
    let loud = session.send(&call, &Caller::default()).await.unwrap();
    let levels: Vec<&Value> = loud
        .notifications_of("notifications/message")
        .map(|n| &n["params"]["level"])
        .collect();
    assert_eq!(levels, [&json!("error")]);
}

#[tokio::test]
async fn subscriptions_and_list_changes_reach_a_2025_session() {
    let server = server();
    let (session, mut others) = legacy_session(server.clone(), |_| json!({"action": "cancel"}));
    send(&session, initialize(1, "2025-11-25", json!({}))).await;
    // Not subscribed yet: an update is not sent, a list change is.
    server.notify_resource_updated("file:///notes.txt");
    server.notify_tools_list_changed();
    let first = tokio::time::timeout(Duration::from_secs(10), others.recv())
        .await
        .unwrap();
    assert_eq!(first.unwrap()["method"], "notifications/tools/list_changed");
    send(
        &session,
        request(
            2,
            "resources/subscribe",
            json!({"uri": "file:///notes.txt"}),
        ),
    )
    .await;
    server.notify_resource_updated("file:///other.txt");
    server.notify_resource_updated("file:///notes.txt");
    let update = tokio::time::timeout(Duration::from_secs(10), others.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        update,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "file:///notes.txt"}})
    );
    send(
        &session,
        request(
            3,
            "resources/unsubscribe",
            json!({"uri": "file:///notes.txt"}),
        ),
    )
    .await;
    server.notify_resource_updated("file:///notes.txt");
    server.notify_prompts_list_changed(); // no prompts: not declared, not sent
    server.notify_resources_list_changed();
    let next = tokio::time::timeout(Duration::from_secs(10), others.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        next["method"], "notifications/resources/list_changed",
        "{next}"
    );
}

/// What calling `greet` shows, in either era, when the client answers `answer` (or, with
/// `None`, declares no elicitation).
async fn greet_in(era: Era, answer: Option<Value>) -> (Value, Vec<Value>) {
    let capabilities = if answer.is_some() {
        json!({"elicitation": {}})
    } else {
        json!({})
    };
    match era {
        Era::Current => {
            let server = server();
            let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientCapabilities": capabilities,
                          "progressToken": "p"},
                "name": "greet", "arguments": {}}});
            let answers = match &answer {
                Some(a) => Answers::new().answer("elicit-1", a.clone()),
                None => Answers::new(),
            };
            let rounds =
                mcp_test::target::drive(&server, &body, &answers, &Caller::default(), None)
                    .await
                    .unwrap();
            let progress = rounds
                .exchanges
                .iter()
                .flat_map(|r| r.notifications.iter().cloned())
                .collect::<Vec<_>>();
            (rounds.last().clone(), progress)
        }
        Era::Legacy => {
            let reply = answer.clone().unwrap_or(Value::Null);
            let (session, _others) = legacy_session(server(), move |params| {
                assert_eq!(params["message"], "What is your name?");
                reply.clone()
            });
            send(&session, initialize(1, "2025-11-25", capabilities)).await;
            let call = request(
                2,
                "tools/call",
                json!({"name": "greet", "arguments": {},
                                                        "_meta": {"progressToken": "p"}}),
            );
            let exchange = session.send(&call, &Caller::default()).await.unwrap();
            let response = exchange.response.unwrap();
            check_response_in(Era::Legacy, "tools/call", &response).unwrap();
            (response, exchange.notifications)
        }
    }
}

#[tokio::test]
async fn a_tool_that_elicits_passes_the_same_test_in_both_eras() {
    for era in [Era::Current, Era::Legacy] {
        let accept = json!({"action": "accept", "content": {"name": "Ada"}});
        let (response, notes) = greet_in(era, Some(accept)).await;
        assert_eq!(
            response["result"]["content"][0]["text"], "Hello, Ada!",
            "{era}: {response}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n["method"] == "notifications/progress"
                    && n["params"]["progressToken"] == "p"),
            "{era}: {notes:?}"
        );
        let (response, _) = greet_in(era, Some(json!({"action": "decline"}))).await;
        assert_eq!(
            response["result"]["content"][0]["text"], "Hello, whoever you are.",
            "{era}: {response}"
        );
        let (response, _) = greet_in(era, None).await;
        assert_eq!(
            response["result"]["content"][0]["text"], "Hello! (no questions here)",
            "{era}: {response}"
        );
    }
}

#[tokio::test]
async fn the_eras_option_refuses_the_era_left_out() {
    let modern = Server::builder("m", "1")
        .tool::<Chatty>()
        .eras([Era::Current])
        .build()
        .unwrap();
    let session = Session::new(modern, None);
    let reply = send(&session, initialize(1, "2025-11-25", json!({}))).await;
    assert_eq!(reply["error"]["code"], -32601, "{reply}");

    let legacy = Server::builder("l", "1")
        .tool::<Chatty>()
        .eras([Era::Legacy])
        .build()
        .unwrap();
    let session = Session::new(legacy, None);
    let discover = send(&session, request(1, "server/discover", json!({}))).await;
    assert_eq!(discover["error"]["code"], -32601, "{discover}");
    let early = send(&session, request(2, "tools/list", json!({}))).await;
    assert_eq!(early["error"]["code"], -32600, "{early}");
    assert_eq!(
        send(&session, request(3, "ping", json!({}))).await["result"],
        json!({})
    );
    let reply = send(&session, initialize(4, "2025-11-25", json!({}))).await;
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25", "{reply}");

    let none = Server::builder("n", "1").eras([]).build().unwrap_err();
    assert!(none.to_string().contains("at least one era"), "{none}");
}

#[tokio::test]
async fn a_2026_request_first_keeps_the_connection_in_2026() {
    let session = Session::new(server(), None);
    let discover = send(
        &session,
        request(
            1,
            "server/discover",
            json!({"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}),
        ),
    )
    .await;
    assert_eq!(discover["result"]["resultType"], "complete", "{discover}");
    assert_eq!(session.era(), Some(Era::Current));
    let init = send(&session, initialize(2, "2025-11-25", json!({}))).await;
    assert_eq!(init["error"]["code"], -32601, "{init}");
}

/// mcp-test's own client finds a 2025-era server (one serving only that era) over stdio and
/// speaks to it in `Era::Legacy`.
#[tokio::test]
async fn the_client_in_the_legacy_era_over_stdio() {
    let legacy = Server::builder("legacy", "1.0.0")
        .tool::<Chatty>()
        .eras([Era::Legacy])
        .build()
        .unwrap();
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve(
        legacy,
        server_read,
        server_write,
        StdioConfig::default(),
    ));
    let (read, write) = tokio::io::split(client_end);
    let client = Client::connect(read, write);
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.era, Era::Legacy);
    assert_eq!(handshake.protocol_version, "2025-11-25");
    let tools = client
        .send(&client.request_body("tools/list", json!({})))
        .await
        .unwrap();
    check_in_legacy("tools/list", &tools);
    assert_eq!(tools["result"]["tools"][0]["name"], "chatty");
    let called = client
        .send(&client.tool_call_body("chatty", json!({})))
        .await
        .unwrap();
    check_in_legacy("tools/call", &called);
    assert_eq!(called["result"]["content"][0]["text"], "said");
    let pong = client.call("ping", json!({})).await.unwrap();
    assert_eq!(pong, json!({}));
}

fn check_in_legacy(method: &str, response: &Value) {
    check_response_in(Era::Legacy, method, response)
        .unwrap_or_else(|e| panic!("{method}: {e}: {response}"));
}

/// Over stdio, a 2025-era client answers the server's `elicitation/create` on the same
/// pipe, and the tool call resumes.
#[tokio::test]
async fn elicitation_over_stdio_in_the_2025_era() {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    let serving = tokio::spawn(serve(
        server(),
        server_read,
        server_write,
        StdioConfig::default(),
    ));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let mut next = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("the server writes within 10 s")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    };
    let mut write_line = async |message: Value| {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    };
    write_line(initialize(1, "2025-11-25", json!({"elicitation": {}}))).await;
    assert_eq!(next().await["result"]["protocolVersion"], "2025-11-25");
    write_line(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    write_line(request(
        2,
        "tools/call",
        json!({"name": "greet", "arguments": {}}),
    ))
    .await;
    let asked = next().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    assert_eq!(
        asked["params"]["requestedSchema"]["required"],
        json!(["name"])
    );
    write_line(json!({"jsonrpc": "2.0", "id": asked["id"],
                      "result": {"action": "accept", "content": {"name": "Grace"}}}))
    .await;
    let done = next().await;
    assert_eq!(done["id"], 2, "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Grace!",
        "{done}"
    );
    check_in_legacy("tools/call", &done);
    // End of input: the server finishes and returns.
    write.shutdown().await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server returns at end of input")
        .unwrap()
        .unwrap();
}

/// Over stdio, cancelling a call whose question is still open withdraws the question: the
/// server tells the client with `notifications/cancelled` and sends no response to the call.
#[tokio::test]
async fn cancelling_a_call_withdraws_its_open_question() {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    let serving = tokio::spawn(serve(
        server(),
        server_read,
        server_write,
        StdioConfig::default(),
    ));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let mut next = async || -> Option<Value> {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("the server writes within 10 s")
            .unwrap()?;
        Some(serde_json::from_str(&line).unwrap())
    };
    let mut write_line = async |message: Value| {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    };
    write_line(initialize(1, "2025-11-25", json!({"elicitation": {}}))).await;
    assert_eq!(
        next().await.unwrap()["result"]["protocolVersion"],
        "2025-11-25"
    );
    write_line(request(
        2,
        "tools/call",
        json!({"name": "greet", "arguments": {}}),
    ))
    .await;
    let asked = next().await.unwrap();
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    write_line(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                      "params": {"requestId": 2}}),
    )
    .await;
    let withdrawn = next().await.unwrap();
    assert_eq!(
        withdrawn["method"], "notifications/cancelled",
        "{withdrawn}"
    );
    assert_eq!(withdrawn["params"]["requestId"], asked["id"]);
    // A late answer is not taken for anything, and the call gets no response: the next line
    // is the answer to a ping.
    write_line(json!({"jsonrpc": "2.0", "id": asked["id"],
                      "result": {"action": "accept", "content": {"name": "Late"}}}))
    .await;
    write_line(request(3, "ping", json!({}))).await;
    let pong = next().await.unwrap();
    assert_eq!(pong["id"], 3, "{pong}");
    write.shutdown().await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server returns at end of input")
        .unwrap()
        .unwrap();
}

// ---------------------------------------------------------------------------------------------
// Streamable HTTP: 2025-era sessions beside 2026-07-28 on one endpoint.
// ---------------------------------------------------------------------------------------------

mod over_http {
    use super::*;
    use mcp_test::testing::http::{oneshot, oneshot_stream};
    use mcp_test::transport::http::{HttpConfig, Router, bind_local, router};

    fn post(body: &Value, session: Option<&str>) -> http::Request<String> {
        let mut request = http::Request::post("/mcp")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-11-25");
        }
        request.body(body.to_string()).unwrap()
    }

    fn with_session(method: http::Method, session: &str) -> http::Request<String> {
        http::Request::builder()
            .method(method)
            .uri("/mcp")
            .header("mcp-session-id", session)
            .body(String::new())
            .unwrap()
    }

    fn json(response: &http::Response<axum::body::Bytes>) -> Value {
        let messages = mcp_test::transport::http::messages(response.body());
        messages.last().cloned().unwrap_or(Value::Null)
    }

    /// Initializes a 2025-era session; returns its id.
    async fn start(app: &Router, capabilities: Value) -> String {
        let reply = oneshot(app, post(&initialize(1, "2025-11-25", capabilities), None)).await;
        assert_eq!(reply.status(), 200);
        let body = json(&reply);
        check_in_legacy("initialize", &body);
        let id = reply.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            id.len() >= 32 && id.chars().all(|c| c.is_ascii_hexdigit()),
            "{id}"
        );
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(oneshot(app, post(&note, Some(&id))).await.status(), 202);
        id
    }

    /// A session idle past the timeout ends: its id is then 404, as for any ended session, and
    /// a new `initialize` starts another. One in use does not end.
    #[tokio::test(start_paused = true)]
    async fn an_idle_session_ends_after_the_idle_timeout() {
        let config = HttpConfig::default().session_idle_timeout(Duration::from_secs(60));
        let app = router(server(), config);
        let kept = start(&app, json!({})).await;
        let idle = start(&app, json!({})).await;
        for id in 2..5 {
            tokio::time::advance(Duration::from_secs(30)).await;
            let ping = oneshot(&app, post(&request(id, "ping", json!({})), Some(&kept))).await;
            assert_eq!(ping.status(), 200, "a session in use stays");
        }
        let ended = oneshot(&app, post(&request(5, "ping", json!({})), Some(&idle))).await;
        assert_eq!(ended.status(), 404, "idle for 90 s with a 60 s timeout");
        let again = oneshot(&app, post(&request(6, "ping", json!({})), Some(&kept))).await;
        assert_eq!(again.status(), 200);
        start(&app, json!({})).await;
    }

    #[tokio::test]
    async fn sessions_live_beside_stateless_requests_on_one_endpoint() {
        let app = router(server(), HttpConfig::default());
        let session = start(&app, json!({})).await;
        let tools = oneshot(
            &app,
            post(&request(2, "tools/list", json!({})), Some(&session)),
        )
        .await;
        assert_eq!(tools.status(), 200);
        check_in_legacy("tools/list", &json(&tools));
        assert!(tools.headers().get("mcp-session-id").is_none());

        // A 2026-07-28 request on the same endpoint is still stateless.
        let modern = mcp_test::testing::http::TestRouter::new(server(), HttpConfig::default());
        let discover = modern
            .post(&mcp_test::testing::build_request(
                "server/discover",
                Value::Null,
            ))
            .await;
        assert_eq!(discover.status(), 200);
        assert!(discover.headers().get("mcp-session-id").is_none());
        assert_eq!(json(&discover)["result"]["resultType"], "complete");

        // An unknown session is 404; DELETE ends one, after which it is unknown too.
        let unknown = oneshot(&app, post(&request(3, "ping", json!({})), Some("feed"))).await;
        assert_eq!(unknown.status(), 404);
        let gone = oneshot(&app, with_session(http::Method::DELETE, &session)).await;
        assert_eq!(gone.status(), 204);
        let after = oneshot(&app, post(&request(4, "ping", json!({})), Some(&session))).await;
        assert_eq!(after.status(), 404);

        // A version header the session does not speak is 400.
        let other = start(&app, json!({})).await;
        let mut wrong = post(&request(5, "ping", json!({})), Some(&other));
        wrong
            .headers_mut()
            .insert("mcp-protocol-version", "1999-01-01".parse().unwrap());
        assert_eq!(oneshot(&app, wrong).await.status(), 400);
        // GET and DELETE without a session are not offered.
        let get = http::Request::get("/mcp").body(String::new()).unwrap();
        assert_eq!(oneshot(&app, get).await.status(), 405);
        // A foreign Origin is refused on every method.
        let mut foreign = with_session(http::Method::GET, &other);
        foreign
            .headers_mut()
            .insert("origin", "https://evil.example".parse().unwrap());
        assert_eq!(oneshot(&app, foreign).await.status(), 403);
    }

    #[tokio::test]
    async fn a_legacy_only_server_asks_for_initialize_first() {
        let legacy = Server::builder("l", "1")
            .tool::<Chatty>()
            .eras([Era::Legacy])
            .build()
            .unwrap();
        let app = router(legacy, HttpConfig::default());
        let early = oneshot(&app, post(&request(1, "tools/list", json!({})), None)).await;
        assert_eq!(early.status(), 400);
        assert_eq!(json(&early)["error"]["code"], -32600);
    }

    #[tokio::test]
    async fn the_get_stream_carries_list_changes_and_updates() {
        let server = server();
        let app = router(server.clone(), HttpConfig::default());
        let session = start(&app, json!({})).await;
        let (head, mut stream) =
            oneshot_stream(&app, with_session(http::Method::GET, &session)).await;
        assert_eq!(head.status, 200);
        assert_eq!(head.headers["content-type"], "text/event-stream");
        let second = oneshot(&app, with_session(http::Method::GET, &session)).await;
        assert_eq!(second.status(), 409);
        let subscribe = request(
            2,
            "resources/subscribe",
            json!({"uri": "file:///notes.txt"}),
        );
        assert_eq!(
            oneshot(&app, post(&subscribe, Some(&session)))
                .await
                .status(),
            200
        );
        server.notify_tools_list_changed();
        server.notify_resource_updated("file:///notes.txt");
        let first = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .unwrap();
        assert_eq!(first.unwrap()["method"], "notifications/tools/list_changed");
        let next = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .unwrap();
        assert_eq!(next.unwrap()["params"]["uri"], "file:///notes.txt");
    }

    #[tokio::test]
    async fn elicitation_travels_on_the_post_stream() {
        let app = router(server(), HttpConfig::default());
        let session = start(&app, json!({"elicitation": {}})).await;
        let call = request(2, "tools/call", json!({"name": "greet", "arguments": {}}));
        let (head, mut stream) = oneshot_stream(&app, post(&call, Some(&session))).await;
        assert_eq!(head.status, 200);
        assert_eq!(head.headers["content-type"], "text/event-stream");
        let asked = loop {
            let message = tokio::time::timeout(Duration::from_secs(10), stream.next())
                .await
                .unwrap()
                .expect("the stream carries the question");
            if message.get("id").is_some() {
                break message;
            }
        };
        assert_eq!(asked["method"], "elicitation/create", "{asked}");
        let answer = json!({"jsonrpc": "2.0", "id": asked["id"],
                            "result": {"action": "accept", "content": {"name": "Lin"}}});
        assert_eq!(
            oneshot(&app, post(&answer, Some(&session))).await.status(),
            202
        );
        let done = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(done["id"], 2, "{done}");
        assert_eq!(done["result"]["content"][0]["text"], "Hello, Lin!");
        check_in_legacy("tools/call", &done);
    }

    #[tokio::test]
    async fn cancelled_stops_a_request_of_the_session() {
        let app = router(server(), HttpConfig::default());
        let session = start(&app, json!({"elicitation": {}})).await;
        let call = request(7, "tools/call", json!({"name": "greet", "arguments": {}}));
        let (_, mut stream) = oneshot_stream(&app, post(&call, Some(&session))).await;
        // The tool waits for its question's answer; the client cancels the call instead.
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), stream.next())
                .await
                .unwrap()
                .expect("the stream carries the question");
            if message.get("id").is_some() {
                break;
            }
        }
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": 7, "reason": "changed my mind"}});
        assert_eq!(
            oneshot(&app, post(&cancel, Some(&session))).await.status(),
            202
        );
        // The stream ends with no response; the open question is withdrawn on it.
        let mut rest = Vec::new();
        while let Some(message) = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("the stream ends once the request is cancelled")
        {
            rest.push(message);
        }
        assert!(rest.iter().all(|m| m.get("method").is_some()), "{rest:?}");
        assert!(
            rest.iter()
                .any(|m| m["method"] == "notifications/cancelled"),
            "{rest:?}"
        );
    }

    /// mcp-test's own client finds a 2025-era server over HTTP and speaks to it in its
    /// session.
    #[tokio::test]
    async fn the_client_in_the_legacy_era_over_http() {
        let legacy = Server::builder("legacy", "1.0.0")
            .tool::<Chatty>()
            .eras([Era::Legacy])
            .build()
            .unwrap();
        let listener = bind_local(0).await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        tokio::spawn(mcp_test::transport::http::serve(
            listener,
            legacy,
            HttpConfig::default(),
        ));
        let client = Client::http(&url).unwrap();
        let handshake = client.era().await.unwrap();
        assert_eq!(handshake.era, Era::Legacy);
        let called = client
            .send(&client.tool_call_body("chatty", json!({})))
            .await
            .unwrap();
        check_in_legacy("tools/call", &called);
        assert_eq!(called["result"]["content"][0]["text"], "said");
    }
}

// ---------------------------------------------------------------------------------------------
// The checker, reaching a server of this runtime in the 2025 era.
// ---------------------------------------------------------------------------------------------

mod checked {
    use super::*;
    use mcp_test::cases::Connected;
    use mcp_test::transport::http::{HttpConfig, bind_local};
    use mcp_test_check::{CheckOptions, CheckReport, Severity, check};

    /// The test server, answering only the 2025-11-25 handshake, so the checker's
    /// `server/discover` probe finds a 2025-era server.
    fn legacy_server() -> Server {
        Server::builder("eras", "1.0.0")
            .tool::<Greet>()
            .tool::<Chatty>()
            .logging()
            .resource(
                mcp_test::resources::Resource::new("file:///notes.txt", "notes")
                    .mime_type("text/plain")
                    .text("remember"),
            )
            .eras([Era::Legacy])
            .build()
            .unwrap()
    }

    fn options() -> CheckOptions {
        CheckOptions::default()
            .timeout(Duration::from_secs(10))
            .deadline(Some(Duration::from_secs(60)))
            .case_time(None)
            // Both tools only talk; let the probes call them.
            .allow_destructive(true)
    }

    /// No defect and no warning: the one note says the server was checked in the 2025 era.
    fn assert_clean(report: &CheckReport) {
        let flagged = report
            .findings()
            .filter(|f| f.severity != Severity::Info)
            .count();
        assert_eq!(flagged, 0, "{}", report.to_text());
        assert!(
            report.findings().all(|f| f.probe == "discovery/fields"),
            "{}",
            report.to_text()
        );
    }

    #[tokio::test]
    async fn check_finds_nothing_over_stdio_in_the_2025_era() {
        let (client_end, server_end) = tokio::io::duplex(1024 * 1024);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(serve(
            legacy_server(),
            server_read,
            server_write,
            StdioConfig::default(),
        ));
        let (read, write) = tokio::io::split(client_end);
        let connected = Connected::probe(Client::connect(read, write), "eras over stdio")
            .await
            .unwrap();
        assert_eq!(connected.connection().era, Some(Era::Legacy));
        assert_clean(&check(&connected, &options()).await);
    }

    #[tokio::test]
    async fn check_finds_nothing_over_http_in_the_2025_era() {
        let listener = bind_local(0).await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        tokio::spawn(mcp_test::transport::http::serve(
            listener,
            legacy_server(),
            HttpConfig::default(),
        ));
        let connected = Connected::probe(Client::http(&url).unwrap(), "eras over HTTP")
            .await
            .unwrap();
        assert_eq!(connected.connection().era, Some(Era::Legacy));
        assert_clean(&check(&connected, &options()).await);
    }
}

/// Lists notes as an array: an output 2026-07-28 allows and 2025-11-25 does not.
struct ListNotes;

impl Tool for ListNotes {
    const NAME: &'static str = "list_notes";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn output_schema() -> Option<Value> {
        Some(json!({"type": "array", "items": {"type": "string"}}))
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(ListNotes)
    }
    async fn call(self, _: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::structured(json!(["a", "b"])))
    }
}

/// 2025-11-25's `Tool.outputSchema` is an object schema and `structuredContent` an object: a
/// tool whose output is an array keeps both in 2026-07-28 and goes without them in the 2025
/// era, its JSON still in the text block, each reply valid in its era's schema.
#[tokio::test]
async fn an_array_output_is_served_in_each_era_as_that_era_allows() {
    let server = || {
        Server::builder("notes", "1.0.0")
            .tool::<ListNotes>()
            .build()
            .unwrap()
    };
    let modern = Session::new(server(), None);
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}});
    let list = send(&modern, request(1, "tools/list", json!({"_meta": meta}))).await;
    assert_eq!(list["result"]["tools"][0]["outputSchema"]["type"], "array");
    let params = json!({"_meta": meta, "name": "list_notes"});
    let call = send(&modern, request(2, "tools/call", params)).await;
    assert_eq!(call["result"]["structuredContent"], json!(["a", "b"]));

    let (session, _others) = legacy_session(server(), |_| json!({}));
    send(&session, initialize(1, "2025-11-25", json!({}))).await;
    let list = send(&session, request(2, "tools/list", json!({}))).await;
    check_response_in(Era::Legacy, "tools/list", &list).unwrap();
    assert!(
        list["result"]["tools"][0].get("outputSchema").is_none(),
        "{list}"
    );
    let call = send(
        &session,
        request(3, "tools/call", json!({"name": "list_notes"})),
    )
    .await;
    check_response_in(Era::Legacy, "tools/call", &call).unwrap();
    assert!(call["result"].get("structuredContent").is_none(), "{call}");
    assert_eq!(call["result"]["content"][0]["text"], r#"["a","b"]"#);
}
