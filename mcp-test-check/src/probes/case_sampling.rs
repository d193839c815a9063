//! Which schema cases `check` sends: one of each kind across tools, unless `--all-cases`.
//!
//! A server with many tools gets many cases that probe the same rule the same way: "rejects
//! `/limit` of the wrong type" on forty tools whose `limit` is the same `{"type": "integer",
//! "minimum": 1}`. They cost a call each (and a liveness request), and on most servers one
//! validator answers them all. So by default a case is not sent when a case of its kind went
//! to another tool; within one tool every case is sent, since two of its properties may be
//! checked by two lines of its own code. A case's kind is what it varies from its tool's base
//! case, with the names left out: the rule that made it, what it expects, the bound it sits
//! on, and, for each property it adds, drops or changes, that property's schema (annotations
//! left out) and the value sent.
//!
//! Every tool's base case is always sent: it is what tells a working tool from a broken one,
//! and the interior counterpart the off-by-one verdict of `classify` compares a boundary case
//! with. A tool without a base case keeps all its cases. What is left out is counted in the
//! report (`tools/input-schemas`), with the flag that sends everything.

use mcp_test::cases::Case;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// The cases to send, and how many were left out as the same kind as one kept.
pub(crate) fn sample(cases: Vec<Case>, tools: &[Value]) -> (Vec<Case>, usize) {
    let schemas: BTreeMap<&str, &Value> = tools
        .iter()
        .filter_map(|t| Some((t.get("name")?.as_str()?, t.get("inputSchema")?)))
        .collect();
    let bases: BTreeMap<String, Value> = cases
        .iter()
        .filter(|c| is_base(c))
        .map(|c| (c.tool.clone(), c.args.as_ref().clone()))
        .collect();
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut left_out = 0;
    let mut kept = Vec::with_capacity(cases.len());
    for case in cases {
        let kind = match (bases.get(&case.tool), schemas.get(case.tool.as_str())) {
            (Some(base), Some(schema)) if !is_base(&case) => kind(&case, base, schema),
            _ => None,
        };
        // Left out only when a case of its kind went to another tool: within one tool, two
        // properties of the same schema may well be validated by two lines of its own code.
        let first = kind.map(|kind| seen.entry(kind).or_insert_with(|| case.tool.clone()));
        if first.is_some_and(|first| *first != case.tool) {
            left_out += 1;
        } else {
            kept.push(case);
        }
    }
    (kept, left_out)
}

fn is_base(case: &Case) -> bool {
    case.source == "rule:base"
}

/// What `case` varies from `base`, its tool's base arguments, with the names left out; `None`
/// for a case that is not an object of arguments beside an object of base arguments (kept).
fn kind(case: &Case, base: &Value, schema: &Value) -> Option<String> {
    let (Value::Object(args), Value::Object(base)) = (case.args.as_ref(), base) else {
        return None;
    };
    let properties = schema.get("properties").and_then(Value::as_object);
    let of = |key: &str| -> Value {
        properties
            .and_then(|p| p.get(key))
            .or_else(|| schema.get("additionalProperties"))
            .map_or(Value::Null, plain)
    };
    let mut changes: Vec<String> = Vec::new();
    for (key, value) in args {
        match base.get(key) {
            None => changes.push(format!("+{}={value}", of(key))),
            Some(was) if was != value => changes.push(format!("~{}={value}", of(key))),
            Some(_) => {}
        }
    }
    for key in base.keys().filter(|k| !args.contains_key(*k)) {
        let required = schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|n| n == key.as_str()));
        changes.push(format!("-{required}:{}", of(key)));
    }
    changes.sort();
    let bound = case.boundary.as_ref().map_or("", |b| b.keyword.as_str());
    Some(format!(
        "{}|{:?}|{bound}|{}",
        case.source,
        case.expectation,
        changes.join("|")
    ))
}

/// `schema` without the keywords that only describe it: two properties that differ only in
/// their description are probed the same way.
fn plain(schema: &Value) -> Value {
    const ANNOTATIONS: [&str; 6] = [
        "description",
        "title",
        "examples",
        "$comment",
        "deprecated",
        "x-order",
    ];
    match schema {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !ANNOTATIONS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), plain(v)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(plain).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_test::cases::{CaseOptions, derive_cases};
    use serde_json::json;

    fn tool(name: &str, description: &str) -> Value {
        json!({"name": name, "inputSchema": {"type": "object", "properties": {
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": description},
            "query": {"type": "string", "maxLength": 20}
        }, "required": ["query"], "additionalProperties": false}})
    }

    fn derived(tools: &[Value]) -> Vec<Case> {
        tools
            .iter()
            .flat_map(|t| {
                derive_cases(
                    t["name"].as_str().unwrap(),
                    &t["inputSchema"],
                    &CaseOptions::default(),
                )
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn tools_of_one_shape_send_one_of_each_kind_and_every_base_case() {
        let tools: Vec<Value> = (0..10)
            .map(|i| tool(&format!("search_{i}"), &format!("page size of index {i}")))
            .collect();
        let all = derived(&tools);
        let per_tool = all.len() / tools.len();
        assert!(per_tool > 3, "{all:?}");
        let (kept, left_out) = sample(all.clone(), &tools);
        assert_eq!(kept.len() + left_out, all.len());
        // The first tool keeps every case; each other tool only its base case.
        assert_eq!(kept.len(), per_tool + tools.len() - 1, "{kept:#?}");
        for t in &tools {
            let name = t["name"].as_str().unwrap();
            assert!(
                kept.iter().any(|c| c.tool == name && is_base(c)),
                "{name} lost its base case"
            );
        }
    }

    #[test]
    fn a_property_of_another_shape_is_another_kind() {
        let mut other = tool("other", "");
        other["inputSchema"]["properties"]["limit"]["maximum"] = json!(10);
        let tools = vec![tool("search", ""), other];
        let all = derived(&tools);
        let (kept, _) = sample(all, &tools);
        // The bounds of `limit` differ, so its bound and type cases are kept for both.
        let at_max = |name: &str| {
            kept.iter().any(|c| {
                c.tool == name && c.boundary.as_ref().is_some_and(|b| b.keyword == "maximum")
            })
        };
        assert!(at_max("search") && at_max("other"), "{kept:#?}");
        // `query` is the same on both: its cases are sent once.
        let query_cases = |name: &str| {
            kept.iter()
                .filter(|c| c.tool == name && c.title.contains("/query"))
                .count()
        };
        assert!(query_cases("search") > 0, "{kept:#?}");
        assert_eq!(query_cases("other"), 0, "{kept:#?}");
    }

    #[test]
    fn a_tool_without_a_base_case_keeps_every_case() {
        let tools = vec![tool("a", ""), tool("b", "")];
        let all: Vec<Case> = derived(&tools)
            .into_iter()
            .filter(|c| !(c.tool == "b" && is_base(c)))
            .collect();
        let of_b = all.iter().filter(|c| c.tool == "b").count();
        let (kept, _) = sample(all, &tools);
        assert_eq!(kept.iter().filter(|c| c.tool == "b").count(), of_b);
    }

    #[test]
    fn two_properties_of_one_shape_in_one_tool_keep_their_cases() {
        let tools = vec![
            json!({"name": "add", "inputSchema": {"type": "object", "properties": {
            "a": {"type": "integer", "minimum": 0, "maximum": 1000},
            "b": {"type": "integer", "minimum": 0, "maximum": 1000}
        }, "required": ["a", "b"]}}),
        ];
        let all = derived(&tools);
        let (kept, left_out) = sample(all.clone(), &tools);
        assert_eq!((kept.len(), left_out), (all.len(), 0));
    }
}
