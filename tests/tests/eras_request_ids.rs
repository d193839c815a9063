//! A 2025-11-25 session never sends a request id twice (2025-11-25 basic/index.mdx: "the
//! request ID MUST NOT have been previously used by the requestor within the same session"),
//! though every helper of a test context sends id 1 unless told otherwise: each id a
//! `TestContext` in that era puts on the wire, over stdio and over Streamable HTTP, is read
//! where the server receives it, and none appears twice. The replies still come back under
//! the ids the test sent.

use mcp_test::surface::Surface;
use mcp_test::testing::{TestContext, answer, result};
use mcp_test::transport::http::{HttpConfig, bind_local, router};
use mcp_test::wire::Era;
use mcp_test::{assert_tool_text, mcp_request};
use mcp_test_downstream::conformance::conformance_server;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The id of the last request each test sends, once the server has received it.
const LAST: &str = "the-last-request";

/// Sends a 2025-era session's worth of requests through `mcp`: every helper with its
/// default id, a tool that asks (answered on the connection), an id chosen on purpose twice,
/// a prebuilt body, and a surface fetch (whose own ids start at 1 too).
async fn a_session(mcp: &TestContext) {
    let mcp = mcp
        .with(|o| o.client_capabilities(json!({"elicitation": {}})))
        .in_era(Era::Legacy);
    assert!(result(mcp.list_tools().await)["tools"].is_array());
    assert_tool_text!(
        mcp.call_tool("test_simple_text", json!({})).await,
        "This is a simple text response for testing."
    );
    let (asked, _rounds) = mcp
        .drive_tool(
            "test_input_required_result_elicitation",
            json!({}),
            json!({"user_name": answer::accept(json!({"name": "Ada"}))}),
        )
        .await;
    assert_tool_text!(asked, "Hello, Ada!");
    let named = mcp.with(|o| o.request_id("chosen"));
    for _ in 0..2 {
        let reply = named.send(&mcp_request!("tools/list"; id = "chosen")).await;
        assert_eq!(
            reply["id"], "chosen",
            "the reply comes back under the id sent"
        );
    }
    let prebuilt = mcp.send(&mcp_request!("prompts/list"; id = 7)).await;
    assert_eq!(prebuilt["id"], 7);
    let surface = Surface::fetch(&mcp).await.expect("the surface");
    assert!(!surface.tools.is_empty());
    let last = mcp.send(&mcp_request!("tools/list"; id = LAST)).await;
    assert_eq!(last["id"], LAST);
}

/// The ids of the requests among `messages` (client-to-server messages with a `method`),
/// failing on any id sent twice.
fn assert_unique(messages: &[Value], transport: &str) {
    let mut seen: HashMap<String, &Value> = HashMap::new();
    let mut requests = 0;
    for message in messages {
        let (Some(_), Some(id)) = (message.get("method"), message.get("id")) else {
            continue;
        };
        requests += 1;
        if let Some(first) = seen.insert(id.to_string(), message) {
            panic!("{transport}: id {id} sent twice:\n  {first}\n  {message}");
        }
    }
    // initialize, tools/list, tools/call twice, tools/list twice, prompts/list, the
    // surface's lists, the last: far more than one id's worth.
    assert!(
        requests >= 10,
        "{transport}: {requests} requests: {messages:?}"
    );
    assert!(
        seen.contains_key("\"chosen\""),
        "{transport}: an id chosen on purpose goes out as it is the first time: {messages:?}"
    );
    assert!(
        messages.iter().any(|m| m["method"] == "initialize"),
        "{transport}: {messages:?}"
    );
}

/// Waits (bounded) until `read` shows the last request, then returns what it read.
async fn until_last(read: impl Fn() -> Vec<Value>) -> Vec<Value> {
    for _ in 0..500 {
        let messages = read();
        if messages.iter().any(|m| m["id"] == LAST) {
            return messages;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the last request never reached the server: {:?}", read());
}

#[cfg(unix)]
#[tokio::test]
async fn no_id_is_sent_twice_over_stdio() {
    let log = std::env::temp_dir().join(format!(
        "mcp-test-request-ids-{}-{:?}.jsonl",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_file(&log);
    // Every line the client writes is kept by `tee` on its way to the server.
    let mcp = TestContext::stdio([
        "sh",
        "-c",
        r#"tee -a "$0" | "$1""#,
        log.to_str().unwrap(),
        env!("CARGO_BIN_EXE_conformance_fixture"),
    ]);
    a_session(&mcp).await;
    let read = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect::<Vec<Value>>()
    };
    let messages = until_last(read).await;
    drop(mcp);
    let _ = std::fs::remove_file(&log);
    assert_unique(&messages, "stdio");
}

#[tokio::test]
async fn no_id_is_sent_twice_over_http() {
    let received: Arc<Mutex<Vec<Value>>> = Arc::default();
    let kept = received.clone();
    // Every POST body the endpoint receives is kept on its way in.
    let keep = axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            let kept = kept.clone();
            async move {
                let (parts, body) = request.into_parts();
                let bytes = axum::body::to_bytes(body, usize::MAX)
                    .await
                    .unwrap_or_default();
                if let Ok(message) = serde_json::from_slice::<Value>(&bytes) {
                    kept.lock().unwrap().push(message);
                }
                next.run(axum::extract::Request::from_parts(
                    parts,
                    axum::body::Body::from(bytes),
                ))
                .await
            }
        },
    );
    let app = router(conformance_server(), HttpConfig::default()).layer(keep);
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = tokio::spawn(async move { axum::serve(listener, app).await });
    let mcp = TestContext::http(&url);
    a_session(&mcp).await;
    let messages = until_last(|| received.lock().unwrap().clone()).await;
    serving.abort();
    assert_unique(&messages, "http");
}
