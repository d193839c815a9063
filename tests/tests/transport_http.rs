//! The Streamable HTTP transport, in process through the router (no socket) and once over a
//! real 127.0.0.1 socket.

use mcp_test::Identity;
use mcp_test::testing::http::oneshot;
use mcp_test::transport::http::{
    AuthRejection, ErrorStatusPolicy, HttpConfig, Router, messages, router,
};
use mcp_test_downstream::transport_server;
use serde_json::{Value, json};
use std::time::Duration;

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientCapabilities": {}})
}

fn body(id: i64, method: &str, mut params: Value) -> Value {
    if params.get("_meta").is_none() {
        params["_meta"] = meta();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Header name and value pairs.
type Headers<'a> = Vec<(&'a str, &'a str)>;

/// A POST with exactly the headers given (no automatic mirroring).
fn post(body: &Value, headers: &[(&str, &str)]) -> http::Request<String> {
    let mut req = http::Request::post("/mcp")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.body(body.to_string()).unwrap()
}

/// The headers a correct client sends for a tools/call of `name`.
fn call_headers<'a>(name: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut h = vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", name),
    ];
    h.extend_from_slice(extra);
    h
}

async fn send(app: &Router, req: http::Request<String>) -> (u16, Value) {
    let resp = oneshot(app, req).await;
    let status = resp.status().as_u16();
    assert!(
        resp.headers().get("mcp-session-id").is_none(),
        "never mint a session id"
    );
    let mut msgs = messages(resp.body());
    let last = msgs.pop().unwrap_or(Value::Null);
    (status, last)
}

fn app() -> Router {
    router(transport_server(), HttpConfig::default())
}

fn forecast(args: Value) -> Value {
    body(
        1,
        "tools/call",
        json!({"name": "forecast", "arguments": args}),
    )
}

#[tokio::test]
async fn only_post_is_allowed() {
    let app = app();
    for method in ["GET", "DELETE", "PUT"] {
        let req = http::Request::builder()
            .method(method)
            .uri("/mcp")
            .header("host", "localhost")
            .body(String::new())
            .unwrap();
        let resp = oneshot(&app, req).await;
        assert_eq!(resp.status(), 405, "{method}");
        assert_eq!(resp.headers()["allow"], "POST");
    }
}

#[tokio::test]
async fn a_notification_gets_202_and_an_empty_body() {
    let note =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
    let resp = oneshot(&app(), post(&note, &[])).await;
    assert_eq!(resp.status(), 202);
    assert!(resp.body().is_empty());
}

#[tokio::test]
async fn a_correct_call_is_answered_with_json() {
    let req = post(
        &forecast(json!({"region": "eu-west", "days": 3, "metric": true})),
        &call_headers(
            "forecast",
            &[
                ("mcp-param-region", "eu-west"),
                ("mcp-param-days", "3"),
                ("mcp-param-metric", "true"),
            ],
        ),
    );
    let resp = oneshot(&app(), req).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "application/json");
    let reply: Value = serde_json::from_slice(resp.body()).unwrap();
    assert_eq!(reply["result"]["content"][0]["text"], "sunny in eu-west");
    mcp_test::spec::check_response("tools/call", &reply).unwrap();
}

#[tokio::test]
async fn every_header_rule_rejects_with_400_and_header_mismatch() {
    let app = app();
    let args = json!({"region": "eu-west", "days": 3});
    let ok_params = [("mcp-param-region", "eu-west"), ("mcp-param-days", "3")];
    let cases: Vec<(&str, Headers, &str)> = vec![
        (
            "missing version",
            vec![
                ("mcp-method", "tools/call"),
                ("mcp-name", "forecast"),
                ok_params[0],
                ok_params[1],
            ],
            "missing required MCP-Protocol-Version",
        ),
        (
            "version mismatch",
            vec![
                ("mcp-protocol-version", "2025-11-25"),
                ("mcp-method", "tools/call"),
                ("mcp-name", "forecast"),
                ok_params[0],
                ok_params[1],
            ],
            "MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'",
        ),
        (
            "missing method",
            vec![
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-name", "forecast"),
                ok_params[0],
                ok_params[1],
            ],
            "missing required Mcp-Method",
        ),
        (
            "method value case",
            vec![
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "TOOLS/CALL"),
                ("mcp-name", "forecast"),
                ok_params[0],
                ok_params[1],
            ],
            "Mcp-Method header value 'TOOLS/CALL' does not match body value 'tools/call'",
        ),
        (
            "duplicate method",
            vec![
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "tools/call"),
                ("mcp-method", "tools/call"),
                ("mcp-name", "forecast"),
                ok_params[0],
                ok_params[1],
            ],
            "Mcp-Method header appears more than once",
        ),
        (
            "missing name",
            vec![
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "tools/call"),
                ok_params[0],
                ok_params[1],
            ],
            "missing required Mcp-Name",
        ),
        (
            "name mismatch",
            call_headers("other", &ok_params),
            "Mcp-Name header value 'other' does not match body value 'forecast'",
        ),
        (
            "name bad padding",
            call_headers("=?base64?Zm9yZWNhc3Q?=", &ok_params),
            "not valid padded Base64",
        ),
        (
            "name bad characters",
            call_headers("=?base64?Zm9y!!!ZWNhc3Q=?=", &ok_params),
            "not valid padded Base64",
        ),
        (
            "param missing",
            call_headers("forecast", &[ok_params[1]]),
            "missing required Mcp-Param-Region",
        ),
        (
            "param mismatch",
            call_headers("forecast", &[("mcp-param-region", "us-east"), ok_params[1]]),
            "Mcp-Param-Region header value 'us-east' does not match body value '\"eu-west\"'",
        ),
        (
            "integer mismatch",
            call_headers("forecast", &[ok_params[0], ("mcp-param-days", "4")]),
            "Mcp-Param-Days",
        ),
        (
            "integer not a number",
            call_headers("forecast", &[ok_params[0], ("mcp-param-days", "three")]),
            "Mcp-Param-Days",
        ),
    ];
    for (label, headers, expected) in cases {
        let (status, reply) = send(&app, post(&forecast(args.clone()), &headers)).await;
        assert_eq!(status, 400, "{label}: {reply}");
        assert_eq!(reply["error"]["code"], -32020, "{label}: {reply}");
        assert_eq!(reply["id"], 1, "{label}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{label}: {message}");
    }
}

#[tokio::test]
async fn look_alikes_whitespace_numbers_and_header_case_are_accepted() {
    let app = app();
    let cases: Vec<(Value, Vec<(&str, &str)>)> = vec![
        // The sentinel decodes.
        (
            json!({"region": "Hello"}),
            call_headers("forecast", &[("mcp-param-region", "=?base64?SGVsbG8=?=")]),
        ),
        // Near-misses of the sentinel are literal values.
        (
            json!({"region": "SGVsbG8="}),
            call_headers("forecast", &[("mcp-param-region", "SGVsbG8=")]),
        ),
        (
            json!({"region": "=?base64?SGVsbG8="}),
            call_headers("forecast", &[("mcp-param-region", "=?base64?SGVsbG8=")]),
        ),
        (
            json!({"region": "=?BASE64?SGVsbG8=?="}),
            call_headers("forecast", &[("mcp-param-region", "=?BASE64?SGVsbG8=?=")]),
        ),
        // Non-ASCII travels as the sentinel.
        (
            json!({"region": "Zürich"}),
            call_headers(
                "forecast",
                &[("mcp-param-region", "=?base64?WsO8cmljaA==?=")],
            ),
        ),
        // Integers compare numerically.
        (
            json!({"region": "x", "days": 42}),
            call_headers(
                "forecast",
                &[("mcp-param-region", "x"), ("mcp-param-days", "42.0")],
            ),
        ),
        // Null or absent arguments need no header.
        (
            json!({"region": "x", "days": null}),
            call_headers("forecast", &[("mcp-param-region", "x")]),
        ),
        // Surrounding whitespace is trimmed; names are case-insensitive.
        (
            json!({"region": "x"}),
            vec![
                ("MCP-PROTOCOL-VERSION", " 2026-07-28 "),
                ("Mcp-Method", "\ttools/call "),
                ("MCP-NAME", " forecast"),
                ("Mcp-Param-REGION", "x "),
            ],
        ),
    ];
    for (args, headers) in cases {
        let (status, reply) = send(&app, post(&forecast(args.clone()), &headers)).await;
        assert_eq!(status, 200, "{args} {headers:?}: {reply}");
        assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    }
}

#[tokio::test]
async fn envelope_and_dispatch_errors_map_to_statuses() {
    let app = app();
    let std_headers =
        |m: &'static str| vec![("mcp-protocol-version", "2026-07-28"), ("mcp-method", m)];

    let resp = oneshot(&app, post(&json!("x"), &[])).await;
    assert_eq!(resp.status(), 400);
    let bad_json = http::Request::post("/mcp")
        .header("host", "localhost")
        .body("{not json".to_owned())
        .unwrap();
    let (status, reply) = send(&app, bad_json).await;
    assert_eq!(
        (status, reply["error"]["code"].as_i64()),
        (400, Some(-32700))
    );

    let (status, reply) = send(&app, post(&json!([body(1, "tools/list", json!({}))]), &[])).await;
    assert_eq!(
        (status, reply["error"]["code"].as_i64()),
        (400, Some(-32600))
    );

    for removed in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "unknown/method",
    ] {
        let (status, reply) = send(
            &app,
            post(&body(7, removed, json!({})), &std_headers(removed)),
        )
        .await;
        assert_eq!(status, 404, "{removed}");
        assert_eq!(reply["error"]["code"], -32601);
        assert_eq!(reply["id"], 7);
    }

    let mut v = body(2, "server/discover", json!({}));
    v["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999");
    let (status, reply) = send(
        &app,
        post(
            &v,
            &[
                ("mcp-protocol-version", "v999"),
                ("mcp-method", "server/discover"),
            ],
        ),
    )
    .await;
    assert_eq!(
        (status, reply["error"]["code"].as_i64()),
        (400, Some(-32022))
    );

    let no_meta = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}});
    let (status, reply) = send(&app, post(&no_meta, &std_headers("tools/list"))).await;
    assert_eq!(
        (status, reply["error"]["code"].as_i64()),
        (400, Some(-32602))
    );

    let unknown = body(4, "tools/call", json!({"name": "nope"}));
    let headers = vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "nope"),
    ];
    let (status, reply) = send(&app, post(&unknown, &headers)).await;
    assert_eq!(
        (status, reply["error"]["code"].as_i64()),
        (200, Some(-32602))
    );
    let strict = router(
        transport_server(),
        HttpConfig::default().error_status(ErrorStatusPolicy::Strict),
    );
    let (status, _) = send(&strict, post(&unknown, &headers)).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn dns_rebinding_protection() {
    let app = app();
    let discover = body(1, "server/discover", json!({}));
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "server/discover"),
    ];
    let with = |host: &str, origin: Option<&str>| {
        let mut req = post(&discover, &headers);
        req.headers_mut().insert("host", host.parse().unwrap());
        if let Some(origin) = origin {
            req.headers_mut().insert("origin", origin.parse().unwrap());
        }
        req
    };
    for (host, origin) in [
        ("evil.example.com", Some("http://evil.example.com")),
        ("evil.example.com", None),
        ("localhost:3000", Some("http://evil.example.com")),
        ("127.0.0.1.evil.com", None),
    ] {
        let resp = oneshot(&app, with(host, origin)).await;
        assert_eq!(resp.status(), 403, "{host} {origin:?}");
    }
    for (host, origin) in [
        ("localhost:3000", Some("http://localhost:3000")),
        ("127.0.0.1:9", None),
        ("[::1]:9", Some("https://[::1]:9")),
    ] {
        let resp = oneshot(&app, with(host, origin)).await;
        assert_eq!(resp.status(), 200, "{host} {origin:?}");
    }
    let proxied = router(
        transport_server(),
        HttpConfig::default()
            .allow_host("mcp.example.com")
            .allow_origin("https://app.example.com"),
    );
    let resp = oneshot(
        &proxied,
        with("mcp.example.com", Some("https://app.example.com")),
    )
    .await;
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn an_oversized_body_gets_413() {
    let app = router(transport_server(), HttpConfig::default().max_body_bytes(64));
    let big = body(
        1,
        "tools/call",
        json!({"name": "forecast", "arguments": {"region": "x".repeat(100)}}),
    );
    let resp = oneshot(&app, post(&big, &[])).await;
    assert_eq!(resp.status(), 413);
}

#[tokio::test]
async fn notifications_before_the_response_make_an_sse_stream() {
    let mut call = body(
        1,
        "tools/call",
        json!({"name": "progress", "arguments": {"steps": 3}}),
    );
    call["params"]["_meta"]["progressToken"] = json!("tok");
    call["params"]["_meta"]["io.modelcontextprotocol/logLevel"] = json!("info");
    let resp = oneshot(&app(), post(&call, &call_headers("progress", &[]))).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    assert!(
        std::str::from_utf8(resp.body())
            .unwrap()
            .starts_with("event: message\ndata: ")
    );
    let msgs = messages(resp.body());
    let methods: Vec<&str> = msgs
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("(response)"))
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/progress",
            "notifications/progress",
            "notifications/message",
            "(response)"
        ]
    );
    let progress: Vec<f64> = msgs[..3]
        .iter()
        .map(|m| m["params"]["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert!(
        msgs[..3]
            .iter()
            .all(|m| m["params"]["progressToken"] == "tok")
    );
    assert_eq!(msgs[4]["result"]["content"][0]["text"], "done");
    // Without a token or a log level the same call answers plain JSON.
    let plain = body(
        2,
        "tools/call",
        json!({"name": "progress", "arguments": {"steps": 3}}),
    );
    let resp = oneshot(&app(), post(&plain, &call_headers("progress", &[]))).await;
    assert_eq!(resp.headers()["content-type"], "application/json");
}

#[tokio::test]
async fn a_slow_call_and_a_fast_call_overlap() {
    let app = app();
    let a = post(
        &body(
            1,
            "tools/call",
            json!({"name": "rendezvous", "arguments": {"label": "a"}}),
        ),
        &call_headers("rendezvous", &[]),
    );
    let b = post(
        &body(
            2,
            "tools/call",
            json!({"name": "rendezvous", "arguments": {"label": "b"}}),
        ),
        &call_headers("rendezvous", &[]),
    );
    // Each call waits for the other: they finish only if both run at once.
    let both = tokio::time::timeout(Duration::from_secs(30), async {
        tokio::join!(send(&app, a), send(&app, b))
    })
    .await
    .expect("the two calls ran concurrently");
    assert_eq!(both.0.1["result"]["content"][0]["text"], "a");
    assert_eq!(both.1.1["result"]["content"][0]["text"], "b");
}

#[tokio::test]
async fn authentication_rejects_and_admits() {
    let config = HttpConfig::default().authenticator(|parts: &http::request::Parts| {
        match parts
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
        {
            Some("Bearer alice-token") => Ok(Identity::principal("alice")
                .with_tenant("acme")
                .with_scopes(["tools.read"])),
            _ => Err(AuthRejection::new(
                r#"Bearer realm="mcp", error="invalid_token""#,
                "a valid bearer token is required",
            )),
        }
    });
    let app = router(transport_server(), config);
    let call = body(1, "tools/call", json!({"name": "whoami"}));
    let resp = oneshot(&app, post(&call, &call_headers("whoami", &[]))).await;
    assert_eq!(resp.status(), 401);
    assert_eq!(
        resp.headers()["www-authenticate"],
        r#"Bearer realm="mcp", error="invalid_token""#
    );
    let mut headers = call_headers("whoami", &[]);
    headers.push(("authorization", "Bearer wrong"));
    assert_eq!(oneshot(&app, post(&call, &headers)).await.status(), 401);
    headers.pop();
    headers.push(("authorization", "Bearer alice-token"));
    let (status, reply) = send(&app, post(&call, &headers)).await;
    assert_eq!(status, 200);
    let who: Value =
        serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        who,
        json!({"principal": "alice", "tenant": "acme", "scopes": ["tools.read"]})
    );
}

/// One exchange over a real socket on 127.0.0.1 (an ephemeral port), with a raw HTTP/1.1
/// client, bounded in time.
#[tokio::test]
async fn serves_over_a_real_socket() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = mcp_test::transport::http::bind_local(0).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(mcp_test::transport::http::serve(
        listener,
        transport_server(),
        HttpConfig::default(),
    ));
    let payload = body(1, "server/discover", json!({})).to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    );
    let raw = tokio::time::timeout(Duration::from_secs(30), async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).await.unwrap();
        raw
    })
    .await
    .expect("the server answered in time");
    server.abort();
    assert!(raw.starts_with("HTTP/1.1 200 OK\r\n"), "{raw}");
    assert!(!raw.to_ascii_lowercase().contains("mcp-session-id"));
    let json_start = raw.find("\r\n\r\n").unwrap() + 4;
    let reply: Value = serde_json::from_str(&raw[json_start..]).unwrap();
    assert_eq!(reply["result"]["supportedVersions"], json!(["2026-07-28"]));
}

/// The test surface works on HTTP responses unchanged: the unwrappers and assertions take the
/// router's `http::Response`, and `TestRouter` adds every mirrored header, `Mcp-Param-*` too.
#[tokio::test]
async fn the_test_surface_reads_http_responses() {
    use mcp_test::testing::http::TestRouter;
    use mcp_test::testing::{build_call_request, build_request, error_text, rpc_error};
    use mcp_test::{assert_rpc_error, assert_tool_text};

    let http = TestRouter::new(transport_server(), HttpConfig::default());
    let ok = http
        .post(&build_call_request(
            "forecast",
            json!({"region": "Zürich", "days": 2}),
        ))
        .await;
    assert_eq!(ok.status(), 200);
    assert_tool_text!(ok, "sunny in Zürich");

    let sse = http
        .post(&build_request(
            "tools/call",
            json!({"name": "progress", "arguments": {"steps": 2}, "_meta": {"progressToken": 1}}),
        ))
        .await;
    assert_eq!(sse.headers()["content-type"], "text/event-stream");
    assert_tool_text!(sse, "done");

    let invalid = http
        .post(&build_call_request("forecast", json!({"days": 2})))
        .await;
    assert!(error_text(&invalid).contains("/region"));

    let removed = http.post(&build_request("ping", Value::Null)).await;
    assert_eq!(removed.status(), 404);
    assert_rpc_error!(removed, -32601);
    assert_eq!(rpc_error(&removed).code, -32601);
}

#[tokio::test]
async fn invalid_utf8_is_a_parse_error() {
    let raw = http::Request::post("/mcp")
        .header("host", "localhost")
        .body(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}".to_vec())
        .unwrap();
    let resp = oneshot(&app(), raw).await;
    assert_eq!(resp.status(), 400);
    let reply = messages(resp.body()).pop().unwrap();
    assert_eq!(reply["error"]["code"], -32700);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not UTF-8")
    );
}

/// A tool the caller may not see is checked like an unknown one: its `x-mcp-header` arguments
/// are not demanded, so the answer reveals no more than `tools/list` does. One the caller sees
/// but lacks the scope for is refused for the scope (403) before its headers are asked for.
#[tokio::test]
async fn header_checks_do_not_reveal_denied_tools() {
    use mcp_test::{Access, Server};
    use mcp_test_downstream::Forecast;
    let server = |access: Access| {
        Server::builder("restricted", "1")
            .tool_with_access::<Forecast>(access)
            .build()
            .unwrap()
    };
    let scopes_of = |parts: &http::request::Parts| {
        let scopes: Vec<String> = parts
            .headers
            .get("x-scopes")
            .and_then(|v| v.to_str().ok())
            .map(|s| s.split(',').map(str::to_owned).collect())
            .unwrap_or_default();
        Ok(Identity::principal("p").with_scopes(scopes))
    };
    let listed = router(
        server(Access::scopes(["weather"])),
        HttpConfig::default().authenticator(scopes_of),
    );
    let reply = oneshot(
        &listed,
        post(
            &body(
                1,
                "tools/call",
                json!({"name": "forecast", "arguments": {"region": "eu"}}),
            ),
            &call_headers("forecast", &[("x-scopes", "")]),
        ),
    )
    .await;
    assert_eq!(reply.status(), 403);
    assert_eq!(
        reply.headers()["www-authenticate"],
        r#"Bearer error="insufficient_scope", error_description="Insufficient scope: tool forecast needs scope weather (the caller lacks weather)", scope="weather""#
    );

    let server = server(Access::scopes(["weather"]).hidden_without_scope());
    let app = router(server, HttpConfig::default().authenticator(scopes_of));
    let request = |scopes: &str, tool: &str| {
        post(
            &body(
                1,
                "tools/call",
                json!({"name": tool, "arguments": {"region": "eu"}}),
            ),
            &call_headers(tool, &[("x-scopes", scopes)]),
        )
    };
    let (status, denied) = send(&app, request("", "forecast")).await;
    let (_, unknown) = send(&app, request("", "no_such_tool")).await;
    assert_eq!(status, 200);
    assert_eq!(denied["error"]["code"], -32602, "{denied}");
    assert_eq!(
        denied["error"]["message"]
            .as_str()
            .unwrap()
            .replace("forecast", "X"),
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .replace("no_such_tool", "X")
    );
    // Granted, the same request must mirror its header.
    let (status, granted) = send(&app, request("weather", "forecast")).await;
    assert_eq!(status, 400);
    assert_eq!(granted["error"]["code"], -32020);
}
