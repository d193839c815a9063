//! Values for single keywords: outside an `enum`, on or past a size bound, against a
//! `pattern`.

use serde_json::{Value, json};

use crate::validation::SchemaValidator;

pub(super) fn outside_enum(members: &[Value]) -> Value {
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

/// A pair of size keywords (`minLength`/`maxLength` on the characters of a string,
/// `minItems`/`maxItems` on the items of an array) and how their cases read.
pub(super) struct SizeBounds {
    /// The minimum's keyword, then the maximum's.
    pub(super) keywords: [&'static str; 2],
    /// The rules of the minimum's cases, then of the maximum's.
    pub(super) rules: [&'static str; 2],
    /// What is counted, singular.
    pub(super) unit: &'static str,
    /// How a value exactly on a bound is said: "accepts `at` {exactly} minLength 3".
    pub(super) exactly: &'static str,
    /// "3 characters is the {fewest} `at`".
    pub(super) fewest: &'static str,
    /// "8 characters is the {most} `at`".
    pub(super) most: &'static str,
    /// Maximums from this one up are not tried: the value over them is too large to send.
    pub(super) cap: usize,
    /// The size of a value, if it is of the kind counted.
    pub(super) size: fn(&Value) -> Option<usize>,
}

pub(super) const LENGTH: SizeBounds = SizeBounds {
    keywords: ["minLength", "maxLength"],
    rules: ["rule:min-length", "rule:max-length"],
    unit: "character",
    exactly: "of exactly",
    fewest: "shortest allowed",
    most: "longest allowed",
    cap: 10_000,
    size: |v| v.as_str().map(|s| s.chars().count()),
};

pub(super) const ITEMS: SizeBounds = SizeBounds {
    keywords: ["minItems", "maxItems"],
    rules: ["rule:min-items", "rule:max-items"],
    unit: "item",
    exactly: "with exactly",
    fewest: "fewest allowed in",
    most: "most allowed in",
    cap: 1000,
    size: |v| v.as_array().map(Vec::len),
};

/// `s` cut or padded (with its last character, or `x`) to exactly `n` characters.
pub(super) fn resize(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    let pad = s.chars().last().unwrap_or('x');
    let have = out.chars().count();
    out.extend(std::iter::repeat_n(pad, n.saturating_sub(have)));
    out
}

/// A string that satisfies every keyword of `schema` but `pattern`.
pub(super) fn pattern_violation(schema: &Value, current: &str) -> Option<String> {
    let mut without = schema.as_object()?.clone();
    without.remove("pattern");
    without.remove("enum");
    without.remove("const");
    // Each schema compiled once for all the candidates.
    let without = crate::cases::sample::compiled(&Value::Object(without));
    let with = crate::cases::sample::compiled(schema);
    let fits = |validator: &Option<std::rc::Rc<SchemaValidator>>, v: &Value| {
        validator.as_ref().is_some_and(|c| c.is_valid(v))
    };
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
        fits(&without, &v) && !fits(&with, &v)
    })
}
