//! The test surface in either era, as a downstream crate writes it: `#[mcp_test(era = ..)]`
//! and `TestContext::in_era`, one elicitation tool written once passing the same test in
//! 2026-07-28 and 2025-11-25, in process and over stdio.

use mcp_test::target::Answers;
use mcp_test::testing::{TestContext, answer};
use mcp_test::wire::Era;
use mcp_test::{Context, Server, Tool, ToolError, assert_rpc_error, assert_tool_text, mcp_test};
use serde::Deserialize;
use serde_json::json;

/// Asks for a name.
#[derive(Tool)]
#[tool(name = "greet")]
struct Greet {}

#[derive(Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

impl Greet {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let form = ctx.elicit_as::<Name>("Your name?").key("name").await?;
        Ok(format!(
            "Hello, {}!",
            form.accepted().map_or("stranger".into(), |n| n.name)
        ))
    }
}

/// Echoes its text.
#[derive(Tool)]
#[tool(name = "echo")]
struct Echo {
    text: String,
}

impl Echo {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

fn server() -> Server {
    Server::builder("surface", "1.0.0")
        .tool::<Greet>()
        .tool::<Echo>()
        .resource(
            mcp_test::resources::Resource::new("file:///notes.txt", "notes")
                .mime_type("text/plain")
                .text("remember"),
        )
        .build()
        .unwrap()
}

/// One test, run once per era: the question answered from one script, the helpers and
/// assertions reading 2026-07-28 and 2025-11-25 results alike.
#[mcp_test(server = server, capabilities(elicitation), era = both)]
async fn a_tool_that_elicits_passes_the_same_test_in_both_eras(mcp: TestContext) {
    let answers = Answers::new().answer("name", answer::accept(json!({"name": "Ada"})));
    let rounds = mcp.call_tool_rounds("greet", json!({}), &answers).await;
    assert_tool_text!(rounds, "Hello, Ada!");
    let declined = Answers::new().answer("name", answer::decline());
    assert_tool_text!(
        mcp.call_tool_rounds("greet", json!({}), &declined).await,
        "Hello, stranger!"
    );
    let (last, _) = mcp
        .drive_tool(
            "greet",
            json!({}),
            json!({"name": answer::accept(json!({"name": "Lin"}))}),
        )
        .await;
    assert_tool_text!(last, "Hello, Lin!");

    assert_tool_text!(mcp.call_tool("echo", json!({"text": "hi"})).await, "hi");
    let tools = mcp.list_tools().await;
    assert_eq!(
        tools["result"]["tools"].as_array().unwrap().len(),
        2,
        "{tools}"
    );
    let notes = mcp.read_resource("file:///notes.txt").await;
    assert_eq!(
        notes["result"]["contents"][0]["text"], "remember",
        "{notes}"
    );
    assert_rpc_error!(mcp.call_tool("nope", json!({})).await, -32602);
}

/// The results of each era keep their shape: only 2026-07-28 has `resultType`.
#[mcp_test(server = server, era = "2025-11-25")]
async fn the_2025_era_has_its_own_result_shape(mcp: TestContext) {
    assert_eq!(mcp.era(), Era::Legacy);
    let called = mcp.call_tool("echo", json!({"text": "hi"})).await;
    assert!(called["result"].get("resultType").is_none(), "{called}");
    let modern = mcp.in_era(Era::Legacy);
    assert_eq!(modern.era(), Era::Legacy);
    let current = TestContext::new(server());
    let called = current.call_tool("echo", json!({"text": "hi"})).await;
    assert_eq!(called["result"]["resultType"], "complete", "{called}");
}

/// Without the elicitation capability the 2025-era `initialize` declares none, so the tool's
/// question fails the call as it does in 2026-07-28, with the capability named.
#[mcp_test(server = server, era = both)]
async fn an_undeclared_capability_fails_alike(mcp: TestContext) {
    let response = mcp.call_tool("greet", json!({})).await;
    assert!(response.get("error").is_some(), "{response}");
    assert!(
        response["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("elicitation")),
        "{response}"
    );
}

/// A run under both eras says which era failed.
#[mcp_test(server = server, era = both)]
#[should_panic(expected = "failed in one era:\nin 2025-11-25")]
async fn both_eras_name_the_era_that_failed(mcp: TestContext) {
    assert_eq!(
        mcp.era(),
        Era::Current,
        "this test holds in 2026-07-28 only"
    );
}

/// The same over stdio: the conformance fixture, serving both eras, asked by one script.
#[mcp_test(stdio = env!("CARGO_BIN_EXE_conformance_fixture"), capabilities(elicitation), era = both)]
async fn an_elicitation_over_stdio_in_both_eras(mcp: TestContext) {
    let answers = Answers::new().method(
        "elicitation/create",
        answer::accept(json!({"username": "ada", "email": "ada@example.com"})),
    );
    let rounds = mcp
        .call_tool_rounds("test_elicitation", json!({"message": "Who?"}), &answers)
        .await;
    assert_tool_text!(
        rounds,
        r#"User response: action=accept, content={"email":"ada@example.com","username":"ada"}"#
    );
}

/// Serves `server()` over Streamable HTTP on a free port; returns its URL.
async fn serve_http() -> String {
    use mcp_test::transport::http::{HttpConfig, bind_local, serve};
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, server(), HttpConfig::default()));
    url
}

/// And over Streamable HTTP, where the 2025-era session asks on the reply's SSE stream.
#[mcp_test(http = serve_http().await, capabilities(elicitation), era = both)]
async fn an_elicitation_over_http_in_both_eras(mcp: TestContext) {
    let answers = Answers::new().answer("name", answer::accept(json!({"name": "Ada"})));
    assert_tool_text!(
        mcp.call_tool_rounds("greet", json!({}), &answers).await,
        "Hello, Ada!"
    );
    assert_tool_text!(mcp.call_tool("echo", json!({"text": "hi"})).await, "hi");
}
