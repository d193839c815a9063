//! JSON Schemas for tool inputs and outputs, generated from Rust types with `schemars` and
//! published self-contained: draft 2020-12, subschemas inlined, no `$ref`, `$defs` or `$schema`
//! (several MCP clients reject those).

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// The published JSON Schema of `T`: 2020-12, subschemas inlined, no `$schema`.
///
/// The schema describes what `T`'s `Deserialize` accepts (schemars reads the serde attributes):
/// renames, `Option` fields not required, defaults.
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// struct Point { x: i32, y: Option<i32> }
///
/// let schema = mcp_test::schema::schema_for::<Point>();
/// assert_eq!(schema["type"], "object");
/// assert_eq!(schema["required"], serde_json::json!(["x"]));
/// assert!(schema.get("$schema").is_none());
/// ```
pub fn schema_for<T: JsonSchema + ?Sized>() -> Value {
    let schema = settings().into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    if let Value::Object(map) = &mut value
        && map
            .get("$defs")
            .and_then(Value::as_object)
            .is_some_and(|defs| defs.is_empty())
    {
        map.remove("$defs");
    }
    value
}

/// The generator settings every published schema uses: 2020-12 with subschemas inlined and no
/// `$schema` keyword, describing what deserialization accepts.
pub fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .for_deserialize()
}
