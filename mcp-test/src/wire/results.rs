//! Result types: `tools/call` results, tool definitions and cache hints, the messages of
//! `prompts/get` and the `completion` object of `completion/complete`.

use super::{Content, Role};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `cacheScope` of a cacheable result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client may share the cached result.
    Public,
    /// The result is specific to the requester (for example filtered by authorization).
    Private,
}

/// The cache hints (`ttlMs`, `cacheScope`) every cacheable result carries.
///
/// ```
/// use mcp_test::wire::{CacheHint, CacheScope};
/// let hint = CacheHint::new(60_000, CacheScope::Public);
/// assert_eq!(serde_json::to_value(hint).unwrap(), serde_json::json!({"ttlMs": 60000, "cacheScope": "public"}));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheHint {
    /// How long the result may be cached, in milliseconds.
    pub ttl_ms: u64,
    /// Who may share the cached result.
    pub cache_scope: CacheScope,
}

impl CacheHint {
    /// A hint with a time-to-live in milliseconds and a scope.
    pub const fn new(ttl_ms: u64, cache_scope: CacheScope) -> Self {
        CacheHint {
            ttl_ms,
            cache_scope,
        }
    }
}

/// The result of `tools/call` with `resultType: "complete"`.
///
/// `resultType` and `_meta.serverInfo` are added by the server on the wire; they are not fields
/// here, and are ignored when decoding.
///
/// ```
/// use mcp_test::wire::{CallToolResult, Content};
/// let r = CallToolResult::error_text("no such city");
/// assert_eq!(
///     serde_json::to_value(&r).unwrap(),
///     serde_json::json!({"content": [{"type": "text", "text": "no such city"}], "isError": true}),
/// );
/// ```
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// The unstructured content blocks.
    pub content: Vec<Content>,
    /// Structured output: any JSON value, conforming to the tool's `outputSchema` if it has one.
    pub structured_content: Option<Value>,
    /// `true` for a tool execution error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

impl CallToolResult {
    /// A successful result with the given content.
    pub fn success(content: Vec<Content>) -> Self {
        CallToolResult {
            content,
            ..Default::default()
        }
    }

    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::success(vec![Content::text(text)])
    }

    /// A tool execution error (`isError: true`) with one text block.
    pub fn error_text(text: impl Into<String>) -> Self {
        CallToolResult {
            content: vec![Content::text(text)],
            is_error: true,
            ..Default::default()
        }
    }

    /// A successful result with `structuredContent` and its serialized JSON as a text block, as
    /// spec §7 recommends.
    pub fn structured(value: Value) -> Self {
        CallToolResult {
            content: vec![Content::text(value.to_string())],
            structured_content: Some(value),
            ..Default::default()
        }
    }
}

/// Behaviour hints of a tool. All are untrusted hints.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Display title.
    pub title: Option<String>,
    /// The tool does not modify its environment.
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    pub destructive_hint: Option<bool>,
    /// Calling the tool again with the same arguments has no further effect.
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    pub open_world_hint: Option<bool>,
}

/// A tool as `tools/list` publishes it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    /// Unique, case-sensitive name: 1–128 characters of `[A-Za-z0-9_.-]`.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// What the tool does, for the model.
    pub description: Option<String>,
    /// JSON Schema (2020-12) of the arguments; `"type": "object"` at the root.
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`, if the tool returns structured output.
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    pub annotations: Option<ToolAnnotations>,
    /// Icons.
    pub icons: Option<Vec<Value>>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

/// One message of a prompt: a role and any content block (text, image, audio, resource link,
/// embedded resource).
///
/// ```
/// use mcp_test::prompts::PromptMessage;
/// use mcp_test::wire::{Content, ResourceContents};
/// let m = PromptMessage::user(Content::embedded(
///     ResourceContents::text("test://doc", Some("text/plain"), "Embedded resource content for testing."),
/// ));
/// assert_eq!(serde_json::to_value(&m).unwrap()["content"]["resource"]["uri"], "test://doc");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A user message.
    pub fn user(content: Content) -> Self {
        PromptMessage {
            role: Role::User,
            content,
        }
    }

    /// An assistant message.
    pub fn assistant(content: Content) -> Self {
        PromptMessage {
            role: Role::Assistant,
            content,
        }
    }

    /// A user message with one text block.
    pub fn user_text(text: impl Into<String>) -> Self {
        PromptMessage::user(Content::text(text))
    }

    /// An assistant message with one text block.
    pub fn assistant_text(text: impl Into<String>) -> Self {
        PromptMessage::assistant(Content::text(text))
    }
}

/// The result of `prompts/get` with `resultType: "complete"` (which the server adds, with
/// `_meta.serverInfo`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GetPromptResult {
    /// A description of the prompt as instantiated.
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

/// The most values one completion may carry (spec §9).
pub const MAX_COMPLETION_VALUES: usize = 100;

/// The `completion` object of a `completion/complete` result: at most 100 values, plus how many
/// there are in all and whether more exist.
///
/// ```
/// use mcp_test::completion::Completion;
/// let c = Completion::new(["flask", "fastapi"]);
/// assert_eq!(serde_json::to_value(&c).unwrap(),
///            serde_json::json!({"values": ["flask", "fastapi"], "total": 2, "hasMore": false}));
///
/// // A source that knows there are more than it returned says so.
/// let c = Completion::new(["a"]).with_total(5000);
/// assert_eq!(c.has_more(), Some(true));
/// ```
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    values: Vec<String>,
    total: Option<u64>,
    has_more: Option<bool>,
}

impl Completion {
    /// All the values there are: the first 100 are kept, `total` is their number, `hasMore`
    /// says whether any were cut.
    pub fn new(values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut values: Vec<String> = values.into_iter().map(Into::into).collect();
        let total = values.len() as u64;
        values.truncate(MAX_COMPLETION_VALUES);
        Completion {
            has_more: Some(total > values.len() as u64),
            total: Some(total),
            values,
        }
    }

    /// No values.
    pub fn empty() -> Self {
        Completion::new(Vec::<String>::new())
    }

    /// Sets the total number of values there are (at least the number returned); `hasMore`
    /// follows.
    #[must_use]
    pub fn with_total(mut self, total: u64) -> Self {
        let total = total.max(self.values.len() as u64);
        self.total = Some(total);
        self.has_more = Some(total > self.values.len() as u64);
        self
    }

    /// The values, at most 100.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// The total number of values, if known.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// Whether more values exist than were returned, if known.
    pub fn has_more(&self) -> Option<bool> {
        self.has_more
    }
}
