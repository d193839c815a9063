//! The builders' bodies and mirrored headers against the real Streamable HTTP router, the same
//! assertions on its HTTP responses, and a normalized response snapshot.

use mcp_test::testing::http::oneshot;
use mcp_test::testing::{
    TestContext, build_call_request, mirrored_headers_for, put_mirrored_headers,
    put_mirrored_headers_for,
};
use mcp_test::transport::http::{HttpConfig, router};
use mcp_test::{
    CallToolResult, Context, Server, Tool, ToolError, assert_response_snapshot, assert_rpc_error,
    assert_tool_text, mcp_request, mcp_test,
};
use serde_json::{Value, json};

/// Deploys to a region mirrored as the `Mcp-Param-Region` header.
struct Deploy {
    region: String,
    replicas: i64,
}

impl Tool for Deploy {
    const NAME: &'static str = "deploy";
    fn input_schema() -> Value {
        json!({"type": "object", "required": ["region"], "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "replicas": {"type": "integer", "x-mcp-header": "Replicas"}
        }})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Deploy {
            region: args["region"].as_str().unwrap_or_default().to_owned(),
            replicas: args["replicas"].as_i64().unwrap_or(1),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(format!(
            "{} x {}",
            self.region, self.replicas
        )))
    }
}

fn server() -> Server {
    Server::builder("deployer", "1.0.0")
        .tool::<Deploy>()
        .build()
        .unwrap()
}

fn post(body: &Value) -> http::Request<String> {
    http::Request::post("/mcp")
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string())
        .unwrap()
}

#[tokio::test]
async fn mirrored_headers_satisfy_the_http_transport() {
    let server = server();
    let app = router(server.clone(), HttpConfig::default());
    let body = build_call_request("deploy", json!({"region": "Zürich", "replicas": 3}));
    let mut request = post(&body);
    put_mirrored_headers_for(&mut request, &body, server.tool_definitions());
    assert_eq!(
        request.headers()["mcp-param-region"],
        "=?base64?WsO8cmljaA==?="
    );
    let response = oneshot(&app, request).await;
    assert_eq!(response.status(), 200);
    assert_tool_text!(response, "Zürich x 3");

    // Without the Mcp-Param-* headers the transport refuses the call, naming the header.
    let mut request = post(&body);
    put_mirrored_headers(&mut request, &body);
    let response = oneshot(&app, request).await;
    assert_eq!(response.status(), 400);
    assert_rpc_error!(response, -32020, "Mcp-Param-Region");
}

#[tokio::test]
async fn every_builder_body_passes_the_header_checks() {
    let server = server();
    let app = router(server.clone(), HttpConfig::default());
    for body in [
        mcp_request!("server/discover"),
        mcp_request!("tools/list"),
        mcp_request!(call "deploy" {"region": "eu-west"}),
        mcp_request!(call "deploy" {"region": " padded "}; id = "x-1"),
    ] {
        let mut request = post(&body);
        for (name, value) in mirrored_headers_for(&body, server.tool_definitions()) {
            request.headers_mut().insert(
                http::HeaderName::try_from(name).unwrap(),
                value.parse().unwrap(),
            );
        }
        let response = oneshot(&app, request).await;
        assert_eq!(response.status(), 200, "{body}");
    }
}

#[mcp_test(server = server)]
async fn a_response_snapshot_hides_volatile_fields(mcp: TestContext) {
    let response = mcp
        .with(|o| o.request_id("volatile-id"))
        .call_tool("deploy", json!({"region": "eu-west", "replicas": 2}))
        .await;
    assert_response_snapshot!("deploy_eu_west", response);
}
