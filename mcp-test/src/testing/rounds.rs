//! Multi-round calls through the wire: answer each `input_required` from a script and retry the
//! way a client must (spec §8), until the call completes.

use super::accepts::{AsResponse, ResponseError};
use super::in_process::RunOutcome;
use super::request::{RequestOptions, TestContext};
use super::response::show;
use crate::target::{Answers, DEFAULT_MAX_ROUNDS, DriveError, Rounds, Target, drive};
use crate::wire::CallToolResult;
use serde::Serialize;
use serde_json::{Value, json};
use std::future::Future;
use std::panic::Location;

/// The most rounds [`drive_tool`] runs before it gives up: a tool still asking after this many
/// rounds fails the test rather than looping. It is [`DEFAULT_MAX_ROUNDS`], the round driver's
/// default ([`Answers::max_rounds`] changes it for [`TestContext::call_tool_rounds`]).
///
/// ```
/// assert_eq!(mcp_test::testing::MAX_ROUNDS, 10);
/// ```
pub const MAX_ROUNDS: usize = DEFAULT_MAX_ROUNDS;

impl AsResponse for RunOutcome<CallToolResult> {
    /// A finished run is its tool result; a run that stopped on questions is the
    /// `input_required` result the wire would carry (without `requestState`, which only the
    /// server mints).
    fn response_json(&self) -> Result<Value, ResponseError> {
        match self {
            RunOutcome::Complete(result) => result.response_json(),
            RunOutcome::InputRequired(questions) => Ok(json!({
                "resultType": "input_required",
                "inputRequests": questions.to_value(),
            })),
        }
    }
}

/// Calls tool `name` and drives its rounds through the server's full path, as a client would:
/// each `input_required` is answered from `answers` (an object keyed like `inputRequests`, each
/// value the client's result, e.g. from [`answer`](crate::testing::answer)), and the call is
/// retried with the same arguments, the `requestState` echoed byte for byte, the answers asked
/// for as `inputResponses`, and a fresh request id. Returns the final response — a result or a
/// JSON-RPC error — with every `input_required` response before it: one per round but the
/// last (a round is one request and its response, as in [`Rounds::len`]; a call that asks once
/// takes two rounds and returns one `input_required` response).
///
/// Panics, showing the question and everything received, when a question has no scripted
/// answer, or after [`MAX_ROUNDS`] rounds.
///
/// ```
/// use mcp_test::testing::answer;
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
/// let (last, asked) = drive_tool(&server, "greet", json!({}), answers, &options).await;
/// assert_tool_text!(last, "Hello, Ada!");
/// // Two rounds: one that asked, and the last.
/// assert_eq!(asked.len(), 1);
/// assert_eq!(asked[0]["result"]["inputRequests"]["name"]["params"]["message"], "Your name?");
/// # }
/// ```
#[track_caller]
pub fn drive_tool(
    target: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    answers: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = (Value, Vec<Value>)> {
    drive_script(target, name, arguments, script(answers), options)
}

/// The answers of [`drive_tool`], a JSON object keyed like `inputRequests`, as a script;
/// panics when they are not one.
#[track_caller]
fn script(answers: impl Serialize) -> Answers {
    let answers = match serde_json::to_value(answers) {
        Ok(Value::Object(answers)) => answers,
        Ok(other) => panic!(
            "drive_tool: the answers must be a JSON object keyed like inputRequests, got {other}"
        ),
        Err(e) => panic!("drive_tool: the answers are not JSON: {e}"),
    };
    answers
        .into_iter()
        .fold(Answers::new(), |answers, (key, answer)| {
            answers.answer(key, answer)
        })
}

/// [`drive_tool`] with its answers already a script.
#[track_caller]
fn drive_script(
    target: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    answers: Answers,
    options: &RequestOptions,
) -> impl Future<Output = (Value, Vec<Value>)> {
    let body = options.tool_call_body("drive_tool", name, arguments);
    let caller = Location::caller();
    async move {
        let rounds = rounds_or_panic("drive_tool", target, &body, &answers, options, caller).await;
        split_rounds(rounds)
    }
}

/// The final response and the `input_required` responses before it.
fn split_rounds(mut rounds: Rounds) -> (Value, Vec<Value>) {
    let last = rounds
        .exchanges
        .pop()
        .and_then(|e| e.response)
        .unwrap_or(Value::Null);
    let asked = rounds
        .exchanges
        .into_iter()
        .filter_map(|e| e.response)
        .collect();
    (last, asked)
}

/// Runs [`drive`] and panics, with everything received, when it stops short of a final response.
pub(super) async fn rounds_or_panic(
    helper: &str,
    target: &(impl Target + ?Sized),
    body: &Value,
    answers: &Answers,
    options: &RequestOptions,
    caller: &'static Location<'static>,
) -> Rounds {
    let waiting = super::request::Waiting {
        target,
        wait: options.wait(),
    };
    let target = &waiting;
    let driven = match super::coverage::Recorder::from_env() {
        Some(recorder) => {
            let recording = super::coverage::Recording::new(target, recorder.clone());
            drive(&recording, body, answers, &options.caller(), None).await
        }
        None => drive(target, body, answers, &options.caller(), None).await,
    };
    match driven {
        Ok(rounds) => rounds,
        Err(DriveError::Unanswered {
            round,
            key,
            request,
            rounds,
            ..
        }) => {
            let mut scripted: Vec<String> = answers.keys().map(|key| format!("{key:?}")).collect();
            if scripted.is_empty() {
                scripted.push("none".to_owned());
            }
            panic!(
                "{caller}: {helper}: round {round}: no scripted answer for question {key:?} \
                 (the script answers {}):\n{}\nreceived:\n{}",
                scripted.join(", "),
                show(&request),
                show(rounds.last())
            )
        }
        Err(e) => {
            let received: Vec<String> = e
                .rounds()
                .map(|r| {
                    r.exchanges
                        .iter()
                        .filter_map(|x| x.response.as_ref())
                        .map(show)
                        .collect()
                })
                .unwrap_or_default();
            panic!(
                "{caller}: {helper}: {e} (target: {}, {})\nreceived:\n{}",
                target.label(),
                super::request::transport_of(target),
                received.join("\n")
            )
        }
    }
}

impl TestContext {
    /// [`drive_tool`] with this context; see the example there.
    #[track_caller]
    pub fn drive_tool(
        &self,
        name: &str,
        arguments: impl Serialize,
        answers: impl Serialize,
    ) -> impl Future<Output = (Value, Vec<Value>)> {
        let scripted = script(answers);
        let answering = self.answering(&scripted);
        let driven = drive_script(self.target(), name, arguments, scripted, self.options());
        async move {
            let outcome = driven.await;
            drop(answering);
            outcome
        }
    }

    /// Calls tool `name` and drives its rounds with `answers` (by key, in order, by method,
    /// or synthesized from each question: see [`Answers`]), on any target. Returns every
    /// round; as an [`AsResponse`] the [`Rounds`] are the final response.
    ///
    /// Panics, naming the unanswered question or the transport error and showing everything
    /// received, when the run stops short of a final response.
    ///
    /// ```
    /// use mcp_test::testing::{answer, RequestOptions, TestContext};
    /// use mcp_test::target::Answers;
    /// use mcp_test::{assert_tool_text, Context, Server, Tool, ToolError};
    ///
    /// /// Asks to confirm.
    /// #[derive(Tool)]
    /// #[tool(name = "confirm")]
    /// struct Confirm {}
    ///
    /// impl Confirm {
    ///     async fn run(self, ctx: &Context) -> Result<String, ToolError> {
    ///         let schema = serde_json::json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
    ///         let form = ctx.elicit("Sure?", schema).await?;
    ///         Ok(if form.is_accepted() { "done" } else { "stopped" }.to_owned())
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = Server::builder("shop", "1.0.0").tool::<Confirm>().build().unwrap();
    /// let mcp = TestContext::with_options(
    ///     server,
    ///     RequestOptions::new().client_capabilities(serde_json::json!({"elicitation": {}})),
    /// );
    /// let rounds = mcp.call_tool_rounds("confirm", serde_json::json!({}), &Answers::new().then(answer::decline())).await;
    /// assert_tool_text!(rounds, "stopped");
    /// let rounds = mcp.call_tool_rounds("confirm", serde_json::json!({}), &Answers::synthesized()).await;
    /// assert_tool_text!(rounds, "done");
    /// assert_eq!(rounds.len(), 2);
    /// # }
    /// ```
    #[track_caller]
    pub fn call_tool_rounds(
        &self,
        name: &str,
        arguments: impl Serialize,
        answers: &Answers,
    ) -> impl Future<Output = Rounds> {
        let body = self
            .options()
            .tool_call_body("call_tool_rounds", name, arguments);
        let caller = Location::caller();
        let answering = self.answering(answers);
        async move {
            let _answering = answering;
            rounds_or_panic(
                "call_tool_rounds",
                self.target(),
                &body,
                answers,
                self.options(),
                caller,
            )
            .await
        }
    }
}
