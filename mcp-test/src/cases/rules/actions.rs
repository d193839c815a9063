//! Action tools: the actions of an `{action, data}` schema and the schema each one sees.

use serde_json::{Value, json};

/// The actions of an action tool (`{action: enum, data}` with `allOf` of `if`/`then` on the
/// action's `const`): each action's name and the `then` schema that applies to it.
pub(crate) fn actions(schema: &Value) -> Option<Vec<(String, Value)>> {
    let names = schema
        .pointer("/properties/action/enum")
        .and_then(Value::as_array)?;
    let all_of = schema.get("allOf").and_then(Value::as_array);
    let mut out = Vec::new();
    for name in names.iter().filter_map(Value::as_str) {
        let then = all_of
            .into_iter()
            .flatten()
            .find(|branch| {
                branch
                    .pointer("/if/properties/action/const")
                    .and_then(Value::as_str)
                    == Some(name)
            })
            .and_then(|branch| branch.get("then"))
            .cloned()
            .unwrap_or(json!({}));
        out.push((name.to_owned(), then));
    }
    Some(out)
}

/// The schema one action sees: the root with `allOf` resolved for that action.
pub(crate) fn action_schema(root: &Value, action: &str, then: &Value) -> Value {
    let mut effective = root.as_object().cloned().unwrap_or_default();
    effective.remove("allOf");
    let mut props = effective
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    props.insert("action".into(), json!({"type": "string", "const": action}));
    if let Some(Value::Object(then_props)) = then.get("properties") {
        for (k, v) in then_props {
            props.insert(k.clone(), v.clone());
        }
    }
    let data_declared = then.pointer("/properties/data").is_some();
    if !data_declared {
        props.remove("data");
    }
    effective.insert("properties".into(), Value::Object(props));
    let mut required: Vec<Value> = effective
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for r in then
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if !required.contains(r) {
            required.push(r.clone());
        }
    }
    effective.insert("required".into(), Value::Array(required));
    Value::Object(effective)
}
