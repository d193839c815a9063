//! Test cases derived from each tool's input schema, checked against a live server.
//!
//! - [`derive_cases`] (one tool) and [`derive_for_tools`] (a `tools/list`) are the **rules
//!   engine**: for every tool, and for every action of an action tool, one valid base case, then
//!   one mutation per constraint — a required property dropped, a value outside an enum, one
//!   character under `minLength` or over `maxLength`, a string that misses the `pattern`, a
//!   number just past a bound, the wrong JSON type, one item too few or too many, a duplicated
//!   item, an unknown key where `additionalProperties` is `false`, a `const` or `format`
//!   violation — and the exact-boundary values, which must succeed. The rules recurse into
//!   nested objects and arrays. Each [`Case`] is plain serde data.
//! - Every case is checked against the real schema before it is returned: a case predicted to
//!   succeed is valid, a case predicted to fail is invalid. Cases are de-duplicated.
//! - [`verify`] dry-runs cases against a [`Target`] (the in-process [`Server`](crate::Server),
//!   or a client for any server) and reports each disagreement: what was predicted and what
//!   happened. [`assert_schema_cases!`](crate::assert_schema_cases) does all of it in one line
//!   of a test.
//! - By default a case declares no client capabilities: a tool that asks the user (or a model,
//!   or for roots) must then answer -32021 with `data.requiredCapabilities`
//!   ([`Happened::NeedsCapabilities`], never a disagreement). With
//!   [`CaseOptions::client_capabilities`] a case declares them, and every `input_required`
//!   round is answered with a synthesized, schema-valid answer through
//!   [`target::drive`](crate::target::drive) until the call completes.
//! - `mcp_test_check::check`, in the crate `mcp-test-check`, runs the cases plus protocol
//!   probes and reports findings by severity: the library side of `mcp-test check`.
//!
//! ```
//! use mcp_test::cases::{derive_cases, CaseOptions, Expectation};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "city": {"type": "string", "minLength": 2, "maxLength": 40},
//!         "days": {"type": "integer", "minimum": 1, "maximum": 7}
//!     },
//!     "required": ["city"],
//!     "additionalProperties": false
//! });
//! let cases = derive_cases("forecast", &schema, &CaseOptions::default()).unwrap();
//! let base = &cases[0];
//! assert_eq!((base.source.as_str(), base.expectation), ("rule:base", Expectation::Success));
//! let sources: Vec<&str> = cases.iter().map(|c| c.source.as_str()).collect();
//! for rule in ["rule:required", "rule:min-length", "rule:max-length", "rule:bounds",
//!              "rule:type", "rule:additional-properties"] {
//!     assert!(sources.contains(&rule), "{rule} missing from {sources:?}");
//! }
//! let missing = cases.iter().find(|c| c.title == "rejects a missing `/city`").unwrap();
//! assert_eq!(missing.expectation, Expectation::Error);
//! assert!(missing.args.get("city").is_none());
//! ```

mod args;
mod case;
#[cfg(any(feature = "client", feature = "http"))]
mod connected;
mod hash;
mod options;
#[cfg(feature = "properties")]
#[cfg_attr(docsrs, doc(cfg(feature = "properties")))]
pub mod properties;
mod rules;
mod sample;
pub(crate) mod target;
pub mod values;

pub use crate::wire::Era;
pub use args::CaseArgs;
pub use case::{Boundary, Case, DeriveError, Expectation, Happened, Outcome, VerifyReport};
#[doc(hidden)]
pub use case::{over_limit, serialize_millis, shorten};
#[cfg(any(feature = "client", feature = "http"))]
pub use connected::Connected;
pub use options::{CaseHook, CaseOptions, ResetHook, Selection, Selector};
pub use values::{ValueError, check_values};

use crate::target::{Answers, Target, TargetError};
use crate::wire::meta_keys;
use serde_json::{Value, json};
use std::time::Duration;
use target::Session;

/// The client capabilities of a client that answers every input request: form and URL
/// elicitation, sampling and roots. What the checker (`mcp_test_check::check`) declares when it drives a tool that asks.
///
/// ```
/// assert_eq!(mcp_test::cases::every_client_capability(), serde_json::json!({
///     "elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}
/// }));
/// ```
pub fn every_client_capability() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

/// Derives the cases of one tool from its input schema.
///
/// An action tool (`{action, data}` with `allOf` of `if`/`then` on the action's `const`, as
/// [`derive(Tool)`](derive@crate::Tool) publishes it) gets the full set for every action, plus
/// one unknown action. Fails when the schema does not compile, or when no valid arguments can
/// be derived (e.g. a `pattern` the generator cannot satisfy together with `maxLength`), or
/// when a value of [`CaseOptions::values`] does not fit.
pub fn derive_cases(
    tool: &str,
    input_schema: &Value,
    options: &CaseOptions,
) -> Result<Vec<Case>, DeriveError> {
    rules::derive(tool, input_schema, options).map_err(DeriveError::from)
}

/// The cases of every tool in a `tools/list` result (`[{name, inputSchema, ...}]`), and the
/// tools whose cases could not be derived.
///
/// ```
/// use mcp_test::cases::{derive_for_tools, CaseOptions};
/// use serde_json::json;
/// let tools = vec![json!({"name": "ping", "inputSchema": {"type": "object"}})];
/// let (cases, problems) = derive_for_tools(&tools, &CaseOptions::default());
/// assert!(problems.is_empty());
/// assert_eq!(cases[0].tool, "ping");
/// ```
pub fn derive_for_tools(tools: &[Value], options: &CaseOptions) -> (Vec<Case>, Vec<DeriveError>) {
    let (cases, mut problems, bad_values) = derive_split(tools, options);
    problems.extend(
        bad_values
            .into_iter()
            .map(|e| rules::Failure::Value(e).into()),
    );
    (cases, problems)
}

/// [`derive_for_tools`], keeping the tools whose given values do not fit apart from the tools
/// whose schema gives no cases.
#[doc(hidden)]
pub fn derive_split(
    tools: &[Value],
    options: &CaseOptions,
) -> (Vec<Case>, Vec<DeriveError>, Vec<ValueError>) {
    let selected: Vec<&Value> = tools
        .iter()
        .filter(|tool| options.selection.may_select_tool(tool_name(tool)))
        .collect();
    let (mut cases, derived) = derive_each(&selected, options);
    if !options.selection.selects_everything() {
        cases.retain(|c| options.selection.selects_case(c));
    }
    let mut problems = Vec::new();
    let mut bad_values = Vec::new();
    for failure in derived.into_iter().filter_map(Result::err) {
        match failure {
            rules::Failure::Schema(e) => problems.push(e),
            rules::Failure::Value(e) => bad_values.push(e),
        }
    }
    (cases, problems, bad_values)
}

fn tool_name(tool: &Value) -> &str {
    tool.get("name").and_then(Value::as_str).unwrap_or("")
}

/// One tool's derivation: how many cases it gave, or why it gave none.
type Derived = Result<usize, rules::Failure>;

/// The cases of every tool, in order, and each tool's [`Derived`]. A long list is shared out
/// to one thread per core: each tool's cases depend on nothing but its own schema and the
/// options (its sampler is seeded per tool), so the result is the same whichever thread
/// derives which tool.
fn derive_each(tools: &[&Value], options: &CaseOptions) -> (Vec<Case>, Vec<Derived>) {
    /// Below this many tools a thread costs more than it saves.
    const PER_THREAD: usize = 32;
    let no_schema = serde_json::json!({"type": "object"});
    // Tools with equal input schemas share one compiled validator per thread, and the
    // thread's buffers are reused from tool to tool.
    fn derive_range<'s>(
        tools: &[&'s Value],
        no_schema: &'s Value,
        options: &CaseOptions,
        engine: &mut rules::Engine<'s>,
        out: &mut Vec<Case>,
    ) -> Vec<Derived> {
        tools
            .iter()
            .map(|tool| {
                let schema = tool.get("inputSchema").unwrap_or(no_schema);
                let before = out.len();
                // A tool that fails gives no cases, even those derived before it failed.
                rules::derive_with(tool_name(tool), schema, options, engine, out)
                    .map(|()| out.len() - before)
                    .inspect_err(|_| out.truncate(before))
            })
            .collect()
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(tools.len() / PER_THREAD)
        .max(1);
    if threads == 1 {
        let mut cases = Vec::new();
        let mut engine = rules::Engine::default();
        let derived = derive_range(tools, &no_schema, options, &mut engine, &mut cases);
        return (cases, derived);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let chunk = tools.len().div_ceil(threads * 8);
    // Per thread: its cases, and the chunks of tools it derived (first tool, each tool's
    // derivation), in the order it took them.
    type Part = (Vec<Case>, Vec<(usize, Vec<Derived>)>);
    let work = || -> Part {
        let mut engine = rules::Engine::default();
        let mut cases = Vec::new();
        let mut chunks = Vec::new();
        loop {
            let start = next.fetch_add(chunk, std::sync::atomic::Ordering::Relaxed);
            if start >= tools.len() {
                return (cases, chunks);
            }
            let end = (start + chunk).min(tools.len());
            let derived = derive_range(
                &tools[start..end],
                &no_schema,
                options,
                &mut engine,
                &mut cases,
            );
            chunks.push((start, derived));
        }
    };
    // The calling thread is one of the workers: it would only wait otherwise.
    let parts: Vec<Part> = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut parts = vec![work()];
        parts.extend(workers.into_iter().map(|w| {
            w.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }));
        parts
    });
    // Put the chunks back in tool order: each thread's cases hold its chunks one after the
    // other, in the order it took them, which is tool order.
    let total = parts.iter().map(|(cases, _)| cases.len()).sum();
    let mut threads_cases = Vec::with_capacity(parts.len());
    let mut chunks = Vec::new();
    for (thread, (cases, derived)) in parts.into_iter().enumerate() {
        threads_cases.push(cases.into_iter());
        chunks.extend(derived.into_iter().map(|(start, d)| (start, thread, d)));
    }
    chunks.sort_unstable_by_key(|(start, _, _)| *start);
    let mut cases = Vec::with_capacity(total);
    let mut all = Vec::with_capacity(tools.len());
    for (_, thread, derived) in chunks {
        let given: usize = derived.iter().map(|d| *d.as_ref().unwrap_or(&0)).sum();
        cases.extend(threads_cases[thread].by_ref().take(given));
        all.extend(derived);
    }
    (cases, all)
}

/// The default per-call timeout of [`verify`] and of the checker (`mcp_test_check::check`):
/// 30 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs one case: `tools/call` with the case's arguments, declaring no client capabilities.
/// Returns what happened and the response.
pub async fn run_case(
    target: &dyn Target,
    case: &Case,
    timeout: Duration,
) -> (Happened, Option<Value>) {
    let session = Session::new(target, timeout);
    run_in(&session, case, None).await
}

/// Runs `case` in `session`. With `capabilities`, declares them and drives every
/// `input_required` round with synthesized answers; the outcome is the final response.
#[doc(hidden)]
pub async fn run_in(
    session: &Session<'_>,
    case: &Case,
    capabilities: Option<&Value>,
) -> (Happened, Option<Value>) {
    let mut params = json!({"name": case.tool, "arguments": case.args});
    let Some(capabilities) = capabilities else {
        return match session.request("tools/call", params).await {
            (_, Ok(response)) => (Happened::from_response(&response), Some(response)),
            (_, Err(e)) if over_limit(&e) => (
                Happened::OverLimit {
                    message: e.to_string(),
                },
                None,
            ),
            (_, Err(e)) => (
                Happened::Failed {
                    message: e.to_string(),
                },
                None,
            ),
        };
    };
    params["_meta"] = json!({ meta_keys::CLIENT_CAPABILITIES: capabilities });
    let (_, body) = session.body("tools/call", params);
    match session.drive(&body, &Answers::synthesized()).await {
        Ok(rounds) => {
            let last = rounds.last().clone();
            (Happened::from_response(&last), Some(last))
        }
        Err(e) => {
            let last = e
                .rounds()
                .and_then(|r| r.exchanges.last())
                .and_then(|x| x.response.clone());
            (
                Happened::Failed {
                    message: e.to_string(),
                },
                last,
            )
        }
    }
}

/// Dry-runs every case against `target` and reports what happened to each. The cases declare
/// no client capabilities; see [`verify_with_options`] to declare some.
///
/// ```
/// use mcp_test::cases::{derive_for_tools, verify, CaseOptions};
/// use mcp_test::prelude::*;
///
/// /// Adds two integers.
/// #[derive(Tool)]
/// struct Add {
///     /// The first addend
///     a: i64,
///     /// The second addend
///     b: i64,
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
/// let server = Server::builder("calculator", "1.0.0").tool::<Add>().build().unwrap();
/// let tools: Vec<_> = server.tool_definitions().iter()
///     .map(|t| serde_json::to_value(t).unwrap()).collect();
/// let (cases, _) = derive_for_tools(&tools, &CaseOptions::default());
/// let report = verify(&server, &cases).await;
/// assert!(report.all_agree(), "{report}");
/// # }
/// ```
pub async fn verify(target: &dyn Target, cases: &[Case]) -> VerifyReport {
    verify_with(target, cases, DEFAULT_TIMEOUT).await
}

/// [`verify`] with a per-call timeout.
pub async fn verify_with(target: &dyn Target, cases: &[Case], timeout: Duration) -> VerifyReport {
    verify_with_options(target, cases, &CaseOptions::default(), timeout).await
}

/// [`verify`] with a per-call timeout, declaring `options.client_capabilities` in every case
/// (when set) and driving each `input_required` round to completion with synthesized answers.
///
/// ```
/// use mcp_test::cases::{derive_for_tools, every_client_capability, verify_with_options, CaseOptions};
/// use mcp_test::{Context, Server, Tool, ToolError};
///
/// /// Greets whoever answers.
/// #[derive(Tool)]
/// struct Greet {}
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Name { name: String }
///
/// impl Greet {
///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
///         let form = ctx.elicit_as::<Name>("Your name?").await?;
///         Ok(format!("Hello, {}!", form.accepted().map_or("stranger".into(), |n| n.name)))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").tool::<Greet>().build().unwrap();
/// let tools: Vec<_> = server.tool_definitions().iter()
///     .map(|t| serde_json::to_value(t).unwrap()).collect();
/// let options = CaseOptions::default().client_capabilities(every_client_capability());
/// let (cases, _) = derive_for_tools(&tools, &options);
/// let timeout = std::time::Duration::from_secs(5);
/// let report = verify_with_options(&server, &cases, &options, timeout).await;
/// assert!(report.all_agree(), "{report}");
/// assert!(report.outcomes[0].happened.to_string().starts_with("success (\"Hello, "));
/// # }
/// ```
pub async fn verify_with_options(
    target: &dyn Target,
    cases: &[Case],
    options: &CaseOptions,
    timeout: Duration,
) -> VerifyReport {
    let mut session = Session::new(target, timeout);
    if let Some(identity) = &options.selection.identity {
        session = session.with_caller(crate::Caller::new(identity.clone()));
    }
    let mut outcomes = Vec::with_capacity(cases.len());
    for case in cases {
        let mut case = case.clone();
        if let Some(hook) = &options.before_each {
            (hook.0)(&mut case);
        }
        let started = std::time::Instant::now();
        let (happened, response) =
            run_in(&session, &case, options.client_capabilities.as_ref()).await;
        outcomes.push(Outcome {
            agrees: happened.agrees_with(case.expectation),
            case,
            happened,
            response,
            duration: Some(started.elapsed()),
        });
    }
    VerifyReport { outcomes }
}

/// Why [`list_tools`] could not list the tools.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ListToolsError {
    /// The target failed (no answer, a transport error).
    #[error("tools/list: {0}")]
    Target(#[from] TargetError),
    /// `tools/list` answered a JSON-RPC error.
    #[error("tools/list answered an error: {error}")]
    Rpc {
        /// The error object.
        error: Value,
    },
    /// The result has no `tools` array.
    #[error("tools/list result has no `tools` array: {result}")]
    NoTools {
        /// The result.
        result: Value,
    },
    /// A page handed out the cursor it was asked with.
    #[error("tools/list repeats its cursor")]
    RepeatedCursor {
        /// The cursor.
        cursor: String,
    },
    /// The list did not end.
    #[error("tools/list did not end within {pages} pages")]
    TooManyPages {
        /// The page limit.
        pages: usize,
    },
}

/// Lists every tool of `target`, following `nextCursor` (at most 1000 pages).
pub async fn list_tools(
    target: &dyn Target,
    timeout: Duration,
) -> Result<Vec<Value>, ListToolsError> {
    list_tools_as(target, None, timeout).await
}

/// [`list_tools`] as `identity` (in process: what a caller with those scopes may see), or,
/// with `None`, as the target's own caller (a [`TestContext`](crate::testing::TestContext)'s
/// options; anonymous for a bare server). The schema cases and property tests list the
/// tools as the caller their calls run as, so a tool behind a scope is listed to a caller
/// that holds it.
///
/// ```
/// use mcp_test::cases::list_tools_as;
/// use mcp_test::prelude::*;
/// use mcp_test::{Access, Identity};
///
/// /// Purges the cache.
/// #[derive(Tool)]
/// struct Purge {}
/// impl Purge {
///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
///         Ok("purged".into())
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("ops", "1.0.0")
///     .tool_with_access::<Purge>(Access::scopes(["ops.admin"]).hidden_without_scope())
///     .build()
///     .unwrap();
/// let timeout = std::time::Duration::from_secs(5);
/// assert!(list_tools_as(&server, None, timeout).await.unwrap().is_empty());
/// let root = Identity::principal("root").with_scopes(["ops.admin"]);
/// let listed = list_tools_as(&server, Some(&root), timeout).await.unwrap();
/// assert_eq!(listed[0]["name"], "purge");
/// # }
/// ```
pub async fn list_tools_as(
    target: &dyn Target,
    identity: Option<&crate::Identity>,
    timeout: Duration,
) -> Result<Vec<Value>, ListToolsError> {
    const PAGES: usize = 1000;
    let mut session = Session::new(target, timeout);
    if let Some(identity) = identity {
        session = session.with_caller(crate::Caller::new(identity.clone()));
    }
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..PAGES {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => Value::Null,
        };
        let response = session.request("tools/list", params).await.1?;
        if let Some(error) = response.get("error") {
            return Err(ListToolsError::Rpc {
                error: error.clone(),
            });
        }
        let result = &response["result"];
        let Some(page) = result.get("tools").and_then(Value::as_array) else {
            return Err(ListToolsError::NoTools {
                result: result.clone(),
            });
        };
        tools.extend(page.iter().cloned());
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(next) if Some(next) != cursor.as_deref() => cursor = Some(next.to_owned()),
            Some(next) => {
                return Err(ListToolsError::RepeatedCursor {
                    cursor: next.to_owned(),
                });
            }
            None => return Ok(tools),
        }
    }
    Err(ListToolsError::TooManyPages { pages: PAGES })
}

/// Asserts that a `tools/call` response bears out `expectation`; panics naming the case's
/// `title`, what was predicted, what happened and the whole response. Generated tests call it.
///
/// ```
/// use mcp_test::cases::{expect_outcome, Expectation};
/// use serde_json::json;
/// let ok = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
///     "content": [{"type": "text", "text": "hi"}]}});
/// expect_outcome(&ok, Expectation::Success, "says hi");
/// let rejected = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad"}});
/// expect_outcome(&rejected, Expectation::Error, "rejects bad input");
/// let caught = std::panic::catch_unwind(|| expect_outcome(&ok, Expectation::Error, "rejects"));
/// assert!(caught.is_err());
/// ```
#[track_caller]
pub fn expect_outcome(response: &Value, expectation: Expectation, title: &str) {
    let happened = Happened::from_response(response);
    if !happened.agrees_with(expectation) {
        panic!(
            "case {title:?}: predicted {expectation}, happened {happened}\nresponse: {response}"
        );
    }
}

/// What [`assert_schema_cases!`](crate::assert_schema_cases) runs: the report, or the text of
/// its one panic, which the macro raises at the caller's line. Not public API.
#[doc(hidden)]
pub async fn __assert_schema_cases(
    target: &dyn Target,
    options: CaseOptions,
) -> Result<VerifyReport, String> {
    // Part of a test suite: recorded when MCP_TEST_COVERAGE is set, like the test helpers.
    match crate::testing::coverage::Recorder::from_env() {
        Some(recorder) => {
            let recording = crate::testing::coverage::Recording::new(target, recorder.clone());
            assert_schema_cases(&recording, options).await
        }
        None => assert_schema_cases(target, options).await,
    }
}

async fn assert_schema_cases(
    target: &dyn Target,
    options: CaseOptions,
) -> Result<VerifyReport, String> {
    let identity = options.selection.identity.as_ref();
    let tools = list_tools_as(target, identity, DEFAULT_TIMEOUT)
        .await
        .map_err(|e| {
            format!(
                "assert_schema_cases!: could not list the tools of {}: {e}",
                target.label()
            )
        })?;
    if !options.selection.allow_empty
        && let Some(why) = options
            .selection
            .ran_on_nothing(&tools, "assert_schema_cases!")
    {
        return Err(format!("{why} ({})", target.label()));
    }
    let (cases, problems) = derive_for_tools(&tools, &options);
    if !options.selection.allow_empty && problems.is_empty() {
        let unmatched: Vec<String> = options
            .selection
            .only
            .iter()
            .filter(|s| !cases.iter().any(|c| s.matches(c)))
            .map(|s| format!("`only = {}`", s.describe()))
            .collect();
        if !unmatched.is_empty() || cases.is_empty() {
            let why = if unmatched.is_empty() {
                "no case was derived".to_owned()
            } else {
                format!("{} selects no case", unmatched.join(", "))
            };
            return Err(format!(
                "assert_schema_cases!: {why} for {}, so nothing was tested; `allow_empty = true` if the test means it",
                target.label()
            ));
        }
    }
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(|p| format!("- {p}")).collect();
        return Err(format!(
            "assert_schema_cases!: no cases could be derived for:\n{}",
            list.join("\n")
        ));
    }
    let report = verify_with_options(target, &cases, &options, DEFAULT_TIMEOUT).await;
    schema_cases_verdict(&report, &options)
        .map(|()| report)
        .map_err(|problems| {
            format!(
                "assert_schema_cases! failed for {}: {problems}",
                target.label()
            )
        })
}

/// Every way `report` fails `options`: each disagreement not marked as expected, each
/// expected failure whose prediction held after all, each mark that names no case.
fn schema_cases_verdict(report: &VerifyReport, options: &CaseOptions) -> Result<(), String> {
    let marked = |o: &Outcome| {
        options
            .expected_failures
            .iter()
            .any(|(tool, title)| *tool == o.case.tool && *title == o.case.title)
    };
    let mut problems = Vec::new();
    for o in &report.outcomes {
        match (o.agrees, marked(o)) {
            (false, false) => problems.push(format!(
                "- {} › {}: predicted {}, happened {}\n  arguments: {}\n  why: {}",
                o.case.tool, o.case.title, o.case.expectation, o.happened, o.case.args, o.case.rationale
            )),
            (true, true) => problems.push(format!(
                "- {} › {}: marked as an expected failure, but its prediction ({}) held: remove the mark",
                o.case.tool, o.case.title, o.case.expectation
            )),
            _ => {}
        }
    }
    for (tool, title) in &options.expected_failures {
        if !report
            .outcomes
            .iter()
            .any(|o| o.case.tool == *tool && o.case.title == *title)
        {
            problems.push(format!(
                "- expect_failure(({tool:?}, {title:?})) names no case that ran; the titles are those of the report"
            ));
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let agreeing = report.outcomes.iter().filter(|o| o.agrees).count();
    Err(format!(
        "{} problem{} ({agreeing} of {} cases agreed):\n{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" },
        report.outcomes.len(),
        problems.join("\n")
    ))
}

/// Derives every tool's cases from its input schema, runs them against a server, and panics
/// once, at the caller's line, listing every case whose prediction did not hold. Must be
/// awaited inside an async test; evaluates to the [`VerifyReport`].
///
/// `assert_schema_cases!(server)` runs boundary and negative cases too, declaring no client
/// capabilities (a tool that asks the user must answer -32021, which every case accepts).
/// Options follow as `name = value`, each a [`CaseOptions`] builder method, and may repeat:
///
/// - `edge_cases = false`: one valid case per tool and action;
/// - `client_capabilities = json!({..})`: every case declares these capabilities, and every
///   `input_required` round is answered with a synthesized answer until the call completes
///   ([`every_client_capability`] declares them all);
/// - `identity = Identity::principal("ada").with_tenant("acme")`: who each case runs as, for a
///   server in this process;
/// - `only = "tool"`, `only = ("tool", "action")`, `skip = ..`: which tools and actions get
///   cases;
/// - `values = [("tool", "/pointer", json!(..))]`: values to send in every valid case (`"*"`
///   for every tool that declares the pointer), such as the id of an order that exists;
/// - `before_each = |case: &mut Case| ..`: change a case's arguments just before it is sent;
/// - `expect_failure = ("tool", "title")`: a case known to disagree (a business rule the
///   schema cannot express); it then fails only if its prediction holds after all;
/// - `seed = N`: another seed for `pattern` strings;
/// - `selection = Selection::default().only(..).seed(N)`: `only`, `skip`, `seed` and
///   `identity` at once, as one [`Selection`] (which `assert_properties!` takes too).
///
/// The server is anything that implements [`Target`]: a [`Server`](crate::Server), or a
/// client connected to one.
///
/// ```
/// use mcp_test::{assert_schema_cases, Context, Server, Tool, ToolError};
///
/// /// Repeats a word.
/// #[derive(Tool)]
/// struct Repeat {
///     #[tool(min_length = 1, max_length = 20)]
///     word: String,
///     #[tool(minimum = 1, maximum = 3)]
///     times: u8,
/// }
///
/// impl Repeat {
///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
///         Ok(self.word.repeat(self.times.into()))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("words", "1.0.0").tool::<Repeat>().build().unwrap();
/// let report = assert_schema_cases!(server);
/// assert!(report.outcomes.len() > 10);
/// let quick = assert_schema_cases!(
///     server,
///     edge_cases = false,
///     client_capabilities = mcp_test::cases::every_client_capability(),
/// );
/// assert_eq!(quick.outcomes.len(), 1);
/// # }
/// ```
///
/// A shop whose `order` tool knows only the orders that exist, and whose `buy` tool refuses a
/// T-shirt without a size, a rule its schema cannot say:
///
/// ```
/// use mcp_test::cases::Case;
/// use mcp_test::{assert_schema_cases, Context, Identity, Server, Tool, ToolError};
/// use serde_json::json;
///
/// /// Orders of the signed-in customer.
/// #[derive(Tool)]
/// enum Order {
///     /// Shows one order.
///     Get { id: String },
///     /// Cancels one order.
///     Cancel { id: String },
/// }
///
/// impl Order {
///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
///         let who = ctx.identity().principal.clone().unwrap_or_default();
///         match self {
///             Order::Get { id } if id == "o-1" && who == "ada" => Ok("2 mugs".into()),
///             Order::Cancel { id } if id == "o-1" => Ok("cancelled".into()),
///             _ => Err(ToolError::new("no such order")),
///         }
///     }
/// }
///
/// /// Buys an item.
/// #[derive(Tool)]
/// struct Buy {
///     item: String,
///     size: Option<String>,
/// }
///
/// impl Buy {
///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
///         match self.size {
///             None => Err(ToolError::new("a T-shirt needs a size")),
///             Some(size) => Ok(format!("bought {} in {size}", self.item)),
///         }
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let shop = Server::builder("shop", "1.0.0").tool::<Order>().tool::<Buy>().build().unwrap();
/// let report = assert_schema_cases!(
///     shop,
///     edge_cases = false,
///     identity = Identity::principal("ada"),
///     only = ("order", "get"),
///     values = [("order", "/data/id", json!("o-1"))],
/// );
/// assert_eq!(report.outcomes.len(), 1);
///
/// let report = assert_schema_cases!(
///     shop,
///     only = "buy",
///     before_each = |case: &mut Case| {
///         if case.args.get("size") == Some(&json!("")) {
///             case.args["size"] = json!("M");
///         }
///     },
///     expect_failure = ("buy", "accepts only the required properties"),
/// );
/// assert!(report.outcomes.iter().all(|o| o.case.tool == "buy"));
/// # }
/// ```
#[macro_export]
macro_rules! assert_schema_cases {
    ($server:expr $(, $option:ident = $value:expr)* $(,)?) => {
        match $crate::cases::__assert_schema_cases(
            &$server,
            <$crate::cases::CaseOptions as ::core::default::Default>::default()
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
