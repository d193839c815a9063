//! What the targets share: one server with a plain tool, a multi-round tool and a header
//! argument, and one current-thread runtime, both built once per process.

#![allow(dead_code)] // each target uses a different part of this module

use mcp_test::rounds::Elicitation;
use mcp_test::{CallToolResult, Context, Server, Tool, ToolError};
use serde_json::{Value, json};
use std::sync::OnceLock;

pub struct Echo {
    text: String,
}

impl Tool for Echo {
    const NAME: &'static str = "echo";
    fn input_schema() -> Value {
        json!({"type": "object",
               "properties": {"text": {"type": "string", "maxLength": 64},
                              "region": {"type": "string", "x-mcp-header": "Region"},
                              "n": {"type": "integer", "minimum": 0, "x-mcp-header": "N"}},
               "required": ["text"], "additionalProperties": false})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Echo { text: args["text"].as_str().unwrap_or_default().to_owned() })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self.text))
    }
}

pub struct Ask;

impl Tool for Ask {
    const NAME: &'static str = "ask";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Ask)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        match ctx.elicit("name?", schema).await? {
            Elicitation::Accept(form) => Ok(CallToolResult::text(Value::Object(form).to_string())),
            _ => Ok(CallToolResult::text("no")),
        }
    }
}

pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::builder("fuzz", "1")
            .tool::<Echo>()
            .tool::<Ask>()
            .build()
            .expect("the fuzz server builds")
    })
}

pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

pub fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}})
}
