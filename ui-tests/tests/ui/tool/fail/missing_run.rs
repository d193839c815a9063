use mcp_test::Tool;

/// No `run`: the derive forwards `Tool::call` to an inherent `run` that does not exist.
#[derive(Tool)]
struct Add {
    a: i64,
}

fn main() {}
