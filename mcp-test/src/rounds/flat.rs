//! Flat elicitation schemas (spec §8): an object of string, number, integer, boolean and
//! enum fields, with only the keywords the spec allows.

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

const STRING_FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// The flat elicitation schema of `T`, or an error naming the first field that cannot be flat.
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// #[allow(dead_code)]
/// struct Login {
///     /// Your GitHub login.
///     name: String,
///     age: Option<u8>,
/// }
/// let schema = mcp_test::rounds::elicitation_schema::<Login>().unwrap();
/// assert_eq!(schema, serde_json::json!({
///     "type": "object",
///     "properties": {
///         "name": {"type": "string", "description": "Your GitHub login."},
///         "age": {"type": "integer", "minimum": 0, "maximum": 255}
///     },
///     "required": ["name"]
/// }));
///
/// #[derive(schemars::JsonSchema)]
/// #[allow(dead_code)]
/// struct Nested { inner: Login }
/// let err = mcp_test::rounds::elicitation_schema::<Nested>().unwrap_err();
/// assert!(err.to_string().contains("field `inner`"), "{err}");
/// ```
pub fn elicitation_schema<T: JsonSchema>() -> Result<Value, ElicitationSchemaError> {
    let schema = crate::schema::schema_for::<T>();
    flatten(&schema).map_err(|reason| ElicitationSchemaError {
        subject: format!("{} cannot be an elicitation form", T::schema_name()),
        reason,
    })
}

/// Checks a hand-written requested schema: it must flatten without loss of structure.
pub(crate) fn check_requested_schema(schema: &Value) -> Result<(), ElicitationSchemaError> {
    flatten(schema)
        .map(|_| ())
        .map_err(|reason| ElicitationSchemaError {
            subject: "the requested schema is not a flat elicitation schema".to_owned(),
            reason,
        })
}

/// Why a type or a requested schema cannot be a flat elicitation form: names the first field
/// that cannot be flat.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{subject}: {reason}")]
pub struct ElicitationSchemaError {
    /// What could not be a form, e.g. `Login cannot be an elicitation form`.
    subject: String,
    #[source]
    reason: FlatError,
}

/// Why a schema does not flatten.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
enum FlatError {
    #[error("the schema must be an object")]
    NotAnObject,
    #[error("the root must be {{\"type\": \"object\"}} (a struct with named fields)")]
    RootNotObject,
    #[error("`properties` must be an object")]
    PropertiesNotObject,
    #[error("field `{name}`: {source}")]
    Field { name: String, source: FieldError },
    #[error("`required` must be an array of field names")]
    RequiredNotNames,
    #[error("`required` names `{0}`, which is not a field")]
    RequiredUnknown(String),
}

/// Why one field's schema is not a flat primitive.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
enum FieldError {
    #[error("the field schema must be an object")]
    NotAnObject,
    #[error("a oneOf/anyOf field must list string constants (an enum)")]
    AlternativesNotConstants,
    #[error("an enum needs at least one value")]
    EmptyEnum,
    #[error("enum values must be strings, got {0}")]
    EnumValueNotString(Value),
    #[error("a list field needs `items`")]
    ListWithoutItems,
    #[error("a list field must be a multi-select of string constants (a Vec of an enum)")]
    ListAlternativesNotConstants,
    #[error("a list field must be a multi-select of string enum values (a Vec of an enum)")]
    ListNotEnum,
    #[error(
        "an elicitation form field must be a string, number, integer, boolean or enum, not {0} (forms are flat: no nested objects)"
    )]
    NotPrimitive(String),
    #[error(
        "the field has no single type (an elicitation form field must be a string, number, integer, boolean or enum)"
    )]
    NoSingleType,
}

fn flatten(schema: &Value) -> Result<Value, FlatError> {
    let Some(root) = schema.as_object() else {
        return Err(FlatError::NotAnObject);
    };
    if root.get("type") != Some(&Value::from("object")) {
        return Err(FlatError::RootNotObject);
    }
    let empty = Map::new();
    let properties = match root.get("properties") {
        None => &empty,
        Some(Value::Object(p)) => p,
        Some(_) => return Err(FlatError::PropertiesNotObject),
    };
    let mut out = Map::new();
    for (name, prop) in properties {
        let flat = primitive(prop).map_err(|source| FlatError::Field {
            name: name.clone(),
            source,
        })?;
        out.insert(name.clone(), flat);
    }
    let mut result = json!({"type": "object", "properties": out});
    if let Some(required) = root.get("required") {
        let Some(list) = required.as_array() else {
            return Err(FlatError::RequiredNotNames);
        };
        for r in list {
            match r.as_str() {
                Some(name) if properties.contains_key(name) => {}
                Some(name) => return Err(FlatError::RequiredUnknown(name.to_owned())),
                None => return Err(FlatError::RequiredNotNames),
            }
        }
        if !list.is_empty() {
            result["required"] = required.clone();
        }
    }
    Ok(result)
}

/// Removes `null` from a schema that allows it (an `Option` field).
fn strip_null(schema: &Value) -> Value {
    let Some(obj) = schema.as_object() else {
        return schema.clone();
    };
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alts)) = obj.get(key) {
            let rest: Vec<&Value> = alts
                .iter()
                .filter(|a| a.get("type") != Some(&Value::from("null")))
                .collect();
            if rest.len() == 1 && rest.len() < alts.len() {
                let mut merged = obj.clone();
                merged.remove(key);
                if let Some(Value::Object(inner)) = Some(rest[0].clone()) {
                    for (k, v) in inner {
                        merged.entry(k).or_insert(v);
                    }
                }
                return strip_null(&Value::Object(merged));
            }
        }
    }
    let mut obj = obj.clone();
    if let Some(Value::Array(types)) = obj.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if rest.len() == 1 {
            obj.insert("type".into(), rest[0].clone());
        }
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        let rest: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        obj.insert("enum".into(), Value::Array(rest));
    }
    if obj.get("default") == Some(&Value::Null) {
        obj.remove("default");
    }
    Value::Object(obj)
}

fn copy(from: &Map<String, Value>, to: &mut Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(v) = from.get(*key) {
            to.insert((*key).to_owned(), v.clone());
        }
    }
}

/// `[{const, title}]` from `oneOf`/`anyOf` alternatives that are each one string constant.
fn titled_consts(alts: &[Value]) -> Option<Vec<Value>> {
    alts.iter()
        .map(|alt| {
            let c = alt.get("const").or_else(|| {
                alt.get("enum")
                    .and_then(Value::as_array)
                    .filter(|e| e.len() == 1)
                    .and_then(|e| e.first())
            })?;
            let c = c.as_str()?;
            let title = alt
                .get("title")
                .or_else(|| alt.get("description"))
                .and_then(Value::as_str)
                .unwrap_or(c);
            Some(json!({"const": c, "title": title}))
        })
        .collect()
}

fn string_enum(values: &[Value]) -> Result<Vec<Value>, FieldError> {
    if values.is_empty() {
        return Err(FieldError::EmptyEnum);
    }
    values
        .iter()
        .map(|v| match v {
            Value::String(_) => Ok(v.clone()),
            other => Err(FieldError::EnumValueNotString(other.clone())),
        })
        .collect()
}

fn primitive(schema: &Value) -> Result<Value, FieldError> {
    let schema = strip_null(schema);
    let Some(obj) = schema.as_object() else {
        return Err(FieldError::NotAnObject);
    };
    let mut out = Map::new();
    copy(obj, &mut out, &["title", "description"]);
    if let Some(Value::Array(alts)) = obj.get("oneOf").or_else(|| obj.get("anyOf")) {
        let Some(options) = titled_consts(alts) else {
            return Err(FieldError::AlternativesNotConstants);
        };
        out.insert("type".into(), "string".into());
        out.insert("oneOf".into(), Value::Array(options));
        copy(obj, &mut out, &["default"]);
        return Ok(Value::Object(out));
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        out.insert("type".into(), "string".into());
        out.insert("enum".into(), Value::Array(string_enum(values)?));
        copy(obj, &mut out, &["enumNames", "default"]);
        return Ok(Value::Object(out));
    }
    if let Some(c @ Value::String(_)) = obj.get("const") {
        out.insert("type".into(), "string".into());
        out.insert("enum".into(), json!([c]));
        return Ok(Value::Object(out));
    }
    match obj.get("type").and_then(Value::as_str) {
        Some("string") => {
            out.insert("type".into(), "string".into());
            copy(obj, &mut out, &["minLength", "maxLength", "default"]);
            if let Some(Value::String(f)) = obj.get("format")
                && STRING_FORMATS.contains(&f.as_str())
            {
                out.insert("format".into(), f.as_str().into());
            }
        }
        Some(t @ ("number" | "integer")) => {
            out.insert("type".into(), t.into());
            copy(obj, &mut out, &["minimum", "maximum", "default"]);
        }
        Some("boolean") => {
            out.insert("type".into(), "boolean".into());
            copy(obj, &mut out, &["default"]);
        }
        Some("array") => {
            let items = obj
                .get("items")
                .map(strip_null)
                .ok_or(FieldError::ListWithoutItems)?;
            let items = if let Some(Value::Array(values)) = items.get("enum") {
                json!({"type": "string", "enum": string_enum(values)?})
            } else if let Some(Value::Array(alts)) =
                items.get("anyOf").or_else(|| items.get("oneOf"))
            {
                let options =
                    titled_consts(alts).ok_or(FieldError::ListAlternativesNotConstants)?;
                json!({"anyOf": options})
            } else {
                return Err(FieldError::ListNotEnum);
            };
            out.insert("type".into(), "array".into());
            out.insert("items".into(), items);
            copy(obj, &mut out, &["minItems", "maxItems", "default"]);
        }
        Some(other) => return Err(FieldError::NotPrimitive(other.to_owned())),
        None => return Err(FieldError::NoSingleType),
    }
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    enum Color {
        Red,
        Green,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    enum Size {
        /// Small cup
        S,
        /// Large cup
        L,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Order {
        /// Where to send it.
        email: String,
        count: u32,
        price: f64,
        gift: bool,
        color: Color,
        size: Option<Size>,
        extras: Vec<Color>,
        note: Option<String>,
    }

    #[test]
    fn flattens_every_primitive_kind() {
        let s = elicitation_schema::<Order>().unwrap();
        let p = &s["properties"];
        assert_eq!(
            p["email"],
            json!({"type": "string", "description": "Where to send it."})
        );
        assert_eq!(p["count"], json!({"type": "integer", "minimum": 0}));
        assert_eq!(p["price"], json!({"type": "number"}));
        assert_eq!(p["gift"], json!({"type": "boolean"}));
        assert_eq!(
            p["color"],
            json!({"type": "string", "enum": ["Red", "Green"]})
        );
        assert_eq!(
            p["size"]["oneOf"],
            json!([{"const": "S", "title": "Small cup"}, {"const": "L", "title": "Large cup"}])
        );
        assert_eq!(
            p["extras"],
            json!({"type": "array", "items": {"type": "string", "enum": ["Red", "Green"]}})
        );
        assert_eq!(p["note"], json!({"type": "string"}));
        let required: Vec<&str> = s["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut sorted = required.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            ["color", "count", "email", "extras", "gift", "price"]
        );
        assert!(!required.contains(&"size") && !required.contains(&"note"));
    }

    #[test]
    fn rejects_what_cannot_be_flat_naming_the_field() {
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct WithMap {
            tags: BTreeMap<String, String>,
        }
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct WithList {
            names: Vec<String>,
        }
        let e = elicitation_schema::<WithMap>().unwrap_err().to_string();
        assert!(
            e.contains("field `tags`") && e.contains("not object"),
            "{e}"
        );
        let e = elicitation_schema::<WithList>().unwrap_err().to_string();
        assert!(
            e.contains("field `names`") && e.contains("multi-select"),
            "{e}"
        );
        let e = elicitation_schema::<String>().unwrap_err().to_string();
        assert!(e.contains("the root must be"), "{e}");
        let e = check_requested_schema(
            &json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("`b`"), "{e}");
    }
}
