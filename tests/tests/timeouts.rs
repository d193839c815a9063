//! A timeout is the same failure on every transport: the test's timeout passes with no reply,
//! and the helper panics at the test's line naming the request, the transport, the target and
//! the timeout, in process, over stdio and over HTTP alike. A server's own request limit is
//! the server's answer (-32603) on every transport.

use mcp_test::client::Client;
use mcp_test::testing::TestContext;
use mcp_test::transport::http::{HttpConfig, bind_local};
use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test::{Context, Server, Tool, ToolError, assert_rpc_error};
use serde_json::json;
use std::time::Duration;

/// Never finishes.
#[derive(Tool)]
#[tool(name = "hang")]
struct Hang {}

impl Hang {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        std::future::pending::<()>().await;
        Ok(String::new())
    }
}

fn server() -> Server {
    Server::builder("slow", "1.0.0")
        .tool::<Hang>()
        .build()
        .unwrap()
}

fn over_stdio(server: Server) -> TestContext {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve(
        server,
        server_read,
        server_write,
        StdioConfig::default(),
    ));
    let (read, write) = tokio::io::split(client_end);
    TestContext::for_target(Client::connect(read, write))
}

async fn over_http(server: Server) -> TestContext {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(mcp_test::transport::http::serve(
        listener,
        server,
        HttpConfig::default(),
    ));
    TestContext::http(url)
}

/// The panic of `hang` called with a 100 ms timeout through `mcp`.
async fn timeout_panic(mcp: TestContext) -> String {
    let mcp = mcp.with(|o| o.timeout(Duration::from_millis(100)));
    let call = tokio::spawn(async move {
        mcp.call_tool("hang", json!({})).await;
    });
    let panic = call.await.expect_err("the call must fail").into_panic();
    panic
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| "(no message)".to_owned())
}

#[tokio::test]
async fn a_timeout_is_the_same_panic_on_every_transport() {
    let contexts = [
        ("in process", TestContext::new(server())),
        ("over stdio", over_stdio(server())),
        ("over HTTP", over_http(server()).await),
    ];
    for (transport, mcp) in contexts {
        let label = mcp.label();
        let message = timeout_panic(mcp).await;
        for part in [
            format!("no reply {transport} to tools/call (id 1) from {label} within 100ms"),
            "the test's timeout".to_owned(),
            "timeouts.rs:".to_owned(),
        ] {
            assert!(
                message.contains(&part),
                "{transport}: {part:?} in {message}"
            );
        }
    }
}

/// The round helpers fail the same way.
#[tokio::test]
async fn a_timeout_in_a_round_helper_names_the_transport() {
    for (transport, mcp) in [
        ("in process", TestContext::new(server())),
        ("over stdio", over_stdio(server())),
    ] {
        let mcp = mcp.with(|o| o.timeout(Duration::from_millis(100)));
        let call = tokio::spawn(async move {
            mcp.call_tool_rounds("hang", json!({}), &mcp_test::target::Answers::new())
                .await;
        });
        let panic = call.await.expect_err("the call must fail").into_panic();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(
            message.contains("no answer to tools/call (id 1) within 100ms")
                && message.contains(transport),
            "{transport}: {message}"
        );
    }
}

/// A server whose own limit is shorter than the test's wait answers -32603, in process as in
/// another process: that is the server's answer, not a timeout of the test.
#[tokio::test]
async fn a_servers_own_limit_is_its_answer_on_every_transport() {
    let limited = || {
        Server::builder("slow", "1.0.0")
            .tool::<Hang>()
            .max_request_timeout(Duration::from_millis(50))
            .build()
            .unwrap()
    };
    for (transport, mcp) in [
        ("in process", TestContext::new(limited())),
        ("over stdio", over_stdio(limited())),
        ("over HTTP", over_http(limited()).await),
    ] {
        let response = mcp.call_tool("hang", json!({})).await;
        assert_eq!(response["error"]["code"], -32603, "{transport}: {response}");
        assert_rpc_error!(response, -32603, "within 50 ms");
    }
}
