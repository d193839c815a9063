//! `base/malformed-message`: invalid JSON gets -32700 (Parse error) with `id: null`.
//!
//! The probe writes what the spec tells a client not to write (stdio.mdx: the client "MUST NOT
//! write anything to the server's stdin that is not a valid MCP message"), so it runs last, on
//! a connection of its own where it can: over stdio a fresh process
//! ([`CheckOptions::reconnect`](crate::CheckOptions::reconnect)), over Streamable HTTP one POST
//! of its own (a 2025-era server gets a session of the probe's own, `initialize` first), in
//! process the server's text handler. A server that reads its input as a stream of JSON may
//! take the next request as the rest of the text: nothing else depends on how it copes. Over
//! stdio it shares that process with `base/invalid-request`, which runs just before it, only
//! when the process answered the request sent after that probe's text; else it starts another.
//!
//! How: one message that is not JSON (a request cut short), as it is, then at once a request
//! that changes nothing (`server/discover` of a 2026-07-28 server, `ping` of a 2025-era one).
//! The wait for a reply to the text is bounded by that request's answer ([`exchange_text`],
//! which `base/invalid-request` shares), not by a clock.
//!
//! - A reply with another code, or with an id other than null: JSON-RPC 2.0 gives invalid JSON
//!   -32700 and an id it could not read `null` (`jsonrpc/parse-error`, MUST, as MCP makes
//!   JSON-RPC 2.0 a MUST).
//! - No reply to the text: a note. JSON-RPC 2.0's "MUST reply" binds an rpc call, and text
//!   that is not JSON is arguably none.
//! - No answer to the request after it: over stdio a note on robustness, naming the
//!   connection; no clause binds a server to read on after text a client must not have
//!   written. Over HTTP that request is a POST of its own, valid in every way, so leaving it
//!   unanswered breaks `jsonrpc/response-required` (MUST).
//! - Over HTTP, an error status without a JSON-RPC body, or -32020/-32022 (header checks a
//!   server may make before it reads the body): a note. On a target that cannot send text
//!   (`TargetError::Unsupported`) the probe is not run. In the other era's session of a
//!   server that serves both, it is not run again.
//!
//! Clauses quoted: [`JSONRPC_PARSE_ERROR`](clauses::JSONRPC_PARSE_ERROR) (JSON-RPC 2.0, both
//! eras), [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE) (over HTTP).

use crate::Shown;
use crate::checker::{Note, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::__check::Session;
use mcp_test::Caller;
use mcp_test::cases::{Era, shorten};
use mcp_test::spec::clauses::{self, Clause, Transport};
use mcp_test::wire::error_codes::{HEADER_MISMATCH, PARSE_ERROR, UNSUPPORTED_PROTOCOL_VERSION};
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "base/malformed-message";

/// The text sent: a message cut short, so no JSON parser takes it. It holds no id, so a
/// lenient server cannot answer it under one a request of the check used.
pub(crate) const MALFORMED: &str = r#"{"jsonrpc": "2.0", "method": "#;

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let what = Sent {
            label: "a message that is not JSON",
            text: MALFORMED.to_owned(),
            reply_id: None,
        };
        let clause = &clauses::JSONRPC_PARSE_ERROR;
        probe_text(r, ID, &what, clause, i64::from(PARSE_ERROR), "Parse error").await;
    })
}

/// Sends `sent` ([`exchange_text`]), judges what came back against `clause`, whose error is
/// `code` (`name`), and records probe `id`: skipped, with why, when the text was not sent.
pub(crate) async fn probe_text(
    r: &mut Run<'_>,
    id: &str,
    sent: &Sent,
    clause: &Clause,
    code: i64,
    name: &str,
) {
    if r.options.second_session {
        return r.c.skip_probe(
            id,
            "run once a server, in the first era's session: the rule is JSON-RPC 2.0's, the same in both eras",
        );
    }
    let seen = exchange_text(r, sent).await;
    match &seen.unsent {
        Some(why) => r.c.skip_probe(id, why.clone()),
        None => {
            let out = judge(r.c.era, sent, &seen, clause, code, name);
            r.c.push_probe(id, out);
        }
    }
}

/// What a probe sends as text.
pub(crate) struct Sent {
    /// What it is, for messages: "a message that is not JSON".
    pub label: &'static str,
    /// The text.
    pub text: String,
    /// The id a reply may carry besides `null` (JSON text), when the text has one a server
    /// can read.
    pub reply_id: Option<String>,
}

/// What came of sending text, then a request.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Why the text could not be sent (nothing is judged then).
    pub unsent: Option<String>,
    /// The overall deadline had passed: nothing was sent, nothing is judged.
    pub cut: bool,
    /// The reply to the text, when one was seen.
    pub reply: Option<Value>,
    /// Over HTTP: the status and, when it held no JSON-RPC message, the body in brief.
    pub status: Option<u16>,
    pub http_body: Option<String>,
    /// The request sent after it, and why it went unanswered (`None`: answered).
    pub follow: String,
    pub follow_failed: Option<String>,
    /// Sending the text failed after it was written (the connection closed, say).
    pub reply_failed: Option<String>,
    /// The text went to a connection of the probe's own (a fresh process over stdio).
    pub own_connection: bool,
    /// The request after the text was a POST of its own (Streamable HTTP): no text came
    /// before it on its connection, so leaving it unanswered breaks the rule that a request
    /// gets a response.
    pub follow_own_post: bool,
}

/// Sends `sent.text` as it is, then a request that changes nothing, and returns what came of
/// both; see the [module docs](self). A server that stopped answering is marked dead on the
/// checker, so later probes skip.
pub(crate) async fn exchange_text(r: &mut Run<'_>, sent: &Sent) -> Seen {
    let mut seen = Seen::default();
    let c = &mut r.c;
    if let Some(dead) = &c.dead {
        seen.unsent = Some(format!("the server had stopped answering ({dead})"));
        return seen;
    }
    // The text goes beside the session, so the overall deadline is heeded here: past it,
    // nothing is sent, and the request after it, refused by the session, marks the probe
    // cut short.
    if c.session.past_deadline() {
        seen.cut = true;
        let _ = c
            .session
            .request(follow_method(c.modern()), json!({}))
            .await;
        return seen;
    }
    c.last = Some(Shown {
        method: sent.label.to_owned(),
        id: None,
    });
    if let Some(http) = r.connection.http.clone() {
        let headers = match c.era {
            Era::Current => super::raw_http::modern_headers(""),
            // A 2025-era server serves a POST in a session: one of the probe's own.
            Era::Legacy => {
                match legacy_session(&http.url, &http.options, c.session.timeout).await {
                    Ok(headers) => headers,
                    Err(why) => {
                        seen.unsent = Some(why);
                        return seen;
                    }
                }
            }
        };
        match post_text(
            &http.url,
            &http.options,
            headers,
            &sent.text,
            c.session.timeout,
        )
        .await
        {
            Ok((status, messages, body)) => {
                seen.status = Some(status);
                seen.reply = messages.into_iter().next();
                if seen.reply.is_none() {
                    seen.http_body = Some(body);
                }
            }
            Err(e) => {
                seen.follow = sent.label.to_owned();
                seen.follow_failed = Some(e);
            }
        }
    } else {
        // Over stdio, a process of its own, when the check can start one: a server may read
        // its input with a streaming JSON decoder, which takes the next request as the rest
        // of the text, and nothing else then depends on how it copes. The probes of this
        // kind share it while it answers the request after each text (`Run::own`).
        let fresh = match (&r.options.reconnect, r.connection.transport) {
            (Some(reconnect), Some(Transport::Stdio)) => match r.own.take() {
                Some(own) => Some(own),
                None => match reconnect.open(c.era).await {
                    Ok(fresh) => Some((fresh, 1)),
                    Err(e) => {
                        seen.unsent = Some(format!(
                            "the connection of its own that the probe writes to could not be opened: {e}"
                        ));
                        return seen;
                    }
                },
            },
            _ => None,
        };
        let own = fresh
            .as_ref()
            .map(|(f, id)| Session::new(f, c.session.timeout).with_next_id(*id));
        seen.own_connection = own.is_some();
        let follow = follow_method(c.modern());
        match &own {
            Some(own) => text_then_follow(own, sent, follow, &mut seen).await,
            None => text_then_follow(&c.session, sent, follow, &mut seen).await,
        }
        let next_id = own.as_ref().map(Session::peek_id);
        drop(own);
        if let (Some((fresh, _)), Some(next_id)) = (fresh, next_id) {
            if seen.follow_failed.is_none() && seen.reply_failed.is_none() {
                r.own = Some((fresh, next_id));
            } else {
                let _ = fresh.client.close_within(CLOSE_GRACE).await;
            }
        }
        if let Some(why) = &seen.follow_failed
            && !seen.own_connection
        {
            // The checked session is the one that stopped answering: what runs after it
            // (only the other probes of this kind) is not held to it.
            r.c.dead = Some(format!("after {}: {why}", sent.label));
        }
        return seen;
    }
    let follow = follow_method(c.modern());
    if seen.follow_failed.is_none() {
        seen.follow = follow.to_owned();
        seen.follow_own_post = true;
        let (_, answer) = c
            .session
            .request_within(follow, json!({}), FOLLOW_WAIT)
            .await;
        if let Err(e) = answer {
            seen.follow_failed = Some(e.to_string());
        }
    }
    seen
}

/// How long a connection of the probe's own gets to exit once the probes are done with it.
pub(crate) const CLOSE_GRACE: Duration = Duration::from_millis(200);

/// How long the request sent after the text is waited for at most (or the per-call timeout,
/// when shorter): it changes nothing and every server answers it at once, and a server that
/// took the text badly would otherwise cost a whole timeout.
const FOLLOW_WAIT: Duration = Duration::from_secs(5);

/// Writes `sent.text`, then at once a request that changes nothing (`follow`), on `session`,
/// and fills `seen` with the reply to the text and whether the request was answered.
///
/// The wait for a reply to the text is bounded by the request's answer, not by a clock:
/// stdio is ordered, so a server that answers the text answers it about when it answers the
/// request written after it. Once the request is answered, the text's reply gets twice that
/// round trip more (at least 20 ms, at most 500 ms), so a server that never answers text it
/// cannot read costs one round trip, not a timeout.
async fn text_then_follow(session: &Session<'_>, sent: &Sent, follow: &str, seen: &mut Seen) {
    let caller = Caller {
        timeout: Some(session.timeout),
        ..Caller::default()
    };
    let started = tokio::time::Instant::now();
    // Polled first, so the text is written before the request.
    let text = session.target.send_text(&sent.text, &caller);
    let request = session.request_within(follow, json!({}), session.timeout.min(FOLLOW_WAIT));
    tokio::pin!(text, request);
    let mut reply = None;
    let (id, answer) = loop {
        tokio::select! {
            biased;
            out = &mut text, if reply.is_none() => reply = Some(out),
            out = &mut request => break out,
        }
    };
    if reply.is_none() {
        let grace = (started.elapsed() * 2).clamp(Duration::from_millis(20), REPLY_GRACE);
        reply = tokio::time::timeout(grace, &mut text).await.ok();
    }
    match reply {
        Some(Ok(exchange)) => seen.reply = exchange.response,
        Some(Err(mcp_test::target::TargetError::Unsupported { .. })) => {
            seen.unsent = Some("the target cannot send text that is not a JSON value".to_owned());
            return;
        }
        Some(Err(e)) => seen.reply_failed = Some(e.to_string()),
        None => {}
    }
    seen.follow = follow.to_owned();
    match answer {
        Ok(answer) if answer.get("id") == Some(&json!(id)) => {}
        // The reply to the text (id null) taken for the request in flight: the request's own
        // answer came after it.
        Ok(answer) => {
            if seen.reply.is_none() {
                seen.reply = Some(answer);
            }
        }
        Err(e) => seen.follow_failed = Some(e.to_string()),
    }
}

/// The most a reply to the text is waited for once the request after it was answered.
const REPLY_GRACE: Duration = Duration::from_millis(500);

/// The request sent after the text: one that changes nothing, which every server of the era
/// serves.
fn follow_method(modern: bool) -> &'static str {
    if modern { "server/discover" } else { "ping" }
}

/// Posts `text` as the body of a 2026-07-28 request: the status, the JSON-RPC messages of the
/// reply, and the reply in brief.
async fn post_text(
    url: &str,
    options: &mcp_test::client::HttpOptions,
    headers: http::HeaderMap,
    text: &str,
    timeout: Duration,
) -> Result<(u16, Vec<Value>, String), String> {
    let uri = mcp_test::__check::HttpClient::parse_url(url)
        .map_err(|e| format!("{url} is not a usable URL: {e}"))?;
    let reply = mcp_test::__check::HttpClient::with_options(options)
        .map_err(|e| e.to_string())?
        .post(&uri, headers, text.to_owned().into_bytes().into(), timeout)
        .await
        .map_err(|e| e.to_string())?;
    let status = reply.status.as_u16();
    Ok((
        status,
        reply.messages(),
        format!("HTTP {status}: {}", shorten(&reply.text(), 200)),
    ))
}

/// Opens a 2025-era session of the probe's own on `url` (`initialize`, then
/// `notifications/initialized`) and returns the headers of a POST in it: JSON in, JSON or SSE
/// out, the version the server chose and its `Mcp-Session-Id`, when it minted one.
async fn legacy_session(
    url: &str,
    options: &mcp_test::client::HttpOptions,
    timeout: Duration,
) -> Result<http::HeaderMap, String> {
    let wire = super::http_exchange::Wire::new(url, options, timeout)?;
    let session = wire
        .open_session(
            "mcp-test-malformed-session",
            json!({}),
            Duration::ZERO,
            "to open a session of its own",
        )
        .await?;
    wire.send_initialized(&session).await;
    Ok(session.headers(false))
}

/// What `seen` shows, for text a server must answer with `code` (`name`) under `clause`.
pub(crate) fn judge(
    era: Era,
    sent: &Sent,
    seen: &Seen,
    clause: &Clause,
    code: i64,
    name: &str,
) -> Vec<Note> {
    let on = Some(Shown {
        method: sent.label.to_owned(),
        id: None,
    });
    let mut out = Vec::new();
    if seen.cut {
        return out;
    }
    // Not sent: nothing to judge; the probe is recorded as not run ([`record`]).
    if seen.unsent.is_some() {
        return out;
    }
    if let Some(why) = &seen.follow_failed
        && seen.follow_own_post
    {
        // Over HTTP the request is a POST of its own, valid in every way: whatever the server
        // made of the text, this request gets a response (JSON-RPC 2.0 §5, which MCP makes a
        // MUST).
        out.push(
            Note::broke_in(
                era,
                &clauses::JSONRPC_RESPONSE,
                format!(
                    "after {} the server did not answer {}, a valid request in a POST of its own ({why})",
                    sent.label, seen.follow
                ),
            )
            .on(on.clone()),
        );
    } else if let Some(why) = &seen.follow_failed {
        // Robustness, not a rule broken: stdio.mdx binds the client ("MUST NOT write anything
        // to the server's stdin that is not a valid MCP message"), and a server reading a
        // stream of JSON may fairly take the next request as the rest of the text.
        let connection = if seen.own_connection {
            "on the connection of the probe's own"
        } else {
            "on this session"
        };
        out.push(
            Note::info(format!(
                "after {} the server did not answer {} {connection} ({why}): it may have read the request as the rest of the text; a note, since the spec binds the client not to write such text",
                sent.label, seen.follow
            ))
            .on(on.clone()),
        );
    }
    let Some(reply) = &seen.reply else {
        let how = match (&seen.status, &seen.http_body) {
            (Some(_), Some(body)) => format!("answered {body}, with no JSON-RPC message"),
            _ => "got no reply".to_owned(),
        };
        if seen.follow_failed.is_none() {
            out.push(
                Note::info(format!(
                    "{} {how}; JSON-RPC 2.0 gives it {code} ({name}), but its rule that a call gets a response binds a request, which this is not",
                    sent.label
                ))
                .on(on),
            );
        }
        return out;
    };
    let got = reply.pointer("/error/code").and_then(Value::as_i64);
    if got == Some(code) {
        let id = reply.get("id").unwrap_or(&Value::Null);
        let id_text = id.to_string();
        if !id.is_null() && sent.reply_id.as_deref() != Some(id_text.as_str()) {
            out.push(
                Note::broke_in(
                    era,
                    clause,
                    format!(
                        "the {code} error answering {} has id {id}; an id that could not be read must be null",
                        sent.label
                    ),
                )
                .on(on),
            );
        }
        return out;
    }
    if seen.status.is_some()
        && got.is_some_and(|g| {
            g == i64::from(HEADER_MISMATCH) || g == i64::from(UNSUPPORTED_PROTOCOL_VERSION)
        })
    {
        out.push(
            Note::info(format!(
                "{} was refused with {} ({}), a check of the headers that may come before the body is read, rather than {code} ({name})",
                sent.label,
                got.unwrap_or_default(),
                brief(reply)
            ))
            .on(on),
        );
        return out;
    }
    out.push(
        Note::broke_in(
            era,
            clause,
            format!(
                "{} must be answered with {code} ({name}); got {}",
                sent.label,
                brief(reply)
            ),
        )
        .on(on),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn sent() -> Sent {
        Sent {
            label: "a message that is not JSON",
            text: MALFORMED.to_owned(),
            reply_id: None,
        }
    }

    fn judged(seen: &Seen) -> Vec<Note> {
        judge(
            Era::Current,
            &sent(),
            seen,
            &clauses::JSONRPC_PARSE_ERROR,
            -32700,
            "Parse error",
        )
    }

    fn error(id: Value, code: i64) -> Option<Value> {
        Some(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": "x"}}))
    }

    #[test]
    fn a_parse_error_with_a_null_id_and_a_server_that_serves_on_is_fine() {
        let seen = Seen {
            reply: error(Value::Null, -32700),
            ..Seen::default()
        };
        assert!(judged(&seen).is_empty());
    }

    #[test]
    fn another_code_or_an_id_breaks_the_parse_error_rule() {
        let seen = Seen {
            reply: error(Value::Null, -32603),
            ..Seen::default()
        };
        let found = judged(&seen);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].clause, Some(clauses::JSONRPC_PARSE_ERROR));
        assert_eq!(found[0].severity, Severity::Defect);
        assert!(found[0].message.contains("must"), "{}", found[0].message);
        // The code quoted is the code received.
        assert!(found[0].message.contains("-32603"), "{}", found[0].message);
        let seen = Seen {
            reply: error(json!(1), -32700),
            ..Seen::default()
        };
        let found = judged(&seen);
        assert_eq!(found[0].clause, Some(clauses::JSONRPC_PARSE_ERROR));
        assert!(found[0].message.contains("null"), "{}", found[0].message);
    }

    /// The spec binds the client not to write such text (stdio.mdx), so how the server
    /// copes afterwards is robustness: a note naming the connection, never a defect.
    #[test]
    fn a_server_that_stops_answering_after_the_text_is_a_note() {
        for own_connection in [true, false] {
            let seen = Seen {
                follow: "server/discover".to_owned(),
                follow_failed: Some("no reply within 5s".to_owned()),
                own_connection,
                ..Seen::default()
            };
            let found = judged(&seen);
            assert_eq!(found.len(), 1);
            assert_eq!(found[0].clause, None);
            assert_eq!(found[0].severity, Severity::Info);
            let on = if own_connection {
                "of the probe's own"
            } else {
                "this session"
            };
            assert!(found[0].message.contains(on), "{}", found[0].message);
        }
    }

    #[test]
    fn silence_or_a_header_check_first_is_a_note() {
        let found = judged(&Seen::default());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Info);
        let seen = Seen {
            status: Some(400),
            reply: error(Value::Null, -32020),
            ..Seen::default()
        };
        let found = judged(&seen);
        assert_eq!(found[0].severity, Severity::Info);
        let seen = Seen {
            unsent: Some("no".to_owned()),
            ..Seen::default()
        };
        assert!(judged(&seen).is_empty());
    }
}
