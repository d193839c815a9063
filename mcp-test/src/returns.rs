//! What handlers may return: the conversions of a tool's ([`IntoToolResult`], with [`Json`]
//! for structured output), a prompt's ([`IntoPromptResult`]), a resource read's
//! ([`IntoContents`]) and a completion's ([`IntoCompletion`]) return value into the result the
//! server sends.
//!
//! Each trait names, in its compile error, the types it takes, so a handler that returns
//! something else is told what it may return instead. The traits are also re-exported where
//! their handlers are declared: the crate root (the tool's), [`prompts`](crate::prompts),
//! [`resources`](crate::resources) and [`completion`](crate::completion).

use crate::tool::error::ToolError;
use crate::wire::{
    CallToolResult, Completion, Content, GetPromptResult, PromptMessage, ResourceContents,
};
use serde_json::Value;

/// What a tool handler may return.
///
/// | return type | result |
/// |---|---|
/// | `String`, `&'static str` | one text block |
/// | [`Content`] / `Vec<Content>` | those blocks (text, image, audio, resource link, embedded resource) |
/// | [`Json<T>`] | `structuredContent` plus its JSON as text; publishes `T`'s `outputSchema` |
/// | `serde_json::Value` | the JSON as one text block (unstructured) |
/// | [`CallToolResult`] | as is |
/// | `()` | an empty content list |
/// | `Result<T, E>` with `E: Into<ToolError>` | `T`'s result, or `isError: true` |
///
/// ```
/// use mcp_test::{IntoToolResult, Json};
/// let r = Json(serde_json::json!({"t": 21})).into_tool_result().unwrap();
/// assert_eq!(r.structured_content, Some(serde_json::json!({"t": 21})));
/// assert_eq!(r.content[0].as_text(), Some(r#"{"t":21}"#));
/// ```
#[diagnostic::on_unimplemented(
    message = "a tool cannot return `{Self}`",
    label = "`{Self}` is not a tool result",
    note = "return text (`String`, `&'static str`), `Content` or `Vec<Content>`, structured output (`Json<T>` with `T: Serialize + JsonSchema`), a `serde_json::Value`, a `CallToolResult`, `()`, or a `Result` of one of these whose error converts into `ToolError`",
    note = "for a number or another value, return `Json(value)` (structured) or `value.to_string()` (text); for a future, `.await` it"
)]
pub trait IntoToolResult {
    /// Converts the handler's return value into a result.
    fn into_tool_result(self) -> Result<CallToolResult, ToolError>;

    /// The `outputSchema` this return type implies, if it is structured.
    fn output_schema() -> Option<Value> {
        None
    }
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(self)
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoToolResult for Content {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![self]))
    }
}

impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(self))
    }
}

impl IntoToolResult for Value {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self.to_string()))
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(Vec::new()))
    }
}

impl<T: IntoToolResult, E: Into<ToolError>> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        self.map_err(Into::into).and_then(T::into_tool_result)
    }

    fn output_schema() -> Option<Value> {
        T::output_schema()
    }
}

/// Structured tool output: answers with `structuredContent` and the serialized JSON as a text
/// block, and makes the tool publish `T`'s JSON Schema as its `outputSchema`.
///
/// # Key order
///
/// Every object in the output, at every depth, has its keys sorted, in `structuredContent` and
/// in the text alike: a struct's fields do not keep their declaration order. JSON objects are
/// unordered (RFC 8259), and one canonical spelling keeps snapshots and caches stable whatever
/// `serde_json` features other crates of the build turn on (with `preserve_order`, maps would
/// otherwise keep insertion order). Arrays keep their order. Published schemas sort their keys
/// the same way ([`schema::publish`](crate::schema::publish)).
///
/// ```
/// use mcp_test::{IntoToolResult, Json};
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Forecast {
///     city: String,
///     celsius: f64,
///     hourly: Vec<Hour>,
/// }
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Hour {
///     time: String,
///     rain: bool,
/// }
///
/// let forecast = Forecast {
///     city: "Paris".into(),
///     celsius: 21.5,
///     hourly: vec![Hour { time: "09:00".into(), rain: false }, Hour { time: "10:00".into(), rain: true }],
/// };
/// let result = Json(forecast).into_tool_result().unwrap();
/// assert_eq!(
///     result.content[0].as_text().unwrap(),
///     r#"{"celsius":21.5,"city":"Paris","hourly":[{"rain":false,"time":"09:00"},{"rain":true,"time":"10:00"}]}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

impl<T: serde::Serialize + schemars::JsonSchema> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        let mut value = serde_json::to_value(&self.0)
            .map_err(|e| ToolError::new(format!("could not serialize the tool's output: {e}")))?;
        // A no-op unless some crate of the build turned on serde_json's `preserve_order`.
        value.sort_all_objects();
        Ok(CallToolResult::structured(value))
    }

    fn output_schema() -> Option<Value> {
        Some(crate::schema::schema_for::<T>())
    }
}

/// What a prompt handler may return.
///
/// | return type | `messages` |
/// |---|---|
/// | `String`, `&'static str` | one user text message |
/// | [`PromptMessage`] / `Vec<PromptMessage>` | those messages |
/// | [`GetPromptResult`] | as is (with its `description`) |
#[diagnostic::on_unimplemented(
    message = "a prompt handler cannot return `{Self}`",
    label = "`{Self}` is not a prompt result",
    note = "return text (`String`, `&'static str`), a `PromptMessage`, a `Vec<PromptMessage>` or a `GetPromptResult`, as `Ok(..)` of a `Result<_, ToolError>`",
    note = "for a future (an `async fn` helper's result), `.await` it: `Ok(helper().await)`"
)]
pub trait IntoPromptResult {
    /// Converts the handler's return value.
    fn into_prompt_result(self) -> GetPromptResult;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> GetPromptResult {
        self
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> GetPromptResult {
        GetPromptResult {
            messages: self,
            ..GetPromptResult::default()
        }
    }
}

impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> GetPromptResult {
        vec![self].into_prompt_result()
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> GetPromptResult {
        PromptMessage::user_text(self).into_prompt_result()
    }
}

impl IntoPromptResult for &'static str {
    fn into_prompt_result(self) -> GetPromptResult {
        PromptMessage::user_text(self).into_prompt_result()
    }
}

/// What a read handler may return. The requested URI and the definition's MIME type fill in
/// what the value does not say.
///
/// | return type | `contents` |
/// |---|---|
/// | `String`, `&'static str` | one text entry |
/// | `Vec<u8>` | one blob entry (base64-encoded here) |
/// | [`ResourceContents`] / `Vec<ResourceContents>` | as is |
///
/// A handler that returns no contents at all is answered as *not found* (-32602 with
/// `data.uri`): the spec forbids an empty `contents` array.
///
/// ```
/// use mcp_test::resources::IntoContents;
/// use mcp_test::wire::ResourceContents;
/// let c = "hello".into_contents("test://a", Some("text/plain"));
/// assert_eq!(c, vec![ResourceContents::text("test://a", Some("text/plain"), "hello")]);
/// let b = vec![1_u8, 2].into_contents("test://b", None);
/// assert_eq!(serde_json::to_value(&b[0]).unwrap(), serde_json::json!({"uri": "test://b", "blob": "AQI="}));
/// ```
#[diagnostic::on_unimplemented(
    message = "a resource read handler cannot return `{Self}`",
    label = "`{Self}` is not resource contents",
    note = "return text (`String`, `&'static str`), bytes (`Vec<u8>`), a `ResourceContents` or a `Vec<ResourceContents>`, as `Ok(..)` of a `Result<_, ToolError>`; for JSON, return its text and set `.mime_type(\"application/json\")`",
    note = "for a future (an `async fn` helper's result), `.await` it: `Ok(helper().await)`"
)]
pub trait IntoContents {
    /// The contents of the resource at `uri`.
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents>;
}

impl IntoContents for String {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![ResourceContents::text(uri, mime_type, self)]
    }
}

impl IntoContents for &'static str {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![ResourceContents::text(uri, mime_type, self)]
    }
}

impl IntoContents for Vec<u8> {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![ResourceContents::blob(uri, mime_type, &self)]
    }
}

impl IntoContents for ResourceContents {
    fn into_contents(self, _uri: &str, _mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![self]
    }
}

impl IntoContents for Vec<ResourceContents> {
    fn into_contents(self, _uri: &str, _mime_type: Option<&str>) -> Vec<ResourceContents> {
        self
    }
}

/// What a completion handler may return: a [`Completion`], or the values themselves
/// (`Vec<String>`, `Vec<&str>`), which [`Completion::new`] caps at 100.
#[diagnostic::on_unimplemented(
    message = "a completion handler cannot return `{Self}`",
    label = "`{Self}` is not a completion",
    note = "return the values (`Vec<String>`, `Vec<&str>`) or a `Completion`, as `Ok(..)` of a `Result<_, ToolError>`",
    note = "for a future (an `async fn` helper's result), `.await` it: `Ok(helper().await)`"
)]
pub trait IntoCompletion {
    /// Converts the handler's return value.
    fn into_completion(self) -> Completion;
}

impl IntoCompletion for Completion {
    fn into_completion(self) -> Completion {
        self
    }
}

impl IntoCompletion for Vec<String> {
    fn into_completion(self) -> Completion {
        Completion::new(self)
    }
}

impl IntoCompletion for Vec<&str> {
    fn into_completion(self) -> Completion {
        Completion::new(self)
    }
}
