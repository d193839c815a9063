//! [`TestContext`]: a target bundled with request options, its construction (in process,
//! stdio, HTTP, rmcp) and its request methods. What `#[mcp_test]` accepts as a server or a
//! command to start is in `testing::accepts`.

use super::helpers::{
    call_tool, complete, discover, exchange, get_prompt, list_prompts, list_resource_templates,
    list_resources, list_tools, read_resource, request, send,
};
use super::options::RequestOptions;
use crate::server::{Caller, Server};
use crate::target::answering::{AnswerSources, InFlight};
use crate::target::{Answers, Connection, Exchange, Target, TargetFuture};
#[cfg(feature = "client")]
use crate::testing::accepts::IntoCommand;
use crate::wire::Era;
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

tokio::task_local! {
    static CURRENT: TestContext;
}

/// A context is the target it wraps, so whatever takes a target takes the context too:
/// `assert_schema_cases!(mcp)`, `assert_properties!(mcp)`, `Surface::fetch(&mcp)`,
/// `mcp_test_check::check(&mcp, ..)`, the round driver. The context is their caller: a
/// message sent with an anonymous caller (no identity, no assigns: what those operations
/// send unless told otherwise) goes as the context's own
/// ([`RequestOptions::caller`]: its principal, tenant, scopes and assigns), so a tool behind
/// a scope the context holds is listed and called. A caller with an identity of its own
/// (`identity = ..` of the schema cases) is kept.
impl Target for TestContext {
    fn label(&self) -> String {
        self.target.label()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        match self.own_caller(caller) {
            Some(own) => Box::pin(async move { self.target.send(message, &own).await }),
            None => self.target.send(message, caller),
        }
    }
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        match self.own_caller(caller) {
            Some(own) => Box::pin(async move { self.target.send_text(text, &own).await }),
            None => self.target.send_text(text, caller),
        }
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
    /// The client under the target, for a context built over stdio or HTTP.
    #[cfg(any(feature = "client", feature = "http"))]
    client: Option<crate::client::Client>,
    /// The era spoken ([`TestContext::in_era`]).
    era: Era,
    /// In the 2025 era: where the round helpers put their answers while they run.
    answers: Option<Arc<AnswerSources>>,
    /// The recorders of [`TestContext::record_coverage`], kept so that a 2025-era session
    /// of an in-process server, a target of its own, records too.
    recorders: Vec<crate::testing::coverage::Recorder>,
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
    /// The context's caller in place of `caller`, when `caller` is anonymous and the context
    /// is not: `caller`'s timeout and notification sink are kept.
    fn own_caller(&self, caller: &Caller) -> Option<Caller> {
        let own = self.options.caller();
        let anonymous =
            caller.identity == crate::Identity::anonymous() && caller.assigns.is_empty();
        let named = own.identity != crate::Identity::anonymous() || !own.assigns.is_empty();
        (anonymous && named).then(|| Caller {
            timeout: caller.timeout.or(own.timeout),
            notifications: caller.notifications.clone(),
            ..own
        })
    }

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
            #[cfg(any(feature = "client", feature = "http"))]
            client: None,
            era: Era::Current,
            answers: None,
            recorders: Vec::new(),
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
            #[cfg(any(feature = "client", feature = "http"))]
            client: None,
            era: Era::Current,
            answers: None,
            recorders: Vec::new(),
        }
    }

    /// A context over `client` (stdio, HTTP), which [`TestContext::in_era`] can switch.
    #[cfg(any(feature = "client", feature = "http"))]
    pub(crate) fn for_client(client: crate::client::Client) -> Self {
        TestContext::over_client(client.clone(), client)
    }

    /// A context over `target`, a target that sends through `client` (a server process it
    /// keeps alive): [`TestContext::in_era`] speaks the handshake through the client and
    /// keeps sending through `target`.
    #[cfg(any(feature = "client", feature = "http"))]
    pub(crate) fn over_client(
        target: impl Target + 'static,
        client: crate::client::Client,
    ) -> Self {
        let mut context = TestContext::for_target(target);
        context.client = Some(client);
        context
    }

    /// The same server spoken to in `era`: [`Era::Current`] (2026-07-28, the default) or
    /// [`Era::Legacy`] (2025-11-25), so one test body can show where a server behaves
    /// differently between them (`#[mcp_test(era = both)]` runs a test in each).
    ///
    /// In the 2025 era the first request is preceded by the `initialize` handshake (then
    /// `notifications/initialized`), declaring the context's client capabilities
    /// ([`RequestOptions::client_capabilities`], as they are when this is called); every
    /// helper then sends its request without the 2026-07-28 `_meta` (revision, capabilities,
    /// client info), and the results come in 2025 shape (no `resultType`), which every helper
    /// and `assert_*` macro reads as in 2026-07-28. A tool's question comes as a request of the
    /// server's own on the connection and is answered from the answers of the round helper in
    /// flight ([`TestContext::call_tool_rounds`], [`TestContext::drive_tool`]), the same
    /// answers that 2026-07-28 resends as `inputResponses`: a test written once answers the
    /// same way in both eras.
    ///
    /// That revision forbids a client to reuse a request id within a session, and every
    /// helper sends the id of [`RequestOptions::request_id`] (`1` by default): the session
    /// sends each id as it is the first time, and a later request with an id it already
    /// used under a fresh one, its reply given back under the id the request had (text sent
    /// as it is, [`Target::send_text`], passes untouched).
    ///
    /// Works on a context over an in-process server ([`TestContext::new`]; must be called
    /// inside a tokio runtime, which answers the server's requests), over stdio, over HTTP,
    /// or over your own server binary ([`TestContext::http_command`]). Panics on another
    /// context (an rmcp server, a context over any target): the handshake belongs to the
    /// connection it was built with.
    ///
    /// ```
    /// use mcp_test::testing::TestContext;
    /// use mcp_test::wire::Era;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = mcp_test::Server::builder("demo", "1.0.0").build().unwrap();
    /// let mcp = TestContext::new(server).in_era(Era::Legacy);
    /// assert_eq!(mcp.era(), Era::Legacy);
    /// // A 2025-11-25 result: no `resultType`.
    /// let pong = mcp.request("ping", serde_json::json!({})).await;
    /// assert_eq!(pong["result"], serde_json::json!({}), "{pong}");
    /// # }
    /// ```
    #[track_caller]
    #[must_use]
    pub fn in_era(&self, era: Era) -> TestContext {
        if era == self.era {
            return self.clone();
        }
        if era == Era::Current {
            panic!(
                "TestContext::in_era(Era::Current) on a context already in 2025-11-25: build the \
                 context again instead"
            );
        }
        let capabilities = self.options.client_capabilities_value();
        #[cfg(any(feature = "client", feature = "http"))]
        if let Some(client) = &self.client {
            // The client's transport answers from its own sources.
            let legacy =
                super::era::Legacy::client(client.clone(), self.target.clone(), capabilities);
            let mut context = self.clone();
            context.target = Arc::new(legacy);
            context.era = era;
            context.answers = Some(client.answer_sources());
            return context;
        }
        let answers = Arc::new(AnswerSources::default());
        let mut target: Arc<dyn Target> = match &self.server {
            Some(server) => Arc::new(super::era::Legacy::in_process(
                server.clone(),
                capabilities,
                answers.clone(),
            )),
            None => panic!(
                "TestContext::in_era(Era::Legacy): {} is not an in-process server, a stdio or \
                 an HTTP context, whose connection this context could start in 2025-11-25",
                self.target.label()
            ),
        };
        // The session is a target of its own: the recordings wrap it again.
        for recorder in &self.recorders {
            target = Arc::new(crate::testing::coverage::Recording::new(
                target,
                recorder.clone(),
            ));
        }
        let mut context = self.clone();
        context.target = target;
        context.era = era;
        context.answers = Some(answers);
        context
    }

    /// The era this context speaks ([`TestContext::in_era`]).
    pub fn era(&self) -> Era {
        self.era
    }

    /// While the returned guard lives, the server's own requests (2025 era) are answered from
    /// `answers` too; nothing in 2026-07-28, where the round driver resends them.
    pub(crate) fn answering(&self, answers: &Answers) -> Option<InFlight> {
        self.answers.as_ref().map(|sources| sources.during(answers))
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
            Ok(client) => TestContext::for_client(client),
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
            Ok(client) => TestContext::for_client(client),
            Err(e) => panic!("TestContext::http: {e}"),
        }
    }

    /// [`TestContext::http`] sending the extra headers of `options` with every request, such as
    /// a bearer token (see [`auth::bearer`](crate::auth::bearer) with feature `auth`).
    ///
    /// Panics, naming the URL and what is wrong with it.
    ///
    /// ```
    /// use mcp_test::client::HttpOptions;
    /// use mcp_test::testing::TestContext;
    /// let token = HttpOptions::new().header("Authorization", "Bearer abc").unwrap();
    /// let mcp = TestContext::http_with("http://127.0.0.1:9/mcp", &token);
    /// assert_eq!(mcp.label(), "http://127.0.0.1:9/mcp");
    /// ```
    #[cfg(feature = "http")]
    #[track_caller]
    pub fn http_with(url: impl AsRef<str>, options: &crate::client::HttpOptions) -> Self {
        match crate::client::Client::http_with(url.as_ref(), options) {
            Ok(client) => TestContext::for_client(client),
            Err(e) => panic!("TestContext::http_with: {e}"),
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
    /// (see [`coverage`](crate::testing::coverage)), whether or not `MCP_TEST_COVERAGE` is set: how a
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
    pub fn record_coverage(&self, recorder: &crate::testing::coverage::Recorder) -> TestContext {
        let mut recorders = self.recorders.clone();
        recorders.push(recorder.clone());
        TestContext {
            target: Arc::new(crate::testing::coverage::Recording::new(
                self.target.clone(),
                recorder.clone(),
            )),
            server: self.server.clone(),
            options: self.options.clone(),
            #[cfg(any(feature = "client", feature = "http"))]
            client: self.client.clone(),
            era: self.era,
            answers: self.answers.clone(),
            recorders,
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
            #[cfg(any(feature = "client", feature = "http"))]
            client: self.client.clone(),
            era: self.era,
            answers: self.answers.clone(),
            recorders: self.recorders.clone(),
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
    #[track_caller]
    pub fn call_tool(&self, name: &str, arguments: impl Serialize) -> impl Future<Output = Value> {
        call_tool(&*self.target, name, arguments, &self.options)
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
    #[track_caller]
    pub fn list_tools(&self) -> impl Future<Output = Value> {
        list_tools(&*self.target, &self.options)
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
    #[track_caller]
    pub fn list_resources(&self) -> impl Future<Output = Value> {
        list_resources(&*self.target, &self.options)
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
    #[track_caller]
    pub fn list_resource_templates(&self) -> impl Future<Output = Value> {
        list_resource_templates(&*self.target, &self.options)
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
    #[track_caller]
    pub fn read_resource(&self, uri: &str) -> impl Future<Output = Value> {
        read_resource(&*self.target, uri, &self.options)
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
    #[track_caller]
    pub fn list_prompts(&self) -> impl Future<Output = Value> {
        list_prompts(&*self.target, &self.options)
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
    #[track_caller]
    pub fn get_prompt(&self, name: &str, arguments: impl Serialize) -> impl Future<Output = Value> {
        get_prompt(&*self.target, name, arguments, &self.options)
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
    #[track_caller]
    pub fn complete(
        &self,
        reference: impl Serialize,
        argument: impl Serialize,
    ) -> impl Future<Output = Value> {
        complete(&*self.target, reference, argument, &self.options)
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
    #[track_caller]
    pub fn discover(&self) -> impl Future<Output = Value> {
        discover(&*self.target, &self.options)
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
    #[track_caller]
    pub fn request(&self, method: &str, params: impl Serialize) -> impl Future<Output = Value> {
        request(&*self.target, method, params, &self.options)
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
    #[track_caller]
    pub fn send(&self, body: &Value) -> impl Future<Output = Value> {
        send(&*self.target, body, &self.options)
    }

    /// [`exchange`]: the response and the notifications `body` caused.
    #[track_caller]
    pub fn exchange(&self, body: &Value) -> impl Future<Output = Exchange> {
        exchange(&*self.target, body, &self.options)
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
    #[track_caller]
    pub fn call_tool_exchange(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> impl Future<Output = Exchange> {
        let body = self
            .options
            .tool_call_body("call_tool_exchange", name, arguments);
        let caller = std::panic::Location::caller();
        async move { super::helpers::exchange_at(&*self.target, &body, &self.options, caller).await }
    }
}
