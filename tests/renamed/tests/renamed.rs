//! mcp-test depended on as `mcp`: `#[derive(Tool)]` and `#[mcp_test]` told so with `crate = ...`,
//! in both spellings (a string, as serde's `crate` takes it, and a path) and through `$crate`.
//! This crate depends on nothing named `mcp_test`, so it compiles only if no expansion names it.

use mcp::prelude::*;
use mcp::testing::result;
use mcp::wire::ToolAnnotations;

// Reached as `$crate::reexported` by the macro below.
use mcp as reexported;

/// Adds two integers.
#[derive(Tool)]
#[tool(crate = "mcp", name = "add", title = "Add")]
struct Add {
    /// First operand
    #[tool(minimum = 0)]
    a: i64,
    /// Second operand; 1 when omitted
    #[tool(default = 1)]
    b: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok((self.a + self.b).to_string())
    }
}

/// Keeps two notes.
#[derive(Tool)]
#[tool(crate = mcp, annotations(read_only, idempotent), task = "forbidden")]
enum Notes {
    /// Reads a note by id.
    Get {
        /// The note's id.
        #[tool(min_length = 1)]
        id: String,
    },
    /// Lists every note.
    #[tool(rename = "ls")]
    List,
}

const NOTES: &[(&str, &str)] = &[("1", "buy milk"), ("2", "call Ada")];

impl Notes {
    async fn run(self, _ctx: &Context) -> Result<Json<Vec<String>>, ToolError> {
        match self {
            Notes::Get { id } => NOTES
                .iter()
                .find(|(key, _)| *key == id)
                .map(|(_, note)| Json(vec![(*note).to_owned()]))
                .ok_or_else(|| ToolError::new(format!("no note {id}"))),
            Notes::List => Ok(Json(NOTES.iter().map(|(_, n)| (*n).to_owned()).collect())),
        }
    }
}

/// Repeats a value.
#[derive(Tool)]
#[tool(crate = ::mcp)]
struct Repeat<T: std::fmt::Display> {
    value: T,
    times: u8,
}

impl<T: std::fmt::Display + Send> Repeat<T> {
    async fn run(self, _ctx: &Context) -> String {
        self.value.to_string().repeat(usize::from(self.times))
    }
}

/// A tool and a test written by a macro, naming mcp-test through `$crate`, as a crate that
/// re-exports mcp-test would in a macro of its own.
macro_rules! shout_tool_and_test {
    () => {
        /// Upper-cases a word.
        #[derive(Tool)]
        #[tool(crate = $crate::reexported)]
        struct Shout {
            word: String,
        }

        impl Shout {
            async fn run(self, _ctx: &Context) -> String {
                self.word.to_uppercase()
            }
        }

        #[mcp_test(crate = $crate::reexported, server = Server::builder("shout", "1.0.0").tool::<Shout>())]
        async fn a_macro_names_the_crate_through_dollar_crate(mcp: TestContext) {
            assert_tool_text!(mcp.call_tool("shout", json!({"word": "hi"})).await, "HI");
        }
    };
}

shout_tool_and_test!();

fn server() -> Server {
    Server::builder("renamed", "1.0.0")
        .tool::<Add>()
        .tool::<Notes>()
        .tool::<Repeat<i64>>()
        .build()
        .unwrap()
}

#[mcp_test(crate = mcp, server = server)]
async fn a_plain_tool_is_called(mcp: TestContext) {
    assert_tool_text!(mcp.call_tool("add", json!({"a": 2, "b": 3})).await, "5");
    // `b`'s default, through the generated default function.
    assert_tool_text!(mcp.call_tool("add", json!({"a": 2})).await, "3");
    // The schema's `minimum` turns a negative `a` away before `run`.
    let text = assert_tool_error!(mcp.call_tool("add", json!({"a": -1})).await);
    assert!(text.contains("/a"), "{text}");
    let text = assert_tool_error!(mcp.call_tool("add", json!({"a": 1, "c": 0})).await);
    assert!(text.contains('c'), "{text}");
}

#[mcp_test(crate = "mcp", server = server, principal = "ada", capabilities(elicitation))]
async fn an_action_tool_is_called(mcp: TestContext) {
    assert_tool_json!(
        mcp.call_tool("notes", json!({"action": "get", "data": {"id": "2"}}))
            .await,
        ["call Ada"]
    );
    assert_tool_json!(
        mcp.call_tool("notes", json!({"action": "ls"})).await,
        ["buy milk", "call Ada"]
    );
    assert_tool_error!(
        mcp.call_tool("notes", json!({"action": "get", "data": {"id": "9"}}))
            .await,
        "no note 9"
    );
    assert_tool_error!(
        mcp.call_tool("notes", json!({"action": "delete"})).await,
        "delete"
    );
}

#[mcp_test(crate = ::mcp, server = server())]
async fn a_generic_tool_is_called() -> Result<(), String> {
    let mcp = TestContext::current();
    let text = mcp::testing::text_response(
        mcp.call_tool("repeat", json!({"value": 4, "times": 3}))
            .await,
    );
    if text == "444" { Ok(()) } else { Err(text) }
}

#[mcp_test(crate = mcp, server = server)]
async fn the_listing_carries_what_the_attributes_say(mcp: TestContext) {
    let listed = result(mcp.list_tools().await);
    let tools = listed["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["add", "notes", "repeat"]);
    assert_eq!(tools[0]["title"], "Add");
    assert_eq!(tools[0]["description"], "Adds two integers.");
    assert_eq!(tools[0]["inputSchema"]["properties"]["a"]["minimum"], 0);
    assert_eq!(tools[0]["inputSchema"]["properties"]["b"]["default"], 1);
    assert_eq!(tools[1]["annotations"]["readOnlyHint"], true);
    assert_eq!(tools[1]["annotations"]["idempotentHint"], true);
    assert_eq!(tools[1]["outputSchema"]["type"], "array");
    assert_eq!(
        tools[1]["inputSchema"]["properties"]["action"]["enum"],
        json!(["get", "ls"])
    );
}

#[test]
fn the_trait_items_come_from_the_renamed_crate() {
    assert_eq!(<Add as Tool>::NAME, "add");
    assert_eq!(Notes::NAME, "notes");
    assert_eq!(Repeat::<i64>::NAME, "repeat");
    assert_eq!(
        Notes::annotations(),
        Some(ToolAnnotations {
            read_only_hint: Some(true),
            idempotent_hint: Some(true),
            ..Default::default()
        })
    );
    assert_eq!(Notes::task_support(), mcp::tasks::TaskSupport::Forbidden);
    assert_eq!(Add::input_schema()["required"], json!(["a"]));
    assert!(Add::parse(json!({"a": 1, "b": 2})).is_ok());
}
