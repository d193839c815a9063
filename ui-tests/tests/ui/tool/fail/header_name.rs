use mcp_test::Tool;

#[derive(Tool)]
struct Route {
    #[tool(header = "Region Name")]
    region: String,
    #[tool(header = "Tenant")]
    tenant: String,
    #[tool(header = "tenant")]
    tenant_again: Option<String>,
    #[tool(header = "")]
    empty: bool,
}

fn main() {}
