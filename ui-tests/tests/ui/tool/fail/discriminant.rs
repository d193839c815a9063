use mcp_test::Tool;

#[derive(Tool)]
enum Items {
    List = 1,
    Clear = 2,
}

fn main() {}
