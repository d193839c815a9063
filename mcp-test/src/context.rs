//! The per-request [`Context`] a tool runs with: the request's id and protocol fields, the
//! authenticated [`Identity`], typed user [`Extensions`] (assigns and server state), and what
//! the handler reads from the server serving it: its tool list, its `requestState` key and its
//! list-change announcements.
//!
//! Every method of the context and of its builder is here, except
//! [`ContextBuilder::server`], which takes a [`Server`](crate::Server) and so lives with it.
//! What a method does for multi-round requests, tasks, subscriptions and notifications it
//! delegates to a handle of a module below the context, which never imports it: the round
//! state and its questions (`rounds::ask`), the broadcaster of changes (`subscriptions`), the
//! notifier (`notify`), the `requestState` key (`request_state`).

use crate::notify::Notifier;
use crate::request_state::StateConfig;
use crate::rounds::ask::{Ask, Asker, Capability, RoundHandle};
use crate::setters;
use crate::subscriptions::{Change, Hub};
use crate::tool::error::ToolError;
use crate::wire::input::{Elicitation, Root, SampledMessage, SamplingRequest};
use crate::wire::{
    ClientCapabilities, Implementation, LoggingLevel, RequestId, RequestMeta, ToolDefinition,
    meta_keys,
};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Who is making a request, as the transport (or a test) authenticated it.
///
/// The server never derives identity from the request body: an HTTP authentication hook or a
/// test helper supplies it.
///
/// ```
/// use mcp_test::Identity;
/// let who = Identity::principal("alice").with_tenant("acme").with_scopes(["items.read"]);
/// assert!(who.has_scope("items.read"));
/// assert_eq!(who.tenant.as_deref(), Some("acme"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// The authenticated principal, e.g. a user or service id.
    pub principal: Option<String>,
    /// The tenant the principal acts in.
    pub tenant: Option<String>,
    /// Granted scopes.
    pub scopes: Vec<String>,
    /// Anything else the host application knows about the caller.
    pub host_context: Map<String, Value>,
}

impl Identity {
    /// No principal, no tenant, no scopes.
    pub fn anonymous() -> Self {
        Identity::default()
    }

    /// An identity with a principal.
    pub fn principal(principal: impl Into<String>) -> Self {
        Identity {
            principal: Some(principal.into()),
            ..Identity::default()
        }
    }

    setters! {
        /// Sets the tenant.
        with_tenant(tenant: impl Into<String>) => tenant = Some(tenant.into());

        /// Sets the scopes.
        with_scopes(scopes: impl IntoIterator<Item = impl Into<String>>)
            => scopes = scopes.into_iter().map(Into::into).collect();

        /// Sets the host context.
        with_host_context(host_context: Map<String, Value>) => host_context = host_context;
    }

    /// Whether `scope` was granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

/// A map from type to one value of that type, for typed user data: per-request *assigns* and
/// server-wide *state*.
///
/// Cloning is cheap: values are shared.
///
/// ```
/// use mcp_test::Extensions;
/// #[derive(Debug, PartialEq)]
/// struct UserId(u32);
///
/// let mut ext = Extensions::new();
/// ext.insert(UserId(7));
/// assert_eq!(ext.get::<UserId>(), Some(&UserId(7)));
/// assert_eq!(ext.get::<String>(), None);
/// ```
#[derive(Clone, Default)]
pub struct Extensions {
    map: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl Extensions {
    /// An empty map.
    pub fn new() -> Self {
        Extensions::default()
    }

    /// Inserts a value, replacing any earlier value of the same type.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.map.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// Inserts a value, builder style.
    #[must_use]
    pub fn with<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.insert(value);
        self
    }

    /// The value of type `T`, if one was inserted.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.map
            .get(&TypeId::of::<T>())
            .and_then(|v| v.downcast_ref::<T>())
    }

    /// Whether a value of type `T` is present.
    pub fn contains<T: Send + Sync + 'static>(&self) -> bool {
        self.map.contains_key(&TypeId::of::<T>())
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extensions")
            .field("len", &self.map.len())
            .finish()
    }
}

/// Everything a tool knows about the request it is serving.
///
/// The server builds one per request. Tests can build one with [`Context::builder`] to run a
/// tool without a server.
///
/// ```
/// use mcp_test::{Context, Identity};
/// let ctx = Context::builder()
///     .identity(Identity::principal("alice"))
///     .assign(42_u32)
///     .build();
/// assert_eq!(ctx.principal(), Some("alice"));
/// assert_eq!(ctx.assign::<u32>(), Some(&42));
/// assert_eq!(ctx.protocol_version(), "2026-07-28");
/// ```
#[derive(Clone, Debug)]
pub struct Context {
    pub(crate) request_id: RequestId,
    pub(crate) method: String,
    pub(crate) meta: RequestMeta,
    pub(crate) identity: Identity,
    pub(crate) assigns: Extensions,
    /// The server-wide state (empty outside a server).
    pub(crate) state: Arc<Extensions>,
    /// The server's tools, in `tools/list` order (empty outside a server).
    pub(crate) tools: Arc<[ToolDefinition]>,
    /// How the server signs and checks `requestState`; `None` outside a server.
    pub(crate) request_state: Option<Arc<StateConfig>>,
    /// Where list changes are announced to subscriptions; `None` outside a server.
    pub(crate) changes: Option<Arc<Hub>>,
    /// Answers and questions of the current round (multi-round requests), and where the run
    /// stands with respect to a task.
    pub(crate) round: RoundHandle,
    /// Where the request's progress and log notifications go.
    pub(crate) notifier: Notifier,
}

impl Context {
    /// A builder for a context outside a server, for tests. Defaults: request id `1`, method
    /// `tools/call`, the default 2026-07-28 `_meta` with empty client capabilities, anonymous
    /// identity, no assigns, nothing from a server (no state, no tools, no `requestState`
    /// key).
    pub fn builder() -> ContextBuilder {
        ContextBuilder {
            ctx: Context {
                request_id: RequestId::Number(1),
                method: "tools/call".to_owned(),
                meta: RequestMeta::new(),
                identity: Identity::anonymous(),
                assigns: Extensions::new(),
                state: Arc::default(),
                tools: Arc::new([]),
                request_state: None,
                changes: None,
                round: RoundHandle::default(),
                notifier: Notifier::default(),
            },
        }
    }

    /// The JSON-RPC id of the request.
    pub fn request_id(&self) -> &RequestId {
        &self.request_id
    }

    /// The JSON-RPC method being served, e.g. `tools/call`.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The request's parsed `_meta`.
    pub fn request_meta(&self) -> &RequestMeta {
        &self.meta
    }

    /// The protocol revision of this request.
    pub fn protocol_version(&self) -> &str {
        &self.meta.protocol_version
    }

    /// The capabilities the client declared in *this* request.
    pub fn client_capabilities(&self) -> &ClientCapabilities {
        &self.meta.client_capabilities
    }

    /// The client's implementation info, if it sent one.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.meta.client_info.as_ref()
    }

    /// The authenticated identity.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The authenticated principal.
    pub fn principal(&self) -> Option<&str> {
        self.identity.principal.as_deref()
    }

    /// The tenant.
    pub fn tenant(&self) -> Option<&str> {
        self.identity.tenant.as_deref()
    }

    /// The granted scopes.
    pub fn scopes(&self) -> &[String] {
        &self.identity.scopes
    }

    /// Whether `scope` was granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.identity.has_scope(scope)
    }

    /// The host application's context for the caller.
    pub fn host_context(&self) -> &Map<String, Value> {
        &self.identity.host_context
    }

    /// A typed value the transport or test attached to this request.
    pub fn assign<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.assigns.get::<T>()
    }

    /// All per-request assigns.
    pub fn assigns(&self) -> &Extensions {
        &self.assigns
    }

    /// Server-wide shared state of type `T`, registered with
    /// [`ServerBuilder::state`](crate::ServerBuilder::state). [`Context::require_state`] is the
    /// same with an error for `?`.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.state.get::<T>()
    }

    /// Server-wide shared state of type `T`, or a [`MissingState`] error naming `T`, for `?` in
    /// a handler: it converts into [`ToolError`](crate::ToolError) (and into any error type
    /// that takes a `std::error::Error`, such as `anyhow::Error`).
    ///
    /// A missing state is the server's mistake, not the caller's: from a tool it is an
    /// `isError` result saying which type to register, from a resource, prompt or completion
    /// handler -32603 (see [`ToolError`](crate::ToolError)).
    ///
    /// ```
    /// use mcp_test::prelude::*;
    /// use std::sync::atomic::{AtomicU64, Ordering};
    ///
    /// struct Visits(AtomicU64);
    ///
    /// /// Counts visits.
    /// #[derive(Tool)]
    /// struct Visit {}
    ///
    /// impl Visit {
    ///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
    ///         let visits = ctx.require_state::<Visits>()?;
    ///         Ok((visits.0.fetch_add(1, Ordering::Relaxed) + 1).to_string())
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let counted = Server::builder("visits", "1.0.0")
    ///     .state(Visits(AtomicU64::new(0)))
    ///     .tool::<Visit>()
    ///     .build()
    ///     .unwrap();
    /// assert_tool_text!(TestContext::new(counted).call_tool("visit", json!({})).await, "1");
    ///
    /// let forgotten = Server::builder("visits", "1.0.0").tool::<Visit>().build().unwrap();
    /// let response = TestContext::new(forgotten).call_tool("visit", json!({})).await;
    /// let text = assert_tool_error!(response, "no server state of type");
    /// assert!(text.contains("Visits`"), "{text}");
    /// # }
    /// ```
    pub fn require_state<T: Send + Sync + 'static>(&self) -> Result<&T, MissingState> {
        self.state.get::<T>().ok_or(MissingState {
            type_name: std::any::type_name::<T>(),
        })
    }

    /// The server's tools, in `tools/list` order (empty outside a server).
    pub fn tools(&self) -> &[ToolDefinition] {
        &self.tools
    }

    /// How the serving server signs and checks `requestState`, if the context has one.
    pub(crate) fn request_state_config(&self) -> Option<&StateConfig> {
        self.request_state.as_deref()
    }

    /// Tells every `subscriptions/listen` stream that asked for it that the tool list changed,
    /// as [`Server::notify_tools_list_changed`](crate::Server::notify_tools_list_changed) does.
    /// Returns whether there was a server to announce it (not outside one).
    pub fn notify_tools_list_changed(&self) -> bool {
        self.announce(Change::Tools)
    }

    /// Tells every subscription that asked for it that the prompt list changed. Returns whether
    /// there was a server to announce it.
    pub fn notify_prompts_list_changed(&self) -> bool {
        self.announce(Change::Prompts)
    }

    /// Tells every subscription that asked for it that the resource list changed. Returns
    /// whether there was a server to announce it.
    pub fn notify_resources_list_changed(&self) -> bool {
        self.announce(Change::Resources)
    }

    /// Tells every subscription that listed `uri` in `resourceSubscriptions` that it changed.
    /// Returns whether there was a server to announce it.
    pub fn notify_resource_updated(&self, uri: impl Into<String>) -> bool {
        self.announce(Change::ResourceUpdated(uri.into()))
    }

    fn announce(&self, change: Change) -> bool {
        match &self.changes {
            Some(hub) => {
                hub.announce(change);
                true
            }
            None => false,
        }
    }

    /// Sends `notifications/progress` for this request. Returns whether it was sent: only when
    /// the request carried `_meta.progressToken`, the transport streams notifications, and
    /// `progress` is greater than the last value sent (the spec requires it to increase).
    ///
    /// ```
    /// let ctx = mcp_test::Context::builder().build();
    /// assert!(!ctx.progress(1.0, Some(2.0), Some("half way")), "no progress token, no sink");
    /// ```
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        self.notifier.progress(progress, total, message)
    }

    /// Sends `notifications/message` for this request. Returns whether it was sent: only when
    /// the server declared `logging` ([`ServerBuilder::logging`](crate::ServerBuilder::logging)),
    /// the request set `_meta["io.modelcontextprotocol/logLevel"]`, at or above that level,
    /// and the transport streams notifications.
    ///
    /// ```
    /// use mcp_test::wire::LoggingLevel;
    /// let ctx = mcp_test::Context::builder().build();
    /// assert!(!ctx.log(LoggingLevel::Info, Some("db"), serde_json::json!("connected")));
    /// ```
    pub fn log(&self, level: LoggingLevel, logger: Option<&str>, data: Value) -> bool {
        self.notifier.log(level, logger, data)
    }

    // Asking the client (multi-round requests, see `rounds`): the questions are built and
    // answered by the run's round state.

    /// What asks the client for this run.
    fn asker(&self) -> Asker<'_> {
        Asker {
            round: &self.round,
            capabilities: self.client_capabilities(),
        }
    }

    /// Asks the user to fill in a form (`elicitation/create`, form mode). `requested_schema` is a
    /// flat object schema of string, number, integer, boolean and enum fields (spec §8).
    ///
    /// The answer's content is checked against the schema; a mismatch fails the call with
    /// -32602. Without the `elicitation` capability in this request this returns
    /// [`AskError::NotSupported`](crate::rounds::AskError::NotSupported) and nothing is sent.
    ///
    /// ```
    /// use mcp_test::rounds::Elicitation;
    /// use mcp_test::Context;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let ctx = Context::builder()
    ///     .elicitation()
    ///     .answer("elicit-1", json!({"action": "accept", "content": {"name": "octocat"}}))
    ///     .build();
    /// let schema = json!({"type": "object", "properties": {"name": {"type": "string"}},
    ///                     "required": ["name"]});
    /// let answer = ctx.elicit("Your GitHub login?", schema).await.unwrap();
    /// assert_eq!(answer.accepted().unwrap()["name"], "octocat");
    /// # }
    /// ```
    pub fn elicit(
        &self,
        message: impl Into<String>,
        requested_schema: Value,
    ) -> Ask<'_, Elicitation<Map<String, Value>>> {
        self.asker().elicit(message, requested_schema)
    }

    /// Asks the user to fill in a form whose schema comes from `T`, and answers with `T`.
    ///
    /// `T`'s JSON Schema (from `schemars`) must flatten to the elicitation subset: a struct of
    /// string, number, integer, boolean and enum fields (an `Option` field is not required;
    /// a `Vec` of a string enum is a multi-select). Anything else — a nested struct, a map, a
    /// list of non-enum values — makes the question fail with
    /// [`AskError::InvalidQuestion`](crate::rounds::AskError::InvalidQuestion) naming the field.
    ///
    /// ```
    /// use mcp_test::rounds::Elicitation;
    /// use mcp_test::Context;
    /// use serde_json::json;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    /// struct Login { name: String, remember: Option<bool> }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let ctx = Context::builder()
    ///     .elicitation()
    ///     .answer("elicit-1", json!({"action": "accept", "content": {"name": "octocat"}}))
    ///     .build();
    /// let answer = ctx.elicit_as::<Login>("Who are you?").await.unwrap();
    /// assert_eq!(answer, Elicitation::Accept(Login { name: "octocat".into(), remember: None }));
    /// # }
    /// ```
    pub fn elicit_as<T>(&self, message: impl Into<String>) -> Ask<'_, Elicitation<T>>
    where
        T: JsonSchema + DeserializeOwned + Send + 'static,
    {
        self.asker().elicit_as(message)
    }

    /// Asks the user to visit a URL (`elicitation/create`, URL mode). `accept` means only that
    /// the user consented; the server learns the outcome out of band. Needs `elicitation.url`
    /// in this request's capabilities, else
    /// [`AskError::NotSupported`](crate::rounds::AskError::NotSupported).
    pub fn elicit_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Ask<'_, Elicitation<()>> {
        self.asker().elicit_url(message, url)
    }

    /// Asks the client's model for a completion (`sampling/createMessage`, deprecated in
    /// 2026-07-28 but allowed). Needs `sampling` in this request's capabilities, else
    /// [`AskError::NotSupported`](crate::rounds::AskError::NotSupported).
    pub fn create_message(&self, request: SamplingRequest) -> Ask<'_, SampledMessage> {
        self.asker().create_message(request)
    }

    /// Asks the client for its roots (`roots/list`, deprecated in 2026-07-28 but allowed).
    /// Needs `roots` in this request's capabilities, else
    /// [`AskError::NotSupported`](crate::rounds::AskError::NotSupported).
    pub fn list_roots(&self) -> Ask<'_, Vec<Root>> {
        self.asker().list_roots()
    }

    /// Fails with -32021 (and `data.requiredCapabilities` naming every missing one) unless
    /// this request declares all of `capabilities`. Call it before any side effect.
    ///
    /// ```
    /// use mcp_test::rounds::Capability;
    /// use mcp_test::Context;
    /// let ctx = Context::builder().elicitation().build();
    /// assert!(ctx.require(&[Capability::ElicitationForm]).is_ok());
    /// let err = ctx.require(&[Capability::Sampling, Capability::Roots]).unwrap_err();
    /// let err = err.protocol_error().unwrap();
    /// assert_eq!(err.code, -32021);
    /// assert_eq!(err.data.as_ref().unwrap()["requiredCapabilities"],
    ///            serde_json::json!({"sampling": {}, "roots": {}}));
    /// ```
    pub fn require(&self, capabilities: &[Capability]) -> Result<(), ToolError> {
        self.asker()
            .require(capabilities)
            .map_err(ToolError::protocol)
    }

    /// The round of this run: 1 on the first request, 2 on the first retry, and so on.
    pub fn round(&self) -> u32 {
        self.round.number()
    }

    // The tasks extension: where the run stands is in its round state.

    /// Marks the point from which a call that may become a task runs as a task.
    ///
    /// In a call whose tool allows tasks ([`TaskSupport`](crate::tasks::TaskSupport)) and whose
    /// client declared the extension, the server answers with a task handle the first time the
    /// handler waits on anything but a question; questions asked before that are multi-round
    /// questions of the call itself. Awaiting `enter_task` is such a wait, with nothing to wait
    /// for: everything after it runs in the task, and its questions become the task's
    /// `inputRequests`. In any other call (and inside the task's own runs) it returns at once.
    ///
    /// ```
    /// use mcp_test::prelude::*;
    ///
    /// /// Deletes a file once the user confirms.
    /// #[derive(Tool)]
    /// #[tool(task = "optional")]
    /// struct Delete { file: String }
    ///
    /// impl Delete {
    ///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
    ///         ctx.enter_task().await;
    ///         let answer = ctx.elicit("Delete it?", serde_json::json!({
    ///             "type": "object", "properties": {"confirm": {"type": "boolean"}}})).await?;
    ///         Ok(if answer.is_accepted() { format!("deleted {}", self.file) } else { "kept".into() })
    ///     }
    /// }
    /// # let _ = Delete { file: String::new() };
    /// ```
    pub fn enter_task(&self) -> impl std::future::Future<Output = ()> + Send + '_ {
        self.round.enter_task()
    }

    /// Whether this run is a task's background run.
    ///
    /// ```
    /// let ctx = mcp_test::Context::builder().build();
    /// assert!(!ctx.in_task());
    /// ```
    pub fn in_task(&self) -> bool {
        self.round.in_task()
    }
}

/// The error of [`Context::require_state`]: the server has no state of the type a handler
/// asked for. Its message names the type and says how to register it.
///
/// ```
/// use mcp_test::{Context, MissingState, ToolError};
///
/// struct Pool;
/// let ctx = Context::builder().build();
/// let error: MissingState = ctx.require_state::<Pool>().err().unwrap();
/// assert!(error.type_name().ends_with("Pool"));
/// assert!(error.to_string().contains("ServerBuilder::state"));
/// let _: ToolError = error.into();
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no server state of type `{type_name}`: register one with `ServerBuilder::state(..)` when building the server"
)]
pub struct MissingState {
    type_name: &'static str,
}

impl MissingState {
    /// The full name of the missing type, as [`std::any::type_name`] gives it.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
}

/// Builds a [`Context`] for tests; see [`Context::builder`].
#[derive(Debug)]
pub struct ContextBuilder {
    ctx: Context,
}

impl ContextBuilder {
    setters! {
        /// Sets the request id.
        request_id(id: impl Into<RequestId>) => ctx.request_id = id.into();
        /// Sets the method.
        method(method: impl Into<String>) => ctx.method = method.into();
        /// Sets the request `_meta`.
        meta(meta: RequestMeta) => ctx.meta = meta;
    }

    /// Sets the declared client capabilities (keeping the rest of the `_meta`).
    #[must_use]
    pub fn client_capabilities(mut self, caps: ClientCapabilities) -> Self {
        self.ctx.meta.raw.insert(
            meta_keys::CLIENT_CAPABILITIES.to_owned(),
            serde_json::to_value(&caps).expect("capabilities serialize"),
        );
        self.ctx.meta.client_capabilities = caps;
        self
    }

    setters! {
        /// Sets the identity.
        identity(identity: Identity) => ctx.identity = identity;
    }

    /// Attaches a typed assign.
    #[must_use]
    pub fn assign<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.ctx.assigns.insert(value);
        self
    }

    setters! {
        /// Replaces all assigns.
        assigns(assigns: Extensions) => ctx.assigns = assigns;
    }

    /// Gives the context what a handler reads from a server: its state, its tool list, its
    /// `requestState` key and its list-change announcements. Used by
    /// [`ContextBuilder::server`](crate::ContextBuilder::server), which takes them from a
    /// [`Server`](crate::Server).
    pub(crate) fn served_by(
        mut self,
        state: Arc<Extensions>,
        tools: Arc<[ToolDefinition]>,
        request_state: Arc<StateConfig>,
        changes: Arc<Hub>,
    ) -> Self {
        self.ctx.state = state;
        self.ctx.tools = tools;
        self.ctx.request_state = Some(request_state);
        self.ctx.changes = Some(changes);
        self
    }

    /// Scripts the client's answer to the question under `key`, in the shape the client sends
    /// in `inputResponses` (see [`testing::answer`](crate::testing::answer)). A question with a
    /// scripted answer returns it immediately, as on a retry.
    #[must_use]
    pub fn answer(self, key: impl Into<String>, answer: Value) -> Self {
        self.ctx.round.lock().answers.insert(key.into(), answer);
        self
    }

    /// Makes the context a retry carrying this `requestState` (from
    /// [`InputRequests::request_state`](crate::rounds::InputRequests::request_state)); its
    /// scripted answers are then the retry's `inputResponses`.
    /// [`run_tool`](crate::testing::run_tool) checks the state against the context's
    /// [server](ContextBuilder::server) exactly as the wire does: tampered, expired or foreign
    /// state fails with -32602.
    #[must_use]
    pub fn request_state(self, state: impl Into<String>) -> Self {
        self.ctx.round.lock().request_state = Some(state.into());
        self
    }

    /// Scripts several answers at once: an `inputResponses`-shaped object.
    #[must_use]
    pub fn answers(self, answers: Map<String, Value>) -> Self {
        self.ctx.round.lock().answers.extend(answers);
        self
    }

    /// Declares form-mode elicitation (`elicitation: {}`) in the client capabilities.
    #[must_use]
    pub fn elicitation(self) -> Self {
        self.declare("elicitation", None)
    }

    /// Declares form- and URL-mode elicitation (`elicitation: {form: {}, url: {}}`).
    #[must_use]
    pub fn elicitation_url(self) -> Self {
        self.declare("elicitation", Some("form"))
            .declare("elicitation", Some("url"))
    }

    /// Declares `sampling: {}` in the client capabilities.
    #[must_use]
    pub fn sampling(self) -> Self {
        self.declare("sampling", None)
    }

    /// Declares `roots: {}` in the client capabilities.
    #[must_use]
    pub fn roots(self) -> Self {
        self.declare("roots", None)
    }

    fn declare(self, capability: &str, sub: Option<&str>) -> Self {
        let mut caps =
            serde_json::to_value(self.ctx.client_capabilities()).expect("capabilities serialize");
        let entry = caps
            .as_object_mut()
            .expect("capabilities are an object")
            .entry(capability)
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Some(sub), Value::Object(entry)) = (sub, entry) {
            entry.insert(sub.to_owned(), Value::Object(Map::new()));
        }
        let caps = serde_json::from_value(caps).expect("capabilities deserialize");
        self.client_capabilities(caps)
    }

    /// The context.
    pub fn build(self) -> Context {
        self.ctx
    }
}
