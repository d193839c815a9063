//! The server runtime: a [`ServerBuilder`] that registers tools and server info, and a
//! [`Server`] that dispatches MCP 2026-07-28 requests from JSON text to JSON text.
//!
//! # Order of checks
//!
//! Each request goes through these checks; the first that fails decides the answer:
//!
//! 1. JSON (-32700), then the JSON-RPC shape: one object, `jsonrpc: "2.0"`, a string `method`,
//!    an `id` that is a string or integer (-32600). A message without `id` is a notification and
//!    gets no response.
//! 2. The method exists and its capability is advertised (-32601). This comes before the
//!    envelope so a removed method (`initialize`, `ping`, ...) is always -32601, whatever its
//!    params.
//! 3. The envelope: `params` is an object with `_meta` carrying the protocol version (-32602
//!    when missing, -32022 when not served) and the client capabilities (-32602).
//! 4. The method's own params (-32602), then the method itself.

use crate::authorization::Access;
pub use crate::catalog::BuildError;
use crate::catalog::{Catalog, CatalogBuilder, List, ToolRegistration};
use crate::context::{Context, ContextBuilder, Extensions, Identity};
use crate::request_state::{self, StateConfig};
use crate::setters;
use crate::subscriptions::{self, Change, Hub, ListenRequest};
use crate::tool::Tool;
use crate::wire::{
    self, CacheHint, CacheScope, ErrorObject, Implementation, ListChangedCapability, Request,
    RequestId, RequestMeta, Response, ServerCapabilities, ToolDefinition, json_type, meta_keys,
};
use serde_json::{Map, Value, json};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Servers announce list changes to `subscriptions/listen` streams (see
/// [`Server::notify_tools_list_changed`]), so every list capability says so.
const LIST_CHANGED: ListChangedCapability = ListChangedCapability {
    list_changed: Some(true),
};

/// A request's method, parsed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    /// A method the runtime serves when its capability is advertised.
    Served(Served),
    /// `initialize`: removed in 2026-07-28, answered -32601 pointing at `server/discover`.
    Initialize,
    /// Another method 2026-07-28 removed, answered -32601 saying so.
    Removed,
    /// Anything else, answered -32601.
    Unknown,
}

/// The methods the runtime serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Served {
    Discover,
    Listen,
    ToolsList,
    ToolsCall,
    ResourcesList,
    ResourceTemplatesList,
    ResourcesRead,
    PromptsList,
    PromptsGet,
    Complete,
    /// `tasks/get`, `tasks/update`, `tasks/cancel`: the tasks extension.
    TasksGet,
    TasksUpdate,
    TasksCancel,
}

impl Method {
    fn parse(method: &str) -> Method {
        match method {
            "server/discover" => Method::Served(Served::Discover),
            "subscriptions/listen" => Method::Served(Served::Listen),
            "tools/list" => Method::Served(Served::ToolsList),
            "tools/call" => Method::Served(Served::ToolsCall),
            "resources/list" => Method::Served(Served::ResourcesList),
            "resources/templates/list" => Method::Served(Served::ResourceTemplatesList),
            "resources/read" => Method::Served(Served::ResourcesRead),
            "prompts/list" => Method::Served(Served::PromptsList),
            "prompts/get" => Method::Served(Served::PromptsGet),
            "completion/complete" => Method::Served(Served::Complete),
            "tasks/get" => Method::Served(Served::TasksGet),
            "tasks/update" => Method::Served(Served::TasksUpdate),
            "tasks/cancel" => Method::Served(Served::TasksCancel),
            "initialize" => Method::Initialize,
            "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => {
                Method::Removed
            }
            _ => Method::Unknown,
        }
    }
}

/// An MCP server: registered tools plus server info, dispatching requests in process.
///
/// Cheap to clone (shared). Build one with [`Server::builder`].
///
/// ```
/// use mcp_test::{CallToolResult, Context, Server, Tool, ToolError};
/// use serde_json::{json, Value};
///
/// struct Ping;
/// impl Tool for Ping {
///     const NAME: &'static str = "ping_tool";
///     fn input_schema() -> Value { json!({"type": "object", "additionalProperties": false}) }
///     fn parse(_: Value) -> Result<Self, ToolError> { Ok(Ping) }
///     async fn call(self, _: &Context) -> Result<CallToolResult, ToolError> {
///         Ok(CallToolResult::text("pong"))
///     }
/// }
///
/// # tokio_test();
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn tokio_test() {
/// let server = Server::builder("demo", "1.0.0").tool::<Ping>().build().unwrap();
/// let reply = server.handle_json(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{
///     "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
///              "io.modelcontextprotocol/clientCapabilities":{}},
///     "name":"ping_tool","arguments":{}}}"#).await.unwrap();
/// let reply: Value = serde_json::from_str(&reply).unwrap();
/// assert_eq!(reply["result"]["content"][0]["text"], "pong");
/// assert_eq!(reply["result"]["resultType"], "complete");
/// # }
/// ```
#[derive(Clone)]
pub struct Server {
    inner: Arc<Inner>,
}

struct Inner {
    info: Implementation,
    instructions: Option<String>,
    page_size: usize,
    discover_cache: CacheHint,
    max_request_timeout: Duration,
    state: Arc<Extensions>,
    request_state: Arc<StateConfig>,
    catalog: Catalog,
    changes: Arc<Hub>,
    /// Whether `logging` is declared, and `Context::log` sends.
    logging: bool,
    /// The tasks extension, when a tool may run as a task.
    tasks: Option<Arc<crate::tasks::Tasks>>,
    /// The eras a [`Session`](crate::session::Session) serves.
    eras: Eras,
}

/// Which protocol eras a server's connections speak; see [`ServerBuilder::eras`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Eras {
    current: bool,
    legacy: bool,
}

/// Who sent a request and what the transport attached to it: the input of
/// [`Server::handle_json_with`].
///
/// ```
/// use mcp_test::{Caller, Identity};
/// use std::time::Duration;
/// let caller = Caller::new(Identity::principal("alice"))
///     .with_assign(7_u32)
///     .with_timeout(Duration::from_secs(5));
/// assert_eq!(caller.identity.principal.as_deref(), Some("alice"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Caller {
    /// The authenticated identity.
    pub identity: Identity,
    /// Typed values the handler reads with [`Context::assign`].
    pub assigns: Extensions,
    /// How long the request may run; capped by the server's maximum.
    pub timeout: Option<Duration>,
    /// Where the request's progress and log notifications go; `None` drops them.
    pub notifications: Option<crate::notify::NotificationSink>,
}

impl Caller {
    /// A caller with an identity and nothing else.
    pub fn new(identity: Identity) -> Self {
        Caller {
            identity,
            ..Caller::default()
        }
    }

    /// Attaches a typed assign.
    #[must_use]
    pub fn with_assign<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.assigns.insert(value);
        self
    }

    setters! {
        /// Sets the request timeout.
        with_timeout(timeout: Duration) => timeout = Some(timeout);
    }
}

/// Builds a [`Server`]; see [`Server::builder`].
#[must_use]
pub struct ServerBuilder {
    info: Implementation,
    instructions: Option<String>,
    page_size: usize,
    discover_cache: CacheHint,
    max_request_timeout: Duration,
    state: Extensions,
    request_state_key: Option<Vec<u8>>,
    request_state_ttl: Duration,
    request_state_clock: Option<request_state::Clock>,
    catalog: CatalogBuilder,
    logging: bool,
    tasks: crate::tasks::TaskConfig,
    eras: Eras,
}

impl fmt::Debug for ServerBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerBuilder")
            .field("info", &self.info)
            .field(
                "tools",
                &self
                    .catalog
                    .tools
                    .iter()
                    .map(|t| &t.definition.name)
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl ServerBuilder {
    setters! {
        /// Replaces the server's implementation info (name, version, title, ...).
        info: Implementation;
    }

    /// Declares the `logging` capability, so that [`Context::log`] sends
    /// `notifications/message` to a request that asks for it (`_meta` `logLevel`). Off by
    /// default: server/utilities/logging.mdx makes a server that emits log messages declare
    /// the capability, and marks logging deprecated (new implementations SHOULD NOT adopt
    /// it; stderr is the way), so a server logs over the protocol only when it says so.
    ///
    /// ```
    /// use mcp_test::Server;
    /// let quiet = Server::builder("s", "1").build().unwrap();
    /// assert!(quiet.capabilities().logging.is_none());
    /// let chatty = Server::builder("s", "1").logging().build().unwrap();
    /// assert!(chatty.capabilities().logging.is_some());
    /// ```
    pub fn logging(mut self) -> Self {
        self.logging = true;
        self
    }

    /// The protocol eras the server's connections speak (default: both). A connection (a
    /// [`Session`](crate::session::Session): a stdio process, an HTTP session, a test in
    /// process) is in one era, fixed by its first message: `initialize` starts a 2025-11-25
    /// session ([`Era::Legacy`](wire::Era::Legacy)), a request carrying `_meta` (or
    /// `server/discover`) a 2026-07-28 one ([`Era::Current`](wire::Era::Current)). An era left
    /// out is refused as a server of the other era alone would refuse it: without
    /// `Era::Legacy`, `initialize` is -32601; without `Era::Current`, `server/discover` is
    /// -32601 and every other request before `initialize` -32600. [`Server::handle_json`],
    /// which has no connection, always speaks 2026-07-28.
    ///
    /// An empty list is a [`BuildError::NoEra`].
    ///
    /// ```
    /// use mcp_test::session::Session;
    /// use mcp_test::wire::Era;
    /// use mcp_test::{Caller, Server};
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let modern_only = Server::builder("s", "1").eras([Era::Current]).build().unwrap();
    /// assert!(!modern_only.serves(Era::Legacy));
    /// let session = Session::new(modern_only, None);
    /// let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    ///     "protocolVersion": "2025-11-25", "capabilities": {},
    ///     "clientInfo": {"name": "host", "version": "1"}}});
    /// let reply = serde_json::to_value(session.handle_value(init, &Caller::default()).await).unwrap();
    /// assert_eq!(reply["error"]["code"], -32601);
    ///
    /// let both = Server::builder("s", "1").build().unwrap();
    /// assert!(both.serves(Era::Legacy) && both.serves(Era::Current));
    /// # }
    /// ```
    pub fn eras(mut self, eras: impl IntoIterator<Item = wire::Era>) -> Self {
        self.eras = Eras {
            current: false,
            legacy: false,
        };
        for era in eras {
            match era {
                wire::Era::Current => self.eras.current = true,
                wire::Era::Legacy => self.eras.legacy = true,
            }
        }
        self
    }

    setters! {
        /// Sets the `instructions` that `server/discover` returns.
        instructions(instructions: impl Into<String>) => instructions = Some(instructions.into());
    }

    /// Registers a tool.
    ///
    /// `tools/list` lists tools sorted by name, not in registration order: the spec asks for a
    /// deterministic order, and sorting by name keeps it when registrations move between
    /// modules or behind a condition, so clients' caches, a model's prompt cache and the
    /// cursors of paged lists stay valid across such refactors. Prompts are listed by name
    /// too, resources by URI and resource templates by template.
    ///
    /// ```
    /// use mcp_test::prelude::*;
    ///
    /// /// Zips.
    /// #[derive(Tool)]
    /// struct Zip {}
    /// impl Zip {
    ///     async fn run(self, _ctx: &Context) -> Result<&'static str, ToolError> { Ok("zipped") }
    /// }
    ///
    /// /// Archives.
    /// #[derive(Tool)]
    /// struct Archive {}
    /// impl Archive {
    ///     async fn run(self, _ctx: &Context) -> Result<&'static str, ToolError> { Ok("archived") }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = Server::builder("files", "1.0.0").tool::<Zip>().tool::<Archive>().build().unwrap();
    /// let names: Vec<&str> = server.tool_definitions().iter().map(|t| t.name.as_str()).collect();
    /// assert_eq!(names, ["archive", "zip"]);
    /// let listed = TestContext::new(server).list_tools().await;
    /// assert_eq!(listed["result"]["tools"][0]["name"], "archive");
    /// # }
    /// ```
    pub fn tool<T: Tool>(self) -> Self {
        self.tool_with_access::<T>(Access::public())
    }

    setters! {
        /// How many items one page of a list holds (default 100).
        page_size: usize;
        /// Cache hints of `server/discover` (default: one hour, public).
        discover_cache(hint: CacheHint) => discover_cache = hint;

        /// Cache hints of every `tools/list` page (default: one minute, private, since a list may
        /// depend on the caller's authorization).
        tools_cache(hint: CacheHint) => catalog.tools_cache = hint;
    }

    /// Registers a tool that only callers `access` allows may call. A caller short of one of
    /// its scopes sees it listed and is refused naming the scope, so it can step up;
    /// [`Access::hidden_without_scope`] hides it from such a caller instead (see
    /// [`authorization`](crate::authorization)).
    ///
    /// ```
    /// use mcp_test::{Access, CallToolResult, Caller, Context, Identity, Server, Tool, ToolError};
    /// use serde_json::{json, Value};
    ///
    /// struct Purge;
    /// impl Tool for Purge {
    ///     const NAME: &'static str = "purge";
    ///     fn input_schema() -> Value { json!({"type": "object"}) }
    ///     fn parse(_: Value) -> Result<Self, ToolError> { Ok(Purge) }
    ///     async fn call(self, _: &Context) -> Result<CallToolResult, ToolError> {
    ///         Ok(CallToolResult::text("purged"))
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = Server::builder("ops", "1.0.0")
    ///     .tool_with_access::<Purge>(Access::scopes(["ops.admin"]))
    ///     .build()
    ///     .unwrap();
    /// let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{
    ///     "io.modelcontextprotocol/protocolVersion":"2026-07-28",
    ///     "io.modelcontextprotocol/clientCapabilities":{}},"name":"purge"}}"#;
    /// let admin = Caller::new(Identity::principal("root").with_scopes(["ops.admin"]));
    /// let ok: Value = serde_json::from_str(&server.handle_json_with(call, &admin).await.unwrap()).unwrap();
    /// assert_eq!(ok["result"]["content"][0]["text"], "purged");
    /// let denied: Value = serde_json::from_str(&server.handle_json(call).await.unwrap()).unwrap();
    /// assert_eq!(denied["error"]["code"], -32602);
    /// assert_eq!(
    ///     denied["error"]["message"],
    ///     "Insufficient scope: tool purge needs scope ops.admin (the caller lacks ops.admin)"
    /// );
    /// # }
    /// ```
    pub fn tool_with_access<T: Tool>(mut self, access: Access) -> Self {
        self.catalog.tools.push(ToolRegistration::of::<T>(access));
        self
    }

    /// Registers a resource; see [`resources`](crate::resources).
    pub fn resource(mut self, resource: crate::resources::Resource) -> Self {
        self.catalog.resources.push(resource);
        self
    }

    /// Registers a resource template; see [`resources`](crate::resources). Reads try templates
    /// in registration order, after the resources with an exact URI.
    pub fn resource_template(mut self, template: crate::resources::ResourceTemplate) -> Self {
        self.catalog.templates.push(template);
        self
    }

    /// Registers a prompt; see [`prompts`](crate::prompts).
    pub fn prompt(mut self, prompt: crate::prompts::Prompt) -> Self {
        self.catalog.prompts.push(prompt);
        self
    }

    setters! {
        /// Cache hints of every `resources/list` page (default: one minute, private).
        resources_cache(hint: CacheHint) => catalog.resources_cache = hint;
        /// Cache hints of every `resources/templates/list` page (default: one minute, private).
        resource_templates_cache(hint: CacheHint) => catalog.templates_cache = hint;
        /// Cache hints of every `prompts/list` page (default: one minute, private).
        prompts_cache(hint: CacheHint) => catalog.prompts_cache = hint;

        /// Cache hints of `resources/read` results, for resources and templates that set none
        /// with `.cache(..)` (default: one minute, private).
        read_cache(hint: CacheHint) => catalog.read_cache = hint;

        /// The longest any request may run (default 60 s). A request that takes longer is answered
        /// with -32603.
        max_request_timeout(timeout: Duration) => max_request_timeout = timeout;

        /// The key that signs `requestState` (HMAC-SHA256), at least 32 bytes. Servers that share
        /// a key accept each other's states, so a retry may reach another replica. Default: 32
        /// random bytes per server, so states do not survive a restart.
        request_state_key(key: impl Into<Vec<u8>>) => request_state_key = Some(key.into());

        /// How long a `requestState` stays valid after it is minted (default 10 minutes). A retry
        /// with an older state is rejected with -32602.
        request_state_ttl(ttl: Duration) => request_state_ttl = ttl;

        /// The clock `requestState` expiry is checked against (default: the system clock). Tests
        /// inject one to expire a state without sleeping.
        request_state_clock(clock: impl Fn() -> std::time::SystemTime + Send + Sync + 'static)
            => request_state_clock = Some(Arc::new(clock));

        /// Where tasks are kept (the tasks extension; default: a
        /// [`MemoryTaskStore`](crate::tasks::MemoryTaskStore)).
        ///
        /// ```
        /// use mcp_test::Server;
        /// use mcp_test::tasks::MemoryTaskStore;
        /// let server = Server::builder("s", "1").task_store(MemoryTaskStore::default()).build().unwrap();
        /// # let _ = server;
        /// ```
        task_store(store: impl crate::tasks::TaskStore) => tasks.store = Arc::new(store);

        /// How long after its creation a task is kept (`ttlMs`; default one hour). `None` keeps
        /// tasks as long as the store does (`ttlMs: null`).
        ///
        /// ```
        /// use mcp_test::Server;
        /// use std::time::Duration;
        /// let server = Server::builder("s", "1").task_ttl(Some(Duration::from_secs(60))).build().unwrap();
        /// # let _ = server;
        /// ```
        task_ttl(ttl: Option<Duration>) => tasks.ttl = ttl;

        /// The polling interval tasks suggest (`pollIntervalMs`; default 500 ms). `None` or zero
        /// leaves the hint out, so a client may poll at once (what tests want).
        ///
        /// ```
        /// use mcp_test::Server;
        /// let server = Server::builder("s", "1").task_poll_interval(None).build().unwrap();
        /// # let _ = server;
        /// ```
        task_poll_interval(interval: Option<Duration>) => tasks.poll_interval = interval;

        /// The clock task timestamps and TTLs are measured with (default: the system clock).
        /// Tests inject one to expire a task without sleeping.
        ///
        /// ```
        /// use mcp_test::Server;
        /// use std::time::{Duration, UNIX_EPOCH};
        /// let server = Server::builder("s", "1")
        ///     .task_clock(|| UNIX_EPOCH + Duration::from_secs(1_764_066_600))
        ///     .build()
        ///     .unwrap();
        /// # let _ = server;
        /// ```
        task_clock(clock: impl Fn() -> std::time::SystemTime + Send + Sync + 'static)
            => tasks.clock = Arc::new(clock);
    }

    /// Adds server-wide shared state, which handlers read with [`Context::state`].
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.state.insert(value);
        self
    }

    /// Checks every registration and compiles every tool's schemas once.
    pub fn build(self) -> Result<Server, BuildError> {
        if self.page_size == 0 {
            return Err(BuildError::ZeroPageSize);
        }
        if !self.eras.current && !self.eras.legacy {
            return Err(BuildError::NoEra);
        }
        let request_state = match self.request_state_key {
            Some(key) if key.len() < request_state::MIN_KEY_LEN => {
                return Err(BuildError::ShortRequestStateKey(key.len()));
            }
            Some(key) => StateConfig::new(key, self.request_state_ttl, self.request_state_clock),
            None => {
                let mut config = StateConfig::random(self.request_state_ttl);
                if let Some(clock) = self.request_state_clock {
                    config = config.with_clock(clock);
                }
                config
            }
        };
        let catalog = self.catalog.build()?;
        let changes: Arc<Hub> = Arc::default();
        let tasks = catalog
            .has_task_tools()
            .then(|| Arc::new(crate::tasks::Tasks::new(self.tasks, changes.clone())));
        Ok(Server {
            inner: Arc::new(Inner {
                info: self.info,
                instructions: self.instructions,
                page_size: self.page_size,
                discover_cache: self.discover_cache,
                max_request_timeout: self.max_request_timeout,
                state: Arc::new(self.state),
                request_state: Arc::new(request_state),
                catalog,
                changes,
                logging: self.logging,
                tasks,
                eras: self.eras,
            }),
        })
    }
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.inner.info)
            .field(
                "tools",
                &self
                    .tool_definitions()
                    .iter()
                    .map(|t| &t.name)
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

// The one method of `ContextBuilder` outside context.rs: it takes a `Server`, and the context
// is below the server (the server builds contexts), so naming `Server` there would make the
// two import each other. It only hands the server's shared parts to `served_by`.
impl ContextBuilder {
    /// Gives the context what a handler reads from `server`: its state
    /// ([`Context::state`]), its tool list ([`Context::tools`]), its `requestState` key (so
    /// [`run_tool`](crate::testing::run_tool) checks and mints states as `server` does) and its
    /// list-change announcements ([`Context::notify_tools_list_changed`] and the like). The
    /// context shares them with `server`; it does not hold the server itself.
    #[must_use]
    pub fn server(self, server: Server) -> Self {
        let inner = &server.inner;
        self.served_by(
            inner.state.clone(),
            inner.catalog.tools().definitions().clone(),
            inner.request_state.clone(),
            inner.changes.clone(),
        )
    }
}

/// A request that passed the JSON-RPC shape check.
struct Incoming {
    id: RequestId,
    method: String,
    params: Option<Value>,
}

impl Server {
    /// Starts building a server with this name and version.
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> ServerBuilder {
        ServerBuilder {
            info: Implementation::new(name, version),
            instructions: None,
            page_size: 100,
            discover_cache: CacheHint::new(3_600_000, CacheScope::Public),
            max_request_timeout: Duration::from_secs(60),
            state: Extensions::new(),
            request_state_key: None,
            request_state_ttl: Duration::from_secs(600),
            request_state_clock: None,
            catalog: CatalogBuilder::default(),
            logging: false,
            tasks: crate::tasks::TaskConfig::default(),
            eras: Eras {
                current: true,
                legacy: true,
            },
        }
    }

    /// Whether the server's connections speak `era` ([`ServerBuilder::eras`]).
    pub fn serves(&self, era: wire::Era) -> bool {
        match era {
            wire::Era::Current => self.inner.eras.current,
            wire::Era::Legacy => self.inner.eras.legacy,
        }
    }

    /// The `instructions` of `server/discover` (and of a 2025-era `InitializeResult`).
    pub fn instructions(&self) -> Option<&str> {
        self.inner.instructions.as_deref()
    }

    /// A receiver of every change the server announces (a 2025-era session's list-change
    /// and resource-update notifications).
    pub(crate) fn watch_changes(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.inner.changes.watch()
    }

    /// The server's implementation info, as every result's `_meta` carries it.
    pub fn info(&self) -> &Implementation {
        &self.inner.info
    }

    /// The registered tools, in `tools/list` order (sorted by name).
    pub fn tool_definitions(&self) -> &[ToolDefinition] {
        self.inner.catalog.tools().definitions()
    }

    /// Whether tool `name`'s calls may become tasks ([`TaskSupport`](crate::tasks::TaskSupport));
    /// `None` for a tool not registered.
    ///
    /// ```
    /// use mcp_test::tasks::TaskSupport;
    /// let server = mcp_test::Server::builder("demo", "1.0.0").build().unwrap();
    /// assert_eq!(server.task_support("nope"), None::<TaskSupport>);
    /// ```
    pub fn task_support(&self, name: &str) -> Option<crate::tasks::TaskSupport> {
        let tools = self.inner.catalog.tools();
        tools
            .iter()
            .find(|(definition, _)| definition.name == name)
            .map(|(_, entry)| entry.served.task_support)
    }

    /// Every registered resource, in `resources/list` order (sorted by URI), whoever may see
    /// it.
    pub fn resource_definitions(&self) -> &[crate::resources::ResourceDefinition] {
        self.inner.catalog.resource_definitions()
    }

    /// Every registered resource template, in `resources/templates/list` order (sorted by
    /// template), whoever may see it.
    pub fn resource_template_definitions(&self) -> &[crate::resources::ResourceTemplateDefinition] {
        self.inner.catalog.template_definitions()
    }

    /// Every registered prompt, in `prompts/list` order (sorted by name), whoever may see it.
    pub fn prompt_definitions(&self) -> &[crate::prompts::PromptDefinition] {
        self.inner.catalog.prompt_definitions()
    }

    /// Every argument a completion handler is registered for, as `(reference type, prompt
    /// name or template, argument)` (what coverage counts as completion references).
    pub(crate) fn completion_references(&self) -> Vec<(&'static str, String, String)> {
        self.inner.catalog.completion_references()
    }

    /// The capabilities `server/discover` advertises: exactly what is registered.
    pub fn capabilities(&self) -> ServerCapabilities {
        ServerCapabilities {
            tools: self.inner.catalog.has_tools().then_some(LIST_CHANGED),
            resources: self
                .inner
                .catalog
                .has_resources()
                .then_some(wire::ResourcesCapability {
                    subscribe: Some(true),
                    list_changed: Some(true),
                }),
            prompts: self.inner.catalog.has_prompts().then_some(LIST_CHANGED),
            completions: self.inner.catalog.has_completions().then(Map::new),
            logging: self.inner.logging.then(Map::new),
            extensions: self.inner.tasks.as_ref().map(|_| {
                let mut extensions = Map::new();
                extensions.insert(
                    crate::tasks::EXTENSION.to_owned(),
                    Value::Object(Map::new()),
                );
                extensions
            }),
            ..ServerCapabilities::default()
        }
    }

    /// Server-wide state registered with [`ServerBuilder::state`].
    pub fn state(&self) -> &Extensions {
        &self.inner.state
    }

    /// The tool named `name` as `identity` may see it: `None` when it is unknown or denied,
    /// exactly alike, so a transport's checks reveal no more than `tools/list` does.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn visible_tool(&self, name: &str, identity: &Identity) -> Option<&ToolDefinition> {
        let (definition, _) = self.inner.catalog.tools().visible(name, identity)?;
        Some(definition)
    }

    /// Tells every `subscriptions/listen` stream that asked for it that the tool list changed.
    pub fn notify_tools_list_changed(&self) {
        self.inner.changes.announce(Change::Tools);
    }

    /// Tells every subscription that asked for it that the prompt list changed.
    pub fn notify_prompts_list_changed(&self) {
        self.inner.changes.announce(Change::Prompts);
    }

    /// Tells every subscription that asked for it that the resource list changed.
    pub fn notify_resources_list_changed(&self) {
        self.inner.changes.announce(Change::Resources);
    }

    /// Tells every subscription that listed `uri` in `resourceSubscriptions` that it changed.
    pub fn notify_resource_updated(&self, uri: impl Into<String>) {
        self.inner
            .changes
            .announce(Change::ResourceUpdated(uri.into()));
    }

    /// Ends every open subscription with a `complete` result (for a graceful shutdown).
    pub fn close_subscriptions(&self) {
        self.inner.changes.announce(Change::Close);
    }

    /// How long a request of `caller` may run: its timeout capped by the server's maximum.
    pub(crate) fn request_timeout(&self, caller: &Caller) -> Duration {
        caller.timeout.map_or(self.inner.max_request_timeout, |t| {
            t.min(self.inner.max_request_timeout)
        })
    }

    /// Handles one JSON-RPC message given as JSON text, as an anonymous caller. Returns the
    /// response as JSON text, or `None` for a notification.
    pub async fn handle_json(&self, message: &str) -> Option<String> {
        self.handle_json_with(message, &Caller::default()).await
    }

    /// Handles one JSON-RPC message given as JSON text, on behalf of `caller`.
    pub async fn handle_json_with(&self, message: &str, caller: &Caller) -> Option<String> {
        let response = match serde_json::from_str::<Value>(message) {
            Ok(value) => self.handle_value(value, caller).await?,
            Err(e) => Response::Error {
                id: None,
                error: ErrorObject::parse_error(e),
            },
        };
        Some(serde_json::to_string(&response).expect("a response always serializes"))
    }

    /// Handles one decoded JSON-RPC message. Returns `None` for a notification.
    pub async fn handle_value(&self, message: Value, caller: &Caller) -> Option<Response> {
        let incoming = match classify(message) {
            Ok(Some(incoming)) => incoming,
            Ok(None) => return None,
            Err(response) => return Some(response),
        };
        let id = incoming.id.clone();
        let timeout = self.request_timeout(caller);
        let method = Method::parse(&incoming.method);
        // A subscription lives until it is cancelled; every other request has a deadline.
        let outcome = if method == Method::Served(Served::Listen) {
            self.dispatch(method, incoming, caller).await
        } else {
            match tokio::time::timeout(timeout, self.dispatch(method, incoming, caller)).await {
                Ok(outcome) => outcome,
                Err(_) => Err(ErrorObject::internal(format!(
                    "Internal error: the request did not finish within {} ms",
                    timeout.as_millis()
                ))),
            }
        };
        Some(match outcome {
            Ok(result) => Response::Result {
                id,
                result: self.finish_result(result),
            },
            Err(error) => Response::Error {
                id: Some(id),
                error,
            },
        })
    }

    /// The typed convenience over [`Server::handle_json`]: encodes `request` as JSON text,
    /// handles it, and decodes the response, so every call exercises serialization.
    pub async fn request(&self, request: &Request) -> Response {
        self.request_with(request, &Caller::default()).await
    }

    /// [`Server::request`] on behalf of `caller`.
    pub async fn request_with(&self, request: &Request, caller: &Caller) -> Response {
        let text = serde_json::to_string(request).expect("a request always serializes");
        let reply = self
            .handle_json_with(&text, caller)
            .await
            .expect("a request with an id always gets a response");
        serde_json::from_str(&reply).expect("the server's response decodes")
    }

    /// Whether the capability `method` belongs to is advertised (always, for discovery and
    /// subscriptions).
    fn advertises(&self, method: Served) -> bool {
        let catalog = &self.inner.catalog;
        match method {
            Served::Discover | Served::Listen => true,
            Served::ToolsList | Served::ToolsCall => catalog.has_tools(),
            Served::ResourcesList | Served::ResourceTemplatesList | Served::ResourcesRead => {
                catalog.has_resources()
            }
            Served::PromptsList | Served::PromptsGet => catalog.has_prompts(),
            Served::Complete => catalog.has_completions(),
            Served::TasksGet | Served::TasksUpdate | Served::TasksCancel => {
                self.inner.tasks.is_some()
            }
        }
    }

    async fn dispatch(
        &self,
        method: Method,
        req: Incoming,
        caller: &Caller,
    ) -> Result<Value, ErrorObject> {
        let method = match method {
            Method::Served(served) if self.advertises(served) => served,
            Method::Served(_) | Method::Unknown => {
                return Err(ErrorObject::method_not_found(&req.method));
            }
            Method::Initialize => {
                return Err(
                    ErrorObject::method_not_found("initialize").with_data(json!({
                        "supported": wire::SUPPORTED_VERSIONS,
                        "reason": "MCP 2026-07-28 has no initialize handshake: send server/discover or any request with params._meta"
                    })),
                );
            }
            Method::Removed => {
                return Err(ErrorObject::new(
                    wire::error_codes::METHOD_NOT_FOUND,
                    format!(
                        "Method not found: {} (removed in MCP 2026-07-28)",
                        req.method
                    ),
                ));
            }
        };
        let params = match req.params {
            Some(Value::Object(params)) => params,
            None => {
                return Err(ErrorObject::invalid_params(
                    "Invalid params: missing params (every 2026-07-28 request carries params._meta)",
                ));
            }
            Some(other) => {
                return Err(ErrorObject::invalid_params(format!(
                    "Invalid params: params must be an object, got {}",
                    json_type(&other)
                )));
            }
        };
        let meta = RequestMeta::parse(params.get("_meta"))?;
        let mut notifier = crate::notify::Notifier::new(caller.notifications.clone(), &meta);
        if !self.inner.logging {
            notifier = notifier.without_logs();
        }
        let ctx = Context {
            request_id: req.id,
            method: req.method,
            meta,
            identity: caller.identity.clone(),
            assigns: caller.assigns.clone(),
            state: self.inner.state.clone(),
            tools: self.inner.catalog.tools().definitions().clone(),
            request_state: Some(self.inner.request_state.clone()),
            changes: Some(self.inner.changes.clone()),
            notifier,
            round: crate::rounds::RoundHandle::default(),
        };
        let catalog = &self.inner.catalog;
        let page_size = self.inner.page_size;
        match method {
            Served::Discover => Ok(self.discover()),
            Served::ToolsList => catalog.list(List::Tools, &ctx, &params, page_size),
            Served::ToolsCall => {
                catalog
                    .call_tool(self.inner.tasks.as_ref(), &ctx, params)
                    .await
            }
            Served::ResourcesList => catalog.list(List::Resources, &ctx, &params, page_size),
            Served::ResourceTemplatesList => {
                catalog.list(List::Templates, &ctx, &params, page_size)
            }
            Served::ResourcesRead => catalog.read_resource(&ctx, &params).await,
            Served::PromptsList => catalog.list(List::Prompts, &ctx, &params, page_size),
            Served::PromptsGet => catalog.get_prompt(&ctx, &params).await,
            Served::Complete => catalog.complete(&ctx, &params).await,
            Served::TasksGet | Served::TasksUpdate | Served::TasksCancel => {
                let Some(tasks) = &self.inner.tasks else {
                    return Err(ErrorObject::method_not_found(ctx.method()));
                };
                match method {
                    Served::TasksGet => tasks.get(&ctx, &params).await,
                    Served::TasksUpdate => tasks.update(&ctx, &params).await,
                    _ => tasks.cancel(&ctx, &params).await,
                }
            }
            Served::Listen => {
                let capabilities = self.capabilities();
                let request = ListenRequest {
                    id: ctx.request_id(),
                    principal: ctx.principal(),
                    client_capabilities: ctx.client_capabilities(),
                    notifier: &ctx.notifier,
                };
                subscriptions::listen(&self.inner.changes, &capabilities, request, &params).await
            }
        }
    }

    fn discover(&self) -> Value {
        let mut result = json!({
            "supportedVersions": wire::SUPPORTED_VERSIONS,
            "capabilities": self.capabilities(),
        });
        if let Some(instructions) = &self.inner.instructions {
            result["instructions"] = Value::from(instructions.as_str());
        }
        with_cache_hint(result, self.inner.discover_cache)
    }

    /// Adds `resultType` (when the result has none) and `_meta.serverInfo` to a result.
    fn finish_result(&self, mut result: Value) -> Value {
        if let Value::Object(map) = &mut result {
            map.entry("resultType")
                .or_insert_with(|| Value::from("complete"));
            let meta = map
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(meta) = meta {
                meta.insert(
                    meta_keys::SERVER_INFO.to_owned(),
                    serde_json::to_value(&self.inner.info).expect("info serializes"),
                );
            }
        }
        result
    }
}

fn with_cache_hint(mut result: Value, hint: CacheHint) -> Value {
    result["ttlMs"] = Value::from(hint.ttl_ms);
    result["cacheScope"] = serde_json::to_value(hint.cache_scope).expect("scope serializes");
    result
}

/// Checks the JSON-RPC shape of one message. `Ok(None)` is a notification.
fn classify(message: Value) -> Result<Option<Incoming>, Response> {
    let invalid = |id: Option<RequestId>, detail: String| Response::Error {
        id,
        error: ErrorObject::invalid_request(detail),
    };
    let mut object = match message {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Err(invalid(
                None,
                "batches are not supported: send exactly one JSON-RPC message".into(),
            ));
        }
        other => {
            return Err(invalid(
                None,
                format!(
                    "expected a JSON-RPC request object, got {}",
                    json_type(&other)
                ),
            ));
        }
    };
    let id = object.get("id").and_then(RequestId::from_value);
    match object.get("jsonrpc") {
        Some(Value::String(v)) if v == wire::JSONRPC_VERSION => {}
        Some(other) => {
            return Err(invalid(id, format!("jsonrpc must be \"2.0\", got {other}")));
        }
        None => return Err(invalid(id, "missing jsonrpc: \"2.0\"".into())),
    }
    let method = match object.remove("method") {
        Some(Value::String(method)) => method,
        Some(other) => {
            return Err(invalid(
                id,
                format!("method must be a string, got {}", json_type(&other)),
            ));
        }
        None if object.contains_key("result") || object.contains_key("error") => {
            return Err(invalid(
                id,
                "servers accept requests and notifications, not responses".into(),
            ));
        }
        None => return Err(invalid(id, "missing method".into())),
    };
    let params = object.remove("params");
    match object.get("id") {
        None => Ok(None),
        Some(raw) => match id {
            Some(id) => Ok(Some(Incoming { id, method, params })),
            None => Err(invalid(
                None,
                format!(
                    "id must be a string or an integer, got {}",
                    if raw.is_number() {
                        format!("the number {raw}")
                    } else {
                        json_type(raw).to_owned()
                    }
                ),
            )),
        },
    }
}
