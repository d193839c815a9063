//! The tests of the rules: cases derived from small schemas, checked one by one.

use serde_json::json;

use super::build::set_creating;
use super::sure::surely_accepts;
use super::text::{Debugged, Joined, Piece};
use super::*;
use crate::cases::args::Edit;

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
    let accepts = |schema: Value, value: Value| surely_accepts(schema.as_object().unwrap(), &value);
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

/// A place under a local `$ref` is declared when the reference resolves as the cases inline
/// it: its fragment percent-decoded (`%25` is `%`).
#[test]
fn a_place_behind_a_percent_encoded_ref_is_declared() {
    let schema = json!({"type": "object",
        "$defs": {"50%": {"type": "object", "properties": {"n": {"type": "integer"}}}},
        "properties": {"share": {"$ref": "#/$defs/50%25"}}});
    assert!(declares(&schema, &schema, "/share/n"));
    assert!(!declares(&schema, &schema, "/share/m"));
}

/// A schema that declares actions (an `action` enum and `if`/`then` branches) on a root typed
/// `number`: its valid arguments are numbers, with nowhere to put an action, so the unknown
/// action goes into an object of its own. Found by the fuzz target `case_generator`.
#[test]
fn an_action_enum_on_a_root_that_is_no_object_derives_without_panicking() {
    let schema = json!({"type": "number",
        "properties": {"action": {"enum": ["get", "list"]}, "data": {"type": "object"}},
        "allOf": [{"if": {"properties": {"action": {"const": "get"}}},
                   "then": {"properties": {"data": {"type": "object"}}, "required": ["data"]}}]});
    let validator = SchemaValidator::new(&schema).unwrap();
    let cases = derive_with(&schema, &CaseOptions::default()).unwrap();
    let unknown = cases
        .iter()
        .find(|c| c.title == "rejects an unknown action")
        .expect("an unknown-action case");
    assert_eq!(
        unknown.args.clone().into_value(),
        json!({"action": "no_such_action"})
    );
    assert!(!validator.is_valid(&unknown.args), "{}", unknown.args);
    for case in cases
        .iter()
        .filter(|c| c.expectation == Expectation::Success)
    {
        assert!(
            validator.is_valid(&case.args),
            "{}: {}",
            case.title,
            case.args
        );
    }
}

/// schemars (rmcp) puts enums and nested structs behind `$ref: #/$defs/..`: the base case
/// takes a member of the enum, and the field behind the `$ref` gets cases of its own.
#[test]
fn a_field_behind_a_ref_into_defs_gets_valid_values_and_cases() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"Unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        "type": "object",
        "required": ["value", "to"],
        "properties": {
            "to": {"$ref": "#/$defs/Unit", "description": "The unit to convert to"},
            "value": {"type": "number", "minimum": -273.15, "maximum": 10000.0}
        }
    });
    let cases = derive_with(&schema, &CaseOptions::default()).unwrap();
    assert_eq!(
        cases[0].args.clone().into_value()["to"],
        "celsius",
        "{cases:#?}"
    );
    let about_to: Vec<_> = cases
        .iter()
        .filter(|c| c.title.contains("`/to`"))
        .map(|c| (c.source.as_str(), c.expectation))
        .collect();
    assert!(
        about_to.contains(&("rule:enum", Expectation::Error)),
        "{about_to:?}"
    );
}
