use mcp_test::Tool;

/// Tuple fields have no names, so they cannot be arguments.
#[derive(Tool)]
struct Add(i64, i64);

fn main() {}
