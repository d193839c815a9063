//! The Streamable HTTP probes: raw requests beside the MCP client's session, each with its own
//! headers, methods (GET, DELETE) and bodies, to see what the transport answers where the spec
//! fixes it.
//!
//! - `http/header-mirroring` (`raw_http::header_mirroring`): mirrored headers that disagree
//!   with the body or are missing are 400 with -32020, a Base64-encoded `Mcp-Name` is decoded;
//! - `http/origin`: a request with a foreign `Origin` must be refused with 403;
//! - `http/responses`: a request is answered with JSON or SSE (with `X-Accel-Buffering: no`,
//!   ending with the response), and no server request rides an SSE reply; a notification is
//!   answered 202 with no body, or with an HTTP error status;
//! - `http/status-codes`: an unsupported `MCP-Protocol-Version` is 400 (-32022 in 2026-07-28,
//!   whose code the methods probe judges), an unknown method (-32601) 404;
//! - `http/earlier-revisions`: for a server that speaks only 2026-07-28, GET and DELETE are
//!   405 and `Mcp-Session-Id` and `Last-Event-ID` are ignored; for a 2025-era server, its own
//!   session: a visible-ASCII id, GET an SSE stream or 405, a request without the session 400,
//!   and a session it ended by DELETE 404.
//!
//! Nothing here runs a tool (the one `tools/call` names a tool that does not exist) or changes
//! the server's state beyond a session of its own (a 2025-era server, or a dual-era one that
//! answers `initialize`), which it ends by DELETE.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`HTTP_CONTENT_TYPE`](clauses::HTTP_CONTENT_TYPE),
//! [`HTTP_GET_DELETE_405`](clauses::HTTP_GET_DELETE_405),
//! [`HTTP_LAST_EVENT_ID`](clauses::HTTP_LAST_EVENT_ID),
//! [`HTTP_METHOD_NOT_FOUND`](clauses::HTTP_METHOD_NOT_FOUND),
//! [`HTTP_NOTIFICATION_202`](clauses::HTTP_NOTIFICATION_202),
//! [`HTTP_NO_REQUESTS`](clauses::HTTP_NO_REQUESTS),
//! [`HTTP_NO_SESSIONS`](clauses::HTTP_NO_SESSIONS), [`HTTP_ORIGIN`](clauses::HTTP_ORIGIN),
//! [`HTTP_RESPONSE_ENDS_STREAM`](clauses::HTTP_RESPONSE_ENDS_STREAM),
//! [`HTTP_UNSUPPORTED_VERSION`](clauses::HTTP_UNSUPPORTED_VERSION),
//! [`HTTP_X_ACCEL_BUFFERING`](clauses::HTTP_X_ACCEL_BUFFERING),
//! [`LEGACY_HTTP_CONTENT_TYPE`](clauses::LEGACY_HTTP_CONTENT_TYPE),
//! [`LEGACY_HTTP_GET_STREAM`](clauses::LEGACY_HTTP_GET_STREAM),
//! [`LEGACY_HTTP_NOTIFICATION_202`](clauses::LEGACY_HTTP_NOTIFICATION_202),
//! [`LEGACY_HTTP_ORIGIN`](clauses::LEGACY_HTTP_ORIGIN),
//! [`LEGACY_HTTP_RESPONSE_ENDS_STREAM`](clauses::LEGACY_HTTP_RESPONSE_ENDS_STREAM),
//! [`LEGACY_HTTP_SESSION_ID_ASCII`](clauses::LEGACY_HTTP_SESSION_ID_ASCII),
//! [`LEGACY_HTTP_SESSION_REQUIRED`](clauses::LEGACY_HTTP_SESSION_REQUIRED),
//! [`LEGACY_HTTP_SESSION_TERMINATED`](clauses::LEGACY_HTTP_SESSION_TERMINATED),
//! [`LEGACY_HTTP_UNSUPPORTED_VERSION`](clauses::LEGACY_HTTP_UNSUPPORTED_VERSION).

use super::http_exchange::{LAST_EVENT_ID, SESSION_ID, Watched, json_headers, put};
use super::raw_http;
use crate::run::Run;
use crate::{Note, Out, Shown};
use bytes::Bytes;
use futures_util::future::LocalBoxFuture;
use http::header::{ACCEPT, CONTENT_TYPE, ORIGIN};
use http::{HeaderMap, HeaderValue, Method};
use http_body_util::BodyExt;
use mcp_test::cases::shorten;
use mcp_test::client::HttpOptions;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::wire::Era;
use mcp_test::wire::error_codes::{METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION};
use serde_json::{Value, json};
use std::time::Duration;

/// The probes run here, in the order they are reported.
pub(crate) const PROBES: [&str; 5] = [
    "http/header-mirroring",
    "http/origin",
    "http/responses",
    "http/status-codes",
    "http/earlier-revisions",
];

/// An origin no local server can mean to allow.
const FOREIGN_ORIGIN: &str = "http://mcp-test.invalid";
/// How long an SSE reply may stay open after its response before it is called open.
const STREAM_SETTLE: Duration = Duration::from_secs(2);
/// A protocol version no server implements.
const NO_SUCH_VERSION: &str = "1999-01-01";

/// Whether a `Content-Type` is one of the two a reply to a request may have.
fn json_or_sse(content_type: &str) -> bool {
    let media = content_type.split(';').next().unwrap_or("").trim();
    media.eq_ignore_ascii_case("application/json")
        || media.eq_ignore_ascii_case("text/event-stream")
}

/// The raw HTTP client of [`http_exchange`](super::http_exchange), with the reading these
/// probes need, and the options it was made with (for the probes that open connections of
/// their own).
struct Wire {
    raw: super::http_exchange::Wire,
    options: HttpOptions,
}

impl Wire {
    /// Sends one request. A reply that is an SSE stream to a GET or DELETE is not read (it may
    /// stay open): its head is enough. An error: nothing usable came back in time.
    async fn send(
        &self,
        method: Method,
        headers: HeaderMap,
        body: Option<&Value>,
    ) -> Result<Watched, String> {
        let bytes = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
        let streams_allowed = method != Method::POST;
        let deadline = tokio::time::Instant::now() + self.raw.timeout;
        let (mut raw, incoming) = self.raw.head(method, headers, bytes, deadline).await?;
        if streams_allowed && raw.is_sse() {
            return Ok(raw);
        }
        raw.body = tokio::time::timeout_at(deadline, incoming.collect())
            .await
            .map_err(|_| format!("no reply within {:?}", self.raw.timeout))?
            .map_err(|e| format!("reading the reply failed: {e}"))?
            .to_bytes();
        raw.ended = true;
        Ok(raw)
    }

    /// POSTs `body` with `headers` and reads the reply frame by frame. An SSE reply that has
    /// carried a response is given `settle` more to end; whether it did is the second value
    /// (a JSON reply always ends).
    async fn post_watching_end(
        &self,
        headers: HeaderMap,
        body: &Value,
        settle: Duration,
    ) -> Result<(Watched, bool), String> {
        let deadline = tokio::time::Instant::now() + self.raw.timeout;
        let bytes = Bytes::from(body.to_string());
        let (mut raw, mut incoming) = self
            .raw
            .head(Method::POST, headers, bytes, deadline)
            .await?;
        let sse = raw.is_sse();
        let mut data = Vec::new();
        let mut until = deadline;
        loop {
            let frame = match tokio::time::timeout_at(until, incoming.frame()).await {
                Err(_) if until < deadline => {
                    raw.body = Bytes::from(data);
                    return Ok((raw, false));
                }
                Err(_) => return Err(format!("no whole reply within {:?}", self.raw.timeout)),
                Ok(None) => break,
                Ok(Some(frame)) => frame.map_err(|e| format!("reading the reply failed: {e}"))?,
            };
            if let Ok(chunk) = frame.into_data() {
                data.extend_from_slice(&chunk);
            }
            let answered = mcp_test::transport::sse::messages(&data)
                .iter()
                .any(|m| m.get("result").is_some() || m.get("error").is_some());
            if sse && answered && until == deadline {
                until = (tokio::time::Instant::now() + settle).min(deadline);
            }
        }
        raw.body = Bytes::from(data);
        raw.ended = true;
        Ok((raw, true))
    }

    /// POSTs `body` with the headers of a 2026-07-28 client (every mirrored header), then
    /// `extra` on top (an empty value removes the header).
    async fn post_modern(&self, body: &Value, extra: &[(&str, &str)]) -> Result<Watched, String> {
        let mut headers = json_headers();
        for (name, value) in mcp_test::wire::build::mirrored_headers(body) {
            put(&mut headers, &name, &value);
        }
        for (name, value) in extra {
            put(&mut headers, name, value);
        }
        self.send(Method::POST, headers, Some(body)).await
    }
}

fn shown(what: &str) -> Option<Shown> {
    Some(Shown {
        method: what.to_owned(),
        id: None,
    })
}

/// What the raw probes found, by probe (in [`PROBES`] order); `Err` is a probe not run, and why.
pub(crate) type Found = Vec<(&'static str, Result<Out, String>)>;

/// The row: the raw HTTP probes against the connection's endpoint, each recorded (or skipped,
/// with why).
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, http) = r.endpoint();
        for (probe, found) in requests(&url, &http, r.c.era, r.options.timeout).await {
            match found {
                Ok(out) => r.c.push_probe(probe, out),
                Err(why) => r.c.skip_probe(probe, why),
            }
        }
    })
}

/// Runs the HTTP probes against `url`, for a server of `era`.
pub(crate) async fn requests(
    url: &str,
    options: &HttpOptions,
    era: Era,
    timeout: Duration,
) -> Found {
    let wire = match super::http_exchange::Wire::new(url, options, timeout) {
        Ok(raw) => Wire {
            raw,
            options: options.clone(),
        },
        Err(why) => return PROBES.iter().map(|p| (*p, Err(why.clone()))).collect(),
    };
    match era {
        Era::Current => modern(&wire, url).await,
        Era::Legacy => legacy(&wire).await,
    }
}

/// The probes of a 2026-07-28 server.
async fn modern(wire: &Wire, url: &str) -> Found {
    let discover = mcp_test::wire::build::build_request("server/discover", json!({}));
    let mut found = Vec::new();
    // A server that answers a 2025-era initialize serves 2025-era clients as well: the rules
    // for a server that speaks only 2026-07-28 are not its.
    let dual = serves_initialize(wire).await;
    found.push((
        "http/header-mirroring",
        Ok(raw_http::header_mirroring(url, &wire.options, wire.raw.timeout, !dual).await),
    ));

    // http/origin: the same request as the client's first, with a foreign Origin.
    let mut out = Vec::new();
    let on = shown(&format!("server/discover (Origin: {FOREIGN_ORIGIN})"));
    match wire
        .post_modern(&discover, &[("origin", FOREIGN_ORIGIN)])
        .await
    {
        Ok(reply) => out
            .extend(origin_finding(&clauses::HTTP_ORIGIN, &reply, wire.local()).map(|n| n.on(on))),
        Err(e) => out
            .push(Note::info(format!("a request with a foreign Origin got no reply: {e}")).on(on)),
    }
    out.extend(host_note(wire, &discover).await);
    found.push(("http/origin", Ok(out)));

    // http/responses: a request (with a string id, as any client may use), and a
    // notification.
    let mut out = Vec::new();
    let mut watched = discover.clone();
    watched["id"] = json!("mcp-test-responses");
    let mut headers = json_headers();
    for (name, value) in mcp_test::wire::build::mirrored_headers(&watched) {
        put(&mut headers, &name, &value);
    }
    match wire
        .post_watching_end(headers, &watched, STREAM_SETTLE)
        .await
    {
        Ok((reply, ended)) => {
            let found = watched_findings(Era::Current, &reply, ended);
            out.extend(found.into_iter().map(|n| n.on(shown("server/discover"))));
        }
        Err(e) => out.push(Note::info(format!(
            "server/discover, posted raw, got no reply: {e}"
        ))),
    }
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "mcp-test-no-such-request", "reason": "mcp-test"}});
    let mut headers = json_headers();
    put(
        &mut headers,
        mcp_test::headers::PROTOCOL_VERSION,
        mcp_test::wire::PROTOCOL_VERSION,
    );
    put(
        &mut headers,
        mcp_test::headers::METHOD,
        "notifications/cancelled",
    );
    match wire.send(Method::POST, headers, Some(&notification)).await {
        Ok(reply) => out.extend(
            notification_finding(&clauses::HTTP_NOTIFICATION_202, &reply)
                .map(|n| n.on(shown("notifications/cancelled"))),
        ),
        Err(e) => out.push(Note::info(format!("a notification got no reply: {e}"))),
    }
    found.push(("http/responses", Ok(out)));

    // http/status-codes: an unsupported version, an unknown method.
    let mut out = Vec::new();
    let unsupported = mcp_test::wire::build::build_request(
        "server/discover",
        json!({"_meta": {mcp_test::wire::meta_keys::PROTOCOL_VERSION: NO_SUCH_VERSION}}),
    );
    let on = shown(&format!(
        "server/discover (MCP-Protocol-Version: {NO_SUCH_VERSION})"
    ));
    match wire.post_modern(&unsupported, &[]).await {
        // Another answer than -32022 is the methods probe's to judge (the same request reaches
        // it through the client); only the status of -32022 is here.
        Ok(reply) if reply.code() == Some(i64::from(UNSUPPORTED_PROTOCOL_VERSION)) && reply.status != 400 => out.push(
            Note::broke(
                &clauses::HTTP_UNSUPPORTED_VERSION,
                format!(
                    "a request for protocol version {NO_SUCH_VERSION} (header and _meta) must be HTTP 400 with {UNSUPPORTED_PROTOCOL_VERSION} (UnsupportedProtocolVersionError); got {}",
                    reply.brief()
                ),
            )
            .on(on),
        ),
        Ok(_) => {}
        Err(e) => out.push(Note::info(e).on(on)),
    }
    let unknown = mcp_test::wire::build::build_request("mcp-test/no-such-method", json!({}));
    let on = shown("mcp-test/no-such-method");
    match wire.post_modern(&unknown, &[]).await {
        // Another code is the methods probe's to judge; only the status of -32601 is here.
        Ok(reply) if reply.code() == Some(i64::from(METHOD_NOT_FOUND)) && reply.status != 404 => {
            out.push(
                Note::broke(
                    &clauses::HTTP_METHOD_NOT_FOUND,
                    format!(
                        "an unknown method must be HTTP 404 with {METHOD_NOT_FOUND}; got {}",
                        reply.brief()
                    ),
                )
                .on(on),
            )
        }
        Ok(_) => {}
        Err(e) => out.push(Note::info(e).on(on)),
    }
    found.push(("http/status-codes", Ok(out)));

    // http/earlier-revisions: only for a server that speaks 2026-07-28 alone.
    if dual {
        found.push((
            "http/earlier-revisions",
            Err("the server also answers a 2025-era initialize, so it serves 2025-era clients, whose GET, DELETE and sessions 2026-07-28 leaves to the earlier revision".into()),
        ));
    } else {
        found.push((
            "http/earlier-revisions",
            Ok(earlier_revisions(wire, &discover).await),
        ));
    }
    found
}

impl Wire {
    /// Whether the server is reached on a loopback address (`localhost`, 127.0.0.0/8, `::1`).
    fn local(&self) -> bool {
        match self.raw.uri.host() {
            Some("localhost") => true,
            Some(host) => host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback()),
            None => false,
        }
    }
}

/// A reply to a request with a foreign `Origin`: 403 is right, any other refusal is noted (it
/// may be for another reason than the origin). Serving it breaks `clause` when the server is
/// local, where DNS rebinding is the attack the clause names and no origin can be valid
/// but its own; which origins a server on the network counts as valid is its own policy (a
/// public server may allow every origin), so there it is a note.
fn origin_finding(clause: &Clause, reply: &Watched, local: bool) -> Option<Note> {
    match reply.status {
        403 => None,
        200..=299 if !local => Some(Note::info(format!(
            "a request with Origin: {FOREIGN_ORIGIN} was served; {clause} asks a server to refuse an invalid Origin with 403, and which origins are valid for a server off this machine is its own policy, so a note: {}",
            reply.brief()
        ))),
        200..=299 => Some(Note::broke(
            clause,
            format!(
                "a request with Origin: {FOREIGN_ORIGIN} was served by a server on this machine, not refused with HTTP 403 (the DNS rebinding the clause guards against): {}",
                reply.brief()
            ),
        )),
        _ => Some(Note::info(format!(
            "a request with Origin: {FOREIGN_ORIGIN} was refused, but not with the HTTP 403 the spec names: {}",
            reply.brief()
        ))),
    }
}

/// A foreign `Host`: no clause names it, so serving it is only noted.
async fn host_note(wire: &Wire, body: &Value) -> Option<Note> {
    let reply = wire
        .post_modern(body, &[("host", "mcp-test.invalid")])
        .await
        .ok()?;
    (200..300).contains(&reply.status).then(|| {
        Note::info(format!(
            "a request with Host: mcp-test.invalid was served ({}); a local server that checks Host as well as Origin resists DNS rebinding better (no clause requires it)",
            reply.brief()
        ))
        .on(shown("server/discover (Host: mcp-test.invalid)"))
    })
}

/// [`request_findings`] on a reply read by [`Wire::post_watching_end`], and a finding when
/// it did not `end` within [`STREAM_SETTLE`] of carrying the response.
fn watched_findings(era: Era, reply: &Watched, ended: bool) -> Out {
    let mut found = request_findings(era, reply);
    if !ended {
        let clause = match era {
            Era::Current => &clauses::HTTP_RESPONSE_ENDS_STREAM,
            Era::Legacy => &clauses::LEGACY_HTTP_RESPONSE_ENDS_STREAM,
        };
        found.push(Note::broke(
            clause,
            format!(
                "the SSE reply was still open {STREAM_SETTLE:?} after it had carried the response"
            ),
        ));
    }
    found
}

/// A served reply to a request: JSON or SSE, with no server request in it.
fn request_findings(era: Era, reply: &Watched) -> Out {
    let mut out = Vec::new();
    if !(200..300).contains(&reply.status) {
        return out;
    }
    let content_type = reply.content_type();
    if !json_or_sse(&content_type) {
        let clause = match era {
            Era::Current => &clauses::HTTP_CONTENT_TYPE,
            Era::Legacy => &clauses::LEGACY_HTTP_CONTENT_TYPE,
        };
        out.push(Note::broke(
            clause,
            format!(
                "a request was answered with Content-Type {:?}, neither application/json nor text/event-stream: {}",
                content_type,
                reply.brief()
            ),
        ));
    }
    let buffering = reply
        .headers
        .get("x-accel-buffering")
        .and_then(|v| v.to_str().ok());
    if content_type.starts_with("text/event-stream")
        && !buffering.is_some_and(|v| v.trim().eq_ignore_ascii_case("no"))
    {
        out.push(Note::broke_in(
            era,
            &clauses::HTTP_X_ACCEL_BUFFERING,
            format!(
                "a request was answered with an SSE stream without `X-Accel-Buffering: no` (got {})",
                buffering.map_or("none".to_owned(), |v| format!("{v:?}"))
            ),
        ));
    }
    for message in reply.messages() {
        if message.get("method").is_some() && message.get("id").is_some() {
            out.push(Note::broke_in(
                era,
                &clauses::HTTP_NO_REQUESTS,
                format!(
                    "the reply to a request carries a server request: {}",
                    shorten(&message.to_string(), 200)
                ),
            ));
        }
    }
    out
}

/// A reply to a notification: 202 with no body, or an HTTP error status.
fn notification_finding(clause: &Clause, reply: &Watched) -> Option<Note> {
    let empty = reply.body.iter().all(u8::is_ascii_whitespace);
    match reply.status {
        202 if empty => None,
        400..=599 => None,
        _ => Some(Note::broke(
            clause,
            format!(
                "a notification must be answered HTTP 202 with no body (accepted) or an HTTP error status; got {}",
                reply.brief()
            ),
        )),
    }
}

/// Whether the server answers `initialize` as a 2025-era client sends it (no
/// `MCP-Protocol-Version`, no `_meta`) with a result: it then serves 2025-era clients too. A
/// session it mints for it is ended at once.
async fn serves_initialize(wire: &Wire) -> bool {
    let Ok(reply) = wire
        .send(Method::POST, json_headers(), Some(&initialize_body()))
        .await
    else {
        return false;
    };
    let served = reply
        .result()
        .is_some_and(|r| r.get("protocolVersion").is_some());
    if let Some(session) = reply.session().cloned() {
        let mut headers = HeaderMap::new();
        headers.insert(SESSION_ID, session);
        let _ = wire.send(Method::DELETE, headers, None).await;
    }
    served
}

fn initialize_body() -> Value {
    json!({"jsonrpc": "2.0", "id": "mcp-test-initialize", "method": "initialize",
        "params": {"protocolVersion": mcp_test::wire::LEGACY_PROTOCOL_VERSION, "capabilities": {},
                   "clientInfo": {"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}}})
}

/// 2025-era traffic at a server that speaks only 2026-07-28: GET and DELETE are 405,
/// `Mcp-Session-Id` and `Last-Event-ID` are ignored and no session id is minted or echoed.
async fn earlier_revisions(wire: &Wire, discover: &Value) -> Out {
    let mut out = Vec::new();
    for method in [Method::GET, Method::DELETE] {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
        headers.insert(SESSION_ID, HeaderValue::from_static("mcp-test-session"));
        let on = shown(method.as_str());
        match wire.send(method.clone(), headers, None).await {
            Ok(reply) if reply.status == 405 => {}
            Ok(reply) => out.push(
                Note::broke(
                    &clauses::HTTP_GET_DELETE_405,
                    format!(
                        "HTTP {method} to the MCP endpoint of a server that speaks only 2026-07-28 should be 405 Method Not Allowed; got {}",
                        reply.brief()
                    ),
                )
                .on(on),
            ),
            Err(e) => out.push(Note::info(format!("HTTP {method}: {e}")).on(on)),
        }
    }
    let cases: [(&str, &str, &Clause); 3] = [
        ("", "", &clauses::HTTP_NO_SESSIONS),
        (SESSION_ID, "mcp-test-session", &clauses::HTTP_NO_SESSIONS),
        (
            LAST_EVENT_ID,
            "mcp-test-event-1",
            &clauses::HTTP_LAST_EVENT_ID,
        ),
    ];
    // Whether the request without the header was served: only then is a refusal with it the
    // header's doing.
    let mut served = false;
    for (header, value, clause) in cases {
        let what = if header.is_empty() {
            "server/discover".to_owned()
        } else {
            format!("server/discover ({header}: {value})")
        };
        let extra: &[(&str, &str)] = if header.is_empty() {
            &[]
        } else {
            &[(header, value)]
        };
        let reply = match wire.post_modern(discover, extra).await {
            Ok(reply) => reply,
            Err(e) => {
                out.push(Note::info(format!("{what}: {e}")).on(shown(&what)));
                continue;
            }
        };
        if header.is_empty() {
            served = reply.result().is_some();
        } else if served && reply.result().is_none() {
            out.push(
                Note::broke(
                    clause,
                    format!("a request with {header}: {value} should be served as if the header were not there; got {}", reply.brief()),
                )
                .on(shown(&what)),
            );
        }
        if let Some(session) = reply.session() {
            out.push(
                Note::broke(
                    &clauses::HTTP_NO_SESSIONS,
                    format!(
                        "the reply carries Mcp-Session-Id: {}; a server that speaks only 2026-07-28 mints and echoes no session id",
                        String::from_utf8_lossy(session.as_bytes())
                    ),
                )
                .on(shown(&what)),
            );
        }
    }
    out
}

/// The probes of a 2025-era server, on a session of their own.
async fn legacy(wire: &Wire) -> Found {
    let mut found: Found = vec![(
        "http/header-mirroring",
        Err("a 2025-era server: the mirrored headers are 2026-07-28's".to_owned()),
    )];
    let init = initialize_body();

    // http/origin: initialize with a foreign Origin.
    let on = shown(&format!("initialize (Origin: {FOREIGN_ORIGIN})"));
    let mut headers = json_headers();
    headers.insert(ORIGIN, HeaderValue::from_static(FOREIGN_ORIGIN));
    let out: Out = match wire.send(Method::POST, headers, Some(&init)).await {
        Ok(reply) => {
            end_session(wire, &reply, None).await;
            origin_finding(&clauses::LEGACY_HTTP_ORIGIN, &reply, wire.local())
                .map(|n| n.on(on))
                .into_iter()
                .collect()
        }
        Err(e) => vec![
            Note::info(format!(
                "initialize with a foreign Origin got no reply: {e}"
            ))
            .on(on),
        ],
    };
    found.push(("http/origin", Ok(out)));

    // A session of the probes' own.
    let reply = match wire.send(Method::POST, json_headers(), Some(&init)).await {
        Ok(reply) if reply.result().is_some() => reply,
        Ok(reply) => {
            let why = format!("initialize, posted raw, was not served: {}", reply.brief());
            for probe in &PROBES[2..] {
                found.push((*probe, Err(why.clone())));
            }
            return found;
        }
        Err(e) => {
            let why = format!("initialize, posted raw, got no reply: {e}");
            for probe in &PROBES[2..] {
                found.push((*probe, Err(why.clone())));
            }
            return found;
        }
    };
    let version = reply
        .result()
        .and_then(|r| {
            r.get("protocolVersion")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap_or_else(|| Era::Legacy.revision().to_owned());
    let session = reply.session().cloned();
    let headers = |with_session: bool, version: &str| {
        let mut h = json_headers();
        put(&mut h, mcp_test::headers::PROTOCOL_VERSION, version);
        if with_session && let Some(s) = &session {
            h.insert(SESSION_ID, s.clone());
        }
        h
    };

    // http/responses: initialize's reply, notifications/initialized, ping.
    let mut out: Out = request_findings(Era::Legacy, &reply)
        .into_iter()
        .map(|n| n.on(shown("initialize")))
        .collect();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    match wire
        .send(Method::POST, headers(true, &version), Some(&initialized))
        .await
    {
        Ok(reply) => out.extend(
            notification_finding(&clauses::LEGACY_HTTP_NOTIFICATION_202, &reply)
                .map(|n| n.on(shown("notifications/initialized"))),
        ),
        Err(e) => out.push(Note::info(format!(
            "notifications/initialized got no reply: {e}"
        ))),
    }
    let ping = json!({"jsonrpc": "2.0", "id": "mcp-test-ping", "method": "ping"});
    match wire
        .post_watching_end(headers(true, &version), &ping, STREAM_SETTLE)
        .await
    {
        Ok((reply, ended)) => {
            let found = watched_findings(Era::Legacy, &reply, ended);
            out.extend(found.into_iter().map(|n| n.on(shown("ping"))));
        }
        Err(e) => out.push(Note::info(format!("ping got no reply: {e}"))),
    }
    found.push(("http/responses", Ok(out)));

    // http/status-codes: an unsupported MCP-Protocol-Version.
    let mut out = Vec::new();
    let on = shown(&format!("ping (MCP-Protocol-Version: {NO_SUCH_VERSION})"));
    match wire.send(Method::POST, headers(true, NO_SUCH_VERSION), Some(&ping)).await {
        Ok(reply) if reply.status == 400 => {}
        Ok(reply) => out.push(
            Note::broke(
                &clauses::LEGACY_HTTP_UNSUPPORTED_VERSION,
                format!("a request with MCP-Protocol-Version: {NO_SUCH_VERSION} must be HTTP 400; got {}", reply.brief()),
            )
            .on(on),
        ),
        Err(e) => out.push(Note::info(e).on(on)),
    }
    found.push(("http/status-codes", Ok(out)));

    // http/earlier-revisions: the session id, GET, no session, DELETE.
    let mut out = Vec::new();
    if let Some(id) = &session
        && !id.as_bytes().iter().all(|b| (0x21..=0x7e).contains(b))
    {
        out.push(
            Note::broke(
                &clauses::LEGACY_HTTP_SESSION_ID_ASCII,
                format!(
                    "the session id {:?} has characters outside visible ASCII (0x21 to 0x7E)",
                    String::from_utf8_lossy(id.as_bytes())
                ),
            )
            .on(shown("initialize")),
        );
    }
    let mut get = headers(true, &version);
    get.remove(CONTENT_TYPE);
    get.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
    match wire.send(Method::GET, get, None).await {
        Ok(reply) => out.extend(get_finding(&reply).map(|n| n.on(shown("GET")))),
        Err(e) => out.push(Note::info(format!("GET: {e}")).on(shown("GET"))),
    }
    if session.is_some() {
        let on = shown("ping (no Mcp-Session-Id)");
        match wire
            .send(Method::POST, headers(false, &version), Some(&ping))
            .await
        {
            Ok(reply) => out.extend(no_session_finding(&reply).map(|n| n.on(on))),
            Err(e) => out.push(Note::info(e).on(on)),
        }
        out.extend(end_session(wire, &reply, Some((version.as_str(), &ping))).await);
    }
    found.push(("http/earlier-revisions", Ok(out)));
    found
}

/// 2025-11-25: GET opens an SSE stream or is 405; a success of another type breaks it, other
/// refusals (a session rule, authentication) are not judged.
fn get_finding(reply: &Watched) -> Option<Note> {
    let sse = reply.content_type().starts_with("text/event-stream");
    match reply.status {
        200..=299 if !sse => Some(Note::broke(
            &clauses::LEGACY_HTTP_GET_STREAM,
            format!(
                "HTTP GET to the MCP endpoint must open an SSE stream (text/event-stream) or be 405; got {}",
                reply.brief()
            ),
        )),
        _ => None,
    }
}

/// 2025-11-25: a request without the session of a server that requires one should be 400.
fn no_session_finding(reply: &Watched) -> Option<Note> {
    match reply.status {
        200..=299 | 400 => None,
        401 | 403 => None,
        _ => Some(Note::broke(
            &clauses::LEGACY_HTTP_SESSION_REQUIRED,
            format!(
                "a request without Mcp-Session-Id was refused, but not with HTTP 400: {}",
                reply.brief()
            ),
        )),
    }
}

/// Ends the session `reply` minted, if any, with DELETE. With `then` (the version and a
/// request), when the DELETE was accepted, sends the request on the ended session: it must be
/// 404.
async fn end_session(wire: &Wire, reply: &Watched, then: Option<(&str, &Value)>) -> Option<Note> {
    let session = reply.session()?.clone();
    let mut headers = HeaderMap::new();
    headers.insert(SESSION_ID, session.clone());
    if let Some((version, _)) = then {
        put(&mut headers, mcp_test::headers::PROTOCOL_VERSION, version);
    }
    let deleted = wire.send(Method::DELETE, headers, None).await.ok()?;
    let (version, request) = then?;
    if !(200..300).contains(&deleted.status) {
        return None;
    }
    let mut headers = json_headers();
    put(&mut headers, mcp_test::headers::PROTOCOL_VERSION, version);
    headers.insert(SESSION_ID, session);
    let after = wire.send(Method::POST, headers, Some(request)).await.ok()?;
    (after.status != 404).then(|| {
        Note::broke(
            &clauses::LEGACY_HTTP_SESSION_TERMINATED,
            format!(
                "after DELETE ended the session (HTTP {}), a request on it must be HTTP 404; got {}",
                deleted.status,
                after.brief()
            ),
        )
        .on(shown("ping (on the ended session)"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(status: u16, content_type: &str, body: &str) -> Watched {
        let mut headers = HeaderMap::new();
        if !content_type.is_empty() {
            headers.insert(CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap());
        }
        Watched {
            status,
            headers,
            body: Bytes::from(body.to_owned()),
            ended: true,
        }
    }

    #[test]
    fn a_reply_to_a_request_is_json_or_sse_with_parameters_and_any_case() {
        assert!(json_or_sse("application/json"));
        assert!(json_or_sse("application/json; charset=utf-8"));
        assert!(json_or_sse("Text/Event-Stream"));
        assert!(!json_or_sse("text/plain"));
        assert!(!json_or_sse(""));
        let ok = raw(
            200,
            "application/json",
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        );
        assert!(request_findings(Era::Current, &ok).is_empty());
        let plain = raw(200, "text/plain", r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        let found = request_findings(Era::Legacy, &plain);
        assert_eq!(found[0].clause, Some(clauses::LEGACY_HTTP_CONTENT_TYPE));
        // An error status is not judged here.
        assert!(request_findings(Era::Current, &raw(400, "text/plain", "no")).is_empty());
    }

    #[test]
    fn a_server_request_on_a_stream_breaks_2026_and_is_a_note_for_2025() {
        let body = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
        let mut reply = raw(200, "text/event-stream", body);
        reply
            .headers
            .insert("x-accel-buffering", HeaderValue::from_static("no"));
        let modern = request_findings(Era::Current, &reply);
        assert_eq!(modern[0].clause, Some(clauses::HTTP_NO_REQUESTS));
        let old = request_findings(Era::Legacy, &reply);
        assert_eq!(old[0].clause, None);
        // Without `X-Accel-Buffering: no`: a SHOULD of 2026-07-28, a note for 2025.
        reply.headers.remove("x-accel-buffering");
        let modern = request_findings(Era::Current, &reply);
        assert_eq!(modern[0].clause, Some(clauses::HTTP_X_ACCEL_BUFFERING));
        assert_eq!(modern[0].severity, crate::Severity::Warning);
    }

    #[test]
    fn a_notification_is_202_empty_or_an_error_status() {
        let clause = &clauses::HTTP_NOTIFICATION_202;
        assert!(notification_finding(clause, &raw(202, "", "")).is_none());
        assert!(notification_finding(clause, &raw(400, "application/json", "{}")).is_none());
        assert!(notification_finding(clause, &raw(202, "text/plain", "ok")).is_some());
        assert!(notification_finding(clause, &raw(200, "", "")).is_some());
    }

    #[test]
    fn a_foreign_origin_served_is_a_defect_and_another_refusal_a_note() {
        let clause = &clauses::HTTP_ORIGIN;
        assert!(origin_finding(clause, &raw(403, "", ""), true).is_none());
        let served = origin_finding(clause, &raw(200, "application/json", "{}"), true).unwrap();
        assert_eq!(served.clause, Some(clauses::HTTP_ORIGIN));
        // Off this machine, which origins are valid is the server's policy: a note.
        let remote = origin_finding(clause, &raw(200, "application/json", "{}"), false).unwrap();
        assert_eq!(
            (remote.severity, remote.clause),
            (crate::Severity::Info, None)
        );
        let other = origin_finding(clause, &raw(400, "", ""), true).unwrap();
        assert_eq!(other.clause, None);
    }

    #[test]
    fn a_2025_get_is_a_stream_or_a_refusal() {
        assert!(get_finding(&raw(200, "text/event-stream", "")).is_none());
        assert!(get_finding(&raw(405, "", "")).is_none());
        assert!(get_finding(&raw(400, "", "")).is_none());
        let json = get_finding(&raw(200, "application/json", "{}")).unwrap();
        assert_eq!(json.clause, Some(clauses::LEGACY_HTTP_GET_STREAM));
        assert!(no_session_finding(&raw(400, "", "")).is_none());
        assert!(no_session_finding(&raw(200, "application/json", "{}")).is_none());
        let not_found = no_session_finding(&raw(404, "", "")).unwrap();
        assert_eq!(
            not_found.clause,
            Some(clauses::LEGACY_HTTP_SESSION_REQUIRED)
        );
    }
}
