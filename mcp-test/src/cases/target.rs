//! The session the cases and the checker send through.

use crate::server::Caller;
use crate::target::{
    Answers, DriveError, Rounds, Target, TargetError, TargetFuture, TransportEvent, drive,
    send_within,
};
use crate::wire::Era;
use crate::wire::build::build_request;
use serde_json::Value;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Sends requests with fresh ids and a per-call timeout. As a [`Target`] it is the target
/// with the timeout put around every message, so [`drive`] gets it on every round.
pub(crate) struct Session<'a> {
    pub(crate) target: &'a dyn Target,
    pub(crate) timeout: Duration,
    next_id: AtomicI64,
}

impl<'a> Session<'a> {
    pub(crate) fn new(target: &'a dyn Target, timeout: Duration) -> Self {
        Session {
            target,
            timeout,
            next_id: AtomicI64::new(1),
        }
    }

    pub(crate) fn next_id(&self) -> i64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// A request body for `method` with the protocol fields (a `_meta` in `params` merges
    /// over them) and a fresh id. Returns (id, body).
    pub(crate) fn body(&self, method: &str, params: Value) -> (i64, Value) {
        let id = self.next_id();
        let mut body = build_request(method, params);
        body["id"] = Value::from(id);
        (id, body)
    }

    /// A request for `method` with the protocol fields, and a fresh id. Returns (id, response).
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Value,
    ) -> (i64, Result<Value, TargetError>) {
        let (id, body) = self.body(method, params);
        (id, self.raw(body).await)
    }

    /// Drives `body` to its final response with `answers` ([`drive`]); retries take fresh
    /// ids from this session, and every round has the timeout.
    pub(crate) async fn drive(
        &self,
        body: &Value,
        answers: &Answers,
    ) -> Result<Rounds, DriveError> {
        let next_id = || Value::from(self.next_id());
        drive(self, body, answers, &Caller::default(), Some(&next_id)).await
    }

    /// Sends a message as written and waits at most the timeout for its response.
    pub(crate) async fn raw(&self, body: Value) -> Result<Value, TargetError> {
        let exchange = send_within(self.target, &body, &Caller::default(), self.timeout).await?;
        exchange.response.ok_or_else(|| TargetError::NoResponse {
            request: crate::target::describe(&body),
        })
    }
}

impl Target for Session<'_> {
    fn label(&self) -> String {
        self.target.label()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(send_within(self.target, message, caller, self.timeout))
    }
    fn era(&self) -> Option<Era> {
        self.target.era()
    }
    fn transport_events(&self) -> Vec<TransportEvent> {
        self.target.transport_events()
    }
    fn http_url(&self) -> Option<String> {
        self.target.http_url()
    }
    fn declared_capabilities(&self) -> Option<Value> {
        self.target.declared_capabilities()
    }
    fn protocol_version(&self) -> Option<String> {
        self.target.protocol_version()
    }
}
