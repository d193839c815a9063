//! Why a server could not be built, and the build-time check every kind of the catalog shares.

use crate::authorization::Access;
use crate::wire::{CacheHint, CacheScope};

/// Why a server could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// Two tools share a name.
    #[error("two tools are named `{0}`: tool names must be unique")]
    DuplicateTool(String),
    /// A tool name breaks the spec's naming rule.
    #[error("invalid tool name `{name}`: {reason}")]
    InvalidToolName {
        /// The name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A tool's input or output schema is not a usable JSON Schema.
    #[error("tool `{tool}` has an invalid {which}: {reason}")]
    InvalidSchema {
        /// The tool.
        tool: String,
        /// `inputSchema` or `outputSchema`.
        which: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The page size is zero.
    #[error("the page size must be at least 1")]
    ZeroPageSize,
    /// `ServerBuilder::eras` was given no era.
    #[error("the server must serve at least one era: ServerBuilder::eras got an empty list")]
    NoEra,
    /// The `requestState` key is shorter than 32 bytes.
    #[error("the requestState key must be at least 32 bytes long, is {0}")]
    ShortRequestStateKey(usize),
    /// Two resources share a URI, two resource templates a template, or two prompts a name.
    #[error(
        "two {kind}s are registered as `{key}`: URIs, URI templates and prompt names must be unique"
    )]
    DuplicateDefinition {
        /// `resource`, `resource template` or `prompt`.
        kind: &'static str,
        /// The shared URI, template or name.
        key: String,
    },
    /// A tool, resource, resource template or prompt cannot be served as declared.
    #[error("{kind} `{key}`: {reason}")]
    InvalidDefinition {
        /// `tool`, `resource`, `resource template` or `prompt`.
        kind: &'static str,
        /// Its name, URI or template.
        key: String,
        /// What is wrong.
        reason: String,
    },
}

pub(super) fn invalid(kind: &'static str, key: &str, reason: impl Into<String>) -> BuildError {
    BuildError::InvalidDefinition {
        kind,
        key: key.to_owned(),
        reason: reason.into(),
    }
}

/// A restricted definition, or a list holding one, must not be cached for everyone.
pub(crate) fn check_cache_scope(
    kind: &'static str,
    key: &str,
    what: &str,
    hint: CacheHint,
    access: &Access,
) -> Result<(), BuildError> {
    if hint.cache_scope == CacheScope::Public && !access.is_public() {
        return Err(invalid(
            kind,
            key,
            format!(
                "it is restricted by authorization, so {what} must not be cached with cacheScope \"public\" (a shared cache would serve it to callers who may not see it)"
            ),
        ));
    }
    Ok(())
}
