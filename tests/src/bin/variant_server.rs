//! A correct server whose every choice the spec leaves open is drawn from a seed
//! (`mcp_test_downstream::variant`), for `tests/variation.rs`: `mcp-test check` must find no
//! defect and no warning on any seed. With `--mutate N` the same server (every capability,
//! plain output) changes exactly one response, the `N`th mutant of
//! `variant::mutants::mutations`, which `check` should find.
//!
//! ```text
//! variant_server --seed 7                      # stdio
//! variant_server --seed 7 --http 127.0.0.1:0   # Streamable HTTP, "listening on ADDR" on stderr
//! variant_server --mutate 12                   # stdio, mutant 12
//! variant_server --seed 7 --delay-ms 1000       # every reply a second late
//! ```
//!
//! The server is this crate's runtime; what the runtime does not vary is varied on the wire in
//! front of it (as `mcp-test/examples/broken_server/` rewrites it): how stdin is read, how
//! each message is written, when replies leave, HTTP framing and session ids, cursors, error
//! wording and `data`. Each draw is logged to stderr as `variant: axis=value`.

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use mcp_test::prompts::{Prompt, PromptArgument};
use mcp_test::resources::{Resource, ResourceTemplate};
use mcp_test::wire::{Era, LoggingLevel};
use mcp_test::{Context, Json, Server, Tool, ToolError};
use mcp_test_downstream::variant::mutants::{Mutation, mutations};
use mcp_test_downstream::variant::{
    Chatter, Cursor, Eras, ErrorData, HttpReply, HttpState, LegacyWord, Prng, Reader, SessionId,
    SseStyle, Variant, Wording, out,
};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Adds two whole numbers.
#[derive(Tool)]
#[tool(name = "add", annotations(read_only, idempotent))]
struct Add {
    /// First operand, 0 to 100
    #[tool(minimum = 0, maximum = 100)]
    a: i64,
    /// Second operand; 0 when omitted
    b: Option<i64>,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok((self.a + self.b.unwrap_or(0)).to_string())
    }
}

/// Echoes a text.
#[derive(Tool)]
#[tool(name = "echo", annotations(read_only, idempotent))]
struct Echo {
    /// The text, at most 40 characters
    #[tool(max_length = 40)]
    text: String,
}

impl Echo {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

/// Reports progress and logs a line (each sent only when the request asks for it).
#[derive(Tool)]
#[tool(name = "work", annotations(read_only, idempotent))]
struct Work {}

impl Work {
    async fn run(self, ctx: &Context) -> Result<&'static str, ToolError> {
        ctx.progress(1.0, Some(2.0), Some("halfway"));
        ctx.log(LoggingLevel::Info, Some("variant"), json!("work ran"));
        ctx.progress(2.0, Some(2.0), Some("done"));
        Ok("worked")
    }
}

/// A sum, as structured output.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    /// The total.
    total: i64,
}

/// Sums at most five whole numbers, with structured output.
#[derive(Tool)]
#[tool(name = "total", annotations(read_only, idempotent))]
struct Total {
    /// The numbers
    #[tool(max_items = 5)]
    numbers: Vec<i64>,
}

impl Total {
    async fn run(self, _ctx: &Context) -> Result<Json<Sum>, ToolError> {
        Ok(Json(Sum {
            total: self.numbers.iter().sum(),
        }))
    }
}

/// The runtime's server as the variant declares it: tools always, the other capabilities as
/// drawn, each list as long as a few pages, serving `eras`.
fn server(v: &Variant, eras: Eras) -> Server {
    let mut b = Server::builder("variant-server", "1.0.0")
        .page_size(v.items_per_page())
        .instructions("A server whose every open choice is drawn from a seed.")
        .tool::<Add>()
        .tool::<Echo>()
        .tool::<Work>()
        .tool::<Total>();
    b = match eras {
        Eras::Current => b.eras([Era::Current]),
        Eras::Legacy => b.eras([Era::Legacy]),
        Eras::Both => b.eras([Era::Current, Era::Legacy]),
    };
    if v.logging {
        b = b.logging();
    }
    if v.resources {
        for (name, text) in [("alpha", "first"), ("beta", "second"), ("gamma", "third")] {
            b = b.resource(
                Resource::new(format!("variant://{name}"), name)
                    .description("A text resource")
                    .mime_type("text/plain")
                    .text(format!("The {text} resource: é ✓")),
            );
        }
        let mut template = ResourceTemplate::new("variant://items/{id}", "item")
            .description("An item by id")
            .mime_type("application/json")
            .read(|_ctx, vars: BTreeMap<String, String>| async move {
                let id = vars.get("id").cloned().unwrap_or_default();
                Ok(json!({"id": id}).to_string())
            });
        if v.completions {
            template = template.complete_from("id", ["apple", "apricot", "banana"]);
        }
        b = b.resource_template(template).resource_template(
            ResourceTemplate::new("variant://notes/{day}", "note")
                .description("A note by day")
                .mime_type("text/plain")
                .read(|_ctx, vars: BTreeMap<String, String>| async move {
                    Ok(format!(
                        "note of {}",
                        vars.get("day").cloned().unwrap_or_default()
                    ))
                }),
        );
    }
    if v.prompts {
        let mut greet = Prompt::new("greet")
            .description("Greets someone by name")
            .argument(PromptArgument::new("name").required().description("Who"))
            .get(|_ctx, args: BTreeMap<String, String>| async move {
                let name = args.get("name").cloned().unwrap_or_default();
                Ok(format!("Say hello to {name}."))
            });
        if v.completions {
            greet = greet.complete_from("name", ["ada", "alan", "grace"]);
        }
        b = b.prompt(greet).prompt(
            Prompt::new("plain")
                .description("A prompt without arguments")
                .text("Say something kind."),
        );
        b = b.prompt(
            Prompt::new("summary")
                .description("Asks for a summary")
                .text("Summarise the day."),
        );
    }
    b.build().expect("the variant server builds")
}

/// What stands between the runtime and the wire: the variant's rewrites, and the one
/// mutation of `--mutate`.
struct Wire {
    v: Variant,
    rng: Mutex<Prng>,
    /// The method of each request in flight, by id (as JSON text).
    requests: Mutex<HashMap<String, String>>,
    mutation: Option<Mutation>,
    mutated: AtomicBool,
    /// A 2025-11-25 server that names its versions in `server/discover`: the same server in
    /// both eras, which answers that alone (its `supportedVersions` cut down on the way out;
    /// `Wire::refusal`). The serving runtime is 2025-11-25 alone, so a discover never commits
    /// its session to 2026-07-28.
    discoverer: Option<Server>,
    /// `--delay-ms`: how long every reply waits, in place of the variant's latency (a server
    /// that calls out to a slow backend).
    every_reply: Option<Duration>,
    /// How many `server/discover` responses went out.
    discovered: AtomicUsize,
    /// HTTP: the variant's session ids for the runtime's, and back.
    sessions: Mutex<(HashMap<String, String>, HashMap<String, String>)>,
    /// HTTP, stateless: the runtime session every 2025-era request without an id goes to.
    stateless_session: Mutex<Option<String>>,
    /// stdio: responses held back by their delay, and those cancelled meanwhile.
    delayed: Mutex<HashSet<String>>,
    cancelled: Mutex<HashSet<String>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

const CURSOR_PREFIX: &str = "page:";

/// What a 2025-11-25 server that names its versions says it serves.
const LEGACY_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];

impl Wire {
    fn new(v: Variant, mutation: Option<Mutation>, every_reply: Option<Duration>) -> Wire {
        Wire {
            every_reply,
            discoverer: (v.names_its_versions() && v.legacy_word == LegacyWord::Versions)
                .then(|| server(&v, Eras::Both)),
            rng: Mutex::new(Prng::new(v.seed.wrapping_mul(31).wrapping_add(1))),
            v,
            requests: Mutex::default(),
            mutation,
            mutated: AtomicBool::new(false),
            discovered: AtomicUsize::new(0),
            sessions: Mutex::default(),
            stateless_session: Mutex::default(),
            delayed: Mutex::default(),
            cancelled: Mutex::default(),
        }
    }

    fn chatter(&self, what: &str) {
        match self.v.chatter {
            Chatter::Quiet => {}
            Chatter::Lines => eprintln!("[variant-server] {what}"),
            Chatter::Noisy => {
                eprintln!("DEBUG variant-server: {what}");
                eprintln!("  ├─ handled by the runtime ✓ {}", "·".repeat(40));
                eprintln!("  └─ {{\"not\": \"a message\", \"on\": \"stderr\"}}");
            }
        }
    }

    /// A message from the client, before the runtime sees it.
    fn incoming(&self, message: &mut Value) {
        let method = message.get("method").and_then(Value::as_str).unwrap_or("");
        self.chatter(&format!(
            "<- {}",
            if method.is_empty() { "?" } else { method }
        ));
        if method == "notifications/cancelled"
            && let Some(id) = message.pointer("/params/requestId")
        {
            lock(&self.cancelled).insert(id.to_string());
        }
        if let Some(id) = message.get("id")
            && !method.is_empty()
        {
            lock(&self.requests).insert(id.to_string(), method.to_owned());
        }
        if let Some(cursor) = message.pointer_mut("/params/cursor")
            && let Some(text) = cursor.as_str()
            && let Some(inner) = self.decode_cursor(text)
        {
            *cursor = json!(inner);
        }
    }

    /// The runtime's cursor behind one of the variant's, if it is one (anything else goes to
    /// the runtime as it is, which refuses it as a cursor it did not mint).
    fn decode_cursor(&self, cursor: &str) -> Option<String> {
        match self.v.cursor {
            Cursor::Runtime => None,
            Cursor::Prefixed => cursor.strip_prefix(CURSOR_PREFIX).map(str::to_owned),
            Cursor::Hex => {
                if !cursor.len().is_multiple_of(2) || !cursor.bytes().all(|b| b.is_ascii_hexdigit())
                {
                    return None;
                }
                let bytes: Option<Vec<u8>> = (0..cursor.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&cursor[i..i + 2], 16).ok())
                    .collect();
                String::from_utf8(bytes?).ok()
            }
        }
    }

    fn encode_cursor(&self, cursor: &str) -> String {
        match self.v.cursor {
            Cursor::Runtime => cursor.to_owned(),
            Cursor::Prefixed => format!("{CURSOR_PREFIX}{cursor}"),
            Cursor::Hex => cursor.bytes().map(|b| format!("{b:02x}")).collect(),
        }
    }

    /// The answer of a 2025-11-25 server that names its versions to a 2026-07-28 message
    /// (one whose `_meta` names a protocol version, or `server/discover`): -32022 with the
    /// versions it serves (versioning.mdx: "`data.supported` lists the versions the server
    /// supports"), or `server/discover`'s result listing only those. `Some(None)` for a
    /// notification, which gets no answer; `None` for a message the runtime serves.
    async fn refusal(&self, message: &Value) -> Option<Option<Value>> {
        if !self.v.names_its_versions() {
            return None;
        }
        let method = message.get("method").and_then(Value::as_str)?;
        let requested = message
            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .and_then(Value::as_str);
        let discover = method == "server/discover";
        if requested.is_none() && !discover {
            return None;
        }
        let Some(id) = message.get("id") else {
            return Some(None);
        };
        if discover && let Some(discoverer) = &self.discoverer {
            let mut answer: Value = discoverer
                .handle_json(&message.to_string())
                .await
                .and_then(|text| serde_json::from_str(&text).ok())?;
            if let Some(versions) = answer.pointer_mut("/result/supportedVersions") {
                *versions = json!(LEGACY_VERSIONS);
            }
            return Some(Some(answer));
        }
        Some(Some(json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": LEGACY_VERSIONS, "requested": requested.unwrap_or("2026-07-28")},
        }})))
    }

    /// A message from the runtime, rewritten.
    fn outgoing(&self, mut message: Value) -> Value {
        let is_response = message.get("method").is_none();
        let method = if is_response {
            message
                .get("id")
                .and_then(|id| lock(&self.requests).remove(&id.to_string()))
        } else {
            None
        };
        if let Some(cursor) = message.pointer_mut("/result/nextCursor")
            && let Some(text) = cursor.as_str()
        {
            *cursor = json!(self.encode_cursor(text));
        }
        if let Some(error) = message.get_mut("error").and_then(Value::as_object_mut) {
            let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
            let original = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            match self.v.wording {
                Wording::Runtime => {}
                Wording::Terse => {
                    let text = match code {
                        -32700 => "Parse error",
                        -32600 => "Invalid Request",
                        -32601 => "Method not found",
                        -32602 => "Invalid params",
                        -32603 => "Internal error",
                        _ => "Request failed",
                    };
                    error.insert("message".into(), json!(text));
                }
                Wording::Verbose => {
                    error.insert(
                        "message".into(),
                        json!(format!("The request could not be served: {original}")),
                    );
                }
            }
            // -32021 and -32022 give `data` a shape of their own; the rest is free.
            if !error.contains_key("data") && code != -32021 && code != -32022 {
                match self.v.error_data {
                    ErrorData::Runtime => {}
                    ErrorData::Object => {
                        error.insert(
                            "data".into(),
                            json!({"detail": original, "server": "variant"}),
                        );
                    }
                    ErrorData::Text => {
                        error.insert("data".into(), json!(original));
                    }
                }
            }
        }
        // The first `server/discover` is the client's handshake: a mutant there would stop
        // every check before its probes, so the one mutated is a later one.
        if let (Some(mutation), Some(method)) = (&self.mutation, &method)
            && *method == mutation.method
            && !self.mutated.load(Ordering::SeqCst)
            && (method != "server/discover" || self.discovered.fetch_add(1, Ordering::SeqCst) > 0)
        {
            let mut copy = message.clone();
            if mutation.apply(&mut copy) && !self.mutated.swap(true, Ordering::SeqCst) {
                eprintln!(
                    "variant: mutated {} in {}",
                    mutation.describe(),
                    self.write(&message)
                );
                message = copy;
            }
        }
        if let Some(method) = &method {
            self.chatter(&format!("-> {method}"));
        }
        message
    }

    /// A message as one line, in the variant's output style.
    fn write(&self, message: &Value) -> String {
        let mut rng = lock(&self.rng);
        out::write(
            message,
            self.v.key_order,
            self.v.spacing,
            self.v.escapes,
            &mut rng,
        )
    }

    /// How long the next reply waits.
    fn delay(&self) -> Duration {
        if let Some(every) = self.every_reply {
            return every;
        }
        let max = self.v.max_delay_ms();
        if max == 0 {
            return Duration::ZERO;
        }
        let ms = lock(&self.rng).next_u64() % (max + 1);
        Duration::from_millis(ms)
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut seed = 0u64;
    let mut http_addr = None;
    let mut mutate = None;
    let mut delay = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--seed" => seed = value.parse().unwrap_or_else(|_| usage()),
            "--http" => http_addr = Some(value),
            "--mutate" => mutate = Some(value.parse::<usize>().unwrap_or_else(|_| usage())),
            "--delay-ms" => {
                delay = Some(Duration::from_millis(
                    value.parse().unwrap_or_else(|_| usage()),
                ))
            }
            _ => usage(),
        }
    }
    let mutation = mutate.map(|n| {
        let all = mutations();
        all[n % all.len()].clone()
    });
    let v = if mutation.is_some() {
        Variant::full(seed)
    } else {
        Variant::draw(seed)
    };
    eprintln!("variant: seed={seed}");
    for (axis, value) in v.draws() {
        eprintln!("variant: {axis}={value}");
    }
    if let Some(m) = &mutation {
        eprintln!("variant: mutant={}", m.describe());
    }
    let server = server(&v, v.eras);
    let wire = Arc::new(Wire::new(v, mutation, delay));
    match http_addr {
        None => serve_stdio(server, wire).await,
        Some(addr) => serve_http(server, wire, &addr).await,
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: variant_server [--seed N] [--http 127.0.0.1:PORT] [--mutate N] [--delay-ms MS]"
    );
    std::process::exit(2)
}

/// What the stdin reader hands on: a message, or text that is not one.
enum Input {
    Message(Value),
    Text(String),
    /// The stream decoder found no JSON value: answered -32700 here.
    Unparsable,
}

/// Reads stdin by the variant's reader on a thread of its own.
fn read_stdin(reader: Reader) -> tokio::sync::mpsc::UnboundedReceiver<Input> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let stdin = std::io::stdin();
        let mut input = std::io::BufReader::new(stdin.lock());
        match reader {
            Reader::Lines => {
                let mut line = String::new();
                loop {
                    line.clear();
                    match input.read_line(&mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    let text = line.trim_end_matches(['\n', '\r']);
                    let item = match serde_json::from_str::<Value>(text) {
                        Ok(value) => Input::Message(value),
                        Err(_) => Input::Text(text.to_owned()),
                    };
                    if tx.send(item).is_err() {
                        break;
                    }
                }
            }
            Reader::Stream => loop {
                let mut values =
                    serde_json::Deserializer::from_reader(&mut input).into_iter::<Value>();
                let mut failed = false;
                for value in values.by_ref() {
                    match value {
                        Ok(value) => {
                            if tx.send(Input::Message(value)).is_err() {
                                return;
                            }
                        }
                        Err(e) if e.is_eof() => return,
                        Err(_) => {
                            failed = true;
                            break;
                        }
                    }
                }
                drop(values);
                if !failed || tx.send(Input::Unparsable).is_err() {
                    return;
                }
                // Past the broken text, to the end of its line, and decode afresh.
                let mut rest = String::new();
                if input.read_line(&mut rest).unwrap_or(0) == 0 {
                    return;
                }
            },
        }
    });
    rx
}

/// stdio: the runtime's stdio transport on an in-memory pipe, the variant's wire between it
/// and the real stdin and stdout.
async fn serve_stdio(server: Server, wire: Arc<Wire>) -> std::io::Result<()> {
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
    let pump_wire = wire.clone();
    let pump_tx = out_tx.clone();
    let pump = tokio::spawn(async move {
        let mut lines = BufReader::new(from_server).lines();
        let mut held = Vec::new();
        while let Ok(Some(line)) = lines.next_line().await {
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                let _ = pump_tx.send(line);
                continue;
            };
            let message = pump_wire.outgoing(message);
            let text = pump_wire.write(&message);
            let delay = pump_wire.delay();
            // Responses wait their delay, each on its own, so they may overtake each other;
            // notifications go at once, so they stay ahead of their request's response.
            let id = message
                .get("id")
                .filter(|_| message.get("method").is_none())
                .map(Value::to_string);
            match id {
                Some(id) if !delay.is_zero() => {
                    lock(&pump_wire.delayed).insert(id.clone());
                    let (wire, tx) = (pump_wire.clone(), pump_tx.clone());
                    held.push(tokio::spawn(async move {
                        tokio::time::sleep(delay).await;
                        lock(&wire.delayed).remove(&id);
                        // Cancelled while held: cancellation.mdx, the server "MUST NOT send
                        // anything further for that request".
                        if !lock(&wire.cancelled).contains(&id) {
                            let _ = tx.send(text);
                        }
                    }));
                }
                _ => {
                    let _ = pump_tx.send(text);
                }
            }
        }
        for task in held {
            let _ = task.await;
        }
    });
    let mut input = read_stdin(wire.v.reader);
    while let Some(item) = input.recv().await {
        match item {
            Input::Message(mut message) => {
                if let Some(answer) = wire.refusal(&message).await {
                    wire.chatter("<- a 2026-07-28 message, refused");
                    if let Some(answer) = answer {
                        let answer = wire.outgoing(answer);
                        let _ = out_tx.send(wire.write(&answer));
                    }
                    continue;
                }
                wire.incoming(&mut message);
                to_server.write_all(message.to_string().as_bytes()).await?;
                to_server.write_all(b"\n").await?;
            }
            Input::Text(text) => {
                wire.chatter("<- text that is not JSON");
                to_server.write_all(text.as_bytes()).await?;
                to_server.write_all(b"\n").await?;
            }
            Input::Unparsable => {
                wire.chatter("<- text that is not JSON");
                let answer = json!({"jsonrpc": "2.0", "id": null,
                    "error": {"code": -32700, "message": "Parse error"}});
                let answer = wire.outgoing(answer);
                let _ = out_tx.send(wire.write(&answer));
            }
        }
    }
    to_server.shutdown().await?;
    let _ = serving.await;
    let _ = pump.await;
    drop(out_tx);
    let _ = writer.await;
    Ok(())
}

/// HTTP: the runtime's Streamable HTTP router behind the variant's wire.
async fn serve_http(server: Server, wire: Arc<Wire>, addr: &str) -> std::io::Result<()> {
    use mcp_test::transport::http;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    let router = http::router(server, http::HttpConfig::default()).layer(
        axum::middleware::from_fn(move |request, next| {
            let wire = wire.clone();
            async move { rewrite_http(wire, request, next).await }
        }),
    );
    eprintln!("listening on {local}");
    axum::serve(listener, router).await
}

const SESSION: &str = "mcp-session-id";

/// Whether the POST is a 2025-11-25 one: its body names no protocol version in `_meta` (a
/// 2026-07-28 request does, whatever version it names), and its protocol-version header, if
/// any, is not 2026-07-28.
fn legacy_request(head: &http::request::Parts, message: Option<&Value>) -> bool {
    if message.is_some_and(|m| {
        m.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .is_some()
    }) {
        return false;
    }
    let version = head
        .headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    match version {
        Some(v) => v != "2026-07-28",
        None => message.is_some(),
    }
}

impl Wire {
    /// The variant's id for the runtime's session `inner`.
    fn outer_session(&self, inner: &str) -> String {
        let mut maps = lock(&self.sessions);
        if let Some(outer) = maps.0.get(inner) {
            return outer.clone();
        }
        let outer = {
            let mut rng = lock(&self.rng);
            let mut hex = |n: usize| -> String {
                (0..n)
                    .map(|_| char::from_digit((rng.next_u64() % 16) as u32, 16).unwrap_or('0'))
                    .collect()
            };
            match self.v.session_id {
                SessionId::Runtime => inner.to_owned(),
                SessionId::Hex => hex(32),
                SessionId::Uuid => {
                    format!("{}-{}-4{}-a{}-{}", hex(8), hex(4), hex(3), hex(3), hex(12))
                }
                SessionId::Visible => {
                    let mut rng = Prng::new(rng.next_u64());
                    (0..28)
                        .map(|_| char::from(0x21 + rng.below(0x7E - 0x21 + 1) as u8))
                        .collect()
                }
            }
        };
        maps.0.insert(inner.to_owned(), outer.clone());
        maps.1.insert(outer.clone(), inner.to_owned());
        outer
    }
}

async fn rewrite_http(
    wire: Arc<Wire>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let (mut head, body) = request.into_parts();
    let stateless = wire.v.http_state == HttpState::Stateless && wire.v.eras != Eras::Current;
    let Ok(bytes) = axum::body::to_bytes(body, 64 << 20).await else {
        return (http::StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
    };
    let mut message = serde_json::from_slice::<Value>(&bytes).ok();
    let legacy = legacy_request(&head, message.as_ref());
    // A 2025-11-25 server that names its versions: a 2026-07-28 POST is a 400 with the
    // -32022 (streamable-http.mdx: "-32022 ... 400 Bad Request"), a notification a 202.
    let refusal = match &message {
        Some(m) if head.method == http::Method::POST && !legacy => wire.refusal(m).await,
        _ => None,
    };
    if let Some(answer) = refusal {
        let refused = answer.as_ref().is_some_and(|a| a.get("error").is_some());
        return match answer {
            Some(answer) => (
                if refused {
                    http::StatusCode::BAD_REQUEST
                } else {
                    http::StatusCode::OK
                },
                [(http::header::CONTENT_TYPE, "application/json")],
                wire.write(&wire.outgoing(answer)),
            )
                .into_response(),
            None => http::StatusCode::ACCEPTED.into_response(),
        };
    }
    // A stateless server has no session to stream on or to end: streamable-http 2025-11-25,
    // GET "or else return HTTP 405", DELETE "MAY respond ... with HTTP 405".
    if stateless
        && (head.method == http::Method::GET || head.method == http::Method::DELETE)
        && !head.headers.contains_key(SESSION)
    {
        return (
            http::StatusCode::METHOD_NOT_ALLOWED,
            [(http::header::ALLOW, "POST")],
        )
            .into_response();
    }
    // The variant's session id back to the runtime's.
    if let Some(outer) = head.headers.get(SESSION).and_then(|v| v.to_str().ok())
        && let Some(inner) = lock(&wire.sessions).1.get(outer).cloned()
        && let Ok(value) = http::HeaderValue::from_str(&inner)
    {
        head.headers.insert(SESSION, value);
    }
    let is_initialize = message
        .as_ref()
        .and_then(|m| m.get("method"))
        .and_then(Value::as_str)
        == Some("initialize");
    if stateless
        && legacy
        && !is_initialize
        && head.method == http::Method::POST
        && !head.headers.contains_key(SESSION)
        && let Some(inner) = lock(&wire.stateless_session).clone()
        && let Ok(value) = http::HeaderValue::from_str(&inner)
    {
        head.headers.insert(SESSION, value);
    }
    let mut streamed = false;
    let body = match &mut message {
        Some(m) => {
            streamed = m.get("method").and_then(Value::as_str) == Some("subscriptions/listen");
            wire.incoming(m);
            m.to_string().into_bytes()
        }
        None => bytes.to_vec(),
    };
    let accepts_sse = head
        .headers
        .get(http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/event-stream"));
    let request_method = head.method.clone();
    head.headers.remove(http::header::CONTENT_LENGTH);
    let response = next
        .run(axum::extract::Request::from_parts(head, Body::from(body)))
        .await;
    let (mut response_head, response_body) = response.into_parts();
    if let Some(inner) = response_head
        .headers
        .get(SESSION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
    {
        if stateless {
            *lock(&wire.stateless_session) = Some(inner);
            response_head.headers.remove(SESSION);
        } else if let Ok(value) = http::HeaderValue::from_str(&wire.outer_session(&inner)) {
            response_head.headers.insert(SESSION, value);
        }
    }
    if streamed || request_method != http::Method::POST {
        return Response::from_parts(response_head, response_body);
    }
    let content_type = response_head
        .headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
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
    let messages: Vec<Value> = messages.into_iter().map(|m| wire.outgoing(m)).collect();
    let delay = wire.delay();
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    response_head.headers.remove(http::header::CONTENT_LENGTH);
    // Only a 200 may change its framing, and to SSE only for a client that accepts it.
    let sse = if response_head.status != http::StatusCode::OK || !accepts_sse {
        !content_type.starts_with("application/json")
    } else if messages.len() != 1 {
        true
    } else {
        match wire.v.http_reply {
            HttpReply::Json => false,
            HttpReply::Sse => true,
            HttpReply::Mixed => lock(&wire.rng).one_in(2),
        }
    };
    if !sse {
        response_head.headers.insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("application/json"),
        );
        return Response::from_parts(response_head, Body::from(wire.write(&messages[0])));
    }
    response_head.headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/event-stream"),
    );
    response_head
        .headers
        .insert("x-accel-buffering", http::HeaderValue::from_static("no"));
    let mut text = String::new();
    for (i, m) in messages.iter().enumerate() {
        match wire.v.sse_style {
            SseStyle::Plain => {}
            SseStyle::Named => text.push_str("event: message\n"),
            SseStyle::Commented => {
                text.push_str(": keep-alive\n");
                // Event ids only where no client resumes by them: 2026-07-28 removed
                // `Last-Event-ID` resumability; a 2025-11-25 server that puts ids on its
                // events "SHOULD immediately send an SSE event consisting of an event ID and
                // an empty data field" to prime reconnection, which this one cannot serve.
                if !legacy {
                    text.push_str(&format!("id: {}\n", i + 1));
                }
            }
        }
        text.push_str("data: ");
        text.push_str(&wire.write(m));
        text.push_str("\n\n");
    }
    Response::from_parts(response_head, Body::from(text))
}
