use mcp_test::Tool;

#[derive(Tool)]
enum Items {
    GetItem { id: String },
    #[tool(rename = "get_item")]
    Fetch { id: String },
}

fn main() {}
