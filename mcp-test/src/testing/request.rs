//! Request helpers: one per MCP method, each building a JSON-RPC request, encoding it to JSON
//! text, and dispatching it through [`Server::handle_json_with`], the server's full path, then
//! decoding the complete JSON-RPC response. Every helper takes any [`Target`]: an in-process
//! [`Server`], or a [`Client`](crate::client::Client) connected to a server in another process.

use crate::context::{Extensions, Identity};
use crate::server::{BuildError, Caller, Server, ServerBuilder};
use crate::target::{Connection, Exchange, Target, TargetFuture, describe};
use crate::wire::{PROTOCOL_VERSION, RequestId, meta_keys};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

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
/// | [`timeout`](Self::timeout) | the server's | capped by the server's maximum |
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
    pub(super) request_id: Option<RequestId>,
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

    /// The authenticated principal.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// assert_eq!(RequestOptions::new().principal("bob").identity().principal.as_deref(), Some("bob"));
    /// ```
    pub fn principal(mut self, principal: impl Into<String>) -> Self {
        self.identity.principal = Some(principal.into());
        self
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

    /// The tenant the principal acts in.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// assert_eq!(RequestOptions::new().tenant("acme").identity().tenant.as_deref(), Some("acme"));
    /// ```
    pub fn tenant(mut self, tenant: impl Into<String>) -> Self {
        self.identity.tenant = Some(tenant.into());
        self
    }

    /// The granted scopes.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// assert!(RequestOptions::new().scopes(["a", "b"]).identity().has_scope("b"));
    /// ```
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.identity.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// What the host application knows about the caller; panics unless it serializes to a JSON
    /// object.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let opts = RequestOptions::new().host_context(serde_json::json!({"account_id": "a-1"}));
    /// assert_eq!(opts.identity().host_context["account_id"], "a-1");
    /// ```
    #[track_caller]
    pub fn host_context(mut self, host_context: impl Serialize) -> Self {
        self.identity.host_context = to_object("host_context", host_context);
        self
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

    /// The JSON-RPC id (default `1`).
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new().request_id(42).request_id("call-1");
    /// ```
    pub fn request_id(mut self, id: impl Into<RequestId>) -> Self {
        self.request_id = Some(id.into());
        self
    }

    /// The protocol revision the request names (default `2026-07-28`).
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new().protocol_version("1900-01-01");
    /// ```
    pub fn protocol_version(mut self, version: impl Into<String>) -> Self {
        self.protocol_version = version.into();
        self
    }

    /// The client capabilities the request declares (default `{}`); panics unless it
    /// serializes to a JSON object.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new().client_capabilities(serde_json::json!({"elicitation": {}}));
    /// ```
    #[track_caller]
    pub fn client_capabilities(mut self, capabilities: impl Serialize) -> Self {
        self.client_capabilities = Value::Object(to_object("client_capabilities", capabilities));
        self
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

    /// The `requestState` of a multi-round retry (spec §8), echoed as the server sent it.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new().request_state("opaque-state");
    /// ```
    pub fn request_state(mut self, state: impl Into<String>) -> Self {
        self.request_state = Some(state.into());
        self
    }

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
    pub fn input_responses(mut self, responses: impl Serialize) -> Self {
        self.input_responses = Some(Value::Object(to_object("input_responses", responses)));
        self
    }

    /// The cursor of a list continuation (`nextCursor` of the previous page).
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new().cursor("next-page");
    /// ```
    pub fn cursor(mut self, cursor: impl Into<String>) -> Self {
        self.cursor = Some(cursor.into());
        self
    }

    /// The `context` member of `completion/complete` (for example
    /// `{"arguments": {"language": "rust"}}`). Panics unless it serializes to a JSON object.
    ///
    /// ```
    /// # use mcp_test::testing::RequestOptions;
    /// let _opts = RequestOptions::new()
    ///     .completion_context(serde_json::json!({"arguments": {"language": "rust"}}));
    /// ```
    #[track_caller]
    pub fn completion_context(mut self, context: impl Serialize) -> Self {
        self.completion_context = Some(Value::Object(to_object("completion_context", context)));
        self
    }

    /// How long the request may run; the server caps it at its own maximum. Panics on zero.
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

/// What a helper's method accepts beyond the common options.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
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
    fn body(
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

/// Sends `body` to the target: for a [`Server`], encodes it, dispatches it through
/// [`Server::handle_json_with`] as `options`' caller, and decodes the reply; for a
/// [`Client`](crate::client::Client), sends it over the client's transport.
async fn dispatch(
    server: &(impl Target + ?Sized),
    body: &Value,
    options: &RequestOptions,
) -> Value {
    exchange(server, body, options)
        .await
        .response
        .unwrap_or(Value::Null)
}

/// Sends `body` and returns the whole [`Exchange`]: the response and the notifications the
/// request caused (progress, log messages), in process as over the wire. Panics, naming the
/// target and the transport error, when no reply can be had.
///
/// ```
/// use mcp_test::testing::{exchange, build_request, RequestOptions};
/// use mcp_test::Server;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let exchange = exchange(&server, &build_request("server/discover", serde_json::json!({})), &RequestOptions::new()).await;
/// assert!(exchange.notifications.is_empty());
/// assert_eq!(exchange.response.unwrap()["result"]["supportedVersions"][0], "2026-07-28");
/// # }
/// ```
pub async fn exchange(
    server: &(impl Target + ?Sized),
    body: &Value,
    options: &RequestOptions,
) -> Exchange {
    match super::coverage::send_recorded(server, body, &options.caller()).await {
        Ok(exchange) => exchange,
        Err(e) => panic!(
            "{} gave no reply to {}: {e}",
            server.label(),
            describe(body)
        ),
    }
}

#[track_caller]
fn object(helper: &str, what: &str, value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| panic!("{helper}: the {what} are not JSON: {e}"))
}

/// Sends an already built request body (from [`build_request`](super::build_request) or
/// [`mcp_request!`](crate::mcp_request)) through the server's full path, as `options`' caller.
/// Only the identity, assigns and timeout of `options` apply: the body is sent as written.
/// Returns the decoded response, or `null` for a notification (which gets none).
///
/// ```
/// use mcp_test::testing::{send, RequestOptions};
/// use mcp_test::{assert_rpc_error, mcp_request, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let response = send(&server, &mcp_request!("ping"), &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601);
/// # }
/// ```
pub async fn send(
    server: &(impl Target + ?Sized),
    body: &Value,
    options: &RequestOptions,
) -> Value {
    dispatch(server, body, options).await
}

/// Calls tool `name` with `arguments` and returns the complete JSON-RPC response. Takes the
/// retry options (`request_state`, `input_responses`).
///
/// ```
/// use mcp_test::testing::{call_tool, RequestOptions};
/// use mcp_test::{assert_tool_text, CallToolResult, Context, Server, Tool, ToolError};
/// use serde_json::{json, Value};
///
/// struct Whoami;
/// impl Tool for Whoami {
///     const NAME: &'static str = "whoami";
///     fn input_schema() -> Value { json!({"type": "object"}) }
///     fn parse(_: Value) -> Result<Self, ToolError> { Ok(Whoami) }
///     async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
///         Ok(CallToolResult::text(ctx.principal().unwrap_or("nobody")))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").tool::<Whoami>().build().unwrap();
/// let response = call_tool(&server, "whoami", json!({}), &RequestOptions::new()).await;
/// assert_tool_text!(response, "test-principal");
/// let response = call_tool(&server, "whoami", json!({}), &RequestOptions::new().principal("alice")).await;
/// assert_eq!(response["result"]["content"][0]["text"], "alice");
/// # }
/// ```
pub async fn call_tool(
    server: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    options: &RequestOptions,
) -> Value {
    let body = options.tool_call_body("call_tool", name, arguments);
    dispatch(server, &body, options).await
}

impl RequestOptions {
    /// These options with the tasks extension declared in the client capabilities (kept
    /// beside whatever else they declare).
    pub(super) fn declaring_tasks(&self) -> RequestOptions {
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
    pub(super) fn task_body(
        &self,
        helper: &str,
        method: &str,
        params: Map<String, Value>,
    ) -> Value {
        self.body(helper, Takes::Nothing, method, params)
    }

    /// The `tools/call` body `call_tool` sends, for `helper`.
    #[track_caller]
    pub(super) fn tool_call_body(
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

/// Lists one page of tools; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_tools, result, RequestOptions};
/// use mcp_test::Server;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("empty", "1.0.0").build().unwrap();
/// // A server without tools does not advertise them, so tools/list is -32601.
/// let response = list_tools(&server, &RequestOptions::new()).await;
/// assert_eq!(response["error"]["code"], -32601);
/// # }
/// ```
pub async fn list_tools(server: &(impl Target + ?Sized), options: &RequestOptions) -> Value {
    let body = options.body("list_tools", Takes::Cursor, "tools/list", Map::new());
    dispatch(server, &body, options).await
}

/// Lists one page of resources; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_resources, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// // A server that does not advertise resources answers -32601.
/// assert_rpc_error!(list_resources(&server, &RequestOptions::new()).await, -32601);
/// # }
/// ```
pub async fn list_resources(server: &(impl Target + ?Sized), options: &RequestOptions) -> Value {
    let body = options.body(
        "list_resources",
        Takes::Cursor,
        "resources/list",
        Map::new(),
    );
    dispatch(server, &body, options).await
}

/// Lists one page of resource templates; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_resource_templates, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// assert_rpc_error!(list_resource_templates(&server, &RequestOptions::new()).await, -32601);
/// # }
/// ```
pub async fn list_resource_templates(
    server: &(impl Target + ?Sized),
    options: &RequestOptions,
) -> Value {
    let body = options.body(
        "list_resource_templates",
        Takes::Cursor,
        "resources/templates/list",
        Map::new(),
    );
    dispatch(server, &body, options).await
}

/// Reads the resource at `uri`. Takes the retry options.
///
/// ```
/// use mcp_test::testing::{read_resource, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// let response = read_resource(&server, "file:///docs/item-7", &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601, "resources/read");
/// # }
/// ```
pub async fn read_resource(
    server: &(impl Target + ?Sized),
    uri: &str,
    options: &RequestOptions,
) -> Value {
    let mut params = Map::new();
    params.insert("uri".to_owned(), Value::from(uri));
    let body = options.body("read_resource", Takes::Retry, "resources/read", params);
    dispatch(server, &body, options).await
}

/// Lists one page of prompts; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_prompts, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// assert_rpc_error!(list_prompts(&server, &RequestOptions::new()).await, -32601);
/// # }
/// ```
pub async fn list_prompts(server: &(impl Target + ?Sized), options: &RequestOptions) -> Value {
    let body = options.body("list_prompts", Takes::Cursor, "prompts/list", Map::new());
    dispatch(server, &body, options).await
}

/// Gets prompt `name` with string `arguments`. Takes the retry options.
///
/// ```
/// use mcp_test::testing::{get_prompt, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// use serde_json::json;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// let response = get_prompt(&server, "summarize", json!({"topic": "release"}), &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601);
/// # }
/// ```
pub async fn get_prompt(
    server: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    options: &RequestOptions,
) -> Value {
    let arguments = object("get_prompt", "arguments", arguments);
    let mut params = Map::new();
    params.insert("name".to_owned(), Value::from(name));
    params.insert("arguments".to_owned(), arguments);
    let body = options.body("get_prompt", Takes::Retry, "prompts/get", params);
    dispatch(server, &body, options).await
}

/// Requests completions for a prompt or resource-template reference: `reference` is the wire
/// `ref` (`{"type": "ref/prompt", "name": ..}`), `argument` is `{"name": .., "value": ..}`.
/// Pass the `completion_context` option for the request's `context`.
///
/// ```
/// use mcp_test::testing::{complete, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// use serde_json::json;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// let response = complete(
///     &server,
///     json!({"type": "ref/prompt", "name": "summarize"}),
///     json!({"name": "topic", "value": "rel"}),
///     &RequestOptions::new(),
/// ).await;
/// assert_rpc_error!(response, -32601);
/// # }
/// ```
pub async fn complete(
    server: &(impl Target + ?Sized),
    reference: impl Serialize,
    argument: impl Serialize,
    options: &RequestOptions,
) -> Value {
    let mut params = Map::new();
    params.insert("ref".to_owned(), object("complete", "reference", reference));
    params.insert(
        "argument".to_owned(),
        object("complete", "argument", argument),
    );
    let body = options.body("complete", Takes::Completion, "completion/complete", params);
    dispatch(server, &body, options).await
}

/// Sends `server/discover`.
///
/// ```
/// use mcp_test::testing::{discover, result, RequestOptions};
/// use mcp_test::Server;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let discovered = result(discover(&server, &RequestOptions::new()).await);
/// assert_eq!(discovered["supportedVersions"][0], "2026-07-28");
/// # }
/// ```
pub async fn discover(server: &(impl Target + ?Sized), options: &RequestOptions) -> Value {
    let body = options.body("discover", Takes::Nothing, "server/discover", Map::new());
    dispatch(server, &body, options).await
}

/// Sends any request method through the same builder. `params` is an object (or `null` for
/// none) that must not hold `_meta`, `requestState` or `inputResponses`: those are the `meta`,
/// `request_state` and `input_responses` options, so protocol fields stay apart from
/// application metadata. Takes the retry options.
///
/// ```
/// use mcp_test::testing::{request, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// use serde_json::Value;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let response = request(&server, "ping", Value::Null, &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601, "removed");
/// # }
/// ```
pub async fn request(
    server: &(impl Target + ?Sized),
    method: &str,
    params: impl Serialize,
    options: &RequestOptions,
) -> Value {
    let params = match object("request", "params", params) {
        Value::Null => Map::new(),
        Value::Object(params) => params,
        other => panic!(
            "request: params must be a JSON object (or null for none), got {}: {other}",
            crate::wire::json_type(&other)
        ),
    };
    for (key, option) in [
        ("_meta", "meta"),
        ("requestState", "request_state"),
        ("inputResponses", "input_responses"),
    ] {
        if params.contains_key(key) {
            panic!("request: params must not hold {key:?}; set it with RequestOptions::{option}");
        }
    }
    let body = options.body("request", Takes::Retry, method, params);
    dispatch(server, &body, options).await
}

/// What `#[mcp_test(server = ..)]` accepts: a [`Server`], a [`ServerBuilder`] (built here), or
/// a `Result<Server, E>` (unwrapped here). A build failure panics with the reason.
///
/// ```
/// use mcp_test::testing::IntoTestServer;
/// use mcp_test::Server;
/// let server = Server::builder("demo", "1.0.0").into_test_server();
/// assert_eq!(server.info().name, "demo");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a server to test",
    label = "expected a `Server`, a `ServerBuilder` or a `Result<Server, _>`",
    note = "`#[mcp_test(server = f)]` calls `f()`, and `server = expr` takes the expression as it is",
    note = "if it is a future (an `async fn` that builds the server), `.await` it: `server = f().await`; or make `f` a plain `fn`, since building a `Server` needs no `.await`"
)]
pub trait IntoTestServer {
    /// The server.
    fn into_test_server(self) -> Server;
}

impl IntoTestServer for Server {
    fn into_test_server(self) -> Server {
        self
    }
}

impl IntoTestServer for ServerBuilder {
    #[track_caller]
    fn into_test_server(self) -> Server {
        self.build()
            .unwrap_or_else(|e: BuildError| panic!("the test server could not be built: {e}"))
    }
}

impl<E: fmt::Display> IntoTestServer for Result<Server, E> {
    #[track_caller]
    fn into_test_server(self) -> Server {
        self.unwrap_or_else(|e| panic!("the test server could not be built: {e}"))
    }
}

tokio::task_local! {
    static CURRENT: TestContext;
}

/// A context is the target it wraps, so whatever takes a target takes the context too:
/// `assert_schema_cases!(mcp)`, `mcp_test_check::check`, the round driver. The
/// caller of each message is the one passed to [`Target::send`], not the context's options
/// (the helpers of the context are what apply those).
impl Target for TestContext {
    fn label(&self) -> String {
        self.target.label()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        self.target.send(message, caller)
    }
    fn connection(&self) -> Connection {
        self.target.connection()
    }
}

/// A target plus the request options every call through it uses: what `#[mcp_test]` gives a
/// test. Each method is the request helper of the same name with this target and these
/// options.
///
/// The target is an in-process [`Server`] ([`TestContext::new`]), a child process over stdio
/// ([`TestContext::stdio`], feature `client`) or a URL over Streamable HTTP
/// ([`TestContext::http`], feature `http`): every helper and assertion works the same on all
/// three. Identity options (principal, tenant, scopes, assigns) reach an in-process server
/// only; a remote server authenticates its callers itself.
///
/// ```
/// use mcp_test::testing::{TestContext, RequestOptions};
/// use mcp_test::{assert_tool_text, assert_rpc_error, CallToolResult, Context, Server, Tool, ToolError};
/// use serde_json::{json, Value};
///
/// struct Tenant;
/// impl Tool for Tenant {
///     const NAME: &'static str = "tenant";
///     fn input_schema() -> Value { json!({"type": "object"}) }
///     fn parse(_: Value) -> Result<Self, ToolError> { Ok(Tenant) }
///     async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
///         Ok(CallToolResult::text(ctx.tenant().unwrap_or("none")))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").tool::<Tenant>().build().unwrap();
/// let mcp = TestContext::new(server);
/// assert_tool_text!(mcp.call_tool("tenant", json!({})).await, "none");
/// let acme = mcp.with(|o| o.tenant("acme"));
/// assert_tool_text!(acme.call_tool("tenant", json!({})).await, "acme");
/// assert_rpc_error!(mcp.call_tool("nope", json!({})).await, -32602, "Unknown tool");
/// # }
/// ```
#[derive(Clone)]
pub struct TestContext {
    target: Arc<dyn Target>,
    server: Option<Server>,
    options: RequestOptions,
}

impl fmt::Debug for TestContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestContext")
            .field("target", &self.target.label())
            .field("options", &self.options)
            .finish()
    }
}

impl TestContext {
    /// A context with the default options.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// assert_eq!(mcp.server().info().name, "demo");
    /// ```
    pub fn new(server: Server) -> Self {
        Self::with_options(server, RequestOptions::new())
    }

    /// A context with these options.
    ///
    /// ```
    /// # use mcp_test::testing::{RequestOptions, TestContext};
    /// let server = mcp_test::Server::builder("demo", "1.0.0").build().unwrap();
    /// let mcp = TestContext::with_options(server, RequestOptions::new().tenant("acme"));
    /// assert_eq!(mcp.options().identity().tenant.as_deref(), Some("acme"));
    /// ```
    pub fn with_options(server: Server, options: RequestOptions) -> Self {
        TestContext {
            target: Arc::new(server.clone()),
            server: Some(server),
            options,
        }
    }

    /// A context over any [`Target`], with the default options.
    ///
    /// ```
    /// use mcp_test::testing::TestContext;
    /// let server = mcp_test::Server::builder("demo", "1.0.0").build().unwrap();
    /// let mcp = TestContext::for_target(server);
    /// assert!(mcp.label().contains("demo"));
    /// ```
    pub fn for_target(target: impl Target + 'static) -> Self {
        TestContext {
            target: Arc::new(target),
            server: None,
            options: RequestOptions::new(),
        }
    }

    /// A context over a server in a child process, spoken to over stdio: `command` is what
    /// [`IntoCommand`] accepts (a program path, a `[program, args..]` array, or a built
    /// `Command`). The child is killed when the last clone of the context is dropped.
    ///
    /// Panics, naming the program and the error, when it cannot be started.
    ///
    /// ```no_run
    /// use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::stdio(["python3", "server.py"]);
    /// let tools = mcp.list_tools().await;
    /// # }
    /// ```
    #[cfg(feature = "client")]
    #[track_caller]
    pub fn stdio(command: impl IntoCommand) -> Self {
        let command = command.into_command();
        let program = format!("{:?}", command.as_std().get_program());
        match crate::client::Client::spawn_now(command) {
            Ok(client) => TestContext::for_target(client),
            Err(e) => panic!("TestContext::stdio: could not start {program}: {e}"),
        }
    }

    /// A context over a server at `url` (`http://HOST:PORT/PATH`), spoken to over Streamable
    /// HTTP. Nothing is sent until the first call.
    ///
    /// Panics, naming the URL and what is wrong with it.
    ///
    /// ```
    /// use mcp_test::testing::TestContext;
    /// let mcp = TestContext::http("http://127.0.0.1:9/mcp");
    /// assert_eq!(mcp.label(), "http://127.0.0.1:9/mcp");
    /// ```
    #[cfg(feature = "http")]
    #[track_caller]
    pub fn http(url: impl AsRef<str>) -> Self {
        match crate::client::Client::http(url.as_ref()) {
            Ok(client) => TestContext::for_target(client),
            Err(e) => panic!("TestContext::http: {e}"),
        }
    }

    /// A context over a server built with [rmcp](https://docs.rs/rmcp) (any `ServerHandler`,
    /// such as a `#[tool_router]` type), served in this process and spoken to over an
    /// in-memory pipe: see [`crate::rmcp`]. The server stops when the last clone of the
    /// context is dropped.
    ///
    /// Must be called inside a tokio runtime (an `#[mcp_test]` or `#[tokio::test]` body).
    #[cfg(feature = "rmcp")]
    pub fn rmcp<S: ::rmcp::ServerHandler>(handler: S) -> Self {
        TestContext::for_target(crate::rmcp::RmcpServer::serve(handler))
    }

    /// A copy that also records the coverage of every request it sends with `recorder`
    /// (see [`coverage`](super::coverage)), whether or not `MCP_TEST_COVERAGE` is set: how a
    /// test records to a directory of its own without touching the process environment.
    ///
    /// ```
    /// use mcp_test::testing::coverage::Recorder;
    /// use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let dir = std::env::temp_dir().join(format!("mcp-record-doc-{}", std::process::id()));
    /// let recorder = Recorder::new(&dir);
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap())
    ///     .record_coverage(&recorder);
    /// mcp.discover().await;
    /// assert!(recorder.file().is_some());
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// # }
    /// ```
    pub fn record_coverage(&self, recorder: &super::coverage::Recorder) -> TestContext {
        TestContext {
            target: Arc::new(super::coverage::Recording::new(
                self.target.clone(),
                recorder.clone(),
            )),
            server: self.server.clone(),
            options: self.options.clone(),
        }
    }

    /// The target every call goes to.
    pub fn target(&self) -> &dyn Target {
        &*self.target
    }

    /// The target's label: the server's name in process, the program, or the URL.
    pub fn label(&self) -> String {
        self.target.label()
    }

    /// The in-process server, when the context has one ([`TestContext::new`]).
    pub fn try_server(&self) -> Option<&Server> {
        self.server.as_ref()
    }

    /// The server.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// assert!(mcp.server().tool_definitions().is_empty());
    /// ```
    #[track_caller]
    pub fn server(&self) -> &Server {
        self.server.as_ref().unwrap_or_else(|| {
            panic!(
                "TestContext::server: this context talks to {} in another process; only an in-process context (TestContext::new) has a Server",
                self.target.label()
            )
        })
    }

    /// The options every call uses.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// assert_eq!(mcp.options().identity().principal.as_deref(), Some("test-principal"));
    /// ```
    pub fn options(&self) -> &RequestOptions {
        &self.options
    }

    /// A copy whose options are changed by `f`, for one call or a group of calls.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// let reader = mcp.with(|o| o.scopes(["items.read"]));
    /// assert!(reader.options().identity().has_scope("items.read"));
    /// assert!(!mcp.options().identity().has_scope("items.read"));
    /// ```
    pub fn with(&self, f: impl FnOnce(RequestOptions) -> RequestOptions) -> TestContext {
        TestContext {
            target: self.target.clone(),
            server: self.server.clone(),
            options: f(self.options.clone()),
        }
    }

    /// The context of the `#[mcp_test]` test running on this task. This is how a function the
    /// test calls reaches it, and how a test composed with `test-case` or `rstest` gets it
    /// (those call an inner function whose parameters are the cases). Panics outside an
    /// `#[mcp_test]` test or [`TestContext::scope`], and in tasks spawned from it.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// mcp.scope(async {
    ///     assert_eq!(TestContext::current().server().info().name, "demo");
    /// }).await;
    /// # }
    /// ```
    #[track_caller]
    pub fn current() -> TestContext {
        CURRENT.try_with(TestContext::clone).unwrap_or_else(|_| {
            panic!(
                "TestContext::current() is only available inside an #[mcp_test] test (or TestContext::scope), on the test's own task"
            )
        })
    }

    /// Runs `future` with this context as [`TestContext::current`]; `#[mcp_test]` runs the
    /// test body this way. See [`TestContext::current`] for an example.
    pub async fn scope<F: Future>(self, future: F) -> F::Output {
        CURRENT.scope(self, future).await
    }

    /// [`call_tool`] with this context; see the example on [`TestContext`].
    pub async fn call_tool(&self, name: &str, arguments: impl Serialize) -> Value {
        call_tool(&*self.target, name, arguments, &self.options).await
    }

    /// [`list_tools`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.list_tools().await, -32601);
    /// # }
    /// ```
    pub async fn list_tools(&self) -> Value {
        list_tools(&*self.target, &self.options).await
    }

    /// [`list_resources`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.list_resources().await, -32601);
    /// # }
    /// ```
    pub async fn list_resources(&self) -> Value {
        list_resources(&*self.target, &self.options).await
    }

    /// [`list_resource_templates`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.list_resource_templates().await, -32601);
    /// # }
    /// ```
    pub async fn list_resource_templates(&self) -> Value {
        list_resource_templates(&*self.target, &self.options).await
    }

    /// [`read_resource`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.read_resource("file:///a").await, -32601);
    /// # }
    /// ```
    pub async fn read_resource(&self, uri: &str) -> Value {
        read_resource(&*self.target, uri, &self.options).await
    }

    /// [`list_prompts`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.list_prompts().await, -32601);
    /// # }
    /// ```
    pub async fn list_prompts(&self) -> Value {
        list_prompts(&*self.target, &self.options).await
    }

    /// [`get_prompt`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.get_prompt("p", serde_json::json!({})).await, -32601);
    /// # }
    /// ```
    pub async fn get_prompt(&self, name: &str, arguments: impl Serialize) -> Value {
        get_prompt(&*self.target, name, arguments, &self.options).await
    }

    /// [`complete`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.complete(serde_json::json!({"type": "ref/prompt", "name": "p"}), serde_json::json!({"name": "a", "value": ""})).await, -32601);
    /// # }
    /// ```
    pub async fn complete(&self, reference: impl Serialize, argument: impl Serialize) -> Value {
        complete(&*self.target, reference, argument, &self.options).await
    }

    /// [`discover`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::{result, TestContext};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// assert_eq!(result(mcp.discover().await)["supportedVersions"][0], "2026-07-28");
    /// # }
    /// ```
    pub async fn discover(&self) -> Value {
        discover(&*self.target, &self.options).await
    }

    /// [`request`] with this context.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// // This server serves nothing, so every method but server/discover is -32601.
    /// mcp_test::assert_rpc_error!(mcp.request("ping", serde_json::Value::Null).await, -32601);
    /// # }
    /// ```
    pub async fn request(&self, method: &str, params: impl Serialize) -> Value {
        request(&*self.target, method, params, &self.options).await
    }

    /// [`send`] with this context: a prebuilt body, as this context's caller.
    ///
    /// ```
    /// # use mcp_test::testing::TestContext;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mcp = TestContext::new(mcp_test::Server::builder("demo", "1.0.0").build().unwrap());
    /// let reply = mcp.send(&mcp_test::mcp_request!("server/discover"; id = "d-1")).await;
    /// assert_eq!(reply["id"], "d-1");
    /// # }
    /// ```
    pub async fn send(&self, body: &Value) -> Value {
        send(&*self.target, body, &self.options).await
    }

    /// [`exchange`]: the response and the notifications `body` caused.
    pub async fn exchange(&self, body: &Value) -> Exchange {
        exchange(&*self.target, body, &self.options).await
    }

    /// Calls tool `name` and returns the whole [`Exchange`]: the response and the progress and
    /// log notifications the call caused, in process as over the wire.
    ///
    /// ```
    /// use mcp_test::testing::{RequestOptions, TestContext};
    /// use mcp_test::{Context, Server, Tool, ToolError};
    ///
    /// /// Reports progress.
    /// #[derive(Tool)]
    /// #[tool(name = "work")]
    /// struct Work {}
    ///
    /// impl Work {
    ///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
    ///         ctx.progress(1.0, Some(2.0), Some("half"));
    ///         ctx.progress(2.0, Some(2.0), None);
    ///         Ok("done".to_owned())
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = Server::builder("demo", "1.0.0").tool::<Work>().build().unwrap();
    /// let mcp = TestContext::with_options(server, RequestOptions::new().meta(serde_json::json!({"progressToken": "p1"})));
    /// let exchange = mcp.call_tool_exchange("work", serde_json::json!({})).await;
    /// let progress: Vec<_> = exchange.notifications_of("notifications/progress").collect();
    /// assert_eq!(progress.len(), 2);
    /// assert_eq!(progress[0]["params"]["message"], "half");
    /// # }
    /// ```
    pub async fn call_tool_exchange(&self, name: &str, arguments: impl Serialize) -> Exchange {
        let body = self
            .options
            .tool_call_body("call_tool_exchange", name, arguments);
        exchange(&*self.target, &body, &self.options).await
    }
}

/// What [`TestContext::stdio`] and `#[mcp_test(stdio = ..)]` accept as the server to start: a
/// program path (`&str`, `String`, `&Path`, `PathBuf`), a `[program, args..]` array or
/// `Vec`, or a built `tokio::process::Command` or `std::process::Command`.
///
/// ```
/// use mcp_test::testing::IntoCommand;
/// let command = ["python3", "-m", "my_server"].into_command();
/// assert_eq!(command.as_std().get_program(), "python3");
/// assert_eq!(command.as_std().get_args().count(), 2);
/// ```
#[cfg(feature = "client")]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a command to start a server with",
    label = "expected a program path, a [program, args..] array, or a Command",
    note = "`#[mcp_test(stdio = ..)]` and `TestContext::stdio` take a path, an array such as `[\"python3\", \"server.py\"]`, or a `tokio::process::Command`"
)]
pub trait IntoCommand {
    /// The command.
    fn into_command(self) -> tokio::process::Command;
}

#[cfg(feature = "client")]
mod into_command {
    use super::IntoCommand;
    use std::ffi::OsStr;
    use std::path::{Path, PathBuf};

    fn from_parts<S: AsRef<OsStr>>(parts: &[S]) -> tokio::process::Command {
        let (program, args) = parts.split_first().unwrap_or_else(|| {
            panic!("IntoCommand: the command array is empty; give at least the program")
        });
        let mut command = tokio::process::Command::new(program);
        command.args(args);
        command
    }

    impl IntoCommand for tokio::process::Command {
        fn into_command(self) -> tokio::process::Command {
            self
        }
    }
    impl IntoCommand for std::process::Command {
        fn into_command(self) -> tokio::process::Command {
            tokio::process::Command::from(self)
        }
    }
    impl IntoCommand for &str {
        fn into_command(self) -> tokio::process::Command {
            tokio::process::Command::new(self)
        }
    }
    impl IntoCommand for String {
        fn into_command(self) -> tokio::process::Command {
            tokio::process::Command::new(self)
        }
    }
    impl IntoCommand for &Path {
        fn into_command(self) -> tokio::process::Command {
            tokio::process::Command::new(self)
        }
    }
    impl IntoCommand for PathBuf {
        fn into_command(self) -> tokio::process::Command {
            tokio::process::Command::new(self)
        }
    }
    impl<S: AsRef<OsStr>, const N: usize> IntoCommand for [S; N] {
        fn into_command(self) -> tokio::process::Command {
            from_parts(&self)
        }
    }
    impl<S: AsRef<OsStr>> IntoCommand for Vec<S> {
        fn into_command(self) -> tokio::process::Command {
            from_parts(&self)
        }
    }
}
