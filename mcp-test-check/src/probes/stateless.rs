//! `base/stateless`: a 2026-07-28 server serves a request that comes first on a connection as
//! it serves the same request after others.
//!
//! How (Streamable HTTP): it sends `tools/list`, with its full `_meta` envelope, over a
//! connection of its own (a fresh HTTP client: a new TCP connection, nothing sent on it
//! before), and the same request in the check's session, where `server/discover` and others
//! came first. A result in the session and a JSON-RPC error on the fresh connection shows
//! that the server relied on earlier requests over the connection: a defect. A reply that is
//! no JSON-RPC message (an HTTP failure, a timeout) may have other causes: a note. Over stdio
//! a fresh connection would be a second process, which `check` does not start.
//!
//! Clause quoted: `base/stateless` (2026-07-28, MUST NOT).

use crate::Shown;
use crate::checker::{Checker, Note, Out, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "base/stateless";

const METHOD: &str = "tools/list";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let Some(http) = r.connection.http.clone() else {
            return;
        };
        let out = probe(&mut r.c, &http.url, &http.options).await;
        r.c.push_probe(ID, out);
    })
}

async fn probe(c: &mut Checker<'_>, url: &str, options: &mcp_test::client::HttpOptions) -> Out {
    let mut out = Vec::new();
    let (id, body) = c.session.body(METHOD, json!({}));
    let fresh = first_on_a_connection(url, options, &body, c.session.timeout).await;
    let Some(in_session) = c.req(METHOD, json!({}), &mut out).await else {
        return out;
    };
    let shown = Some(Shown {
        method: METHOD.to_owned(),
        id: Some(id),
    });
    out.extend(
        judge(&fresh, &in_session)
            .into_iter()
            .map(|n| n.on(shown.clone())),
    );
    out
}

/// POSTs `body` as the first request of a new connection; the first JSON-RPC message of the
/// reply, or why there is none.
pub(crate) async fn first_on_a_connection(
    url: &str,
    options: &mcp_test::client::HttpOptions,
    body: &Value,
    timeout: Duration,
) -> Result<Value, String> {
    use mcp_test::__check::HttpClient;

    let uri = HttpClient::parse_url(url).map_err(|e| format!("{url} is not a usable URL: {e}"))?;
    let headers = super::http_exchange::mirrored_json_headers(body);
    let reply = HttpClient::with_options(options)
        .map_err(|e| e.to_string())?
        .post(&uri, headers, body.to_string().into(), timeout)
        .await
        .map_err(|e| e.to_string())?;
    reply
        .messages()
        .into_iter()
        .next()
        .ok_or_else(|| format!("HTTP {} with no JSON-RPC message", reply.status.as_u16()))
}

/// What the request first on a connection (`fresh`) and in the session show; see the
/// [module docs](self).
pub(crate) fn judge(fresh: &Result<Value, String>, in_session: &Value) -> Option<Note> {
    // Nothing to compare with when the request fails in the session too.
    in_session.get("result")?;
    match fresh {
        Ok(reply) if reply.get("error").is_some() => Some(Note::broke(
            &clauses::STATELESS,
            format!(
                "{METHOD}, sent first on a new connection with its full _meta, answered {}, where the same request after others got a result: a server must not rely on prior requests over the same connection to establish context",
                brief(reply)
            ),
        )),
        Ok(_) => None,
        Err(why) => Some(Note::info(format!(
            "{METHOD}, sent first on a new connection, got no JSON-RPC answer ({why}), so whether the server relies on earlier requests was not seen"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn result() -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": []}})
    }

    fn error() -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "discover first"}})
    }

    #[test]
    fn the_same_answer_on_a_fresh_connection_is_fine() {
        assert!(judge(&Ok(result()), &result()).is_none());
        // An error in the session too: nothing to compare.
        assert!(judge(&Ok(error()), &error()).is_none());
    }

    #[test]
    fn an_error_only_on_a_fresh_connection_breaks_the_clause() {
        let note = judge(&Ok(error()), &result()).expect("a finding");
        assert_eq!(note.severity, Severity::Defect);
        assert_eq!(note.clause, Some(clauses::STATELESS));
        assert!(note.message.contains("must not"), "{}", note.message);
        assert!(note.message.contains("-32600"), "{}", note.message);
    }

    #[test]
    fn no_answer_on_a_fresh_connection_is_a_note() {
        let note = judge(&Err("HTTP 502".to_owned()), &result()).expect("a note");
        assert_eq!(note.severity, Severity::Info);
    }
}
