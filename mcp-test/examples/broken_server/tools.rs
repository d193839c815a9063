//! Tools: tools/call, tool definitions, names, schemas and `x-mcp-header`.

use super::{BOTH, Breaks, Hooks, Incoming, Switch, method};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Tools;

/// The tool an `x-mcp-header` switch adds to `tools/list`, with `properties` as its input
/// schema's. It has no annotations, so it is potentially destructive and `check` never calls
/// it.
fn mirror(properties: Value) -> Value {
    json!({"name": "mirror", "description": "Mirrors a header",
           "inputSchema": {"type": "object", "properties": properties}})
}

/// The tool each tool-definition switch adds to `tools/list`, if it is on.
fn added_tool(on: &Breaks) -> Option<Value> {
    let named = |name: String| {
        json!({"name": name, "description": "Echoes a text",
               "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}})
    };
    let string = |header: &str| json!({"region": {"type": "string", "x-mcp-header": header}});
    Some(if on.on("tools/name-too-long") {
        named("e".repeat(129))
    } else if on.on("tools/name-with-space") {
        named("echo text".to_owned())
    } else if on.on("tools/x-mcp-header-empty") {
        mirror(string(""))
    } else if on.on("tools/x-mcp-header-not-token") {
        mirror(string("Re gion"))
    } else if on.on("tools/x-mcp-header-control") {
        mirror(string("Re\r\ngion"))
    } else if on.on("tools/x-mcp-header-duplicate") {
        mirror(
            json!({"region": {"type": "string", "x-mcp-header": "Region"},
                      "zone": {"type": "string", "x-mcp-header": "region"}}),
        )
    } else if on.on("tools/x-mcp-header-on-number") {
        mirror(json!({"amount": {"type": "number", "x-mcp-header": "Amount"}}))
    } else if on.on("tools/x-mcp-header-in-items") {
        mirror(json!({"tags": {"type": "array",
                               "items": {"type": "string", "x-mcp-header": "Tag"}}}))
    } else {
        return None;
    })
}

/// The fixture's tool `name` stands for in upper case (`ADD`: `add`), if any.
fn known_in_upper_case(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    (lower != name && ["add", "echo", "work", "total", "confirm"].contains(&lower.as_str()))
        .then_some(lower)
}

/// The cursor of page 2 (for `tools/list-unstable-cursor`).
const PAGE_2: &str = "page-2";
/// The ids of the `tools/list` requests for page 2 in flight.
static SECOND_PAGES: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
/// How many times page 2 was asked for.
static PAGE_2_ASKED: AtomicUsize = AtomicUsize::new(0);

/// Successful `tools/list` results so far (for `tools/list-order-unstable`).
static LISTS: AtomicUsize = AtomicUsize::new(0);

/// A `tools/call` result that says it ran.
fn ran(id: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id,
           "result": {"resultType": "complete",
                      "content": [{"type": "text", "text": "ran"}]}})
}

impl Hooks for Tools {
    fn switches(&self) -> &'static [Switch] {
        &[
            Switch {
                name: "tools/capability-undeclared",
                about: "serves its tools without declaring the `tools` capability",
                clause: "tools/capability-declared",
                probe: "capabilities/tools",
                transports: BOTH,
            },
            Switch {
                name: "tools/list-error",
                about: "answers tools/list with -32603 though it declares tools",
                clause: "tools/list",
                probe: "lists/tools/list",
                transports: BOTH,
            },
            Switch {
                name: "tools/list-order-unstable",
                about: "reverses the order of its tools on every other tools/list",
                clause: "tools/deterministic-order",
                probe: "lists/tools/list",
                transports: BOTH,
            },
            Switch {
                name: "tools/list-duplicate-name",
                about: "lists its first tool twice",
                clause: "tools/names-unique",
                probe: "lists/tools/list",
                transports: BOTH,
            },
            Switch {
                name: "tools/list-invalid-cursor-accepted",
                about: "answers tools/list with an invalid cursor with the first page",
                clause: "pagination/invalid-cursor",
                probe: "lists/tools/list",
                transports: BOTH,
            },
            Switch {
                name: "tools/list-unstable-cursor",
                about: "pages tools/list two tools at a time, and its cursor gives another page the third time",
                clause: "pagination/stable-cursors",
                probe: "lists/tools/list",
                transports: BOTH,
            },
            Switch {
                name: "tools/unknown-tool-succeeds",
                about: "answers a call of a tool it does not have (check's mcp-test-no-such-tool) with a successful result",
                clause: "tools/unknown-tool-error",
                probe: "tools/definitions-and-unknown-tool",
                transports: BOTH,
            },
            Switch {
                name: "tools/optional-omitted-internal-error",
                about: "answers -32603 to a call of add that leaves out its optional `b`",
                clause: "tools/errors-in-result",
                probe: "tools/schema-cases",
                transports: BOTH,
            },
            Switch {
                name: "tools/error-empty-content",
                about: "answers a tool execution error (isError: true) with an empty content array",
                clause: "tools/errors-in-result",
                probe: "results/shape-and-cache-hints",
                transports: BOTH,
            },
            Switch {
                name: "tools/input-schema-invalid",
                about: "lists echo with `maxLength: \"forty\"` in its input schema",
                clause: "tools/input-schema",
                probe: "tools/input-schemas",
                transports: BOTH,
            },
            Switch {
                name: "tools/output-schema-invalid",
                about: "lists total with an output schema whose `type` is no JSON Schema type",
                clause: "schema/valid",
                probe: "tools/definitions-and-unknown-tool",
                transports: BOTH,
            },
            Switch {
                name: "tools/structured-content-mismatch",
                about: "answers total with structuredContent that breaks its output schema",
                clause: "tools/output-schema",
                probe: "tools/output-schema",
                transports: BOTH,
            },
            Switch {
                name: "tools/out-of-range-accepted",
                about: "runs add with `a` outside 0..=100 instead of refusing it",
                clause: "tools/validate-inputs",
                probe: "tools/schema-cases",
                transports: BOTH,
            },
            Switch {
                name: "tools/missing-required-accepted",
                about: "runs add called without its required `a`",
                clause: "tools/validate-inputs",
                probe: "tools/schema-cases",
                transports: BOTH,
            },
            Switch {
                name: "tools/inclusive-bound-refused",
                about: "refuses add with `a` = 100, its inclusive maximum",
                clause: "schema/validate-per-dialect",
                probe: "tools/schema-cases",
                transports: BOTH,
            },
            Switch {
                name: "tools/non-object-arguments-accepted",
                about: "runs a tool called with `arguments` that is not an object",
                clause: "tools/validate-inputs",
                probe: "tools/malformed-calls",
                transports: BOTH,
            },
            Switch {
                name: "tools/name-case-insensitive",
                about: "runs a tool called by its name in upper case",
                clause: "tools/name-case-sensitive",
                probe: "tools/name-case",
                transports: BOTH,
            },
            Switch {
                name: "tools/embedded-resource-undeclared",
                about: "embeds a resource in echo's results, declares no `resources` and answers resources/* with -32601",
                clause: "tools/embedded-resources-capability",
                probe: "tools/embedded-resources",
                transports: BOTH,
            },
            Switch {
                name: "tools/name-too-long",
                about: "lists a tool whose name is 129 characters long",
                clause: "tools/name-length",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
            Switch {
                name: "tools/name-with-space",
                about: "lists a tool named `echo text`",
                clause: "tools/name-characters",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
            Switch {
                name: "tools/x-mcp-header-empty",
                about: "lists a tool with an empty x-mcp-header",
                clause: "tools/x-mcp-header-not-empty",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
            Switch {
                name: "tools/x-mcp-header-not-token",
                about: "lists a tool whose x-mcp-header has a space",
                clause: "tools/x-mcp-header-token",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
            Switch {
                name: "tools/x-mcp-header-control",
                about: "lists a tool whose x-mcp-header has CR LF",
                clause: "tools/x-mcp-header-no-control",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
            Switch {
                name: "tools/x-mcp-header-duplicate",
                about: "lists a tool with x-mcp-header `Region` and `region`",
                clause: "tools/x-mcp-header-unique",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
            Switch {
                name: "tools/x-mcp-header-on-number",
                about: "lists a tool with an x-mcp-header on a `number` property",
                clause: "tools/x-mcp-header-primitive",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
            Switch {
                name: "tools/x-mcp-header-in-items",
                about: "lists a tool with an x-mcp-header under `items`",
                clause: "tools/x-mcp-header-reachable",
                probe: "tools/names-and-headers",
                transports: BOTH,
            },
        ]
    }

    fn incoming(&self, on: &Breaks, message: &mut Value) -> Incoming {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let method = method.as_deref();
        if on.on("tools/embedded-resource-undeclared")
            && method.is_some_and(|m| m.starts_with("resources/"))
        {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": "Method not found"}})]);
        }
        if method == Some("tools/list")
            && on.on("tools/list-unstable-cursor")
            && message.pointer("/params/cursor") == Some(&json!(PAGE_2))
            && let Some(params) = message.get_mut("params").and_then(Value::as_object_mut)
        {
            params.remove("cursor");
            let id = message.get("id").map(Value::to_string).unwrap_or_default();
            SECOND_PAGES.lock().expect("not poisoned").insert(id);
        }
        if method == Some("tools/list")
            && on.on("tools/list-invalid-cursor-accepted")
            && let Some(params) = message.get_mut("params").and_then(Value::as_object_mut)
        {
            params.remove("cursor");
        }
        if method != Some("tools/call") {
            return Incoming::Pass;
        }
        if on.on("tools/name-case-insensitive")
            && let Some(name) = message.pointer_mut("/params/name")
            && let Some(lower) = name.as_str().and_then(known_in_upper_case)
        {
            *name = json!(lower);
        }
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let arguments = message.pointer("/params/arguments");
        if on.on("tools/non-object-arguments-accepted") && arguments.is_some_and(|a| !a.is_object())
        {
            return Incoming::Answer(vec![ran(&id)]);
        }
        if on.on("tools/unknown-tool-succeeds")
            && message.pointer("/params/name") == Some(&json!("mcp-test-no-such-tool"))
        {
            return Incoming::Answer(vec![ran(&id)]);
        }
        if message.pointer("/params/name") != Some(&json!("add")) {
            return Incoming::Pass;
        }
        if on.on("tools/missing-required-accepted")
            && message
                .pointer("/params/arguments")
                .is_some_and(|a| a.is_object() && a.get("a").is_none())
        {
            return Incoming::Answer(vec![ran(&id)]);
        }
        let a = message
            .pointer("/params/arguments/a")
            .and_then(Value::as_i64);
        if on.on("tools/optional-omitted-internal-error")
            && a.is_some_and(|a| (0..=100).contains(&a))
            && message.pointer("/params/arguments/b").is_none()
        {
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32603, "message": "Internal error: b is missing"}})]);
        }
        if on.on("tools/out-of-range-accepted") && a.is_some_and(|a| !(0..=100).contains(&a)) {
            return Incoming::Answer(vec![ran(&id)]);
        }
        if on.on("tools/inclusive-bound-refused") && a == Some(100) {
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                "result": {"resultType": "complete", "isError": true,
                           "content": [{"type": "text", "text": "a must be below 100"}]}})]);
        }
        Incoming::Pass
    }

    fn http_request(
        &self,
        on: &Breaks,
        head: &mut http::request::Parts,
    ) -> Option<axum::response::Response> {
        // The body's name is lowered on its way in (`incoming`): so is the header that
        // mirrors it, or the server would refuse the pair as a mismatch.
        if on.on("tools/name-case-insensitive")
            && let Some(lower) = head
                .headers
                .get("mcp-name")
                .and_then(|v| v.to_str().ok())
                .and_then(known_in_upper_case)
            && let Ok(value) = http::HeaderValue::from_str(&lower)
        {
            head.headers.insert("mcp-name", value);
        }
        None
    }

    fn outgoing(
        &self,
        on: &Breaks,
        request: Option<&Value>,
        message: &mut Value,
        _before: &mut Vec<Value>,
    ) {
        let method = method(request);
        if on.on("tools/error-empty-content")
            && method == Some("tools/call")
            && let Some(result) = message.get_mut("result")
            && result.get("isError") == Some(&json!(true))
        {
            result["content"] = json!([]);
        }
        match method {
            Some("server/discover" | "initialize") if on.on("tools/capability-undeclared") => {
                if let Some(caps) = message
                    .pointer_mut("/result/capabilities")
                    .and_then(Value::as_object_mut)
                {
                    caps.remove("tools");
                }
            }
            Some("tools/list") if message.get("result").is_some() => {
                let count = LISTS.fetch_add(1, Ordering::SeqCst);
                if on.on("tools/list-error") {
                    let id = message["id"].clone();
                    *message = json!({"jsonrpc": "2.0", "id": id,
                        "error": {"code": -32603, "message": "Internal error"}});
                    return;
                }
                let Some(tools) = message
                    .pointer_mut("/result/tools")
                    .and_then(Value::as_array_mut)
                else {
                    return;
                };
                if on.on("tools/list-order-unstable") && count % 2 == 1 {
                    tools.reverse();
                }
                if on.on("tools/list-unstable-cursor") {
                    let id = message["id"].to_string();
                    let second = SECOND_PAGES.lock().expect("not poisoned").remove(&id);
                    let tools = message
                        .pointer_mut("/result/tools")
                        .and_then(Value::as_array_mut)
                        .expect("still there");
                    if second {
                        // The first two asks for page 2 get it; the third loses a tool.
                        let skip = if PAGE_2_ASKED.fetch_add(1, Ordering::SeqCst) < 2 {
                            2
                        } else {
                            3
                        };
                        tools.drain(..skip.min(tools.len()));
                    } else {
                        tools.truncate(2);
                        message["result"]["nextCursor"] = json!(PAGE_2);
                    }
                    return;
                }
                if on.on("tools/list-duplicate-name")
                    && let Some(first) = tools.first().cloned()
                {
                    tools.push(first);
                }
                if let Some(tool) = added_tool(on) {
                    tools.push(tool);
                }
                for tool in tools.iter_mut() {
                    let name = tool.get("name").and_then(Value::as_str).map(str::to_owned);
                    let name = name.as_deref();
                    if on.on("tools/input-schema-invalid") && name == Some("echo") {
                        tool["inputSchema"]["properties"]["text"]["maxLength"] = json!("forty");
                    }
                    if on.on("tools/output-schema-invalid") && name == Some("total") {
                        tool["outputSchema"]["properties"]["total"]["type"] = json!("whole");
                    }
                }
            }
            Some("server/discover") if on.on("tools/embedded-resource-undeclared") => {
                if let Some(capabilities) = message
                    .pointer_mut("/result/capabilities")
                    .and_then(Value::as_object_mut)
                {
                    capabilities.remove("resources");
                }
            }
            Some("tools/call")
                if on.on("tools/embedded-resource-undeclared")
                    && request.and_then(|r| r.pointer("/params/name")) == Some(&json!("echo")) =>
            {
                if let Some(content) = message
                    .pointer_mut("/result/content")
                    .and_then(Value::as_array_mut)
                {
                    content.push(json!({"type": "resource", "resource": {
                        "uri": "fixture://readme", "mimeType": "text/plain",
                        "text": "Each switch breaks one requirement."}}));
                }
            }
            Some("tools/call")
                if on.on("tools/structured-content-mismatch")
                    && request.and_then(|r| r.pointer("/params/name")) == Some(&json!("total"))
                    && message.pointer("/result/structuredContent").is_some() =>
            {
                message["result"]["structuredContent"]["total"] = json!("many");
            }
            _ => {}
        }
    }
}
