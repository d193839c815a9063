//! Resources, resource templates, prompts and completion through the request helpers: each goes
//! through the server's full path and comes back as the complete JSON-RPC response.

use mcp_test::prompts::{Prompt, PromptMessage};
use mcp_test::resources::{Resource, ResourceTemplate};
use mcp_test::testing::{TestContext, result};
use mcp_test::{Context, Server, ToolError, assert_rpc_error, mcp_test};
use serde_json::json;

#[derive(serde::Deserialize)]
struct Item {
    id: u32,
}

async fn read_item(_ctx: Context, Item { id }: Item) -> Result<String, ToolError> {
    if id == 404 {
        return Err(mcp_test::ErrorObject::invalid_params("Resource not found")
            .with_data(json!({"uri": format!("shop://items/{id}")}))
            .into());
    }
    Ok(format!(r#"{{"id":{id}}}"#))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Summary {
    /// What to summarize.
    topic: String,
}

fn shop() -> Server {
    Server::builder("shop", "1.0.0")
        .resource(
            Resource::new("shop://catalog", "catalog")
                .mime_type("text/plain")
                .text("apples, pears"),
        )
        .resource_template(
            ResourceTemplate::new("shop://items/{id}", "item")
                .mime_type("application/json")
                .read(read_item)
                .complete_from("id", ["1", "2", "10"]),
        )
        .prompt(
            Prompt::new("summarize")
                .get(|_ctx: Context, args: Summary| async move {
                    Ok::<_, ToolError>(vec![PromptMessage::user_text(format!(
                        "Summarize {}",
                        args.topic
                    ))])
                })
                .complete_from("topic", ["release", "roadmap", "retro"]),
        )
        .build()
        .unwrap()
}

#[mcp_test(server = shop)]
async fn lists_and_reads_resources(mcp: TestContext) {
    let listed = result(mcp.list_resources().await);
    assert_eq!(listed["resources"][0]["uri"], "shop://catalog");
    assert!(listed["ttlMs"].is_u64() && listed["cacheScope"].is_string());

    let templates = result(mcp.list_resource_templates().await);
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "shop://items/{id}"
    );

    let catalog = result(mcp.read_resource("shop://catalog").await);
    assert_eq!(catalog["contents"][0]["text"], "apples, pears");
    let item = result(mcp.read_resource("shop://items/7").await);
    assert_eq!(item["contents"][0]["text"], r#"{"id":7}"#);

    let missing = assert_rpc_error!(mcp.read_resource("shop://items/404").await, -32602);
    assert_eq!(missing.data.unwrap()["uri"], "shop://items/404");
    assert_rpc_error!(mcp.read_resource("shop://nowhere").await, -32602);
}

#[mcp_test(server = shop)]
async fn gets_prompts_and_refuses_bad_arguments(mcp: TestContext) {
    let listed = result(mcp.list_prompts().await);
    assert_eq!(listed["prompts"][0]["name"], "summarize");

    let prompt = result(
        mcp.get_prompt("summarize", json!({"topic": "release"}))
            .await,
    );
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        "Summarize release"
    );
    assert_rpc_error!(
        mcp.get_prompt("summarize", json!({})).await,
        -32602,
        "topic"
    );
    assert_rpc_error!(mcp.get_prompt("nope", json!({})).await, -32602);
}

#[mcp_test(server = shop)]
async fn completes_prompt_and_template_arguments(mcp: TestContext) {
    let prompt = result(
        mcp.complete(
            json!({"type": "ref/prompt", "name": "summarize"}),
            json!({"name": "topic", "value": "re"}),
        )
        .await,
    );
    let values = prompt["completion"]["values"].as_array().unwrap();
    assert!(values.contains(&json!("release")) && values.contains(&json!("retro")));

    let with_context = mcp.with(|o| o.completion_context(json!({"arguments": {}})));
    let template = result(
        with_context
            .complete(
                json!({"type": "ref/resource", "uri": "shop://items/{id}"}),
                json!({"name": "id", "value": "1"}),
            )
            .await,
    );
    assert_eq!(template["completion"]["values"], json!(["1", "10"]));
}
