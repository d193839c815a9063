//! The spec's rule for tool names, for `#[derive(Tool)]`'s compile-time check: a copy of the
//! code of `mcp_test::wire::tool_name`, which owns the rule and quotes the spec's words (a
//! proc-macro crate cannot depend on mcp-test). Nothing else goes in this file and it imports
//! only std, so `tests/tests/tool_name_rule.rs` can include it and hold it to the same verdicts,
//! and the same code, as the original; change both together.

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
