//! Tagged unions read out of a schema, so a diff compares one variant with the same variant:
//! the `allOf` of `if`/`then` an action tool of `#[derive(Tool)]` publishes (`if` the tag
//! property is this constant, `then` this schema), and the `oneOf`/`anyOf` schemars and
//! rmcp publish for internally and adjacently tagged enums (objects that each require a tag
//! property of one constant value, `const` or an `enum` of one).

use super::node::{ANNOTATIONS, resolve};
use crate::validation::join_pointer;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// How many `$ref`s an alternative may chain before its tag is given up on.
const MAX_REFS: usize = 8;

/// A schema read as a tagged union.
#[derive(Clone, Debug)]
pub(super) struct Tagged {
    /// The tag property's name, e.g. `action`.
    pub(super) tag: String,
    /// The variants by their tag value.
    pub(super) variants: BTreeMap<String, Branch>,
    /// The schema without the union: what every variant shares.
    pub(super) rest: Value,
}

/// One variant: where it is, and the schema that applies to it beside the rest.
#[derive(Clone, Debug)]
pub(super) struct Branch {
    /// The pointer of the whole branch (the `allOf` entry, the alternative).
    pub(super) place: String,
    /// The pointer of [`Branch::schema`] (the `then`, or the alternative itself).
    pub(super) at: String,
    /// The schema that applies when the tag has this value.
    pub(super) schema: Value,
}

impl Tagged {
    /// [`Tagged::rest`] without the `enum` (or `const`) of the tag property when it lists
    /// exactly the variants' values: the variants say the same, each change once.
    pub(super) fn rest_without_listing(&self) -> Option<Value> {
        let mut rest = self.rest.clone();
        let property = rest
            .get_mut("properties")
            .and_then(|p| p.get_mut(&self.tag))
            .and_then(Value::as_object_mut)?;
        let listed: BTreeSet<&str> = match (property.get("enum"), property.get("const")) {
            (Some(Value::Array(values)), None) => values.iter().filter_map(Value::as_str).collect(),
            (None, Some(Value::String(value))) => BTreeSet::from([value.as_str()]),
            _ => return None,
        };
        let values: BTreeSet<&str> = self.variants.keys().map(String::as_str).collect();
        if listed != values {
            return None;
        }
        property.remove("enum");
        property.remove("const");
        Some(rest)
    }
}

/// `schema` (at `at`, its `$ref`s into `root`) read as a tagged union: the first of its
/// `allOf` of `if`/`then` on one tag, its `oneOf` or its `anyOf` that is one; `None` when
/// none is.
///
/// A schema that is only a `$ref` (with annotations beside it, as schemars writes a
/// property of an enum type) is read as what it refers to, its places those of the
/// reference, as the diff places everything reached through a `$ref`.
pub(super) fn read(root: &Value, schema: &Value, at: &str) -> Option<Tagged> {
    let mut object = schema.as_object()?;
    let mut beside = Map::new();
    for _ in 0..MAX_REFS {
        let only_a_reference = object
            .keys()
            .all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()));
        match object.get("$ref").and_then(Value::as_str) {
            Some(reference) if only_a_reference => {
                for (key, value) in object.iter().filter(|(k, _)| *k != "$ref") {
                    beside.entry(key.clone()).or_insert_with(|| value.clone());
                }
                object = resolve(root, reference)?.as_object()?;
            }
            _ => break,
        }
    }
    let mut tagged = conditional(object, at).or_else(|| {
        ["oneOf", "anyOf"]
            .into_iter()
            .find_map(|keyword| alternatives(root, object, keyword, at))
    })?;
    if let Some(rest) = tagged.rest.as_object_mut() {
        rest.extend(beside);
    }
    Some(tagged)
}

/// The tag a schema requires to be one constant string: `(property, value)` of each
/// `properties` member whose schema is `{"const": "v"}` or `{"enum": ["v"]}` (beside other
/// keywords) and which `required` lists.
fn constants(object: &Map<String, Value>) -> BTreeMap<String, String> {
    let required: BTreeSet<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return BTreeMap::new();
    };
    properties
        .iter()
        .filter(|(name, _)| required.contains(name.as_str()))
        .filter_map(|(name, property)| {
            let value = match (property.get("const"), property.get("enum")) {
                (Some(Value::String(value)), _) => value,
                (None, Some(Value::Array(values))) => match values.as_slice() {
                    [Value::String(value)] => value,
                    _ => return None,
                },
                _ => return None,
            };
            Some((name.clone(), value.clone()))
        })
        .collect()
}

/// The derive's shape: `allOf: [{if: {properties: {T: {const: V}}, required: [T]}, then:
/// S}, ...]`, every `if` on the same one property `T`, each `V` once. Entries of `allOf`
/// that are not such a pair stay in the rest.
fn conditional(object: &Map<String, Value>, at: &str) -> Option<Tagged> {
    let entries = object.get("allOf")?.as_array()?;
    let mut tag: Option<String> = None;
    let mut variants = BTreeMap::new();
    let mut others = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let pair = entry
            .as_object()
            .filter(|e| e.len() == 2 && e.contains_key("if") && e.contains_key("then"));
        let condition = pair
            .and_then(|e| e["if"].as_object())
            .and_then(|condition| {
                // Nothing in the condition but the tag: `properties`, `required`, `type: object`.
                let plain = condition.keys().all(|k| {
                    matches!(k.as_str(), "properties" | "required")
                        || (k == "type" && condition[k] == "object")
                });
                let properties = condition.get("properties")?.as_object()?;
                let constants = constants(condition);
                match (plain, properties.len(), constants.into_iter().next()) {
                    (true, 1, Some(constant)) => Some(constant),
                    _ => None,
                }
            });
        let (Some(pair), Some((property, value))) = (pair, condition) else {
            others.push(entry.clone());
            continue;
        };
        if tag.get_or_insert_with(|| property.clone()) != &property || variants.contains_key(&value)
        {
            return None;
        }
        let place = format!("{at}/allOf/{index}");
        variants.insert(
            value,
            Branch {
                at: format!("{place}/then"),
                place,
                schema: pair["then"].clone(),
            },
        );
    }
    let tag = tag?;
    let mut rest = object.clone();
    if others.is_empty() {
        rest.remove("allOf");
    } else {
        rest.insert("allOf".to_owned(), Value::Array(others));
    }
    Some(Tagged {
        tag,
        variants,
        rest: Value::Object(rest),
    })
}

/// schemars' and rmcp's shape: every alternative of `keyword` an object schema that
/// requires one property to be one constant string, the same property in each, each value
/// once (a `$ref` to such a schema counts). The property chosen is the first by name.
fn alternatives(
    root: &Value,
    object: &Map<String, Value>,
    keyword: &str,
    at: &str,
) -> Option<Tagged> {
    let list = object.get(keyword)?.as_array()?;
    if list.is_empty() {
        return None;
    }
    let mut tags: Vec<BTreeMap<String, String>> = Vec::with_capacity(list.len());
    for alternative in list {
        let mut schema = alternative;
        for _ in 0..MAX_REFS {
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) => schema = resolve(root, reference)?,
                None => break,
            }
        }
        tags.push(constants(schema.as_object()?));
    }
    let tag = tags[0].keys().find(|name| {
        let values: BTreeSet<Option<&String>> = tags.iter().map(|t| t.get(*name)).collect();
        values.len() == tags.len() && !values.contains(&None)
    })?;
    let variants = list
        .iter()
        .zip(&tags)
        .enumerate()
        .map(|(index, (alternative, constants))| {
            let place = join_pointer(&format!("{at}/{keyword}"), &index.to_string());
            (
                constants[tag].clone(),
                Branch {
                    at: place.clone(),
                    place,
                    schema: alternative.clone(),
                },
            )
        })
        .collect();
    let mut rest = object.clone();
    rest.remove(keyword);
    Some(Tagged {
        tag: tag.clone(),
        variants,
        rest: Value::Object(rest),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_derive_shape_is_read_by_its_if_then_pairs() {
        let schema = json!({
            "type": "object",
            "properties": {"action": {"type": "string", "enum": ["get", "put"]}},
            "required": ["action"],
            "allOf": [
                {"if": {"properties": {"action": {"const": "get"}}, "required": ["action"]},
                 "then": {"properties": {"data": {"type": "object"}}}},
                {"if": {"properties": {"action": {"const": "put"}}, "required": ["action"]},
                 "then": {"properties": {"data": {"type": "object"}}, "required": ["data"]}},
                {"minProperties": 1}
            ]
        });
        let tagged = read(&schema, &schema, "/inputSchema").unwrap();
        assert_eq!(tagged.tag, "action");
        assert_eq!(tagged.variants["put"].at, "/inputSchema/allOf/1/then");
        assert_eq!(tagged.variants["get"].place, "/inputSchema/allOf/0");
        assert_eq!(tagged.rest["allOf"], json!([{"minProperties": 1}]));
        let rest = tagged.rest_without_listing().unwrap();
        assert_eq!(rest["properties"]["action"], json!({"type": "string"}));
    }

    #[test]
    fn tagged_alternatives_are_read_through_refs_and_single_enums() {
        let schema = json!({
            "oneOf": [
                {"$ref": "#/$defs/Card"},
                {"type": "object", "properties": {"kind": {"enum": ["cash"]}, "type": {"const": "x"}},
                 "required": ["kind", "type"]}
            ],
            "$defs": {"Card": {"type": "object",
                "properties": {"kind": {"const": "card"}, "type": {"const": "x"}},
                "required": ["kind", "type"]}}
        });
        let tagged = read(&schema, &schema, "").unwrap();
        // `type` is the same in both: only `kind` tells them apart.
        assert_eq!(tagged.tag, "kind");
        let values: Vec<&String> = tagged.variants.keys().collect();
        assert_eq!(values, ["card", "cash"]);
        assert_eq!(tagged.variants["cash"].place, "/oneOf/1");
        assert!(tagged.rest.get("oneOf").is_none());
        // A property that only refers to the union is read as the union.
        let property = json!({"$ref": "#/$defs/Pay", "description": "How."});
        let mut root = schema.clone();
        root["$defs"]["Pay"] = json!({"oneOf": schema["oneOf"].clone()});
        let through = read(&root, &property, "/properties/p").unwrap();
        assert_eq!(through.variants["cash"].place, "/properties/p/oneOf/1");
        assert_eq!(through.rest["description"], "How.");
    }

    #[test]
    fn what_is_not_a_tagged_union_is_not_read_as_one() {
        let untagged = json!({"oneOf": [{"type": "string"}, {"type": "object"}]});
        assert!(read(&untagged, &untagged, "").is_none());
        // The tag is not required: an object without it matches either alternative.
        let optional = json!({"oneOf": [
            {"type": "object", "properties": {"k": {"const": "a"}}},
            {"type": "object", "properties": {"k": {"const": "b"}}}
        ]});
        assert!(read(&optional, &optional, "").is_none());
        // Two `if`s on one value, or an `else`, are something else.
        let twice = json!({"allOf": [
            {"if": {"properties": {"a": {"const": "x"}}, "required": ["a"]}, "then": {}},
            {"if": {"properties": {"a": {"const": "x"}}, "required": ["a"]}, "then": {}}
        ]});
        assert!(read(&twice, &twice, "").is_none());
        let with_else = json!({"allOf": [
            {"if": {"properties": {"a": {"const": "x"}}, "required": ["a"]}, "then": {}, "else": false}
        ]});
        assert!(read(&with_else, &with_else, "").is_none());
    }
}
