use mcp_test::Tool;

#[derive(Tool)]
#[tool]
#[tool(annotations, allow_unknown_fields(yes))]
struct Add {
    #[tool(default(1), example)]
    a: i64,
}

fn main() {}
