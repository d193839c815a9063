//! What a property run is told: the built-in [`Invariant`]s, a user's own
//! ([`UserInvariant`]), and [`PropertyOptions`] (cases, seed, which tools, timeouts, shrinking).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::cases::options::selection_setters;
use crate::cases::{DEFAULT_TIMEOUT, Selection};
use crate::setters;

/// A built-in invariant of the property tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Invariant {
    /// Valid arguments never get a JSON-RPC error other than -32021 (a missing client
    /// capability); `input_required` is fine.
    NoProtocolError,
    /// A successful result's `structuredContent` validates against the tool's `outputSchema`
    /// (and is there when the tool declares one).
    OutputSchema,
    /// The server answers each call, and the next request after it (`tools/list`).
    Answers,
    /// Arguments that break exactly one constraint get `isError: true` whose text names that
    /// place, in any of the conventions SDKs use ([`names_broken_place`](super::names_broken_place)): its JSON pointer
    /// (`/data/when`), the name of the field (`` missing field `room` ``), or the offending
    /// value (`invalid value: integer -5`).
    InvalidNamed,
}

impl Invariant {
    /// Every built-in invariant.
    pub const ALL: [Invariant; 4] = [
        Invariant::NoProtocolError,
        Invariant::OutputSchema,
        Invariant::Answers,
        Invariant::InvalidNamed,
    ];

    /// Its name in reports and regressions files: `no-protocol-error`, `output-schema`,
    /// `answers`, `invalid-named`.
    ///
    /// ```
    /// use mcp_test::cases::properties::Invariant;
    /// assert_eq!(Invariant::InvalidNamed.name(), "invalid-named");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Invariant::NoProtocolError => "no-protocol-error",
            Invariant::OutputSchema => "output-schema",
            Invariant::Answers => "answers",
            Invariant::InvalidNamed => "invalid-named",
        }
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The check of a [`UserInvariant`]: the arguments and the whole JSON-RPC response.
pub type InvariantFn = dyn Fn(&Value, &Value) -> Result<(), String> + Send + Sync;

/// An invariant of your own: a name and a closure over the (valid) arguments and the whole
/// JSON-RPC response, which returns why it does not hold. Two are equal when they are the
/// same one.
#[derive(Clone)]
pub struct UserInvariant {
    /// Its name in reports.
    pub name: String,
    /// The check.
    pub check: Arc<InvariantFn>,
}

impl fmt::Debug for UserInvariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UserInvariant")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The default number of cases per property: 64, or `MCP_TEST_PROPERTY_CASES` when it is set
/// to a number.
///
/// ```
/// // With MCP_TEST_PROPERTY_CASES unset:
/// # if std::env::var_os("MCP_TEST_PROPERTY_CASES").is_none() {
/// assert_eq!(mcp_test::cases::properties::default_cases(), 64);
/// # }
/// ```
pub fn default_cases() -> u32 {
    std::env::var("MCP_TEST_PROPERTY_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(64)
}

/// What [`check_properties`](super::check_properties) runs, and how.
///
/// Build it from [`PropertyOptions::default`] with its methods (each named after the field it
/// sets); the fields are public for reading.
///
/// ```
/// use mcp_test::cases::properties::PropertyOptions;
/// use mcp_test::cases::Selection;
/// let options = PropertyOptions::default().cases(8).only("add").seed(7);
/// assert_eq!(options.selection, Selection::default().only("add").seed(7));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PropertyOptions {
    /// Cases per property: for each tool (each action of an action tool), this many calls
    /// with valid arguments and this many with arguments broken in one place. Default
    /// [`default_cases`](default_cases): 64, or `MCP_TEST_PROPERTY_CASES`.
    pub cases: u32,
    /// Which tools and actions run ([`Selection::only`], [`Selection::skip`]), the seed every
    /// tool's, action's and property's own seed is derived from, and who each call runs as,
    /// for a server in this process ([`Selection::identity`]).
    pub selection: Selection,
    /// The built-in invariants switched off.
    pub without: Vec<Invariant>,
    /// Your own invariants, checked after each call with valid arguments.
    pub invariants: Vec<UserInvariant>,
    /// The directory of the regressions files (`<dir>/<tool>.json`); `None`: none are read
    /// or written. [`assert_properties!`](crate::assert_properties) sets
    /// `mcp-test-regressions/` in the crate of the test.
    pub regressions: Option<PathBuf>,
    /// The per-call timeout.
    pub timeout: Duration,
    /// How long one call may run before it is cancelled and counts for nothing (`None`: up to
    /// [`timeout`](Self::timeout)). `check --properties` sets its `--case-time`.
    pub case_time: Option<Duration>,
    /// The most calls one failure's shrinking may make.
    pub max_shrink_calls: u32,
    /// Runs before every call (valid, broken, replayed and shrinking ones alike), given the
    /// tool's name: to reset the state the calls share, so that each is judged on the state
    /// the test means ([`PropertyOptions::before_each`]).
    pub before_each: Option<crate::cases::ResetHook>,
}

impl Default for PropertyOptions {
    /// [`default_cases`](default_cases) cases, [`Selection::default`] (every tool,
    /// seed [`Selection::DEFAULT_SEED`], anonymous), every built-in invariant, no regressions
    /// file, a 30-second timeout, no time limit of its own per call, at most 512 calls to
    /// shrink a failure.
    fn default() -> Self {
        PropertyOptions {
            cases: default_cases(),
            selection: Selection::default(),
            without: Vec::new(),
            invariants: Vec::new(),
            regressions: None,
            timeout: DEFAULT_TIMEOUT,
            case_time: None,
            max_shrink_calls: 512,
            before_each: None,
        }
    }
}

impl PropertyOptions {
    setters! {
        /// Cases per property.
        ///
        /// ```
        /// use mcp_test::cases::properties::PropertyOptions;
        /// assert_eq!(PropertyOptions::default().cases(8).cases, 8);
        /// ```
        cases: u32;
    }

    selection_setters!(
        PropertyOptions,
        "mcp_test::cases::properties::PropertyOptions"
    );

    /// Runs `hook` before every call of a tool, given its name: a reset of the state the
    /// generated calls share. Without one, a stateful tool's later calls meet what earlier
    /// ones left (a name already taken, a store full), and a property fails on the order of
    /// the cases rather than on the tool.
    ///
    /// ```
    /// use mcp_test::cases::properties::PropertyOptions;
    /// use std::sync::{Arc, Mutex};
    /// let store = Arc::new(Mutex::new(vec!["left over"]));
    /// let shared = store.clone();
    /// let options = PropertyOptions::default().before_each(move |_tool: &str| {
    ///     shared.lock().unwrap().clear();
    /// });
    /// options.before_each.as_ref().unwrap().run("add");
    /// assert!(store.lock().unwrap().is_empty());
    /// ```
    #[must_use]
    pub fn before_each(mut self, hook: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.before_each = Some(crate::cases::ResetHook::new(hook));
        self
    }

    /// Switches a built-in invariant off.
    ///
    /// ```
    /// use mcp_test::cases::properties::{Invariant, PropertyOptions};
    /// let options = PropertyOptions::default().without(Invariant::InvalidNamed);
    /// assert!(!options.checks(Invariant::InvalidNamed));
    /// assert!(options.checks(Invariant::Answers));
    /// ```
    #[must_use]
    pub fn without(mut self, invariant: Invariant) -> Self {
        self.without.push(invariant);
        self
    }

    /// Whether a built-in invariant is on.
    pub fn checks(&self, invariant: Invariant) -> bool {
        !self.without.contains(&invariant)
    }

    /// Adds an invariant of your own, `(name, check)`: `check` gets the valid arguments and
    /// the whole JSON-RPC response of each call, and returns why it does not hold.
    ///
    /// ```
    /// use mcp_test::cases::properties::PropertyOptions;
    /// use serde_json::Value;
    /// let options = PropertyOptions::default().invariant(("never empty", |_: &Value, r: &Value| {
    ///     if r.pointer("/result/content/0").is_some() { Ok(()) } else { Err("no content".into()) }
    /// }));
    /// assert_eq!(options.invariants[0].name, "never empty");
    /// ```
    #[must_use]
    pub fn invariant<N, F>(mut self, (name, check): (N, F)) -> Self
    where
        N: Into<String>,
        F: Fn(&Value, &Value) -> Result<(), String> + Send + Sync + 'static,
    {
        self.invariants.push(UserInvariant {
            name: name.into(),
            check: Arc::new(check),
        });
        self
    }

    setters! {
        /// Keeps the minimal failing arguments in `dir` (`<dir>/<tool>.json`) and replays them
        /// first.
        ///
        /// ```
        /// use mcp_test::cases::properties::PropertyOptions;
        /// let options = PropertyOptions::default().regressions("tests/mcp-test-regressions");
        /// assert!(options.regressions.unwrap().ends_with("mcp-test-regressions"));
        /// ```
        regressions(dir: impl Into<PathBuf>) => regressions = Some(dir.into());
    }

    /// Keeps no regressions file (the argument is ignored; `no_regressions = ()` in
    /// [`assert_properties!`](crate::assert_properties)).
    ///
    /// ```
    /// use mcp_test::cases::properties::PropertyOptions;
    /// assert!(PropertyOptions::default().regressions("x").no_regressions(()).regressions.is_none());
    /// ```
    #[must_use]
    pub fn no_regressions(mut self, (): ()) -> Self {
        self.regressions = None;
        self
    }

    setters! {
        /// Another per-call timeout.
        ///
        /// ```
        /// use mcp_test::cases::properties::PropertyOptions;
        /// use std::time::Duration;
        /// let options = PropertyOptions::default().timeout(Duration::from_secs(5));
        /// assert_eq!(options.timeout, Duration::from_secs(5));
        /// ```
        timeout: Duration;

        /// How long one call may run before it is cancelled and counts for nothing; `None` (the
        /// default): up to the [`timeout`](Self::timeout).
        ///
        /// ```
        /// use mcp_test::cases::properties::PropertyOptions;
        /// use std::time::Duration;
        /// let options = PropertyOptions::default().case_time(Some(Duration::from_secs(2)));
        /// assert_eq!(options.case_time, Some(Duration::from_secs(2)));
        /// ```
        case_time: Option<Duration>;

        /// The most calls one failure's shrinking may make.
        ///
        /// ```
        /// use mcp_test::cases::properties::PropertyOptions;
        /// assert_eq!(PropertyOptions::default().max_shrink_calls(10).max_shrink_calls, 10);
        /// ```
        max_shrink_calls: u32;
    }
}
