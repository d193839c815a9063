//! Two JSON Schemas compared by what they accept, keyword by keyword, each difference located
//! by a JSON pointer and classed by the direction the schema is read in: an input schema
//! must keep accepting what it accepted (contravariant), an output schema must stay within
//! what it promised (covariant).

use super::change::{Class, Variant};
use super::node::{ANNOTATIONS, Additional, Bound, Node, TYPES, lower_key, read, upper_key};
use super::tagged::{self, Tagged};
use crate::validation::join_pointer;
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};

/// Which way a schema is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Direction {
    /// What a client sends (`inputSchema`): narrowing breaks clients.
    Input,
    /// What a client receives (`outputSchema`): widening breaks clients.
    Output,
}

/// What a difference does to the set of values the schema accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Effect {
    /// The new schema accepts values the old did not, and rejects none the old accepted.
    Widen,
    /// The new schema rejects values the old accepted, and accepts no new ones.
    Narrow,
    /// Both: some values gained, some lost.
    Both,
    /// Could not be decided: classed breaking, saying so.
    Unknown,
    /// The class is set by a rule, not by the sets (a judgement; the reason says which).
    Fixed(Class),
}

/// One difference found: where (a JSON pointer into the item, and the variants of tagged
/// unions it is inside), what it does, and why.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Found {
    pub(super) pointer: String,
    pub(super) variants: Vec<Variant>,
    pub(super) class: Class,
    pub(super) reason: String,
}

/// How deep a comparison walks into nested schemas before it gives up.
const MAX_NESTING: usize = 64;

/// How many pairs of schemas one comparison may compare, trials of alternatives included:
/// alternatives nested in alternatives would otherwise multiply without bound.
const MAX_STEPS: usize = 20_000;

/// Compares `old` with `new` (schemas at `pointer` of their items, `$ref`s into their own
/// roots), read in `direction`.
pub(super) fn compare(
    old: (&Value, &Value),
    new: (&Value, &Value),
    pointer: &str,
    direction: Direction,
) -> Vec<Found> {
    let mut walk = Walk {
        old_root: old.0,
        new_root: new.0,
        direction,
        found: Vec::new(),
        seen: HashSet::new(),
        nesting: 0,
        steps: std::rc::Rc::new(std::cell::Cell::new(0)),
        same_roots: old.0 == new.0,
        variants: Vec::new(),
    };
    walk.schema(old.1, new.1, pointer);
    walk.found
}

/// `value` as it is written in a reason: compact JSON.
fn show(value: &Value) -> String {
    value.to_string()
}

struct Walk<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    direction: Direction,
    found: Vec<Found>,
    /// The pairs of `$ref`s compared already (a recursive schema is compared once).
    seen: HashSet<(String, String)>,
    nesting: usize,
    /// The pairs compared so far, shared with the trials of alternatives.
    steps: std::rc::Rc<std::cell::Cell<usize>>,
    /// Whether both schemas' `$ref`s resolve in equal documents.
    same_roots: bool,
    /// The variants of tagged unions the walk is inside, outermost first.
    variants: Vec<Variant>,
}

impl Walk<'_> {
    /// Records a difference, classed by its effect and the direction.
    fn note(&mut self, pointer: String, effect: Effect, reason: impl Into<String>) {
        let reason = reason.into();
        // Only a wider input or a narrower output keeps every client working.
        let class = match (effect, self.direction) {
            (Effect::Fixed(class), _) => class,
            (Effect::Widen, Direction::Input) | (Effect::Narrow, Direction::Output) => {
                Class::Additive
            }
            _ => Class::Breaking,
        };
        let why = match (effect, self.direction) {
            (Effect::Fixed(_), _) => "",
            (Effect::Unknown, _) => " (could not be proven compatible, so classed breaking)",
            (Effect::Both, Direction::Input) => {
                ": some arguments the old schema accepted are now rejected"
            }
            (Effect::Narrow, Direction::Input) => {
                ": arguments the old schema accepted are now rejected"
            }
            (Effect::Widen, Direction::Input) => ": accepts more than before",
            (Effect::Both | Effect::Widen, Direction::Output) => {
                ": the server may now return values the old schema did not allow"
            }
            (Effect::Narrow, Direction::Output) => ": stays within what the old schema promised",
        };
        self.found.push(Found {
            pointer,
            variants: self.variants.clone(),
            class,
            reason: format!("{reason}{why}"),
        });
    }

    /// The noun of what the schema describes: "input" or "output".
    fn side(&self) -> &'static str {
        match self.direction {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }

    fn schema(&mut self, old: &Value, new: &Value, at: &str) {
        // The same text means the same values, unless a `$ref` in it resolves elsewhere.
        if old == new && (self.same_roots || !has_reference(old)) {
            return;
        }
        let reference = |schema: &Value| {
            schema
                .get("$ref")
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let (old_ref, new_ref) = (reference(old), reference(new));
        if (old_ref.is_some() || new_ref.is_some())
            && !self.seen.insert((
                old_ref.clone().unwrap_or_else(|| old.to_string()),
                new_ref.clone().unwrap_or_else(|| new.to_string()),
            ))
        {
            // Compared already, further up a recursive schema.
            return;
        }
        self.steps.set(self.steps.get() + 1);
        if self.steps.get() > MAX_STEPS {
            self.note(
                at.to_owned(),
                Effect::Unknown,
                format!("the schemas take more than {MAX_STEPS} steps to compare"),
            );
            return;
        }
        if self.nesting > MAX_NESTING {
            self.note(
                at.to_owned(),
                Effect::Unknown,
                format!("the schemas nest more than {MAX_NESTING} deep"),
            );
            return;
        }
        self.nesting += 1;
        let before = self.found.len();
        let unions = (
            tagged::read(self.old_root, old, at),
            tagged::read(self.new_root, new, at),
        );
        match unions {
            (Some(o), Some(n)) if o.tag == n.tag => self.tagged(&o, &n, at),
            _ => {
                let o = read(self.old_root, old);
                let n = read(self.new_root, new);
                self.nodes(old, &o, new, &n, at);
            }
        }
        if self.found.len() == before && old != new {
            self.note(
                at.to_owned(),
                Effect::Fixed(Class::Cosmetic),
                "schema rewritten; it accepts exactly the same values",
            );
        }
        self.nesting -= 1;
    }

    /// Two tagged unions on one tag: what the variants share compared once, then each
    /// variant with the variant of the same tag value, inside it (its changes name it); a
    /// variant only in one is one removed or added.
    fn tagged(&mut self, o: &Tagged, n: &Tagged, at: &str) {
        let (mut old_rest, mut new_rest) =
            match (o.rest_without_listing(), n.rest_without_listing()) {
                (Some(old), Some(new)) => (old, new),
                _ => (o.rest.clone(), n.rest.clone()),
            };
        // Definitions are compared where they are referenced, not as text of the rest.
        for rest in [&mut old_rest, &mut new_rest] {
            if let Some(rest) = rest.as_object_mut() {
                rest.remove("$defs");
                rest.remove("definitions");
            }
        }
        self.schema(&old_rest, &new_rest, at);
        let values: BTreeSet<&String> = o.variants.keys().chain(n.variants.keys()).collect();
        for value in values {
            self.variants.push(Variant::new(&n.tag, value));
            match (o.variants.get(value), n.variants.get(value)) {
                (Some(old), Some(new)) => self.schema(&old.schema, &new.schema, &new.at),
                (Some(old), None) => self.note(
                    old.place.clone(),
                    Effect::Narrow,
                    format!("variant {}={value:?} removed", n.tag),
                ),
                (None, Some(new)) => self.note(
                    new.place.clone(),
                    Effect::Widen,
                    format!("new variant {}={value:?}", n.tag),
                ),
                (None, None) => {}
            }
            self.variants.pop();
        }
    }

    fn nodes(&mut self, old: &Value, o: &Node, new: &Value, n: &Node, at: &str) {
        for (node, other, side) in [(o, n, "old"), (n, o, "new")] {
            // A problem both sides share (the same `$ref` to another document) is no change.
            for problem in node.problems.iter().filter(|p| !other.problems.contains(p)) {
                self.note(
                    at.to_owned(),
                    Effect::Unknown,
                    format!("the {side} schema cannot be read: {problem}"),
                );
            }
        }
        if o.branches.is_some() || n.branches.is_some() {
            self.alternatives(old, o, new, n, at);
            self.annotations(o, n, at);
            return;
        }
        let both_listed = o.enumeration.is_some() && n.enumeration.is_some();
        self.enumeration(o, n, at);
        if !both_listed {
            self.types(o, n, at);
            if o.admits("integer") && n.admits("integer") {
                self.numbers(o, n, at);
            }
            if o.admits("string") && n.admits("string") {
                self.strings(o, n, at);
            }
            if o.admits("array") && n.admits("array") {
                self.arrays(o, n, at);
            }
            if o.admits("object") && n.admits("object") {
                self.objects(o, n, at);
            }
        }
        self.header(o, n, at);
        self.annotations(o, n, at);
        self.unknown(o, n, at);
    }

    /// `anyOf`/`oneOf` that could not be merged: each alternative that must be covered
    /// (the old ones of an input, the new ones of an output) matched to one that covers it.
    fn alternatives(&mut self, old: &Value, o: &Node, new: &Value, n: &Node, at: &str) {
        let list = |node: &Node, whole: &Value, keyword_at: &str| -> Vec<(String, Value)> {
            match &node.branches {
                Some(branches) => branches
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (format!("{keyword_at}/{i}"), b.clone()))
                    .collect(),
                None => vec![(at.to_owned(), whole.clone())],
            }
        };
        let keyword = |schema: &Value| {
            if schema.get("anyOf").is_some() {
                "anyOf"
            } else {
                "oneOf"
            }
        };
        let olds = list(o, old, &format!("{at}/{}", keyword(old)));
        let news = list(n, new, &format!("{at}/{}", keyword(new)));
        // Input: every old alternative must fit in a new one; output: every new one in an old.
        let (covered, covering) = match self.direction {
            Direction::Input => (&olds, &news),
            Direction::Output => (&news, &olds),
        };
        let mut used = vec![false; covering.len()];
        for (index, (place, schema)) in covered.iter().enumerate() {
            // The alternative at the same index first, then the others.
            let order = std::iter::once(index)
                .filter(|i| *i < covering.len())
                .chain((0..covering.len()).filter(|i| *i != index));
            let mut matched = None;
            for candidate in order {
                let (old_schema, new_schema) = match self.direction {
                    Direction::Input => (schema, &covering[candidate].1),
                    Direction::Output => (&covering[candidate].1, schema),
                };
                let mut trial = Walk {
                    old_root: self.old_root,
                    new_root: self.new_root,
                    direction: self.direction,
                    found: Vec::new(),
                    seen: self.seen.clone(),
                    nesting: self.nesting,
                    steps: self.steps.clone(),
                    same_roots: self.same_roots,
                    variants: self.variants.clone(),
                };
                trial.schema(old_schema, new_schema, &covering[candidate].0);
                if trial.found.iter().all(|f| f.class != Class::Breaking) {
                    matched = Some((candidate, trial.found));
                    break;
                }
            }
            match matched {
                Some((candidate, found)) => {
                    used[candidate] = true;
                    // Cosmetic rewrites of an alternative matched elsewhere say nothing.
                    if candidate == index || found.iter().any(|f| f.class != Class::Cosmetic) {
                        self.found.extend(found);
                    }
                }
                None => {
                    let reason = match self.direction {
                        Direction::Input => format!(
                            "no alternative of the new schema accepts every value of the old alternative at {place}"
                        ),
                        Direction::Output => format!(
                            "the new alternative at {place} is not within any alternative of the old schema"
                        ),
                    };
                    self.note(place.clone(), Effect::Unknown, reason);
                }
            }
        }
        for (index, was_used) in used.iter().enumerate() {
            if !was_used && covering.len() > 1 {
                let place = covering[index].0.clone();
                match self.direction {
                    Direction::Input => {
                        self.note(place, Effect::Widen, "alternative added to the input")
                    }
                    Direction::Output => self.note(
                        place,
                        Effect::Narrow,
                        "alternative no longer returned by the new output schema",
                    ),
                }
            }
        }
    }

    fn enumeration(&mut self, o: &Node, n: &Node, at: &str) {
        let place = |_: &Node| format!("{at}/enum");
        match (&o.enumeration, &n.enumeration) {
            (Some(old), Some(new)) => {
                let removed: Vec<&Value> = old.iter().filter(|v| !new.contains(v)).collect();
                let added: Vec<&Value> = new.iter().filter(|v| !old.contains(v)).collect();
                for value in removed {
                    self.note(
                        place(n),
                        Effect::Narrow,
                        format!("`enum` member {} removed", show(value)),
                    );
                }
                for value in added {
                    match self.direction {
                        Direction::Input => self.note(
                            place(n),
                            Effect::Widen,
                            format!("`enum` member {} added", show(value)),
                        ),
                        Direction::Output => self.note(
                            place(n),
                            Effect::Widen,
                            format!(
                                "`enum` member {} added to the output (a judgement: a client that matches on every member may not handle it)",
                                show(value)
                            ),
                        ),
                    }
                }
                if old != new
                    && old.iter().all(|v| new.contains(v))
                    && new.iter().all(|v| old.contains(v))
                {
                    self.note(
                        place(n),
                        Effect::Fixed(Class::Cosmetic),
                        "`enum` members reordered",
                    );
                }
            }
            (None, Some(new)) => self.note(
                place(n),
                Effect::Narrow,
                format!("values limited to {}", show(&Value::Array(new.clone()))),
            ),
            (Some(old), None) => {
                let lost: Vec<&Value> = old.iter().filter(|v| !n.admits(json_type(v))).collect();
                if lost.is_empty() {
                    self.note(
                        place(o),
                        Effect::Widen,
                        format!("no longer limited to {}", show(&Value::Array(old.clone()))),
                    );
                } else {
                    for value in lost {
                        self.note(
                            place(o),
                            Effect::Narrow,
                            format!("{} no longer accepted by type", show(value)),
                        );
                    }
                }
            }
            (None, None) => {}
        }
    }

    fn types(&mut self, o: &Node, n: &Node, at: &str) {
        if o.types == n.types {
            return;
        }
        // `number` here: the numbers with a fraction; `integer`: those without.
        let lost: Vec<&str> = TYPES
            .iter()
            .copied()
            .filter(|t| o.admits(t) && !n.admits(t))
            .collect();
        let gained: Vec<&str> = TYPES
            .iter()
            .copied()
            .filter(|t| !o.admits(t) && n.admits(t))
            .collect();
        let name = |t: &&str| {
            if *t == "number" {
                "numbers with a fraction".to_owned()
            } else {
                format!("{t}s")
            }
        };
        let list = |types: &[&str]| types.iter().map(name).collect::<Vec<_>>().join(", ");
        let described = |node: &Node| match &node.types {
            None => "any type".to_owned(),
            Some(types) if types.len() == 1 => {
                show(&Value::from(*types.iter().next().unwrap_or(&"?")))
            }
            Some(types) => show(&Value::from(
                types.iter().map(|t| Value::from(*t)).collect::<Vec<_>>(),
            )),
        };
        let from_to = format!("`type` {} → {}", described(o), described(n));
        match (lost.is_empty(), gained.is_empty()) {
            (true, true) => self.note(
                format!("{at}/type"),
                Effect::Fixed(Class::Cosmetic),
                format!("{from_to}, which accepts the same values"),
            ),
            (false, true) => self.note(
                format!("{at}/type"),
                Effect::Narrow,
                format!("{from_to}: no longer accepts {}", list(&lost)),
            ),
            (true, false) => self.note(
                format!("{at}/type"),
                Effect::Widen,
                format!("{from_to}: now accepts {}", list(&gained)),
            ),
            (false, false) => self.note(
                format!("{at}/type"),
                Effect::Both,
                format!(
                    "{from_to}: no longer accepts {}, now accepts {}",
                    list(&lost),
                    list(&gained)
                ),
            ),
        }
    }

    fn numbers(&mut self, o: &Node, n: &Node, at: &str) {
        self.bound(o.number.lower, n.number.lower, at, true);
        self.bound(o.number.upper, n.number.upper, at, false);
        let place = format!("{at}/multipleOf");
        match (o.number.multiple_of, n.number.multiple_of) {
            (None, Some(new)) => {
                self.note(place, Effect::Narrow, format!("`multipleOf` {new} added"))
            }
            (Some(old), None) => {
                self.note(place, Effect::Widen, format!("`multipleOf` {old} removed"))
            }
            (Some(old), Some(new)) if old != new => {
                let widens = (old / new).fract() == 0.0;
                let narrows = (new / old).fract() == 0.0;
                let effect = match (widens, narrows) {
                    (true, _) => Effect::Widen,
                    (_, true) => Effect::Narrow,
                    _ => Effect::Both,
                };
                self.note(place, effect, format!("`multipleOf` {old} → {new}"));
            }
            _ => {}
        }
    }

    /// A lower (`lower`) or upper bound on numbers.
    fn bound(&mut self, old: Option<Bound>, new: Option<Bound>, at: &str, lower: bool) {
        let keyword = |b: Option<Bound>| match (lower, b.is_some_and(|b| b.exclusive)) {
            (true, false) => "minimum",
            (true, true) => "exclusiveMinimum",
            (false, false) => "maximum",
            (false, true) => "exclusiveMaximum",
        };
        let place = format!("{at}/{}", keyword(new.or(old)));
        let (effect, what) = match (old, new) {
            (None, None) => return,
            (None, Some(b)) => (Effect::Narrow, format!("`{}` {b} added", keyword(new))),
            (Some(b), None) => (Effect::Widen, format!("`{}` {b} removed", keyword(old))),
            (Some(a), Some(b)) => {
                let tighter = if lower {
                    lower_key(b).partial_cmp(&lower_key(a))
                } else {
                    upper_key(a).partial_cmp(&upper_key(b))
                };
                let effect = match tighter {
                    Some(std::cmp::Ordering::Equal) => {
                        if a != b {
                            (Effect::Fixed(Class::Cosmetic), String::new())
                        } else {
                            return;
                        }
                    }
                    Some(std::cmp::Ordering::Greater) => (Effect::Narrow, "tightened".to_owned()),
                    Some(std::cmp::Ordering::Less) => (Effect::Widen, "loosened".to_owned()),
                    None => (Effect::Unknown, "changed".to_owned()),
                };
                let name = if lower { "lower bound" } else { "upper bound" };
                (effect.0, format!("{name} {} from {a} to {b}", effect.1))
            }
        };
        self.note(place, effect, what);
    }

    /// A bound on a length or count: `min` says whether it is a lower one.
    fn count(&mut self, old: Option<u64>, new: Option<u64>, at: &str, keyword: &str, min: bool) {
        let place = format!("{at}/{keyword}");
        let default = if min { Some(0) } else { None };
        let (old_value, new_value) = (old.or(default), new.or(default));
        if old_value == new_value {
            return;
        }
        let narrows = match (old_value, new_value) {
            (None, Some(_)) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => (b > a) == min,
            (None, None) => return,
        };
        let verb = if narrows { "tightened" } else { "loosened" };
        let what = match (old, new) {
            (None, Some(b)) => format!("`{keyword}` {b} added"),
            (Some(a), None) => format!("`{keyword}` {a} removed"),
            (a, b) => format!(
                "`{keyword}` {verb} from {} to {}",
                a.unwrap_or_default(),
                b.unwrap_or_default()
            ),
        };
        let effect = if narrows {
            Effect::Narrow
        } else {
            Effect::Widen
        };
        self.note(place, effect, what);
    }

    fn strings(&mut self, o: &Node, n: &Node, at: &str) {
        self.count(
            o.string.min_length,
            n.string.min_length,
            at,
            "minLength",
            true,
        );
        self.count(
            o.string.max_length,
            n.string.max_length,
            at,
            "maxLength",
            false,
        );
        let added: Vec<&String> = n.string.patterns.difference(&o.string.patterns).collect();
        let removed: Vec<&String> = o.string.patterns.difference(&n.string.patterns).collect();
        let place = format!("{at}/pattern");
        if removed.is_empty() || added.is_empty() {
            // Patterns only added narrow; only removed, widen.
            let (effect, verb, patterns) = if removed.is_empty() {
                (Effect::Narrow, "added", added)
            } else {
                (Effect::Widen, "removed", removed)
            };
            for pattern in patterns {
                self.note(
                    place.clone(),
                    effect,
                    format!("`pattern` {pattern:?} {verb}"),
                );
            }
        } else {
            self.note(
                place,
                Effect::Unknown,
                format!(
                    "`pattern` changed from {:?} to {:?}; regular expressions are not compared, a judgement",
                    removed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" and "),
                    added.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" and ")
                ),
            );
        }
        let place = format!("{at}/format");
        match (&o.string.format, &n.string.format) {
            (None, Some(new)) => self.note(
                place,
                Effect::Narrow,
                format!("`format` {new:?} added (a judgement: validators may assert formats)"),
            ),
            (Some(old), None) => {
                self.note(place, Effect::Widen, format!("`format` {old:?} removed"))
            }
            (Some(old), Some(new)) if old != new => self.note(
                place,
                Effect::Unknown,
                format!("`format` changed from {old:?} to {new:?}"),
            ),
            _ => {}
        }
    }

    fn arrays(&mut self, o: &Node, n: &Node, at: &str) {
        self.count(o.array.min_items, n.array.min_items, at, "minItems", true);
        self.count(o.array.max_items, n.array.max_items, at, "maxItems", false);
        let place = format!("{at}/uniqueItems");
        match (o.array.unique, n.array.unique) {
            (false, true) => self.note(place, Effect::Narrow, "`uniqueItems` added"),
            (true, false) => self.note(place, Effect::Widen, "`uniqueItems` removed"),
            _ => {}
        }
        let any = Value::Bool(true);
        let (old_items, new_items) = (
            o.array.items.as_ref().unwrap_or(&any),
            n.array.items.as_ref().unwrap_or(&any),
        );
        if o.array.items.is_some() || n.array.items.is_some() {
            self.schema(old_items, new_items, &format!("{at}/items"));
        }
    }

    fn objects(&mut self, o: &Node, n: &Node, at: &str) {
        let side = self.side();
        let open = Additional::Any;
        let old_additional = o.object.additional.as_ref().unwrap_or(&open);
        let new_additional = n.object.additional.as_ref().unwrap_or(&open);
        let names: BTreeSet<&String> = o
            .object
            .properties
            .keys()
            .chain(n.object.properties.keys())
            .collect();
        for name in names {
            let place = join_pointer(&format!("{at}/properties"), name);
            match (o.object.properties.get(name), n.object.properties.get(name)) {
                (Some(old), Some(new)) => self.schema(old, new, &place),
                (None, Some(new)) => {
                    let required = n.object.required.contains(name) && !o.object.required.contains(name);
                    match (self.direction, old_additional, required) {
                        (Direction::Input, _, true) => self.note(
                            place,
                            Effect::Narrow,
                            format!("new required input `{name}`"),
                        ),
                        (_, Additional::Schema(old_schema), _) => {
                            // The property was an additional one: its schema was that one.
                            let old_schema = old_schema.clone();
                            self.schema(&old_schema, new, &place);
                        }
                        (Direction::Input, Additional::Any, false) => self.note(
                            place,
                            Effect::Fixed(Class::Additive),
                            format!("new optional input `{name}`"),
                        ),
                        (Direction::Input, Additional::Closed, false) => {
                            self.note(place, Effect::Widen, format!("new optional input `{name}`"))
                        }
                        (Direction::Output, Additional::Any, _) => self.note(
                            place,
                            Effect::Narrow,
                            format!("new output `{name}`"),
                        ),
                        (Direction::Output, Additional::Closed, _) => self.note(
                            place,
                            Effect::Widen,
                            format!(
                                "new output `{name}`, which the old schema's closed `additionalProperties` did not allow"
                            ),
                        ),
                    }
                }
                (Some(_), None) => match (self.direction, new_additional) {
                    (Direction::Output, _) => self.note(
                        place,
                        Effect::Fixed(Class::Breaking),
                        format!("output `{name}` removed: a client that reads it finds it gone"),
                    ),
                    (Direction::Input, Additional::Closed) => self.note(
                        place,
                        Effect::Narrow,
                        format!("input `{name}` removed"),
                    ),
                    (Direction::Input, _) => self.note(
                        place,
                        Effect::Fixed(Class::Breaking),
                        format!(
                            "input `{name}` removed: a client that sends it is no longer understood (a judgement: the schema may still let it through as an additional property)"
                        ),
                    ),
                },
                (None, None) => {}
            }
        }
        for name in n.object.required.difference(&o.object.required) {
            if o.object.properties.contains_key(name) || !n.object.properties.contains_key(name) {
                let effect = Effect::Narrow;
                let reason = match self.direction {
                    Direction::Input => format!("input `{name}` made required"),
                    Direction::Output => format!("output `{name}` now always present"),
                };
                self.note(format!("{at}/required"), effect, reason);
            }
        }
        for name in o.object.required.difference(&n.object.required) {
            if n.object.properties.contains_key(name) || !o.object.properties.contains_key(name) {
                self.note(
                    format!("{at}/required"),
                    Effect::Widen,
                    format!("{side} `{name}` no longer required"),
                );
            }
        }
        let place = format!("{at}/additionalProperties");
        match (old_additional, new_additional) {
            (Additional::Any, Additional::Any) | (Additional::Closed, Additional::Closed) => {}
            (Additional::Schema(a), Additional::Schema(b)) => {
                let (a, b) = (a.clone(), b.clone());
                self.schema(&a, &b, &place);
            }
            (Additional::Any, Additional::Closed) => {
                self.note(place, Effect::Narrow, "`additionalProperties` closed")
            }
            (Additional::Closed, Additional::Any) => {
                self.note(place, Effect::Widen, "`additionalProperties` opened")
            }
            (Additional::Any, Additional::Schema(_)) => self.note(
                place,
                Effect::Narrow,
                "additional properties limited to a schema",
            ),
            (Additional::Schema(_), Additional::Any) => self.note(
                place,
                Effect::Widen,
                "additional properties no longer limited to a schema",
            ),
            (Additional::Closed, Additional::Schema(_)) => self.note(
                place,
                Effect::Widen,
                "additional properties allowed where none were",
            ),
            (Additional::Schema(_), Additional::Closed) => {
                self.note(place, Effect::Narrow, "`additionalProperties` closed")
            }
        }
        self.count(
            o.object.min_properties,
            n.object.min_properties,
            at,
            "minProperties",
            true,
        );
        self.count(
            o.object.max_properties,
            n.object.max_properties,
            at,
            "maxProperties",
            false,
        );
    }

    /// `x-mcp-header`: the HTTP header a client must mirror the argument into.
    fn header(&mut self, o: &Node, n: &Node, at: &str) {
        let place = format!("{at}/x-mcp-header");
        match (&o.header, &n.header) {
            (None, Some(new)) => self.note(
                place,
                Effect::Fixed(Class::Breaking),
                format!(
                    "`x-mcp-header` {} added: an HTTP client must now send the argument as the header Mcp-Param-{}",
                    show(new),
                    new.as_str().unwrap_or_default()
                ),
            ),
            (Some(old), Some(new)) if old != new => self.note(
                place,
                Effect::Fixed(Class::Breaking),
                format!(
                    "`x-mcp-header` renamed from {} to {}: a client that mirrors the argument sends the wrong header",
                    show(old),
                    show(new)
                ),
            ),
            (Some(old), None) => self.note(
                place,
                Effect::Fixed(Class::Additive),
                format!(
                    "`x-mcp-header` {} removed: the header is no longer needed (a judgement)",
                    show(old)
                ),
            ),
            _ => {}
        }
    }

    fn annotations(&mut self, o: &Node, n: &Node, at: &str) {
        let keys: BTreeSet<&String> = o.annotations.keys().chain(n.annotations.keys()).collect();
        for key in keys {
            let (old, new) = (o.annotations.get(key), n.annotations.get(key));
            if old == new {
                continue;
            }
            let place = join_pointer(at, key);
            let change = match (old, new) {
                (None, Some(_)) => "added",
                (Some(_), None) => "removed",
                _ => "changed",
            };
            if key == "default" {
                let (effect, why) = match (self.direction, change) {
                    (Direction::Input, "added") => (
                        Class::Cosmetic,
                        "a judgement: the schema accepts the same values, and a client that omits the argument was already served somehow",
                    ),
                    (Direction::Input, _) => (
                        Class::Breaking,
                        "a judgement: a client that omits the argument may now get other behaviour",
                    ),
                    (Direction::Output, _) => (
                        Class::Cosmetic,
                        "a default in an output schema tells a client nothing it receives",
                    ),
                };
                let values = match (old, new) {
                    (Some(a), Some(b)) => format!(" from {} to {}", show(a), show(b)),
                    (None, Some(b)) => format!(" ({})", show(b)),
                    (Some(a), None) => format!(" ({})", show(a)),
                    (None, None) => String::new(),
                };
                self.note(
                    place,
                    Effect::Fixed(effect),
                    format!("`default` {change}{values} ({why})"),
                );
            } else {
                debug_assert!(ANNOTATIONS.contains(&key.as_str()));
                self.note(
                    place,
                    Effect::Fixed(Class::Cosmetic),
                    format!("`{key}` {change}"),
                );
            }
        }
    }

    fn unknown(&mut self, o: &Node, n: &Node, at: &str) {
        let keys: BTreeSet<&String> = o.unknown.keys().chain(n.unknown.keys()).collect();
        for key in keys {
            if o.unknown.get(key) != n.unknown.get(key) {
                self.note(
                    join_pointer(at, key),
                    Effect::Unknown,
                    format!("keyword `{key}` changed, one this comparison does not read"),
                );
            }
        }
    }
}

/// Whether `schema` holds a `$ref` anywhere.
fn has_reference(schema: &Value) -> bool {
    match schema {
        Value::Object(object) => object.contains_key("$ref") || object.values().any(has_reference),
        Value::Array(items) => items.iter().any(has_reference),
        _ => false,
    }
}

/// The JSON type of a value, as [`Node::admits`] takes it.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
