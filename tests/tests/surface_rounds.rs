//! A multi-round tool tested with the declarative surface: `input_required` asserted with
//! `assert_input_required!`, retries by hand through `RequestOptions`, scripted answers driven
//! through the wire with `drive_tool`, and the same tool run in process with `run_tool`.

use mcp_test::rounds::Elicitation;
use mcp_test::testing::{Driver, RequestOptions, TestContext, answer, input_required, run_tool};
use mcp_test::{
    CallToolResult, Context, Server, Tool, ToolError, assert_input_required, assert_rpc_error,
    assert_tool_error, assert_tool_text, mcp_test,
};
use serde_json::{Value, json};

/// Deletes a branch after asking which one (unless given) and then for confirmation.
struct DeleteBranch {
    branch: Option<String>,
}

impl Tool for DeleteBranch {
    const NAME: &'static str = "delete_branch";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"branch": {"type": "string"}},
               "additionalProperties": false})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(DeleteBranch {
            branch: args["branch"].as_str().map(str::to_owned),
        })
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let branch = match self.branch {
            Some(branch) => branch,
            None => {
                let schema = json!({"type": "object", "required": ["branch"],
                                    "properties": {"branch": {"type": "string"}}});
                match ctx.elicit("Which branch?", schema).key("branch").await? {
                    Elicitation::Accept(form) => {
                        form["branch"].as_str().unwrap_or_default().to_owned()
                    }
                    _ => return Ok(CallToolResult::text("nothing deleted")),
                }
            }
        };
        let schema = json!({"type": "object", "required": ["sure"],
                            "properties": {"sure": {"type": "boolean"}}});
        let confirm = ctx
            .elicit(format!("Delete {branch}?"), schema)
            .key("confirm")
            .await?;
        match confirm {
            Elicitation::Accept(form) if form["sure"] == true => {
                Ok(CallToolResult::text(format!("deleted {branch}")))
            }
            Elicitation::Accept(_) => Ok(CallToolResult::text("kept it")),
            Elicitation::Decline | Elicitation::Cancel => Err(ToolError::new(format!(
                "deleting {branch} was not confirmed"
            ))),
        }
    }
}

fn repo() -> Server {
    Server::builder("repo", "1.0.0")
        .tool::<DeleteBranch>()
        .build()
        .unwrap()
}

#[mcp_test(server = repo, capabilities(elicitation))]
async fn asks_then_completes_on_retry(mcp: TestContext) {
    let first = mcp
        .call_tool("delete_branch", json!({"branch": "main"}))
        .await;
    let asked = assert_input_required!(first, "confirm");
    assert_eq!(
        asked["inputRequests"]["confirm"]["params"]["message"],
        "Delete main?"
    );
    let state = asked["requestState"].as_str().expect("a signed state");

    // The client's retry: same arguments, the state echoed, the answer, a fresh id.
    let retry = mcp.with(|o| {
        o.request_id(2)
            .request_state(state)
            .input_responses(json!({"confirm": answer::accept(json!({"sure": true}))}))
    });
    let done = retry
        .call_tool("delete_branch", json!({"branch": "main"}))
        .await;
    assert_eq!(done["id"], 2);
    assert_tool_text!(done, "deleted main");
}

#[mcp_test(server = repo, capabilities(elicitation))]
async fn scripted_answers_drive_every_round(mcp: TestContext) {
    let answers = json!({
        "branch": answer::accept(json!({"branch": "feature-x"})),
        "confirm": answer::accept(json!({"sure": true})),
    });
    let (last, rounds) = mcp.drive_tool("delete_branch", json!({}), answers).await;
    assert_tool_text!(last, "deleted feature-x");
    assert_eq!(rounds.len(), 2);
    assert_input_required!(rounds[0], "branch");
    assert_eq!(
        input_required(&rounds[1])["inputRequests"]["confirm"]["params"]["message"],
        "Delete feature-x?"
    );
    // Every round had its own id.
    assert_eq!(
        [&rounds[0]["id"], &rounds[1]["id"], &last["id"]],
        [&json!(1), &json!(2), &json!(3)]
    );

    let declined = json!({"confirm": answer::decline()});
    let (last, _) = mcp
        .drive_tool("delete_branch", json!({"branch": "main"}), declined)
        .await;
    assert_tool_error!(last, "was not confirmed");
}

#[mcp_test(server = repo)]
async fn a_client_without_elicitation_is_told_what_is_missing(mcp: TestContext) {
    let error = assert_rpc_error!(
        mcp.call_tool("delete_branch", json!({"branch": "main"}))
            .await,
        -32021
    );
    assert_eq!(
        error.data.unwrap()["requiredCapabilities"],
        json!({"elicitation": {}})
    );
}

#[mcp_test(server = repo, capabilities(elicitation))]
async fn a_tampered_state_is_refused(mcp: TestContext) {
    let tampered = mcp.with(|o| {
        o.request_state("not-the-servers-state")
            .input_responses(json!({"confirm": answer::accept(json!({"sure": true}))}))
    });
    assert_rpc_error!(
        tampered
            .call_tool("delete_branch", json!({"branch": "main"}))
            .await,
        -32602
    );
}

#[mcp_test(server = repo, capabilities(elicitation))]
#[should_panic(
    expected = "drive_tool: round 1: no scripted answer for question \"confirm\" (the script answers none):\n{\n  \"method\": \"elicitation/create\""
)]
async fn a_question_without_a_scripted_answer_shows_the_question(mcp: TestContext) {
    mcp.drive_tool("delete_branch", json!({"branch": "main"}), json!({}))
        .await;
}

#[tokio::test]
async fn the_same_tool_runs_in_process_with_the_same_assertions() {
    let ctx = Context::builder()
        .elicitation()
        .answer("confirm", answer::accept(json!({"sure": false})))
        .build();
    let outcome = run_tool::<DeleteBranch>(&ctx, json!({"branch": "dev"}))
        .await
        .unwrap();
    assert_tool_text!(outcome, "kept it");

    let unanswered = Context::builder().elicitation().build();
    let outcome = run_tool::<DeleteBranch>(&unanswered, json!({}))
        .await
        .unwrap();
    assert_input_required!(outcome, "branch");

    let transcript = Driver::<DeleteBranch>::new(&unanswered, json!({}))
        .answer("branch", answer::accept(json!({"branch": "old"})))
        .answer("confirm", answer::accept(json!({"sure": true})))
        .run()
        .await
        .unwrap();
    assert_eq!(transcript.questions.len(), 2);
    assert_eq!(transcript.round_count(), 3);
    assert_tool_text!(transcript.result.unwrap(), "deleted old");
}

#[test]
#[should_panic(expected = "request_state and input_responses are multi-round retry fields")]
fn retry_fields_are_refused_on_an_old_protocol() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let options = RequestOptions::new()
            .protocol_version("2025-06-18")
            .input_responses(json!({}));
        mcp_test::testing::call_tool(&repo(), "delete_branch", json!({}), &options).await;
    });
}
