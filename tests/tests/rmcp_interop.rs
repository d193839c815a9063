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

// ---------------------------------------------------------------------------------------------
// The other way round: a server built with rmcp under mcp-test's test surface (feature `rmcp`).
// ---------------------------------------------------------------------------------------------

/// A notes server as an rmcp user writes one: `#[tool_router]` tools (one with constraints
/// it checks itself, since rmcp publishes schema keywords without enforcing them, one that
/// asks a question through `input_required`), a `#[prompt_router]` prompt and a resource.
mod notes {
    use rmcp::handler::server::router::prompt::PromptRouter;
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::tool::{InputResponses, RequestState};
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::{
        CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, ElicitRequest,
        ElicitRequestParams, ErrorData, GetPromptResult, InputRequest, InputRequests,
        InputRequiredResult, ListResourcesResult, PaginatedRequestParams, PromptMessage,
        ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
        ResourceContents, Role, ServerCapabilities, ServerConfig,
    };
    use rmcp::service::{RequestContext, RoleServer};
    use rmcp::{
        ServerHandler, prompt, prompt_handler, prompt_router, schemars, tool, tool_handler,
        tool_router,
    };
    use serde_json::json;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct AddArgs {
        /// The first addend.
        pub a: i64,
        /// The second addend.
        pub b: i64,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct NoteArgs {
        /// The note's title, 1 to 40 characters.
        #[schemars(length(min = 1, max = 40))]
        pub title: String,
        /// How important, 1 to 5.
        #[schemars(range(min = 1, max = 5))]
        pub priority: u8,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct ReviewArgs {
        /// What to review.
        pub topic: String,
    }

    #[derive(Clone)]
    pub struct Notes {
        tool_router: ToolRouter<Self>,
        prompt_router: PromptRouter<Self>,
    }

    impl Notes {
        pub fn new() -> Notes {
            Notes {
                tool_router: Self::tool_router(),
                prompt_router: Self::prompt_router(),
            }
        }
    }

    #[tool_router]
    impl Notes {
        /// Adds two integers.
        #[tool]
        fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
            (a + b).to_string()
        }

        /// Files a note.
        #[tool]
        fn file_note(&self, Parameters(note): Parameters<NoteArgs>) -> CallToolResult {
            let length = note.title.chars().count();
            if !(1..=40).contains(&length) {
                return CallToolResult::error(vec![ContentBlock::text(
                    "/title: must be 1 to 40 characters",
                )]);
            }
            if !(1..=5).contains(&note.priority) {
                return CallToolResult::error(vec![ContentBlock::text(
                    "/priority: must be 1 to 5",
                )]);
            }
            CallToolResult::success(vec![ContentBlock::text(format!(
                "filed {:?} at priority {}",
                note.title, note.priority
            ))])
        }

        /// Signs a note with the caller's name, which it asks for.
        #[tool]
        fn sign(
            &self,
            RequestState(state): RequestState,
            InputResponses(responses): InputResponses,
            context: RequestContext<RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            // A server asks only what the client declared it can answer (-32021 otherwise).
            if context
                .client_capabilities()
                .is_none_or(|declared| declared.elicitation.is_none())
            {
                return Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_elicitation().build(),
                ));
            }
            let name = responses
                .as_ref()
                .and_then(|responses| responses.get("name"))
                .and_then(|response| response["content"]["name"].as_str());
            match (state.as_deref(), name) {
                (Some("asked"), Some(name)) => {
                    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                        "signed by {name}"
                    ))])
                    .into())
                }
                _ => {
                    let schema = json!({
                        "type": "object",
                        "properties": {"name": {"type": "string"}},
                        "required": ["name"]
                    });
                    let question = ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
                        meta: None,
                        message: "Who signs?".into(),
                        requested_schema: serde_json::from_value(schema)
                            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
                    });
                    let mut requests = InputRequests::new();
                    requests.insert("name".into(), InputRequest::Elicitation(question));
                    Ok(InputRequiredResult::new(Some(requests), Some("asked".into())).into())
                }
            }
        }
    }

    #[prompt_router]
    impl Notes {
        /// Asks for a review of a topic.
        #[prompt]
        async fn review(&self, Parameters(args): Parameters<ReviewArgs>) -> GetPromptResult {
            GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                format!("Please review {}.", args.topic),
            )])
        }
    }

    #[tool_handler(router = self.tool_router)]
    #[prompt_handler(router = self.prompt_router)]
    impl ServerHandler for Notes {
        fn get_info(&self) -> ServerConfig {
            let mut config = ServerConfig::new(
                ServerCapabilities::builder()
                    .enable_tools()
                    .enable_prompts()
                    .enable_resources()
                    .build(),
            );
            config.server_info.name = "notes".into();
            config.server_info.version = "1.0.0".into();
            config
        }

        async fn list_resources(
            &self,
            _request: Option<PaginatedRequestParams>,
            _context: RequestContext<RoleServer>,
        ) -> Result<ListResourcesResult, ErrorData> {
            Ok(ListResourcesResult::with_all_items(vec![Resource::new(
                "notes://readme",
                "readme",
            )]))
        }

        async fn read_resource(
            &self,
            request: ReadResourceRequestParams,
            _context: RequestContext<RoleServer>,
        ) -> Result<ReadResourceResponse, ErrorData> {
            if request.uri == "notes://readme" {
                Ok(ReadResourceResult::new(vec![ResourceContents::text(
                    "Notes keeps notes.",
                    request.uri,
                )])
                .into())
            } else {
                Err(ErrorData::resource_not_found(
                    format!("no resource {}", request.uri),
                    None,
                ))
            }
        }
    }
}

mod rmcp_target {
    use super::notes::Notes;
    use mcp_test::target::Answers;
    use mcp_test::testing::{TestContext, answer, result};
    use mcp_test::{
        assert_rpc_error, assert_schema_cases, assert_tool_error, assert_tool_text, mcp_test,
    };
    use serde_json::json;

    #[mcp_test(rmcp = Notes::new)]
    async fn tools_prompts_and_resources(mcp: TestContext) {
        let tools = result(mcp.list_tools().await);
        let names: Vec<&str> = tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["add", "file_note", "sign"], "{tools}");
        assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 40})).await, "42");
        assert_tool_text!(
            mcp.call_tool("file_note", json!({"title": "milk", "priority": 2}))
                .await,
            "filed \"milk\" at priority 2"
        );
        assert_tool_error!(
            mcp.call_tool("file_note", json!({"title": "", "priority": 2}))
                .await,
            "/title"
        );
        let read = result(mcp.read_resource("notes://readme").await);
        assert_eq!(read["contents"][0]["text"], "Notes keeps notes.", "{read}");
        let prompt = result(mcp.get_prompt("review", json!({"topic": "the plan"})).await);
        assert_eq!(
            prompt["messages"][0]["content"]["text"], "Please review the plan.",
            "{prompt}"
        );
        assert_rpc_error!(mcp.call_tool("nope", json!({})).await, -32602);
    }

    #[mcp_test(rmcp = Notes::new, capabilities(elicitation))]
    async fn a_multi_round_tool(mcp: TestContext) {
        let first = result(mcp.call_tool("sign", json!({})).await);
        assert_eq!(first["resultType"], "input_required", "{first}");
        let rounds = mcp
            .call_tool_rounds(
                "sign",
                json!({}),
                &Answers::new().answer("name", answer::accept(json!({"name": "Ada"}))),
            )
            .await;
        assert_eq!(rounds.len(), 2);
        assert_tool_text!(rounds, "signed by Ada");
    }

    #[mcp_test(rmcp = Notes::new)]
    async fn schema_cases(mcp: TestContext) {
        let report = assert_schema_cases!(mcp, only = "file_note");
        assert!(report.outcomes.len() > 4, "{report}");
    }

    /// The property tests run on an rmcp server too: valid arguments of every shape the
    /// schema allows are answered without a protocol error, and the server keeps answering.
    /// (`file_note` names the pointer of what it checks itself; a wrong type is refused by
    /// rmcp's deserializer as a JSON-RPC error, which the spec allows, so the invariant on
    /// invalid arguments is the one switched off.)
    #[mcp_test(rmcp = Notes::new)]
    async fn properties(mcp: TestContext) {
        let report = mcp_test::assert_properties!(
            mcp,
            cases = 32,
            skip = "sign",
            without = mcp_test::cases::properties::Invariant::InvalidNamed,
            no_regressions = (),
        );
        assert!(report.cases() > 32, "{report}");
        assert!(report.failures.is_empty(), "{report}");
    }

    /// `check` runs on an rmcp server like on any other: every tool called (they are this
    /// test's own), every case agreeing, no defect. What it does hold against rmcp is true:
    /// its list methods ignore a cursor they never issued, where pagination says an invalid
    /// cursor SHOULD be -32602.
    #[tokio::test]
    async fn check_runs_on_it() {
        use mcp_test::rmcp::RmcpServer;
        use mcp_test_check::{CheckOptions, Severity, check};
        let server = RmcpServer::serve(Notes::new());
        let options = CheckOptions::default().allow_destructive(true);
        let report = check(&server, &options).await;
        let text = report.to_text();
        assert_eq!(report.count(Severity::Defect), 0, "{text}");
        let warned: Vec<(&str, &str)> = report
            .findings()
            .filter(|f| f.severity == Severity::Warning)
            .map(|f| (f.probe.as_str(), f.clause.as_ref().map_or("", |c| c.id)))
            .collect();
        assert_eq!(
            warned,
            [
                ("lists/tools/list", "pagination/invalid-cursor"),
                ("lists/resources/list", "pagination/invalid-cursor"),
                (
                    "lists/resources/templates/list",
                    "pagination/invalid-cursor"
                ),
                ("lists/prompts/list", "pagination/invalid-cursor"),
            ],
            "{text}"
        );
        let outcomes = &report.cases.outcomes;
        assert!(
            outcomes.iter().any(|o| o.case.tool == "file_note"),
            "{text}"
        );
        assert!(report.cases.all_agree(), "{text}");
    }
}

/// README.md's "Testing a server built with rmcp", run as written.
mod readme {
    // README rmcp: begin
    use mcp_test::prelude::*;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::{ServerCapabilities, ServerConfig};
    use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct AddArgs {
        a: i64,
        b: i64,
    }

    #[derive(Clone)]
    struct Calculator;

    #[tool_router]
    impl Calculator {
        /// Adds two integers.
        #[tool]
        fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
            (a + b).to_string()
        }
    }

    #[tool_handler]
    impl ServerHandler for Calculator {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }

    #[mcp_test(rmcp = Calculator)]
    async fn adds(mcp: TestContext) {
        assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 3})).await, "5");
        assert_schema_cases!(mcp);
    }
    // README rmcp: end

    #[test]
    fn the_readme_shows_this_example() {
        let this = include_str!("rmcp_interop.rs");
        let example = this
            .split_once(concat!("// README rmcp: ", "begin\n"))
            .and_then(|(_, rest)| rest.split_once(concat!("    // README rmcp: ", "end\n")))
            .map(|(example, _)| example)
            .expect("the markers around the example");
        let unindented: String = example
            .lines()
            .map(|line| format!("{}\n", line.strip_prefix("    ").unwrap_or(line)))
            .collect();
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains(&format!("```rust,ignore\n{unindented}```\n")),
            "README.md's rmcp example differs from the one in tests/tests/rmcp_interop.rs; \
             keep them identical:\n{unindented}"
        );
    }
}
