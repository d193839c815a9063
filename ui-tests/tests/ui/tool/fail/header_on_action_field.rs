use mcp_test::Tool;

#[derive(Tool)]
enum Items {
    Get {
        #[tool(header = "Item-Id")]
        id: String,
    },
}

fn main() {}
