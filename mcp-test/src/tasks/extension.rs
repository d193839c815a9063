//! The identity of the tasks extension: its key, whether a request declares it, and the
//! -32021 error when it does not. It imports nothing of the runtime: `subscriptions`, below the
//! context, reads it.

use crate::wire::{ClientCapabilities, ErrorObject};
use serde_json::json;

/// The extension's identifier, the key under `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Whether `caps` declares the tasks extension.
///
/// ```
/// use mcp_test::tasks::declared_in;
/// use mcp_test::wire::ClientCapabilities;
/// let caps: ClientCapabilities =
///     serde_json::from_value(serde_json::json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})).unwrap();
/// assert!(declared_in(&caps));
/// assert!(!declared_in(&ClientCapabilities::default()));
/// ```
pub fn declared_in(caps: &ClientCapabilities) -> bool {
    caps.extensions
        .as_ref()
        .is_some_and(|e| e.contains_key(EXTENSION))
}

/// The -32021 error naming the extension in `data.requiredCapabilities`.
pub(crate) fn missing_extension(what: &str) -> ErrorObject {
    ErrorObject::missing_client_capability(
        format!(
            "Missing required client capability: {what} needs the {EXTENSION} extension declared in this request's clientCapabilities.extensions"
        ),
        json!({ "extensions": { EXTENSION: {} } }),
    )
}
