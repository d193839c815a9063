//! A realistic suite for a small task-tracker MCP server, written only with the declarative test
//! surface: `#[mcp_test]`, the request helpers, `mcp_request!` and the `assert_*` macros.

use mcp_test::testing::{
    self, RequestOptions, TestContext, audio_response, build_call_request, error_text,
    image_response, json_response, mirrored_headers, mirrored_headers_for, put_mirrored_headers,
    result, text_response, unwrap_single,
};
use mcp_test::wire::CacheHint;
use mcp_test::{
    CallToolResult, Content, Context, ErrorObject, Server, ServerBuilder, Tool, ToolError,
    assert_rpc_error, assert_tool_error, assert_tool_json, assert_tool_text, mcp_request, mcp_test,
};
use serde_json::{Value, json};
use std::time::Duration;

// ---------------------------------------------------------------------------------------------
// The server under test: tools written by implementing `mcp_test::Tool` by hand.
// ---------------------------------------------------------------------------------------------

/// Adds two integers.
struct Add {
    a: i64,
    b: i64,
}

impl Tool for Add {
    const NAME: &'static str = "add";
    fn input_schema() -> Value {
        json!({"type": "object", "required": ["a", "b"], "additionalProperties": false,
               "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Add {
            a: args["a"].as_i64().unwrap_or_default(),
            b: args["b"].as_i64().unwrap_or_default(),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        let sum = self
            .a
            .checked_add(self.b)
            .ok_or_else(|| ToolError::new("the sum overflows an i64"))?;
        Ok(CallToolResult::text(sum.to_string()))
    }
}

/// An action-dispatched tool over a fixed task list: `list`, `get {id}`, `delete {id}`.
struct Tasks {
    action: String,
    id: Option<String>,
}

const TASKS: &[(&str, &str)] = &[("7", "Write the report"), ("8", "Review the patch")];

impl Tool for Tasks {
    const NAME: &'static str = "tasks";
    fn description() -> Option<String> {
        Some("Lists, reads and deletes tasks".into())
    }
    fn input_schema() -> Value {
        json!({
            "type": "object",
            "required": ["action"],
            "additionalProperties": false,
            "properties": {
                "action": {"enum": ["list", "get", "delete"]},
                "data": {"type": "object", "additionalProperties": false,
                         "properties": {"id": {"type": "string"}}}
            }
        })
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Tasks {
            action: args["action"].as_str().unwrap_or_default().to_owned(),
            id: args["data"]["id"].as_str().map(str::to_owned),
        })
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let find = |id: &Option<String>| -> Result<(&str, &str), ToolError> {
            let id = id
                .as_deref()
                .ok_or_else(|| ToolError::new("data.id is required"))?;
            TASKS
                .iter()
                .find(|(task, _)| *task == id)
                .copied()
                .ok_or_else(|| ToolError::new(format!("no task {id}")))
        };
        match self.action.as_str() {
            "list" => Ok(CallToolResult::text(
                TASKS
                    .iter()
                    .map(|(id, title)| format!("{id}: {title}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )),
            "get" => {
                let (id, title) = find(&self.id)?;
                Ok(CallToolResult::structured(
                    json!({"id": id, "title": title}),
                ))
            }
            "delete" => {
                if !ctx.has_scope("tasks.write") {
                    return Err(ToolError::new(
                        "forbidden: deleting needs scope tasks.write",
                    ));
                }
                let (id, _) = find(&self.id)?;
                Ok(CallToolResult::text(format!("deleted {id}")))
            }
            other => Err(ToolError::new(format!("unknown action {other}"))),
        }
    }
}

/// Says who is calling, from the request's identity and application `_meta`.
struct Whoami;

impl Tool for Whoami {
    const NAME: &'static str = "whoami";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Whoami)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::structured(json!({
            "principal": ctx.principal(),
            "tenant": ctx.tenant(),
            "scopes": ctx.scopes(),
            "host": ctx.host_context(),
            "trace": ctx.request_meta().raw.get("com.example/trace"),
            "elicitation": ctx.client_capabilities().elicitation_form(),
            "request_id": ctx.request_id().to_value(),
        })))
    }
}

/// Returns a one-pixel image, or a short chime.
struct Media {
    kind: String,
}

impl Tool for Media {
    const NAME: &'static str = "media";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"kind": {"enum": ["image", "audio", "both"]}},
               "required": ["kind"]})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Media {
            kind: args["kind"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        let image = Content::image_bytes(&[0x89, 0x50, 0x4e, 0x47], "image/png");
        let audio = Content::audio_bytes(b"RIFF", "audio/wav");
        Ok(CallToolResult::success(match self.kind.as_str() {
            "image" => vec![image],
            "audio" => vec![audio],
            _ => vec![image, audio],
        }))
    }
}

/// Declares an output schema, and breaks it when asked to.
struct Forecast {
    broken: bool,
}

impl Tool for Forecast {
    const NAME: &'static str = "forecast";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {
            "city": {"type": "string", "x-mcp-header": "City"},
            "broken": {"type": "boolean"}
        }})
    }
    fn output_schema() -> Option<Value> {
        Some(json!({"type": "object", "required": ["celsius"],
                    "properties": {"celsius": {"type": "number"}}}))
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Forecast {
            broken: args["broken"].as_bool().unwrap_or(false),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::structured(if self.broken {
            json!({"celsius": "warm"})
        } else {
            json!({"celsius": 21.5})
        }))
    }
}

/// Misbehaves on purpose: panics, never finishes, or fails with a protocol error.
struct Faulty {
    how: String,
}

impl Tool for Faulty {
    const NAME: &'static str = "faulty";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"how": {"enum": ["panic", "hang", "protocol"]}}})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Faulty {
            how: args["how"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        match self.how.as_str() {
            "panic" => panic!("the faulty tool panicked on purpose"),
            "hang" => std::future::pending().await,
            _ => Err(ErrorObject::invalid_params("Invalid params: faulty by request").into()),
        }
    }
}

fn builder() -> ServerBuilder {
    Server::builder("task-tracker", "2.0.0")
        .tool::<Add>()
        .tool::<Tasks>()
        .tool::<Whoami>()
        .tool::<Media>()
        .tool::<Forecast>()
        .tool::<Faulty>()
}

fn tracker() -> Server {
    builder().build().expect("the tracker server builds")
}

// ---------------------------------------------------------------------------------------------
// Tools: the successful branches.
// ---------------------------------------------------------------------------------------------

#[mcp_test(server = tracker)]
async fn adds(mcp: TestContext) {
    assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 3})).await, "5");
    assert_eq!(
        text_response(mcp.call_tool("add", json!({"a": -2, "b": 2})).await),
        "0"
    );
}

#[mcp_test(server = tracker)]
async fn the_action_tool_dispatches_on_its_action(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("tasks", json!({"action": "list"})).await,
        "7: Write the report\n8: Review the patch"
    );
    assert_tool_json!(
        mcp.call_tool("tasks", json!({"action": "get", "data": {"id": "7"}})).await,
        {"id": "7", "title": "Write the report"}
    );
    // The same calls, built with mcp_request! and sent through the same path.
    let got = mcp
        .send(&mcp_request!(action "tasks" "get" {"id": "8"}))
        .await;
    assert_eq!(json_response(&got)["title"], "Review the patch");
    let listed = mcp.send(&mcp_request!(action "tasks" "list")).await;
    assert!(text_response(listed).starts_with("7: "));
}

#[mcp_test(server = tracker, scopes = ["tasks.write"])]
async fn scopes_from_the_attribute_reach_the_tool(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("tasks", json!({"action": "delete", "data": {"id": "7"}}))
            .await,
        "deleted 7"
    );
    // Narrow the options for one call: the same context without the scope is refused.
    let reader = mcp.with(|o| o.scopes(Vec::<String>::new()));
    assert_tool_error!(
        reader
            .call_tool("tasks", json!({"action": "delete", "data": {"id": "7"}}))
            .await,
        "needs scope tasks.write"
    );
}

#[mcp_test(server = tracker, principal = "alice", tenant = "acme", capabilities(elicitation))]
async fn identity_and_capabilities_come_from_the_attribute(mcp: TestContext) {
    let who = json_response(mcp.call_tool("whoami", json!({})).await);
    assert_eq!(who["principal"], "alice");
    assert_eq!(who["tenant"], "acme");
    assert_eq!(who["elicitation"], true);
}

#[mcp_test(server = tracker)]
async fn request_options_reach_the_handler_and_never_the_body(mcp: TestContext) {
    let opts = RequestOptions::new()
        .principal("bob")
        .host_context(json!({"account_id": "acct-1"}))
        .meta(json!({"com.example/trace": "t-42"}))
        .request_id("call-9");
    let response = testing::call_tool(mcp.server(), "whoami", json!({}), &opts).await;
    assert_eq!(response["id"], "call-9");
    assert_tool_json!(response, {
        "principal": "bob", "tenant": null, "scopes": [], "host": {"account_id": "acct-1"},
        "trace": "t-42", "elicitation": false, "request_id": "call-9"
    });
    // Defaults: the test principal, id 1, no capabilities.
    let who = json_response(mcp.call_tool("whoami", json!({})).await);
    assert_eq!(who["principal"], "test-principal");
    assert_eq!(who["request_id"], 1);
    // No principal at all.
    let anonymous = mcp.with(RequestOptions::anonymous);
    assert_eq!(
        json_response(anonymous.call_tool("whoami", json!({})).await)["principal"],
        Value::Null
    );
}

#[mcp_test(server = tracker)]
async fn images_and_audio_are_single_items(mcp: TestContext) {
    let image = image_response(mcp.call_tool("media", json!({"kind": "image"})).await);
    assert_eq!(
        image,
        json!({"type": "image", "data": "iVBORw==", "mimeType": "image/png"})
    );
    let audio = audio_response(mcp.call_tool("media", json!({"kind": "audio"})).await);
    assert_eq!(audio["mimeType"], "audio/wav");
    // The typed result works with the content unwrappers too.
    let both = mcp.call_tool("media", json!({"kind": "both"})).await;
    let result: CallToolResult = serde_json::from_value(result(&both)).unwrap();
    assert_eq!(result.content.len(), 2);
    assert_eq!(unwrap_single(&result.content[..1])["type"], "image");
}

#[mcp_test(server = tracker)]
async fn structured_output_is_checked_against_the_output_schema(mcp: TestContext) {
    assert_tool_json!(mcp.call_tool("forecast", json!({"city": "Paris"})).await, {"celsius": 21.5});
    assert_tool_error!(
        mcp.call_tool("forecast", json!({"broken": true})).await,
        "does not match its outputSchema"
    );
}

// ---------------------------------------------------------------------------------------------
// The failure branches, each answered by the server's real path.
// ---------------------------------------------------------------------------------------------

#[mcp_test(server = tracker)]
async fn tool_execution_errors_are_results(mcp: TestContext) {
    let text = assert_tool_error!(
        mcp.call_tool("tasks", json!({"action": "get", "data": {"id": "99"}}))
            .await
    );
    assert_eq!(text, "no task 99");
    assert_eq!(
        error_text(mcp.call_tool("add", json!({"a": i64::MAX, "b": 1})).await),
        "the sum overflows an i64"
    );
}

#[mcp_test(server = tracker)]
async fn invalid_arguments_name_the_pointer(mcp: TestContext) {
    let text = assert_tool_error!(mcp.call_tool("add", json!({"a": "two"})).await, "/a");
    assert!(text.contains("/b"), "{text}");
    assert_tool_error!(
        mcp.call_tool("tasks", json!({"action": "archive"})).await,
        "/action"
    );
}

#[mcp_test(server = tracker)]
async fn protocol_errors_are_json_rpc_errors(mcp: TestContext) {
    assert_rpc_error!(
        mcp.call_tool("nope", json!({})).await,
        -32602,
        "Unknown tool: nope"
    );
    assert_rpc_error!(
        mcp.call_tool("faulty", json!({"how": "protocol"})).await,
        -32602,
        "faulty by request"
    );
    let error = assert_rpc_error!(
        mcp.call_tool("faulty", json!({"how": "panic"})).await,
        -32603
    );
    assert_eq!(
        error.data.unwrap()["panic"],
        "the faulty tool panicked on purpose"
    );
    // Arguments that are not an object are the server's to refuse, not the helper's.
    assert_rpc_error!(
        mcp.call_tool("add", json!([1, 2])).await,
        -32602,
        "arguments must be an object"
    );
}

/// The test's timeout is how long the test waits, as over stdio and HTTP (`timeouts.rs`).
#[mcp_test(server = tracker, timeout = 50)]
#[should_panic(
    expected = "no reply in process to tools/call (id 1) from task-tracker 2.0.0 (in process) \
                           within 50ms, the test's timeout"
)]
async fn a_request_that_never_finishes_times_out(mcp: TestContext) {
    mcp.call_tool("faulty", json!({"how": "hang"})).await;
}

#[mcp_test(server = builder().max_request_timeout(Duration::from_millis(30)))]
async fn the_timeout_option_is_capped_by_the_server(mcp: TestContext) {
    let patient = mcp.with(|o| o.timeout(Duration::from_secs(3600)));
    assert_rpc_error!(
        patient.call_tool("faulty", json!({"how": "hang"})).await,
        -32603,
        "within 30 ms"
    );
}

#[mcp_test(server = tracker, protocol = "1900-01-01")]
async fn an_unsupported_protocol_version_is_refused(mcp: TestContext) {
    let error = assert_rpc_error!(mcp.discover().await, -32022);
    assert_eq!(error.data.unwrap()["requested"], "1900-01-01");
}

#[mcp_test(server = tracker)]
async fn methods_without_a_capability_are_not_found(mcp: TestContext) {
    assert_rpc_error!(mcp.list_resources().await, -32601, "resources/list");
    assert_rpc_error!(mcp.list_resource_templates().await, -32601);
    assert_rpc_error!(mcp.read_resource("file:///docs/item-7").await, -32601);
    assert_rpc_error!(mcp.list_prompts().await, -32601);
    assert_rpc_error!(
        mcp.get_prompt("summarize", json!({"topic": "release"}))
            .await,
        -32601
    );
    assert_rpc_error!(
        mcp.complete(
            json!({"type": "ref/prompt", "name": "summarize"}),
            json!({"name": "topic", "value": "rel"})
        )
        .await,
        -32601
    );
    assert_rpc_error!(mcp.request("ping", Value::Null).await, -32601, "removed");
}

#[mcp_test(server = tracker)]
async fn malformed_bodies_built_on_purpose(mcp: TestContext) {
    // An id the server cannot read, and a _meta that is not an object.
    let no_id = mcp.send(&mcp_request!("tools/list"; id = null)).await;
    assert_rpc_error!(no_id, -32600, "id must be a string or an integer");
    let bad_meta = mcp.send(&mcp_request!("tools/list" {"_meta": "x"})).await;
    assert_rpc_error!(bad_meta, -32602, "_meta must be an object");
    let no_version = mcp
        .send(&mcp_request!(call "add" {"a": 1, "b": 2};
            meta = {"io.modelcontextprotocol/protocolVersion": null}))
        .await;
    assert_rpc_error!(no_version, -32602, "protocolVersion");
    // A notification gets no response at all.
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}});
    assert_eq!(mcp.send(&notification).await, Value::Null);
}

// ---------------------------------------------------------------------------------------------
// Listing and discovery.
// ---------------------------------------------------------------------------------------------

#[mcp_test(server = builder().page_size(4).tools_cache(CacheHint::new(0, mcp_test::wire::CacheScope::Private)))]
async fn lists_page_with_the_cursor_option(mcp: TestContext) {
    let first = result(mcp.list_tools().await);
    let names: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "faulty", "forecast", "media"]);
    let cursor = first["nextCursor"].as_str().expect("a second page");
    let second = result(mcp.with(|o| o.cursor(cursor)).list_tools().await);
    assert_eq!(second["tools"].as_array().unwrap().len(), 2);
    assert_eq!(second["nextCursor"], Value::Null);
    assert_rpc_error!(mcp.with(|o| o.cursor("garbage")).list_tools().await, -32602);
}

#[mcp_test(server = tracker)]
async fn discovers_the_server(mcp: TestContext) {
    let discovered = result(mcp.discover().await);
    assert_eq!(discovered["supportedVersions"], json!(["2026-07-28"]));
    assert!(discovered["capabilities"]["tools"].is_object());
    assert_eq!(
        discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "task-tracker"
    );
}

#[mcp_test(server = tracker)]
async fn returning_result_lets_tests_use_the_question_mark() -> Result<(), serde_json::Error> {
    let mcp = TestContext::current();
    let response = mcp
        .call_tool("tasks", json!({"action": "get", "data": {"id": "7"}}))
        .await;
    let task: serde_json::Map<String, Value> = serde_json::from_str(&text_response(response))?;
    assert_eq!(task["id"], "7");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Mirrored headers for the HTTP transport.
// ---------------------------------------------------------------------------------------------

#[test]
fn mirrored_headers_come_from_the_body() {
    let server = tracker();
    let body = build_call_request("forecast", json!({"city": "Zürich"}));
    assert_eq!(
        mirrored_headers_for(&body, server.tool_definitions()),
        [
            ("mcp-protocol-version".to_owned(), "2026-07-28".to_owned()),
            ("mcp-method".to_owned(), "tools/call".to_owned()),
            ("mcp-name".to_owned(), "forecast".to_owned()),
            (
                "mcp-param-city".to_owned(),
                "=?base64?WsO8cmljaA==?=".to_owned()
            ),
        ]
    );
    // A wrong-typed field is omitted, not sent.
    let odd = json!({"method": "tools/call", "params": {"name": 7, "_meta": []}});
    assert_eq!(
        mirrored_headers(&odd),
        [("mcp-method".to_owned(), "tools/call".to_owned())]
    );
    let read = mcp_request!("resources/read" {"uri": "file:///a b"});
    let mut request = http::Request::post("/mcp").body(read.to_string()).unwrap();
    put_mirrored_headers(&mut request, &read);
    assert_eq!(request.headers()["Mcp-Name"], "file:///a b");
    assert_eq!(request.headers()["Mcp-Method"], "resources/read");
}

// ---------------------------------------------------------------------------------------------
// A deliberately wrong assertion shows everything received.
// ---------------------------------------------------------------------------------------------

#[mcp_test(server = tracker)]
#[should_panic(
    expected = "expected: \"6\"\n      got: \"5\"\nreceived:\n{\n  \"id\": 1,\n  \"jsonrpc\": \"2.0\",\n  \"result\": {\n    \"_meta\": {\n      \"io.modelcontextprotocol/serverInfo\": {\n        \"name\": \"task-tracker\",\n        \"version\": \"2.0.0\"\n      }\n    },\n    \"content\": [\n      {\n        \"text\": \"5\",\n        \"type\": \"text\"\n      }\n    ],\n    \"resultType\": \"complete\"\n  }\n}"
)]
async fn a_wrong_text_shows_the_whole_response(mcp: TestContext) {
    assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 3})).await, "6");
}

#[mcp_test(server = tracker)]
#[should_panic(
    expected = "expected a successful tool result, got a tool execution error (isError: true)\nreceived:"
)]
async fn text_of_an_error_result_names_the_branch(mcp: TestContext) {
    text_response(
        mcp.call_tool("tasks", json!({"action": "get", "data": {"id": "99"}}))
            .await,
    );
}

#[mcp_test(server = tracker)]
#[should_panic(
    expected = "got a JSON-RPC error -32602 (Unknown tool: nope)\nreceived:\n{\n  \"error\": {\n    \"code\": -32602,\n    \"message\": \"Unknown tool: nope\"\n  },\n  \"id\": 1,\n  \"jsonrpc\": \"2.0\"\n}"
)]
async fn text_of_a_protocol_error_shows_the_error(mcp: TestContext) {
    assert_tool_text!(mcp.call_tool("nope", json!({})).await, "anything");
}

#[mcp_test(server = tracker)]
#[should_panic(
    expected = "expected a tool execution error (isError: true), got a successful result"
)]
async fn error_text_of_a_success_panics(mcp: TestContext) {
    error_text(mcp.call_tool("add", json!({"a": 1, "b": 1})).await);
}

#[mcp_test(server = tracker)]
#[should_panic(expected = "expected a JSON-RPC error, got a successful result\nreceived:")]
async fn an_rpc_error_assertion_on_a_result_names_it(mcp: TestContext) {
    assert_rpc_error!(mcp.call_tool("add", json!({"a": 1, "b": 1})).await, -32602);
}

#[mcp_test(server = tracker)]
#[should_panic(expected = "expected error code -32601, got -32602")]
async fn a_wrong_error_code_names_both(mcp: TestContext) {
    assert_rpc_error!(mcp.call_tool("nope", json!({})).await, -32601);
}

#[mcp_test(server = tracker)]
#[should_panic(expected = "expected one image content item, got 2 items\nreceived:")]
async fn an_image_among_several_items_is_refused(mcp: TestContext) {
    image_response(mcp.call_tool("media", json!({"kind": "both"})).await);
}

#[mcp_test(server = tracker)]
#[should_panic(expected = "expected an input_required result, got a successful result")]
async fn an_input_required_assertion_on_a_result_names_it(mcp: TestContext) {
    mcp_test::assert_input_required!(mcp.call_tool("add", json!({"a": 1, "b": 1})).await);
}

#[test]
#[should_panic(
    expected = "expected exactly one content item, got 2:\n[\n  {\n    \"text\": \"a\","
)]
fn unwrap_single_shows_the_full_content() {
    unwrap_single(&json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]));
}

// ---------------------------------------------------------------------------------------------
// Setup mistakes panic with a clear message.
// ---------------------------------------------------------------------------------------------

#[test]
#[should_panic(
    expected = "RequestOptions::meta: \"io.modelcontextprotocol/clientCapabilities\" is a protocol field"
)]
fn protocol_keys_in_meta_are_refused() {
    let _ = RequestOptions::new().meta(json!({"io.modelcontextprotocol/clientCapabilities": {}}));
}

#[test]
#[should_panic(expected = "RequestOptions::host_context: expected a JSON object, got array")]
fn a_host_context_that_is_not_an_object_is_refused() {
    let _ = RequestOptions::new().host_context(json!([1]));
}

#[test]
#[should_panic(expected = "the value is not JSON")]
fn values_that_are_not_json_are_refused() {
    let mut map = std::collections::HashMap::new();
    map.insert(vec![1_u8], "a map with non-string keys has no JSON form");
    let _ = RequestOptions::new().host_context(map);
}

#[mcp_test(server = tracker, protocol = "2025-11-25")]
#[should_panic(
    expected = "request_state and input_responses are multi-round retry fields of 2026-07-28"
)]
async fn retry_fields_on_an_old_version_are_refused(mcp: TestContext) {
    mcp.with(|o| o.request_state("s"))
        .call_tool("add", json!({}))
        .await;
}

#[mcp_test(server = tracker)]
#[should_panic(expected = "call_tool: the cursor option does not apply here")]
async fn options_a_helper_does_not_take_are_refused(mcp: TestContext) {
    mcp.with(|o| o.cursor("c"))
        .call_tool("add", json!({}))
        .await;
}

#[mcp_test(server = tracker)]
#[should_panic(
    expected = "request: params must not hold \"_meta\"; set it with RequestOptions::meta"
)]
async fn request_params_cannot_carry_meta(mcp: TestContext) {
    mcp.request("tools/list", json!({"_meta": {}})).await;
}

#[mcp_test(server = Server::builder("bad", "1.0.0").tool::<Add>().tool::<Add>())]
#[should_panic(expected = "the test server could not be built: two tools are named `add`")]
async fn a_server_that_does_not_build_fails_the_test() {}

// ---------------------------------------------------------------------------------------------
// Composition with rstest and test-case: the cases are parameters of an inner function, which
// reaches the context with `TestContext::current()`.
// ---------------------------------------------------------------------------------------------

#[rstest::rstest]
#[case(2, 3, "5")]
#[case(-4, 4, "0")]
#[mcp_test::test(server = tracker)]
async fn rstest_cases(#[case] a: i64, #[case] b: i64, #[case] sum: &str) {
    let mcp = TestContext::current();
    assert_tool_text!(mcp.call_tool("add", json!({"a": a, "b": b})).await, sum);
}

#[test_case::test_case("7", "Write the report" ; "first task")]
#[test_case::test_case("8", "Review the patch" ; "second task")]
#[mcp_test(server = tracker, principal = "carol")]
async fn test_case_cases(id: &str, title: &str) {
    let mcp = TestContext::current();
    assert_eq!(mcp.options().identity().principal.as_deref(), Some("carol"));
    assert_tool_json!(
        mcp.call_tool("tasks", json!({"action": "get", "data": {"id": id}})).await,
        {"id": id, "title": title}
    );
}

#[test_case::test_case(1, 1 => "2".to_owned() ; "returns the text")]
#[mcp_test(server = tracker, flavor = "multi_thread")]
async fn test_case_with_expected_values(a: i64, b: i64) -> String {
    text_response(
        TestContext::current()
            .call_tool("add", json!({"a": a, "b": b}))
            .await,
    )
}
