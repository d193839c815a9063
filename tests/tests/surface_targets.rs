//! The same test bodies against the conformance fixture reached three ways: served in process
//! (`TestContext::new`), started as a child process spoken to over stdio
//! (`TestContext::stdio`), and served over Streamable HTTP on a free 127.0.0.1 port
//! (`TestContext::http`). Each body is written once, as `async fn body(mcp: TestContext)`;
//! `on_every_target!` makes its three tests (`body::in_process`, `body::stdio`, `body::http`),
//! so what is asserted cannot drift between targets.
//!
//! Every target serves the fixture's lists in pages of [`PAGE_SIZE`], so a client has to page
//! through them with cursors.

use mcp_test::prelude::*;
use mcp_test::testing::{image_response, result};
use mcp_test_downstream::conformance::conformance_builder;
use serde_json::Value;

/// How many items a page of the fixture's lists holds, on every target.
const PAGE_SIZE: usize = 5;

/// The fixture with its lists in pages of [`PAGE_SIZE`].
fn fixture() -> Server {
    conformance_builder()
        .page_size(PAGE_SIZE)
        .build()
        .expect("the fixture builds")
}

fn in_process() -> TestContext {
    TestContext::new(fixture())
}

/// The fixture binary as a child process; the child is killed when the test drops the last
/// clone of the context, which it does when the body returns or panics.
fn stdio() -> TestContext {
    TestContext::stdio([
        env!("CARGO_BIN_EXE_conformance_fixture").to_owned(),
        "--page-size".to_owned(),
        PAGE_SIZE.to_string(),
    ])
}

/// The fixture served over HTTP on a free port by a task of the test's own runtime, which ends
/// with the test.
async fn http() -> TestContext {
    TestContext::http(mcp_test_downstream::serve_http(fixture()).await)
}

/// For each body, a module of the same name with one test per target.
macro_rules! on_every_target {
    ($($body:ident),+ $(,)?) => {$(
        mod $body {
            #[tokio::test]
            async fn in_process() {
                super::$body(super::in_process()).await;
            }

            #[tokio::test]
            async fn stdio() {
                super::$body(super::stdio()).await;
            }

            #[tokio::test]
            async fn http() {
                super::$body(super::http().await).await;
            }
        }
    )+};
}

on_every_target!(
    discovery,
    tool_calls,
    tools_list_pages,
    multi_round_with_scripted_answers,
    multi_round_with_synthesized_answers,
    resources,
    prompts,
    completion,
    protocol_errors,
    progress_notifications,
    log_notifications,
);

/// The results of every page of `tools/list`, following `nextCursor` to the end.
async fn tool_pages(mcp: &TestContext) -> Vec<Value> {
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = match &cursor {
            None => mcp.list_tools().await,
            Some(cursor) => mcp.with(|o| o.cursor(cursor)).list_tools().await,
        };
        let page = result(page);
        cursor = page["nextCursor"].as_str().map(str::to_owned);
        pages.push(page);
        if cursor.is_none() {
            return pages;
        }
        assert!(pages.len() <= 100, "tools/list never ends: {pages:?}");
    }
}

async fn discovery(mcp: TestContext) {
    let discovered = result(mcp.discover().await);
    assert_eq!(discovered["supportedVersions"][0], "2026-07-28");
    assert_eq!(
        discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "mcp-test-conformance-fixture"
    );
    for capability in ["tools", "resources", "prompts", "completions"] {
        assert!(
            discovered["capabilities"][capability].is_object(),
            "{capability}: {discovered}"
        );
    }
}

async fn tool_calls(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("test_simple_text", json!({})).await,
        "This is a simple text response for testing."
    );
    let image = image_response(mcp.call_tool("test_image_content", json!({})).await);
    assert_eq!(image["mimeType"], "image/png");

    // A tool that fails answers a result with isError: true, not a JSON-RPC error.
    assert_tool_error!(
        mcp.call_tool("test_error_handling", json!({})).await,
        "This tool intentionally returns an error for testing"
    );
    // Arguments that break the input schema never reach the tool: a tool error naming the
    // JSON pointer.
    assert_tool_error!(
        mcp.call_tool(
            "json_schema_2020_12_tool",
            json!({"name": 7, "email": "ada@example.com"})
        )
        .await,
        "/name"
    );
    // A tool that does not exist is a JSON-RPC error.
    assert_rpc_error!(
        mcp.call_tool("no_such_tool", json!({})).await,
        -32602,
        "Unknown tool"
    );
}

async fn tools_list_pages(mcp: TestContext) {
    let pages = tool_pages(&mcp).await;
    let listed: Vec<String> = pages
        .iter()
        .flat_map(|page| page["tools"].as_array().expect("a tools array"))
        .map(|tool| tool["name"].as_str().expect("a tool name").to_owned())
        .collect();
    let served: Vec<String> = fixture()
        .tool_definitions()
        .iter()
        .map(|tool| tool.name.clone())
        .collect();
    assert_eq!(
        listed, served,
        "every tool once, in order, across the pages"
    );
    assert_eq!(pages.len(), served.len().div_ceil(PAGE_SIZE));
    for page in &pages[..pages.len() - 1] {
        assert_eq!(page["tools"].as_array().unwrap().len(), PAGE_SIZE, "{page}");
    }

    // A cursor is opaque: one the server did not mint is invalid params.
    assert_rpc_error!(
        mcp.with(|o| o.cursor("not-a-cursor")).list_tools().await,
        -32602,
        "invalid cursor"
    );
}

async fn multi_round_with_scripted_answers(mcp: TestContext) {
    let mcp = mcp.with(|o| o.client_capabilities(json!({"elicitation": {}})));
    let tool = "test_input_required_result_multi_round";

    // Without answers, the first round asks its first question.
    assert_input_required!(mcp.call_tool(tool, json!({})).await, "step1");

    // By key.
    let rounds = mcp
        .call_tool_rounds(
            tool,
            json!({}),
            &Answers::new()
                .answer("step1", answer::accept(json!({"name": "Ada"})))
                .answer("step2", answer::accept(json!({"color": "blue"}))),
        )
        .await;
    assert_tool_text!(rounds, "Completed both rounds: name = Ada, color = blue");
    assert_eq!(rounds.len(), 3);
    assert_eq!(
        rounds.input_requests(1).unwrap()["step2"]["params"]["message"],
        "Step 2: What is your favorite color?"
    );
    // Every retry echoes the requestState of the round before it.
    for round in 1..rounds.len() {
        let minted =
            &rounds.exchanges[round - 1].response.as_ref().unwrap()["result"]["requestState"];
        assert!(minted.is_string(), "round {round}: {minted}");
        assert_eq!(&rounds.requests[round]["params"]["requestState"], minted);
    }

    // In order: each answer once, in the order the server asks.
    let rounds = mcp
        .call_tool_rounds(
            tool,
            json!({}),
            &Answers::new()
                .then(answer::accept(json!({"name": "Grace"})))
                .then(answer::decline()),
        )
        .await;
    assert_tool_text!(rounds, "Completed both rounds: name = Grace, color = ");
}

async fn multi_round_with_synthesized_answers(mcp: TestContext) {
    let mcp = mcp
        .with(|o| o.client_capabilities(json!({"elicitation": {}, "sampling": {}, "roots": {}})));
    // One round asks three things at once; each answer is made from its question.
    let rounds = mcp
        .call_tool_rounds(
            "test_input_required_result_multiple_inputs",
            json!({}),
            &Answers::synthesized(),
        )
        .await;
    assert_eq!(rounds.len(), 2);
    let asked = rounds.input_requests(0).unwrap();
    assert_eq!(asked["greeting"]["method"], "sampling/createMessage");
    assert_eq!(asked["client_roots"]["method"], "roots/list");
    assert_tool_text!(
        rounds,
        "name: answer; greeting: A synthesized answer from mcp-test.; roots: 0"
    );
}

async fn resources(mcp: TestContext) {
    let listed = result(mcp.list_resources().await);
    let uris: Vec<&str> = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["test://static-binary", "test://static-text"]);

    let templates = result(mcp.list_resource_templates().await);
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "test://template/{id}/data"
    );

    let read = result(mcp.read_resource("test://static-text").await);
    assert_eq!(
        read["contents"][0],
        json!({"uri": "test://static-text", "mimeType": "text/plain",
               "text": "This is the content of the static text resource."})
    );

    let read = result(mcp.read_resource("test://template/42/data").await);
    let data: Value = serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        data,
        json!({"id": "42", "templateTest": true, "data": "Data for ID: 42"})
    );

    // 2026-07-28: an unknown resource is invalid params (-32602), with the URI as data.
    let missing = assert_rpc_error!(
        mcp.read_resource("test://no-such-resource").await,
        -32602,
        "Resource not found"
    );
    assert_eq!(
        missing.data,
        Some(json!({"uri": "test://no-such-resource"}))
    );
}

async fn prompts(mcp: TestContext) {
    let listed = result(mcp.list_prompts().await);
    let names: Vec<&str> = listed["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"test_prompt_with_arguments"), "{names:?}");

    let prompt = result(
        mcp.get_prompt(
            "test_prompt_with_arguments",
            json!({"arg1": "hello", "arg2": "world"}),
        )
        .await,
    );
    assert_eq!(
        prompt["messages"],
        json!([{"role": "user", "content": {"type": "text",
                "text": "Prompt with arguments: arg1='hello', arg2='world'"}}])
    );

    // A required argument left out is invalid params, naming it.
    assert_rpc_error!(
        mcp.get_prompt("test_prompt_with_arguments", json!({"arg1": "hello"}))
            .await,
        -32602,
        "arg2"
    );
}

async fn completion(mcp: TestContext) {
    let completed = result(
        mcp.complete(
            json!({"type": "ref/prompt", "name": "test_prompt_with_arguments"}),
            json!({"name": "arg1", "value": "par"}),
        )
        .await,
    );
    assert_eq!(
        completed["completion"]["values"],
        json!(["paris", "park", "party"])
    );
}

async fn protocol_errors(mcp: TestContext) {
    assert_rpc_error!(mcp.request("no/such/method", Value::Null).await, -32601);
    // A tools/call without the tool's name.
    assert_rpc_error!(
        mcp.request("tools/call", json!({"arguments": {}})).await,
        -32602
    );
}

async fn progress_notifications(mcp: TestContext) {
    // Without a progressToken the server sends no progress.
    let quiet = mcp
        .call_tool_exchange("test_tool_with_progress", json!({}))
        .await;
    assert_tool_text!(quiet, "Progress tool completed: 100/100");
    assert_eq!(quiet.notifications_of("notifications/progress").count(), 0);

    let mcp = mcp.with(|o| o.meta(json!({"progressToken": "p-1"})));
    let exchange = mcp
        .call_tool_exchange("test_tool_with_progress", json!({}))
        .await;
    assert_tool_text!(exchange, "Progress tool completed: 100/100");
    let progress: Vec<&Value> = exchange
        .notifications_of("notifications/progress")
        .collect();
    let expected: Vec<Value> = [0.0, 50.0, 100.0]
        .into_iter()
        .map(|step| {
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": "p-1", "progress": step, "total": 100.0}})
        })
        .collect();
    assert_eq!(progress, expected.iter().collect::<Vec<_>>());
}

async fn log_notifications(mcp: TestContext) {
    // Without a log level the server sends no log messages.
    let quiet = mcp.call_tool_exchange("test_logging_tool", json!({})).await;
    assert_tool_text!(quiet, "Logging tool completed");
    assert!(quiet.notifications.is_empty(), "{:?}", quiet.notifications);

    let mcp = mcp.with(|o| o.meta(json!({"io.modelcontextprotocol/logLevel": "info"})));
    let exchange = mcp.call_tool_exchange("test_logging_tool", json!({})).await;
    assert_tool_text!(exchange, "Logging tool completed");
    assert_eq!(
        exchange
            .notifications_of("notifications/message")
            .collect::<Vec<_>>(),
        [&json!({"jsonrpc": "2.0", "method": "notifications/message",
                 "params": {"level": "info", "logger": "conformance",
                            "data": "test_logging_tool ran"}})]
    );

    // Above the tool's level, nothing.
    let mcp = mcp.with(|o| o.meta(json!({"io.modelcontextprotocol/logLevel": "error"})));
    let exchange = mcp.call_tool_exchange("test_logging_tool", json!({})).await;
    assert_eq!(
        exchange.notifications_of("notifications/message").count(),
        0
    );
}
