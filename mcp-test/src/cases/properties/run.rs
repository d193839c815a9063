//! The async runner: cases from the strategies, each call checked against the invariants, and
//! a failure shrunk with `simplify`/`complicate` in an async loop.

use std::fmt;
use std::path::PathBuf;

use futures_util::StreamExt;
use proptest::strategy::SBoxedStrategy;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::options::{Invariant, PropertyOptions};
use super::regressions::{self, Stored};
use super::strategy::{Broken, StrategyError, broken_for, units, valid_for};
use super::trees::Trees;
use crate::cases::target::Session;
use crate::cases::{Case, Expectation, list_tools_as, over_limit};
use crate::target::{Target, TargetError};
use crate::validation::SchemaValidator;
use crate::wire::error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY;

/// One property run on one tool (or action): how many cases it ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PropertyRun {
    /// The tool.
    pub tool: String,
    /// The action of an action tool.
    pub action: Option<String>,
    /// `valid` (valid arguments) or `broken` (arguments broken in exactly one place).
    pub property: &'static str,
    /// The cases that ran to a verdict, replayed regressions included.
    pub cases: u32,
    /// The cases cancelled for their time ([`PropertyOptions::case_time`]): no verdict.
    pub slow: u32,
}

/// What kind of failure, for `check`'s findings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[doc(hidden)]
pub enum FailureKind {
    /// No answer to the call itself.
    NoAnswer,
    /// The call was answered, the next request was not.
    StoppedAnswering,
    /// Valid arguments got a JSON-RPC error.
    RpcError,
    /// No `structuredContent` though the tool declares an `outputSchema`.
    NoStructured,
    /// `structuredContent` does not validate.
    OutputMismatch,
    /// Broken arguments were accepted.
    AcceptedInvalid,
    /// Broken arguments got a JSON-RPC error rather than a tool execution error.
    RpcErrorOnInvalid,
    /// Broken arguments got a tool execution error that does not name the broken place (by
    /// pointer, field name or offending value: see [`names_broken_place`]).
    Unnamed,
    /// A user invariant.
    User,
}

/// One property that failed, with its minimal arguments.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PropertyFailure {
    /// The tool.
    pub tool: String,
    /// The action of an action tool.
    pub action: Option<String>,
    /// The invariant that failed: a built-in's [`Invariant::name`] or a user invariant's name.
    pub invariant: String,
    /// Why.
    pub message: String,
    /// The minimal failing arguments.
    pub args: Value,
    /// For arguments broken in one place: that place.
    pub pointer: Option<String>,
    /// The whole response to the minimal arguments (`None`: there was none).
    pub response: Option<Value>,
    /// The calls made while shrinking.
    pub shrink_calls: u32,
    /// Whether it was a stored regression, replayed.
    pub replayed: bool,
    /// The regressions file it was written to.
    pub saved_to: Option<PathBuf>,
    #[serde(skip)]
    #[doc(hidden)]
    pub kind: FailureKind,
}

/// What [`check_properties`] found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PropertyReport {
    /// Every property run.
    pub runs: Vec<PropertyRun>,
    /// Every property that failed (at most one per tool, action and invariant group).
    pub failures: Vec<PropertyFailure>,
    /// What stopped a property from running: no tools listed, a schema no arguments could be
    /// generated for, a regressions file that cannot be read or written.
    pub problems: Vec<String>,
}

impl PropertyReport {
    /// The cases that ran to a verdict, over every property.
    pub fn cases(&self) -> u32 {
        self.runs.iter().map(|r| r.cases).sum()
    }
}

impl fmt::Display for PropertyReport {
    /// A summary line, then each problem, then each failure with its minimal arguments and
    /// whole response.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} properties on {} tools and actions, {} cases: {} failed, {} could not run",
            self.runs.len(),
            {
                let mut units: Vec<(&str, Option<&str>)> = self
                    .runs
                    .iter()
                    .map(|r| (r.tool.as_str(), r.action.as_deref()))
                    .collect();
                units.dedup();
                units.len()
            },
            self.cases(),
            self.failures.len(),
            self.problems.len()
        )?;
        for p in &self.problems {
            writeln!(f, "- problem: {p}")?;
        }
        for x in &self.failures {
            writeln!(f)?;
            let tool = match &x.action {
                Some(a) => format!("{} › {a}", x.tool),
                None => x.tool.clone(),
            };
            writeln!(
                f,
                "- {tool}: invariant `{}` failed: {}",
                x.invariant, x.message
            )?;
            writeln!(f, "  minimal arguments: {}", x.args)?;
            if let Some(p) = &x.pointer {
                writeln!(f, "  broken at:         {p}")?;
            }
            let shown = x.response.as_ref().map_or_else(
                || "(none)".to_owned(),
                |r| serde_json::to_string_pretty(r).unwrap_or_else(|_| r.to_string()),
            );
            writeln!(f, "  response:          {}", shown.replace('\n', "\n  "))?;
            if x.replayed {
                writeln!(f, "  (a stored regression, replayed)")?;
            } else {
                writeln!(f, "  shrunk in {} calls", x.shrink_calls)?;
            }
            if let Some(path) = &x.saved_to {
                writeln!(f, "  kept in:           {}", path.display())?;
            }
        }
        Ok(())
    }
}

/// Runs the property tests of every tool of `target` (or those [`PropertyOptions::only`]
/// chooses): valid arguments, and arguments broken in exactly one place, for each tool and
/// each action of an action tool, checked against the invariants; each failure shrunk.
///
/// ```
/// use mcp_test::cases::properties::{check_properties, PropertyOptions};
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
///         Ok(self.a.saturating_add(self.b).to_string())
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("calculator", "1.0.0").tool::<Add>().build().unwrap();
/// let report = check_properties(&server, &PropertyOptions::default().cases(16)).await;
/// assert!(report.failures.is_empty(), "{report}");
/// assert!(report.cases() > 16);
/// # }
/// ```
pub async fn check_properties(target: &dyn Target, options: &PropertyOptions) -> PropertyReport {
    let identity = options.selection.identity.as_ref();
    let tools = match list_tools_as(target, identity, options.timeout).await {
        Ok(tools) => tools,
        Err(e) => {
            return PropertyReport {
                problems: vec![format!(
                    "could not list the tools of {}: {e}",
                    target.label()
                )],
                ..PropertyReport::default()
            };
        }
    };
    if !options.selection.allow_empty
        && let Some(why) = options
            .selection
            .ran_on_nothing(&tools, "assert_properties!")
    {
        return PropertyReport {
            problems: vec![why],
            ..PropertyReport::default()
        };
    }
    let mut session = Session::new(target, options.timeout);
    if let Some(identity) = &options.selection.identity {
        session = session.with_caller(crate::Caller::new(identity.clone()));
    }
    let report = run_tools(&session, &tools, options, 1).await;
    if !options.selection.allow_empty && report.runs.is_empty() && report.problems.is_empty() {
        return PropertyReport {
            problems: vec![format!(
                "assert_properties!: no property ran on {} (the selection leaves no tool or action with a schema to generate from), so nothing was tested; `allow_empty = true` if the test means it",
                target.label()
            )],
            ..report
        };
    }
    report
}

/// The property tests of `tools` through `session`, `jobs` tools and actions at a time.
#[doc(hidden)]
pub async fn run_tools(
    session: &Session<'_>,
    tools: &[Value],
    options: &PropertyOptions,
    jobs: usize,
) -> PropertyReport {
    let mut units_of = Vec::new();
    let mut report = PropertyReport::default();
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let schema = tool
            .get("inputSchema")
            .cloned()
            .unwrap_or(json!({"type": "object"}));
        if SchemaValidator::new(&schema).is_err() {
            if options.selection.selects(name, None) {
                report
                    .problems
                    .push(format!("tool {name:?}: the input schema does not compile"));
            }
            continue;
        }
        let stored = match &options.regressions {
            Some(dir) => match regressions::load(dir, name) {
                Ok(stored) => stored,
                Err(e) => {
                    report.problems.push(e);
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        for (action, unit) in units(&schema) {
            if options.selection.selects(name, action.as_deref()) {
                units_of.push(Unit {
                    tool: tool.clone(),
                    name: name.to_owned(),
                    action,
                    input: schema.clone(),
                    schema: unit,
                    stored: stored.clone(),
                });
            }
        }
    }
    let results: Vec<(usize, PropertyReport)> =
        futures_util::stream::iter(units_of.iter().enumerate())
            .map(|(i, unit)| async move { (i, unit.run(session, options).await) })
            .buffer_unordered(jobs.max(1))
            .collect()
            .await;
    let mut results = results;
    results.sort_by_key(|(i, _)| *i);
    for (_, r) in results {
        report.runs.extend(r.runs);
        report.failures.extend(r.failures);
        report.problems.extend(r.problems);
    }
    report
}

/// One tool, or one action of an action tool.
struct Unit {
    tool: Value,
    name: String,
    action: Option<String>,
    input: Value,
    schema: Value,
    stored: Vec<Stored>,
}

/// What one call gave.
enum Verdict {
    Pass,
    /// No verdict (cancelled for its time, over a limit of the client, -32021 on broken
    /// arguments).
    Skip,
    Fail(Fail),
}

#[derive(Clone)]
struct Fail {
    invariant: String,
    kind: FailureKind,
    message: String,
    response: Option<Value>,
}

impl PropertyRun {
    /// Counts one call's verdict: a pass or a failure is a case, a skip is slow. The failure,
    /// if it is one.
    fn count(&mut self, verdict: Verdict) -> Option<Fail> {
        match verdict {
            Verdict::Pass => self.cases += 1,
            Verdict::Skip => self.slow += 1,
            Verdict::Fail(fail) => {
                self.cases += 1;
                return Some(fail);
            }
        }
        None
    }
}

/// What a property's strategy generates: valid arguments, or arguments broken in one place.
trait Generated: Clone + fmt::Debug + Send + 'static {
    /// The property's name in runs and regressions files.
    const PROPERTY: &'static str;
    /// Whether a strategy that yields no value at all is a problem to report (valid
    /// arguments), rather than a schema with nothing to break (broken ones).
    const NO_VALUE_IS_A_PROBLEM: bool;
    /// The arguments, and the place they break the schema, if they do.
    fn into_parts(self) -> (Value, Option<String>);
    /// A stored regression of this property as a value, while it still is one against the
    /// input schema's `validator` (none when the schema does not compile).
    fn replay(stored: &Stored, validator: Option<&SchemaValidator>) -> Option<Self>;
}

impl Generated for Value {
    const PROPERTY: &'static str = "valid";
    const NO_VALUE_IS_A_PROBLEM: bool = true;
    fn into_parts(self) -> (Value, Option<String>) {
        (self, None)
    }
    /// While it is still valid arguments.
    fn replay(stored: &Stored, validator: Option<&SchemaValidator>) -> Option<Self> {
        let valid = validator.is_some_and(|v| v.is_valid(&stored.args));
        valid.then(|| stored.args.clone())
    }
}

impl Generated for Broken {
    const PROPERTY: &'static str = "broken";
    const NO_VALUE_IS_A_PROBLEM: bool = false;
    fn into_parts(self) -> (Value, Option<String>) {
        (self.args, Some(self.pointer))
    }
    /// While it still breaks the schema at its place only.
    fn replay(stored: &Stored, validator: Option<&SchemaValidator>) -> Option<Self> {
        let pointer = stored.pointer.clone()?;
        let violations = validator
            .map(|v| v.violations(&stored.args))
            .unwrap_or_default();
        let only_there = !violations.is_empty() && violations.iter().all(|v| v.pointer == pointer);
        only_there.then(|| Broken {
            args: stored.args.clone(),
            pointer,
            keyword: String::new(),
        })
    }
}

impl Unit {
    fn label(&self) -> String {
        match &self.action {
            Some(a) => format!("tool {:?}, action {a:?}", self.name),
            None => format!("tool {:?}", self.name),
        }
    }

    fn seed(&self, options: &PropertyOptions, property: &str) -> [u8; 32] {
        let mut hash = Sha256::new();
        hash.update(options.selection.seed.to_le_bytes());
        hash.update(self.name.as_bytes());
        hash.update([0]);
        hash.update(self.action.as_deref().unwrap_or("").as_bytes());
        hash.update([0]);
        hash.update(property.as_bytes());
        hash.finalize().into()
    }

    async fn run(&self, session: &Session<'_>, options: &PropertyOptions) -> PropertyReport {
        let mut report = PropertyReport::default();
        let valid_on = options.checks(Invariant::NoProtocolError)
            || options.checks(Invariant::OutputSchema)
            || options.checks(Invariant::Answers)
            || !options.invariants.is_empty();
        if valid_on {
            let strategy = valid_for(&self.input, &self.schema);
            let call = |a: Value| async move { self.call_valid(session, options, &a).await };
            self.property(session, options, strategy, call, &mut report)
                .await;
        }
        if options.checks(Invariant::InvalidNamed) {
            let strategy = broken_for(&self.input, &self.schema);
            let call = |b: Broken| async move { self.call_broken(session, options, &b).await };
            self.property(session, options, strategy, call, &mut report)
                .await;
        }
        report
    }

    fn stored(&self, property: &str) -> impl Iterator<Item = &Stored> {
        self.stored
            .iter()
            .filter(move |s| s.action == self.action && s.property == property)
    }

    /// One property: its stored regressions that still are values of it first, a failure
    /// among them ending it, then up to `options.cases` values of `strategy`, the first
    /// failure shrunk and kept in the regressions file. A schema with no strategy is a
    /// problem of the report.
    async fn property<T, F, Fut>(
        &self,
        session: &Session<'_>,
        options: &PropertyOptions,
        strategy: Result<SBoxedStrategy<T>, StrategyError>,
        call: F,
        report: &mut PropertyReport,
    ) where
        T: Generated,
        F: Fn(T) -> Fut,
        Fut: std::future::Future<Output = Verdict>,
    {
        let strategy = match strategy {
            Ok(strategy) => strategy,
            Err(e) => {
                report.problems.push(format!("{}: {e}", self.label()));
                return;
            }
        };
        let mut run = PropertyRun {
            tool: self.name.clone(),
            action: self.action.clone(),
            property: T::PROPERTY,
            cases: 0,
            slow: 0,
        };
        let validator = SchemaValidator::new(&self.input).ok();
        let replays: Vec<T> = self
            .stored(T::PROPERTY)
            .filter_map(|stored| T::replay(stored, validator.as_ref()))
            .collect();
        for replay in replays {
            if let Some(fail) = run.count(call(replay.clone()).await) {
                let (args, pointer) = replay.into_parts();
                report
                    .failures
                    .push(self.failure(fail, args, pointer, 0, true));
                report.runs.push(run);
                return;
            }
        }
        let trees = match Trees::start(strategy, self.seed(options, T::PROPERTY)) {
            Ok(trees) => trees,
            Err(e) => {
                report.problems.push(format!("{}: {e}", self.label()));
                report.runs.push(run);
                return;
            }
        };
        for _ in 0..options.cases {
            if session.past_deadline() {
                break;
            }
            let value = match trees.new_value().await {
                Ok(value) => value,
                Err(reason) => {
                    if T::NO_VALUE_IS_A_PROBLEM {
                        report.problems.push(format!("{}: {reason}", self.label()));
                    }
                    break;
                }
            };
            let Some(fail) = run.count(call(value.clone()).await) else {
                continue;
            };
            let (value, fail, calls) = if matches!(
                fail.kind,
                FailureKind::NoAnswer | FailureKind::StoppedAnswering
            ) {
                // A server that stopped answering cannot be asked again.
                (value, fail, 0)
            } else {
                shrink(&trees, value, fail, options.max_shrink_calls, &call).await
            };
            let (args, pointer) = value.into_parts();
            let failure = self.failure(fail, args, pointer, calls, false);
            let failure = self.keep(options, failure, T::PROPERTY, report);
            report.failures.push(failure);
            break;
        }
        report.runs.push(run);
    }

    fn failure(
        &self,
        fail: Fail,
        args: Value,
        pointer: Option<String>,
        shrink_calls: u32,
        replayed: bool,
    ) -> PropertyFailure {
        PropertyFailure {
            tool: self.name.clone(),
            action: self.action.clone(),
            invariant: fail.invariant,
            message: fail.message,
            args,
            pointer,
            response: fail.response,
            shrink_calls,
            replayed,
            saved_to: None,
            kind: fail.kind,
        }
    }

    /// Writes a new failure to the regressions file, when there is one.
    fn keep(
        &self,
        options: &PropertyOptions,
        mut failure: PropertyFailure,
        property: &str,
        report: &mut PropertyReport,
    ) -> PropertyFailure {
        if let Some(dir) = &options.regressions {
            let stored = Stored {
                action: self.action.clone(),
                property: property.to_owned(),
                invariant: failure.invariant.clone(),
                args: failure.args.clone(),
                pointer: failure.pointer.clone(),
            };
            match regressions::save(dir, &self.name, stored) {
                Ok(path) => failure.saved_to = Some(path),
                Err(e) => report.problems.push(e),
            }
        }
        failure
    }

    /// Calls the tool with `args`: the response, `None` when the call was cancelled for its
    /// time or went past a limit of the client, or the transport error.
    async fn call(
        &self,
        session: &Session<'_>,
        options: &PropertyOptions,
        args: &Value,
    ) -> Result<Option<Value>, String> {
        if let Some(hook) = &options.before_each {
            hook.run(&self.name);
        }
        if let Some(limit) = options.case_time {
            let case = Case {
                tool: self.name.clone(),
                title: String::new(),
                args: args.clone().into(),
                expectation: Expectation::Observe,
                rationale: String::new(),
                source: "property".into(),
                boundary: None,
            };
            return match session.call_within(&case, limit).await {
                None | Some((crate::cases::Happened::OverLimit { .. }, _)) => Ok(None),
                Some((_, Some(response))) => Ok(Some(response)),
                // Check's overall deadline passed: not sent, no verdict.
                Some((crate::cases::Happened::Failed { message }, None))
                    if message.starts_with(crate::target::DEADLINE_PASSED) =>
                {
                    Ok(None)
                }
                Some((happened, None)) => Err(happened.to_string()),
            };
        }
        let params = json!({"name": self.name, "arguments": args});
        match session.request("tools/call", params).await.1 {
            Ok(response) => Ok(Some(response)),
            Err(e) if over_limit(&e) || matches!(e, TargetError::DeadlinePassed { .. }) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The response to a call with `args`; `Err` the verdict when there is none: a skip (the
    /// call was cancelled for its time or went past a limit of the client), or a failure of
    /// [`Invariant::Answers`] (a transport error), a skip when that invariant is off.
    async fn response(
        &self,
        session: &Session<'_>,
        options: &PropertyOptions,
        args: &Value,
    ) -> Result<Value, Verdict> {
        match self.call(session, options, args).await {
            Ok(Some(response)) => Ok(response),
            Ok(None) => Err(Verdict::Skip),
            Err(e) if options.checks(Invariant::Answers) => Err(Verdict::Fail(Fail {
                invariant: Invariant::Answers.name().into(),
                kind: FailureKind::NoAnswer,
                message: format!("no answer to the call: {e}"),
                response: None,
            })),
            Err(_) => Err(Verdict::Skip),
        }
    }

    /// The verdict of a call answered with `response` that passed its own checks: whether
    /// the server answers the next request (`tools/list`) with any JSON-RPC response.
    async fn answers_after(
        &self,
        session: &Session<'_>,
        options: &PropertyOptions,
        response: Value,
    ) -> Verdict {
        if !options.checks(Invariant::Answers) {
            return Verdict::Pass;
        }
        match session.request("tools/list", Value::Null).await.1 {
            Ok(_) => Verdict::Pass,
            Err(e) if over_limit(&e) || matches!(e, TargetError::DeadlinePassed { .. }) => {
                Verdict::Pass
            }
            Err(e) => Verdict::Fail(Fail {
                invariant: Invariant::Answers.name().into(),
                kind: FailureKind::StoppedAnswering,
                message: format!(
                    "the server answered the call but not the next request (tools/list): {e}"
                ),
                response: Some(response),
            }),
        }
    }

    async fn call_valid(
        &self,
        session: &Session<'_>,
        options: &PropertyOptions,
        args: &Value,
    ) -> Verdict {
        let response = match self.response(session, options, args).await {
            Ok(response) => response,
            Err(verdict) => return verdict,
        };
        let fail = |invariant: &str, kind: FailureKind, message: String| {
            Verdict::Fail(Fail {
                invariant: invariant.to_owned(),
                kind,
                message,
                response: Some(response.clone()),
            })
        };
        if let Some(error) = response.get("error") {
            let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
            if code != i64::from(MISSING_REQUIRED_CLIENT_CAPABILITY)
                && options.checks(Invariant::NoProtocolError)
            {
                let message = error.get("message").and_then(Value::as_str).unwrap_or("");
                return fail(
                    Invariant::NoProtocolError.name(),
                    FailureKind::RpcError,
                    format!("valid arguments got JSON-RPC error {code} ({message:?})"),
                );
            }
        } else {
            let result = response.get("result").unwrap_or(&Value::Null);
            let complete =
                result.get("resultType").and_then(Value::as_str) != Some("input_required");
            let success = result.get("isError") != Some(&Value::Bool(true));
            if let Some(output) = self.tool.get("outputSchema")
                && complete
                && success
                && options.checks(Invariant::OutputSchema)
                && let Ok(validator) = SchemaValidator::new(output)
            {
                match result.get("structuredContent") {
                    None => {
                        return fail(
                            Invariant::OutputSchema.name(),
                            FailureKind::NoStructured,
                            "the tool declares an outputSchema but a successful result has no structuredContent".into(),
                        );
                    }
                    Some(content) => {
                        let violations = validator.violations(content);
                        if !violations.is_empty() {
                            return fail(
                                Invariant::OutputSchema.name(),
                                FailureKind::OutputMismatch,
                                format!(
                                    "structuredContent does not validate against the outputSchema:\n{}",
                                    crate::validation::describe(&violations)
                                ),
                            );
                        }
                    }
                }
            }
        }
        for user in &options.invariants {
            if let Err(why) = (user.check)(args, &response) {
                return fail(&user.name, FailureKind::User, why);
            }
        }
        self.answers_after(session, options, response).await
    }

    async fn call_broken(
        &self,
        session: &Session<'_>,
        options: &PropertyOptions,
        broken: &Broken,
    ) -> Verdict {
        let response = match self.response(session, options, &broken.args).await {
            Ok(response) => response,
            Err(verdict) => return verdict,
        };
        let at = &broken.pointer;
        let fail = |kind: FailureKind, message: String| {
            Verdict::Fail(Fail {
                invariant: Invariant::InvalidNamed.name().into(),
                kind,
                message,
                response: Some(response.clone()),
            })
        };
        if let Some(error) = response.get("error") {
            let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
            if code == i64::from(MISSING_REQUIRED_CLIENT_CAPABILITY) {
                return Verdict::Skip;
            }
            let message = error.get("message").and_then(Value::as_str).unwrap_or("");
            return fail(
                FailureKind::RpcErrorOnInvalid,
                format!(
                    "arguments broken at `{at}` got JSON-RPC error {code} ({message:?}), not a tool execution error (isError: true)"
                ),
            );
        }
        let result = response.get("result").unwrap_or(&Value::Null);
        if result.get("isError") != Some(&Value::Bool(true)) {
            let what = if result.get("resultType").and_then(Value::as_str) == Some("input_required")
            {
                "asked for input (input_required)"
            } else {
                "succeeded"
            };
            return fail(
                FailureKind::AcceptedInvalid,
                format!("arguments broken at `{at}` were accepted: the call {what}"),
            );
        }
        let text: String = result
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n");
        if !names_broken_place(&text, broken) {
            return fail(
                FailureKind::Unnamed,
                format!(
                    "the tool execution error does not name `{at}`, the one place the arguments \
                     break the schema: neither that JSON pointer, nor the field's name, nor the \
                     offending value is in its text"
                ),
            );
        }
        self.answers_after(session, options, response).await
    }
}

/// Shrinks a failure: `simplify` while the call still fails the same invariant, `complicate`
/// when it passes, at most `max_calls` calls. Returns the smallest failing value seen, its
/// failure, and the calls made.
async fn shrink<T, F, Fut>(
    trees: &Trees<T>,
    first: T,
    first_fail: Fail,
    max_calls: u32,
    mut call: F,
) -> (T, Fail, u32)
where
    T: Clone + fmt::Debug + Send + 'static,
    F: FnMut(T) -> Fut,
    Fut: std::future::Future<Output = Verdict>,
{
    let mut best = (first, first_fail);
    let mut calls = 0;
    let mut next = trees.simplify().await;
    while let Some(candidate) = next {
        if calls >= max_calls {
            break;
        }
        calls += 1;
        next = match call(candidate.clone()).await {
            Verdict::Fail(fail) if fail.invariant == best.1.invariant => {
                best = (candidate, fail);
                trees.simplify().await
            }
            _ => trees.complicate().await,
        };
    }
    (best.0, best.1, calls)
}

/// Whether an error `text` names the one place `broken` breaks the schema, in any of the
/// conventions of the SDKs:
///
/// - the **JSON pointer** of the place (`/data/when`), as mcp-test's runtime writes it;
/// - the **name of the field**: the last member name on the pointer (`when` for
///   `/data/when`, `tags` for `/tags/2`), as a whole word (`` missing field `room` `` from
///   rmcp/serde, `room\n  Field required` from pydantic, `"path": ["room"]` from zod), or the
///   path joined with dots (`data.when`);
/// - the **offending value**, as a whole word: a number or boolean as JSON writes it
///   (`invalid value: integer -5`), a string of two or more characters as written or quoted.
///
/// The root pointer (the arguments as a whole) is named by any text.
///
/// ```
/// use mcp_test::cases::properties::{Broken, names_broken_place};
/// use serde_json::json;
/// let missing = Broken { args: json!({}), pointer: "/room".into(), keyword: "required".into() };
/// assert!(names_broken_place("failed to deserialize parameters: missing field `room`", &missing));
/// assert!(names_broken_place("Invalid arguments: /room is required", &missing));
/// assert!(!names_broken_place("failed to deserialize parameters", &missing));
/// // A word, not a part of one.
/// assert!(!names_broken_place("no bedroom given", &missing));
///
/// let low = Broken { args: json!({"data": {"nights": -5}}), pointer: "/data/nights".into(),
///     keyword: "minimum".into() };
/// assert!(names_broken_place("invalid value: integer `-5`, expected u32", &low));
/// assert!(names_broken_place("data.nights: must be >= 1", &low));
/// ```
pub fn names_broken_place(text: &str, broken: &Broken) -> bool {
    let pointer = broken.pointer.as_str();
    if pointer.is_empty() || text.contains(pointer) {
        return true;
    }
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    let is_index = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(field) = segments.iter().rev().find(|s| !is_index(s))
        && has_word(text, field)
    {
        return true;
    }
    if segments.len() > 1 && text.contains(&segments.join(".")) {
        return true;
    }
    match broken.args.pointer(pointer) {
        Some(Value::String(value)) if value.chars().count() >= 2 => {
            has_word(text, value) || text.contains(&Value::from(value.as_str()).to_string())
        }
        Some(value @ (Value::Number(_) | Value::Bool(_))) => has_word(text, &value.to_string()),
        _ => false,
    }
}

/// Whether `word` occurs in `text` with no letter, digit or `_` right before or after it.
fn has_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let inside = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let starts_inside = word.chars().next().is_some_and(inside);
        let ends_inside = word.chars().next_back().is_some_and(inside);
        let joined_before = starts_inside && before.is_some_and(inside);
        let joined_after = ends_inside && after.is_some_and(inside);
        !joined_before && !joined_after
    })
}
