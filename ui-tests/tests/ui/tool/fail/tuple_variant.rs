use mcp_test::Tool;

#[derive(Tool)]
enum Items {
    Get(String),
    List,
}

fn main() {}
