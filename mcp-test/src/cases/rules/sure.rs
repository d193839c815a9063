//! Certainty: where a schema applies as it stands, and when it accepts a value for certain.

use serde_json::{Map, Value};

/// How the schema [`walk`](super::walk::walk) is at applies to the value it is at.
#[derive(Clone, Copy)]
pub(super) struct Reach {
    /// Every schema on the way from the root applies unconditionally (through `properties`,
    /// or the `items` of an array without `prefixItems`), none is a branch of `anyOf`/`oneOf`
    /// merged in by [`resolve`](super::walk::resolve), and none has a `$ref` (whose siblings
    /// drafts up to 7 ignore): a value that breaks a keyword of this schema makes the arguments invalid.
    pub(super) plain: bool,
    /// Moreover, every schema on the way has only [`PASS_THROUGH`] keywords and
    /// [`ANNOTATIONS`]: one member or item replaced by a value this schema accepts (or an
    /// optional member left out) keeps the arguments valid.
    pub(super) open: bool,
}

impl Reach {
    pub(super) const ROOT: Reach = Reach {
        plain: true,
        open: true,
    };
}

/// The keywords of a schema that judge an object or array by its members or items only one
/// at a time, through the schema of each (`properties`, `items`), or by which members are
/// present and how many items there are; with [`ANNOTATIONS`], which judge nothing.
pub(super) const PASS_THROUGH: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "$schema",
    "$id",
    "$defs",
    "definitions",
];

/// Keywords that say something about a value without judging it.
pub(super) const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

/// Whether the schema `obj` accepts `value` for certain: `value` is a string, number, boolean
/// or null, every keyword of `obj` is one this judges exactly (`type`, the numeric bounds,
/// `minLength`/`maxLength`, `enum`, annotations), and each accepts it. `false` says nothing.
pub(super) fn surely_accepts(obj: &Map<String, Value>, value: &Value) -> bool {
    let number = |v: &Value| v.as_f64().filter(|x| exact(*x));
    let chars = || value.as_str().map(|s| s.chars().count());
    obj.iter().all(|(keyword, bound)| match keyword.as_str() {
        "type" => {
            let is = |t: &str| match t {
                "string" => value.is_string(),
                "number" => value.is_number(),
                "integer" => value.is_i64() || value.is_u64(),
                "boolean" => value.is_boolean(),
                "null" => value.is_null(),
                _ => false,
            };
            match bound {
                Value::String(t) => is(t),
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(is),
                _ => false,
            }
        }
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            if !value.is_number() {
                // A bound says nothing of a value that is not a number.
                return bound.is_number();
            }
            let (Some(v), Some(b)) = (number(value), number(bound)) else {
                return false;
            };
            match keyword.as_str() {
                "minimum" => v >= b,
                "maximum" => v <= b,
                "exclusiveMinimum" => v > b,
                _ => v < b,
            }
        }
        "minLength" | "maxLength" => {
            let Some(n) = bound.as_u64() else {
                return false;
            };
            chars().is_none_or(|len| {
                let len = len as u64;
                if keyword == "minLength" {
                    len >= n
                } else {
                    len <= n
                }
            })
        }
        "enum" => bound.as_array().is_some_and(|members| {
            members.iter().any(|m| match (number(m), number(value)) {
                (Some(a), Some(b)) => a == b,
                _ => m == value && !m.is_number(),
            })
        }),
        other => ANNOTATIONS.contains(&other),
    }) && !(value.is_array() || value.is_object())
}

/// Whether `x` is small enough that one step (1, or 0.5) past it, and rounding to an integer,
/// are exact in an `f64`: then a value made that far past a bound is past it for certain.
pub(super) fn exact(x: f64) -> bool {
    x.abs() < 2f64.powi(52)
}
