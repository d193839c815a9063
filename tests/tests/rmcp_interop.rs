//! Interoperability with the official Rust SDK: the `rmcp` 3.11 client, in the modern lifecycle
//! (`server/discover`, per-request `_meta`), against the conformance fixture server as a child
//! process over stdio and served over Streamable HTTP on 127.0.0.1. Each run discovers, lists
//! tools, calls a tool, finishes a multi-round elicitation tool (rmcp drives the
//! `input_required` rounds through its `ClientHandler`), reads a resource and gets a prompt.

#[allow(dead_code)] // the example's `main`
#[path = "../../mcp-test/examples/conformance.rs"]
mod conformance;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ErrorData, GetPromptRequestParams, Implementation, ProtocolVersion,
    ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::json;

/// Answers the fixture's questions: a name, then a color.
struct Interop;

impl ClientHandler for Interop {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let asks_name = match &request {
            ElicitRequestParams::FormElicitationParams {
                requested_schema, ..
            } => serde_json::to_value(requested_schema)
                .unwrap_or_default()
                .pointer("/properties/name")
                .is_some(),
            _ => false,
        };
        let content = if asks_name {
            json!({"name": "Ada"})
        } else {
            json!({"color": "blue"})
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_elicitation().build(),
            Implementation::new("mcp-test-rmcp-interop", "1.0.0"),
        )
    }
}

fn modern() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

fn text(content: &impl serde::Serialize) -> String {
    let content = serde_json::to_value(content).unwrap();
    match content["text"].as_str() {
        Some(text) => text.to_owned(),
        None => panic!("expected text content, got {content}"),
    }
}

async fn exercise(client: RunningService<RoleClient, Interop>, transport: &str) {
    assert_eq!(
        client.peer_info().map(|info| info.protocol_version.clone()),
        Some(ProtocolVersion::V_2026_07_28),
        "{transport}: discover"
    );

    let tools = client.list_all_tools().await.unwrap();
    assert!(
        tools.iter().any(|t| t.name == "test_simple_text"),
        "{transport}: list tools"
    );

    let result = client
        .call_tool(CallToolRequestParams::new("test_simple_text"))
        .await
        .unwrap();
    assert_eq!(
        text(&result.content[0]),
        "This is a simple text response for testing.",
        "{transport}: call a tool"
    );

    let result = client
        .call_tool(CallToolRequestParams::new(
            "test_input_required_result_multi_round",
        ))
        .await
        .unwrap();
    assert_eq!(
        text(&result.content[0]),
        "Completed both rounds: name = Ada, color = blue",
        "{transport}: multi-round elicitation"
    );

    let read = client
        .read_resource(ReadResourceRequestParams::new("test://static-text"))
        .await
        .unwrap();
    match &read.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => assert_eq!(
            text, "This is the content of the static text resource.",
            "{transport}: read a resource"
        ),
        other => panic!("{transport}: expected text contents, got {other:?}"),
    }

    let arguments = json!({"arg1": "hello", "arg2": "world"});
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("test_prompt_with_arguments")
                .with_arguments(arguments.as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    let message = serde_json::to_value(&prompt.messages[0]).unwrap();
    assert_eq!(
        message["content"]["text"], "Prompt with arguments: arg1='hello', arg2='world'",
        "{transport}: get a prompt"
    );

    client.cancel().await.unwrap();
}

#[tokio::test]
async fn rmcp_client_over_stdio() {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_conformance_fixture"));
    let transport = TokioChildProcess::new(command).unwrap();
    let client = Interop
        .serve_with_lifecycle(transport, modern())
        .await
        .unwrap();
    exercise(client, "stdio").await;
}

#[tokio::test]
async fn rmcp_client_over_http() {
    let url = mcp_test_downstream::serve_http(conformance::conformance_server()).await;
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = Interop
        .serve_with_lifecycle(transport, modern())
        .await
        .unwrap();
    exercise(client, "http").await;
}
