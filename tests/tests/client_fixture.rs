//! `mcp_test::client::Client` against the conformance fixture server (served in process) over
//! both transports: the request helpers and assertions of the test surface work unchanged.

#[allow(dead_code)] // the example's `main`
#[path = "../../mcp-test/examples/conformance.rs"]
mod conformance;

use mcp_test::client::{Answers, Client};
use mcp_test::target::Target;
use mcp_test::testing::answer;
use mcp_test::testing::{
    RequestOptions, call_tool, discover, get_prompt, list_tools, read_resource, result,
};
use mcp_test::transport::stdio;
use mcp_test::wire::Era;
use mcp_test::{assert_input_required, assert_rpc_error, assert_tool_error, assert_tool_text};
use serde_json::{Value, json};

/// A client on a `tokio::io::duplex` pipe to the fixture served by the stdio transport.
fn stdio_client() -> Client {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(stdio::serve(
        conformance::conformance_server(),
        read,
        write,
        stdio::StdioConfig::default(),
    ));
    let (read, write) = tokio::io::split(client_end);
    Client::connect(read, write)
}

/// A client to the fixture served over HTTP on a free 127.0.0.1 port. The server task ends
/// with the test's runtime.
async fn http_client() -> Client {
    let url = mcp_test_downstream::serve_http(conformance::conformance_server()).await;
    Client::http(&url).unwrap()
}

async fn both() -> [(&'static str, Client); 2] {
    [("stdio", stdio_client()), ("http", http_client().await)]
}

#[tokio::test]
async fn the_request_helpers_work_against_a_client_on_both_transports() {
    for (transport, client) in both().await {
        let opts = RequestOptions::new();
        let discovered = result(discover(&client, &opts).await);
        assert_eq!(
            discovered["supportedVersions"][0], "2026-07-28",
            "{transport}"
        );

        let tools = result(list_tools(&client, &opts).await);
        let names: Vec<&str> = tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert!(
            names.contains(&"test_simple_text"),
            "{transport}: {names:?}"
        );

        assert_tool_text!(
            call_tool(&client, "test_simple_text", json!({}), &opts).await,
            "This is a simple text response for testing."
        );
        assert_tool_error!(
            call_tool(&client, "test_error_handling", json!({}), &opts).await,
            "intentionally"
        );
        assert_rpc_error!(
            call_tool(&client, "no_such_tool", json!({}), &opts).await,
            -32602
        );

        let read = result(read_resource(&client, "test://static-text", &opts).await);
        assert_eq!(
            read["contents"][0]["text"], "This is the content of the static text resource.",
            "{transport}"
        );
        let templated = result(read_resource(&client, "test://template/123/data", &opts).await);
        let data: Value =
            serde_json::from_str(templated["contents"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(data["data"], "Data for ID: 123", "{transport}");

        let prompt = result(
            get_prompt(
                &client,
                "test_prompt_with_arguments",
                json!({"arg1": "hello", "arg2": "world"}),
                &opts,
            )
            .await,
        );
        assert_eq!(
            prompt["messages"][0]["content"]["text"],
            "Prompt with arguments: arg1='hello', arg2='world'",
            "{transport}"
        );
    }
}

#[tokio::test]
async fn a_multi_round_tool_is_driven_to_completion_with_scripted_answers() {
    for (transport, client) in both().await {
        let first = call_tool(
            &client,
            "test_input_required_result_multi_round",
            json!({}),
            &RequestOptions::new().client_capabilities(json!({"elicitation": {}})),
        )
        .await;
        assert_input_required!(first, "step1");

        let body = client.tool_call_body("test_input_required_result_multi_round", json!({}));
        let rounds = client
            .call_rounds(
                &body,
                &Answers::new()
                    .answer("step1", answer::accept(json!({"name": "Ada"})))
                    .answer("step2", answer::accept(json!({"color": "blue"}))),
            )
            .await
            .unwrap();
        assert_eq!(rounds.len(), 3, "{transport}");
        assert_tool_text!(rounds, "Completed both rounds: name = Ada, color = blue");
        // Every retry echoes the state of the round before it, under a fresh id.
        for round in 1..3 {
            let sent = &rounds.requests[round]["params"]["requestState"];
            let minted =
                &rounds.exchanges[round - 1].response.as_ref().unwrap()["result"]["requestState"];
            assert_eq!(sent, minted, "{transport}: round {round}");
            assert_ne!(
                rounds.requests[round]["id"],
                rounds.requests[round - 1]["id"]
            );
        }
        assert_eq!(
            rounds.input_requests(1).unwrap()["step2"]["params"]["message"],
            "Step 2: What is your favorite color?"
        );
    }
}

#[tokio::test]
async fn answers_by_method_and_by_responder_cover_every_input_kind() {
    for (transport, client) in both().await {
        let answers = Answers::new()
            .method(
                "elicitation/create",
                answer::accept(json!({"name": "Grace"})),
            )
            .method(
                "sampling/createMessage",
                answer::sampled("test-model", "Bonjour"),
            )
            .respond(|_key, request| {
                (request["method"] == "roots/list").then(|| answer::roots(["file:///tmp/a"]))
            });
        let body = client.tool_call_body("test_input_required_result_multiple_inputs", json!({}));
        let rounds = client.call_rounds(&body, &answers).await.unwrap();
        assert_tool_text!(rounds, "name: Grace; greeting: Bonjour; roots: 1");
        assert_eq!(rounds.len(), 2, "{transport}");
    }
}

#[tokio::test]
async fn an_input_request_without_an_answer_is_an_error_naming_the_key() {
    for (transport, client) in both().await {
        let body = client.tool_call_body("test_input_required_result_elicitation", json!({}));
        let err = client
            .call_rounds(&body, &Answers::new())
            .await
            .unwrap_err();
        let message = err.to_string();
        assert!(message.contains("\"user_name\""), "{transport}: {message}");
        assert!(
            message.contains("elicitation/create"),
            "{transport}: {message}"
        );
    }
}

#[tokio::test]
async fn a_run_that_never_completes_stops_at_the_round_limit() {
    for (transport, client) in both().await {
        let body = client.tool_call_body("test_input_required_result_multi_round", json!({}));
        let err = client
            .call_rounds(
                &body,
                &Answers::new()
                    .method("elicitation/create", answer::decline())
                    .max_rounds(1),
            )
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("after 1 rounds"),
            "{transport}: {err}"
        );
    }
}

#[tokio::test]
async fn progress_notifications_come_with_the_exchange() {
    for (transport, client) in both().await {
        let mut body = client.tool_call_body("test_tool_with_progress", json!({}));
        body["params"]["_meta"]["progressToken"] = json!("p-1");
        let exchange = client.exchange(&body).await.unwrap();
        assert_tool_text!(exchange, "Progress tool completed: 100/100");
        let progress: Vec<f64> = exchange
            .notifications
            .iter()
            .filter(|n| n["method"] == "notifications/progress")
            .map(|n| n["params"]["progress"].as_f64().unwrap())
            .collect();
        assert_eq!(progress, [0.0, 50.0, 100.0], "{transport}");
        if transport == "http" {
            assert_eq!(exchange.status, Some(200));
            assert_eq!(exchange.content_type.as_deref(), Some("text/event-stream"));
        }
    }
}

#[tokio::test]
async fn x_mcp_header_arguments_are_mirrored_over_http() {
    let client = http_client().await;
    // The client learns the tool's x-mcp-header parameters from tools/list by itself; the
    // server rejects a call whose Mcp-Param-Region header is missing or differs (-32020).
    let response = call_tool(
        &client,
        "test_custom_headers",
        json!({"region": "Zürich"}),
        &RequestOptions::new(),
    )
    .await;
    assert_tool_text!(response, "region: Zürich");
}

#[tokio::test]
async fn http_error_statuses_are_reported_with_the_response() {
    let client = http_client().await;
    let body = client.request_body("ping", json!({}));
    let exchange = client.exchange(&body).await.unwrap();
    assert_eq!(exchange.status, Some(404));
    assert_rpc_error!(exchange, -32601);
}

#[tokio::test]
async fn the_era_probe_finds_a_modern_server() {
    for (transport, client) in both().await {
        let handshake = client.era().await.unwrap();
        assert_eq!(handshake.era, Era::Current, "{transport}: {handshake:?}");
        assert_eq!(
            handshake.result["supportedVersions"][0], "2026-07-28",
            "{transport}"
        );
    }
}

#[tokio::test]
async fn target_is_implemented_by_both_the_server_and_the_client() {
    async fn simple_text(target: &impl Target) -> Value {
        call_tool(
            target,
            "test_simple_text",
            json!({}),
            &RequestOptions::new(),
        )
        .await
    }
    let server = conformance::conformance_server();
    let client = stdio_client();
    assert_eq!(
        result(simple_text(&server).await),
        result(simple_text(&client).await)
    );
}
