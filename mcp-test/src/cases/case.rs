//! The data of schema-derived cases: a [`Case`], what it expects, what happened to it
//! ([`Happened`], [`Outcome`]) and the report of a run ([`VerifyReport`]). The modules that
//! derive, run and judge cases all build on these; this one builds on none of them.

use super::args::CaseArgs;
use crate::target::TargetError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::time::Duration;

/// One derived test case: call `tool` with `args`, and expect `expectation`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// The tool to call.
    pub tool: String,
    /// A human-readable title, unique per tool, e.g. "rejects a missing `/city`".
    pub title: String,
    /// The arguments to send.
    pub args: CaseArgs,
    /// What the server should do.
    pub expectation: Expectation,
    /// Why the case exists.
    pub rationale: String,
    /// Where it came from: `rule:<name>` for the rules engine, `ai:<model>` for a suggestion.
    pub source: String,
    /// For a valid case that puts one value on the edge of what its schema allows (exactly
    /// `maximum`, exactly `minLength`...): which value and which bound. Its interior
    /// counterpart is the valid case whose arguments differ only at
    /// [`Boundary::pointer`]. `None` for every other case.
    pub boundary: Option<Boundary>,
}

/// The bound a valid [`Case`] sits on: the value at `pointer` is the last one `keyword`
/// allows.
///
/// ```
/// use mcp_test::cases::{derive_cases, Boundary, CaseOptions};
/// use serde_json::json;
///
/// let schema = json!({"type": "object",
///     "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 7}}});
/// let cases = derive_cases("forecast", &schema, &CaseOptions::default()).unwrap();
/// let at_max = cases.iter().find(|c| c.args["days"] == 7).unwrap();
/// assert_eq!(at_max.boundary, Some(Boundary { pointer: "/days".into(), keyword: "maximum".into() }));
/// assert_eq!(cases[0].boundary, None, "the base case is interior");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Boundary {
    /// The JSON pointer of the value in the arguments, e.g. `/days`.
    pub pointer: String,
    /// The keyword whose bound it is: `minimum`, `maximum`, `exclusiveMinimum` and
    /// `exclusiveMaximum` (integers: the first value past the bound), `minLength`,
    /// `maxLength`, `minItems`, `maxItems`.
    pub keyword: String,
}

/// What a case predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expectation {
    /// The call succeeds (or asks for input: the arguments were accepted).
    Success,
    /// The call fails: a tool error (`isError: true`) or a JSON-RPC error.
    Error,
    /// Anything but a crash: the behaviour is the server's own choice.
    Observe,
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expectation::Success => "success",
            Expectation::Error => "error",
            Expectation::Observe => "observe",
        })
    }
}

/// A tool whose cases could not be derived, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeriveError {
    /// The tool.
    pub tool: String,
    /// The action of an action tool, if the problem is with one action.
    pub action: Option<String>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for DeriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.action {
            Some(a) => write!(f, "tool {:?}, action {a:?}: {}", self.tool, self.message),
            None => write!(f, "tool {:?}: {}", self.tool, self.message),
        }
    }
}

impl std::error::Error for DeriveError {}

/// What a server did with a case.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Happened {
    /// A `complete` result without `isError`.
    Success {
        /// The first text content, if any (shortened).
        text: String,
    },
    /// `input_required`: the arguments were accepted and the server asks for more.
    InputRequired,
    /// JSON-RPC error -32021 with `data.requiredCapabilities`: the tool needs a client
    /// capability the case did not declare. Never a disagreement: it is what the spec asks of
    /// a server that cannot go on without the capability.
    NeedsCapabilities {
        /// `data.requiredCapabilities`: the capabilities the server requires.
        required: Value,
    },
    /// A result with `isError: true`.
    ToolError {
        /// The error text.
        text: String,
    },
    /// A JSON-RPC error.
    RpcError {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// No answer: the transport failed or the call timed out.
    Failed {
        /// What happened.
        message: String,
    },
    /// The reply went past a limit of the client (too long, too deep to parse): not kept,
    /// and no verdict on the server, which may well have answered correctly.
    OverLimit {
        /// Which limit, and where.
        message: String,
    },
    /// No verdict: the call was still running when the time one case may take ran out
    /// (`mcp_test_check::CheckOptions::case_time`) and was cancelled
    /// (`notifications/cancelled` on stdio, the response stream closed on HTTP), or it was not
    /// sent because an earlier case of the same tool had been. `check` only.
    Slow {
        /// The time a case may take, in milliseconds.
        limit_ms: u64,
        /// Whether the call was sent (and cancelled), rather than not sent at all.
        sent: bool,
    },
}

impl Happened {
    /// Classifies a JSON-RPC response to `tools/call`.
    ///
    /// ```
    /// use mcp_test::cases::Happened;
    /// use serde_json::json;
    /// let needs = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32021, "message": "no",
    ///     "data": {"requiredCapabilities": {"elicitation": {}}}}});
    /// assert_eq!(Happened::from_response(&needs),
    ///            Happened::NeedsCapabilities { required: json!({"elicitation": {}}) });
    /// ```
    pub fn from_response(response: &Value) -> Happened {
        if let Some(error) = response.get("error") {
            let required = error.pointer("/data/requiredCapabilities");
            if error.get("code").and_then(Value::as_i64)
                == Some(i64::from(
                    crate::wire::error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY,
                ))
                && let Some(required) = required.filter(|r| r.is_object())
            {
                return Happened::NeedsCapabilities {
                    required: required.clone(),
                };
            }
            return Happened::RpcError {
                code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
            };
        }
        let result = response.get("result").unwrap_or(&Value::Null);
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            return Happened::InputRequired;
        }
        let text = result
            .get("content")
            .and_then(Value::as_array)
            .and_then(|c| c.iter().find_map(|b| b.get("text").and_then(Value::as_str)))
            .map(|t| shorten(t, 200))
            .unwrap_or_default();
        if result.get("isError") == Some(&Value::Bool(true)) {
            Happened::ToolError { text }
        } else {
            Happened::Success { text }
        }
    }

    /// Whether this bears out `expectation`. A -32021 that names the capabilities it needs
    /// ([`Happened::NeedsCapabilities`]) bears out every expectation, and so does a case
    /// cancelled for its time ([`Happened::Slow`]), which has no verdict either way.
    pub fn agrees_with(&self, expectation: Expectation) -> bool {
        match (expectation, self) {
            (_, Happened::Failed { .. } | Happened::OverLimit { .. }) => false,
            (_, Happened::NeedsCapabilities { .. } | Happened::Slow { .. })
            | (Expectation::Observe, _) => true,
            (Expectation::Success, h) => {
                matches!(h, Happened::Success { .. } | Happened::InputRequired)
            }
            (Expectation::Error, h) => {
                matches!(h, Happened::ToolError { .. } | Happened::RpcError { .. })
            }
        }
    }
}

impl fmt::Display for Happened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Happened::Success { text } if text.is_empty() => f.write_str("success"),
            Happened::Success { text } => write!(f, "success ({text:?})"),
            Happened::InputRequired => f.write_str("input_required"),
            Happened::NeedsCapabilities { required } => {
                write!(
                    f,
                    "needs client capabilities {required} ({})",
                    crate::wire::error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY
                )
            }
            Happened::ToolError { text } => write!(f, "tool error ({text:?})"),
            Happened::RpcError { code, message } => {
                write!(f, "JSON-RPC error {code} ({message:?})")
            }
            Happened::Failed { message } => write!(f, "no answer: {message}"),
            Happened::OverLimit { message } => write!(f, "over a limit of the client: {message}"),
            Happened::Slow {
                limit_ms,
                sent: true,
            } => write!(f, "still running after {limit_ms} ms: cancelled"),
            Happened::Slow {
                limit_ms,
                sent: false,
            } => write!(
                f,
                "not sent: an earlier case of the tool ran over {limit_ms} ms"
            ),
        }
    }
}

/// Whether `e` is a limit of the client that the reply went past (too long, too deep to
/// parse): no failure of the server.
#[doc(hidden)]
pub fn over_limit(e: &TargetError) -> bool {
    #[cfg(any(feature = "client", feature = "http"))]
    if let TargetError::Client(
        crate::client::ClientError::TooLarge { .. } | crate::client::ClientError::TooDeep { .. },
    ) = e
    {
        return true;
    }
    let _ = e;
    false
}

#[doc(hidden)]
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(max).collect();
        out.push('…');
        out
    }
}

/// One case and what the server did with it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// The case.
    pub case: Case,
    /// What happened.
    pub happened: Happened,
    /// Whether the prediction held.
    pub agrees: bool,
    /// The full response, when there was one.
    #[serde(skip)]
    pub response: Option<Value>,
    /// How long the call took, from sending it to its outcome (every round of a multi-round
    /// call included); in JSON, `ms`.
    #[serde(rename = "ms", serialize_with = "serialize_millis")]
    pub duration: Option<Duration>,
}

/// A duration as milliseconds with a tenth of a millisecond, or `null`.
#[doc(hidden)]
pub fn serialize_millis<S: serde::Serializer>(
    duration: &Option<Duration>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match duration {
        Some(d) => serializer.serialize_f64((d.as_secs_f64() * 10_000.0).round() / 10.0),
        None => serializer.serialize_none(),
    }
}

/// Every case with its outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VerifyReport {
    /// In the order the cases were given.
    pub outcomes: Vec<Outcome>,
}

impl VerifyReport {
    /// The cases whose prediction did not hold.
    pub fn disagreements(&self) -> impl Iterator<Item = &Outcome> {
        self.outcomes.iter().filter(|o| !o.agrees)
    }

    /// Whether every prediction held.
    pub fn all_agree(&self) -> bool {
        self.outcomes.iter().all(|o| o.agrees)
    }
}

impl fmt::Display for VerifyReport {
    /// One block per disagreeing case: tool, title, source, predicted, happened, arguments.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bad: Vec<&Outcome> = self.disagreements().collect();
        writeln!(
            f,
            "{} of {} schema-derived cases disagree with the server:",
            bad.len(),
            self.outcomes.len()
        )?;
        for o in bad {
            writeln!(f)?;
            writeln!(
                f,
                "- {} › {} [{}]",
                o.case.tool, o.case.title, o.case.source
            )?;
            writeln!(f, "  predicted: {}", o.case.expectation)?;
            writeln!(f, "  happened:  {}", o.happened)?;
            writeln!(f, "  why:       {}", o.case.rationale)?;
            writeln!(f, "  arguments: {}", o.case.args)?;
        }
        Ok(())
    }
}
