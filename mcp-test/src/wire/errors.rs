//! JSON-RPC error objects and the error codes of MCP 2026-07-28.

use crate::setters;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

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
    /// 2025-11-25: a resource was not found (resources/read, a SHOULD). 2026-07-28 answers
    /// [`INVALID_PARAMS`] instead, and its servers must not emit this code.
    pub const RESOURCE_NOT_FOUND: i32 = -32002;
    /// 2025-11-25: the request needs a URL-mode elicitation first. 2026-07-28 removed it, and
    /// its servers must not emit this code.
    pub const URL_ELICITATION_REQUIRED: i32 = -32042;
    /// The lowest code of JSON-RPC 2.0's implementation-defined server-error range.
    pub const SERVER_ERROR_LOWEST: i32 = -32099;
    /// The highest code of JSON-RPC 2.0's implementation-defined server-error range. MCP
    /// 2026-07-28 defines codes from [`HEADER_MISMATCH`] down, and new implementations should
    /// avoid the codes above them (the legacy sub-range).
    pub const SERVER_ERROR_HIGHEST: i32 = -32000;
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
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// The error code, see [`error_codes`].
    pub code: i32,
    /// A short human-readable description.
    pub message: String,
    /// Structured detail, shaped per code.
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

    setters! {
        /// Attaches `data`.
        with_data(data: Value) => data = Some(data);
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
