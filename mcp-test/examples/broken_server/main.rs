//! A server that breaks the spec on purpose, one requirement per switch, for testing the
//! checker: with no switch on it is a correct 2026-07-28 server (`mcp-test check` finds
//! nothing on it, over stdio or HTTP); each `--break SWITCH` breaks exactly one requirement
//! of the spec, and `mcp-test/tests/broken_server.rs` asserts that `check` then reports that
//! requirement and nothing else.
//!
//! ```text
//! cargo run -p mcp-test --example broken_server                              # stdio, correct
//! cargo run -p mcp-test --example broken_server -- --break tools/call-no-params-internal-error
//! cargo run -p mcp-test --example broken_server -- --http 127.0.0.1:0       # HTTP, /mcp
//! cargo run -p mcp-test --example broken_server -- --list                   # the switches, as JSON
//! cargo run -p mcp-test --example broken_server -- --http 127.0.0.1:0 --trust-issuer http://127.0.0.1:PORT
//! ```
//!
//! The correct server is this crate's runtime. The breaks are rewrites of the raw wire around
//! it: of each JSON-RPC message on its way in or out, on both transports (`Hooks::incoming`,
//! `Hooks::outgoing`), and, over HTTP, of the request and response heads. One module per area
//! of the requirements matrix holds its switches and its rewrites.

mod auth;
mod authorization;
mod base;
mod http_area;
mod logging;
mod multi_round_area;
mod resources;
mod server;
mod stdio_area;
mod tasks_area;
mod tools;

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use mcp_test::ServerBuilder;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// One way to break the server.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Switch {
    /// `--break NAME`.
    pub name: &'static str,
    /// What it does wrong.
    pub about: &'static str,
    /// The clause (`mcp_test::spec::clauses`) it breaks, by id.
    pub clause: &'static str,
    /// The probe of `check` that must report it, and no other.
    pub probe: &'static str,
    /// The transports on which the break shows: `stdio`, `http`, or `http-auth` (HTTP with
    /// `--trust-issuer`, checked with a token of that issuer and `--auth-issuer`).
    pub transports: &'static [&'static str],
}

/// Both transports.
pub const BOTH: &[&str] = &["stdio", "http"];
/// Only stdio.
pub const STDIO: &[&str] = &["stdio"];
/// Only HTTP.
pub const HTTP: &[&str] = &["http"];

/// The switches turned on.
#[derive(Clone, Debug, Default)]
pub struct Breaks(BTreeSet<String>);

impl Breaks {
    /// Whether `--break name` was given.
    pub fn on(&self, name: &str) -> bool {
        self.0.contains(name)
    }
}

/// What a message on its way in becomes.
pub enum Incoming {
    /// Passed on to the server (as rewritten).
    Pass,
    /// Answered here with these messages (none: dropped); the server never sees it.
    Answer(Vec<Value>),
}

/// The rewrites of one area. Every method's default leaves the wire alone.
pub trait Hooks: Sync {
    /// The area's switches.
    fn switches(&self) -> &'static [Switch];

    /// Adds to the correct server what the area needs (tools, resources...). Must not break
    /// anything by itself: the server with no switch on is correct.
    fn build(&self, builder: ServerBuilder) -> ServerBuilder {
        builder
    }

    /// A message from the client before the server sees it.
    fn incoming(&self, _on: &Breaks, _message: &mut Value) -> Incoming {
        Incoming::Pass
    }

    /// A message from the server (a response, a notification or a request) before the client
    /// sees it, with the request it answers, if any; `before` is sent ahead of it.
    fn outgoing(
        &self,
        _on: &Breaks,
        _request: Option<&Value>,
        _message: &mut Value,
        _before: &mut Vec<Value>,
    ) {
    }

    /// HTTP: the head of a request before the server sees it; `Some` answers it here.
    fn http_request(&self, _on: &Breaks, _head: &mut http::request::Parts) -> Option<Response> {
        None
    }

    /// HTTP: the head of a request with its JSON body, before the server (and `incoming`) sees
    /// them; for a break that needs both (a header made to agree with the body).
    fn http_message(&self, _on: &Breaks, _head: &mut http::request::Parts, _message: &mut Value) {}

    /// HTTP: whether the reply to `request` (the JSON body as the client sent it) is an SSE
    /// stream left open after its messages (it should end with the response).
    fn http_keep_open(&self, _on: &Breaks, _request: &Value) -> bool {
        false
    }

    /// HTTP: the head of a response, with the head of its request.
    fn http_response(
        &self,
        _on: &Breaks,
        _request: &http::request::Parts,
        _head: &mut http::response::Parts,
    ) {
    }

    /// stdio: whether the process keeps running after its input closes (it should exit).
    fn ignore_eof(&self, _on: &Breaks) -> bool {
        false
    }

    /// stdio: lines written to stdout after a message, with the request it answers, if any
    /// (they should all be messages). After, not before: a line that is not a message fails
    /// every request the client has in flight, and once a response is out its request is not.
    fn stdout_noise(
        &self,
        _on: &Breaks,
        _request: Option<&Value>,
        _message: &Value,
    ) -> Vec<String> {
        Vec::new()
    }
}

/// The method of a message (a request's, when the rewrite of its answer asks).
pub fn method(message: Option<&Value>) -> Option<&str> {
    message?.get("method")?.as_str()
}

/// A field of a request's `_meta`.
pub fn meta<'a>(request: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    request?.pointer("/params/_meta")?.get(key)
}

/// Every area, in the order their rewrites apply.
const AREAS: &[&dyn Hooks] = &[
    &base::Base,
    &tools::Tools,
    &resources::Resources,
    &logging::Logging,
    &stdio_area::Stdio,
    &http_area::Http,
    &tasks_area::Tasks,
    &multi_round_area::MultiRound,
    &authorization::Authorization,
    &auth::Auth,
];

/// Every switch of every area.
pub fn switches() -> Vec<Switch> {
    AREAS
        .iter()
        .flat_map(|a| a.switches().iter().copied())
        .collect()
}

/// The fixture's state: the switches on, and the requests in flight by id (so a response's
/// rewrite can see the request it answers).
struct Fixture {
    on: Breaks,
    requests: Mutex<HashMap<String, Value>>,
}

impl Fixture {
    fn incoming(&self, message: &mut Value) -> Incoming {
        for area in AREAS {
            if let Incoming::Answer(mut messages) = area.incoming(&self.on, message) {
                for answer in &mut messages {
                    base::name_server(&self.on, Some(message), answer);
                }
                return Incoming::Answer(messages);
            }
        }
        if message.get("method").is_some()
            && let Some(id) = message.get("id")
        {
            let mut requests = self.requests.lock().expect("not poisoned");
            requests.insert(id.to_string(), message.clone());
        }
        Incoming::Pass
    }

    /// `message` and what goes before it, rewritten.
    fn outgoing(&self, message: Value) -> Vec<Value> {
        self.outgoing_for(message).1
    }

    /// [`Fixture::outgoing`], with the request `message` answers, if any.
    fn outgoing_for(&self, mut message: Value) -> (Option<Value>, Vec<Value>) {
        let request = if message.get("method").is_none() {
            message.get("id").and_then(|id| {
                let mut requests = self.requests.lock().expect("not poisoned");
                requests.remove(&id.to_string())
            })
        } else {
            None
        };
        let mut before = Vec::new();
        for area in AREAS {
            area.outgoing(&self.on, request.as_ref(), &mut message, &mut before);
        }
        base::name_server(&self.on, request.as_ref(), &mut message);
        before.push(message);
        (request, before)
    }
}

/// Runs the fixture (`pub` so the tests crate can build this file into a binary of its own).
#[tokio::main]
pub async fn main() -> std::io::Result<()> {
    let mut on = BTreeSet::new();
    let mut http_addr = None;
    let mut issuer = None;
    let known: Vec<&str> = switches().iter().map(|s| s.name).collect();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--list" => {
                let list = serde_json::to_string_pretty(&switches()).expect("serializable");
                println!("{list}");
                return Ok(());
            }
            "--http" => http_addr = Some(args.next().unwrap_or_else(|| usage())),
            "--trust-issuer" => issuer = Some(args.next().unwrap_or_else(|| usage())),
            "--break" => {
                let name = args.next().unwrap_or_else(|| usage());
                if !known.contains(&name.as_str()) {
                    eprintln!("no switch named {name:?}; `--list` lists them");
                    std::process::exit(2);
                }
                on.insert(name);
            }
            _ => usage(),
        }
    }
    let mut builder = server::builder();
    for area in AREAS {
        builder = area.build(builder);
    }
    if on.iter().any(|name| legacy(name)) {
        // A 2025-era server, so that `check` speaks the initialize handshake to it.
        builder = builder.eras([mcp_test::wire::Era::Legacy]);
    }
    let server = builder.build().expect("the fixture server builds");
    let fixture = Arc::new(Fixture {
        on: Breaks(on),
        requests: Mutex::default(),
    });
    match http_addr {
        None => serve_stdio(server, fixture).await,
        Some(addr) => serve_http(server, fixture, &addr, issuer.as_deref()).await,
    }
}

/// Whether switch `name` makes the fixture a 2025-era server.
fn legacy(name: &str) -> bool {
    name == base::VERSION_ECHOED || multi_round_area::LEGACY_ONLY.contains(&name)
}

fn usage() -> ! {
    eprintln!(
        "usage: broken_server [--http 127.0.0.1:PORT [--trust-issuer URL]] [--break SWITCH]... | --list"
    );
    std::process::exit(2)
}

/// stdio: the runtime's stdio transport on an in-memory pipe, with the rewrites between it
/// and the real stdin and stdout.
async fn serve_stdio(server: mcp_test::Server, fixture: Arc<Fixture>) -> std::io::Result<()> {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_end);
    let (from_server, mut to_server) = tokio::io::split(client_end);
    let serving = tokio::spawn(mcp_test::transport::stdio::serve(
        server,
        server_read,
        server_write,
        mcp_test::transport::stdio::StdioConfig::default(),
    ));
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = out_rx.recv().await {
            stdout.write_all(line.as_bytes()).await?;
            stdout.write_all(b"\n").await?;
            stdout.flush().await?;
        }
        Ok::<(), std::io::Error>(())
    });
    // The server's output, rewritten, to stdout.
    let pump_fixture = fixture.clone();
    let pump_tx = out_tx.clone();
    let pump = tokio::spawn(async move {
        let mut lines = BufReader::new(from_server).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                let _ = pump_tx.send(line);
                continue;
            };
            let (request, messages) = pump_fixture.outgoing_for(message);
            for message in messages {
                let _ = pump_tx.send(message.to_string());
                for area in AREAS {
                    for noise in area.stdout_noise(&pump_fixture.on, request.as_ref(), &message) {
                        let _ = pump_tx.send(noise);
                    }
                }
            }
        }
    });
    // stdin, rewritten, to the server.
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Some(line) = lines.next_line().await? {
        let Ok(mut message) = serde_json::from_str::<Value>(&line) else {
            match base::unparsable(&fixture.on) {
                base::Unparsable::Pass => {
                    to_server.write_all(line.as_bytes()).await?;
                    to_server.write_all(b"\n").await?;
                }
                base::Unparsable::Answer(answer) => {
                    let _ = out_tx.send(answer.to_string());
                }
            }
            continue;
        };
        match fixture.incoming(&mut message) {
            Incoming::Pass => {
                to_server.write_all(message.to_string().as_bytes()).await?;
                to_server.write_all(b"\n").await?;
            }
            Incoming::Answer(messages) => {
                for m in messages {
                    let _ = out_tx.send(m.to_string());
                }
            }
        }
    }
    if AREAS.iter().any(|a| a.ignore_eof(&fixture.on)) {
        std::future::pending::<()>().await;
    }
    to_server.shutdown().await?;
    let _ = serving.await;
    let _ = pump.await;
    drop(out_tx);
    let _ = writer.await;
    Ok(())
}

/// HTTP: the runtime's Streamable HTTP router behind a middleware that applies the rewrites;
/// with `issuer`, a resource server trusting it (`auth::protect`).
async fn serve_http(
    server: mcp_test::Server,
    fixture: Arc<Fixture>,
    addr: &str,
    issuer: Option<&str>,
) -> std::io::Result<()> {
    use mcp_test::transport::http;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    let router = match issuer {
        Some(issuer) => {
            let (config, metadata) =
                auth::protect(&fixture.on, issuer, &format!("http://{local}/mcp"));
            http::router(server, config).merge(metadata)
        }
        // The well-known URIs of protected-resource metadata go through the rewrites too
        // (404 unless a switch serves them).
        None => http::router(server, http::HttpConfig::default()).route(
            "/.well-known/{*rest}",
            axum::routing::get(|| async { axum::http::StatusCode::NOT_FOUND }),
        ),
    };
    let router = router.layer(axum::middleware::from_fn(move |request, next| {
        let fixture = fixture.clone();
        async move { rewrite_http(fixture, request, next).await }
    }));
    eprintln!("listening on {local}");
    // With the peer's address in each request, for breaks that key on the TCP connection.
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await
}

async fn rewrite_http(
    fixture: Arc<Fixture>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let (mut head, body) = request.into_parts();
    for area in AREAS {
        if let Some(response) = area.http_request(&fixture.on, &mut head) {
            return response;
        }
    }
    let Ok(bytes) = axum::body::to_bytes(body, 64 << 20).await else {
        return (http::StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
    };
    let mut body = bytes.to_vec();
    let mut streamed = false;
    let mut keep_open = false;
    let parsed = serde_json::from_slice::<Value>(&bytes);
    if parsed.is_err() && head.method == http::Method::POST && !bytes.is_empty() {
        match base::unparsable(&fixture.on) {
            base::Unparsable::Pass => {}
            base::Unparsable::Answer(answer) => return self::answer(vec![answer]),
        }
    }
    if let Ok(mut message) = parsed {
        streamed = message.get("method").and_then(Value::as_str) == Some("subscriptions/listen");
        keep_open = AREAS
            .iter()
            .any(|a| a.http_keep_open(&fixture.on, &message));
        for area in AREAS {
            area.http_message(&fixture.on, &mut head, &mut message);
        }
        match fixture.incoming(&mut message) {
            Incoming::Pass => body = message.to_string().into_bytes(),
            Incoming::Answer(messages) => return answer(messages),
        }
    }
    head.headers.remove(http::header::CONTENT_LENGTH);
    let request_head = head.clone();
    let response = next
        .run(axum::extract::Request::from_parts(head, Body::from(body)))
        .await;
    let (mut response_head, response_body) = response.into_parts();
    // What the runtime sent decides how its body is read, whatever a break makes of the head.
    let content_type = response_head
        .headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    for area in AREAS {
        area.http_response(&fixture.on, &request_head, &mut response_head);
    }
    // A stream that stays open (subscriptions/listen, a 2025-era session's GET stream)
    // passes as it is.
    if streamed || request_head.method == http::Method::GET {
        return Response::from_parts(response_head, response_body);
    }
    // A 2025-era server asks the client while a request runs, on its SSE reply, and waits
    // for the answer: each event is rewritten as it comes.
    if content_type.starts_with("text/event-stream")
        && !keep_open
        && fixture.on.0.iter().any(|name| legacy(name))
    {
        response_head.headers.remove(http::header::CONTENT_LENGTH);
        return Response::from_parts(response_head, rewritten_events(fixture, response_body));
    }
    let Ok(bytes) = axum::body::to_bytes(response_body, 64 << 20).await else {
        return (http::StatusCode::BAD_GATEWAY, "response too large").into_response();
    };
    let messages: Vec<Value> = if content_type.starts_with("application/json") {
        match serde_json::from_slice(&bytes) {
            Ok(message) => vec![message],
            Err(_) => return Response::from_parts(response_head, Body::from(bytes)),
        }
    } else if content_type.starts_with("text/event-stream") {
        mcp_test::transport::sse::messages(&bytes)
    } else {
        return Response::from_parts(response_head, Body::from(bytes));
    };
    let messages: Vec<Value> = messages
        .into_iter()
        .flat_map(|m| fixture.outgoing(m))
        .collect();
    response_head.headers.remove(http::header::CONTENT_LENGTH);
    if messages.len() == 1 && content_type.starts_with("application/json") && !keep_open {
        return Response::from_parts(response_head, Body::from(messages[0].to_string()));
    }
    response_head.headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/event-stream"),
    );
    // As the runtime streams: proxies must not buffer it (unless a break said otherwise).
    response_head
        .headers
        .entry("x-accel-buffering")
        .or_insert(http::HeaderValue::from_static("no"));
    if keep_open {
        use futures_util::StreamExt;
        let events = Ok::<_, std::convert::Infallible>(sse(&messages));
        let stream = futures_util::stream::iter([events]).chain(futures_util::stream::pending());
        return Response::from_parts(response_head, Body::from_stream(stream));
    }
    Response::from_parts(response_head, Body::from(sse(&messages)))
}

/// Messages answered by the fixture itself over HTTP: one as JSON, several as a stream, none
/// as 202 Accepted.
fn answer(messages: Vec<Value>) -> Response {
    match messages.as_slice() {
        [] => http::StatusCode::ACCEPTED.into_response(),
        [one] => (
            [(http::header::CONTENT_TYPE, "application/json")],
            one.to_string(),
        )
            .into_response(),
        many => (
            [
                (http::header::CONTENT_TYPE, "text/event-stream"),
                (
                    http::header::HeaderName::from_static("x-accel-buffering"),
                    "no",
                ),
            ],
            sse(many),
        )
            .into_response(),
    }
}

/// An SSE body whose messages are rewritten one event at a time, as they come.
fn rewritten_events(fixture: Arc<Fixture>, body: Body) -> Body {
    use futures_util::StreamExt;
    let mut pending = Vec::new();
    let events = body.into_data_stream().map(move |chunk| {
        pending.extend_from_slice(&chunk?);
        let mut out = String::new();
        while let Some(end) = pending.windows(2).position(|w| w == b"\n\n") {
            let event: Vec<u8> = pending.drain(..end + 2).collect();
            for message in mcp_test::transport::sse::messages(&event) {
                out.push_str(&sse(&fixture.outgoing(message)));
            }
        }
        Ok::<_, axum::Error>(out)
    });
    Body::from_stream(events)
}

fn sse(messages: &[Value]) -> String {
    messages
        .iter()
        .map(|m| format!("event: message\ndata: {m}\n\n"))
        .collect()
}
