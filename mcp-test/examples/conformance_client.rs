//! A small client for the official conformance suite's client mode, built on
//! [`mcp_test::client`]: `conformance client --command "conformance_client" --scenario NAME`
//! runs it with the mock server's URL as the last argument and the scenario name in
//! `MCP_CONFORMANCE_SCENARIO`.
//!
//! Every scenario: the era probe (`server/discover`, retried once on -32022, else the 2025
//! `initialize` handshake), then `tools/list`. Then, by scenario:
//!
//! - `tools_call`: calls `add_numbers` with `{a: 2, b: 3}`;
//! - `sep-2322-client-request-state`: runs the four MRTR tools at once (`test_mrtr_echo_state`
//!   and `test_mrtr_no_state` driven to completion with an accepted confirmation,
//!   `test_mrtr_unrelated` and `test_mrtr_no_result_type` called plainly);
//! - anything else: calls the first listed tool, if any, with `{}`.
//!
//! Exits 1, printing the reason to stderr, if any step fails.

use mcp_test::client::{Answers, Client};
use mcp_test::testing::answer;
use serde_json::{Value, json};
use std::process::ExitCode;

async fn call(
    client: &Client,
    name: &str,
    arguments: Value,
) -> Result<Value, Box<dyn std::error::Error>> {
    let answers = Answers::new().method(
        "elicitation/create",
        answer::accept(json!({"confirmed": true})),
    );
    let rounds = client
        .call_rounds(&client.tool_call_body(name, arguments), &answers)
        .await?;
    let last = rounds.last().clone();
    println!("{name}: {} round(s), {last}", rounds.len());
    Ok(last)
}

async fn run(url: &str, scenario: &str) -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::http(url)?;
    let era = client.era().await?;
    println!("era: {era:?}");
    let tools = client.call("tools/list", json!({})).await?;
    let names: Vec<String> = tools["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    println!("tools: {names:?}");
    match scenario {
        "tools_call" => {
            call(&client, "add_numbers", json!({"a": 2, "b": 3})).await?;
        }
        "sep-2322-client-request-state" => {
            let (echo, no_state, unrelated, no_type) = tokio::join!(
                call(&client, "test_mrtr_echo_state", json!({})),
                call(&client, "test_mrtr_no_state", json!({})),
                call(&client, "test_mrtr_unrelated", json!({})),
                call(&client, "test_mrtr_no_result_type", json!({})),
            );
            for outcome in [echo, no_state, unrelated, no_type] {
                outcome?;
            }
        }
        _ => {
            if let Some(first) = names.first() {
                call(&client, first, json!({})).await?;
            }
        }
    }
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: conformance_client URL (scenario in MCP_CONFORMANCE_SCENARIO)");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    match run(&url, &scenario).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance_client ({scenario}): {e}");
            ExitCode::FAILURE
        }
    }
}
