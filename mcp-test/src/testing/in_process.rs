//! The test side of multi-round requests: [`run_tool`], [`run_in_round`], scripted answers
//! ([`answer`]) and the [`Driver`].

use crate::context::Context;
use crate::request_state::{self, Binding};
use crate::rounds::{
    Bounded, InputRequest, InputRequests, RoundHandle, RoundResult, run_bounded, serve_round,
};
use crate::server::Caller;
use crate::setters;
use crate::target::{Answers, Exchange, Target, TargetError, TargetFuture};
use crate::tool::{Tool, ToolError};
use crate::validation::{self, SchemaValidator};
use crate::wire::CallToolResult;
use crate::wire::ErrorObject;
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Mutex;

/// How one run inside a round boundary ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunOutcome<T> {
    /// The run finished with its own result.
    Complete(T),
    /// The run needs answers: the questions, keyed as the client will see them in
    /// `inputRequests`.
    InputRequired(InputRequests),
}

impl<T> RunOutcome<T> {
    /// The result, if the run finished.
    pub fn complete(self) -> Option<T> {
        match self {
            RunOutcome::Complete(t) => Some(t),
            RunOutcome::InputRequired(_) => None,
        }
    }

    /// The questions, if the run needs answers.
    pub fn input_required(self) -> Option<InputRequests> {
        match self {
            RunOutcome::Complete(_) => None,
            RunOutcome::InputRequired(q) => Some(q),
        }
    }
}

/// A fresh round state for one run of `ctx`, seeded with its scripted answers.
fn fresh_handle(ctx: &Context) -> (Context, RoundHandle) {
    let (answers, round) = {
        let state = ctx.round.lock();
        (state.answers.clone(), state.round.max(1))
    };
    let handle = RoundHandle::new(answers, round, true);
    let mut ctx = ctx.clone();
    ctx.round = handle.clone();
    (ctx, handle)
}

/// Runs `run` inside the round boundary the wire uses, answering questions from `ctx`'s
/// scripted answers ([`ContextBuilder::answer`](crate::ContextBuilder::answer)).
///
/// A question without an answer ends the run with [`RunOutcome::InputRequired`]; a malformed
/// answer fails it with that -32602 error as a protocol [`ToolError`], even if `run` handled
/// the error itself. Use it for prompts and resources; [`run_tool`] is the tool shorthand.
///
/// ```
/// use mcp_test::testing::{run_in_round, RunOutcome};
/// use mcp_test::Context;
/// use serde_json::json;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let ctx = Context::builder().elicitation().build();
/// let outcome = run_in_round(&ctx, |ctx| async move {
///     ctx.elicit("Name?", json!({"type": "object", "properties": {"n": {"type": "string"}}}))
///         .key("name")
///         .await?;
///     Ok("done")
/// }).await.unwrap();
/// let RunOutcome::InputRequired(questions) = outcome else { panic!() };
/// assert_eq!(questions.get("name").unwrap().message(), Some("Name?"));
/// # }
/// ```
pub async fn run_in_round<T, F, Fut>(ctx: &Context, run: F) -> Result<RunOutcome<T>, ToolError>
where
    F: FnOnce(Context) -> Fut,
    Fut: Future<Output = Result<T, ToolError>>,
{
    let (ctx, handle) = fresh_handle(ctx);
    match run_bounded(&handle, run(ctx)).await {
        Bounded::Finished(result) => result.map(RunOutcome::Complete),
        Bounded::Asked(questions) => Ok(RunOutcome::InputRequired(questions)),
        Bounded::Failed(error) => Err(ToolError::protocol(error)),
        Bounded::Detached => Err(ToolError::protocol(ErrorObject::internal(
            "Internal error: a run outside a task-capable call was detached",
        ))),
    }
}

/// Runs tool `T` with `arguments` inside the round boundary the wire uses: the arguments are
/// validated against `T::input_schema()` (a mismatch is a tool execution error naming each
/// JSON pointer, as on the wire), parsed, and called with `ctx`.
///
/// Returns the tool's own result, or [`RunOutcome::InputRequired`] with the questions keyed as
/// the client will see them. Questions are answered from `ctx`'s scripted answers.
///
/// With a server in the context ([`ContextBuilder::server`](crate::ContextBuilder::server)),
/// the questions also carry the `requestState` that server mints
/// ([`InputRequests::request_state`]); a context built with
/// [`ContextBuilder::request_state`](crate::ContextBuilder::request_state) is a retry, checked
/// exactly as on the wire (its scripted answers are the retry's `inputResponses`). Without a
/// declared capability, asking answers
/// [`AskError::NotSupported`](crate::rounds::AskError::NotSupported), so a tool's fallback path
/// is testable.
///
/// ```
/// use mcp_test::testing::{answer, run_tool, RunOutcome};
/// use mcp_test::{CallToolResult, Context, Tool, ToolError};
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
///         Ok(match ctx.elicit("Your name?", schema).await {
///             Ok(answer) => match answer.accepted() {
///                 Some(form) => CallToolResult::text(format!("Hello, {}!", form["name"].as_str().unwrap())),
///                 None => CallToolResult::text("Hello, stranger."),
///             },
///             Err(e) if e.is_not_supported() => CallToolResult::text("Hello, whoever you are."),
///             Err(e) => return Err(e.into()),
///         })
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// // No elicitation capability: the fallback.
/// let plain = Context::builder().build();
/// let r = run_tool::<Greet>(&plain, json!({})).await.unwrap().complete().unwrap();
/// assert_eq!(r.content[0].as_text(), Some("Hello, whoever you are."));
///
/// // Round 1: the question, in wire shape.
/// let ctx = Context::builder().elicitation().build();
/// let q = run_tool::<Greet>(&ctx, json!({})).await.unwrap().input_required().unwrap();
/// assert_eq!(q.get("elicit-1").unwrap().message(), Some("Your name?"));
///
/// // Round 2: with the answer.
/// let ctx = Context::builder()
///     .elicitation()
///     .answer("elicit-1", answer::accept(json!({"name": "Ada"})))
///     .build();
/// let r = run_tool::<Greet>(&ctx, json!({})).await.unwrap().complete().unwrap();
/// assert_eq!(r.content[0].as_text(), Some("Hello, Ada!"));
/// # }
/// ```
pub async fn run_tool<T: Tool>(
    ctx: &Context,
    arguments: Value,
) -> Result<RunOutcome<CallToolResult>, ToolError> {
    let schema = T::input_schema();
    let validator = SchemaValidator::new(&schema)
        .map_err(|e| ToolError::new(format!("Tool {} has an invalid inputSchema: {e}", T::NAME)))?;
    let violations = validator.violations(&arguments);
    if !violations.is_empty() {
        return Err(ToolError::new(format!(
            "Invalid arguments for tool {}:\n{}",
            T::NAME,
            validation::describe(&violations)
        )));
    }
    let (request_state, answers, round) = {
        let state = ctx.round.lock();
        (
            state.request_state.clone(),
            state.answers.clone(),
            state.round.max(1),
        )
    };
    let Some(config) = ctx.request_state_config() else {
        if request_state.is_some() {
            return Err(ToolError::protocol(ErrorObject::invalid_params(
                "Invalid params: a requestState can only be checked by the server that minted it: build the context with ContextBuilder::server",
            )));
        }
        return run_in_round(
            ctx,
            |ctx| async move { T::parse(arguments)?.call(&ctx).await },
        )
        .await;
    };
    if let Some(token) = request_state {
        // A retry: exactly the wire's boundary, state checks included.
        let mut params = Map::new();
        params.insert("inputResponses".into(), Value::Object(answers));
        params.insert("requestState".into(), Value::from(token));
        let args = arguments.clone();
        let outcome = serve_round(ctx, T::NAME, &arguments, &params, |ctx| async move {
            Ok(async { T::parse(args)?.call(&ctx).await }.await)
        })
        .await
        .map_err(ToolError::protocol)?;
        return match outcome {
            RoundResult::Complete(result) => result.map(RunOutcome::Complete),
            RoundResult::InputRequired(wire) => {
                let mut questions: InputRequests =
                    serde_json::from_value(wire["inputRequests"].clone())
                        .expect("the boundary's questions decode");
                if let Some(state) = wire["requestState"].as_str() {
                    questions.set_request_state(state.to_owned());
                }
                Ok(RunOutcome::InputRequired(questions))
            }
        };
    }
    // A first request with scripted answers: mint the state the wire would, so a test can go
    // on with ContextBuilder::request_state.
    let args = arguments.clone();
    let outcome = run_in_round(ctx, |ctx| async move { T::parse(args)?.call(&ctx).await }).await?;
    Ok(match outcome {
        RunOutcome::InputRequired(mut questions) => {
            let binding = Binding::new(
                ctx.method(),
                T::NAME,
                &arguments,
                ctx.principal(),
                ctx.tenant(),
            );
            let pending = questions.keys().map(str::to_owned).collect();
            questions.set_request_state(request_state::mint(
                config, &binding, round, pending, answers,
            ));
            RunOutcome::InputRequired(questions)
        }
        complete => complete,
    })
}

/// Scripted answers, in the shape a client sends them in `inputResponses`.
pub mod answer {
    use serde::Serialize;
    use serde_json::{Value, json};

    /// `{"action": "accept", "content": content}`: the user submitted the form.
    pub fn accept(content: Value) -> Value {
        json!({"action": "accept", "content": content})
    }

    /// An accepted form whose content is `content` serialized.
    pub fn accept_as<T: Serialize>(content: &T) -> Value {
        accept(serde_json::to_value(content).expect("form content serializes"))
    }

    /// `{"action": "accept"}` with no content: consent to a URL-mode elicitation.
    pub fn consent() -> Value {
        json!({"action": "accept"})
    }

    /// `{"action": "decline"}`.
    pub fn decline() -> Value {
        json!({"action": "decline"})
    }

    /// `{"action": "cancel"}`.
    pub fn cancel() -> Value {
        json!({"action": "cancel"})
    }

    /// A `CreateMessageResult`: the assistant's text from `model`.
    pub fn sampled(model: &str, text: &str) -> Value {
        json!({"role": "assistant", "content": {"type": "text", "text": text},
               "model": model, "stopReason": "endTurn"})
    }

    /// A `ListRootsResult` with these `file://` URIs.
    pub fn roots(uris: impl IntoIterator<Item = impl Into<String>>) -> Value {
        let roots: Vec<Value> = uris.into_iter().map(|u| json!({"uri": u.into()})).collect();
        json!({ "roots": roots })
    }
}

type Responder = Box<dyn FnMut(&str, &InputRequest) -> Option<Value> + Send>;

/// Runs a tool call to completion against scripted answers, one round at a time, the way a
/// client would: after each `input_required` it answers the keys asked (from [`Driver::answer`]
/// or [`Driver::respond`]) and runs again. The default limit is 10 rounds.
///
/// ```
/// use mcp_test::testing::{answer, Driver};
/// use mcp_test::{CallToolResult, Context, Tool, ToolError};
/// use serde_json::{json, Value};
///
/// struct Two;
/// impl Tool for Two {
///     const NAME: &'static str = "two";
///     fn input_schema() -> Value { json!({"type": "object"}) }
///     fn parse(_: Value) -> Result<Self, ToolError> { Ok(Two) }
///     async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
///         let s = json!({"type": "object", "properties": {"v": {"type": "string"}}, "required": ["v"]});
///         let a = ctx.elicit("First?", s.clone()).await?.accepted().ok_or(ToolError::new("no"))?;
///         let b = ctx.elicit("Second?", s).await?.accepted().ok_or(ToolError::new("no"))?;
///         Ok(CallToolResult::text(format!("{}{}", a["v"].as_str().unwrap(), b["v"].as_str().unwrap())))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let ctx = Context::builder().elicitation().build();
/// let transcript = Driver::<Two>::new(&ctx, json!({}))
///     .answer("elicit-1", answer::accept(json!({"v": "a"})))
///     .answer("elicit-2", answer::accept(json!({"v": "b"})))
///     .run()
///     .await
///     .unwrap();
/// assert_eq!(transcript.questions.len(), 2);
/// assert_eq!(transcript.round_count(), 3);
/// assert_eq!(transcript.question(1, "elicit-2").unwrap().message(), Some("Second?"));
/// assert_eq!(transcript.result.unwrap().content[0].as_text(), Some("ab"));
/// # }
/// ```
pub struct Driver<T> {
    ctx: Context,
    arguments: Value,
    script: Map<String, Value>,
    responder: Option<Responder>,
    max_rounds: usize,
    tool: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for Driver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Driver")
            .field("arguments", &self.arguments)
            .field("script", &self.script.keys().collect::<Vec<_>>())
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

/// What a [`Driver`] saw: every intermediate round's questions, and the final result.
///
/// A round is one request and its response, everywhere in this crate (spec §8's round
/// trip): a call that asks one question takes 2 rounds ([`Transcript::round_count`], like
/// [`Rounds::len`](crate::target::Rounds::len)), and has 1 round of questions
/// ([`Transcript::questions`]).
#[derive(Debug)]
pub struct Transcript {
    /// The questions of each round that asked (`input_required`), in order (empty if the
    /// first run finished): one fewer than the rounds.
    pub questions: Vec<InputRequests>,
    /// The questions of each round that asked: the same as [`Transcript::questions`].
    #[deprecated(
        since = "0.1.0",
        note = "a round is one request and its response: this holds the questions, one entry fewer than the rounds; use `questions`, or `round_count()` for the rounds"
    )]
    pub rounds: Vec<InputRequests>,
    /// The tool's own final result.
    pub result: Result<CallToolResult, ToolError>,
}

impl Transcript {
    /// How many rounds the run took: requests sent, each answered (the last with the final
    /// result), so one more than the rounds of [`questions`](Transcript::questions).
    pub fn round_count(&self) -> usize {
        self.questions.len() + 1
    }

    /// The question asked under `key` in round `index` (0-based).
    pub fn question(&self, index: usize, key: &str) -> Option<&InputRequest> {
        self.questions.get(index).and_then(|r| r.get(key))
    }
}

/// Why a [`Driver`] could not finish.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DriveError {
    /// The run asked a question the script has no answer for.
    #[error("round {round}: no scripted answer for question `{key}` ({})", describe_question(.request))]
    Unanswered {
        /// 1-based round.
        round: usize,
        /// The question's key.
        key: String,
        /// The question.
        request: InputRequest,
        /// The rounds so far, this one included.
        rounds: Vec<InputRequests>,
    },
    /// The call still needed answers after the round limit.
    #[error("the call still asked for input after {limit} rounds; last questions: {}", .rounds.last().map(|r| r.keys().collect::<Vec<_>>().join(", ")).unwrap_or_default())]
    TooManyRounds {
        /// The limit.
        limit: usize,
        /// Every round's questions.
        rounds: Vec<InputRequests>,
    },
}

fn describe_question(request: &InputRequest) -> String {
    match request.message() {
        Some(message) => format!("{}: {message:?}", request.method),
        None => request.method.clone(),
    }
}

impl<T: Tool> Driver<T> {
    /// A driver for tool `T` called with `arguments` under `ctx` (its capabilities, identity
    /// and any scripted answers).
    pub fn new(ctx: &Context, arguments: Value) -> Self {
        let script = ctx.round.lock().answers.clone();
        Driver {
            ctx: ctx.clone(),
            arguments,
            script,
            responder: None,
            max_rounds: 10,
            tool: PhantomData,
        }
    }

    /// Scripts the answer to the question under `key`.
    #[must_use]
    pub fn answer(mut self, key: impl Into<String>, answer: Value) -> Self {
        self.script.insert(key.into(), answer);
        self
    }

    setters! {
        /// Answers questions the script has no entry for: called with each question's key and
        /// request; `None` leaves it unanswered (an error).
        respond(responder: impl FnMut(&str, &InputRequest) -> Option<Value> + Send + 'static)
            => responder = Some(Box::new(responder));

        /// The most rounds to run (default 10).
        max_rounds: usize;
    }

    /// Runs the call to completion, through the crate's one round driver
    /// ([`target::drive`](crate::target::drive)): each round runs the tool in process with
    /// every answer given so far.
    pub async fn run(self) -> Result<Transcript, DriveError> {
        let Driver {
            ctx,
            arguments,
            script,
            responder,
            max_rounds,
            tool: _,
        } = self;
        let responder = responder.map(Mutex::new);
        let mut answers = script
            .into_iter()
            .fold(Answers::new(), |a, (key, answer)| a.answer(key, answer))
            .max_rounds(max_rounds);
        if let Some(responder) = responder {
            answers = answers.respond(move |key, request| {
                let request: InputRequest = serde_json::from_value(request.clone()).ok()?;
                let mut responder = responder
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                responder(key, &request)
            });
        }
        let target = InProcess::<T> {
            ctx,
            arguments,
            run: Mutex::new(Run::default()),
            tool: PhantomData,
        };
        let message = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": T::NAME}});
        let driven =
            crate::target::drive(&target, &message, &answers, &Caller::default(), None).await;
        let run = target
            .run
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match driven {
            #[allow(deprecated)]
            Ok(_) => Ok(Transcript {
                questions: run.rounds.clone(),
                rounds: run.rounds,
                result: run
                    .result
                    .unwrap_or_else(|| Err(ToolError::new("the run ended without a result"))),
            }),
            Err(crate::target::DriveError::Unanswered { key, request, .. }) => {
                Err(DriveError::Unanswered {
                    round: run.rounds.len(),
                    request: serde_json::from_value(request)
                        .expect("the question was encoded by this driver"),
                    key,
                    rounds: run.rounds,
                })
            }
            Err(crate::target::DriveError::TooManyRounds { limit, .. }) => {
                Err(DriveError::TooManyRounds {
                    limit,
                    rounds: run.rounds,
                })
            }
            Err(other) => unreachable!("the in-process driver's target cannot fail: {other}"),
        }
    }
}

/// What the in-process target has seen so far.
#[derive(Default)]
struct Run {
    /// Every answer given in any round: there is no requestState in process, so the target
    /// carries them from round to round itself.
    answers: Map<String, Value>,
    rounds: Vec<InputRequests>,
    result: Option<Result<CallToolResult, ToolError>>,
}

/// Tool `T` under a context, as a [`Target`] the round driver can drive: each `tools/call`
/// runs the tool once with the answers so far and answers `input_required` or the result.
struct InProcess<T> {
    ctx: Context,
    arguments: Value,
    run: Mutex<Run>,
    tool: PhantomData<fn() -> T>,
}

impl<T: Tool> Target for InProcess<T> {
    fn label(&self) -> String {
        format!("tool {} in process", T::NAME)
    }

    fn send<'a>(&'a self, message: &'a Value, _caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let (answers, round) = {
                let mut run = self
                    .run
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Some(given) = message["params"]["inputResponses"].as_object() {
                    run.answers.extend(given.clone());
                }
                (run.answers.clone(), run.rounds.len() + 1)
            };
            let mut ctx = self.ctx.clone();
            ctx.round = RoundHandle::new(answers, u32::try_from(round).unwrap_or(u32::MAX), false);
            let outcome = run_tool::<T>(&ctx, self.arguments.clone()).await;
            let mut run = self
                .run
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let result = match outcome {
                Ok(RunOutcome::InputRequired(questions)) => {
                    let wire = serde_json::json!({"resultType": "input_required",
                        "inputRequests": questions.to_value(), "requestState": round.to_string()});
                    run.rounds.push(questions);
                    wire
                }
                Ok(RunOutcome::Complete(result)) => {
                    run.result = Some(Ok(result));
                    serde_json::json!({"resultType": "complete"})
                }
                Err(error) => {
                    run.result = Some(Err(error));
                    serde_json::json!({"resultType": "complete"})
                }
            };
            Ok::<_, TargetError>(Exchange {
                response: Some(
                    serde_json::json!({"jsonrpc": "2.0", "id": message["id"], "result": result}),
                ),
                ..Exchange::default()
            })
        })
    }
}
