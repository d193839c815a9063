use mcp_test::Tool;

#[derive(Tool)]
struct Lookup {
    #[tool(pattern = 42)]
    code: String,
    #[tool(format = email)]
    contact: String,
}

fn main() {}
