//! Valid sample values for a JSON Schema: the base of every derived case.
//!
//! Values come from the schema itself first, in this order for each (sub)schema: `const`, the
//! `examples` (the n-th fitting one for the n-th variant), `default`, the `enum` members, a
//! value of the declared `format` (date, date-time, uri, email, uuid...), then a generated
//! value honouring bounds, lengths, items and patterns. A value the schema offers is used only
//! if it validates against that (sub)schema. Nothing here is trusted: the engine validates
//! every sample against the real schema before using it.

use rand::SeedableRng;
use rand::distr::Distribution;
use rand::rngs::Xoshiro256PlusPlus;
use serde_json::{Map, Number, Value, json};

use super::hash::{BuildFx, value_hash};
use crate::validation::SchemaValidator;
use std::rc::Rc;

/// How deep nested objects and arrays are filled in before the sampler gives up.
const MAX_DEPTH: usize = 12;

/// A deterministic sampler: the same schema and seed give the same values.
pub(crate) struct Sampler {
    rng: Xoshiro256PlusPlus,
}

impl Sampler {
    pub(crate) fn new(seed: u64) -> Self {
        Sampler {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// A value for `schema`. `variant` picks a different value of the same shape (the n-th enum
    /// member, a suffixed string, a larger number), so array items can be made distinct.
    pub(crate) fn value(&mut self, schema: &Value, variant: usize) -> Value {
        self.value_at(schema, variant, 0)
    }

    fn value_at(&mut self, schema: &Value, variant: usize, depth: usize) -> Value {
        let Some(obj) = schema.as_object() else {
            // `true` or a non-schema: anything goes.
            return json!("sample");
        };
        if let Some(c) = obj.get("const") {
            return c.clone();
        }
        if let Some(example) = fitting_examples(schema).into_iter().nth(variant) {
            return example;
        }
        if variant == 0
            && let Some(default) = obj.get("default")
            && !default.is_null()
            && fits(schema, default)
        {
            return default.clone();
        }
        if let Some(Value::Array(members)) = obj.get("enum")
            && !members.is_empty()
        {
            let non_null: Vec<&Value> = members.iter().filter(|m| !m.is_null()).collect();
            let pool = if non_null.is_empty() {
                members.iter().collect()
            } else {
                non_null
            };
            return pool[variant % pool.len()].clone();
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = obj.get(key) {
                let branch = branches
                    .iter()
                    .find(|b| !is_null_schema(b))
                    .or(branches.first());
                if let Some(branch) = branch {
                    let merged = merge_siblings(obj, branch, key);
                    return self.value_at(&merged, variant, depth + 1);
                }
            }
        }
        if primary_type(schema) == Some("string")
            && let Some(described) = described_examples(schema).into_iter().nth(variant)
        {
            return described;
        }
        match primary_type(schema) {
            Some("string") => Value::String(self.string(obj, variant)),
            Some("integer") => integer(obj, variant),
            Some("number") => number(obj, variant),
            Some("boolean") => Value::Bool(variant.is_multiple_of(2)),
            Some("null") => Value::Null,
            Some("array") => self.array(obj, variant, depth),
            Some("object") => self.object(obj, variant, depth),
            _ => json!("sample"),
        }
    }

    fn string(&mut self, obj: &Map<String, Value>, variant: usize) -> String {
        let min = obj.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = obj
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        let fits_len = |s: &str| {
            let n = s.chars().count();
            n >= min && max.is_none_or(|m| n <= m)
        };
        let format = obj.get("format").and_then(Value::as_str);
        // A value of the format, if the whole property schema (pattern, lengths) accepts it.
        if let Some(format) = format
            && let Some(sample) = format_sample(format, variant)
            && fits_len(&sample)
            && fits(&Value::Object(obj.clone()), &json!(sample))
        {
            return sample;
        }
        if let Some(pattern) = obj.get("pattern").and_then(Value::as_str) {
            let mut check = json!({"type": "string", "pattern": pattern});
            if let Some(format) = format {
                check["format"] = json!(format);
            }
            if let Some(s) = self.matching_pattern(pattern, &check, variant, &fits_len) {
                return s;
            }
        }
        let mut s = if variant == 0 {
            "sample".to_owned()
        } else {
            format!("sample{variant}")
        };
        pad_or_cut(&mut s, min, max);
        s
    }

    fn matching_pattern(
        &mut self,
        pattern: &str,
        check: &Value,
        variant: usize,
        fits_len: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        // JSON Schema patterns are unanchored; the generator wants none of `^`/`$`.
        let mut p = pattern;
        p = p.strip_prefix('^').unwrap_or(p);
        if p.ends_with('$') && !p.ends_with("\\$") {
            p = &p[..p.len() - 1];
        }
        let generator = generator(p)?;
        let validator = compiled(check)?;
        // Skip `variant` good draws so distinct variants get distinct strings.
        let mut skipped = 0;
        for _ in 0..64 {
            let s: String = generator.sample(&mut self.rng);
            if fits_len(&s) && validator.is_valid(&Value::String(s.clone())) {
                if skipped == variant {
                    return Some(s);
                }
                skipped += 1;
            }
        }
        None
    }

    fn array(&mut self, obj: &Map<String, Value>, variant: usize, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return json!([]);
        }
        let min = obj.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = obj
            .get("maxItems")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        // Strictly inside [minItems, maxItems] when there is room: the base case is then
        // interior, and the boundary cases are the only ones on the edges.
        let mut count = min.max(1).min(max.unwrap_or(usize::MAX));
        if count == min && min > 0 && max.is_none_or(|m| m > min + 1) {
            count += 1;
        }
        self.items(obj, count, variant, depth)
    }

    /// `count` items for an array schema, distinct when `uniqueItems` asks for it.
    pub(crate) fn items_of(&mut self, array_schema: &Value, count: usize) -> Value {
        match array_schema.as_object() {
            Some(obj) => self.items(obj, count, 0, 0),
            None => json!([]),
        }
    }

    fn items(
        &mut self,
        obj: &Map<String, Value>,
        count: usize,
        variant: usize,
        depth: usize,
    ) -> Value {
        let prefix = obj.get("prefixItems").and_then(Value::as_array);
        let anything = Value::Object(Map::new());
        let item_schema = obj.get("items").unwrap_or(&anything);
        let mut out: Vec<Value> = Vec::with_capacity(count);
        let mut v = variant;
        let mut tries = 0;
        while out.len() < count && tries < count * 8 + 8 {
            tries += 1;
            let schema = prefix.and_then(|p| p.get(out.len())).unwrap_or(item_schema);
            let candidate = self.value_at(schema, v, depth + 1);
            v += 1;
            // Items are always made distinct: harmless without `uniqueItems`, required with it.
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
        Value::Array(out)
    }

    fn object(&mut self, obj: &Map<String, Value>, variant: usize, depth: usize) -> Value {
        let mut out = Map::new();
        if depth > MAX_DEPTH {
            return Value::Object(out);
        }
        if let Some(Value::Object(props)) = obj.get("properties") {
            for (name, schema) in props {
                out.insert(name.clone(), self.value_at(schema, variant, depth + 1));
            }
        }
        // Required keys with no declared schema still need a value.
        if let Some(Value::Array(required)) = obj.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !out.contains_key(name) {
                    let schema = obj
                        .get("additionalProperties")
                        .cloned()
                        .unwrap_or(json!({}));
                    let value = if schema.is_boolean() {
                        json!("sample")
                    } else {
                        self.value_at(&schema, variant, depth + 1)
                    };
                    out.insert(name.to_owned(), value);
                }
            }
        }
        let min = obj
            .get("minProperties")
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize;
        let extra_schema = match obj.get("additionalProperties") {
            Some(Value::Bool(false)) => None,
            Some(s @ Value::Object(_)) => Some(s.clone()),
            _ => Some(json!("sample")),
        };
        if let Some(extra) = extra_schema {
            let mut i = 0;
            while out.len() < min {
                i += 1;
                let value = if extra.is_object() {
                    self.value_at(&extra, variant + i, depth + 1)
                } else {
                    extra.clone()
                };
                out.insert(format!("key{i}"), value);
            }
        }
        Value::Object(out)
    }
}

/// The schema's `examples` that validate against it, non-null ones first, in their order.
pub(crate) fn fitting_examples(schema: &Value) -> Vec<Value> {
    let Some(Value::Array(examples)) = schema.get("examples") else {
        return Vec::new();
    };
    let Some(validator) = compiled(schema) else {
        return Vec::new();
    };
    let (nulls, mut out): (Vec<&Value>, Vec<&Value>) = examples
        .iter()
        .filter(|e| validator.is_valid(e))
        .partition(|e| e.is_null());
    out.extend(nulls);
    let mut unique: Vec<Value> = Vec::with_capacity(out.len());
    for e in out {
        if !unique.contains(e) {
            unique.push(e.clone());
        }
    }
    unique
}

/// The words a string schema's `description` quotes as its examples, that validate against it:
/// `"IANA timezone name (e.g., 'America/New_York', 'Europe/London')"` gives
/// `America/New_York` and `Europe/London`. Many servers (Python's pydantic fields, hand-written
/// TypeScript schemas) describe their values this way rather than in `examples`, and a value
/// the server recognises gets a call past its business checks, so a valid case shows what the
/// tool does rather than its "unknown value" error.
///
/// A quoted word counts only after a marker that says examples follow (`e.g.`, `for example`,
/// `such as`, `like`, `i.e.`), up to the end of its sentence or parenthesis; quotes are `'`,
/// `"` or backticks.
pub(crate) fn described_examples(schema: &Value) -> Vec<Value> {
    let Some(description) = schema.get("description").and_then(Value::as_str) else {
        return Vec::new();
    };
    let lower = description.to_ascii_lowercase();
    let mut out: Vec<Value> = Vec::new();
    for marker in ["e.g.", "for example", "such as", "like ", "i.e."] {
        let mut from = 0;
        while let Some(at) = lower[from..].find(marker) {
            let start = from + at + marker.len();
            let whole_word = !lower[..from + at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphabetic());
            if !whole_word {
                from = start;
                continue;
            }
            // Up to the end of the sentence or the parenthesis the marker opened.
            let rest = &description[start..];
            let end = rest
                .find([')', '\n'])
                .or_else(|| rest.find(". "))
                .unwrap_or(rest.len());
            for word in quoted(&rest[..end]) {
                let value = Value::String(word.to_owned());
                if !out.contains(&value) && fits(schema, &value) {
                    out.push(value);
                }
            }
            from = start;
        }
    }
    out
}

/// The non-empty words between matching quotes (`'`, `"`, backticks) in `text`, in order.
fn quoted(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(['\'', '"', '`']) {
        let quote = rest[open..].chars().next().expect("found");
        let after = &rest[open + 1..];
        let Some(close) = after.find(quote) else {
            break;
        };
        let word = &after[..close];
        // An apostrophe inside a sentence ("don't") is no quote: a quoted example has no
        // space at its edges and is not a run of prose.
        if !word.is_empty() && !word.starts_with(' ') && !word.ends_with(' ') && word.len() <= 200 {
            out.push(word);
        }
        rest = &after[close + 1..];
    }
    out
}

/// Whether `value` is valid against `schema` alone (a schema that does not compile never is).
pub(crate) fn fits(schema: &Value, value: &Value) -> bool {
    compiled(schema).is_some_and(|v| v.is_valid(value))
}

/// The most (sub)schemas [`compiled`] keeps compiled on one thread; past it, it starts over.
const MAX_COMPILED: usize = 512;

/// A schema and its validator (`None`: it does not compile).
type Entry = (Value, Option<Rc<SchemaValidator>>);

/// The validators one thread has compiled, by schema: equal schemas share an entry.
#[derive(Default)]
struct Memo {
    by_hash: std::collections::HashMap<u64, Vec<Entry>, BuildFx>,
    len: usize,
}

thread_local! {
    /// The validators of the (sub)schemas that single values are checked against while cases
    /// are derived (`None`: it does not compile). The same few property schemas recur across
    /// the tools of a server and across the values tried for one property, and compiling a
    /// schema costs far more than checking a value against it. A pure memo: the same schema
    /// always compiles to the same validator. Keyed by a structural hash, compared on a
    /// match: serializing each schema to text for its key cost more than the look-up.
    static COMPILED: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::default());
}

/// `schema` compiled, from this thread's memo when it was compiled before; `None` when it does
/// not compile.
pub(crate) fn compiled(schema: &Value) -> Option<Rc<SchemaValidator>> {
    let hash = value_hash(schema);
    let found = COMPILED.with(|memo| {
        memo.borrow()
            .by_hash
            .get(&hash)
            .and_then(|same| same.iter().find(|(s, _)| s == schema))
            .map(|(_, validator)| validator.clone())
    });
    if let Some(found) = found {
        return found;
    }
    let validator = SchemaValidator::new(schema).ok().map(Rc::new);
    COMPILED.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.len >= MAX_COMPILED {
            *memo = Memo::default();
        }
        memo.len += 1;
        memo.by_hash
            .entry(hash)
            .or_default()
            .push((schema.clone(), validator.clone()));
    });
    validator
}

thread_local! {
    /// The string generators of the patterns seen on this thread, by pattern (`None`: the
    /// generator cannot compile it). A pure memo, as [`COMPILED`]: a server's tools repeat
    /// their patterns, and compiling one costs more than drawing from it.
    static GENERATORS: std::cell::RefCell<std::collections::HashMap<String, Option<Rc<rand_regex::Regex>>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The generator of strings matching `pattern` (unanchored), from this thread's memo when it
/// was compiled before.
fn generator(pattern: &str) -> Option<Rc<rand_regex::Regex>> {
    if let Some(found) = GENERATORS.with(|memo| memo.borrow().get(pattern).cloned()) {
        return found;
    }
    let generator = rand_regex::Regex::compile(pattern, 6).ok().map(Rc::new);
    GENERATORS.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.len() >= MAX_COMPILED {
            memo.clear();
        }
        memo.insert(pattern.to_owned(), generator.clone());
    });
    generator
}

/// `{"type": "null"}` (a nullable branch of `anyOf`/`oneOf`).
pub(crate) fn is_null_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
        || schema.get("const").is_some_and(Value::is_null)
}

/// A branch of `anyOf`/`oneOf` with the parent's other keywords (description, default...) kept,
/// minus the combinator itself.
pub(crate) fn merge_siblings(parent: &Map<String, Value>, branch: &Value, key: &str) -> Value {
    let mut merged = parent.clone();
    merged.remove(key);
    merged.remove("default");
    merged.remove("examples");
    if let Some(b) = branch.as_object() {
        for (k, v) in b {
            merged.insert(k.clone(), v.clone());
        }
    }
    Value::Object(merged)
}

/// The schema's declared types (`"type": "x"` or `"type": [...]`).
pub(crate) fn declared_types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The type a sample should have: the first declared non-null type, or one inferred from the
/// keywords present.
pub(crate) fn primary_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => return Some(t),
        Some(Value::Array(ts)) => {
            let mut names = ts.iter().filter_map(Value::as_str);
            if let Some(t) = names
                .clone()
                .find(|t| *t != "null")
                .or_else(|| names.next())
            {
                return Some(t);
            }
        }
        _ => {}
    }
    let obj = schema.as_object()?;
    if obj.contains_key("properties")
        || obj.contains_key("required")
        || obj.contains_key("additionalProperties")
    {
        return Some("object");
    }
    if obj.contains_key("items") || obj.contains_key("prefixItems") {
        return Some("array");
    }
    if ["minLength", "maxLength", "pattern"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        return Some("string");
    }
    if ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        return Some("number");
    }
    None
}

/// `s` padded or cut into [min, max], strictly inside when there is room (so the base case is
/// interior and only the boundary cases sit on the edges).
fn pad_or_cut(s: &mut String, min: usize, max: Option<usize>) {
    let room = |n: usize| max.is_none_or(|m| m > n + 1);
    let least = if min > 0 && room(min) { min + 1 } else { min };
    while s.chars().count() < least {
        s.push('x');
    }
    if let Some(max) = max
        && s.chars().count() > max
    {
        let most = if max > min + 1 { max - 1 } else { max };
        *s = s.chars().take(most).collect();
    }
}

/// A valid string of a format (the `variant`-th of a family of distinct ones): the formats
/// of JSON Schema 2020-12 that the validator asserts, each a plausible value a server is
/// likely to accept (documentation addresses and hosts, dates in 2026).
pub(crate) fn format_sample(format: &str, variant: usize) -> Option<String> {
    let n = variant;
    Some(match format {
        "email" | "idn-email" => format!("user{n}@example.com"),
        "uri" | "iri" => format!("https://example.com/item/{n}"),
        "uri-reference" | "iri-reference" => format!("/item/{n}"),
        "hostname" | "idn-hostname" => format!("host{n}.example.com"),
        "ipv4" => format!("192.0.2.{}", 1 + n % 250),
        "ipv6" => format!("2001:db8::{:x}", 1 + n),
        "date" => format!("2026-01-{:02}", 1 + n % 28),
        "date-time" => format!("2026-01-{:02}T12:00:00Z", 1 + n % 28),
        "time" => format!("12:{:02}:00Z", n % 60),
        "duration" => format!("P{}D", 1 + n),
        "uuid" => format!(
            "123e4567-e89b-42d3-a456-{:012x}",
            0x4266_1417_4000u64 + n as u64
        ),
        "regex" => "^[a-z]+$".to_owned(),
        "json-pointer" => format!("/item/{n}"),
        "relative-json-pointer" => format!("{n}/item"),
        "uri-template" => "https://example.com/{id}".to_owned(),
        _ => return None,
    })
}

/// Every format [`format_sample`] knows.
#[cfg(test)]
pub(crate) const FORMATS: &[&str] = &[
    "email",
    "idn-email",
    "uri",
    "iri",
    "uri-reference",
    "iri-reference",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "date",
    "date-time",
    "time",
    "duration",
    "uuid",
    "regex",
    "json-pointer",
    "relative-json-pointer",
    "uri-template",
];

/// A string that violates a format the validator asserts.
pub(crate) fn format_violation(format: &str) -> Option<&'static str> {
    Some(match format {
        "email" | "idn-email" => "not-an-email",
        "uri" | "iri" => "not a uri",
        "hostname" | "idn-hostname" => "-not_a_host-",
        "ipv4" => "999.1.1.1",
        "ipv6" => "not:an:ipv6:::",
        "date" => "2026-13-45",
        "date-time" => "yesterday",
        "time" => "25:61",
        "duration" => "one day",
        "uuid" => "not-a-uuid",
        "regex" => "([unclosed",
        "json-pointer" => "no-leading-slash",
        _ => return None,
    })
}

/// Bounds of an integer schema, with the exclusive forms folded in, and the `format` bounds of
/// schemars' fixed-width integers.
pub(crate) fn integer_bounds(obj: &Map<String, Value>) -> (Option<i64>, Option<i64>) {
    let num = |k: &str| obj.get(k).and_then(Value::as_f64);
    let mut lo = num("minimum").map(|m| m.ceil() as i64);
    let mut hi = num("maximum").map(|m| m.floor() as i64);
    if let Some(x) = num("exclusiveMinimum") {
        let v = x.floor() as i64 + 1;
        lo = Some(lo.map_or(v, |l| l.max(v)));
    }
    if let Some(x) = num("exclusiveMaximum") {
        let v = x.ceil() as i64 - 1;
        hi = Some(hi.map_or(v, |h| h.min(v)));
    }
    if let Some(f) = obj.get("format").and_then(Value::as_str)
        && f.starts_with('u')
        && lo.is_none_or(|l| l < 0)
    {
        lo = Some(0);
    }
    (lo, hi)
}

fn integer(obj: &Map<String, Value>, variant: usize) -> Value {
    let (lo, hi) = integer_bounds(obj);
    let step = obj
        .get("multipleOf")
        .and_then(Value::as_i64)
        .filter(|m| *m > 0)
        .unwrap_or(1);
    let v = variant as i64;
    let mut n = match (lo, hi) {
        (Some(l), Some(h)) => (l + (h - l) / 2 + v).min(h),
        // Off the one bound when it would sit on it: the base case stays interior.
        (Some(l), None) => l.max(1) + v + i64::from(l.max(1) == l),
        (None, Some(h)) => h.min(1) - v - i64::from(h.min(1) == h),
        (None, None) => 1 + v,
    };
    if n % step != 0 {
        n += step - n.rem_euclid(step);
        if let Some(h) = hi
            && n > h
        {
            n -= step;
        }
    }
    Value::Number(n.into())
}

fn number(obj: &Map<String, Value>, variant: usize) -> Value {
    let num = |k: &str| obj.get(k).and_then(Value::as_f64);
    let lo = num("minimum").or(num("exclusiveMinimum"));
    let hi = num("maximum").or(num("exclusiveMaximum"));
    let v = variant as f64;
    let x = match (lo, hi) {
        (Some(l), Some(h)) => l + (h - l) / 2.0,
        (Some(l), None) => l.max(0.0) + 1.5 + v,
        (None, Some(h)) => h.min(1.5) - 1.0 - v,
        (None, None) => 1.5 + v,
    };
    Number::from_f64(x).map_or(json!(1), Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_honour_constraints() {
        let mut s = Sampler::new(7);
        let schema = json!({"type": "string", "minLength": 10, "maxLength": 12});
        let v = s.value(&schema, 0);
        assert!(fits(&schema, &v), "{v}");
        let schema = json!({"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"});
        let v = s.value(&schema, 0);
        assert!(fits(&schema, &v), "{v}");
        let schema = json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 3});
        assert!(fits(&schema, &s.value(&schema, 0)));
        let schema = json!({"type": "integer", "minimum": 10, "multipleOf": 7});
        assert!(fits(&schema, &s.value(&schema, 0)));
        let schema = json!({"type": "array", "items": {"enum": ["a", "b", "c"]},
                            "minItems": 2, "uniqueItems": true});
        let v = s.value(&schema, 0);
        assert!(fits(&schema, &v), "{v}");
        let schema = json!({"type": "string", "format": "email"});
        assert!(fits(&schema, &s.value(&schema, 0)));
    }

    #[test]
    fn every_format_sample_validates_against_its_format() {
        for format in FORMATS {
            let schema = json!({"type": "string", "format": format});
            for variant in 0..4 {
                let v = Sampler::new(1).value(&schema, variant);
                assert!(fits(&schema, &v), "{format} variant {variant}: {v}");
                assert_eq!(
                    v,
                    json!(format_sample(format, variant).unwrap()),
                    "{format}: the format's own value, not a filler"
                );
            }
            // The validator does not assert the idn- formats (their violation is then no
            // violation, and the engine drops the case).
            if let Some(bad) = format_violation(format)
                && !format.starts_with("idn-")
            {
                assert!(!fits(&schema, &json!(bad)), "{format}: {bad:?} passes");
            }
        }
    }

    #[test]
    fn a_format_value_that_misses_the_rest_of_the_schema_is_not_used() {
        let mut s = Sampler::new(3);
        // Too long for the date: the filler, cut to fit inside the bound.
        let schema = json!({"type": "string", "format": "date", "maxLength": 4});
        assert_eq!(s.value(&schema, 0), json!("sam"));
        // A pattern the uri sample misses: a string of the pattern that is also a uri.
        let schema = json!({"type": "string", "format": "uri", "pattern": "^urn:[a-z]{3}$"});
        let v = s.value(&schema, 0);
        assert!(fits(&schema, &v), "{v}");
    }

    #[test]
    fn the_schema_own_values_come_first_const_examples_default_enum_format() {
        let mut s = Sampler::new(1);
        let mut schema = json!({
            "type": "string", "format": "date", "enum": ["2026-02-02", "2026-03-03"],
            "default": "2026-03-03", "examples": ["2026-02-02"], "const": "2026-02-02"
        });
        let mut order = Vec::new();
        for key in ["const", "examples", "default", "enum", "format"] {
            order.push(s.value(&schema, 0));
            schema.as_object_mut().unwrap().remove(key);
        }
        order.push(s.value(&schema, 0));
        assert_eq!(
            order,
            [
                json!("2026-02-02"), // const
                json!("2026-02-02"), // examples[0]
                json!("2026-03-03"), // default
                json!("2026-02-02"), // enum[0]
                json!("2026-01-01"), // format: date
                json!("sample"),     // generated
            ]
        );
    }

    #[test]
    fn examples_that_do_not_fit_are_skipped_and_variants_take_the_next_one() {
        let mut s = Sampler::new(1);
        let schema = json!({"type": "integer", "minimum": 10, "examples": [3, null, 12, 40]});
        assert_eq!(s.value(&schema, 0), json!(12));
        assert_eq!(s.value(&schema, 1), json!(40));
        assert_eq!(fitting_examples(&schema), [json!(12), json!(40)]);
        // Array items: the examples first, then generated values, all distinct.
        let schema = json!({"type": "array", "minItems": 3,
            "items": {"type": "string", "examples": ["Europe/Paris", "UTC"]}});
        assert_eq!(
            s.value(&schema, 0),
            json!(["Europe/Paris", "UTC", "sample2", "sample3"]),
            "minItems 3 and no maxItems: one more, inside the bound"
        );
        // A default that does not fit is not used either.
        let schema = json!({"type": "integer", "maximum": 5, "default": 9});
        assert_eq!(s.value(&schema, 0), json!(1));
    }

    #[test]
    fn a_description_s_quoted_examples_are_values() {
        let timezone = json!({"type": "string", "description":
            "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'Etc/UTC' as local timezone if no timezone provided by the user."});
        assert_eq!(
            described_examples(&timezone),
            [json!("America/New_York"), json!("Europe/London")]
        );
        let mut sampler = Sampler::new(1);
        assert_eq!(sampler.value(&timezone, 0), "America/New_York");
        assert_eq!(sampler.value(&timezone, 1), "Europe/London");
        assert_ne!(sampler.value(&timezone, 2), "Etc/UTC");

        // Only quoted words after a marker, and only those the schema takes.
        let short = json!({"type": "string", "maxLength": 3,
            "description": "A code such as \"abc\" or `toolong`; don't use 'x y'."});
        assert_eq!(described_examples(&short), [json!("abc")]);
        let none = json!({"type": "string", "description": "The user's name, as 'given', unlike 'other'."});
        assert!(described_examples(&none).is_empty());
    }

    #[test]
    fn same_seed_same_values() {
        let schema = json!({"type": "string", "pattern": "[a-z]{5,9}"});
        assert_eq!(
            Sampler::new(1).value(&schema, 0),
            Sampler::new(1).value(&schema, 0)
        );
    }
}
