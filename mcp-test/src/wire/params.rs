//! Reading one member of a request's `params`, each failure a -32602 naming the member.

use super::{ErrorObject, json_type};
use serde_json::{Map, Value};

/// The member at `path` of `params` as `read` sees it (`Value::as_str`, `Value::as_object`),
/// or `None` when it is absent. `path` names the member as the error messages do, from the
/// request's `params` (`argument.name`); its last segment is the key in `params`. A member
/// `read` refuses is -32602 *`path` must be `expected`*, naming the type it has.
pub(crate) fn optional<'a, T: ?Sized>(
    params: &'a Map<String, Value>,
    path: &str,
    read: fn(&'a Value) -> Option<&'a T>,
    expected: &str,
) -> Result<Option<&'a T>, ErrorObject> {
    let key = path.rsplit('.').next().unwrap_or(path);
    params
        .get(key)
        .map(|value| {
            read(value).ok_or_else(|| {
                ErrorObject::invalid_params(format!(
                    "Invalid params: {path} must be {expected}, got {}",
                    json_type(value)
                ))
            })
        })
        .transpose()
}

/// As [`optional`], and an absent member is -32602 *missing `path` (`what`)*.
pub(crate) fn required<'a, T: ?Sized>(
    params: &'a Map<String, Value>,
    path: &str,
    read: fn(&'a Value) -> Option<&'a T>,
    expected: &str,
    what: &str,
) -> Result<&'a T, ErrorObject> {
    optional(params, path, read, expected)?.ok_or_else(|| {
        ErrorObject::invalid_params(format!("Invalid params: missing {path} ({what})"))
    })
}
