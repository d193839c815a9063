//! Asking the client: the per-run round state ([`RoundHandle`]) and the questions
//! ([`Asker`]) that the asking methods of [`Context`](crate::Context) delegate to. The question
//! and answer types are wire data, in `crate::wire` (re-exported by `rounds`). Below the
//! context: nothing here knows it.

use super::flat::{self, ElicitationSchemaError};
use crate::setters;
use crate::validation::{self, SchemaError, SchemaValidator};
use crate::wire::input::{ELICIT, ROOTS, SAMPLE};
use crate::wire::{
    ClientCapabilities, Elicitation, ErrorObject, InputRequest, InputRequests, Root,
    SampledMessage, SamplingRequest, json_type,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::fmt;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context as TaskContext, Poll, Waker};

/// A client capability a question needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capability {
    /// Form-mode elicitation: `elicitation: {}` or `elicitation: {form: {}}`.
    ElicitationForm,
    /// URL-mode elicitation: `elicitation: {url: {}}`.
    ElicitationUrl,
    /// `sampling: {}`.
    Sampling,
    /// `roots: {}`.
    Roots,
}

impl Capability {
    /// Whether `caps` declares this capability.
    pub fn declared_in(self, caps: &ClientCapabilities) -> bool {
        match self {
            Capability::ElicitationForm => caps.elicitation_form(),
            Capability::ElicitationUrl => caps.elicitation_url(),
            Capability::Sampling => caps.sampling(),
            Capability::Roots => caps.roots(),
        }
    }

    /// The `ClientCapabilities` object that declares exactly this capability, as -32021's
    /// `data.requiredCapabilities` carries it.
    ///
    /// ```
    /// use mcp_test::rounds::Capability;
    /// assert_eq!(Capability::ElicitationForm.required_object(), serde_json::json!({"elicitation": {}}));
    /// assert_eq!(Capability::ElicitationUrl.required_object(), serde_json::json!({"elicitation": {"url": {}}}));
    /// ```
    pub fn required_object(self) -> Value {
        match self {
            Capability::ElicitationForm => json!({"elicitation": {}}),
            Capability::ElicitationUrl => json!({"elicitation": {"url": {}}}),
            Capability::Sampling => json!({"sampling": {}}),
            Capability::Roots => json!({"roots": {}}),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Capability::ElicitationForm => "elicitation",
            Capability::ElicitationUrl => "URL-mode elicitation (elicitation.url)",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
        }
    }
}

/// Merges capability objects: `{"elicitation":{}}` + `{"sampling":{}}` →
/// `{"elicitation":{},"sampling":{}}`.
fn merge_required(caps: &[Capability]) -> Value {
    let mut out = Map::new();
    for cap in caps {
        if let Value::Object(obj) = cap.required_object() {
            for (k, v) in obj {
                match (out.get_mut(&k), v) {
                    (Some(Value::Object(have)), Value::Object(add)) => have.extend(add),
                    (_, v) => {
                        out.insert(k, v);
                    }
                }
            }
        }
    }
    Value::Object(out)
}

/// The -32021 error for `missing` capabilities.
pub(crate) fn missing_capabilities(missing: &[Capability]) -> ErrorObject {
    let names: Vec<&str> = missing.iter().map(|c| c.describe()).collect();
    ErrorObject::missing_client_capability(
        format!(
            "Server requires the {} capability for this request",
            names.join(" and ")
        ),
        merge_required(missing),
    )
}

/// Why a question could not be answered.
///
/// `?` in a tool (through `ToolError`'s `From` impl for every error) turns it into the right
/// protocol error: [`AskError::NotSupported`] into
/// -32021 with `data.requiredCapabilities`, a malformed answer into -32602. Match on
/// [`AskError::NotSupported`] to fall back instead.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AskError {
    /// The request's `clientCapabilities` does not declare what the question needs; no question
    /// was sent.
    NotSupported(Capability),
    /// The client's answer does not fit the question (the call fails with this -32602 error,
    /// even if the tool handles it).
    Malformed(ErrorObject),
    /// The question itself is unusable, e.g. a requested schema that is not a flat elicitation
    /// schema. A server bug: -32603.
    InvalidQuestion(String),
    /// The question has no answer and the run is not inside a round boundary (the tool was
    /// called directly, not through a server or [`run_tool`](crate::testing::run_tool)).
    NoBoundary {
        /// The question's key.
        key: String,
    },
    /// The round ended (the call answered `input_required` or finished) while this question
    /// was waiting; it happens to questions asked from a task the handler spawned and did not
    /// await. The question was sent; its answer comes in the next round.
    RoundEnded {
        /// The question's key.
        key: String,
    },
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::NotSupported(cap) => write!(
                f,
                "the client did not declare the {} capability in this request",
                cap.describe()
            ),
            AskError::Malformed(e) => f.write_str(&e.message),
            AskError::InvalidQuestion(why) => write!(f, "invalid question: {why}"),
            AskError::NoBoundary { key } => write!(
                f,
                "question `{key}` has no answer and the run is not inside a round boundary: \
                 run the tool with mcp_test::testing::run_tool (or through a Server), or script \
                 an answer with ContextBuilder::answer"
            ),
            AskError::RoundEnded { key } => write!(
                f,
                "the round ended while question `{key}` was waiting for its answer"
            ),
        }
    }
}

impl std::error::Error for AskError {}

impl AskError {
    /// Whether the client lacks the capability (the fallback case).
    pub fn is_not_supported(&self) -> bool {
        matches!(self, AskError::NotSupported(_))
    }

    /// The JSON-RPC error `?` answers with.
    pub fn to_error_object(&self) -> ErrorObject {
        match self {
            AskError::NotSupported(cap) => missing_capabilities(&[*cap]),
            AskError::Malformed(e) => e.clone(),
            AskError::InvalidQuestion(_)
            | AskError::NoBoundary { .. }
            | AskError::RoundEnded { .. } => {
                ErrorObject::internal(format!("Internal error: {self}"))
            }
        }
    }
}

/// The kinds of question, for default keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Elicit,
    Sample,
    Roots,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Elicit => "elicit",
            Kind::Sample => "sampling",
            Kind::Roots => "roots",
        }
    }

    fn index(self) -> usize {
        match self {
            Kind::Elicit => 0,
            Kind::Sample => 1,
            Kind::Roots => 2,
        }
    }
}

/// The state of one run: the answers it may use, the questions it asked without an answer,
/// and the first failure (a malformed answer, a duplicate key).
#[derive(Debug, Default)]
pub(crate) struct RoundState {
    /// Every answer known to this run, by key.
    pub(crate) answers: Map<String, Value>,
    /// Answers this run actually used, by key (what the next round must remember).
    pub(crate) used: Map<String, Value>,
    /// Questions asked without an answer, in order.
    pub(crate) asked: InputRequests,
    /// Every key a question used in this run.
    keys: HashSet<String>,
    counters: [u32; 3],
    /// The first error that fails the whole call.
    pub(crate) failure: Option<ErrorObject>,
    /// Whether a boundary is running this run.
    pub(crate) bounded: bool,
    /// The boundary's waker, woken when a question is asked.
    waker: Option<Waker>,
    /// Set when the boundary stopped the run: questions still waiting then fail.
    ended: bool,
    /// Wakers of questions waiting for an answer, woken when the run ends.
    waiting: Vec<Waker>,
    /// The round number: 1 on the first request, +1 per retry.
    pub(crate) round: u32,
    /// A `requestState` to retry with (test contexts only; the server reads it from params).
    pub(crate) request_state: Option<String>,
    /// Where the run stands with respect to a task (the tasks extension).
    pub(crate) task_phase: TaskPhase,
    /// Set when the boundary stopped a [`TaskPhase::Before`] run to turn it into a task.
    pub(crate) detached: bool,
}

/// Where a run stands with respect to a task (`io.modelcontextprotocol/tasks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TaskPhase {
    /// The call cannot become a task: a run that waits simply waits.
    #[default]
    Never,
    /// The call may become a task: the first time the run waits on anything but a question
    /// (or calls [`Context::enter_task`](crate::Context::enter_task)), the boundary stops it
    /// and the server answers with a task handle.
    Before,
    /// The run is a task's background run.
    Inside,
}

/// A shared handle to a [`RoundState`]; clones of a [`Context`](crate::Context) share it.
#[derive(Clone, Default)]
pub(crate) struct RoundHandle(Arc<Mutex<RoundState>>);

impl fmt::Debug for RoundHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `try_lock`: formatting a context must never wait on (or deadlock with) a running ask.
        let Ok(state) = self.0.try_lock() else {
            return f.write_str("RoundHandle { <in use> }");
        };
        f.debug_struct("RoundHandle")
            .field("round", &state.round)
            .field("answers", &state.answers.keys().collect::<Vec<_>>())
            .field("asked", &state.asked.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl RoundHandle {
    /// A fresh state holding `answers`, for a run in round `round`.
    pub(crate) fn new(answers: Map<String, Value>, round: u32, bounded: bool) -> Self {
        RoundHandle(Arc::new(Mutex::new(RoundState {
            answers,
            round,
            bounded,
            ..RoundState::default()
        })))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, RoundState> {
        // A panicking tool cannot leave the state half-written: every update is one assignment.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks the run as over and wakes every question still waiting, so that a question asked
    /// from a spawned task fails with [`AskError::RoundEnded`] instead of pending forever.
    pub(crate) fn end(&self) {
        let waiting = {
            let mut state = self.lock();
            state.ended = true;
            std::mem::take(&mut state.waiting)
        };
        for waker in waiting {
            waker.wake();
        }
    }

    /// Stores the boundary's waker unless the run must stop now; returns whether it must stop.
    /// A run that may become a task stops (detached) the first time it waits on anything but a
    /// question.
    pub(crate) fn must_stop_or_park(&self, waker: &Waker) -> bool {
        let mut state = self.lock();
        if state.failure.is_some() || !state.asked.is_empty() {
            return true;
        }
        if state.task_phase == TaskPhase::Before {
            state.detached = true;
            return true;
        }
        state.waker = Some(waker.clone());
        false
    }

    /// A fresh state like [`RoundHandle::new`], in task phase `phase`.
    pub(crate) fn with_phase(answers: Map<String, Value>, round: u32, phase: TaskPhase) -> Self {
        let handle = RoundHandle::new(answers, round, true);
        handle.lock().task_phase = phase;
        handle
    }

    /// The round of the run: 1 on the first request, 2 on the first retry, and so on.
    pub(crate) fn number(&self) -> u32 {
        self.lock().round.max(1)
    }

    /// A wait with nothing to wait for in a run that may become a task ([`TaskPhase::Before`]),
    /// which the boundary turns into the task; ready at once in any other run.
    pub(crate) fn enter_task(&self) -> impl Future<Output = ()> + Send + '_ {
        let mut waited = false;
        std::future::poll_fn(move |cx| {
            if waited || self.lock().task_phase != TaskPhase::Before {
                return Poll::Ready(());
            }
            waited = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        })
    }

    /// Whether the run is a task's background run.
    pub(crate) fn in_task(&self) -> bool {
        self.lock().task_phase == TaskPhase::Inside
    }
}

/// How an answer value becomes the typed answer.
type Parser<T> = Box<dyn FnOnce(&str, &Value) -> Result<T, ErrorObject> + Send>;

/// A question being asked: configure it, then `.await` it.
///
/// Returned by [`Context::elicit`](crate::Context::elicit),
/// [`Context::elicit_as`](crate::Context::elicit_as),
/// [`Context::elicit_url`](crate::Context::elicit_url),
/// [`Context::create_message`](crate::Context::create_message) and
/// [`Context::list_roots`](crate::Context::list_roots).
#[must_use = "a question does nothing until it is awaited"]
pub struct Ask<'a, T> {
    /// The round state of the run that asks.
    round: &'a RoundHandle,
    /// The capabilities the run's request declared.
    capabilities: &'a ClientCapabilities,
    kind: Kind,
    capability: Capability,
    key: Option<String>,
    request: Result<InputRequest, InvalidQuestion>,
    parse: Parser<T>,
}

impl<T> fmt::Debug for Ask<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ask")
            .field("key", &self.key)
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl<T> Ask<'_, T> {
    setters! {
        /// Asks under this key instead of the default (`elicit-N`, `sampling-N`, `roots-N` in run
        /// order). Keys must be unique within a run; do not pick names of the default form.
        key(key: impl Into<String>) => key = Some(key.into());
    }
}

impl<'a, T: Send + 'a> IntoFuture for Ask<'a, T> {
    type Output = Result<T, AskError>;
    type IntoFuture = AskFuture<'a, T>;

    fn into_future(self) -> Self::IntoFuture {
        AskFuture {
            ask: Some(self),
            waiting: None,
        }
    }
}

/// The future of an [`Ask`].
#[must_use = "a question does nothing until it is awaited"]
pub struct AskFuture<'a, T> {
    ask: Option<Ask<'a, T>>,
    /// Set once the question was sent and waits for the next round: its key and round state.
    waiting: Option<(String, RoundHandle)>,
}

impl<T> fmt::Debug for AskFuture<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AskFuture")
            .field("waiting", &self.waiting.as_ref().map(|w| &w.0))
            .finish_non_exhaustive()
    }
}

impl<T> Unpin for AskFuture<'_, T> {}

impl<T> Future for AskFuture<'_, T> {
    type Output = Result<T, AskError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        if let Some(ask) = self.ask.take() {
            let handle = ask.round.clone();
            match ask_now(ask) {
                Asked::Decided(result) => return Poll::Ready(result),
                Asked::Waiting(key) => self.waiting = Some((key, handle)),
            }
        }
        let Some((key, handle)) = &self.waiting else {
            return Poll::Pending;
        };
        // Unanswered in this round: the boundary ends the run (normally dropping this future);
        // a question that outlives the run is woken and fails.
        let mut state = handle.lock();
        if state.ended {
            return Poll::Ready(Err(AskError::RoundEnded { key: key.clone() }));
        }
        state.waiting.push(cx.waker().clone());
        Poll::Pending
    }
}

/// What the first poll of a question decided.
enum Asked<T> {
    /// The question is answered (or failed) now.
    Decided(Result<T, AskError>),
    /// The question was sent under this key and waits for the client.
    Waiting(String),
}

/// Decides a question on its first poll.
fn ask_now<T>(ask: Ask<'_, T>) -> Asked<T> {
    if !ask.capability.declared_in(ask.capabilities) {
        return Asked::Decided(Err(AskError::NotSupported(ask.capability)));
    }
    let request = match ask.request {
        Ok(request) => request,
        Err(why) => return Asked::Decided(Err(AskError::InvalidQuestion(why.to_string()))),
    };
    let mut state = ask.round.lock();
    let key = match ask.key {
        Some(key) if key.is_empty() => {
            return Asked::Decided(Err(AskError::InvalidQuestion(
                "a question's key must not be empty".to_owned(),
            )));
        }
        Some(key) => key,
        None => {
            let counter = &mut state.counters[ask.kind.index()];
            *counter += 1;
            format!("{}-{}", ask.kind.prefix(), counter)
        }
    };
    if !state.keys.insert(key.clone()) {
        let error = ErrorObject::internal(format!(
            "Internal error: the run asked two questions under the key `{key}`; keys must be unique within a request"
        ));
        state.failure.get_or_insert(error.clone());
        return Asked::Decided(Err(AskError::InvalidQuestion(error.message)));
    }
    if let Some(answer) = state.answers.get(&key).cloned() {
        return Asked::Decided(match (ask.parse)(&key, &answer) {
            Ok(typed) => {
                state.used.insert(key, answer);
                Ok(typed)
            }
            Err(error) => {
                state.failure.get_or_insert(error.clone());
                Err(AskError::Malformed(error))
            }
        });
    }
    if !state.bounded {
        return Asked::Decided(Err(AskError::NoBoundary { key }));
    }
    if state.ended {
        return Asked::Decided(Err(AskError::RoundEnded { key }));
    }
    state.asked.push(key.clone(), request);
    if let Some(waker) = state.waker.take() {
        waker.wake();
    }
    Asked::Waiting(key)
}

fn malformed(key: &str, detail: impl fmt::Display) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "Invalid params: inputResponses[\"{key}\"]: {detail}"
    ))
}

/// Parses an `ElicitResult`: the action, and for `accept` the content checked by `content`.
fn parse_elicit_result<T>(
    key: &str,
    answer: &Value,
    content: impl FnOnce(Option<&Value>) -> Result<T, ContentError>,
) -> Result<Elicitation<T>, ErrorObject> {
    let Value::Object(obj) = answer else {
        return Err(malformed(
            key,
            format!(
                "expected an ElicitResult object {{action, content?}}, got {}",
                json_type(answer)
            ),
        ));
    };
    match obj.get("action") {
        Some(Value::String(a)) if a == "accept" => content(obj.get("content"))
            .map(Elicitation::Accept)
            .map_err(|e| malformed(key, e)),
        Some(Value::String(a)) if a == "decline" => Ok(Elicitation::Decline),
        Some(Value::String(a)) if a == "cancel" => Ok(Elicitation::Cancel),
        Some(other) => Err(malformed(
            key,
            format!("action must be \"accept\", \"decline\" or \"cancel\", got {other}"),
        )),
        None => Err(malformed(
            key,
            "missing action (this key was asked as an elicitation)",
        )),
    }
}

/// Why a question cannot be asked (a server bug, answered -32603).
#[derive(Debug, thiserror::Error)]
enum InvalidQuestion {
    #[error(transparent)]
    Schema(#[from] ElicitationSchemaError),
    #[error("the elicitation URL {0:?} is not an absolute URI")]
    RelativeUrl(String),
    #[error("a sampling request needs at least one message")]
    NoMessages,
}

/// Why accepted form content does not fit the form.
#[derive(Debug, thiserror::Error)]
enum ContentError {
    #[error("content must be an object, got {0}")]
    NotAnObject(&'static str),
    #[error("the requested schema does not compile: {0}")]
    SchemaDoesNotCompile(#[source] SchemaError),
    #[error("the content does not match the requested schema:\n{0}")]
    Mismatch(String),
    #[error("content does not fit the form: {0}")]
    DoesNotFit(#[source] serde_json::Error),
}

/// Checks accepted form content against the requested schema.
fn form_content(
    schema: &Value,
    content: Option<&Value>,
) -> Result<Map<String, Value>, ContentError> {
    let content = match content {
        None => Value::Object(Map::new()),
        Some(c @ Value::Object(_)) => c.clone(),
        Some(other) => return Err(ContentError::NotAnObject(json_type(other))),
    };
    let validator = SchemaValidator::new(schema).map_err(ContentError::SchemaDoesNotCompile)?;
    let violations = validator.violations(&content);
    if !violations.is_empty() {
        let located: Vec<_> = violations
            .into_iter()
            .map(|mut v| {
                v.pointer = format!("/content{}", v.pointer);
                v
            })
            .collect();
        return Err(ContentError::Mismatch(validation::describe(&located)));
    }
    match content {
        Value::Object(map) => Ok(map),
        _ => unreachable!("checked to be an object above"),
    }
}

/// What asks the client for one run: the run's round state and the capabilities its request
/// declared. The asking methods of [`Context`](crate::Context) delegate to it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Asker<'a> {
    pub(crate) round: &'a RoundHandle,
    pub(crate) capabilities: &'a ClientCapabilities,
}

impl<'a> Asker<'a> {
    fn ask<T>(
        self,
        kind: Kind,
        capability: Capability,
        request: Result<InputRequest, InvalidQuestion>,
        parse: Parser<T>,
    ) -> Ask<'a, T> {
        Ask {
            round: self.round,
            capabilities: self.capabilities,
            kind,
            capability,
            key: None,
            request,
            parse,
        }
    }

    /// A form (`elicitation/create`, form mode) with `requested_schema`, a flat object schema;
    /// the answer's content is checked against it.
    pub(crate) fn elicit(
        self,
        message: impl Into<String>,
        requested_schema: Value,
    ) -> Ask<'a, Elicitation<Map<String, Value>>> {
        let request = flat::check_requested_schema(&requested_schema)
            .map(|()| InputRequest {
                method: ELICIT.to_owned(),
                params: json!({
                    "mode": "form",
                    "message": message.into(),
                    "requestedSchema": requested_schema,
                }),
            })
            .map_err(InvalidQuestion::from);
        let schema = requested_schema;
        self.ask(
            Kind::Elicit,
            Capability::ElicitationForm,
            request,
            Box::new(move |key, answer| {
                parse_elicit_result(key, answer, |content| form_content(&schema, content))
            }),
        )
    }

    /// A form whose schema is `T`'s flat schema, answered with `T`.
    pub(crate) fn elicit_as<T>(self, message: impl Into<String>) -> Ask<'a, Elicitation<T>>
    where
        T: JsonSchema + DeserializeOwned + Send + 'static,
    {
        let flat = flat::elicitation_schema::<T>();
        let schema = flat.clone().unwrap_or(Value::Null);
        let request = flat
            .map(|schema| InputRequest {
                method: ELICIT.to_owned(),
                params: json!({
                    "mode": "form",
                    "message": message.into(),
                    "requestedSchema": schema,
                }),
            })
            .map_err(InvalidQuestion::from);
        self.ask(
            Kind::Elicit,
            Capability::ElicitationForm,
            request,
            Box::new(move |key, answer| {
                parse_elicit_result(key, answer, |content| {
                    let map = form_content(&schema, content)?;
                    serde_json::from_value::<T>(Value::Object(map))
                        .map_err(ContentError::DoesNotFit)
                })
            }),
        )
    }

    /// A URL to visit (`elicitation/create`, URL mode).
    pub(crate) fn elicit_url(
        self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Ask<'a, Elicitation<()>> {
        let url = url.into();
        let request = if url.contains("://") {
            Ok(InputRequest {
                method: ELICIT.to_owned(),
                params: json!({"mode": "url", "message": message.into(), "url": url}),
            })
        } else {
            Err(InvalidQuestion::RelativeUrl(url))
        };
        self.ask(
            Kind::Elicit,
            Capability::ElicitationUrl,
            request,
            Box::new(|key, answer| parse_elicit_result(key, answer, |_| Ok(()))),
        )
    }

    /// A completion from the client's model (`sampling/createMessage`).
    pub(crate) fn create_message(self, request: SamplingRequest) -> Ask<'a, SampledMessage> {
        let request = if request.messages.is_empty() {
            Err(InvalidQuestion::NoMessages)
        } else {
            Ok(InputRequest {
                method: SAMPLE.to_owned(),
                params: serde_json::to_value(&request).expect("sampling requests serialize"),
            })
        };
        self.ask(
            Kind::Sample,
            Capability::Sampling,
            request,
            Box::new(|key, answer| {
                if !answer.is_object() {
                    return Err(malformed(
                        key,
                        format!(
                            "expected a CreateMessageResult object {{role, content, model}}, got {}",
                            json_type(answer)
                        ),
                    ));
                }
                let sampled = SampledMessage::deserialize(answer)
                    .map_err(|e| malformed(key, format!("not a CreateMessageResult: {e}")))?;
                if !(sampled.content.is_object() || sampled.content.is_array()) {
                    return Err(malformed(
                        key,
                        format!(
                            "content must be a content block or an array of them, got {}",
                            json_type(&sampled.content)
                        ),
                    ));
                }
                Ok(sampled)
            }),
        )
    }

    /// The client's roots (`roots/list`).
    pub(crate) fn list_roots(self) -> Ask<'a, Vec<Root>> {
        self.ask(
            Kind::Roots,
            Capability::Roots,
            Ok(InputRequest {
                method: ROOTS.to_owned(),
                params: json!({}),
            }),
            Box::new(|key, answer| {
                let roots = match answer.get("roots") {
                    Some(Value::Array(roots)) => roots,
                    _ => {
                        return Err(malformed(
                            key,
                            format!(
                                "expected a ListRootsResult {{roots: [...]}}, got {}",
                                if answer.is_object() {
                                    "an object without a roots array"
                                } else {
                                    json_type(answer)
                                }
                            ),
                        ));
                    }
                };
                roots
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        Root::deserialize(r).map_err(|e| malformed(key, format!("/roots/{i}: {e}")))
                    })
                    .collect()
            }),
        )
    }

    /// -32021 with `data.requiredCapabilities` naming every one of `capabilities` the request
    /// did not declare, if any.
    pub(crate) fn require(self, capabilities: &[Capability]) -> Result<(), ErrorObject> {
        let missing: Vec<Capability> = capabilities
            .iter()
            .copied()
            .filter(|c| !c.declared_in(self.capabilities))
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(missing_capabilities(&missing))
        }
    }
}
