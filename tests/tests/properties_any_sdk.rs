//! `assert_properties!`'s built-in "broken arguments are named" invariant holds for any SDK's
//! way of naming the broken place: an rmcp server (serde's `` missing field `room` ``,
//! `` invalid value: integer `-1` ``) passes it unchanged, as mcp-test's own runtime (JSON
//! pointers) does, and the error texts of the Python and TypeScript SDKs count too.

use mcp_test::cases::properties::{Broken, names_broken_place};
use mcp_test::testing::TestContext;
use mcp_test::{assert_properties, mcp_test};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct BookArgs {
    /// The room.
    room: String,
    /// How many nights.
    nights: u32,
}

#[derive(Clone)]
struct Hotel;

#[tool_router]
impl Hotel {
    /// Books a room.
    #[tool]
    fn book(&self, Parameters(BookArgs { room, nights }): Parameters<BookArgs>) -> String {
        format!("{room} for {nights} nights")
    }
}

#[tool_handler]
impl ServerHandler for Hotel {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[mcp_test(rmcp = Hotel)]
async fn an_rmcp_server_passes_the_default_invariants(mcp: TestContext) {
    let report = assert_properties!(mcp, cases = 16, no_regressions = ());
    assert!(report.failures.is_empty());
}

/// How each SDK words the error for `{"nights": 2}` (no `room`) and for `nights: -1`.
#[test]
fn the_conventions_of_each_sdk_count() {
    let missing = Broken {
        args: json!({"nights": 2}),
        pointer: "/room".into(),
        keyword: "required".into(),
    };
    let negative = Broken {
        args: json!({"room": "101", "nights": -1}),
        pointer: "/nights".into(),
        keyword: "minimum".into(),
    };
    let named = [
        // mcp-test's runtime: the pointer.
        (
            &missing,
            "Invalid arguments for tool book: /room: \"room\" is a required property",
        ),
        // rmcp (serde): the field's name, the offending value.
        (
            &missing,
            "failed to deserialize parameters: missing field `room`",
        ),
        (
            &negative,
            "failed to deserialize parameters: invalid value: integer `-1`, expected u32",
        ),
        // The Python SDK (pydantic): the field's name on a line of its own.
        (
            &missing,
            "1 validation error for bookArguments\nroom\n  Field required [type=missing, input_value={'nights': 2}, input_type=dict]",
        ),
        // The TypeScript SDK (zod): the path as an array of names.
        (
            &missing,
            "MCP error -32602: Invalid arguments for tool book: [{\"code\": \"invalid_type\", \"expected\": \"string\", \"received\": \"undefined\", \"path\": [\"room\"], \"message\": \"Required\"}]",
        ),
        (
            &negative,
            "Input validation error: nights: Number must be greater than or equal to 0",
        ),
    ];
    for (broken, text) in named {
        assert!(names_broken_place(text, broken), "{text}");
    }
    let unnamed = [
        (&missing, "failed to deserialize parameters"),
        (&missing, "bad request: the bedroom is taken"),
        (&negative, "invalid value, expected u32"),
    ];
    for (broken, text) in unnamed {
        assert!(!names_broken_place(text, broken), "{text}");
    }
}
