//! The registered tools: their checks at build time, and `tools/call`.

use super::build::{BuildError, check_cache_scope};
use super::registry::{Entry, Found, Listing, Registry};
use super::serving::{panic_message, required_string};
use crate::authorization::Access;
use crate::context::Context;
use crate::rounds::{self, Phased, RoundResult, TaskPhase};
use crate::tasks::{self, TaskSupport, Tasks};
use crate::tool::{Tool, ToolError, ToolErrorKind};
use crate::validation::{self, SchemaValidator};
use crate::wire::{CacheHint, CallToolResult, ErrorObject, ToolDefinition, json_type, tool_name};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// A tool as the builder collects it.
pub(crate) struct ToolRegistration {
    pub(crate) definition: ToolDefinition,
    pub(crate) access: Access,
    task_support: TaskSupport,
    handler: Arc<dyn ErasedTool>,
}

impl ToolRegistration {
    /// The tool `T`, for callers `access` allows.
    pub(crate) fn of<T: Tool>(access: Access) -> Self {
        ToolRegistration {
            definition: T::definition(),
            access,
            task_support: T::task_support(),
            handler: Arc::new(Erased::<T>(PhantomData)),
        }
    }
}

/// A built tool: its compiled schemas and its handler.
pub(crate) struct RegisteredTool {
    input: SchemaValidator,
    output: Option<Arc<SchemaValidator>>,
    pub(crate) task_support: TaskSupport,
    handler: Arc<dyn ErasedTool>,
}

pub(crate) type Tools = Registry<ToolDefinition, RegisteredTool>;

trait ErasedTool: Send + Sync {
    fn call<'a>(
        &'a self,
        ctx: &'a Context,
        arguments: &'a Value,
    ) -> BoxFuture<'a, Result<CallToolResult, ToolError>>;
}

struct Erased<T>(PhantomData<fn() -> T>);

impl<T: Tool> ErasedTool for Erased<T> {
    fn call<'a>(
        &'a self,
        ctx: &'a Context,
        arguments: &'a Value,
    ) -> BoxFuture<'a, Result<CallToolResult, ToolError>> {
        Box::pin(async move { T::parse_borrowed(arguments)?.call(ctx).await })
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
            .map_err(|r| invalid("outputSchema", r.to_string()))?
            .map(Arc::new);
        let served = RegisteredTool {
            input,
            output,
            task_support: tool.task_support,
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

/// The spec's tool-name rule ([`tool_name::check`]), as a build error.
fn check_tool_name(name: &str) -> Result<(), BuildError> {
    tool_name::check(name).map_err(|problem| BuildError::InvalidToolName {
        name: name.to_owned(),
        reason: problem.to_string(),
    })
}

/// `tools/call`: the tool as the caller may see it, its arguments checked against its
/// `inputSchema`, run through the round boundary, its output checked against its
/// `outputSchema`.
pub(crate) async fn call(
    tools: &Tools,
    tasks_of: Option<&Arc<Tasks>>,
    ctx: &Context,
    mut params: Map<String, Value>,
) -> Result<Value, ErrorObject> {
    // Taken out, not cloned: the runner owns the arguments (a task may run it later), and
    // the handler parses from a borrow of them.
    let arguments = params.remove("arguments");
    let name = required_string(&params, "name", "the tool to call")?;
    let tool = match tools.find(name, ctx.identity()) {
        Found::Usable(_, tool) => tool,
        Found::NeedsScope(challenge) => {
            return Err(challenge.error(&format!("tool {name}"), "name", name));
        }
        Found::Absent => {
            return Err(ErrorObject::invalid_params(format!("Unknown tool: {name}")));
        }
    };
    let arguments = match arguments {
        None => Value::Object(Map::new()),
        Some(args @ Value::Object(_)) => args,
        Some(other) => {
            return Err(ErrorObject::invalid_params(format!(
                "Invalid params: arguments must be an object, got {}",
                json_type(&other)
            )));
        }
    };
    let violations = tool.input.violations(&arguments);
    if !violations.is_empty() {
        return Ok(to_value(CallToolResult::error_text(format!(
            "Invalid arguments for tool {name}:\n{}",
            validation::describe(&violations)
        ))));
    }
    // The tasks extension: a required-task tool needs a client that declares it (-32021);
    // a call may become a task only when the tool allows it and the client declared it.
    let declared = tasks::declared_in(ctx.client_capabilities());
    if tool.task_support == TaskSupport::Required && !declared {
        return Err(tasks::missing_extension(&format!("tool {name}")));
    }
    let task_manager = match tasks_of {
        Some(manager) if declared && tool.task_support != TaskSupport::Forbidden => Some(manager),
        _ => None,
    };
    let phase = if task_manager.is_some() {
        TaskPhase::Before
    } else {
        TaskPhase::Never
    };
    let arguments = Arc::new(arguments);
    let runner = runner(name, tool, Arc::clone(&arguments));
    // Through the round boundary: the run may end with input_required (spec §8), or, when it
    // may become a task, be detached into one.
    let round = rounds::serve_round_phased(ctx, name, &arguments, &params, phase, {
        let runner = Arc::clone(&runner);
        move |ctx| runner(ctx)
    })
    .await?;
    match (round, task_manager) {
        (Phased::Round(RoundResult::Complete(result)), _) => Ok(result),
        (Phased::Round(RoundResult::InputRequired(result)), _) => Ok(result),
        (Phased::Detached(answers), Some(manager)) => manager.create(ctx, runner, answers).await,
        (Phased::Detached(_), None) => Err(ErrorObject::internal(
            "Internal error: a call that cannot become a task was detached",
        )),
    }
}

/// Runs the tool with `arguments` in a given context to its wire result: a panic or a protocol
/// error is the JSON-RPC error, a rejection or failure an `isError` result, and a success is
/// checked against the `outputSchema`. Each run parses from the shared arguments: none is
/// copied.
fn runner(name: &str, tool: &RegisteredTool, arguments: Arc<Value>) -> tasks::Runner {
    let name = name.to_owned();
    let handler = Arc::clone(&tool.handler);
    let output = tool.output.clone();
    Arc::new(move |ctx: Context| {
        let name = name.clone();
        let handler = Arc::clone(&handler);
        let output = output.clone();
        let arguments = Arc::clone(&arguments);
        Box::pin(async move {
            let run = AssertUnwindSafe(handler.call(&ctx, &arguments)).catch_unwind();
            let result = match run.await {
                Ok(Ok(result)) => result,
                Ok(Err(error)) => match error.into_kind() {
                    ToolErrorKind::Protocol(error) => return Err(error),
                    ToolErrorKind::Rejected(content) | ToolErrorKind::Failed(content) => {
                        CallToolResult {
                            content,
                            is_error: true,
                            ..CallToolResult::default()
                        }
                    }
                },
                Err(panic) => {
                    let message = panic_message(panic.as_ref());
                    return Err(ErrorObject::internal(format!(
                        "Internal error: tool {name} panicked"
                    ))
                    .with_data(json!({ "tool": name, "panic": message })));
                }
            };
            let mut value = to_value(check_output(&name, output.as_deref(), result));
            if let Value::Object(map) = &mut value {
                map.entry("resultType")
                    .or_insert_with(|| Value::from("complete"));
            }
            Ok(value)
        })
    })
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
