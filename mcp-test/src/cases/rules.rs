//! The rules: from one tool's input schema to base, boundary and negative cases.

use serde_json::{Map, Value, json};
use std::collections::HashSet;

use super::sample::{Sampler, declared_types, format_violation, is_null_schema, primary_type};
use super::{Case, CaseOptions, DeriveError, Expectation};
use crate::validation::{SchemaValidator, describe, join_pointer};

/// One edit of the base arguments.
enum Op {
    Set(String, Value),
    Remove(String),
}

struct Mutation {
    op: Op,
    source: &'static str,
    title: String,
    rationale: String,
    expectation: Expectation,
}

/// The actions of an action tool (`{action: enum, data}` with `allOf` of `if`/`then` on the
/// action's `const`): each action's name and the `then` schema that applies to it.
fn actions(schema: &Value) -> Option<Vec<(String, Value)>> {
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
fn action_schema(root: &Value, action: &str, then: &Value) -> Value {
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

pub(super) fn derive(
    tool: &str,
    schema: &Value,
    options: &CaseOptions,
) -> Result<Vec<Case>, DeriveError> {
    let problem = |action: Option<&str>, message: String| DeriveError {
        tool: tool.to_owned(),
        action: action.map(str::to_owned),
        message,
    };
    let validator = SchemaValidator::new(schema)
        .map_err(|e| problem(None, format!("the input schema does not compile: {e}")))?;
    let mut sampler = Sampler::new(options.seed);
    let mut cases = Vec::new();
    match actions(schema) {
        Some(actions) if !actions.is_empty() => {
            for (action, then) in &actions {
                let effective = action_schema(schema, action, then);
                let ctx = Ctx {
                    tool,
                    action: Some(action),
                    validator: &validator,
                };
                ctx.derive_from(&effective, &mut sampler, options, &mut cases)
                    .map_err(|e| problem(Some(action), e.to_string()))?;
            }
            if options.edge_cases {
                // One unknown action per tool (the action is the enum under test).
                let ctx = Ctx {
                    tool,
                    action: None,
                    validator: &validator,
                };
                let mut args = cases
                    .iter()
                    .find(|c: &&Case| c.expectation == Expectation::Success)
                    .map(|c| c.args.clone())
                    .unwrap_or(json!({}));
                args["action"] = json!("no_such_action");
                ctx.push(
                    &mut cases,
                    args,
                    Expectation::Error,
                    "rule:enum",
                    "rejects an unknown action".into(),
                    "\"action\" must be one of the declared actions; the server should reject any other"
                        .into(),
                );
            }
        }
        _ => {
            let ctx = Ctx {
                tool,
                action: None,
                validator: &validator,
            };
            ctx.derive_from(schema, &mut sampler, options, &mut cases)
                .map_err(|e| problem(None, e.to_string()))?;
        }
    }
    Ok(dedup(cases))
}

fn dedup(cases: Vec<Case>) -> Vec<Case> {
    let mut seen = HashSet::new();
    let mut titles = HashSet::new();
    let mut out = Vec::new();
    for mut case in cases {
        let key = (case.tool.clone(), case.args.to_string(), case.expectation);
        if !seen.insert(key) {
            continue;
        }
        let base = case.title.clone();
        let mut n = 2;
        while !titles.insert((case.tool.clone(), case.title.clone())) {
            case.title = format!("{base} ({n})");
            n += 1;
        }
        out.push(case);
    }
    out
}

/// No arguments the generator tried satisfy the schema (e.g. a `pattern` it cannot meet
/// together with `maxLength`).
#[derive(Debug, thiserror::Error)]
#[error("no valid arguments could be derived; the best attempt {attempt} fails:\n{violations}")]
struct NoValidArguments {
    /// The fullest arguments tried.
    attempt: Value,
    /// Why the schema rejects them.
    violations: String,
}

struct Ctx<'a> {
    tool: &'a str,
    action: Option<&'a str>,
    validator: &'a SchemaValidator,
}

impl Ctx<'_> {
    fn derive_from(
        &self,
        schema: &Value,
        sampler: &mut Sampler,
        options: &CaseOptions,
        cases: &mut Vec<Case>,
    ) -> Result<(), NoValidArguments> {
        let full = sampler.value(schema, 0);
        let minimal = minimal(schema, &full);
        let base = if self.validator.is_valid(&full) {
            full
        } else if self.validator.is_valid(&minimal) {
            minimal.clone()
        } else {
            return Err(NoValidArguments {
                violations: describe(&self.validator.violations(&full)),
                attempt: full,
            });
        };
        self.push(
            cases,
            base.clone(),
            Expectation::Success,
            "rule:base",
            "accepts valid arguments".into(),
            "every property filled with a value that satisfies every constraint".into(),
        );
        if !options.edge_cases {
            return Ok(());
        }
        if minimal != base {
            self.push(
                cases,
                minimal,
                Expectation::Success,
                "rule:required",
                "accepts only the required properties".into(),
                "optional properties may be left out".into(),
            );
        }
        let mut mutations = Vec::new();
        walk(schema, "", &base, sampler, &mut mutations, 0);
        for m in mutations {
            let mut args = base.clone();
            let applied = match &m.op {
                Op::Set(ptr, v) => set(&mut args, ptr, v.clone()),
                Op::Remove(ptr) => remove(&mut args, ptr),
            };
            if applied {
                self.push(cases, args, m.expectation, m.source, m.title, m.rationale);
            }
        }
        Ok(())
    }

    /// Adds a case if its prediction agrees with the real schema: a success (or observed) case
    /// must be valid, an error case invalid. Mutations the schema does not catch are dropped.
    fn push(
        &self,
        cases: &mut Vec<Case>,
        args: Value,
        expectation: Expectation,
        source: &str,
        title: String,
        rationale: String,
    ) {
        let valid = self.validator.is_valid(&args);
        let keep = match expectation {
            Expectation::Success => valid,
            Expectation::Error => !valid,
            Expectation::Observe => true,
        };
        if !keep {
            return;
        }
        let title = match self.action {
            Some(a) => format!("{a}: {title}"),
            None => title,
        };
        cases.push(Case {
            tool: self.tool.to_owned(),
            title,
            args,
            expectation,
            rationale,
            source: source.to_owned(),
        });
    }
}

/// The base with every optional property removed, recursively.
fn minimal(schema: &Value, value: &Value) -> Value {
    let (Some(obj), Value::Object(map)) = (schema.as_object(), value) else {
        return value.clone();
    };
    let required: HashSet<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let props = obj.get("properties").and_then(Value::as_object);
    let mut out = Map::new();
    for (k, v) in map {
        if required.contains(k.as_str()) {
            let sub = props.and_then(|p| p.get(k)).cloned().unwrap_or(json!({}));
            out.insert(k.clone(), minimal(&sub, v));
        }
    }
    Value::Object(out)
}

/// The branch of `anyOf`/`oneOf` that `value` matches, merged with its parent's keywords.
fn resolve(schema: &Value, value: &Value) -> Value {
    let Some(obj) = schema.as_object() else {
        return schema.clone();
    };
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = obj.get(key) {
            let chosen = branches
                .iter()
                .filter(|b| !is_null_schema(b))
                .find(|b| super::sample::fits(b, value));
            if let Some(branch) = chosen {
                let mut merged = obj.clone();
                merged.remove(key);
                if let Some(b) = branch.as_object() {
                    for (k, v) in b {
                        merged.insert(k.clone(), v.clone());
                    }
                }
                return Value::Object(merged);
            }
        }
    }
    schema.clone()
}

fn show(ptr: &str) -> String {
    if ptr.is_empty() {
        "the arguments".to_owned()
    } else {
        format!("`{ptr}`")
    }
}

fn wrong_type(types: &[String], current: &Value) -> Value {
    let accepts = |t: &str| {
        types.is_empty()
            || types.iter().any(|d| d == t)
            || (t == "integer" && types.iter().any(|d| d == "number"))
    };
    let candidates = [
        ("string", json!("wrong type")),
        ("integer", json!(12345)),
        ("boolean", json!(true)),
        ("array", json!(["wrong type"])),
        ("object", json!({"wrong": "type"})),
    ];
    // Prefer a number for a string and a string for anything else: the classic slips.
    let prefer = if types.iter().any(|t| t == "string") {
        "integer"
    } else {
        "string"
    };
    candidates
        .iter()
        .find(|(t, v)| *t == prefer && !accepts(t) && v != current)
        .or_else(|| candidates.iter().find(|(t, _)| !accepts(t)))
        .map_or(Value::Null, |(_, v)| v.clone())
}

#[allow(clippy::too_many_lines)]
fn walk(
    schema: &Value,
    ptr: &str,
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
    let err = |op, source, title: String, rationale: String| Mutation {
        op,
        source,
        title,
        rationale,
        expectation: Expectation::Error,
    };
    let ok = |op, source, title: String, rationale: String| Mutation {
        op,
        source,
        title,
        rationale,
        expectation: Expectation::Success,
    };
    let at = show(ptr);
    let is_action = ptr == "/action";

    // rule:type (not on the arguments object itself: that is a protocol matter).
    if !ptr.is_empty() && !is_action {
        let types = declared_types(&schema);
        let inferred: Vec<String> = if types.is_empty() {
            primary_type(&schema).into_iter().collect()
        } else {
            types
        };
        if !inferred.is_empty() {
            let wrong = wrong_type(&inferred, value);
            if !wrong.is_null() {
                out.push(err(
                    Op::Set(ptr.to_owned(), wrong.clone()),
                    "rule:type",
                    format!("rejects {at} of the wrong type"),
                    format!("{at} must be {}; {wrong} is not", inferred.join(" or ")),
                ));
            }
        }
    }
    if !is_action && let Some(Value::Array(members)) = obj.get("enum") {
        let outside = outside_enum(members);
        out.push(err(
            Op::Set(ptr.to_owned(), outside.clone()),
            "rule:enum",
            format!("rejects {at} outside its enum"),
            format!(
                "{at} must be one of {}; {outside} is not",
                Value::Array(members.clone())
            ),
        ));
    }
    if !is_action && let Some(c) = obj.get("const") {
        let other = match c {
            Value::String(s) => json!(format!("{s}-other")),
            Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) + 1.0),
            Value::Bool(b) => json!(!b),
            _ => json!("other"),
        };
        out.push(err(
            Op::Set(ptr.to_owned(), other),
            "rule:const",
            format!("rejects {at} other than its const"),
            format!("{at} must be exactly {c}"),
        ));
    }

    match value {
        Value::String(current) => {
            let min = obj
                .get("minLength")
                .and_then(Value::as_u64)
                .map(|m| m as usize);
            let max = obj
                .get("maxLength")
                .and_then(Value::as_u64)
                .map(|m| m as usize);
            if let Some(min) = min
                && min > 0
            {
                out.push(err(
                    Op::Set(ptr.to_owned(), json!(resize(current, min - 1))),
                    "rule:min-length",
                    format!("rejects {at} one character under minLength {min}"),
                    format!("{at} needs at least {min} characters"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), json!(resize(current, min))),
                    "rule:min-length",
                    format!("accepts {at} of exactly minLength {min}"),
                    format!("{min} characters is the shortest allowed {at}"),
                ));
            }
            if let Some(max) = max
                && max < 10_000
            {
                out.push(err(
                    Op::Set(ptr.to_owned(), json!(resize(current, max + 1))),
                    "rule:max-length",
                    format!("rejects {at} one character over maxLength {max}"),
                    format!("{at} allows at most {max} characters"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), json!(resize(current, max))),
                    "rule:max-length",
                    format!("accepts {at} of exactly maxLength {max}"),
                    format!("{max} characters is the longest allowed {at}"),
                ));
            }
            if let Some(pattern) = obj.get("pattern").and_then(Value::as_str)
                && let Some(bad) = pattern_violation(&schema, current)
            {
                out.push(err(
                    Op::Set(ptr.to_owned(), json!(bad)),
                    "rule:pattern",
                    format!("rejects {at} not matching its pattern"),
                    format!("{at} must match /{pattern}/; {bad:?} does not"),
                ));
            }
            if let Some(format) = obj.get("format").and_then(Value::as_str)
                && let Some(bad) = format_violation(format)
            {
                out.push(err(
                    Op::Set(ptr.to_owned(), json!(bad)),
                    "rule:format",
                    format!("rejects {at} not in format {format}"),
                    format!("{at} must be a valid {format}; {bad:?} is not"),
                ));
            }
        }
        Value::Number(_) => {
            let is_int = primary_type(&schema).as_deref() == Some("integer");
            let step = if is_int { 1.0 } else { 0.5 };
            let num = |k: &str| obj.get(k).and_then(Value::as_f64);
            let mk = |x: f64| {
                if is_int { json!(x as i64) } else { json!(x) }
            };
            if let Some(m) = num("minimum") {
                out.push(err(
                    Op::Set(ptr.to_owned(), mk(m - step)),
                    "rule:bounds",
                    format!("rejects {at} just under minimum {m}"),
                    format!("{at} must be >= {m}"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), mk(m)),
                    "rule:bounds",
                    format!("accepts {at} at exactly minimum {m}"),
                    format!("{m} is the smallest allowed {at}"),
                ));
            }
            if let Some(m) = num("maximum") {
                out.push(err(
                    Op::Set(ptr.to_owned(), mk(m + step)),
                    "rule:bounds",
                    format!("rejects {at} just over maximum {m}"),
                    format!("{at} must be <= {m}"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), mk(m)),
                    "rule:bounds",
                    format!("accepts {at} at exactly maximum {m}"),
                    format!("{m} is the largest allowed {at}"),
                ));
            }
            if let Some(m) = num("exclusiveMinimum") {
                out.push(err(
                    Op::Set(ptr.to_owned(), mk(m)),
                    "rule:bounds",
                    format!("rejects {at} equal to exclusiveMinimum {m}"),
                    format!("{at} must be > {m}"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), mk(m + step)),
                    "rule:bounds",
                    format!("accepts {at} just over exclusiveMinimum {m}"),
                    format!("{} is the smallest allowed {at}", m + step),
                ));
            }
            if let Some(m) = num("exclusiveMaximum") {
                out.push(err(
                    Op::Set(ptr.to_owned(), mk(m)),
                    "rule:bounds",
                    format!("rejects {at} equal to exclusiveMaximum {m}"),
                    format!("{at} must be < {m}"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), mk(m - step)),
                    "rule:bounds",
                    format!("accepts {at} just under exclusiveMaximum {m}"),
                    format!("{} is the largest allowed {at}", m - step),
                ));
            }
        }
        Value::Array(items) => {
            let min = obj
                .get("minItems")
                .and_then(Value::as_u64)
                .map(|m| m as usize);
            let max = obj
                .get("maxItems")
                .and_then(Value::as_u64)
                .map(|m| m as usize);
            if let Some(min) = min
                && min > 0
            {
                out.push(err(
                    Op::Set(ptr.to_owned(), sampler.items_of(&schema, min - 1)),
                    "rule:min-items",
                    format!("rejects {at} one item under minItems {min}"),
                    format!("{at} needs at least {min} items"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), sampler.items_of(&schema, min)),
                    "rule:min-items",
                    format!("accepts {at} with exactly minItems {min}"),
                    format!("{min} items is the fewest allowed in {at}"),
                ));
            }
            if let Some(max) = max
                && max < 1000
            {
                out.push(err(
                    Op::Set(ptr.to_owned(), sampler.items_of(&schema, max + 1)),
                    "rule:max-items",
                    format!("rejects {at} one item over maxItems {max}"),
                    format!("{at} allows at most {max} items"),
                ));
                out.push(ok(
                    Op::Set(ptr.to_owned(), sampler.items_of(&schema, max)),
                    "rule:max-items",
                    format!("accepts {at} with exactly maxItems {max}"),
                    format!("{max} items is the most allowed in {at}"),
                ));
            }
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
                    Op::Set(ptr.to_owned(), Value::Array(dup)),
                    "rule:unique-items",
                    format!("rejects {at} with a duplicated item"),
                    format!("the items of {at} must be unique"),
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
                    item,
                    sampler,
                    out,
                    depth + 1,
                );
            }
        }
        Value::Object(map) => {
            let required: Vec<&str> = obj
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for name in &required {
                let p = join_pointer(ptr, name);
                out.push(err(
                    Op::Remove(p.clone()),
                    "rule:required",
                    format!("rejects a missing `{p}`"),
                    format!("{name:?} is required in {at}; the server should reject its absence"),
                ));
            }
            let unknown = join_pointer(ptr, "unexpected_property");
            match obj.get("additionalProperties") {
                Some(Value::Bool(false)) => out.push(err(
                    Op::Set(unknown.clone(), json!("surprise")),
                    "rule:additional-properties",
                    format!("rejects an unknown property `{unknown}`"),
                    format!("{at} has additionalProperties: false"),
                )),
                None if ptr.is_empty() => out.push(Mutation {
                    op: Op::Set(unknown.clone(), json!("surprise")),
                    source: "rule:additional-properties",
                    title: format!("observes an unknown property `{unknown}`"),
                    rationale: format!(
                        "{at} does not forbid unknown properties; what the server does with one is its own choice"
                    ),
                    expectation: Expectation::Observe,
                }),
                _ => {}
            }
            let props = obj.get("properties").and_then(Value::as_object);
            for (name, sub_value) in map {
                if let Some(sub_schema) = props.and_then(|p| p.get(name)) {
                    walk(
                        sub_schema,
                        &join_pointer(ptr, name),
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

fn outside_enum(members: &[Value]) -> Value {
    if members.iter().all(Value::is_number) {
        let max = members
            .iter()
            .filter_map(Value::as_f64)
            .fold(f64::MIN, f64::max);
        return json!(max.floor() as i64 + 1);
    }
    let mut candidate = "not_a_member".to_owned();
    while members.contains(&json!(candidate)) {
        candidate.push('_');
    }
    json!(candidate)
}

/// `s` cut or padded (with its last character, or `x`) to exactly `n` characters.
fn resize(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    let pad = s.chars().last().unwrap_or('x');
    while out.chars().count() < n {
        out.push(pad);
    }
    out
}

/// A string that satisfies every keyword of `schema` but `pattern`.
fn pattern_violation(schema: &Value, current: &str) -> Option<String> {
    let mut without = schema.as_object()?.clone();
    without.remove("pattern");
    without.remove("enum");
    without.remove("const");
    let without = Value::Object(without);
    let with = schema.clone();
    let len = current.chars().count();
    let candidates = [
        "!".repeat(len.max(1)),
        " ".repeat(len.max(1)),
        "~".repeat(len.max(1)),
        "0".repeat(len.max(1)),
        "a".repeat(len.max(1)),
        "A".repeat(len.max(1)),
        String::new(),
        "!".to_owned(),
    ];
    candidates.into_iter().find(|c| {
        let v = json!(c);
        super::sample::fits(&without, &v) && !super::sample::fits(&with, &v)
    })
}

/// Sets the value at a JSON pointer, creating the last key of an object. False when the parent
/// does not exist.
fn set(root: &mut Value, ptr: &str, value: Value) -> bool {
    if ptr.is_empty() {
        *root = value;
        return true;
    }
    let Some((parent, last)) = ptr.rsplit_once('/') else {
        return false;
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    match root.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(key, value);
            true
        }
        Some(Value::Array(items)) => match key.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items[i] = value;
                true
            }
            _ => false,
        },
        _ => false,
    }
}

fn remove(root: &mut Value, ptr: &str) -> bool {
    let Some((parent, last)) = ptr.rsplit_once('/') else {
        return false;
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    match root.pointer_mut(parent) {
        Some(Value::Object(map)) => map.remove(&key).is_some(),
        _ => false,
    }
}
