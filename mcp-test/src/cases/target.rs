//! The session the cases and the checker send through.

use crate::server::Caller;
use crate::target::{Target, TargetError, send_within};
use crate::wire::build::build_request;
use serde_json::Value;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Sends requests with fresh ids and a per-call timeout.
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

    /// A request for `method` with the protocol fields, and a fresh id. Returns (id, response).
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Value,
    ) -> (i64, Result<Value, TargetError>) {
        let id = self.next_id();
        let mut body = build_request(method, params);
        body["id"] = Value::from(id);
        (id, self.raw(body).await)
    }

    /// Sends a message as written and waits at most the timeout for its response.
    pub(crate) async fn raw(&self, body: Value) -> Result<Value, TargetError> {
        let exchange = send_within(self.target, &body, &Caller::default(), self.timeout).await?;
        exchange.response.ok_or_else(|| TargetError::NoResponse {
            request: crate::target::describe(&body),
        })
    }
}
