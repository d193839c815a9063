//! `lifecycle/initialize-result`: a 2025-era server answers `initialize` with its own
//! capabilities and information.
//!
//! How: it sends nothing. The connection made the `initialize` handshake before `check` ran,
//! and a target that kept its result hands it over (`Connection::handshake`); this probe
//! reads it: a `capabilities` object and a `serverInfo` with a string `name` and `version`
//! (2025-11-25's `InitializeResult` requires both) must be there. Anything else the schema
//! asks of the result is not this clause's. A target that kept no handshake result leaves
//! the probe skipped.
//!
//! Clause quoted: `legacy/lifecycle/initialize-result` (2025-11-25, MUST).

use crate::Shown;
use crate::checker::{Note, Out};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use serde_json::Value;

pub(crate) const ID: &str = "lifecycle/initialize-result";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        match &r.connection.handshake {
            None => {
                r.c.skip_probe(ID, "the target kept no InitializeResult of its handshake")
            }
            Some(result) => {
                let shown = Some(Shown {
                    method: "initialize".to_owned(),
                    id: None,
                });
                let out: Out = judge(result)
                    .into_iter()
                    .map(|n| n.on(shown.clone()))
                    .collect();
                r.c.push_probe(ID, out);
            }
        }
    })
}

/// What the `InitializeResult` lacks of the server's capabilities and information.
pub(crate) fn judge(result: &Value) -> Vec<Note> {
    let clause = &clauses::LEGACY_INITIALIZE_RESULT;
    let mut out = Vec::new();
    if !result.get("capabilities").is_some_and(Value::is_object) {
        out.push(Note::broke(
            clause,
            format!(
                "the InitializeResult has no `capabilities` object ({}): the server must respond with its own capabilities",
                result.get("capabilities").unwrap_or(&Value::Null)
            ),
        ));
    }
    let info = result.get("serverInfo");
    let named = info.is_some_and(|i| {
        i.get("name").is_some_and(Value::is_string)
            && i.get("version").is_some_and(Value::is_string)
    });
    if !named {
        out.push(Note::broke(
            clause,
            format!(
                "the InitializeResult has no `serverInfo` with a string name and version ({}): the server must respond with its own information",
                info.unwrap_or(&Value::Null)
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use serde_json::json;

    #[test]
    fn capabilities_and_server_info_are_enough() {
        let result = json!({"protocolVersion": "2025-11-25", "capabilities": {},
            "serverInfo": {"name": "s", "version": "1.0.0"}});
        assert!(judge(&result).is_empty());
    }

    #[test]
    fn either_missing_breaks_the_clause() {
        let result = json!({"protocolVersion": "2025-11-25",
            "serverInfo": {"name": "s"}});
        let found = judge(&result);
        assert_eq!(found.len(), 2);
        for note in &found {
            assert_eq!(note.severity, Severity::Defect);
            assert_eq!(note.clause, Some(clauses::LEGACY_INITIALIZE_RESULT));
            assert!(note.message.contains("must"), "{}", note.message);
        }
    }
}
