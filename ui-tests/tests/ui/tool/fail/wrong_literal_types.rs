use mcp_test::Tool;

#[derive(Tool)]
#[tool(name = add, title = 5, annotations(read_only = "yes"))]
struct Add {
    #[tool(min_length = "3", max_length = -1, unique_items = 1)]
    a: String,
    #[tool(minimum = "0", maximum = x)]
    b: i64,
}

fn main() {}
