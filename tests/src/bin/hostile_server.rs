//! A hostile MCP server, for `tests/tests/hostile_servers.rs`: a correct server (this crate's
//! runtime, one read-only tool `echo`) behind one misbehaviour per `--mode`, on stdio or, with
//! `--http`, on raw HTTP/1.1 at 127.0.0.1:0 (it prints `listening on http://ADDR/mcp` on
//! stdout). Written on std and tokio alone, byte by byte, so that each misbehaviour is exactly
//! what goes over the pipe or the socket.
//!
//! ```text
//! hostile_server [--http] --mode MODE [--on METHOD] [--pids FILE]
//! ```
//!
//! The misbehaviour of a request mode is done once, to the first request whose method is
//! `--on` (default `tools/call`); every other request gets the runtime's answer. The process
//! modes (`stderr-flood`, `children`, `ignore-sigterm`) act from the start. `--pids FILE`
//! receives, one a line, the pids of the processes `children` and `ignore-sigterm` start.

use mcp_test::wire::ToolAnnotations;
use mcp_test::{CallToolResult, Context, Server, Tool, ToolError};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// Answers its `text`.
struct Echo {
    text: String,
}

impl Tool for Echo {
    const NAME: &'static str = "echo";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "additionalProperties": false})
    }
    fn annotations() -> Option<ToolAnnotations> {
        Some(ToolAnnotations {
            read_only_hint: Some(true),
            ..ToolAnnotations::default()
        })
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Echo {
            text: args["text"].as_str().unwrap_or("echo").to_owned(),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self.text))
    }
}

/// How many messages the floods send: twice what the client keeps (10,000).
const FLOOD: usize = 20_000;
/// How big the messages over the limit the corpus gives the client (16 MiB) are.
const HUGE: usize = 20 << 20;
/// How deep the messages over the JSON depth limit nest.
const DEEP: usize = 100_000;

struct Options {
    mode: String,
    http: bool,
    on: String,
    pids: Option<String>,
}

fn options() -> Options {
    let mut options = Options {
        mode: "none".to_owned(),
        http: false,
        on: "tools/call".to_owned(),
        pids: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => options.http = true,
            "--mode" => options.mode = args.next().unwrap_or_else(|| usage()),
            "--on" => options.on = args.next().unwrap_or_else(|| usage()),
            "--pids" => options.pids = args.next(),
            _ => usage(),
        }
    }
    options
}

fn usage() -> ! {
    eprintln!("usage: hostile_server [--http] --mode MODE [--on METHOD] [--pids FILE]");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let options = options();
    let server = Server::builder("hostile", "1.0.0")
        .tool::<Echo>()
        .build()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    match options.mode.as_str() {
        "stderr-flood" => {
            tokio::spawn(async {
                let mut stderr = tokio::io::stderr();
                let chunk = vec![b'e'; 64 << 10];
                for _ in 0..1024 {
                    if stderr.write_all(&chunk).await.is_err() {
                        break;
                    }
                }
            });
        }
        "children" => start_children(options.pids.as_deref(), false)?,
        "ignore-sigterm" => start_children(options.pids.as_deref(), true)?,
        _ => {}
    }
    if options.http {
        serve_http(server, options).await
    } else {
        serve_stdio(server, options).await
    }
}

/// Starts two children that sleep, and a shell whose child (the server's grandchild) sleeps
/// holding the server's stdout; each ignores SIGTERM when `stubborn`. Their pids go to `pids`.
fn start_children(pids: Option<&str>, stubborn: bool) -> std::io::Result<()> {
    let trap = if stubborn { "trap '' TERM; " } else { "" };
    let mut started = Vec::new();
    for _ in 0..2 {
        let child = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{trap}exec sleep 300"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()?;
        started.push(child.id());
    }
    let grandchild = match pids {
        Some(file) => format!("{trap}sleep 300 & echo $! >> '{file}'; wait"),
        None => format!("{trap}sleep 300 & wait"),
    };
    // stdout is inherited: the grandchild holds the pipe the client reads.
    let shell = std::process::Command::new("sh")
        .arg("-c")
        .arg(grandchild)
        .stdin(std::process::Stdio::null())
        .spawn()?;
    started.push(shell.id());
    if let Some(file) = pids {
        let lines: String = started.iter().map(|p| format!("{p}\n")).collect();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)?;
        std::io::Write::write_all(&mut f, lines.as_bytes())?;
    }
    Ok(())
}

type Out = Arc<Mutex<Box<dyn AsyncWrite + Send + Unpin>>>;

/// The id of a request, as JSON text.
fn id_of(message: &Value) -> String {
    message.get("id").unwrap_or(&Value::Null).to_string()
}

/// `answer` (a JSON response) with a string field in its result that holds bytes that are not
/// UTF-8.
fn not_utf8(answer: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(answer.len() + 16);
    match answer.find("\"result\":{") {
        Some(at) => {
            let cut = at + "\"result\":{".len();
            bytes.extend_from_slice(&answer.as_bytes()[..cut]);
            bytes.extend_from_slice(b"\"_x\":\"\xff\xfe\",");
            bytes.extend_from_slice(&answer.as_bytes()[cut..]);
        }
        None => {
            bytes.extend_from_slice(answer.as_bytes());
            bytes.insert(1, 0xff);
        }
    }
    bytes
}

/// A response to `id` nesting [`DEEP`] arrays.
fn deep(id: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"x\":{}{}}}}}",
        "[".repeat(DEEP),
        "]".repeat(DEEP)
    )
}

/// A response to `id` with a string of [`HUGE`] bytes.
fn huge(id: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"{}\"}}]}}}}",
        "a".repeat(HUGE)
    )
}

fn with_id(answer: &str, id: Value) -> String {
    let mut value: Value = serde_json::from_str(answer).unwrap_or(Value::Null);
    value["id"] = id;
    value.to_string()
}

/// A log notification carrying `bytes` bytes of data.
fn note_of(bytes: usize) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"{}\"}}}}",
        "a".repeat(bytes)
    )
}

fn log_note(n: usize) -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/message",
           "params": {"level": "info", "logger": "hostile", "data": format!("flood {n}")}})
    .to_string()
}

fn ping(n: usize) -> String {
    json!({"jsonrpc": "2.0", "id": format!("hostile-{n}"), "method": "ping"}).to_string()
}

async fn serve_stdio(server: Server, options: Options) -> std::io::Result<()> {
    let out: Out = Arc::new(Mutex::new(Box::new(tokio::io::stdout())));
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut fired = false;
    while let Some(line) = lines.next_line().await? {
        let message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let answer = server.handle_json(&line).await;
        let method = message.get("method").and_then(Value::as_str);
        let hostile = !fired && method == Some(options.on.as_str()) && message.get("id").is_some();
        let Some(answer) = answer else { continue };
        if !hostile {
            write_line(&out, answer.as_bytes()).await?;
            continue;
        }
        fired = true;
        let id = id_of(&message);
        match options.mode.as_str() {
            "slowloris" => {
                // One byte a second, holding stdout: nothing else goes out meanwhile.
                let out = out.clone();
                tokio::spawn(async move {
                    let mut out = out.lock().await;
                    for byte in answer.bytes().chain(std::iter::once(b'\n')) {
                        if out.write_all(&[byte]).await.is_err() || out.flush().await.is_err() {
                            return;
                        }
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                });
            }
            "late-reply" => {
                let out = out.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_secs(3)).await;
                    let _ = write_line(&out, answer.as_bytes()).await;
                });
            }
            "notification-flood" => {
                flood_lines(&out, log_note).await?;
                write_line(&out, answer.as_bytes()).await?;
            }
            "request-flood" => {
                flood_lines(&out, ping).await?;
                write_line(&out, answer.as_bytes()).await?;
            }
            "stdout-flood" => {
                flood_lines(&out, |n| format!("hostile log line {n}")).await?;
                write_line(&out, answer.as_bytes()).await?;
            }
            "reply-twice" => {
                write_line(&out, answer.as_bytes()).await?;
                write_line(&out, answer.as_bytes()).await?;
            }
            "wrong-id" => {
                write_line(&out, with_id(&answer, json!(999_999)).as_bytes()).await?;
            }
            "invalid-utf8" => write_line(&out, &not_utf8(&answer)).await?,
            "deep-json" => write_line(&out, deep(&id).as_bytes()).await?,
            "huge-line" => write_line(&out, huge(&id).as_bytes()).await?,
            "endless-line" => {
                // A reply that never ends its line, holding stdout.
                let out = out.clone();
                let start = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"x\":\"");
                tokio::spawn(async move {
                    let mut out = out.lock().await;
                    let chunk = vec![b'a'; 64 << 10];
                    if out.write_all(start.as_bytes()).await.is_err() {
                        return;
                    }
                    while out.write_all(&chunk).await.is_ok() {}
                });
            }
            "garbage" => {
                write_line(&out, b"Server ready! Listening...").await?;
                write_line(&out, answer.as_bytes()).await?;
            }
            "exit-mid-reply" => {
                let half = &answer.as_bytes()[..answer.len() / 2];
                let mut out = out.lock().await;
                out.write_all(half).await?;
                out.flush().await?;
                std::process::exit(3);
            }
            _ => write_line(&out, answer.as_bytes()).await?,
        }
    }
    if options.mode == "ignore-sigterm" {
        // Ignores the end of its input (and, started under `trap '' TERM`, SIGTERM).
        std::future::pending::<()>().await;
    }
    Ok(())
}

async fn write_line(out: &Out, bytes: &[u8]) -> std::io::Result<()> {
    let mut out = out.lock().await;
    out.write_all(bytes).await?;
    out.write_all(b"\n").await?;
    out.flush().await
}

async fn flood_lines(out: &Out, line: impl Fn(usize) -> String) -> std::io::Result<()> {
    let mut out = out.lock().await;
    let mut batch = String::new();
    for n in 0..FLOOD {
        batch.push_str(&line(n));
        batch.push('\n');
        if batch.len() > 64 << 10 {
            out.write_all(batch.as_bytes()).await?;
            batch.clear();
        }
    }
    out.write_all(batch.as_bytes()).await?;
    out.flush().await
}

async fn serve_http(server: Server, options: Options) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let mut stdout = tokio::io::stdout();
    stdout
        .write_all(format!("listening on http://{}/mcp\n", listener.local_addr()?).as_bytes())
        .await?;
    stdout.flush().await?;
    let server = Arc::new(server);
    let options = Arc::new(options);
    let fired = Arc::new(AtomicBool::new(false));
    // Ends with its stdin (the test closes it, or dies).
    tokio::spawn(async {
        let mut sink = Vec::new();
        let _ = tokio::io::stdin().read_to_end(&mut sink).await;
        std::process::exit(0);
    });
    loop {
        let (socket, _) = listener.accept().await?;
        let (server, options, fired) = (server.clone(), options.clone(), fired.clone());
        tokio::spawn(async move {
            let _ = connection(socket, &server, &options, &fired).await;
        });
    }
}

/// Serves the requests of one connection, one after the other.
async fn connection(
    socket: tokio::net::TcpStream,
    server: &Server,
    options: &Options,
    fired: &AtomicBool,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut read = BufReader::new(read);
    loop {
        let mut head = Vec::new();
        loop {
            let mut line = Vec::new();
            if read.read_until(b'\n', &mut line).await? == 0 {
                return Ok(());
            }
            let end = line == b"\r\n" || line == b"\n";
            head.extend_from_slice(&line);
            if end || head.len() > 1 << 20 {
                break;
            }
        }
        let head = String::from_utf8_lossy(&head).into_owned();
        let post = head.starts_with("POST ");
        let length = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse::<usize>().ok())?
            })
            .unwrap_or(0);
        let mut body = vec![0_u8; length.min(16 << 20)];
        read.read_exact(&mut body).await?;
        if !post {
            write
                .write_all(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                .await?;
            continue;
        }
        let text = String::from_utf8_lossy(&body).into_owned();
        let message: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let answer = server.handle_json(&text).await;
        let Some(answer) = answer else {
            write
                .write_all(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
                .await?;
            continue;
        };
        let method = message.get("method").and_then(Value::as_str);
        let hostile = method == Some(options.on.as_str())
            && message.get("id").is_some()
            && !fired.swap(true, Ordering::SeqCst);
        if !hostile {
            reply(&mut write, "application/json", answer.as_bytes()).await?;
            continue;
        }
        hostile_http(&mut write, &options.mode, &answer, &id_of(&message)).await?;
        // A connection that served a hostile reply is done.
        return Ok(());
    }
}

async fn reply(
    write: &mut (impl AsyncWrite + Unpin),
    content_type: &str,
    body: &[u8],
) -> std::io::Result<()> {
    write
        .write_all(
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        )
        .await?;
    write.write_all(body).await?;
    write.flush().await
}

const SSE_HEAD: &[u8] =
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

/// One chunk of a chunked body.
async fn chunk(write: &mut (impl AsyncWrite + Unpin), bytes: &[u8]) -> std::io::Result<()> {
    write
        .write_all(format!("{:x}\r\n", bytes.len()).as_bytes())
        .await?;
    write.write_all(bytes).await?;
    write.write_all(b"\r\n").await?;
    write.flush().await
}

fn event(data: &[u8]) -> Vec<u8> {
    let mut out = b"event: message\ndata: ".to_vec();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\n\n");
    out
}

async fn sse_flood(
    write: &mut (impl AsyncWrite + Unpin),
    message: impl Fn(usize) -> String,
) -> std::io::Result<()> {
    let mut batch = Vec::new();
    for n in 0..FLOOD {
        batch.extend_from_slice(&event(message(n).as_bytes()));
        if batch.len() > 64 << 10 {
            chunk(write, &batch).await?;
            batch.clear();
        }
    }
    chunk(write, &batch).await
}

async fn hostile_http(
    write: &mut (impl AsyncWrite + Unpin),
    mode: &str,
    answer: &str,
    id: &str,
) -> std::io::Result<()> {
    let forever = || tokio::time::sleep(Duration::from_secs(600));
    match mode {
        "slowloris" => {
            write
                .write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                        answer.len()
                    )
                    .as_bytes(),
                )
                .await?;
            for byte in answer.bytes() {
                write.write_all(&[byte]).await?;
                write.flush().await?;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        "slow-headers" => {
            for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" {
                write.write_all(&[*byte]).await?;
                write.flush().await?;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        "body-never-closes" => {
            write
                .write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                )
                .await?;
            chunk(write, answer.as_bytes()).await?;
            forever().await;
        }
        "sse-keepalive" => {
            write.write_all(SSE_HEAD).await?;
            chunk(write, &event(answer.as_bytes())).await?;
            loop {
                chunk(write, b": keep-alive\n\n").await?;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        "sse-silent" => {
            write.write_all(SSE_HEAD).await?;
            loop {
                chunk(write, b": keep-alive\n\n").await?;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        "notification-flood" => {
            write.write_all(SSE_HEAD).await?;
            sse_flood(write, log_note).await?;
            chunk(write, &event(answer.as_bytes())).await?;
            chunk(write, b"").await?;
        }
        "request-flood" => {
            write.write_all(SSE_HEAD).await?;
            sse_flood(write, ping).await?;
            chunk(write, &event(answer.as_bytes())).await?;
            chunk(write, b"").await?;
        }
        "reply-twice" => {
            write.write_all(SSE_HEAD).await?;
            chunk(write, &event(answer.as_bytes())).await?;
            chunk(write, &event(answer.as_bytes())).await?;
            chunk(write, b"").await?;
        }
        "wrong-id" => {
            reply(
                write,
                "application/json",
                with_id(answer, json!(999_999)).as_bytes(),
            )
            .await?;
        }
        "sse-wrong-id" => {
            write.write_all(SSE_HEAD).await?;
            chunk(write, &event(with_id(answer, json!(999_999)).as_bytes())).await?;
            chunk(write, b"").await?;
        }
        "invalid-utf8" => reply(write, "application/json", &not_utf8(answer)).await?,
        "invalid-utf8-sse" => {
            write.write_all(SSE_HEAD).await?;
            chunk(write, &event(&not_utf8(answer))).await?;
            chunk(write, b"").await?;
        }
        "deep-json" => reply(write, "application/json", deep(id).as_bytes()).await?,
        "deep-json-sse" => {
            write.write_all(SSE_HEAD).await?;
            chunk(write, &event(deep(id).as_bytes())).await?;
            chunk(write, b"").await?;
        }
        "huge-body" => reply(write, "application/json", huge(id).as_bytes()).await?,
        "endless-body" => {
            write
                .write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                )
                .await?;
            chunk(
                write,
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"x\":\"").as_bytes(),
            )
            .await?;
            let a = vec![b'a'; 64 << 10];
            loop {
                chunk(write, &a).await?;
            }
        }
        "endless-sse" => {
            // Notifications of 64 KiB each, without end.
            write.write_all(SSE_HEAD).await?;
            let note = event(note_of(64 << 10).as_bytes());
            loop {
                chunk(write, &note).await?;
            }
        }
        "huge-event" => {
            write.write_all(SSE_HEAD).await?;
            chunk(write, &event(note_of(HUGE).as_bytes())).await?;
            chunk(write, &event(answer.as_bytes())).await?;
            chunk(write, b"").await?;
        }
        "reset" => {
            write
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
                .await?;
            write.flush().await?;
        }
        "bad-status" => {
            let body = b"<html><body><h1>500 Internal Server Error</h1></body></html>";
            write
                .write_all(
                    format!(
                        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
                        body.len()
                    )
                    .as_bytes(),
                )
                .await?;
            write.write_all(body).await?;
            write.flush().await?;
        }
        "huge-headers" => {
            write.write_all(b"HTTP/1.1 200 OK\r\nX-Hostile: ").await?;
            write.write_all(&vec![b'h'; 1 << 20]).await?;
            write.write_all(b"\r\nContent-Length: 0\r\n\r\n").await?;
            write.flush().await?;
        }
        "garbage-http" => {
            write.write_all(b"SSH-2.0-OpenSSH_9.6\r\n").await?;
            write.flush().await?;
        }
        _ => reply(write, "application/json", answer.as_bytes()).await?,
    }
    Ok(())
}
