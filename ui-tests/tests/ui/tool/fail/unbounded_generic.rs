use mcp_test::Tool;

#[derive(Tool)]
struct Wrap<T> {
    value: T,
}

fn main() {}
