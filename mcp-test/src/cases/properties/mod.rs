//! Property-based tool tests from input schemas (feature `properties`).
//!
//! For every tool, and for every action of an action tool, proptest strategies derived from the
//! input schema ([`valid_arguments`], [`broken_arguments`]) explore the space of calls, and an
//! async runner ([`check_properties`]) drives each case against any [`Target`](crate::target::Target) (a
//! [`Server`](crate::Server) in this process, a server over stdio or HTTP), checks the
//! invariants after each call, and on a failure shrinks the arguments to the smallest that
//! still fail, with proptest's `simplify`/`complicate`.
//!
//! The built-in invariants ([`Invariant`]), each of which can be switched off
//! ([`PropertyOptions::without`]):
//!
//! - [`Invariant::NoProtocolError`]: valid arguments never get a JSON-RPC error, except -32021
//!   (a client capability is missing); an `input_required` result is fine;
//! - [`Invariant::OutputSchema`]: a successful result's `structuredContent` validates against
//!   the tool's `outputSchema`;
//! - [`Invariant::Answers`]: the server answers the call and the next request after it;
//! - [`Invariant::InvalidNamed`]: arguments that break exactly one constraint get a tool
//!   execution error (`isError: true`) whose text names that place: by its JSON pointer
//!   (`/room`), by the field's name as a word (`` missing field `room` ``, as rmcp and serde
//!   write it; pydantic's and zod's field paths), or by the offending value
//!   ([`names_broken_place`] lists the conventions), so the default holds for any SDK.
//!
//! User invariants are closures over the valid arguments and the whole response
//! ([`PropertyOptions::invariant`]).
//!
//! Runs are deterministic: each tool, action and property has its own seed, derived from
//! [`PropertyOptions::seed`] and their names. The minimal failing arguments are written to a
//! regressions file ([`PropertyOptions::regressions`]; for
//! [`assert_properties!`](crate::assert_properties), `mcp-test-regressions/` in the crate
//! under test), and replayed first on the next run, as proptest does with
//! `proptest-regressions/`.
//!
//! ```
//! use mcp_test::cases::properties::{check_properties, PropertyOptions};
//! use mcp_test::{Context, Server, Tool, ToolError};
//!
//! /// Repeats a word.
//! #[derive(Tool)]
//! struct Repeat {
//!     #[tool(min_length = 1, max_length = 8)]
//!     word: String,
//!     #[tool(minimum = 1, maximum = 3)]
//!     times: u8,
//! }
//!
//! impl Repeat {
//!     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
//!         if self.word.chars().count() == 5 {
//!             panic!("five is unlucky");
//!         }
//!         Ok(self.word.repeat(self.times.into()))
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = Server::builder("words", "1.0.0").tool::<Repeat>().build().unwrap();
//! let report = check_properties(&server, &PropertyOptions::default().cases(64)).await;
//! assert_eq!(report.failures.len(), 1, "{report}");
//! let failure = &report.failures[0];
//! assert_eq!(failure.invariant, "no-protocol-error");
//! // Shrunk: a word of exactly five of the simplest characters, and the fewest times.
//! assert_eq!(failure.args, serde_json::json!({"word": "aaaaa", "times": 1}));
//! assert!(report.to_string().contains("-32603"), "{report}");
//! # }
//! ```

mod options;
mod regressions;
mod run;
mod strategy;
mod trees;

pub use options::{Invariant, PropertyOptions, UserInvariant};
pub use run::{PropertyFailure, PropertyReport, PropertyRun, check_properties, names_broken_place};
pub use strategy::{Broken, StrategyError, broken_arguments, valid_arguments};

pub use options::default_cases;
#[doc(hidden)]
pub use run::{FailureKind, run_tools};

/// What [`assert_properties!`](crate::assert_properties) runs: the report, or the text of its
/// one panic, which the macro raises at the caller's line. Not public API.
#[doc(hidden)]
pub async fn __assert_properties(
    target: &dyn crate::target::Target,
    options: PropertyOptions,
) -> Result<PropertyReport, String> {
    // Part of a test suite: recorded when MCP_TEST_COVERAGE is set, like the test helpers
    // and `assert_schema_cases!`, so a tool tested only by properties counts as covered.
    let report = match crate::testing::coverage::Recorder::from_env() {
        Some(recorder) => {
            let recording = crate::testing::coverage::Recording::new(target, recorder.clone());
            check_properties(&recording, &options).await
        }
        None => check_properties(target, &options).await,
    };
    if report.failures.is_empty() && report.problems.is_empty() {
        return Ok(report);
    }
    Err(format!(
        "assert_properties! failed for {}:\n{report}",
        target.label()
    ))
}

/// Runs property-based tests of every tool of a server (or those chosen): arguments generated
/// from each tool's input schema, every action of an action tool, checked against the built-in
/// invariants and your own, and shrunk to the smallest that fail. Panics once, at the
/// caller's line, with each failure's minimal arguments and whole response. Must be awaited
/// inside an async test; evaluates to the [`PropertyReport`].
///
/// Options follow as `name = value`, each a [`PropertyOptions`] builder method:
///
/// - `cases = 64`: cases per property (per tool, or action, and per property; default 64,
///   or `MCP_TEST_PROPERTY_CASES`);
/// - `only = "tool"`, `only = ("tool", "action")`, `skip = ..`: which tools and actions run;
/// - `without = Invariant::OutputSchema`: switch a built-in invariant off;
/// - `invariant = ("name", |args: &Value, response: &Value| -> Result<(), String> {..})`: an
///   invariant of your own, checked on each call with valid arguments;
/// - `seed = N`: another seed (the default is fixed, so runs repeat);
/// - `regressions = "path/to/dir"`: where the minimal failing arguments are kept and replayed
///   from (default: `mcp-test-regressions/` in the crate of the test); `no_regressions = ()`
///   keeps none;
/// - `identity = Identity::principal("ada")`: who each call runs as, in process;
/// - `before_each = |tool: &str| store.clear()`: runs before every call, to reset the state the
///   calls share ([`PropertyOptions::before_each`](crate::cases::properties::PropertyOptions::before_each));
/// - `allow_empty = true`: pass when nothing ran (no tool listed to this caller, an `only`
///   naming no tool); by default that fails;
/// - `selection = Selection::default().only(..).seed(N)`: `only`, `skip`, `seed` and
///   `identity` at once, as one [`Selection`](crate::cases::Selection) (which
///   `assert_schema_cases!` takes too).
///
/// The server is anything that implements [`Target`](crate::target::Target): a
/// [`Server`](crate::Server), a client connected to one, or, in a `#[mcp_test]` test, the
/// context itself (`assert_properties!(mcp)`).
///
/// ```
/// use mcp_test::cases::properties::Invariant;
/// use mcp_test::{assert_properties, Context, Server, Tool, ToolError};
/// use serde_json::Value;
///
/// /// Adds two small numbers.
/// #[derive(Tool)]
/// struct Add {
///     #[tool(minimum = -100, maximum = 100)]
///     a: i32,
///     #[tool(minimum = -100, maximum = 100)]
///     b: i32,
/// }
///
/// impl Add {
///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
///         Ok((self.a + self.b).to_string())
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("calc", "1.0.0").tool::<Add>().build().unwrap();
/// let report = assert_properties!(
///     server,
///     cases = 32,
///     only = "add",
///     without = Invariant::OutputSchema,
///     invariant = ("sum in range", |_args: &Value, response: &Value| {
///         let text = response["result"]["content"][0]["text"].as_str().unwrap_or("");
///         match text.parse::<i32>() {
///             Ok(n) if (-200..=200).contains(&n) => Ok(()),
///             _ => Err(format!("not a sum in range: {text:?}")),
///         }
///     }),
/// );
/// assert!(report.cases() >= 32);
/// # }
/// ```
#[macro_export]
macro_rules! assert_properties {
    ($server:expr $(, $option:ident = $value:expr)* $(,)?) => {
        match $crate::cases::properties::__assert_properties(
            &$server,
            $crate::cases::properties::PropertyOptions::default()
                .regressions(::std::path::Path::new(::core::env!("CARGO_MANIFEST_DIR"))
                    .join("mcp-test-regressions"))
                $(.$option($value))*,
        )
        .await
        {
            ::core::result::Result::Ok(report) => report,
            // Raised here, so the panic names the caller's line.
            ::core::result::Result::Err(problems) => ::core::panic!("{}", problems),
        }
    };
}
