//! Unnamed snapshots inside rstest and test-case cases: each case writes its own file, named
//! after the test and the case (`<file>__<test>@<case>.snap`, with insta's `-2` counter after it), so the cases agree with their
//! snapshots whatever order they run in (they used to share the test's name with a counter,
//! numbered in run order).

use mcp_test::testing::TestContext;
use mcp_test::{Context, Server, Tool, ToolError, assert_response_snapshot, mcp_test};
use rstest::rstest;
use serde_json::json;
use test_case::test_case;

/// Shouts its text.
#[derive(Tool)]
struct Shout {
    text: String,
}

impl Shout {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.text.to_uppercase())
    }
}

fn shouter() -> Server {
    Server::builder("shouter", "1.0.0")
        .tool::<Shout>()
        .build()
        .unwrap()
}

#[rstest]
#[case::small("hi")]
#[case::large("hello world")]
#[mcp_test::test(server = shouter)]
async fn shouts(#[case] text: &str) {
    let mcp = TestContext::current();
    assert_response_snapshot!(mcp.call_tool("shout", json!({"text": text})).await);
    // A second one in the same case: insta's counter, per case.
    assert_response_snapshot!(mcp.call_tool("shout", json!({"text": "again"})).await);
}

#[test_case("quiet" ; "quiet words")]
#[test_case("loud" ; "loud words")]
#[mcp_test(server = shouter)]
async fn shouts_each(text: &str) {
    let mcp = TestContext::current();
    assert_response_snapshot!(mcp.call_tool("shout", json!({"text": text})).await);
}

/// The files the cases above compare against: one per case, each with its case's answer.
#[test]
fn each_case_has_its_own_snapshot_file() {
    let files = [
        (
            include_str!("snapshots/snapshot_cases__shouts@case_1_small.snap"),
            "HI",
        ),
        (
            include_str!("snapshots/snapshot_cases__shouts@case_1_small-2.snap"),
            "AGAIN",
        ),
        (
            include_str!("snapshots/snapshot_cases__shouts@case_2_large.snap"),
            "HELLO WORLD",
        ),
        (
            include_str!("snapshots/snapshot_cases__shouts@case_2_large-2.snap"),
            "AGAIN",
        ),
        (
            include_str!("snapshots/snapshot_cases__shouts_each@test_case_1_quiet_words.snap"),
            "QUIET",
        ),
        (
            include_str!("snapshots/snapshot_cases__shouts_each@test_case_2_loud_words.snap"),
            "LOUD",
        ),
    ];
    for (file, text) in files {
        assert!(
            file.contains(&format!("\"text\": \"{text}\"")),
            "expected {text:?} in:\n{file}"
        );
    }
}
