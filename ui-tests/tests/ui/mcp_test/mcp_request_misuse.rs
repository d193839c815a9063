use mcp_test::mcp_request;

fn main() {
    let _ = mcp_request!(cal "tasks" {});
    let _ = mcp_request!(call "tasks" {} {});
    let _ = mcp_request!(call "tasks"; ids = 7);
    let _ = mcp_request!();
}
