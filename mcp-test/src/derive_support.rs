//! The runtime half of `#[derive(Tool)]`: what the generated code calls, through
//! `mcp_test::__private`. Not public API.
//!
//! The derive generates a hidden *shadow* struct per argument object (the struct itself, or each
//! action's `data`) that derives `Deserialize` and `JsonSchema` from the same field list and serde
//! attributes, so the published schema and the parser cannot disagree. These helpers turn the
//! shadow structs' schemas into the published form and run the parse and the handler.

use crate::context::Context;
use crate::schema;
use crate::tool::{IntoToolResult, ToolError};
use crate::wire::CallToolResult;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use std::future::Future;

/// The published input schema of a plain tool whose arguments are `T`.
pub fn input_schema<T: JsonSchema>() -> Value {
    let mut value = schema::publish(schema::schema_for::<T>());
    if let Value::Object(map) = &mut value {
        map.remove("title");
        map.remove("description");
        map.entry("type").or_insert_with(|| Value::from("object"));
        // An empty `properties` makes validators report each unknown property at its own
        // pointer, rather than one error at the object.
        map.entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
    }
    value
}

/// One action of an action tool, as the generated `input_schema` describes it.
pub struct Action {
    /// The action's name, the value of `action`.
    pub name: &'static str,
    /// The action's doc comment (or `#[tool(description)]`), if any.
    pub description: Option<&'static str>,
    /// The published schema of the action's `data` object.
    pub data: Value,
}

/// The published input schema of an action tool: `action` is a required string enum whose
/// description lists every action, and each action's `data` schema is attached with
/// `allOf: [{if: {action: const}, then: {data: ...}}]`, which any 2020-12 validator enforces.
pub fn action_input_schema(actions: Vec<Action>, deny_unknown_fields: bool) -> Value {
    let names: Vec<&str> = actions.iter().map(|a| a.name).collect();
    let mut listing = String::from("The action to perform:");
    for action in &actions {
        listing.push_str("\n- `");
        listing.push_str(action.name);
        listing.push('`');
        if let Some(line) = action
            .description
            .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
        {
            listing.push_str(": ");
            listing.push_str(line);
        }
    }
    let mut branches = Vec::with_capacity(actions.len());
    for action in actions {
        let mut data = action.data;
        if let Value::Object(map) = &mut data {
            map.remove("title");
            match action.description {
                Some(d) if !d.trim().is_empty() => {
                    map.insert("description".into(), Value::from(d.trim()));
                }
                _ => {
                    map.remove("description");
                }
            }
        }
        let has_required = data
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty());
        let mut then = json!({ "properties": { "data": data } });
        if has_required {
            then["required"] = json!(["data"]);
        }
        branches.push(json!({
            "if": {
                "properties": { "action": { "const": action.name } },
                "required": ["action"]
            },
            "then": then
        }));
    }
    let mut root = json!({
        "type": "object",
        "properties": {
            "action": { "type": "string", "enum": names, "description": listing },
            "data": {
                "type": "object",
                "description": "The action's arguments; which ones depends on `action`."
            }
        },
        "required": ["action"],
        "allOf": branches
    });
    if deny_unknown_fields {
        root["additionalProperties"] = Value::Bool(false);
    }
    schema::publish(root)
}

/// Deserializes a plain tool's arguments into its shadow struct, from the borrowed arguments
/// (the server keeps them for the round boundary, so nothing is cloned for the parse).
pub fn parse_arguments<T: DeserializeOwned>(arguments: &Value) -> Result<T, ToolError> {
    T::deserialize(arguments).map_err(|e| ToolError::new(format!("Invalid arguments: {e}")))
}

/// Splits an action tool's arguments into the action's name and its `data` (`None` when
/// `data` is missing: the action then parses an empty object), checking the action against
/// `actions`.
pub fn split_action<'a>(
    arguments: &'a Value,
    actions: &[&str],
) -> Result<(&'a str, Option<&'a Value>), ToolError> {
    let Value::Object(map) = arguments else {
        return Err(ToolError::new(format!(
            "Invalid arguments: expected an object with `action` and `data`, got {}",
            crate::wire::json_type(arguments)
        )));
    };
    let action = match map.get("action") {
        Some(Value::String(action)) => action.as_str(),
        Some(other) => {
            return Err(ToolError::new(format!(
                "Invalid arguments: /action must be a string naming one of {}, got {}",
                list(actions),
                crate::wire::json_type(other)
            )));
        }
        None => {
            return Err(ToolError::new(format!(
                "Invalid arguments: /action is missing; valid actions: {}",
                list(actions)
            )));
        }
    };
    if !actions.contains(&action) {
        return Err(unknown_action(action, actions));
    }
    Ok((action, map.get("data")))
}

/// The error for an action name the tool does not have.
pub fn unknown_action(action: &str, actions: &[&str]) -> ToolError {
    ToolError::new(format!(
        "Unknown action {action:?}; valid actions: {}",
        list(actions)
    ))
}

/// Deserializes one action's `data` (an empty object when it is missing) into its shadow
/// struct.
pub fn parse_data<T: DeserializeOwned>(action: &str, data: Option<&Value>) -> Result<T, ToolError> {
    let parsed = match data {
        Some(data) => T::deserialize(data),
        None => T::deserialize(&Value::Object(Map::new())),
    };
    parsed.map_err(|e| {
        ToolError::new(format!(
            "Invalid arguments: /data of action {action:?}: {e}"
        ))
    })
}

fn list(actions: &[&str]) -> String {
    actions
        .iter()
        .map(|a| format!("{a:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `outputSchema` implied by a handler's return type, found from the handler itself so the
/// user never names the type: an `async fn run(self, ctx: &Context) -> R` coerces to `F` with
/// `Fut::Output = R`.
pub fn output_schema_of<T, F, Fut>(_handler: F) -> Option<Value>
where
    F: FnOnce(T, &'static Context) -> Fut,
    Fut: Future,
    Fut::Output: IntoToolResult,
{
    <Fut::Output as IntoToolResult>::output_schema().map(schema::publish)
}

/// What a tool's `run` receives as its first argument: the tool itself, by value. The derive
/// passes `<_ as SelfByValue<Self>>::from_tool(self)`, whose type is inferred from `run`'s
/// signature; only `T` implements `SelfByValue<T>`, so a `run(&self, ..)` (or `&mut self`,
/// `self: Box<Self>`) is one error that says what to write, instead of "expected `&T`, found
/// `T`".
#[diagnostic::on_unimplemented(
    message = "`run` must take `self` by value, not as `{Self}`",
    label = "`{T}::run` takes `{Self}`",
    note = "write `async fn run(self, ctx: &Context)`: the parsed arguments are moved into the call, and the future it returns must not borrow them"
)]
pub trait SelfByValue<T> {
    /// The tool, as `run` takes it.
    fn from_tool(tool: T) -> Self;
}

impl<T> SelfByValue<T> for T {
    fn from_tool(tool: T) -> T {
        tool
    }
}

/// Awaits a handler and converts what it returned into a result.
pub async fn run<Fut>(handler: Fut) -> Result<CallToolResult, ToolError>
where
    Fut: Future,
    Fut::Output: IntoToolResult,
{
    handler.await.into_tool_result()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_schema_requires_data_only_when_the_action_has_required_fields() {
        let schema = action_input_schema(
            vec![
                Action {
                    name: "get",
                    description: Some("Gets one.\n\nMore text."),
                    data: json!({"type": "object", "properties": {"id": {"type": "string"}},
                                 "required": ["id"], "title": "Shadow"}),
                },
                Action {
                    name: "list",
                    description: None,
                    data: json!({"type": "object", "properties": {}}),
                },
            ],
            true,
        );
        assert_eq!(
            schema["properties"]["action"]["description"],
            "The action to perform:\n- `get`: Gets one.\n- `list`"
        );
        assert_eq!(schema["allOf"][0]["then"]["required"], json!(["data"]));
        assert!(schema["allOf"][1]["then"].get("required").is_none());
        assert!(
            schema["allOf"][0]["then"]["properties"]["data"]
                .get("title")
                .is_none()
        );
        assert_eq!(schema["additionalProperties"], false);
    }

    #[test]
    fn split_action_names_the_valid_actions() {
        let e = split_action(&json!({"action": "nope"}), &["get", "list"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"Unknown action "nope"; valid actions: "get", "list""#
        );
        let arguments = json!({"action": "list"});
        let (a, d) = split_action(&arguments, &["get", "list"]).unwrap();
        assert_eq!((a, d), ("list", None));
        let arguments = json!({"action": "get", "data": {"id": "x"}});
        let (a, d) = split_action(&arguments, &["get", "list"]).unwrap();
        assert_eq!((a, d), ("get", Some(&json!({"id": "x"}))));
        assert!(split_action(&json!([]), &["get"]).is_err());
        assert!(split_action(&json!({"action": 1}), &["get"]).is_err());
    }
}
