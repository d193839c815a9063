//! Every bench fixture answers as expected, so no bench measures an error path.

use mcp_test::cases::{CaseOptions, derive_for_tools};
use mcp_test_benches::rmcp_side::{self, Lifecycle};
use mcp_test_benches::*;
use serde_json::Value;

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("the response is JSON")
}

#[tokio::test(flavor = "current_thread")]
async fn in_process_calls_answer() {
    let server = server();
    let add = call_text(&server, &add_request().to_string()).await;
    assert_eq!(result_text(&parse(&add)), Some(ADD_TEXT), "{add}");
    let records = call_text(&server, &records_request().to_string()).await;
    assert_eq!(
        result_text(&parse(&records)),
        Some(RECORDS_TEXT),
        "{records}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn http_calls_answer_with_the_same_body() {
    let server = server();
    let app = http_router(server.clone());
    for body in [add_request(), records_request()] {
        let text = body.to_string();
        let (status, bytes) = http_call(&app, &body, &text).await;
        let in_process = call_text(&server, &text).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
        assert_eq!(
            parse(std::str::from_utf8(&bytes).unwrap()),
            parse(&in_process)
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn http_rejects_a_call_whose_headers_do_not_mirror_the_body() {
    // Proves the bench's headers are checked: a mismatched Mcp-Name is refused.
    let app = http_router(server());
    let body = add_request();
    let mut request = http_request(&body, &body.to_string());
    request
        .headers_mut()
        .insert("mcp-name", http::HeaderValue::from_static("records"));
    let response = mcp_test::testing::http::oneshot(&app, request).await;
    assert_eq!(response.status(), 400);
}

#[tokio::test(flavor = "current_thread")]
async fn rmcp_calls_answer_the_same_text() {
    for lifecycle in [Lifecycle::Discover, Lifecycle::Initialize] {
        let client = rmcp_side::connect(lifecycle).await;
        let add = rmcp_side::call(&client, rmcp_side::call_params("add", add_arguments())).await;
        assert_eq!(rmcp_side::text(&add), Some(ADD_TEXT), "{lifecycle:?}");
        let params = rmcp_side::call_params("records", records_arguments());
        let records = rmcp_side::call(&client, params).await;
        assert_eq!(
            rmcp_side::text(&records),
            Some(RECORDS_TEXT),
            "{lifecycle:?}"
        );
        client.cancel().await.expect("the client stops");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn two_round_call_completes() {
    let server = server();
    let first = greet_request().to_string();
    let reply = call_text(&server, &first).await;
    assert_eq!(parse(&reply)["result"]["resultType"], "input_required");
    let last = two_round_call(&server, &first).await;
    assert_eq!(result_text(&parse(&last)), Some(GREET_TEXT), "{last}");
}

#[tokio::test(flavor = "current_thread")]
async fn fifty_tool_server_answers_its_first_call() {
    let server = fifty_tool_server();
    assert_eq!(server.tool_definitions().len(), 50);
    let reply = call_text(&server, &fifty_first_request().to_string()).await;
    assert_eq!(result_text(&parse(&reply)), Some(FIFTY_TEXT), "{reply}");
}

/// The recorded case list of the 1,000-tool bench: per tool, its name, its number of cases and
/// the SHA-256 of their JSON (titles, arguments, expectations, rationales, sources, bounds).
const THOUSAND_TOOLS_CASES: &str = "tests/thousand_tools.cases";

/// One line per tool of `cases`, in order: `NAME COUNT SHA256`.
fn case_digest(cases: &[mcp_test::cases::Case]) -> String {
    use sha2::{Digest, Sha256};
    let mut out = String::new();
    for group in cases.chunk_by(|a, b| a.tool == b.tool) {
        let json = serde_json::to_string(group).expect("cases serialize");
        let hash: String = Sha256::digest(json.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        out.push_str(&format!("{} {} {hash}\n", group[0].tool, group.len()));
    }
    out
}

/// Every tool derives cases, and exactly the recorded ones: the case generator's speed-ups
/// must not change a single case. After a deliberate change to the rules, rewrite the record
/// with `UPDATE_CASES=1 cargo test -p mcp-test-benches --test fixtures thousand` and review
/// the diff.
#[test]
fn thousand_tools_all_derive_cases() {
    let tools = thousand_tools();
    assert_eq!(tools.len(), 1000);
    let (cases, problems) = derive_for_tools(&tools, &CaseOptions::default());
    assert!(problems.is_empty(), "{problems:?}");
    assert!(cases.len() > 10_000, "{} cases", cases.len());
    let digest = case_digest(&cases);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(THOUSAND_TOOLS_CASES);
    if std::env::var_os("UPDATE_CASES").is_some() {
        std::fs::write(&path, &digest).expect("the case record is writable");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("the case record exists");
    let changed: Vec<String> = recorded
        .lines()
        .zip(digest.lines())
        .filter(|(was, now)| was != now)
        .map(|(was, now)| format!("  was {was}\n  now {now}"))
        .take(10)
        .collect();
    assert!(
        changed.is_empty() && recorded.lines().count() == digest.lines().count(),
        "the 1,000-tool case list differs from {THOUSAND_TOOLS_CASES} ({} tools recorded, {} \
         now); first differences:\n{}",
        recorded.lines().count(),
        digest.lines().count(),
        changed.join("\n")
    );
}

#[tokio::test]
async fn the_test_surface_answers_the_same_text() {
    let server = server();
    let mcp = test_context(&server);
    surface_call(&mcp, "add", add_arguments(), ADD_TEXT).await;
    surface_call(&mcp, "records", records_arguments(), RECORDS_TEXT).await;
    surface_two_rounds(&mcp).await;
}

#[tokio::test]
#[should_panic(expected = "assert_tool_text!")]
async fn the_surface_step_fails_on_another_text() {
    let server = server();
    surface_call(&test_context(&server), "add", add_arguments(), "6").await;
}
