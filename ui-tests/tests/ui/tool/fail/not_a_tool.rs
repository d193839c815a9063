use mcp_test::Server;

/// Forgot `#[derive(Tool)]`.
struct Add {
    a: i64,
}

impl Add {
    async fn run(self) -> String {
        self.a.to_string()
    }
}

fn main() {
    let _ = Server::builder("demo", "1.0.0").tool::<Add>();
}
