//! Multi-round calls through the wire: answer each `input_required` from a script and retry the
//! way a client must (spec §8), until the call completes.

use super::request::{RequestOptions, TestContext, call_tool};
use super::response::{AsResponse, Branch, show};
use crate::rounds::RunOutcome;
use crate::server::Server;
use crate::wire::{CallToolResult, RequestId};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The most rounds [`drive_tool`] runs before it gives up: a tool still asking after this many
/// rounds fails the test rather than looping.
///
/// ```
/// assert_eq!(mcp_test::testing::MAX_ROUNDS, 10);
/// ```
pub const MAX_ROUNDS: usize = 10;

impl AsResponse for RunOutcome<CallToolResult> {
    /// A finished run is its tool result; a run that stopped on questions is the
    /// `input_required` result the wire would carry (without `requestState`, which only the
    /// server mints).
    fn response_json(&self) -> Result<Value, String> {
        match self {
            RunOutcome::Complete(result) => result.response_json(),
            RunOutcome::InputRequired(questions) => Ok(json!({
                "resultType": "input_required",
                "inputRequests": questions.to_value(),
            })),
        }
    }
}

/// The id of retry `round` (1-based): the base id for the first request, then a fresh one per
/// retry, as spec §8 requires.
fn round_id(base: Option<&RequestId>, round: usize) -> RequestId {
    let offset = i64::try_from(round).unwrap_or(i64::MAX) - 1;
    match base {
        None => RequestId::Number(1 + offset),
        Some(RequestId::Number(n)) => RequestId::Number(n.saturating_add(offset)),
        Some(RequestId::String(s)) if round == 1 => RequestId::String(s.clone()),
        Some(RequestId::String(s)) => RequestId::String(format!("{s}-retry-{offset}")),
    }
}

/// Calls tool `name` and drives its rounds through the server's full path, as a client would:
/// each `input_required` is answered from `answers` (an object keyed like `inputRequests`, each
/// value the client's result, e.g. from [`answer`](crate::rounds::answer)), and the call is
/// retried with the same arguments, the `requestState` echoed byte for byte, the answers asked
/// for as `inputResponses`, and a fresh request id. Returns the final response — a result or a
/// JSON-RPC error — with every `input_required` response before it.
///
/// Panics, showing the question and everything received, when a question has no scripted
/// answer, or after [`MAX_ROUNDS`] rounds.
///
/// ```
/// use mcp_test::rounds::answer;
/// use mcp_test::testing::{drive_tool, RequestOptions};
/// use mcp_test::{assert_tool_text, CallToolResult, Context, Server, Tool, ToolError};
/// use serde_json::{json, Value};
///
/// struct Greet;
/// impl Tool for Greet {
///     const NAME: &'static str = "greet";
///     fn input_schema() -> Value { json!({"type": "object"}) }
///     fn parse(_: Value) -> Result<Self, ToolError> { Ok(Greet) }
///     async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
///         let schema = json!({"type": "object", "properties": {"name": {"type": "string"}},
///                             "required": ["name"]});
///         let form = ctx.elicit("Your name?", schema).key("name").await?;
///         let name = form.accepted().map(|f| f["name"].as_str().unwrap_or("?").to_owned());
///         Ok(CallToolResult::text(format!("Hello, {}!", name.as_deref().unwrap_or("stranger"))))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").tool::<Greet>().build().unwrap();
/// let options = RequestOptions::new().client_capabilities(json!({"elicitation": {}}));
/// let answers = json!({"name": answer::accept(json!({"name": "Ada"}))});
/// let (last, rounds) = drive_tool(&server, "greet", json!({}), answers, &options).await;
/// assert_tool_text!(last, "Hello, Ada!");
/// assert_eq!(rounds.len(), 1);
/// assert_eq!(rounds[0]["result"]["inputRequests"]["name"]["params"]["message"], "Your name?");
/// # }
/// ```
pub async fn drive_tool(
    server: &Server,
    name: &str,
    arguments: impl Serialize,
    answers: impl Serialize,
    options: &RequestOptions,
) -> (Value, Vec<Value>) {
    let arguments = serde_json::to_value(arguments)
        .unwrap_or_else(|e| panic!("drive_tool: the arguments are not JSON: {e}"));
    let answers = match serde_json::to_value(answers) {
        Ok(Value::Object(answers)) => answers,
        Ok(other) => panic!(
            "drive_tool: the answers must be a JSON object keyed like inputRequests, got {other}"
        ),
        Err(e) => panic!("drive_tool: the answers are not JSON: {e}"),
    };
    let base_id = options_id(options);
    let mut rounds: Vec<Value> = Vec::new();
    let mut retry: Option<(Option<String>, Map<String, Value>)> = None;
    loop {
        let mut this = options
            .clone()
            .request_id(round_id(base_id.as_ref(), rounds.len() + 1));
        if let Some((state, responses)) = retry.take() {
            if let Some(state) = state {
                this = this.request_state(state);
            }
            this = this.input_responses(Value::Object(responses));
        }
        let response = call_tool(server, name, &arguments, &this).await;
        let Branch::InputRequired(result) = Branch::of(&response) else {
            return (response, rounds);
        };
        if rounds.len() + 1 >= MAX_ROUNDS {
            panic!(
                "drive_tool: tool {name} still asked for input after {MAX_ROUNDS} rounds\nreceived:\n{}",
                show(&response)
            );
        }
        let mut responses = Map::new();
        if let Some(questions) = result.get("inputRequests").and_then(Value::as_object) {
            for (key, question) in questions {
                let Some(answer) = answers.get(key) else {
                    panic!(
                        "drive_tool: round {}: no scripted answer for question {key:?}:\n{}\nreceived:\n{}",
                        rounds.len() + 1,
                        show(question),
                        show(&response)
                    );
                };
                responses.insert(key.clone(), answer.clone());
            }
        }
        // Echoed exactly; a result without one gets a retry without one.
        let state = result
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned);
        rounds.push(response.clone());
        retry = Some((state, responses));
    }
}

fn options_id(options: &RequestOptions) -> Option<RequestId> {
    options.request_id.clone()
}

impl TestContext {
    /// [`drive_tool`] with this context; see the example there.
    pub async fn drive_tool(
        &self,
        name: &str,
        arguments: impl Serialize,
        answers: impl Serialize,
    ) -> (Value, Vec<Value>) {
        drive_tool(self.server(), name, arguments, answers, self.options()).await
    }
}
