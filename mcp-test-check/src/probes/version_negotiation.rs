//! `lifecycle/version-negotiation`: a 2025-era server negotiates the protocol version of
//! `initialize` as 2025-11-25 lifecycle §Version Negotiation says.
//!
//! - The handshake the connection made (`Connection::handshake`) offered 2025-11-25
//!   ([`LEGACY_PROTOCOL_VERSION`]). An answer with another version is allowed (the server does
//!   not support 2025-11-25), but it must be "another protocol version it supports": a string
//!   that is no revision of MCP (nor a draft's) is no protocol version a server can support
//!   (`legacy/lifecycle/other-version`, MUST).
//! - Over Streamable HTTP a new session is one POST away, so two more `initialize` requests
//!   are sent, each on a session of its own: one offering 1999-01-01, which is no revision of
//!   MCP, so the server must answer another version (an error is allowed: the lifecycle's own
//!   example refuses an unsupported version with one); and, when the handshake answered a
//!   version other than the one offered, one offering that version, which the server said it
//!   supports, so it must answer the same (`legacy/lifecycle/same-version`, MUST). Over stdio a
//!   new connection is a new process, which `check` cannot start: only the handshake is judged.
//!
//! Clauses quoted: [`LEGACY_OTHER_VERSION`](clauses::LEGACY_OTHER_VERSION),
//! [`LEGACY_SAME_VERSION`](clauses::LEGACY_SAME_VERSION) (2025-11-25, MUST).

use super::http_exchange::{Wire, json_headers};
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::LEGACY_PROTOCOL_VERSION;
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "lifecycle/version-negotiation";

/// The revisions of MCP that negotiate with `initialize`.
pub(crate) const INITIALIZE_REVISIONS: [&str; 4] =
    ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// A version no revision of MCP has, and no server supports.
pub(crate) const NO_SUCH_VERSION: &str = "1999-01-01";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let answered = r
            .connection
            .handshake
            .as_ref()
            .and_then(|h| h.get("protocolVersion"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| r.connection.protocol_version.clone());
        let Some(answered) = answered else {
            return r.c.skip_probe(
                ID,
                "the target kept no protocolVersion of its initialize handshake",
            );
        };
        let handshake = Some(Shown {
            method: "initialize".to_owned(),
            id: None,
        });
        let mut out: Out = judge_handshake(LEGACY_PROTOCOL_VERSION, &answered)
            .into_iter()
            .map(|n| n.on(handshake.clone()))
            .collect();
        if r.connection.http.is_some() {
            let (url, options) = r.endpoint();
            match Wire::new(&url, &options, r.options.timeout) {
                Ok(wire) => {
                    let reply = initialize(&wire, NO_SUCH_VERSION).await;
                    out.extend(judge_unknown_offer(&reply).map(|n| n.on(shown(NO_SUCH_VERSION))));
                    if answered != LEGACY_PROTOCOL_VERSION && is_revision(&answered) {
                        let reply = initialize(&wire, &answered).await;
                        out.extend(judge_same(&answered, &reply).map(|n| n.on(shown(&answered))));
                    }
                }
                Err(e) => out.push(Note::info(format!(
                    "no initialize was sent on a new session: {e}"
                ))),
            }
        }
        r.c.push_probe(ID, out);
    })
}

fn shown(version: &str) -> Option<Shown> {
    Some(Shown {
        method: format!("initialize (protocolVersion {version}, a new session)"),
        id: None,
    })
}

/// Whether `version` is a revision of MCP (or a draft's, `DRAFT-...`).
fn is_revision(version: &str) -> bool {
    INITIALIZE_REVISIONS.contains(&version)
        || version == mcp_test::wire::PROTOCOL_VERSION
        || version.starts_with("DRAFT")
}

/// What `initialize` offering `version`, on a session of its own, got: the result's
/// `protocolVersion`, or what came instead.
#[derive(Debug, PartialEq)]
pub(crate) enum Reply {
    /// A result, with this `protocolVersion` (`None`: none).
    Version(Option<String>),
    /// A JSON-RPC error, in brief.
    Error(String),
    /// No JSON-RPC answer: why.
    Nothing(String),
}

async fn initialize(wire: &Wire, version: &str) -> Reply {
    let id = format!("mcp-test-negotiation-{version}");
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}}});
    match wire.post(json_headers(), &body, Duration::ZERO).await {
        Err(e) => Reply::Nothing(e),
        Ok(reply) => match reply.response(&json!(id)) {
            None => Reply::Nothing(reply.brief()),
            Some(r) if r.get("error").is_some() => Reply::Error(crate::checker::brief(&r)),
            Some(r) => Reply::Version(
                r.pointer("/result/protocolVersion")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            ),
        },
    }
}

/// The handshake offered `offered` and the server answered `answered`.
pub(crate) fn judge_handshake(offered: &str, answered: &str) -> Option<Note> {
    if answered == offered || is_revision(answered) {
        return None;
    }
    Some(Note::broke(
        &clauses::LEGACY_OTHER_VERSION,
        format!(
            "offered protocol version {offered} in initialize, the server answered {answered:?}, which is no revision of MCP ({}): a server that does not support the version offered must respond with another protocol version it supports",
            INITIALIZE_REVISIONS.join(", ")
        ),
    ))
}

/// `initialize` offering [`NO_SUCH_VERSION`] got `reply`.
pub(crate) fn judge_unknown_offer(reply: &Reply) -> Option<Note> {
    match reply {
        Reply::Version(Some(v)) if v == NO_SUCH_VERSION => Some(Note::broke(
            &clauses::LEGACY_OTHER_VERSION,
            format!(
                "offered protocol version {NO_SUCH_VERSION}, which is no revision of MCP, the server answered it back: a server that does not support the version offered must respond with another protocol version it supports"
            ),
        )),
        Reply::Version(Some(v)) => judge_handshake(NO_SUCH_VERSION, v),
        Reply::Version(None) => Some(Note::info(format!(
            "initialize offering {NO_SUCH_VERSION} got a result without protocolVersion (the schema's to judge)"
        ))),
        // The lifecycle's own example refuses an unsupported version with an error.
        Reply::Error(_) => None,
        Reply::Nothing(why) => Some(Note::info(format!(
            "initialize offering {NO_SUCH_VERSION} on a new session got no answer: {why}"
        ))),
    }
}

/// `initialize` offering `version`, the one the server answered the handshake with (so one it
/// says it supports), got `reply`.
pub(crate) fn judge_same(version: &str, reply: &Reply) -> Option<Note> {
    match reply {
        Reply::Version(Some(v)) if v == version => None,
        Reply::Version(Some(v)) => Some(Note::broke(
            &clauses::LEGACY_SAME_VERSION,
            format!(
                "the handshake answered protocol version {version}; offered {version} on a new session, the server answered {v}: if it supports {version} it must respond with the same version, and if not, the handshake answered a version it does not support"
            ),
        )),
        Reply::Version(None) => Some(Note::info(format!(
            "initialize offering {version} got a result without protocolVersion (the schema's to judge)"
        ))),
        Reply::Error(e) => Some(Note::info(format!(
            "initialize offering {version}, the version the handshake answered, was refused on a new session: {e}"
        ))),
        Reply::Nothing(why) => Some(Note::info(format!(
            "initialize offering {version} on a new session got no answer: {why}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn the_handshake_may_answer_another_revision_but_not_an_invented_one() {
        assert!(judge_handshake("2025-11-25", "2025-11-25").is_none());
        assert!(judge_handshake("2025-11-25", "2025-06-18").is_none());
        assert!(judge_handshake("2025-11-25", "DRAFT-2026-v1").is_none());
        let note = judge_handshake("2025-11-25", "2025-13-45").expect("a finding");
        assert_eq!(note.clause, Some(clauses::LEGACY_OTHER_VERSION));
        assert_eq!(note.severity, Severity::Defect);
        assert!(note.message.contains("must"), "{}", note.message);
    }

    #[test]
    fn an_unknown_offer_must_not_come_back() {
        let echoed = Reply::Version(Some(NO_SUCH_VERSION.to_owned()));
        let note = judge_unknown_offer(&echoed).expect("a finding");
        assert_eq!(note.clause, Some(clauses::LEGACY_OTHER_VERSION));
        assert_eq!(note.severity, Severity::Defect);
        assert!(judge_unknown_offer(&Reply::Version(Some("2025-06-18".to_owned()))).is_none());
        assert!(judge_unknown_offer(&Reply::Error("error -32602".to_owned())).is_none());
        let invented = Reply::Version(Some("0.1".to_owned()));
        assert_eq!(
            judge_unknown_offer(&invented).and_then(|n| n.clause),
            Some(clauses::LEGACY_OTHER_VERSION)
        );
    }

    #[test]
    fn a_version_the_server_answered_must_be_answered_back() {
        let same = Reply::Version(Some("2025-06-18".to_owned()));
        assert!(judge_same("2025-06-18", &same).is_none());
        let other = Reply::Version(Some("2025-03-26".to_owned()));
        let note = judge_same("2025-06-18", &other).expect("a finding");
        assert_eq!(note.clause, Some(clauses::LEGACY_SAME_VERSION));
        assert_eq!(note.severity, Severity::Defect);
        let refused = Reply::Error("error -32602".to_owned());
        assert_eq!(
            judge_same("2025-06-18", &refused).map(|n| n.severity),
            Some(Severity::Info)
        );
    }
}
