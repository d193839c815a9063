use mcp_test::{Context, Tool};

#[derive(serde::Deserialize)]
struct Point {
    x: i32,
}

#[derive(Tool)]
struct Plot {
    point: Point,
}

impl Plot {
    async fn run(self, _ctx: &Context) -> String {
        self.point.x.to_string()
    }
}

fn main() {}
