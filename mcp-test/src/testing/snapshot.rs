//! Normalized responses for snapshots: the volatile fields redacted so a snapshot only changes
//! when behaviour does.

use super::response::{AsResponse, received};
use crate::wire::meta_keys;
use serde_json::Value;

/// A response with its volatile fields replaced by placeholders, for snapshot tests:
///
/// | field | placeholder |
/// |---|---|
/// | the JSON-RPC `id` | `"[id]"` |
/// | `result._meta["io.modelcontextprotocol/serverInfo"]` | `"[serverInfo]"` |
/// | `result.requestState` (opaque, usually signed) | `"[requestState]"` |
///
/// Everything else is kept as received. With the `insta` feature,
/// `assert_response_snapshot!` snapshots this.
///
/// ```
/// use mcp_test::testing::normalize;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 42, "result": {
///     "resultType": "input_required", "requestState": "c2lnbmVk",
///     "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "demo", "version": "1.2.3"}}}});
/// assert_eq!(normalize(&response), json!({"jsonrpc": "2.0", "id": "[id]", "result": {
///     "resultType": "input_required", "requestState": "[requestState]",
///     "_meta": {"io.modelcontextprotocol/serverInfo": "[serverInfo]"}}}));
/// ```
#[track_caller]
pub fn normalize(response: impl AsResponse) -> Value {
    let mut whole = received(&response);
    let is_rpc = ["jsonrpc", "result", "error"]
        .iter()
        .any(|key| whole.get(key).is_some());
    if !is_rpc {
        redact_result(&mut whole);
        return whole;
    }
    if let Some(id) = whole.get_mut("id") {
        *id = Value::from("[id]");
    }
    if let Some(result) = whole.get_mut("result") {
        redact_result(result);
    }
    whole
}

fn redact_result(result: &mut Value) {
    if let Value::Object(result) = result {
        if let Some(state) = result.get_mut("requestState") {
            *state = Value::from("[requestState]");
        }
        if let Some(Value::Object(meta)) = result.get_mut("_meta")
            && let Some(info) = meta.get_mut(meta_keys::SERVER_INFO)
        {
            *info = Value::from("[serverInfo]");
        }
    }
}

/// Snapshots a response with [`insta`](https://docs.rs/insta) after [`normalize`]: ids,
/// server info and request state are redacted. Takes an optional snapshot name first, like
/// `insta::assert_json_snapshot!`. Needs the `insta` feature.
///
/// An unnamed snapshot is named the way insta names one: after the function it is taken in,
/// `-2`, `-3`.. for the second and later in the same function. In an
/// [`#[mcp_test]`](macro@crate::mcp_test) test that is the test's own name, so every test of a
/// file gets its own snapshot files. The snapshot's `expression` header is the response
/// expression as written.
///
/// ```ignore
/// #[mcp_test(server = weather)]
/// async fn forecast_paris(mcp: TestContext) {
///     let response = mcp.call_tool("forecast", json!({"city": "Paris"})).await;
///     // snapshots/<test file>__forecast_paris.snap, expression: response
///     mcp_test::assert_response_snapshot!(response);
///     // snapshots/<test file>__paris_named.snap
///     mcp_test::assert_response_snapshot!("paris_named", response);
/// }
/// ```
#[cfg(feature = "insta")]
#[macro_export]
macro_rules! assert_response_snapshot {
    ($response:expr $(,)?) => {{
        let normalized_response = $crate::testing::normalize(&$response);
        // No name: insta names the snapshot after the enclosing function. The third argument
        // is what the snapshot's header shows as its expression.
        $crate::__private::insta::assert_json_snapshot!(
            ::core::option::Option::None::<&str>,
            normalized_response,
            ::core::stringify!($response)
        )
    }};
    ($name:expr, $response:expr $(,)?) => {{
        let normalized_response = $crate::testing::normalize(&$response);
        $crate::__private::insta::assert_json_snapshot!(
            $name,
            normalized_response,
            ::core::stringify!($response)
        )
    }};
}
