//! The runtime core, rule by rule: envelope, errors, discover, tools/list and tools/call.
//! Every response is checked against the official 2026-07-28 schema, and every bad input is
//! followed by a valid request that must still be served.

use mcp_test::wire::{CacheHint, CacheScope, Content, ToolAnnotations};
use mcp_test::{
    BuildError, CallToolResult, Caller, Context, Identity, Json, Server, Tool, ToolError,
};
use serde_json::{Value, json};
use std::time::Duration;

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn request(id: Value, method: &str, mut params: Value) -> Value {
    if params.get("_meta").is_none() {
        params["_meta"] = meta();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Sends JSON text, checks the reply against the official schema for `method`, and checks that
/// the server still answers a valid request afterwards.
async fn send_text(server: &Server, method: &str, text: &str) -> Value {
    let reply = server
        .handle_json(text)
        .await
        .unwrap_or_else(|| panic!("no response to {text}"));
    let reply: Value = serde_json::from_str(&reply).expect("the reply is JSON");
    if let Err(e) = mcp_test::spec::check_response(method, &reply) {
        panic!("reply to {text} breaks the schema: {e}\nreply: {reply:#}");
    }
    let next = server
        .handle_json(&request(json!("after"), "server/discover", json!({})).to_string())
        .await
        .expect("discover answers");
    let next: Value = serde_json::from_str(&next).unwrap();
    assert_eq!(next["id"], "after");
    assert_eq!(next["result"]["resultType"], "complete", "{next}");
    reply
}

async fn send(server: &Server, message: Value) -> Value {
    let method = message["method"].as_str().unwrap_or("").to_owned();
    send_text(server, &method, &message.to_string()).await
}

fn assert_error(reply: &Value, id: Value, code: i64, message_part: &str) {
    assert_eq!(reply["id"], id, "id not echoed: {reply}");
    assert_eq!(reply["error"]["code"], code, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(message_part),
        "message {message:?} lacks {message_part:?}"
    );
    assert!(reply.get("result").is_none());
}

// ---- tools ---------------------------------------------------------------------------------

struct Add {
    a: i64,
    b: i64,
}

impl Tool for Add {
    const NAME: &'static str = "add";
    fn title() -> Option<String> {
        Some("Adder".into())
    }
    fn description() -> Option<String> {
        Some("Adds two integers".into())
    }
    fn annotations() -> Option<ToolAnnotations> {
        Some(ToolAnnotations {
            read_only_hint: Some(true),
            ..Default::default()
        })
    }
    fn input_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "minimum": 0},
                "b": {"type": "integer"},
                "nested": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
            },
            "required": ["a", "b"],
            "additionalProperties": false
        })
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Add {
            a: args["a"].as_i64().ok_or_else(|| ToolError::new("a"))?,
            b: args["b"].as_i64().ok_or_else(|| ToolError::new("b"))?,
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text((self.a + self.b).to_string()))
    }
}

/// A tool whose behaviour is chosen by its `mode` argument, for the failure branches.
struct Misbehave {
    mode: String,
}

impl Tool for Misbehave {
    const NAME: &'static str = "misbehave";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"mode": {"type": "string"}}, "required": ["mode"]})
    }
    fn output_schema() -> Option<Value> {
        Some(json!({"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]}))
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Misbehave {
            mode: args["mode"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        match self.mode.as_str() {
            "ok" => Ok(CallToolResult::structured(json!({"t": 21.5}))),
            "wrong-output" => Ok(CallToolResult::structured(json!({"t": "warm"}))),
            "no-structured" => Ok(CallToolResult::text("21.5")),
            "fail" => Err(ToolError::new("the weather service is down")),
            "io-error" => Err(std::io::Error::other("connection reset").into()),
            "panic" => panic!("handler exploded"),
            "needs-sampling" => Err(mcp_test::ErrorObject::missing_client_capability(
                "This tool requires the sampling capability",
                json!({"sampling": {}}),
            )
            .into()),
            "sleep" => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(CallToolResult::structured(json!({"t": 0})))
            }
            "whoami" => Ok(CallToolResult::structured(json!({
                "t": 1,
                "principal": ctx.principal(),
                "tenant": ctx.tenant(),
                "scopes": ctx.scopes(),
                "assign": ctx.assign::<u32>(),
                "state": ctx.state::<String>(),
                "id": ctx.request_id().to_value(),
                "tools": ctx.tools().iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
            }))),
            other => Err(ToolError::new(format!("unknown mode {other}"))),
        }
    }
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    celsius: f64,
}

struct Structured;

impl Tool for Structured {
    const NAME: &'static str = "weather";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn output_schema() -> Option<Value> {
        <Json<Weather> as mcp_test::IntoToolResult>::output_schema()
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Structured)
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        mcp_test::IntoToolResult::into_tool_result(Json(Weather { celsius: 3.5 }))
    }
}

/// A tool that returns one block of every content kind.
struct AllContent;

impl Tool for AllContent {
    const NAME: &'static str = "all_content";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(AllContent)
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![
            Content::text("t"),
            Content::image_bytes(b"png", "image/png"),
            Content::audio_bytes(b"wav", "audio/wav"),
            Content::resource_link("file:///a.rs", "a.rs"),
            Content::embedded(mcp_test::wire::ResourceContents::text(
                "file:///a.rs",
                Some("text/x-rust"),
                "fn main() {}",
            )),
        ]))
    }
}

fn server() -> Server {
    Server::builder("core-test", "0.0.1")
        .instructions("Use add to add.")
        .tool::<Add>()
        .tool::<Misbehave>()
        .tool::<Structured>()
        .tool::<AllContent>()
        .state(String::from("shared"))
        .build()
        .unwrap()
}

// ---- JSON-RPC shape ------------------------------------------------------------------------

#[tokio::test]
async fn invalid_json_is_a_parse_error_without_id() {
    let s = server();
    let reply = send_text(&s, "tools/list", r#"{"jsonrpc":"2.0","id":1,"#).await;
    assert_eq!(reply["error"]["code"], -32700);
    assert!(reply.get("id").is_none(), "{reply}");
    let reply = send_text(&s, "tools/list", "").await;
    assert_eq!(reply["error"]["code"], -32700);
}

#[tokio::test]
async fn batches_and_non_objects_are_invalid_requests() {
    let s = server();
    let batch = json!([request(json!(1), "tools/list", json!({}))]).to_string();
    let reply = send_text(&s, "tools/list", &batch).await;
    assert_eq!(reply["error"]["code"], -32600);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("batch")
    );
    for text in ["1", "\"x\"", "null", "true"] {
        let reply = send_text(&s, "tools/list", text).await;
        assert_eq!(reply["error"]["code"], -32600, "{text}");
    }
}

#[tokio::test]
async fn bad_ids_are_invalid_requests() {
    let s = server();
    for id in [
        json!(null),
        json!(1.5),
        json!(true),
        json!({"a": 1}),
        json!([1]),
    ] {
        let mut msg = request(json!(0), "tools/list", json!({}));
        msg["id"] = id.clone();
        let reply = send(&s, msg).await;
        assert_eq!(reply["error"]["code"], -32600, "id {id}");
        assert!(reply.get("id").is_none());
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("id must be")
        );
    }
}

#[tokio::test]
async fn bad_jsonrpc_field_or_method_is_invalid_request_with_echoed_id() {
    let s = server();
    let mut msg = request(json!("r1"), "tools/list", json!({}));
    msg["jsonrpc"] = json!("1.0");
    assert_error(&send(&s, msg).await, json!("r1"), -32600, "jsonrpc");

    let mut msg = request(json!(2), "tools/list", json!({}));
    msg.as_object_mut().unwrap().remove("jsonrpc");
    assert_error(&send(&s, msg).await, json!(2), -32600, "jsonrpc");

    let mut msg = request(json!(3), "tools/list", json!({}));
    msg["method"] = json!(7);
    assert_error(
        &send(&s, msg).await,
        json!(3),
        -32600,
        "method must be a string",
    );

    let posted_response = json!({"jsonrpc": "2.0", "id": 4, "result": {}});
    assert_error(
        &send(&s, posted_response).await,
        json!(4),
        -32600,
        "not responses",
    );
}

#[tokio::test]
async fn notifications_get_no_response() {
    let s = server();
    let note =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
    assert_eq!(s.handle_json(&note.to_string()).await, None);
    let unknown = json!({"jsonrpc": "2.0", "method": "tools/call"});
    assert_eq!(s.handle_json(&unknown.to_string()).await, None);
}

// ---- methods -------------------------------------------------------------------------------

#[tokio::test]
async fn removed_and_unknown_methods_are_method_not_found() {
    let s = server();
    for (i, method) in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "unknown/method",
        "prompts/list",
        "resources/read",
        "completion/complete",
    ]
    .into_iter()
    .enumerate()
    {
        let reply = send(&s, request(json!(i), method, json!({}))).await;
        assert_error(&reply, json!(i), -32601, method);
    }
    let reply = send(&s, request(json!(1), "initialize", json!({}))).await;
    assert_eq!(reply["error"]["data"]["supported"], json!(["2026-07-28"]));
}

#[tokio::test]
async fn tool_methods_are_not_found_without_tools() {
    let s = Server::builder("empty", "1").build().unwrap();
    let reply = send(&s, request(json!(1), "tools/list", json!({}))).await;
    assert_error(&reply, json!(1), -32601, "tools/list");
    let reply = send(&s, request(json!(2), "tools/call", json!({"name": "add"}))).await;
    assert_error(&reply, json!(2), -32601, "tools/call");
    let discover = send(&s, request(json!(3), "server/discover", json!({}))).await;
    assert_eq!(discover["result"]["capabilities"], json!({}));
}

// ---- envelope ------------------------------------------------------------------------------

#[tokio::test]
async fn missing_or_malformed_envelope_is_invalid_params() {
    let s = server();
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            "missing params",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": [1]}),
            "params must be an object, got array",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
            "missing params._meta",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": 5}}),
            "params._meta must be an object",
        ),
        (
            request(
                json!(1),
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}),
            ),
            "io.modelcontextprotocol/protocolVersion",
        ),
        (
            request(
                json!(1),
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": 2026,
                                 "io.modelcontextprotocol/clientCapabilities": {}}}),
            ),
            "must be a string, got integer",
        ),
        (
            request(
                json!(1),
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
            ),
            "io.modelcontextprotocol/clientCapabilities",
        ),
        (
            request(
                json!(1),
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                 "io.modelcontextprotocol/clientCapabilities": []}}),
            ),
            "must be an object, got array",
        ),
        (
            request(
                json!(1),
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                 "io.modelcontextprotocol/clientCapabilities": {},
                                 "io.modelcontextprotocol/logLevel": "loud"}}),
            ),
            "logLevel",
        ),
        (
            request(
                json!(1),
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                 "io.modelcontextprotocol/clientCapabilities": {},
                                 "progressToken": 1.5}}),
            ),
            "progressToken",
        ),
    ];
    for (msg, part) in cases {
        let reply = send(&s, msg.clone()).await;
        assert_error(&reply, json!(1), -32602, part);
    }
}

#[tokio::test]
async fn client_info_is_optional_and_read_when_sent() {
    let s = server();
    let mut m = meta();
    m["io.modelcontextprotocol/clientInfo"] = json!({"name": "c", "version": "1"});
    let reply = send(&s, request(json!(1), "tools/list", json!({"_meta": m}))).await;
    assert_eq!(reply["result"]["resultType"], "complete");
}

#[tokio::test]
async fn unsupported_version_names_supported_and_requested() {
    let s = server();
    for version in ["v999.0.0", "2025-11-25", "1900-01-01"] {
        let msg = request(
            json!(9),
            "server/discover",
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": version,
                             "io.modelcontextprotocol/clientCapabilities": {}}}),
        );
        let reply = send(&s, msg).await;
        assert_error(&reply, json!(9), -32022, "Unsupported protocol version");
        assert_eq!(
            reply["error"]["data"],
            json!({"supported": ["2026-07-28"], "requested": version})
        );
    }
}

// ---- discover ------------------------------------------------------------------------------

#[tokio::test]
async fn discover_reports_exactly_what_is_registered() {
    let s = server();
    let reply = send(&s, request(json!("d"), "server/discover", json!({}))).await;
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": "d", "result": {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {"listChanged": true}},
            "instructions": "Use add to add.",
            "ttlMs": 3_600_000,
            "cacheScope": "public",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "core-test", "version": "0.0.1"}}
        }})
    );
}

#[tokio::test]
async fn discover_cache_hint_is_configurable() {
    let s = Server::builder("s", "1")
        .discover_cache(CacheHint::new(5, CacheScope::Private))
        .build()
        .unwrap();
    let reply = send(&s, request(json!(1), "server/discover", json!({}))).await;
    assert_eq!(reply["result"]["ttlMs"], 5);
    assert_eq!(reply["result"]["cacheScope"], "private");
    assert!(reply["result"].get("instructions").is_none());
}

// ---- tools/list ----------------------------------------------------------------------------

#[tokio::test]
async fn tools_list_is_sorted_and_complete() {
    let s = server();
    let reply = send(&s, request(json!(1), "tools/list", json!({}))).await;
    let result = &reply["result"];
    let names: Vec<&str> = result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "all_content", "misbehave", "weather"]);
    assert!(result.get("nextCursor").is_none());
    assert_eq!(result["ttlMs"], 60_000);
    assert_eq!(result["cacheScope"], "private");
    assert_eq!(
        result["tools"][0],
        json!({
            "name": "add",
            "title": "Adder",
            "description": "Adds two integers",
            "annotations": {"readOnlyHint": true},
            "inputSchema": Add::input_schema(),
        })
    );
    assert_eq!(
        result["tools"][3]["outputSchema"],
        json!({"title": "Weather", "type": "object",
               "properties": {"celsius": {"type": "number", "format": "double"}},
               "required": ["celsius"]})
    );
}

#[tokio::test]
async fn tools_list_paginates_with_opaque_cursors_and_one_scope() {
    let s = Server::builder("paged", "1")
        .tool::<Add>()
        .tool::<Misbehave>()
        .tool::<Structured>()
        .tool::<AllContent>()
        .page_size(3)
        .tools_cache(CacheHint::new(10, CacheScope::Public))
        .build()
        .unwrap();
    let first = send(&s, request(json!(1), "tools/list", json!({}))).await;
    assert_eq!(first["result"]["tools"].as_array().unwrap().len(), 3);
    let cursor = first["result"]["nextCursor"].as_str().unwrap().to_owned();
    let second = send(
        &s,
        request(json!(2), "tools/list", json!({"cursor": cursor})),
    )
    .await;
    assert_eq!(second["result"]["tools"][0]["name"], "weather");
    assert!(second["result"].get("nextCursor").is_none());
    for page in [&first, &second] {
        assert_eq!(page["result"]["cacheScope"], "public");
        assert_eq!(page["result"]["ttlMs"], 10);
    }
    // Deterministic: the same request gives the same page.
    let again = send(&s, request(json!(1), "tools/list", json!({}))).await;
    assert_eq!(again, first);
}

#[tokio::test]
async fn bad_cursors_are_invalid_params() {
    let s = server();
    for cursor in [json!("nonsense"), json!(""), json!("dG9vbHMvbGlzdHwyfDA")] {
        let reply = send(
            &s,
            request(json!(1), "tools/list", json!({"cursor": cursor})),
        )
        .await;
        assert_error(&reply, json!(1), -32602, "invalid cursor");
        assert_eq!(reply["error"]["data"]["cursor"], cursor);
    }
    let reply = send(&s, request(json!(1), "tools/list", json!({"cursor": 3}))).await;
    assert_error(&reply, json!(1), -32602, "cursor must be a string");
}

// ---- tools/call ----------------------------------------------------------------------------

fn call(id: i64, name: &str, arguments: Value) -> Value {
    request(
        json!(id),
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

#[tokio::test]
async fn a_valid_call_answers_complete_with_server_info() {
    let s = server();
    let reply = send(&s, call(1, "add", json!({"a": 2, "b": 3}))).await;
    assert_eq!(
        reply["result"],
        json!({"resultType": "complete", "content": [{"type": "text", "text": "5"}],
               "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "core-test", "version": "0.0.1"}}})
    );
}

#[tokio::test]
async fn missing_arguments_mean_an_empty_object() {
    let s = server();
    let msg = request(json!(1), "tools/call", json!({"name": "weather"}));
    let reply = send(&s, msg).await;
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"celsius": 3.5})
    );
}

#[tokio::test]
async fn unknown_tool_is_invalid_params() {
    let s = server();
    let reply = send(&s, call(3, "invalid_tool_name", json!({}))).await;
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Unknown tool: invalid_tool_name"}})
    );
}

#[tokio::test]
async fn malformed_call_params_are_invalid_params() {
    let s = server();
    let no_name = request(json!(1), "tools/call", json!({"arguments": {}}));
    assert_error(&send(&s, no_name).await, json!(1), -32602, "missing name");
    let number_name = request(json!(1), "tools/call", json!({"name": 5}));
    assert_error(
        &send(&s, number_name).await,
        json!(1),
        -32602,
        "name must be a string",
    );
    for args in [json!([1]), json!("x"), json!(null)] {
        let reply = send(&s, call(1, "add", args)).await;
        assert_error(&reply, json!(1), -32602, "arguments must be an object");
    }
}

#[tokio::test]
async fn invalid_arguments_are_an_error_result_naming_every_pointer() {
    let s = server();
    let reply = send(
        &s,
        call(1, "add", json!({"a": -1, "b": "x", "c": 1, "nested": {}})),
    )
    .await;
    let result = &reply["result"];
    assert_eq!(result["isError"], true, "{reply}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        text,
        "Invalid arguments for tool add:\n\
         - /a: -1 is less than the minimum of 0\n\
         - /b: \"x\" is not of type \"integer\"\n\
         - /c: unknown property (additionalProperties is false)\n\
         - /nested/x: missing required property"
    );
    let reply = send(&s, call(1, "add", json!({}))).await;
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("- /a: missing required property\n- /b: missing required property"));
}

#[tokio::test]
async fn handler_errors_are_error_results() {
    let s = server();
    let reply = send(&s, call(1, "misbehave", json!({"mode": "fail"}))).await;
    assert_eq!(reply["result"]["isError"], true);
    assert_eq!(
        reply["result"]["content"][0]["text"],
        "the weather service is down"
    );
    let reply = send(&s, call(1, "misbehave", json!({"mode": "io-error"}))).await;
    assert_eq!(reply["result"]["content"][0]["text"], "connection reset");
}

#[tokio::test]
async fn a_tool_may_answer_a_protocol_error() {
    let s = server();
    let reply = send(&s, call(5, "misbehave", json!({"mode": "needs-sampling"}))).await;
    assert_error(&reply, json!(5), -32021, "sampling");
    assert_eq!(
        reply["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
}

#[tokio::test]
async fn a_panicking_handler_is_an_internal_error_and_the_server_keeps_serving() {
    let s = server();
    let reply = send(&s, call(7, "misbehave", json!({"mode": "panic"}))).await;
    assert_error(&reply, json!(7), -32603, "tool misbehave panicked");
    assert_eq!(reply["error"]["data"]["panic"], "handler exploded");
    let reply = send(&s, call(8, "add", json!({"a": 1, "b": 1}))).await;
    assert_eq!(reply["result"]["content"][0]["text"], "2");
}

#[tokio::test]
async fn output_schema_is_enforced() {
    let s = server();
    let ok = send(&s, call(1, "misbehave", json!({"mode": "ok"}))).await;
    assert_eq!(ok["result"]["structuredContent"], json!({"t": 21.5}));
    assert_eq!(ok["result"]["content"][0]["text"], r#"{"t":21.5}"#);
    assert!(ok["result"].get("isError").is_none());

    let wrong = send(&s, call(2, "misbehave", json!({"mode": "wrong-output"}))).await;
    assert_eq!(wrong["result"]["isError"], true);
    assert_eq!(
        wrong["result"]["content"][0]["text"],
        "Tool misbehave returned structuredContent that does not match its outputSchema:\n- /t: \"warm\" is not of type \"number\""
    );
    assert!(wrong["result"].get("structuredContent").is_none());

    let missing = send(&s, call(3, "misbehave", json!({"mode": "no-structured"}))).await;
    assert_eq!(missing["result"]["isError"], true);
    assert!(
        missing["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("returned no structuredContent")
    );
    // A tool execution error is passed through even with an outputSchema.
    let failed = send(&s, call(4, "misbehave", json!({"mode": "fail"}))).await;
    assert_eq!(
        failed["result"]["content"][0]["text"],
        "the weather service is down"
    );
}

#[tokio::test]
async fn every_content_kind_goes_out_schema_valid() {
    let s = server();
    let reply = send(&s, call(1, "all_content", json!({}))).await;
    let kinds: Vec<&str> = reply["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["text", "image", "audio", "resource_link", "resource"]
    );
}

#[tokio::test]
async fn context_carries_identity_assigns_state_and_tools() {
    let s = server();
    let caller = Caller::new(
        Identity::principal("alice")
            .with_tenant("acme")
            .with_scopes(["a", "b"]),
    )
    .with_assign(7_u32);
    let text = call(1, "misbehave", json!({"mode": "whoami"})).to_string();
    let reply: Value =
        serde_json::from_str(&s.handle_json_with(&text, &caller).await.unwrap()).unwrap();
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"t": 1, "principal": "alice", "tenant": "acme", "scopes": ["a", "b"],
               "assign": 7, "state": "shared", "id": 1,
               "tools": ["add", "all_content", "misbehave", "weather"]})
    );
}

#[tokio::test(start_paused = true)]
async fn a_request_past_its_timeout_is_an_internal_error() {
    let s = server();
    let caller = Caller::default().with_timeout(Duration::from_secs(2));
    let text = call(1, "misbehave", json!({"mode": "sleep"})).to_string();
    let reply: Value =
        serde_json::from_str(&s.handle_json_with(&text, &caller).await.unwrap()).unwrap();
    assert_error(&reply, json!(1), -32603, "did not finish within 2000 ms");
}

#[tokio::test(start_paused = true)]
async fn the_server_maximum_caps_the_caller_timeout() {
    let s = Server::builder("s", "1")
        .tool::<Misbehave>()
        .max_request_timeout(Duration::from_millis(500))
        .build()
        .unwrap();
    let caller = Caller::default().with_timeout(Duration::from_secs(3600));
    let text = call(1, "misbehave", json!({"mode": "sleep"})).to_string();
    let reply: Value =
        serde_json::from_str(&s.handle_json_with(&text, &caller).await.unwrap()).unwrap();
    assert_error(&reply, json!(1), -32603, "within 500 ms");
}

#[tokio::test]
async fn the_typed_request_goes_through_json() {
    let s = server();
    let req = mcp_test::wire::Request::new(
        "t",
        "tools/call",
        json!({"_meta": meta(), "name": "add", "arguments": {"a": 1, "b": 2}}),
    );
    let resp = s.request(&req).await;
    assert_eq!(resp.id(), Some(&mcp_test::wire::RequestId::from("t")));
    assert_eq!(resp.result().unwrap()["content"][0]["text"], "3");
}

// ---- build errors --------------------------------------------------------------------------

struct BadName;
impl Tool for BadName {
    const NAME: &'static str = "bad name!";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(BadName)
    }
    async fn call(self, _: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::default())
    }
}

struct ArraySchema;
impl Tool for ArraySchema {
    const NAME: &'static str = "array_schema";
    fn input_schema() -> Value {
        json!({"type": "array"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(ArraySchema)
    }
    async fn call(self, _: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::default())
    }
}

struct BrokenSchema;
impl Tool for BrokenSchema {
    const NAME: &'static str = "broken_schema";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"a": {"type": "integr"}}})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(BrokenSchema)
    }
    async fn call(self, _: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::default())
    }
}

#[test]
fn misconfigured_servers_do_not_build() {
    let err = Server::builder("s", "1")
        .tool::<Add>()
        .tool::<Add>()
        .build()
        .unwrap_err();
    assert_eq!(err, BuildError::DuplicateTool("add".into()));
    let err = Server::builder("s", "1")
        .tool::<BadName>()
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid tool name `bad name!`: ' ' is not one of [A-Za-z0-9_.-]"
    );
    let err = Server::builder("s", "1")
        .tool::<ArraySchema>()
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("\"type\": \"object\""), "{err}");
    let err = Server::builder("s", "1")
        .tool::<BrokenSchema>()
        .build()
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("tool `broken_schema` has an invalid inputSchema"),
        "{err}"
    );
    let err = Server::builder("s", "1").page_size(0).build().unwrap_err();
    assert_eq!(err, BuildError::ZeroPageSize);
}
