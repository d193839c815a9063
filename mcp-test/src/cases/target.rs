//! The session the cases and the checker send through.

use crate::server::Caller;
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
        }
    }

    /// Sends every request as `caller`.
    pub fn with_caller(mut self, caller: Caller) -> Self {
        self.caller = caller;
        self
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
        let Some(deadline) = &self.deadline else {
            return self.send_within(message, caller, self.timeout).await;
        };
        if deadline.passed() {
            return Err(deadline.refuse(describe(message)));
        }
        let timeout = self.timeout.min(deadline.left());
        match self.send_within(message, caller, timeout).await {
            // The deadline, not the per-call timeout, ended the wait.
            Err(TargetError::Timeout { .. } | TargetError::WrongId { .. })
                if timeout < self.timeout && deadline.passed() =>
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
        match send_within(self.target, message, caller, timeout).await {
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
