//! JSON Schema validation with error messages that name the failing JSON pointer.
//!
//! Wraps the `jsonschema` crate: a [`SchemaValidator`] is compiled once (the server compiles one
//! per tool at build time) and checks many instances.

use serde_json::Value;
use std::fmt;

/// A compiled JSON Schema (2020-12 unless the schema's `$schema` says otherwise), with `format`
/// assertions on.
///
/// ```
/// use mcp_test::validation::SchemaValidator;
/// use serde_json::json;
///
/// let v = SchemaValidator::new(&json!({
///     "type": "object",
///     "properties": {"a": {"type": "integer"}},
///     "required": ["a", "b"],
///     "additionalProperties": false
/// })).unwrap();
/// let errors = v.violations(&json!({"a": "x", "c": 1}));
/// let pointers: Vec<_> = errors.iter().map(|e| e.pointer.as_str()).collect();
/// assert_eq!(pointers, ["/a", "/b", "/c"]);
/// ```
pub struct SchemaValidator {
    validator: jsonschema::Validator,
}

/// Why a JSON Schema does not compile: the compiler's message, and where in the schema when it
/// says (`... (at /properties/a)`).
///
/// ```
/// use mcp_test::validation::SchemaValidator;
/// let e = SchemaValidator::new(&serde_json::json!({"type": 5})).unwrap_err();
/// assert!(e.to_string().contains("is not valid"), "{e}");
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SchemaError {
    message: String,
    #[source]
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl SchemaValidator {
    /// Compiles `schema`. The error names what is wrong with it.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        Self::build(schema, None)
    }

    /// [`SchemaValidator::new`], sharing compiled `pattern`s with the other validators built
    /// with `patterns`: the schemas of one server repeat their patterns.
    #[cfg(feature = "cases")]
    pub(crate) fn with_patterns(
        schema: &Value,
        patterns: &jsonschema::PatternCache,
    ) -> Result<Self, SchemaError> {
        Self::build(schema, Some(patterns))
    }

    fn build(
        schema: &Value,
        patterns: Option<&jsonschema::PatternCache>,
    ) -> Result<Self, SchemaError> {
        let mut options = jsonschema::options().should_validate_formats(true);
        if let Some(patterns) = patterns {
            options = options.with_pattern_cache(patterns.clone());
        }
        let validator = options.build(schema).map_err(|e| {
            let at = e.instance_path().as_str();
            let message = if at.is_empty() {
                e.to_string()
            } else {
                format!("{e} (at {at})")
            };
            SchemaError {
                message,
                source: Box::new(e),
            }
        })?;
        Ok(SchemaValidator { validator })
    }

    /// Whether `instance` is valid.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// Every violation in `instance`, sorted by pointer.
    ///
    /// A missing required property, or a property `additionalProperties: false` forbids, is
    /// reported at the pointer of that property rather than its parent object.
    pub fn violations(&self, instance: &Value) -> Vec<Violation> {
        // The common case: `is_valid` short-circuits and builds no errors, several times cheaper
        // than walking `iter_errors` to find none.
        if self.validator.is_valid(instance) {
            return Vec::new();
        }
        let mut out: Vec<Violation> = Vec::new();
        for error in self.validator.iter_errors(instance) {
            let base = error.instance_path().as_str().to_owned();
            match error.kind() {
                jsonschema::error::ValidationErrorKind::Required { property } => {
                    let name = property
                        .as_str()
                        .map_or_else(|| property.to_string(), str::to_owned);
                    out.push(Violation {
                        pointer: join_pointer(&base, &name),
                        message: "missing required property".to_owned(),
                    });
                }
                jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } => {
                    for name in unexpected {
                        out.push(Violation {
                            pointer: join_pointer(&base, name),
                            message: "unknown property (additionalProperties is false)".to_owned(),
                        });
                    }
                }
                // jsonschema abbreviates long enums ("or 2 other candidates"); name every
                // allowed value so the caller can correct itself (e.g. an unknown action).
                jsonschema::error::ValidationErrorKind::Enum { options } => {
                    let allowed = match &**options {
                        Value::Array(values) => values
                            .iter()
                            .map(Value::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                        other => other.to_string(),
                    };
                    out.push(Violation {
                        pointer: base,
                        message: format!(
                            "{} is not one of: {allowed}",
                            elide(&error.instance().to_string())
                        ),
                    });
                }
                _ => out.push(Violation {
                    pointer: base,
                    message: elide(&error.to_string()),
                }),
            }
        }
        out.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        out.dedup();
        out
    }
}

impl fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SchemaValidator").finish_non_exhaustive()
    }
}

/// One schema violation: where (a JSON pointer into the instance; `""` is the root) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer (RFC 6901) of the offending value.
    pub pointer: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.message)
    }
}

/// The longest violation message kept whole. Messages quote the offending value, which may be
/// a hostile megabyte string: past this, the middle is elided so errors stay readable and
/// small.
const MAX_MESSAGE: usize = 300;

fn elide(message: &str) -> String {
    if message.len() <= MAX_MESSAGE {
        return message.to_owned();
    }
    let head_end = floor_char_boundary(message, 200);
    let tail_start = floor_char_boundary(message, message.len() - 80);
    format!(
        "{} [... {} bytes elided ...] {}",
        &message[..head_end],
        tail_start - head_end,
        &message[tail_start..]
    )
}

fn floor_char_boundary(s: &str, mut at: usize) -> usize {
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Renders violations one per line, each prefixed by `- `.
pub fn describe(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(|v| format!("- {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Appends one reference token to a JSON pointer, escaping `~` and `/` per RFC 6901.
///
/// ```
/// assert_eq!(mcp_test::validation::join_pointer("/data", "a/b~c"), "/data/a~1b~0c");
/// ```
pub fn join_pointer(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + 1 + token.len());
    out.push_str(base);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// One reference token of a JSON pointer, unescaped per RFC 6901 (`~1` is `/`, `~0` is `~`):
/// the inverse of [`join_pointer`]'s escaping, borrowed when the token has no `~`.
pub(crate) fn unescape_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_values_are_elided_in_messages() {
        let v =
            SchemaValidator::new(&serde_json::json!({"type": "string", "maxLength": 3})).unwrap();
        let errors = v.violations(&Value::from("é".repeat(10_000)));
        assert_eq!(errors.len(), 1);
        let message = &errors[0].message;
        assert!(message.len() < MAX_MESSAGE + 100, "{} bytes", message.len());
        assert!(message.contains("bytes elided"));
        assert!(
            message.ends_with("is longer than 3 characters"),
            "{message}"
        );
    }
}
