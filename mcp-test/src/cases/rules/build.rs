//! From one schema to its cases: the base arguments, the user's values set into them, and
//! each mutation of the walk checked and kept as a case.

use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::sync::Arc;

use crate::cases::args::{CaseArgs, Edit};
use crate::cases::hash::{BaseHashes, value_hash};
use crate::cases::sample::Sampler;
use crate::cases::{Boundary, Case, CaseOptions, Expectation};
use crate::schema::required_names;
use crate::validation::{SchemaValidator, describe};

use super::collected::Collected;
use super::declares::tokens;
use super::sure::Reach;
use super::text::Piece;
use super::value_error::ValueError;
use super::walk::{Mutation, walk};

/// No arguments the generator tried satisfy the schema (e.g. a `pattern` it cannot meet
/// together with `maxLength`).
#[derive(Debug, thiserror::Error)]
#[error("no valid arguments could be derived; the best attempt {attempt} fails:\n{violations}")]
pub(super) struct NoValidArguments {
    /// The fullest arguments tried.
    attempt: Value,
    /// Why the schema rejects them.
    violations: String,
}

/// Why one schema (a tool's, or one action's) got no valid arguments.
pub(super) enum Derived {
    /// A value the user gave does not fit.
    Value(ValueError),
    /// Nothing the generator tried fits.
    None(NoValidArguments),
}

pub(super) struct Ctx<'a> {
    pub(super) tool: &'a str,
    pub(super) action: Option<&'a str>,
    pub(super) validator: &'a SchemaValidator,
    /// The values the user gave that this schema declares, by pointer.
    pub(super) values: &'a [(String, Value)],
}

impl Ctx<'_> {
    pub(super) fn derive_from(
        &self,
        schema: &Value,
        sampler: &mut Sampler,
        options: &CaseOptions,
        cases: &mut Collected<'_>,
        mutations: &mut Vec<Mutation>,
    ) -> Result<(), Derived> {
        let inlined = super::refs::inline_refs(schema);
        let schema = &*inlined;
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
                        crate::cases::shorten(&value.to_string(), 120),
                        describe(&mine)
                    ),
                }));
            }
        }
        Ok(())
    }

    /// Adds a case whose arguments are a whole value (not an edit of the base) if
    /// [`Ctx::admit`] lets it in.
    pub(super) fn push(
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

/// Sets the value at a JSON pointer, creating missing objects on the way. False when a step
/// is neither an object nor an array with that index.
pub(super) fn set_creating(root: &mut Value, ptr: &str, value: Value) -> bool {
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
