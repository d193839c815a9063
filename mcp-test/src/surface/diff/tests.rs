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

/// Checks that `without` to `with` is one additive change at `pointer`, and back one
/// breaking change there.
fn adds_at(without: &Surface, with: &Surface, pointer: &str) {
    assert_eq!(
        found(without, with),
        [(Class::Additive, pointer.to_owned())]
    );
    assert_eq!(
        found(with, without),
        [(Class::Breaking, pointer.to_owned())]
    );
}

/// The one class the drift has, failing with the whole drift when there is not exactly one.
fn only(old: &Surface, new: &Surface) -> Class {
    let drift = diff(old, new);
    let classes: std::collections::BTreeSet<Class> =
        drift.changes.iter().map(|c| c.class).collect();
    assert_eq!(classes.len(), 1, "{}", drift.to_text());
    *classes.iter().next().unwrap()
}

/// A tool whose input has the one optional property `x` of schema `x`.
fn input(x: Value) -> Surface {
    tool(object(json!({"x": x}), json!([])))
}

/// A tool whose output has the one required property `x` of schema `x`.
fn output(x: Value) -> Surface {
    tool_out(object(json!({"x": x}), json!(["x"])))
}

fn input_pair(old: Value, new: Value) -> Class {
    only(&input(old), &input(new))
}

fn output_pair(old: Value, new: Value) -> Class {
    only(&output(old), &output(new))
}

/// The drift from `old` to `new`, failing with the whole drift unless it is breaking and its
/// first change's reason says `reason`.
fn breaking_saying(old: &Surface, new: &Surface, reason: &str) -> Drift {
    let drift = diff(old, new);
    assert_eq!(drift.worst(), Some(Class::Breaking), "{}", drift.to_text());
    assert!(
        drift.changes[0].reason.contains(reason),
        "{}",
        drift.to_text()
    );
    drift
}

/// Checks each row `[old, new, class]` of `table`: `classify(old, new)` gives the row's
/// class, as the JSON drift names it ("breaking", "additive" or "cosmetic").
fn check_rows(table: Value, classify: impl Fn(Value, Value) -> Class) {
    for row in table.as_array().unwrap() {
        let (old, new) = (row[0].clone(), row[1].clone());
        let class = classify(old.clone(), new.clone());
        assert_eq!(json!(class), row[2], "{old} -> {new}");
    }
}

/// `schema` with the members of `edit` set.
fn edited(schema: &Value, edit: &Value) -> Value {
    let mut schema = schema.clone();
    for (key, value) in edit.as_object().unwrap() {
        schema[key] = value.clone();
    }
    schema
}

#[test]
fn a_removed_item_breaks_and_a_new_one_adds() {
    let one = tool(json!({"type": "object"}));
    adds_at(&Surface::new(), &one, "");
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
    let drift = breaking_saying(&old, &new, "renamed to \"b\"?");
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
    adds_at(&old, &optional, "/inputSchema/properties/y");
    assert_eq!(only(&optional, &required), Class::Breaking);
    assert_eq!(only(&required, &optional), Class::Additive);
}

#[test]
fn input_types_narrowed_break_and_widened_add() {
    let rows = json!([
        [{"type": "number"}, {"type": "integer"}, "breaking"],
        [{"type": "integer"}, {"type": "number"}, "additive"],
        [{"type": ["string", "null"]}, {"type": "string"}, "breaking"],
        [{"type": "string"}, {"type": ["string", "null"]}, "additive"],
        [{"type": "string"}, {"type": "integer"}, "breaking"],
        [{}, {"type": "string"}, "breaking"],
    ]);
    check_rows(rows, input_pair);
}

#[test]
fn input_constraints_tightened_break_and_loosened_add() {
    // Each row: a schema, and the members that tighten it.
    let rows = json!([
        [{"type": "integer", "maximum": 10}, {"maximum": 5}],
        [{"type": "integer"}, {"minimum": 0}],
        [{"type": "number", "exclusiveMinimum": 0}, {"exclusiveMinimum": 1}],
        [{"type": "string"}, {"maxLength": 5}],
        [{"type": "string", "minLength": 1}, {"minLength": 2}],
        [{"type": "array"}, {"maxItems": 3}],
        [{"type": "array", "minItems": 1}, {"minItems": 2}],
        [{"type": "array"}, {"uniqueItems": true}],
        [{"type": "integer"}, {"multipleOf": 2}],
        [{"type": "string"}, {"pattern": "^a"}],
        [{"type": "string"}, {"format": "date"}],
        [{"enum": ["a", "b"]}, {"enum": ["a"]}],
        [{"type": "array", "items": {"type": "number"}}, {"items": {"type": "integer"}}],
        [{"type": "object"}, {"additionalProperties": false}],
    ]);
    for row in rows.as_array().unwrap() {
        let (old, new) = (&row[0], edited(&row[0], &row[1]));
        check_rows(
            json!([[old, new, "breaking"], [new, old, "additive"]]),
            input_pair,
        );
    }
}

#[test]
fn a_changed_pattern_cannot_be_compared_and_is_breaking_saying_so() {
    breaking_saying(
        &input(json!({"type": "string", "pattern": "^a"})),
        &input(json!({"type": "string", "pattern": "^b"})),
        "could not be proven compatible",
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
    breaking_saying(
        &tool_out(object(json!({"x": {"enum": ["a"]}}), json!([]))),
        &tool_out(object(json!({"x": {"enum": ["a", "b"]}}), json!([]))),
        "judgement",
    );
}

#[test]
fn an_output_schema_removed_breaks_and_added_adds() {
    let without = tool(json!({"type": "object"}));
    let with = tool_out(json!({"type": "object"}));
    adds_at(&without, &with, "/outputSchema");
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
    let rows = json!([
        [{"readOnlyHint": true}, {"readOnlyHint": false}, "breaking"],
        [{"readOnlyHint": true}, {}, "breaking"],
        [{}, {"readOnlyHint": true}, "additive"],
        [{"destructiveHint": false}, {"destructiveHint": true}, "breaking"],
        [{"destructiveHint": false}, {}, "breaking"],
        [{}, {"destructiveHint": false}, "additive"],
        [{}, {"destructiveHint": true}, "cosmetic"],
        [{"idempotentHint": true}, {}, "breaking"],
        [{"openWorldHint": false}, {}, "breaking"],
        [{}, {"openWorldHint": false}, "additive"],
        [{"title": "A"}, {"title": "B"}, "cosmetic"],
    ]);
    check_rows(rows, |old, new| only(&annotated(old), &annotated(new)));
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
    let rows = json!([
        [{"tools": {}, "prompts": {}}, {"tools": {}}, "breaking"],
        [{"tools": {}}, {"tools": {}, "logging": {}}, "additive"],
        [{"tools": {"listChanged": true}}, {"tools": {"listChanged": false}}, "breaking"],
        [{"tools": {}}, {"tools": {"listChanged": true}}, "additive"],
        [{"tools": {}}, {"tools": {"listChanged": false}}, "cosmetic"],
    ]);
    check_rows(rows, |old, new| only(&caps(old), &caps(new)));
}

#[test]
fn rewrites_that_accept_the_same_values_are_cosmetic() {
    let rows = json!([
        // Reworded description.
        [{"type": "string", "description": "a"}, {"type": "string", "description": "b"}],
        // type array of one.
        [{"type": "string"}, {"type": ["string"]}],
        // allOf of one schema.
        [{"type": "string", "maxLength": 3}, {"allOf": [{"type": "string", "maxLength": 3}]}],
        // Equivalent integer bounds.
        [{"type": "integer", "maximum": 9}, {"type": "integer", "exclusiveMaximum": 10}],
        // Option<T> two ways.
        [{"type": ["string", "null"]}, {"anyOf": [{"type": "string"}, {"type": "null"}]}],
        // Reordered enum.
        [{"enum": ["a", "b"]}, {"enum": ["b", "a"]}],
        // An output-side default.
        [{"type": "string", "examples": ["x"]}, {"type": "string", "examples": ["y"]}],
    ]);
    for row in rows.as_array().unwrap() {
        let row = json!([[row[0], row[1], "cosmetic"]]);
        check_rows(row.clone(), input_pair);
        check_rows(row, output_pair);
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
    let drift = breaking_saying(
        &input(json!({"not": {"type": "string"}})),
        &input(json!({"not": {"type": "integer"}})),
        "could not be proven compatible",
    );
    assert_eq!(
        drift.changes[0].location.pointer,
        "/inputSchema/properties/x/not"
    );
}

#[test]
fn a_changed_input_default_is_a_judgement() {
    breaking_saying(
        &input(json!({"type": "integer", "default": 1})),
        &input(json!({"type": "integer", "default": 2})),
        "judgement",
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

// ---------------------------------------------------------------------------------------------
// Tagged unions: the derive's action tools, and schemars' and rmcp's tagged enums.

/// The input schema `#[derive(Tool)]` publishes for a ledger with the actions `post` (an
/// `amount` of at most `max`, optional `memo` described as `memo`, and `extra` fields) and
/// `void` (a required `id`), built by the derive's own runtime.
fn ledger(max: u64, memo: &str, extra: Value, actions: &[&str]) -> Surface {
    use crate::derive_support::{Action, action_input_schema};
    let mut post = json!({"type": "object", "properties": {
        "amount": {"type": "integer", "minimum": 0, "maximum": max},
        "memo": {"type": ["string", "null"], "description": memo}
    }, "required": ["amount"], "additionalProperties": false});
    for (name, schema) in extra.as_object().unwrap() {
        post["properties"][name] = schema["schema"].clone();
        if schema["required"] == true {
            post["required"].as_array_mut().unwrap().push(json!(name));
        }
    }
    let void = json!({"type": "object", "properties": {"id": {"type": "string"}},
                      "required": ["id"], "additionalProperties": false});
    let all = [
        ("post", "Posts an entry.", post),
        ("void", "Voids an entry.", void),
        (
            "list",
            "Lists entries.",
            json!({"type": "object", "properties": {}}),
        ),
    ];
    let actions = all
        .into_iter()
        .filter(|(name, ..)| actions.contains(name))
        .map(|(name, description, data)| Action {
            name,
            description: Some(description),
            data,
        })
        .collect();
    let schema = action_input_schema(actions, true);
    Surface::from_json(&json!({"tools": [{"name": "ledger", "inputSchema": schema}]})).unwrap()
}

/// Each change's class, variants (as text) and pointer.
fn placed(old: &Surface, new: &Surface) -> Vec<(Class, String, String)> {
    diff(old, new)
        .changes
        .into_iter()
        .map(|c| {
            let variants: Vec<String> = c.location.variants.iter().map(|v| v.to_string()).collect();
            (c.class, variants.join(" "), c.location.pointer)
        })
        .collect()
}

const POST: &str = "/inputSchema/allOf/0/then/properties/data/properties";
const BOTH: &[&str] = &["post", "void"];

#[test]
fn a_description_reworded_inside_an_action_is_cosmetic_and_names_it() {
    let old = ledger(100, "A note.", json!({}), BOTH);
    let new = ledger(100, "A note for the books.", json!({}), BOTH);
    assert_eq!(
        placed(&old, &new),
        [(
            Class::Cosmetic,
            "action=post".to_owned(),
            format!("{POST}/memo/description")
        )]
    );
    let text = diff(&old, &new).to_text();
    assert!(
        text.contains(&format!(
            "cosmetic: tool \"ledger\" action=post {POST}/memo/description"
        )),
        "{text}"
    );
}

#[test]
fn fields_and_bounds_inside_an_action_are_classed_as_outside_one() {
    let base = ledger(100, "A note.", json!({}), BOTH);
    let optional = ledger(
        100,
        "A note.",
        json!({"tag": {"schema": {"type": "string"}}}),
        BOTH,
    );
    assert_eq!(
        placed(&base, &optional),
        [(
            Class::Additive,
            "action=post".to_owned(),
            format!("{POST}/tag")
        )]
    );
    let required = ledger(
        100,
        "A note.",
        json!({"tag": {"schema": {"type": "string"}, "required": true}}),
        BOTH,
    );
    assert_eq!(
        placed(&base, &required),
        [(
            Class::Breaking,
            "action=post".to_owned(),
            format!("{POST}/tag")
        )]
    );
    let tighter = ledger(50, "A note.", json!({}), BOTH);
    let drift = diff(&base, &tighter);
    assert_eq!(
        placed(&base, &tighter),
        [(
            Class::Breaking,
            "action=post".to_owned(),
            format!("{POST}/amount/maximum")
        )],
        "{}",
        drift.to_text()
    );
    assert!(
        drift.changes[0].reason.contains("from 100 to 50"),
        "{}",
        drift.to_text()
    );
    assert_eq!(
        placed(&tighter, &base),
        [(
            Class::Additive,
            "action=post".to_owned(),
            format!("{POST}/amount/maximum")
        )]
    );
}

#[test]
fn an_action_added_is_additive_and_one_removed_breaking() {
    let two = ledger(100, "A note.", json!({}), BOTH);
    let three = ledger(100, "A note.", json!({}), &["post", "void", "list"]);
    let drift = diff(&two, &three);
    let classes: Vec<(Class, String, String)> = placed(&two, &three)
        .into_iter()
        .filter(|(class, ..)| *class != Class::Cosmetic)
        .collect();
    assert_eq!(
        classes,
        [(
            Class::Additive,
            "action=list".to_owned(),
            "/inputSchema/allOf/2".to_owned()
        )],
        "{}",
        drift.to_text()
    );
    // The listing of actions in `action`'s description changes too: cosmetic.
    assert_eq!(drift.worst(), Some(Class::Additive), "{}", drift.to_text());
    let back = diff(&three, &two);
    assert_eq!(back.worst(), Some(Class::Breaking), "{}", back.to_text());
    let breaking: Vec<&Change> = back.of(Class::Breaking).collect();
    assert_eq!(breaking.len(), 1, "{}", back.to_text());
    assert_eq!(
        breaking[0].location.variants,
        [Variant::new("action", "list")]
    );
    assert_eq!(breaking[0].location.pointer, "/inputSchema/allOf/2");
    assert!(
        breaking[0]
            .reason
            .starts_with("variant action=\"list\" removed"),
        "{}",
        back.to_text()
    );
}

#[test]
fn actions_reordered_are_no_change_to_any_action() {
    let one = ledger(100, "A note.", json!({}), BOTH);
    let mut schema = one.tools[0]["inputSchema"].clone();
    let branches = schema["allOf"].as_array_mut().unwrap();
    branches.reverse();
    schema["properties"]["action"]["enum"] = json!(["void", "post"]);
    let other =
        Surface::from_json(&json!({"tools": [{"name": "ledger", "inputSchema": schema}]})).unwrap();
    assert_eq!(
        only(&one, &other),
        Class::Cosmetic,
        "{}",
        diff(&one, &other).to_text()
    );
}

/// A schemars-style internally tagged enum (`#[serde(tag = "op")]`): a `oneOf` of objects
/// each requiring `op` to be one constant, `transfer` through a `$ref`.
fn tagged_enum(transfer: Value, refund: Option<Value>) -> Value {
    let mut alternatives = vec![
        json!({"$ref": "#/$defs/Transfer"}),
        json!({"type": "object", "description": "Closes the account.",
               "properties": {"op": {"type": "string", "enum": ["close"]}},
               "required": ["op"]}),
    ];
    if let Some(refund) = refund {
        alternatives.push(refund);
    }
    json!({"oneOf": alternatives, "$defs": {"Transfer": transfer}})
}

fn transfer(extra: Value, required: &[&str]) -> Value {
    let mut t = json!({"type": "object", "properties": {
        "op": {"type": "string", "const": "transfer"},
        "cents": {"type": "integer", "maximum": 5000, "description": "Cents."}
    }, "required": ["op", "cents"]});
    for (name, schema) in extra.as_object().unwrap() {
        t["properties"][name] = schema.clone();
    }
    for name in required {
        t["required"].as_array_mut().unwrap().push(json!(name));
    }
    t
}

fn refund() -> Value {
    json!({"type": "object", "properties": {"op": {"const": "refund"}, "id": {"type": "string"}},
           "required": ["op", "id"]})
}

#[test]
fn a_tagged_one_of_is_compared_variant_by_variant() {
    let base = tool(tagged_enum(transfer(json!({}), &[]), None));
    // A `$ref`'d variant is placed where it is referenced, as any `$ref` is.
    let at = "/inputSchema/oneOf/0/properties";
    let cases = [
        (
            tool(tagged_enum(
                transfer(
                    json!({"cents": {"type": "integer", "maximum": 5000, "description": "In cents."}}),
                    &[],
                ),
                None,
            )),
            Class::Cosmetic,
            format!("{at}/cents/description"),
        ),
        (
            tool(tagged_enum(
                transfer(json!({"note": {"type": "string"}}), &[]),
                None,
            )),
            Class::Additive,
            format!("{at}/note"),
        ),
        (
            tool(tagged_enum(
                transfer(json!({"note": {"type": "string"}}), &["note"]),
                None,
            )),
            Class::Breaking,
            format!("{at}/note"),
        ),
        (
            tool(tagged_enum(
                transfer(json!({"cents": {"type": "integer", "maximum": 100}}), &[]),
                None,
            )),
            Class::Breaking,
            format!("{at}/cents/maximum"),
        ),
    ];
    for (new, class, pointer) in cases {
        let got: Vec<(Class, String, String)> = placed(&base, &new)
            .into_iter()
            .filter(|(c, ..)| *c == class)
            .collect();
        assert_eq!(
            got,
            [(class, "op=transfer".to_owned(), pointer)],
            "{}",
            diff(&base, &new).to_text()
        );
        assert_eq!(
            diff(&base, &new).worst(),
            Some(class),
            "{}",
            diff(&base, &new).to_text()
        );
    }
    let more = tool(tagged_enum(transfer(json!({}), &[]), Some(refund())));
    assert_eq!(
        placed(&base, &more),
        [(
            Class::Additive,
            "op=refund".to_owned(),
            "/inputSchema/oneOf/2".to_owned()
        )]
    );
    assert_eq!(
        placed(&more, &base),
        [(
            Class::Breaking,
            "op=refund".to_owned(),
            "/inputSchema/oneOf/2".to_owned()
        )]
    );
}

#[test]
fn a_tagged_output_breaks_on_a_new_variant() {
    let base = tool_out(tagged_enum(transfer(json!({}), &[]), None));
    let more = tool_out(tagged_enum(transfer(json!({}), &[]), Some(refund())));
    assert_eq!(
        placed(&base, &more),
        [(
            Class::Breaking,
            "op=refund".to_owned(),
            "/outputSchema/oneOf/2".to_owned()
        )]
    );
    assert_eq!(only(&more, &base), Class::Additive);
}

#[test]
fn an_adjacently_tagged_union_inside_a_property_is_found_there() {
    // `#[serde(tag = "kind", content = "data")]` on a property's type, rmcp style.
    let payment = |card_digits: u64| {
        json!({"type": "object", "properties": {"payment": {"oneOf": [
            {"type": "object", "properties": {
                "kind": {"type": "string", "const": "card"},
                "data": {"type": "object", "properties": {"digits": {"type": "string", "maxLength": card_digits}}}
            }, "required": ["kind", "data"]},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "cash"}}, "required": ["kind"]}
        ]}}})
    };
    assert_eq!(
        placed(&tool(payment(16)), &tool(payment(12))),
        [(
            Class::Breaking,
            "kind=card".to_owned(),
            "/inputSchema/properties/payment/oneOf/0/properties/data/properties/digits/maxLength"
                .to_owned()
        )]
    );
}

#[test]
fn conditionals_that_are_not_a_tagged_union_still_see_every_change() {
    // Two `if`s on different properties: not one union, so read as unknown keywords, and a
    // change to the second is not hidden behind the first.
    let conditional = |max: u64| {
        tool(json!({"type": "object", "allOf": [
            {"if": {"properties": {"a": {"const": "x"}}, "required": ["a"]}, "then": {"required": ["b"]}},
            {"if": {"properties": {"c": {"const": "y"}}, "required": ["c"]},
             "then": {"properties": {"d": {"maxLength": max}}}}
        ]}))
    };
    assert_eq!(only(&conditional(5), &conditional(4)), Class::Breaking);
}
