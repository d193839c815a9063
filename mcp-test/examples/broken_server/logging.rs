//! Log messages, progress notifications, server requests and subscriptions.
//!
//! The runtime declares `logging` (any handler may log when a request asks); the
//! `logging/undeclared` switch takes it out of the discover result.

use super::{BOTH, Breaks, HTTP, Hooks, Incoming, Switch, meta, method};
use mcp_test::wire::LoggingLevel;
use serde_json::{Value, json};
use std::sync::Mutex;

pub struct Logging;

/// The progress token of the last `tools/call` answered, for `progress/after-completion`.
static LAST_TOKEN: Mutex<Option<Value>> = Mutex::new(None);

const SWITCHES: &[Switch] = &[
    Switch {
        name: "logging/unrequested",
        about: "sends notifications/message for a tools/call that set no log level",
        clause: "logging/not-requested",
        probe: "notifications/logging",
        transports: BOTH,
    },
    Switch {
        name: "logging/undeclared",
        about: "logs without declaring the logging capability",
        clause: "logging/capability",
        probe: "notifications/logging",
        transports: BOTH,
    },
    Switch {
        name: "logging/invalid-level-accepted",
        about: "serves a request whose log level is not a level",
        clause: "logging/invalid-level",
        probe: "notifications/logging",
        transports: BOTH,
    },
    Switch {
        name: "progress/unknown-token",
        about: "sends progress for a token no request carried",
        clause: "progress/known-tokens",
        probe: "notifications/progress",
        transports: BOTH,
    },
    Switch {
        name: "progress/not-increasing",
        about: "sends the same progress value twice",
        clause: "progress/increasing",
        probe: "notifications/progress",
        transports: BOTH,
    },
    Switch {
        name: "progress/after-completion",
        about: "sends progress for a tools/call after answering it",
        clause: "progress/stop-after-completion",
        probe: "notifications/progress",
        transports: BOTH,
    },
    Switch {
        name: "mrtr/server-request",
        about: "sends elicitation/create as a JSON-RPC request beside a tools/call response",
        clause: "mrtr/server-requests",
        probe: "notifications/server-initiated",
        transports: HTTP,
    },
    Switch {
        name: "cancellation/cancels-a-call",
        about: "sends notifications/cancelled beside a tools/call response",
        clause: "cancellation/server-only-subscriptions",
        probe: "notifications/server-initiated",
        transports: BOTH,
    },
    Switch {
        name: "logging/on-listen-stream",
        about: "sends notifications/message on a subscriptions/listen stream for list changes whose id is a string (check's own client numbers its requests, so only the raw probe sees it)",
        clause: "logging/request-scoped",
        probe: "logging/request-scoped",
        transports: HTTP,
    },
    Switch {
        name: "subscriptions/no-ack",
        about: "starts a subscriptions/listen stream with a change notification, not the acknowledgment",
        clause: "subscriptions/acknowledged-first",
        probe: "subscriptions/listen",
        transports: HTTP,
    },
    Switch {
        name: "subscriptions/unrequested",
        about: "sends a resource update on a subscription that asked for none",
        clause: "subscriptions/requested-only",
        probe: "subscriptions/listen",
        transports: HTTP,
    },
    Switch {
        name: "subscriptions/no-id",
        about: "sends a notification on a subscription without its subscription id",
        clause: "subscriptions/id-in-meta",
        probe: "subscriptions/listen",
        transports: HTTP,
    },
];

impl Hooks for Logging {
    fn switches(&self) -> &'static [Switch] {
        SWITCHES
    }

    fn incoming(&self, on: &Breaks, message: &mut Value) -> Incoming {
        if on.on("logging/invalid-level-accepted")
            && let Some(meta) = message
                .pointer_mut("/params/_meta")
                .and_then(Value::as_object_mut)
            && meta
                .get("io.modelcontextprotocol/logLevel")
                .and_then(Value::as_str)
                .is_some_and(|l| serde_json::from_value::<LoggingLevel>(json!(l)).is_err())
        {
            meta.remove("io.modelcontextprotocol/logLevel");
        }
        // A listen for task ids is the tasks area's (`tasks/listen-undeclared-accepted`).
        if message.get("method") != Some(&json!("subscriptions/listen"))
            || message.pointer("/params/notifications/taskIds").is_some()
        {
            return Incoming::Pass;
        }
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let with_id = json!({"io.modelcontextprotocol/subscriptionId": id});
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": with_id, "notifications": {"toolsListChanged": true}}});
        let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
            "params": {"_meta": with_id}});
        let end = json!({"jsonrpc": "2.0", "id": id,
            "result": {"resultType": "complete", "_meta": with_id}});
        if on.on("logging/on-listen-stream") && id.is_string() {
            let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"_meta": with_id, "level": "info", "data": "listening"}});
            return Incoming::Answer(vec![ack, log, end]);
        }
        if on.on("subscriptions/no-ack") {
            return Incoming::Answer(vec![changed, end]);
        }
        if on.on("subscriptions/unrequested") {
            let updated = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                "params": {"_meta": with_id, "uri": "fixture://readme"}});
            return Incoming::Answer(vec![ack, updated, end]);
        }
        if on.on("subscriptions/no-id") {
            let bare = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
            return Incoming::Answer(vec![ack, bare, end]);
        }
        Incoming::Pass
    }

    fn outgoing(
        &self,
        on: &Breaks,
        request: Option<&Value>,
        message: &mut Value,
        before: &mut Vec<Value>,
    ) {
        let asked = method(request);
        if message.get("method") == Some(&json!("notifications/progress"))
            && on.on("progress/not-increasing")
        {
            message["params"]["progress"] = json!(1.0);
        }
        let is_response = message.get("result").is_some() || message.get("error").is_some();
        if !is_response {
            return;
        }
        if on.on("progress/after-completion") {
            let mut last = LAST_TOKEN.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(token) = last.take() {
                before.push(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": token, "progress": 99.0}}));
            }
            if asked == Some("tools/call") {
                *last = meta(request, "progressToken").cloned();
            }
        }
        match asked {
            Some("server/discover") if on.on("logging/undeclared") => {
                if let Some(caps) = message
                    .pointer_mut("/result/capabilities")
                    .and_then(Value::as_object_mut)
                {
                    caps.remove("logging");
                }
            }
            Some("tools/call") => {
                if on.on("logging/unrequested")
                    && meta(request, "io.modelcontextprotocol/logLevel").is_none()
                {
                    before.push(json!({"jsonrpc": "2.0", "method": "notifications/message",
                        "params": {"level": "info", "data": "unasked"}}));
                }
                if on.on("progress/unknown-token") && meta(request, "progressToken").is_none() {
                    before.push(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": {"progressToken": "fixture-token", "progress": 1.0}}));
                }
                if on.on("cancellation/cancels-a-call") {
                    before.push(
                        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": "fixture-ask", "reason": "changed its mind"}}),
                    );
                }
                if on.on("mrtr/server-request") {
                    before.push(json!({"jsonrpc": "2.0", "id": "fixture-ask",
                        "method": "elicitation/create", "params": {
                            "mode": "form", "message": "Go ahead?",
                            "requestedSchema": {"type": "object",
                                "properties": {"ok": {"type": "boolean"}}}}}));
                }
            }
            _ => {}
        }
    }
}
