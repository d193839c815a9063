//! Multi-round requests beyond the base area's: what a server may ask of a client that
//! declares `sampling` with neither `context` nor `tools` (each sampling switch makes
//! `confirm` ask, beside its elicitation, for a sampling its client did not declare it can do,
//! and name `sampling` in the -32021 it answers a client without capabilities), and what it
//! takes as input responses.

use super::{BOTH, Breaks, HTTP, Hooks, Incoming, Switch, method};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

pub struct MultiRound;

/// The TCP peers (HTTP) that sent a request, for `base/retry-needs-same-connection`.
static PEERS: Mutex<BTreeSet<SocketAddr>> = Mutex::new(BTreeSet::new());

/// The `_meta` key `http_message` marks a retry sent first on its connection with.
const RETRY_FIRST_ON_CONNECTION: &str = "fixture/retry-first-on-connection";

/// The switches that make the fixture a 2025-era server (`main` serves the 2025-11-25
/// handshake alone under them): one asks for roots on the reply to an `initialize` that
/// declares them, the others turn the elicitation for `confirm` into another question during
/// the calls of the probe that declares elicitation with form mode only and sampling without
/// tools (they carry its progress token, [`LEGACY_TOKEN`]).
pub const LEGACY_ONLY: &[&str] = &[
    "elicitation/url-mode-2025",
    "sampling/tools-2025",
    "lifecycle/roots-before-initialized",
];

/// The progress token of `multi-round/legacy-capabilities`'s calls.
const LEGACY_TOKEN: &str = "mcp-test-legacy-capabilities";

/// Whether a call carrying [`LEGACY_TOKEN`] is in flight.
static LEGACY_CALL: AtomicBool = AtomicBool::new(false);

/// Whether a request declares client capabilities in its `_meta`.
fn declares(request: Option<&Value>) -> bool {
    request
        .and_then(|r| r.pointer("/params/_meta"))
        .and_then(|m| m.get("io.modelcontextprotocol/clientCapabilities"))
        .is_some_and(|c| !c.is_null())
}

impl Hooks for MultiRound {
    fn switches(&self) -> &'static [Switch] {
        &[
            Switch {
                name: "sampling/context-undeclared",
                about: "asks, in confirm's rounds, for sampling with includeContext thisServer from a client that did not declare sampling.context",
                clause: "sampling/include-context",
                probe: "multi-round/driven",
                transports: BOTH,
            },
            Switch {
                name: "sampling/tools-undeclared",
                about: "asks, in confirm's rounds, for sampling with tools from a client that did not declare sampling.tools",
                clause: "sampling/tools",
                probe: "multi-round/driven",
                transports: BOTH,
            },
            Switch {
                name: "elicitation/content-unchecked",
                about: "takes an accepted form whose content breaks its requestedSchema, and completes confirm",
                clause: "elicitation/validate-data",
                probe: "multi-round/elicitation-content",
                transports: BOTH,
            },
            Switch {
                name: "base/retry-needs-same-connection",
                about: "refuses the retry of a tools/call (one with inputResponses) sent first on a TCP connection, as if its first round had to come on the same one",
                clause: "base/stateless-no-connection-reuse",
                probe: "base/connection-reuse",
                transports: HTTP,
            },
            Switch {
                name: "elicitation/url-mode-2025",
                about: "a 2025-era server that asks, while a tool runs, with an elicitation/create in URL mode a client that declared form mode only",
                clause: "legacy/elicitation/supported-modes",
                probe: "multi-round/legacy-capabilities",
                transports: HTTP,
            },
            Switch {
                name: "sampling/tools-2025",
                about: "a 2025-era server that asks, while a tool runs, for sampling with tools a client that did not declare sampling.tools",
                clause: "legacy/sampling/tools",
                probe: "multi-round/legacy-capabilities",
                transports: HTTP,
            },
            Switch {
                name: "lifecycle/roots-before-initialized",
                about: "a 2025-era server that sends roots/list on the reply to an initialize declaring roots, before the initialized notification",
                clause: "legacy/lifecycle/no-requests-before-initialized",
                probe: "lifecycle/before-initialized",
                transports: HTTP,
            },
            Switch {
                name: "sampling/tool-result-as-text",
                about: "asks, in confirm's rounds, a client that declared sampling.tools for sampling with tools, and answers the model's tool use with a text message, not a tool_result",
                clause: "sampling/tool-results",
                probe: "multi-round/sampling-tool-results",
                transports: BOTH,
            },
            Switch {
                name: "mrtr/input-responses-unchecked",
                about: "takes inputResponses that are not an object as no answer, and completes confirm",
                clause: "mrtr/validate-input-responses",
                probe: "multi-round/input-responses",
                transports: BOTH,
            },
        ]
    }

    fn http_message(&self, on: &Breaks, head: &mut http::request::Parts, message: &mut Value) {
        if !on.on("base/retry-needs-same-connection") {
            return;
        }
        let Some(first) = super::base::first_from_peer(&PEERS, head) else {
            return;
        };
        if first
            && method(Some(message)) == Some("tools/call")
            && message.pointer("/params/inputResponses").is_some()
            && let Some(meta) = message
                .pointer_mut("/params/_meta")
                .and_then(Value::as_object_mut)
        {
            meta.insert(RETRY_FIRST_ON_CONNECTION.to_owned(), json!(true));
        }
    }

    fn incoming(&self, _on: &Breaks, message: &mut Value) -> Incoming {
        if method(Some(message)) == Some("tools/call")
            && message.pointer("/params/_meta/progressToken") == Some(&json!(LEGACY_TOKEN))
        {
            LEGACY_CALL.store(true, Ordering::Relaxed);
        }
        if let Some(meta) = message
            .pointer_mut("/params/_meta")
            .and_then(Value::as_object_mut)
            && meta.remove(RETRY_FIRST_ON_CONNECTION).is_some()
        {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": -32602, "message": "requestState belongs to another connection"}})]);
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
        if request
            .and_then(|r| r.pointer("/params/_meta/progressToken"))
            .is_some_and(|t| t == LEGACY_TOKEN)
        {
            LEGACY_CALL.store(false, Ordering::Relaxed);
        }
        if on.on("lifecycle/roots-before-initialized")
            && method(request) == Some("initialize")
            && request
                .and_then(|r| r.pointer("/params/capabilities/roots"))
                .is_some()
            && message.get("result").is_some()
        {
            before.push(json!({"jsonrpc": "2.0", "id": "fixture-roots", "method": "roots/list"}));
        }
        if message.get("id").is_some()
            && method(Some(message)) == Some("elicitation/create")
            && LEGACY_CALL.load(Ordering::Relaxed)
        {
            if on.on("elicitation/url-mode-2025") {
                message["params"] = json!({"mode": "url", "message": "Sign in to go ahead",
                    "url": "https://example.com/confirm", "elicitationId": "fixture-url"});
                return;
            }
            if on.on("sampling/tools-2025") {
                message["method"] = json!("sampling/createMessage");
                message["params"] = json!({"messages": [{"role": "user",
                    "content": {"type": "text", "text": "Go ahead?"}}], "maxTokens": 50,
                    "tools": [{"name": "lookup", "description": "Looks a word up",
                        "inputSchema": {"type": "object",
                            "properties": {"word": {"type": "string"}}}}]});
                return;
            }
        }
        if on.on("mrtr/input-responses-unchecked")
            && method(request) == Some("tools/call")
            && request
                .and_then(|r| r.pointer("/params/inputResponses"))
                .is_some_and(|r| !r.is_object())
            && message.get("error").is_some()
        {
            let id = message["id"].clone();
            *message = json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
                "content": [{"type": "text", "text": "not confirmed"}]}});
            return;
        }
        // The runtime refuses form content off its schema with -32602 naming the answer
        // (`inputResponses["key"]`): taken as it is instead.
        if on.on("elicitation/content-unchecked")
            && method(request) == Some("tools/call")
            && request
                .and_then(|r| r.pointer("/params/inputResponses"))
                .is_some_and(Value::is_object)
            && message.pointer("/error/code") == Some(&json!(-32602))
            && message
                .pointer("/error/message")
                .and_then(Value::as_str)
                .is_some_and(|m| m.contains("inputResponses["))
        {
            let id = message["id"].clone();
            *message = json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
                "content": [{"type": "text", "text": "confirmed"}]}});
            return;
        }
        if on.on("sampling/tool-result-as-text")
            && request.and_then(|r| r.pointer("/params/name")) == Some(&json!("confirm"))
        {
            tool_result_as_text(request, message);
            return;
        }
        let context = on.on("sampling/context-undeclared");
        let tools = on.on("sampling/tools-undeclared");
        if !(context || tools)
            || method(request) != Some("tools/call")
            || request.and_then(|r| r.pointer("/params/name")) != Some(&json!("confirm"))
        {
            return;
        }
        if message.pointer("/error/code") == Some(&json!(-32021))
            && let Some(required) = message
                .pointer_mut("/error/data/requiredCapabilities")
                .and_then(Value::as_object_mut)
        {
            required.insert("sampling".into(), json!({}));
            return;
        }
        if !declares(request) {
            return;
        }
        let Some(asks) = message
            .pointer_mut("/result/inputRequests")
            .and_then(Value::as_object_mut)
        else {
            return;
        };
        let mut params = json!({"messages": [{"role": "user",
            "content": {"type": "text", "text": "Summarize the request"}}], "maxTokens": 50});
        if context {
            params["includeContext"] = json!("thisServer");
        }
        if tools {
            params["tools"] = json!([{"name": "lookup", "description": "Looks a word up",
                "inputSchema": {"type": "object", "properties": {"word": {"type": "string"}}}}]);
        }
        asks.insert(
            "summary".into(),
            json!({"method": "sampling/createMessage", "params": params}),
        );
    }
}

/// What `sampling/tool-result-as-text` makes of a response to `confirm`: to a client that
/// declares `sampling.tools`, the first round also asks for sampling with a tool; the retry
/// that answers it with a tool use gets, instead of its result, another round whose sampling
/// request answers the tool use with text.
fn tool_result_as_text(request: Option<&Value>, message: &mut Value) {
    let lookup = json!([{"name": "lookup", "description": "Looks a word up",
        "inputSchema": {"type": "object", "properties": {"word": {"type": "string"}}}}]);
    let question = json!({"role": "user",
        "content": {"type": "text", "text": "Summarize the request"}});
    if let Some(used) = request
        .and_then(|r| r.pointer("/params/inputResponses/lookup"))
        .filter(|answer| answer.get("stopReason") == Some(&json!("toolUse")))
    {
        let id = message["id"].clone();
        let messages = json!([question,
            {"role": "assistant", "content": used.get("content").cloned().unwrap_or_default()},
            {"role": "user", "content": {"type": "text", "text": "The lookup found nothing"}}]);
        *message = json!({"jsonrpc": "2.0", "id": id, "result": {
            "resultType": "input_required", "inputRequests": {"lookup-2": {
                "method": "sampling/createMessage",
                "params": {"messages": messages, "maxTokens": 50, "tools": lookup}}}}});
        return;
    }
    let declares_tools = request
        .and_then(|r| {
            r.pointer("/params/_meta/io.modelcontextprotocol~1clientCapabilities/sampling/tools")
        })
        .is_some();
    if declares_tools
        && let Some(asks) = message
            .pointer_mut("/result/inputRequests")
            .and_then(Value::as_object_mut)
    {
        asks.insert(
            "lookup".into(),
            json!({"method": "sampling/createMessage", "params": {
                "messages": [question], "maxTokens": 50, "tools": lookup}}),
        );
    }
}
