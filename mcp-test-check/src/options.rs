//! What `check` runs: [`CheckOptions`], and the defaults it starts from.

use mcp_test::cases::{CaseOptions, DEFAULT_TIMEOUT};
use std::time::Duration;

/// Builder methods that each set one field of the same name, with the caller's docs: the
/// library's own, which its options types build with too.
pub(crate) use mcp_test::__setters as setters;

/// The overall deadline of a check unless told otherwise: 10 minutes.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(600);

/// How many schema cases `check` runs at once by default: enough that one slow tool does not
/// hold up the run, few enough that a server handling one request at a time (many stdio
/// servers) only queues them.
pub const DEFAULT_JOBS: usize = 4;

/// How many schema cases may be in flight at most, by default, for a server slow to answer
/// each but not slowed by more of them ([`CheckOptions::max_jobs`]).
pub const DEFAULT_MAX_JOBS: usize = 16;

/// How long one schema case may run in `check` by default before it is cancelled: `check` is
/// meant to finish in seconds, and a tool slower than this is doing real work (waiting, I/O)
/// that each further case of it would repeat. [`CheckOptions::case_time`] changes it.
pub const DEFAULT_CASE_TIME: Duration = Duration::from_secs(2);

/// What `check` runs.
///
/// Build it from [`CheckOptions::default`] with its methods, each named after the field it
/// sets; the fields are public for reading.
///
/// ```
/// use mcp_test::cases::CaseOptions;
/// use mcp_test_check::{CheckOptions, check, example_server};
/// use std::time::Duration;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let options = CheckOptions::default()
///     .cases(CaseOptions::default().edge_cases(false))
///     .timeout(Duration::from_secs(5))
///     .allow_tools(["notes"])
///     .jobs(1)
///     .case_time(None);
/// assert_eq!((options.jobs, options.case_time), (1, None));
/// let report = check(&example_server(), &options).await;
/// report.assert_no_defects();
/// # }
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CheckOptions {
    /// Which cases to derive (edge cases are on by default), with the values to send
    /// ([`CaseOptions::values`]; a tool whose given values do not fit its schema is not
    /// called, and the report lists it with why; [`check_values`](mcp_test::cases::check_values) finds
    /// every such value beforehand). The cases always run without
    /// client capabilities, whatever [`CaseOptions::client_capabilities`](CaseOptions) says: a
    /// tool that needs one must answer -32021, and the multi-round probe then drives it with
    /// every capability declared.
    pub cases: CaseOptions,
    /// How long each request is waited for before the check moves on. The spec puts no time
    /// on an answer (the timeout is the client's, basic/lifecycle.mdx §Timeouts), so a
    /// request that outlasts it is a note naming it, never a defect. Its answer is still
    /// waited for in the background, up to 3 × the timeout (and at least 5 s more than it)
    /// after it was sent; at the end of the check, one still unanswered then, while the
    /// server answered requests sent after it, is a defect (JSON-RPC 2.0 §5: every request
    /// must get a response). Only requests that did time out are waited for, within the
    /// [`deadline`](Self::deadline).
    pub timeout: Duration,
    /// Called every 5 s that a request is still awaited, with a line saying which, for how
    /// long so far, and the timeout (`mcp-test check` prints it on stderr); `None` (the
    /// default): no such lines.
    pub on_waiting: Option<fn(&str)>,
    /// Call open-world tools: read-only ones whose `openWorldHint` is true or absent, which
    /// may reach outside the machine (the web, a paid or rate-limited API). On by default, and
    /// the report marks them; off (`--no-open-world`), no tool that may reach outside is
    /// called, whatever its class, unless named in [`allow_tools`](Self::allow_tools).
    /// See [`ToolClass`](crate::ToolClass).
    pub open_world: bool,
    /// Also call additive writes (`--allow-writes`): tools not read-only whose
    /// `destructiveHint` is false, which server/tools.mdx says perform "only additive
    /// updates", still writes (a commit, a new branch). Off by default.
    pub allow_writes: bool,
    /// Call every tool (`--allow-destructive`), even one the spec's defaults make potentially
    /// destructive (neither `readOnlyHint: true` nor `destructiveHint: false`). Off by
    /// default: such a tool is not called and the report says which flag would call it.
    pub allow_destructive: bool,
    /// Tools to call whatever their class (`--tool NAME`).
    pub allow_tools: Vec<String>,
    /// The overall deadline, from the start of the check (default [`DEFAULT_DEADLINE`];
    /// `None`: none). When it passes nothing more is sent, a request in flight is no longer
    /// waited for, and the report keeps what ran and says it was cut short
    /// ([`CheckReport::incomplete`](crate::CheckReport::incomplete)).
    pub deadline: Option<Duration>,
    /// How many schema cases run at once (default [`DEFAULT_JOBS`]; 1: one after the other,
    /// and so is every other request of the check). Requests are multiplexed by id on every transport, so a slow tool does not hold up
    /// the other cases. After each case a liveness request tells whether the server still
    /// answers; with several cases in flight, a case that kills the server is known only up
    /// to the cases in flight with it, which `jobs = 1` removes.
    pub jobs: usize,
    /// How many schema cases may be in flight at once for a server slow to answer each but
    /// not slowed by more of them (default [`DEFAULT_MAX_JOBS`]; `jobs` or less: never more
    /// than [`jobs`](Self::jobs)). Once the first `jobs` cases are back, a server whose median
    /// round trip is a quarter of a second or more gets one more case in flight for each case
    /// that comes back within twice that median, and one fewer for each that does not, never
    /// fewer than `jobs`: a server that waits on a backend is checked in seconds, one that is
    /// busy is not pressed harder. `jobs = 1` stays one case at a time.
    pub max_jobs: usize,
    /// Runs before each schema case and property call, given the tool's name: a reset of the
    /// state the server's tools share, for a check run from a test
    /// ([`CheckOptions::before_each`]). `mcp-test check` has none: a server in another
    /// process is reset by the user's own means, if at all.
    pub before_each: Option<mcp_test::cases::ResetHook>,
    /// Who every request of the check runs as, for a server in this process (what its
    /// `Access` rules and handlers see); `None` (the default): the target's own caller, which
    /// for a `TestContext` is its options' identity and for a bare `Server` anonymous. A
    /// server in another process authenticates the check by its transport (`--auth-issuer`).
    pub identity: Option<mcp_test::Identity>,
    /// How long one schema case may run (default [`DEFAULT_CASE_TIME`]; `None`: up to
    /// [`timeout`](Self::timeout)). A case still running then is cancelled
    /// (`notifications/cancelled` on stdio, its response stream closed on HTTP, as the spec's
    /// cancellation pattern says), the tool's later valid cases are not sent, and the report notes
    /// it: its outcome is [`Happened::Slow`](mcp_test::cases::Happened::Slow), no verdict either way.
    pub case_time: Option<Duration>,
    /// How long `check_connected` waits for a stdio server to exit after closing its stdin,
    /// before it kills it (default 2 s, the client's `DEFAULT_CLOSE_GRACE`).
    pub close_grace: Duration,
    /// Property tests after the schema cases (`--properties N`): `N` cases per property for
    /// each tool and action `check` may call, held to the invariants of
    /// `cases::properties` (feature `properties`), as probe `tools/properties`.
    /// `None` (the default): none.
    pub properties: Option<u32>,
    /// Send every schema case (`--all-cases`). `false` (the default): a case is sent only when
    /// no earlier one probes the same rule the same way (what it varies from its tool's base
    /// case, names left out), and every tool's base case is sent; the report counts what was
    /// left out. Cost then follows what there is to learn, not the number of tools.
    pub all_cases: bool,
    /// The authorization server the checked server trusts (`--auth-issuer`): with it, the
    /// token probes (`auth/*`) send the server tokens of that issuer that are wrong in one
    /// way each (another audience, expired, a changed signature, too few scopes). `None` (the
    /// default): they are skipped.
    pub auth_issuer: Option<crate::AuthIssuer>,
    /// How to open another connection to the server ([`Reconnect`](crate::Reconnect)): over
    /// stdio the probes that write what a client must not (a message that is not JSON, a
    /// request without `method`) run on one of their own, and a server that serves both eras
    /// is checked in each. `None` (the default): those probes run last on the session, and
    /// the other era is not checked (the report says so). `mcp-test check` always gives one.
    pub reconnect: Option<crate::Reconnect>,
    /// The surface the user approved (`--pin FILE`, the document `mcp-test surface` writes):
    /// every definition of an approved item that the server now lists changed is a
    /// `rug/pin-changed` security finding. `None` (the default): nothing is pinned.
    pub pin: Option<mcp_test::surface::Surface>,
    /// Set on the other era's session of a check: the probes run once a server (the ones
    /// that write what a client must not) were run in the first.
    pub(crate) second_session: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            cases: CaseOptions::default(),
            timeout: DEFAULT_TIMEOUT,
            open_world: true,
            allow_writes: false,
            on_waiting: None,
            allow_destructive: false,
            allow_tools: Vec::new(),
            deadline: Some(DEFAULT_DEADLINE),
            jobs: DEFAULT_JOBS,
            max_jobs: DEFAULT_MAX_JOBS,
            before_each: None,
            identity: None,
            case_time: Some(DEFAULT_CASE_TIME),
            close_grace: mcp_test::target::CLOSE_GRACE,
            properties: None,
            all_cases: false,
            auth_issuer: None,
            reconnect: None,
            pin: None,
            second_session: false,
        }
    }
}

impl CheckOptions {
    /// Runs `hook` before each schema case and each property call, given the tool's name, so
    /// that each is judged on the state the test means: without one, a stateful tool's later
    /// cases meet what earlier ones left. Cases run [`jobs`](Self::jobs) at a time, so a
    /// hook that resets state shared by every tool wants `jobs(1)`.
    ///
    /// ```
    /// use mcp_test::{Context, Server, Tool, ToolError};
    /// use mcp_test_check::{check, CheckOptions};
    /// use std::sync::{Arc, Mutex};
    ///
    /// /// Claims the one slot for a name: while it is held, every claim is refused.
    /// #[derive(Tool)]
    /// #[tool(name = "claim", annotations(destructive = false, open_world = false))]
    /// struct Claim {
    ///     /// The name, at most 8 characters
    ///     #[tool(max_length = 8)]
    ///     name: String,
    /// }
    ///
    /// type Taken = Arc<Mutex<Vec<String>>>;
    ///
    /// impl Claim {
    ///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
    ///         let taken = ctx.state::<Taken>().expect("the store");
    ///         let mut taken = taken.lock().unwrap();
    ///         if let Some(holder) = taken.first() {
    ///             return Err(ToolError::new(format!("the slot is held by {holder}")));
    ///         }
    ///         taken.push(self.name.clone());
    ///         Ok(format!("claimed {}", self.name))
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let taken: Taken = Arc::default();
    /// let server = Server::builder("claims", "1.0.0")
    ///     .state(taken.clone())
    ///     .tool::<Claim>()
    ///     .build()
    ///     .unwrap();
    /// let options = CheckOptions::default()
    ///     .allow_writes(true)
    ///     .jobs(1)
    ///     .before_each(move |_tool: &str| taken.lock().unwrap().clear());
    /// let report = check(&server, &options).await;
    /// assert!(!report.has_defects(), "{}", report.to_text());
    /// // Every case met an empty slot: each valid claim succeeded, none was refused.
    /// assert!(report.cases.outcomes.iter().all(|o| o.agrees), "{}", report.to_text());
    /// # }
    /// ```
    #[must_use]
    pub fn before_each(mut self, hook: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.before_each = Some(mcp_test::cases::ResetHook::new(hook));
        self
    }

    /// Runs every request of the check as `identity`, for a server in this process
    /// ([`identity`](Self::identity)): the tools behind its scopes are listed and called.
    ///
    /// ```
    /// use mcp_test::{Access, Context, Identity, Server, Tool, ToolError};
    /// use mcp_test_check::{check, CheckOptions};
    ///
    /// /// Reads the audit log.
    /// #[derive(Tool)]
    /// #[tool(name = "audit", annotations(read_only))]
    /// struct Audit {}
    /// impl Audit {
    ///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
    ///         Ok("no entries".into())
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = Server::builder("ops", "1.0.0")
    ///     .tool_with_access::<Audit>(Access::scopes(["audit.read"]).hidden_without_scope())
    ///     .build()
    ///     .unwrap();
    /// let auditor = Identity::principal("ada").with_scopes(["audit.read"]);
    /// let report = check(&server, &CheckOptions::default().identity(auditor)).await;
    /// assert!(report.tools.iter().any(|t| t.name == "audit" && t.called), "{}", report.to_text());
    /// # }
    /// ```
    #[must_use]
    pub fn identity(mut self, identity: mcp_test::Identity) -> Self {
        self.identity = Some(identity);
        self
    }

    setters! {
        /// Which cases to derive, with which values, for which tools ([`CaseOptions`]).
        cases: CaseOptions;

        /// Another per-call timeout (default [`DEFAULT_TIMEOUT`]); what it means is
        /// [`timeout`](Self::timeout)'s.
        timeout: Duration;

        /// Whether to call open-world tools (default true; `--no-open-world` is `false`).
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// assert!(CheckOptions::default().open_world);
        /// assert!(!CheckOptions::default().open_world(false).open_world);
        /// ```
        open_world: bool;

        /// Whether to call additive writes too (`--allow-writes`; default false).
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// assert!(CheckOptions::default().allow_writes(true).allow_writes);
        /// ```
        allow_writes: bool;

        /// A function told every 5 s that a request is still awaited ([`on_waiting`](Self::on_waiting)).
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// let options = CheckOptions::default().on_waiting(Some(|line| eprintln!("{line}")));
        /// assert!(options.on_waiting.is_some());
        /// ```
        on_waiting: Option<fn(&str)>;

        /// Whether to call every tool, even one the spec's defaults make potentially destructive.
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// assert!(CheckOptions::default().allow_destructive(true).allow_destructive);
        /// ```
        allow_destructive: bool;
    }

    /// Adds tools to call whatever their class (`--tool NAME`).
    ///
    /// ```
    /// use mcp_test_check::CheckOptions;
    /// let options = CheckOptions::default().allow_tools(["book_table"]).allow_tools(["cancel"]);
    /// assert_eq!(options.allow_tools, ["book_table", "cancel"]);
    /// ```
    #[must_use]
    pub fn allow_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.allow_tools.extend(tools.into_iter().map(Into::into));
        self
    }

    setters! {
        /// Another overall deadline; `None`: none (default [`DEFAULT_DEADLINE`]).
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// use std::time::Duration;
        /// let options = CheckOptions::default().deadline(Some(Duration::from_secs(60)));
        /// assert_eq!(options.deadline, Some(Duration::from_secs(60)));
        /// assert_eq!(options.deadline(None).deadline, None);
        /// ```
        deadline: Option<Duration>;

        /// How many schema cases run at once (default [`DEFAULT_JOBS`]; 1: one after the other).
        jobs: usize;

        /// How many schema cases may be in flight for a slow server that keeps its pace
        /// (default [`DEFAULT_MAX_JOBS`]); what it means is [`max_jobs`](Self::max_jobs)'s.
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// let options = CheckOptions::default().jobs(2).max_jobs(2);
        /// assert_eq!((options.jobs, options.max_jobs), (2, 2));
        /// ```
        max_jobs: usize;

        /// How long one schema case may run; `None`: up to the [`timeout`](Self::timeout)
        /// (default [`DEFAULT_CASE_TIME`]).
        case_time: Option<Duration>;

        /// How long `check_connected` waits for a stdio server to exit after closing its stdin.
        close_grace: Duration;

        /// Property tests after the schema cases, this many cases per property; `None` (the
        /// default): none.
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// assert_eq!(CheckOptions::default().properties(Some(16)).properties, Some(16));
        /// ```
        properties: Option<u32>;

        /// Send every schema case, not one of each kind ([`all_cases`](Self::all_cases)).
        ///
        /// ```
        /// use mcp_test_check::CheckOptions;
        /// assert!(!CheckOptions::default().all_cases);
        /// assert!(CheckOptions::default().all_cases(true).all_cases);
        /// ```
        all_cases: bool;

        /// The authorization server the checked server trusts ([`auth_issuer`](Self::auth_issuer)).
        auth_issuer(issuer: Option<crate::AuthIssuer>) => auth_issuer = issuer;

        /// How to open another connection to the server ([`reconnect`](Self::reconnect)).
        reconnect: Option<crate::Reconnect>;

        /// The surface the user approved ([`pin`](Self::pin)).
        ///
        /// ```
        /// use mcp_test::surface::Surface;
        /// use mcp_test_check::CheckOptions;
        /// assert!(CheckOptions::default().pin(Some(Surface::new())).pin.is_some());
        /// ```
        pin: Option<mcp_test::surface::Surface>;
    }
}
