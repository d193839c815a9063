//! Local `$ref`s inlined before cases are derived: the sampler and the walk read a schema's
//! keywords where they stand, and schemars (rmcp, and most Rust servers) puts every enum and
//! nested struct behind `{"$ref": "#/$defs/Name"}`. Without this, a field behind a `$ref`
//! got a placeholder value no server accepts, and no case of its own.
//!
//! Up to draft 7 a `$ref` makes its siblings ignored, so a schema whose `$schema` names such a
//! draft gets the target alone; from 2019-09 on (and with no `$schema`: MCP's default is
//! 2020-12) the siblings apply beside the target, and are kept where the target has no keyword
//! of the same name.
//!
//! Only references into the schema itself (`#/...`, a JSON pointer) are followed, as
//! validation does (no remote `$ref` is fetched). A reference already being expanded above
//! (a recursive type) is left as it is, so the result is finite; the sampler's depth limit
//! and the validator, which still sees the original schema, handle what is left.

use serde_json::{Map, Value};
use std::borrow::Cow;

/// `schema` with every local `$ref` replaced by what it points to (its own keywords first,
/// then the referring object's other keywords that the target does not have). Borrowed when
/// the schema has no `$ref`.
pub(super) fn inline_refs(schema: &Value) -> Cow<'_, Value> {
    if !has_ref(schema) {
        return Cow::Borrowed(schema);
    }
    let siblings_apply = !schema
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|draft| {
            ["draft-03", "draft-04", "draft-06", "draft-07"]
                .iter()
                .any(|old| draft.contains(old))
        });
    let mut stack = Vec::new();
    Cow::Owned(inline(schema, schema, siblings_apply, &mut stack))
}

fn has_ref(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("$ref") || map.values().any(has_ref),
        Value::Array(items) => items.iter().any(has_ref),
        _ => false,
    }
}

fn inline(value: &Value, root: &Value, siblings_apply: bool, stack: &mut Vec<String>) -> Value {
    match value {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref").and_then(Value::as_str)
                && !stack.iter().any(|open| open == reference)
                && let Some(target) =
                    crate::schema::local_ref(root, reference).filter(|t| t.is_object())
            {
                stack.push(reference.to_owned());
                let mut merged = match inline(target, root, siblings_apply, stack) {
                    Value::Object(target) => target,
                    _ => Map::new(),
                };
                stack.pop();
                for (key, v) in map.iter().filter(|_| siblings_apply) {
                    if key != "$ref" && !merged.contains_key(key) {
                        merged.insert(key.clone(), inline(v, root, siblings_apply, stack));
                    }
                }
                return Value::Object(merged);
            }
            Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), inline(v, root, siblings_apply, stack)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| inline(v, root, siblings_apply, stack))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_ref_into_defs_is_inlined_with_its_siblings() {
        let schema = json!({
            "$defs": {"Unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
            "type": "object",
            "properties": {"to": {"$ref": "#/$defs/Unit", "description": "the unit"}}
        });
        let inlined = inline_refs(&schema);
        assert_eq!(
            inlined["properties"]["to"],
            json!({"type": "string", "enum": ["celsius", "fahrenheit"], "description": "the unit"})
        );
    }

    #[test]
    fn no_ref_borrows_and_a_recursive_ref_stops() {
        let plain = json!({"type": "object"});
        assert!(matches!(inline_refs(&plain), Cow::Borrowed(_)));
        let tree = json!({
            "$defs": {"Node": {"type": "object",
                               "properties": {"children": {"type": "array",
                                                            "items": {"$ref": "#/$defs/Node"}}}}},
            "$ref": "#/$defs/Node"
        });
        let inlined = inline_refs(&tree);
        assert_eq!(
            inlined["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/Node"})
        );
    }

    #[test]
    fn up_to_draft_7_the_siblings_of_a_ref_are_ignored() {
        let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#",
                            "definitions": {"s": {"type": "string"}},
                            "properties": {"v": {"$ref": "#/definitions/s", "maxLength": 2}}});
        assert_eq!(
            inline_refs(&schema)["properties"]["v"],
            json!({"type": "string"})
        );
    }

    #[test]
    fn a_ref_that_points_nowhere_is_kept() {
        let schema = json!({"properties": {"a": {"$ref": "#/$defs/Missing"},
                                           "b": {"$ref": "https://example.com/s.json"}}});
        let inlined = inline_refs(&schema);
        assert_eq!(inlined["properties"], schema["properties"]);
    }
}
