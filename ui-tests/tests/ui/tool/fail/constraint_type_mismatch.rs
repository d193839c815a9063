use mcp_test::Tool;

#[derive(Tool)]
struct Search {
    #[tool(min_length = 1)]
    terms: Vec<String>,
    #[tool(max_items = 3, minimum = 0)]
    query: String,
    #[tool(pattern = "^a", unique_items)]
    limit: u32,
    #[tool(minimum = -1)]
    page: u32,
}

fn main() {}
