//! The round boundary: runs a request's handler until it finishes or reaches questions without
//! answers, and (on the wire) turns the latter into an `input_required` result with a signed
//! `requestState`.

use super::ask::{RoundHandle, TaskPhase};
use crate::context::Context;
use crate::request_state::{self, Binding};
use crate::wire::InputRequests;
use crate::wire::{ErrorObject, params};
use serde_json::{Map, Value, json};
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;

pub use crate::spec::INPUT_REQUIRED_METHODS;

/// How a bounded run ended.
#[derive(Debug)]
pub(crate) enum Bounded<T> {
    /// The handler finished.
    Finished(T),
    /// The handler reached questions without answers.
    Asked(InputRequests),
    /// An answer was malformed (or the run broke a rule); the whole call fails.
    Failed(ErrorObject),
    /// A run that may become a task waited on something other than a question: the server
    /// answers with a task handle and runs the request again in the background.
    Detached,
}

/// Runs `fut` (which must use a context holding `handle`) until it finishes, or until it
/// cannot go on without answers: it is pending and has asked at least one unanswered question.
/// All questions asked up to that point, including concurrent ones, come back together.
pub(crate) async fn run_bounded<F: Future>(handle: &RoundHandle, fut: F) -> Bounded<F::Output> {
    let mut fut = pin!(fut);
    let stopped = poll_fn(|cx| match fut.as_mut().poll(cx) {
        Poll::Ready(out) => Poll::Ready(Some(out)),
        Poll::Pending if handle.must_stop_or_park(cx.waker()) => Poll::Ready(None),
        Poll::Pending => Poll::Pending,
    })
    .await;
    handle.end();
    let mut state = handle.lock();
    if let Some(failure) = state.failure.take() {
        return Bounded::Failed(failure);
    }
    match stopped {
        Some(out) => Bounded::Finished(out),
        None if state.asked.is_empty() && state.detached => Bounded::Detached,
        None => Bounded::Asked(std::mem::take(&mut state.asked)),
    }
}

/// The outcome of a request served through [`serve_round`].
#[derive(Debug)]
pub(crate) enum RoundResult<T> {
    /// The handler finished with this.
    Complete(T),
    /// The handler needs answers: the complete `input_required` result object (without
    /// `_meta`, which the server adds).
    InputRequired(Value),
}

/// The outcome of a request that may become a task ([`serve_round_phased`]).
#[derive(Debug)]
pub(crate) enum Phased<T> {
    /// Finished or needs answers, exactly as [`serve_round`] answers.
    Round(RoundResult<T>),
    /// The run waited: it becomes a task, whose background runs start from these answers
    /// (every answer of the multi-round phase).
    Detached(Map<String, Value>),
}

/// A retry's `inputResponses` and `requestState`, each optional.
type RetryParams<'a> = (Option<&'a Map<String, Value>>, Option<&'a str>);

/// The request's `inputResponses` and `requestState`, checked for shape.
fn retry_params(params: &Map<String, Value>) -> Result<RetryParams<'_>, ErrorObject> {
    let responses = params::optional(
        params,
        "inputResponses",
        Value::as_object,
        "an object keyed like the inputRequests it answers",
    )?;
    let state = params::optional(
        params,
        "requestState",
        Value::as_str,
        "the string the server sent",
    )?;
    Ok((responses, state))
}

/// Serves one request of `ctx.method()` (one of [`INPUT_REQUIRED_METHODS`]) for `target` (the
/// tool, prompt or resource) with `arguments`, through the round boundary:
///
/// 1. verifies `params.requestState` (HMAC, binding, expiry) and merges `params.inputResponses`
///    for the keys that state asked for (other keys are ignored) with the answers of earlier
///    rounds it carries;
/// 2. runs `run` with a context that answers from them;
/// 3. answers with the handler's result, or with `input_required` plus a fresh state for the
///    next round.
///
/// `prompts/get` and `resources/read` use this exactly as `tools/call` does. States are signed
/// and checked with the key of the server that built `ctx`.
pub(crate) async fn serve_round<T, F, Fut>(
    ctx: &Context,
    target: &str,
    arguments: &Value,
    params: &Map<String, Value>,
    run: F,
) -> Result<RoundResult<T>, ErrorObject>
where
    F: FnOnce(Context) -> Fut,
    Fut: Future<Output = Result<T, ErrorObject>>,
{
    match serve_round_phased(ctx, target, arguments, params, TaskPhase::Never, run).await? {
        Phased::Round(round) => Ok(round),
        Phased::Detached(_) => Err(ErrorObject::internal(
            "Internal error: a run that cannot become a task was detached",
        )),
    }
}

/// [`serve_round`] for a request that may become a task (`phase` is [`TaskPhase::Before`]):
/// questions asked before the run first waits on something else are multi-round questions;
/// when it waits, it is [`Phased::Detached`].
pub(crate) async fn serve_round_phased<T, F, Fut>(
    ctx: &Context,
    target: &str,
    arguments: &Value,
    params: &Map<String, Value>,
    phase: TaskPhase,
    run: F,
) -> Result<Phased<T>, ErrorObject>
where
    F: FnOnce(Context) -> Fut,
    Fut: Future<Output = Result<T, ErrorObject>>,
{
    let method = ctx.method().to_owned();
    if !INPUT_REQUIRED_METHODS.contains(&method.as_str()) {
        return Err(ErrorObject::internal(format!(
            "Internal error: {method} cannot answer input_required (only tools/call, prompts/get and resources/read can)"
        )));
    }
    // Digesting the arguments (canonical JSON + SHA-256) is only needed to open or mint a
    // state, so a call that neither retries nor asks does not pay for it.
    let binding = || Binding::new(&method, target, arguments, ctx.principal(), ctx.tenant());
    // Needed only to open or mint a state: a context not built by a server serves a first
    // round that asks nothing.
    let config = || {
        ctx.request_state_config().ok_or_else(|| {
            ErrorObject::internal("Internal error: this context has no server's requestState key")
        })
    };
    let (responses, state) = retry_params(params)?;
    // Without a state this is a first round: answers sent anyway (under keys this run may or
    // may not ask) are offered to its questions only, keys it does not ask are ignored, and a
    // question they leave unanswered is asked — a new input_required, not an error (spec §8).
    let mut offered = None;
    let (mut answers, round) = match state {
        Some(token) => {
            let payload = request_state::open(config()?, &binding(), token)?;
            let mut answers = payload.s;
            if let Some(responses) = responses {
                for key in &payload.k {
                    if let Some(answer) = responses.get(key) {
                        answers.insert(key.clone(), answer.clone());
                    }
                }
            }
            (answers, payload.r.saturating_add(1))
        }
        None => {
            offered = responses.cloned();
            (Map::new(), 1)
        }
    };
    let handle = RoundHandle::with_phase(offered.unwrap_or_else(|| answers.clone()), round, phase);
    let mut bounded_ctx = ctx.clone();
    bounded_ctx.round = handle.clone();
    match run_bounded(&handle, run(bounded_ctx)).await {
        Bounded::Finished(Ok(value)) => Ok(Phased::Round(RoundResult::Complete(value))),
        Bounded::Finished(Err(error)) | Bounded::Failed(error) => Err(error),
        Bounded::Detached => {
            answers.extend(handle.lock().used.clone());
            Ok(Phased::Detached(answers))
        }
        Bounded::Asked(questions) => {
            // Keep every answer known so far: the next round replays from the start.
            answers.extend(handle.lock().used.clone());
            let pending: Vec<String> = questions.keys().map(str::to_owned).collect();
            let token = request_state::mint(config()?, &binding(), round, pending, answers);
            Ok(Phased::Round(RoundResult::InputRequired(json!({
                "resultType": "input_required",
                "inputRequests": questions,
                "requestState": token,
            }))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request_state::StateConfig;
    use crate::rounds::AskError;
    use crate::testing::{RunOutcome, run_in_round};
    use crate::wire::Elicitation;
    use std::sync::Arc;
    use std::time::Duration;

    fn schema() -> Value {
        json!({"type": "object", "properties": {"v": {"type": "string"}}})
    }

    #[tokio::test]
    async fn a_question_after_real_waiting_still_ends_the_round() {
        let ctx = Context::builder().elicitation().build();
        let outcome = run_in_round(&ctx, |ctx| async move {
            tokio::task::yield_now().await;
            tokio::time::sleep(Duration::from_millis(1)).await;
            ctx.elicit("late?", schema()).await?;
            Ok(())
        })
        .await
        .unwrap();
        let RunOutcome::InputRequired(q) = outcome else {
            panic!("expected input_required, got {outcome:?}")
        };
        assert_eq!(q.keys().collect::<Vec<_>>(), ["elicit-1"]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_question_from_a_spawned_task_ends_the_round_and_the_task() {
        let ctx = Context::builder().elicitation().build();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let outcome = run_in_round(&ctx, |ctx| async move {
            let task = tokio::spawn(async move {
                let r = ctx.elicit("spawned?", schema()).key("spawned").await;
                let _ = done_tx.send(r.map(|_| ()));
            });
            // The handler waits on something the question never wakes.
            let _ = task.await;
            Ok(())
        })
        .await
        .unwrap();
        let q = outcome
            .input_required()
            .expect("the spawned question ends the round");
        assert_eq!(q.keys().collect::<Vec<_>>(), ["spawned"]);
        // The spawned task is not left pending forever.
        let r = done_rx.await.unwrap();
        assert_eq!(
            r,
            Err(AskError::RoundEnded {
                key: "spawned".into()
            })
        );
    }

    #[tokio::test]
    async fn a_swallowed_malformed_answer_still_fails_the_call() {
        let ctx = Context::builder()
            .elicitation()
            .answer("elicit-1", json!("nonsense"))
            .build();
        let err = run_in_round(&ctx, |ctx| async move {
            let _ignored = ctx.elicit("?", schema()).await;
            Ok("finished anyway")
        })
        .await
        .unwrap_err();
        assert_eq!(err.protocol_error().unwrap().code, -32602);
    }

    #[tokio::test]
    async fn duplicate_keys_fail_the_call() {
        let ctx = Context::builder().elicitation().build();
        let err = run_in_round(&ctx, |ctx| async move {
            let (a, b) = tokio::join!(
                ctx.elicit("a", schema()).key("k"),
                ctx.elicit("b", schema()).key("k")
            );
            let _ = (a, b);
            Ok(())
        })
        .await
        .unwrap_err();
        let err = err.protocol_error().unwrap();
        assert_eq!(err.code, -32603);
        assert!(
            err.message.contains("two questions under the key `k`"),
            "{}",
            err.message
        );
    }

    /// Serves a round of `method` whose handler asks one question.
    async fn elicit_in(
        config: &Arc<StateConfig>,
        method: &str,
    ) -> Result<RoundResult<Elicitation<Map<String, Value>>>, ErrorObject> {
        let mut ctx = Context::builder().method(method).elicitation().build();
        ctx.request_state = Some(Arc::clone(config));
        serve_round(&ctx, "x", &json!({}), &Map::new(), |ctx| async move {
            ctx.elicit("?", schema())
                .await
                .map_err(|e| e.to_error_object())
        })
        .await
    }

    #[tokio::test]
    async fn only_three_methods_may_answer_input_required() {
        let config = Arc::new(StateConfig::random(Duration::from_secs(60)));
        for method in ["tools/list", "server/discover", "completion/complete"] {
            let err = elicit_in(&config, method).await.unwrap_err();
            assert!(
                err.message.contains("cannot answer input_required"),
                "{}",
                err.message
            );
        }
        for method in INPUT_REQUIRED_METHODS {
            let out = elicit_in(&config, method).await.unwrap();
            let RoundResult::InputRequired(result) = out else {
                panic!("{method}: expected input_required")
            };
            assert_eq!(result["resultType"], "input_required");
        }
    }
}
