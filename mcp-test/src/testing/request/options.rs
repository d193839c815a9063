//! [`RequestOptions`]: who is asking and what every helper request carries, and the request
//! bodies built from them.

use crate::context::{Extensions, Identity};
use crate::server::Caller;
use crate::setters;
use crate::wire::{PROTOCOL_VERSION, RequestId, meta_keys};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::time::Duration;

/// How long the helpers wait for a reply unless [`RequestOptions::timeout`] says otherwise,
/// on every target: 30 s, the client's default (`client::DEFAULT_TIMEOUT`).
///
/// ```
/// assert_eq!(mcp_test::testing::DEFAULT_WAIT, std::time::Duration::from_secs(30));
/// ```
pub const DEFAULT_WAIT: Duration = Duration::from_secs(30);

/// The principal every helper request carries unless told otherwise.
///
/// ```
/// use mcp_test::testing::{RequestOptions, DEFAULT_PRINCIPAL};
/// assert_eq!(RequestOptions::new().identity().principal.as_deref(), Some(DEFAULT_PRINCIPAL));
/// ```
pub const DEFAULT_PRINCIPAL: &str = "test-principal";

/// The options of every request helper: who is asking (an already authenticated request) and
/// what the request carries beside its params.
///
/// | option | default | note |
/// |---|---|---|
/// | [`principal`](Self::principal) | `"test-principal"` | [`anonymous`](Self::anonymous) for none |
/// | [`tenant`](Self::tenant) | none | |
/// | [`scopes`](Self::scopes) | empty | |
/// | [`host_context`](Self::host_context) | empty | must serialize to a JSON object |
/// | [`assign`](Self::assign) | none | typed values handlers read with `Context::assign` |
/// | [`request_id`](Self::request_id) | `1` | |
/// | [`protocol_version`](Self::protocol_version) | `2026-07-28` | |
/// | [`client_capabilities`](Self::client_capabilities) | `{}` | |
/// | [`meta`](Self::meta) | none | application `_meta`; the protocol keys are rejected |
/// | [`request_state`](Self::request_state), [`input_responses`](Self::input_responses) | none | retry fields: `call_tool`, `read_resource`, `get_prompt`, `request` |
/// | [`cursor`](Self::cursor) | none | the list helpers |
/// | [`completion_context`](Self::completion_context) | none | `complete` |
/// | [`timeout`](Self::timeout) | [`DEFAULT_WAIT`](crate::testing::DEFAULT_WAIT) (30 s) | how long the test waits for a reply, on every target |
///
/// Identity options are never copied into the request body. Setup mistakes (values that are not
/// JSON, protocol keys in `meta`, retry fields on a pre-2026 version, an option the helper does
/// not take) panic with a message naming the option: they are bugs in the test, not answers to
/// assert on.
///
/// ```
/// use mcp_test::testing::RequestOptions;
/// use serde_json::json;
/// use std::time::Duration;
///
/// let opts = RequestOptions::new()
///     .principal("alice")
///     .tenant("acme")
///     .scopes(["items.read"])
///     .host_context(json!({"account_id": "acct-1"}))
///     .client_capabilities(json!({"elicitation": {}}))
///     .meta(json!({"com.example/trace": "t-1"}))
///     .request_id("req-7")
///     .timeout(Duration::from_secs(5));
/// assert_eq!(opts.identity().principal.as_deref(), Some("alice"));
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct RequestOptions {
    identity: Identity,
    assigns: Extensions,
    pub(in crate::testing) request_id: Option<RequestId>,
    protocol_version: String,
    client_capabilities: Value,
    meta: Map<String, Value>,
    request_state: Option<String>,
    input_responses: Option<Value>,
    cursor: Option<String>,
    completion_context: Option<Value>,
    timeout: Option<Duration>,
}

impl Default for RequestOptions {
    fn default() -> Self {
        RequestOptions {
            identity: Identity::principal(DEFAULT_PRINCIPAL),
            assigns: Extensions::new(),
            request_id: None,
            protocol_version: PROTOCOL_VERSION.to_owned(),
            client_capabilities: json!({}),
            meta: Map::new(),
            request_state: None,
            input_responses: None,
            cursor: None,
            completion_context: None,
            timeout: None,
        }
    }
}

#[track_caller]
fn to_json(option: &str, value: impl Serialize) -> Value {
    serde_json::to_value(value)
        .unwrap_or_else(|e| panic!("RequestOptions::{option}: the value is not JSON: {e}"))
}

#[track_caller]
fn to_object(option: &str, value: impl Serialize) -> Map<String, Value> {
    match to_json(option, value) {
        Value::Object(map) => map,
        other => panic!(
            "RequestOptions::{option}: expected a JSON object, got {}: {other}",
            crate::wire::json_type(&other)
        ),
    }
}

impl RequestOptions {
    /// The defaults: principal `"test-principal"`, no tenant or scopes, protocol `2026-07-28`,
    /// empty client capabilities, id `1`.
    ///
    /// ```
    /// use mcp_test::testing::RequestOptions;
    /// assert_eq!(RequestOptions::new().identity().principal.as_deref(), Some("test-principal"));
    /// ```
    pub fn new() -> Self {
        RequestOptions::default()
    }

    setters! {
        /// The authenticated principal.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// assert_eq!(RequestOptions::new().principal("bob").identity().principal.as_deref(), Some("bob"));
        /// ```
        principal(principal: impl Into<String>) => identity.principal = Some(principal.into());
    }

    /// No principal: an anonymous request.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// assert_eq!(RequestOptions::new().anonymous().identity().principal, None);
    /// ```
    pub fn anonymous(mut self) -> Self {
        self.identity.principal = None;
        self
    }

    setters! {
        /// The tenant the principal acts in.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// assert_eq!(RequestOptions::new().tenant("acme").identity().tenant.as_deref(), Some("acme"));
        /// ```
        tenant(tenant: impl Into<String>) => identity.tenant = Some(tenant.into());

        /// The granted scopes.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// assert!(RequestOptions::new().scopes(["a", "b"]).identity().has_scope("b"));
        /// ```
        scopes(scopes: impl IntoIterator<Item = impl Into<String>>)
            => identity.scopes = scopes.into_iter().map(Into::into).collect();

        /// What the host application knows about the caller; panics unless it serializes to a JSON
        /// object.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let opts = RequestOptions::new().host_context(serde_json::json!({"account_id": "a-1"}));
        /// assert_eq!(opts.identity().host_context["account_id"], "a-1");
        /// ```
        #[track_caller]
        host_context(host_context: impl Serialize)
            => identity.host_context = to_object("host_context", host_context);
    }

    /// A typed per-request value handlers read with
    /// [`Context::assign`](crate::Context::assign).
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// struct AccountId(u32);
    /// let _opts = RequestOptions::new().assign(AccountId(7));
    /// ```
    pub fn assign<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.assigns.insert(value);
        self
    }

    setters! {
        /// The JSON-RPC id (default `1`). A 2025-11-25 session sends an id it already used
        /// under a fresh one and gives the reply back under this one
        /// ([`TestContext::in_era`](crate::testing::TestContext::in_era)).
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let _opts = RequestOptions::new().request_id(42).request_id("call-1");
        /// ```
        request_id(id: impl Into<RequestId>) => request_id = Some(id.into());

        /// The protocol revision the request names (default `2026-07-28`).
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let _opts = RequestOptions::new().protocol_version("1900-01-01");
        /// ```
        protocol_version(version: impl Into<String>) => protocol_version = version.into();

        /// The client capabilities the request declares (default `{}`); panics unless it
        /// serializes to a JSON object.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let _opts = RequestOptions::new().client_capabilities(serde_json::json!({"elicitation": {}}));
        /// ```
        #[track_caller]
        client_capabilities(capabilities: impl Serialize)
            => client_capabilities = Value::Object(to_object("client_capabilities", capabilities));
    }

    /// Application metadata for `params._meta`, beside the protocol fields the helper
    /// generates. Panics if it names the protocol version or client capabilities keys: use
    /// [`protocol_version`](Self::protocol_version) and
    /// [`client_capabilities`](Self::client_capabilities).
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new().meta(serde_json::json!({"progressToken": 7}));
    /// ```
    ///
    /// ```should_panic
    /// # use mcp_test::testing::RequestOptions;
    /// // Panics: the protocol version is the `protocol_version` option.
    /// let _opts = RequestOptions::new()
    ///     .meta(serde_json::json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"}));
    /// ```
    #[track_caller]
    pub fn meta(mut self, meta: impl Serialize) -> Self {
        let meta = to_object("meta", meta);
        for (key, option) in [
            (meta_keys::PROTOCOL_VERSION, "protocol_version"),
            (meta_keys::CLIENT_CAPABILITIES, "client_capabilities"),
        ] {
            if meta.contains_key(key) {
                panic!(
                    "RequestOptions::meta: {key:?} is a protocol field the helper generates; set it with RequestOptions::{option}"
                );
            }
        }
        self.meta = meta;
        self
    }

    setters! {
        /// The `requestState` of a multi-round retry (spec §8), echoed as the server sent it.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let _opts = RequestOptions::new().request_state("opaque-state");
        /// ```
        request_state(state: impl Into<String>) => request_state = Some(state.into());

        /// The `inputResponses` of a multi-round retry: one client result per input request key.
        /// Panics unless it serializes to a JSON object.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let _opts = RequestOptions::new().input_responses(serde_json::json!({
        ///     "confirm": {"action": "accept", "content": {"ok": true}}
        /// }));
        /// ```
        #[track_caller]
        input_responses(responses: impl Serialize)
            => input_responses = Some(Value::Object(to_object("input_responses", responses)));

        /// The cursor of a list continuation (`nextCursor` of the previous page).
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let _opts = RequestOptions::new().cursor("next-page");
        /// ```
        cursor(cursor: impl Into<String>) => cursor = Some(cursor.into());

        /// The `context` member of `completion/complete` (for example
        /// `{"arguments": {"language": "rust"}}`). Panics unless it serializes to a JSON object.
        ///
        /// ```
        /// # use mcp_test::testing::RequestOptions;
        /// let _opts = RequestOptions::new()
        ///     .completion_context(serde_json::json!({"arguments": {"language": "rust"}}));
        /// ```
        #[track_caller]
        completion_context(context: impl Serialize)
            => completion_context = Some(Value::Object(to_object("completion_context", context)));
    }

    /// How long the test waits for the reply (default
    /// [`DEFAULT_WAIT`](crate::testing::DEFAULT_WAIT), 30 s), the same on every target: in
    /// process, over stdio and over HTTP, a request with no reply by then fails the test with
    /// a panic at the test's line naming the request, the target, the transport and the
    /// timeout (a client also cancels it). A server's own request limit is the server's: an
    /// in-process server's [`max_request_timeout`](crate::ServerBuilder::max_request_timeout)
    /// shorter than this answers -32603, as that server would in another process. Panics on
    /// zero.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new().timeout(std::time::Duration::from_millis(250));
    /// ```
    #[track_caller]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        assert!(
            !timeout.is_zero(),
            "RequestOptions::timeout: the timeout must be positive"
        );
        self.timeout = Some(timeout);
        self
    }

    /// The identity the request is made as.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// assert!(RequestOptions::new().identity().scopes.is_empty());
    /// ```
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The transport side of the request: identity, assigns and timeout.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let caller = RequestOptions::new().tenant("acme").caller();
    /// assert_eq!(caller.identity.tenant.as_deref(), Some("acme"));
    /// ```
    pub fn caller(&self) -> Caller {
        Caller {
            identity: self.identity.clone(),
            assigns: self.assigns.clone(),
            timeout: self.timeout,
            ..Caller::default()
        }
    }
}

#[track_caller]
pub(super) fn object(helper: &str, what: &str, value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| panic!("{helper}: the {what} are not JSON: {e}"))
}

/// What a helper's method accepts beyond the common options.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Takes {
    /// `tools/call`, `resources/read`, `prompts/get`, any `request`.
    Retry,
    /// The list methods.
    Cursor,
    /// `completion/complete`.
    Completion,
    /// `server/discover`.
    Nothing,
}

impl RequestOptions {
    /// Builds the request body for `method` with `params`, checking that every option set
    /// applies to `helper`.
    #[track_caller]
    pub(super) fn body(
        &self,
        helper: &str,
        takes: Takes,
        method: &str,
        mut params: Map<String, Value>,
    ) -> Value {
        let refuse = |option: &str, applies: &str| -> ! {
            panic!("{helper}: the {option} option does not apply here; it is for {applies}")
        };
        if takes != Takes::Retry {
            if self.request_state.is_some() {
                refuse(
                    "request_state",
                    "call_tool, read_resource, get_prompt and request",
                );
            }
            if self.input_responses.is_some() {
                refuse(
                    "input_responses",
                    "call_tool, read_resource, get_prompt and request",
                );
            }
        }
        if takes != Takes::Cursor && self.cursor.is_some() {
            refuse("cursor", "the list helpers");
        }
        if takes != Takes::Completion && self.completion_context.is_some() {
            refuse("completion_context", "complete");
        }
        let retrying = self.request_state.is_some() || self.input_responses.is_some();
        if retrying && self.protocol_version.as_str() < PROTOCOL_VERSION {
            panic!(
                "{helper}: request_state and input_responses are multi-round retry fields of {PROTOCOL_VERSION}; protocol version {:?} has none",
                self.protocol_version
            );
        }
        let mut meta = Map::new();
        meta.insert(
            meta_keys::PROTOCOL_VERSION.to_owned(),
            Value::from(self.protocol_version.as_str()),
        );
        meta.insert(
            meta_keys::CLIENT_CAPABILITIES.to_owned(),
            self.client_capabilities.clone(),
        );
        meta.extend(self.meta.clone());
        params.insert("_meta".to_owned(), Value::Object(meta));
        if let Some(state) = &self.request_state {
            params.insert("requestState".to_owned(), Value::from(state.as_str()));
        }
        if let Some(responses) = &self.input_responses {
            params.insert("inputResponses".to_owned(), responses.clone());
        }
        if let Some(cursor) = &self.cursor {
            params.insert("cursor".to_owned(), Value::from(cursor.as_str()));
        }
        if let Some(context) = &self.completion_context {
            params.insert("context".to_owned(), context.clone());
        }
        let id = self.request_id.as_ref().map_or(
            Value::from(crate::wire::build::REQUEST_ID),
            RequestId::to_value,
        );
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }
}

impl RequestOptions {
    /// How long the test waits for a reply ([`RequestOptions::timeout`]).
    pub(in crate::testing) fn wait(&self) -> Duration {
        self.timeout.unwrap_or(DEFAULT_WAIT)
    }

    /// The client capabilities these options declare.
    pub(in crate::testing) fn client_capabilities_value(&self) -> Value {
        self.client_capabilities.clone()
    }

    /// These options with the tasks extension declared in the client capabilities (kept
    /// beside whatever else they declare).
    pub(in crate::testing) fn declaring_tasks(&self) -> RequestOptions {
        let mut options = self.clone();
        if let Value::Object(caps) = &mut options.client_capabilities {
            let extensions = caps
                .entry("extensions")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(extensions) = extensions {
                extensions
                    .entry(crate::tasks::EXTENSION)
                    .or_insert_with(|| Value::Object(Map::new()));
            }
        }
        options
    }

    /// The body of a `tasks/*` request, for `helper`: no retry, cursor or completion option
    /// applies.
    #[track_caller]
    pub(in crate::testing) fn task_body(
        &self,
        helper: &str,
        method: &str,
        params: Map<String, Value>,
    ) -> Value {
        self.body(helper, Takes::Nothing, method, params)
    }

    /// The `tools/call` body `call_tool` sends, for `helper`.
    #[track_caller]
    pub(in crate::testing) fn tool_call_body(
        &self,
        helper: &str,
        name: &str,
        arguments: impl Serialize,
    ) -> Value {
        let arguments = object(helper, "arguments", arguments);
        let mut params = Map::new();
        params.insert("name".to_owned(), Value::from(name));
        params.insert("arguments".to_owned(), arguments);
        self.body(helper, Takes::Retry, "tools/call", params)
    }
}
