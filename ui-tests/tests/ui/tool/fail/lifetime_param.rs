use mcp_test::Tool;

#[derive(Tool)]
struct Borrowed<'a> {
    name: &'a str,
}

fn main() {}
