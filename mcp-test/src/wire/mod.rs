//! The MCP 2026-07-28 wire model: the JSON-RPC envelope, the per-request `_meta` fields, content
//! blocks, tool definitions and results, the rule a tool's name follows ([`tool_name`]), and the
//! questions a server asks the client mid-call (`inputRequests`) with the shapes of their answers.
//!
//! Types are typed where the spec fixes a shape and [`serde_json::Value`] where it says "any JSON".
//! Every type round-trips through `serde_json` to exactly the spec's field names
//! (`camelCase`, `_meta`, `type` tags).
//!
//! ```
//! use mcp_test::wire::{Content, TextContent};
//!
//! let block: Content = serde_json::from_str(r#"{"type":"text","text":"hi"}"#).unwrap();
//! assert_eq!(block, Content::text("hi"));
//! assert_eq!(serde_json::to_string(&block).unwrap(), r#"{"type":"text","text":"hi"}"#);
//! # let _ = TextContent::new("x");
//! ```

pub mod build;
mod content;
mod envelope;
mod errors;
pub(crate) mod input;
mod meta;
pub(crate) mod params;
mod results;
pub mod tool_name;

pub use content::{
    Annotations, Content, EmbeddedResource, MediaContent, Resource, ResourceContents, ResourceLink,
    ResourceTemplateDefinition, Role, TextContent,
};
pub use envelope::{
    Era, JSONRPC_VERSION, JsonRpcVersion, LEGACY_PROTOCOL_VERSION, Notification, PROTOCOL_VERSION,
    Request, RequestId, Response, SUPPORTED_VERSIONS,
};
pub use errors::{ErrorObject, error_codes, json_type};
pub use input::{
    Elicitation, InputRequest, InputRequests, Root, SampledMessage, SamplingMessage,
    SamplingRequest,
};
pub use meta::{
    ClientCapabilities, Implementation, ListChangedCapability, LoggingLevel, ProgressToken,
    RequestMeta, ResourcesCapability, ServerCapabilities, meta_keys,
};
pub use results::{
    CacheHint, CacheScope, CallToolResult, Completion, GetPromptResult, MAX_COMPLETION_VALUES,
    PromptMessage, ToolAnnotations, ToolDefinition,
};
