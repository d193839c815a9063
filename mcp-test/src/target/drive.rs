//! The one round driver: a multi-round (`input_required`, spec §8) request driven to its final
//! response against any [`Target`], with one [`Answers`] script.

use super::base::{Exchange, Target, TargetError};
use crate::server::Caller;
use crate::setters;
use serde_json::{Map, Value, json};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// How many rounds [`drive`] runs before it gives up, unless [`Answers::max_rounds`] says
/// otherwise: a request still asking after this many rounds is an error, not a loop.
///
/// ```
/// assert_eq!(mcp_test::target::DEFAULT_MAX_ROUNDS, 10);
/// ```
pub const DEFAULT_MAX_ROUNDS: usize = 10;

type Responder = Arc<dyn Fn(&str, &Value) -> Option<Value> + Send + Sync>;

/// The client's side of a multi-round request: how each input request (`elicitation/create`,
/// `sampling/createMessage`, `roots/list`) is answered.
///
/// An input request under key `K` is answered by the first that has an answer:
///
/// 1. the answer scripted for `K` ([`Answers::answer`]), in every round that asks it;
/// 2. the next answer scripted in order ([`Answers::then`]), each used once, in the order the
///    server asks (keys in the order of `inputRequests`);
/// 3. the answer scripted for the request's method ([`Answers::method`]);
/// 4. the responder ([`Answers::respond`]);
/// 5. with [`Answers::synthesize`], an answer made from the request itself
///    ([`synthesize_answer`](super::synthesize_answer)): a form filled to its
///    `requestedSchema`, consent to a URL, a sampled text, an empty list of roots.
///
/// Build the values with [`answer`](crate::testing::answer).
///
/// ```
/// use mcp_test::target::Answers;
/// use mcp_test::testing::answer;
/// use serde_json::json;
///
/// let answers = Answers::new()
///     .answer("user_name", answer::accept(json!({"name": "Ada"})))
///     .method("sampling/createMessage", answer::sampled("test-model", "Paris"))
///     .respond(|_key, request| {
///         (request["method"] == "roots/list").then(|| answer::roots(["file:///tmp"]))
///     });
/// assert_eq!(answers.find("user_name", &json!({"method": "elicitation/create"})).unwrap()["action"], "accept");
/// assert_eq!(answers.find("q", &json!({"method": "sampling/createMessage"})).unwrap()["model"], "test-model");
/// assert!(answers.find("r", &json!({"method": "roots/list"})).is_some());
/// assert!(answers.find("x", &json!({"method": "elicitation/create"})).is_none());
/// ```
#[derive(Clone)]
#[must_use]
pub struct Answers {
    by_key: Map<String, Value>,
    in_order: Arc<Mutex<VecDeque<Value>>>,
    by_method: Map<String, Value>,
    responder: Option<Responder>,
    synthesize: bool,
    max_rounds: usize,
}

impl Default for Answers {
    fn default() -> Self {
        Answers {
            by_key: Map::new(),
            in_order: Arc::default(),
            by_method: Map::new(),
            responder: None,
            synthesize: false,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers")
            .field("by_key", &self.by_key)
            .field("in_order", &self.pending_in_order())
            .field("by_method", &self.by_method)
            .field("responder", &self.responder.is_some())
            .field("synthesize", &self.synthesize)
            .field("max_rounds", &self.max_rounds)
            .finish()
    }
}

impl Answers {
    /// No answers; at most [`DEFAULT_MAX_ROUNDS`] rounds.
    pub fn new() -> Self {
        Answers::default()
    }

    /// Answers every input request from the request itself
    /// ([`synthesize_answer`](super::synthesize_answer)): what a checker uses to drive a
    /// server it knows nothing about. Scripted answers still come first.
    ///
    /// ```
    /// use mcp_test::target::Answers;
    /// use serde_json::json;
    /// let answers = Answers::synthesized();
    /// let question = json!({"method": "elicitation/create", "params": {"mode": "form",
    ///     "message": "Age?", "requestedSchema": {"type": "object",
    ///     "properties": {"age": {"type": "integer", "minimum": 18}}, "required": ["age"]}}});
    /// assert_eq!(answers.find("q", &question).unwrap()["content"]["age"], 18);
    /// ```
    pub fn synthesized() -> Self {
        Answers::new().synthesize()
    }

    /// The answer to the input request under `key`, in every round that asks it.
    pub fn answer(mut self, key: impl Into<String>, answer: Value) -> Self {
        self.by_key.insert(key.into(), answer);
        self
    }

    /// The keys answered by key ([`answer`](Self::answer)): what a failure for an unanswered
    /// question lists, so a misspelt key shows.
    ///
    /// ```
    /// use mcp_test::target::Answers;
    /// let answers = Answers::new().answer("name", serde_json::json!({})).answer("age", serde_json::json!({}));
    /// let mut keys: Vec<&str> = answers.keys().collect();
    /// keys.sort();
    /// assert_eq!(keys, ["age", "name"]);
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.by_key.keys().map(String::as_str)
    }

    /// The next answer in order: each is used once, for the next input request that has no
    /// answer by key, in the order the server asks.
    ///
    /// ```
    /// use mcp_test::target::Answers;
    /// use mcp_test::testing::answer;
    /// use serde_json::json;
    /// let answers = Answers::new().then(answer::decline()).then(answer::cancel());
    /// let q = json!({"method": "elicitation/create"});
    /// assert_eq!(answers.find("a", &q).unwrap()["action"], "decline");
    /// assert_eq!(answers.find("b", &q).unwrap()["action"], "cancel");
    /// assert!(answers.find("c", &q).is_none());
    /// ```
    pub fn then(self, answer: Value) -> Self {
        self.in_order
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push_back(answer);
        self
    }

    /// The answer to every input request of `method` (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`) that has no answer by key or in order.
    pub fn method(mut self, method: impl Into<String>, answer: Value) -> Self {
        self.by_method.insert(method.into(), answer);
        self
    }

    setters! {
        /// Computes answers from the key and the input request (`{"method": .., "params": ..}`);
        /// `None` leaves it to the next source.
        respond(responder: impl Fn(&str, &Value) -> Option<Value> + Send + Sync + 'static)
            => responder = Some(Arc::new(responder));
    }

    /// Answers what nothing scripted covers from the request itself (see
    /// [`Answers::synthesized`]).
    pub fn synthesize(mut self) -> Self {
        self.synthesize = true;
        self
    }

    setters! {
        /// The most rounds a run may take before it fails (default [`DEFAULT_MAX_ROUNDS`]).
        max_rounds: usize;
    }

    /// The round limit.
    pub fn round_limit(&self) -> usize {
        self.max_rounds
    }

    /// The answer for input request `key` (`{"method": .., "params": ..}`), if any. An answer
    /// scripted in order is used up by this call.
    pub fn find(&self, key: &str, request: &Value) -> Option<Value> {
        if let Some(answer) = self.by_key.get(key) {
            return Some(answer.clone());
        }
        if let Some(answer) = self
            .in_order
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop_front()
        {
            return Some(answer);
        }
        let method = request.get("method").and_then(Value::as_str);
        if let Some(answer) = method.and_then(|m| self.by_method.get(m)) {
            return Some(answer.clone());
        }
        if let Some(answer) = self.responder.as_ref().and_then(|r| r(key, request)) {
            return Some(answer);
        }
        if self.synthesize {
            return super::synthesize_answer(request);
        }
        None
    }

    fn pending_in_order(&self) -> Vec<Value> {
        self.in_order
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }
}

/// The run of a multi-round request: every request sent and every exchange received, in
/// order. As an [`AsResponse`](crate::testing::AsResponse) it is its last response, so the
/// `assert_*` macros apply to it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rounds {
    /// The request bodies, one per round.
    pub requests: Vec<Value>,
    /// The exchanges, one per round.
    pub exchanges: Vec<Exchange>,
}

impl Rounds {
    /// The final response (a complete result or a JSON-RPC error); `null` for an empty run.
    pub fn last(&self) -> &Value {
        static NULL: Value = Value::Null;
        self.exchanges
            .last()
            .and_then(|e| e.response.as_ref())
            .unwrap_or(&NULL)
    }

    /// How many rounds the run took: a round is one request and its response (spec §8's
    /// round trip), so a call that asks one question takes 2. The same count everywhere:
    /// [`Transcript::round_count`](crate::testing::Transcript::round_count), the round
    /// numbers of [`DriveError`], [`Answers::max_rounds`].
    pub fn len(&self) -> usize {
        self.exchanges.len()
    }

    /// Whether the run is empty (never, for a run [`drive`] returned).
    pub fn is_empty(&self) -> bool {
        self.exchanges.is_empty()
    }

    /// The `inputRequests` of round `index` (0-based), if that round asked any.
    pub fn input_requests(&self, index: usize) -> Option<&Value> {
        self.exchanges
            .get(index)?
            .response
            .as_ref()?
            .get("result")?
            .get("inputRequests")
    }

    /// Every notification of every round, in order.
    pub fn notifications(&self) -> impl Iterator<Item = &Value> {
        self.exchanges.iter().flat_map(|e| e.notifications.iter())
    }
}

/// Why [`drive`] stopped before a final response. Each variant keeps the rounds so far.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DriveError {
    /// The message to drive has no `method`.
    #[error("the message to drive has no method: {0}")]
    NoMethod(Value),
    /// A round asked an input request that no answer covers.
    #[error(
        "{method}: round {round} asks {key:?} ({}) and no answer covers it; asked: {request}",
        request.get("method").and_then(Value::as_str).unwrap_or("no method")
    )]
    Unanswered {
        /// The request's method.
        method: String,
        /// 1-based round.
        round: usize,
        /// The input request's key.
        key: String,
        /// The input request (`{"method": .., "params": ..}`).
        request: Value,
        /// The rounds so far, this one included.
        rounds: Rounds,
    },
    /// The request still needed input after the round limit.
    #[error("{method}: still input_required after {limit} rounds (the limit)")]
    TooManyRounds {
        /// The request's method.
        method: String,
        /// The limit.
        limit: usize,
        /// Every round.
        rounds: Rounds,
    },
    /// An `input_required` result without an `inputRequests` object.
    #[error("{method}: an input_required result without an inputRequests object: {result}")]
    Malformed {
        /// The request's method.
        method: String,
        /// The result.
        result: Value,
        /// The rounds so far, this one included.
        rounds: Rounds,
    },
    /// The target failed.
    #[error("{method}: round {round}: {source}")]
    Target {
        /// The request's method.
        method: String,
        /// 1-based round.
        round: usize,
        /// What the target said.
        source: TargetError,
        /// The rounds before this one.
        rounds: Rounds,
    },
}

impl DriveError {
    /// The rounds that were run before the error.
    pub fn rounds(&self) -> Option<&Rounds> {
        match self {
            DriveError::NoMethod(_) => None,
            DriveError::Unanswered { rounds, .. }
            | DriveError::TooManyRounds { rounds, .. }
            | DriveError::Malformed { rounds, .. }
            | DriveError::Target { rounds, .. } => Some(rounds),
        }
    }
}

/// The id of round `round` (1-based): the original id first, then a fresh one per retry, as
/// spec §8 requires ("a new request").
fn retry_id(original: &Value, round: usize) -> Value {
    let offset = i64::try_from(round).unwrap_or(i64::MAX) - 1;
    match original {
        Value::Number(n) => match n.as_i64() {
            Some(n) => Value::from(n.saturating_add(offset)),
            None => Value::from(format!("{n}-retry-{offset}")),
        },
        Value::String(s) => Value::from(format!("{s}-retry-{offset}")),
        other => Value::from(format!("{other}-retry-{offset}")),
    }
}

/// Drives `message` (a `tools/call`, `prompts/get` or `resources/read` request) to its final
/// response: after each `input_required` result, answers every input request from `answers`,
/// echoes `requestState` (or leaves it out when the server sent none), and retries with a
/// fresh id and the same params. A JSON-RPC error or a complete result ends the run; it is
/// the last exchange of the returned [`Rounds`].
///
/// Retry ids count up from the original (`7`, `8`, …; a string id gets `-retry-N`), unless
/// `next_id` is given: then every retry takes its id from it (a client's id counter).
///
/// ```
/// use mcp_test::target::{drive, Answers};
/// use mcp_test::testing::{answer, build_call_request};
/// use mcp_test::{Caller, Context, Server, Tool, ToolError};
/// use serde::Deserialize;
///
/// /// Greets whoever answers.
/// #[derive(Tool)]
/// #[tool(name = "greet")]
/// struct Greet {}
///
/// #[derive(Deserialize, schemars::JsonSchema)]
/// struct Name { name: String }
///
/// impl Greet {
///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
///         let form = ctx.elicit_as::<Name>("Your name?").key("name").await?;
///         Ok(format!("Hello, {}!", form.accepted().map_or("stranger".into(), |n| n.name)))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").tool::<Greet>().build().unwrap();
/// let mut request = build_call_request("greet", serde_json::json!({}));
/// request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
///     serde_json::json!({"elicitation": {}});
/// let answers = Answers::new().answer("name", answer::accept(serde_json::json!({"name": "Ada"})));
/// let rounds = drive(&server, &request, &answers, &Caller::default(), None).await.unwrap();
/// assert_eq!(rounds.len(), 2);
/// assert_eq!(rounds.last()["result"]["content"][0]["text"], "Hello, Ada!");
/// # }
/// ```
pub async fn drive(
    target: &(impl Target + ?Sized),
    message: &Value,
    answers: &Answers,
    caller: &Caller,
    next_id: Option<&(dyn Fn() -> Value + Send + Sync)>,
) -> Result<Rounds, DriveError> {
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return Err(DriveError::NoMethod(message.clone()));
    };
    let method = method.to_owned();
    let original_id = message.get("id").cloned().unwrap_or(Value::Null);
    let mut rounds = Rounds::default();
    let mut body = message.clone();
    loop {
        let round = rounds.len() + 1;
        let exchange = match target.send(&body, caller).await {
            Ok(exchange) => exchange,
            Err(source) => {
                return Err(DriveError::Target {
                    method,
                    round,
                    source,
                    rounds,
                });
            }
        };
        let result = exchange
            .response
            .as_ref()
            .and_then(|r| r.get("result"))
            .cloned();
        rounds.requests.push(body.clone());
        rounds.exchanges.push(exchange);
        let Some(result) = result else {
            return Ok(rounds);
        };
        if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
            return Ok(rounds);
        }
        if rounds.len() >= answers.round_limit() {
            return Err(DriveError::TooManyRounds {
                method,
                limit: answers.round_limit(),
                rounds,
            });
        }
        let Some(requests) = result.get("inputRequests").and_then(Value::as_object) else {
            return Err(DriveError::Malformed {
                method,
                result,
                rounds,
            });
        };
        let mut responses = Map::new();
        for (key, request) in requests {
            match answers.find(key, request) {
                Some(answer) => {
                    responses.insert(key.clone(), answer);
                }
                None => {
                    return Err(DriveError::Unanswered {
                        method,
                        round,
                        key: key.clone(),
                        request: request.clone(),
                        rounds,
                    });
                }
            }
        }
        let mut params = body
            .get("params")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        params.insert("inputResponses".to_owned(), Value::Object(responses));
        match result.get("requestState") {
            Some(state) => params.insert("requestState".to_owned(), state.clone()),
            None => params.remove("requestState"),
        };
        let id = match next_id {
            Some(next) => next(),
            None => retry_id(&original_id, round + 1),
        };
        body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    }
}
