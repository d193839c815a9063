//! A tool type named through a `macro_rules!` argument derives and serves.
use mcp_test::{Context, Tool, ToolError};

macro_rules! tool {
    ($name:ident) => {
        /// A generated tool.
        #[derive(Tool)]
        struct $name {
            x: i64,
        }

        impl $name {
            async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
                Ok(self.x.to_string())
            }
        }
    };
}

tool!(Generated);

pub fn main() {
    assert_eq!(<Generated as Tool>::NAME, "generated");
}
