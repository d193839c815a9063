//! A downstream crate implements `mcp_test::Tool` by hand, builds a server from it, and walks
//! the sequence a real client does: discover, list, call.

use mcp_test::{CallToolResult, Context, Server, Tool, ToolError};
use serde_json::{Value, json};

/// Converts a temperature.
struct Convert {
    celsius: f64,
}

impl Tool for Convert {
    const NAME: &'static str = "to_fahrenheit";

    fn description() -> Option<String> {
        Some("Converts Celsius to Fahrenheit".into())
    }

    fn input_schema() -> Value {
        json!({
            "type": "object",
            "properties": {"celsius": {"type": "number", "minimum": -273.15}},
            "required": ["celsius"],
            "additionalProperties": false
        })
    }

    fn parse(arguments: Value) -> Result<Self, ToolError> {
        let celsius = arguments["celsius"]
            .as_f64()
            .ok_or_else(|| ToolError::new("celsius must be a number"))?;
        Ok(Convert { celsius })
    }

    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(format!(
            "{:.1}",
            self.celsius * 9.0 / 5.0 + 32.0
        )))
    }
}

fn envelope(id: u32, method: &str, params: Value) -> String {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

async fn roundtrip(server: &Server, text: String) -> Value {
    let reply = server
        .handle_json(&text)
        .await
        .expect("a request is answered");
    serde_json::from_str(&reply).expect("the answer is JSON")
}

#[tokio::test]
async fn discover_then_list_then_call() {
    let server = Server::builder("thermo", "2.0.0")
        .instructions("Temperature tools.")
        .tool::<Convert>()
        .build()
        .expect("the server builds");

    let discovered = roundtrip(&server, envelope(1, "server/discover", json!({}))).await;
    assert_eq!(
        discovered["result"]["supportedVersions"],
        json!(["2026-07-28"])
    );
    assert_eq!(
        discovered["result"]["capabilities"],
        json!({"tools": {"listChanged": true}})
    );
    assert_eq!(discovered["result"]["instructions"], "Temperature tools.");
    assert_eq!(
        discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "thermo", "version": "2.0.0"})
    );

    let listed = roundtrip(&server, envelope(2, "tools/list", json!({}))).await;
    let tools = listed["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "to_fahrenheit");
    assert_eq!(tools[0]["inputSchema"], Convert::input_schema());

    let called = roundtrip(
        &server,
        envelope(
            3,
            "tools/call",
            json!({"name": "to_fahrenheit", "arguments": {"celsius": 100}}),
        ),
    )
    .await;
    assert_eq!(called["id"], 3);
    assert_eq!(
        called["result"]["content"],
        json!([{"type": "text", "text": "212.0"}])
    );

    let rejected = roundtrip(
        &server,
        envelope(
            4,
            "tools/call",
            json!({"name": "to_fahrenheit", "arguments": {"celsius": -300}}),
        ),
    )
    .await;
    assert_eq!(rejected["result"]["isError"], true);
    assert_eq!(
        rejected["result"]["content"][0]["text"],
        "Invalid arguments for tool to_fahrenheit:\n- /celsius: -300 is less than the minimum of -273.15"
    );

    for (id, method) in [(5, "tools/list"), (6, "server/discover")] {
        let reply = roundtrip(&server, envelope(id, method, json!({}))).await;
        mcp_test::spec::check_response(method, &reply).unwrap();
    }
}
