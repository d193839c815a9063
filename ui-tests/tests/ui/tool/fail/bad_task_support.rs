use mcp_test::{Context, Tool, ToolError};

/// Task support must be one of the three words.
#[derive(Tool)]
#[tool(task = "sometimes")]
struct Sometimes {}

impl Sometimes {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

/// And a string.
#[derive(Tool)]
#[tool(task = true)]
struct NotAString {}

impl NotAString {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}
