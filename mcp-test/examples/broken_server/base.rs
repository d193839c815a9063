//! The base protocol, lifecycle and versioning, errors, cache hints and multi-round requests.
//!
//! Several breaks key on a request only one probe sends, so that exactly that probe sees
//! them: the `tools/list` with an invalid cursor (its error: `lists/*` only asks whether it is
//! one), the `tools/call` carrying a `progressToken` and the `tools/list` carrying a log level
//! (whose results only `results/shape-and-cache-hints` looks at).

use super::{BOTH, Breaks, HTTP, Hooks, Incoming, Switch, meta, method};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub struct Base;

/// The cursor of the second page `base/scope-differs-across-pages` makes up.
const SECOND_PAGE: &str = "fixture-page-2";

/// The TCP peers (HTTP) that sent a request, for `base/stateless-first-request-refused`.
static PEERS: Mutex<BTreeSet<SocketAddr>> = Mutex::new(BTreeSet::new());

/// The `_meta` key `http_message` marks a request sent first on its connection with.
const FIRST_ON_CONNECTION: &str = "fixture/first-on-connection";

/// How many `server/discover` requests came in.
static DISCOVERS: AtomicUsize = AtomicUsize::new(0);

/// Whether `head` (HTTP) is the first request of its TCP peer among those `peers` saw, which
/// it then records; `None` when the peer is not known.
pub fn first_from_peer(
    peers: &Mutex<BTreeSet<SocketAddr>>,
    head: &http::request::Parts,
) -> Option<bool> {
    let peer = head
        .extensions
        .get::<axum::extract::ConnectInfo<SocketAddr>>()?
        .0;
    Some(peers.lock().unwrap_or_else(|e| e.into_inner()).insert(peer))
}

const fn switch(
    name: &'static str,
    about: &'static str,
    clause: &'static str,
    probe: &'static str,
    transports: &'static [&'static str],
) -> Switch {
    Switch {
        name,
        about,
        clause,
        probe,
        transports,
    }
}

/// The switch that makes the fixture a 2025-era server (`main` serves the 2025-11-25
/// handshake alone under it) which echoes any version `initialize` offers.
pub const VERSION_ECHOED: &str = "lifecycle/initialize-echoes-any-version";

const SWITCHES: &[Switch] = &[
    switch(
        "base/unknown-method-not-32601",
        "answers an unknown or removed method with -32603 instead of -32601",
        "jsonrpc/method-not-found",
        "methods/removed-and-unknown",
        BOTH,
    ),
    switch(
        "base/initialize-unanswered",
        "never answers initialize",
        "jsonrpc/response-required",
        "methods/initialize-on-a-modern-server",
        BOTH,
    ),
    switch(
        "base/initialize-result-wrong-id",
        "answers initialize with a result under another id",
        "base/result-id",
        "methods/initialize-on-a-modern-server",
        HTTP,
    ),
    switch(
        "base/initialize-error-wrong-id",
        "answers initialize with an error under another id",
        "base/error-id",
        "methods/initialize-on-a-modern-server",
        HTTP,
    ),
    switch(
        "base/initialize-error-no-versions",
        "refuses initialize without naming the versions it supports",
        "versioning/initialize-names-versions",
        "methods/initialize-on-a-modern-server",
        BOTH,
    ),
    switch(
        "base/error-code-string",
        "gives an error code as a string (the invalid-cursor error)",
        "base/error-code-integer",
        "errors/codes-and-ids",
        BOTH,
    ),
    switch(
        "base/error-without-message",
        "leaves the message out of an error (the invalid-cursor error)",
        "base/error-fields",
        "errors/codes-and-ids",
        BOTH,
    ),
    switch(
        "base/removed-error-code",
        "answers with -32042, a code 2026-07-28 removed (the invalid-cursor error)",
        "base/removed-error-codes",
        "errors/codes-and-ids",
        BOTH,
    ),
    switch(
        "base/reserved-error-code",
        "answers with -32050, reserved and undefined (the invalid-cursor error)",
        "base/reserved-error-codes",
        "errors/codes-and-ids",
        BOTH,
    ),
    switch(
        "base/result-without-result-type",
        "leaves resultType out of a tools/call result (one with a progressToken)",
        "base/result-type",
        "results/shape-and-cache-hints",
        BOTH,
    ),
    switch(
        "base/result-off-schema",
        "answers tools/call with content that is not an array (one with a progressToken)",
        "base/schema",
        "results/shape-and-cache-hints",
        BOTH,
    ),
    switch(
        "base/negative-ttl",
        "gives tools/list a negative ttlMs (one with a log level)",
        "cache/ttl-non-negative",
        "results/shape-and-cache-hints",
        BOTH,
    ),
    switch(
        "base/input-required-on-list",
        "answers tools/list with input_required (one with a log level)",
        "mrtr/supported-requests",
        "results/shape-and-cache-hints",
        BOTH,
    ),
    switch(
        "base/input-required-empty",
        "answers input_required with neither inputRequests nor requestState",
        "mrtr/requests-or-state",
        "multi-round/driven",
        BOTH,
    ),
    switch(
        "base/input-required-empty-later",
        "answers a retry that gave every answer with input_required holding neither inputRequests nor requestState",
        "mrtr/requests-or-state",
        "multi-round/driven",
        BOTH,
    ),
    switch(
        "base/missing-capability-bad-data",
        "names the missing capabilities of a -32021 in a shape ClientCapabilities does not allow",
        "base/missing-client-capability",
        "multi-round/discipline",
        BOTH,
    ),
    switch(
        "base/asks-undeclared",
        "asks for elicitation from a client that did not declare it, instead of -32021",
        "mrtr/declared-capabilities-only",
        "multi-round/discipline",
        BOTH,
    ),
    switch(
        "base/unknown-input-request",
        "puts a request of an unknown kind into inputRequests",
        "mrtr/request-kinds",
        "multi-round/driven",
        BOTH,
    ),
    switch(
        "base/tampered-state-accepted",
        "accepts a requestState that was tampered with",
        "mrtr/state-integrity",
        "multi-round/driven",
        BOTH,
    ),
    switch(
        "base/missing-answers-error",
        "answers a retry that lacks the answers asked for with an error, not a new round",
        "mrtr/ask-again",
        "multi-round/driven",
        BOTH,
    ),
    switch(
        "base/decline-internal-error",
        "fails with an internal error when the user declines or cancels an elicitation",
        "elicitation/handle-decline",
        "multi-round/driven",
        BOTH,
    ),
    switch(
        "base/unasked-answer-error",
        "fails a retry whose inputResponses answer a question it never asked",
        "mrtr/ignore-extra-responses",
        "multi-round/driven",
        BOTH,
    ),
    switch(
        "base/scope-differs-across-pages",
        "splits tools/list in two pages, private then public",
        "cache/scope-across-pages",
        "cache-hints/pages",
        BOTH,
    ),
    switch(
        "base/discover-error",
        "answers server/discover with an error (after the first one, which connecting needs)",
        "discover/implemented",
        "discovery/fields",
        BOTH,
    ),
    switch(
        "base/extension-without-prefix",
        "declares an extension whose identifier has no prefix",
        "versioning/extension-identifiers",
        "discovery/fields",
        BOTH,
    ),
    switch(
        "base/discover-no-server-info",
        "leaves serverInfo out of the discover result",
        "discover/server-info",
        "discovery/fields",
        BOTH,
    ),
    switch(
        "base/unsupported-version-32602",
        "answers an unsupported protocol version with -32602 instead of -32022",
        "versioning/unsupported-version",
        "methods/unsupported-version",
        BOTH,
    ),
    switch(
        "base/meta-not-required",
        "serves a request that lacks the _meta envelope",
        "base/meta-required",
        "methods/unsupported-version",
        BOTH,
    ),
    switch(
        "base/completions-undeclared-answered",
        "does not declare completions, yet answers completion/complete",
        "capabilities/respected",
        "capabilities/completions",
        BOTH,
    ),
    switch(
        VERSION_ECHOED,
        "serves the 2025-11-25 handshake alone, and answers initialize with whatever version was offered, one that is no revision of MCP included",
        "legacy/lifecycle/other-version",
        "lifecycle/version-negotiation",
        HTTP,
    ),
    switch(
        "base/notification-answered",
        "answers a notification (check's notifications/cancelled for no request) with a result",
        "base/no-response-to-notification",
        "base/no-response-to-notification",
        BOTH,
    ),
    switch(
        "base/extension-served-undeclared",
        "answers tasks/get (check's, for a made-up task) from a client without the tasks extension with a result",
        "versioning/extension-fallback",
        "versioning/extension-fallback",
        BOTH,
    ),
    switch(
        "base/stateless-first-request-refused",
        "refuses tools/list sent first on a TCP connection, as if server/discover had to come first",
        "base/stateless",
        "base/stateless",
        HTTP,
    ),
    switch(
        "base/parse-error-loses-next",
        "after a message that is not JSON, leaves the next request (a POST of its own) unanswered; over stdio the same is legal, a streaming reader's",
        "jsonrpc/response-required",
        "base/malformed-message",
        HTTP,
    ),
    switch(
        "base/parse-error-wrong-code",
        "answers a message that is not JSON with -32603 instead of -32700",
        "jsonrpc/parse-error",
        "base/malformed-message",
        BOTH,
    ),
    switch(
        "base/invalid-request-wrong-code",
        "answers a request without a method with -32601 instead of -32600",
        "jsonrpc/invalid-request",
        "base/invalid-request",
        BOTH,
    ),
    switch(
        "base/result-no-server-info",
        "leaves serverInfo out of the _meta of tools/list results, and only of those",
        "base/result-server-info",
        "base/result-server-info",
        BOTH,
    ),
];

/// The `reason` of the notification only `check`'s `base/no-response-to-notification` probe
/// sends (`notifications/cancelled` for no request in flight).
const NOTIFICATION_REASON: &str =
    "mcp-test check: cancels no request in flight, to see that a notification gets no response";

/// Every result names the server in `_meta`, as the runtime's own results do: a result a break
/// made up gets the name too (after every area's rewrites), so that only
/// `base/result-no-server-info` leaves it out, of `tools/list` results. The discover result is
/// left as it is (`base/discover-no-server-info` is its switch), and so is an `initialize`
/// result, a 2025-era one.
pub fn name_server(on: &Breaks, request: Option<&Value>, message: &mut Value) {
    const KEY: &str = "io.modelcontextprotocol/serverInfo";
    let asked = method(request).unwrap_or("");
    if asked == "server/discover" || asked == "initialize" {
        return;
    }
    let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(meta) = result
        .entry("_meta")
        .or_insert_with(|| json!({}))
        .as_object_mut()
    else {
        return;
    };
    if asked == "tools/list" && on.on("base/result-no-server-info") {
        meta.remove(KEY);
    } else {
        meta.entry(KEY)
            .or_insert_with(|| json!({"name": "broken-server", "version": "1.0.0"}));
    }
}

fn with_log_level(request: Option<&Value>) -> bool {
    meta(request, "io.modelcontextprotocol/logLevel").is_some()
}

fn with_progress(request: Option<&Value>) -> bool {
    meta(request, "progressToken").is_some()
}

fn invalid_cursor(request: Option<&Value>) -> bool {
    request.and_then(|r| r.pointer("/params/cursor")) == Some(&json!("mcp-test-not-a-cursor"))
}

/// Whether the request is a retry that accepts every question with an answer (as
/// `multi-round/driven` drives it), and answers nothing it was not asked.
fn answered_all(request: Option<&Value>) -> bool {
    declares(request)
        && request
            .and_then(|r| r.pointer("/params/inputResponses"))
            .and_then(Value::as_object)
            .is_some_and(|answers| {
                !answers.is_empty()
                    && !answers.contains_key("mcp-test-unasked")
                    && answers
                        .values()
                        .all(|a| a.get("action").is_none_or(|x| x == "accept"))
            })
}

/// Whether the request declares any client capability.
fn declares(request: Option<&Value>) -> bool {
    meta(request, "io.modelcontextprotocol/clientCapabilities")
        .and_then(Value::as_object)
        .is_some_and(|c| !c.is_empty())
}

/// What becomes of a message that is not JSON, before the server sees it.
pub enum Unparsable {
    /// Passed on: the server answers -32700.
    Pass,
    /// Answered here with this message.
    Answer(Value),
}

/// Set by a message that is not JSON under `base/parse-error-loses-next`: the next request
/// goes unanswered.
static LOSE_NEXT: AtomicBool = AtomicBool::new(false);

/// What `base/parse-error-*` make of a message that is not JSON.
pub fn unparsable(on: &Breaks) -> Unparsable {
    if on.on("base/parse-error-loses-next") {
        LOSE_NEXT.store(true, Ordering::Relaxed);
        Unparsable::Pass
    } else if on.on("base/parse-error-wrong-code") {
        Unparsable::Answer(json!({"jsonrpc": "2.0", "id": null,
            "error": {"code": -32603, "message": "could not read that"}}))
    } else {
        Unparsable::Pass
    }
}

impl Hooks for Base {
    fn switches(&self) -> &'static [Switch] {
        SWITCHES
    }

    fn http_message(&self, on: &Breaks, head: &mut http::request::Parts, message: &mut Value) {
        if !on.on("base/stateless-first-request-refused") {
            return;
        }
        let Some(first) = first_from_peer(&PEERS, head) else {
            return;
        };
        // Only a request whose mirrored headers agree with its body: the header probes' own
        // disagreeing requests are the runtime's to refuse.
        let agree = mcp_test::wire::build::mirrored_headers(message)
            .iter()
            .all(|(name, value)| {
                head.headers
                    .get(name.as_str())
                    .and_then(|v| v.to_str().ok())
                    == Some(value)
            });
        if first
            && agree
            && method(Some(message)) == Some("tools/list")
            && let Some(meta) = message
                .pointer_mut("/params/_meta")
                .and_then(Value::as_object_mut)
        {
            meta.insert(FIRST_ON_CONNECTION.to_owned(), json!(true));
        }
    }

    fn incoming(&self, on: &Breaks, message: &mut Value) -> Incoming {
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let name = method(Some(message)).unwrap_or("").to_owned();
        if message.get("id").is_some()
            && message.get("method").is_some()
            && LOSE_NEXT.swap(false, Ordering::Relaxed)
        {
            return Incoming::Answer(Vec::new());
        }
        if message.get("method").is_none()
            && message.get("result").is_none()
            && message.get("error").is_none()
            && on.on("base/invalid-request-wrong-code")
        {
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": "Method not found"}})]);
        }
        if name == "initialize" {
            if on.on("base/initialize-unanswered") {
                return Incoming::Answer(Vec::new());
            }
            if on.on("base/initialize-result-wrong-id") {
                let other = id.as_i64().map_or(json!("other"), |i| json!(i + 1000));
                return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": other,
                    "result": {"protocolVersion": "2025-11-25", "capabilities": {},
                               "serverInfo": {"name": "broken-server", "version": "1.0.0"}}})]);
            }
        }
        if let Some(meta) = message
            .pointer_mut("/params/_meta")
            .and_then(Value::as_object_mut)
            && meta.remove(FIRST_ON_CONNECTION).is_some()
        {
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": -32600, "message": "send server/discover on this connection first"}})]);
        }
        if name == "tasks/get"
            && on.on("base/extension-served-undeclared")
            && message.pointer("/params/taskId") == Some(&json!("mcp-test-check-fallback"))
        {
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id, "result": {
                "resultType": "complete", "taskId": "mcp-test-check-fallback",
                "status": "working"}})]);
        }
        if name == "notifications/cancelled"
            && on.on("base/notification-answered")
            && message.pointer("/params/reason") == Some(&json!(NOTIFICATION_REASON))
        {
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": null,
                "result": {"resultType": "complete"}})]);
        }
        if name == "tools/list"
            && on.on("base/meta-not-required")
            && message.pointer("/params/_meta").is_none()
            && let Some(params) = message.get_mut("params").and_then(Value::as_object_mut)
        {
            params.insert(
                "_meta".to_owned(),
                json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                       "io.modelcontextprotocol/clientCapabilities": {}}),
            );
        }
        if name == "tools/list"
            && on.on("base/scope-differs-across-pages")
            && message.pointer("/params/cursor") == Some(&json!(SECOND_PAGE))
        {
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id, "result": {
                "resultType": "complete", "tools": [], "cacheScope": "public", "ttlMs": 0}})]);
        }
        if name == "tools/call"
            && let Some(params) = message.get_mut("params").and_then(Value::as_object_mut)
        {
            if on.on("base/tampered-state-accepted")
                && let Some(Value::String(state)) = params.get_mut("requestState")
                && let Some(untampered) = state.strip_suffix("tampered")
            {
                *state = untampered.to_owned();
            }
            let refused = params
                .get("inputResponses")
                .and_then(Value::as_object)
                .is_some_and(|answers| {
                    answers.values().any(|a| {
                        matches!(
                            a.get("action").and_then(Value::as_str),
                            Some("decline" | "cancel")
                        )
                    })
                });
            if on.on("base/unasked-answer-error")
                && params
                    .get("inputResponses")
                    .and_then(Value::as_object)
                    .is_some_and(|answers| answers.contains_key("mcp-test-unasked"))
            {
                return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32602, "message": "unexpected input response"}})]);
            }
            if on.on("base/decline-internal-error") && refused {
                return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32603, "message": "the user said no"}})]);
            }
            if on.on("base/missing-answers-error")
                && params.contains_key("requestState")
                && !params.contains_key("inputResponses")
            {
                return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32602, "message": "inputResponses missing"}})]);
            }
        }
        if name == "server/discover" {
            DISCOVERS.fetch_add(1, Ordering::Relaxed);
        }
        Incoming::Pass
    }

    fn outgoing(
        &self,
        on: &Breaks,
        request: Option<&Value>,
        message: &mut Value,
        _before: &mut Vec<Value>,
    ) {
        let asked = method(request).unwrap_or("");
        if on.on(VERSION_ECHOED)
            && asked == "initialize"
            && let Some(offered) = request.and_then(|r| r.pointer("/params/protocolVersion"))
            && let Some(result) = message.get_mut("result").and_then(Value::as_object_mut)
        {
            result.insert("protocolVersion".to_owned(), offered.clone());
        }
        // On the way out, so a discover the transport refuses (a raw HTTP probe's) stays
        // refused as it was.
        if on.on("base/discover-error")
            && asked == "server/discover"
            && message.get("result").is_some()
            && DISCOVERS.load(Ordering::Relaxed) > 1
        {
            let id = message["id"].clone();
            *message = json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32603, "message": "discovery is unavailable"}});
        }
        if message.get("error").is_some() {
            let code = message.pointer("/error/code").and_then(Value::as_i64);
            // A -32021 for the tasks extension is the tasks area's (`tasks_area.rs`): the
            // multi-round switches below leave it alone.
            let for_tasks = message
                .pointer("/error/data/requiredCapabilities/extensions")
                .is_some();
            let error = &mut message["error"];
            if on.on("base/unknown-method-not-32601")
                && code == Some(-32601)
                && asked != "initialize"
            {
                error["code"] = json!(-32603);
            }
            if on.on("base/unsupported-version-32602") && code == Some(-32022) {
                error["code"] = json!(-32602);
            }
            if on.on("base/missing-capability-bad-data") && code == Some(-32021) && !for_tasks {
                error["data"] = json!({"requiredCapabilities": {"elicitation": "yes"}});
            }
            if asked == "initialize" && on.on("base/initialize-error-no-versions") {
                *error = json!({"code": -32601, "message": "Method not found"});
            }
            if invalid_cursor(request) {
                if on.on("base/error-code-string") {
                    error["code"] = json!("-32602");
                }
                if on.on("base/error-without-message")
                    && let Some(error) = error.as_object_mut()
                {
                    error.remove("message");
                }
                if on.on("base/removed-error-code") {
                    error["code"] = json!(-32042);
                }
                if on.on("base/reserved-error-code") {
                    error["code"] = json!(-32050);
                }
            }
            let id = message["id"].clone();
            if asked == "initialize" && on.on("base/initialize-error-wrong-id") {
                message["id"] = id.as_i64().map_or(json!("other"), |i| json!(i + 1000));
            }
            if asked == "tools/call"
                && code == Some(-32021)
                && !for_tasks
                && on.on("base/asks-undeclared")
            {
                *message = json!({"jsonrpc": "2.0", "id": id, "result": {
                    "resultType": "input_required",
                    "inputRequests": {"ok": {"method": "elicitation/create", "params": {
                        "mode": "form", "message": "Go ahead?",
                        "requestedSchema": {"type": "object",
                            "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}}}}});
            } else if asked == "completion/complete"
                && on.on("base/completions-undeclared-answered")
            {
                *message = json!({"jsonrpc": "2.0", "id": id,
                    "result": {"resultType": "complete", "completion": {"values": []}}});
            }
            return;
        }
        let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
            return;
        };
        match asked {
            "server/discover" => {
                if on.on("base/discover-no-server-info")
                    && let Some(meta) = result.get_mut("_meta").and_then(Value::as_object_mut)
                {
                    meta.remove("io.modelcontextprotocol/serverInfo");
                }
                if on.on("base/extension-without-prefix")
                    && let Some(caps) = result
                        .get_mut("capabilities")
                        .and_then(Value::as_object_mut)
                {
                    caps.insert("extensions".into(), json!({"tasks": {}}));
                }
                if on.on("base/completions-undeclared-answered")
                    && let Some(caps) = result
                        .get_mut("capabilities")
                        .and_then(Value::as_object_mut)
                {
                    caps.remove("completions");
                }
            }
            "tools/call" if with_progress(request) => {
                if on.on("base/result-without-result-type") {
                    result.remove("resultType");
                }
                if on.on("base/result-off-schema") {
                    result.insert("content".into(), json!("worked"));
                }
            }
            "tools/call"
                if on.on("base/input-required-empty-later")
                    && result.get("resultType") == Some(&json!("complete"))
                    && answered_all(request) =>
            {
                *result = json!({"resultType": "input_required"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default();
            }
            "tools/call" if result.get("resultType") == Some(&json!("input_required")) => {
                if on.on("base/input-required-empty") {
                    result.remove("inputRequests");
                    result.remove("requestState");
                }
                if on.on("base/unknown-input-request")
                    && declares(request)
                    && let Some(asks) = result
                        .get_mut("inputRequests")
                        .and_then(Value::as_object_mut)
                {
                    for ask in asks.values_mut() {
                        ask["method"] = json!("mcp-test/unknown-input");
                    }
                }
            }
            "tools/list"
                if on.on("base/scope-differs-across-pages")
                    && request.and_then(|r| r.pointer("/params/cursor")).is_none() =>
            {
                result.insert("cacheScope".into(), json!("private"));
                result.insert("nextCursor".into(), json!(SECOND_PAGE));
            }
            "tools/list" if with_log_level(request) => {
                if on.on("base/negative-ttl") {
                    result.insert("ttlMs".into(), json!(-1));
                }
                if on.on("base/input-required-on-list") {
                    *result = json!({"resultType": "input_required", "requestState": "x"})
                        .as_object()
                        .cloned()
                        .unwrap_or_default();
                }
            }
            _ => {}
        }
        if on.on("base/completions-undeclared-answered") && asked == "completion/complete" {
            *result = json!({"resultType": "complete", "completion": {"values": []}})
                .as_object()
                .cloned()
                .unwrap_or_default();
        }
    }
}
