//! The probe `tools/x-mcp-header`: every `x-mcp-header` annotation of the listed tools' input
//! schemas against the constraints of basic/transports/streamable-http.mdx §Schema Extension
//! (a non-empty HTTP token, case-insensitively unique within the schema, on a primitive
//! property that is statically reachable through `properties` keys alone). A broken
//! annotation makes the tool definition invalid, whatever the transport.

use super::{Note, Out};
use crate::spec::clauses;
use crate::wire::Era;
use serde_json::Value;

/// The findings for `tools` (as `tools/list` gave them) of a server of `era`.
pub(super) fn findings(era: Era, tools: &[Value]) -> Out {
    let mut out = Vec::new();
    for tool in tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        let Some(schema) = tool.get("inputSchema") else {
            continue;
        };
        for problem in problems(schema) {
            out.push(Note::broke_in(
                era,
                &clauses::HTTP_X_MCP_HEADER,
                format!("tool {name:?}: {problem}"),
            ));
        }
    }
    out
}

/// What is wrong with the `x-mcp-header` annotations of one input schema, one line each.
fn problems(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut annotations = Vec::new();
    collect(schema, &mut Vec::new(), &mut annotations);
    let mut seen: Vec<String> = Vec::new();
    for (path, property) in annotations {
        let at = if path.is_empty() {
            "the schema root".to_owned()
        } else {
            format!("/{}", path.join("/"))
        };
        let value = &property["x-mcp-header"];
        let Some(name) = value.as_str() else {
            found.push(format!("the x-mcp-header at {at} is {value}, not a string"));
            continue;
        };
        if !reachable(&path) {
            found.push(format!(
                "the x-mcp-header {name:?} at {at} is not statically reachable (only a chain of `properties` keys from the root may lead to it)"
            ));
        }
        if name.is_empty() {
            found.push(format!("the x-mcp-header at {at} is empty"));
        } else if !name.bytes().all(is_tchar) {
            found.push(format!(
                "the x-mcp-header {name:?} at {at} is not an HTTP field-name token (1*tchar)"
            ));
        }
        let lower = name.to_ascii_lowercase();
        if seen.contains(&lower) {
            found.push(format!(
                "the x-mcp-header {name:?} at {at} repeats another of the schema (case-insensitively)"
            ));
        }
        seen.push(lower);
        if let Some(kind) = not_primitive(property) {
            found.push(format!(
                "the x-mcp-header {name:?} at {at} is on a property of type {kind}, not integer, string or boolean"
            ));
        }
    }
    found
}

/// Every object of `schema` that carries `x-mcp-header`, with the keys leading to it.
fn collect<'a>(schema: &'a Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, &'a Value)>) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("x-mcp-header") {
                out.push((path.clone(), schema));
            }
            // The keys of `properties` are property names; elsewhere `enum`, `const`,
            // `default` and `examples` hold instances, not schemas.
            let names = path.last().is_some_and(|k| k == "properties");
            for (key, value) in map {
                if !names && matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    continue;
                }
                path.push(key.clone());
                collect(value, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, value) in items.iter().enumerate() {
                path.push(i.to_string());
                collect(value, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Whether `path` is `properties/K1/properties/K2/...` from the root (and not the root).
fn reachable(path: &[String]) -> bool {
    !path.is_empty()
        && path.len().is_multiple_of(2)
        && path.chunks(2).all(|step| step[0] == "properties")
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The declared type of an annotated property when it is not one of integer, string and
/// boolean (`null` beside them is let pass); `None` when it is, or when no type is declared.
fn not_primitive(property: &Value) -> Option<String> {
    let primitive = |t: &str| matches!(t, "integer" | "string" | "boolean");
    match property.get("type")? {
        Value::String(t) if primitive(t) => None,
        Value::Array(types)
            if types
                .iter()
                .all(|t| t.as_str().is_some_and(|t| primitive(t) || t == "null")) =>
        {
            None
        }
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn well_formed_annotations_pass() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "target": {"type": "object", "properties": {
                "id": {"type": ["integer", "null"], "x-mcp-header": "Target-Id"}}},
            "dry": {"type": "boolean", "x-mcp-header": "Dry_Run"}}});
        assert_eq!(problems(&schema), Vec::<String>::new());
    }

    #[test]
    fn each_constraint_is_named() {
        let schema = json!({"type": "object",
            "properties": {
                "a": {"type": "string", "x-mcp-header": "Same"},
                "b": {"type": "string", "x-mcp-header": "same"},
                "c": {"type": "string", "x-mcp-header": ""},
                "d": {"type": "string", "x-mcp-header": "Bad Name"},
                "e": {"type": "number", "x-mcp-header": "Ratio"},
                "f": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}}},
            "$defs": {"u": {"type": "string", "x-mcp-header": "Unreached"}}});
        let found = problems(&schema).join("\n");
        for expected in [
            "\"same\" at /properties/b repeats",
            "at /properties/c is empty",
            "\"Bad Name\" at /properties/d is not an HTTP field-name token",
            "\"Ratio\" at /properties/e is on a property of type \"number\"",
            "\"Tag\" at /properties/f/items is not statically reachable",
            "\"Unreached\" at /$defs/u is not statically reachable",
        ] {
            assert!(found.contains(expected), "{expected:?} not in:\n{found}");
        }
        assert_eq!(found.lines().count(), 6, "{found}");
    }

    #[test]
    fn a_2025_era_server_gets_a_note() {
        let tools = [json!({"name": "t", "inputSchema": {"type": "object",
            "properties": {"x": {"type": "number", "x-mcp-header": "X"}}}})];
        let modern = findings(Era::Current, &tools);
        assert_eq!(modern[0].clause, Some(clauses::HTTP_X_MCP_HEADER));
        let old = findings(Era::Legacy, &tools);
        assert_eq!(old[0].clause, None);
    }
}
