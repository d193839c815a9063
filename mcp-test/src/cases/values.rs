//! Values a user supplies for the arguments of the cases, by tool and JSON pointer: a real file
//! path, a time zone the server knows, an id that exists. They go into every valid case before
//! anything the schema or the generator offers ([`CaseOptions::values`]).
//!
//! The file form, `{"tool": {"/pointer": value}, "*": {"/pointer": value}}`, is read by
//! [`values_from_json`]; the command-line form, `TOOL:/pointer=VALUE`, by [`parse_assignment`];
//! [`check_values`] checks every value against the tools a server lists.
//!
//! ```
//! use mcp_test::cases::values::{parse_assignment, values_from_json};
//! use mcp_test::cases::{check_values, CaseOptions};
//! use serde_json::json;
//!
//! let mut options = CaseOptions::default();
//! options.values = values_from_json(&json!({"read_file": {"/path": "/etc/hostname"}})).unwrap();
//! let (tool, pointer, value) = parse_assignment("*:/tz=Europe/Paris").unwrap();
//! let options = options.value(tool, pointer, value);
//!
//! let tools = vec![json!({"name": "read_file", "inputSchema": {"type": "object",
//!     "properties": {"path": {"type": "string"}, "tz": {"type": "string"}}}})];
//! assert!(check_values(&tools, &options).is_empty());
//! ```

use super::CaseOptions;
use super::rules::{self, Failure};
use crate::schema::kind_of;
use crate::validation::join_pointer;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

// Defined with the rules, which find these errors while they put the values in place (and
// which this module runs to check the values): here, the rules would import back.
pub use super::rules::ValueError;

/// Values by tool (`"*"`: every tool) and JSON pointer into the arguments: the type of
/// [`CaseOptions::values`].
pub type Values = BTreeMap<String, BTreeMap<String, Value>>;

/// Checks every value of `options.values` against `tools` (a `tools/list` result's `tools`):
/// a value for a tool the list does not name, for a pointer the tool's input schema does not
/// declare, or that the schema rejects, is an error. A `"*"` value applies only to the tools
/// that declare its pointer, and must fit each of them. Empty when every value can be used.
pub fn check_values(tools: &[Value], options: &CaseOptions) -> Vec<ValueError> {
    let mut errors = Vec::new();
    let name = |t: &Value| {
        t.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let names: Vec<String> = tools.iter().map(name).collect();
    for (tool, values) in &options.values {
        if tool != "*"
            && !names.contains(tool)
            && let Some(pointer) = values.keys().next()
        {
            errors.push(ValueError {
                tool: tool.clone(),
                action: None,
                pointer: pointer.clone(),
                message: "is for a tool the server does not list".into(),
            });
        }
    }
    // One valid case per tool is enough to put every value in place.
    let quick = CaseOptions {
        edge_cases: false,
        ..options.clone()
    };
    for tool in tools {
        let schema = tool
            .get("inputSchema")
            .cloned()
            .unwrap_or(serde_json::json!({"type": "object"}));
        if let Err(Failure::Value(e)) = rules::derive(&name(tool), &schema, &quick) {
            errors.push(e);
        }
    }
    errors
}

/// Where a values document is malformed: the JSON pointer of the bad place, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at {}: {message}", if pointer.is_empty() { "the top" } else { pointer })]
pub struct ValuesFormatError {
    /// The JSON pointer into the document (`""`: the document itself).
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

/// Reads a values document: an object whose keys are tool names (or `"*"`, every tool) and
/// whose values are objects mapping JSON pointers into the arguments to the values to send.
///
/// ```
/// use mcp_test::cases::values::values_from_json;
/// use serde_json::json;
/// let values = values_from_json(&json!({"*": {"/tz": "UTC"}, "read_file": {"/path": "/tmp/x"}}))
///     .unwrap();
/// assert_eq!(values["read_file"]["/path"], "/tmp/x");
/// let e = values_from_json(&json!({"read_file": {"path": "/tmp/x"}})).unwrap_err();
/// assert_eq!(e.pointer, "/read_file/path");
/// assert_eq!(e.to_string(), "at /read_file/path: \"path\" is not a JSON pointer into the \
///     arguments: it must start with `/` (e.g. \"/path\")");
/// ```
pub fn values_from_json(doc: &Value) -> Result<Values, ValuesFormatError> {
    let tools = object(
        doc,
        "",
        "an object of tools, {\"tool\": {\"/pointer\": value}}",
    )?;
    let mut out = Values::new();
    for (tool, values) in tools {
        let at_tool = join_pointer("", tool);
        let values = object(
            values,
            &at_tool,
            "an object of JSON pointers to values, {\"/pointer\": value}",
        )?;
        let entry = out.entry(tool.clone()).or_default();
        for (pointer, value) in values {
            if !pointer.is_empty() && !pointer.starts_with('/') {
                return Err(ValuesFormatError {
                    pointer: join_pointer(&at_tool, pointer),
                    message: format!(
                        "{pointer:?} is not a JSON pointer into the arguments: it must start with `/` (e.g. \"/{pointer}\")"
                    ),
                });
            }
            entry.insert(pointer.clone(), value.clone());
        }
    }
    Ok(out)
}

/// `value` as an object; else the error at `pointer` that it is not the `expected` one.
fn object<'v>(
    value: &'v Value,
    pointer: &str,
    expected: &str,
) -> Result<&'v Map<String, Value>, ValuesFormatError> {
    value.as_object().ok_or_else(|| ValuesFormatError {
        pointer: pointer.to_owned(),
        message: format!("expected {expected}, got {}", kind_of(value)),
    })
}

/// Reads one `TOOL:/pointer=VALUE` assignment (the form of `mcp-test check --value`): the tool
/// (or `*`, every tool), a JSON pointer into the arguments, and the value, which is JSON when
/// it parses as JSON (`=42`, `=true`, `=["a"]`, `='"42"'`) and a string otherwise
/// (`=/tmp/notes.txt`, `=Europe/Paris`).
///
/// ```
/// use mcp_test::cases::values::parse_assignment;
/// use serde_json::json;
/// assert_eq!(parse_assignment("read_file:/path=/tmp/x").unwrap(),
///            ("read_file".into(), "/path".into(), json!("/tmp/x")));
/// assert_eq!(parse_assignment("*:/limit=5").unwrap(), ("*".into(), "/limit".into(), json!(5)));
/// assert_eq!(parse_assignment("t:/id=\"5\"").unwrap().2, json!("5"));
/// assert!(parse_assignment("read_file:path=/tmp/x").unwrap_err().contains("JSON pointer"));
/// ```
pub fn parse_assignment(text: &str) -> Result<(String, String, Value), String> {
    let form = "expected TOOL:/pointer=VALUE, e.g. read_file:/path=/tmp/notes.txt";
    let Some((tool, rest)) = text.split_once(':') else {
        return Err(format!("{text:?}: no `:` after the tool; {form}"));
    };
    if tool.is_empty() {
        return Err(format!("{text:?}: no tool before `:`; {form}"));
    }
    let Some((pointer, value)) = rest.split_once('=') else {
        return Err(format!("{text:?}: no `=` before the value; {form}"));
    };
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(format!(
            "{text:?}: {pointer:?} is not a JSON pointer into the arguments: it must start with `/`; {form}"
        ));
    }
    let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
    Ok((tool.to_owned(), pointer.to_owned(), value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_document_of_the_wrong_shape_is_named_where_and_what() {
        let e = values_from_json(&json!(["read_file"])).unwrap_err();
        assert_eq!(e.pointer, "");
        assert_eq!(
            e.message,
            "expected an object of tools, {\"tool\": {\"/pointer\": value}}, got an array"
        );
        let e = values_from_json(&json!({"*": {}, "read/file": "/tmp/x"})).unwrap_err();
        assert_eq!(e.pointer, "/read~1file");
        assert_eq!(
            e.message,
            "expected an object of JSON pointers to values, {\"/pointer\": value}, got a string"
        );
    }
}
