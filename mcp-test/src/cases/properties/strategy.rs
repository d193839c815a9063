//! proptest strategies from a tool's input schema: valid arguments, and arguments broken in
//! exactly one place.
//!
//! A strategy is built from the schema's keywords (type, `const`, `enum`, bounds, lengths,
//! `pattern`, `format`, items, properties, `anyOf`/`oneOf`, `$ref`, the actions of an action
//! tool) and then held to the compiled schema: every value it hands out, first or shrunk, has
//! been checked by the validator, so a value that would break a keyword the generator does not
//! model is never handed out, only skipped.

use std::fmt;
use std::sync::Arc;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::{NewTree, SBoxedStrategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::{Map, Number, Value, json};

use crate::cases::rules::{action_schema, actions};
use crate::cases::sample::{
    declared_types, format_sample, format_violation, integer_bounds, merge_siblings, primary_type,
};
use crate::schema::required_names;
use crate::validation::{SchemaValidator, join_pointer};

/// How deep nested objects and arrays are followed.
const MAX_DEPTH: usize = 8;
/// How many characters past `minLength` a generated string may have (when `maxLength` allows).
const STRING_SPAN: usize = 24;
/// How many items past `minItems` a generated array may have (when `maxItems` allows).
const ARRAY_SPAN: usize = 4;
/// The largest integer magnitude generated where the schema sets no bound: the largest
/// integer every JSON parser keeps exact (2^53 - 1).
const SAFE_INTEGER: i64 = 9_007_199_254_740_991;
/// How many fresh values [`Checked`] draws for one case before it gives up.
const DRAWS: usize = 256;
/// How many steps one `simplify` or `complicate` of a [`Checked`] tree may skip over values
/// it does not accept.
const SKIPS: usize = 64;

/// Why no strategy could be made for a schema.
///
/// ```
/// use mcp_test::cases::properties::valid_arguments;
/// let e = valid_arguments(&serde_json::json!({"type": 5})).unwrap_err();
/// assert!(e.to_string().contains("input schema"), "{e}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyError {
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StrategyError {}

fn compile(schema: &Value) -> Result<Arc<SchemaValidator>, StrategyError> {
    SchemaValidator::new(schema)
        .map(Arc::new)
        .map_err(|e| StrategyError {
            message: format!("the input schema does not compile: {e}"),
        })
}

/// A strategy for arguments that validate against `input_schema`: every action of an action
/// tool, nested objects and arrays, and every constraint the cases engine knows. Each value,
/// and each value it shrinks to, validates against the schema.
///
/// ```
/// use mcp_test::cases::properties::valid_arguments;
/// use mcp_test::validation::SchemaValidator;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "required": ["city"], "additionalProperties": false,
///     "properties": {"city": {"type": "string", "minLength": 2, "maxLength": 8},
///                    "days": {"type": "integer", "minimum": 1, "maximum": 7}}});
/// let strategy = valid_arguments(&schema).unwrap();
/// let validator = SchemaValidator::new(&schema).unwrap();
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..32 {
///     let mut tree = strategy.new_tree(&mut runner).unwrap();
///     assert!(validator.is_valid(&tree.current()));
///     while tree.simplify() {
///         assert!(validator.is_valid(&tree.current()), "shrinking stays valid");
///     }
/// }
/// ```
pub fn valid_arguments(input_schema: &Value) -> Result<SBoxedStrategy<Value>, StrategyError> {
    let validator = compile(input_schema)?;
    let raw = raw_arguments(input_schema);
    Ok(Checked {
        source: raw,
        accept: Arc::new(move |v: &Value| validator.is_valid(v)),
        what: "valid arguments",
    }
    .sboxed())
}

/// One action of an action tool with its strategy, or the whole tool (`None`).
pub(crate) fn units(input_schema: &Value) -> Vec<(Option<String>, Value)> {
    match actions(input_schema) {
        Some(list) if !list.is_empty() => list
            .into_iter()
            .map(|(name, then)| {
                let schema = action_schema(input_schema, &name, &then);
                (Some(name), schema)
            })
            .collect(),
        _ => vec![(None, input_schema.clone())],
    }
}

/// [`valid_arguments`] for the part of `input_schema` in `unit` (an action's own schema), held
/// to the whole schema.
pub(crate) fn valid_for(
    input_schema: &Value,
    unit: &Value,
) -> Result<SBoxedStrategy<Value>, StrategyError> {
    let validator = compile(input_schema)?;
    Ok(Checked {
        source: value_strategy(unit, input_schema, 0),
        accept: Arc::new(move |v: &Value| validator.is_valid(v)),
        what: "valid arguments",
    }
    .sboxed())
}

/// Arguments broken in exactly one place: a valid value with one constraint broken at one
/// JSON pointer ([`Broken::pointer`]), every violation the validator finds in it being at that
/// pointer. Shrinking keeps that so.
///
/// ```
/// use mcp_test::cases::properties::broken_arguments;
/// use mcp_test::validation::SchemaValidator;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "required": ["city"],
///     "properties": {"city": {"type": "string", "minLength": 2},
///                    "days": {"type": "integer", "maximum": 7}}});
/// let validator = SchemaValidator::new(&schema).unwrap();
/// let strategy = broken_arguments(&schema).unwrap();
/// let mut runner = TestRunner::deterministic();
/// let mut tree = strategy.new_tree(&mut runner).unwrap();
/// loop {
///     let broken = tree.current();
///     let violations = validator.violations(&broken.args);
///     assert!(!violations.is_empty());
///     assert!(violations.iter().all(|v| v.pointer == broken.pointer), "{violations:?}");
///     if !tree.simplify() { break; }
/// }
/// ```
pub fn broken_arguments(input_schema: &Value) -> Result<SBoxedStrategy<Broken>, StrategyError> {
    broken_for(input_schema, input_schema)
}

/// [`broken_arguments`] starting from the valid values of `unit` (an action's own schema).
pub(crate) fn broken_for(
    input_schema: &Value,
    unit: &Value,
) -> Result<SBoxedStrategy<Broken>, StrategyError> {
    let validator = compile(input_schema)?;
    let unit = unit.clone();
    let root = input_schema.clone();
    let base = value_strategy(&unit, input_schema, 0);
    let source = (base, any::<Index>())
        .prop_map(move |(valid, index)| {
            let mut found = Vec::new();
            mutations(&unit, &root, &valid, "", &mut found, 0);
            if found.is_empty() {
                return Broken {
                    args: valid,
                    pointer: String::new(),
                    keyword: String::new(),
                };
            }
            let m = found.swap_remove(index.index(found.len()));
            let mut args = valid;
            match m.value {
                Some(v) => {
                    set_at(&mut args, &m.pointer, v);
                }
                None => {
                    remove_at(&mut args, &m.pointer);
                }
            }
            Broken {
                args,
                pointer: m.pointer,
                keyword: m.keyword.to_owned(),
            }
        })
        .sboxed();
    Ok(Checked {
        source,
        accept: Arc::new(move |b: &Broken| {
            if b.keyword.is_empty() {
                return false;
            }
            let violations = validator.violations(&b.args);
            !violations.is_empty() && violations.iter().all(|v| v.pointer == b.pointer)
        }),
        what: "arguments broken in exactly one place",
    }
    .sboxed())
}

/// Arguments with exactly one constraint broken.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Broken {
    /// The arguments.
    pub args: Value,
    /// The JSON pointer of the one place they break the schema (`/data/when`).
    pub pointer: String,
    /// The keyword broken there: `required`, `type`, `enum`, `const`, `minLength`,
    /// `maxLength`, `pattern`, `format`, `minimum`, `maximum`, `exclusiveMinimum`,
    /// `exclusiveMaximum`, `multipleOf`, `minItems`, `maxItems`, `uniqueItems` or
    /// `additionalProperties`.
    pub keyword: String,
}

/// A strategy whose values must pass `accept`: a fresh value that does not is drawn again (up
/// to [`DRAWS`] times), and shrinking steps over the values that do not.
struct Checked<T> {
    source: SBoxedStrategy<T>,
    accept: Arc<dyn Fn(&T) -> bool + Send + Sync>,
    what: &'static str,
}

impl<T> fmt::Debug for Checked<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checked")
            .field("what", &self.what)
            .finish_non_exhaustive()
    }
}

impl<T: Clone + fmt::Debug + 'static> Strategy for Checked<T> {
    type Tree = CheckedTree<T>;
    type Value = T;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        for _ in 0..DRAWS {
            let tree = self.source.new_tree(runner)?;
            let current = tree.current();
            if (self.accept)(&current) {
                return Ok(CheckedTree {
                    source: tree,
                    accept: Arc::clone(&self.accept),
                    last: current,
                });
            }
        }
        Err(format!(
            "no {} found in {DRAWS} draws: the schema is too tight for the generator",
            self.what
        )
        .into())
    }
}

/// The value tree of [`Checked`]: its current value is always the last one accepted.
struct CheckedTree<T> {
    source: Box<dyn ValueTree<Value = T>>,
    accept: Arc<dyn Fn(&T) -> bool + Send + Sync>,
    last: T,
}

impl<T> fmt::Debug for CheckedTree<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckedTree").finish_non_exhaustive()
    }
}

impl<T: Clone + fmt::Debug> ValueTree for CheckedTree<T> {
    type Value = T;

    fn current(&self) -> T {
        self.last.clone()
    }

    fn simplify(&mut self) -> bool {
        self.step(|source| source.simplify())
    }

    fn complicate(&mut self) -> bool {
        self.step(|source| source.complicate())
    }
}

impl<T: fmt::Debug> CheckedTree<T> {
    /// Moves the source tree with `next` (up to [`SKIPS`] times) until its value is accepted:
    /// whether one was.
    fn step(&mut self, next: impl Fn(&mut dyn ValueTree<Value = T>) -> bool) -> bool {
        for _ in 0..SKIPS {
            if !next(&mut *self.source) {
                return false;
            }
            let v = self.source.current();
            if (self.accept)(&v) {
                self.last = v;
                return true;
            }
        }
        false
    }
}

/// The unchecked strategy of a whole input schema: a union over the actions of an action
/// tool, else the schema's own.
fn raw_arguments(input_schema: &Value) -> SBoxedStrategy<Value> {
    let units = units(input_schema);
    let strategies: Vec<SBoxedStrategy<Value>> = units
        .iter()
        .map(|(_, schema)| value_strategy(schema, input_schema, 0))
        .collect();
    if strategies.len() == 1 {
        return strategies
            .into_iter()
            .next()
            .unwrap_or_else(|| Just(json!({})).sboxed());
    }
    proptest::strategy::Union::new(strategies).sboxed()
}

/// Any small JSON scalar: for a schema that allows anything.
fn anything() -> SBoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(Value::from),
        "[a-z]{0,8}".prop_map(Value::String),
    ]
    .sboxed()
}

/// `$ref` to a place in the root (`#/$defs/Name`), resolved.
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    let mut current = schema;
    for _ in 0..16 {
        match current
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| crate::schema::local_ref(root, r))
        {
            Some(target) => current = target,
            None => break,
        }
    }
    current
}

/// `allOf` folded into its parent where the branches are plain (properties, required and other
/// keywords); `if`/`then` branches are left to the validator.
fn fold_all_of(obj: &Map<String, Value>) -> Map<String, Value> {
    let mut out = obj.clone();
    let Some(Value::Array(branches)) = out.remove("allOf") else {
        return out;
    };
    for branch in branches.iter().filter_map(Value::as_object) {
        if branch.contains_key("if") {
            continue;
        }
        for (k, v) in branch {
            match (k.as_str(), out.get_mut(k)) {
                ("properties", Some(Value::Object(props))) => {
                    if let Value::Object(more) = v {
                        for (name, s) in more {
                            props.entry(name.clone()).or_insert_with(|| s.clone());
                        }
                    }
                }
                ("required", Some(Value::Array(required))) => {
                    for r in v.as_array().into_iter().flatten() {
                        if !required.contains(r) {
                            required.push(r.clone());
                        }
                    }
                }
                (_, Some(_)) => {}
                (_, None) => {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
    }
    out
}

/// The unchecked strategy of one (sub)schema.
fn value_strategy(schema: &Value, root: &Value, depth: usize) -> SBoxedStrategy<Value> {
    let schema = resolve(schema, root);
    let Some(obj) = schema.as_object() else {
        return match schema {
            Value::Bool(false) => Just(Value::Null).sboxed(),
            _ => anything(),
        };
    };
    if depth > MAX_DEPTH {
        return Just(crate::cases::sample::Sampler::new(0).value(schema, 0)).sboxed();
    }
    if let Some(c) = obj.get("const") {
        return Just(c.clone()).sboxed();
    }
    if let Some(Value::Array(members)) = obj.get("enum")
        && !members.is_empty()
    {
        return proptest::sample::select(members.clone())
            .prop_map(|v| v)
            .sboxed();
    }
    if obj.contains_key("allOf") {
        let folded = Value::Object(fold_all_of(obj));
        return value_strategy(&folded, root, depth + 1);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = obj.get(key)
            && !branches.is_empty()
        {
            let strategies: Vec<SBoxedStrategy<Value>> = branches
                .iter()
                .map(|b| {
                    value_strategy(&merge_siblings(obj, resolve(b, root), key), root, depth + 1)
                })
                .collect();
            return proptest::strategy::Union::new(strategies).sboxed();
        }
    }
    let declared = declared_types(schema);
    if declared.len() > 1 {
        let strategies: Vec<SBoxedStrategy<Value>> = declared
            .iter()
            .map(|t| typed(obj, t, root, depth))
            .collect();
        return proptest::strategy::Union::new(strategies).sboxed();
    }
    match primary_type(schema) {
        Some(t) => typed(obj, t, root, depth),
        None => anything(),
    }
}

fn typed(obj: &Map<String, Value>, t: &str, root: &Value, depth: usize) -> SBoxedStrategy<Value> {
    match t {
        "string" => string(obj),
        "integer" => integer(obj),
        "number" => number(obj),
        "boolean" => any::<bool>().prop_map(Value::Bool).sboxed(),
        "null" => Just(Value::Null).sboxed(),
        "array" => array(obj, root, depth),
        "object" => object(obj, root, depth),
        _ => anything(),
    }
}

fn usize_of(obj: &Map<String, Value>, key: &str) -> Option<usize> {
    obj.get(key)
        .and_then(Value::as_u64)
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

fn string(obj: &Map<String, Value>) -> SBoxedStrategy<Value> {
    let min = usize_of(obj, "minLength").unwrap_or(0);
    let max = usize_of(obj, "maxLength").map_or(min + STRING_SPAN, |m| m.min(min + STRING_SPAN));
    if let Some(format) = obj.get("format").and_then(Value::as_str)
        && format_sample(format, 0).is_some()
    {
        let format = format.to_owned();
        return (0usize..64)
            .prop_map(move |n| Value::String(format_sample(&format, n).unwrap_or_default()))
            .sboxed();
    }
    if let Some(pattern) = obj.get("pattern").and_then(Value::as_str) {
        // A string that matches the whole pattern matches it anchored too; proptest generates
        // from no anchor.
        let mut bare = pattern.strip_prefix('^').unwrap_or(pattern);
        if bare.ends_with('$') && !bare.ends_with("\\$") {
            bare = &bare[..bare.len() - 1];
        }
        let pattern = bare;
        // ECMA-262's classes (`\d`, `\w`) are ASCII: parsed so first, and with Unicode when
        // that cannot be (`.`, a negated class).
        let hir = regex_syntax::ParserBuilder::new()
            .unicode(false)
            .build()
            .parse(pattern)
            .ok()
            .or_else(|| {
                regex_syntax::ParserBuilder::new()
                    .build()
                    .parse(pattern)
                    .ok()
            });
        if let Some(strategy) = hir.and_then(|hir| proptest::string::string_regex_parsed(&hir).ok())
        {
            return strategy.prop_map(Value::String).sboxed();
        }
        // A pattern proptest cannot generate from (look-around, anchors mid-way): the values
        // the cases engine's generator finds for it.
        let mut sampler = crate::cases::sample::Sampler::new(0x6d63_7074);
        let schema = Value::Object(obj.clone());
        let pool: Vec<Value> = (0..16).map(|n| sampler.value(&schema, n)).collect();
        return proptest::sample::select(pool).sboxed();
    }
    let chars = prop_oneof![
        8 => proptest::char::range('a', 'z'),
        1 => proptest::char::range('0', '9'),
        1 => any::<char>(),
    ];
    proptest::collection::vec(chars, min..=max.max(min))
        .prop_map(|cs| Value::String(cs.into_iter().collect()))
        .sboxed()
}

fn integer(obj: &Map<String, Value>) -> SBoxedStrategy<Value> {
    let (lo, hi) = integer_bounds(obj);
    let (format_lo, format_hi) = format_range(obj);
    let lo = lo
        .unwrap_or(-SAFE_INTEGER)
        .max(-SAFE_INTEGER)
        .max(format_lo);
    let hi = hi.unwrap_or(SAFE_INTEGER).min(SAFE_INTEGER).min(format_hi);
    if lo > hi {
        return Just(Value::from(lo)).sboxed();
    }
    if let Some(m) = obj.get("multipleOf").and_then(Value::as_f64)
        && m >= 1.0
        && m.fract() == 0.0
        && m < SAFE_INTEGER as f64
    {
        let m = m as i64;
        let (klo, khi) = (div_ceil(lo, m), lo.max(hi).div_euclid(m));
        if klo > khi {
            return Just(Value::from(lo)).sboxed();
        }
        return (klo..=khi).prop_map(move |k| Value::from(k * m)).sboxed();
    }
    (lo..=hi).prop_map(Value::from).sboxed()
}

/// The range of an integer `format` as Rust's schemars and OpenAPI write it (`int8` ..
/// `uint64`), unbounded otherwise. Valid values are drawn inside it: a server typed that way
/// (a Rust `u32` field) rejects what lies outside, although the schema, for which `format` is
/// an annotation, allows it, and its error then names that field rather than the one a broken
/// case broke. Only valid values are narrowed; a value outside is never called invalid.
fn format_range(obj: &Map<String, Value>) -> (i64, i64) {
    let unbounded = (i64::MIN, i64::MAX);
    match obj.get("format").and_then(Value::as_str) {
        Some("int8") => (i64::from(i8::MIN), i64::from(i8::MAX)),
        Some("int16") => (i64::from(i16::MIN), i64::from(i16::MAX)),
        Some("int32") => (i64::from(i32::MIN), i64::from(i32::MAX)),
        Some("uint8") => (0, i64::from(u8::MAX)),
        Some("uint16") => (0, i64::from(u16::MAX)),
        Some("uint32") => (0, i64::from(u32::MAX)),
        Some("uint64" | "uint" | "uint128") => (0, i64::MAX),
        _ => unbounded,
    }
}

fn div_ceil(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

fn number(obj: &Map<String, Value>) -> SBoxedStrategy<Value> {
    let num = |k: &str| obj.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
    let limit = 1e12;
    let lo = num("minimum")
        .into_iter()
        .chain(num("exclusiveMinimum"))
        .fold(-limit, f64::max);
    let hi = num("maximum")
        .into_iter()
        .chain(num("exclusiveMaximum"))
        .fold(limit, f64::min);
    let excl_lo = num("exclusiveMinimum").is_some_and(|x| x >= lo);
    let excl_hi = num("exclusiveMaximum").is_some_and(|x| x <= hi);
    if let Some(m) = num("multipleOf").filter(|m| *m > 0.0) {
        let mut klo = (lo / m).ceil();
        let mut khi = (hi / m).floor();
        if excl_lo && klo * m <= lo {
            klo += 1.0;
        }
        if excl_hi && khi * m >= hi {
            khi -= 1.0;
        }
        if klo > khi || klo.abs() > 1e15 || khi.abs() > 1e15 {
            return Just(to_number(lo)).sboxed();
        }
        return ((klo as i64)..=(khi as i64))
            .prop_map(move |k| to_number(k as f64 * m))
            .sboxed();
    }
    if lo > hi {
        return Just(to_number(lo)).sboxed();
    }
    // Whole numbers (which shrink to small ones) and fractions.
    let ilo = lo.ceil() as i64 + i64::from(excl_lo && lo.fract() == 0.0);
    let ihi = hi.floor() as i64 - i64::from(excl_hi && hi.fract() == 0.0);
    let whole = if ilo <= ihi {
        (ilo..=ihi).prop_map(Value::from).sboxed()
    } else {
        Just(to_number((lo + hi) / 2.0)).sboxed()
    };
    let fraction = (0.0f64..=1.0)
        .prop_map(move |t| to_number(lo + (hi - lo) * t))
        .sboxed();
    prop_oneof![3 => whole, 1 => fraction].sboxed()
}

fn to_number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < SAFE_INTEGER as f64 {
        return Value::from(x as i64);
    }
    Number::from_f64(x).map_or(Value::from(0), Value::Number)
}

fn array(obj: &Map<String, Value>, root: &Value, depth: usize) -> SBoxedStrategy<Value> {
    let min = usize_of(obj, "minItems").unwrap_or(0);
    let span = if depth > 3 { 1 } else { ARRAY_SPAN };
    let max = usize_of(obj, "maxItems").map_or(min + span, |m| m.min(min + span));
    let items = obj.get("items").cloned().unwrap_or(Value::Bool(true));
    let item = value_strategy(&items, root, depth + 1);
    let unique = obj.get("uniqueItems") == Some(&Value::Bool(true));
    proptest::collection::vec(item, min..=max.max(min))
        .prop_map(move |mut values| {
            if unique {
                let mut seen: Vec<Value> = Vec::with_capacity(values.len());
                values.retain(|v| {
                    if seen.contains(v) {
                        false
                    } else {
                        seen.push(v.clone());
                        true
                    }
                });
            }
            Value::Array(values)
        })
        .sboxed()
}

fn object(obj: &Map<String, Value>, root: &Value, depth: usize) -> SBoxedStrategy<Value> {
    let props = obj
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<String> = required_names(obj).map(str::to_owned).collect();
    let additional = obj.get("additionalProperties");
    let mut fields: Vec<SBoxedStrategy<Option<(String, Value)>>> = Vec::new();
    for (name, schema) in &props {
        let key = name.clone();
        let value =
            value_strategy(schema, root, depth + 1).prop_map(move |v| Some((key.clone(), v)));
        if required.contains(name) {
            fields.push(value.sboxed());
        } else {
            fields.push(
                proptest::option::weighted(0.6, value)
                    .prop_map(Option::flatten)
                    .sboxed(),
            );
        }
    }
    // Required properties the schema does not describe: any value its `additionalProperties`
    // allows.
    for name in required.iter().filter(|n| !props.contains_key(*n)) {
        let schema = match additional {
            Some(s @ Value::Object(_)) => s.clone(),
            _ => Value::Bool(true),
        };
        let key = name.clone();
        fields.push(
            value_strategy(&schema, root, depth + 1)
                .prop_map(move |v| Some((key.clone(), v)))
                .sboxed(),
        );
    }
    // A map (`additionalProperties` a schema, no properties): a few entries.
    let extra = match additional {
        Some(s @ Value::Object(_)) if props.is_empty() => {
            let min = usize_of(obj, "minProperties").unwrap_or(0);
            let max = usize_of(obj, "maxProperties").map_or(min + 3, |m| m.min(min + 3));
            proptest::collection::btree_map(
                "[a-z]{1,8}",
                value_strategy(s, root, depth + 1),
                min..=max.max(min),
            )
            .prop_map(|m| m.into_iter().collect::<Vec<_>>())
            .sboxed()
        }
        _ => Just(Vec::new()).sboxed(),
    };
    (fields, extra)
        .prop_map(|(fields, extra)| {
            let mut out = Map::new();
            for (k, v) in extra {
                out.insert(k, v);
            }
            for (k, v) in fields.into_iter().flatten() {
                out.insert(k, v);
            }
            Value::Object(out)
        })
        .sboxed()
}

/// One way to break a valid value: set (or, with `None`, remove) the value at `pointer`.
struct Mutation {
    pointer: String,
    keyword: &'static str,
    value: Option<Value>,
}

/// A value of a type `declared` does not allow.
fn wrong_type(declared: &[&str]) -> Option<Value> {
    let allows = |t: &str| {
        declared
            .iter()
            .any(|d| *d == t || (t == "integer" && *d == "number"))
    };
    [
        ("string", json!("not-the-right-type")),
        ("integer", json!(12345)),
        ("boolean", json!(true)),
        ("object", json!({})),
        ("array", json!([])),
    ]
    .into_iter()
    .find(|(t, _)| !allows(t))
    .map(|(_, v)| v)
}

/// Every way to break `value` at one place under `schema`, recursing into what it holds.
fn mutations(
    schema: &Value,
    root: &Value,
    value: &Value,
    ptr: &str,
    out: &mut Vec<Mutation>,
    depth: usize,
) {
    let schema = resolve(schema, root);
    let Some(obj) = schema.as_object() else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    let mut push = |keyword: &'static str, value: Option<Value>| {
        out.push(Mutation {
            pointer: ptr.to_owned(),
            keyword,
            value,
        });
    };
    if let Some(c) = obj.get("const") {
        push(
            "const",
            Some(match c {
                Value::String(s) => json!(format!("{s}-other")),
                _ => json!("not-the-const"),
            }),
        );
    }
    if let Some(Value::Array(members)) = obj.get("enum") {
        let candidates = [
            json!("not-a-member"),
            json!("not-a-member-2"),
            json!(-987_654),
        ];
        if let Some(outside) = candidates.into_iter().find(|c| !members.contains(c)) {
            push("enum", Some(outside));
        }
    }
    let declared = declared_types(schema);
    if !ptr.is_empty()
        && !declared.is_empty()
        && let Some(wrong) = wrong_type(&declared)
    {
        push("type", Some(wrong));
    }
    let num = |k: &str| obj.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
    match value {
        Value::String(s) => {
            let n = s.chars().count();
            if let Some(min) = usize_of(obj, "minLength").filter(|m| *m > 0) {
                push(
                    "minLength",
                    Some(json!(s.chars().take(min - 1).collect::<String>())),
                );
            }
            if let Some(max) = usize_of(obj, "maxLength").filter(|m| *m < 4096) {
                let mut longer: String = s.chars().take(max).collect();
                while longer.chars().count() <= max {
                    longer.push('x');
                }
                let _ = n;
                push("maxLength", Some(json!(longer)));
            }
            if let Some(pattern) = obj.get("pattern").and_then(Value::as_str) {
                let check = json!({"type": "string", "pattern": pattern});
                if let Some(miss) = ["", "!", " ", "~~~", "0", "A"]
                    .into_iter()
                    .find(|c| !crate::cases::sample::fits(&check, &json!(c)))
                {
                    push("pattern", Some(json!(miss)));
                }
            }
            if let Some(bad) = obj
                .get("format")
                .and_then(Value::as_str)
                .and_then(format_violation)
            {
                push("format", Some(json!(bad)));
            }
        }
        Value::Number(_) => {
            let is_int = declared.contains(&"integer");
            let step = if is_int { 1.0 } else { 0.5 };
            if let Some(m) = num("minimum") {
                push("minimum", Some(to_number(m.floor().min(m - step))));
            }
            if let Some(m) = num("maximum") {
                push("maximum", Some(to_number(m.ceil().max(m + step))));
            }
            if let Some(m) = num("exclusiveMinimum") {
                push("exclusiveMinimum", Some(to_number(m)));
            }
            if let Some(m) = num("exclusiveMaximum") {
                push("exclusiveMaximum", Some(to_number(m)));
            }
            if let (Some(m), Some(x)) = (num("multipleOf").filter(|m| *m > 0.0), value.as_f64())
                && !(is_int && m == 1.0)
            {
                let off = if is_int && m >= 2.0 {
                    (m / 2.0).floor()
                } else {
                    m / 2.0
                };
                push("multipleOf", Some(to_number(x + off)));
            }
        }
        Value::Array(items) => {
            if let Some(min) = usize_of(obj, "minItems").filter(|m| *m > 0) {
                push(
                    "minItems",
                    Some(Value::Array(items.iter().take(min - 1).cloned().collect())),
                );
            }
            if let Some(max) = usize_of(obj, "maxItems").filter(|m| *m < 1024)
                && let Some(first) = items.first()
            {
                let mut longer: Vec<Value> = items.iter().take(max).cloned().collect();
                let mut k = 0;
                while longer.len() <= max {
                    longer.push(items[k % items.len()].clone());
                    k += 1;
                }
                let _ = first;
                push("maxItems", Some(Value::Array(longer)));
            }
            if obj.get("uniqueItems") == Some(&Value::Bool(true))
                && let Some(first) = items.first()
            {
                let mut twice = items.clone();
                twice.push(first.clone());
                push("uniqueItems", Some(Value::Array(twice)));
            }
            let item_schema = obj.get("items").cloned().unwrap_or(Value::Bool(true));
            for (i, item) in items.iter().enumerate() {
                mutations(
                    &item_schema,
                    root,
                    item,
                    &format!("{ptr}/{i}"),
                    out,
                    depth + 1,
                );
            }
        }
        Value::Object(map) => {
            let folded = fold_all_of(obj);
            for name in required_names(&folded).filter(|n| map.contains_key(*n)) {
                out.push(Mutation {
                    pointer: join_pointer(ptr, name),
                    keyword: "required",
                    value: None,
                });
            }
            if folded.get("additionalProperties") == Some(&Value::Bool(false)) {
                out.push(Mutation {
                    pointer: join_pointer(ptr, "unexpected_property"),
                    keyword: "additionalProperties",
                    value: Some(json!("surprise")),
                });
            }
            let props = folded.get("properties").and_then(Value::as_object);
            for (name, sub) in map {
                if let Some(sub_schema) = props.and_then(|p| p.get(name)) {
                    mutations(
                        sub_schema,
                        root,
                        sub,
                        &join_pointer(ptr, name),
                        out,
                        depth + 1,
                    );
                }
            }
        }
        _ => {}
    }
}

/// The parent of `ptr` in `root` and the last token, unescaped.
fn parent_mut<'a>(root: &'a mut Value, ptr: &str) -> Option<(&'a mut Value, String)> {
    let (parent, last) = ptr.rsplit_once('/')?;
    let token = last.replace("~1", "/").replace("~0", "~");
    Some((root.pointer_mut(parent)?, token))
}

/// Sets the value at `ptr` (an object key, or an array index that exists).
pub(crate) fn set_at(root: &mut Value, ptr: &str, value: Value) -> bool {
    if ptr.is_empty() {
        *root = value;
        return true;
    }
    let Some((parent, token)) = parent_mut(root, ptr) else {
        return false;
    };
    match parent {
        Value::Object(map) => {
            map.insert(token, value);
            true
        }
        Value::Array(items) => match token.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// Removes the object key at `ptr`.
fn remove_at(root: &mut Value, ptr: &str) -> bool {
    match parent_mut(root, ptr) {
        Some((Value::Object(map), token)) => map.remove(&token).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_valid(schema: &Value, n: usize) {
        let validator = SchemaValidator::new(schema).unwrap();
        let strategy = valid_arguments(schema).unwrap();
        let mut runner = TestRunner::deterministic();
        for _ in 0..n {
            let mut tree = strategy.new_tree(&mut runner).unwrap();
            assert!(validator.is_valid(&tree.current()), "{}", tree.current());
            for _ in 0..50 {
                if !tree.simplify() {
                    break;
                }
                assert!(validator.is_valid(&tree.current()));
            }
        }
    }

    #[test]
    fn integers_stay_inside_their_format() {
        let schema = serde_json::json!({"type": "object", "required": ["n", "b"], "properties": {
            "n": {"type": "integer", "format": "uint32", "minimum": 0},
            "b": {"type": "integer", "format": "int8"}}});
        let strategy = valid_arguments(&schema).unwrap();
        let mut runner = TestRunner::deterministic();
        for _ in 0..256 {
            let args = strategy.new_tree(&mut runner).unwrap().current();
            let n = args["n"].as_i64().unwrap();
            let b = args["b"].as_i64().unwrap();
            assert!((0..=i64::from(u32::MAX)).contains(&n), "{args}");
            assert!((-128..=127).contains(&b), "{args}");
        }
    }

    fn run_broken(schema: &Value, n: usize) -> Vec<String> {
        let validator = SchemaValidator::new(schema).unwrap();
        let strategy = broken_arguments(schema).unwrap();
        let mut runner = TestRunner::deterministic();
        let mut keywords = Vec::new();
        for _ in 0..n {
            let mut tree = strategy.new_tree(&mut runner).unwrap();
            for _ in 0..50 {
                let b = tree.current();
                let v = validator.violations(&b.args);
                assert!(
                    !v.is_empty() && v.iter().all(|v| v.pointer == b.pointer),
                    "{b:?} {v:?}"
                );
                keywords.push(b.keyword);
                if !tree.simplify() {
                    break;
                }
            }
        }
        keywords.sort();
        keywords.dedup();
        keywords
    }

    fn every_keyword() -> Value {
        json!({
            "type": "object",
            "required": ["name", "count", "kind", "tags"],
            "additionalProperties": false,
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 6, "pattern": "^[a-z]+$"},
                "email": {"type": "string", "format": "email"},
                "count": {"type": "integer", "minimum": 1, "maximum": 9, "multipleOf": 3},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "kind": {"enum": ["a", "b"]},
                "fixed": {"const": "x"},
                "flag": {"type": ["boolean", "null"]},
                "tags": {"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": true,
                         "items": {"type": "string", "maxLength": 3}},
                "nested": {"type": "object", "required": ["at"], "additionalProperties": false,
                           "properties": {"at": {"type": "string", "format": "date"}}},
                "map": {"type": "object", "additionalProperties": {"type": "integer"}},
                "choice": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 2}]},
                "ref": {"$ref": "#/$defs/Small"}
            },
            "$defs": {"Small": {"type": "integer", "minimum": -3, "maximum": 3}}
        })
    }

    #[test]
    fn every_keyword_gives_valid_values_that_shrink_valid() {
        run_valid(&every_keyword(), 64);
    }

    #[test]
    fn broken_values_break_exactly_one_place() {
        let keywords = run_broken(&every_keyword(), 64);
        assert!(keywords.len() > 8, "{keywords:?}");
    }

    #[test]
    fn every_keyword_can_be_broken_in_exactly_one_place() {
        let schema = every_keyword();
        let validator = SchemaValidator::new(&schema).unwrap();
        let valid = json!({"name": "abc", "email": "a@example.com", "count": 3, "ratio": 0.5,
            "kind": "a", "fixed": "x", "flag": null, "tags": ["a", "b"],
            "nested": {"at": "2026-01-02"}, "map": {"k": 1}, "choice": 1, "ref": 0});
        assert!(validator.is_valid(&valid));
        let mut found = Vec::new();
        mutations(&schema, &schema, &valid, "", &mut found, 0);
        let mut broken = std::collections::BTreeSet::new();
        for m in found {
            let mut args = valid.clone();
            match m.value {
                Some(v) => assert!(set_at(&mut args, &m.pointer, v)),
                None => assert!(remove_at(&mut args, &m.pointer)),
            }
            let v = validator.violations(&args);
            if !v.is_empty() && v.iter().all(|v| v.pointer == m.pointer) {
                broken.insert(m.keyword);
            }
        }
        for k in [
            "required",
            "type",
            "enum",
            "const",
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minItems",
            "maxItems",
            "uniqueItems",
            "additionalProperties",
        ] {
            assert!(broken.contains(k), "{k} never broken: {broken:?}");
        }
    }

    #[test]
    fn every_action_of_an_action_tool_is_generated() {
        let schema = json!({
            "type": "object", "required": ["action"],
            "properties": {"action": {"type": "string", "enum": ["get", "put"]}, "data": {}},
            "allOf": [
                {"if": {"properties": {"action": {"const": "get"}}},
                 "then": {"properties": {"data": {"type": "object", "required": ["id"],
                     "properties": {"id": {"type": "string", "minLength": 1}}}}, "required": ["data"]}},
                {"if": {"properties": {"action": {"const": "put"}}},
                 "then": {"properties": {"data": {"type": "object", "required": ["n"],
                     "properties": {"n": {"type": "integer", "maximum": 5}}}}, "required": ["data"]}}
            ]
        });
        run_valid(&schema, 32);
        run_broken(&schema, 32);
        let strategy = valid_arguments(&schema).unwrap();
        let mut runner = TestRunner::deterministic();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..32 {
            let v = strategy.new_tree(&mut runner).unwrap().current();
            seen.insert(v["action"].as_str().unwrap().to_owned());
        }
        assert_eq!(seen.len(), 2, "{seen:?}");
    }

    #[test]
    fn patterns_with_classes_and_formats_with_lengths_give_valid_values() {
        for pattern in [
            r"^\d{4}-\d{2}$",
            r"^\w+@\w+\.com$",
            r"^[A-Z]{2}\s?\d+$",
            r"^[a-f0-9]{8}(-[a-f0-9]{4}){3}$",
            r"^(ab|cd)\.\d$",
        ] {
            let schema = json!({"type": "object", "required": ["s"],
                "properties": {"s": {"type": "string", "pattern": pattern, "maxLength": 40}}});
            run_valid(&schema, 32);
        }
    }

    #[test]
    fn pointers_with_slashes_and_tildes_are_escaped() {
        let schema = json!({"type": "object", "required": ["a/b~c"],
            "properties": {"a/b~c": {"type": "integer", "maximum": 3}}});
        let strategy = broken_arguments(&schema).unwrap();
        let mut runner = TestRunner::deterministic();
        let b = strategy.new_tree(&mut runner).unwrap().current();
        assert_eq!(b.pointer, "/a~1b~0c");
    }
}
