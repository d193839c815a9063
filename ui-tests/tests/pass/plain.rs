//! A plain tool with every supported field type and constraint.
use mcp_test::{Context, Tool, ToolError};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
enum Shape {
    Circle { radius: f64 },
    Square(f64),
}

/// Every type.
#[derive(Tool)]
#[tool(
    title = "All types",
    annotations(read_only, destructive = false, idempotent, open_world)
)]
struct AllTypes {
    /// A string.
    #[tool(
        min_length = 1,
        max_length = 10,
        pattern = "^[a-z]+$",
        format = "hostname"
    )]
    s: String,
    #[tool(header = "Count")]
    i8_: i8,
    i16_: i16,
    i32_: i32,
    #[tool(minimum = -5, exclusive_maximum = 5_000_000_000)]
    i64_: i64,
    i128_: i128,
    isize_: isize,
    u8_: u8,
    u16_: u16,
    u32_: u32,
    u64_: u64,
    usize_: usize,
    f32_: f32,
    #[tool(exclusive_minimum = 0.0, maximum = 1)]
    f64_: f64,
    #[tool(header = "Flag")]
    flag: bool,
    c: char,
    #[tool(min_items = 1, max_items = 3, unique_items)]
    list: Vec<String>,
    set: HashSet<u32>,
    bset: BTreeSet<String>,
    map: HashMap<String, i64>,
    bmap: BTreeMap<String, Point>,
    #[tool(header = "Region", default = "eu")]
    region: String,
    maybe: Option<Point>,
    shape: Shape,
    raw: serde_json::Value,
    #[tool(default, example = 3, example = 4)]
    retries: u8,
}

impl AllTypes {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.s)
    }
}

/// A tool without arguments.
#[derive(Tool)]
struct Ping;

impl Ping {
    async fn run(self, _ctx: &Context) -> &'static str {
        "pong"
    }
}

pub fn main() {
    let schema = AllTypes::input_schema();
    mcp_test::schema::check_published(&schema).unwrap();
    assert_eq!(schema["properties"]["s"]["pattern"], "^[a-z]+$");
    assert_eq!(schema["properties"]["i8_"]["x-mcp-header"], "Count");
    assert_eq!(schema["properties"]["u64_"]["minimum"], 0);
    // A bound past 32 bits keeps its value.
    assert_eq!(
        schema["properties"]["i64_"]["exclusiveMaximum"],
        5_000_000_000i64
    );
    assert_eq!(schema["properties"]["region"]["default"], "eu");
    assert_eq!(
        schema["properties"]["retries"]["examples"],
        serde_json::json!([3, 4])
    );
    assert_eq!(AllTypes::NAME, "all_types");
    assert_eq!(AllTypes::annotations().unwrap().open_world_hint, Some(true));
    assert!(AllTypes::output_schema().is_none());

    let ping = Ping::input_schema();
    mcp_test::schema::check_published(&ping).unwrap();
    assert_eq!(ping["properties"], serde_json::json!({}));
    assert_eq!(ping["additionalProperties"], false);
    assert!(Ping::parse(serde_json::json!({})).is_ok());
    assert!(Ping::parse(serde_json::json!({"x": 1})).is_err());
}
