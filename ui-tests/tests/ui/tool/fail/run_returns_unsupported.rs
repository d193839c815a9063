use mcp_test::{Context, Tool};

#[derive(Tool)]
struct Add {
    a: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> i64 {
        self.a
    }
}

fn main() {}
