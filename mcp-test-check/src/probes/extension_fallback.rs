//! `versioning/extension-fallback`: an extension the server supports and the client does not
//! is either left out (core behavior) or refused with an error.
//!
//! How: for the one extension this checker knows the methods of, the tasks extension
//! (`io.modelcontextprotocol/tasks`), declared by the server, it sends `tasks/get` for a made-up
//! task id from a client that declares no extension. A core server knows no `tasks/get`
//! (-32601), and a server that refuses the request answers an error: any JSON-RPC error keeps
//! the clause, a result breaks it. Which error the tasks extension asks for (-32021) is the
//! `tasks/undeclared` probe's to judge (`tasks/undeclared-methods`), with another task id.
//! `tasks/get` of a task that does not exist changes nothing.
//!
//! Clause quoted: `versioning/extension-fallback` (2026-07-28, MUST).

use crate::Shown;
use crate::checker::{Checker, Note, Out, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::tasks::EXTENSION;
use serde_json::{Value, json};

pub(crate) const ID: &str = "versioning/extension-fallback";

/// The made-up task id, distinct from the tasks probes' own.
pub(crate) const TASK_ID: &str = "mcp-test-check-fallback";

const METHOD: &str = "tasks/get";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let out = probe(&mut r.c).await;
        r.c.push_probe(ID, out);
    })
}

async fn probe(c: &mut Checker<'_>) -> Out {
    let mut out = Vec::new();
    // No extension declared: the client capabilities are empty.
    let params = json!({"taskId": TASK_ID,
        "_meta": {"io.modelcontextprotocol/clientCapabilities": {}}});
    let (id, body) = c.session.body(METHOD, params);
    // Not kept for the results probe: an extension's result is not in the core schema.
    if let Some(r) = c.send_unkept(METHOD, id, body, &mut out).await {
        out.extend(judge(&r).into_iter().map(|n| {
            n.on(Some(Shown {
                method: METHOD.to_owned(),
                id: Some(id),
            }))
        }));
    }
    out
}

/// What the answer to `tasks/get` from a client without the extension shows.
pub(crate) fn judge(response: &Value) -> Option<Note> {
    if response.get("error").is_some() {
        return None;
    }
    Some(Note::broke(
        &clauses::EXTENSION_FALLBACK,
        format!(
            "{METHOD} from a client that does not declare {EXTENSION}, which the server declares, answered {}: a server must either revert to core behavior (in which {METHOD} is no method) or reject the request with an error",
            brief(response),
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn any_error_keeps_the_clause() {
        for code in [-32601, -32021, -32602] {
            let r = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "no"}});
            assert!(judge(&r).is_none());
        }
    }

    #[test]
    fn a_result_breaks_it() {
        let r = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}});
        let note = judge(&r).expect("a finding");
        assert_eq!(note.severity, Severity::Defect);
        assert_eq!(note.clause, Some(clauses::EXTENSION_FALLBACK));
        assert!(note.message.contains("must"), "{}", note.message);
        // No code is quoted but the one received (here none: a result).
        assert!(!note.message.contains("-326"), "{}", note.message);
    }
}
