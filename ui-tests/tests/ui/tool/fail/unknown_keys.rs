use mcp_test::Tool;

#[derive(Tool)]
#[tool(nmae = "add", annotations(read_only, readonly))]
struct Add {
    #[tool(minimun = 0)]
    a: i64,
}

#[derive(Tool)]
enum Items {
    #[tool(name = "get")]
    Get { id: String },
}

fn main() {}
