//! The spec's rule for tool names, in one place: [`check`].
//!
//! MCP 2026-07-28, §7 Tools, "The `Tool` object": "Names SHOULD be 1–128 characters from
//! `[A-Za-z0-9_.-]`, case-sensitive and unique per server." Its source, `server/tools.mdx`
//! ("Tool Names"), words the two parts as "Tool names SHOULD be between 1 and 128 characters in
//! length (inclusive)" and "The following SHOULD be the only allowed characters: uppercase and
//! lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)".
//!
//! The spec counts characters, so [`check`] does. Every allowed character is one byte, so a
//! name that passes has as many bytes as characters; counting characters decides only which
//! problem a non-ASCII name is reported with: 100 `é` are 100 characters (200 bytes), and
//! their problem is the `é`, not the length. Uniqueness is the server's to check, and case
//! sensitivity is a matter of comparing names, not of the name itself.
//!
//! A server built here refuses a tool whose name breaks the rule
//! ([`BuildError::InvalidToolName`](crate::BuildError::InvalidToolName)), although the spec
//! says SHOULD: a name that other clients may refuse is a bug to fix before serving it.
//! `#[derive(Tool)]` checks the same rule at compile time with a copy of this file's code
//! (`mcp-test-macros/src/tool_name.rs`: a proc-macro crate cannot depend on this one);
//! `tests/tests/tool_name_rule.rs` holds the two to the same verdicts and the same code.
//!
//! ```
//! use mcp_test::wire::tool_name::{ToolNameError, check};
//!
//! assert_eq!(check("get_weather.v2"), Ok(()));
//! assert_eq!(check(""), Err(ToolNameError::Length { chars: 0 }));
//! let error = check("add numbers").unwrap_err();
//! assert_eq!(error, ToolNameError::Character { character: ' ', offset: 3 });
//! assert_eq!(error.to_string(), "' ' is not one of [A-Za-z0-9_.-]");
//! ```

use std::fmt;

/// The fewest characters a tool name has.
pub const MIN_CHARS: usize = 1;

/// The most characters a tool name has.
pub const MAX_CHARS: usize = 128;

/// The characters a tool name may hold, as the messages write them.
pub const ALLOWED: &str = "[A-Za-z0-9_.-]";

/// Whether `c` may appear in a tool name: an ASCII letter or digit, `_`, `.` or `-`.
pub fn is_allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// Checks `name` against the spec's tool-name rule: 1 to 128 characters (counted as `char`s,
/// not bytes), each an ASCII letter or digit, `_`, `.` or `-`. The length is checked first;
/// within the length, the first character outside the set is reported.
pub fn check(name: &str) -> Result<(), ToolNameError> {
    let chars = name.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&chars) {
        return Err(ToolNameError::Length { chars });
    }
    match name.char_indices().find(|&(_, c)| !is_allowed(c)) {
        Some((offset, character)) => Err(ToolNameError::Character { character, offset }),
        None => Ok(()),
    }
}

/// Why a name breaks the tool-name rule. Its `Display` says what is wrong, to follow
/// "invalid tool name `...`: ".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolNameError {
    /// The name is empty, or longer than [`MAX_CHARS`] characters.
    Length {
        /// How many characters (`char`s) it has.
        chars: usize,
    },
    /// The name holds a character outside `[A-Za-z0-9_.-]`; the first one is reported.
    Character {
        /// The character.
        character: char,
        /// The byte offset in the name where it starts.
        offset: usize,
    },
}

impl fmt::Display for ToolNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolNameError::Length { chars } => write!(
                f,
                "must be {MIN_CHARS} to {MAX_CHARS} characters long, is {chars}"
            ),
            ToolNameError::Character { character, .. } => {
                write!(f, "{character:?} is not one of {ALLOWED}")
            }
        }
    }
}

impl std::error::Error for ToolNameError {}
