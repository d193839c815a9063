//! The JSON-RPC envelope: requests, notifications, responses and their ids, and the protocol
//! revision they carry.

use super::ErrorObject;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::fmt;

/// The protocol revision this crate speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";

/// Every protocol revision the runtime serves, newest first.
pub const SUPPORTED_VERSIONS: &[&str] = &[PROTOCOL_VERSION];

/// The JSON-RPC version string every message carries.
pub const JSONRPC_VERSION: &str = "2.0";

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

/// The revision of the legacy era: the last before 2026-07-28, negotiated by `initialize`.
pub const LEGACY_PROTOCOL_VERSION: &str = "2025-11-25";

impl Era {
    /// The revision string of the era.
    pub const fn revision(self) -> &'static str {
        match self {
            Era::Current => PROTOCOL_VERSION,
            Era::Legacy => LEGACY_PROTOCOL_VERSION,
        }
    }
}

/// The revision, and for the legacy era how it was reached.
impl fmt::Display for Era {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Era::Current => f.write_str(PROTOCOL_VERSION),
            Era::Legacy => write!(f, "{LEGACY_PROTOCOL_VERSION} (initialize handshake)"),
        }
    }
}
