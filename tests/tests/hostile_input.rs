//! A hostile-input corpus: malformed envelopes, the wrong type in every field, header attacks,
//! forged and replayed `requestState`, malformed answers, limits. Every case asserts its exact
//! error, and that the next valid request is still served.

use mcp_test::rounds::Elicitation;
use mcp_test::testing::http::oneshot;
use mcp_test::transport::http::{HttpConfig, Router, messages, router};
use mcp_test::{CallToolResult, Caller, Context, Identity, Server, Tool, ToolError};
use serde_json::{Value, json};

// ---- a small server --------------------------------------------------------------------------

/// Echoes `text`; `region` is mirrored as `Mcp-Param-Region`.
struct Echo {
    text: String,
}

impl Tool for Echo {
    const NAME: &'static str = "echo";
    fn input_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "text": {"type": "string", "maxLength": 1000},
                "region": {"type": "string", "x-mcp-header": "Region"},
                "list": {"type": "array", "items": {"type": "integer"}, "maxItems": 100}
            },
            "required": ["text"],
            "additionalProperties": false
        })
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Echo {
            text: args["text"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self.text))
    }
}

/// Asks for a name, then greets.
struct Ask;

impl Tool for Ask {
    const NAME: &'static str = "ask";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"greeting": {"type": "string"}}})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Ask)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
        match ctx.elicit("Your name?", schema).await? {
            Elicitation::Accept(form) => Ok(CallToolResult::text(format!(
                "hi {}",
                form["name"].as_str().unwrap_or("?")
            ))),
            Elicitation::Decline | Elicitation::Cancel => Ok(CallToolResult::text("bye")),
        }
    }
}

fn server() -> Server {
    Server::builder("hostile", "1.0.0")
        .tool::<Echo>()
        .tool::<Ask>()
        .request_state_key(b"0123456789abcdef0123456789abcdef".to_vec())
        .build()
        .unwrap()
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}})
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn with_meta(mut params: Value) -> Value {
    params["_meta"] = meta();
    params
}

/// Sends `text`; checks the reply is a JSON-RPC error with `code` (and, when given, an id equal
/// to `id`) whose message contains `fragment`; then checks a valid request is still served.
async fn expect_error(server: &Server, caller: &Caller, text: &str, code: i64, fragment: &str) {
    let reply = server
        .handle_json_with(text, caller)
        .await
        .unwrap_or_else(|| panic!("no reply to {text}"));
    let reply: Value = serde_json::from_str(&reply).expect("replies are JSON");
    assert_eq!(reply["error"]["code"], code, "input {text}\nreply {reply}");
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(fragment),
        "input {text}\nmessage {message:?} lacks {fragment:?}"
    );
    if let Ok(sent) = serde_json::from_str::<Value>(text)
        && let Some(id) = sent.get("id").filter(|id| id.is_string() || id.is_i64())
    {
        assert_eq!(&reply["id"], id, "the id is echoed: {reply}");
    }
    mcp_test::spec::check_response("tools/call", &reply).unwrap();
    still_serving(server, caller).await;
}

async fn still_serving(server: &Server, caller: &Caller) {
    let ok = request(
        99,
        "tools/call",
        with_meta(json!({"name": "echo", "arguments": {"text": "ok"}})),
    );
    let reply = server
        .handle_json_with(&ok.to_string(), caller)
        .await
        .unwrap();
    let reply: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(reply["result"]["content"][0]["text"], "ok", "{reply}");
}

// ---- malformed envelopes ------------------------------------------------------------------------

#[tokio::test]
async fn malformed_envelopes() {
    let s = server();
    let c = Caller::default();
    let cases: Vec<(String, i64, &str)> = vec![
        ("".into(), -32700, "Parse error"),
        ("   ".into(), -32700, "Parse error"),
        ("{".into(), -32700, "Parse error"),
        ("}".into(), -32700, "Parse error"),
        ("nul".into(), -32700, "Parse error"),
        ("{\"jsonrpc\":\"2.0\",}".into(), -32700, "Parse error"),
        ("{\"a\":1} {\"b\":2}".into(), -32700, "Parse error"),
        ("\u{feff}{}".into(), -32700, "Parse error"),
        ("{'jsonrpc':'2.0'}".into(), -32700, "Parse error"),
        ("[".repeat(200), -32700, "Parse error"),
        (
            format!("{}1{}", "[".repeat(1000), "]".repeat(1000)),
            -32700,
            "recursion limit",
        ),
        (
            format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}{}}}",
                "{\"a\":".repeat(500),
                "}".repeat(500)
            ),
            -32700,
            "recursion limit",
        ),
        ("[]".into(), -32600, "batch"),
        (
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}]".into(),
            -32600,
            "batch",
        ),
        ("1".into(), -32600, "got integer"),
        ("1.5".into(), -32600, "got number"),
        ("\"tools/list\"".into(), -32600, "got string"),
        ("true".into(), -32600, "got boolean"),
        ("null".into(), -32600, "got null"),
        ("{}".into(), -32600, "jsonrpc"),
        ("{\"jsonrpc\":\"2.0\"}".into(), -32600, "missing method"),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1}".into(),
            -32600,
            "missing method",
        ),
        (
            "{\"jsonrpc\":2,\"id\":1,\"method\":\"tools/list\"}".into(),
            -32600,
            "jsonrpc",
        ),
        (
            "{\"jsonrpc\":\"2.1\",\"id\":1,\"method\":\"tools/list\"}".into(),
            -32600,
            "jsonrpc",
        ),
        (
            "{\"jsonrpc\":null,\"id\":1,\"method\":\"tools/list\"}".into(),
            -32600,
            "jsonrpc",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":null}".into(),
            -32600,
            "method must be a string",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":[\"tools/list\"]}".into(),
            -32600,
            "method must be a string",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/list\"}".into(),
            -32600,
            "id must be",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"tools/list\"}".into(),
            -32600,
            "id must be",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":18446744073709551615,\"method\":\"tools/list\"}".into(),
            -32600,
            "id must be",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"tools/list\"}".into(),
            -32600,
            "id must be",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/list\"}".into(),
            -32600,
            "id must be",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":false,\"method\":\"tools/list\"}".into(),
            -32600,
            "id must be",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".into(),
            -32600,
            "not responses",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"x\"}}".into(),
            -32600,
            "not responses",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"TOOLS/LIST\",\"params\":{}}".into(),
            -32601,
            "TOOLS/LIST",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\",\"params\":{}}".into(),
            -32601,
            "Method not found",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list \",\"params\":{}}".into(),
            -32601,
            "Method not found",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"rpc.discover\",\"params\":{}}".into(),
            -32601,
            "Method not found",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"notifications/initialized\",\"params\":{}}"
                .into(),
            -32601,
            "Method not found",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{}}".into(),
            -32601,
            "Method not found",
        ),
    ];
    assert!(cases.len() >= 40);
    for (text, code, fragment) in &cases {
        expect_error(&s, &c, text, *code, fragment).await;
    }
}

// ---- the wrong type in every field ---------------------------------------------------------------

/// Every JSON type but the ones a field accepts.
fn wrong_values(accepts: &[&str]) -> Vec<Value> {
    [
        ("null", json!(null)),
        ("boolean", json!(true)),
        ("integer", json!(7)),
        ("number", json!(7.5)),
        ("string", json!("x")),
        ("array", json!([1])),
        ("object", json!({"k": 1})),
    ]
    .into_iter()
    .filter(|(t, _)| {
        // An integer is a number: a field that accepts numbers accepts integers too.
        let widened = *t == "integer" && accepts.contains(&"number");
        !(accepts.contains(t) || widened)
    })
    .map(|(_, v)| v)
    .collect()
}

#[tokio::test]
async fn the_wrong_type_in_every_envelope_field_of_every_method() {
    let s = server();
    let c = Caller::default();
    let methods: [(&str, Value); 4] = [
        ("server/discover", json!({})),
        ("tools/list", json!({})),
        (
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "t"}}),
        ),
        ("subscriptions/listen", json!({"notifications": {}})),
    ];
    let meta_fields: [(&str, &[&str]); 5] = [
        ("io.modelcontextprotocol/protocolVersion", &["string"]),
        ("io.modelcontextprotocol/clientCapabilities", &["object"]),
        ("io.modelcontextprotocol/clientInfo", &["object"]),
        ("io.modelcontextprotocol/logLevel", &["string"]),
        ("progressToken", &["string", "integer"]),
    ];
    let mut count = 0;
    for (method, params) in &methods {
        // params itself
        for wrong in wrong_values(&["object"]) {
            if wrong.is_null() {
                continue; // `params: null` is absent params: same answer, checked below
            }
            let text =
                json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": wrong}).to_string();
            expect_error(&s, &c, &text, -32602, "params must be an object").await;
            count += 1;
        }
        // params._meta itself
        for wrong in wrong_values(&["object"]) {
            let mut p = params.clone();
            p["_meta"] = wrong;
            let text = request(1, method, p).to_string();
            expect_error(&s, &c, &text, -32602, "params._meta must be an object").await;
            count += 1;
        }
        // every _meta field
        for (field, accepts) in meta_fields {
            for wrong in wrong_values(accepts) {
                let mut p = with_meta(params.clone());
                p["_meta"][field] = wrong.clone();
                let text = request(1, method, p).to_string();
                expect_error(&s, &c, &text, -32602, field).await;
                count += 1;
            }
        }
    }
    // tools/call's own fields
    for wrong in wrong_values(&["string"]) {
        let text = request(
            1,
            "tools/call",
            with_meta(json!({"name": wrong, "arguments": {}})),
        )
        .to_string();
        expect_error(&s, &c, &text, -32602, "name must be a string").await;
        count += 1;
    }
    for wrong in wrong_values(&["object"]) {
        let text = request(
            1,
            "tools/call",
            with_meta(json!({"name": "echo", "arguments": wrong})),
        )
        .to_string();
        expect_error(&s, &c, &text, -32602, "arguments must be an object").await;
        count += 1;
    }
    for wrong in wrong_values(&["object"]) {
        let text = request(
            1,
            "tools/call",
            with_meta(json!({"name": "ask", "inputResponses": wrong})),
        )
        .to_string();
        expect_error(&s, &c, &text, -32602, "inputResponses").await;
        count += 1;
    }
    for wrong in wrong_values(&["string"]) {
        let text = request(
            1,
            "tools/call",
            with_meta(json!({"name": "ask", "requestState": wrong})),
        )
        .to_string();
        expect_error(&s, &c, &text, -32602, "requestState").await;
        count += 1;
    }
    for wrong in wrong_values(&["string"]) {
        let text = request(1, "tools/list", with_meta(json!({"cursor": wrong}))).to_string();
        expect_error(&s, &c, &text, -32602, "cursor must be a string").await;
        count += 1;
    }
    assert!(count >= 120, "{count} cases");
}

// ---- arguments that break the schema: isError, not a crash -----------------------------------------

#[tokio::test]
async fn hostile_arguments_are_error_results() {
    let s = server();
    let c = Caller::default();
    let huge_string = "x".repeat(100_000);
    let huge_array: Vec<u32> = (0..100_000).collect();
    let cases = [
        (json!({"text": huge_string}), "/text"),
        (json!({"text": "t", "list": huge_array}), "/list"),
        (json!({"text": "t", "list": ["a"]}), "/list/0"),
        (json!({"text": 1}), "/text"),
        (json!({"text": "t", "__proto__": {}}), "/__proto__"),
        (json!({"text": "t", "a/b~c": 1}), "/a~1b~0c"),
        (json!({"text": "\u{0}"}), "/region"),
    ];
    for (args, pointer) in cases {
        let text = request(
            5,
            "tools/call",
            with_meta(json!({"name": "echo", "arguments": args})),
        )
        .to_string();
        let reply: Value =
            serde_json::from_str(&s.handle_json_with(&text, &c).await.unwrap()).unwrap();
        if pointer == "/region" {
            // A NUL inside a string is valid JSON and a valid argument: echoed back intact.
            assert_eq!(reply["result"]["content"][0]["text"], "\u{0}");
            continue;
        }
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        let message = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(message.contains(pointer), "{message}");
        assert!(
            message.len() < 2_000,
            "the error does not echo huge input whole: {} bytes",
            message.len()
        );
        still_serving(&s, &c).await;
    }
}

// ---- requestState attacks --------------------------------------------------------------------------

/// Runs `ask` to its question and returns the `requestState` it minted.
async fn minted_state(server: &Server, caller: &Caller, args: Value) -> String {
    let text = request(
        1,
        "tools/call",
        with_meta(json!({"name": "ask", "arguments": args})),
    )
    .to_string();
    let reply: Value =
        serde_json::from_str(&server.handle_json_with(&text, caller).await.unwrap()).unwrap();
    assert_eq!(reply["result"]["resultType"], "input_required", "{reply}");
    reply["result"]["requestState"].as_str().unwrap().to_owned()
}

fn retry(tool: &str, args: Value, state: &str, answers: Value) -> String {
    request(
        2,
        "tools/call",
        with_meta(json!({"name": tool, "arguments": args, "inputResponses": answers, "requestState": state})),
    )
    .to_string()
}

fn accept(name: &str) -> Value {
    let key = "elicit-1";
    json!({ key: {"action": "accept", "content": {"name": name}} })
}

#[tokio::test]
async fn tampered_state_is_rejected_at_every_position() {
    let s = server();
    let c = Caller::new(Identity::principal("alice"));
    let state = minted_state(&s, &c, json!({})).await;
    let bytes: Vec<char> = state.chars().collect();
    // Flip one character at a time, at positions spread over the whole token.
    let step = (bytes.len() / 40).max(1);
    let mut count = 0;
    for i in (0..bytes.len()).step_by(step) {
        let mut forged = bytes.clone();
        forged[i] = if forged[i] == 'A' { 'B' } else { 'A' };
        let forged: String = forged.into_iter().collect();
        expect_error(
            &s,
            &c,
            &retry("ask", json!({}), &forged, accept("eve")),
            -32602,
            "requestState",
        )
        .await;
        count += 1;
    }
    for forged in [
        String::new(),
        "x".into(),
        format!("{state}x"),
        state[..state.len() / 2].to_owned(),
        state.replace('.', ""),
        "eyJhbGciOiJub25lIn0.e30.".into(),
        "=?base64?AAAA?=".into(),
        "\u{0}".repeat(10),
        "é".repeat(100),
        "A".repeat(10_000),
    ] {
        expect_error(
            &s,
            &c,
            &retry("ask", json!({}), &forged, accept("eve")),
            -32602,
            "requestState",
        )
        .await;
        count += 1;
    }
    assert!(count >= 30, "{count}");
}

#[tokio::test]
async fn foreign_state_is_rejected() {
    let s = server();
    let alice = Caller::new(Identity::principal("alice").with_tenant("acme"));
    let state = minted_state(&s, &alice, json!({"greeting": "hi"})).await;
    // Another principal, another tenant, other arguments, another tool, another server key.
    let bob = Caller::new(Identity::principal("bob").with_tenant("acme"));
    expect_error(
        &s,
        &bob,
        &retry("ask", json!({"greeting": "hi"}), &state, accept("x")),
        -32602,
        "requestState",
    )
    .await;
    let other_tenant = Caller::new(Identity::principal("alice").with_tenant("evil"));
    expect_error(
        &s,
        &other_tenant,
        &retry("ask", json!({"greeting": "hi"}), &state, accept("x")),
        -32602,
        "requestState",
    )
    .await;
    expect_error(
        &s,
        &alice,
        &retry("ask", json!({"greeting": "yo"}), &state, accept("x")),
        -32602,
        "requestState",
    )
    .await;
    expect_error(
        &s,
        &alice,
        &retry("echo", json!({"text": "t"}), &state, accept("x")),
        -32602,
        "requestState",
    )
    .await;
    let other_server = Server::builder("other", "1")
        .tool::<Ask>()
        .tool::<Echo>()
        .build()
        .unwrap();
    expect_error(
        &other_server,
        &alice,
        &retry("ask", json!({"greeting": "hi"}), &state, accept("x")),
        -32602,
        "requestState",
    )
    .await;
    // The genuine retry still works, and replaying it gives the same answer: the state is
    // stateless by design, bound to the request rather than to a one-time nonce.
    for _ in 0..2 {
        let reply: Value = serde_json::from_str(
            &s.handle_json_with(
                &retry("ask", json!({"greeting": "hi"}), &state, accept("ada")),
                &alice,
            )
            .await
            .unwrap(),
        )
        .unwrap();
        assert_eq!(reply["result"]["content"][0]["text"], "hi ada", "{reply}");
    }
}

#[tokio::test]
async fn malformed_answers_are_rejected_or_asked_again() {
    let s = server();
    let c = Caller::default();
    let state = minted_state(&s, &c, json!({})).await;
    for answers in [
        json!({"elicit-1": null}),
        json!({"elicit-1": 7}),
        json!({"elicit-1": "accept"}),
        json!({"elicit-1": {"action": "maybe"}}),
        json!({"elicit-1": {"action": "accept", "content": "name"}}),
        json!({"elicit-1": {"action": "accept", "content": {"name": {"nested": true}}}}),
        json!({"elicit-1": {"action": "accept"}}),
        json!({"elicit-1": {"role": "assistant", "content": {"type": "video", "data": "x"}, "model": "m"}}),
        json!({"elicit-1": {"roots": [{"uri": 7}]}}),
    ] {
        let text = retry("ask", json!({}), &state, answers.clone());
        let reply: Value =
            serde_json::from_str(&s.handle_json_with(&text, &c).await.unwrap()).unwrap();
        let rejected = reply["error"]["code"] == -32602;
        let asked_again = reply["result"]["resultType"] == "input_required";
        assert!(rejected || asked_again, "{answers} -> {reply}");
        if rejected {
            let message = reply["error"]["message"].as_str().unwrap();
            assert!(message.contains("elicit-1"), "names the key: {message}");
        }
        still_serving(&s, &c).await;
    }
}

// ---- header attacks --------------------------------------------------------------------------------

fn app() -> Router {
    router(server(), HttpConfig::default())
}

fn echo_body(region: &str) -> Value {
    request(
        1,
        "tools/call",
        with_meta(json!({"name": "echo", "arguments": {"text": "t", "region": region}})),
    )
}

fn headers_for(name_value: &[u8], region_value: &[u8]) -> http::Request<String> {
    let mut req = http::Request::post("/mcp")
        .header("host", "localhost")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call");
    req = req.header(
        "mcp-name",
        http::HeaderValue::from_bytes(name_value).unwrap(),
    );
    req = req.header(
        "mcp-param-region",
        http::HeaderValue::from_bytes(region_value).unwrap(),
    );
    req.body(echo_body("eu").to_string()).unwrap()
}

#[tokio::test]
async fn header_attacks_get_400_header_mismatch() {
    let app = app();
    let long = "e".repeat(64 * 1024);
    let cases: Vec<(Vec<u8>, Vec<u8>, &str)> = vec![
        (b"echo".to_vec(), b"e\xffu".to_vec(), "invalid characters"),
        (b"ec\x80ho".to_vec(), b"eu".to_vec(), "invalid characters"),
        (
            b"echo".to_vec(),
            long.clone().into_bytes(),
            "does not match",
        ),
        (long.into_bytes(), b"eu".to_vec(), "does not match"),
        (b"echo".to_vec(), b"=?base64??=".to_vec(), "does not match"),
        (b"echo".to_vec(), b"=?base64?=?=".to_vec(), "Base64"),
        (b"echo".to_vec(), b"=?base64?/w==?=".to_vec(), "UTF-8"),
        (b"echo".to_vec(), b"=?base64?ZXU?=".to_vec(), "Base64"),
        (b"echo".to_vec(), b"=?base64?ZX U=?=".to_vec(), "Base64"),
        (
            b"echo".to_vec(),
            b"=?base64?PT9iYXNlNjQ/WlhVPT8/PQ==?=".to_vec(),
            "does not match",
        ),
        (b"=?base64?ZWNobw?=".to_vec(), b"eu".to_vec(), "Base64"),
        (b"echo\t\t".to_vec(), b"EU".to_vec(), "does not match"),
    ];
    for (name, region, fragment) in cases {
        let resp = oneshot(&app, headers_for(&name, &region)).await;
        assert_eq!(resp.status(), 400, "{:?}", String::from_utf8_lossy(&region));
        let reply = messages(resp.body()).pop().unwrap();
        assert_eq!(reply["error"]["code"], -32020);
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(fragment), "{message}");
        assert!(message.len() < 70_000);
    }
    // Duplicates of every routing header.
    for dup in [
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
        "mcp-param-region",
    ] {
        let mut req = headers_for(b"echo", b"eu");
        let first = req.headers()[dup].clone();
        req.headers_mut().append(dup, first);
        let resp = oneshot(&app, req).await;
        assert_eq!(resp.status(), 400, "{dup}");
        let reply = messages(resp.body()).pop().unwrap();
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("more than once")
        );
    }
    // And the server still answers a correct request.
    let resp = oneshot(&app, headers_for(b"echo", b"eu")).await;
    assert_eq!(resp.status(), 200);
}

/// CR/LF cannot be smuggled into a header: over a raw socket the HTTP parser refuses the
/// request before it reaches the MCP layer, and the server keeps serving.
#[tokio::test]
async fn crlf_injection_over_a_raw_socket_is_refused() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = mcp_test::transport::http::bind_local(0).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(mcp_test::transport::http::serve(
        listener,
        server(),
        HttpConfig::default(),
    ));
    let body = echo_body("eu").to_string();
    let exchange = |extra: String| {
        let body = body.clone();
        async move {
            let raw = format!(
                "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMCP-Protocol-Version: 2026-07-28\r\n\
                 Mcp-Method: tools/call\r\nMcp-Name: echo\r\n{extra}Content-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
            let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
            stream.write_all(raw.as_bytes()).await.unwrap();
            let mut out = String::new();
            let _ = stream.read_to_string(&mut out).await;
            out
        }
    };
    let limit = std::time::Duration::from_secs(30);
    let injected = tokio::time::timeout(
        limit,
        exchange("Mcp-Param-Region: eu\rX-Evil: 1\r\n".into()),
    )
    .await
    .unwrap();
    assert!(!injected.starts_with("HTTP/1.1 200"), "{injected}");
    let fine = tokio::time::timeout(limit, exchange("Mcp-Param-Region: eu\r\n".into()))
        .await
        .unwrap();
    assert!(fine.starts_with("HTTP/1.1 200"), "{fine}");
    task.abort();
}
