//! The mirrored HTTP headers of MCP 2026-07-28 (spec §5.2–5.3): the Base64 sentinel codec
//! `=?base64?…?=` that `Mcp-Name` and `Mcp-Param-*` values use, and the `x-mcp-header` walk over
//! a tool's input schema that says which arguments are mirrored as `Mcp-Param-{Name}`.
//!
//! ```
//! use mcp_test::headers::{decode_value, encode_value};
//!
//! assert_eq!(encode_value("tasks"), "tasks");
//! assert_eq!(encode_value("Zürich"), "=?base64?WsO8cmljaA==?=");
//! assert_eq!(decode_value("=?base64?WsO8cmljaA==?=").unwrap(), "Zürich");
//! ```

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;
use std::fmt;

/// Name of the header mirroring `params._meta["io.modelcontextprotocol/protocolVersion"]`, in
/// the lowercase form `http::HeaderName` uses (header names are case-insensitive).
///
/// ```
/// use mcp_test::headers::{METHOD, NAME, PROTOCOL_VERSION};
/// let body = mcp_test::mcp_request!(call "tasks");
/// let names: Vec<String> = mcp_test::testing::mirrored_headers(&body).into_iter().map(|(n, _)| n).collect();
/// assert_eq!(names, [PROTOCOL_VERSION, METHOD, NAME]);
/// ```
pub const PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// Name of the header mirroring the JSON-RPC `method`.
pub const METHOD: &str = "mcp-method";
/// Name of the header mirroring `params.name` (`tools/call`, `prompts/get`) or `params.uri`
/// (`resources/read`).
pub const NAME: &str = "mcp-name";
/// Prefix of the headers mirroring `x-mcp-header` arguments: `mcp-param-{name}`.
///
/// ```
/// use mcp_test::headers::{HeaderParam, PARAM_PREFIX};
/// let param = HeaderParam { name: "Region".into(), path: vec!["region".into()] };
/// assert!(param.header_name().starts_with(PARAM_PREFIX));
/// ```
pub const PARAM_PREFIX: &str = "mcp-param-";

const SENTINEL_START: &str = "=?base64?";
const SENTINEL_END: &str = "?=";

/// Whether `value` can be sent as a header value as it is: non-empty printable ASCII without
/// leading or trailing whitespace, and not already shaped like the sentinel.
fn is_plain(value: &str) -> bool {
    let looks_like_sentinel = value.starts_with(SENTINEL_START) && value.ends_with(SENTINEL_END);
    !value.is_empty()
        && value.bytes().all(|b| (0x20..0x7f).contains(&b))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && !looks_like_sentinel
}

/// Encodes a string for an `Mcp-Name` or `Mcp-Param-*` header (spec §5.3): printable ASCII goes
/// as is; anything else (non-ASCII, control characters, leading or trailing whitespace, the
/// empty string, or a value that already looks like the sentinel) is sent as
/// `=?base64?<base64 of the UTF-8 bytes>?=`.
///
/// ```
/// use mcp_test::headers::encode_value;
/// assert_eq!(encode_value("get_weather"), "get_weather");
/// assert_eq!(encode_value(" padded"), "=?base64?IHBhZGRlZA==?=");
/// assert_eq!(encode_value("=?base64?SGVsbG8=?="), "=?base64?PT9iYXNlNjQ/U0dWc2JHOD0/PQ==?=");
/// ```
pub fn encode_value(value: &str) -> String {
    if is_plain(value) {
        value.to_owned()
    } else {
        format!("{SENTINEL_START}{}{SENTINEL_END}", STANDARD.encode(value))
    }
}

/// Why a header value could not be decoded.
///
/// ```
/// use mcp_test::headers::{decode_value, HeaderValueError};
/// let err = decode_value("=?base64?SGVsbG8?=").unwrap_err();
/// assert!(matches!(err, HeaderValueError::InvalidBase64 { .. }));
/// assert!(err.to_string().contains("not valid padded Base64"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderValueError {
    /// The sentinel's payload is not canonical, padded standard Base64.
    InvalidBase64 {
        /// The payload between `=?base64?` and `?=`.
        payload: String,
        /// What the decoder reported.
        reason: String,
    },
    /// The sentinel's payload decodes to bytes that are not UTF-8.
    NotUtf8 {
        /// The payload between `=?base64?` and `?=`.
        payload: String,
    },
    /// A literal value holds a control character.
    ControlCharacter {
        /// The byte offset of the character.
        at: usize,
    },
}

impl fmt::Display for HeaderValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderValueError::InvalidBase64 { payload, reason } => write!(
                f,
                "the =?base64?...?= value {payload:?} is not valid padded Base64: {reason}"
            ),
            HeaderValueError::NotUtf8 { payload } => write!(
                f,
                "the =?base64?...?= value {payload:?} does not decode to UTF-8 text"
            ),
            HeaderValueError::ControlCharacter { at } => {
                write!(f, "the value holds a control character at byte {at}")
            }
        }
    }
}

impl std::error::Error for HeaderValueError {}

/// Decodes a received `Mcp-Name` or `Mcp-Param-*` value (spec §5.3), after trimming the
/// surrounding spaces and tabs HTTP allows.
///
/// A value of the exact form `=?base64?<payload>?=` (lowercase markers) must carry canonical,
/// padded standard Base64 of UTF-8 text; anything else is taken literally, and may not hold
/// control characters.
///
/// ```
/// use mcp_test::headers::decode_value;
/// assert_eq!(decode_value("=?base64?SGVsbG8=?=").unwrap(), "Hello");
/// assert_eq!(decode_value("  tasks\t").unwrap(), "tasks");
/// // Bad padding and bad characters are errors (the server answers 400 / -32020)...
/// assert!(decode_value("=?base64?SGVsbG8?=").is_err());
/// assert!(decode_value("=?base64?SGVs!!!bG8=?=").is_err());
/// // ...while near-misses of the sentinel are literal values.
/// assert_eq!(decode_value("SGVsbG8=").unwrap(), "SGVsbG8=");
/// assert_eq!(decode_value("=?base64?SGVsbG8=").unwrap(), "=?base64?SGVsbG8=");
/// assert_eq!(decode_value("=?BASE64?SGVsbG8=?=").unwrap(), "=?BASE64?SGVsbG8=?=");
/// ```
pub fn decode_value(value: &str) -> Result<String, HeaderValueError> {
    let value = value.trim_matches([' ', '\t']);
    if value.len() >= SENTINEL_START.len() + SENTINEL_END.len()
        && value.starts_with(SENTINEL_START)
        && value.ends_with(SENTINEL_END)
    {
        let payload = &value[SENTINEL_START.len()..value.len() - SENTINEL_END.len()];
        let bytes = STANDARD
            .decode(payload)
            .map_err(|e| HeaderValueError::InvalidBase64 {
                payload: payload.to_owned(),
                reason: e.to_string(),
            })?;
        return String::from_utf8(bytes).map_err(|_| HeaderValueError::NotUtf8 {
            payload: payload.to_owned(),
        });
    }
    if let Some(at) = value
        .char_indices()
        .find(|(_, c)| c.is_control() && *c != '\t')
        .map(|(i, _)| i)
    {
        return Err(HeaderValueError::ControlCharacter { at });
    }
    Ok(value.to_owned())
}

/// The header value an argument is mirrored as (spec §5.3): a string encoded with
/// [`encode_value`], an integer in decimal, a boolean as `true`/`false`. `None` for `null` and
/// for any other type, which has no header form.
///
/// ```
/// use mcp_test::headers::param_value;
/// use serde_json::json;
/// assert_eq!(param_value(&json!("eu-west")).as_deref(), Some("eu-west"));
/// assert_eq!(param_value(&json!(42)).as_deref(), Some("42"));
/// assert_eq!(param_value(&json!(false)).as_deref(), Some("false"));
/// assert_eq!(param_value(&json!(null)), None);
/// assert_eq!(param_value(&json!(1.5)), None);
/// ```
pub fn param_value(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(encode_value(s)),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

/// One argument a tool's input schema marks with `x-mcp-header`; see [`header_params`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderParam {
    /// The `{Name}` of `Mcp-Param-{Name}`, as the schema spells it.
    pub name: String,
    /// The property names leading from the arguments object to the argument.
    pub path: Vec<String>,
}

impl HeaderParam {
    /// The header name, lowercase: `mcp-param-{name}`.
    ///
    /// ```
    /// use mcp_test::headers::HeaderParam;
    /// let p = HeaderParam { name: "Region".into(), path: vec!["region".into()] };
    /// assert_eq!(p.header_name(), "mcp-param-region");
    /// ```
    pub fn header_name(&self) -> String {
        format!("{PARAM_PREFIX}{}", self.name.to_ascii_lowercase())
    }

    /// The argument's value in `arguments`, if every property on the path is present.
    ///
    /// ```
    /// use mcp_test::headers::HeaderParam;
    /// use serde_json::json;
    /// let p = HeaderParam { name: "Region".into(), path: vec!["target".into(), "region".into()] };
    /// assert_eq!(p.lookup(&json!({"target": {"region": "eu"}})), Some(&json!("eu")));
    /// assert_eq!(p.lookup(&json!({"target": "eu"})), None);
    /// ```
    pub fn lookup<'a>(&self, arguments: &'a Value) -> Option<&'a Value> {
        self.path
            .iter()
            .try_fold(arguments, |value, key| value.as_object()?.get(key))
    }
}

/// Every `x-mcp-header` argument of an input schema, in schema order.
///
/// Only properties reachable from the root through `properties` keys count (spec §5.3): an
/// annotation under `items`, `oneOf`, `anyOf`, `allOf`, `not`, `if`/`then`/`else` or `$ref` is
/// not a mirrored argument and is not returned. An annotation whose value is not a string is
/// skipped too.
///
/// ```
/// use mcp_test::headers::header_params;
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "region": {"type": "string", "x-mcp-header": "Region"},
///         "target": {"type": "object", "properties": {
///             "id": {"type": "integer", "x-mcp-header": "TargetId"}
///         }},
///         "tags": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}}
///     }
/// });
/// let params = header_params(&schema);
/// let found: Vec<_> = params.iter().map(|p| (p.name.as_str(), p.path.join("."))).collect();
/// assert_eq!(found, [("Region", "region".to_owned()), ("TargetId", "target.id".to_owned())]);
/// ```
pub fn header_params(input_schema: &Value) -> Vec<HeaderParam> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(input_schema, &mut path, &mut out);
    out
}

fn walk(schema: &Value, path: &mut Vec<String>, out: &mut Vec<HeaderParam>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, property) in properties {
        path.push(key.clone());
        if let Some(Value::String(name)) = property.get("x-mcp-header") {
            out.push(HeaderParam {
                name: name.clone(),
                path: path.clone(),
            });
        }
        walk(property, path, out);
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_every_kind_of_value() {
        for value in [
            "plain",
            "",
            " lead",
            "trail ",
            "tab\there",
            "line\nbreak",
            "naïve",
            "日本",
            "=?base64?SGVsbG8=?=",
            "=?base64??=",
        ] {
            let encoded = encode_value(value);
            assert!(
                encoded.bytes().all(|b| (0x20..0x7f).contains(&b)),
                "{encoded:?} is not a plain header value"
            );
            assert_eq!(decode_value(&encoded).unwrap(), value, "via {encoded:?}");
        }
    }

    #[test]
    fn rejects_bad_sentinels_naming_the_payload() {
        let err = decode_value("=?base64?SGVsbG8?=").unwrap_err();
        assert!(err.to_string().contains("\"SGVsbG8\""), "{err}");
        assert!(matches!(
            decode_value("=?base64?SGVs!!!bG8=?="),
            Err(HeaderValueError::InvalidBase64 { .. })
        ));
        assert_eq!(
            decode_value("=?base64?/w==?="),
            Err(HeaderValueError::NotUtf8 {
                payload: "/w==".into()
            })
        );
        assert_eq!(
            decode_value("a\u{1}b"),
            Err(HeaderValueError::ControlCharacter { at: 1 })
        );
    }

    #[test]
    fn the_walk_ignores_annotations_behind_combinators() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"oneOf": [{"x-mcp-header": "A"}]},
                "b": {"$ref": "#/$defs/b"},
                "c": {"x-mcp-header": 7},
                "d": {"allOf": [{"properties": {"e": {"x-mcp-header": "E"}}}]}
            },
            "$defs": {"b": {"x-mcp-header": "B"}}
        });
        assert!(header_params(&schema).is_empty());
    }
}
