//! The items of two surfaces matched by name and compared member by member: tools (with
//! their schemas and annotations), prompts (with their arguments), resources, resource
//! templates, and the capabilities.

use super::change::{Change, Class, ItemKind, Location};
use super::schema::{Direction, compare};
use crate::surface::document::{SECTIONS, Surface};
use crate::validation::join_pointer;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The members of an item whose change is cosmetic: what a person reads, not a client.
const COSMETIC: &[&str] = &["title", "description", "icons", "size"];

/// The tool annotations that promise something: the hint, its value when absent (the spec's
/// defaults), and the value that is the promise.
const HINTS: [(&str, bool, bool, &str); 4] = [
    (
        "readOnlyHint",
        false,
        true,
        "the tool does not modify its environment",
    ),
    (
        "destructiveHint",
        true,
        false,
        "the tool's updates are not destructive",
    ),
    (
        "idempotentHint",
        false,
        true,
        "calling the tool again with the same arguments has no additional effect",
    ),
    (
        "openWorldHint",
        true,
        false,
        "the tool does not reach entities outside a closed domain",
    ),
];

/// Every change from `old` to `new`, in order of item kind (tools, prompts, resources,
/// resource templates, capabilities), then item, then place.
pub(super) fn changes(old: &Surface, new: &Surface) -> Vec<Change> {
    let mut changes = Vec::new();
    for section in &SECTIONS {
        let kind = match section.key {
            "tools" => ItemKind::Tool,
            "prompts" => ItemKind::Prompt,
            "resources" => ItemKind::Resource,
            _ => ItemKind::ResourceTemplate,
        };
        let by_id = |items: &[Value]| -> BTreeMap<String, Value> {
            items
                .iter()
                .filter_map(|item| Some((item.get(section.id)?.as_str()?.to_owned(), item.clone())))
                .collect()
        };
        let (olds, news) = (
            by_id(old.section(section.key)),
            by_id(new.section(section.key)),
        );
        let removed: Vec<&String> = olds.keys().filter(|k| !news.contains_key(*k)).collect();
        let added: Vec<&String> = news.keys().filter(|k| !olds.contains_key(*k)).collect();
        let ids: BTreeSet<&String> = olds.keys().chain(news.keys()).collect();
        for id in ids {
            let location = |pointer: &str| Location::new(kind, id.clone(), pointer);
            match (olds.get(id), news.get(id)) {
                (Some(old), Some(new)) => item(kind, id, old, new, &mut changes),
                (Some(old), None) => {
                    let twin = added.iter().find(|a| same_shape(kind, old, &news[**a]));
                    let renamed = twin.map_or_else(String::new, |t| {
                        format!(" (renamed to {t:?}? a rename is a removal for clients that use the old name)")
                    });
                    changes.push(Change::new(
                        Class::Breaking,
                        location(""),
                        format!("{} removed{renamed}", section.noun),
                    ));
                }
                (None, Some(new)) => {
                    let twin = removed.iter().find(|r| same_shape(kind, &olds[**r], new));
                    let renamed =
                        twin.map_or_else(String::new, |t| format!(" (renamed from {t:?}?)"));
                    changes.push(Change::new(
                        Class::Additive,
                        location(""),
                        format!("new {}{renamed}", section.noun),
                    ));
                }
                (None, None) => {}
            }
        }
    }
    capabilities(&old.capabilities, &new.capabilities, "", &mut changes);
    changes
}

/// Whether a removed and an added item look like one renamed: a tool with the same input
/// schema, a prompt with the same arguments, a resource or template with the same
/// description and type.
fn same_shape(kind: ItemKind, old: &Value, new: &Value) -> bool {
    let same = |key: &str| old.get(key) == new.get(key);
    match kind {
        ItemKind::Tool => same("inputSchema") && same("outputSchema"),
        ItemKind::Prompt => same("arguments") && same("description"),
        _ => same("mimeType") && same("description") && old.get("description").is_some(),
    }
}

/// The changes inside one item present in both surfaces.
fn item(kind: ItemKind, id: &str, old: &Value, new: &Value, changes: &mut Vec<Change>) {
    let empty = Map::new();
    let (old, new) = (
        old.as_object().unwrap_or(&empty),
        new.as_object().unwrap_or(&empty),
    );
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for key in keys {
        let (a, b) = (old.get(key.as_str()), new.get(key.as_str()));
        if a == b {
            continue;
        }
        let before = changes.len();
        let pointer = join_pointer("", key);
        let location = Location::new(kind, id, pointer.clone());
        let mut push = |class: Class, reason: String| {
            changes.push(Change::new(class, location.clone(), reason));
        };
        match (kind, key.as_str()) {
            (_, k) if COSMETIC.contains(&k) => push(Class::Cosmetic, format!("`{k}` {}", verb(a, b))),
            (ItemKind::Tool, "inputSchema") => {
                let any = Value::Bool(true);
                let (a, b) = (a.unwrap_or(&any), b.unwrap_or(&any));
                schema_changes(kind, id, (a, b), &pointer, Direction::Input, changes);
            }
            (ItemKind::Tool, "outputSchema") => match (a, b) {
                (Some(a), Some(b)) => {
                    schema_changes(kind, id, (a, b), &pointer, Direction::Output, changes);
                }
                (None, Some(_)) => push(
                    Class::Additive,
                    "`outputSchema` added: the tool now promises the shape of its structured content".to_owned(),
                ),
                (Some(_), None) => push(
                    Class::Breaking,
                    "`outputSchema` removed: the shape of the structured content is no longer promised".to_owned(),
                ),
                (None, None) => {}
            },
            (ItemKind::Tool, "annotations") => annotations(id, a, b, changes),
            (ItemKind::Tool, "execution") => execution(id, a, b, changes),
            (ItemKind::Prompt, "arguments") => arguments(id, a, b, changes),
            (ItemKind::Resource | ItemKind::ResourceTemplate, "annotations") => push(
                Class::Cosmetic,
                "`annotations` changed (audience, priority and lastModified are hints to a reader)".to_owned(),
            ),
            (ItemKind::Resource | ItemKind::ResourceTemplate, "mimeType") => match (a, b) {
                (None, Some(b)) => push(Class::Additive, format!("`mimeType` {b} stated")),
                _ => push(
                    Class::Breaking,
                    format!(
                        "`mimeType` {}: a client that reads the contents by their type may fail (a judgement)",
                        verb(a, b)
                    ),
                ),
            },
            (_, k) => push(
                Class::Breaking,
                format!(
                    "`{k}` {}: a member this comparison does not read (could not be proven compatible, so classed breaking)",
                    verb(a, b)
                ),
            ),
        }
        if changes.len() == before {
            changes.push(Change::new(
                Class::Cosmetic,
                Location::new(kind, id, join_pointer("", key)),
                format!("`{key}` written differently with the same meaning"),
            ));
        }
    }
}

/// "added", "removed", or "changed from A to B" (values short enough to quote).
fn verb(old: Option<&Value>, new: Option<&Value>) -> String {
    match (old, new) {
        (None, Some(_)) => "added".to_owned(),
        (Some(_), None) => "removed".to_owned(),
        (Some(a), Some(b)) => {
            let (a, b) = (a.to_string(), b.to_string());
            if a.len() + b.len() <= 80 {
                format!("changed from {a} to {b}")
            } else {
                "changed".to_owned()
            }
        }
        (None, None) => "unchanged".to_owned(),
    }
}

/// A schema of a tool, compared in `direction`; `$ref`s resolve inside the schema itself.
fn schema_changes(
    kind: ItemKind,
    id: &str,
    (old, new): (&Value, &Value),
    pointer: &str,
    direction: Direction,
    changes: &mut Vec<Change>,
) {
    for found in compare((old, old), (new, new), pointer, direction) {
        changes.push(Change::new(
            found.class,
            Location::new(kind, id, found.pointer).in_variants(found.variants),
            found.reason,
        ));
    }
}

/// The member names of `old` and `new` (objects; anything else has none), each once.
fn member_names<'a>(old: &'a Value, new: &'a Value) -> BTreeSet<&'a String> {
    let members = |value: &'a Value| value.as_object().into_iter().flat_map(Map::keys);
    members(old).chain(members(new)).collect()
}

/// A tool's annotations: each hint by its value or the spec's default for it.
fn annotations(id: &str, old: Option<&Value>, new: Option<&Value>, changes: &mut Vec<Change>) {
    let empty = Value::Object(Map::new());
    let (old, new) = (old.unwrap_or(&empty), new.unwrap_or(&empty));
    for key in member_names(old, new) {
        let (a, b) = (old.get(key.as_str()), new.get(key.as_str()));
        if a == b {
            continue;
        }
        let location = Location::new(ItemKind::Tool, id, join_pointer("/annotations", key));
        let hint = HINTS.iter().find(|(name, ..)| name == key);
        let (class, reason) = match hint {
            None if key == "title" => (Class::Cosmetic, format!("`title` {}", verb(a, b))),
            None => (
                Class::Breaking,
                format!(
                    "annotation `{key}` {}: one this comparison does not read (could not be proven compatible, so classed breaking)",
                    verb(a, b)
                ),
            ),
            Some((name, default, promise, meaning)) => {
                let value = |v: Option<&Value>| v.and_then(Value::as_bool).unwrap_or(*default);
                let (was, is) = (value(a), value(b));
                if was == is {
                    (
                        Class::Cosmetic,
                        format!(
                            "`{name}` {} with the same meaning ({is}; absent means {default})",
                            verb(a, b)
                        ),
                    )
                } else if was == *promise {
                    (
                        Class::Breaking,
                        format!(
                            "`{name}` {was} → {is}: the promise that {meaning} is withdrawn (absent means {default})"
                        ),
                    )
                } else {
                    (
                        Class::Additive,
                        format!(
                            "`{name}` {was} → {is}: now promises that {meaning} (absent means {default})"
                        ),
                    )
                }
            }
        };
        changes.push(Change::new(class, location, reason));
    }
}

/// A tool's `execution`: its `taskSupport` (absent: `forbidden`) decides who can call it. A
/// client that calls it plainly needs `forbidden` or `optional`, one that calls it as a task
/// needs `optional` or `required`: only a change to `optional` keeps both working.
fn execution(id: &str, old: Option<&Value>, new: Option<&Value>, changes: &mut Vec<Change>) {
    let support = |v: Option<&Value>| {
        v.and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
            .unwrap_or("forbidden")
            .to_owned()
    };
    let (was, is) = (support(old), support(new));
    let location = |pointer: &str| Location::new(ItemKind::Tool, id, pointer);
    if was != is {
        let (class, why) = match (was.as_str(), is.as_str()) {
            (_, "optional") => (Class::Additive, "every client that called it still can"),
            ("optional" | "forbidden", "required") => (
                Class::Breaking,
                "a client that calls it without a task now fails",
            ),
            _ => (
                Class::Breaking,
                "a client that calls it as a task now fails",
            ),
        };
        changes.push(Change::new(
            class,
            location("/execution/taskSupport"),
            format!("`taskSupport` {was} → {is} (absent means forbidden): {why}"),
        ));
    }
    let others = |v: Option<&Value>| -> BTreeMap<String, Value> {
        v.and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != "taskSupport")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let (a, b) = (others(old), others(new));
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for key in keys {
        if a.get(key) != b.get(key) {
            changes.push(Change::new(
                Class::Breaking,
                location(&join_pointer("/execution", key)),
                format!(
                    "`execution.{key}` {} (could not be proven compatible, so classed breaking)",
                    verb(a.get(key), b.get(key))
                ),
            ));
        }
    }
}

/// A prompt's arguments, matched by name.
fn arguments(id: &str, old: Option<&Value>, new: Option<&Value>, changes: &mut Vec<Change>) {
    let list = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(Value::as_array).cloned().unwrap_or_default()
    };
    let (old, new) = (list(old), list(new));
    let by_name = |items: &[Value]| -> BTreeMap<String, (usize, Value)> {
        items
            .iter()
            .enumerate()
            .filter_map(|(i, a)| Some((a.get("name")?.as_str()?.to_owned(), (i, a.clone()))))
            .collect()
    };
    let (olds, news) = (by_name(&old), by_name(&new));
    let required = |a: &Value| a.get("required").and_then(Value::as_bool).unwrap_or(false);
    let names: BTreeSet<&String> = olds.keys().chain(news.keys()).collect();
    let mut reordered = false;
    for name in names {
        let mut push = |index: usize, class: Class, reason: String| {
            changes.push(Change::new(
                class,
                Location::new(ItemKind::Prompt, id, format!("/arguments/{index}")),
                reason,
            ));
        };
        match (olds.get(name), news.get(name)) {
            (Some((i, _)), None) => push(
                *i,
                Class::Breaking,
                format!(
                    "argument `{name}` removed: a client that sends it is no longer understood (a judgement)"
                ),
            ),
            (None, Some((i, a))) if required(a) => {
                push(
                    *i,
                    Class::Breaking,
                    format!("new required argument `{name}`"),
                );
            }
            (None, Some((i, _))) => {
                push(
                    *i,
                    Class::Additive,
                    format!("new optional argument `{name}`"),
                );
            }
            (Some((i, a)), Some((j, b))) => {
                reordered |= i != j;
                match (required(a), required(b)) {
                    (false, true) => push(
                        *j,
                        Class::Breaking,
                        format!("argument `{name}` made required"),
                    ),
                    (true, false) => push(
                        *j,
                        Class::Additive,
                        format!("argument `{name}` no longer required"),
                    ),
                    _ => {}
                }
                for key in ["title", "description"] {
                    if a.get(key) != b.get(key) {
                        push(
                            *j,
                            Class::Cosmetic,
                            format!(
                                "`{key}` of argument `{name}` {}",
                                verb(a.get(key), b.get(key))
                            ),
                        );
                    }
                }
                let known = ["name", "title", "description", "required"];
                let names = member_names(a, b);
                for key in names.iter().filter(|k| !known.contains(&k.as_str())) {
                    if a.get(key.as_str()) != b.get(key.as_str()) {
                        push(
                            *j,
                            Class::Breaking,
                            format!(
                                "`{key}` of argument `{name}` changed (could not be proven compatible, so classed breaking)"
                            ),
                        );
                    }
                }
            }
            (None, None) => {}
        }
    }
    if reordered {
        changes.push(Change::new(
            Class::Cosmetic,
            Location::new(ItemKind::Prompt, id, "/arguments"),
            "arguments reordered",
        ));
    }
}

/// The capabilities, member by member: a capability withdrawn breaks, one added is
/// additive; a flag (`listChanged`, `subscribe`) absent means false.
fn capabilities(old: &Value, new: &Value, pointer: &str, changes: &mut Vec<Change>) {
    let location = Location::new(ItemKind::Capabilities, "", pointer);
    let name = if pointer.is_empty() {
        "capabilities".to_owned()
    } else {
        format!("`{}`", &pointer[1..])
    };
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let at = join_pointer(pointer, key);
                let (x, y) = (a.get(key.as_str()), b.get(key.as_str()));
                match (x, y) {
                    (Some(x), Some(y)) => capabilities(x, y, &at, changes),
                    (Some(Value::Bool(false)), None) | (None, Some(Value::Bool(false))) => changes
                        .push(Change::new(
                            Class::Cosmetic,
                            Location::new(ItemKind::Capabilities, "", at),
                            "a false flag stated or left out (absent means false)",
                        )),
                    (Some(_), None) => changes.push(Change::new(
                        Class::Breaking,
                        Location::new(ItemKind::Capabilities, "", at.clone()),
                        format!("capability `{}` withdrawn", &at[1..]),
                    )),
                    (None, Some(_)) => changes.push(Change::new(
                        Class::Additive,
                        Location::new(ItemKind::Capabilities, "", at.clone()),
                        format!("capability `{}` added", &at[1..]),
                    )),
                    (None, None) => {}
                }
            }
        }
        (Value::Bool(true), Value::Bool(false)) => {
            changes.push(Change::new(
                Class::Breaking,
                location,
                format!("{name} true → false"),
            ));
        }
        (Value::Bool(false), Value::Bool(true)) => {
            changes.push(Change::new(
                Class::Additive,
                location,
                format!("{name} false → true"),
            ));
        }
        (a, b) if a != b => changes.push(Change::new(
            Class::Breaking,
            location,
            format!(
                "{name} {} (could not be proven compatible, so classed breaking)",
                verb(Some(a), Some(b))
            ),
        )),
        _ => {}
    }
}
