//! The rules: from one tool's input schema to base, boundary and negative cases.

use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::sample::{
    Sampler, declared_types, fitting_examples, format_violation, is_null_schema, primary_type,
};
use super::values::ValueError;
use super::{Boundary, Case, CaseOptions, DeriveError, Expectation};
use crate::validation::{SchemaError, SchemaValidator, describe, join_pointer, unescape_token};
use std::rc::Rc;

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
    /// The bound a valid mutation puts its value on (the keyword).
    boundary: Option<&'static str>,
}

/// The actions of an action tool (`{action: enum, data}` with `allOf` of `if`/`then` on the
/// action's `const`): each action's name and the `then` schema that applies to it.
pub(crate) fn actions(schema: &Value) -> Option<Vec<(String, Value)>> {
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
pub(crate) fn action_schema(root: &Value, action: &str, then: &Value) -> Value {
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

/// Why a tool got no cases.
pub(super) enum Failure {
    /// The schema: it does not compile, or no valid arguments could be derived.
    Schema(DeriveError),
    /// A value the user supplied.
    Value(ValueError),
}

impl From<Failure> for DeriveError {
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Schema(e) => e,
            Failure::Value(e) => DeriveError {
                tool: e.tool,
                action: e.action,
                message: format!("the value given for `{}` {}", e.pointer, e.message),
            },
        }
    }
}

/// The values the user gave for `tool`: its own entries over the `"*"` ones, each with
/// whether it is the tool's own (a `"*"` entry applies only where the schema declares it).
fn given_values(tool: &str, options: &CaseOptions) -> Vec<(String, Value, bool)> {
    let mut out: BTreeMap<&str, (&Value, bool)> = BTreeMap::new();
    for (name, own) in [("*", false), (tool, true)] {
        if let Some(values) = options.values.get(name) {
            for (pointer, value) in values {
                out.insert(pointer, (value, own));
            }
        }
    }
    out.into_iter()
        .map(|(p, (v, own))| (p.to_owned(), v.clone(), own))
        .collect()
}

/// The given values that `schema` declares a place for.
fn values_for(schema: &Value, given: &[(String, Value, bool)]) -> Vec<(String, Value)> {
    given
        .iter()
        .filter(|(pointer, _, _)| declares(schema, schema, pointer))
        .map(|(p, v, _)| (p.clone(), v.clone()))
        .collect()
}

pub(super) fn derive(
    tool: &str,
    schema: &Value,
    options: &CaseOptions,
) -> Result<Vec<Case>, Failure> {
    derive_with(tool, schema, options, &mut Validators::default())
}

/// The input validators compiled so far while deriving the cases of several tools, by input
/// schema: tools whose input schemas are equal share one, compiled once.
#[derive(Default)]
pub(super) struct Validators<'s> {
    by_hash: HashMap<u64, Vec<(&'s Value, Rc<SchemaValidator>)>, BuildFx>,
}

impl<'s> Validators<'s> {
    /// `schema` compiled, or the validator of an equal schema compiled before.
    fn get(&mut self, schema: &'s Value) -> Result<Rc<SchemaValidator>, SchemaError> {
        let hash = value_hash(schema);
        let same = self.by_hash.entry(hash).or_default();
        if let Some((_, validator)) = same.iter().find(|(s, _)| *s == schema) {
            return Ok(Rc::clone(validator));
        }
        let validator = Rc::new(SchemaValidator::new(schema)?);
        same.push((schema, Rc::clone(&validator)));
        Ok(validator)
    }
}

/// [`derive`], compiling the input schema through `validators`.
pub(super) fn derive_with<'s>(
    tool: &str,
    schema: &'s Value,
    options: &CaseOptions,
    validators: &mut Validators<'s>,
) -> Result<Vec<Case>, Failure> {
    let problem = |action: Option<&str>, message: String| {
        Failure::Schema(DeriveError {
            tool: tool.to_owned(),
            action: action.map(str::to_owned),
            message,
        })
    };
    let value_problem = |pointer: &str, message: String| {
        Failure::Value(ValueError {
            tool: tool.to_owned(),
            action: None,
            pointer: pointer.to_owned(),
            message,
        })
    };
    let given = given_values(tool, options);
    for (pointer, _, _) in &given {
        if !(pointer.is_empty() || pointer.starts_with('/')) {
            return Err(value_problem(
                pointer,
                "is not a JSON pointer: it must be empty or start with `/`".into(),
            ));
        }
    }
    let validator = validators
        .get(schema)
        .map_err(|e| problem(None, format!("the input schema does not compile: {e}")))?;
    let mut sampler = Sampler::new(options.seed);
    let mut cases = Collected::default();
    let mut used: HashSet<String> = HashSet::new();
    match actions(schema) {
        Some(actions) if !actions.is_empty() => {
            if let Some((pointer, _, _)) = given.iter().find(|(p, _, own)| *own && p == "/action") {
                return Err(value_problem(
                    pointer,
                    "is the action of an action tool, which the cases choose: every action gets its own cases".into(),
                ));
            }
            for (action, then) in &actions {
                let effective = action_schema(schema, action, then);
                let values = values_for(&effective, &given);
                used.extend(values.iter().map(|(p, _)| p.clone()));
                let ctx = Ctx {
                    tool,
                    action: Some(action),
                    validator: &validator,
                    values: &values,
                };
                ctx.derive_from(&effective, &mut sampler, options, &mut cases)
                    .map_err(|e| match e {
                        Derived::Value(e) => Failure::Value(e),
                        Derived::None(e) => problem(Some(action), e.to_string()),
                    })?;
            }
            if options.edge_cases {
                // One unknown action per tool (the action is the enum under test).
                let ctx = Ctx {
                    tool,
                    action: None,
                    validator: &validator,
                    values: &[],
                };
                let mut args = cases
                    .cases
                    .iter()
                    .find(|c: &&Case| c.expectation == Expectation::Success)
                    .map(|c| c.args.clone())
                    .unwrap_or(json!({}));
                args["action"] = json!("no_such_action");
                ctx.push(
                    &mut cases,
                    Cow::Owned(args),
                    Expectation::Error,
                    "rule:enum",
                    "rejects an unknown action".into(),
                    "\"action\" must be one of the declared actions; the server should reject any other"
                        .into(),
                    None,
                );
            }
        }
        _ => {
            let values = values_for(schema, &given);
            used.extend(values.iter().map(|(p, _)| p.clone()));
            let ctx = Ctx {
                tool,
                action: None,
                validator: &validator,
                values: &values,
            };
            ctx.derive_from(schema, &mut sampler, options, &mut cases)
                .map_err(|e| match e {
                    Derived::Value(e) => Failure::Value(e),
                    Derived::None(e) => problem(None, e.to_string()),
                })?;
        }
    }
    if let Some((pointer, _, _)) = given.iter().find(|(p, _, own)| *own && !used.contains(p)) {
        return Err(value_problem(
            pointer,
            "names nothing the input schema declares (no property at that pointer)".into(),
        ));
    }
    Ok(cases.cases)
}

/// Whether `schema` (inside `root`, for local `$ref`s) declares a place at `pointer`: through
/// `properties`, `items`, `prefixItems`, a local `$ref`, or any branch of `anyOf`, `oneOf`,
/// `allOf`, `then` or `else`. `additionalProperties` declares no name.
pub(super) fn declares(root: &Value, schema: &Value, pointer: &str) -> bool {
    if pointer.is_empty() {
        return true;
    }
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| unescape_token(t).into_owned())
        .collect();
    declares_tokens(root, schema, &tokens, 0)
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
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|p| root.pointer(p))
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

/// The cases of one tool as they are derived: each one kept only if no earlier case has the
/// same arguments and expectation (the tool is the same for all), with its title made unique.
///
/// Cases are told apart by a structural hash of their arguments, compared for equality only
/// on a collision: serializing every case's arguments to text for the key was a fifth of the
/// time of deriving the cases of a large server. The check runs before a case's arguments are
/// copied out of the working value, so a duplicate costs no copy.
#[derive(Default)]
struct Collected {
    cases: Vec<Case>,
    /// The indices of the cases in `cases`, by the hash of their arguments and expectation.
    seen: HashMap<(u64, Expectation), Vec<usize>, BuildFx>,
    titles: HashSet<String, BuildFx>,
}

impl Collected {
    /// Whether a case with these arguments and this expectation was kept already.
    fn has(&self, key: (u64, Expectation), args: &Value) -> bool {
        self.seen
            .get(&key)
            .is_some_and(|same| same.iter().any(|&i| self.cases[i].args == *args))
    }

    /// Keeps `case` (no duplicate: see [`Collected::has`]), its title made unique.
    fn keep(&mut self, key: (u64, Expectation), mut case: Case) {
        self.seen.entry(key).or_default().push(self.cases.len());
        if self.titles.contains(&case.title) {
            let base = std::mem::take(&mut case.title);
            let mut n = 2;
            loop {
                let title = format!("{base} ({n})");
                if !self.titles.contains(&title) {
                    case.title = title;
                    break;
                }
                n += 1;
            }
        }
        self.titles.insert(case.title.clone());
        self.cases.push(case);
    }
}

/// FxHash's multiply-rotate: the keys are not attacker-chosen (the cases and titles are the
/// engine's own) and equal hashes are compared anyway, so a fast hash is all the engine's
/// maps need; SipHash, restarted for every object member, cost a tenth of deriving all cases.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type BuildFx = BuildHasherDefault<Fx>;

/// A hash of `value` that agrees with its `==`: numbers by their kind and value, and an
/// object's members in any order (a `Map` compares as a map whichever order it keeps).
fn value_hash(value: &Value) -> u64 {
    fn feed(value: &Value, h: &mut Fx) {
        match value {
            Value::Null => 0u8.hash(h),
            Value::Bool(b) => (1u8, b).hash(h),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    (2u8, u).hash(h);
                } else if let Some(i) = n.as_i64() {
                    (3u8, i).hash(h);
                } else {
                    (4u8, n.as_f64().map(f64::to_bits)).hash(h);
                }
            }
            Value::String(s) => (5u8, s).hash(h),
            Value::Array(items) => {
                (6u8, items.len()).hash(h);
                for item in items {
                    feed(item, h);
                }
            }
            Value::Object(map) => {
                let members = map.iter().fold(0u64, |acc, (k, v)| {
                    let mut member = Fx::default();
                    k.hash(&mut member);
                    feed(v, &mut member);
                    acc.wrapping_add(member.finish())
                });
                (7u8, map.len(), members).hash(h);
            }
        }
    }
    let mut h = Fx::default();
    feed(value, &mut h);
    h.finish()
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

/// Why one schema (a tool's, or one action's) got no valid arguments.
enum Derived {
    /// A value the user gave does not fit.
    Value(ValueError),
    /// Nothing the generator tried fits.
    None(NoValidArguments),
}

struct Ctx<'a> {
    tool: &'a str,
    action: Option<&'a str>,
    validator: &'a SchemaValidator,
    /// The values the user gave that this schema declares, by pointer.
    values: &'a [(String, Value)],
}

impl Ctx<'_> {
    fn derive_from(
        &self,
        schema: &Value,
        sampler: &mut Sampler,
        options: &CaseOptions,
        cases: &mut Collected,
    ) -> Result<(), Derived> {
        let mut full = sampler.value(schema, 0);
        self.apply_values(&mut full)?;
        let minimal = minimal(schema, &full);
        let base = if self.validator.is_valid(&full) {
            full
        } else if self.validator.is_valid(&minimal) {
            minimal.clone()
        } else {
            return Err(Derived::None(NoValidArguments {
                violations: describe(&self.validator.violations(&full)),
                attempt: full,
            }));
        };
        self.push(
            cases,
            Cow::Borrowed(&base),
            Expectation::Success,
            "rule:base",
            "accepts valid arguments".into(),
            "every property filled with a value that satisfies every constraint".into(),
            None,
        );
        if !options.edge_cases {
            return Ok(());
        }
        if minimal != base {
            self.push(
                cases,
                Cow::Owned(minimal),
                Expectation::Success,
                "rule:required",
                "accepts only the required properties".into(),
                "optional properties may be left out".into(),
                None,
            );
        }
        let mut mutations = Vec::new();
        walk(schema, "", &base, sampler, &mut mutations, 0);
        // Each mutation is made on one working copy of the base, checked there, and undone:
        // only the arguments of a case that is kept are copied out.
        let mut work = base;
        for m in mutations {
            // The user's value wins over the schema's other valid values (its examples, the
            // other members of its enum, the empty string or array): a value the user gave is
            // often the one the server knows, such as an existing id.
            if let (Op::Set(ptr, _), "rule:examples" | "rule:enum" | "rule:empty") =
                (&m.op, m.source)
                && m.expectation == Expectation::Success
                && self.values.iter().any(|(p, _)| p == ptr)
            {
                continue;
            }
            let (ptr, undo, boundary) = match m.op {
                Op::Set(ptr, v) => {
                    let undo = set(&mut work, &ptr, v);
                    let boundary = m.boundary.map(|keyword| Boundary {
                        pointer: ptr.clone(),
                        keyword: keyword.to_owned(),
                    });
                    (ptr, undo, boundary)
                }
                Op::Remove(ptr) => {
                    let undo = remove(&mut work, &ptr);
                    (ptr, undo, None)
                }
            };
            let Some(undo) = undo else {
                continue;
            };
            self.push(
                cases,
                Cow::Borrowed(&work),
                m.expectation,
                m.source,
                m.title,
                m.rationale,
                boundary,
            );
            undo.apply(&mut work, &ptr);
        }
        Ok(())
    }

    /// Puts the user's values into `args`; an error names the first one the schema rejects.
    fn apply_values(&self, args: &mut Value) -> Result<(), Derived> {
        if self.values.is_empty() {
            return Ok(());
        }
        for (pointer, value) in self.values {
            set_creating(args, pointer, value.clone());
        }
        let violations = self.validator.violations(args);
        for (pointer, value) in self.values {
            let mine: Vec<_> = violations
                .iter()
                .filter(|v| is_at_or_under(&v.pointer, pointer))
                .cloned()
                .collect();
            if !mine.is_empty() {
                return Err(Derived::Value(ValueError {
                    tool: self.tool.to_owned(),
                    action: self.action.map(str::to_owned),
                    pointer: pointer.clone(),
                    message: format!(
                        "({}) does not fit the input schema:\n{}",
                        super::shorten(&value.to_string(), 120),
                        describe(&mine)
                    ),
                }));
            }
        }
        Ok(())
    }

    /// Adds a case if its prediction agrees with the real schema (a success (or observed) case
    /// must be valid, an error case invalid; mutations the schema does not catch are dropped)
    /// and no earlier case of the tool has the same arguments and expectation. Borrowed
    /// arguments are copied only when the case is kept.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &self,
        cases: &mut Collected,
        args: Cow<'_, Value>,
        expectation: Expectation,
        source: &str,
        title: String,
        rationale: String,
        boundary: Option<Boundary>,
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
        let key = (value_hash(&args), expectation);
        if cases.has(key, &args) {
            return;
        }
        let title = match self.action {
            Some(a) => format!("{a}: {title}"),
            None => title,
        };
        cases.keep(
            key,
            Case {
                tool: self.tool.to_owned(),
                title,
                args: args.into_owned(),
                expectation,
                rationale,
                source: source.to_owned(),
                boundary,
            },
        );
    }
}

/// Whether the JSON pointer `inner` is `outer` or below it.
fn is_at_or_under(inner: &str, outer: &str) -> bool {
    inner == outer || (inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/'))
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
    let anything = json!({});
    let mut out = Map::new();
    for (k, v) in map {
        if required.contains(k.as_str()) {
            let sub = props.and_then(|p| p.get(k)).unwrap_or(&anything);
            out.insert(k.clone(), minimal(sub, v));
        }
    }
    Value::Object(out)
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
                .find(|b| super::sample::fits(b, value));
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
        boundary: None,
    };
    // A valid value on the edge of what `keyword` allows (`None`: not exactly on it).
    let edge =
        |op, source, keyword: Option<&'static str>, title: String, rationale: String| Mutation {
            op,
            source,
            title,
            rationale,
            expectation: Expectation::Success,
            boundary: keyword,
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
        // rule:enum, positive: every member is a valid value on its own.
        for member in members.iter().filter(|m| *m != value) {
            out.push(edge(
                Op::Set(ptr.to_owned(), member.clone()),
                "rule:enum",
                None,
                format!("accepts {at} = {member}, a member of its enum"),
                format!("every member of the enum of {at} is a valid value"),
            ));
        }
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
    // rule:examples: every example the schema gives, beyond the one already sent.
    for (i, example) in fitting_examples(&schema).into_iter().enumerate() {
        if &example != value && !is_action {
            out.push(edge(
                Op::Set(ptr.to_owned(), example.clone()),
                "rule:examples",
                None,
                format!("accepts example {} of {at}", i + 1),
                format!("the schema gives {example} as an example of {at}"),
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
                Op::Set(ptr.to_owned(), empty),
                "rule:empty",
                None,
                format!("accepts {at} as {what}"),
                format!("the schema of {at} allows {what}"),
            ));
        }
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), json!(resize(current, min))),
                    "rule:min-length",
                    Some("minLength"),
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), json!(resize(current, max))),
                    "rule:max-length",
                    Some("maxLength"),
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), mk(m)),
                    "rule:bounds",
                    Some("minimum"),
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), mk(m)),
                    "rule:bounds",
                    Some("maximum"),
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), mk(m + step)),
                    "rule:bounds",
                    is_int.then_some("exclusiveMinimum"),
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), mk(m - step)),
                    "rule:bounds",
                    is_int.then_some("exclusiveMaximum"),
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), sampler.items_of(&schema, min)),
                    "rule:min-items",
                    Some("minItems"),
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
                out.push(edge(
                    Op::Set(ptr.to_owned(), sampler.items_of(&schema, max)),
                    "rule:max-items",
                    Some("maxItems"),
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
            // rule:optional: each optional property left out on its own.
            for name in map.keys().filter(|n| !required.contains(&n.as_str())) {
                let p = join_pointer(ptr, name);
                out.push(edge(
                    Op::Remove(p.clone()),
                    "rule:optional",
                    None,
                    format!("accepts no `{p}`, an optional property"),
                    format!("{name:?} is not required in {at}: it may be left out"),
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
                    boundary: None,
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
    // Each schema compiled once for all the candidates.
    let without = super::sample::compiled(&Value::Object(without));
    let with = super::sample::compiled(schema);
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

/// How to undo one edit of the working arguments (see [`set`] and [`remove`]).
enum Undo {
    /// The whole value was replaced: the old one.
    Root(Value),
    /// A member of an object was replaced: the old value.
    Replaced(Value),
    /// A member absent from an object was added.
    Added,
    /// An array item was replaced: the old one.
    Item(Value),
    /// A member of an object was removed: its key and value.
    Removed(String, Value),
}

impl Undo {
    /// Puts back what the edit at `ptr` changed in `root`.
    fn apply(self, root: &mut Value, ptr: &str) {
        if let Undo::Root(old) = self {
            *root = old;
            return;
        }
        let Some((parent, last)) = ptr.rsplit_once('/') else {
            return;
        };
        let key = unescape_token(last);
        match (self, parent_mut(root, parent)) {
            (Undo::Replaced(old), Some(Value::Object(map))) => {
                if let Some(slot) = map.get_mut(key.as_ref()) {
                    *slot = old;
                }
            }
            (Undo::Added, Some(Value::Object(map))) => {
                map.remove(key.as_ref());
            }
            (Undo::Removed(key, old), Some(Value::Object(map))) => {
                map.insert(key, old);
            }
            (Undo::Item(old), Some(Value::Array(items))) => {
                if let Some(slot) = key.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                    *slot = old;
                }
            }
            _ => {}
        }
    }
}

/// The value at a JSON pointer, as [`Value::pointer_mut`] finds it, without allocating for
/// tokens that need no unescaping.
fn parent_mut<'a>(root: &'a mut Value, ptr: &str) -> Option<&'a mut Value> {
    if ptr.is_empty() {
        return Some(root);
    }
    let tokens = ptr.strip_prefix('/')?;
    let mut current = root;
    for token in tokens.split('/') {
        let token = unescape_token(token);
        current = match current {
            Value::Object(map) => map.get_mut(token.as_ref())?,
            Value::Array(items) => {
                // As `pointer_mut`: no sign, no leading zero.
                if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
                    return None;
                }
                items.get_mut(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(current)
}

/// Sets the value at a JSON pointer, creating the last key of an object. `None` when the
/// parent does not exist; otherwise how to undo it.
fn set(root: &mut Value, ptr: &str, value: Value) -> Option<Undo> {
    if ptr.is_empty() {
        return Some(Undo::Root(std::mem::replace(root, value)));
    }
    let (parent, last) = ptr.rsplit_once('/')?;
    let key = unescape_token(last);
    match parent_mut(root, parent)? {
        Value::Object(map) => match map.get_mut(key.as_ref()) {
            Some(slot) => Some(Undo::Replaced(std::mem::replace(slot, value))),
            None => {
                map.insert(key.into_owned(), value);
                Some(Undo::Added)
            }
        },
        Value::Array(items) => {
            let slot = key.parse::<usize>().ok().and_then(|i| items.get_mut(i))?;
            Some(Undo::Item(std::mem::replace(slot, value)))
        }
        _ => None,
    }
}

/// Sets the value at a JSON pointer, creating missing objects on the way. False when a step
/// is neither an object nor an array with that index.
fn set_creating(root: &mut Value, ptr: &str, value: Value) -> bool {
    if ptr.is_empty() {
        *root = value;
        return true;
    }
    let tokens: Vec<String> = ptr
        .split('/')
        .skip(1)
        .map(|t| unescape_token(t).into_owned())
        .collect();
    let mut current = root;
    for (i, token) in tokens.iter().enumerate() {
        let last = i + 1 == tokens.len();
        if current.is_null() {
            *current = json!({});
        }
        current = match current {
            Value::Object(map) => {
                if last {
                    map.insert(token.clone(), value);
                    return true;
                }
                map.entry(token.clone()).or_insert(Value::Null)
            }
            Value::Array(items) => match token.parse::<usize>() {
                Ok(n) if n < items.len() => {
                    if last {
                        items[n] = value;
                        return true;
                    }
                    &mut items[n]
                }
                Ok(n) if n == items.len() && last => {
                    items.push(value);
                    return true;
                }
                _ => return false,
            },
            _ => return false,
        };
    }
    false
}

/// Removes the member at a JSON pointer. `None` when there is none; otherwise how to undo it.
fn remove(root: &mut Value, ptr: &str) -> Option<Undo> {
    let (parent, last) = ptr.rsplit_once('/')?;
    let key = unescape_token(last);
    match parent_mut(root, parent)? {
        Value::Object(map) => {
            let (key, old) = map.remove_entry(key.as_ref())?;
            Some(Undo::Removed(key, old))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn derive_with(schema: &Value, options: &CaseOptions) -> Result<Vec<Case>, DeriveError> {
        derive("t", schema, options).map_err(DeriveError::from)
    }

    fn base(schema: &Value, options: &CaseOptions) -> Value {
        derive_with(schema, options).unwrap()[0].args.clone()
    }

    fn file_schema() -> Value {
        json!({"type": "object", "required": ["path"], "properties": {
            "path": {"type": "string", "minLength": 1},
            "when": {"type": "string", "format": "date"},
            "tz": {"type": "string", "examples": ["Europe/Paris", "UTC"]},
            "mode": {"enum": ["r", "w"], "default": "w"},
            "id": {"type": "string", "format": "uuid"}
        }, "additionalProperties": false})
    }

    #[test]
    fn the_base_case_takes_the_schema_own_values() {
        assert_eq!(
            base(&file_schema(), &CaseOptions::default()),
            json!({"path": "sample", "when": "2026-01-01", "tz": "Europe/Paris", "mode": "w",
                   "id": "123e4567-e89b-42d3-a456-426614174000"})
        );
    }

    #[test]
    fn every_other_example_is_an_extra_valid_case() {
        let cases = derive_with(&file_schema(), &CaseOptions::default()).unwrap();
        let examples: Vec<&Case> = cases
            .iter()
            .filter(|c| c.source == "rule:examples")
            .collect();
        assert_eq!(examples.len(), 1, "{examples:#?}");
        assert_eq!(examples[0].args["tz"], "UTC");
        assert_eq!(examples[0].title, "accepts example 2 of `/tz`");
        assert_eq!(examples[0].expectation, Expectation::Success);
        // Whole-argument examples on the root too.
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}},
            "examples": [{"n": 4}, {"n": 5}]});
        let cases = derive_with(&schema, &CaseOptions::default()).unwrap();
        assert_eq!(cases[0].args, json!({"n": 4}));
        assert!(
            cases
                .iter()
                .any(|c| c.args == json!({"n": 5}) && c.source == "rule:examples")
        );
    }

    #[test]
    fn user_values_win_over_everything_and_reach_every_valid_case() {
        let options = CaseOptions::default()
            .value("t", "/path", json!("/etc/hostname"))
            .value("t", "/tz", json!("Asia/Tokyo"))
            .value("*", "/when", json!("2030-12-31"))
            .value("*", "/not_here", json!(1))
            .value("other", "/path", json!(7));
        let cases = derive_with(&file_schema(), &options).unwrap();
        assert_eq!(cases[0].args["path"], "/etc/hostname");
        assert_eq!(cases[0].args["tz"], "Asia/Tokyo");
        assert_eq!(cases[0].args["when"], "2030-12-31");
        assert!(
            cases[0].args.get("not_here").is_none(),
            "a `*` value goes only where declared"
        );
        // The other example of /tz is not sent: the user's value wins.
        assert!(cases.iter().all(|c| c.source != "rule:examples"));
        for c in cases
            .iter()
            .filter(|c| c.expectation == Expectation::Success)
        {
            if c.boundary.as_ref().is_none_or(|b| b.pointer != "/path") {
                assert_eq!(c.args["path"], "/etc/hostname", "{}", c.title);
            }
        }
        // The tool's own value wins over `*`.
        let options = CaseOptions::default()
            .value("*", "/tz", json!("UTC"))
            .value("t", "/tz", json!("CET"));
        assert_eq!(base(&file_schema(), &options)["tz"], "CET");
    }

    #[test]
    fn a_user_value_the_schema_rejects_is_an_error_naming_tool_pointer_and_violation() {
        let options = CaseOptions::default().value("t", "/when", json!("31/12/2030"));
        let e = derive_with(&file_schema(), &options).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tool \"t\": the value given for `/when` (\"31/12/2030\") does not fit the input schema:\n- /when: \"31/12/2030\" is not a \"date\""
        );
        let options = CaseOptions::default().value("t", "/nope", json!(1));
        let e = derive_with(&file_schema(), &options).unwrap_err();
        assert!(
            e.to_string()
                .contains("`/nope` names nothing the input schema declares"),
            "{e}"
        );
        let options = CaseOptions::default().value("t", "path", json!("x"));
        let e = derive_with(&file_schema(), &options).unwrap_err();
        assert!(e.to_string().contains("is not a JSON pointer"), "{e}");
        // A `*` value must fit every tool that declares its pointer.
        let options = CaseOptions::default().value("*", "/mode", json!("x"));
        let e = derive_with(&file_schema(), &options).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("tool \"t\": the value given for `/mode`"),
            "{e}"
        );
    }

    #[test]
    fn user_values_reach_nested_places_and_one_action() {
        let schema = json!({"type": "object", "properties": {
            "action": {"type": "string", "enum": ["open", "close"]},
            "data": {}
        }, "required": ["action"], "allOf": [
            {"if": {"properties": {"action": {"const": "open"}}},
             "then": {"properties": {"data": {"type": "object",
                "properties": {"file": {"type": "string"}}, "required": ["file"],
                "additionalProperties": false}}, "required": ["data"]}},
            {"if": {"properties": {"action": {"const": "close"}}},
             "then": {"properties": {"data": {"type": "object",
                "properties": {"handle": {"type": "integer"}}, "required": ["handle"],
                "additionalProperties": false}}, "required": ["data"]}}
        ]});
        let options = CaseOptions::default().value("t", "/data/file", json!("/tmp/a"));
        let cases = derive_with(&schema, &options).unwrap();
        let open = cases
            .iter()
            .find(|c| c.title == "open: accepts valid arguments")
            .unwrap();
        assert_eq!(open.args["data"]["file"], "/tmp/a");
        let close = cases
            .iter()
            .find(|c| c.title == "close: accepts valid arguments")
            .unwrap();
        assert!(close.args["data"].get("file").is_none(), "{}", close.args);
        let options = CaseOptions::default().value("t", "/action", json!("open"));
        assert!(derive_with(&schema, &options).is_err());
    }

    #[test]
    fn boundary_cases_name_their_pointer_and_keyword() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 9},
            "x": {"type": "integer", "exclusiveMaximum": 5},
            "r": {"type": "number", "exclusiveMinimum": 0},
            "s": {"type": "string", "minLength": 2, "maxLength": 4},
            "a": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "integer"}}
        }});
        let cases = derive_with(&schema, &CaseOptions::default()).unwrap();
        let mut found: Vec<(String, String, Value)> = cases
            .iter()
            .filter_map(|c| {
                let b = c.boundary.as_ref()?;
                assert_eq!(c.expectation, Expectation::Success);
                Some((
                    b.pointer.clone(),
                    b.keyword.clone(),
                    c.args.pointer(&b.pointer)?.clone(),
                ))
            })
            .collect();
        found.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let s = |a: &str, b: &str, v: Value| (a.to_owned(), b.to_owned(), v);
        assert_eq!(
            found,
            [
                s("/a", "maxItems", json!([1, 2, 3])),
                s("/a", "minItems", json!([1])),
                s("/n", "maximum", json!(9)),
                s("/n", "minimum", json!(1)),
                s("/s", "maxLength", json!("samm")),
                s("/s", "minLength", json!("sa")),
                s("/x", "exclusiveMaximum", json!(4)),
            ]
        );
        // Every boundary case differs from the base case at its pointer only.
        for c in cases.iter().filter(|c| c.boundary.is_some()) {
            let p = &c.boundary.as_ref().unwrap().pointer;
            let (mut a, mut b) = (c.args.clone(), cases[0].args.clone());
            set(&mut a, p, Value::Null);
            set(&mut b, p, Value::Null);
            assert_eq!(a, b, "{}", c.title);
        }
    }

    #[test]
    fn set_creating_makes_the_objects_on_the_way() {
        let mut v = json!({"a": 1});
        assert!(set_creating(&mut v, "/b/c~1d", json!(2)));
        assert_eq!(v, json!({"a": 1, "b": {"c/d": 2}}));
        let mut v = json!({"l": [1]});
        assert!(set_creating(&mut v, "/l/1", json!(2)));
        assert!(!set_creating(&mut v, "/l/5", json!(2)));
        assert!(!set_creating(&mut v, "/a/x", json!(2)) || v["a"]["x"] == 2);
        assert!(declares(&file_schema(), &file_schema(), "/tz"));
        assert!(!declares(&file_schema(), &file_schema(), "/tz/x"));
    }
}
