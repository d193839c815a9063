//! The MCP 2026-07-28 wire model: the JSON-RPC envelope, the per-request `_meta` fields, content
//! blocks, tool definitions and results.
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

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

pub mod build;

/// The protocol revision this crate speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";

/// Every protocol revision the runtime serves, newest first.
pub const SUPPORTED_VERSIONS: &[&str] = &[PROTOCOL_VERSION];

/// The JSON-RPC version string every message carries.
pub const JSONRPC_VERSION: &str = "2.0";

/// The reserved `_meta` keys of MCP 2026-07-28.
pub mod meta_keys {
    /// `params._meta` key of the request's protocol revision (required on every request).
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// `params._meta` key of the request's client capabilities (required on every request).
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// `params._meta` key of the client's [`Implementation`](super::Implementation) (optional).
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// `params._meta` key of the requested log level (optional, deprecated).
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// `params._meta` key of the progress token (optional).
    pub const PROGRESS_TOKEN: &str = "progressToken";
    /// `result._meta` key of the server's [`Implementation`](super::Implementation).
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// `_meta` key tagging every notification of a `subscriptions/listen` stream.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

    /// Whether `key` is one the protocol itself defines or reserves, i.e. not application metadata:
    /// any key whose prefix has `modelcontextprotocol` or `mcp` as its second label, the
    /// OpenTelemetry keys, and `progressToken`.
    ///
    /// ```
    /// use mcp_test::wire::meta_keys::is_reserved;
    /// assert!(is_reserved("io.modelcontextprotocol/protocolVersion"));
    /// assert!(is_reserved("dev.mcp/anything"));
    /// assert!(is_reserved("traceparent"));
    /// assert!(!is_reserved("com.example/tenant"));
    /// ```
    pub fn is_reserved(key: &str) -> bool {
        if matches!(
            key,
            "traceparent" | "tracestate" | "baggage" | PROGRESS_TOKEN
        ) {
            return true;
        }
        match key.split_once('/') {
            Some((prefix, _)) => matches!(
                prefix.split('.').nth(1),
                Some("modelcontextprotocol" | "mcp")
            ),
            None => false,
        }
    }
}

/// A JSON-RPC request id: a string or an integer, never `null`.
///
/// ```
/// use mcp_test::wire::RequestId;
/// assert_eq!(serde_json::from_str::<RequestId>("7").unwrap(), RequestId::Number(7));
/// assert_eq!(serde_json::from_str::<RequestId>("\"a\"").unwrap(), RequestId::from("a"));
/// assert!(serde_json::from_str::<RequestId>("null").is_err());
/// assert!(serde_json::from_str::<RequestId>("1.5").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl RequestId {
    /// Reads an id from a JSON value: an integer or a string, anything else is `None`.
    pub fn from_value(value: &Value) -> Option<RequestId> {
        match value {
            Value::String(s) => Some(RequestId::String(s.clone())),
            Value::Number(n) => n.as_i64().map(RequestId::Number),
            _ => None,
        }
    }

    /// The id as a JSON value.
    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Number(n) => Value::from(*n),
            RequestId::String(s) => Value::from(s.as_str()),
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        RequestId::Number(n)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        RequestId::String(s.to_owned())
    }
}

impl From<String> for RequestId {
    fn from(s: String) -> Self {
        RequestId::String(s)
    }
}

/// A JSON-RPC request: `{"jsonrpc":"2.0","id":..,"method":..,"params":..}`.
///
/// ```
/// use mcp_test::wire::Request;
/// let req = Request::new(1, "tools/list", serde_json::json!({"_meta": {}}));
/// let text = serde_json::to_string(&req).unwrap();
/// assert_eq!(text, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The request id the response echoes.
    pub id: RequestId,
    /// The method name, e.g. `tools/call`.
    pub method: String,
    /// The params object; every MCP request has one carrying `_meta`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

impl Request {
    /// Builds a request with the given id, method and params.
    pub fn new(id: impl Into<RequestId>, method: impl Into<String>, params: Value) -> Self {
        Request {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            method: method.into(),
            params: Some(params),
        }
    }
}

/// A JSON-RPC notification: a request without an id, which gets no response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notification {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The notification method, e.g. `notifications/progress`.
    pub method: String,
    /// The params object, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

impl Notification {
    /// Builds a notification.
    pub fn new(method: impl Into<String>, params: Value) -> Self {
        Notification {
            jsonrpc: JsonRpcVersion,
            method: method.into(),
            params: Some(params),
        }
    }
}

/// The literal `"2.0"`; (de)serializing anything else is an error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JsonRpcVersion;

impl Serialize for JsonRpcVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(JSONRPC_VERSION)
    }
}

impl<'de> Deserialize<'de> for JsonRpcVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s == JSONRPC_VERSION {
            Ok(JsonRpcVersion)
        } else {
            Err(serde::de::Error::custom(format!(
                "expected jsonrpc \"2.0\", got {s:?}"
            )))
        }
    }
}

/// A JSON-RPC response: a result or an error, echoing the request id.
///
/// ```
/// use mcp_test::wire::{Response, RequestId};
/// let resp: Response = serde_json::from_str(
///     r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: x"}}"#,
/// ).unwrap();
/// assert_eq!(resp.id(), Some(&RequestId::Number(3)));
/// assert_eq!(resp.error().unwrap().code, -32602);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// `{"jsonrpc":"2.0","id":..,"result":{..}}`
    Result {
        /// The echoed request id.
        id: RequestId,
        /// The result object; always carries `resultType`.
        result: Value,
    },
    /// `{"jsonrpc":"2.0","id":..,"error":{..}}`; the id is absent only when the request id
    /// could not be read.
    Error {
        /// The echoed request id, when it could be read.
        id: Option<RequestId>,
        /// The error object.
        error: ErrorObject,
    },
}

impl Response {
    /// The echoed request id.
    pub fn id(&self) -> Option<&RequestId> {
        match self {
            Response::Result { id, .. } => Some(id),
            Response::Error { id, .. } => id.as_ref(),
        }
    }

    /// The result object, if this is a result.
    pub fn result(&self) -> Option<&Value> {
        match self {
            Response::Result { result, .. } => Some(result),
            Response::Error { .. } => None,
        }
    }

    /// The error object, if this is an error.
    pub fn error(&self) -> Option<&ErrorObject> {
        match self {
            Response::Error { error, .. } => Some(error),
            Response::Result { .. } => None,
        }
    }

    /// The response as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("a response always serializes")
    }
}

#[derive(Serialize, Deserialize)]
struct RawResponse {
    jsonrpc: JsonRpcVersion,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<RequestId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<ErrorObject>,
}

/// [`RawResponse`] borrowing from a [`Response`], so serializing a response clones nothing.
#[derive(Serialize)]
struct RawResponseRef<'a> {
    jsonrpc: JsonRpcVersion,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RequestId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a ErrorObject>,
}

impl Serialize for Response {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let raw = match self {
            Response::Result { id, result } => RawResponseRef {
                jsonrpc: JsonRpcVersion,
                id: Some(id),
                result: Some(result),
                error: None,
            },
            Response::Error { id, error } => RawResponseRef {
                jsonrpc: JsonRpcVersion,
                id: id.as_ref(),
                result: None,
                error: Some(error),
            },
        };
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Response {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let raw = RawResponse::deserialize(d)?;
        match (raw.result, raw.error) {
            (Some(result), None) => Ok(Response::Result {
                id: raw
                    .id
                    .ok_or_else(|| D::Error::custom("a result response must carry an id"))?,
                result,
            }),
            (None, Some(error)) => Ok(Response::Error { id: raw.id, error }),
            _ => Err(D::Error::custom(
                "a response carries exactly one of `result` and `error`",
            )),
        }
    }
}

/// The standard error codes of MCP 2026-07-28 (spec §4).
pub mod error_codes {
    /// Invalid JSON.
    pub const PARSE_ERROR: i32 = -32700;
    /// Not exactly one request or notification object.
    pub const INVALID_REQUEST: i32 = -32600;
    /// Unknown, removed, or not-advertised method.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Missing envelope field, unknown tool, bad cursor, resource not found, ...
    pub const INVALID_PARAMS: i32 = -32602;
    /// A server fault.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// A mirrored HTTP header is missing, malformed, or does not match the body.
    pub const HEADER_MISMATCH: i32 = -32020;
    /// Handling needs a client capability the request did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;
    /// The request's protocol version is not served.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;
}

/// A JSON-RPC error object: `{code, message, data?}`.
///
/// The constructors build the exact shapes of spec §4.
///
/// ```
/// use mcp_test::wire::ErrorObject;
/// let e = ErrorObject::unsupported_protocol_version(&["2026-07-28"], "1900-01-01");
/// assert_eq!(
///     serde_json::to_value(&e).unwrap(),
///     serde_json::json!({"code": -32022, "message": "Unsupported protocol version",
///                        "data": {"supported": ["2026-07-28"], "requested": "1900-01-01"}}),
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// The error code, see [`error_codes`].
    pub code: i32,
    /// A short human-readable description.
    pub message: String,
    /// Structured detail, shaped per code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error with the given code and message and no data.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// Attaches `data`.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// -32700: the message is not valid JSON.
    pub fn parse_error(detail: impl fmt::Display) -> Self {
        Self::new(error_codes::PARSE_ERROR, format!("Parse error: {detail}"))
    }

    /// -32600: not exactly one valid request or notification object.
    pub fn invalid_request(detail: impl fmt::Display) -> Self {
        Self::new(
            error_codes::INVALID_REQUEST,
            format!("Invalid request: {detail}"),
        )
    }

    /// -32601: the method is unknown, removed, or its capability is not advertised.
    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            error_codes::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        )
    }

    /// -32602 with a message.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(error_codes::INVALID_PARAMS, message)
    }

    /// -32603 with a message.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(error_codes::INTERNAL_ERROR, message)
    }

    /// -32020: a mirrored header is missing, malformed or mismatched.
    pub fn header_mismatch(message: impl Into<String>) -> Self {
        Self::new(error_codes::HEADER_MISMATCH, message)
    }

    /// -32021 with `data.requiredCapabilities`, a `ClientCapabilities` object such as
    /// `{"elicitation":{}}`.
    pub fn missing_client_capability(message: impl Into<String>, required: Value) -> Self {
        Self::new(error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY, message)
            .with_data(serde_json::json!({ "requiredCapabilities": required }))
    }

    /// -32022 with `data.supported` and `data.requested`.
    pub fn unsupported_protocol_version(supported: &[&str], requested: &str) -> Self {
        Self::new(
            error_codes::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .with_data(serde_json::json!({ "supported": supported, "requested": requested }))
    }
}

impl fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)?;
        if let Some(data) = &self.data {
            write!(f, " (data: {data})")?;
        }
        Ok(())
    }
}

/// Name and version of an MCP implementation (`serverInfo`, `clientInfo`).
///
/// ```
/// use mcp_test::wire::Implementation;
/// let info = Implementation::new("weather", "1.0.0");
/// assert_eq!(serde_json::to_value(&info).unwrap(), serde_json::json!({"name":"weather","version":"1.0.0"}));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Implementation {
    /// Programmatic name.
    pub name: String,
    /// Version string.
    pub version: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Website of the implementation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
    /// Icons, as the spec's `Icon` objects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Value>>,
}

impl Implementation {
    /// An implementation with a name and a version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Implementation {
            name: name.into(),
            version: version.into(),
            title: None,
            description: None,
            website_url: None,
            icons: None,
        }
    }
}

/// The capabilities a client declares in each request's `_meta`.
///
/// Unknown members are kept in [`ClientCapabilities::other`] so nothing the client sent is lost.
///
/// ```
/// use mcp_test::wire::ClientCapabilities;
/// let caps: ClientCapabilities = serde_json::from_str(r#"{"elicitation":{}}"#).unwrap();
/// assert!(caps.elicitation_form());
/// assert!(!caps.elicitation_url());
/// assert!(!caps.sampling());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// `elicitation: {form?, url?}`; a bare `{}` means form mode only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<Map<String, Value>>,
    /// `sampling: {context?, tools?}` (deprecated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Map<String, Value>>,
    /// `roots: {}` (deprecated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<Map<String, Value>>,
    /// `extensions: {"vendor/name": {...}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
    /// `experimental: {...}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Map<String, Value>>,
    /// Any other member, kept as sent.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl ClientCapabilities {
    /// Whether form-mode elicitation is declared (`elicitation: {}` or `elicitation: {form: {}}`).
    pub fn elicitation_form(&self) -> bool {
        match &self.elicitation {
            None => false,
            Some(e) => e.contains_key("form") || !e.contains_key("url"),
        }
    }

    /// Whether URL-mode elicitation is declared (`elicitation: {url: {}}`).
    pub fn elicitation_url(&self) -> bool {
        self.elicitation
            .as_ref()
            .is_some_and(|e| e.contains_key("url"))
    }

    /// Whether `sampling` is declared.
    pub fn sampling(&self) -> bool {
        self.sampling.is_some()
    }

    /// Whether `roots` is declared.
    pub fn roots(&self) -> bool {
        self.roots.is_some()
    }
}

/// What a server advertises in `server/discover`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerCapabilities {
    /// Present when the server serves tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ListChangedCapability>,
    /// Present when the server serves prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<ListChangedCapability>,
    /// Present when the server serves resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// Present when the server answers `completion/complete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<Map<String, Value>>,
    /// Present when the server may send log notifications (deprecated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Map<String, Value>>,
    /// Extensions the server supports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
    /// Experimental, non-standard capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Map<String, Value>>,
}

/// `{listChanged?}`, the capability shape of tools and prompts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChangedCapability {
    /// Whether the server sends list-changed notifications to subscriptions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// `{subscribe?, listChanged?}`, the resources capability.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    /// Whether resource update subscriptions are supported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// Whether the server sends list-changed notifications to subscriptions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

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

/// The log levels of `notifications/message`, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Debug.
    Debug,
    /// Info.
    Info,
    /// Notice.
    Notice,
    /// Warning.
    Warning,
    /// Error.
    Error,
    /// Critical.
    Critical,
    /// Alert.
    Alert,
    /// Emergency.
    Emergency,
}

/// A progress token: a string or an integer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProgressToken {
    /// An integer token.
    Number(i64),
    /// A string token.
    String(String),
}

/// Who a content block is meant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Optional hints on a content block or resource.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Who the content is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (least) to 1 (most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 timestamp of the last modification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// `{"type":"text","text":..}`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Optional annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl TextContent {
    /// A text block.
    pub fn new(text: impl Into<String>) -> Self {
        TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        }
    }
}

/// `{"type":"image"|"audio","data":<base64>,"mimeType":..}`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaContent {
    /// Base64-encoded bytes.
    pub data: String,
    /// MIME type, e.g. `image/png`.
    pub mime_type: String,
    /// Optional annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl MediaContent {
    /// A media block from already base64-encoded data.
    pub fn new(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        MediaContent {
            data: data_base64.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        }
    }

    /// A media block from raw bytes, base64-encoding them.
    pub fn from_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        use base64::Engine as _;
        Self::new(
            base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type,
        )
    }
}

/// A resource as `resources/list` publishes it; as a content block it is a `resource_link`
/// (`{"type":"resource_link","uri":..,"name":..}`), which the spec defines as a `Resource`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource URI.
    pub uri: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Value>>,
    /// Optional annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A link to a resource: the `resource_link` content block's body, a [`Resource`].
pub type ResourceLink = Resource;

impl Resource {
    /// A resource (or link) with a URI and a name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: None,
            annotations: None,
            meta: None,
        }
    }
}

/// The contents of a resource: text or base64 blob.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// `{uri, mimeType?, text}`
    Text {
        /// The resource URI.
        uri: String,
        /// MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
        /// Optional `_meta`.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
    /// `{uri, mimeType?, blob}`
    Blob {
        /// The resource URI.
        uri: String,
        /// MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Base64-encoded bytes.
        blob: String,
        /// Optional `_meta`.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
}

impl ResourceContents {
    /// Text contents.
    pub fn text(uri: impl Into<String>, mime_type: Option<&str>, text: impl Into<String>) -> Self {
        ResourceContents::Text {
            uri: uri.into(),
            mime_type: mime_type.map(str::to_owned),
            text: text.into(),
            meta: None,
        }
    }

    /// Blob contents from raw bytes (base64-encoded here).
    pub fn blob(uri: impl Into<String>, mime_type: Option<&str>, bytes: &[u8]) -> Self {
        use base64::Engine as _;
        ResourceContents::Blob {
            uri: uri.into(),
            mime_type: mime_type.map(str::to_owned),
            blob: base64::engine::general_purpose::STANDARD.encode(bytes),
            meta: None,
        }
    }

    /// The URI of these contents.
    pub fn uri(&self) -> &str {
        match self {
            ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. } => uri,
        }
    }
}

/// A resource embedded in a content block: `{"type":"resource","resource":{..}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The embedded contents.
    pub resource: ResourceContents,
    /// Optional annotations (on the block, as the schema places them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// One of the five content block kinds.
///
/// ```
/// use mcp_test::wire::Content;
/// let img = Content::image_bytes(&[0x89, 0x50], "image/png");
/// assert_eq!(
///     serde_json::to_value(&img).unwrap(),
///     serde_json::json!({"type": "image", "data": "iVA=", "mimeType": "image/png"}),
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// `type: text`
    Text(TextContent),
    /// `type: image`
    Image(MediaContent),
    /// `type: audio`
    Audio(MediaContent),
    /// `type: resource_link`
    ResourceLink(ResourceLink),
    /// `type: resource`
    Resource(EmbeddedResource),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(TextContent::new(text))
    }

    /// An image block from raw bytes.
    pub fn image_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image(MediaContent::from_bytes(bytes, mime_type))
    }

    /// An audio block from raw bytes.
    pub fn audio_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio(MediaContent::from_bytes(bytes, mime_type))
    }

    /// A resource link block.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Content::ResourceLink(ResourceLink::new(uri, name))
    }

    /// An embedded resource block.
    pub fn embedded(resource: ResourceContents) -> Self {
        Content::Resource(EmbeddedResource {
            resource,
            annotations: None,
            meta: None,
        })
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(t) => Some(&t.text),
            _ => None,
        }
    }

    /// The wire `type` tag of this block.
    pub fn kind(&self) -> &'static str {
        match self {
            Content::Text(_) => "text",
            Content::Image(_) => "image",
            Content::Audio(_) => "audio",
            Content::ResourceLink(_) => "resource_link",
            Content::Resource(_) => "resource",
        }
    }

    /// Sets the block's annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        let slot = match &mut self {
            Content::Text(c) => &mut c.annotations,
            Content::Image(c) | Content::Audio(c) => &mut c.annotations,
            Content::ResourceLink(c) => &mut c.annotations,
            Content::Resource(c) => &mut c.annotations,
        };
        *slot = Some(annotations);
        self
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// The unstructured content blocks.
    pub content: Vec<Content>,
    /// Structured output: any JSON value, conforming to the tool's `outputSchema` if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// `true` for a tool execution error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Optional `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling the tool again with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// A tool as `tools/list` publishes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    /// Unique, case-sensitive name: 1–128 characters of `[A-Za-z0-9_.-]`.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema (2020-12) of the arguments; `"type": "object"` at the root.
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`, if the tool returns structured output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Value>>,
    /// Optional `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// The `_meta` of a request, parsed and checked against spec §2.
///
/// Built by the server from each request; tools read it through
/// [`Context`](crate::Context).
#[derive(Clone, Debug, PartialEq)]
pub struct RequestMeta {
    /// `io.modelcontextprotocol/protocolVersion`
    pub protocol_version: String,
    /// `io.modelcontextprotocol/clientCapabilities`
    pub client_capabilities: ClientCapabilities,
    /// `io.modelcontextprotocol/clientInfo`, if sent.
    pub client_info: Option<Implementation>,
    /// `io.modelcontextprotocol/logLevel`, if sent.
    pub log_level: Option<LoggingLevel>,
    /// `progressToken`, if sent.
    pub progress_token: Option<ProgressToken>,
    /// The whole `_meta` object as sent, application keys included.
    pub raw: Map<String, Value>,
}

impl RequestMeta {
    /// The default `_meta` of a 2026-07-28 request: this version and empty client capabilities.
    pub fn new() -> Self {
        let mut raw = Map::new();
        raw.insert(
            meta_keys::PROTOCOL_VERSION.into(),
            Value::from(PROTOCOL_VERSION),
        );
        raw.insert(
            meta_keys::CLIENT_CAPABILITIES.into(),
            Value::Object(Map::new()),
        );
        RequestMeta {
            protocol_version: PROTOCOL_VERSION.to_owned(),
            client_capabilities: ClientCapabilities::default(),
            client_info: None,
            log_level: None,
            progress_token: None,
            raw,
        }
    }

    /// Parses `params._meta` per spec §2 and §3, in this order: the protocol version must be
    /// present and a string (-32602), served (-32022), then the client capabilities must be an
    /// object (-32602), and the optional fields well-typed (-32602).
    ///
    /// ```
    /// use mcp_test::wire::RequestMeta;
    /// let meta = serde_json::json!({
    ///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///     "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
    /// });
    /// let parsed = RequestMeta::parse(Some(&meta)).unwrap();
    /// assert!(parsed.client_capabilities.sampling());
    ///
    /// let err = RequestMeta::parse(None).unwrap_err();
    /// assert_eq!(err.code, -32602);
    /// ```
    pub fn parse(meta: Option<&Value>) -> Result<RequestMeta, ErrorObject> {
        let raw = match meta {
            None => {
                return Err(ErrorObject::invalid_params(
                    "Invalid params: missing params._meta (every 2026-07-28 request carries the protocol fields in params._meta)",
                ));
            }
            Some(Value::Object(m)) => m,
            Some(other) => {
                return Err(ErrorObject::invalid_params(format!(
                    "Invalid params: params._meta must be an object, got {}",
                    json_type(other)
                )));
            }
        };
        let version = match raw.get(meta_keys::PROTOCOL_VERSION) {
            None => {
                return Err(ErrorObject::invalid_params(format!(
                    "Invalid params: missing params._meta[\"{}\"]",
                    meta_keys::PROTOCOL_VERSION
                )));
            }
            Some(Value::String(v)) => v.clone(),
            Some(other) => {
                return Err(ErrorObject::invalid_params(format!(
                    "Invalid params: params._meta[\"{}\"] must be a string, got {}",
                    meta_keys::PROTOCOL_VERSION,
                    json_type(other)
                )));
            }
        };
        if !SUPPORTED_VERSIONS.contains(&version.as_str()) {
            return Err(ErrorObject::unsupported_protocol_version(
                SUPPORTED_VERSIONS,
                &version,
            ));
        }
        let client_capabilities = match raw.get(meta_keys::CLIENT_CAPABILITIES) {
            None => {
                return Err(ErrorObject::invalid_params(format!(
                    "Invalid params: missing params._meta[\"{}\"] (send {{}} to declare no optional capabilities)",
                    meta_keys::CLIENT_CAPABILITIES
                )));
            }
            Some(v @ Value::Object(_)) => {
                field::<ClientCapabilities>(v, meta_keys::CLIENT_CAPABILITIES)?
            }
            Some(other) => {
                return Err(ErrorObject::invalid_params(format!(
                    "Invalid params: params._meta[\"{}\"] must be an object, got {}",
                    meta_keys::CLIENT_CAPABILITIES,
                    json_type(other)
                )));
            }
        };
        let client_info = raw
            .get(meta_keys::CLIENT_INFO)
            .map(|v| field::<Implementation>(v, meta_keys::CLIENT_INFO))
            .transpose()?;
        let log_level = raw
            .get(meta_keys::LOG_LEVEL)
            .map(|v| field::<LoggingLevel>(v, meta_keys::LOG_LEVEL))
            .transpose()?;
        let progress_token = raw
            .get(meta_keys::PROGRESS_TOKEN)
            .map(|v| match v {
                Value::String(_) | Value::Number(_) => field::<ProgressToken>(v, meta_keys::PROGRESS_TOKEN),
                other => Err(ErrorObject::invalid_params(format!(
                    "Invalid params: params._meta[\"progressToken\"] must be a string or an integer, got {}",
                    json_type(other)
                ))),
            })
            .transpose()?;
        Ok(RequestMeta {
            protocol_version: version,
            client_capabilities,
            client_info,
            log_level,
            progress_token,
            raw: raw.clone(),
        })
    }
}

impl Default for RequestMeta {
    fn default() -> Self {
        Self::new()
    }
}

fn field<T: serde::de::DeserializeOwned>(value: &Value, key: &str) -> Result<T, ErrorObject> {
    T::deserialize(value).map_err(|e| {
        ErrorObject::invalid_params(format!("Invalid params: params._meta[\"{key}\"]: {e}"))
    })
}

/// The JSON type name of a value, for error messages: `null`, `boolean`, `integer`, `number`,
/// `string`, `array` or `object`.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The protocol era a server speaks: the one type for it across the client, the cases and the
/// checker.
///
/// ```
/// use mcp_test::wire::Era;
/// assert_eq!(Era::Current.to_string(), "2026-07-28");
/// assert_eq!(Era::Legacy.to_string(), "2025-11-25 (initialize handshake)");
/// assert_eq!(Era::Legacy.revision(), "2025-11-25");
/// assert_eq!(serde_json::to_value(Era::Legacy).unwrap(), "2025-11-25");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Era {
    /// MCP 2026-07-28: per-request `_meta`, `server/discover`, `resultType`.
    #[serde(rename = "2026-07-28")]
    Current,
    /// A pre-2026 server, reached through the 2025-11-25 `initialize` handshake.
    #[serde(rename = "2025-11-25")]
    Legacy,
}

impl Era {
    /// The revision string of the era.
    pub fn revision(self) -> &'static str {
        match self {
            Era::Current => PROTOCOL_VERSION,
            Era::Legacy => "2025-11-25",
        }
    }
}

/// The revision, and for the legacy era how it was reached.
impl fmt::Display for Era {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Era::Current => f.write_str(PROTOCOL_VERSION),
            Era::Legacy => f.write_str("2025-11-25 (initialize handshake)"),
        }
    }
}
