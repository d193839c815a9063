//! What serving any kind of the catalog shares: reading a request's params, the cache hint of
//! a result, and the message of a handler's panic.

use crate::wire::{CacheHint, ErrorObject, json_type, params};
use serde_json::{Map, Value};
use std::any::Any;

pub(super) fn with_cache_hint(mut result: Value, hint: CacheHint) -> Value {
    result["ttlMs"] = Value::from(hint.ttl_ms);
    result["cacheScope"] = serde_json::to_value(hint.cache_scope).expect("scope serializes");
    result
}

pub(super) fn optional_string<'a>(
    params: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, ErrorObject> {
    params::optional(params, key, Value::as_str, "a string")
}

pub(super) fn required_string<'a>(
    params: &'a Map<String, Value>,
    path: &str,
    what: &str,
) -> Result<&'a str, ErrorObject> {
    params::required(params, path, Value::as_str, "a string", what)
}

pub(super) fn optional_object<'a>(
    params: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>, ErrorObject> {
    params::optional(params, key, Value::as_object, "an object")
}

pub(super) fn required_object<'a>(
    params: &'a Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<&'a Map<String, Value>, ErrorObject> {
    params::required(params, key, Value::as_object, "an object", what)
}

/// An object of strings (`prompts/get` arguments, completion context), as pairs.
pub(super) fn string_map(
    value: Option<&Value>,
    at: &str,
) -> Result<Vec<(String, String)>, ErrorObject> {
    match value {
        None => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                other => Err(ErrorObject::invalid_params(format!(
                    "Invalid params: {at}.{k} must be a string (prompt arguments are strings), got {}",
                    json_type(other)
                ))),
            })
            .collect(),
        Some(other) => Err(ErrorObject::invalid_params(format!(
            "Invalid params: {at} must be an object of strings, got {}",
            json_type(other)
        ))),
    }
}

pub(super) fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-string panic payload".to_owned())
}
