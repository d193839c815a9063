//! The walk of a schema beside its base value, and the mutations each keyword calls for.

use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::Arc;

use super::keywords::{ITEMS, LENGTH, SizeBounds, outside_enum, pattern_violation, resize};
use super::sure::{ANNOTATIONS, PASS_THROUGH, Reach, exact, surely_accepts};
use super::text::{Debugged, Joined, Piece};
use crate::cases::Expectation;
use crate::cases::args::Edit;
use crate::cases::sample::{
    Sampler, declared_types, fitting_examples, format_violation, is_null_schema, primary_type,
};
use crate::schema::required_names;
use crate::validation::join_pointer;

pub(super) struct Mutation {
    /// The edit of the base arguments.
    pub(super) op: Edit,
    pub(super) source: &'static str,
    pub(super) title: String,
    pub(super) rationale: String,
    pub(super) expectation: Expectation,
    /// The bound a valid mutation puts its value on (the keyword).
    pub(super) boundary: Option<&'static str>,
    /// The schema gives the outcome for certain, so checking the edited arguments against the
    /// whole schema would only say so again: an error case whose edited value breaks a keyword
    /// of a schema that applies to it as it stands (see [`Reach`]), or a valid case whose value
    /// every keyword of its schema accepts, below schemas that only look at it through
    /// `properties` or `items` (see [`Reach::open`]).
    pub(super) sure: bool,
}

/// The branch of `anyOf`/`oneOf` that `value` matches, merged with its parent's keywords;
/// the schema itself when it has neither.
fn resolve<'a>(schema: &'a Value, value: &Value) -> Cow<'a, Value> {
    let Some(obj) = schema.as_object() else {
        return Cow::Borrowed(schema);
    };
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = obj.get(key) {
            let chosen = branches
                .iter()
                .filter(|b| !is_null_schema(b))
                .find(|b| crate::cases::sample::fits(b, value));
            if let Some(branch) = chosen {
                let mut merged = obj.clone();
                merged.remove(key);
                if let Some(b) = branch.as_object() {
                    for (k, v) in b {
                        merged.insert(k.clone(), v.clone());
                    }
                }
                return Cow::Owned(Value::Object(merged));
            }
        }
    }
    Cow::Borrowed(schema)
}

fn show(ptr: &str) -> String {
    if ptr.is_empty() {
        "the arguments".to_owned()
    } else {
        text!("`", ptr, "`")
    }
}

fn wrong_type(types: &[&str], current: &Value) -> Value {
    let accepts = |t: &str| {
        types.is_empty() || types.contains(&t) || (t == "integer" && types.contains(&"number"))
    };
    let candidate = |t: &str| match t {
        "string" => json!("wrong type"),
        "integer" => json!(12345),
        "boolean" => json!(true),
        "array" => json!(["wrong type"]),
        _ => json!({"wrong": "type"}),
    };
    // Prefer a number for a string and a string for anything else: the classic slips.
    let prefer = if types.contains(&"string") {
        "integer"
    } else {
        "string"
    };
    if !accepts(prefer) {
        let value = candidate(prefer);
        if value != *current {
            return value;
        }
    }
    ["string", "integer", "boolean", "array", "object"]
        .into_iter()
        .find(|t| !accepts(t))
        .map_or(Value::Null, candidate)
}

#[allow(clippy::too_many_lines)]
pub(super) fn walk(
    schema: &Value,
    ptr: &str,
    reach: Reach,
    value: &Value,
    sampler: &mut Sampler,
    out: &mut Vec<Mutation>,
    depth: usize,
) {
    if depth > 10 {
        return;
    }
    let schema = resolve(schema, value);
    let Some(obj) = schema.as_object() else {
        return;
    };
    // Whether this schema applies to `value` as it stands, so that a value breaking one of
    // its keywords makes the whole arguments invalid: every schema on the way applies
    // unconditionally (reached through `properties`, or the `items` of an array without
    // `prefixItems`), none is a branch of `anyOf`/`oneOf` merged in by `resolve`, and none
    // has a `$ref` (whose siblings drafts up to 7 ignore).
    let here = reach.plain
        && matches!(schema, Cow::Borrowed(_))
        && !["$ref", "$dynamicRef", "$recursiveRef"]
            .iter()
            .any(|k| obj.contains_key(*k));
    let open = here && reach.open;
    // What the schemas below see: still open if this one looks at its members or items only
    // through `properties` and `items` (see `PASS_THROUGH` and `ANNOTATIONS`).
    let below = Reach {
        plain: here,
        open: open
            && obj
                .keys()
                .all(|k| PASS_THROUGH.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str())),
    };
    let err = |sure, op, source, title: String, rationale: String| Mutation {
        op,
        source,
        title,
        rationale,
        expectation: Expectation::Error,
        boundary: None,
        sure,
    };
    // A valid value on the edge of what `keyword` allows (`None`: not exactly on it).
    let edge = |op: Edit, source, keyword: Option<&'static str>, title: String, rationale| {
        let sure = match &op {
            Edit::Set(_, value) => open && surely_accepts(obj, value),
            // Leaving out a member: the schema it is a member of must not look at the count
            // or names of its members beyond `properties` and `required`.
            Edit::Remove(_) => below.open,
        };
        Mutation {
            op,
            source,
            title,
            rationale,
            expectation: Expectation::Success,
            boundary: keyword,
            sure,
        }
    };
    let at = show(ptr);
    // Why a value `bad` is rejected: "`/x` must be {allowed}; {bad} is not".
    let must_be = |allowed: &dyn Piece, bad: &dyn Piece| {
        text!(at, " must be ", allowed, "; ", bad, " is not")
    };
    let is_action = ptr == "/action";
    // The pointer every edit of this value shares.
    let node: Arc<str> = Arc::from(ptr);
    // rule:min-length, rule:max-length, rule:min-items, rule:max-items: one past each bound
    // (rejected where the value really got past it) and exactly on it; `sized(n)` is the
    // value at size n.
    let size_bounds =
        |out: &mut Vec<Mutation>, bounds: &SizeBounds, sized: &mut dyn FnMut(usize) -> Value| {
            let [min, max] = bounds
                .keywords
                .map(|key| obj.get(key).and_then(Value::as_u64).map(|m| m as usize));
            let [min_key, max_key] = bounds.keywords;
            let [min_rule, max_rule] = bounds.rules;
            for (lower, bound, keyword, rule) in [
                (true, min.filter(|&min| min > 0), min_key, min_rule),
                (
                    false,
                    max.filter(|&max| max < bounds.cap),
                    max_key,
                    max_rule,
                ),
            ] {
                let Some(bound) = bound else { continue };
                let (past, side, limit, extreme) = if lower {
                    (bound - 1, "under", "needs at least", bounds.fewest)
                } else {
                    (bound + 1, "over", "allows at most", bounds.most)
                };
                let rejected = sized(past);
                let got_past = (bounds.size)(&rejected)
                    .is_some_and(|size| if lower { size < bound } else { size > bound });
                let unit = bounds.unit;
                out.push(err(
                    here && got_past,
                    Edit::Set(Arc::clone(&node), rejected),
                    rule,
                    text!(
                        "rejects ", at, " one ", unit, " ", side, " ", keyword, " ", bound
                    ),
                    text!(at, " ", limit, " ", bound, " ", unit, "s"),
                ));
                out.push(edge(
                    Edit::Set(Arc::clone(&node), sized(bound)),
                    rule,
                    Some(keyword),
                    text!(
                        "accepts ",
                        at,
                        " ",
                        bounds.exactly,
                        " ",
                        keyword,
                        " ",
                        bound
                    ),
                    text!(bound, " ", unit, "s is the ", extreme, " ", at),
                ));
            }
        };

    // rule:type (not on the arguments object itself: that is a protocol matter).
    if !ptr.is_empty() && !is_action {
        let types = declared_types(&schema);
        let declared = !types.is_empty();
        let inferred: Vec<&str> = if types.is_empty() {
            primary_type(&schema).into_iter().collect()
        } else {
            types
        };
        if !inferred.is_empty() {
            let wrong = wrong_type(&inferred, value);
            if !wrong.is_null() {
                out.push(err(
                    here && declared,
                    Edit::Set(Arc::clone(&node), wrong.clone()),
                    "rule:type",
                    text!("rejects ", at, " of the wrong type"),
                    must_be(&Joined(&inferred, " or "), &wrong),
                ));
            }
        }
    }
    if !is_action && let Some(Value::Array(members)) = obj.get("enum") {
        // rule:enum, positive: every member is a valid value on its own.
        for member in members.iter().filter(|m| *m != value) {
            out.push(edge(
                Edit::Set(Arc::clone(&node), member.clone()),
                "rule:enum",
                None,
                text!("accepts ", at, " = ", member, ", a member of its enum"),
                text!("every member of the enum of ", at, " is a valid value"),
            ));
        }
        let outside = outside_enum(members);
        out.push(err(
            here && members.iter().filter_map(Value::as_f64).all(exact),
            Edit::Set(Arc::clone(&node), outside.clone()),
            "rule:enum",
            text!("rejects ", at, " outside its enum"),
            must_be(&text!("one of ", (Value::Array(members.clone()))), &outside),
        ));
    }
    if !is_action && let Some(c) = obj.get("const") {
        let other = match c {
            Value::String(s) => Value::String(text!(s, "-other")),
            Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) + 1.0),
            Value::Bool(b) => json!(!b),
            _ => json!("other"),
        };
        out.push(err(
            false,
            Edit::Set(Arc::clone(&node), other),
            "rule:const",
            text!("rejects ", at, " other than its const"),
            text!(at, " must be exactly ", c),
        ));
    }
    // rule:examples: every example the schema gives, beyond the one already sent.
    for (i, example) in fitting_examples(&schema).into_iter().enumerate() {
        if &example != value && !is_action {
            out.push(edge(
                Edit::Set(Arc::clone(&node), example.clone()),
                "rule:examples",
                None,
                text!("accepts example ", (i + 1), " of ", at),
                text!("the schema gives ", example, " as an example of ", at),
            ));
        }
    }

    // rule:empty: the empty string and the empty array, where the schema allows them (a case
    // the schema rejects is dropped when it is pushed).
    if !is_action && !ptr.is_empty() {
        let empty = match value {
            Value::String(s) if !s.is_empty() => Some((json!(""), "the empty string")),
            Value::Array(a) if !a.is_empty() => Some((json!([]), "the empty array")),
            _ => None,
        };
        if let Some((empty, what)) = empty {
            out.push(edge(
                Edit::Set(Arc::clone(&node), empty),
                "rule:empty",
                None,
                text!("accepts ", at, " as ", what),
                text!("the schema of ", at, " allows ", what),
            ));
        }
    }

    match value {
        Value::String(current) => {
            size_bounds(out, &LENGTH, &mut |n| Value::String(resize(current, n)));
            if let Some(pattern) = obj.get("pattern").and_then(Value::as_str)
                && let Some(bad) = pattern_violation(&schema, current)
            {
                out.push(err(
                    false,
                    Edit::Set(Arc::clone(&node), json!(bad)),
                    "rule:pattern",
                    text!("rejects ", at, " not matching its pattern"),
                    text!(
                        at,
                        " must match /",
                        pattern,
                        "/; ",
                        Debugged(&bad),
                        " does not"
                    ),
                ));
            }
            if let Some(format) = obj.get("format").and_then(Value::as_str)
                && let Some(bad) = format_violation(format)
            {
                out.push(err(
                    false,
                    Edit::Set(Arc::clone(&node), json!(bad)),
                    "rule:format",
                    text!("rejects ", at, " not in format ", format),
                    must_be(&text!("a valid ", format), &Debugged(&bad)),
                ));
            }
        }
        Value::Number(_) => {
            let is_int = primary_type(&schema) == Some("integer");
            let step = if is_int { 1.0 } else { 0.5 };
            let num = |k: &str| obj.get(k).and_then(Value::as_f64);
            let mk = |x: f64| {
                if is_int { json!(x as i64) } else { json!(x) }
            };
            // rule:bounds: past each bound (rejected) and the nearest value it allows.
            for (keyword, lower, exclusive, relation) in [
                ("minimum", true, false, ">="),
                ("maximum", false, false, "<="),
                ("exclusiveMinimum", true, true, ">"),
                ("exclusiveMaximum", false, true, "<"),
            ] {
                let Some(m) = num(keyword) else { continue };
                // `outward` steps away from the values the bound allows.
                let (outward, past, inside, extreme) = if lower {
                    (-step, "under", "over", "smallest")
                } else {
                    (step, "over", "under", "largest")
                };
                let (rejected, accepted) = if exclusive {
                    (m, m - outward)
                } else {
                    (m + outward, m)
                };
                out.push(err(
                    here && exact(m) && (!exclusive || m.fract() == 0.0),
                    Edit::Set(Arc::clone(&node), mk(rejected)),
                    "rule:bounds",
                    if exclusive {
                        text!("rejects ", at, " equal to ", keyword, " ", m)
                    } else {
                        text!("rejects ", at, " just ", past, " ", keyword, " ", m)
                    },
                    text!(at, " must be ", relation, " ", m),
                ));
                out.push(edge(
                    Edit::Set(Arc::clone(&node), mk(accepted)),
                    "rule:bounds",
                    if exclusive {
                        is_int.then_some(keyword)
                    } else {
                        Some(keyword)
                    },
                    if exclusive {
                        text!("accepts ", at, " just ", inside, " ", keyword, " ", m)
                    } else {
                        text!("accepts ", at, " at exactly ", keyword, " ", m)
                    },
                    text!(accepted, " is the ", extreme, " allowed ", at),
                ));
            }
        }
        Value::Array(items) => {
            size_bounds(out, &ITEMS, &mut |n| sampler.items_of(&schema, n));
            if obj.get("uniqueItems") == Some(&Value::Bool(true))
                && let Some(first) = items.first()
            {
                let mut dup = items.clone();
                if dup.len() < 2 {
                    dup.push(first.clone());
                } else {
                    dup[1] = first.clone();
                }
                out.push(err(
                    here,
                    Edit::Set(Arc::clone(&node), Value::Array(dup)),
                    "rule:unique-items",
                    text!("rejects ", at, " with a duplicated item"),
                    text!("the items of ", at, " must be unique"),
                ));
            }
            let prefix = obj.get("prefixItems").and_then(Value::as_array);
            for (i, item) in items.iter().enumerate() {
                let item_schema = match prefix.and_then(|p| p.get(i)) {
                    Some(s) => s.clone(),
                    None if i == 0 => obj.get("items").cloned().unwrap_or(json!({})),
                    None => break,
                };
                walk(
                    &item_schema,
                    &join_pointer(ptr, &i.to_string()),
                    Reach {
                        plain: below.plain && prefix.is_none(),
                        open: below.open && prefix.is_none(),
                    },
                    item,
                    sampler,
                    out,
                    depth + 1,
                );
            }
        }
        Value::Object(map) => {
            let required: Vec<&str> = required_names(obj).collect();
            for name in &required {
                let p = join_pointer(ptr, name);
                out.push(err(
                    here,
                    Edit::Remove(p.as_str().into()),
                    "rule:required",
                    text!("rejects a missing `", p, "`"),
                    text!(
                        Debugged(&name),
                        " is required in ",
                        at,
                        "; the server should reject its absence"
                    ),
                ));
            }
            // rule:optional: each optional property left out on its own.
            for name in map.keys().filter(|n| !required.contains(&n.as_str())) {
                let p = join_pointer(ptr, name);
                out.push(edge(
                    Edit::Remove(p.as_str().into()),
                    "rule:optional",
                    None,
                    text!("accepts no `", p, "`, an optional property"),
                    text!(
                        Debugged(&name),
                        " is not required in ",
                        at,
                        ": it may be left out"
                    ),
                ));
            }
            let props = obj.get("properties").and_then(Value::as_object);
            let unknown = join_pointer(ptr, "unexpected_property");
            match obj.get("additionalProperties") {
                Some(Value::Bool(false)) => out.push(err(
                    here
                        && !obj.contains_key("patternProperties")
                        && !props.is_some_and(|p| p.contains_key("unexpected_property")),
                    Edit::Set(unknown.as_str().into(), json!("surprise")),
                    "rule:additional-properties",
                    text!("rejects an unknown property `", unknown, "`"),
                    text!(at, " has additionalProperties: false"),
                )),
                None if ptr.is_empty() => out.push(Mutation {
                    op: Edit::Set(unknown.as_str().into(), json!("surprise")),
                    source: "rule:additional-properties",
                    title: text!("observes an unknown property `", unknown, "`"),
                    rationale: text!(at, " does not forbid unknown properties; what the server does with one is its own choice"),
                    expectation: Expectation::Observe,
                    boundary: None,
                    sure: false,
                }),
                _ => {}
            }
            for (name, sub_value) in map {
                if let Some(sub_schema) = props.and_then(|p| p.get(name)) {
                    walk(
                        sub_schema,
                        &join_pointer(ptr, name),
                        below,
                        sub_value,
                        sampler,
                        out,
                        depth + 1,
                    );
                }
            }
        }
        _ => {}
    }
}
