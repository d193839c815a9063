use mcp_test::{Context, Tool, ToolError};

#[derive(serde::Serialize)]
struct Sum {
    total: i64,
}

#[derive(Tool)]
struct Add {
    a: i64,
    b: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<Sum, ToolError> {
        Ok(Sum {
            total: self.a + self.b,
        })
    }
}

fn main() {}
