use mcp_test::Tool;

#[derive(Tool)]
#[tool(crate = "not a path")]
struct NotAPath {
    a: i64,
}

#[derive(Tool)]
#[tool(crate = 5)]
struct NotAString {
    a: i64,
}

#[derive(Tool)]
#[tool(crate = "mcp_test", crate = "mcp_test")]
struct Twice {
    a: i64,
}

fn main() {}
