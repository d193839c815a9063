//! The conformance fixture server: every tool, resource and prompt the official MCP
//! conformance suite (`@modelcontextprotocol/conformance`, revisions 2026-07-28 and 2025-11-25)
//! calls, with the exact names and texts its scenarios expect, built only from `mcp-test`'s
//! public API. It serves both eras (the runtime's default): the 2025-11-25 scenarios reach it
//! through the `initialize` handshake, and its tools ask their questions the same way in both.
//!
//! ```text
//! cargo run -p mcp-test --example conformance                          # stdio
//! cargo run -p mcp-test --example conformance -- --http 127.0.0.1:0    # HTTP, /mcp
//! cargo run -p mcp-test --example conformance -- --page-size 5         # lists in pages of 5
//! ```
//!
//! With `--http`, the bound address is printed to stderr as `listening on 127.0.0.1:PORT`
//! (port 0 picks a free one).

use mcp_test::prompts::{Prompt, PromptArgument, PromptMessage};
use mcp_test::resources::{Resource, ResourceTemplate};
use mcp_test::rounds::{AskError, Capability, Elicitation, SamplingMessage, SamplingRequest};
use mcp_test::transport::{http, stdio};
use mcp_test::wire::{LoggingLevel, ResourceContents};
use mcp_test::{CallToolResult, Content, Context, Server, ServerBuilder, Tool, ToolError};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
    0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 248, 207, 192, 0, 0, 3, 1,
    1, 0, 201, 254, 146, 239, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// A minimal WAV file: 8 samples of 8-bit mono silence at 8 kHz.
fn silent_wav() -> Vec<u8> {
    let samples = [0x80_u8; 8];
    let mut wav = Vec::new();
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + samples.len() as u32).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16_u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1_u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1_u16.to_le_bytes()); // mono
    wav.extend_from_slice(&8000_u32.to_le_bytes()); // sample rate
    wav.extend_from_slice(&8000_u32.to_le_bytes()); // byte rate
    wav.extend_from_slice(&1_u16.to_le_bytes()); // block align
    wav.extend_from_slice(&8_u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    wav.extend_from_slice(&samples);
    wav
}

fn form(property: &str, kind: &str) -> Value {
    json!({"type": "object", "properties": {property: {"type": kind}}, "required": [property]})
}

// ---------------------------------------------------------------------------------------------
// Content tools
// ---------------------------------------------------------------------------------------------

/// Returns a simple text response.
#[derive(Tool)]
#[tool(name = "test_simple_text")]
struct SimpleText {}

impl SimpleText {
    async fn run(self, _ctx: &Context) -> Result<&'static str, ToolError> {
        Ok("This is a simple text response for testing.")
    }
}

/// Returns a 1x1 red PNG image.
#[derive(Tool)]
#[tool(name = "test_image_content")]
struct ImageContent {}

impl ImageContent {
    async fn run(self, _ctx: &Context) -> Result<Content, ToolError> {
        Ok(Content::image_bytes(RED_PIXEL_PNG, "image/png"))
    }
}

/// Returns a short WAV audio clip.
#[derive(Tool)]
#[tool(name = "test_audio_content")]
struct AudioContent {}

impl AudioContent {
    async fn run(self, _ctx: &Context) -> Result<Content, ToolError> {
        Ok(Content::audio_bytes(&silent_wav(), "audio/wav"))
    }
}

/// Returns an embedded text resource.
#[derive(Tool)]
#[tool(name = "test_embedded_resource")]
struct EmbeddedResource {}

impl EmbeddedResource {
    async fn run(self, _ctx: &Context) -> Result<Content, ToolError> {
        Ok(Content::embedded(ResourceContents::text(
            "test://embedded-resource",
            Some("text/plain"),
            "This is an embedded resource content.",
        )))
    }
}

/// Returns text, an image and an embedded resource.
#[derive(Tool)]
#[tool(name = "test_multiple_content_types")]
struct MultipleContentTypes {}

impl MultipleContentTypes {
    async fn run(self, _ctx: &Context) -> Result<Vec<Content>, ToolError> {
        Ok(vec![
            Content::text("Multiple content types test:"),
            Content::image_bytes(RED_PIXEL_PNG, "image/png"),
            Content::embedded(ResourceContents::text(
                "test://mixed-content-resource",
                Some("application/json"),
                r#"{"test":"data","value":123}"#,
            )),
        ])
    }
}

/// Always fails with a tool error.
#[derive(Tool)]
#[tool(name = "test_error_handling")]
struct ErrorHandling {}

impl ErrorHandling {
    async fn run(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Err(ToolError::new(
            "This tool intentionally returns an error for testing",
        ))
    }
}

/// Reports progress 0, 50 and 100 of 100, about 50 ms apart.
#[derive(Tool)]
#[tool(name = "test_tool_with_progress")]
struct ToolWithProgress {}

impl ToolWithProgress {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.progress(0.0, Some(100.0), None);
        tokio::time::sleep(Duration::from_millis(50)).await;
        ctx.progress(50.0, Some(100.0), None);
        tokio::time::sleep(Duration::from_millis(50)).await;
        ctx.progress(100.0, Some(100.0), None);
        Ok("Progress tool completed: 100/100")
    }
}

/// Echoes a value mirrored in the `Mcp-Param-Region` header.
#[derive(Tool)]
#[tool(name = "test_custom_headers")]
struct CustomHeaders {
    /// A region, mirrored as the `Mcp-Param-Region` header.
    #[tool(header = "Region")]
    region: String,
}

impl CustomHeaders {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("region: {}", self.region))
    }
}

/// A tool whose input schema uses JSON Schema 2020-12 keywords (`$defs` with `$anchor`,
/// `allOf`/`anyOf`, `if`/`then`/`else`); written by hand so the schema is published exactly.
struct JsonSchema202012 {
    arguments: Value,
}

impl Tool for JsonSchema202012 {
    const NAME: &'static str = "json_schema_2020_12_tool";

    fn description() -> Option<String> {
        Some("Tool with JSON Schema 2020-12 features".to_owned())
    }

    fn input_schema() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        })
    }

    fn parse(arguments: Value) -> Result<Self, ToolError> {
        Ok(JsonSchema202012 { arguments })
    }

    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(format!("ok: {}", self.arguments)))
    }
}

// ---------------------------------------------------------------------------------------------
// Capabilities and list changes
// ---------------------------------------------------------------------------------------------

/// Needs the client's `sampling` capability: without it the call fails with -32021.
#[derive(Tool)]
#[tool(name = "test_missing_capability")]
struct MissingCapability {}

impl MissingCapability {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.require(&[Capability::Sampling])?;
        Ok("The client declared sampling")
    }
}

/// Announces that the tool list changed (to every `subscriptions/listen` stream that asked).
#[derive(Tool)]
#[tool(name = "test_trigger_tool_change")]
struct TriggerToolChange {}

impl TriggerToolChange {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        if !ctx.notify_tools_list_changed() {
            return Err(ToolError::new("no server"));
        }
        Ok("Tool list change announced")
    }
}

/// Announces that the prompt list changed (to every `subscriptions/listen` stream that asked).
#[derive(Tool)]
#[tool(name = "test_trigger_prompt_change")]
struct TriggerPromptChange {}

impl TriggerPromptChange {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        if !ctx.notify_prompts_list_changed() {
            return Err(ToolError::new("no server"));
        }
        Ok("Prompt list change announced")
    }
}

/// Logs one message at `info`: sent only when the request's `_meta` sets a `logLevel`.
#[derive(Tool)]
#[tool(name = "test_logging_tool")]
struct LoggingTool {}

impl LoggingTool {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.log(
            LoggingLevel::Info,
            Some("conformance"),
            json!("test_logging_tool ran"),
        );
        Ok("Logging tool completed")
    }
}

/// Reports progress, then asks a question: its response stream holds notifications and the
/// `input_required` result, never a request.
#[derive(Tool)]
#[tool(name = "test_streaming_elicitation")]
struct StreamingElicitation {}

impl StreamingElicitation {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.progress(1.0, Some(2.0), Some("asking"));
        let answer = ctx
            .elicit("What is your name?", form("name", "string"))
            .key("user_name")
            .await?;
        ctx.progress(2.0, Some(2.0), Some("answered"));
        Ok(match answer.accepted() {
            Some(content) => format!("Hello, {}!", content["name"].as_str().unwrap_or("")),
            None => "The user did not give a name.".to_owned(),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The tools of the 2025-11-25 scenarios. Each asks as every tool does (`ctx.elicit`,
// `ctx.create_message`); a 2025-era session sends the question to the client as a request.
// ---------------------------------------------------------------------------------------------

/// Logs three messages at `info`, a little apart.
#[derive(Tool)]
#[tool(name = "test_tool_with_logging")]
struct ToolWithLogging {}

impl ToolWithLogging {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        let steps = [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ];
        for (i, step) in steps.into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            ctx.log(LoggingLevel::Info, Some("conformance"), json!(step));
        }
        Ok("Logging tool completed")
    }
}

/// Asks the client's model to answer `prompt`.
#[derive(Tool)]
#[tool(name = "test_sampling")]
struct Sampling {
    /// The prompt to send to the model.
    prompt: String,
}

impl Sampling {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let request = SamplingRequest::new(100).message(SamplingMessage::user(self.prompt));
        let sampled = ctx.create_message(request).await?;
        Ok(format!(
            "LLM response: {}",
            sampled.text().unwrap_or("(no text)")
        ))
    }
}

/// How an elicitation ended, for the 2025-era scenarios' texts.
fn elicited(answer: &Elicitation<serde_json::Map<String, Value>>) -> (&'static str, Value) {
    match answer {
        Elicitation::Accept(content) => ("accept", Value::Object(content.clone())),
        Elicitation::Decline => ("decline", json!({})),
        Elicitation::Cancel => ("cancel", json!({})),
    }
}

/// Asks the user for a username and an email address.
#[derive(Tool)]
#[tool(name = "test_elicitation")]
struct ElicitationTool {
    /// The message to show the user.
    message: String,
}

impl ElicitationTool {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let schema = json!({"type": "object", "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}},
            "required": ["username", "email"]});
        let answer = ctx.elicit(self.message, schema).await?;
        let (action, content) = elicited(&answer);
        Ok(format!("User response: action={action}, content={content}"))
    }
}

/// Asks with a default for every primitive type (SEP-1034).
#[derive(Tool)]
#[tool(name = "test_elicitation_sep1034_defaults")]
struct ElicitationDefaults {}

impl ElicitationDefaults {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"],
                       "default": "active"},
            "verified": {"type": "boolean", "default": true}}});
        let answer = ctx.elicit("Please review your profile", schema).await?;
        let (action, content) = elicited(&answer);
        Ok(format!(
            "Elicitation completed: action={action}, content={content}"
        ))
    }
}

/// Asks with all five enum forms (SEP-1330).
#[derive(Tool)]
#[tool(name = "test_elicitation_sep1330_enums")]
struct ElicitationEnums {}

impl ElicitationEnums {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let schema = json!({"type": "object", "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"}]},
            "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                           "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array",
                              "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": [
                {"const": "value1", "title": "First Choice"},
                {"const": "value2", "title": "Second Choice"},
                {"const": "value3", "title": "Third Choice"}]}}}});
        let answer = ctx.elicit("Please choose", schema).await?;
        let (action, content) = elicited(&answer);
        Ok(format!(
            "Elicitation completed: action={action}, content={content}"
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Multi-round (input_required) tools, SEP-2322
// ---------------------------------------------------------------------------------------------

/// Asks the user's name, then greets them.
#[derive(Tool)]
#[tool(name = "test_input_required_result_elicitation")]
struct InputElicitation {}

impl InputElicitation {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let answer = ctx
            .elicit("What is your name?", form("name", "string"))
            .key("user_name")
            .await?;
        Ok(match answer.accepted() {
            Some(content) => format!("Hello, {}!", content["name"].as_str().unwrap_or("")),
            None => "The user did not give a name.".to_owned(),
        })
    }
}

/// Asks the client's model the capital of France.
#[derive(Tool)]
#[tool(name = "test_input_required_result_sampling")]
struct InputSampling {}

impl InputSampling {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let request = SamplingRequest::new(100)
            .message(SamplingMessage::user("What is the capital of France?"));
        let sampled = ctx.create_message(request).key("capital_question").await?;
        Ok(format!(
            "Sampling response: {}",
            sampled.text().unwrap_or("(no text)")
        ))
    }
}

/// Lists the client's roots.
#[derive(Tool)]
#[tool(name = "test_input_required_result_list_roots")]
struct InputListRoots {}

impl InputListRoots {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let roots = ctx.list_roots().key("client_roots").await?;
        let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
        Ok(format!(
            "Received {} roots: {}",
            uris.len(),
            uris.join(", ")
        ))
    }
}

/// Asks for a confirmation; the answer comes back with the signed `requestState`.
#[derive(Tool)]
#[tool(name = "test_input_required_result_request_state")]
struct InputRequestState {}

impl InputRequestState {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let answer = ctx
            .elicit("Please confirm", form("ok", "boolean"))
            .key("confirm")
            .await?;
        let ok = answer
            .accepted()
            .and_then(|c| c.get("ok").and_then(Value::as_bool));
        Ok(format!(
            "state-ok: requestState validated, confirmed = {}",
            ok.unwrap_or(false)
        ))
    }
}

/// Asks three things in one round: a name, a sampled greeting, and the roots.
#[derive(Tool)]
#[tool(name = "test_input_required_result_multiple_inputs")]
struct InputMultiple {}

impl InputMultiple {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let name = ctx
            .elicit("What is your name?", form("name", "string"))
            .key("user_name");
        let greeting = ctx
            .create_message(
                SamplingRequest::new(50).message(SamplingMessage::user("Generate a greeting")),
            )
            .key("greeting");
        let roots = ctx.list_roots().key("client_roots");
        let (name, greeting, roots) = tokio::join!(name, greeting, roots);
        let name = name?
            .accepted()
            .and_then(|c| c.get("name").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        Ok(format!(
            "name: {name}; greeting: {}; roots: {}",
            greeting?.text().unwrap_or(""),
            roots?.len()
        ))
    }
}

/// Two rounds of questions, each with its own `requestState`.
#[derive(Tool)]
#[tool(name = "test_input_required_result_multi_round")]
struct InputMultiRound {}

impl InputMultiRound {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let name = ctx
            .elicit("Step 1: What is your name?", form("name", "string"))
            .key("step1")
            .await?;
        let color = ctx
            .elicit(
                "Step 2: What is your favorite color?",
                form("color", "string"),
            )
            .key("step2")
            .await?;
        let field = |answer: mcp_test::rounds::Elicitation<serde_json::Map<String, Value>>,
                     key: &str| {
            answer
                .accepted()
                .and_then(|c| c.get(key).and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_default()
        };
        Ok(format!(
            "Completed both rounds: name = {}, color = {}",
            field(name, "name"),
            field(color, "color")
        ))
    }
}

/// One question under an HMAC-signed `requestState`: a tampered state is -32602.
#[derive(Tool)]
#[tool(name = "test_input_required_result_tampered_state")]
struct InputTamperedState {}

impl InputTamperedState {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.elicit("Please confirm", form("ok", "boolean"))
            .key("confirm")
            .await?;
        Ok("requestState verified")
    }
}

/// Asks only for what the client declared: elicitation, sampling and roots each when present.
#[derive(Tool)]
#[tool(name = "test_input_required_result_capabilities")]
struct InputCapabilities {}

impl InputCapabilities {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let name = ctx
            .elicit("What is your name?", form("name", "string"))
            .key("user_name");
        let sampled = ctx
            .create_message(
                SamplingRequest::new(50).message(SamplingMessage::user("Generate a greeting")),
            )
            .key("greeting");
        let roots = ctx.list_roots().key("client_roots");
        let (name, sampled, roots) = tokio::join!(name, sampled, roots);
        let mut used = Vec::new();
        if used_or_skipped(name.map(|_| ()))? {
            used.push("elicitation");
        }
        if used_or_skipped(sampled.map(|_| ()))? {
            used.push("sampling");
        }
        if used_or_skipped(roots.map(|_| ()))? {
            used.push("roots");
        }
        Ok(format!(
            "Used the declared capabilities: [{}]",
            used.join(", ")
        ))
    }
}

/// `true` when the question was answered, `false` when the client lacks its capability.
fn used_or_skipped(outcome: Result<(), AskError>) -> Result<bool, ToolError> {
    match outcome {
        Ok(()) => Ok(true),
        Err(e) if e.is_not_supported() => Ok(false),
        Err(e) => Err(e.into()),
    }
}

// ---------------------------------------------------------------------------------------------
// Tasks extension tools (io.modelcontextprotocol/tasks, SEP-2663)
// ---------------------------------------------------------------------------------------------

/// Greets by name; never a task.
#[derive(Tool)]
struct Greet {
    /// Who to greet.
    name: String,
}

impl Greet {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("Hello, {}!", self.name))
    }
}

/// Waits `seconds` seconds, then reports; with `seconds: 0` it answers at once. A task when
/// the client declares the extension; `tasks/cancel` stops it. (Called without the
/// extension it waits the whole time: `mcp-test check --tool slow_compute` reports its
/// longest cases as unanswered within a shorter `--timeout`.)
#[derive(Tool)]
#[tool(task = "optional")]
struct SlowCompute {
    /// How long to work, in seconds (the suite asks for 60 at most).
    #[tool(minimum = 0, maximum = 60, example = 1)]
    seconds: f64,
    /// A label echoed in the result.
    label: Option<String>,
}

impl SlowCompute {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        if self.seconds > 0.0 {
            tokio::time::sleep(Duration::from_secs_f64(self.seconds)).await;
        }
        Ok(format!(
            "Computed {} after {} s",
            self.label.as_deref().unwrap_or("result"),
            self.seconds
        ))
    }
}

/// Works briefly, then reports a tool execution error (`isError: true`); requires a task.
#[derive(Tool)]
#[tool(task = "required")]
struct FailingJob {}

impl FailingJob {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_millis(300)).await;
        Err(ToolError::new(
            "The job failed: the input could not be processed",
        ))
    }
}

/// Works briefly, then fails with a JSON-RPC internal error.
#[derive(Tool)]
#[tool(task = "optional")]
struct ProtocolErrorJob {}

impl ProtocolErrorJob {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_millis(100)).await;
        Err(ToolError::protocol(mcp_test::ErrorObject::internal(
            "Internal error: the job's backend is unavailable",
        )))
    }
}

/// Becomes a task, then asks the user to confirm deleting `filename`.
#[derive(Tool)]
#[tool(task = "optional")]
struct ConfirmDelete {
    /// The file to delete.
    filename: String,
}

impl ConfirmDelete {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.enter_task().await;
        let answer = ctx
            .elicit(
                format!("Delete {}?", self.filename),
                form("confirm", "boolean"),
            )
            .key("confirm")
            .await?;
        let confirmed = answer
            .accepted()
            .and_then(|c| c.get("confirm").and_then(Value::as_bool))
            == Some(true);
        Ok(if confirmed {
            format!("Deleted {}", self.filename)
        } else {
            format!("Kept {}", self.filename)
        })
    }
}

/// Becomes a task, then asks two questions at once.
#[derive(Tool)]
#[tool(task = "optional")]
struct MultiInput {}

impl MultiInput {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        ctx.enter_task().await;
        let name = ctx.elicit("Your name?", form("name", "string")).key("name");
        let confirm = ctx
            .elicit("Proceed?", form("confirm", "boolean"))
            .key("confirm");
        let (name, confirm) = tokio::join!(name, confirm);
        let name = name?.accepted().map(|c| c["name"].clone());
        let confirm = confirm?.accepted().map(|c| c["confirm"].clone());
        Ok(format!(
            "name: {}; confirmed: {}",
            name.unwrap_or(Value::Null),
            confirm.unwrap_or(Value::Null)
        ))
    }
}

/// Asks the user's name in a multi-round exchange, then becomes a task that greets them.
#[derive(Tool)]
#[tool(name = "test_tool_with_task", task = "required")]
struct ToolWithTask {}

impl ToolWithTask {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let answer = ctx
            .elicit("What is your name?", form("name", "string"))
            .key("user_name")
            .await?;
        ctx.enter_task().await;
        let name = answer
            .accepted()
            .and_then(|c| c.get("name").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| "stranger".to_owned());
        Ok(format!("Hello, {name}! (from a task)"))
    }
}

// ---------------------------------------------------------------------------------------------
// Resources and prompts
// ---------------------------------------------------------------------------------------------

fn template_data(id: &str) -> String {
    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}).to_string()
}

fn prompt_with_arguments(args: BTreeMap<String, String>) -> String {
    format!(
        "Prompt with arguments: arg1='{}', arg2='{}'",
        args.get("arg1").map_or("", String::as_str),
        args.get("arg2").map_or("", String::as_str)
    )
}

/// The fixture server. (`pub` so tests can include this file as a module and serve it in
/// process.)
pub fn conformance_server() -> Server {
    conformance_builder()
        .build()
        .expect("the conformance fixture server builds")
}

/// The fixture server's builder, for a test that changes a setting (such as the page size)
/// of the same server.
pub fn conformance_builder() -> ServerBuilder {
    Server::builder("mcp-test-conformance-fixture", env!("CARGO_PKG_VERSION"))
        // test_logging_tool logs: the capability is declared, as logging.mdx requires.
        .logging()
        .tool::<SimpleText>()
        .tool::<ImageContent>()
        .tool::<AudioContent>()
        .tool::<EmbeddedResource>()
        .tool::<MultipleContentTypes>()
        .tool::<ErrorHandling>()
        .tool::<ToolWithProgress>()
        .tool::<CustomHeaders>()
        .tool::<JsonSchema202012>()
        .tool::<MissingCapability>()
        .tool::<TriggerToolChange>()
        .tool::<TriggerPromptChange>()
        .tool::<LoggingTool>()
        .tool::<ToolWithLogging>()
        .tool::<Sampling>()
        .tool::<ElicitationTool>()
        .tool::<ElicitationDefaults>()
        .tool::<ElicitationEnums>()
        .tool::<StreamingElicitation>()
        .tool::<InputElicitation>()
        .tool::<InputSampling>()
        .tool::<InputListRoots>()
        .tool::<InputRequestState>()
        .tool::<InputMultiple>()
        .tool::<InputMultiRound>()
        .tool::<InputTamperedState>()
        .tool::<InputCapabilities>()
        .tool::<Greet>()
        .tool::<SlowCompute>()
        .tool::<FailingJob>()
        .tool::<ProtocolErrorJob>()
        .tool::<ConfirmDelete>()
        .tool::<MultiInput>()
        .tool::<ToolWithTask>()
        .resource(
            Resource::new("test://static-text", "static-text")
                .description("A static text resource")
                .mime_type("text/plain")
                .text("This is the content of the static text resource."),
        )
        .resource(
            Resource::new("test://static-binary", "static-binary")
                .description("A static binary resource (a 1x1 PNG)")
                .mime_type("image/png")
                .blob(RED_PIXEL_PNG),
        )
        .resource_template(
            ResourceTemplate::new("test://template/{id}/data", "template-data")
                .description("JSON data for an id")
                .mime_type("application/json")
                .read(|_ctx, vars: BTreeMap<String, String>| async move {
                    let id = vars.get("id").cloned().unwrap_or_default();
                    Ok(template_data(&id))
                }),
        )
        .prompt(
            Prompt::new("test_simple_prompt")
                .description("A simple prompt without arguments")
                .text("This is a simple prompt for testing."),
        )
        .prompt(
            Prompt::new("test_prompt_with_arguments")
                .description("A prompt with two required arguments")
                .argument(
                    PromptArgument::new("arg1")
                        .required()
                        .description("First test argument"),
                )
                .argument(
                    PromptArgument::new("arg2")
                        .required()
                        .description("Second test argument"),
                )
                .get(|_ctx, args: BTreeMap<String, String>| async move {
                    Ok(prompt_with_arguments(args))
                })
                .complete_from("arg1", ["paris", "park", "party"]),
        )
        .prompt(
            Prompt::new("test_prompt_with_embedded_resource")
                .description("A prompt embedding the resource it is given")
                .argument(
                    PromptArgument::new("resourceUri")
                        .required()
                        .description("URI of the resource to embed"),
                )
                .get(|_ctx, args: BTreeMap<String, String>| async move {
                    let uri = args.get("resourceUri").cloned().unwrap_or_default();
                    Ok(vec![
                        PromptMessage::user(Content::embedded(ResourceContents::text(
                            uri,
                            Some("text/plain"),
                            "Embedded resource content for testing.",
                        ))),
                        PromptMessage::user_text("Please process the embedded resource above."),
                    ])
                }),
        )
        .prompt(
            Prompt::new("test_prompt_with_image")
                .description("A prompt with an image")
                .get(|_ctx, ()| async move {
                    Ok(vec![
                        PromptMessage::user(Content::image_bytes(RED_PIXEL_PNG, "image/png")),
                        PromptMessage::user_text("Please analyze the image above."),
                    ])
                }),
        )
        .prompt(
            Prompt::new("test_input_required_result_prompt")
                .description("A prompt that asks the user for context first")
                .get(|ctx, ()| async move {
                    let answer = ctx
                        .elicit(
                            "What context should the prompt use?",
                            form("context", "string"),
                        )
                        .key("user_context")
                        .await?;
                    let context = answer
                        .accepted()
                        .and_then(|c| c.get("context").and_then(Value::as_str).map(str::to_owned))
                        .unwrap_or_default();
                    Ok(format!("Prompt built with context: {context}"))
                }),
        )
}

/// Serves stdio, or HTTP with `--http ADDR`; `--page-size N` (before or after) sets how many
/// items a page of a list holds (default 100), so a client can page through them. (`pub` so
/// the tests crate can build this file into a binary of its own.)
#[tokio::main]
pub async fn main() -> std::io::Result<()> {
    let mut builder = conformance_builder();
    let mut http_addr = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match (flag.as_str(), args.next()) {
            ("--http", Some(addr)) if http_addr.is_none() => http_addr = Some(addr),
            ("--page-size", Some(size)) => match size.parse() {
                Ok(size) if size > 0 => builder = builder.page_size(size),
                _ => usage(),
            },
            _ => usage(),
        }
    }
    let server = builder
        .build()
        .expect("the conformance fixture server builds");
    match http_addr {
        None => stdio::serve_stdio(server).await,
        Some(addr) => {
            let listener = tokio::net::TcpListener::bind(addr.as_str()).await?;
            eprintln!("listening on {}", listener.local_addr()?);
            http::serve(listener, server, http::HttpConfig::default()).await
        }
    }
}

fn usage() -> ! {
    eprintln!("usage: conformance [--http 127.0.0.1:PORT] [--page-size N]");
    std::process::exit(2)
}
