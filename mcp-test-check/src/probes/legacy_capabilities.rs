//! `multi-round/legacy-capabilities`: a 2025-era server asks a client only what it declared it
//! can do.
//!
//! How (Streamable HTTP, a 2025-11-25 server): a session of the probe's own is opened with
//! `initialize` declaring `elicitation` with form mode only (`{"form": {}}`), `sampling`
//! without `tools`, and `roots`. The tools the schema cases call (at most [`MAX_TOOLS`], each
//! with its base case) are called in it, and every request the server sends meanwhile is
//! answered as `check` answers one (synthesized) and kept. Each is judged by what that client
//! declared (client/elicitation.mdx and client/sampling.mdx of 2025-11-25):
//!
//! - an `elicitation/create` in URL mode breaks "Servers **MUST NOT** send elicitation
//!   requests with modes that are not supported by the client"
//!   ([`clauses::LEGACY_ELICITATION_SUPPORTED_MODES`]);
//! - a `sampling/createMessage` with `tools` or `toolChoice` breaks "Servers **MUST NOT**
//!   send tool-enabled sampling requests to Clients that have not declared support for tool
//!   use via the `sampling.tools` capability" ([`clauses::LEGACY_SAMPLING_TOOLS`]).
//!
//! A server that sends no request there passes: it asked nothing it should not. Over stdio a
//! session of its own would be a second process, which `check` does not start. The calls
//! carry a `progressToken` of the probe's own ([`TOKEN`]).

use super::http_exchange::base_calls;
use crate::Shown;
use crate::checker::{Note, Out};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::client::{Answers, Client};
use mcp_test::spec::clauses;
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

pub(crate) const ID: &str = "multi-round/legacy-capabilities";

/// The progress token of the probe's calls.
pub(crate) const TOKEN: &str = "mcp-test-legacy-capabilities";

/// At most this many tools are called.
const MAX_TOOLS: usize = 8;

/// What the probe's session declares in `initialize`.
fn declared() -> Value {
    json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}})
}

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let Some(http) = r.connection.http.clone() else {
            return;
        };
        let asked: Arc<Mutex<Vec<Value>>> = Arc::default();
        let keep = asked.clone();
        let answers = Answers::new()
            .respond(move |_, request| {
                keep.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(request.clone());
                None
            })
            .synthesize();
        let client = match Client::http_with(&http.url, &http.options) {
            Ok(client) => client
                .with_timeout(r.c.session.timeout)
                .with_capabilities(declared())
                .with_answers(answers),
            Err(e) => {
                let note = Note::info(format!("no client for {}: {e}", http.url));
                return r.c.push_probe(ID, vec![note]);
            }
        };
        let shown = |what: String| {
            Some(Shown {
                method: what,
                id: None,
            })
        };
        if let Err(e) = client.initialize().await {
            let note = Note::info(format!(
                "initialize of a session of the probe's own, declaring {}, failed: {e}",
                declared()
            ))
            .on(shown("initialize".to_owned()));
            return r.c.push_probe(ID, vec![note]);
        }
        let mut out = Vec::new();
        for (tool, arguments) in base_calls(r).into_iter().take(MAX_TOOLS) {
            // The session of its own is no check's session, whose deadline refuses requests.
            if !crate::deadline::allows(r.deadline.as_deref(), ID) {
                break;
            }
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            let body = json!({"jsonrpc": "2.0", "id": client.next_id(), "method": "tools/call",
                "params": {"name": name, "arguments": arguments,
                    "_meta": {meta_keys::PROGRESS_TOKEN: TOKEN}}});
            r.called.record(&body);
            let before = asked.lock().map(|a| a.len()).unwrap_or_default();
            let result = client.call_rounds(&body, &Answers::new()).await;
            let during: Vec<Value> = asked
                .lock()
                .map(|a| a.iter().skip(before).cloned().collect())
                .unwrap_or_default();
            let on = shown(format!("tools/call {name} (progressToken {TOKEN:?})"));
            out.extend(judge(name, &during).into_iter().map(|n| n.on(on.clone())));
            if let Err(e) = result
                && matches!(e, mcp_test::target::DriveError::Target { .. })
            {
                out.push(Note::info(format!("{name}: {e}")).on(on));
                break;
            }
        }
        let _ = client.close().await;
        r.c.push_probe(ID, out);
    })
}

/// The requests a server sent while `tool` ran, judged by what the probe's session declared;
/// see the [module docs](self).
fn judge(tool: &str, requests: &[Value]) -> Out {
    let mut out = Vec::new();
    for request in requests {
        let params = request.get("params").unwrap_or(&Value::Null);
        match request.get("method").and_then(Value::as_str) {
            Some("elicitation/create")
                if params.get("mode").and_then(Value::as_str) == Some("url") =>
            {
                out.push(Note::broke(
                    &clauses::LEGACY_ELICITATION_SUPPORTED_MODES,
                    format!(
                        "{tool}: sent an elicitation/create in URL mode ({}) to a client whose initialize declared elicitation {{\"form\": {{}}}}, form mode only; a server must not send elicitation requests with modes the client does not support",
                        params.get("url").unwrap_or(&Value::Null)
                    ),
                ));
            }
            Some("sampling/createMessage")
                if params
                    .get("tools")
                    .is_some_and(|t| t.as_array().is_none_or(|t| !t.is_empty()))
                    || params.get("toolChoice").is_some() =>
            {
                out.push(Note::broke(
                    &clauses::LEGACY_SAMPLING_TOOLS,
                    format!(
                        "{tool}: sent a sampling/createMessage with tools to a client whose initialize declared sampling without sampling.tools; a server must not send tool-enabled sampling requests to such a client"
                    ),
                ));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn what_the_client_declared_is_no_finding() {
        let form = json!({"method": "elicitation/create", "params": {"message": "Name?",
            "requestedSchema": {"type": "object", "properties": {}}}});
        let form_mode = json!({"method": "elicitation/create", "params": {"mode": "form",
            "message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}});
        let sampling = json!({"method": "sampling/createMessage", "params": {
            "messages": [], "maxTokens": 10, "tools": []}});
        let roots = json!({"method": "roots/list"});
        assert!(judge("t", &[form, form_mode, sampling, roots]).is_empty());
    }

    #[test]
    fn url_mode_or_tools_break_their_clauses() {
        let url = json!({"method": "elicitation/create", "params": {"mode": "url",
            "message": "Sign in", "url": "https://example.com/x", "elicitationId": "e"}});
        let tools = json!({"method": "sampling/createMessage", "params": {"messages": [],
            "maxTokens": 10, "tools": [{"name": "lookup", "inputSchema": {"type": "object"}}]}});
        let notes = judge("t", &[url, tools]);
        assert_eq!(notes.len(), 2);
        assert_eq!(
            notes[0].clause,
            Some(clauses::LEGACY_ELICITATION_SUPPORTED_MODES)
        );
        assert_eq!(notes[1].clause, Some(clauses::LEGACY_SAMPLING_TOOLS));
        assert!(notes.iter().all(|n| n.severity == Severity::Defect));
    }
}
