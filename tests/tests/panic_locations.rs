//! A failing helper names the test's line, not a line of mcp-test: the async helpers capture
//! where they were called and put it first in their panic message, and a question the script
//! has no answer for lists the keys the script does answer, so a typo shows.

use futures_util::FutureExt;
use mcp_test::testing::{TestContext, answer};
use mcp_test::{Context, Server, Tool, ToolError, mcp_test};
use serde_json::json;
use std::panic::AssertUnwindSafe;

/// Greets someone by the name it asks for.
#[derive(Tool)]
struct Greet {}

impl Greet {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        let form = ctx.elicit("Your name?", schema).key("name").await?;
        let name = form.accepted().map_or(json!(null), |c| c["name"].clone());
        Ok(format!("Hello, {name}!"))
    }
}

fn greeter() -> Server {
    Server::builder("greeter", "1.0.0")
        .tool::<Greet>()
        .build()
        .unwrap()
}

/// The panic message of `future`, which must panic.
async fn panic_of(future: impl std::future::Future) -> String {
    let payload = AssertUnwindSafe(future)
        .catch_unwind()
        .await
        .err()
        .expect("the helper panics");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[mcp_test(server = greeter, capabilities(elicitation))]
async fn a_missing_answer_names_the_test_line_and_the_scripted_keys(mcp: TestContext) {
    let line = line!() + 1;
    let driving = mcp.drive_tool(
        "greet",
        json!({}),
        json!({"nmae": answer::accept(json!({"name": "Ada"}))}),
    );
    let message = panic_of(driving).await;
    let here = format!("tests/tests/panic_locations.rs:{line}:");
    assert!(
        message.starts_with(&here),
        "expected {here} first:\n{message}"
    );
    assert!(
        message.contains("no scripted answer for question \"name\" (the script answers \"nmae\")"),
        "{message}"
    );
}

#[mcp_test(server = greeter, capabilities(elicitation))]
async fn rounds_name_the_test_line(mcp: TestContext) {
    let nothing = mcp_test::target::Answers::new();
    let line = line!() + 1;
    let driving = mcp.call_tool_rounds("greet", json!({}), &nothing);
    let message = panic_of(driving).await;
    let here = format!("tests/tests/panic_locations.rs:{line}:");
    assert!(
        message.starts_with(&here),
        "expected {here} first:\n{message}"
    );
    assert!(message.contains("(the script answers none)"), "{message}");
}

#[tokio::test]
async fn a_transport_failure_names_the_test_line() {
    // A port nothing listens on any more: the connection is refused.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let mcp = TestContext::http(&url);
    let line = line!() + 1;
    let calling = mcp.call_tool("greet", json!({}));
    let message = panic_of(calling).await;
    let here = format!("tests/tests/panic_locations.rs:{line}:");
    assert!(
        message.starts_with(&here),
        "expected {here} first:\n{message}"
    );
    assert!(message.contains("gave no reply"), "{message}");
}

/// The line of the `#[mcp_test]` attribute just below.
const ERA_BOTH_LINE: u32 = line!() + 3;

/// Not a test of its own: fails in 2025-11-25 only, for the test below.
#[mcp_test(server = greeter, era = both)]
#[ignore = "fails in one era on purpose: run by era_both_failure_names_the_test"]
async fn fails_in_the_2025_era(mcp: TestContext) {
    assert_eq!(
        mcp.era(),
        mcp_test::wire::Era::Current,
        "this body passes only in 2026-07-28"
    );
}

/// `era = both` sums up the eras that failed at the test's own attribute, not in mcp-test.
#[test]
fn era_both_failure_names_the_test() {
    let payload = std::panic::catch_unwind(fails_in_the_2025_era).expect_err("the test fails");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    let here = format!("tests/tests/panic_locations.rs:{ERA_BOTH_LINE}:");
    assert!(
        message.starts_with(&here),
        "expected {here} first:\n{message}"
    );
    assert!(
        message.contains("the test failed in one era:\nin 2025-11-25: ")
            && message.contains("this body passes only in 2026-07-28"),
        "{message}"
    );
    assert!(!message.contains("mcp-test/src"), "{message}");
}
