//! One test per rule of the diff: each builds two surfaces that differ in one way and
//! checks the class (and where) of what the diff finds.

use super::*;
use serde_json::{Value, json};

fn tool(input: Value) -> Surface {
    Surface::from_json(&json!({"tools": [{"name": "t", "inputSchema": input}]})).unwrap()
}

fn tool_out(output: Value) -> Surface {
    Surface::from_json(
        &json!({"tools": [{"name": "t", "inputSchema": {"type": "object"},
        "outputSchema": output}]}),
    )
    .unwrap()
}

fn object(properties: Value, required: Value) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// The (class, pointer) of every change.
fn found(old: &Surface, new: &Surface) -> Vec<(Class, String)> {
    diff(old, new)
        .changes
        .into_iter()
        .map(|c| (c.class, c.location.pointer))
        .collect()
}

/// The one class the drift has, failing with the whole drift when there is not exactly one.
fn only(old: &Surface, new: &Surface) -> Class {
    let drift = diff(old, new);
    let classes: std::collections::BTreeSet<Class> =
        drift.changes.iter().map(|c| c.class).collect();
    assert_eq!(classes.len(), 1, "{}", drift.to_text());
    *classes.iter().next().unwrap()
}

fn input_pair(old: Value, new: Value) -> Class {
    let wrap = |s: Value| object(json!({"x": s}), json!([]));
    only(&tool(wrap(old)), &tool(wrap(new)))
}

fn output_pair(old: Value, new: Value) -> Class {
    let wrap = |s: Value| object(json!({"x": s}), json!(["x"]));
    only(&tool_out(wrap(old)), &tool_out(wrap(new)))
}

#[test]
fn a_removed_item_breaks_and_a_new_one_adds() {
    let one = tool(json!({"type": "object"}));
    assert_eq!(
        found(&one, &Surface::new()),
        [(Class::Breaking, String::new())]
    );
    assert_eq!(
        found(&Surface::new(), &one),
        [(Class::Additive, String::new())]
    );
    for section in ["prompts", "resources", "resourceTemplates"] {
        let id = match section {
            "resources" => json!({"uri": "file:///a", "name": "a"}),
            "resourceTemplates" => json!({"uriTemplate": "file:///{a}", "name": "a"}),
            _ => json!({"name": "a"}),
        };
        let surface = Surface::from_json(&json!({ section: [id] })).unwrap();
        assert_eq!(
            only(&surface, &Surface::new()),
            Class::Breaking,
            "{section}"
        );
        assert_eq!(
            only(&Surface::new(), &surface),
            Class::Additive,
            "{section}"
        );
    }
}

#[test]
fn a_rename_is_a_breaking_removal_named_as_a_rename() {
    let old =
        Surface::from_json(&json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}))
            .unwrap();
    let new =
        Surface::from_json(&json!({"tools": [{"name": "b", "inputSchema": {"type": "object"}}]}))
            .unwrap();
    let drift = diff(&old, &new);
    assert_eq!(drift.worst(), Some(Class::Breaking));
    assert!(
        drift.changes[0].reason.contains("renamed to \"b\"?"),
        "{}",
        drift.to_text()
    );
    assert!(
        drift.changes[1].reason.contains("renamed from \"a\"?"),
        "{}",
        drift.to_text()
    );
}

#[test]
fn a_new_required_input_breaks_and_a_new_optional_one_adds() {
    let old = tool(object(json!({}), json!([])));
    let required = tool(object(json!({"y": {"type": "string"}}), json!(["y"])));
    let optional = tool(object(json!({"y": {"type": "string"}}), json!([])));
    assert_eq!(
        found(&old, &required),
        [(Class::Breaking, "/inputSchema/properties/y".to_owned())]
    );
    assert_eq!(
        found(&old, &optional),
        [(Class::Additive, "/inputSchema/properties/y".to_owned())]
    );
    assert_eq!(only(&optional, &required), Class::Breaking);
    assert_eq!(only(&required, &optional), Class::Additive);
    assert_eq!(only(&optional, &old), Class::Breaking);
}

#[test]
fn input_types_narrowed_break_and_widened_add() {
    assert_eq!(
        input_pair(json!({"type": "number"}), json!({"type": "integer"})),
        Class::Breaking
    );
    assert_eq!(
        input_pair(json!({"type": "integer"}), json!({"type": "number"})),
        Class::Additive
    );
    assert_eq!(
        input_pair(
            json!({"type": ["string", "null"]}),
            json!({"type": "string"})
        ),
        Class::Breaking
    );
    assert_eq!(
        input_pair(
            json!({"type": "string"}),
            json!({"type": ["string", "null"]})
        ),
        Class::Additive
    );
    assert_eq!(
        input_pair(json!({"type": "string"}), json!({"type": "integer"})),
        Class::Breaking
    );
    assert_eq!(
        input_pair(json!({}), json!({"type": "string"})),
        Class::Breaking
    );
}

#[test]
fn input_constraints_tightened_break_and_loosened_add() {
    let pairs = [
        (
            json!({"type": "integer", "maximum": 10}),
            json!({"type": "integer", "maximum": 5}),
        ),
        (
            json!({"type": "integer"}),
            json!({"type": "integer", "minimum": 0}),
        ),
        (
            json!({"type": "number", "exclusiveMinimum": 0}),
            json!({"type": "number", "exclusiveMinimum": 1}),
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "maxLength": 5}),
        ),
        (
            json!({"type": "string", "minLength": 1}),
            json!({"type": "string", "minLength": 2}),
        ),
        (
            json!({"type": "array"}),
            json!({"type": "array", "maxItems": 3}),
        ),
        (
            json!({"type": "array", "minItems": 1}),
            json!({"type": "array", "minItems": 2}),
        ),
        (
            json!({"type": "array"}),
            json!({"type": "array", "uniqueItems": true}),
        ),
        (
            json!({"type": "integer"}),
            json!({"type": "integer", "multipleOf": 2}),
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "pattern": "^a"}),
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "format": "date"}),
        ),
        (json!({"enum": ["a", "b"]}), json!({"enum": ["a"]})),
        (
            json!({"type": "array", "items": {"type": "number"}}),
            json!({"type": "array", "items": {"type": "integer"}}),
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "additionalProperties": false}),
        ),
    ];
    for (old, new) in pairs {
        assert_eq!(
            input_pair(old.clone(), new.clone()),
            Class::Breaking,
            "{old} -> {new}"
        );
        assert_eq!(
            input_pair(new.clone(), old.clone()),
            Class::Additive,
            "{new} -> {old}"
        );
    }
}

#[test]
fn a_changed_pattern_cannot_be_compared_and_is_breaking_saying_so() {
    let drift = diff(
        &tool(object(
            json!({"x": {"type": "string", "pattern": "^a"}}),
            json!([]),
        )),
        &tool(object(
            json!({"x": {"type": "string", "pattern": "^b"}}),
            json!([]),
        )),
    );
    assert_eq!(drift.worst(), Some(Class::Breaking));
    assert!(
        drift.changes[0]
            .reason
            .contains("could not be proven compatible"),
        "{}",
        drift.to_text()
    );
}

#[test]
fn outputs_are_covariant() {
    // An output property removed, retyped, no longer required.
    let old = object(
        json!({"a": {"type": "string"}, "b": {"type": "integer"}}),
        json!(["a", "b"]),
    );
    let removed = object(json!({"a": {"type": "string"}}), json!(["a"]));
    let retyped = object(
        json!({"a": {"type": "string"}, "b": {"type": "string"}}),
        json!(["a", "b"]),
    );
    let optional = object(
        json!({"a": {"type": "string"}, "b": {"type": "integer"}}),
        json!(["a"]),
    );
    for new in [removed, retyped, optional.clone()] {
        assert_eq!(
            only(&tool_out(old.clone()), &tool_out(new.clone())),
            Class::Breaking,
            "{new}"
        );
    }
    // A new optional output, an output made always present, a tighter output: additive.
    let more = object(
        json!({"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "string"}}),
        json!(["a", "b"]),
    );
    assert_eq!(
        only(&tool_out(old.clone()), &tool_out(more)),
        Class::Additive
    );
    assert_eq!(
        only(&tool_out(optional), &tool_out(old.clone())),
        Class::Additive
    );
    assert_eq!(
        output_pair(
            json!({"type": "string"}),
            json!({"type": "string", "maxLength": 3})
        ),
        Class::Additive
    );
    assert_eq!(
        output_pair(
            json!({"type": "string", "maxLength": 3}),
            json!({"type": "string"})
        ),
        Class::Breaking
    );
    // A new enum member in an output: breaking, a judgement said so.
    let drift = diff(
        &tool_out(object(json!({"x": {"enum": ["a"]}}), json!([]))),
        &tool_out(object(json!({"x": {"enum": ["a", "b"]}}), json!([]))),
    );
    assert_eq!(drift.worst(), Some(Class::Breaking));
    assert!(
        drift.changes[0].reason.contains("judgement"),
        "{}",
        drift.to_text()
    );
}

#[test]
fn an_output_schema_removed_breaks_and_added_adds() {
    let without = tool(json!({"type": "object"}));
    let with = tool_out(json!({"type": "object"}));
    assert_eq!(
        found(&with, &without),
        [(Class::Breaking, "/outputSchema".to_owned())]
    );
    assert_eq!(
        found(&without, &with),
        [(Class::Additive, "/outputSchema".to_owned())]
    );
}

#[test]
fn safety_promises_follow_the_spec_defaults() {
    let annotated = |annotations: Value| {
        Surface::from_json(
            &json!({"tools": [{"name": "t", "inputSchema": {"type": "object"},
            "annotations": annotations}]}),
        )
        .unwrap()
    };
    let cases = [
        (
            json!({"readOnlyHint": true}),
            json!({"readOnlyHint": false}),
            Class::Breaking,
        ),
        (json!({"readOnlyHint": true}), json!({}), Class::Breaking),
        (json!({}), json!({"readOnlyHint": true}), Class::Additive),
        (
            json!({"destructiveHint": false}),
            json!({"destructiveHint": true}),
            Class::Breaking,
        ),
        (
            json!({"destructiveHint": false}),
            json!({}),
            Class::Breaking,
        ),
        (
            json!({}),
            json!({"destructiveHint": false}),
            Class::Additive,
        ),
        (json!({}), json!({"destructiveHint": true}), Class::Cosmetic),
        (json!({"idempotentHint": true}), json!({}), Class::Breaking),
        (json!({"openWorldHint": false}), json!({}), Class::Breaking),
        (json!({}), json!({"openWorldHint": false}), Class::Additive),
        (
            json!({"title": "A"}),
            json!({"title": "B"}),
            Class::Cosmetic,
        ),
    ];
    for (old, new, class) in cases {
        assert_eq!(
            only(&annotated(old.clone()), &annotated(new.clone())),
            class,
            "{old} -> {new}"
        );
    }
}

#[test]
fn a_prompt_argument_made_required_breaks() {
    let prompt = |arguments: Value| {
        Surface::from_json(&json!({"prompts": [{"name": "p", "arguments": arguments}]})).unwrap()
    };
    let optional = prompt(json!([{"name": "a"}]));
    let required = prompt(json!([{"name": "a", "required": true}]));
    let more = prompt(json!([{"name": "a"}, {"name": "b"}]));
    let more_required = prompt(json!([{"name": "a"}, {"name": "b", "required": true}]));
    assert_eq!(only(&optional, &required), Class::Breaking);
    assert_eq!(only(&required, &optional), Class::Additive);
    assert_eq!(only(&optional, &more), Class::Additive);
    assert_eq!(only(&optional, &more_required), Class::Breaking);
    assert_eq!(only(&more, &optional), Class::Breaking);
}

#[test]
fn an_mcp_header_added_or_renamed_breaks() {
    let with = |header: Option<&str>| {
        let mut x = json!({"type": "string"});
        if let Some(header) = header {
            x["x-mcp-header"] = json!(header);
        }
        tool(object(json!({"x": x}), json!(["x"])))
    };
    assert_eq!(
        found(&with(None), &with(Some("Region"))),
        [(
            Class::Breaking,
            "/inputSchema/properties/x/x-mcp-header".to_owned()
        )]
    );
    assert_eq!(
        only(&with(Some("Region")), &with(Some("Zone"))),
        Class::Breaking
    );
    assert_eq!(only(&with(Some("Region")), &with(None)), Class::Additive);
}

#[test]
fn capabilities_withdrawn_break_and_added_add() {
    let caps = |c: Value| Surface::from_json(&json!({"capabilities": c})).unwrap();
    assert_eq!(
        only(
            &caps(json!({"tools": {}, "prompts": {}})),
            &caps(json!({"tools": {}}))
        ),
        Class::Breaking
    );
    assert_eq!(
        only(
            &caps(json!({"tools": {}})),
            &caps(json!({"tools": {}, "logging": {}}))
        ),
        Class::Additive
    );
    assert_eq!(
        only(
            &caps(json!({"tools": {"listChanged": true}})),
            &caps(json!({"tools": {"listChanged": false}}))
        ),
        Class::Breaking
    );
    assert_eq!(
        only(
            &caps(json!({"tools": {}})),
            &caps(json!({"tools": {"listChanged": true}}))
        ),
        Class::Additive
    );
    assert_eq!(
        only(
            &caps(json!({"tools": {}})),
            &caps(json!({"tools": {"listChanged": false}}))
        ),
        Class::Cosmetic
    );
}

#[test]
fn rewrites_that_accept_the_same_values_are_cosmetic() {
    let pairs = [
        // Reworded description.
        (
            json!({"type": "string", "description": "a"}),
            json!({"type": "string", "description": "b"}),
        ),
        // type array of one.
        (json!({"type": "string"}), json!({"type": ["string"]})),
        // allOf of one schema.
        (
            json!({"type": "string", "maxLength": 3}),
            json!({"allOf": [{"type": "string", "maxLength": 3}]}),
        ),
        // Equivalent integer bounds.
        (
            json!({"type": "integer", "maximum": 9}),
            json!({"type": "integer", "exclusiveMaximum": 10}),
        ),
        // Option<T> two ways.
        (
            json!({"type": ["string", "null"]}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        ),
        // Reordered enum.
        (json!({"enum": ["a", "b"]}), json!({"enum": ["b", "a"]})),
        // An output-side default.
        (
            json!({"type": "string", "examples": ["x"]}),
            json!({"type": "string", "examples": ["y"]}),
        ),
    ];
    for (old, new) in pairs {
        assert_eq!(
            input_pair(old.clone(), new.clone()),
            Class::Cosmetic,
            "{old} -> {new}"
        );
        assert_eq!(
            output_pair(old.clone(), new.clone()),
            Class::Cosmetic,
            "{old} -> {new}"
        );
    }
    // Reordered properties and required; a $ref inlined.
    let old = json!({"type": "object", "$defs": {"City": {"type": "string", "maxLength": 9}},
        "properties": {"a": {"$ref": "#/$defs/City"}, "b": {"type": "integer"}}, "required": ["a", "b"]});
    let new = json!({"type": "object",
        "properties": {"b": {"type": "integer"}, "a": {"type": "string", "maxLength": 9}}, "required": ["b", "a"]});
    assert_eq!(only(&tool(old), &tool(new)), Class::Cosmetic);
}

#[test]
fn a_recursive_schema_is_compared_once_per_pair_of_references() {
    let tree = |leaf: &str| {
        json!({"type": "object", "$defs": {"Node": {"type": "object", "properties": {
            "value": {"type": leaf}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
            "properties": {"root": {"$ref": "#/$defs/Node"}}})
    };
    assert_eq!(
        only(&tool(tree("integer")), &tool(tree("number"))),
        Class::Additive
    );
    assert_eq!(found(&tool(tree("integer")), &tool(tree("integer"))), []);
}

#[test]
fn alternatives_are_matched_one_by_one() {
    let two =
        json!({"anyOf": [{"type": "string", "format": "uri"}, {"type": "string", "maxLength": 4}]});
    let three = json!({"anyOf": [{"type": "string", "format": "uri"}, {"type": "string", "maxLength": 4},
        {"type": "string", "format": "email"}]});
    assert_eq!(input_pair(two.clone(), three.clone()), Class::Additive);
    assert_eq!(input_pair(three, two), Class::Breaking);
}

#[test]
fn an_unknown_keyword_changed_is_breaking_saying_it_could_not_be_proven() {
    let drift = diff(
        &tool(object(json!({"x": {"not": {"type": "string"}}}), json!([]))),
        &tool(object(
            json!({"x": {"not": {"type": "integer"}}}),
            json!([]),
        )),
    );
    assert_eq!(drift.worst(), Some(Class::Breaking));
    assert!(
        drift.changes[0]
            .reason
            .contains("could not be proven compatible")
    );
    assert_eq!(
        drift.changes[0].location.pointer,
        "/inputSchema/properties/x/not"
    );
}

#[test]
fn a_changed_input_default_is_a_judgement() {
    let drift = diff(
        &tool(object(
            json!({"x": {"type": "integer", "default": 1}}),
            json!([]),
        )),
        &tool(object(
            json!({"x": {"type": "integer", "default": 2}}),
            json!([]),
        )),
    );
    assert_eq!(drift.worst(), Some(Class::Breaking));
    assert!(
        drift.changes[0].reason.contains("judgement"),
        "{}",
        drift.to_text()
    );
}

#[test]
fn renderings_carry_every_change() {
    let drift = diff(&tool(json!({"type": "object"})), &Surface::new());
    assert_eq!(drift.to_json()["summary"]["breaking"], 1);
    assert_eq!(drift.to_json()["changes"][0]["kind"], "tool");
    let markdown = drift.to_markdown();
    assert!(markdown.contains("### Breaking (1)"), "{markdown}");
    assert!(
        markdown.contains("| tool `t` |  | tool removed |"),
        "{markdown}"
    );
}

#[test]
fn alternatives_nested_in_alternatives_stay_bounded() {
    // Each level's ten alternatives refer to the level below: a small document whose
    // alternatives nest ten deep, 10^10 trials if nothing bounded them.
    let mut defs = serde_json::Map::new();
    defs.insert("L10".to_owned(), json!({"type": "string"}));
    for level in (0..10).rev() {
        let below = format!("#/$defs/L{}", level + 1);
        let alternatives: Vec<Value> = (0..10)
            .map(|i| json!({"type": "array", "maxItems": level * 10 + i, "items": {"$ref": below}}))
            .collect();
        defs.insert(format!("L{level}"), json!({"anyOf": alternatives}));
    }
    let schema = |defs: &serde_json::Map<String, Value>| json!({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/L0"}}});
    let mut narrower = defs.clone();
    narrower["L9"]["anyOf"][0]["minItems"] = json!(1);
    let drift = diff(&tool(schema(&defs)), &tool(schema(&narrower)));
    assert!(drift.worst().is_some(), "{}", drift.to_text());
}

#[test]
fn a_reference_elsewhere_that_does_not_change_is_no_change() {
    let remote = |description: &str| {
        tool(object(
            json!({"x": {"$ref": "https://example.com/x.json"}, "y": {"type": "string", "description": description}}),
            json!([]),
        ))
    };
    assert_eq!(found(&remote("a"), &remote("a")), []);
    assert_eq!(only(&remote("a"), &remote("b")), Class::Cosmetic);
    // The same text whose `$ref` now resolves to something narrower is a change.
    let defs = |max: u64| {
        tool(
            json!({"type": "object", "$defs": {"N": {"type": "integer", "maximum": max}},
            "properties": {"n": {"$ref": "#/$defs/N"}}}),
        )
    };
    assert_eq!(
        found(&defs(9), &defs(5)),
        [(
            Class::Breaking,
            "/inputSchema/properties/n/maximum".to_owned()
        )]
    );
}

#[test]
fn task_support_keeps_clients_only_when_it_becomes_optional() {
    let with = |support: Option<&str>| {
        let mut t = json!({"name": "t", "inputSchema": {"type": "object"}});
        if let Some(support) = support {
            t["execution"] = json!({"taskSupport": support});
        }
        Surface::from_json(&json!({"tools": [t]})).unwrap()
    };
    assert_eq!(only(&with(None), &with(Some("optional"))), Class::Additive);
    assert_eq!(
        only(&with(Some("required")), &with(Some("optional"))),
        Class::Additive
    );
    assert_eq!(
        only(&with(Some("optional")), &with(Some("required"))),
        Class::Breaking
    );
    assert_eq!(only(&with(Some("optional")), &with(None)), Class::Breaking);
    assert_eq!(only(&with(None), &with(Some("forbidden"))), Class::Cosmetic);
}
