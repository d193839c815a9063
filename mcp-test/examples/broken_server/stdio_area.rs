//! The stdio transport. Every break writes after the response to `initialize`, the last
//! request `check` sends: with no request in flight a stray line fails none, and the
//! transport probe reads what came after it.

use super::{Breaks, Hooks, Incoming, STDIO, Switch, method};
use serde_json::{Value, json};

pub struct Stdio;

/// The id of the request the fixture writes to stdout (`stdio/server-request`).
const FIXTURE_REQUEST: &str = "broken-server-roots";

/// Whether `message` is the response to an `initialize` request.
fn answers_initialize(request: Option<&Value>, message: &Value) -> bool {
    message.get("method").is_none() && method(request) == Some("initialize")
}

impl Hooks for Stdio {
    fn switches(&self) -> &'static [Switch] {
        &[
            Switch {
                name: "stdio/stdout-noise",
                about: "writes a log line that is not a message to stdout",
                clause: "stdio/stdout-messages-only",
                probe: "transport/hygiene",
                transports: STDIO,
            },
            Switch {
                name: "stdio/multi-line-message",
                about: "writes a notification pretty-printed over several lines",
                clause: "stdio/no-embedded-newlines",
                probe: "transport/hygiene",
                transports: STDIO,
            },
            Switch {
                name: "stdio/server-request",
                about: "writes a roots/list request to stdout",
                clause: "stdio/no-requests",
                probe: "transport/hygiene",
                transports: STDIO,
            },
            Switch {
                name: "stdio/ignore-eof",
                about: "keeps running after its stdin closes",
                clause: "stdio/exit-on-eof",
                probe: "transport/shutdown",
                transports: STDIO,
            },
        ]
    }

    fn incoming(&self, on: &Breaks, message: &mut Value) -> Incoming {
        // The client's answer to the fixture's own request is not the server's business.
        if on.on("stdio/server-request")
            && message.get("method").is_none()
            && message.get("id") == Some(&json!(FIXTURE_REQUEST))
        {
            return Incoming::Answer(Vec::new());
        }
        Incoming::Pass
    }

    fn ignore_eof(&self, on: &Breaks) -> bool {
        on.on("stdio/ignore-eof")
    }

    fn stdout_noise(&self, on: &Breaks, request: Option<&Value>, message: &Value) -> Vec<String> {
        if !answers_initialize(request, message) {
            return Vec::new();
        }
        let mut lines = Vec::new();
        if on.on("stdio/stdout-noise") {
            lines.push("broken_server: initialize refused, serving on".to_owned());
        }
        if on.on("stdio/multi-line-message") {
            let note = json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "broken_server: pretty-printed"}});
            let pretty = serde_json::to_string_pretty(&note).expect("serializable");
            lines.extend(pretty.lines().map(str::to_owned));
        }
        if on.on("stdio/server-request") {
            let request = json!({"jsonrpc": "2.0", "id": FIXTURE_REQUEST, "method": "roots/list"});
            lines.push(request.to_string());
        }
        lines
    }
}
