//! The `assert_*` macros and what they call. Each panics naming the branch it found and showing
//! everything received; each returns what it checked, for further assertions.

use super::accepts::AsResponse;
use super::response::{
    error_text, input_required, json_response, received, rpc_error, show, text_response,
};
use crate::wire::ErrorObject;
use serde_json::Value;

/// Asserts that a response is a successful tool result whose single text item equals
/// `expected`. Takes anything [`AsResponse`](crate::testing::AsResponse) accepts.
///
/// ```
/// use mcp_test::{assert_tool_text, CallToolResult};
/// assert_tool_text!(CallToolResult::text("5"), "5");
/// ```
///
/// A JSON-RPC error, an `isError` result, or other text fails naming what arrived:
///
/// ```should_panic
/// use mcp_test::{assert_tool_text, CallToolResult};
/// // expected a successful tool result, got a tool execution error (isError: true)
/// assert_tool_text!(CallToolResult::error_text("no such city"), "sunny");
/// ```
#[macro_export]
macro_rules! assert_tool_text {
    ($response:expr, $expected:expr $(,)?) => {
        $crate::testing::__assert::tool_text(&$response, &$expected)
    };
}

/// Asserts that a response is a successful tool result whose single text item is JSON equal to
/// the given JSON literal (written as for `serde_json::json!`). Returns the decoded JSON.
///
/// ```
/// use mcp_test::{assert_tool_json, CallToolResult};
/// use serde_json::json;
/// let id = 7;
/// assert_tool_json!(CallToolResult::structured(json!({"id": 7, "done": true})), {"id": id, "done": true});
/// ```
#[macro_export]
macro_rules! assert_tool_json {
    ($response:expr, $($json:tt)+) => {
        $crate::testing::__assert::tool_json(&$response, &$crate::__private::serde_json::json!($($json)+))
    };
}

/// Asserts that a response is a tool execution error (`isError: true`), optionally whose text
/// contains a substring. Returns the error text.
///
/// ```
/// use mcp_test::{assert_tool_error, CallToolResult};
/// let text = assert_tool_error!(CallToolResult::error_text("no such city: Atlantis"), "no such city");
/// assert!(text.ends_with("Atlantis"));
/// assert_tool_error!(CallToolResult::error_text("anything"));
/// ```
#[macro_export]
macro_rules! assert_tool_error {
    ($response:expr $(,)?) => {
        $crate::testing::__assert::tool_error(&$response, ::core::option::Option::None)
    };
    ($response:expr, $contains:expr $(,)?) => {
        $crate::testing::__assert::tool_error(
            &$response,
            ::core::option::Option::Some(::core::convert::AsRef::<str>::as_ref(&$contains)),
        )
    };
}

/// Asserts that a response is a JSON-RPC error with the given code, optionally whose message
/// contains a substring. Returns the [`ErrorObject`](crate::ErrorObject).
///
/// ```
/// use mcp_test::assert_rpc_error;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 1,
///     "error": {"code": -32602, "message": "Unknown tool: nope"}});
/// assert_rpc_error!(response, -32602);
/// let error = assert_rpc_error!(response, -32602, "Unknown tool");
/// assert_eq!(error.data, None);
/// ```
#[macro_export]
macro_rules! assert_rpc_error {
    ($response:expr, $code:expr $(,)?) => {
        $crate::testing::__assert::rpc_error(&$response, $code, ::core::option::Option::None)
    };
    ($response:expr, $code:expr, $contains:expr $(,)?) => {
        $crate::testing::__assert::rpc_error(
            &$response,
            $code,
            ::core::option::Option::Some(::core::convert::AsRef::<str>::as_ref(&$contains)),
        )
    };
}

/// Asserts that a response is an `input_required` result (spec §8). With keys, asserts that
/// `inputRequests` holds exactly those keys. Returns the result object (`inputRequests`,
/// `requestState`).
///
/// ```
/// use mcp_test::assert_input_required;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required",
///     "inputRequests": {"confirm": {"method": "elicitation/create",
///                                   "params": {"message": "Delete it?"}}},
///     "requestState": "opaque"}});
/// assert_input_required!(response);
/// let result = assert_input_required!(response, "confirm");
/// assert_eq!(result["inputRequests"]["confirm"]["params"]["message"], "Delete it?");
/// ```
#[macro_export]
macro_rules! assert_input_required {
    ($response:expr $(,)?) => {
        $crate::testing::__assert::input_required(&$response, &[])
    };
    ($response:expr, $($key:expr),+ $(,)?) => {
        $crate::testing::__assert::input_required(&$response, &[$(::core::convert::AsRef::<str>::as_ref(&$key)),+])
    };
}

/// Not public API: what the `assert_*` macros call.
#[doc(hidden)]
pub mod __assert {
    use super::*;

    #[track_caller]
    pub fn tool_text<R: AsResponse + ?Sized, E: AsRef<str> + ?Sized>(response: &R, expected: &E) {
        let expected = expected.as_ref();
        let text = text_response(response);
        if text != expected {
            panic!(
                "assert_tool_text! failed: the tool's text differs\n expected: {expected:?}\n      got: {text:?}\nreceived:\n{}",
                show(&received(response))
            );
        }
    }

    #[track_caller]
    pub fn tool_json<R: AsResponse + ?Sized>(response: &R, expected: &Value) -> Value {
        let got = json_response(response);
        if &got != expected {
            panic!(
                "assert_tool_json! failed: the tool's JSON differs\n expected: {}\n      got: {}\nreceived:\n{}",
                expected,
                got,
                show(&received(response))
            );
        }
        got
    }

    #[track_caller]
    pub fn tool_error<R: AsResponse + ?Sized>(response: &R, contains: Option<&str>) -> String {
        let text = error_text(response);
        if let Some(contains) = contains
            && !text.contains(contains)
        {
            panic!(
                "assert_tool_error! failed: the error text does not contain {contains:?}\n text: {text:?}\nreceived:\n{}",
                show(&received(response))
            );
        }
        text
    }

    #[track_caller]
    pub fn rpc_error<R: AsResponse + ?Sized>(
        response: &R,
        code: i32,
        contains: Option<&str>,
    ) -> ErrorObject {
        let error = super::rpc_error(response);
        if error.code != code {
            panic!(
                "assert_rpc_error! failed: expected error code {code}, got {}\nreceived:\n{}",
                error.code,
                show(&received(response))
            );
        }
        if let Some(contains) = contains
            && !error.message.contains(contains)
        {
            panic!(
                "assert_rpc_error! failed: the error message does not contain {contains:?}\n message: {:?}\nreceived:\n{}",
                error.message,
                show(&received(response))
            );
        }
        error
    }

    #[track_caller]
    pub fn input_required<R: AsResponse + ?Sized>(response: &R, keys: &[&str]) -> Value {
        let result = super::input_required(response);
        if !keys.is_empty() {
            let mut got: Vec<&str> = result
                .get("inputRequests")
                .and_then(Value::as_object)
                .map(|m| m.keys().map(String::as_str).collect())
                .unwrap_or_default();
            got.sort_unstable();
            let mut want = keys.to_vec();
            want.sort_unstable();
            if got != want {
                panic!(
                    "assert_input_required! failed: expected inputRequests keys {want:?}, got {got:?}\nreceived:\n{}",
                    show(&received(response))
                );
            }
        }
        result
    }
}
