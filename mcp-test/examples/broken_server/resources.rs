//! Resources, resource templates, prompts and completion.

use super::{BOTH, Breaks, Hooks, Switch};
use serde_json::{Value, json};

pub struct Resources;

impl Hooks for Resources {
    fn switches(&self) -> &'static [Switch] {
        &[Switch {
            name: "resources/read-unknown-empty",
            about: "answers resources/read of an unknown URI with empty contents",
            clause: "resources/not-found-not-empty",
            probe: "resources/not-found",
            transports: BOTH,
        }]
    }

    fn outgoing(
        &self,
        on: &Breaks,
        request: Option<&Value>,
        message: &mut Value,
        _before: &mut Vec<Value>,
    ) {
        let method = request
            .and_then(|r| r.get("method"))
            .and_then(Value::as_str);
        if on.on("resources/read-unknown-empty")
            && method == Some("resources/read")
            && message.pointer("/error/code") == Some(&json!(-32602))
        {
            let id = message["id"].clone();
            *message = json!({"jsonrpc": "2.0", "id": id,
                "result": {"resultType": "complete", "contents": [],
                           "cacheScope": "private", "ttlMs": 0}});
        }
    }
}
