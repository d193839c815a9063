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
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// The bundled `schema.json` of revision 2026-07-28, as text.
pub const SCHEMA_JSON: &str = include_str!("../spec/schema-2026-07-28.json");

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::from_str(SCHEMA_JSON).expect("the bundled schema is JSON"))
}

/// The names of every definition in the schema (`$defs`), e.g. `CallToolResult`.
pub fn definitions() -> impl Iterator<Item = &'static str> {
    schema()["$defs"]
        .as_object()
        .expect("the bundled schema has $defs")
        .keys()
        .map(String::as_str)
}

fn validator(definition: &str) -> Result<Arc<SchemaValidator>, SpecError> {
    // Compiled validators are pure functions of the bundled schema, so one cache per process
    // is safe to share between tests.
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<SchemaValidator>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(v) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(definition)
    {
        return Ok(v.clone());
    }
    if schema()["$defs"].get(definition).is_none() {
        return Err(SpecError {
            definition: definition.to_owned(),
            violations: vec![Violation {
                pointer: String::new(),
                message: format!("the 2026-07-28 schema has no definition named {definition}"),
            }],
        });
    }
    let root = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": schema()["$defs"],
        "$ref": format!("#/$defs/{definition}"),
    });
    let compiled = Arc::new(SchemaValidator::new(&root).expect("the bundled schema compiles"));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(definition.to_owned(), compiled.clone());
    Ok(compiled)
}

/// Checks `instance` against the schema definition named `definition` (e.g. `"Tool"`).
pub fn check(definition: &str, instance: &Value) -> Result<(), SpecError> {
    let violations = validator(definition)?.violations(instance);
    if violations.is_empty() {
        Ok(())
    } else {
        Err(SpecError {
            definition: definition.to_owned(),
            violations,
        })
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
    /// Every violation, with its JSON pointer.
    pub violations: Vec<Violation>,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a valid {} (MCP 2026-07-28 schema):\n{}",
            self.definition,
            describe(&self.violations)
        )
    }
}

impl std::error::Error for SpecError {}
