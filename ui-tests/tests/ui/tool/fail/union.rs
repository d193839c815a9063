use mcp_test::Tool;

#[derive(Tool)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
