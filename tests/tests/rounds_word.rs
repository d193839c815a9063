//! "Rounds" means one thing everywhere: a round is one request and its response (spec §8's
//! round trip), so a call that asks one question takes 2 rounds on the wire, through the
//! test surface and in process alike.

use mcp_test::target::Answers;
use mcp_test::testing::{Driver, RequestOptions, TestContext, answer};
use mcp_test::{Context, Server, Tool, ToolError, assert_tool_text};
use serde::Deserialize;
use serde_json::json;

/// Asks once.
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

#[tokio::test]
async fn a_call_that_asks_once_takes_two_rounds_everywhere() {
    let server = Server::builder("rounds", "1.0.0")
        .tool::<Greet>()
        .build()
        .unwrap();
    let ada = answer::accept(json!({"name": "Ada"}));
    let mcp = TestContext::with_options(
        server,
        RequestOptions::new().client_capabilities(json!({"elicitation": {}})),
    );

    let rounds = mcp
        .call_tool_rounds(
            "greet",
            json!({}),
            &Answers::new().answer("name", ada.clone()),
        )
        .await;
    assert_tool_text!(rounds.clone(), "Hello, Ada!");
    assert_eq!(rounds.len(), 2);

    let (last, asked) = mcp
        .drive_tool("greet", json!({}), json!({"name": ada.clone()}))
        .await;
    assert_tool_text!(last, "Hello, Ada!");
    assert_eq!(asked.len(), rounds.len() - 1, "the rounds that asked");

    let ctx = Context::builder().elicitation().build();
    let transcript = Driver::<Greet>::new(&ctx, json!({}))
        .answer("name", ada)
        .run()
        .await
        .unwrap();
    assert_eq!(transcript.round_count(), rounds.len());
    assert_eq!(transcript.questions.len(), 1);
    assert_tool_text!(transcript.result.unwrap(), "Hello, Ada!");

    // A limit of one round stops the call before its retry, the same count.
    let one = Answers::new()
        .answer("name", answer::decline())
        .max_rounds(1);
    let err = mcp_test::target::drive(
        &mcp,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}},
            "name": "greet", "arguments": {}}}),
        &one,
        &mcp_test::Caller::default(),
        None,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("after 1 rounds"), "{err}");
}
