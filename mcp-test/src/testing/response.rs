//! Unwrappers: the value a test asserts on, pulled out of a response, or a panic that names the
//! branch that arrived and shows everything received.

use super::accepts::AsResponse;
use crate::wire::{self, ErrorObject};
use serde::Serialize;
use serde_json::Value;

/// JSON for a panic message: pretty, whole.
pub(crate) fn show(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

#[track_caller]
pub(crate) fn received(response: &(impl AsResponse + ?Sized)) -> Value {
    response.response_json().unwrap_or_else(|e| panic!("{e}"))
}

/// Which branch a response took.
pub(crate) enum Branch<'a> {
    /// A JSON-RPC error.
    RpcError(&'a Value),
    /// A result with `resultType: "input_required"`.
    InputRequired(&'a Value),
    /// A tool result with `isError: true`.
    ToolError(&'a Value),
    /// Any other result (`resultType` `complete` or absent).
    Complete(&'a Value),
    /// A result with an unknown `resultType`.
    Other(&'a Value, String),
    /// Not a response at all.
    Malformed(&'static str),
}

impl Branch<'_> {
    pub(crate) fn of(whole: &Value) -> Branch<'_> {
        let Some(object) = whole.as_object() else {
            return Branch::Malformed("not a JSON object");
        };
        let is_rpc = object.contains_key("jsonrpc")
            || object.contains_key("result")
            || object.contains_key("error");
        let result = if is_rpc {
            match (object.get("result"), object.get("error")) {
                (_, Some(error)) => return Branch::RpcError(error),
                (Some(result), None) => result,
                (None, None) => {
                    return Branch::Malformed("a JSON-RPC message with neither result nor error");
                }
            }
        } else {
            whole
        };
        match result.get("resultType") {
            None => {}
            Some(Value::String(kind)) if kind == "complete" => {}
            Some(Value::String(kind)) if kind == "input_required" => {
                return Branch::InputRequired(result);
            }
            Some(other) => return Branch::Other(result, other.to_string()),
        }
        if result.get("isError") == Some(&Value::Bool(true)) {
            Branch::ToolError(result)
        } else {
            Branch::Complete(result)
        }
    }

    /// "a JSON-RPC error -32602 (Unknown tool: x)" and so on.
    pub(crate) fn describe(&self) -> String {
        match self {
            Branch::RpcError(error) => format!(
                "a JSON-RPC error {} ({})",
                error
                    .get("code")
                    .map_or_else(|| "without a code".to_owned(), Value::to_string),
                error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("no message"),
            ),
            Branch::InputRequired(_) => "an input_required result".to_owned(),
            Branch::ToolError(_) => "a tool execution error (isError: true)".to_owned(),
            Branch::Complete(_) => "a successful result".to_owned(),
            Branch::Other(_, kind) => format!("a result with resultType {kind}"),
            Branch::Malformed(why) => format!("something that is not a response ({why})"),
        }
    }
}

#[track_caller]
fn wrong_branch(expected: &str, whole: &Value) -> ! {
    panic!(
        "expected {expected}, got {}\nreceived:\n{}",
        Branch::of(whole).describe(),
        show(whole)
    )
}

/// The result of a successful tool call, or a panic naming the branch that arrived.
#[track_caller]
pub(crate) fn success(whole: &Value) -> &Value {
    match Branch::of(whole) {
        Branch::Complete(result) => result,
        _ => wrong_branch("a successful tool result", whole),
    }
}

/// The result of a tool execution error, or a panic naming the branch that arrived.
#[track_caller]
pub(crate) fn failure(whole: &Value) -> &Value {
    match Branch::of(whole) {
        Branch::ToolError(result) => result,
        _ => wrong_branch("a tool execution error (isError: true)", whole),
    }
}

/// The `content` array of a result, or a panic showing the whole response.
#[track_caller]
fn content<'a>(result: &'a Value, whole: &Value) -> &'a Value {
    match result.get("content") {
        Some(content @ Value::Array(_)) => content,
        _ => panic!(
            "expected a tool result with a content array, got a result without one\nreceived:\n{}",
            show(whole)
        ),
    }
}

#[track_caller]
fn to_json<C: Serialize + ?Sized>(content: &C) -> Value {
    serde_json::to_value(content)
        .unwrap_or_else(|e| panic!("the content does not serialize to JSON: {e}"))
}

/// The single item of a one-item content array. Panics with the full content when there are
/// zero or several items, or when it is not an array: the failure names what actually arrived.
///
/// Takes anything that serializes to the content array: a [`Value`], `Vec<Content>`, `&[Content]`.
///
/// ```
/// use mcp_test::testing::unwrap_single;
/// use serde_json::json;
/// assert_eq!(unwrap_single(&json!([{"type": "image"}])), json!({"type": "image"}));
/// ```
///
/// ```should_panic
/// # use mcp_test::testing::unwrap_single;
/// # use serde_json::json;
/// // Panics: expected exactly one content item, got 2: [{"type": "text", ...}, ...]
/// unwrap_single(&json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]));
/// ```
#[track_caller]
pub fn unwrap_single<C: Serialize + ?Sized>(content: &C) -> Value {
    match to_json(content) {
        Value::Array(mut items) if items.len() == 1 => items.remove(0),
        Value::Array(items) => panic!(
            "expected exactly one content item, got {}:\n{}",
            items.len(),
            show(&Value::Array(items))
        ),
        other => panic!(
            "expected a content array with one item, got {}:\n{}",
            wire::json_type(&other),
            show(&other)
        ),
    }
}

/// The text of a single-item text content array, the shape most tool results have. Panics with
/// the full content when it is not exactly one text item.
///
/// ```
/// use mcp_test::testing::unwrap_text;
/// use mcp_test::Content;
/// use serde_json::json;
/// assert_eq!(unwrap_text(&json!([{"type": "text", "text": "done"}])), "done");
/// assert_eq!(unwrap_text(&vec![Content::text("done")]), "done");
/// ```
#[track_caller]
pub fn unwrap_text<C: Serialize + ?Sized>(content: &C) -> String {
    let item = unwrap_single(content);
    match (item.get("type").and_then(Value::as_str), item.get("text")) {
        (Some("text"), Some(Value::String(text))) => text.clone(),
        _ => panic!(
            "expected one text content item, got:\n{}",
            show(&to_json(content))
        ),
    }
}

/// The text of a single-item text content array, decoded as JSON: for tools that answer with
/// their JSON as text. Panics with the text when it is not JSON.
///
/// ```
/// use mcp_test::testing::unwrap_json;
/// use serde_json::json;
/// assert_eq!(unwrap_json(&json!([{"type": "text", "text": r#"{"id": 7}"#}])), json!({"id": 7}));
/// ```
#[track_caller]
pub fn unwrap_json<C: Serialize + ?Sized>(content: &C) -> Value {
    let text = unwrap_text(content);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("expected the text content to be JSON ({e}), got text:\n{text}"))
}

/// The text of a successful single-item tool result. Panics if the response is anything else
/// (a JSON-RPC error, `isError: true`, `input_required`, not one text item), naming the branch
/// it found and showing the whole response, so a test never asserts on error text as if it
/// were data.
///
/// ```
/// use mcp_test::testing::text_response;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
///     "content": [{"type": "text", "text": "5"}]}});
/// assert_eq!(text_response(&response), "5");
/// ```
///
/// ```should_panic
/// # use mcp_test::testing::text_response;
/// // Panics: expected a successful tool result, got a tool execution error (isError: true)
/// text_response(mcp_test::CallToolResult::error_text("no such city"));
/// ```
#[track_caller]
pub fn text_response(response: impl AsResponse) -> String {
    let whole = received(&response);
    let result = success(&whole);
    let content = content(result, &whole);
    single_text(content, &whole)
}

#[track_caller]
fn single_text(content: &Value, whole: &Value) -> String {
    match content.as_array().map(Vec::as_slice) {
        Some([item]) if item.get("type") == Some(&Value::from("text")) => {
            if let Some(text) = item.get("text").and_then(Value::as_str) {
                return text.to_owned();
            }
        }
        _ => {}
    }
    panic!(
        "expected one text content item, got {} item(s)\nreceived:\n{}",
        content.as_array().map_or(0, Vec::len),
        show(whole)
    )
}

/// Like [`text_response`], then decodes the text as JSON: for tools that answer with JSON
/// content (such as [`Json`](crate::Json) results).
///
/// ```
/// use mcp_test::testing::json_response;
/// use mcp_test::CallToolResult;
/// use serde_json::json;
/// let result = CallToolResult::structured(json!({"id": 7}));
/// assert_eq!(json_response(&result), json!({"id": 7}));
/// ```
#[track_caller]
pub fn json_response(response: impl AsResponse) -> Value {
    let whole = received(&response);
    let text = single_text(content(success(&whole), &whole), &whole);
    serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "expected the tool's text to be JSON ({e}), got text:\n{text}\nreceived:\n{}",
            show(&whole)
        )
    })
}

/// The text of a tool execution error (`isError: true`): the mirror of [`text_response`].
/// Panics on a successful result, or any other branch, naming it.
///
/// ```
/// use mcp_test::testing::error_text;
/// use mcp_test::CallToolResult;
/// assert_eq!(error_text(CallToolResult::error_text("no such city")), "no such city");
/// ```
///
/// ```should_panic
/// # use mcp_test::testing::error_text;
/// // Panics: expected a tool execution error (isError: true), got a successful result
/// error_text(mcp_test::CallToolResult::text("sunny"));
/// ```
#[track_caller]
pub fn error_text(response: impl AsResponse) -> String {
    let whole = received(&response);
    let content = content(failure(&whole), &whole);
    single_text(content, &whole)
}

#[track_caller]
fn media(response: &dyn AsResponse, kind: &str) -> Value {
    let whole = received(response);
    let content = content(success(&whole), &whole);
    match content.as_array().map(Vec::as_slice) {
        Some([item]) if item.get("type") == Some(&Value::from(kind)) => item.clone(),
        _ => panic!(
            "expected one {kind} content item, got {}\nreceived:\n{}",
            match content.as_array().map(Vec::as_slice) {
                Some([item]) => format!(
                    "one {} item",
                    item.get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("untyped")
                ),
                Some(items) => format!("{} items", items.len()),
                None => "no content array".to_owned(),
            },
            show(&whole)
        ),
    }
}

/// The single content item of a successful tool result, which must be an image: the item
/// (`data`, `mimeType`, ...) is the assertion target.
///
/// ```
/// use mcp_test::testing::image_response;
/// use mcp_test::{CallToolResult, Content};
/// let result = CallToolResult::success(vec![Content::image_bytes(&[0x89, 0x50], "image/png")]);
/// let image = image_response(&result);
/// assert_eq!(image["mimeType"], "image/png");
/// assert_eq!(image["data"], "iVA=");
/// ```
#[track_caller]
pub fn image_response(response: impl AsResponse) -> Value {
    media(&response, "image")
}

/// The single content item of a successful tool result, which must be audio.
///
/// ```
/// use mcp_test::testing::audio_response;
/// use mcp_test::{CallToolResult, Content};
/// let result = CallToolResult::success(vec![Content::audio_bytes(b"RIFF", "audio/wav")]);
/// assert_eq!(audio_response(&result)["mimeType"], "audio/wav");
/// ```
#[track_caller]
pub fn audio_response(response: impl AsResponse) -> Value {
    media(&response, "audio")
}

/// The result object of any successful JSON-RPC response (`tools/list`, `server/discover`,
/// ...), whatever its `resultType`. Panics on a JSON-RPC error, showing it.
///
/// ```
/// use mcp_test::testing::result;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": []}});
/// assert_eq!(result(&response)["tools"], json!([]));
/// ```
#[track_caller]
pub fn result(response: impl AsResponse) -> Value {
    let whole = received(&response);
    match Branch::of(&whole) {
        Branch::RpcError(_) | Branch::Malformed(_) => wrong_branch("a result", &whole),
        Branch::InputRequired(r)
        | Branch::ToolError(r)
        | Branch::Complete(r)
        | Branch::Other(r, _) => r.clone(),
    }
}

/// The error object of a JSON-RPC error response. Panics on any result, naming its branch.
///
/// ```
/// use mcp_test::testing::rpc_error;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 1,
///     "error": {"code": -32602, "message": "Unknown tool: nope"}});
/// let error = rpc_error(&response);
/// assert_eq!(error.code, -32602);
/// assert_eq!(error.message, "Unknown tool: nope");
/// ```
#[track_caller]
pub fn rpc_error(response: impl AsResponse) -> ErrorObject {
    let whole = received(&response);
    match Branch::of(&whole) {
        Branch::RpcError(error) => serde_json::from_value(error.clone()).unwrap_or_else(|e| {
            panic!(
                "expected a JSON-RPC error object {{code, message, data?}}, got a malformed one ({e})\nreceived:\n{}",
                show(&whole)
            )
        }),
        _ => wrong_branch("a JSON-RPC error", &whole),
    }
}

/// The result of an `input_required` response (spec §8): its `inputRequests` and
/// `requestState`. Panics on any other branch, naming it.
///
/// ```
/// use mcp_test::testing::input_required;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required",
///     "inputRequests": {"confirm": {"method": "elicitation/create", "params": {}}}}});
/// assert!(input_required(&response)["inputRequests"]["confirm"].is_object());
/// ```
#[track_caller]
pub fn input_required(response: impl AsResponse) -> Value {
    let whole = received(&response);
    match Branch::of(&whole) {
        Branch::InputRequired(result) => result.clone(),
        _ => wrong_branch("an input_required result", &whole),
    }
}
