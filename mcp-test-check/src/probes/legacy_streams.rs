//! `legacy/http/streams`: the SSE streams of a 2025-era session, 2025-11-25
//! basic/transports.mdx.
//!
//! The probe opens a session of its own (`initialize`, `notifications/initialized`, posted
//! raw beside the check's session), opens the GET stream when the server offers one, and
//! while it is open posts two requests: A, the first tool `check` calls with its base case
//! (`ping` when there is none) with a `progressToken` of the probe's own, and B, a `ping`.
//! Each reply is read until its response (within the check's timeout); the GET stream a
//! second longer, then it is dropped. When A's reply carried event IDs, a GET with
//! `Last-Event-ID` set to A's first one resumes it, read for a few seconds. The session is
//! ended by DELETE. Judged, each only where it applies:
//!
//! - `legacy/http/sse-priming` (SHOULD): a POST's SSE reply from a server that puts event IDs
//!   on its events starts with an event of an ID and empty data (a server that attaches no
//!   IDs, as resumability is optional, is not judged);
//! - `legacy/http/sse-retry` (SHOULD): a POST's SSE reply that ends before its response sent
//!   a `retry` field;
//! - `legacy/http/stream-messages-related` (SHOULD): no `notifications/progress` for another
//!   token on a request's stream;
//! - `legacy/http/get-no-responses` (MUST NOT): no JSON-RPC response on the GET stream,
//!   which was not resuming;
//! - `legacy/http/no-broadcast` (MUST NOT): no message with an id on two streams;
//! - `legacy/http/event-ids` (MUST): no event ID twice among the session's streams;
//! - `legacy/http/no-cross-replay` (MUST NOT): resuming A replays no response to another
//!   request, and nothing the GET stream or B's reply carried.
//!
//! Nothing is sent that `check` does not send anyway (one base case again, `ping`s), and
//! every stream is read for a bounded time.

use super::http_exchange::{LAST_EVENT_ID, Watched, Wire, base_calls, endpoint, is_response};
use super::stream_related;
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use http::{HeaderValue, Method};
use mcp_test::spec::clauses;
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "legacy/http/streams";

/// How long the GET stream is read after the requests were answered.
const GET_SETTLE: Duration = Duration::from_secs(1);
/// How long a resumed stream is read.
const REPLAY_WATCH: Duration = Duration::from_secs(2);
/// How long before the first request the GET stream is given to open.
const GET_OPEN: Duration = Duration::from_millis(200);

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, options) = endpoint(r);
        let call = base_calls(r).into_iter().next().map(|(tool, arguments)| {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            json!({"jsonrpc": "2.0", "id": A_ID, "method": "tools/call",
                   "params": {"name": name, "arguments": arguments,
                              "_meta": {"progressToken": stream_related::TOKEN}}})
        });
        let a = call.unwrap_or_else(|| {
            json!({"jsonrpc": "2.0", "id": A_ID, "method": "ping",
                   "params": {"_meta": {"progressToken": stream_related::TOKEN}}})
        });
        let out = match Wire::new(&url, &options, r.options.timeout) {
            Ok(wire) => {
                r.called.record(&a);
                match exchange(&wire, &a).await {
                    Ok(seen) => judge(&seen),
                    Err(why) => vec![Note::info(why)],
                }
            }
            Err(e) => vec![Note::info(format!("the probe did not run: {e}"))],
        };
        r.c.push_probe(ID, out);
    })
}

const A_ID: &str = "mcp-test-streams-a";
const B_ID: &str = "mcp-test-streams-b";

/// What the exchange saw.
#[derive(Clone, Debug, Default)]
struct Seen {
    /// Whether the server minted a session.
    session: bool,
    /// A's reply (`None`: no reply), and what A was.
    a: Option<Watched>,
    a_method: String,
    b: Option<Watched>,
    /// The GET stream, when the server opened one (an SSE reply).
    get: Option<Watched>,
    /// The resumed stream, when one was asked for and opened.
    replay: Option<Watched>,
}

async fn exchange(wire: &Wire, a: &Value) -> Result<Seen, String> {
    let session = wire
        .open_session(
            "mcp-test-streams-initialize",
            json!({}),
            Duration::ZERO,
            "posted raw",
        )
        .await
        .map_err(|e| format!("{e}, so no stream was watched"))?;
    wire.send_initialized(&session).await;

    let b = json!({"jsonrpc": "2.0", "id": B_ID, "method": "ping"});
    let posts = async {
        tokio::time::sleep(GET_OPEN).await;
        let a_reply = wire
            .post(session.headers(false), a, Duration::ZERO)
            .await
            .ok();
        let b_reply = wire
            .post(session.headers(false), &b, Duration::ZERO)
            .await
            .ok();
        tokio::time::sleep(GET_SETTLE).await;
        (a_reply, b_reply)
    };
    let (get, (a_reply, b_reply)) = wire
        .watch_while(Method::GET, session.headers(true), posts)
        .await;
    let get = get.filter(Watched::is_open_stream);

    // Resume A from its first event ID.
    let first_id = a_reply
        .as_ref()
        .and_then(|w| w.events().into_iter().find_map(|e| e.id));
    let mut replay = None;
    if let Some(id) = first_id
        && let Ok(value) = HeaderValue::from_str(&id)
    {
        let mut h = session.headers(true);
        h.insert(LAST_EVENT_ID, value);
        let window = tokio::time::sleep(REPLAY_WATCH.min(wire.timeout));
        let (stream, ()) = wire.watch_while(Method::GET, h, window).await;
        replay = stream.filter(Watched::is_open_stream);
    }
    wire.end_session(&session).await;
    Ok(Seen {
        session: session.id.is_some(),
        a_method: a["method"].as_str().unwrap_or("").to_owned(),
        a: a_reply,
        b: b_reply,
        get,
        replay,
    })
}

fn shown(what: &str) -> Option<Shown> {
    Some(Shown {
        method: what.to_owned(),
        id: None,
    })
}

/// Whether the body of `w` has a `retry` field (on any event, with data or not).
fn has_retry(w: &Watched) -> bool {
    String::from_utf8_lossy(&w.body)
        .lines()
        .any(|l| l.starts_with("retry:"))
}

fn judge(seen: &Seen) -> Out {
    let mut out = Vec::new();
    let a_label = format!("{} (the probe's request A)", seen.a_method);
    let posts: Vec<(&str, &Watched, Value, Value)> = [
        (
            a_label.as_str(),
            seen.a.as_ref(),
            json!(A_ID),
            json!(stream_related::TOKEN),
        ),
        (
            "ping (the probe's request B)",
            seen.b.as_ref(),
            json!(B_ID),
            Value::Null,
        ),
    ]
    .into_iter()
    .filter_map(|(what, w, id, token)| w.map(|w| (what, w, id, token)))
    .collect();
    for (what, w, id, token) in &posts {
        if !w.is_sse() {
            continue;
        }
        let on = shown(what);
        let events = w.events();
        // Priming: judged only for a server that attaches event IDs.
        if events.iter().any(|e| e.id.is_some()) {
            let primed = events
                .first()
                .is_some_and(|e| e.id.is_some() && e.data.trim().is_empty());
            if !primed {
                out.push(
                    Note::broke(
                        &clauses::LEGACY_HTTP_SSE_PRIMING,
                        format!(
                            "an SSE reply to a POST should start with an event of an event ID and empty data, to prime reconnection; the server puts IDs on its events, and this reply's first event was {}",
                            events.first().map_or("none".to_owned(), |e| format!(
                                "id {:?}, data {}",
                                e.id,
                                mcp_test::cases::shorten(&e.data, 120)
                            ))
                        ),
                    )
                    .on(on.clone()),
                );
            }
        }
        if w.ended && w.response(id).is_none() && !has_retry(w) {
            out.push(
                Note::broke(
                    &clauses::LEGACY_HTTP_SSE_RETRY,
                    "the server closed the SSE reply before its response and should have sent a `retry` field first; it sent none",
                )
                .on(on.clone()),
            );
        }
        out.extend(
            stream_related::unrelated(&clauses::LEGACY_HTTP_STREAM_RELATED, w, token, "should")
                .into_iter()
                .map(|n| n.on(on.clone())),
        );
    }
    if let Some(get) = &seen.get {
        let on = shown("GET (the session's stream)");
        if let Some(response) = get.messages().into_iter().find(is_response) {
            out.push(
                Note::broke(
                    &clauses::LEGACY_HTTP_GET_NO_RESPONSES,
                    format!(
                        "the GET stream, which was not resuming, must not carry a JSON-RPC response; it carried {}",
                        mcp_test::cases::shorten(&response.to_string(), 200)
                    ),
                )
                .on(on),
            );
        }
    }
    // Messages with an id on two streams.
    let mut streams: Vec<(&str, &Watched)> =
        posts.iter().map(|(what, w, _, _)| (*what, *w)).collect();
    if let Some(get) = &seen.get {
        streams.push(("the GET stream", get));
    }
    let mut broadcast = Vec::new();
    for (i, (what, w)) in streams.iter().enumerate() {
        for m in w.messages().into_iter().filter(|m| m.get("id").is_some()) {
            for (other, o) in &streams[i + 1..] {
                if o.messages().contains(&m) && !broadcast.contains(&m) {
                    out.push(
                        Note::broke(
                            &clauses::LEGACY_HTTP_NO_BROADCAST,
                            format!(
                                "each message must go on only one stream; {} came on {what} and on {other}",
                                mcp_test::cases::shorten(&m.to_string(), 200)
                            ),
                        )
                        .on(shown(what)),
                    );
                    broadcast.push(m.clone());
                }
            }
        }
    }
    // Event IDs, within a session (a server without sessions cannot tell its clients apart).
    if seen.session {
        let mut ids: Vec<(String, &str)> = Vec::new();
        let mut repeated = Vec::new();
        for (what, w) in &streams {
            for id in w.events().into_iter().filter_map(|e| e.id) {
                if let Some((_, first)) = ids.iter().find(|(seen, _)| *seen == id)
                    && !repeated.contains(&id)
                {
                    out.push(
                        Note::broke(
                            &clauses::LEGACY_HTTP_EVENT_IDS,
                            format!(
                                "event IDs must be unique across the session's streams; ID {id:?} came on {first} and again on {what}"
                            ),
                        )
                        .on(shown(what)),
                    );
                    repeated.push(id.clone());
                }
                ids.push((id, what));
            }
        }
    }
    if let Some(replay) = &seen.replay {
        let on = shown("GET (Last-Event-ID: the first event ID of A's reply)");
        let elsewhere: Vec<Value> = streams
            .iter()
            .skip(1)
            .flat_map(|(_, w)| w.messages())
            .collect();
        let a_messages = seen.a.as_ref().map(Watched::messages).unwrap_or_default();
        for m in replay.messages() {
            let other_response =
                is_response(&m) && m.get("id").is_some_and(|id| *id != json!(A_ID));
            let from_elsewhere = elsewhere.contains(&m) && !a_messages.contains(&m);
            if other_response || from_elsewhere {
                out.push(
                    Note::broke(
                        &clauses::LEGACY_HTTP_NO_CROSS_REPLAY,
                        format!(
                            "resuming a stream must not replay messages of another stream; resuming A's reply replayed {}",
                            mcp_test::cases::shorten(&m.to_string(), 200)
                        ),
                    )
                    .on(on.clone()),
                );
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use bytes::Bytes;
    use http::HeaderMap;

    /// An SSE reply of `events`: `(id, data)`.
    fn sse(events: &[(Option<&str>, String)], ended: bool) -> Watched {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", "text/event-stream".parse().unwrap());
        let body: String = events
            .iter()
            .map(|(id, data)| match id {
                Some(id) => format!("id: {id}\ndata: {data}\n\n"),
                None => format!("data: {data}\n\n"),
            })
            .collect();
        Watched {
            status: 200,
            headers,
            body: Bytes::from(body),
            ended,
        }
    }

    fn response(id: &str) -> String {
        json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string()
    }

    fn correct() -> Seen {
        Seen {
            session: true,
            a_method: "tools/call".into(),
            a: Some(sse(
                &[(Some("a0"), String::new()), (Some("a1"), response(A_ID))],
                true,
            )),
            b: Some(sse(
                &[(Some("b0"), String::new()), (Some("b1"), response(B_ID))],
                true,
            )),
            get: Some(sse(&[(Some("g0"), json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}).to_string())], false)),
            replay: Some(sse(&[(Some("a1"), response(A_ID))], false)),
        }
    }

    fn clauses_of(out: &Out) -> Vec<&'static str> {
        out.iter().filter_map(|n| n.clause.map(|c| c.id)).collect()
    }

    #[test]
    fn a_correct_session_has_no_finding() {
        assert!(judge(&correct()).is_empty(), "{:?}", judge(&correct()));
        // No event IDs at all: priming is not judged.
        let mut seen = correct();
        seen.a = Some(sse(&[(None, response(A_ID))], true));
        seen.b = Some(sse(&[(None, response(B_ID))], true));
        seen.replay = None;
        assert!(judge(&seen).is_empty(), "{:?}", judge(&seen));
    }

    #[test]
    fn no_priming_event_is_a_should() {
        let mut seen = correct();
        seen.a = Some(sse(&[(Some("a1"), response(A_ID))], true));
        let out = judge(&seen);
        assert_eq!(clauses_of(&out), ["legacy/http/sse-priming"]);
        assert_eq!(out[0].severity, Severity::Warning);
        assert!(out[0].message.contains("should"));
    }

    #[test]
    fn a_stream_closed_before_its_response_without_retry_is_a_should() {
        let mut seen = correct();
        seen.b = Some(sse(&[(Some("b0"), String::new())], true));
        let out = judge(&seen);
        assert_eq!(clauses_of(&out), ["legacy/http/sse-retry"]);
        assert_eq!(out[0].severity, Severity::Warning);
        // With a retry field, it is what the spec asks.
        let mut w = sse(&[(Some("b0"), String::new())], true);
        w.body = Bytes::from("id: b0\nretry: 1000\ndata: \n\n");
        seen.b = Some(w);
        assert!(judge(&seen).is_empty());
    }

    #[test]
    fn progress_for_another_token_is_a_should() {
        let mut seen = correct();
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                              "params": {"progressToken": "other", "progress": 1}});
        seen.a = Some(sse(
            &[
                (Some("a0"), String::new()),
                (Some("a2"), progress.to_string()),
                (Some("a1"), response(A_ID)),
            ],
            true,
        ));
        let out = judge(&seen);
        assert_eq!(clauses_of(&out), ["legacy/http/stream-messages-related"]);
        assert_eq!(out[0].severity, Severity::Warning);
    }

    #[test]
    fn a_response_on_the_get_stream_breaks_two_musts() {
        let mut seen = correct();
        seen.get = Some(sse(&[(Some("g0"), response(A_ID))], false));
        let out = judge(&seen);
        assert_eq!(
            clauses_of(&out),
            ["legacy/http/get-no-responses", "legacy/http/no-broadcast"]
        );
        assert!(out.iter().all(|n| n.severity == Severity::Defect));
        assert!(out[0].message.contains("must not"));
    }

    #[test]
    fn an_event_id_on_two_streams_breaks_the_must() {
        let mut seen = correct();
        seen.b = Some(sse(
            &[(Some("a0"), String::new()), (Some("b1"), response(B_ID))],
            true,
        ));
        let out = judge(&seen);
        assert_eq!(clauses_of(&out), ["legacy/http/event-ids"]);
        assert!(out[0].message.contains("must"));
        // Without a session, nothing says which streams are one client's.
        seen.session = false;
        assert!(judge(&seen).is_empty());
    }

    #[test]
    fn replaying_another_streams_messages_breaks_the_must_not() {
        let mut seen = correct();
        seen.replay = Some(sse(
            &[(Some("a1"), response(A_ID)), (Some("b1"), response(B_ID))],
            false,
        ));
        let out = judge(&seen);
        assert_eq!(clauses_of(&out), ["legacy/http/no-cross-replay"]);
        assert!(out[0].message.contains("must not"));
    }
}
