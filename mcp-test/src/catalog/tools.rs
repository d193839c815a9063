//! The registered tools: their checks at build time, and `tools/call`.

use super::registry::{Entry, Listing, Registry};
use super::{BuildError, check_cache_scope};
use crate::authorization::Access;
use crate::context::Context;
use crate::request_state::StateConfig;
use crate::rounds::{self, RoundResult};
use crate::tool::{Tool, ToolError, ToolErrorKind};
use crate::validation::{self, SchemaValidator};
use crate::wire::{CacheHint, CallToolResult, ErrorObject, ToolDefinition, json_type};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;

/// A tool as the builder collects it.
pub(crate) struct ToolRegistration {
    pub(crate) definition: ToolDefinition,
    pub(crate) access: Access,
    handler: Box<dyn ErasedTool>,
}

impl ToolRegistration {
    /// The tool `T`, for callers `access` allows.
    pub(crate) fn of<T: Tool>(access: Access) -> Self {
        ToolRegistration {
            definition: T::definition(),
            access,
            handler: Box::new(Erased::<T>(PhantomData)),
        }
    }
}

/// A built tool: its compiled schemas and its handler.
pub(crate) struct RegisteredTool {
    input: SchemaValidator,
    output: Option<SchemaValidator>,
    handler: Box<dyn ErasedTool>,
}

pub(crate) type Tools = Registry<ToolDefinition, RegisteredTool>;

trait ErasedTool: Send + Sync {
    fn call<'a>(
        &'a self,
        ctx: &'a Context,
        arguments: Value,
    ) -> BoxFuture<'a, Result<CallToolResult, ToolError>>;
}

struct Erased<T>(PhantomData<fn() -> T>);

impl<T: Tool> ErasedTool for Erased<T> {
    fn call<'a>(
        &'a self,
        ctx: &'a Context,
        arguments: Value,
    ) -> BoxFuture<'a, Result<CallToolResult, ToolError>> {
        Box::pin(async move { T::parse(arguments)?.call(ctx).await })
    }
}

/// Checks every tool (name, uniqueness, schemas, then the cache scope of the list) and
/// compiles its schemas once. Tools are listed sorted by name.
pub(crate) fn build(
    mut tools: Vec<ToolRegistration>,
    cache: CacheHint,
) -> Result<Tools, BuildError> {
    tools.sort_by(|a, b| a.definition.name.cmp(&b.definition.name));
    let mut seen = HashSet::with_capacity(tools.len());
    let mut built = Vec::with_capacity(tools.len());
    for tool in tools {
        let definition = tool.definition;
        check_tool_name(&definition.name)?;
        if !seen.insert(definition.name.clone()) {
            return Err(BuildError::DuplicateTool(definition.name));
        }
        let invalid = |which: &'static str, reason: String| BuildError::InvalidSchema {
            tool: definition.name.clone(),
            which,
            reason,
        };
        if definition.input_schema.get("type") != Some(&Value::from("object")) {
            return Err(invalid(
                "inputSchema",
                "the root must have \"type\": \"object\"".into(),
            ));
        }
        let input = SchemaValidator::new(&definition.input_schema)
            .map_err(|r| invalid("inputSchema", r.to_string()))?;
        let output = definition
            .output_schema
            .as_ref()
            .map(SchemaValidator::new)
            .transpose()
            .map_err(|r| invalid("outputSchema", r.to_string()))?;
        let served = RegisteredTool {
            input,
            output,
            handler: tool.handler,
        };
        let access = tool.access;
        built.push((definition, Entry { access, served }));
    }
    for (definition, entry) in &built {
        check_cache_scope("tool", &definition.name, "tools/list", cache, &entry.access)?;
    }
    let listing = Listing {
        method: "tools/list",
        field: "tools",
        cache,
    };
    Ok(Registry::new(built, listing))
}

fn check_tool_name(name: &str) -> Result<(), BuildError> {
    let reason = if name.is_empty() || name.len() > 128 {
        Some(format!(
            "must be 1 to 128 characters long, is {}",
            name.len()
        ))
    } else {
        name.chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .map(|c| format!("{c:?} is not one of [A-Za-z0-9_.-]"))
    };
    match reason {
        Some(reason) => Err(BuildError::InvalidToolName {
            name: name.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

/// `tools/call`: the tool as the caller may see it, its arguments checked against its
/// `inputSchema`, run through the round boundary, its output checked against its
/// `outputSchema`.
pub(crate) async fn call(
    tools: &Tools,
    state: &StateConfig,
    ctx: &Context,
    params: &Map<String, Value>,
) -> Result<Value, ErrorObject> {
    let name = super::required_string(params, "name", "", "the tool to call")?;
    let Some((_, tool)) = tools.visible(name, ctx.identity()) else {
        return Err(ErrorObject::invalid_params(format!("Unknown tool: {name}")));
    };
    let no_arguments = Value::Object(Map::new());
    let arguments = match params.get("arguments") {
        None => &no_arguments,
        Some(args @ Value::Object(_)) => args,
        Some(other) => {
            return Err(ErrorObject::invalid_params(format!(
                "Invalid params: arguments must be an object, got {}",
                json_type(other)
            )));
        }
    };
    let violations = tool.input.violations(arguments);
    if !violations.is_empty() {
        return Ok(to_value(CallToolResult::error_text(format!(
            "Invalid arguments for tool {name}:\n{}",
            validation::describe(&violations)
        ))));
    }
    // Through the round boundary: the run may end with input_required (spec §8).
    let args = arguments.clone();
    let round = rounds::serve_round(state, ctx, name, arguments, params, |ctx| async move {
        let run = AssertUnwindSafe(tool.handler.call(&ctx, args)).catch_unwind();
        match run.await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(error)) => match error.into_kind() {
                ToolErrorKind::Protocol(error) => Err(error),
                ToolErrorKind::Rejected(content) | ToolErrorKind::Failed(content) => {
                    Ok(CallToolResult {
                        content,
                        is_error: true,
                        ..CallToolResult::default()
                    })
                }
            },
            Err(panic) => {
                let message = super::panic_message(panic.as_ref());
                Err(
                    ErrorObject::internal(format!("Internal error: tool {name} panicked"))
                        .with_data(json!({ "tool": name, "panic": message })),
                )
            }
        }
    })
    .await?;
    match round {
        RoundResult::Complete(result) => {
            Ok(to_value(check_output(name, tool.output.as_ref(), result)))
        }
        RoundResult::InputRequired(result) => Ok(result),
    }
}

/// A tool with an `outputSchema` must return conforming `structuredContent`; anything else
/// becomes an `isError` result naming every violation, never passed through silently.
fn check_output(
    name: &str,
    output: Option<&SchemaValidator>,
    result: CallToolResult,
) -> CallToolResult {
    let Some(validator) = output else {
        return result;
    };
    if result.is_error {
        return result;
    }
    match &result.structured_content {
        None => CallToolResult::error_text(format!(
            "Tool {name} declares an outputSchema but returned no structuredContent"
        )),
        Some(structured) => {
            let violations = validator.violations(structured);
            if violations.is_empty() {
                result
            } else {
                CallToolResult::error_text(format!(
                    "Tool {name} returned structuredContent that does not match its outputSchema:\n{}",
                    validation::describe(&violations)
                ))
            }
        }
    }
}

fn to_value<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).expect("wire types always serialize")
}
