//! `#[derive(Tool)]` publishes exactly the bounds it enforces, at any width the field's type
//! allows. One table of rows, each a tool with one field `v` of a type and one numeric
//! constraint attribute; for each row the published schema (from `tools/list`) must carry
//! the declared value exactly, and values just inside and just outside the bound, called
//! through the server's real dispatch, must get the verdict the bound means, which must also
//! be what the `jsonschema` crate says of the published schema.
//!
//! Every numeric attribute in the derive's own list of field keys must have rows: a new
//! numeric attribute without any fails `every_numeric_attribute_of_the_derive_has_cases`.

use mcp_test::wire::Request;
use mcp_test::{Context, Server, Tool};
use serde_json::{Map, Value, json};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// The rows: `name: type, attribute = [bound];`. Each becomes a tool `name` whose one field
/// `v: type` has `#[tool(attribute = bound)]`, and a [`Row`] saying what was declared.
macro_rules! table {
    ($($name:ident : $ty:ty, $attribute:ident = [$($bound:tt)+];)*) => {
        $(
            #[allow(non_camel_case_types)]
            #[derive(Tool)]
            struct $name {
                #[tool($attribute = $($bound)+)]
                v: $ty,
            }

            impl $name {
                async fn run(self, _ctx: &Context) -> String {
                    let _ = self.v;
                    "accepted".to_owned()
                }
            }
        )*

        fn rows() -> Vec<Row> {
            vec![$(Row {
                tool: stringify!($name),
                ty: stringify!($ty),
                attribute: stringify!($attribute),
                bound: stringify!($($bound)+),
            }),*]
        }

        fn server() -> Server {
            Server::builder("bounds", "1.0.0")
                $(.tool::<$name>())*
                .build()
                .expect("the table's tools register")
        }
    };
}

table! {
    // minimum
    min_i8: i8, minimum = [-128];
    min_i16: i16, minimum = [300];
    min_i32: i32, minimum = [-2_147_483_648];
    min_i64: i64, minimum = [-5_000_000_000];
    min_i64_limit: i64, minimum = [-9_223_372_036_854_775_808];
    min_u8: u8, minimum = [0];
    min_u16: u16, minimum = [65_535];
    min_u32: u32, minimum = [4_294_967_295u32];
    min_u64: u64, minimum = [5_000_000_000];
    min_u64_limit: u64, minimum = [18_446_744_073_709_551_614];
    min_f32: f32, minimum = [-0.1];
    min_f64: f64, minimum = [-1.5e300];
    min_f64_past_2_53: f64, minimum = [-9_007_199_254_740_993];
    min_option_i64: Option<i64>, minimum = [4_294_967_296];
    // maximum
    max_i8: i8, maximum = [127i8];
    max_i16: i16, maximum = [-300];
    max_i32: i32, maximum = [2_147_483_647];
    max_i64: i64, maximum = [5_000_000_000i64];
    max_i64_limit: i64, maximum = [9_223_372_036_854_775_807];
    max_u8: u8, maximum = [200];
    max_u16: u16, maximum = [0];
    max_u32: u32, maximum = [4_294_967_295];
    max_u64: u64, maximum = [4_294_967_296];
    max_u64_limit: u64, maximum = [18_446_744_073_709_551_615];
    max_f32: f32, maximum = [3.4e38];
    max_f64: f64, maximum = [0.1];
    max_f64_past_2_32: f64, maximum = [5e9];
    max_option_f64: Option<f64>, maximum = [2.5];
    max_option_u32: Option<u32>, maximum = [3_000_000_000];
    // exclusive_minimum
    xmin_i8: i8, exclusive_minimum = [-128];
    xmin_i32: i32, exclusive_minimum = [2_147_483_646];
    xmin_i64: i64, exclusive_minimum = [-3e9];
    xmin_u16: u16, exclusive_minimum = [7];
    xmin_u32: u32, exclusive_minimum = [0];
    xmin_u64: u64, exclusive_minimum = [9_223_372_036_854_775_807];
    xmin_f32: f32, exclusive_minimum = [0.0];
    xmin_f64: f64, exclusive_minimum = [-2.5e-8];
    xmin_option_i16: Option<i16>, exclusive_minimum = [-1];
    // exclusive_maximum
    xmax_i8: i8, exclusive_maximum = [0];
    xmax_i16: i16, exclusive_maximum = [32_767];
    xmax_i32: i32, exclusive_maximum = [-2_147_483_647];
    xmax_i64: i64, exclusive_maximum = [9_223_372_036_854_775_807];
    xmax_u8: u8, exclusive_maximum = [1];
    xmax_u32: u32, exclusive_maximum = [3e9];
    xmax_u64: u64, exclusive_maximum = [3_000_000_000];
    xmax_u64_limit: u64, exclusive_maximum = [18_446_744_073_709_551_615u64];
    xmax_f32: f32, exclusive_maximum = [1];
    xmax_f64: f64, exclusive_maximum = [1e300];
    xmax_option_u64: Option<u64>, exclusive_maximum = [5_000_000_000];
    // min_length
    min_length_string: String, min_length = [3];
    min_length_option: Option<String>, min_length = [1];
    min_length_zero: String, min_length = [0];
    // max_length
    max_length_string: String, max_length = [5];
    max_length_option: Option<String>, max_length = [0];
    max_length_past_2_32: String, max_length = [5_000_000_000];
    max_length_limit: String, max_length = [18_446_744_073_709_551_615];
    // min_items
    min_items_vec: Vec<u8>, min_items = [2];
    min_items_option: Option<Vec<String>>, min_items = [1];
    // max_items
    max_items_vec: Vec<u8>, max_items = [3];
    max_items_option: Option<Vec<i64>>, max_items = [0];
    max_items_past_2_32: Vec<u8>, max_items = [4_294_967_296];
}

/// The field keys of the derive that are not numeric constraints: no row is owed for them.
const NOT_NUMERIC: &[&str] = &[
    "description",
    "pattern",
    "unique_items",
    "format",
    "default",
    "example",
    "header",
];

/// The derive's own list of field keys (`FIELD_KEY_NAMES` in its attribute parser), read
/// from its source: the one list its parser and messages use.
fn derive_field_keys() -> Vec<String> {
    const SOURCE: &str = include_str!("../../mcp-test-macros/src/tool/attr.rs");
    let start = SOURCE
        .find("pub const FIELD_KEY_NAMES: &[&str] = &[")
        .expect("the derive lists its field keys in FIELD_KEY_NAMES");
    let list = &SOURCE[start..];
    let list = &list[list.find("= &[").unwrap() + 4..list.find("];").unwrap()];
    list.split(',')
        .map(|key| key.trim().trim_matches('"').to_owned())
        .filter(|key| !key.is_empty())
        .collect()
}

/// One row of the table, as declared.
struct Row {
    tool: &'static str,
    ty: &'static str,
    attribute: &'static str,
    /// The bound's tokens as written, e.g. `- 5_000_000_000` or `3e9`.
    bound: &'static str,
}

/// A number, exactly: an integer or a float.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    /// As a JSON value, when JSON holds it exactly (an `i64`, a `u64`, or an `f64` that is
    /// this very number); `None` otherwise.
    fn json(self) -> Option<Value> {
        match self {
            Num::Int(v) => {
                if let Ok(v) = i64::try_from(v) {
                    Some(json!(v))
                } else if let Ok(v) = u64::try_from(v) {
                    Some(json!(v))
                } else {
                    // Only beyond 64 bits, where serde_json reads integers as floats.
                    let f = v as f64;
                    (f.is_finite() && f as i128 == v).then(|| json!(f))
                }
            }
            Num::Float(f) => f.is_finite().then(|| json!(f)),
        }
    }

    /// The number a JSON value is.
    fn of(value: &Value) -> Num {
        if let Some(v) = value.as_i64() {
            Num::Int(i128::from(v))
        } else if let Some(v) = value.as_u64() {
            Num::Int(i128::from(v))
        } else {
            Num::Float(value.as_f64().expect("a number"))
        }
    }
}

/// Exact order of an integer and a float.
fn cmp_int_float(i: i128, f: f64) -> Ordering {
    if f >= 1.0e38 {
        return Ordering::Less;
    }
    if f <= -1.0e38 {
        return Ordering::Greater;
    }
    let whole = f.trunc();
    match i.cmp(&(whole as i128)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - whole)).expect("finite"),
        other => other,
    }
}

fn cmp(a: Num, b: Num) -> Ordering {
    match (a, b) {
        (Num::Int(a), Num::Int(b)) => a.cmp(&b),
        (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
        (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).reverse(),
        (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b).expect("finite"),
    }
}

/// The bound as declared, read from its tokens: an exact integer when it is one.
fn declared(bound: &str) -> Num {
    let mut text: String = bound
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    for suffix in [
        "i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "f32", "f64",
    ] {
        if let Some(stripped) = text.strip_suffix(suffix) {
            text = stripped.to_owned();
            break;
        }
    }
    if let Ok(v) = text.parse::<i128>() {
        return Num::Int(v);
    }
    let f: f64 = text.parse().unwrap_or_else(|_| panic!("a number: {bound}"));
    if f.fract() == 0.0 && f.abs() < 1e38 {
        Num::Int(f as i128)
    } else {
        Num::Float(f)
    }
}

/// What a row's field holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// An integer type, with its range.
    Integer(i128, i128),
    Float,
    Text,
    /// An array of strings (`true`) or of numbers.
    Array(bool),
}

fn shape(ty: &str) -> Shape {
    let inner = ty
        .trim_start_matches("Option <")
        .trim_start_matches("Option<")
        .trim_end_matches('>')
        .trim();
    if inner.starts_with("Vec") {
        return Shape::Array(inner.contains("String"));
    }
    let range = match inner {
        "String" => return Shape::Text,
        "f32" | "f64" => return Shape::Float,
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" => (i64::MIN.into(), i64::MAX.into()),
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" => (0, u64::MAX.into()),
        other => panic!("no shape for {other}"),
    };
    Shape::Integer(range.0, range.1)
}

/// The JSON Schema keyword of a derive attribute.
fn keyword(attribute: &str) -> &'static str {
    match attribute {
        "minimum" => "minimum",
        "maximum" => "maximum",
        "exclusive_minimum" => "exclusiveMinimum",
        "exclusive_maximum" => "exclusiveMaximum",
        "min_length" => "minLength",
        "max_length" => "maxLength",
        "min_items" => "minItems",
        "max_items" => "maxItems",
        other => panic!("no keyword for {other}"),
    }
}

/// Whether `value` satisfies `attribute = bound`.
fn admits(attribute: &str, bound: Num, value: Num) -> bool {
    let order = cmp(value, bound);
    match attribute {
        "minimum" | "min_length" | "min_items" => order != Ordering::Less,
        "maximum" | "max_length" | "max_items" => order != Ordering::Greater,
        "exclusive_minimum" => order == Ordering::Greater,
        "exclusive_maximum" => order == Ordering::Less,
        other => panic!("no rule for {other}"),
    }
}

/// The longest string or array sent: lengths past it are only declared, not sent.
const LONGEST: i128 = 64;

/// The values to send for a row, each with whether the declared bound (and the field's type)
/// admits it: the bound itself and its neighbours, and `null` and nothing for an `Option`.
fn cases(row: &Row) -> Vec<(Option<Value>, bool)> {
    let bound = declared(row.bound);
    let mut out = Vec::new();
    match shape(row.ty) {
        Shape::Integer(min, max) => {
            let Num::Int(b) = bound else {
                panic!("{}: an integer field with a fractional bound", row.tool)
            };
            let mut values: Vec<Num> = ((b - 2)..=(b + 2)).map(Num::Int).collect();
            // Past 64 bits the nearest numbers JSON holds exactly are floats: the first one
            // beyond the bound on either side (a float the bound admits would test serde's
            // refusal of `5.0` for an integer, not the bound).
            values.extend(
                [(b as f64).next_up(), (b as f64).next_down()]
                    .into_iter()
                    .filter(|f| f.fract() == 0.0 && !admits(row.attribute, bound, Num::Float(*f)))
                    .map(Num::Float),
            );
            for v in values {
                let admitted = admits(row.attribute, bound, v);
                let in_type = cmp(v, Num::Int(min)) != Ordering::Less
                    && cmp(v, Num::Int(max)) != Ordering::Greater;
                // A value the bound admits but the type cannot hold tests the type's range,
                // which schemars publishes for 8- and 16-bit integers only: not this table.
                if admitted && !in_type {
                    continue;
                }
                if let Some(json) = v.json() {
                    out.push((Some(json), admitted && in_type));
                }
            }
        }
        Shape::Float => {
            let mut values = Vec::new();
            let b = match bound {
                Num::Int(b) => {
                    values.extend(((b - 2)..=(b + 2)).map(Num::Int));
                    b as f64
                }
                Num::Float(b) => b,
            };
            values.extend([b, b.next_up(), b.next_down()].map(Num::Float));
            for v in values {
                if let Some(json) = v.json() {
                    out.push((Some(json), admits(row.attribute, bound, v)));
                }
            }
        }
        Shape::Text | Shape::Array(_) => {
            let Num::Int(b) = bound else {
                panic!("{}: a count is an integer", row.tool)
            };
            // The lengths next to the bound, when short enough to send, and a few short ones.
            let lengths: BTreeSet<i128> = ((b - 1)..=(b + 1))
                .filter(|n| (0..=LONGEST).contains(n))
                .chain(0..=2)
                .collect();
            for length in lengths {
                let n = length as usize;
                let value = match shape(row.ty) {
                    // Code points, not bytes: `é` is two bytes in UTF-8.
                    Shape::Text => json!("é".repeat(n)),
                    Shape::Array(true) => {
                        json!((0..n).map(|i| format!("s{i}")).collect::<Vec<_>>())
                    }
                    _ => json!((0..n).collect::<Vec<_>>()),
                };
                out.push((Some(value), admits(row.attribute, bound, Num::Int(length))));
            }
        }
    }
    if row.ty.starts_with("Option") {
        out.push((Some(Value::Null), true));
        out.push((None, true));
    }
    out
}

/// Whether a value outside the row's bound can be sent: not for a length bound of 0 below,
/// or one too long to reach above, nor below `i64::MIN` on an `i64` (the first float JSON
/// holds there is the bound itself).
fn crossable(row: &Row) -> bool {
    let Num::Int(b) = declared(row.bound) else {
        return true;
    };
    match shape(row.ty) {
        Shape::Text | Shape::Array(_) if row.attribute.starts_with("min") => b > 0,
        Shape::Text | Shape::Array(_) => b < LONGEST,
        _ => b != i128::from(i64::MIN) || !row.attribute.contains("min"),
    }
}

fn envelope(name: &str, arguments: Value) -> Request {
    Request::new(
        1,
        "tools/call",
        json!({
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            },
            "name": name,
            "arguments": arguments
        }),
    )
}

/// Every tool's published input schema, by name, from `tools/list` (every page).
async fn published(server: &Server) -> BTreeMap<String, Value> {
    let mut schemas = BTreeMap::new();
    let mut cursor: Option<Value> = None;
    loop {
        let mut params = json!({
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        });
        if let Some(cursor) = &cursor {
            params["cursor"] = cursor.clone();
        }
        let response = server.request(&Request::new(1, "tools/list", params)).await;
        let result = response.result().expect("tools/list answers").clone();
        for tool in result["tools"].as_array().expect("a list of tools") {
            schemas.insert(
                tool["name"].as_str().expect("a name").to_owned(),
                tool["inputSchema"].clone(),
            );
        }
        match result.get("nextCursor") {
            Some(next) if !next.is_null() => cursor = Some(next.clone()),
            _ => return schemas,
        }
    }
}

/// Whether the server's dispatch accepted the call: the handler ran, or the arguments were
/// refused before it.
async fn dispatch_accepts(server: &Server, tool: &str, arguments: &Value) -> bool {
    let response = server.request(&envelope(tool, arguments.clone())).await;
    let result = response
        .result()
        .unwrap_or_else(|| panic!("{tool}: expected a result for {arguments}, got {response:?}"));
    if result["isError"] == true {
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            text.starts_with("Invalid arguments"),
            "{tool}: refused {arguments} for another reason: {result}"
        );
        false
    } else {
        assert_eq!(result["content"][0]["text"], "accepted", "{tool}: {result}");
        true
    }
}

#[tokio::test]
async fn published_bounds_are_the_declared_ones_and_dispatch_agrees_with_them() {
    let server = server();
    let schemas = published(&server).await;
    let mut failures = Vec::new();
    let mut calls = 0;
    for row in rows() {
        let schema = &schemas[row.tool];
        let keyword = keyword(row.attribute);
        let bound = declared(row.bound);
        // The published value is the declared one, exactly.
        match schema["properties"]["v"].get(keyword) {
            Some(value) if value.is_number() => {
                if cmp(Num::of(value), bound) != Ordering::Equal {
                    failures.push(format!(
                        "{}: `{} = {}` published as {keyword}: {value}",
                        row.tool, row.attribute, row.bound
                    ));
                }
            }
            other => failures.push(format!(
                "{}: `{keyword}` missing from {schema} ({other:?})",
                row.tool
            )),
        }
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(schema)
            .unwrap_or_else(|e| panic!("{}: the published schema compiles: {e}", row.tool));
        let cases = cases(&row);
        assert!(
            cases.iter().any(|(_, ok)| *ok),
            "{}: no value inside the bound",
            row.tool
        );
        if crossable(&row) {
            assert!(
                cases.iter().any(|(_, ok)| !*ok),
                "{}: no value outside the bound",
                row.tool
            );
        }
        for (value, expected) in cases {
            let mut arguments = Map::new();
            if let Some(value) = &value {
                arguments.insert("v".into(), value.clone());
            }
            let arguments = Value::Object(arguments);
            let by_schema = validator.is_valid(&arguments);
            let by_dispatch = dispatch_accepts(&server, row.tool, &arguments).await;
            calls += 1;
            if (by_schema, by_dispatch) != (expected, expected) {
                failures.push(format!(
                    "{} (`{}: {}`, `{} = {}`): {arguments}: the bound means {}, the published schema says {}, dispatch says {}",
                    row.tool,
                    "v",
                    row.ty,
                    row.attribute,
                    row.bound,
                    verdict(expected),
                    verdict(by_schema),
                    verdict(by_dispatch)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(calls > 200, "only {calls} calls");
}

fn verdict(accepted: bool) -> &'static str {
    if accepted { "accepted" } else { "rejected" }
}

#[test]
fn every_numeric_attribute_of_the_derive_has_cases() {
    let keys = derive_field_keys();
    assert!(keys.len() >= 10, "read {keys:?}");
    let rows = rows();
    let mut types: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for row in &rows {
        types.entry(row.attribute).or_default().insert(row.ty);
    }
    for key in &keys {
        let covered = types.get(key.as_str());
        match (NOT_NUMERIC.contains(&key.as_str()), covered) {
            (true, None) => {}
            (true, Some(_)) => panic!("`{key}` is listed as not numeric, but has rows"),
            (false, None) => panic!(
                "the derive takes `{key}`, which is neither a row of the table nor listed in NOT_NUMERIC: add rows for it"
            ),
            (false, Some(types)) => assert!(
                types.len() >= 2,
                "`{key}` has rows for one field type only: {types:?}"
            ),
        }
    }
    for key in NOT_NUMERIC.iter().chain(types.keys()) {
        assert!(
            keys.iter().any(|k| k == key),
            "`{key}` is not a field key of the derive (any more?): {keys:?}"
        );
    }
}
