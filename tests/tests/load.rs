//! Load: 1,000 concurrent calls over HTTP on 127.0.0.1, a fifth of them multi-round. No
//! response is lost, each matches its request id, and no answer leaks into another call. The
//! run is bounded in count (1,000 calls) and time (it fails after two minutes).

use mcp_test::client::Client;
use mcp_test::transport::http::{HttpConfig, bind_local, serve};
use mcp_test_downstream::transport_server;
use serde_json::json;
use std::time::Duration;

const CALLS: usize = 1_000;

async fn one_call(client: Client, i: usize) -> Result<(), String> {
    let nonce = format!("n{i}");
    if i.is_multiple_of(5) {
        // Two rounds: the question, then the retry with the answer and the signed state.
        let first = client.tool_call_body("ask_name", json!({"nonce": nonce}));
        let reply = client.send(&first).await.map_err(|e| e.to_string())?;
        if reply["id"] != first["id"] {
            return Err(format!("{i}: id {} answered {}", first["id"], reply["id"]));
        }
        let result = &reply["result"];
        if result["resultType"] != "input_required" {
            return Err(format!("{i}: expected input_required, got {reply}"));
        }
        let key = result["inputRequests"]
            .as_object()
            .and_then(|m| m.keys().next().cloned())
            .ok_or_else(|| format!("{i}: no input request in {reply}"))?;
        let mut retry = client.tool_call_body("ask_name", json!({"nonce": nonce}));
        retry["params"]["inputResponses"] =
            json!({ key: {"action": "accept", "content": {"name": format!("user{i}")}} });
        retry["params"]["requestState"] = result["requestState"].clone();
        let reply = client.send(&retry).await.map_err(|e| e.to_string())?;
        if reply["id"] != retry["id"] {
            return Err(format!(
                "{i}: retry id {} answered {}",
                retry["id"], reply["id"]
            ));
        }
        let text = reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        if text != format!("{nonce}: hi user{i}") {
            return Err(format!("{i}: answer leaked or lost: {reply}"));
        }
    } else {
        let body = client.tool_call_body("forecast", json!({"region": nonce}));
        let reply = client.send(&body).await.map_err(|e| e.to_string())?;
        if reply["id"] != body["id"] {
            return Err(format!("{i}: id {} answered {}", body["id"], reply["id"]));
        }
        let text = reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        if text != format!("sunny in {nonce}") {
            return Err(format!("{i}: answer leaked or lost: {reply}"));
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_calls_with_multi_round_ones_mixed_in() {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = tokio::spawn(serve(listener, transport_server(), HttpConfig::default()));
    let client = Client::http(&url)
        .unwrap()
        .with_timeout(Duration::from_secs(60));
    let run = async {
        let tasks: Vec<_> = (0..CALLS)
            .map(|i| tokio::spawn(one_call(client.clone(), i)))
            .collect();
        let mut failures = Vec::new();
        for task in tasks {
            if let Err(e) = task.await.expect("no task panics") {
                failures.push(e);
            }
        }
        failures
    };
    let failures = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("1,000 calls finish within two minutes");
    server.abort();
    assert!(
        failures.is_empty(),
        "{} of {CALLS} calls failed, first: {:?}",
        failures.len(),
        failures.first()
    );
}
