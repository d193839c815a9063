//! The rules: from one tool's input schema to base, boundary and negative cases.
//!
//! - [`walk`] walks a schema beside its base value and makes the mutations its keywords call
//!   for, [`sure`] says which of them are certain, [`keywords`] makes the values of single
//!   keywords;
//! - [`build`] makes the base, sets the user's values and keeps each mutation that passes as a
//!   case in a [`collected::Collected`];
//! - [`declares`], [`actions`] and [`text`] are the helpers.

#[macro_use]
mod text;
mod value_error;

mod actions;
mod build;
mod collected;
mod declares;
mod keywords;
mod refs;
mod sure;
#[cfg(test)]
mod tests;
mod walk;

use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

use crate::cases::args::CaseArgs;
use crate::cases::hash::{BuildFx, value_hash};
use crate::cases::sample::Sampler;
use crate::cases::{Case, CaseOptions, DeriveError, Expectation};
use crate::validation::{SchemaError, SchemaValidator};

pub(crate) use actions::{action_schema, actions};
use build::{Ctx, Derived};
use collected::{Collected, Index};
use declares::declares;
pub use value_error::ValueError;
use walk::Mutation;

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

/// [`derive`], compiling the input schema through `engine`, the cases appended to `out`.
/// When the tool fails, some may have been appended: the caller takes them back.
pub(super) fn derive_with<'s>(
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
                // The arguments of a valid case, when they are an object to put the action in
                // (a schema may declare actions and still type its root otherwise).
                let mut args = cases
                    .kept()
                    .iter()
                    .find(|c: &&Case| c.expectation == Expectation::Success && c.args.is_object())
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
