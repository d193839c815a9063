//! The arguments of a [`Case`](super::Case): a JSON value, held as one edit of the arguments
//! the tool's other cases share until someone looks at it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, OnceLock};

use crate::validation::unescape_token;

/// The arguments a [`Case`](super::Case) sends: a JSON value.
///
/// Use it as a [`Value`]: it dereferences to one (`case.args["days"]`,
/// `case.args.get("city")`, `&case.args` where a `&Value` is expected), compares equal to one,
/// and serializes, displays and debug-prints as one. [`CaseArgs::into_value`] gives the value
/// itself; `CaseArgs::from(value)` makes arguments of your own.
///
/// Why not a plain `Value`: a tool's cases differ from its valid base arguments in one place
/// each (one property dropped, one value past its bound), and a server of a thousand tools
/// has tens of thousands of cases. The rules engine keeps the base once, shared, and each
/// case as its one edit; a case's full arguments are built the first time they are looked at
/// (sent, printed, compared, serialized) and kept from then on. Deriving every case of a
/// large server then costs a fraction of copying out every case's arguments, and a case that
/// is filtered out or never sent is never built. Changing the arguments through
/// [`DerefMut`] (`case.args["id"] = json!("o-1")`) makes them a value of their own.
///
/// ```
/// use mcp_test::cases::{derive_cases, CaseArgs, CaseOptions};
/// use serde_json::{json, Value};
///
/// let schema = json!({"type": "object",
///     "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 7}},
///     "required": ["days"]});
/// let mut cases = derive_cases("forecast", &schema, &CaseOptions::default()).unwrap();
/// let at_max = cases.iter().find(|c| c.args["days"] == 7).unwrap();
/// assert_eq!(at_max.args, json!({"days": 7}));
/// assert_eq!(at_max.args.to_string(), r#"{"days":7}"#);
///
/// cases[0].args["days"] = json!(3);
/// let value: Value = cases[0].args.clone().into_value();
/// assert_eq!(value, json!({"days": 3}));
/// assert_eq!(CaseArgs::from(value), json!({"days": 3}));
/// ```
#[derive(Clone)]
pub struct CaseArgs(Repr);

#[derive(Clone)]
enum Repr {
    /// A value of its own.
    Owned(Value),
    /// `base` with `edit` made, built into `full` when first looked at; `base` itself when
    /// there is no edit.
    Shared {
        base: Arc<Value>,
        edit: Option<Edit>,
        full: OnceLock<Value>,
    },
}

/// One edit of a JSON value at a JSON pointer.
#[derive(Clone, Debug)]
pub(crate) enum Edit {
    /// The value at `pointer` replaced, or the member added to its object.
    Set(Arc<str>, Value),
    /// The member at `pointer` removed from its object.
    Remove(Arc<str>),
}

impl Edit {
    /// The pointer of the place it changes.
    pub(crate) fn pointer(&self) -> &str {
        match self {
            Edit::Set(pointer, _) | Edit::Remove(pointer) => pointer,
        }
    }

    /// Makes the edit in `root`; `None` when there is no such place (the parent is missing,
    /// or is not an object or an array with that index), otherwise how to undo it.
    pub(crate) fn apply(mut self, root: &mut Value) -> Option<Undo> {
        self.make(root)
    }

    /// [`Edit::apply`], moving the value of a `Set` into `root` (`null` is left in its place:
    /// [`Undo::apply`] gives it back).
    pub(crate) fn make(&mut self, root: &mut Value) -> Option<Undo> {
        match self {
            Edit::Set(pointer, value) => set(root, pointer, std::mem::take(value)),
            Edit::Remove(pointer) => remove(root, pointer),
        }
    }

    /// Makes the edit in `root`, asks `look` about the result, and undoes it, the edit keeping
    /// its value; `None` when there is no place to make it.
    pub(crate) fn tried<T>(
        &mut self,
        root: &mut Value,
        look: impl FnOnce(&Value) -> T,
    ) -> Option<T> {
        let undo = self.make(root)?;
        let seen = look(root);
        let put = undo.apply(root, self.pointer());
        if let (Edit::Set(_, slot), Some(value)) = (self, put) {
            *slot = value;
        }
        Some(seen)
    }
}

impl CaseArgs {
    /// `base` itself, shared with the cases that edit it.
    pub(crate) fn shared(base: &Arc<Value>) -> Self {
        CaseArgs(Repr::Shared {
            base: Arc::clone(base),
            edit: None,
            full: OnceLock::new(),
        })
    }

    /// `base` with `edit` made (an edit with no place to make it leaves `base` as it is).
    pub(crate) fn edited(base: &Arc<Value>, edit: Edit) -> Self {
        CaseArgs(Repr::Shared {
            base: Arc::clone(base),
            edit: Some(edit),
            full: OnceLock::new(),
        })
    }

    /// The arguments as a value of their own.
    pub fn into_value(self) -> Value {
        match self.0 {
            Repr::Owned(value) => value,
            Repr::Shared { base, edit, full } => full.into_inner().unwrap_or_else(|| match edit {
                None => Arc::unwrap_or_clone(base),
                Some(edit) => build(&base, edit),
            }),
        }
    }

    /// The value of the top-level member `action` (of an action tool's arguments), without
    /// building arguments that are not built yet.
    pub(crate) fn action(&self) -> Option<&str> {
        match &self.0 {
            Repr::Owned(value) => value.get("action").and_then(Value::as_str),
            Repr::Shared { base, edit, full } => {
                if let Some(value) = full.get() {
                    return value.get("action").and_then(Value::as_str);
                }
                match edit {
                    Some(Edit::Set(pointer, value)) if &**pointer == "/action" => value.as_str(),
                    Some(Edit::Remove(pointer)) if &**pointer == "/action" => None,
                    Some(Edit::Set(pointer, value)) if pointer.is_empty() => {
                        value.get("action").and_then(Value::as_str)
                    }
                    // A string has no members to edit: an edit elsewhere leaves it as it is.
                    _ => base.get("action").and_then(Value::as_str),
                }
            }
        }
    }

    /// Whether the arguments equal `other`, without keeping arguments built for the comparison.
    pub(crate) fn same_as(&self, other: &Value) -> bool {
        match &self.0 {
            Repr::Owned(value) => value == other,
            Repr::Shared { base, edit, full } => match (full.get(), edit) {
                (Some(value), _) => value == other,
                (None, None) => **base == *other,
                (None, Some(edit)) => build(base, edit.clone()) == *other,
            },
        }
    }

    fn as_value(&self) -> &Value {
        match &self.0 {
            Repr::Owned(value) => value,
            Repr::Shared {
                base, edit: None, ..
            } => base,
            Repr::Shared {
                base,
                edit: Some(edit),
                full,
            } => full.get_or_init(|| build(base, edit.clone())),
        }
    }
}

/// `base` with `edit` made.
fn build(base: &Value, edit: Edit) -> Value {
    let mut value = base.clone();
    // The engine makes only edits that have a place; one without leaves the copy as it is.
    let _ = edit.apply(&mut value);
    value
}

impl From<Value> for CaseArgs {
    fn from(value: Value) -> Self {
        CaseArgs(Repr::Owned(value))
    }
}

impl From<CaseArgs> for Value {
    fn from(args: CaseArgs) -> Self {
        args.into_value()
    }
}

impl Deref for CaseArgs {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.as_value()
    }
}

impl DerefMut for CaseArgs {
    /// Makes the arguments a value of their own (built if they were not), to change.
    fn deref_mut(&mut self) -> &mut Value {
        if let Repr::Shared { .. } = self.0 {
            let shared = std::mem::replace(&mut self.0, Repr::Owned(Value::Null));
            self.0 = Repr::Owned(CaseArgs(shared).into_value());
        }
        match &mut self.0 {
            Repr::Owned(value) => value,
            Repr::Shared { .. } => unreachable!("made owned just above"),
        }
    }
}

impl AsRef<Value> for CaseArgs {
    fn as_ref(&self) -> &Value {
        self.as_value()
    }
}

impl PartialEq for CaseArgs {
    fn eq(&self, other: &Self) -> bool {
        self.as_value() == other.as_value()
    }
}

impl PartialEq<Value> for CaseArgs {
    fn eq(&self, other: &Value) -> bool {
        self.as_value() == other
    }
}

impl PartialEq<CaseArgs> for Value {
    fn eq(&self, other: &CaseArgs) -> bool {
        self == other.as_value()
    }
}

impl fmt::Debug for CaseArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_value(), f)
    }
}

impl fmt::Display for CaseArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_value(), f)
    }
}

impl Serialize for CaseArgs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for CaseArgs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(CaseArgs::from)
    }
}

/// How to undo one [`Edit`] of a value (see [`Edit::apply`]).
pub(crate) enum Undo {
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
    /// Puts back what the edit at `ptr` changed in `root`, and gives back the value the edit
    /// had put there (`None` for a removal).
    pub(crate) fn apply(self, root: &mut Value, ptr: &str) -> Option<Value> {
        if let Undo::Root(old) = self {
            return Some(std::mem::replace(root, old));
        }
        let (parent, last) = ptr.rsplit_once('/')?;
        let key = unescape_token(last);
        match (self, parent_mut(root, parent)) {
            (Undo::Replaced(old), Some(Value::Object(map))) => map
                .get_mut(key.as_ref())
                .map(|slot| std::mem::replace(slot, old)),
            (Undo::Added, Some(Value::Object(map))) => map.remove(key.as_ref()),
            (Undo::Removed(key, old), Some(Value::Object(map))) => {
                map.insert(key, old);
                None
            }
            (Undo::Item(old), Some(Value::Array(items))) => key
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .map(|slot| std::mem::replace(slot, old)),
            _ => None,
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
    use serde_json::json;

    fn base() -> Arc<Value> {
        Arc::new(json!({"a": 1, "b": {"c": [1, 2]}, "x/y": true}))
    }

    #[test]
    fn an_edit_is_built_when_looked_at_and_equals_the_edited_value() {
        let base = base();
        let cases = [
            (
                Edit::Set("/a".into(), json!(2)),
                json!({"a": 2, "b": {"c": [1, 2]}, "x/y": true}),
            ),
            (
                Edit::Remove("/a".into()),
                json!({"b": {"c": [1, 2]}, "x/y": true}),
            ),
            (
                Edit::Set("/b/c/1".into(), json!(9)),
                json!({"a": 1, "b": {"c": [1, 9]}, "x/y": true}),
            ),
            (
                Edit::Set("/b/d".into(), json!("new")),
                json!({"a": 1, "b": {"c": [1, 2], "d": "new"}, "x/y": true}),
            ),
            (
                Edit::Remove("/x~1y".into()),
                json!({"a": 1, "b": {"c": [1, 2]}}),
            ),
            (Edit::Set("".into(), json!([])), json!([])),
        ];
        for (edit, expected) in cases {
            let args = CaseArgs::edited(&base, edit.clone());
            assert!(args.same_as(&expected), "{edit:?}");
            assert_eq!(args, expected, "{edit:?}");
            assert_eq!(CaseArgs::edited(&base, edit).into_value(), expected);
        }
        assert_eq!(
            *base,
            json!({"a": 1, "b": {"c": [1, 2]}, "x/y": true}),
            "the base is shared, never changed"
        );
    }

    #[test]
    fn an_edit_with_no_place_leaves_the_base() {
        let base = base();
        for edit in [
            Edit::Set("/nope/deeper".into(), json!(1)),
            Edit::Remove("/b/c/0".into()),
            Edit::Set("/b/c/7".into(), json!(1)),
        ] {
            assert_eq!(CaseArgs::edited(&base, edit).into_value(), *base);
        }
    }

    #[test]
    fn changing_the_arguments_makes_them_their_own() {
        let base = base();
        let mut args = CaseArgs::edited(&base, Edit::Set("/a".into(), json!(2)));
        args["b"] = json!(null);
        assert_eq!(args, json!({"a": 2, "b": null, "x/y": true}));
        assert_eq!(base["b"], json!({"c": [1, 2]}));
        let mut shared = CaseArgs::shared(&base);
        shared["a"] = json!(0);
        assert_eq!(base["a"], 1);
        assert_eq!(shared["a"], 0);
    }

    #[test]
    fn the_action_is_read_without_building() {
        let base = Arc::new(json!({"action": "get", "data": {"id": "1"}}));
        let set = CaseArgs::edited(&base, Edit::Set("/action".into(), json!("put")));
        let gone = CaseArgs::edited(&base, Edit::Remove("/action".into()));
        let deeper = CaseArgs::edited(&base, Edit::Remove("/data/id".into()));
        let root = CaseArgs::edited(&base, Edit::Set("".into(), json!({"action": "x"})));
        assert_eq!(
            [set.action(), gone.action(), deeper.action(), root.action()],
            [Some("put"), None, Some("get"), Some("x")]
        );
        for args in [&set, &gone, &deeper, &root] {
            assert_eq!(args.action(), args.get("action").and_then(Value::as_str));
        }
    }

    #[test]
    fn serializes_debugs_and_displays_as_its_value() {
        let args = CaseArgs::edited(&base(), Edit::Remove("/b".into()));
        let value = json!({"a": 1, "x/y": true});
        assert_eq!(
            serde_json::to_string(&args).unwrap(),
            serde_json::to_string(&value).unwrap()
        );
        assert_eq!(format!("{args:?}"), format!("{value:?}"));
        assert_eq!(args.to_string(), value.to_string());
        let back: CaseArgs = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(back, args);
    }
}
