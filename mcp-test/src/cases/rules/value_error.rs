//! A value the user gave for a tool that its input schema rejects ([`ValueError`]).

use std::fmt;

/// A supplied value that cannot be used: what it was given for, and why.
///
/// ```
/// use mcp_test::cases::{check_values, CaseOptions};
/// use serde_json::json;
/// let tools = vec![json!({"name": "read_file", "inputSchema": {"type": "object",
///     "properties": {"path": {"type": "string", "minLength": 1}}}})];
/// let options = CaseOptions::default().value("read_file", "/path", json!(""));
/// let errors = check_values(&tools, &options);
/// assert_eq!(errors[0].pointer, "/path");
/// assert_eq!(
///     errors[0].to_string(),
///     "tool \"read_file\": the value given for `/path` (\"\") does not fit the input schema:\n\
///      - /path: \"\" is shorter than 1 character"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ValueError {
    /// The tool (`"*"` for a value given for every tool).
    pub tool: String,
    /// The action of an action tool whose schema rejects the value, if it is one action's.
    pub action: Option<String>,
    /// The JSON pointer the value was given for.
    pub pointer: String,
    /// Why it cannot be used, following "the value given for `pointer`".
    pub message: String,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool {:?}", self.tool)?;
        if let Some(action) = &self.action {
            write!(f, ", action {action:?}")?;
        }
        write!(
            f,
            ": the value given for `{}` {}",
            self.pointer, self.message
        )
    }
}

impl std::error::Error for ValueError {}
