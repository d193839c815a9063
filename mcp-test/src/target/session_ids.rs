//! The request ids one session has used, so that a 2025-11-25 session never sends one twice.
//!
//! 2025-11-25 (basic/index.mdx, Requests): "the request ID **MUST NOT** have been previously
//! used by the requestor within the same session". The test surface builds every request
//! with the id its options name (`1` unless told otherwise), and a tool or a test may send a
//! body of its own with any id; a session keeps the first use of an id as it is and sends
//! each later use under a fresh id instead, then gives the reply back under the id the
//! caller used. So an id chosen on purpose (a string id, say) reaches the server whenever it
//! can, and the session stays within the rule whatever the caller sends.
//!
//! Kept by the client (stdio, HTTP) for its 2025-era session and by the in-process 2025-era
//! test context; text sent as it is (`Target::send_text`) passes untouched.

use crate::target::Exchange;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Mutex;

/// The ids a session has used ([module docs](self)).
#[derive(Debug, Default)]
pub(crate) struct SessionIds {
    used: Mutex<HashSet<String>>,
}

/// A request claimed by [`SessionIds::claim`]: what to send, and the id to give back.
pub(crate) struct Claimed {
    /// The request as sent: under a fresh id when its own was used already.
    pub(crate) wire: Value,
    /// The caller's id, when the wire's differs from it.
    restore: Option<(Value, Value)>,
}

impl Claimed {
    /// The reply of `exchange` under the caller's id again.
    pub(crate) fn restore(&self, exchange: &mut Exchange) {
        if let (Some((wire, original)), Some(response)) = (&self.restore, &mut exchange.response)
            && response.get("id") == Some(wire)
        {
            response["id"] = original.clone();
        }
    }
}

/// A request's id the rule covers: a string or an integer of a message with a `method`.
fn request_id(message: &Value) -> Option<&Value> {
    message.get("method")?;
    message
        .get("id")
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())
}

impl SessionIds {
    /// Marks the id of `message` used without changing it: a request this session's own
    /// code built with an id it knows to be fresh (the handshake's).
    pub(crate) fn note(&self, message: &Value) {
        if let Some(id) = request_id(message) {
            self.lock().insert(id.to_string());
        }
    }

    /// `message` as this session sends it: unchanged when it is no request or its id is new
    /// to the session (the id is then marked used); else under the first id of `fresh` the
    /// session has not used, the caller's id kept to give the reply back under.
    pub(crate) fn claim(&self, message: &Value, fresh: &dyn Fn() -> i64) -> Claimed {
        let Some(id) = request_id(message) else {
            return Claimed {
                wire: message.clone(),
                restore: None,
            };
        };
        let mut used = self.lock();
        if used.insert(id.to_string()) {
            return Claimed {
                wire: message.clone(),
                restore: None,
            };
        }
        let new = loop {
            let candidate = Value::from(fresh());
            if used.insert(candidate.to_string()) {
                break candidate;
            }
        };
        let mut wire = message.clone();
        wire["id"] = new.clone();
        Claimed {
            wire,
            restore: Some((new, id.clone())),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::atomic::{AtomicI64, Ordering};

    #[test]
    fn a_reused_id_goes_out_fresh_and_comes_back_as_the_caller_sent_it() {
        let ids = SessionIds::default();
        let next = AtomicI64::new(1);
        let fresh = || next.fetch_add(1, Ordering::Relaxed);
        ids.note(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize"}));
        let ask = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        let first = ids.claim(&ask, &fresh);
        // 1 was the handshake's: the fresh counter's 1 is skipped too.
        assert_eq!(first.wire["id"], 2);
        let mut exchange = Exchange {
            response: Some(json!({"jsonrpc": "2.0", "id": 2, "result": {}})),
            ..Exchange::default()
        };
        first.restore(&mut exchange);
        assert_eq!(exchange.response.unwrap()["id"], 1);
        assert_eq!(ids.claim(&ask, &fresh).wire["id"], 3);
        // A string id chosen on purpose is kept the first time, and "1" is not 1.
        let named = json!({"jsonrpc": "2.0", "id": "1", "method": "ping"});
        assert_eq!(ids.claim(&named, &fresh).wire["id"], "1");
        assert_eq!(ids.claim(&named, &fresh).wire["id"], 4);
    }

    #[test]
    fn notifications_responses_and_ids_of_no_valid_type_pass_untouched() {
        let ids = SessionIds::default();
        let fresh = || 7;
        for message in [
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!({"jsonrpc": "2.0", "id": null, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}),
        ] {
            for _ in 0..2 {
                assert_eq!(ids.claim(&message, &fresh).wire, message);
            }
        }
    }
}
