//! `lifecycle/before-initialized`: a 2025-era server sends no requests but pings before the
//! client's `notifications/initialized`.
//!
//! How (Streamable HTTP, a 2025-11-25 server): a session of the probe's own is opened with an
//! `initialize` posted raw, declaring `roots` (with `listChanged`), `sampling` and form
//! elicitation, which invites the server's requests; `notifications/initialized` is held
//! back. The reply to `initialize` is read to its response and [`SETTLE`] longer, then the
//! session's GET stream, when the server opens one, for [`WINDOW`]; then the session is ended
//! by DELETE. A request other than `ping` on either breaks basic/lifecycle.mdx
//! §Initialization: "The server **SHOULD NOT** send requests other than pings and logging
//! before receiving the `initialized` notification"
//! ([`clauses::LEGACY_NO_REQUESTS_BEFORE_INITIALIZED`]): a warning. Over stdio a session of
//! its own would be a second process, which `check` does not start (the check's own
//! connection sends `initialized` at once).

use super::http_exchange::{Watched, Wire, endpoint};
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use http::Method;
use mcp_test::spec::clauses;
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "lifecycle/before-initialized";

/// How long the reply to `initialize` is still read after its response.
const SETTLE: Duration = Duration::from_millis(300);

/// How long the GET stream is read.
const WINDOW: Duration = Duration::from_secs(1);

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, options) = endpoint(r);
        let on = Some(Shown {
            method: "initialize (a session of the probe's own, no notifications/initialized)"
                .to_owned(),
            id: None,
        });
        let out: Out = match Wire::new(&url, &options, r.options.timeout) {
            Ok(wire) => match exchange(&wire).await {
                Ok(heard) => judge(&heard),
                Err(why) => vec![Note::info(why)],
            },
            Err(e) => vec![Note::info(format!("the probe did not run: {e}"))],
        };
        r.c.push_probe(ID, out.into_iter().map(|n| n.on(on.clone())).collect());
    })
}

/// Opens the session and reads its streams; the messages of each, by where they came.
async fn exchange(wire: &Wire) -> Result<Vec<(&'static str, Value)>, String> {
    let capabilities = json!({"roots": {"listChanged": true}, "sampling": {},
        "elicitation": {"form": {}}});
    let session = wire
        .open_session(
            "mcp-test-before-initialized",
            capabilities,
            SETTLE,
            "posted raw",
        )
        .await
        .map_err(|e| format!("{e}, so nothing was watched"))?;
    let mut heard: Vec<(&'static str, Value)> = session
        .reply
        .messages()
        .into_iter()
        .map(|m| ("the reply to initialize", m))
        .collect();
    if session.id.is_none() {
        return Ok(heard);
    }
    let window = tokio::time::sleep(WINDOW.min(wire.timeout));
    let (stream, ()) = wire
        .watch_while(Method::GET, session.headers(true), window)
        .await;
    if let Some(stream) = stream.filter(Watched::is_open_stream) {
        heard.extend(
            stream
                .messages()
                .into_iter()
                .map(|m| ("the session's GET stream", m)),
        );
    }
    wire.end_session(&session).await;
    Ok(heard)
}

/// The requests other than `ping` among what was heard; see the [module docs](self).
fn judge(heard: &[(&str, Value)]) -> Out {
    heard
        .iter()
        .filter(|(_, m)| m.get("id").is_some())
        .filter_map(|(where_, m)| {
            let method = m.get("method").and_then(Value::as_str)?;
            (method != "ping").then(|| {
                Note::broke(
                    &clauses::LEGACY_NO_REQUESTS_BEFORE_INITIALIZED,
                    format!(
                        "the server sent a {method} request on {where_} before the client sent notifications/initialized; a server should not send requests other than pings before it receives the initialized notification"
                    ),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn responses_notifications_and_pings_are_no_finding() {
        let heard = [
            ("r", json!({"jsonrpc": "2.0", "id": "i", "result": {}})),
            (
                "r",
                json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "up"}}),
            ),
            ("g", json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})),
        ];
        assert!(judge(&heard).is_empty());
    }

    #[test]
    fn another_request_is_a_should_not() {
        let heard = [(
            "the session's GET stream",
            json!({"jsonrpc": "2.0", "id": 1, "method": "roots/list"}),
        )];
        let notes = judge(&heard);
        assert_eq!(notes.len(), 1);
        assert_eq!(
            notes[0].clause,
            Some(clauses::LEGACY_NO_REQUESTS_BEFORE_INITIALIZED)
        );
        assert_eq!(notes[0].severity, Severity::Warning);
        assert!(
            notes[0].message.contains("roots/list"),
            "{}",
            notes[0].message
        );
        assert!(
            notes[0].message.contains("GET stream"),
            "{}",
            notes[0].message
        );
    }
}
