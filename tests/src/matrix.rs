//! The server of the cross-feature matrix (`tests/tests/matrix.rs`, issue 45 item 9), one
//! definition served in process, by the `matrix_server` binary over stdio, and over HTTP
//! with and without OAuth: a plain tool, a tool that asks for input mid-call, a
//! task-capable tool, a resource and a prompt.

use mcp_test::rounds::Elicitation;
use mcp_test::{Context, Server, Tool, ToolError};
use serde_json::json;
use std::time::Duration;

/// What [`Echo`] answers for `text`.
pub fn echoed(text: &str) -> String {
    format!("echo: {text}")
}

/// Says a text back.
#[derive(Tool)]
#[tool(name = "echo", annotations(read_only, idempotent, open_world = false))]
pub struct Echo {
    /// The text, 1 to 40 characters
    #[tool(min_length = 1, max_length = 40)]
    text: String,
}

impl Echo {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(echoed(&self.text))
    }
}

/// Asks the caller's name mid-call, then greets them.
#[derive(Tool)]
#[tool(name = "ask", annotations(read_only, idempotent, open_world = false))]
pub struct Ask {}

impl Ask {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}},
                            "required": ["name"]});
        Ok(match ctx.elicit("What is your name?", schema).await {
            Ok(Elicitation::Accept(form)) => {
                format!("Hello, {}!", form["name"].as_str().unwrap_or("?"))
            }
            Ok(Elicitation::Decline) => "Hello, whoever you are.".to_owned(),
            Ok(Elicitation::Cancel) => "Goodbye.".to_owned(),
            Err(e) if e.is_not_supported() => "Hello! (no questions here)".to_owned(),
            Err(e) => return Err(e.into()),
        })
    }
}

/// What [`Nap`] answers.
pub const RESTED: &str = "rested";

/// Naps briefly, as a task when the caller asks for one.
#[derive(Tool)]
#[tool(
    name = "nap",
    task = "optional",
    annotations(read_only, idempotent, open_world = false)
)]
pub struct Nap {}

impl Nap {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.enter_task().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        Ok(RESTED.to_owned())
    }
}

/// The resource's URI and text.
pub const NOTE_URI: &str = "matrix://note";
/// The resource's text.
pub const NOTE_TEXT: &str = "every cell counts";
/// The prompt's name and text.
pub const PROMPT: &str = "greeting";
/// The prompt's text.
pub const PROMPT_TEXT: &str = "Greet the user.";

/// The matrix server.
pub fn matrix_server() -> Server {
    Server::builder("matrix", "1.0.0")
        .tool::<Echo>()
        .tool::<Ask>()
        .tool::<Nap>()
        .task_poll_interval(None)
        .resource(
            mcp_test::resources::Resource::new(NOTE_URI, "note")
                .mime_type("text/plain")
                .text(NOTE_TEXT),
        )
        .prompt(
            mcp_test::prompts::Prompt::new(PROMPT)
                .description("Greets the user")
                .text(PROMPT_TEXT),
        )
        .build()
        .expect("the matrix server builds")
}
