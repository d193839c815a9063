use mcp_test::Tool;

#[derive(Tool)]
#[tool(name = "add numbers")]
struct Add {
    a: i64,
}

fn main() {}
