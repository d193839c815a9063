//! The correct server every switch breaks: a few tools with constraints, a resource, a
//! resource template, a prompt with completion, logging and progress.

use mcp_test::prompts::{Prompt, PromptArgument};
use mcp_test::resources::{Resource, ResourceTemplate};
use mcp_test::wire::LoggingLevel;
use mcp_test::{Context, Json, Server, ServerBuilder, Tool, ToolError};
use serde_json::json;
use std::collections::BTreeMap;

/// Adds two whole numbers.
#[derive(Tool)]
#[tool(name = "add", annotations(read_only, idempotent))]
struct Add {
    /// First operand, 0 to 100
    #[tool(minimum = 0, maximum = 100)]
    a: i64,
    /// Second operand; 0 when omitted
    b: Option<i64>,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok((self.a + self.b.unwrap_or(0)).to_string())
    }
}

/// Echoes a text.
#[derive(Tool)]
#[tool(name = "echo", annotations(read_only, idempotent))]
struct Echo {
    /// The text, at most 40 characters
    #[tool(max_length = 40)]
    text: String,
}

impl Echo {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

/// Logs one message at `info` (sent only when the request asks for logs) and reports
/// progress (sent only when the request carries a progress token).
#[derive(Tool)]
#[tool(name = "work", annotations(read_only, idempotent))]
struct Work {}

impl Work {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.progress(1.0, Some(2.0), Some("halfway"));
        ctx.log(LoggingLevel::Info, Some("fixture"), json!("work ran"));
        ctx.progress(2.0, Some(2.0), Some("done"));
        Ok("worked")
    }
}

/// A sum, as structured output.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    /// The total.
    total: i64,
}

/// Sums a list of at most five whole numbers, with structured output.
#[derive(Tool)]
#[tool(name = "total", annotations(read_only, idempotent))]
struct Total {
    /// The numbers
    #[tool(max_items = 5)]
    numbers: Vec<i64>,
}

impl Total {
    async fn run(self, _ctx: &Context) -> Result<Json<Sum>, ToolError> {
        Ok(Json(Sum {
            total: self.numbers.iter().sum(),
        }))
    }
}

/// Asks the user to confirm, then says what they answered.
#[derive(Tool)]
#[tool(name = "confirm", annotations(read_only, idempotent))]
struct Confirm {}

impl Confirm {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}},
                            "required": ["ok"]});
        let answer = ctx.elicit("Go ahead?", schema).key("ok").await?;
        Ok(match answer.accepted() {
            Some(content) if content["ok"] == true => "confirmed".to_owned(),
            _ => "not confirmed".to_owned(),
        })
    }
}

/// The correct server. It serves 2026-07-28 alone: several switches break how a modern-only
/// server refuses 2025-era traffic (`initialize`, sessions, GET), which a dual-era server
/// answers instead.
pub fn builder() -> ServerBuilder {
    Server::builder("broken-server", "1.0.0")
        .eras([mcp_test::wire::Era::Current])
        .logging()
        .instructions("A server for testing checkers: each --break SWITCH breaks one rule.")
        .tool::<Add>()
        .tool::<Echo>()
        .tool::<Work>()
        .tool::<Total>()
        .tool::<Confirm>()
        .resource(
            Resource::new("fixture://readme", "readme")
                .description("A text resource")
                .mime_type("text/plain")
                .text("Each switch breaks one requirement."),
        )
        .resource_template(
            ResourceTemplate::new("fixture://items/{id}", "item")
                .description("An item by id")
                .mime_type("application/json")
                .read(|_ctx, vars: BTreeMap<String, String>| async move {
                    let id = vars.get("id").cloned().unwrap_or_default();
                    Ok(json!({"id": id}).to_string())
                })
                .complete_from("id", ["apple", "apricot", "banana"]),
        )
        .prompt(
            Prompt::new("greet")
                .description("Greets someone by name")
                .argument(PromptArgument::new("name").required().description("Who"))
                .get(|_ctx, args: BTreeMap<String, String>| async move {
                    let name = args.get("name").cloned().unwrap_or_default();
                    Ok(format!("Say hello to {name}."))
                })
                .complete_from("name", ["ada", "alan", "grace"]),
        )
}
