//! The official JSON Schema of MCP 2026-07-28, bundled, as a test oracle for messages.
//!
//! `schema.json` is generated from the spec repository's `schema.ts` (draft 2020-12). The
//! official conformance suite checks every message a server sends against it
//! (`wire-schema-valid`); [`check_response`] is the same check.
//!
//! ```
//! use serde_json::json;
//! let ok = json!({"jsonrpc": "2.0", "id": 1, "result": {
//!     "resultType": "complete", "content": [{"type": "text", "text": "hi"}]}});
//! mcp_test::spec::check_response("tools/call", &ok).unwrap();
//!
//! let bad = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}});
//! let err = mcp_test::spec::check_response("tools/call", &bad).unwrap_err();
//! assert!(err.to_string().contains("not a valid CallToolResult"), "{err}");
//! assert!(err.to_string().contains("/content: missing required property"), "{err}");
//! ```

pub mod clauses;

use crate::validation::{SchemaValidator, Violation, describe};
use crate::wire::Era;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// The bundled `schema.json` of revision 2026-07-28, as text.
pub const SCHEMA_JSON: &str = include_str!("../spec/schema-2026-07-28.json");

/// The bundled `schema.json` of revision 2025-11-25, the one a 2025-era server (reached
/// through the `initialize` handshake) is held to, as text.
pub const SCHEMA_2025_JSON: &str = include_str!("../spec/schema-2025-11-25.json");

/// The bundled JSON Schema of the tasks extension (`io.modelcontextprotocol/tasks`), as text:
/// `schema/draft/schema.json` of the repository `modelcontextprotocol/ext-tasks` at commit
/// `e4345978be1f602f1fc48d89051e8559dd5302a6` (the repository's draft folder), unchanged.
pub const TASKS_SCHEMA_JSON: &str = include_str!("../spec/ext-tasks-schema.json");

/// How [`SpecError::revision`] names the tasks extension's schema.
pub const TASKS_REVISION: &str = "ext-tasks draft";

/// Checks `instance` against the tasks extension's definition named `definition` (e.g.
/// `"GetTaskResult"`, `"CreateTaskResult"`, `"TaskStatusNotification"`).
///
/// ```
/// use serde_json::json;
/// let created = json!({"resultType": "task", "taskId": "t-1", "status": "working",
///     "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:30:00Z", "ttlMs": 60000});
/// mcp_test::spec::check_tasks("CreateTaskResult", &created).unwrap();
/// let err = mcp_test::spec::check_tasks("CreateTaskResult", &json!({"resultType": "task"})).unwrap_err();
/// assert!(err.to_string().contains("ext-tasks"), "{err}");
/// ```
pub fn check_tasks(definition: &str, instance: &Value) -> Result<(), SpecError> {
    type Cache = Mutex<HashMap<String, Arc<SchemaValidator>>>;
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let schema = SCHEMA.get_or_init(|| {
        serde_json::from_str(TASKS_SCHEMA_JSON).expect("the bundled tasks schema is JSON")
    });
    let error = |message: String| SpecError {
        definition: definition.to_owned(),
        revision: TASKS_REVISION,
        violations: vec![Violation {
            pointer: String::new(),
            message,
        }],
    };
    let cache = CACHE.get_or_init(Default::default);
    let cached = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(definition)
        .cloned();
    let validator = match cached {
        Some(v) => v,
        None => {
            let defs = &schema["$defs"];
            if defs.get(definition).is_none() {
                return Err(error(format!(
                    "the tasks extension's schema has no definition named {definition}"
                )));
            }
            let root = serde_json::json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": defs,
                "$ref": format!("#/$defs/{definition}"),
            });
            let compiled =
                Arc::new(SchemaValidator::new(&root).expect("the bundled tasks schema compiles"));
            cache
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(definition.to_owned(), compiled.clone());
            compiled
        }
    };
    let violations = validator.violations(instance);
    if violations.is_empty() {
        Ok(())
    } else {
        Err(SpecError {
            definition: definition.to_owned(),
            revision: TASKS_REVISION,
            violations,
        })
    }
}

/// Checks the result of a task message against the tasks extension's schema: a `tools/call`
/// result with `resultType: "task"` against `CreateTaskResult`, and the results of
/// `tasks/get`, `tasks/update` and `tasks/cancel` against `GetTaskResult`,
/// `UpdateTaskResult` and `CancelTaskResult`. A JSON-RPC error is checked against the core
/// `JSONRPCErrorResponse`. `None` for any other method or result.
///
/// ```
/// use serde_json::json;
/// let ack = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete"}});
/// mcp_test::spec::check_task_response("tasks/cancel", &ack).unwrap().unwrap();
/// let bad = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "status": 1}});
/// assert!(mcp_test::spec::check_task_response("tasks/get", &bad).unwrap().is_err());
/// assert!(mcp_test::spec::check_task_response("tools/list", &ack).is_none());
/// ```
pub fn check_task_response(method: &str, response: &Value) -> Option<Result<(), SpecError>> {
    if response.get("error").is_some() {
        return matches!(method, "tasks/get" | "tasks/update" | "tasks/cancel")
            .then(|| check("JSONRPCErrorResponse", response));
    }
    let result = response.get("result").unwrap_or(&Value::Null);
    let definition = match method {
        "tools/call" if result.get("resultType").and_then(Value::as_str) == Some("task") => {
            "CreateTaskResult"
        }
        "tasks/get" => "GetTaskResult",
        "tasks/update" => "UpdateTaskResult",
        "tasks/cancel" => "CancelTaskResult",
        _ => return None,
    };
    Some(check("JSONRPCResultResponse", response).and_then(|()| check_tasks(definition, result)))
}

fn schema() -> &'static Value {
    schema_of(Era::Current)
}

fn schema_of(era: Era) -> &'static Value {
    static CURRENT: OnceLock<Value> = OnceLock::new();
    static LEGACY: OnceLock<Value> = OnceLock::new();
    let (cell, text) = match era {
        Era::Current => (&CURRENT, SCHEMA_JSON),
        Era::Legacy => (&LEGACY, SCHEMA_2025_JSON),
    };
    cell.get_or_init(|| serde_json::from_str(text).expect("the bundled schema is JSON"))
}

/// The names of every definition in the schema (`$defs`), e.g. `CallToolResult`.
pub fn definitions() -> impl Iterator<Item = &'static str> {
    schema()["$defs"]
        .as_object()
        .expect("the bundled schema has $defs")
        .keys()
        .map(String::as_str)
}

fn validator(era: Era, definition: &str) -> Result<Arc<SchemaValidator>, SpecError> {
    // Compiled validators are pure functions of the bundled schemas, so one cache per process
    // is safe to share between tests.
    type Cache = Mutex<HashMap<(Era, String), Arc<SchemaValidator>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (era, definition.to_owned());
    if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(v.clone());
    }
    let defs = &schema_of(era)["$defs"];
    if defs.get(definition).is_none() {
        return Err(SpecError {
            definition: definition.to_owned(),
            revision: era.revision(),
            violations: vec![Violation {
                pointer: String::new(),
                message: format!(
                    "the {} schema has no definition named {definition}",
                    era.revision()
                ),
            }],
        });
    }
    let root = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": defs,
        "$ref": format!("#/$defs/{definition}"),
    });
    let compiled = Arc::new(SchemaValidator::new(&root).expect("the bundled schema compiles"));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, compiled.clone());
    Ok(compiled)
}

/// Checks `instance` against the 2026-07-28 schema definition named `definition` (e.g.
/// `"Tool"`).
pub fn check(definition: &str, instance: &Value) -> Result<(), SpecError> {
    check_in(Era::Current, definition, instance)
}

/// Checks `instance` against the definition named `definition` in the schema of `era`'s
/// revision: 2026-07-28, or 2025-11-25 for [`Era::Legacy`].
///
/// ```
/// use mcp_test::wire::Era;
/// use serde_json::json;
/// // A 2025-11-25 tools/list result has no resultType, and needs none.
/// let tools = json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]});
/// mcp_test::spec::check_in(Era::Legacy, "ListToolsResult", &tools).unwrap();
/// assert!(mcp_test::spec::check_in(Era::Current, "ListToolsResult", &tools).is_err());
/// ```
pub fn check_in(era: Era, definition: &str, instance: &Value) -> Result<(), SpecError> {
    let violations = validator(era, definition)?.violations(instance);
    if violations.is_empty() {
        Ok(())
    } else {
        Err(SpecError {
            definition: definition.to_owned(),
            revision: era.revision(),
            violations,
        })
    }
}

/// The 2025-11-25 result definition of a method a client sends, if that revision defines
/// it.
///
/// ```
/// assert_eq!(mcp_test::spec::legacy_result_definition("initialize"), Some("InitializeResult"));
/// assert_eq!(mcp_test::spec::legacy_result_definition("server/discover"), None);
/// ```
pub fn legacy_result_definition(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => {
            "EmptyResult"
        }
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "completion/complete" => "CompleteResult",
        _ => return None,
    })
}

/// Checks a whole JSON-RPC response to `method` against the schema of `era`'s revision:
/// [`check_response`] for 2026-07-28; for 2025-11-25, an error against
/// `JSONRPCErrorResponse`, a result against `JSONRPCResultResponse` and the method's result
/// definition ([`legacy_result_definition`]).
pub fn check_response_in(era: Era, method: &str, response: &Value) -> Result<(), SpecError> {
    match era {
        Era::Current => check_response(method, response),
        Era::Legacy if response.get("error").is_some() => {
            check_in(era, "JSONRPCErrorResponse", response)
        }
        Era::Legacy => {
            check_in(era, "JSONRPCResultResponse", response)?;
            match legacy_result_definition(method) {
                Some(definition) => check_in(
                    era,
                    definition,
                    response.get("result").unwrap_or(&Value::Null),
                ),
                None => Ok(()),
            }
        }
    }
}

/// The schema definitions of a successful response to `method` and of its `complete` result,
/// if the revision defines the method.
///
/// ```
/// assert_eq!(
///     mcp_test::spec::result_definitions("tools/list"),
///     Some(("ListToolsResultResponse", "ListToolsResult")),
/// );
/// assert_eq!(mcp_test::spec::result_definitions("nope"), None);
/// ```
pub fn result_definitions(method: &str) -> Option<(&'static str, &'static str)> {
    Some(match method {
        "server/discover" => ("DiscoverResultResponse", "DiscoverResult"),
        "tools/list" => ("ListToolsResultResponse", "ListToolsResult"),
        "tools/call" => ("CallToolResultResponse", "CallToolResult"),
        "prompts/list" => ("ListPromptsResultResponse", "ListPromptsResult"),
        "prompts/get" => ("GetPromptResultResponse", "GetPromptResult"),
        "resources/list" => ("ListResourcesResultResponse", "ListResourcesResult"),
        "resources/templates/list" => (
            "ListResourceTemplatesResultResponse",
            "ListResourceTemplatesResult",
        ),
        "resources/read" => ("ReadResourceResultResponse", "ReadResourceResult"),
        "completion/complete" => ("CompleteResultResponse", "CompleteResult"),
        "subscriptions/listen" => (
            "SubscriptionsListenResultResponse",
            "SubscriptionsListenResult",
        ),
        _ => return None,
    })
}

/// The methods whose answer may be `input_required` (spec §8).
pub const INPUT_REQUIRED_METHODS: &[&str] = &["tools/call", "prompts/get", "resources/read"];

/// Checks a whole JSON-RPC response to `method`, more strictly than the schema's `anyOf`
/// alone:
///
/// - an error against `JSONRPCErrorResponse`;
/// - an `input_required` result against `InputRequiredResult`, only for the methods that may
///   answer it, and with at least one of `inputRequests` and `requestState`;
/// - any other result must say `resultType: "complete"` and match the method's own response
///   and result definitions (or `JSONRPCResultResponse` for a method the revision does not
///   define).
pub fn check_response(method: &str, response: &Value) -> Result<(), SpecError> {
    if response.get("error").is_some() {
        return check("JSONRPCErrorResponse", response);
    }
    let result = response.get("result").unwrap_or(&Value::Null);
    let fail = |definition: &str, pointer: &str, message: String| SpecError {
        definition: definition.to_owned(),
        revision: Era::Current.revision(),
        violations: vec![Violation {
            pointer: pointer.to_owned(),
            message,
        }],
    };
    match result.get("resultType").and_then(Value::as_str) {
        Some("input_required") => {
            if !INPUT_REQUIRED_METHODS.contains(&method) {
                return Err(fail(
                    "InputRequiredResult",
                    "/result/resultType",
                    format!("{method} must never answer input_required"),
                ));
            }
            check("JSONRPCResultResponse", response)?;
            check("InputRequiredResult", result)?;
            if result.get("inputRequests").is_none() && result.get("requestState").is_none() {
                return Err(fail(
                    "InputRequiredResult",
                    "/result",
                    "at least one of inputRequests and requestState must be present".into(),
                ));
            }
            Ok(())
        }
        Some("complete") | None => match result_definitions(method) {
            Some((response_def, result_def)) => {
                check(response_def, response)?;
                check(result_def, result)
            }
            None => check("JSONRPCResultResponse", response),
        },
        Some(other) => Err(fail(
            "Result",
            "/result/resultType",
            format!("unknown resultType {other:?} (expected \"complete\" or \"input_required\")"),
        )),
    }
}

/// A message that does not conform to the schema: which definition, and every violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The definition checked against.
    pub definition: String,
    /// The revision of the schema: `2026-07-28`, `2025-11-25`, or [`TASKS_REVISION`].
    pub revision: &'static str,
    /// Every violation, with its JSON pointer.
    pub violations: Vec<Violation>,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a valid {} (MCP {} schema):\n{}",
            self.definition,
            self.revision,
            describe(&self.violations)
        )
    }
}

impl std::error::Error for SpecError {}
