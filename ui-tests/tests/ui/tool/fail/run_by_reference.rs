use mcp_test::{Context, Tool, ToolError};

#[derive(Tool)]
struct Add {
    a: i64,
}

impl Add {
    async fn run(&self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.a.to_string())
    }
}

fn main() {}
