//! The session the cases and the checker send through.

use crate::server::Caller;
use crate::setters;
use crate::target::{
    Answers, Connection, DriveError, Exchange, Rounds, Target, TargetError, TargetFuture,
    TransportEvent, describe, drive, send_within,
};
use crate::wire::build::build_request;
use serde_json::Value;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An overall deadline, shared by a [`Session`] and whoever runs it: once it has passed the
/// session sends nothing more, and a request in flight when it passes is no longer waited
/// for. Each message refused so is counted, so the run can say it was cut short.
#[derive(Debug)]
pub struct Deadline {
    /// `None`: too far to represent, so never.
    at: Option<Instant>,
    after: Duration,
    refused: AtomicUsize,
    first_refused: Mutex<Option<String>>,
}

impl Deadline {
    /// A deadline `after` from now.
    pub fn after(after: Duration) -> Arc<Deadline> {
        Arc::new(Deadline {
            at: Instant::now().checked_add(after),
            after,
            refused: AtomicUsize::new(0),
            first_refused: Mutex::new(None),
        })
    }

    /// The deadline as given, counted from when it was set.
    pub fn budget(&self) -> Duration {
        self.after
    }

    /// Whether it has passed.
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }

    /// The time left (zero once it has passed).
    pub fn left(&self) -> Duration {
        self.at.map_or(Duration::MAX, |at| {
            at.saturating_duration_since(Instant::now())
        })
    }

    /// Records that `what` was not done because the deadline passed, and returns the error
    /// that says so.
    pub fn refuse(&self, what: String) -> TargetError {
        self.refused.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_refused.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert_with(|| what.clone());
        TargetError::DeadlinePassed {
            request: what,
            after: self.after,
        }
    }

    /// How many messages (or steps) were refused.
    pub fn refused(&self) -> usize {
        self.refused.load(Ordering::Relaxed)
    }

    /// The first message (or step) refused.
    pub fn first_refused(&self) -> Option<String> {
        self.first_refused
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// Sends requests with fresh ids and a per-call timeout. As a [`Target`] it is the target
/// with the timeout put around every message, so [`drive`] gets it on every round. With a
/// [`Deadline`], no message goes out once it has passed ([`TargetError::DeadlinePassed`]).
/// With [`Session::keep_overdue`], a request that outlasts the timeout still fails with
/// [`TargetError::Timeout`], but is awaited on in the background until [`Session::settle`]
/// says what became of it.
pub struct Session<'a> {
    /// What the messages go to.
    pub target: &'a dyn Target,
    /// How long each message may wait for its reply.
    pub timeout: Duration,
    /// The target's transport, read once ([`Target::connection`] is a snapshot to build).
    transport: Option<crate::spec::clauses::Transport>,
    next_id: AtomicI64,
    deadline: Option<Arc<Deadline>>,
    /// Who the requests come from (a server in this process reads it; a client ignores it).
    caller: Caller,
    /// With [`Session::keep_overdue`]: how long a request is waited for in all.
    patience: Option<Duration>,
    /// The requests that outlasted the timeout, still waited for ([`Session::settle`]).
    overdue: Mutex<Vec<Overdue<'a>>>,
    /// How many requests have been answered so far.
    answered: AtomicUsize,
    /// With [`Session::on_waiting`]: told every [`WAITING_EVERY`] what is still awaited.
    waiting: Option<fn(&str)>,
}

/// How often [`Session::on_waiting`]'s function hears of a request still awaited.
pub const WAITING_EVERY: Duration = Duration::from_secs(5);

/// A request that outlasted the session's timeout and is still waited for.
struct Overdue<'a> {
    request: String,
    method: String,
    sent: tokio::time::Instant,
    timeout: Duration,
    /// [`Session::answered`] when it timed out.
    answered_then: usize,
    state: OverdueState<'a>,
}

enum OverdueState<'a> {
    Waiting(TargetFuture<'a>),
    /// Answered (or failed) after the timeout, seen at this instant.
    Done(tokio::time::Instant, Result<Exchange, TargetError>),
}

/// What became of a request that outlasted the timeout of a [`Session`] that keeps such
/// requests ([`Session::keep_overdue`]): see [`Session::settle`].
#[derive(Debug)]
#[non_exhaustive]
pub struct Late {
    /// The request, as errors name it: `tools/call (id 7)`.
    pub request: String,
    /// Its method.
    pub method: String,
    /// The timeout it outlasted.
    pub timeout: Duration,
    /// How long after it was sent it was answered, failed, or given up on.
    pub waited: Duration,
    /// How many requests the session got answers to after this one timed out.
    pub answered_since: usize,
    /// What became of it.
    pub outcome: LateOutcome,
}

/// What became of a [`Late`] request.
#[derive(Debug)]
#[non_exhaustive]
pub enum LateOutcome {
    /// It was answered after all (this response, or the error of reading it).
    Answered(Result<Value, TargetError>),
    /// Still unanswered at the end of the patience ([`Session::keep_overdue`]).
    Unanswered,
    /// The overall deadline ended the wait first: no verdict.
    Cut,
}

impl<'a> Session<'a> {
    /// A session on `target`, ids from 1, each message given `timeout`, no deadline.
    pub fn new(target: &'a dyn Target, timeout: Duration) -> Self {
        Session {
            target,
            timeout,
            transport: target.connection().transport,
            next_id: AtomicI64::new(1),
            deadline: None,
            caller: Caller::default(),
            patience: None,
            overdue: Mutex::new(Vec::new()),
            answered: AtomicUsize::new(0),
            waiting: None,
        }
    }

    /// Calls `note` every [`WAITING_EVERY`] that a request (of a session that keeps overdue
    /// requests, [`Session::keep_overdue`]) is still awaited, with a line saying which, how
    /// long so far, and the timeout.
    pub fn on_waiting(&mut self, note: fn(&str)) {
        self.waiting = Some(note);
    }

    /// Keeps every request that outlasts the timeout: it still fails with
    /// [`TargetError::Timeout`] at once, but its response is waited for in the background, up
    /// to `patience` after it was sent (the overall deadline permitting), and
    /// [`Session::settle`] tells what became of it. Without this a request is given up on at
    /// the timeout.
    pub fn keep_overdue(&mut self, patience: Duration) {
        self.patience = Some(patience.max(self.timeout));
    }

    /// How many requests have been answered so far (any response, an error included).
    pub fn answered(&self) -> usize {
        self.answered.load(Ordering::Relaxed)
    }

    /// How many requests that outlasted the timeout are still to be settled.
    pub fn overdue(&self) -> usize {
        self.overdue.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The requests that outlasted the timeout so far, once each has been answered or has
    /// waited its patience out (or the overall deadline passed): what became of each.
    /// Waits only for requests that did time out, and for no longer than their patience
    /// from when each was sent; a request answered meanwhile is not waited for at all.
    pub async fn settle(&self) -> Vec<Late> {
        let taken: Vec<Overdue<'a>> =
            std::mem::take(&mut *self.overdue.lock().unwrap_or_else(|e| e.into_inner()));
        let patience = self.patience.unwrap_or(self.timeout);
        let deadline = self.deadline.clone();
        let waits = taken.into_iter().map(|o| {
            let deadline = deadline.clone();
            async move {
                let Overdue {
                    request,
                    method,
                    sent,
                    timeout,
                    answered_then,
                    state,
                } = o;
                let (at, result) = match state {
                    OverdueState::Done(at, result) => (at, Some(result)),
                    OverdueState::Waiting(future) => {
                        let mut until = sent + patience;
                        if let Some(d) = &deadline {
                            let left = tokio::time::Instant::now().checked_add(d.left());
                            until = left.map_or(until, |left| until.min(left));
                        }
                        let result = tokio::time::timeout_at(until, future).await.ok();
                        (tokio::time::Instant::now(), result)
                    }
                };
                // The target's own timeout, if it has one, ends no sooner than the patience:
                // that is still no answer.
                let result = result.filter(|r| !timed_out(r));
                let outcome = match result {
                    Some(result) => LateOutcome::Answered(result.and_then(|exchange| {
                        exchange.response.ok_or_else(|| TargetError::NoResponse {
                            request: request.clone(),
                        })
                    })),
                    None if deadline.as_ref().is_some_and(|d| d.passed())
                        && at.duration_since(sent) < patience =>
                    {
                        LateOutcome::Cut
                    }
                    None => LateOutcome::Unanswered,
                };
                Late {
                    waited: at.duration_since(sent),
                    answered_since: answered_then,
                    request,
                    method,
                    timeout,
                    outcome,
                }
            }
        });
        let mut settled = futures_util::future::join_all(waits).await;
        let answered = self.answered();
        for late in &mut settled {
            late.answered_since = answered.saturating_sub(late.answered_since);
        }
        settled
    }

    /// Polls each overdue request once, without waiting: one answered meanwhile is marked
    /// with the time it was seen.
    fn poll_overdue(&self) {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        self.poll_overdue_with(&mut cx);
    }

    /// `future`, polling the overdue requests each time it is polled: they make progress
    /// (an in-process target runs its handlers only when polled) while any request of the
    /// session is awaited, and are seen when they are answered.
    fn driving<'f, F: Future + Unpin + 'f>(
        &'f self,
        future: &'f mut F,
    ) -> impl Future<Output = F::Output> + 'f {
        std::future::poll_fn(move |cx| {
            self.poll_overdue_with(cx);
            std::pin::Pin::new(&mut *future).poll(cx)
        })
    }

    /// Polls each overdue request once with `cx`: one answered is marked with the time it
    /// was seen. Skipped while another request polls them.
    fn poll_overdue_with(&self, cx: &mut std::task::Context<'_>) {
        let Ok(mut overdue) = self.overdue.try_lock() else {
            return;
        };
        for o in overdue.iter_mut() {
            if let OverdueState::Waiting(future) = &mut o.state
                && let std::task::Poll::Ready(result) = future.as_mut().poll(cx)
            {
                o.state = OverdueState::Done(tokio::time::Instant::now(), result);
            }
        }
    }

    setters! {
        /// Sends every request as `caller`.
        with_caller(caller: Caller) => caller = caller;
    }

    /// Puts `deadline` over every message sent from now on.
    pub fn set_deadline(&mut self, deadline: Arc<Deadline>) {
        self.deadline = Some(deadline);
    }

    /// Whether the session's deadline, if any, has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.as_ref().is_some_and(|d| d.passed())
    }

    /// Sends `message` within the timeout, and within the deadline when there is one.
    async fn send_bounded(
        &self,
        message: &Value,
        caller: &Caller,
    ) -> Result<Exchange, TargetError> {
        self.send_bounded_for(message, caller, self.timeout).await
    }

    /// [`Session::send_bounded`] with this timeout instead of the session's.
    async fn send_bounded_for(
        &self,
        message: &Value,
        caller: &Caller,
        wanted: Duration,
    ) -> Result<Exchange, TargetError> {
        self.poll_overdue();
        let result = self.send_deadlined(message, caller, wanted).await;
        if result.as_ref().is_ok_and(|e| e.response.is_some()) {
            self.answered.fetch_add(1, Ordering::Relaxed);
        }
        result
    }

    /// [`Session::send_bounded`] without the bookkeeping.
    async fn send_deadlined(
        &self,
        message: &Value,
        caller: &Caller,
        wanted: Duration,
    ) -> Result<Exchange, TargetError> {
        let Some(deadline) = &self.deadline else {
            return self.send_within(message, caller, wanted).await;
        };
        if deadline.passed() {
            return Err(deadline.refuse(describe(message)));
        }
        let timeout = wanted.min(deadline.left());
        match self.send_within(message, caller, timeout).await {
            // The deadline, not the per-call timeout, ended the wait.
            Err(TargetError::Timeout { .. } | TargetError::WrongId { .. })
                if timeout < wanted && deadline.passed() =>
            {
                Err(deadline.refuse(describe(message)))
            }
            other => other,
        }
    }

    /// [`send_within`], telling a reply under the wrong id from silence: a request that times
    /// out while the target reported replies to no request in flight is
    /// [`TargetError::WrongId`].
    async fn send_within(
        &self,
        message: &Value,
        caller: &Caller,
        timeout: Duration,
    ) -> Result<Exchange, TargetError> {
        let before = self.target.connection().events.len();
        let sent = match self.patience {
            None => send_within(self.target, message, caller, timeout).await,
            Some(patience) => {
                self.send_patiently(message, caller, timeout, patience)
                    .await
            }
        };
        match sent {
            Err(TargetError::Timeout { request, after }) => {
                let mut got: Vec<String> = Vec::new();
                for event in self.target.connection().events.into_iter().skip(before) {
                    if let TransportEvent::UnmatchedReply { id, .. } = event
                        && !got.contains(&id)
                    {
                        got.push(id);
                    }
                }
                if got.is_empty() {
                    return Err(TargetError::Timeout { request, after });
                }
                // Answered under another id: that is the finding, not the silence.
                self.overdue
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .retain(|o| o.request != request);
                Err(TargetError::WrongId {
                    request,
                    expected: message.get("id").unwrap_or(&Value::Null).to_string(),
                    got,
                    after,
                })
            }
            other => other,
        }
    }

    /// Sends `message` and waits `timeout` for its reply; a request still unanswered then
    /// is kept, waited for up to `patience` from now ([`Session::settle`]), and fails with
    /// [`TargetError::Timeout`].
    async fn send_patiently(
        &self,
        message: &Value,
        caller: &Caller,
        timeout: Duration,
        patience: Duration,
    ) -> Result<Exchange, TargetError> {
        let target: &'a dyn Target = self.target;
        let owned = message.clone();
        let mut caller = caller.clone();
        // The target's own timeout (a client's) must not end the wait first.
        let patience = patience + Duration::from_secs(1);
        caller.timeout = Some(caller.timeout.map_or(patience, |t| t.max(patience)));
        let sent = tokio::time::Instant::now();
        let mut future: TargetFuture<'a> =
            Box::pin(async move { target.send(&owned, &caller).await });
        // Waits in steps, telling `waiting` after each what is still awaited.
        let answered = loop {
            let left = timeout.saturating_sub(sent.elapsed());
            let step = match self.waiting {
                Some(_) => left.min(WAITING_EVERY),
                None => left,
            };
            match tokio::time::timeout(step, self.driving(&mut future)).await {
                Ok(result) => break Some(result),
                Err(_) if sent.elapsed() >= timeout => break None,
                Err(_) => {
                    if let Some(note) = self.waiting {
                        note(&format!(
                            "waiting for the answer to {}: {} s so far, timeout {} s",
                            describe(message),
                            sent.elapsed().as_secs(),
                            timeout.as_secs()
                        ));
                    }
                }
            }
        };
        match answered {
            Some(result) => result,
            None => {
                let request = describe(message);
                // Kept unless the overall deadline, not the timeout, ended the wait.
                if message.get("id").is_some() && !self.past_deadline() {
                    let answered_then = self.answered();
                    self.overdue
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(Overdue {
                            request: request.clone(),
                            method: message
                                .get("method")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_owned(),
                            sent,
                            timeout,
                            answered_then,
                            state: OverdueState::Waiting(future),
                        });
                }
                Err(TargetError::Timeout {
                    request,
                    after: timeout,
                })
            }
        }
    }

    /// The id the next request gets ([`next_id`](Self::next_id) returns it and moves on).
    /// A second `Session` on a connection an earlier one used starts here, so no id is used
    /// twice in one connection.
    pub fn peek_id(&self) -> i64 {
        self.next_id.load(Ordering::Relaxed)
    }

    /// This session with its ids starting at `id` ([`peek_id`](Self::peek_id) of an earlier
    /// session on the same connection).
    pub fn with_next_id(self, id: i64) -> Self {
        self.next_id.store(id, Ordering::Relaxed);
        self
    }

    /// A fresh request id.
    pub fn next_id(&self) -> i64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// A request body for `method` with the protocol fields (a `_meta` in `params` merges
    /// over them) and a fresh id. Returns (id, body).
    pub fn body(&self, method: &str, params: Value) -> (i64, Value) {
        let id = self.next_id();
        let mut body = build_request(method, params);
        body["id"] = Value::from(id);
        (id, body)
    }

    /// A request for `method` with the protocol fields, and a fresh id. Returns (id, response).
    pub async fn request(&self, method: &str, params: Value) -> (i64, Result<Value, TargetError>) {
        let (id, body) = self.body(method, params);
        (id, self.raw(body).await)
    }

    /// [`request`](Self::request) waiting `timeout` for the response instead of the
    /// session's timeout (the overall deadline still applies).
    pub async fn request_within(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> (i64, Result<Value, TargetError>) {
        let (id, body) = self.body(method, params);
        let exchange = self.send_bounded_for(&body, &self.caller, timeout).await;
        let response = exchange.and_then(|exchange| {
            exchange.response.ok_or_else(|| TargetError::NoResponse {
                request: describe(&body),
            })
        });
        (id, response)
    }

    /// Drives `body` to its final response with `answers` ([`drive`]); retries take fresh
    /// ids from this session, and every round has the timeout.
    pub async fn drive(&self, body: &Value, answers: &Answers) -> Result<Rounds, DriveError> {
        let next_id = || Value::from(self.next_id());
        drive(self, body, answers, &self.caller, Some(&next_id)).await
    }

    /// Calls `case`'s tool (no client capabilities) as [`run_in`](super::run_in) does, but
    /// waits at most `limit`: `None` when the call was still running then. It is cancelled
    /// as the spec's cancellation pattern says: on stdio with `notifications/cancelled`, on
    /// HTTP (and in process) by dropping the request, which closes its response stream.
    pub async fn call_within(
        &self,
        case: &super::Case,
        limit: Duration,
    ) -> Option<(super::Happened, Option<Value>)> {
        let params = serde_json::json!({"name": case.tool, "arguments": case.args});
        let (id, body) = self.body("tools/call", params);
        match tokio::time::timeout(limit, self.raw(body)).await {
            Ok(Ok(response)) => Some((super::Happened::from_response(&response), Some(response))),
            Ok(Err(e)) => Some((
                super::Happened::Failed {
                    message: e.to_string(),
                },
                None,
            )),
            Err(_) => {
                if self.transport == Some(crate::spec::clauses::Transport::Stdio) {
                    let cancel = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": id, "reason": "the check's time for one case ran out"}});
                    let _ = self.send_bounded(&cancel, &self.caller).await;
                }
                None
            }
        }
    }

    /// Sends a message as written and waits at most the timeout for its response.
    pub async fn raw(&self, body: Value) -> Result<Value, TargetError> {
        self.exchange(body).await.map(|(response, _)| response)
    }

    /// [`raw`](Self::raw), keeping the notifications the request caused (what the
    /// [`Exchange`] of the target saw before the response).
    pub async fn exchange(&self, body: Value) -> Result<(Value, Vec<Value>), TargetError> {
        let exchange = self.send_bounded(&body, &self.caller).await?;
        match exchange.response {
            Some(response) => Ok((response, exchange.notifications)),
            None => Err(TargetError::NoResponse {
                request: describe(&body),
            }),
        }
    }
}

/// Whether `result` is a target's own timeout.
fn timed_out(result: &Result<Exchange, TargetError>) -> bool {
    match result {
        Err(TargetError::Timeout { .. }) => true,
        #[cfg(any(feature = "client", feature = "http"))]
        Err(TargetError::Client(super::super::target::client_error::ClientError::Timeout {
            ..
        })) => true,
        _ => false,
    }
}

impl Target for Session<'_> {
    fn label(&self) -> String {
        self.target.label()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(self.send_bounded(message, caller))
    }
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        self.target.send_text(text, caller)
    }
    fn connection(&self) -> Connection {
        self.target.connection()
    }
}
