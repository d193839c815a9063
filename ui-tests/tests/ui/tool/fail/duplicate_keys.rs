use mcp_test::Tool;

#[derive(Tool)]
#[tool(name = "add", title = "Add")]
#[tool(name = "plus")]
struct Add {
    #[tool(min_length = 1, min_length = 2)]
    a: String,
}

fn main() {}
