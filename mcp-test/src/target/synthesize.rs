//! Answers made from an input request itself, for a client that has no script: a checker
//! driving a server it knows nothing about, or schema cases of a tool that asks the user.

use serde_json::{Map, Value, json};

/// The model name a synthesized sampling answer carries.
const MODEL: &str = "mcp-test-synthesized";

/// A schema-valid answer to input request `request` (`{"method": .., "params": ..}`), or
/// `None` for a method no client answers:
///
/// | method | answer |
/// |---|---|
/// | `elicitation/create`, form mode | `accept`, with content valid against `requestedSchema`: each property's `default`, else its first `enum`/`oneOf` value, else a value inside its bounds and `format` |
/// | `elicitation/create`, URL mode | `accept` (consent) |
/// | `sampling/createMessage` | an assistant text from model `mcp-test-synthesized` |
/// | `roots/list` | no roots |
///
/// ```
/// use mcp_test::target::synthesize_answer;
/// use serde_json::json;
///
/// let form = json!({"method": "elicitation/create", "params": {"message": "Ship?",
///     "requestedSchema": {"type": "object", "required": ["email", "size"], "properties": {
///         "email": {"type": "string", "format": "email"},
///         "size": {"type": "string", "enum": ["S", "M"]},
///         "gift": {"type": "boolean", "default": true}}}}});
/// let answer = synthesize_answer(&form).unwrap();
/// assert_eq!(answer["action"], "accept");
/// assert_eq!(answer["content"]["size"], "S");
/// assert_eq!(answer["content"]["gift"], true);
/// assert!(answer["content"]["email"].as_str().unwrap().contains('@'));
///
/// let url = json!({"method": "elicitation/create", "params": {"mode": "url", "message": "Log in",
///     "url": "https://example.com/login", "elicitationId": "e1"}});
/// assert_eq!(synthesize_answer(&url).unwrap(), json!({"action": "accept"}));
/// assert_eq!(synthesize_answer(&json!({"method": "roots/list"})).unwrap(), json!({"roots": []}));
/// assert!(synthesize_answer(&json!({"method": "other/thing"})).is_none());
/// ```
pub fn synthesize_answer(request: &Value) -> Option<Value> {
    let params = request.get("params").unwrap_or(&Value::Null);
    match request.get("method").and_then(Value::as_str)? {
        "elicitation/create" => {
            if params.get("mode").and_then(Value::as_str) == Some("url") {
                return Some(json!({"action": "accept"}));
            }
            let schema = params.get("requestedSchema").unwrap_or(&Value::Null);
            Some(json!({"action": "accept", "content": form(schema)}))
        }
        "sampling/createMessage" => Some(json!({
            "role": "assistant",
            "content": {"type": "text", "text": "A synthesized answer from mcp-test."},
            "model": MODEL,
            "stopReason": "endTurn",
        })),
        "roots/list" => Some(json!({"roots": []})),
        _ => None,
    }
}

/// Content for a flat elicitation schema: every property gets a value.
fn form(schema: &Value) -> Value {
    let mut content = Map::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            content.insert(name.clone(), primitive(property));
        }
    }
    Value::Object(content)
}

/// A value valid against one primitive property schema of an elicitation form.
fn primitive(schema: &Value) -> Value {
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    if let Some(first) = schema.get("const") {
        return first.clone();
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|e| e.first())
            .and_then(|o| o.get("const"))
        {
            return first.clone();
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("boolean") => Value::Bool(true),
        Some("integer") => Value::from(integer(schema)),
        Some("number") => number(schema),
        Some("array") => array(schema),
        _ => Value::from(string(schema)),
    }
}

fn integer(schema: &Value) -> i64 {
    let min = schema.get("minimum").and_then(Value::as_f64);
    let exclusive_min = schema.get("exclusiveMinimum").and_then(Value::as_f64);
    let max = schema.get("maximum").and_then(Value::as_f64);
    let exclusive_max = schema.get("exclusiveMaximum").and_then(Value::as_f64);
    #[allow(clippy::cast_possible_truncation)]
    let low = match (min, exclusive_min) {
        (Some(m), _) => Some(m.ceil() as i64),
        (None, Some(m)) => Some(m.floor() as i64 + 1),
        (None, None) => None,
    };
    #[allow(clippy::cast_possible_truncation)]
    let high = match (max, exclusive_max) {
        (Some(m), _) => Some(m.floor() as i64),
        (None, Some(m)) => Some(m.ceil() as i64 - 1),
        (None, None) => None,
    };
    match (low, high) {
        (Some(low), _) => low,
        (None, Some(high)) => high.min(1),
        (None, None) => 1,
    }
}

fn number(schema: &Value) -> Value {
    let min = schema.get("minimum").and_then(Value::as_f64);
    let max = schema.get("maximum").and_then(Value::as_f64);
    let exclusive_min = schema.get("exclusiveMinimum").and_then(Value::as_f64);
    let exclusive_max = schema.get("exclusiveMaximum").and_then(Value::as_f64);
    let value = match (min, exclusive_min, max, exclusive_max) {
        (Some(low), _, _, _) => low,
        (None, Some(low), Some(high), _) | (None, Some(low), None, Some(high)) => {
            low + (high - low) / 2.0
        }
        (None, Some(low), None, None) => low + 1.0,
        (None, None, Some(high), _) => high.min(1.0),
        (None, None, None, Some(high)) => high.min(1.0) - 1.0,
        (None, None, None, None) => 1.0,
    };
    json!(value)
}

fn array(schema: &Value) -> Value {
    let items = schema.get("items").unwrap_or(&Value::Null);
    let min = schema
        .get("minItems")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .max(1);
    let choices: Vec<Value> = items
        .get("enum")
        .and_then(Value::as_array)
        .cloned()
        .or_else(|| {
            items.get("anyOf").and_then(Value::as_array).map(|options| {
                options
                    .iter()
                    .filter_map(|o| o.get("const").cloned())
                    .collect()
            })
        })
        .unwrap_or_default();
    let take = usize::try_from(min).unwrap_or(usize::MAX);
    Value::Array(choices.into_iter().take(take).collect())
}

fn string(schema: &Value) -> String {
    let base = match schema.get("format").and_then(Value::as_str) {
        Some("email") => "user@example.com",
        Some("uri") => "https://example.com/",
        Some("date") => "2026-01-01",
        Some("date-time") => "2026-01-01T00:00:00Z",
        _ => "answer",
    };
    let min = schema
        .get("minLength")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    let max = schema
        .get("maxLength")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok());
    let mut text = base.to_owned();
    while text.chars().count() < min {
        text.push('x');
    }
    if let Some(max) = max
        && text.chars().count() > max
    {
        text = "x".repeat(max.max(min));
    }
    text
}
