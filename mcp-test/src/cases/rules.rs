//! The rules: from one tool's input schema to base, boundary and negative cases.

use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use super::args::{CaseArgs, Edit};
use super::hash::{BaseHashes, BuildFx, str_hash, value_hash};
use super::sample::{
    Sampler, declared_types, fitting_examples, format_violation, is_null_schema, primary_type,
};
use super::{Boundary, Case, CaseOptions, DeriveError, Expectation};
use crate::schema::required_names;
use crate::validation::{SchemaError, SchemaValidator, describe, join_pointer, unescape_token};
use std::rc::Rc;
use std::sync::Arc;

struct Mutation {
    /// The edit of the base arguments.
    op: Edit,
    source: &'static str,
    title: String,
    rationale: String,
    expectation: Expectation,
    /// The bound a valid mutation puts its value on (the keyword).
    boundary: Option<&'static str>,
    /// The schema gives the outcome for certain, so checking the edited arguments against the
    /// whole schema would only say so again: an error case whose edited value breaks a keyword
    /// of a schema that applies to it as it stands (see [`Reach`]), or a valid case whose value
    /// every keyword of its schema accepts, below schemas that only look at it through
    /// `properties` or `items` (see [`Reach::open`]).
    sure: bool,
}

/// The text `format!` would make of `pieces` (each a [`Piece`]: text, a number, a JSON value or
/// a [`Debugged`] one) at a fraction of its cost: every case has a title and a rationale, and
/// `format!`'s general machinery was a tenth of the time of deriving a large server's cases.
macro_rules! text {
    ($($piece:expr),+ $(,)?) => {{
        let mut out = String::with_capacity(0 $(+ Piece::size(&$piece))+);
        $(Piece::put(&$piece, &mut out);)+
        out
    }};
}

/// One piece of a [`text!`], written as `{}` writes it.
trait Piece {
    /// About how many bytes it takes.
    fn size(&self) -> usize;
    /// Appends it to `out`.
    fn put(&self, out: &mut String);
}

impl Piece for str {
    fn size(&self) -> usize {
        self.len()
    }
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    fn size(&self) -> usize {
        self.len()
    }
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    fn size(&self) -> usize {
        (**self).size()
    }
    fn put(&self, out: &mut String) {
        (**self).put(out);
    }
}

impl Piece for usize {
    fn size(&self) -> usize {
        4
    }
    fn put(&self, out: &mut String) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut n = *self;
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        out.extend(digits[at..].iter().map(|&d| char::from(d)));
    }
}

impl Piece for f64 {
    fn size(&self) -> usize {
        8
    }
    fn put(&self, out: &mut String) {
        // Whole numbers print as `{}` prints them (no fraction, no exponent); `-0` and the
        // rest go through `Display`.
        if self.fract() == 0.0 && self.abs() < 1e15 && !(*self == 0.0 && self.is_sign_negative()) {
            if *self < 0.0 {
                out.push('-');
            }
            (self.abs() as usize).put(out);
        } else {
            use std::fmt::Write;
            let _ = write!(out, "{self}");
        }
    }
}

impl Piece for Value {
    fn size(&self) -> usize {
        16
    }
    fn put(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{self}");
    }
}

/// Words with a separator between each two, as `[&str]::join` writes them.
struct Joined<'a>(&'a [&'a str], &'a str);

impl Piece for Joined<'_> {
    fn size(&self) -> usize {
        self.0.iter().map(|w| w.len()).sum::<usize>()
            + self.1.len() * self.0.len().saturating_sub(1)
    }
    fn put(&self, out: &mut String) {
        for (i, word) in self.0.iter().enumerate() {
            if i > 0 {
                out.push_str(self.1);
            }
            out.push_str(word);
        }
    }
}

/// A piece written as `{:?}` writes it.
struct Debugged<'a, T: fmt::Debug + ?Sized>(&'a T);

impl<T: fmt::Debug + ?Sized> Piece for Debugged<'_, T> {
    fn size(&self) -> usize {
        16
    }
    fn put(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{:?}", self.0);
    }
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

/// A supplied value that cannot be used: what it was given for, and why.
///
/// ```
/// use mcp_test::cases::{check_values, CaseOptions};
/// use serde_json::json;
/// let tools = vec![json!({"name": "read_file", "inputSchema": {"type": "object",
///     "properties": {"path": {"type": "string", "minLength": 1}}}})];
/// let options = CaseOptions::default().value("read_file", "/path", json!(""));
/// let errors = check_values(&tools, &options);
/// assert_eq!(errors[0].pointer, "/path");
/// assert_eq!(
///     errors[0].to_string(),
///     "tool \"read_file\": the value given for `/path` (\"\") does not fit the input schema:\n\
///      - /path: \"\" is shorter than 1 character"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ValueError {
    /// The tool (`"*"` for a value given for every tool).
    pub tool: String,
    /// The action of an action tool whose schema rejects the value, if it is one action's.
    pub action: Option<String>,
    /// The JSON pointer the value was given for.
    pub pointer: String,
    /// Why it cannot be used, following "the value given for `pointer`".
    pub message: String,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool {:?}", self.tool)?;
        if let Some(action) = &self.action {
            write!(f, ", action {action:?}")?;
        }
        write!(
            f,
            ": the value given for `{}` {}",
            self.pointer, self.message
        )
    }
}

impl std::error::Error for ValueError {}

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
    let mut cases = Vec::new();
    derive_with(tool, schema, options, &mut Engine::default(), &mut cases)?;
    Ok(cases)
}

/// What deriving the cases of several tools on one thread shares from tool to tool: the input
/// schemas compiled so far (tools whose input schemas are equal share one [`Compiled`], made
/// once), and the working buffers, whose room is kept. Large allocations made afresh for each
/// tool were a tenth of the time of deriving a large server's cases: glibc consolidates its
/// free lists of small chunks on every one.
#[derive(Default)]
pub(super) struct Engine<'s> {
    by_hash: HashMap<u64, Vec<(&'s Value, Rc<Compiled>)>, BuildFx>,
    /// The `pattern`s compiled so far, shared by the validators.
    patterns: jsonschema::PatternCache,
    /// The de-duplication indexes of the tool being derived.
    index: Index,
    /// The mutations of the base being derived.
    mutations: Vec<Mutation>,
}

/// What the cases of a tool need of its input schema, made once per distinct schema.
pub(super) struct Compiled {
    validator: SchemaValidator,
    /// For an action tool: each action, and the schema that action sees.
    actions: Option<Vec<(String, Value)>>,
}

impl<'s> Engine<'s> {
    /// `schema` compiled, or an equal schema compiled before.
    fn get(&mut self, schema: &'s Value) -> Result<Rc<Compiled>, SchemaError> {
        let hash = value_hash(schema);
        let same = self.by_hash.entry(hash).or_default();
        if let Some((_, compiled)) = same.iter().find(|(s, _)| *s == schema) {
            return Ok(Rc::clone(compiled));
        }
        let compiled = Rc::new(Compiled {
            validator: SchemaValidator::with_patterns(schema, &self.patterns)?,
            actions: actions(schema).map(|actions| {
                actions
                    .into_iter()
                    .map(|(action, then)| {
                        let effective = action_schema(schema, &action, &then);
                        (action, effective)
                    })
                    .collect()
            }),
        });
        same.push((schema, Rc::clone(&compiled)));
        Ok(compiled)
    }
}

/// [`derive`], compiling the input schema through `engine`, the cases appended to `out`
/// (none when the tool fails).
pub(super) fn derive_with<'s>(
    tool: &str,
    schema: &'s Value,
    options: &CaseOptions,
    engine: &mut Engine<'s>,
    out: &mut Vec<Case>,
) -> Result<(), Failure> {
    let start = out.len();
    let derived = derive_tool(tool, schema, options, engine, out);
    if derived.is_err() {
        out.truncate(start);
    }
    derived
}

fn derive_tool<'s>(
    tool: &str,
    schema: &'s Value,
    options: &CaseOptions,
    engine: &mut Engine<'s>,
    out: &mut Vec<Case>,
) -> Result<(), Failure> {
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
    let compiled = engine
        .get(schema)
        .map_err(|e| problem(None, format!("the input schema does not compile: {e}")))?;
    let mut sampler = Sampler::new(options.selection.seed);
    let Engine {
        index, mutations, ..
    } = engine;
    let mut cases = Collected::new(out, index);
    let mut used: HashSet<String> = HashSet::new();
    match &compiled.actions {
        Some(actions) if !actions.is_empty() => {
            if let Some((pointer, _, _)) = given.iter().find(|(p, _, own)| *own && p == "/action") {
                return Err(value_problem(
                    pointer,
                    "is the action of an action tool, which the cases choose: every action gets its own cases".into(),
                ));
            }
            for (action, effective) in actions {
                let values = values_for(effective, &given);
                used.extend(values.iter().map(|(p, _)| p.clone()));
                let ctx = Ctx {
                    tool,
                    action: Some(action),
                    validator: &compiled.validator,
                    values: &values,
                };
                ctx.derive_from(effective, &mut sampler, options, &mut cases, mutations)
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
                    validator: &compiled.validator,
                    values: &[],
                };
                let mut args = cases
                    .kept()
                    .iter()
                    .find(|c: &&Case| c.expectation == Expectation::Success)
                    .map_or_else(|| json!({}), |c| Value::clone(&c.args));
                args["action"] = json!("no_such_action");
                ctx.push(
                    &mut cases,
                    CaseArgs::from(args),
                    Expectation::Error,
                    "rule:enum",
                    "rejects an unknown action".into(),
                    "\"action\" must be one of the declared actions; the server should reject any other"
                        .into(),
                );
            }
        }
        _ => {
            let values = values_for(schema, &given);
            used.extend(values.iter().map(|(p, _)| p.clone()));
            let ctx = Ctx {
                tool,
                action: None,
                validator: &compiled.validator,
                values: &values,
            };
            ctx.derive_from(schema, &mut sampler, options, &mut cases, mutations)
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
    Ok(())
}

/// Whether `schema` (inside `root`, for local `$ref`s) declares a place at `pointer`: through
/// `properties`, `items`, `prefixItems`, a local `$ref`, or any branch of `anyOf`, `oneOf`,
/// `allOf`, `then` or `else`. `additionalProperties` declares no name.
pub(super) fn declares(root: &Value, schema: &Value, pointer: &str) -> bool {
    if pointer.is_empty() {
        return true;
    }
    declares_tokens(root, schema, &tokens(pointer), 0)
}

/// The unescaped reference tokens of a non-empty JSON pointer.
fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| unescape_token(t).into_owned())
        .collect()
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
/// kept. Both indexes are chains through `cases` (a map from a hash to the last case with it,
/// and from each case to the one before it with the same hash), so keeping a case allocates
/// nothing beyond the amortized growth of three vectors and two maps.
struct Collected<'a> {
    /// Every case derived so far; this tool's from `start`.
    cases: &'a mut Vec<Case>,
    start: usize,
    index: &'a mut Index,
}

/// The indexes of [`Collected`], by position in its cases from `start`.
#[derive(Default)]
pub(super) struct Index {
    /// The last case with each key (hash of the arguments, expectation).
    by_args: HashMap<(u64, Expectation), usize, BuildFx>,
    /// Per case, the case before it with the same key.
    same_args: Vec<Option<usize>>,
    /// The last case with each hash of a title.
    by_title: HashMap<u64, usize, BuildFx>,
    /// Per case, the case before it with the same title hash.
    same_title: Vec<Option<usize>>,
}

impl<'a> Collected<'a> {
    /// The cases of a tool, appended to `cases`, indexed by `index` (emptied first).
    fn new(cases: &'a mut Vec<Case>, index: &'a mut Index) -> Self {
        index.by_args.clear();
        index.same_args.clear();
        index.by_title.clear();
        index.same_title.clear();
        Collected {
            start: cases.len(),
            cases,
            index,
        }
    }

    /// The tool's cases kept so far.
    fn kept(&self) -> &[Case] {
        &self.cases[self.start..]
    }

    /// Room for `n` more cases (a tool's mutations are known before they are checked).
    fn reserve(&mut self, n: usize) {
        self.cases.reserve(n);
        self.index.same_args.reserve(n);
        self.index.same_title.reserve(n);
        self.index.by_args.reserve(n);
        self.index.by_title.reserve(n);
    }

    /// The cases along one chain, from `head` back.
    fn chain(next: &[Option<usize>], head: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(head, move |&i| next[i])
    }

    /// Whether a case with these arguments and this expectation was kept already.
    fn has(&self, key: (u64, Expectation), args: &Value) -> bool {
        let kept = self.kept();
        Self::chain(&self.index.same_args, self.index.by_args.get(&key).copied())
            .any(|i| kept[i].args.same_as(args))
    }

    /// Whether a case with this key may have been kept already (its hash was seen).
    fn may_have(&self, key: (u64, Expectation)) -> bool {
        self.index.by_args.contains_key(&key)
    }

    /// Whether a case titled `title` was kept already.
    fn has_title(&self, hash: u64, title: &str) -> bool {
        let kept = self.kept();
        Self::chain(
            &self.index.same_title,
            self.index.by_title.get(&hash).copied(),
        )
        .any(|i| kept[i].title == title)
    }

    /// Keeps `case` (no duplicate: see [`Collected::has`]), its title made unique.
    fn keep(&mut self, key: (u64, Expectation), mut case: Case) {
        let mut title_hash = str_hash(&case.title);
        if self.has_title(title_hash, &case.title) {
            let base = std::mem::take(&mut case.title);
            let mut n = 2;
            loop {
                let title = format!("{base} ({n})");
                title_hash = str_hash(&title);
                if !self.has_title(title_hash, &title) {
                    case.title = title;
                    break;
                }
                n += 1;
            }
        }
        let i = self.cases.len() - self.start;
        let index = &mut *self.index;
        index.same_args.push(index.by_args.insert(key, i));
        index.same_title.push(index.by_title.insert(title_hash, i));
        self.cases.push(case);
    }
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
        cases: &mut Collected<'_>,
        mutations: &mut Vec<Mutation>,
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
        let base = Arc::new(base);
        self.push(
            cases,
            CaseArgs::shared(&base),
            Expectation::Success,
            "rule:base",
            "accepts valid arguments".into(),
            "every property filled with a value that satisfies every constraint".into(),
        );
        if !options.edge_cases {
            return Ok(());
        }
        if minimal != *base {
            self.push(
                cases,
                CaseArgs::from(minimal),
                Expectation::Success,
                "rule:required",
                "accepts only the required properties".into(),
                "optional properties may be left out".into(),
            );
        }
        mutations.clear();
        walk(schema, "", Reach::ROOT, &base, sampler, mutations, 0);
        cases.reserve(mutations.len());
        // Each mutation is made on one working copy of the base, checked there, and undone. A
        // case that is kept holds the shared base and its one edit, never a copy.
        let mut work = Value::clone(&base);
        let mut hashes = BaseHashes::new(&base);
        for m in mutations.drain(..) {
            // The user's value wins over the schema's other valid values (its examples, the
            // other members of its enum, the empty string or array): a value the user gave is
            // often the one the server knows, such as an existing id.
            if let (Edit::Set(ptr, _), "rule:examples" | "rule:enum" | "rule:empty") =
                (&m.op, m.source)
                && m.expectation == Expectation::Success
                && self.values.iter().any(|(p, _)| **p == **ptr)
            {
                continue;
            }
            let mut edit = m.op;
            let Some(hash) = hashes.edited(&edit) else {
                continue;
            };
            let key = (hash, m.expectation);
            let key = if m.sure
                && !self.action_at(edit.pointer())
                // An action's schema is merged from the root's and its `then`'s: what is
                // rejected by either is rejected, but what both accept is not the whole story.
                && (m.expectation == Expectation::Error || self.action.is_none())
                && !cases.may_have(key)
            {
                // Its outcome certain, and no kept case has its hash: kept without making the
                // edit (a place the hash finds is a place to make it) or checking the schema.
                debug_assert!(
                    self.predicts(&mut work, &mut edit, m.expectation),
                    "{}",
                    m.title
                );
                key
            } else {
                let admitted = edit.tried(&mut work, |args| {
                    self.admit(cases, args, hash, m.expectation)
                });
                let Some(Some(key)) = admitted else {
                    continue;
                };
                key
            };
            let boundary = m.boundary.map(|keyword| Boundary {
                pointer: edit.pointer().to_owned(),
                keyword: keyword.to_owned(),
            });
            self.keep(
                cases,
                key,
                CaseArgs::edited(&base, edit),
                m.expectation,
                m.source,
                m.title,
                m.rationale,
                boundary,
            );
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

    /// Adds a case whose arguments are a whole value (not an edit of the base) if
    /// [`Ctx::admit`] lets it in.
    fn push(
        &self,
        cases: &mut Collected<'_>,
        args: CaseArgs,
        expectation: Expectation,
        source: &str,
        title: String,
        rationale: String,
    ) {
        if let Some(key) = self.admit(cases, &args, value_hash(&args), expectation) {
            self.keep(
                cases,
                key,
                args,
                expectation,
                source,
                title,
                rationale,
                None,
            );
        }
    }

    /// Whether a case with `args` is to be kept, and its key if so: its prediction agrees
    /// with the real schema (a success (or observed) case must be valid, an error case
    /// invalid; mutations the schema does not catch are dropped) and no earlier case of the
    /// tool has the same arguments and expectation.
    fn admit(
        &self,
        cases: &Collected<'_>,
        args: &Value,
        hash: u64,
        expectation: Expectation,
    ) -> Option<(u64, Expectation)> {
        debug_assert_eq!(hash, value_hash(args), "the hash of {args}");
        let valid = self.validator.is_valid(args);
        let keep = match expectation {
            Expectation::Success => valid,
            Expectation::Error => !valid,
            Expectation::Observe => true,
        };
        if !keep {
            return None;
        }
        let key = (hash, expectation);
        (!cases.has(key, args)).then_some(key)
    }

    /// Whether `pointer` is an action tool's `/action`: the one place whose edit changes which
    /// schema applies to the rest (the `then` of its action), so no edit there is sure.
    fn action_at(&self, pointer: &str) -> bool {
        self.action.is_some() && pointer == "/action"
    }

    /// Whether the schema judges `edit` made in `work` (left as it was) as `expectation`
    /// says: what a [`Mutation::sure`] claims, checked in debug builds.
    fn predicts(&self, work: &mut Value, edit: &mut Edit, expectation: Expectation) -> bool {
        edit.tried(work, |args| self.validator.is_valid(args))
            .is_some_and(|valid| valid == (expectation == Expectation::Success))
    }

    /// Keeps a case [`Ctx::admit`] let in, under `key`.
    #[allow(clippy::too_many_arguments)]
    fn keep(
        &self,
        cases: &mut Collected<'_>,
        key: (u64, Expectation),
        args: CaseArgs,
        expectation: Expectation,
        source: &str,
        title: String,
        rationale: String,
        boundary: Option<Boundary>,
    ) {
        let title = match self.action {
            Some(a) => text!(a, ": ", title),
            None => title,
        };
        cases.keep(
            key,
            Case {
                tool: self.tool.to_owned(),
                title,
                args,
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
    let required: HashSet<&str> = required_names(obj).collect();
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
fn walk(
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
                    text!(
                        at,
                        " must be ",
                        Joined(&inferred, " or "),
                        "; ",
                        wrong,
                        " is not"
                    ),
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
            text!(
                at,
                " must be one of ",
                (Value::Array(members.clone())),
                "; ",
                outside,
                " is not"
            ),
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
                    text!(
                        at,
                        " must be a valid ",
                        format,
                        "; ",
                        Debugged(&bad),
                        " is not"
                    ),
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

/// How the schema [`walk`] is at applies to the value it is at.
#[derive(Clone, Copy)]
struct Reach {
    /// Every schema on the way from the root applies unconditionally (through `properties`,
    /// or the `items` of an array without `prefixItems`), none is a branch of `anyOf`/`oneOf`
    /// merged in by [`resolve`], and none has a `$ref` (whose siblings drafts up to 7
    /// ignore): a value that breaks a keyword of this schema makes the arguments invalid.
    plain: bool,
    /// Moreover, every schema on the way has only [`PASS_THROUGH`] keywords and
    /// [`ANNOTATIONS`]: one member or item replaced by a value this schema accepts (or an
    /// optional member left out) keeps the arguments valid.
    open: bool,
}

impl Reach {
    const ROOT: Reach = Reach {
        plain: true,
        open: true,
    };
}

/// The keywords of a schema that judge an object or array by its members or items only one
/// at a time, through the schema of each (`properties`, `items`), or by which members are
/// present and how many items there are; with [`ANNOTATIONS`], which judge nothing.
const PASS_THROUGH: &[&str] = &[
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
const ANNOTATIONS: &[&str] = &[
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
fn surely_accepts(obj: &Map<String, Value>, value: &Value) -> bool {
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
fn exact(x: f64) -> bool {
    x.abs() < 2f64.powi(52)
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

/// A pair of size keywords (`minLength`/`maxLength` on the characters of a string,
/// `minItems`/`maxItems` on the items of an array) and how their cases read.
struct SizeBounds {
    /// The minimum's keyword, then the maximum's.
    keywords: [&'static str; 2],
    /// The rules of the minimum's cases, then of the maximum's.
    rules: [&'static str; 2],
    /// What is counted, singular.
    unit: &'static str,
    /// How a value exactly on a bound is said: "accepts `at` {exactly} minLength 3".
    exactly: &'static str,
    /// "3 characters is the {fewest} `at`".
    fewest: &'static str,
    /// "8 characters is the {most} `at`".
    most: &'static str,
    /// Maximums from this one up are not tried: the value over them is too large to send.
    cap: usize,
    /// The size of a value, if it is of the kind counted.
    size: fn(&Value) -> Option<usize>,
}

const LENGTH: SizeBounds = SizeBounds {
    keywords: ["minLength", "maxLength"],
    rules: ["rule:min-length", "rule:max-length"],
    unit: "character",
    exactly: "of exactly",
    fewest: "shortest allowed",
    most: "longest allowed",
    cap: 10_000,
    size: |v| v.as_str().map(|s| s.chars().count()),
};

const ITEMS: SizeBounds = SizeBounds {
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
fn resize(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    let pad = s.chars().last().unwrap_or('x');
    let have = out.chars().count();
    out.extend(std::iter::repeat_n(pad, n.saturating_sub(have)));
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

/// Sets the value at a JSON pointer, creating missing objects on the way. False when a step
/// is neither an object nor an array with that index.
fn set_creating(root: &mut Value, ptr: &str, value: Value) -> bool {
    if ptr.is_empty() {
        *root = value;
        return true;
    }
    let tokens = tokens(ptr);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn derive_with(schema: &Value, options: &CaseOptions) -> Result<Vec<Case>, DeriveError> {
        derive("t", schema, options).map_err(DeriveError::from)
    }

    fn base(schema: &Value, options: &CaseOptions) -> Value {
        derive_with(schema, options).unwrap()[0]
            .args
            .clone()
            .into_value()
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
            let (mut a, mut b) = (
                c.args.clone().into_value(),
                cases[0].args.clone().into_value(),
            );
            Edit::Set(p.as_str().into(), Value::Null).apply(&mut a);
            Edit::Set(p.as_str().into(), Value::Null).apply(&mut b);
            assert_eq!(a, b, "{}", c.title);
        }
    }

    #[test]
    fn text_writes_what_format_writes() {
        for n in [0usize, 7, 10, 99, 1000, usize::MAX] {
            assert_eq!(text!("n=", n, "."), format!("n={n}."));
        }
        for x in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -2.5,
            10.0,
            1e14,
            1e15,
            1e300,
            1.0 / 3.0,
            f64::NAN,
        ] {
            assert_eq!(text!(x), format!("{x}"), "{x:?}");
        }
        let (v, s) = (json!({"a": [1, "b"]}), "q\"uote");
        assert_eq!(
            text!("`", s, "` ", v, " ", Debugged(&s)),
            format!("`{s}` {v} {s:?}")
        );
        for words in [&[][..], &["string"], &["string", "null", "integer"]] {
            assert_eq!(text!(Joined(words, " or ")), words.join(" or "));
        }
    }

    #[test]
    fn a_long_tool_list_derives_what_each_tool_derives_alone_in_order() {
        let tools: Vec<Value> = (0..100)
            .map(|i| {
                json!({"name": format!("t{i}"), "inputSchema": {"type": "object",
                    "properties": {"n": {"type": "integer", "maximum": i}, "s": {"type": "string"}},
                    "required": ["n"]}})
            })
            .collect();
        let options = CaseOptions::default();
        let (together, problems) = super::super::derive_for_tools(&tools, &options);
        assert!(problems.is_empty());
        let alone: Vec<Case> = tools
            .iter()
            .flat_map(|t| {
                derive(t["name"].as_str().unwrap(), &t["inputSchema"], &options)
                    .ok()
                    .unwrap()
            })
            .collect();
        assert_eq!(together, alone);
    }

    /// Schemas where a keyword next to the one a case is about changes the outcome: the cases
    /// whose outcome is taken as certain (`Mutation::sure`) must still be judged as the whole
    /// schema judges them.
    #[test]
    fn outcomes_taken_as_certain_are_the_schema_own() {
        let schemas = [
            // `anyOf`: the branch a value is walked in is not the only one that may take it.
            json!({"type": "object", "required": ["v"], "properties": {"v": {"anyOf": [
                {"type": "string", "maxLength": 3}, {"type": "string", "minLength": 5}]}}}),
            // Draft 7: `$ref` makes its siblings ignored.
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                   "required": ["v"], "definitions": {"s": {"type": "string"}},
                   "properties": {"v": {"$ref": "#/definitions/s", "maxLength": 2}}}),
            // A pattern that matches the unknown property's name.
            json!({"type": "object", "additionalProperties": false,
                   "patternProperties": {"^unexpected": {"type": "string"}},
                   "properties": {"a": {"type": "string"}}}),
            // Leaving out an optional member breaks `minProperties` or `dependentRequired`.
            json!({"type": "object", "minProperties": 2,
                   "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}),
            json!({"type": "object", "dependentRequired": {"a": ["b"]},
                   "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}),
            // Fractional and huge bounds, numbers in an enum, `multipleOf`, `const`.
            json!({"type": "object", "required": ["i", "f", "h", "e", "m"], "properties": {
                "i": {"type": "integer", "minimum": 0.5, "exclusiveMaximum": 9.5},
                "f": {"type": "number", "exclusiveMinimum": -0.5, "maximum": 3.25},
                "h": {"type": "number", "minimum": -1e300, "maximum": 1e300},
                "e": {"enum": [1.0, 2, "x"]},
                "m": {"type": "integer", "multipleOf": 3, "minimum": 1, "maximum": 10}}}),
            // Conditions at the root on a member's value, and items that must be unique.
            json!({"type": "object", "required": ["kind", "n", "l"],
                   "properties": {"kind": {"enum": ["a", "b"]},
                                  "n": {"type": "integer", "minimum": 0, "maximum": 10},
                                  "l": {"type": "array", "uniqueItems": true, "minItems": 1,
                                        "maxItems": 3, "items": {"enum": ["p", "q", "r"]}}},
                   "if": {"properties": {"kind": {"const": "b"}}},
                   "then": {"properties": {"n": {"maximum": 5}}}}),
            // Draft 4: `exclusiveMinimum` is a flag on `minimum`.
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                   "required": ["n"], "properties": {"n": {"type": "integer", "minimum": 3,
                   "exclusiveMinimum": true, "maximum": 8}}}),
            // Tuples: `prefixItems` then `items`.
            json!({"type": "object", "required": ["t"], "properties": {"t": {"type": "array",
                   "prefixItems": [{"type": "string", "maxLength": 2}], "items": {"type": "integer"},
                   "minItems": 2}}}),
        ];
        for schema in schemas {
            let validator = SchemaValidator::new(&schema).unwrap();
            let cases = derive_with(&schema, &CaseOptions::default()).unwrap();
            assert!(cases.len() > 1, "{schema}");
            for case in cases {
                let valid = validator.is_valid(&case.args);
                match case.expectation {
                    Expectation::Success => assert!(valid, "{} in {schema}", case.title),
                    Expectation::Error => assert!(!valid, "{} in {schema}", case.title),
                    Expectation::Observe => {}
                }
            }
        }
    }

    #[test]
    fn a_value_is_surely_accepted_only_by_keywords_judged_exactly() {
        let accepts =
            |schema: Value, value: Value| surely_accepts(schema.as_object().unwrap(), &value);
        assert!(accepts(
            json!({"type": "integer", "minimum": 1, "maximum": 7, "title": "d"}),
            json!(7)
        ));
        assert!(!accepts(json!({"type": "integer", "maximum": 7}), json!(8)));
        assert!(!accepts(json!({"type": "integer"}), json!(1.5)));
        assert!(
            !accepts(json!({"type": "integer"}), json!(2.0)),
            "1.0 is left to the validator"
        );
        assert!(accepts(
            json!({"type": ["string", "null"], "maxLength": 2}),
            json!("éé")
        ));
        assert!(!accepts(
            json!({"type": "string", "maxLength": 2}),
            json!("abc")
        ));
        assert!(accepts(json!({"enum": [1.0, "x"]}), json!(1)));
        assert!(
            !accepts(json!({"enum": [[1]]}), json!([1])),
            "arrays are left to the validator"
        );
        assert!(
            !accepts(json!({"exclusiveMinimum": 1e300}), json!(2e300)),
            "too large to be exact"
        );
        assert!(!accepts(
            json!({"exclusiveMinimum": true, "minimum": 1}),
            json!(1)
        ));
        for keyword in [
            "pattern",
            "format",
            "multipleOf",
            "const",
            "not",
            "anyOf",
            "$ref",
        ] {
            assert!(!accepts(json!({keyword: "a"}), json!("a")), "{keyword}");
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
