//! Notifications a request may send before its response: `notifications/progress` and
//! `notifications/message` (spec §10). A transport hands the server a [`NotificationSink`]
//! through [`Caller::notifications`](crate::Caller::notifications); the request's
//! [`Context`](crate::Context) sends on it, within the spec's rules:
//!
//! - progress only when the request carried `_meta.progressToken`, and only increasing;
//! - log messages only when the request carried `_meta["io.modelcontextprotocol/logLevel"]`,
//!   and only at or above that level.

use crate::wire::{LoggingLevel, Notification, ProgressToken, RequestMeta};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// Where a request's notifications go: the transport reads them and writes each before the
/// request's response (stdio), or on the request's SSE stream (HTTP).
pub type NotificationSink = tokio::sync::mpsc::UnboundedSender<Notification>;

/// The per-request sending side, held by the `Context`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Notifier {
    sink: Option<NotificationSink>,
    progress_token: Option<ProgressToken>,
    log_level: Option<LoggingLevel>,
    last_progress: Arc<Mutex<Option<f64>>>,
}

impl Notifier {
    pub(crate) fn new(sink: Option<NotificationSink>, meta: &RequestMeta) -> Self {
        Notifier {
            sink,
            progress_token: meta.progress_token.clone(),
            log_level: meta.log_level,
            last_progress: Arc::default(),
        }
    }

    /// Sends no log messages, whatever the request asked (the server did not declare
    /// `logging`).
    pub(crate) fn without_logs(mut self) -> Self {
        self.log_level = None;
        self
    }

    /// The raw sink, for `subscriptions/listen`, which writes its own notifications.
    pub(crate) fn sink(&self) -> Option<&NotificationSink> {
        self.sink.as_ref()
    }

    pub(crate) fn progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> bool {
        let (Some(sink), Some(token)) = (&self.sink, &self.progress_token) else {
            return false;
        };
        if !progress.is_finite() {
            return false;
        }
        let mut last = self.last_progress.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|l| progress <= l) {
            return false;
        }
        let mut params = json!({ "progressToken": token, "progress": progress });
        if let Some(total) = total {
            params["total"] = json!(total);
        }
        if let Some(message) = message {
            params["message"] = Value::from(message);
        }
        let sent = sink
            .send(Notification::new("notifications/progress", params))
            .is_ok();
        if sent {
            *last = Some(progress);
        }
        sent
    }

    pub(crate) fn log(&self, level: LoggingLevel, logger: Option<&str>, data: Value) -> bool {
        let (Some(sink), Some(threshold)) = (&self.sink, self.log_level) else {
            return false;
        };
        if level < threshold {
            return false;
        }
        let mut params = Map::new();
        params.insert(
            "level".into(),
            serde_json::to_value(level).expect("level serializes"),
        );
        if let Some(logger) = logger {
            params.insert("logger".into(), Value::from(logger));
        }
        params.insert("data".into(), data);
        sink.send(Notification::new(
            "notifications/message",
            Value::Object(params),
        ))
        .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::meta_keys;

    fn meta(extra: Value) -> RequestMeta {
        let mut raw = json!({
            meta_keys::PROTOCOL_VERSION: "2026-07-28",
            meta_keys::CLIENT_CAPABILITIES: {},
        });
        for (k, v) in extra.as_object().unwrap() {
            raw[k] = v.clone();
        }
        RequestMeta::parse(Some(&raw)).unwrap()
    }

    #[test]
    fn progress_needs_a_token_and_must_increase() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let silent = Notifier::new(Some(tx.clone()), &meta(json!({})));
        assert!(!silent.progress(1.0, None, None));
        let n = Notifier::new(Some(tx), &meta(json!({"progressToken": "p"})));
        assert!(n.progress(1.0, Some(3.0), Some("one")));
        assert!(!n.progress(1.0, None, None));
        assert!(!n.progress(0.5, None, None));
        assert!(!n.progress(f64::NAN, None, None));
        assert!(n.progress(2.0, None, None));
        let first = rx.try_recv().unwrap();
        assert_eq!(first.method, "notifications/progress");
        assert_eq!(
            first.params.unwrap(),
            json!({"progressToken": "p", "progress": 1.0, "total": 3.0, "message": "one"})
        );
        assert_eq!(rx.try_recv().unwrap().params.unwrap()["progress"], 2.0);
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn logs_need_a_level_and_respect_it() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let silent = Notifier::new(Some(tx.clone()), &meta(json!({})));
        assert!(!silent.log(LoggingLevel::Emergency, None, json!("x")));
        let n = Notifier::new(Some(tx), &meta(json!({meta_keys::LOG_LEVEL: "warning"})));
        assert!(!n.log(LoggingLevel::Info, None, json!("quiet")));
        assert!(n.log(LoggingLevel::Error, Some("db"), json!({"e": 1})));
        assert_eq!(
            rx.try_recv().unwrap().params.unwrap(),
            json!({"level": "error", "logger": "db", "data": {"e": 1}})
        );
        assert!(rx.try_recv().is_err());
    }
}
