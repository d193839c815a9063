//! The README's first example ("A first test"), compiled and run as a real test. The README's
//! doctest (`tests/src/lib.rs`) compiles its blocks, but without `--test` an `#[mcp_test]`
//! function is left out, so the test's body would never be checked there.
//! `the_readme_shows_this_example` keeps the README's block and this one identical.

// README: begin
use mcp_test::prelude::*;

/// Greets someone by name.
#[derive(Tool)]
struct Greet {
    /// Who to greet
    #[tool(min_length = 1, max_length = 40)]
    name: String,
}

impl Greet {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("Hello, {}!", self.name))
    }
}

fn server() -> Server {
    Server::builder("greeter", "1.0.0")
        .tool::<Greet>()
        .build()
        .unwrap()
}

#[mcp_test(server = server)]
async fn greets(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("greet", json!({"name": "Ada"})).await,
        "Hello, Ada!"
    );
    // Invalid arguments are an `isError` result naming the JSON pointer.
    assert_tool_error!(mcp.call_tool("greet", json!({"name": ""})).await, "/name");
}
// README: end

#[test]
fn the_readme_shows_this_example() {
    let this = include_str!("readme_first_test.rs");
    let example = this
        .split_once(concat!("// README: ", "begin\n"))
        .and_then(|(_, rest)| rest.split_once(concat!("// README: ", "end\n")))
        .map(|(example, _)| example)
        .expect("the markers around the example");
    let readme = include_str!("../../README.md");
    assert!(
        readme.contains(&format!("## A first test\n\n```rust\n{example}```\n")),
        "README.md's first example (under \"## A first test\") differs from the one in \
         tests/tests/readme_first_test.rs; keep them identical:\n{example}"
    );
}
