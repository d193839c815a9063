//! Load: the latency and throughput of any MCP server under concurrency, and its memory and
//! descriptors over the run (`mcp-test load`).
//!
//! A run sends a [`Scenario`] of calls, each drawn by its weight, from a number of concurrent
//! clients (workers), for a duration or a count of requests per step. The workers share
//! connections ([`Connections::Shared`]: one stdio process takes every worker's requests
//! pipelined, each matched to its answer by id) or each has its own
//! ([`Connections::PerClient`]: one HTTP session, or one process, a worker). A fixed run has
//! one step; a ramp has one step a concurrency and stops at the first step that breaks a bound
//! ([`LoadOptions::max_p99`], [`LoadOptions::max_error_rate`]): [`LoadReport::last_within_bounds`]
//! is the last concurrency within them.
//!
//! Latencies go into HDR histograms (microseconds, three significant digits), one per call of
//! the scenario and step, and one per interval of the time series. Each outcome is counted as
//! a success, or an error by its kind: the JSON-RPC error code (`-32602`), `isError` (a tool's
//! error result), `timeout`, `transport` (the connection failed), `wrong id` or `no response`.
//! The processes the run reaches (the servers it started, and [`LoadOptions::pids`]) are
//! sampled each interval from `/proc/PID/status` (`VmRSS`) and `/proc/PID/fd`.
//!
//! # The JSON report
//!
//! [`LoadReport`] serializes as one object (`mcp-test load --format json`):
//!
//! | field | what it holds |
//! |---|---|
//! | `target`, `era`, `transport` | the server (URL or command line), the protocol era spoken (`2026-07-28` or `2025-11-25`) and `stdio` or `http` |
//! | `connections` | `"shared"` or `"per-client"`, and `connections_opened`, how many were open at the end |
//! | `scenario` | the calls: `label` (`tools/call echo`), `method`, `weight` |
//! | `skipped` | the tools the default scenario left out, each with `tool` and `why` (consent, or no valid arguments) |
//! | `bounds` | `max_p99_ms` (or `null`) and `max_error_rate` (a fraction) |
//! | `steps` | one per concurrency run: `concurrency`, `duration_ms`, `requests`, `errors`, `error_rate`, `throughput` (answers a second), `latency` (`p50_ms`, `p90_ms`, `p99_ms`, `max_ms`), `calls` (the same per call of the scenario, with `errors` by kind), `within_bounds`, and `broke` (which bound, in words) |
//! | `last_within_bounds` | the highest concurrency of the steps, in order, before the first that broke a bound; `null` when the first broke one |
//! | `ok` | a fixed run: its step kept within the bounds; a ramp: `last_within_bounds` is not `null` |
//! | `stopped` | why the run ended early (the overall bound on time, `--max-duration`), or `null` |
//! | `series` | one point per interval (a second by default): `t_ms` (its end, since the run began), `concurrency`, `requests`, `errors`, `throughput`, `p50_ms`, `p99_ms` (of the answers in that interval; `null` when there were none), `rss_kb` and `fds` (summed over the sampled processes; `null` when none could be read) |
//! | `resources` | the sampled processes (`pids`), and `rss_kb` and `fds` each as `first`, `peak`, `last`; `null` when no process was sampled |
//! | `requests`, `errors`, `duration_ms` | the totals of the run |

use crate::consent::Consent;
use crate::reconnect::Reconnect;
use hdrhistogram::Histogram;
use mcp_test::Caller;
use mcp_test::cases::{CaseOptions, Connected, Expectation, derive_cases};
use mcp_test::client::ClientError;
use mcp_test::target::{Exchange, Target, TargetError};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest a run may take unless told otherwise ([`LoadOptions::max_duration`]).
pub const DEFAULT_MAX_DURATION: Duration = Duration::from_secs(600);

/// The largest latency a histogram holds: one minute, in microseconds (longer ones are
/// recorded as this).
const MAX_MICROS: u64 = 60_000_000;

/// One call of a scenario: a request sent as often as its weight says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Call {
    /// How reports name it: `tools/call NAME`, or the method, or the name the scenario gave.
    pub label: String,
    /// The JSON-RPC method.
    pub method: String,
    /// Its params (the protocol `_meta` is added per request).
    #[serde(skip)]
    pub params: Value,
    /// Its share of the requests, against the other calls' weights.
    pub weight: u32,
}

impl Call {
    /// A `tools/call` of `tool` with `arguments`, weight 1.
    ///
    /// ```
    /// use mcp_test_check::load::Call;
    /// let call = Call::tool("echo", serde_json::json!({"message": "hi"}));
    /// assert_eq!(call.label, "tools/call echo");
    /// assert_eq!(call.params["arguments"]["message"], "hi");
    /// ```
    pub fn tool(tool: &str, arguments: Value) -> Call {
        Call {
            label: format!("tools/call {tool}"),
            method: "tools/call".to_owned(),
            params: serde_json::json!({"name": tool, "arguments": arguments}),
            weight: 1,
        }
    }
}

/// A tool the default scenario left out, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The tool's name.
    pub tool: String,
    /// Why: consent held it back, or no valid arguments could be derived.
    pub why: String,
}

/// The calls of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Scenario {
    /// The calls, each with its weight.
    pub calls: Vec<Call>,
}

/// A scenario file that cannot be used: where (the file, and the JSON pointer or line and
/// column) and why.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{file}: {at}: {message}")]
pub struct ScenarioError {
    /// The file as given.
    pub file: String,
    /// `line L, column C` for JSON that does not parse, else the JSON pointer of the value at
    /// fault (`/calls/2/weight`; empty for the root, shown as `/`).
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl Scenario {
    /// The default scenario: each tool of `tools` (a `tools/list`'s tools) that `consent`
    /// allows, called with its base case (the first valid case its input schema gives, edge
    /// cases off), weight 1; the others, with why, beside it.
    ///
    /// ```
    /// use mcp_test_check::Consent;
    /// use mcp_test_check::load::Scenario;
    /// use serde_json::json;
    /// let tools = [
    ///     json!({"name": "echo", "annotations": {"readOnlyHint": true},
    ///            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
    ///                            "required": ["text"]}}),
    ///     json!({"name": "delete", "inputSchema": {"type": "object"}}),
    /// ];
    /// let (scenario, skipped) = Scenario::from_tools(&tools, &Consent::default());
    /// assert_eq!(scenario.calls.len(), 1);
    /// assert!(scenario.calls[0].params["arguments"]["text"].is_string());
    /// assert_eq!(skipped[0].tool, "delete");
    /// ```
    pub fn from_tools(tools: &[Value], consent: &Consent) -> (Scenario, Vec<Skipped>) {
        let mut options = CaseOptions::default();
        options.edge_cases = false;
        let mut calls = Vec::new();
        let mut skipped = Vec::new();
        for tool in tools {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
            if let Err(why) = consent.allows(tool) {
                skipped.push(Skipped {
                    tool: name.to_owned(),
                    why,
                });
                continue;
            }
            let schema = tool
                .get("inputSchema")
                .cloned()
                .unwrap_or_else(|| serde_json::json!({"type": "object"}));
            let base = derive_cases(name, &schema, &options).map(|cases| {
                cases
                    .into_iter()
                    .find(|c| c.expectation == Expectation::Success)
            });
            match base {
                Ok(Some(case)) => calls.push(Call::tool(name, case.args.into_value())),
                Ok(None) => skipped.push(Skipped {
                    tool: name.to_owned(),
                    why: "its input schema gives no valid case".to_owned(),
                }),
                Err(e) => skipped.push(Skipped {
                    tool: name.to_owned(),
                    why: format!("no valid arguments derived: {}", e.message),
                }),
            }
        }
        (Scenario { calls }, skipped)
    }

    /// Reads a scenario file's text (`file` names it in errors):
    ///
    /// ```json
    /// {"calls": [
    ///   {"tool": "echo", "arguments": {"message": "hi"}, "weight": 3},
    ///   {"method": "resources/read", "params": {"uri": "test://static"}, "name": "read"},
    ///   {"method": "tools/list"}
    /// ]}
    /// ```
    ///
    /// Each call names a `tool` (with `arguments`, an object, default `{}`) or a `method`
    /// (with `params`, an object, default `{}`), not both; `weight` is a whole number from 1
    /// to 1,000,000 (default 1); `name` labels it in the report. Any other key is an error.
    ///
    /// ```
    /// use mcp_test_check::load::Scenario;
    /// let err = Scenario::from_json(r#"{"calls": [{"tool": "echo", "weight": 0}]}"#, "s.json")
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "s.json: /calls/0/weight: a weight is a whole number from 1 to 1000000, not 0");
    /// ```
    pub fn from_json(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
        let fail = |at: &str, message: String| ScenarioError {
            file: file.to_owned(),
            at: if at.is_empty() {
                "/".to_owned()
            } else {
                at.to_owned()
            },
            message,
        };
        let root: Value = serde_json::from_str(text).map_err(|e| ScenarioError {
            file: file.to_owned(),
            at: format!("line {}, column {}", e.line(), e.column()),
            message: format!("not JSON: {e}"),
        })?;
        let Some(object) = root.as_object() else {
            return Err(fail("", "a scenario is an object with `calls`".to_owned()));
        };
        if let Some(key) = object.keys().find(|k| *k != "calls") {
            return Err(fail(
                &format!("/{}", escape(key)),
                format!("unknown key `{key}` (a scenario has only `calls`)"),
            ));
        }
        let Some(entries) = object.get("calls").and_then(Value::as_array) else {
            return Err(fail(
                "/calls",
                "`calls` must be an array of calls".to_owned(),
            ));
        };
        if entries.is_empty() {
            return Err(fail(
                "/calls",
                "`calls` is empty: name at least one".to_owned(),
            ));
        }
        let mut calls = Vec::new();
        for (n, entry) in entries.iter().enumerate() {
            let at = format!("/calls/{n}");
            let Some(entry) = entry.as_object() else {
                return Err(fail(&at, "a call is an object".to_owned()));
            };
            for key in entry.keys() {
                if !["tool", "arguments", "method", "params", "weight", "name"]
                    .contains(&key.as_str())
                {
                    return Err(fail(
                        &format!("{at}/{}", escape(key)),
                        format!(
                            "unknown key `{key}` (a call has tool and arguments, or method and params, with weight and name)"
                        ),
                    ));
                }
            }
            let string = |key: &str| -> Result<Option<String>, ScenarioError> {
                match entry.get(key) {
                    None => Ok(None),
                    Some(Value::String(s)) if !s.is_empty() => Ok(Some(s.clone())),
                    Some(other) => Err(fail(
                        &format!("{at}/{key}"),
                        format!("`{key}` must be a non-empty string, not {other}"),
                    )),
                }
            };
            let object_at = |key: &str| -> Result<Value, ScenarioError> {
                match entry.get(key) {
                    None => Ok(serde_json::json!({})),
                    Some(v @ Value::Object(_)) => Ok(v.clone()),
                    Some(other) => Err(fail(
                        &format!("{at}/{key}"),
                        format!("`{key}` must be an object, not {other}"),
                    )),
                }
            };
            let mut call = match (string("tool")?, string("method")?) {
                (Some(_), Some(_)) => {
                    return Err(fail(
                        &at,
                        "a call names a `tool` or a `method`, not both".to_owned(),
                    ));
                }
                (None, None) => {
                    return Err(fail(&at, "a call names a `tool` or a `method`".to_owned()));
                }
                (Some(tool), None) => {
                    if entry.contains_key("params") {
                        return Err(fail(
                            &format!("{at}/params"),
                            "a tool call takes `arguments`, not `params`".to_owned(),
                        ));
                    }
                    Call::tool(&tool, object_at("arguments")?)
                }
                (None, Some(method)) => {
                    if entry.contains_key("arguments") {
                        return Err(fail(
                            &format!("{at}/arguments"),
                            "`arguments` belong to a `tool` call; a method takes `params`"
                                .to_owned(),
                        ));
                    }
                    Call {
                        label: method.clone(),
                        method,
                        params: object_at("params")?,
                        weight: 1,
                    }
                }
            };
            if let Some(weight) = entry.get("weight") {
                match weight.as_u64() {
                    Some(w @ 1..=1_000_000) => call.weight = w as u32,
                    _ => {
                        return Err(fail(
                            &format!("{at}/weight"),
                            format!("a weight is a whole number from 1 to 1000000, not {weight}"),
                        ));
                    }
                }
            }
            if let Some(name) = string("name")? {
                call.label = name;
            }
            calls.push(call);
        }
        Ok(Scenario { calls })
    }
}

/// A JSON pointer's reference token for `key` (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// How the workers reach the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connections {
    /// This many connections, shared by the workers in turn: with one, a stdio server gets
    /// every worker's requests pipelined on its one process.
    Shared(usize),
    /// One connection a worker (an HTTP session, or a process of the command).
    PerClient,
}

/// When a step ends, and the bounds it is judged by.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LoadOptions {
    /// The calls to send.
    pub scenario: Scenario,
    /// The concurrency of each step, in order: one for a fixed run, more for a ramp.
    pub steps: Vec<usize>,
    /// How long each step runs (`None`: until [`requests`](Self::requests)).
    pub duration: Option<Duration>,
    /// How many requests each step sends (`None`: until [`duration`](Self::duration)).
    pub requests: Option<u64>,
    /// The longest the whole run may take, whatever else says: it then stops and says so.
    pub max_duration: Duration,
    /// Each request's timeout: one unanswered that long is an error of kind `timeout`.
    pub timeout: Duration,
    /// A step whose p99 latency is above this breaks its bound.
    pub max_p99: Option<Duration>,
    /// A step whose errors are more than this fraction of its requests breaks its bound.
    pub max_error_rate: f64,
    /// How the workers reach the server.
    pub connections: Connections,
    /// The length of an interval of the time series.
    pub interval: Duration,
    /// Processes to sample beside the ones the run started (an HTTP server's, `--pid`).
    pub pids: Vec<u32>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            scenario: Scenario::default(),
            steps: vec![1],
            duration: Some(Duration::from_secs(10)),
            requests: None,
            max_duration: DEFAULT_MAX_DURATION,
            timeout: Duration::from_secs(30),
            max_p99: None,
            max_error_rate: 0.0,
            connections: Connections::Shared(1),
            interval: Duration::from_secs(1),
            pids: Vec::new(),
        }
    }
}

/// Latency percentiles, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Latency {
    /// The median.
    pub p50_ms: f64,
    /// The 90th percentile.
    pub p90_ms: f64,
    /// The 99th percentile.
    pub p99_ms: f64,
    /// The longest.
    pub max_ms: f64,
}

impl Latency {
    fn of(histogram: &Histogram<u64>) -> Latency {
        if histogram.is_empty() {
            return Latency::default();
        }
        Latency {
            p50_ms: ms(histogram.value_at_quantile(0.50)),
            p90_ms: ms(histogram.value_at_quantile(0.90)),
            p99_ms: ms(histogram.value_at_quantile(0.99)),
            max_ms: ms(histogram.max()),
        }
    }
}

fn ms(micros: u64) -> f64 {
    (micros as f64 / 1000.0 * 1000.0).round() / 1000.0
}

/// One call's figures in one step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallReport {
    /// The call's label.
    pub label: String,
    /// Its method.
    pub method: String,
    /// Requests answered or failed.
    pub requests: u64,
    /// How many failed, by kind: a JSON-RPC error code (`-32602`), `isError`, `timeout`,
    /// `transport`, `wrong id`, `no response`.
    pub errors: BTreeMap<String, u64>,
    /// One message of each kind of error, as it came.
    pub error_samples: BTreeMap<String, String>,
    /// Its latency, successes and errors alike.
    pub latency: Latency,
    /// Its requests a second.
    pub throughput: f64,
}

/// One step: the scenario at one concurrency.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepReport {
    /// How many workers sent at once.
    pub concurrency: usize,
    /// How long it ran.
    pub duration_ms: f64,
    /// Requests answered or failed.
    pub requests: u64,
    /// How many failed.
    pub errors: u64,
    /// `errors / requests` (0 with no requests).
    pub error_rate: f64,
    /// Requests a second.
    pub throughput: f64,
    /// The latency of every request of the step.
    pub latency: Latency,
    /// The same per call of the scenario.
    pub calls: Vec<CallReport>,
    /// Whether it kept within the bounds.
    pub within_bounds: bool,
    /// Each bound it broke, in words.
    pub broke: Vec<String>,
}

/// One interval of the time series.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Its end, in milliseconds since the run began.
    pub t_ms: u64,
    /// The step's concurrency.
    pub concurrency: usize,
    /// Requests that ended in it.
    pub requests: u64,
    /// How many of them failed.
    pub errors: u64,
    /// Its requests a second.
    pub throughput: f64,
    /// The median latency of its requests (`None` with none).
    pub p50_ms: Option<f64>,
    /// Their 99th percentile.
    pub p99_ms: Option<f64>,
    /// The resident memory of the sampled processes, in kB, at its end.
    pub rss_kb: Option<u64>,
    /// Their open descriptors at its end.
    pub fds: Option<u64>,
}

/// The first, peak and last sample of a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Samples {
    /// Before the first request.
    pub first: u64,
    /// The highest.
    pub peak: u64,
    /// After the last request.
    pub last: u64,
}

/// What the sampled processes held over the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Resources {
    /// The processes sampled.
    pub pids: Vec<u32>,
    /// Their resident memory (`VmRSS`), in kB.
    pub rss_kb: Option<Samples>,
    /// Their open descriptors (`/proc/PID/fd`).
    pub fds: Option<Samples>,
}

/// What a load run measured. See the [module docs](self) for the JSON fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoadReport {
    /// The server: URL or command line.
    pub target: String,
    /// The protocol era spoken.
    pub era: String,
    /// `stdio` or `http`.
    pub transport: String,
    /// `shared` or `per-client`.
    pub connections: String,
    /// How many connections were open at the end.
    pub connections_opened: usize,
    /// The calls sent.
    pub scenario: Vec<Call>,
    /// The tools the default scenario left out.
    pub skipped: Vec<Skipped>,
    /// The bounds each step was judged by.
    pub bounds: Bounds,
    /// The steps run, in order.
    pub steps: Vec<StepReport>,
    /// The highest concurrency before the first step that broke a bound.
    pub last_within_bounds: Option<usize>,
    /// A fixed run: its step kept within the bounds; a ramp: it found a concurrency within
    /// them.
    pub ok: bool,
    /// Why the run ended before its steps did.
    pub stopped: Option<String>,
    /// One point per interval.
    pub series: Vec<Interval>,
    /// What the sampled processes held.
    pub resources: Option<Resources>,
    /// Requests of the whole run.
    pub requests: u64,
    /// Errors of the whole run.
    pub errors: u64,
    /// How long it ran.
    pub duration_ms: f64,
}

/// The bounds of a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bounds {
    /// The highest p99 latency a step may have.
    pub max_p99_ms: Option<f64>,
    /// The largest fraction of a step's requests that may fail.
    pub max_error_rate: f64,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The scenario has no call.
    #[error("the scenario has no call to send")]
    NoCalls,
    /// A step's concurrency is 0, or there is no step.
    #[error("a concurrency must be 1 or more, and there must be a step")]
    NoConcurrency,
    /// Neither a duration nor a count of requests.
    #[error("a step needs a duration or a count of requests")]
    Unbounded,
    /// Another connection could not be opened.
    #[error("could not open connection {n}: {source}")]
    Connect {
        /// Which (1 is the first).
        n: usize,
        /// Why.
        source: TargetError,
    },
}

/// The connections of a run: the first, and how to open more.
pub struct Pool {
    first: Arc<Connected>,
    more: Option<Reconnect>,
    opened: tokio::sync::Mutex<Vec<Arc<Connected>>>,
}

impl Pool {
    /// A pool holding `first`; `more` opens the others in `first`'s era (none: every worker
    /// shares `first`).
    pub fn new(first: Connected, more: Option<Reconnect>) -> Pool {
        let first = Arc::new(first);
        Pool {
            first: first.clone(),
            more,
            opened: tokio::sync::Mutex::new(vec![first]),
        }
    }

    /// The first connection.
    pub fn first(&self) -> &Connected {
        &self.first
    }

    /// The connections, at least `n` of them when more can be opened.
    async fn at_least(&self, n: usize) -> Result<Vec<Arc<Connected>>, LoadError> {
        let mut opened = self.opened.lock().await;
        if let Some(more) = &self.more {
            while opened.len() < n {
                let connected =
                    more.open(self.first.era)
                        .await
                        .map_err(|source| LoadError::Connect {
                            n: opened.len() + 1,
                            source,
                        })?;
                opened.push(Arc::new(connected));
            }
        }
        Ok(opened.clone())
    }

    /// Closes every connection, each stdio process given `grace` to exit.
    pub async fn close(&self, grace: Duration) {
        let opened = std::mem::take(&mut *self.opened.lock().await);
        let closes = opened.iter().map(|c| c.client.close_within(grace));
        futures_util::future::join_all(closes).await;
    }

    async fn pids(&self) -> Vec<u32> {
        self.opened
            .lock()
            .await
            .iter()
            .filter_map(|c| c.client.process_id())
            .collect()
    }
}

/// Counts of one call, or of one interval.
struct Tally {
    histogram: Histogram<u64>,
    requests: u64,
    errors: BTreeMap<String, u64>,
    samples: BTreeMap<String, String>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            histogram: Histogram::new_with_bounds(1, MAX_MICROS, 3).expect("valid bounds"),
            requests: 0,
            errors: BTreeMap::new(),
            samples: BTreeMap::new(),
        }
    }

    fn record(&mut self, micros: u64, failure: Option<&(String, String)>) {
        self.histogram
            .saturating_record(micros.clamp(1, MAX_MICROS));
        self.requests += 1;
        if let Some((kind, sample)) = failure {
            *self.errors.entry(kind.clone()).or_default() += 1;
            if !self.samples.contains_key(kind) {
                self.samples.insert(kind.clone(), sample.clone());
            }
        }
    }

    fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }
}

/// What the workers of one step record into.
struct Recorder {
    calls: Vec<Tally>,
    interval: Tally,
}

/// The kind of a failed outcome and its message, or `None` for a success.
fn classify(
    body: &Value,
    outcome: Result<Result<Exchange, TargetError>, tokio::time::error::Elapsed>,
    timeout: Duration,
) -> Option<(String, String)> {
    let failed = |kind: &str, message: String| Some((kind.to_owned(), shorten(&message)));
    match outcome {
        Err(_) => failed("timeout", format!("no answer within {timeout:?}")),
        Ok(Err(TargetError::Client(ClientError::Timeout { .. }))) => {
            failed("timeout", format!("no answer within {timeout:?}"))
        }
        Ok(Err(TargetError::Timeout { .. })) => {
            failed("timeout", format!("no answer within {timeout:?}"))
        }
        Ok(Err(e)) => failed("transport", e.to_string()),
        Ok(Ok(exchange)) => match exchange.response {
            None => failed("no response", "the request had no response".to_owned()),
            Some(response) => {
                if response.get("id") != body.get("id") {
                    return failed(
                        "wrong id",
                        format!("sent id {}, answered {response}", body["id"]),
                    );
                }
                if let Some(error) = response.get("error") {
                    let code = error
                        .get("code")
                        .map_or_else(|| "error".to_owned(), Value::to_string);
                    return failed(&code, error.to_string());
                }
                if response.pointer("/result/isError") == Some(&Value::Bool(true)) {
                    return failed("isError", response["result"].to_string());
                }
                None
            }
        },
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 300;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// The sum of `VmRSS` (kB) and of the open descriptors of `pids`, each `None` when no
/// process could be read.
pub fn sample_processes(pids: &[u32]) -> (Option<u64>, Option<u64>) {
    let mut rss = None;
    let mut fds = None;
    for pid in pids {
        if let Some(kb) = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|status| vm_rss_kb(&status))
        {
            *rss.get_or_insert(0) += kb;
        }
        if let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
            *fds.get_or_insert(0) += entries.count() as u64;
        }
    }
    (rss, fds)
}

/// The `VmRSS` line of a `/proc/PID/status`, in kB.
///
/// ```
/// use mcp_test_check::load::vm_rss_kb;
/// assert_eq!(vm_rss_kb("Name:\tx\nVmRSS:\t  12345 kB\n"), Some(12345));
/// assert_eq!(vm_rss_kb("Name:\tx\n"), None);
/// ```
pub fn vm_rss_kb(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// A small deterministic generator (SplitMix64) for each worker's draw of calls.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The index of a call drawn by weight.
    fn pick(&mut self, weights: &[u32], total: u64) -> usize {
        let mut at = self.next() % total;
        for (i, w) in weights.iter().enumerate() {
            if at < u64::from(*w) {
                return i;
            }
            at -= u64::from(*w);
        }
        weights.len() - 1
    }
}

/// What a step's workers share.
struct Step<'a> {
    options: &'a LoadOptions,
    weights: Vec<u32>,
    total_weight: u64,
    recorder: Mutex<Recorder>,
    started_requests: AtomicU64,
    end: tokio::time::Instant,
    stop: &'a AtomicBool,
}

impl Step<'_> {
    async fn worker(&self, n: usize, connection: Arc<Connected>) {
        let mut draw = Draw(0x5EED ^ (n as u64).wrapping_mul(0x1000_0001));
        let caller = Caller::default();
        loop {
            if self.stop.load(Ordering::Relaxed) || tokio::time::Instant::now() >= self.end {
                return;
            }
            if let Some(limit) = self.options.requests
                && self.started_requests.fetch_add(1, Ordering::Relaxed) >= limit
            {
                return;
            }
            let at = draw.pick(&self.weights, self.total_weight);
            let call = &self.options.scenario.calls[at];
            let body = connection
                .client
                .request_body(&call.method, call.params.clone());
            let started = Instant::now();
            let outcome = tokio::time::timeout(
                self.options.timeout,
                Target::send(&*connection, &body, &caller),
            )
            .await;
            let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
            let failure = classify(&body, outcome, self.options.timeout);
            let mut recorder = self.recorder.lock().unwrap_or_else(|e| e.into_inner());
            recorder.calls[at].record(micros, failure.as_ref());
            recorder.interval.record(micros, failure.as_ref());
        }
    }
}

/// Runs the load: each step of `options` over the connections of `pool`, opening more as
/// [`LoadOptions::connections`] asks. `progress` gets a line each interval. The pool is left
/// open ([`Pool::close`]).
pub async fn run(
    pool: &Pool,
    options: &LoadOptions,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<LoadReport, LoadError> {
    if options.scenario.calls.is_empty() {
        return Err(LoadError::NoCalls);
    }
    if options.steps.is_empty() || options.steps.contains(&0) {
        return Err(LoadError::NoConcurrency);
    }
    if options.duration.is_none() && options.requests.is_none() {
        return Err(LoadError::Unbounded);
    }
    let run_started = tokio::time::Instant::now();
    let run_end = run_started + options.max_duration;
    let connection = pool.first().connection();
    let mut report = LoadReport {
        target: pool.first().label.clone(),
        era: pool.first().era.revision().to_owned(),
        transport: if connection.http.is_some() {
            "http".to_owned()
        } else {
            "stdio".to_owned()
        },
        connections: match options.connections {
            Connections::Shared(_) => "shared".to_owned(),
            Connections::PerClient => "per-client".to_owned(),
        },
        connections_opened: 1,
        scenario: options.scenario.calls.clone(),
        skipped: Vec::new(),
        bounds: Bounds {
            max_p99_ms: options.max_p99.map(|d| d.as_secs_f64() * 1000.0),
            max_error_rate: options.max_error_rate,
        },
        steps: Vec::new(),
        last_within_bounds: None,
        ok: true,
        stopped: None,
        series: Vec::new(),
        resources: None,
        requests: 0,
        errors: 0,
        duration_ms: 0.0,
    };
    let mut rss_series = Vec::new();
    let mut fd_series = Vec::new();
    let sample = |pids: &[u32], rss: &mut Vec<u64>, fd: &mut Vec<u64>| {
        let (r, f) = sample_processes(pids);
        if let Some(r) = r {
            rss.push(r);
        }
        if let Some(f) = f {
            fd.push(f);
        }
        (r, f)
    };
    let mut pids = pool.pids().await;
    pids.extend(&options.pids);
    sample(&pids, &mut rss_series, &mut fd_series);
    let stop = AtomicBool::new(false);
    let mut within = true;
    for &concurrency in &options.steps {
        if tokio::time::Instant::now() >= run_end {
            report.stopped = Some(format!(
                "the run reached its bound of {} s before the step at concurrency {concurrency}",
                options.max_duration.as_secs()
            ));
            break;
        }
        let wanted = match options.connections {
            Connections::Shared(n) => n.clamp(1, concurrency),
            Connections::PerClient => concurrency,
        };
        let connections = pool.at_least(wanted).await?;
        report.connections_opened = connections.len();
        pids = pool.pids().await;
        pids.extend(&options.pids);
        let wanted_end = options.duration.map(|d| tokio::time::Instant::now() + d);
        let step_end = wanted_end.map_or(run_end, |end| end.min(run_end));
        let weights: Vec<u32> = options.scenario.calls.iter().map(|c| c.weight).collect();
        let step = Step {
            options,
            total_weight: weights.iter().map(|w| u64::from(*w)).sum(),
            weights,
            recorder: Mutex::new(Recorder {
                calls: options
                    .scenario
                    .calls
                    .iter()
                    .map(|_| Tally::new())
                    .collect(),
                interval: Tally::new(),
            }),
            started_requests: AtomicU64::new(0),
            end: step_end,
            stop: &stop,
        };
        let step_started = Instant::now();
        let workers = futures_util::future::join_all(
            (0..concurrency).map(|n| step.worker(n, connections[n % connections.len()].clone())),
        );
        tokio::pin!(workers);
        let mut ticker = tokio::time::interval_at(
            tokio::time::Instant::now() + options.interval,
            options.interval,
        );
        let mut interval_started = Instant::now();
        let mut point = |step: &Step<'_>, rss: &mut Vec<u64>, fd: &mut Vec<u64>| {
            let tally = std::mem::replace(
                &mut step
                    .recorder
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .interval,
                Tally::new(),
            );
            let (rss_kb, fds) = sample(&pids, rss, fd);
            let secs = interval_started.elapsed().as_secs_f64().max(1e-6);
            interval_started = Instant::now();
            let (p50_ms, p99_ms) = if tally.histogram.is_empty() {
                (None, None)
            } else {
                let l = Latency::of(&tally.histogram);
                (Some(l.p50_ms), Some(l.p99_ms))
            };
            Interval {
                t_ms: u64::try_from(run_started.elapsed().as_millis()).unwrap_or(u64::MAX),
                concurrency,
                requests: tally.requests,
                errors: tally.error_count(),
                throughput: round(tally.requests as f64 / secs),
                p50_ms,
                p99_ms,
                rss_kb,
                fds,
            }
        };
        loop {
            tokio::select! {
                _ = &mut workers => break,
                _ = ticker.tick() => {
                    let interval = point(&step, &mut rss_series, &mut fd_series);
                    progress(&format!(
                        "concurrency {concurrency}: {} requests/s, p99 {} ms, {} errors{}",
                        interval.throughput,
                        interval.p99_ms.map_or_else(|| "-".to_owned(), |p| p.to_string()),
                        interval.errors,
                        interval.rss_kb.map_or_else(String::new, |kb| format!(", rss {kb} kB")),
                    ));
                    report.series.push(interval);
                }
            }
        }
        let last = point(&step, &mut rss_series, &mut fd_series);
        if last.requests > 0 || report.series.is_empty() {
            report.series.push(last);
        }
        let elapsed = step_started.elapsed().as_secs_f64().max(1e-6);
        let recorder = Recorder {
            calls: std::mem::take(
                &mut step
                    .recorder
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .calls,
            ),
            interval: Tally::new(),
        };
        let mut all = Tally::new();
        let calls: Vec<CallReport> = recorder
            .calls
            .iter()
            .zip(&options.scenario.calls)
            .map(|(tally, call)| {
                let _ = all.histogram.add(&tally.histogram);
                all.requests += tally.requests;
                CallReport {
                    label: call.label.clone(),
                    method: call.method.clone(),
                    requests: tally.requests,
                    errors: tally.errors.clone(),
                    error_samples: tally.samples.clone(),
                    latency: Latency::of(&tally.histogram),
                    throughput: round(tally.requests as f64 / elapsed),
                }
            })
            .collect();
        let errors: u64 = recorder.calls.iter().map(Tally::error_count).sum();
        let latency = Latency::of(&all.histogram);
        let error_rate = if all.requests == 0 {
            0.0
        } else {
            errors as f64 / all.requests as f64
        };
        let mut broke = Vec::new();
        if let Some(max) = options.max_p99
            && latency.p99_ms > max.as_secs_f64() * 1000.0
        {
            broke.push(format!(
                "p99 {} ms is above --max-p99 {} ms",
                latency.p99_ms,
                max.as_secs_f64() * 1000.0
            ));
        }
        if error_rate > options.max_error_rate {
            broke.push(format!(
                "{errors} of {} requests failed ({:.2} %), above --max-error-rate {}",
                all.requests,
                error_rate * 100.0,
                options.max_error_rate
            ));
        }
        if all.requests == 0 {
            broke.push("no request was answered".to_owned());
        }
        let within_bounds = broke.is_empty();
        if within_bounds && within {
            report.last_within_bounds = Some(concurrency);
        } else {
            within = false;
        }
        let cut_short = wanted_end.is_none_or(|end| end > run_end)
            && tokio::time::Instant::now() >= run_end
            && options.requests.is_none_or(|limit| all.requests < limit);
        if cut_short {
            report.stopped = Some(format!(
                "the run reached its bound of {} s (--max-duration) at concurrency {concurrency}",
                options.max_duration.as_secs_f64()
            ));
        }
        report.requests += all.requests;
        report.errors += errors;
        report.steps.push(StepReport {
            concurrency,
            duration_ms: round(elapsed * 1000.0),
            requests: all.requests,
            errors,
            error_rate: round(error_rate),
            throughput: round(all.requests as f64 / elapsed),
            latency,
            calls,
            within_bounds,
            broke,
        });
        if !within_bounds {
            break;
        }
    }
    // A fixed run is ok within its bounds; a ramp when it found a concurrency within them.
    report.ok = match report.steps.as_slice() {
        [] => false,
        [only] if options.steps.len() == 1 => only.within_bounds,
        _ => report.last_within_bounds.is_some(),
    };
    if !pids.is_empty() {
        let samples = |series: &[u64]| {
            Some(Samples {
                first: *series.first()?,
                peak: *series.iter().max()?,
                last: *series.last()?,
            })
        };
        report.resources = Some(Resources {
            pids,
            rss_kb: samples(&rss_series),
            fds: samples(&fd_series),
        });
    }
    report.duration_ms = round(run_started.elapsed().as_secs_f64() * 1000.0);
    Ok(report)
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl LoadReport {
    /// The report as text: a table per step (each call's requests, errors by kind,
    /// percentiles and throughput), the verdict of the bounds, and the memory and descriptors
    /// of the sampled processes.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "load: {} over {} ({}), {} connection{} ({})",
            self.target,
            self.transport,
            self.era,
            self.connections_opened,
            if self.connections_opened == 1 {
                ""
            } else {
                "s"
            },
            self.connections
        );
        for skipped in &self.skipped {
            let _ = writeln!(out, "  not called: {}: {}", skipped.tool, skipped.why);
        }
        for step in &self.steps {
            let _ = writeln!(
                out,
                "\nconcurrency {}: {} requests in {:.2} s, {} req/s, {} errors ({:.2} %); p50 {} ms, p90 {} ms, p99 {} ms, max {} ms{}",
                step.concurrency,
                step.requests,
                step.duration_ms / 1000.0,
                step.throughput,
                step.errors,
                step.error_rate * 100.0,
                step.latency.p50_ms,
                step.latency.p90_ms,
                step.latency.p99_ms,
                step.latency.max_ms,
                if step.within_bounds {
                    ""
                } else {
                    "  BROKE A BOUND"
                },
            );
            let width = step
                .calls
                .iter()
                .map(|c| c.label.len())
                .max()
                .unwrap_or(4)
                .max(4);
            let _ = writeln!(
                out,
                "  {:width$}  {:>8}  {:>7}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}",
                "call", "requests", "errors", "p50 ms", "p90 ms", "p99 ms", "max ms", "req/s"
            );
            for call in &step.calls {
                let errors: u64 = call.errors.values().sum();
                let _ = writeln!(
                    out,
                    "  {:width$}  {:>8}  {:>7}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}",
                    call.label,
                    call.requests,
                    errors,
                    call.latency.p50_ms,
                    call.latency.p90_ms,
                    call.latency.p99_ms,
                    call.latency.max_ms,
                    call.throughput
                );
                for (kind, count) in &call.errors {
                    let _ = writeln!(
                        out,
                        "    {count} × {kind}: {}",
                        call.error_samples.get(kind).map_or("", String::as_str)
                    );
                }
            }
            for broke in &step.broke {
                let _ = writeln!(out, "  broke: {broke}");
            }
        }
        if let Some(resources) = &self.resources {
            let pids: Vec<String> = resources.pids.iter().map(u32::to_string).collect();
            let _ = write!(out, "\nserver process {}:", pids.join(", "));
            if let Some(rss) = resources.rss_kb {
                let _ = write!(
                    out,
                    " rss {} kB first, {} kB peak, {} kB last;",
                    rss.first, rss.peak, rss.last
                );
            }
            if let Some(fds) = resources.fds {
                let _ = write!(
                    out,
                    " fds {} first, {} peak, {} last",
                    fds.first, fds.peak, fds.last
                );
            }
            let _ = writeln!(out);
        }
        if let Some(stopped) = &self.stopped {
            let _ = writeln!(out, "stopped: {stopped}");
        }
        let verdict = match (self.steps.len(), self.last_within_bounds) {
            (0, _) => "no step ran".to_owned(),
            (1, _) if self.ok => "within bounds".to_owned(),
            (1, _) => "a bound was broken".to_owned(),
            (_, Some(c)) if self.ok => {
                format!("every step within bounds, the last at concurrency {c}")
            }
            (_, Some(c)) => format!("last concurrency within bounds: {c}"),
            (_, None) => "no concurrency was within bounds".to_owned(),
        };
        let _ = writeln!(
            out,
            "{} requests, {} errors in {:.2} s: {verdict}",
            self.requests,
            self.errors,
            self.duration_ms / 1000.0
        );
        out
    }
}

impl LoadReport {
    /// The report as one self-contained HTML page ([`crate::html`]): the totals, a chart of
    /// throughput and one of the p50 and p99 latency over the run, one of the sampled
    /// processes' memory and descriptors, and a table per step with each call's figures.
    /// Each number the JSON also holds is marked with its path in it (`mcp-test load
    /// --html FILE`; `scripts/reports` opens the test command's in a browser).
    pub fn to_html(&self) -> String {
        use crate::html::{escape, line_chart, number, page};
        let seconds = |i: &Interval| i.t_ms as f64 / 1000.0;
        let mut body = String::from(
            "<h2>Summary</h2>\n<table><tr><th>requests</th><th>errors</th>\
            <th>seconds</th><th>last concurrency within bounds</th><th>verdict</th></tr>\n",
        );
        let _ = writeln!(
            body,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}</td>\
             <td class=\"num\">{}</td><td class=\"{}\">{}</td></tr></table>",
            number("requests", self.requests),
            number("errors", self.errors),
            self.duration_ms / 1000.0,
            self.last_within_bounds
                .map_or_else(|| "none".to_owned(), |c| number("last_within_bounds", c)),
            if self.ok { "ok" } else { "sev-defect" },
            if self.ok {
                "within the bounds"
            } else {
                "a bound was broken"
            },
        );
        if let Some(why) = &self.stopped {
            let _ = writeln!(
                body,
                "<p class=\"sev-warning\">Stopped early: {}</p>",
                escape(why)
            );
        }
        body.push_str("<h2>Over the run</h2>\n");
        let throughput: Vec<(f64, f64)> = self
            .series
            .iter()
            .map(|i| (seconds(i), i.throughput))
            .collect();
        body += &line_chart(
            "requests per second",
            &[("throughput", throughput)],
            "seconds",
            900,
            200,
        );
        let p50: Vec<(f64, f64)> = self
            .series
            .iter()
            .filter_map(|i| i.p50_ms.map(|p| (seconds(i), p)))
            .collect();
        let p99: Vec<(f64, f64)> = self
            .series
            .iter()
            .filter_map(|i| i.p99_ms.map(|p| (seconds(i), p)))
            .collect();
        body += &line_chart(
            "latency (ms)",
            &[("p50", p50), ("p99", p99)],
            "seconds",
            900,
            200,
        );
        let rss: Vec<(f64, f64)> = self
            .series
            .iter()
            .filter_map(|i| i.rss_kb.map(|kb| (seconds(i), kb as f64 / 1024.0)))
            .collect();
        if !rss.is_empty() {
            body += &line_chart("server memory (MiB)", &[("rss", rss)], "seconds", 900, 180);
            let fds: Vec<(f64, f64)> = self
                .series
                .iter()
                .filter_map(|i| i.fds.map(|n| (seconds(i), n as f64)))
                .collect();
            body += &line_chart("open descriptors", &[("fds", fds)], "seconds", 900, 180);
        }
        if let Some(resources) = &self.resources {
            body.push_str(
                "<table><tr><th>sampled</th><th>first</th><th>peak</th><th>last</th></tr>\n",
            );
            for (name, samples, path) in [
                ("resident memory (KiB)", &resources.rss_kb, "rss_kb"),
                ("open descriptors", &resources.fds, "fds"),
            ] {
                if let Some(s) = samples {
                    let _ = writeln!(
                        body,
                        "<tr><td>{name}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                         <td class=\"num\">{}</td></tr>",
                        number(&format!("resources.{path}.first"), s.first),
                        number(&format!("resources.{path}.peak"), s.peak),
                        number(&format!("resources.{path}.last"), s.last),
                    );
                }
            }
            body.push_str("</table>\n");
        }
        for (i, step) in self.steps.iter().enumerate() {
            let _ = writeln!(
                body,
                "<h2>Step {}: {} clients <span class=\"{}\">{}</span></h2>\n<table><tr>\
                 <th>call</th><th class=\"num\">requests</th><th>errors</th>\
                 <th class=\"num\">p50 ms</th><th class=\"num\">p90 ms</th>\
                 <th class=\"num\">p99 ms</th><th class=\"num\">max ms</th>\
                 <th class=\"num\">per second</th></tr>",
                i + 1,
                number(&format!("steps.{i}.concurrency"), step.concurrency),
                if step.within_bounds {
                    "ok"
                } else {
                    "sev-defect"
                },
                if step.within_bounds {
                    "within bounds".to_owned()
                } else {
                    escape(&step.broke.join("; "))
                },
            );
            for (j, call) in step.calls.iter().enumerate() {
                let path = format!("steps.{i}.calls.{j}");
                let errors: Vec<String> = call
                    .errors
                    .iter()
                    .map(|(kind, n)| format!("{} × {n}", escape(kind)))
                    .collect();
                let _ = writeln!(
                    body,
                    "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td>\
                     <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                     <td class=\"num\">{}</td><td class=\"num\">{:.1}</td></tr>",
                    escape(&call.label),
                    number(&format!("{path}.requests"), call.requests),
                    if errors.is_empty() {
                        "none".to_owned()
                    } else {
                        errors.join(", ")
                    },
                    number(&format!("{path}.latency.p50_ms"), call.latency.p50_ms),
                    number(&format!("{path}.latency.p90_ms"), call.latency.p90_ms),
                    number(&format!("{path}.latency.p99_ms"), call.latency.p99_ms),
                    number(&format!("{path}.latency.max_ms"), call.latency.max_ms),
                    call.throughput,
                );
            }
            body.push_str("</table>\n");
        }
        if !self.skipped.is_empty() {
            body.push_str("<h2>Tools left out</h2>\n<table><tr><th>tool</th><th>why</th></tr>\n");
            for s in &self.skipped {
                let _ = writeln!(
                    body,
                    "<tr><td><code>{}</code></td><td>{}</td></tr>",
                    escape(&s.tool),
                    escape(&s.why)
                );
            }
            body.push_str("</table>\n");
        }
        page(
            &format!("mcp-test load: {}", self.target),
            &format!(
                "{} over {}, {} connection(s), {}",
                escape(&self.era),
                escape(&self.transport),
                self.connections_opened,
                escape(&self.connections)
            ),
            &body,
        )
    }
}
