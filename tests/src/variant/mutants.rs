//! The mutants of the variant server: one response changed at a place the official schema
//! (`mcp-test/spec/schema-2026-07-28.json`) or a clause constrains. The places are not a
//! hand-written list: [`mutations`] walks the schema from each request of `ClientRequest` to
//! its result type (`FooRequest` → `FooResult`) and takes every required field, to drop or to
//! give another JSON type, down through required objects and the first item of required
//! arrays; beside them, per method, the envelope (the `id`, the `jsonrpc`) and, for a method's
//! first error, its standard code replaced by another.

use serde_json::{Map, Value, json};

/// The official schema of 2026-07-28, as the library bundles it.
const SCHEMA: &str = include_str!("../../../mcp-test/spec/schema-2026-07-28.json");

/// How a response is changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A field the schema requires, removed.
    DropRequired,
    /// A field given a value of another JSON type than its schema's.
    WrongType,
    /// The response's `id` no longer the request's.
    WrongId,
    /// `jsonrpc` no longer `"2.0"`.
    WrongJsonrpc,
    /// An error's standard code replaced by another standard code.
    ErrorCode,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::DropRequired,
        Kind::WrongType,
        Kind::WrongId,
        Kind::WrongJsonrpc,
        Kind::ErrorCode,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::DropRequired => "drop-required",
            Kind::WrongType => "wrong-type",
            Kind::WrongId => "wrong-id",
            Kind::WrongJsonrpc => "wrong-jsonrpc",
            Kind::ErrorCode => "error-code",
        }
    }
}

/// One mutant: the first response to `method` that has the place is changed, and no other.
#[derive(Clone, Debug)]
pub struct Mutation {
    pub kind: Kind,
    /// The method whose response is changed.
    pub method: String,
    /// The place, as a JSON pointer into the response (`/result/tools/0/name`, `/id`,
    /// `/error/code`).
    pub pointer: String,
    /// The JSON type the schema gives the place (`WrongType`), else empty.
    pub schema_type: String,
}

impl Mutation {
    /// The last name of the pointer that is not an array index: what a finding would name.
    pub fn field(&self) -> &str {
        self.pointer
            .rsplit('/')
            .find(|s| !s.is_empty() && s.parse::<usize>().is_err())
            .unwrap_or("")
    }

    /// One line: kind, method, place.
    pub fn describe(&self) -> String {
        format!("{} {} {}", self.kind.name(), self.method, self.pointer)
    }

    /// Applies the mutation to `response` (the response to a `method` request), if it has the
    /// place; whether it did.
    pub fn apply(&self, response: &mut Value) -> bool {
        match self.kind {
            Kind::WrongId => match response.get_mut("id") {
                Some(id) => {
                    *id = match id {
                        Value::Number(n) => json!(n.as_i64().unwrap_or(0) + 7919),
                        Value::String(s) => json!(format!("{s}-other")),
                        _ => return false,
                    };
                    true
                }
                _ => false,
            },
            Kind::WrongJsonrpc => {
                if response.get("result").is_none() {
                    return false;
                }
                response["jsonrpc"] = json!("1.0");
                true
            }
            Kind::ErrorCode => {
                let Some(code) = response.pointer_mut("/error/code") else {
                    return false;
                };
                let Some(old) = code.as_i64() else {
                    return false;
                };
                // The standard codes (JSON-RPC 2.0 §5.1 and basic/index.mdx §Error Codes);
                // the next one in this ring is the replacement.
                const RING: [i64; 5] = [-32602, -32603, -32601, -32600, -32602];
                let Some(at) = RING.iter().position(|c| *c == old) else {
                    return false;
                };
                *code = json!(RING[at + 1]);
                true
            }
            Kind::DropRequired => {
                let (parent, last) = split(&self.pointer);
                match response.pointer_mut(parent).and_then(Value::as_object_mut) {
                    Some(object) => object.remove(last).is_some(),
                    None => false,
                }
            }
            Kind::WrongType => match response.pointer_mut(&self.pointer) {
                Some(place) => {
                    *place = other_type(&self.schema_type);
                    true
                }
                None => false,
            },
        }
    }
}

fn split(pointer: &str) -> (&str, &str) {
    match pointer.rfind('/') {
        Some(at) => (&pointer[..at], &pointer[at + 1..]),
        None => ("", pointer),
    }
}

/// A value of another JSON type than `schema_type`.
fn other_type(schema_type: &str) -> Value {
    match schema_type {
        "string" => json!(42),
        "integer" | "number" => json!("7"),
        "boolean" => json!("yes"),
        "array" => json!({"not": "an array"}),
        _ => json!("not an object"),
    }
}

/// Every mutant the schema gives, in a fixed order: per request of `ClientRequest` (the
/// listen stream's end aside: no check waits for one), its result's places, then the
/// envelope of its response, then its first error's code.
pub fn mutations() -> Vec<Mutation> {
    let schema: Value = serde_json::from_str(SCHEMA).expect("the bundled schema is JSON");
    let defs = schema["$defs"].as_object().expect("$defs");
    let mut out = Vec::new();
    let requests = defs["ClientRequest"]["anyOf"]
        .as_array()
        .expect("ClientRequest is a union");
    for request in requests {
        let name = ref_name(request).expect("a $ref");
        let Some(method) = defs[name]
            .pointer("/properties/method/const")
            .and_then(Value::as_str)
        else {
            continue;
        };
        let result = name.replace("Request", "Result");
        if method == "subscriptions/listen" || !defs.contains_key(&result) {
            continue;
        }
        walk(defs, &defs[&result], method, "/result", 0, &mut out);
        for (kind, pointer) in [(Kind::WrongId, "/id"), (Kind::WrongJsonrpc, "/jsonrpc")] {
            out.push(Mutation {
                kind,
                method: method.to_owned(),
                pointer: pointer.to_owned(),
                schema_type: String::new(),
            });
        }
        out.push(Mutation {
            kind: Kind::ErrorCode,
            method: method.to_owned(),
            pointer: "/error/code".to_owned(),
            schema_type: String::new(),
        });
    }
    out
}

fn ref_name(schema: &Value) -> Option<&str> {
    schema.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// The schema `$ref` names, or `schema` itself.
fn resolve<'a>(defs: &'a Map<String, Value>, schema: &'a Value) -> &'a Value {
    match ref_name(schema) {
        Some(name) => defs.get(name).unwrap_or(schema),
        None => schema,
    }
}

fn walk(
    defs: &Map<String, Value>,
    schema: &Value,
    method: &str,
    at: &str,
    depth: usize,
    out: &mut Vec<Mutation>,
) {
    let schema = resolve(defs, schema);
    let Some(required) = schema.get("required").and_then(Value::as_array) else {
        return;
    };
    let mut required: Vec<&str> = required.iter().filter_map(Value::as_str).collect();
    required.sort_unstable();
    for field in required {
        let Some(property) = schema.pointer(&format!("/properties/{field}")) else {
            continue;
        };
        let property = resolve(defs, property);
        let pointer = format!("{at}/{field}");
        out.push(Mutation {
            kind: Kind::DropRequired,
            method: method.to_owned(),
            pointer: pointer.clone(),
            schema_type: String::new(),
        });
        let schema_type = property.get("type").and_then(Value::as_str);
        if let Some(schema_type) = schema_type {
            out.push(Mutation {
                kind: Kind::WrongType,
                method: method.to_owned(),
                pointer: pointer.clone(),
                schema_type: schema_type.to_owned(),
            });
        }
        if depth >= 2 {
            continue;
        }
        match schema_type {
            Some("array") => {
                if let Some(items) = property.get("items") {
                    walk(defs, items, method, &format!("{pointer}/0"), depth + 1, out);
                }
            }
            _ => walk(defs, property, method, &pointer, depth + 1, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_gives_every_kind_and_every_answered_method() {
        let all = mutations();
        for kind in Kind::ALL {
            assert!(all.iter().any(|m| m.kind == kind), "no {}", kind.name());
        }
        for method in [
            "server/discover",
            "tools/list",
            "tools/call",
            "resources/read",
        ] {
            assert!(all.iter().any(|m| m.method == method), "no {method}");
        }
        assert!(
            all.iter()
                .any(|m| m.pointer == "/result/tools/0/name" && m.kind == Kind::DropRequired),
            "{all:#?}"
        );
    }

    #[test]
    fn a_mutation_changes_only_its_place() {
        let drop = Mutation {
            kind: Kind::DropRequired,
            method: "tools/list".into(),
            pointer: "/result/tools/0/name".into(),
            schema_type: String::new(),
        };
        let mut response = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {}}]}});
        assert!(drop.apply(&mut response));
        assert_eq!(
            response,
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"inputSchema": {}}]}})
        );
        assert!(!drop.apply(&mut json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}})));
    }
}
