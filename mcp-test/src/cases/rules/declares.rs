//! Whether an input schema declares a place at a JSON pointer, for the values a user gives.

use serde_json::Value;

use crate::validation::unescape_token;

/// Whether `schema` (inside `root`, for local `$ref`s) declares a place at `pointer`: through
/// `properties`, `items`, `prefixItems`, a local `$ref`, or any branch of `anyOf`, `oneOf`,
/// `allOf`, `then` or `else`. `additionalProperties` declares no name.
pub(super) fn declares(root: &Value, schema: &Value, pointer: &str) -> bool {
    if pointer.is_empty() {
        return true;
    }
    declares_tokens(root, schema, &tokens(pointer), 0)
}

/// The unescaped reference tokens of a non-empty JSON pointer.
pub(super) fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| unescape_token(t).into_owned())
        .collect()
}

fn declares_tokens(root: &Value, schema: &Value, tokens: &[String], depth: usize) -> bool {
    let Some((head, rest)) = tokens.split_first() else {
        return true;
    };
    let Some(obj) = schema.as_object() else {
        return false;
    };
    if depth > 32 {
        return false;
    }
    let below = |sub: &Value| declares_tokens(root, sub, rest, depth + 1);
    let here = |sub: &Value| declares_tokens(root, sub, tokens, depth + 1);
    if let Some(sub) = obj.get("properties").and_then(|p| p.get(head))
        && below(sub)
    {
        return true;
    }
    if let Ok(i) = head.parse::<usize>() {
        let item = obj
            .get("prefixItems")
            .and_then(|p| p.get(i))
            .or_else(|| obj.get("items").filter(|i| i.is_object()));
        if item.is_some_and(below) {
            return true;
        }
    }
    if let Some(target) = obj
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| crate::schema::local_ref(root, r))
        && here(target)
    {
        return true;
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = obj.get(key)
            && branches.iter().any(here)
        {
            return true;
        }
    }
    ["then", "else"]
        .iter()
        .filter_map(|k| obj.get(*k))
        .any(here)
}
