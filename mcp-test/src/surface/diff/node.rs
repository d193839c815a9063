//! A JSON Schema read into one [`Node`] of the keywords MCP servers use: `$ref` into the
//! document followed, `allOf` merged, `anyOf`/`oneOf` of alternatives of distinct types
//! (`Option<T>`'s `[T, null]`) merged into one node with a type union, integer bounds made
//! inclusive. What a diff compares keyword by keyword.

use crate::schema::required_names;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// How deep `$ref`s may chain and `allOf`/`anyOf` nest inside one node before it is given up
/// on (a `$ref` to itself, `A -> B -> A`).
const MAX_DEPTH: usize = 32;

/// How many schemas reading one node may visit: `$ref`s that each name two others would
/// otherwise take 2^32 steps within [`MAX_DEPTH`].
const MAX_READS: usize = 10_000;

/// The keywords that only annotate: a change to one is cosmetic.
pub(super) const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "example",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentMediaType",
    "contentEncoding",
    "markdownDescription",
    "$schema",
    "$id",
    "$anchor",
];

/// The keywords a node understands (beside the annotations and `default`).
const KNOWN: &[&str] = &[
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "nullable",
    "x-mcp-header",
    "default",
    "$defs",
    "definitions",
];

/// The JSON types, by what a value is: `integer` is the numbers without a fraction.
pub(super) const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "string", "integer", "number",
];

/// A bound on numbers: its value and whether it is exclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Bound {
    pub(super) value: f64,
    pub(super) exclusive: bool,
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.exclusive {
            write!(f, "{} (exclusive)", self.value)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

/// What `additionalProperties` allows.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Additional {
    /// Any (absent, `true`, `{}`).
    Any,
    /// None (`false`).
    Closed,
    /// Those the schema accepts.
    Schema(Value),
}

/// One schema, read. Sub-schemas stay raw (resolved when the diff walks into them), so a
/// recursive schema is read one level at a time.
#[derive(Clone, Debug, Default)]
pub(super) struct Node {
    /// The types accepted (`None`: any). `number` includes the integers.
    pub(super) types: Option<BTreeSet<&'static str>>,
    /// The values accepted, when listed (`enum`, `const`).
    pub(super) enumeration: Option<Vec<Value>>,
    /// What it asks of a number (JSON Schema's keywords for each type are apart, and so are
    /// they here: alternatives of distinct types merge by taking each its own).
    pub(super) number: NumberKeywords,
    /// What it asks of a string.
    pub(super) string: StringKeywords,
    /// What it asks of an array.
    pub(super) array: ArrayKeywords,
    /// What it asks of an object.
    pub(super) object: ObjectKeywords,
    /// Alternatives that could not be merged (each with the keywords beside them folded in
    /// through `allOf`); `None` when there are none.
    pub(super) branches: Option<Vec<Value>>,
    /// `x-mcp-header`.
    pub(super) header: Option<Value>,
    /// The annotation keywords and `default`.
    pub(super) annotations: BTreeMap<String, Value>,
    /// Keywords this reading does not understand, as written.
    pub(super) unknown: BTreeMap<String, Value>,
    /// Why part of the schema could not be read (a `$ref` that resolves nowhere).
    pub(super) problems: Vec<String>,
}

/// `minimum`, `maximum` (either exclusive) and `multipleOf`.
#[derive(Clone, Debug, Default)]
pub(super) struct NumberKeywords {
    pub(super) lower: Option<Bound>,
    pub(super) upper: Option<Bound>,
    pub(super) multiple_of: Option<f64>,
}

/// `minLength`, `maxLength`, `pattern` and `format`.
#[derive(Clone, Debug, Default)]
pub(super) struct StringKeywords {
    pub(super) min_length: Option<u64>,
    pub(super) max_length: Option<u64>,
    /// Every pattern a string must match.
    pub(super) patterns: BTreeSet<String>,
    pub(super) format: Option<String>,
}

/// `items`, `minItems`, `maxItems` and `uniqueItems`.
#[derive(Clone, Debug, Default)]
pub(super) struct ArrayKeywords {
    pub(super) items: Option<Value>,
    pub(super) min_items: Option<u64>,
    pub(super) max_items: Option<u64>,
    pub(super) unique: bool,
}

/// `properties`, `required`, `additionalProperties`, `minProperties` and `maxProperties`.
#[derive(Clone, Debug, Default)]
pub(super) struct ObjectKeywords {
    pub(super) properties: BTreeMap<String, Value>,
    pub(super) required: BTreeSet<String>,
    pub(super) additional: Option<Additional>,
    pub(super) min_properties: Option<u64>,
    pub(super) max_properties: Option<u64>,
}

impl NumberKeywords {
    /// What both ask.
    fn meet(a: Self, b: Self) -> Self {
        NumberKeywords {
            lower: tighter_lower(a.lower, b.lower),
            upper: tighter_upper(a.upper, b.upper),
            multiple_of: match (a.multiple_of, b.multiple_of) {
                (Some(x), Some(y)) if x != y => {
                    // Both must hold: the least common multiple when one divides the other.
                    if (x / y).fract() == 0.0 {
                        Some(x)
                    } else if (y / x).fract() == 0.0 {
                        Some(y)
                    } else {
                        Some(x * y)
                    }
                }
                (x, y) => x.or(y),
            },
        }
    }
}

impl StringKeywords {
    /// What both ask.
    fn meet(a: Self, b: Self) -> Self {
        StringKeywords {
            min_length: max_of(a.min_length, b.min_length),
            max_length: min_of(a.max_length, b.max_length),
            patterns: a.patterns.union(&b.patterns).cloned().collect(),
            format: a.format.or(b.format),
        }
    }
}

impl ArrayKeywords {
    /// What both ask.
    fn meet(a: Self, b: Self) -> Self {
        ArrayKeywords {
            items: both(a.items, b.items),
            min_items: max_of(a.min_items, b.min_items),
            max_items: min_of(a.max_items, b.max_items),
            unique: a.unique || b.unique,
        }
    }
}

impl ObjectKeywords {
    /// What both ask.
    fn meet(a: Self, b: Self) -> Self {
        let additional = match (a.additional, b.additional) {
            (Some(Additional::Closed), _) | (_, Some(Additional::Closed)) => {
                Some(Additional::Closed)
            }
            (Some(Additional::Schema(x)), Some(Additional::Schema(y))) => {
                both(Some(x), Some(y)).map(Additional::Schema)
            }
            (Some(Additional::Schema(x)), _) | (_, Some(Additional::Schema(x))) => {
                Some(Additional::Schema(x))
            }
            (x, y) => x.or(y),
        };
        let mut properties = a.properties;
        for (name, schema) in b.properties {
            let merged = both(properties.remove(&name), Some(schema));
            if let Some(merged) = merged {
                properties.insert(name, merged);
            }
        }
        ObjectKeywords {
            properties,
            required: a.required.union(&b.required).cloned().collect(),
            additional,
            min_properties: max_of(a.min_properties, b.min_properties),
            max_properties: min_of(a.max_properties, b.max_properties),
        }
    }
}

impl Node {
    /// The node that accepts nothing.
    fn nothing() -> Node {
        Node {
            types: Some(BTreeSet::new()),
            ..Node::default()
        }
    }

    /// Whether values of JSON type `ty` (one of [`TYPES`]; `number` meaning numbers with a
    /// fraction) can be accepted at all, by type.
    pub(super) fn admits(&self, ty: &str) -> bool {
        match &self.types {
            None => true,
            Some(types) => match ty {
                "integer" => types.contains("integer") || types.contains("number"),
                other => types.contains(other),
            },
        }
    }

    /// Whether this node only constrains integers among the numbers.
    fn integers_only(&self) -> bool {
        self.types
            .as_ref()
            .is_some_and(|t| t.contains("integer") && !t.contains("number"))
    }
}

/// Reads `schema`, whose `$ref`s point into `root`.
pub(super) fn read(root: &Value, schema: &Value) -> Node {
    let mut reads = 0;
    let mut node = read_at(root, schema, 0, &mut reads);
    if node.integers_only() {
        node.number.lower = node.number.lower.map(integer_lower);
        node.number.upper = node.number.upper.map(integer_upper);
    }
    node
}

/// An inclusive lower bound on integers equal to `bound`: `> 0` is `>= 1`.
fn integer_lower(bound: Bound) -> Bound {
    let value = if bound.exclusive {
        bound.value.floor() + 1.0
    } else {
        bound.value.ceil()
    };
    Bound {
        value,
        exclusive: false,
    }
}

/// An inclusive upper bound on integers equal to `bound`: `< 10` is `<= 9`.
fn integer_upper(bound: Bound) -> Bound {
    let value = if bound.exclusive {
        bound.value.ceil() - 1.0
    } else {
        bound.value.floor()
    };
    Bound {
        value,
        exclusive: false,
    }
}

/// The schema `reference` (`#/$defs/Name`, any `#/...` pointer) names in `root`.
pub(super) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    crate::schema::local_ref(root, reference)
}

fn read_at(root: &Value, schema: &Value, depth: usize, reads: &mut usize) -> Node {
    *reads += 1;
    if *reads > MAX_READS {
        return Node {
            problems: vec![format!(
                "the schema takes more than {MAX_READS} steps to read (`$ref`s and `allOf`s that multiply)"
            )],
            ..Node::default()
        };
    }
    let object = match schema {
        Value::Bool(true) => return Node::default(),
        Value::Bool(false) => return Node::nothing(),
        Value::Object(object) => object,
        other => {
            return Node {
                problems: vec![format!("a schema is an object or a boolean, not {other}")],
                ..Node::default()
            };
        }
    };
    if depth > MAX_DEPTH {
        return Node {
            problems: vec![format!(
                "the schema nests `$ref`, `allOf` or `anyOf` more than {MAX_DEPTH} deep (a reference to itself?)"
            )],
            ..Node::default()
        };
    }
    let mut node = own_keywords(object);
    if let Some(reference) = object.get("$ref") {
        match reference.as_str().and_then(|r| resolve(root, r)) {
            Some(target) => node = meet(read_at(root, target, depth + 1, reads), node),
            None => node.problems.push(format!(
                "`$ref` {reference} does not resolve inside the document"
            )),
        }
    }
    if let Some(parts) = object.get("allOf").and_then(Value::as_array) {
        for part in parts {
            node = meet(node, read_at(root, part, depth + 1, reads));
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(alternatives) = object.get(keyword).and_then(Value::as_array) else {
            continue;
        };
        let read: Vec<Node> = alternatives
            .iter()
            .map(|a| read_at(root, a, depth + 1, reads))
            .collect();
        match union(&read) {
            Some(merged) => node = meet(node, merged),
            None => {
                // Each alternative with what stands beside it.
                let mut beside: Map<String, Value> = object.clone();
                beside.remove(keyword);
                let branches = alternatives
                    .iter()
                    .map(|a| serde_json::json!({"allOf": [Value::Object(beside.clone()), a]}))
                    .collect();
                if node.branches.is_some() {
                    node.unknown
                        .insert(keyword.to_owned(), Value::Array(alternatives.clone()));
                } else {
                    node.branches = Some(branches);
                }
            }
        }
    }
    node
}

/// The keywords of `object` itself (not those of its `$ref`, `allOf` or alternatives).
fn own_keywords(object: &Map<String, Value>) -> Node {
    let mut node = Node::default();
    match object.get("type") {
        Some(Value::String(ty)) => node.types = Some(type_set([ty.as_str()])),
        Some(Value::Array(types)) => {
            node.types = Some(type_set(types.iter().filter_map(Value::as_str)));
        }
        _ => {}
    }
    if object.get("nullable") == Some(&Value::Bool(true))
        && let Some(types) = &mut node.types
    {
        types.insert("null");
    }
    if let Some(values) = object.get("enum").and_then(Value::as_array) {
        node.enumeration = Some(values.clone());
    }
    if let Some(value) = object.get("const") {
        node.enumeration = Some(vec![value.clone()]);
    }
    let number = |key: &str| object.get(key).and_then(Value::as_f64);
    let count = |key: &str| object.get(key).and_then(Value::as_u64);
    let inclusive = |key: &str| {
        number(key).map(|value| Bound {
            value,
            exclusive: false,
        })
    };
    node.number = NumberKeywords {
        lower: exclusive_bound(
            inclusive("minimum"),
            object.get("exclusiveMinimum"),
            tighter_lower,
        ),
        upper: exclusive_bound(
            inclusive("maximum"),
            object.get("exclusiveMaximum"),
            tighter_upper,
        ),
        multiple_of: number("multipleOf"),
    };
    node.string = StringKeywords {
        min_length: count("minLength"),
        max_length: count("maxLength"),
        patterns: object
            .get("pattern")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .into_iter()
            .collect(),
        format: object
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_owned),
    };
    node.array = ArrayKeywords {
        items: object.get("items").cloned(),
        min_items: count("minItems"),
        max_items: count("maxItems"),
        unique: object.get("uniqueItems") == Some(&Value::Bool(true)),
    };
    node.object = ObjectKeywords {
        properties: object
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default(),
        required: required_names(object).map(str::to_owned).collect(),
        additional: object.get("additionalProperties").map(|a| match a {
            Value::Bool(false) => Additional::Closed,
            Value::Bool(true) => Additional::Any,
            Value::Object(o) if o.is_empty() => Additional::Any,
            schema => Additional::Schema(schema.clone()),
        }),
        min_properties: count("minProperties"),
        max_properties: count("maxProperties"),
    };
    node.header = object.get("x-mcp-header").cloned();
    for (key, value) in object {
        if ANNOTATIONS.contains(&key.as_str()) || key == "default" {
            node.annotations.insert(key.clone(), value.clone());
        } else if !KNOWN.contains(&key.as_str()) {
            node.unknown.insert(key.clone(), value.clone());
        }
    }
    node
}

/// `bound` with the `exclusiveMinimum` or `exclusiveMaximum` beside it: in draft 4 a flag
/// making `bound` exclusive, later a bound of its own, the `tighter` of the two kept.
fn exclusive_bound(
    bound: Option<Bound>,
    exclusive: Option<&Value>,
    tighter: fn(Option<Bound>, Option<Bound>) -> Option<Bound>,
) -> Option<Bound> {
    match exclusive {
        Some(Value::Bool(true)) => bound.map(|bound| Bound {
            exclusive: true,
            ..bound
        }),
        Some(Value::Number(number)) => tighter(
            bound,
            number.as_f64().map(|value| Bound {
                value,
                exclusive: true,
            }),
        ),
        _ => bound,
    }
}

fn type_set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<&'static str> {
    names
        .into_iter()
        .filter_map(|name| TYPES.iter().copied().find(|t| *t == name))
        .collect()
}

/// The lower bound that lets fewer values through.
pub(super) fn tighter_lower(a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if lower_key(a) >= lower_key(b) { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// The upper bound that lets fewer values through.
pub(super) fn tighter_upper(a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if upper_key(a) <= upper_key(b) { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// Orders lower bounds: a greater key lets fewer values through.
pub(super) fn lower_key(bound: Bound) -> (f64, u8) {
    (bound.value, u8::from(bound.exclusive))
}

/// Orders upper bounds: a smaller key lets fewer values through.
pub(super) fn upper_key(bound: Bound) -> (f64, i8) {
    (bound.value, -i8::from(bound.exclusive))
}

fn min_of(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn max_of(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

fn both(a: Option<Value>, b: Option<Value>) -> Option<Value> {
    match (a, b) {
        (Some(a), Some(b)) if a == b => Some(a),
        (Some(a), Some(b)) => Some(serde_json::json!({"allOf": [a, b]})),
        (a, b) => a.or(b),
    }
}

/// What both `a` and `b` accept (`allOf`, or a `$ref` with keywords beside it).
fn meet(a: Node, b: Node) -> Node {
    let types = match (a.types, b.types) {
        (Some(x), Some(y)) => {
            let mut types: BTreeSet<&'static str> = x.intersection(&y).copied().collect();
            // integer and number meet in integer.
            if (x.contains("integer") && y.contains("number"))
                || (x.contains("number") && y.contains("integer"))
            {
                types.insert("integer");
            }
            Some(types)
        }
        (x, y) => x.or(y),
    };
    let enumeration = match (a.enumeration, b.enumeration) {
        (Some(x), Some(y)) => Some(x.into_iter().filter(|v| y.contains(v)).collect()),
        (x, y) => x.or(y),
    };
    let mut annotations = b.annotations;
    annotations.extend(a.annotations);
    // A keyword both write differently (two `if`s of an `allOf`) keeps both values, so a
    // change to either is seen.
    let mut unknown = b.unknown;
    for (key, value) in a.unknown {
        let both = match unknown.remove(&key) {
            Some(other) if other != value => Value::Array(vec![value, other]),
            _ => value,
        };
        unknown.insert(key, both);
    }
    let mut problems = a.problems;
    problems.extend(b.problems);
    Node {
        types,
        enumeration,
        number: NumberKeywords::meet(a.number, b.number),
        string: StringKeywords::meet(a.string, b.string),
        array: ArrayKeywords::meet(a.array, b.array),
        object: ObjectKeywords::meet(a.object, b.object),
        branches: a.branches.or(b.branches),
        header: a.header.or(b.header),
        annotations,
        unknown,
        problems,
    }
}

/// The family of a type: integer and number are one.
fn family(ty: &str) -> &str {
    if ty == "integer" { "number" } else { ty }
}

/// The family of a listed value.
fn family_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Alternatives of distinct type families as one node (`anyOf: [{type: string, maxLength:
/// 5}, {type: null}]` is `type: [string, null], maxLength: 5`): exact, since each family's
/// keywords constrain only values of that family. `None` when they cannot be merged so.
fn union(alternatives: &[Node]) -> Option<Node> {
    let mut merged = Node {
        types: Some(BTreeSet::new()),
        ..Node::default()
    };
    let mut families = BTreeSet::new();
    let listed = alternatives.iter().any(|a| a.enumeration.is_some());
    let mut values: Vec<Value> = Vec::new();
    for alternative in alternatives {
        if alternative.branches.is_some()
            || !alternative.unknown.is_empty()
            || !alternative.problems.is_empty()
            || alternative.header.is_some()
        {
            return None;
        }
        let types: BTreeSet<&'static str> = match (&alternative.types, &alternative.enumeration) {
            (Some(types), _) => types.clone(),
            (None, Some(values)) => values.iter().map(family_of).collect(),
            (None, None) => return None,
        };
        let own: BTreeSet<&str> = types.iter().map(|t| family(t)).collect();
        if own.len() != 1 {
            return None;
        }
        let own = *own.iter().next()?;
        if !families.insert(own.to_owned()) {
            return None;
        }
        if listed {
            match (&alternative.enumeration, own) {
                (Some(listed), _) => values.extend(listed.iter().cloned()),
                (None, "null") => values.push(Value::Null),
                (None, "boolean") => values.extend([Value::Bool(false), Value::Bool(true)]),
                _ => return None,
            }
        }
        if let Some(all) = &mut merged.types {
            all.extend(types.iter().copied());
        }
        let a = alternative.clone();
        match own {
            "number" => merged.number = a.number,
            "string" => merged.string = a.string,
            "array" => merged.array = a.array,
            "object" => merged.object = a.object,
            _ => {}
        }
    }
    if listed {
        merged.enumeration = Some(values);
    }
    Some(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_nullable_alternative_becomes_a_type_union() {
        let root = json!({"$defs": {"S": {"type": "string", "maxLength": 5}}});
        let node = read(
            &root,
            &json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}),
        );
        assert_eq!(node.types, Some(type_set(["string", "null"])));
        assert_eq!(node.string.max_length, Some(5));
        assert!(node.branches.is_none());
    }

    #[test]
    fn integer_bounds_become_inclusive() {
        let node = read(
            &json!({}),
            &json!({"type": "integer", "exclusiveMaximum": 10, "exclusiveMinimum": 0}),
        );
        assert_eq!(
            node.number.upper,
            Some(Bound {
                value: 9.0,
                exclusive: false
            })
        );
        assert_eq!(
            node.number.lower,
            Some(Bound {
                value: 1.0,
                exclusive: false
            })
        );
    }

    #[test]
    fn a_reference_to_itself_is_given_up_on() {
        let root = json!({"$defs": {"A": {"$ref": "#/$defs/A"}}});
        let node = read(&root, &json!({"$ref": "#/$defs/A"}));
        assert!(
            node.problems[0].contains("more than"),
            "{:?}",
            node.problems
        );
    }

    #[test]
    fn references_that_multiply_are_given_up_on() {
        let mut defs = serde_json::Map::new();
        for i in 0..40 {
            let next = format!("#/$defs/D{}", i + 1);
            defs.insert(
                format!("D{i}"),
                json!({"allOf": [{"$ref": next}, {"$ref": next}]}),
            );
        }
        defs.insert("D40".into(), json!({"type": "string"}));
        let root = json!({"$defs": defs});
        let node = read(&root, &json!({"$ref": "#/$defs/D0"}));
        assert!(!node.problems.is_empty());
    }

    #[test]
    fn alternatives_of_one_family_stay_alternatives() {
        let node = read(
            &json!({}),
            &json!({"anyOf": [{"type": "string"}, {"type": "string", "format": "uri"}]}),
        );
        assert_eq!(node.branches.map(|b| b.len()), Some(2));
    }
}
