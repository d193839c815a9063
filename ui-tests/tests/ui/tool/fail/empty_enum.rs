use mcp_test::Tool;

#[derive(Tool)]
enum Nothing {}

fn main() {}
