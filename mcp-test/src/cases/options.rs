//! What to derive and how to run it: [`CaseOptions`], with [`Selector`] and [`CaseHook`].

use super::Case;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// What to derive, and how to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseOptions {
    /// Boundary and negative cases too; without them, one valid case per tool and action.
    pub edge_cases: bool,
    /// The seed of the generator for `pattern` strings: the same seed gives the same cases.
    pub seed: u64,
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
    /// Who every case runs as, for a server in this process (the `Identity` a handler reads
    /// with `Context::identity`); a client target reaches its server as its transport
    /// authenticates, and ignores it. `None` (the default): anonymous.
    pub identity: Option<crate::Identity>,
    /// When not empty, only these tools (and actions) get cases.
    pub only: Vec<Selector>,
    /// Tools (and actions) that get no cases.
    pub skip: Vec<Selector>,
    /// Runs on each case before it is sent, and may change its arguments: to put in an id
    /// that exists, say. See [`CaseOptions::before_each`].
    pub before_each: Option<CaseHook>,
    /// Cases whose prediction is known not to hold, by tool and title (a business rule the
    /// schema cannot express). [`assert_schema_cases!`](crate::assert_schema_cases) accepts
    /// their disagreement, and fails when one of them agrees after all or names no case.
    pub expected_failures: Vec<(String, String)>,
}

impl Default for CaseOptions {
    /// Edge cases on, seed `0x6d63_7074` ("mcpt"), no client capabilities, no values,
    /// anonymous, every tool, no hook, no expected failures.
    fn default() -> Self {
        CaseOptions {
            edge_cases: true,
            seed: 0x6d63_7074,
            client_capabilities: None,
            values: BTreeMap::new(),
            identity: None,
            only: Vec::new(),
            skip: Vec::new(),
            before_each: None,
            expected_failures: Vec::new(),
        }
    }
}

/// A tool, or one action of an action tool, for [`CaseOptions::only`] and
/// [`CaseOptions::skip`]: `"orders"` or `("orders", "cancel")`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    /// The tool.
    pub tool: String,
    /// One action of it; `None`: the whole tool.
    pub action: Option<String>,
}

impl Selector {
    /// Whether the case is of this tool (and action).
    pub fn matches(&self, case: &Case) -> bool {
        case.tool == self.tool
            && self
                .action
                .as_deref()
                .is_none_or(|action| case.args.action() == Some(action))
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
    /// With or without boundary and negative cases.
    ///
    /// ```
    /// use mcp_test::cases::CaseOptions;
    /// assert!(!CaseOptions::default().edge_cases(false).edge_cases);
    /// ```
    #[must_use]
    pub fn edge_cases(mut self, edge_cases: bool) -> Self {
        self.edge_cases = edge_cases;
        self
    }

    /// Another seed for the `pattern` generator.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Declare `capabilities` in every case and drive `input_required` rounds to completion
    /// (see [`CaseOptions::client_capabilities`](CaseOptions#structfield.client_capabilities)).
    ///
    /// ```
    /// use mcp_test::cases::{every_client_capability, CaseOptions};
    /// let options = CaseOptions::default().client_capabilities(every_client_capability());
    /// assert_eq!(options.client_capabilities.unwrap()["roots"], serde_json::json!({}));
    /// ```
    #[must_use]
    pub fn client_capabilities(mut self, capabilities: Value) -> Self {
        self.client_capabilities = Some(capabilities);
        self
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

    /// Run every case as `identity` (in process; see [`CaseOptions::identity`](CaseOptions#structfield.identity)).
    ///
    /// ```
    /// use mcp_test::cases::CaseOptions;
    /// use mcp_test::Identity;
    /// let options = CaseOptions::default().identity(Identity::principal("ada"));
    /// assert_eq!(options.identity.unwrap().principal.as_deref(), Some("ada"));
    /// ```
    #[must_use]
    pub fn identity(mut self, identity: crate::Identity) -> Self {
        self.identity = Some(identity);
        self
    }

    /// Cases for this tool, or this action of a tool, and (with other `only`s) for no other.
    ///
    /// ```
    /// use mcp_test::cases::{derive_for_tools, CaseOptions};
    /// use serde_json::json;
    /// let tools = vec![json!({"name": "a", "inputSchema": {"type": "object"}}),
    ///                  json!({"name": "b", "inputSchema": {"type": "object"}})];
    /// let (cases, _) = derive_for_tools(&tools, &CaseOptions::default().only("b"));
    /// assert!(cases.iter().all(|c| c.tool == "b"));
    /// ```
    #[must_use]
    pub fn only(mut self, selector: impl Into<Selector>) -> Self {
        self.only.push(selector.into());
        self
    }

    /// No cases for this tool, or this action of a tool (`("orders", "cancel")`).
    ///
    /// ```
    /// use mcp_test::cases::{derive_for_tools, CaseOptions};
    /// use serde_json::json;
    /// let tools = vec![json!({"name": "a", "inputSchema": {"type": "object"}}),
    ///                  json!({"name": "b", "inputSchema": {"type": "object"}})];
    /// let (cases, _) = derive_for_tools(&tools, &CaseOptions::default().skip("a"));
    /// assert!(cases.iter().all(|c| c.tool == "b"));
    /// ```
    #[must_use]
    pub fn skip(mut self, selector: impl Into<Selector>) -> Self {
        self.skip.push(selector.into());
        self
    }

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
    #[must_use]
    pub fn before_each(mut self, hook: impl Fn(&mut Case) + Send + Sync + 'static) -> Self {
        self.before_each = Some(CaseHook(std::sync::Arc::new(hook)));
        self
    }

    /// Expect the case of `tool` titled `title` to disagree with its prediction: a business
    /// rule the schema cannot express ("a T-shirt needs a size"). The title is as the
    /// report shows it (`"create: accepts valid arguments"` for an action).
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

    /// Whether the options let `case` run ([`CaseOptions::only`], [`CaseOptions::skip`]).
    /// The unknown-action case of an action tool belongs to no action: an `only` of one
    /// action leaves it out, a `skip` of one action keeps it.
    pub fn selects(&self, case: &Case) -> bool {
        (self.only.is_empty() || self.only.iter().any(|s| s.matches(case)))
            && !self.skip.iter().any(|s| s.matches(case))
    }
}
