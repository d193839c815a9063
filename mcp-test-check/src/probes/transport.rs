//! `transport/hygiene`: what the server did on its transport, as the target saw it
//! (`TransportEvent`s), judged by era; nothing is sent.
//!
//! A 2026-07-28 server never sends a request on stdio; a reply must match a request; a
//! response ends its SSE stream; messages are UTF-8. Lines of stdout that are not messages
//! break the stdout rule, unless a run of them joins into messages: then a message was
//! written over several lines (`super::stdio_framing`). A flood of one kind is cut to the
//! first ten ([`at_most_of_a_kind`]). A server that stopped answering is reported here.
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`HTTP_RESPONSE_ENDS_STREAM`](clauses::HTTP_RESPONSE_ENDS_STREAM),
//! [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE),
//! [`LEGACY_HTTP_RESPONSE_ENDS_STREAM`](clauses::LEGACY_HTTP_RESPONSE_ENDS_STREAM),
//! [`LEGACY_STDIO_NO_EMBEDDED_NEWLINES`](clauses::LEGACY_STDIO_NO_EMBEDDED_NEWLINES),
//! [`LEGACY_STDIO_STDOUT`](clauses::LEGACY_STDIO_STDOUT), [`LEGACY_UTF8`](clauses::LEGACY_UTF8),
//! [`RESULT_ID`](clauses::RESULT_ID),
//! [`STDIO_NO_EMBEDDED_NEWLINES`](clauses::STDIO_NO_EMBEDDED_NEWLINES),
//! [`STDIO_NO_REQUESTS`](clauses::STDIO_NO_REQUESTS), [`STDIO_STDOUT`](clauses::STDIO_STDOUT),
//! [`UTF8`](clauses::UTF8).

use crate::checker::{Checker, Note, Out};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::target::TransportEvent;
use std::time::Duration;

/// The probe's id.
pub(crate) const ID: &str = "transport/hygiene";

/// The row: [`transport`].
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        transport(&mut r.c).await;
    })
}

/// What the server did on its transport, judged by era: a 2026-07-28 server never sends
/// a request on stdio (MUST NOT); a 2025-era one may (sampling, roots, elicitation,
/// ping), which is only noted. Lines that are not messages break the stdout rule, unless
/// a run of them joins into JSON-RPC messages: then a message was written over several
/// lines, which breaks the framing rule (no embedded newlines) instead.
///
/// What a server writes right after its last response may still be on its way: the events
/// are read once they have stopped growing for a moment (at most a quarter second).
pub(crate) async fn transport(c: &mut Checker<'_>) {
    let target = c.session.target;
    let mut events = target.connection().events;
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(25)).await;
        let now = target.connection().events;
        let settled = now.len() == events.len();
        events = now;
        if settled {
            break;
        }
    }
    let mut out: Out = Vec::new();
    let mut run: Vec<&TransportEvent> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        // Judged by the probe that caused it (`Checker::judged_events`).
        if c.judged_events.contains(&i) {
            continue;
        }
        if matches!(
            event,
            TransportEvent::NotJson { .. } | TransportEvent::NotJsonRpc { .. }
        ) {
            run.push(event);
            continue;
        }
        out.extend(stdout_lines(c, &run));
        run.clear();
        out.push(match event {
            TransportEvent::ServerRequest { .. } if c.modern() => {
                Note::broke(&clauses::STDIO_NO_REQUESTS, event.to_string())
            }
            TransportEvent::UnmatchedReply { .. } => {
                Note::broke_in(c.era, &clauses::RESULT_ID, event.to_string())
            }
            // The session's client waits only 200 ms for a stream to end after its
            // response, so as not to hold up the check: on a loaded machine an honest server
            // can take longer, and a SHOULD broken must not rest on that. `http/responses`
            // holds the clause with a 2 s wait of its own; here it is for the record.
            TransportEvent::StreamLeftOpen { .. } => Note::info(format!(
                "{event} (http/responses holds a server to {} with a longer wait)",
                clauses::HTTP_RESPONSE_ENDS_STREAM.id
            )),
            // Its 2025-11-25 twin, which `broke_in` holds a 2025-era server to.
            TransportEvent::NotUtf8 { .. } => {
                Note::broke_in(c.era, &clauses::UTF8, event.to_string())
            }
            // No clause caps a message (too long, too deep: the client's limit, named),
            // nor says a request gets one response only (JSON-RPC 2.0 asks a Response
            // for each call, and a second is not a missing one), nor bounds how fast a
            // server may send requests: for the record.
            _ => Note::info(event.to_string()),
        });
    }
    out.extend(stdout_lines(c, &run));
    let mut out = at_most_of_a_kind(out, 10);
    if let Some(dead) = &c.dead {
        out.push(Note::broke_in(
            c.era,
            &clauses::JSONRPC_RESPONSE,
            format!("the server stopped answering: {dead}"),
        ));
    }
    c.push_probe(ID, out);
}

/// Consecutive stdout lines that are not messages: one finding for a run that joins into
/// whole JSON-RPC messages (written over several lines), else one per line.
fn stdout_lines(c: &Checker<'_>, run: &[&TransportEvent]) -> Out {
    let lines: Vec<&str> = run
        .iter()
        .filter_map(|e| match e {
            TransportEvent::NotJson { line, .. } | TransportEvent::NotJsonRpc { line } => {
                Some(line.as_str())
            }
            _ => None,
        })
        .collect();
    if let Some(messages) = super::stdio_framing::split_messages(&lines) {
        let clause = if c.modern() {
            &clauses::STDIO_NO_EMBEDDED_NEWLINES
        } else {
            &clauses::LEGACY_STDIO_NO_EMBEDDED_NEWLINES
        };
        return vec![Note::broke(
            clause,
            format!(
                "{} message(s) written over {} lines of stdout: {}",
                messages,
                lines.len(),
                mcp_test::cases::shorten(&lines.join("\\n"), 200)
            ),
        )];
    }
    let clause = if c.modern() {
        &clauses::STDIO_STDOUT
    } else {
        &clauses::LEGACY_STDIO_STDOUT
    };
    run.iter()
        .map(|e| Note::broke(clause, e.to_string()))
        .collect()
}

/// `notes` with at most `keep` of each kind (clause and severity): a flood of one misdeed
/// (100,000 lines on stdout, requests from the server) is the first few, then one note
/// counting the rest, with the same clause.
fn at_most_of_a_kind(notes: Out, keep: usize) -> Out {
    /// A kind of note (its clause and severity), how many there were, and the clause.
    type Kind = (
        (Option<&'static str>, crate::Severity),
        usize,
        Option<Clause>,
    );
    let kind = |n: &Note| (n.clause.map(|c| c.id), n.severity);
    let mut counts: Vec<Kind> = Vec::new();
    let mut out = Vec::new();
    for note in notes {
        let k = kind(&note);
        let seen = match counts.iter_mut().find(|(c, _, _)| *c == k) {
            Some((_, n, _)) => {
                *n += 1;
                *n
            }
            None => {
                counts.push((k, 1, note.clause));
                1
            }
        };
        if seen <= keep {
            out.push(note);
        }
    }
    for ((_, severity), n, clause) in counts {
        if n > keep {
            let message = format!(
                "{} more findings like the {keep} above, not listed one by one",
                n - keep
            );
            out.push(match clause {
                Some(clause) => Note {
                    severity,
                    clause: Some(clause),
                    message,
                    request: None,
                },
                None => Note::info(message),
            });
        }
    }
    out
}
