// A path that names no crate is reported by rustc at the attribute's value. The shadow struct's
// `Deserialize` and `JsonSchema` derives are reached through the same path, so rustc then also
// reports their `serde` and `schemars` helper attributes as unknown, under the derive.
use mcp_test::Context;

#[derive(mcp_test::Tool)]
#[tool(crate = "no_such_crate")]
struct Add {
    a: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> String {
        self.a.to_string()
    }
}

fn main() {}
