//! A small MCP server on rmcp 3.11 (the official Rust SDK) over stdio, for the corpus of
//! `scripts/corpus`: what a careful user of the SDK writes, nothing more. Three read-only tools
//! (a numeric range, an enum with a structured result, a length-bounded string), one
//! destructive tool, a prompt with a required argument and one static resource.
//!
//! ```text
//! cargo build -p mcp-test-downstream --example rmcp_server
//! mcp-test check -- target/debug/examples/rmcp_server
//! ```

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    Implementation, ListResourcesResult, PaginatedRequestParams, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt as _, prompt, prompt_handler, prompt_router,
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

const WELCOME_URI: &str = "notes://welcome";

/// The arguments of `add`.
#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend, 0 to 1000
    #[schemars(range(min = 0, max = 1000))]
    a: i64,
    /// The second addend, 0 to 1000
    #[schemars(range(min = 0, max = 1000))]
    b: i64,
}

/// A temperature unit.
#[derive(Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// The arguments of `convert_temperature`.
#[derive(Deserialize, JsonSchema)]
struct ConvertArgs {
    /// The temperature to convert, in the other unit
    #[schemars(range(min = -273.15, max = 10000.0))]
    value: f64,
    /// The unit to convert to
    to: Unit,
}

/// A converted temperature.
#[derive(Serialize, JsonSchema)]
struct Temperature {
    value: f64,
    unit: Unit,
}

/// The arguments of `read_note` and `delete_note`.
#[derive(Deserialize, JsonSchema)]
struct NoteArgs {
    /// The note's name
    #[schemars(length(min = 1, max = 40))]
    name: String,
}

/// The arguments of the `review_code` prompt.
#[derive(Deserialize, JsonSchema)]
struct ReviewArgs {
    /// The code to review
    code: String,
    /// Its language (default: rust)
    language: Option<String>,
}

#[derive(Clone)]
struct CorpusServer {
    notes: Arc<Mutex<BTreeMap<String, String>>>,
}

impl CorpusServer {
    fn new() -> Self {
        let notes = BTreeMap::from([(
            "welcome".to_owned(),
            "Hello from the corpus server.".to_owned(),
        )]);
        CorpusServer {
            notes: Arc::new(Mutex::new(notes)),
        }
    }

    fn note(&self, name: &str) -> Option<String> {
        self.notes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned()
    }
}

#[tool_router]
impl CorpusServer {
    /// Adds two small non-negative integers.
    #[tool(annotations(read_only_hint = true))]
    async fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }

    /// Converts a temperature between Celsius and Fahrenheit; the input is in the other unit.
    #[tool(annotations(read_only_hint = true))]
    async fn convert_temperature(
        &self,
        Parameters(ConvertArgs { value, to }): Parameters<ConvertArgs>,
    ) -> Json<Temperature> {
        let converted = match to {
            Unit::Fahrenheit => value * 9.0 / 5.0 + 32.0,
            Unit::Celsius => (value - 32.0) * 5.0 / 9.0,
        };
        Json(Temperature {
            value: (converted * 100.0).round() / 100.0,
            unit: to,
        })
    }

    /// Reads a note by name.
    #[tool(annotations(read_only_hint = true))]
    async fn read_note(
        &self,
        Parameters(NoteArgs { name }): Parameters<NoteArgs>,
    ) -> Result<String, String> {
        self.note(&name)
            .ok_or_else(|| format!("no note named {name:?}"))
    }

    /// Deletes a note (destructive: check does not call it unless told to).
    #[tool(annotations(read_only_hint = false, destructive_hint = true))]
    async fn delete_note(&self, Parameters(NoteArgs { name }): Parameters<NoteArgs>) -> String {
        self.notes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&name);
        format!("deleted {name}")
    }
}

#[prompt_router]
impl CorpusServer {
    /// Asks for a review of a piece of code.
    #[prompt]
    async fn review_code(&self, Parameters(args): Parameters<ReviewArgs>) -> Vec<PromptMessage> {
        let language = args.language.unwrap_or_else(|| "rust".to_owned());
        vec![PromptMessage::new_text(
            Role::User,
            format!("Please review this {language} code:\n\n{}", args.code),
        )]
    }
}

#[tool_handler]
#[prompt_handler]
impl ServerHandler for CorpusServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("corpus-rmcp", "1.0.0"))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let welcome = Resource::new(WELCOME_URI, "welcome").with_mime_type("text/plain");
        Ok(ListResourcesResult::with_all_items(vec![welcome]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match (request.uri == WELCOME_URI)
            .then(|| self.note("welcome"))
            .flatten()
        {
            Some(text) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, WELCOME_URI).with_mime_type("text/plain"),
            ])
            .into()),
            None => Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                None,
            )),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // rmcp's `serve` returns once a 2025-era client has sent `initialize` (a 2026-07-28 client
    // is served while it waits); stdin closing before that ends the server.
    let running = match CorpusServer::new().serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(e) => {
            eprintln!("rmcp_server: stopped before any initialize: {e}");
            return;
        }
    };
    if let Err(e) = running.waiting().await {
        eprintln!("rmcp_server: {e}");
    }
}
