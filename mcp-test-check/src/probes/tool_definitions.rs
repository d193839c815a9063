//! `tools/definitions-and-unknown-tool` and `tools/names-and-headers`: the tools listed, as
//! definitions, and a call of a tool that does not exist.
//!
//! - Each listed tool must match the era's `Tool` schema, with an `outputSchema` (if any) that
//!   is a valid JSON Schema; an unknown tool is a protocol error: a successful result breaks
//!   `tools/unknown-tool-error` (MUST NOT, [`unknown_tool`]); `isError: true` is noted, and the
//!   error code is not judged (the spec gives -32602 as an example only).
//! - Each name is held to its length and characters, and the `x-mcp-header` annotations of its
//!   input schema to theirs: on a primitive, statically reachable property, with a token value
//!   unique in the schema ([`definition_notes`], a pure function tested below).
//!
//! Then the row narrows the tools to those `check` may call (`crate::callable_tools`).
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`SCHEMA`](clauses::SCHEMA),
//! [`SCHEMA_VALID`](clauses::SCHEMA_VALID),
//! [`TOOL_NAME_CHARACTERS`](clauses::TOOL_NAME_CHARACTERS),
//! [`TOOL_NAME_LENGTH`](clauses::TOOL_NAME_LENGTH),
//! [`TOOLS_UNKNOWN_TOOL`](clauses::TOOLS_UNKNOWN_TOOL),
//! [`X_MCP_HEADER_NOT_EMPTY`](clauses::X_MCP_HEADER_NOT_EMPTY),
//! [`X_MCP_HEADER_NO_CONTROL`](clauses::X_MCP_HEADER_NO_CONTROL),
//! [`X_MCP_HEADER_PRIMITIVE`](clauses::X_MCP_HEADER_PRIMITIVE),
//! [`X_MCP_HEADER_REACHABLE`](clauses::X_MCP_HEADER_REACHABLE),
//! [`X_MCP_HEADER_TOKEN`](clauses::X_MCP_HEADER_TOKEN),
//! [`X_MCP_HEADER_UNIQUE`](clauses::X_MCP_HEADER_UNIQUE).

use crate::checker::{Checker, Note, Out};
use crate::run::{Run, declares_extension};
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::{Era, Happened};
use mcp_test::spec;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::validation::SchemaValidator;
use mcp_test::wire::error_codes::INVALID_PARAMS;
use mcp_test::wire::tool_name;
use serde_json::{Value, json};

/// The probe of the definitions, and of an unknown tool.
pub(crate) const DEFINITIONS: &str = "tools/definitions-and-unknown-tool";
/// The probe of tool names and `x-mcp-header` annotations.
pub(crate) const NAMES_AND_HEADERS: &str = "tools/names-and-headers";

/// The row: both probes, then the tools `check` may call.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        tool_definitions(&mut r.c, &r.tools).await;
        // From here on `tools` are the tools `check` may call.
        let tasks_declared = r.c.era == Era::Current
            && declares_extension(r.declared.as_ref(), mcp_test::tasks::EXTENSION);
        let listed = std::mem::take(&mut r.tools);
        let (tools, task_only, consent) = crate::callable_tools(listed, r.options, tasks_declared);
        r.tools = tools;
        r.task_only = task_only;
        r.listed_tools = consent;
    })
}

/// Records [`DEFINITIONS`], then [`NAMES_AND_HEADERS`].
pub(crate) async fn tool_definitions(c: &mut Checker<'_>, tools: &[Value]) {
    let mut out = Vec::new();
    for tool in tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        if let Err(e) = spec::check_in(c.era, "Tool", tool) {
            out.push(c.broke(&clauses::SCHEMA, format!("tool {name:?}: {e}")));
        }
        if let Some(schema) = tool.get("outputSchema")
            && let Err(e) = SchemaValidator::new(schema)
        {
            out.push(c.broke(
                &clauses::SCHEMA_VALID,
                format!("tool {name:?}: outputSchema is not a valid JSON Schema: {e}"),
            ));
        }
    }
    let name = unlisted_name(tools);
    let params = json!({"name": name, "arguments": {}});
    if let Some(r) = c.req("tools/call", params, &mut out).await {
        out.extend(unknown_tool(c.era, &name, &r).map(|n| n.on(c.last.clone())));
    }
    c.push_probe(DEFINITIONS, out);
    names_and_headers(c, tools);
}

/// A tool name no listed tool has, ignoring case: `mcp-test-no-such-tool`, lengthened until
/// it is unlisted, so the unknown-tool call can reach no tool the check may not call.
fn unlisted_name(tools: &[Value]) -> String {
    let mut name = "mcp-test-no-such-tool".to_owned();
    while tools.iter().any(|t| {
        t.get("name")
            .and_then(Value::as_str)
            .is_some_and(|n| n.eq_ignore_ascii_case(&name))
    }) {
        name.push_str("-x");
    }
    name
}

/// What the answer to a `tools/call` of a tool that does not exist shows.
///
/// server/tools.mdx §Error Handling lists an unknown tool among the protocol errors, returned
/// as JSON-RPC errors (its example: -32602), and JSON-RPC 2.0 (a MUST of MCP) says a result
/// must not exist when invoking the method failed: a successful result breaks
/// `tools/unknown-tool-error` (MUST NOT). Another error code is fine (the code is an example);
/// `isError: true` reports the error, in the other mechanism (some SDKs do so): a note.
pub(crate) fn unknown_tool(era: Era, name: &str, r: &Value) -> Option<Note> {
    match Happened::from_response(r) {
        Happened::RpcError { .. } => None,
        Happened::ToolError { .. } => Some(Note::info(format!(
            "an unknown tool answered isError: true, a tool execution error; server/tools.mdx §Error Handling lists an unknown tool among the protocol errors, returned as JSON-RPC errors (its example: {INVALID_PARAMS})"
        ))),
        Happened::Success { .. } => Some(Note::broke_in(
            era,
            &clauses::TOOLS_UNKNOWN_TOOL,
            format!(
                "calling the unknown tool {name:?} answered a successful result: an unknown tool is a protocol error, returned as a JSON-RPC error, and a result must not exist when invoking the method failed; got {}",
                crate::checker::brief(r)
            ),
        )),
        other => Some(Note::info(format!(
            "calling an unknown tool answered {other}; server/tools.mdx §Error Handling lists it among the protocol errors, returned as JSON-RPC errors (its example: {INVALID_PARAMS})"
        ))),
    }
}

/// `tools/names-and-headers`: each listed tool's name (server/tools.mdx §Tool Names) and
/// the `x-mcp-header` annotations of its input schema (§x-mcp-header).
pub(crate) fn names_and_headers(c: &mut Checker<'_>, tools: &[Value]) {
    let era = c.era;
    let out: Out = tools
        .iter()
        .flat_map(definition_notes)
        .map(|f| f.into_note(era))
        .collect();
    c.push_probe(NAMES_AND_HEADERS, out);
}

/// One finding about a listed definition or an answer, before it is quoted in an era: the
/// 2026-07-28 clause it breaks, or none for a note.
#[derive(Debug, PartialEq)]
pub(crate) struct Found {
    clause: Option<&'static Clause>,
    message: String,
}

impl Found {
    fn broke(clause: &'static Clause, message: String) -> Self {
        Found {
            clause: Some(clause),
            message,
        }
    }

    fn info(message: String) -> Self {
        Found {
            clause: None,
            message,
        }
    }

    fn into_note(self, era: Era) -> Note {
        match self.clause {
            Some(clause) => Note::broke_in(era, clause, self.message),
            None => Note::info(self.message),
        }
    }
}

/// What is wrong with one listed tool's name and its `x-mcp-header` annotations.
pub(crate) fn definition_notes(tool: &Value) -> Vec<Found> {
    let mut found = Vec::new();
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    // The rule is the library's (`wire::tool_name`); both of its parts are reported here, each
    // under its own clause, where the library's `check` stops at the first.
    let length = name.chars().count();
    if !(tool_name::MIN_CHARS..=tool_name::MAX_CHARS).contains(&length) {
        found.push(Found::broke(
            &clauses::TOOL_NAME_LENGTH,
            format!(
                "tool name {name:?} is {length} characters long, not {} to {}",
                tool_name::MIN_CHARS,
                tool_name::MAX_CHARS
            ),
        ));
    }
    let odd: String = name
        .chars()
        .filter(|&c| !tool_name::is_allowed(c))
        .collect();
    if !odd.is_empty() {
        found.push(Found::broke(
            &clauses::TOOL_NAME_CHARACTERS,
            format!(
                "tool name {name:?} has characters outside {}: {odd:?}",
                tool_name::ALLOWED
            ),
        ));
    }
    let Some(schema) = tool.get("inputSchema") else {
        return found;
    };
    let mut headers = Vec::new();
    annotations(schema, true, true, String::new(), &mut headers);
    let mut seen: Vec<String> = Vec::new();
    for h in headers {
        let at = if h.pointer.is_empty() {
            "the schema root".to_owned()
        } else {
            h.pointer.clone()
        };
        let what = format!("tool {name:?}: the x-mcp-header at {at}");
        match h.value.as_str() {
            None => found.push(Found::broke(
                &clauses::X_MCP_HEADER_TOKEN,
                format!("{what} is {}, not a header name", h.value),
            )),
            Some("") => found.push(Found::broke(
                &clauses::X_MCP_HEADER_NOT_EMPTY,
                format!("{what} is empty"),
            )),
            Some(value) => {
                if value.chars().any(char::is_control) {
                    found.push(Found::broke(
                        &clauses::X_MCP_HEADER_NO_CONTROL,
                        format!("{what} ({value:?}) has control characters"),
                    ));
                }
                if !value.chars().all(is_tchar) {
                    found.push(Found::broke(
                        &clauses::X_MCP_HEADER_TOKEN,
                        format!("{what} ({value:?}) is not an HTTP field-name token (1*tchar)"),
                    ));
                }
                let folded = value.to_ascii_lowercase();
                if seen.contains(&folded) {
                    found.push(Found::broke(
                        &clauses::X_MCP_HEADER_UNIQUE,
                        format!(
                            "tool {name:?}: x-mcp-header {value:?} is used more than once (case-insensitively) in the input schema"
                        ),
                    ));
                } else {
                    seen.push(folded);
                }
            }
        }
        if !h.reachable {
            found.push(Found::broke(
                &clauses::X_MCP_HEADER_REACHABLE,
                format!(
                    "{what} is not on a property reached from the root through `properties` alone"
                ),
            ));
        } else {
            match primitive(h.schema) {
                Ok(()) => {}
                Err(Some(kind)) => found.push(Found::broke(
                    &clauses::X_MCP_HEADER_PRIMITIVE,
                    format!("{what} is on a property of type {kind}, not integer, string or boolean"),
                )),
                Err(None) => found.push(Found::info(format!(
                    "{what} is on a property whose `type` does not say it is an integer, a string or a boolean ({}); x-mcp-header MUST only be applied to those",
                    h.schema.get("type").unwrap_or(&Value::Null)
                ))),
            }
        }
    }
    found
}

/// One `x-mcp-header` annotation found in a schema.
struct Header<'s> {
    pointer: String,
    value: &'s Value,
    reachable: bool,
    schema: &'s Value,
}

/// The keywords whose value is one subschema, a map of them, or an array of them.
const ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];

const MAP: &[&str] = &[
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

const ARRAY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Every `x-mcp-header` in `schema`, walking only the places a subschema can be (so a
/// `default`, `const` or `examples` value, or a property merely named `x-mcp-header`, is not
/// taken for one). `reachable`: reached from the root through `properties` alone; the root
/// itself is no property.
fn annotations<'s>(
    schema: &'s Value,
    reachable: bool,
    root: bool,
    pointer: String,
    out: &mut Vec<Header<'s>>,
) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(value) = object.get("x-mcp-header") {
        out.push(Header {
            pointer: pointer.clone(),
            value,
            reachable: reachable && !root,
            schema,
        });
    }
    let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (k, sub) in properties {
            let at = format!("{pointer}/properties/{}", escape(k));
            annotations(sub, reachable, false, at, out);
        }
    }
    for key in ONE {
        if let Some(sub) = object.get(*key).filter(|s| s.is_object()) {
            annotations(sub, false, false, format!("{pointer}/{key}"), out);
        }
    }
    for key in MAP {
        if let Some(map) = object.get(*key).and_then(Value::as_object) {
            for (k, sub) in map {
                let at = format!("{pointer}/{key}/{}", escape(k));
                annotations(sub, false, false, at, out);
            }
        }
    }
    for key in ARRAY {
        if let Some(items) = object.get(*key).and_then(Value::as_array) {
            for (i, sub) in items.iter().enumerate() {
                annotations(sub, false, false, format!("{pointer}/{key}/{i}"), out);
            }
        }
    }
}

/// Whether a property's schema is of a primitive type (integer, string, boolean): `Err(Some)`
/// names a type that is not, `Err(None)` when its `type` does not tell.
fn primitive(schema: &Value) -> Result<(), Option<String>> {
    let allowed = |t: &str| matches!(t, "integer" | "string" | "boolean");
    let wrong = |t: &str| matches!(t, "number" | "object" | "array");
    match schema.get("type") {
        Some(Value::String(t)) if allowed(t) => Ok(()),
        Some(Value::String(t)) if wrong(t) => Err(Some(t.clone())),
        Some(Value::Array(types)) => {
            let types: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            if let Some(t) = types.iter().find(|t| wrong(t)) {
                Err(Some((*t).to_owned()))
            } else if !types.is_empty() && types.iter().all(|t| allowed(t)) {
                Ok(())
            } else {
                Err(None)
            }
        }
        _ => Err(None),
    }
}

/// RFC 9110 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_tool_answered_with_success_breaks_the_protocol_error_rule() {
        let ok = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
            "content": [{"type": "text", "text": "done"}]}});
        let note = unknown_tool(Era::Current, "mcp-test-no-such-tool", &ok).expect("a finding");
        assert_eq!(note.clause, Some(clauses::TOOLS_UNKNOWN_TOOL));
        assert_eq!(note.severity, crate::Severity::Defect);
        assert!(note.message.contains("must not"), "{}", note.message);
        let note = unknown_tool(Era::Legacy, "mcp-test-no-such-tool", &ok).expect("a finding");
        assert_eq!(note.clause, Some(clauses::LEGACY_TOOLS_UNKNOWN_TOOL));
        // Any JSON-RPC error is a protocol error; isError: true is noted.
        for code in [-32602, -32601, -32603] {
            let error =
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "no"}});
            assert!(unknown_tool(Era::Current, "mcp-test-no-such-tool", &error).is_none());
        }
        let tool_error = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
            "isError": true, "content": [{"type": "text", "text": "no such tool"}]}});
        let note =
            unknown_tool(Era::Current, "mcp-test-no-such-tool", &tool_error).expect("a note");
        assert_eq!(note.severity, crate::Severity::Info);
    }

    fn clauses_of(tool: Value) -> Vec<Option<&'static str>> {
        definition_notes(&tool)
            .into_iter()
            .map(|f| f.clause.map(|c| c.id))
            .collect()
    }

    #[test]
    fn the_unknown_tool_called_is_never_a_listed_one() {
        assert_eq!(unlisted_name(&[]), "mcp-test-no-such-tool");
        let listed = [
            json!({"name": "MCP-TEST-NO-SUCH-TOOL"}),
            json!({"name": "mcp-test-no-such-tool-x"}),
        ];
        assert_eq!(unlisted_name(&listed), "mcp-test-no-such-tool-x-x");
    }

    #[test]
    fn tool_names_are_held_to_length_and_characters() {
        assert!(clauses_of(json!({"name": "admin.tools.list_v2-x"})).is_empty());
        assert_eq!(clauses_of(json!({"name": ""})), [Some("tools/name-length")]);
        assert_eq!(
            clauses_of(json!({"name": "a".repeat(129)})),
            [Some("tools/name-length")]
        );
        assert_eq!(
            clauses_of(json!({"name": "get user"})),
            [Some("tools/name-characters")]
        );
        assert_eq!(
            clauses_of(json!({"name": "ns/tool"})),
            [Some("tools/name-characters")]
        );
    }

    fn schema(properties: Value) -> Value {
        json!({"name": "t", "inputSchema": {"type": "object", "properties": properties}})
    }

    #[test]
    fn x_mcp_header_on_the_right_properties_is_fine() {
        let tool = schema(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "flag": {"type": ["boolean"], "x-mcp-header": "Flag"},
            "nested": {"type": "object", "properties": {
                "id": {"type": "string", "x-mcp-header": "Id"}}},
            "x-mcp-header": {"type": "string"},
            "d": {"type": "object", "default": {"x-mcp-header": "not a schema"}}
        }));
        assert!(clauses_of(tool).is_empty());
    }

    #[test]
    fn x_mcp_header_on_a_number_is_a_defect() {
        let tool = schema(json!({"amount": {"type": "number", "x-mcp-header": "Amount"}}));
        assert_eq!(clauses_of(tool), [Some("tools/x-mcp-header-primitive")]);
        let tool = schema(json!({"v": {"type": ["string", "number"], "x-mcp-header": "V"}}));
        assert_eq!(clauses_of(tool), [Some("tools/x-mcp-header-primitive")]);
        // No `type`: it cannot be told, so only a note.
        let tool = schema(json!({"v": {"enum": ["a"], "x-mcp-header": "V"}}));
        assert_eq!(clauses_of(tool), [None]);
    }

    #[test]
    fn x_mcp_header_values_are_tokens_unique_and_not_empty() {
        let tool = schema(json!({
            "a": {"type": "string", "x-mcp-header": ""},
            "b": {"type": "string", "x-mcp-header": "Has Space"},
            "c": {"type": "string", "x-mcp-header": "Line\r\nX"},
            "d": {"type": "string", "x-mcp-header": "Same"},
            "e": {"type": "string", "x-mcp-header": "same"}
        }));
        assert_eq!(
            clauses_of(tool),
            [
                Some("tools/x-mcp-header-not-empty"),
                Some("tools/x-mcp-header-token"),
                Some("tools/x-mcp-header-no-control"),
                Some("tools/x-mcp-header-token"),
                Some("tools/x-mcp-header-unique"),
            ]
        );
    }

    #[test]
    fn x_mcp_header_must_be_statically_reachable() {
        let tool = json!({"name": "t", "inputSchema": {
            "type": "object",
            "properties": {"list": {"type": "array", "items": {
                "type": "string", "x-mcp-header": "Item"}}},
            "anyOf": [{"properties": {"k": {"type": "string", "x-mcp-header": "K"}}}],
            "$defs": {"r": {"type": "string", "x-mcp-header": "R"}}
        }});
        assert_eq!(clauses_of(tool), [Some("tools/x-mcp-header-reachable"); 3]);
        let root = json!({"name": "t", "inputSchema": {"type": "object", "x-mcp-header": "Root"}});
        assert_eq!(clauses_of(root), [Some("tools/x-mcp-header-reachable")]);
    }
}
