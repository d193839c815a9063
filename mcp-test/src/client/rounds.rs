//! Driving multi-round (`input_required`) requests against a remote server with scripted
//! answers.

use super::{Client, ClientError, Exchange};
use crate::testing::AsResponse;
use serde_json::{Map, Value, json};
use std::sync::Arc;

type Responder = Arc<dyn Fn(&str, &Value) -> Option<Value> + Send + Sync>;

/// Scripted answers to a server's input requests, looked up in this order: the answer for
/// the request's key ([`Answers::answer`]), the answer for its method ([`Answers::method`]),
/// then the responder ([`Answers::respond`]). Build the values with
/// [`rounds::answer`](crate::rounds::answer).
///
/// ```
/// use mcp_test::client::Answers;
/// use mcp_test::rounds::answer;
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
    by_method: Map<String, Value>,
    responder: Option<Responder>,
    max_rounds: usize,
}

impl Default for Answers {
    fn default() -> Self {
        Answers {
            by_key: Map::new(),
            by_method: Map::new(),
            responder: None,
            max_rounds: 10,
        }
    }
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers")
            .field("by_key", &self.by_key)
            .field("by_method", &self.by_method)
            .field("responder", &self.responder.is_some())
            .field("max_rounds", &self.max_rounds)
            .finish()
    }
}

impl Answers {
    /// No answers; at most 10 rounds.
    pub fn new() -> Self {
        Answers::default()
    }

    /// The answer to the input request under `key`, in every round that asks it.
    pub fn answer(mut self, key: impl Into<String>, answer: Value) -> Self {
        self.by_key.insert(key.into(), answer);
        self
    }

    /// The answer to every input request of `method` (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`) that has no answer by key.
    pub fn method(mut self, method: impl Into<String>, answer: Value) -> Self {
        self.by_method.insert(method.into(), answer);
        self
    }

    /// Computes answers from the key and the input request (`{"method": .., "params": ..}`);
    /// `None` leaves it unanswered.
    pub fn respond(
        mut self,
        responder: impl Fn(&str, &Value) -> Option<Value> + Send + Sync + 'static,
    ) -> Self {
        self.responder = Some(Arc::new(responder));
        self
    }

    /// The most rounds a run may take before it fails (default 10).
    pub fn max_rounds(mut self, max_rounds: usize) -> Self {
        self.max_rounds = max_rounds;
        self
    }

    /// The answer for input request `key`, if any.
    pub fn find(&self, key: &str, request: &Value) -> Option<Value> {
        if let Some(answer) = self.by_key.get(key) {
            return Some(answer.clone());
        }
        let method = request.get("method").and_then(Value::as_str);
        if let Some(answer) = method.and_then(|m| self.by_method.get(m)) {
            return Some(answer.clone());
        }
        self.responder.as_ref().and_then(|r| r(key, request))
    }
}

/// The run of a multi-round request: every request sent and every response received, in order.
/// As an [`AsResponse`] it is its last response, so the `assert_*` macros apply to it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rounds {
    /// The request bodies, one per round.
    pub requests: Vec<Value>,
    /// The exchanges, one per round.
    pub exchanges: Vec<Exchange>,
}

impl Rounds {
    /// The final response (a complete result or a JSON-RPC error).
    pub fn last(&self) -> &Value {
        self.exchanges
            .last()
            .and_then(|e| e.response.as_ref())
            .expect("a run has at least one response")
    }

    /// How many rounds the run took.
    pub fn len(&self) -> usize {
        self.exchanges.len()
    }

    /// Whether the run is empty (never, for a finished run).
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
}

impl AsResponse for Rounds {
    fn response_json(&self) -> Result<Value, String> {
        self.exchanges
            .last()
            .and_then(|e| e.response.clone())
            .ok_or_else(|| "the run has no response".to_owned())
    }
}

/// An exchange is its JSON-RPC response for every unwrapper and assertion.
impl AsResponse for Exchange {
    fn response_json(&self) -> Result<Value, String> {
        self.response.clone().ok_or_else(|| {
            format!(
                "the exchange has no JSON-RPC response (HTTP status {:?})",
                self.status
            )
        })
    }
}

pub(super) async fn drive(
    client: &Client,
    body: &Value,
    answers: &Answers,
) -> Result<Rounds, ClientError> {
    let method = body
        .get("method")
        .and_then(Value::as_str)
        .ok_or_else(|| ClientError::Protocol("call_rounds: the body has no method".to_owned()))?
        .to_owned();
    let mut run = Rounds::default();
    let mut body = body.clone();
    loop {
        let exchange = client.exchange(&body).await?;
        let result = exchange
            .response
            .as_ref()
            .and_then(|r| r.get("result"))
            .cloned();
        run.requests.push(body.clone());
        run.exchanges.push(exchange);
        let Some(result) = result else {
            return Ok(run);
        };
        if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
            return Ok(run);
        }
        if run.len() >= answers.max_rounds {
            return Err(ClientError::Protocol(format!(
                "{method}: still input_required after {} rounds (the limit)",
                answers.max_rounds
            )));
        }
        let Some(requests) = result.get("inputRequests").and_then(Value::as_object) else {
            return Err(ClientError::Protocol(format!(
                "{method}: an input_required result without an inputRequests object: {result}"
            )));
        };
        let mut responses = Map::new();
        for (key, request) in requests {
            let answer = answers.find(key, request).ok_or_else(|| {
                ClientError::Protocol(format!(
                    "{method}: round {} asks {key:?} ({}) and no scripted answer covers it; asked: {request}",
                    run.len(),
                    request.get("method").and_then(Value::as_str).unwrap_or("no method")
                ))
            })?;
            responses.insert(key.clone(), answer);
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
        body =
            json!({"jsonrpc": "2.0", "id": client.next_id(), "method": method, "params": params});
    }
}
