//! What to derive and how to run it ([`CaseOptions`]), and which tools and actions run, with
//! which seed and as whom ([`Selection`], shared with the property tests).

use super::Case;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

use crate::setters;

/// Which tools and actions run, from which seed, and as whom: what [`CaseOptions`] and the
/// property tests' `PropertyOptions` (feature `properties`) both hold, as their `selection`.
///
/// Build it with its methods; the fields are public for reading.
///
/// ```
/// use mcp_test::cases::Selection;
/// use mcp_test::Identity;
///
/// let selection = Selection::default()
///     .only("orders")
///     .skip(("orders", "cancel"))
///     .seed(7)
///     .identity(Identity::principal("ada"));
/// assert!(selection.selects("orders", Some("get")));
/// assert!(!selection.selects("orders", Some("cancel")));
/// assert!(!selection.selects("weather", None));
/// assert_eq!(selection.seed, 7);
/// assert_eq!(Selection::default().seed, Selection::DEFAULT_SEED);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Selection {
    /// When not empty, only these tools (and actions) run.
    pub only: Vec<Selector>,
    /// Tools (and actions) that do not run.
    pub skip: Vec<Selector>,
    /// The seed of the generators: the `pattern` strings of the derived cases, and every
    /// tool's, action's and property's own seed in the property tests. The same seed gives
    /// the same cases.
    pub seed: u64,
    /// Who every call runs as, for a server in this process (the `Identity` a handler reads
    /// with `Context::identity`); a client target reaches its server as its transport
    /// authenticates, and ignores it. `None` (the default): anonymous.
    pub identity: Option<crate::Identity>,
    /// Whether running on nothing passes: no tool listed to this caller, an `only` that names
    /// no listed tool, or every tool skipped. `false` (the default): `assert_schema_cases!`
    /// and `assert_properties!` fail then, naming why, since a test that tested nothing
    /// should not be green ([`Selection::ran_on_nothing`]).
    pub allow_empty: bool,
}

impl Default for Selection {
    /// Every tool and action, seed [`Selection::DEFAULT_SEED`], anonymous.
    fn default() -> Self {
        Selection {
            only: Vec::new(),
            skip: Vec::new(),
            seed: Selection::DEFAULT_SEED,
            identity: None,
            allow_empty: false,
        }
    }
}

impl Selection {
    /// The seed unless told otherwise: `0x6d63_7074` ("mcpt"), fixed, so runs repeat.
    pub const DEFAULT_SEED: u64 = 0x6d63_7074;

    /// This tool, or this action of a tool, and (with other `only`s) no other.
    ///
    /// ```
    /// use mcp_test::cases::Selection;
    /// let selection = Selection::default().only("orders").only(("shop", "buy"));
    /// assert_eq!(selection.only.len(), 2);
    /// assert!(selection.selects("shop", Some("buy")) && !selection.selects("shop", Some("sell")));
    /// ```
    #[must_use]
    pub fn only(mut self, selector: impl Into<Selector>) -> Self {
        self.only.push(selector.into());
        self
    }

    /// Not this tool, or not this action of a tool (`("orders", "cancel")`).
    ///
    /// ```
    /// use mcp_test::cases::Selection;
    /// let selection = Selection::default().skip("delete_all");
    /// assert_eq!(selection.skip[0].tool, "delete_all");
    /// assert!(!selection.selects("delete_all", None));
    /// ```
    #[must_use]
    pub fn skip(mut self, selector: impl Into<Selector>) -> Self {
        self.skip.push(selector.into());
        self
    }

    setters! {
        /// Another seed.
        ///
        /// ```
        /// use mcp_test::cases::Selection;
        /// assert_eq!(Selection::default().seed(7).seed, 7);
        /// ```
        seed: u64;

        /// Run every call as `identity` (in process; see
        /// [`Selection::identity`](Selection#structfield.identity)).
        ///
        /// ```
        /// use mcp_test::cases::Selection;
        /// use mcp_test::Identity;
        /// let selection = Selection::default().identity(Identity::principal("ada"));
        /// assert_eq!(selection.identity.unwrap().principal.as_deref(), Some("ada"));
        /// ```
        identity(identity: crate::Identity) => identity = Some(identity);

        /// Let a run on nothing pass (see
        /// [`Selection::allow_empty`](Selection#structfield.allow_empty)).
        ///
        /// ```
        /// use mcp_test::cases::Selection;
        /// assert!(Selection::default().allow_empty(true).allow_empty);
        /// ```
        allow_empty: bool;
    }

    /// Why a run over `tools` (as listed to this selection's caller) would test nothing,
    /// when it would: the server lists no tool to this caller, an `only` names a tool it does
    /// not list, or every listed tool is skipped. `who` names the macro in the message.
    ///
    /// ```
    /// use mcp_test::cases::Selection;
    /// use serde_json::json;
    /// let tools = [json!({"name": "add", "inputSchema": {"type": "object"}})];
    /// assert!(Selection::default().ran_on_nothing(&tools, "assert_schema_cases!").is_none());
    /// let why = Selection::default().only("nope").ran_on_nothing(&tools, "assert_schema_cases!");
    /// assert!(why.unwrap().contains("`only = \"nope\"`"));
    /// let why = Selection::default().ran_on_nothing(&[], "assert_properties!").unwrap();
    /// assert!(why.contains("lists no tool"));
    /// ```
    pub fn ran_on_nothing(&self, tools: &[serde_json::Value], who: &str) -> Option<String> {
        let names: Vec<&str> = tools
            .iter()
            .filter_map(|t| t.get("name").and_then(serde_json::Value::as_str))
            .collect();
        let caller = match &self.identity {
            Some(identity) => format!("{identity:?}"),
            None => "the target's own caller".to_owned(),
        };
        let opt_out = "`allow_empty = true` if the test means it";
        if names.is_empty() {
            return Some(format!(
                "{who}: the server lists no tool to this caller ({caller}), so nothing was tested; a tool behind a scope is listed only to a caller that holds it (`identity = ..`, or the context's scopes); {opt_out}"
            ));
        }
        let listed = names.join(", ");
        for selector in &self.only {
            if !names.contains(&selector.tool.as_str()) {
                return Some(format!(
                    "{who}: `only = {}` names no tool the server lists to this caller ({caller}; it lists {listed}); {opt_out}",
                    selector.describe()
                ));
            }
        }
        if !names.iter().any(|n| self.may_select_tool(n)) {
            return Some(format!(
                "{who}: every tool the server lists ({listed}) is skipped, so nothing was tested; {opt_out}"
            ));
        }
        None
    }

    /// Whether `tool` runs, or (with `action`) that action of it: some `only` names it (or
    /// there is none) and no `skip` does. A selector of a whole tool names each of its
    /// actions; a selector of one action names no other, and not the tool without an action.
    ///
    /// ```
    /// use mcp_test::cases::Selection;
    /// let selection = Selection::default().only(("orders", "get"));
    /// assert!(selection.selects("orders", Some("get")));
    /// assert!(!selection.selects("orders", Some("cancel")));
    /// assert!(!selection.selects("orders", None));
    /// let selection = Selection::default().skip(("orders", "cancel"));
    /// assert!(selection.selects("orders", Some("get")) && selection.selects("orders", None));
    /// ```
    pub fn selects(&self, tool: &str, action: Option<&str>) -> bool {
        let named = |s: &Selector| s.names(tool, action);
        (self.only.is_empty() || self.only.iter().any(named)) && !self.skip.iter().any(named)
    }

    /// Whether `case` runs: [`Selection::selects`] of its tool and of the action in its
    /// arguments. The unknown-action case of an action tool belongs to no declared action:
    /// an `only` of one action leaves it out, a `skip` of one action keeps it.
    pub fn selects_case(&self, case: &Case) -> bool {
        self.selects(&case.tool, case.args.action())
    }

    /// Whether `tool` may have anything that runs: some `only` names it or one of its
    /// actions (or there is none), and no `skip` names the whole tool.
    pub(crate) fn may_select_tool(&self, tool: &str) -> bool {
        (self.only.is_empty() || self.only.iter().any(|s| s.tool == tool))
            && !self
                .skip
                .iter()
                .any(|s| s.tool == tool && s.action.is_none())
    }

    /// Whether every tool and action runs (no `only`, no `skip`).
    pub(crate) fn selects_everything(&self) -> bool {
        self.only.is_empty() && self.skip.is_empty()
    }
}

/// The builder methods of an options struct `$ty` (at `$path`) with a `selection: Selection`
/// field, each setting it or one part of it: `selection`, `seed`, `only`, `skip`, `identity`.
macro_rules! selection_setters {
    ($ty:ident, $path:literal) => {
        $crate::__setters! {
            /// Which tools and actions run, the seed, and who runs them, all at once (`only`,
            /// `skip`, `seed` and `identity` set one part each).
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            /// use mcp_test::cases::Selection;
            /// let selection = Selection::default().skip("delete_all").seed(7);
            #[doc = concat!("let options = ", stringify!($ty), "::default().selection(selection.clone());")]
            /// assert_eq!(options.selection, selection);
            /// ```
            selection: $crate::cases::Selection;
        }

        /// Another seed ([`Selection::seed`](crate::cases::Selection::seed)).
        ///
        /// ```
        #[doc = concat!("use ", $path, ";")]
        #[doc = concat!("assert_eq!(", stringify!($ty), "::default().seed(7).selection.seed, 7);")]
        /// ```
        #[must_use]
        pub fn seed(mut self, seed: u64) -> Self {
            self.selection = self.selection.seed(seed);
            self
        }

        /// This tool, or this action of a tool, and (with other `only`s) no other
        /// ([`Selection::only`](crate::cases::Selection::only)).
        ///
        /// ```
        #[doc = concat!("use ", $path, ";")]
        #[doc = concat!("let options = ", stringify!($ty), "::default().only(\"orders\").only((\"shop\", \"buy\"));")]
        /// assert_eq!(options.selection.only.len(), 2);
        /// ```
        #[must_use]
        pub fn only(mut self, selector: impl Into<$crate::cases::Selector>) -> Self {
            self.selection = self.selection.only(selector);
            self
        }

        /// Not this tool, or not this action of a tool (`("orders", "cancel")`;
        /// [`Selection::skip`](crate::cases::Selection::skip)).
        ///
        /// ```
        #[doc = concat!("use ", $path, ";")]
        #[doc = concat!("let options = ", stringify!($ty), "::default().skip(\"delete_all\");")]
        /// assert_eq!(options.selection.skip[0].tool, "delete_all");
        /// ```
        #[must_use]
        pub fn skip(mut self, selector: impl Into<$crate::cases::Selector>) -> Self {
            self.selection = self.selection.skip(selector);
            self
        }

        /// Runs every call as `identity` (in process;
        /// [`Selection::identity`](crate::cases::Selection#structfield.identity)).
        ///
        /// ```
        #[doc = concat!("use ", $path, ";")]
        /// use mcp_test::Identity;
        #[doc = concat!("let options = ", stringify!($ty), "::default().identity(Identity::principal(\"ada\"));")]
        /// assert_eq!(options.selection.identity.unwrap().principal.as_deref(), Some("ada"));
        /// ```
        #[must_use]
        pub fn identity(mut self, identity: $crate::Identity) -> Self {
            self.selection = self.selection.identity(identity);
            self
        }

        /// Let a run on nothing pass: no tool listed to this caller, an `only` naming no
        /// listed tool, every tool skipped
        /// ([`Selection::allow_empty`](crate::cases::Selection#structfield.allow_empty)).
        ///
        /// ```
        #[doc = concat!("use ", $path, ";")]
        #[doc = concat!("assert!(", stringify!($ty), "::default().allow_empty(true).selection.allow_empty);")]
        /// ```
        #[must_use]
        pub fn allow_empty(mut self, allow: bool) -> Self {
            self.selection = self.selection.allow_empty(allow);
            self
        }
    };
}
#[cfg(feature = "properties")]
pub(crate) use selection_setters;

/// What to derive, and how to run it.
///
/// Build it from [`CaseOptions::default`] with its methods (each named after the field it
/// sets); the fields are public for reading.
///
/// ```
/// use mcp_test::cases::{derive_for_tools, CaseOptions, Selection};
/// use serde_json::json;
/// let options = CaseOptions::default().edge_cases(false).only("forecast").seed(7);
/// assert_eq!(options.selection, Selection::default().only("forecast").seed(7));
///
/// // Only what `only` names, nothing `skip` names.
/// let tools = vec![json!({"name": "a", "inputSchema": {"type": "object"}}),
///                  json!({"name": "b", "inputSchema": {"type": "object"}})];
/// let (cases, _) = derive_for_tools(&tools, &CaseOptions::default().only("b"));
/// assert!(cases.iter().all(|c| c.tool == "b"));
/// let (cases, _) = derive_for_tools(&tools, &CaseOptions::default().skip("a"));
/// assert!(!cases.is_empty() && cases.iter().all(|c| c.tool == "b"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CaseOptions {
    /// Boundary and negative cases too; without them, one valid case per tool and action.
    pub edge_cases: bool,
    /// Which tools and actions get cases ([`Selection::only`], [`Selection::skip`]), the seed
    /// of the generator for `pattern` strings (the same seed gives the same cases), and who
    /// every case runs as, for a server in this process ([`Selection::identity`]).
    pub selection: Selection,
    /// The client capabilities each case declares in
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]` when it runs. `None` (the default)
    /// declares none: a tool that asks for input must answer -32021. `Some`: every
    /// `input_required` round is answered with a synthesized answer
    /// ([`Answers::synthesized`](crate::target::Answers::synthesized)) through
    /// [`target::drive`](crate::target::drive), and the case's outcome is the final response.
    pub client_capabilities: Option<Value>,
    /// Values to send, by tool (`"*"`: every tool) and by JSON pointer into the arguments
    /// (`/path`, `/data/when`), used before anything the schema or the generator offers in
    /// every valid case. A tool's own entry wins over `"*"`; a `"*"` entry applies to the
    /// tools whose input schema declares that pointer. A value its schema rejects fails the
    /// derivation of that tool, naming the pointer and the violation
    /// ([`check_values`](super::check_values) checks them all at once). See
    /// [`CaseOptions::value`].
    pub values: BTreeMap<String, BTreeMap<String, Value>>,
    /// Runs on each case before it is sent, and may change its arguments: to put in an id
    /// that exists, say. See [`CaseOptions::before_each`].
    pub before_each: Option<CaseHook>,
    /// Cases whose prediction is known not to hold, by tool and title (a business rule the
    /// schema cannot express). [`assert_schema_cases!`](crate::assert_schema_cases) accepts
    /// their disagreement, and fails when one of them agrees after all or names no case.
    /// See [`CaseOptions::expect_failure`].
    pub expected_failures: Vec<(String, String)>,
}

impl Default for CaseOptions {
    /// Edge cases on, [`Selection::default`] (every tool, seed [`Selection::DEFAULT_SEED`],
    /// anonymous), no client capabilities, no values, no hook, no expected failures.
    fn default() -> Self {
        CaseOptions {
            edge_cases: true,
            selection: Selection::default(),
            client_capabilities: None,
            values: BTreeMap::new(),
            before_each: None,
            expected_failures: Vec::new(),
        }
    }
}

/// A tool, or one action of an action tool, for [`Selection::only`] and
/// [`Selection::skip`]: `"orders"` or `("orders", "cancel")`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    /// The tool.
    pub tool: String,
    /// One action of it; `None`: the whole tool.
    pub action: Option<String>,
}

impl Selector {
    /// How a test names it: `"orders"` or `("orders", "cancel")`.
    pub(crate) fn describe(&self) -> String {
        match &self.action {
            Some(action) => format!("({:?}, {action:?})", self.tool),
            None => format!("{:?}", self.tool),
        }
    }

    /// Whether the case is of this tool (and action).
    pub fn matches(&self, case: &Case) -> bool {
        self.names(&case.tool, case.args.action())
    }

    /// Whether this is `tool`, or (with `action`) `tool` or that action of it.
    fn names(&self, tool: &str, action: Option<&str>) -> bool {
        self.tool == tool && self.action.as_deref().is_none_or(|own| action == Some(own))
    }
}

impl From<&str> for Selector {
    fn from(tool: &str) -> Self {
        Selector {
            tool: tool.to_owned(),
            action: None,
        }
    }
}

impl From<String> for Selector {
    fn from(tool: String) -> Self {
        Selector { tool, action: None }
    }
}

impl<T: Into<String>, A: Into<String>> From<(T, A)> for Selector {
    fn from((tool, action): (T, A)) -> Self {
        Selector {
            tool: tool.into(),
            action: Some(action.into()),
        }
    }
}

/// A hook run before each generated call of a tool, given the tool's name: a reset of the
/// state generated calls share (a store emptied, a fixture re-seeded), for
/// [`PropertyOptions::before_each`](crate::cases::properties::PropertyOptions) and
/// `mcp_test_check::CheckOptions::before_each`. Two hooks are equal when they are the same
/// one.
///
/// ```
/// use mcp_test::cases::ResetHook;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
/// let resets = Arc::new(AtomicUsize::new(0));
/// let counted = resets.clone();
/// let hook = ResetHook::new(move |_tool: &str| {
///     counted.fetch_add(1, Ordering::SeqCst);
/// });
/// hook.run("add");
/// assert_eq!(resets.load(Ordering::SeqCst), 1);
/// assert_eq!(hook, hook.clone());
/// ```
#[derive(Clone)]
pub struct ResetHook(std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl ResetHook {
    /// The hook that runs `hook`.
    pub fn new(hook: impl Fn(&str) + Send + Sync + 'static) -> Self {
        ResetHook(std::sync::Arc::new(hook))
    }

    /// Runs it before a call of `tool`.
    pub fn run(&self, tool: &str) {
        (self.0)(tool);
    }
}

impl fmt::Debug for ResetHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ResetHook(..)")
    }
}

impl PartialEq for ResetHook {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ResetHook {}

/// The hook of [`CaseOptions::before_each`]. Two hooks are equal when they are the same one.
#[derive(Clone)]
pub struct CaseHook(pub std::sync::Arc<dyn Fn(&mut Case) + Send + Sync>);

impl fmt::Debug for CaseHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CaseHook(..)")
    }
}

impl PartialEq for CaseHook {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for CaseHook {}

impl CaseOptions {
    setters! {
        /// With or without boundary and negative cases.
        ///
        /// ```
        /// use mcp_test::cases::CaseOptions;
        /// assert!(!CaseOptions::default().edge_cases(false).edge_cases);
        /// ```
        edge_cases: bool;
    }

    selection_setters!(CaseOptions, "mcp_test::cases::CaseOptions");

    setters! {
        /// Declare `capabilities` in every case and drive `input_required` rounds to completion
        /// (see [`CaseOptions::client_capabilities`](CaseOptions#structfield.client_capabilities)).
        ///
        /// ```
        /// use mcp_test::cases::{every_client_capability, CaseOptions};
        /// let options = CaseOptions::default().client_capabilities(every_client_capability());
        /// assert_eq!(options.client_capabilities.unwrap()["roots"], serde_json::json!({}));
        /// ```
        client_capabilities(capabilities: Value) => client_capabilities = Some(capabilities);
    }

    /// Send `value` at `pointer` (a JSON pointer into the arguments, e.g. `/path`) in every
    /// valid case of `tool` (`"*"`: of every tool whose input schema declares the pointer),
    /// instead of a value from the schema or the generator. Boundary cases of other
    /// properties keep it; the cases that test this property's own constraints start from it.
    ///
    /// ```
    /// use mcp_test::cases::{derive_cases, CaseOptions};
    /// use serde_json::json;
    ///
    /// let schema = json!({"type": "object", "required": ["path"],
    ///     "properties": {"path": {"type": "string"}, "tz": {"type": "string"}}});
    /// let options = CaseOptions::default()
    ///     .value("read_file", "/path", json!("/etc/hostname"))
    ///     .value("*", "/tz", json!("Europe/Paris"));
    /// let cases = derive_cases("read_file", &schema, &options).unwrap();
    /// assert_eq!(cases[0].args, json!({"path": "/etc/hostname", "tz": "Europe/Paris"}));
    ///
    /// // A value the schema rejects is an error naming the tool, the pointer and why.
    /// let bad = CaseOptions::default().value("read_file", "/path", json!(7));
    /// let e = derive_cases("read_file", &schema, &bad).unwrap_err();
    /// assert!(e.to_string().contains("`/path`"), "{e}");
    /// ```
    #[must_use]
    pub fn value(
        mut self,
        tool: impl Into<String>,
        pointer: impl Into<String>,
        value: Value,
    ) -> Self {
        self.values
            .entry(tool.into())
            .or_default()
            .insert(pointer.into(), value);
        self
    }

    /// [`CaseOptions::value`] for each `(tool, pointer, value)`; the form
    /// [`assert_schema_cases!`](crate::assert_schema_cases) takes: `values = [(..), (..)]`.
    ///
    /// ```
    /// use mcp_test::cases::CaseOptions;
    /// use serde_json::json;
    /// let options = CaseOptions::default().values([("orders", "/data/id", json!("o-1"))]);
    /// assert_eq!(options.values["orders"]["/data/id"], "o-1");
    /// ```
    #[must_use]
    pub fn values<T, P>(mut self, values: impl IntoIterator<Item = (T, P, Value)>) -> Self
    where
        T: Into<String>,
        P: Into<String>,
    {
        for (tool, pointer, value) in values {
            self = self.value(tool, pointer, value);
        }
        self
    }

    setters! {
        /// Call `hook` on each case before it is sent: it may change the arguments (the case's
        /// prediction stays), e.g. to use an order the test created. For values that are the
        /// same in every case, [`CaseOptions::value`] is simpler.
        ///
        /// ```
        /// use mcp_test::cases::{Case, CaseOptions};
        /// use serde_json::json;
        /// let options = CaseOptions::default().before_each(|case: &mut Case| {
        ///     if case.args.get("id").is_some() {
        ///         case.args["id"] = json!("o-1");
        ///     }
        /// });
        /// assert!(options.before_each.is_some());
        /// ```
        before_each(hook: impl Fn(&mut Case) + Send + Sync + 'static)
            => before_each = Some(CaseHook(std::sync::Arc::new(hook)));
    }

    /// Expect the case of `tool` titled `title` to disagree with its prediction: a business
    /// rule the schema cannot express ("a T-shirt needs a size"). The title is as the
    /// report shows it (`"create: accepts valid arguments"` for an action). Adds to
    /// [`CaseOptions::expected_failures`](CaseOptions#structfield.expected_failures).
    ///
    /// ```
    /// use mcp_test::cases::CaseOptions;
    /// let options =
    ///     CaseOptions::default().expect_failure(("shop", "buy: accepts valid arguments"));
    /// assert_eq!(options.expected_failures[0].0, "shop");
    /// ```
    #[must_use]
    pub fn expect_failure<T: Into<String>, U: Into<String>>(
        mut self,
        (tool, title): (T, U),
    ) -> Self {
        self.expected_failures.push((tool.into(), title.into()));
        self
    }

    /// Whether the options let `case` run ([`Selection::selects_case`]). The unknown-action
    /// case of an action tool belongs to no action: an `only` of one action leaves it out, a
    /// `skip` of one action keeps it.
    pub fn selects(&self, case: &Case) -> bool {
        self.selection.selects_case(case)
    }
}
