//! The per-request `_meta` fields: the reserved keys, the parsed [`RequestMeta`], client and
//! server capabilities, implementation info, log levels and progress tokens.

use super::{ErrorObject, PROTOCOL_VERSION, SUPPORTED_VERSIONS, json_type};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
    /// mcp-test's own `params._meta` key on a request its runtime sends a 2025-era client for
    /// a tool's question (`elicitation/create`, `sampling/createMessage`, `roots/list`): the
    /// question's key, the one its 2026-07-28 `inputRequests` carries, so that a client's
    /// answers scripted by key answer it the same way in both eras. Application metadata (not
    /// [reserved](is_reserved)); other clients ignore it.
    pub const INPUT_KEY: &str = "io.github.mcp-test/inputKey";

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

/// Name and version of an MCP implementation (`serverInfo`, `clientInfo`).
///
/// ```
/// use mcp_test::wire::Implementation;
/// let info = Implementation::new("weather", "1.0.0");
/// assert_eq!(serde_json::to_value(&info).unwrap(), serde_json::json!({"name":"weather","version":"1.0.0"}));
/// ```
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Implementation {
    /// Programmatic name.
    pub name: String,
    /// Version string.
    pub version: String,
    /// Display name.
    pub title: Option<String>,
    /// Human-readable description.
    pub description: Option<String>,
    /// Website of the implementation.
    pub website_url: Option<String>,
    /// Icons, as the spec's `Icon` objects.
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
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// `elicitation: {form?, url?}`; a bare `{}` means form mode only.
    pub elicitation: Option<Map<String, Value>>,
    /// `sampling: {context?, tools?}` (deprecated).
    pub sampling: Option<Map<String, Value>>,
    /// `roots: {}` (deprecated).
    pub roots: Option<Map<String, Value>>,
    /// `extensions: {"vendor/name": {...}}`.
    pub extensions: Option<Map<String, Value>>,
    /// `experimental: {...}`.
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
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerCapabilities {
    /// Present when the server serves tools.
    pub tools: Option<ListChangedCapability>,
    /// Present when the server serves prompts.
    pub prompts: Option<ListChangedCapability>,
    /// Present when the server serves resources.
    pub resources: Option<ResourcesCapability>,
    /// Present when the server answers `completion/complete`.
    pub completions: Option<Map<String, Value>>,
    /// Present when the server may send log notifications (deprecated).
    pub logging: Option<Map<String, Value>>,
    /// Extensions the server supports.
    pub extensions: Option<Map<String, Value>>,
    /// Experimental, non-standard capabilities.
    pub experimental: Option<Map<String, Value>>,
}

/// `{listChanged?}`, the capability shape of tools and prompts.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChangedCapability {
    /// Whether the server sends list-changed notifications to subscriptions.
    pub list_changed: Option<bool>,
}

/// `{subscribe?, listChanged?}`, the resources capability.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    /// Whether resource update subscriptions are supported.
    pub subscribe: Option<bool>,
    /// Whether the server sends list-changed notifications to subscriptions.
    pub list_changed: Option<bool>,
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
