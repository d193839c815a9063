//! Resources, resource templates, prompts and completion.

use super::{BOTH, Breaks, Hooks, Incoming, Switch, method};
use serde_json::{Value, json};

pub struct Resources;

/// An error response to the request `id`.
fn internal_error(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id,
           "error": {"code": -32603, "message": "Internal error"}})
}

impl Hooks for Resources {
    fn switches(&self) -> &'static [Switch] {
        &[
            Switch {
                name: "resources/read-unknown-empty",
                about: "answers resources/read of an unknown URI with empty contents",
                clause: "resources/not-found-not-empty",
                probe: "resources/not-found",
                transports: BOTH,
            },
            Switch {
                name: "resources/read-unknown-internal-error",
                about: "answers resources/read of an unknown URI with -32603",
                clause: "resources/not-found",
                probe: "resources/not-found",
                transports: BOTH,
            },
            Switch {
                name: "resources/read-non-uri-accepted",
                about: "answers resources/read of a URI with a space with contents",
                clause: "resources/validate-uris",
                probe: "resources/not-found",
                transports: BOTH,
            },
            Switch {
                name: "resources/list-error",
                about: "answers resources/list with -32603 though it declares resources",
                clause: "resources/list",
                probe: "lists/resources/list",
                transports: BOTH,
            },
            Switch {
                name: "resources/blob-not-base64",
                about: "answers resources/read of its readme with a blob that is not base64",
                clause: "resources/binary-encoded",
                probe: "resources/contents",
                transports: BOTH,
            },
            Switch {
                name: "prompts/list-error",
                about: "answers prompts/list with -32603 though it declares prompts",
                clause: "prompts/list",
                probe: "lists/prompts/list",
                transports: BOTH,
            },
            Switch {
                name: "prompts/get-unknown-internal-error",
                about: "answers prompts/get of an unknown prompt, or without its arguments, with -32603",
                clause: "prompts/errors",
                probe: "prompts/arguments",
                transports: BOTH,
            },
            Switch {
                name: "prompts/image-not-base64",
                about: "adds to its prompt an image whose data is not base64",
                clause: "prompts/image-content",
                probe: "prompts/get",
                transports: BOTH,
            },
            Switch {
                name: "resources/template-not-uri-template",
                about: "lists its template as `fixture://items/{id` (no RFC 6570 template)",
                clause: "base/schema",
                probe: "results/shape-and-cache-hints",
                transports: BOTH,
            },
            Switch {
                name: "resources/capability-undeclared",
                about: "serves its resources without declaring the `resources` capability",
                clause: "resources/capability-declared",
                probe: "capabilities/resources",
                transports: BOTH,
            },
            Switch {
                name: "prompts/capability-undeclared",
                about: "serves its prompts without declaring the `prompts` capability",
                clause: "prompts/capability-declared",
                probe: "capabilities/prompts",
                transports: BOTH,
            },
            Switch {
                name: "completion/too-many-values",
                about: "answers completion/complete with 101 values (the schema allows 100)",
                clause: "base/schema",
                probe: "results/shape-and-cache-hints",
                transports: BOTH,
            },
            Switch {
                name: "completion/unknown-prompt-empty",
                about: "answers completion/complete for an unknown prompt with no values, not -32602",
                clause: "completion/errors",
                probe: "completion/complete",
                transports: BOTH,
            },
        ]
    }

    fn incoming(&self, on: &Breaks, message: &mut Value) -> Incoming {
        if on.on("resources/read-non-uri-accepted")
            && message.get("method").and_then(Value::as_str) == Some("resources/read")
            && let Some(uri) = message.pointer("/params/uri").and_then(Value::as_str)
            && uri.contains(' ')
        {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            return Incoming::Answer(vec![json!({"jsonrpc": "2.0", "id": id,
                "result": {"resultType": "complete", "cacheScope": "private", "ttlMs": 0,
                           "contents": [{"uri": "fixture://readme", "text": "read anyway"}]}})]);
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
        let method = method(request);
        let id = message["id"].clone();
        let failed = message.pointer("/error/code") == Some(&json!(-32602));
        let succeeded = message.get("result").is_some();
        match method {
            Some("server/discover" | "initialize") if succeeded => {
                if let Some(caps) = message
                    .pointer_mut("/result/capabilities")
                    .and_then(Value::as_object_mut)
                {
                    for area in ["resources", "prompts"] {
                        if on.on(&format!("{area}/capability-undeclared")) {
                            caps.remove(area);
                        }
                    }
                }
            }
            Some("resources/read") if failed && on.on("resources/read-unknown-empty") => {
                *message = json!({"jsonrpc": "2.0", "id": id,
                    "result": {"resultType": "complete", "contents": [],
                               "cacheScope": "private", "ttlMs": 0}});
            }
            Some("resources/read") if failed && on.on("resources/read-unknown-internal-error") => {
                *message = internal_error(id);
            }
            Some("resources/read") if succeeded && on.on("resources/blob-not-base64") => {
                if let Some(item) = message.pointer_mut("/result/contents/0")
                    && let Some(item) = item.as_object_mut()
                    && item.remove("text").is_some()
                {
                    item.insert("blob".into(), json!("not base64!"));
                }
            }
            Some("resources/list") if succeeded && on.on("resources/list-error") => {
                *message = internal_error(id);
            }
            Some("prompts/list") if succeeded && on.on("prompts/list-error") => {
                *message = internal_error(id);
            }
            Some("prompts/get") if failed && on.on("prompts/get-unknown-internal-error") => {
                *message = internal_error(id);
            }
            Some("prompts/get") if succeeded && on.on("prompts/image-not-base64") => {
                if let Some(messages) = message
                    .pointer_mut("/result/messages")
                    .and_then(Value::as_array_mut)
                {
                    messages.push(json!({"role": "user", "content":
                        {"type": "image", "data": "not base64!", "mimeType": "image/png"}}));
                }
            }
            Some("resources/templates/list")
                if succeeded && on.on("resources/template-not-uri-template") =>
            {
                if let Some(template) = message.pointer_mut("/result/resourceTemplates/0") {
                    template["uriTemplate"] = json!("fixture://items/{id");
                }
            }
            Some("completion/complete") if succeeded && on.on("completion/too-many-values") => {
                let values: Vec<String> = (0..101).map(|i| format!("value-{i}")).collect();
                message["result"]["completion"] =
                    json!({"values": values, "total": 150, "hasMore": true});
            }
            Some("completion/complete") if failed && on.on("completion/unknown-prompt-empty") => {
                *message = json!({"jsonrpc": "2.0", "id": id,
                    "result": {"resultType": "complete", "completion": {"values": []}}});
            }
            _ => {}
        }
    }
}
