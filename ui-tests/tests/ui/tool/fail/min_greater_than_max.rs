use mcp_test::Tool;

#[derive(Tool)]
struct Search {
    #[tool(min_length = 5, max_length = 2)]
    query: String,
    #[tool(minimum = 10, maximum = 1)]
    limit: i32,
    #[tool(min_items = 4, max_items = 3)]
    tags: Vec<String>,
}

fn main() {}
