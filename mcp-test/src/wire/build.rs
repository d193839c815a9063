//! Request builders: JSON-RPC bodies with the protocol fields filled in, and the HTTP headers
//! mirroring them.

use crate::headers::{self, HeaderParam};
use crate::wire::{PROTOCOL_VERSION, ToolDefinition, meta_keys};
use serde_json::{Map, Value, json};

/// The request id every builder uses.
///
/// ```
/// use mcp_test::testing::{build_request, REQUEST_ID};
/// assert_eq!(build_request("tools/list", serde_json::Value::Null)["id"], REQUEST_ID);
/// ```
pub const REQUEST_ID: i64 = 1;

/// The per-request protocol fields the builders put under `params._meta`: the protocol version
/// this crate speaks (`2026-07-28`) and empty client capabilities, i.e. a client declaring no
/// elicitation, sampling or roots, so a tool that needs one answers as it must without it.
///
/// ```
/// use mcp_test::testing::protocol_fields;
/// use serde_json::json;
/// assert_eq!(protocol_fields(), json!({
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {}
/// }));
/// ```
pub fn protocol_fields() -> Value {
    json!({
        meta_keys::PROTOCOL_VERSION: PROTOCOL_VERSION,
        meta_keys::CLIENT_CAPABILITIES: {},
    })
}

/// A complete JSON-RPC request body for `method`, with id `1` and [`protocol_fields`] under
/// `params._meta` beside the given params.
///
/// - `params` is an object (or `null` for none). A `_meta` object in it merges over
///   [`protocol_fields`] key by key: the keys it names win (an explicit `null` stays `null`)
///   and every other key keeps the builder's value, so a test that departs from the default
///   client states only the departure. A merge never removes a key.
/// - Anything else passes through as written, so a test can build a malformed body on purpose:
///   a `_meta` that is not an object replaces the fields whole, and `params` that are not an
///   object are sent as they are.
///
/// ```
/// use mcp_test::testing::{build_request, protocol_fields};
/// use serde_json::{json, Value};
///
/// assert_eq!(build_request("tools/list", Value::Null), json!({
///     "jsonrpc": "2.0", "id": 1, "method": "tools/list",
///     "params": {"_meta": protocol_fields()}
/// }));
///
/// // Declare a capability: only the departure is stated.
/// let meta = json!({"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}});
/// assert_eq!(build_request("tools/list", json!({"_meta": meta}))["params"]["_meta"], json!({
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
/// }));
///
/// // An explicit null stays null...
/// let meta = json!({"io.modelcontextprotocol/protocolVersion": null});
/// assert_eq!(build_request("tools/list", json!({"_meta": meta}))["params"]["_meta"], json!({
///     "io.modelcontextprotocol/protocolVersion": null,
///     "io.modelcontextprotocol/clientCapabilities": {}
/// }));
///
/// // ...and a `_meta` that is not an object replaces the fields whole.
/// assert_eq!(build_request("tools/list", json!({"_meta": "x"}))["params"]["_meta"], "x");
/// ```
pub fn build_request(method: &str, params: Value) -> Value {
    let params = match params {
        Value::Null => json!({ "_meta": protocol_fields() }),
        Value::Object(mut params) => {
            let meta = match params.remove("_meta") {
                None => protocol_fields(),
                Some(given) => merge_meta(protocol_fields(), given),
            };
            let mut out = Map::with_capacity(params.len() + 1);
            out.insert("_meta".to_owned(), meta);
            out.extend(params);
            Value::Object(out)
        }
        other => other,
    };
    json!({"jsonrpc": "2.0", "id": REQUEST_ID, "method": method, "params": params})
}

/// `message` without the 2026-07-28 `_meta` keys [`build_request`] writes (the revision, the
/// client's capabilities and info, the log level): in 2025-11-25 the handshake declared them,
/// and a server serving both eras may refuse them on a 2025-era connection. A 2025-era
/// test context and a target connected in that era send this.
pub(crate) fn without_2026_meta(message: &Value) -> Value {
    let mut message = message.clone();
    if let Some(params) = message.get_mut("params").and_then(Value::as_object_mut) {
        if let Some(meta) = params.get_mut("_meta").and_then(Value::as_object_mut) {
            for key in [
                meta_keys::PROTOCOL_VERSION,
                meta_keys::CLIENT_CAPABILITIES,
                meta_keys::CLIENT_INFO,
                meta_keys::LOG_LEVEL,
            ] {
                meta.remove(key);
            }
        }
        if params
            .get("_meta")
            .and_then(Value::as_object)
            .is_some_and(serde_json::Map::is_empty)
        {
            params.remove("_meta");
        }
    }
    message
}

/// `given` over `base`: an object merges key by key, anything else replaces `base` whole.
fn merge_meta(base: Value, given: Value) -> Value {
    match (base, given) {
        (Value::Object(mut base), Value::Object(given)) => {
            base.extend(given);
            Value::Object(base)
        }
        (_, given) => given,
    }
}

/// A complete `tools/call` request body: [`build_request`] for `tools/call` with `name` and
/// `arguments` (sent as written) as its params.
///
/// ```
/// use mcp_test::testing::{build_call_request, protocol_fields};
/// use serde_json::json;
/// let body = build_call_request("tasks", json!({"action": "get"}));
/// assert_eq!(body["method"], "tools/call");
/// assert_eq!(body["params"]["name"], "tasks");
/// assert_eq!(body["params"]["arguments"], json!({"action": "get"}));
/// assert_eq!(body["params"]["_meta"], protocol_fields());
/// ```
pub fn build_call_request(name: &str, arguments: Value) -> Value {
    build_request(
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
    )
}

/// A `tools/call` request body for an action-dispatched tool: the arguments are
/// `{"action": action, "data": data}`. An empty (`{}`) or absent (`null`) `data` is omitted
/// rather than sent.
///
/// ```
/// use mcp_test::testing::build_action_request;
/// use serde_json::{json, Value};
/// let body = build_action_request("tasks", "get", json!({"id": "7"}));
/// assert_eq!(body["params"]["arguments"], json!({"action": "get", "data": {"id": "7"}}));
///
/// let body = build_action_request("tasks", "list", Value::Null);
/// assert_eq!(body["params"]["arguments"], json!({"action": "list"}));
/// let body = build_action_request("tasks", "list", json!({}));
/// assert_eq!(body["params"]["arguments"], json!({"action": "list"}));
/// ```
pub fn build_action_request(tool: &str, action: &str, data: Value) -> Value {
    let mut arguments = json!({ "action": action });
    let empty = match &data {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        _ => false,
    };
    if !empty {
        arguments["data"] = data;
    }
    build_call_request(tool, arguments)
}

/// The headers `body` implies, as `(lowercase name, value)` pairs: what a Streamable HTTP
/// server compares against the body on every request (spec §5.2).
///
/// - `mcp-protocol-version` from `params._meta["io.modelcontextprotocol/protocolVersion"]`;
/// - `mcp-method` from `method`;
/// - `mcp-name` from `params.name` for `tools/call` and `prompts/get`, and from `params.uri` for
///   `resources/read`, encoded with [`headers::encode_value`].
///
/// Read off the body rather than written by hand, so a test states each fact once and the
/// headers cannot drift from the body. A header whose body field is absent or not a string (or
/// sits under `params` or `_meta` that are not objects) is omitted rather than sent: a test
/// driving the missing-header rejection wants exactly that. For the `mcp-param-*` headers of
/// `x-mcp-header` arguments, use [`mirrored_headers_for`].
///
/// ```
/// use mcp_test::testing::{build_action_request, mirrored_headers};
/// use serde_json::{json, Value};
///
/// assert_eq!(
///     mirrored_headers(&build_action_request("tasks", "get", Value::Null)),
///     [
///         ("mcp-protocol-version".to_owned(), "2026-07-28".to_owned()),
///         ("mcp-method".to_owned(), "tools/call".to_owned()),
///         ("mcp-name".to_owned(), "tasks".to_owned()),
///     ]
/// );
/// assert_eq!(
///     mirrored_headers(&json!({"method": "tools/list"})),
///     [("mcp-method".to_owned(), "tools/list".to_owned())]
/// );
/// ```
pub fn mirrored_headers(body: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let params = body.get("params").and_then(Value::as_object);
    let version = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object)
        .and_then(|m| m.get(meta_keys::PROTOCOL_VERSION))
        .and_then(Value::as_str);
    if let Some(version) = version {
        out.push((headers::PROTOCOL_VERSION.to_owned(), version.to_owned()));
    }
    let method = body.get("method").and_then(Value::as_str);
    if let Some(method) = method {
        out.push((headers::METHOD.to_owned(), method.to_owned()));
    }
    let name_field = match method {
        Some("tools/call" | "prompts/get") => Some("name"),
        Some("resources/read") => Some("uri"),
        Some("tasks/get" | "tasks/update" | "tasks/cancel") => Some("taskId"),
        _ => None,
    };
    let name = name_field
        .and_then(|field| params?.get(field))
        .and_then(Value::as_str);
    if let Some(name) = name {
        out.push((headers::NAME.to_owned(), headers::encode_value(name)));
    }
    out
}

/// [`mirrored_headers`] plus an `mcp-param-{name}` header for every `x-mcp-header` argument of
/// the called tool that the body carries (present and not `null`), found by name in `tools`
/// (for example [`Server::tool_definitions`](crate::Server::tool_definitions)).
///
/// ```
/// use mcp_test::testing::{build_call_request, mirrored_headers_for};
/// use mcp_test::wire::ToolDefinition;
/// use serde_json::json;
///
/// let tool: ToolDefinition = serde_json::from_value(json!({
///     "name": "deploy",
///     "inputSchema": {"type": "object", "properties": {
///         "region": {"type": "string", "x-mcp-header": "Region"},
///         "dry_run": {"type": "boolean", "x-mcp-header": "DryRun"}
///     }}
/// })).unwrap();
/// let body = build_call_request("deploy", json!({"region": "Zürich", "dry_run": null}));
/// let headers = mirrored_headers_for(&body, &[tool]);
/// assert_eq!(headers[3], ("mcp-param-region".to_owned(), "=?base64?WsO8cmljaA==?=".to_owned()));
/// assert_eq!(headers.len(), 4); // dry_run is null: no header
/// ```
pub fn mirrored_headers_for(body: &Value, tools: &[ToolDefinition]) -> Vec<(String, String)> {
    let mut out = mirrored_headers(body);
    if body.get("method").and_then(Value::as_str) != Some("tools/call") {
        return out;
    }
    let params = body.get("params");
    let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
    let Some(tool) = name.and_then(|name| tools.iter().find(|t| t.name == name)) else {
        return out;
    };
    let Some(arguments) = params.and_then(|p| p.get("arguments")) else {
        return out;
    };
    for param in headers::header_params(&tool.input_schema) {
        if let Some(value) = param_header(&param, arguments) {
            out.push((param.header_name(), value));
        }
    }
    out
}

fn param_header(param: &HeaderParam, arguments: &Value) -> Option<String> {
    headers::param_value(param.lookup(arguments)?)
}

/// Puts every header [`mirrored_headers`] derives from `body` onto `request`, replacing any
/// header of the same name.
///
/// Panics, naming the header, if a value cannot be an HTTP header value (a protocol version or
/// method holding control characters): build such a request by hand.
///
/// ```
/// use mcp_test::testing::{build_call_request, put_mirrored_headers};
/// use serde_json::json;
///
/// let body = build_call_request("tasks", json!({}));
/// let mut request = http::Request::post("/mcp").body(body.to_string()).unwrap();
/// put_mirrored_headers(&mut request, &body);
/// assert_eq!(request.headers()["mcp-method"], "tools/call");
/// assert_eq!(request.headers()["MCP-Protocol-Version"], "2026-07-28");
/// assert_eq!(request.headers()["mcp-name"], "tasks");
/// ```
#[track_caller]
pub fn put_mirrored_headers<B>(request: &mut http::Request<B>, body: &Value) {
    put(request, mirrored_headers(body));
}

/// [`put_mirrored_headers`] with the `mcp-param-*` headers of [`mirrored_headers_for`].
///
/// ```
/// use mcp_test::testing::{build_call_request, put_mirrored_headers_for};
/// use mcp_test::wire::ToolDefinition;
/// use serde_json::json;
///
/// let tool: ToolDefinition = serde_json::from_value(json!({"name": "deploy", "inputSchema":
///     {"type": "object", "properties": {"replicas": {"type": "integer", "x-mcp-header": "Replicas"}}}
/// })).unwrap();
/// let body = build_call_request("deploy", json!({"replicas": 3}));
/// let mut request = http::Request::post("/mcp").body(()).unwrap();
/// put_mirrored_headers_for(&mut request, &body, &[tool]);
/// assert_eq!(request.headers()["Mcp-Param-Replicas"], "3");
/// ```
#[track_caller]
pub fn put_mirrored_headers_for<B>(
    request: &mut http::Request<B>,
    body: &Value,
    tools: &[ToolDefinition],
) {
    put(request, mirrored_headers_for(body, tools));
}

#[track_caller]
fn put<B>(request: &mut http::Request<B>, pairs: Vec<(String, String)>) {
    for (name, value) in pairs {
        let header = http::HeaderName::from_bytes(name.as_bytes())
            .unwrap_or_else(|e| panic!("`{name}` is not a valid HTTP header name: {e}"));
        let value = http::HeaderValue::from_str(&value).unwrap_or_else(|e| {
            panic!(
                "the body's value for header `{name}`, {value:?}, is not a valid header value: {e}"
            )
        });
        request.headers_mut().insert(header, value);
    }
}

/// Not public API: the `id = ...` modifier of `mcp_request!`.
#[doc(hidden)]
pub fn __with_id(mut body: Value, id: Value) -> Value {
    body["id"] = id;
    body
}

/// Not public API: the `meta = {...}` modifier of `mcp_request!`, merging like
/// [`build_request`].
#[doc(hidden)]
pub fn __with_meta(mut body: Value, meta: Value) -> Value {
    if let Some(params) = body.get_mut("params").and_then(Value::as_object_mut) {
        let base = params.remove("_meta").unwrap_or_else(protocol_fields);
        params.insert("_meta".to_owned(), merge_meta(base, meta));
    }
    body
}
