use mcp_test::Tool;

#[derive(Tool)]
struct Measure {
    #[tool(header = "Rate")]
    rate: f64,
    #[tool(header = "Tags")]
    tags: Vec<String>,
}

fn main() {}
