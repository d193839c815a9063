//! JSON Schemas for tool inputs and outputs, generated from Rust types with `schemars` and
//! published self-contained: draft 2020-12, subschemas inlined, no `$ref`, `$defs` or `$schema`
//! (several MCP clients reject those), keys in a deterministic (sorted) order.
//!
//! [`schema_for`] generates, [`publish`] post-processes any schema into the published form, and
//! [`check_published`] verifies a schema is in that form and valid against the 2020-12
//! meta-schema.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The names an object schema's `required` lists, in order (none when it has no such array).
pub(crate) fn required_names(schema: &Map<String, Value>) -> impl Iterator<Item = &str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The schema a local `$ref` (`#/$defs/Name`, any `#/...` JSON pointer) names in `root`, its
/// fragment percent-decoded as URIs write it (RFC 3986: `%25` is `%`). `None` for a remote
/// reference or a pointer to nothing: nothing outside the schema is fetched, as validation
/// does. The one reading of a `$ref` the schema cases, the property strategies and the
/// surface diff share.
pub(crate) fn local_ref<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let pointer = percent_encoding::percent_decode_str(fragment)
        .decode_utf8()
        .ok()?;
    root.pointer(&pointer)
}

/// The published JSON Schema of `T`: 2020-12, subschemas inlined, no `$schema`.
///
/// The schema describes what `T`'s `Deserialize` accepts (schemars reads the serde attributes):
/// renames, `Option` fields not required, defaults.
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// struct Point { x: i32, y: Option<i32> }
///
/// let schema = mcp_test::schema::schema_for::<Point>();
/// assert_eq!(schema["type"], "object");
/// assert_eq!(schema["required"], serde_json::json!(["x"]));
/// assert!(schema.get("$schema").is_none());
/// ```
pub fn schema_for<T: JsonSchema + ?Sized>() -> Value {
    let schema = settings().into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    if let Value::Object(map) = &mut value
        && map
            .get("$defs")
            .and_then(Value::as_object)
            .is_some_and(|defs| defs.is_empty())
    {
        map.remove("$defs");
    }
    value
}

/// The generator settings every published schema uses: 2020-12 with subschemas inlined and no
/// `$schema` keyword, describing what deserialization accepts.
pub fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .for_deserialize()
}

/// Post-processes a schema into its published form:
///
/// - every `$ref` into the schema's own `$defs` is replaced by the definition it names (a
///   recursive type, which cannot be inlined finitely, has its innermost self-reference replaced
///   by the unconstrained schema `{}`; argument parsing still checks those levels);
/// - `$defs`, `definitions` and `$schema` are removed;
/// - every object's keys are sorted, so the output is the same on every build (snapshot tests).
///
/// ```
/// use serde_json::json;
/// let published = mcp_test::schema::publish(json!({
///     "$schema": "https://json-schema.org/draft/2020-12/schema",
///     "type": "object",
///     "properties": {"p": {"$ref": "#/$defs/Point"}},
///     "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "integer"}}}}
/// }));
/// assert_eq!(published, json!({
///     "properties": {"p": {"properties": {"x": {"type": "integer"}}, "type": "object"}},
///     "type": "object"
/// }));
/// ```
pub fn publish(schema: Value) -> Value {
    let mut schema = schema;
    let defs = match &mut schema {
        Value::Object(map) => {
            let mut defs = Map::new();
            for key in ["$defs", "definitions"] {
                if let Some(Value::Object(d)) = map.remove(key) {
                    defs.extend(d);
                }
            }
            map.remove("$schema");
            defs
        }
        _ => Map::new(),
    };
    let mut stack = Vec::new();
    sorted(inline(schema, &defs, &mut stack))
}

fn inline(value: Value, defs: &Map<String, Value>, stack: &mut Vec<String>) -> Value {
    match value {
        Value::Object(mut map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                // `#` is the root itself: a recursive root type.
                let name = (reference == "#")
                    .then(|| "#".to_owned())
                    .or_else(|| reference.strip_prefix("#/$defs/").map(str::to_owned))
                    .or_else(|| reference.strip_prefix("#/definitions/").map(str::to_owned))
                    .map(|n| crate::validation::unescape_token(&n).into_owned());
                if let Some(name) = name {
                    map.remove("$ref");
                    let target = if name == "#" || stack.contains(&name) {
                        Value::Object(Map::new())
                    } else if let Some(def) = defs.get(&name) {
                        stack.push(name);
                        let inlined = inline(def.clone(), defs, stack);
                        stack.pop();
                        inlined
                    } else {
                        Value::Object(Map::new())
                    };
                    let rest = inline(Value::Object(map), defs, stack);
                    return merge(target, rest);
                }
            }
            Value::Object(
                map.into_iter()
                    .map(|(k, v)| (k, inline(v, defs, stack)))
                    .collect(),
            )
        }
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| inline(v, defs, stack)).collect())
        }
        other => other,
    }
}

/// Merges the keywords that sat beside a `$ref` into the inlined target. Where both have a
/// keyword, the sibling wins (it is the more specific: a field's description, a default).
fn merge(target: Value, siblings: Value) -> Value {
    match (target, siblings) {
        (Value::Object(mut target), Value::Object(siblings)) => {
            target.extend(siblings);
            Value::Object(target)
        }
        (Value::Bool(true), siblings) => siblings,
        (target, _) => target,
    }
}

/// `value` with every object's keys in order, however serde_json keeps maps.
pub(crate) fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// What a JSON value is, in words for an error message: "null", "a boolean", "a number",
/// "a string", "an array", "an object".
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Checks that `schema` is in published form: an object schema with `"type": "object"` at the
/// root, no `$ref`, `$defs` or `$schema` anywhere, and valid against the JSON Schema 2020-12
/// meta-schema. The error names the offending place.
///
/// ```
/// use serde_json::json;
/// use mcp_test::schema::check_published;
/// assert!(check_published(&json!({"type": "object", "properties": {}})).is_ok());
/// let e = check_published(&json!({"type": "object", "properties": {"a": {"$ref": "#/x"}}}));
/// assert_eq!(e.unwrap_err().to_string(), "/properties/a: `$ref` is not allowed in a published schema");
/// let e = check_published(&json!({"type": "object", "minLength": -1}));
/// assert!(e.unwrap_err().to_string().contains("meta-schema"));
/// ```
pub fn check_published(schema: &Value) -> Result<(), PublishedSchemaError> {
    if schema.get("type") != Some(&Value::from("object")) {
        return Err(PublishedSchemaError::RootNotObject);
    }
    find_forbidden(schema, "")?;
    jsonschema::draft202012::meta::validate(schema).map_err(|e| PublishedSchemaError::MetaSchema {
        at: e.instance_path().as_str().to_owned(),
        source: Box::new(e.to_owned()),
    })
}

/// Why a schema is not in published form; see [`check_published`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PublishedSchemaError {
    /// The root is not `"type": "object"`.
    #[error("the root must have \"type\": \"object\"")]
    RootNotObject,
    /// A keyword the published form leaves out (`$ref`, `$defs`, `$schema`, ...) is present.
    #[error("{at}: `{keyword}` is not allowed in a published schema")]
    Forbidden {
        /// The JSON pointer of the object holding it, or `(root)`.
        at: String,
        /// The keyword.
        keyword: &'static str,
    },
    /// The schema is not valid against the JSON Schema 2020-12 meta-schema.
    #[error("{at}: not valid against the JSON Schema 2020-12 meta-schema: {source}")]
    MetaSchema {
        /// The JSON pointer of the offending place in the schema.
        at: String,
        /// What the meta-schema rejected.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

fn find_forbidden(value: &Value, at: &str) -> Result<(), PublishedSchemaError> {
    match value {
        Value::Object(map) => {
            for key in ["$ref", "$defs", "definitions", "$schema", "$dynamicRef"] {
                if map.contains_key(key) {
                    let at = if at.is_empty() { "(root)" } else { at };
                    return Err(PublishedSchemaError::Forbidden {
                        at: at.to_owned(),
                        keyword: key,
                    });
                }
            }
            for (k, v) in map {
                find_forbidden(v, &crate::validation::join_pointer(at, k))?;
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                find_forbidden(v, &format!("{at}/{i}"))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_local_ref_is_a_percent_decoded_pointer_into_the_root() {
        let root = json!({"$defs": {"Unit": {"enum": ["c", "f"]}, "50%": {"type": "integer"},
                                    "a/b": {"type": "string"}}});
        assert_eq!(
            local_ref(&root, "#/$defs/Unit"),
            Some(&root["$defs"]["Unit"])
        );
        assert_eq!(
            local_ref(&root, "#/$defs/50%25"),
            Some(&root["$defs"]["50%"])
        );
        assert_eq!(
            local_ref(&root, "#/$defs/a~1b"),
            Some(&root["$defs"]["a/b"])
        );
        assert_eq!(local_ref(&root, "#"), Some(&root));
        assert_eq!(local_ref(&root, "#/$defs/Missing"), None);
        assert_eq!(
            local_ref(&root, "https://example.com/s.json#/$defs/Unit"),
            None
        );
        assert_eq!(
            local_ref(&root, "#/$defs/%FF"),
            None,
            "not UTF-8 once decoded"
        );
    }

    /// A recursive type cannot be inlined finitely: schemars emits `$ref`s even with inlining on.
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Tree {
        label: String,
        children: Vec<Tree>,
    }

    #[test]
    fn recursive_types_are_inlined_with_the_innermost_reference_unconstrained() {
        let raw = schema_for::<Tree>();
        assert!(
            raw.to_string().contains("$ref"),
            "schemars refers to itself: {raw}"
        );
        let published = publish(raw);
        check_published(&published).unwrap();
        assert_eq!(published["properties"]["label"]["type"], "string");
        // The root's self-reference becomes unconstrained; parsing still checks it.
        assert_eq!(published["properties"]["children"]["items"], json!({}));

        // Recursion below the root: the definition is inlined once where schemars referred
        // to it, then the reference is cut.
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Forest {
            trees: Vec<Tree>,
        }
        let published = publish(schema_for::<Forest>());
        check_published(&published).unwrap();
        let tree = &published["properties"]["trees"]["items"];
        assert_eq!(tree["properties"]["label"]["type"], "string");
        let child = &tree["properties"]["children"]["items"];
        assert_eq!(child["properties"]["label"]["type"], "string");
        assert_eq!(child["properties"]["children"]["items"], json!({}));
    }

    #[test]
    fn publish_sorts_keys_and_drops_meta_keywords() {
        let published = publish(json!({
            "type": "object",
            "$schema": "x",
            "properties": {"b": {"type": "string"}, "a": {"$ref": "#/$defs/A", "description": "d"}},
            "$defs": {"A": {"type": "integer", "description": "from def"}}
        }));
        assert_eq!(
            published.to_string(),
            r#"{"properties":{"a":{"description":"d","type":"integer"},"b":{"type":"string"}},"type":"object"}"#
        );
    }

    #[test]
    fn check_published_names_the_place() {
        assert_eq!(
            check_published(&json!({"type": "string"}))
                .unwrap_err()
                .to_string(),
            "the root must have \"type\": \"object\""
        );
        assert_eq!(
            check_published(&json!({"type": "object", "$defs": {}}))
                .unwrap_err()
                .to_string(),
            "(root): `$defs` is not allowed in a published schema"
        );
        let e = check_published(&json!({"type": "object", "properties": {"a": {"type": 5}}}))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("/properties/a/type: not valid"), "{e}");
    }
}
