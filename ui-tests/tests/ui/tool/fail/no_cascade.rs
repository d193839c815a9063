use mcp_test::{Server, Tool};

// The attribute error is the only error: the stub impl keeps `.tool::<Bad>()` and
// `Bad::input_schema()` from adding "trait not implemented" errors.
#[derive(Tool)]
struct Bad {
    #[tool(header = "Rate")]
    rate: f64,
}

fn main() {
    let _ = Server::builder("s", "1").tool::<Bad>().build();
    let _ = Bad::input_schema();
}
