//! `mcp-test record --out FILE [--http ADDR] [TARGET]`: a recording proxy. It speaks MCP over
//! stdio to its parent (any client that starts it as its server), or Streamable HTTP on
//! 127.0.0.1 with `--http`, and forwards every message to the target,
//! `-- CMD ARGS...` (a stdio server, its lines passed through unchanged in both directions,
//! server-to-client requests and their answers included) or `--url URL` (each client message
//! sent with the library's HTTP client), writing the session to a cassette as it goes.

use super::open::{TargetArgs, http_options, target_label};
use clap::Args;
use mcp_test::Caller;
use mcp_test::cassette::{CassetteError, CassetteWriter, Recorder, Tap};
use mcp_test::client::Client;
use mcp_test::target::Target;
use mcp_test::transport::http::HttpConfig;
use mcp_test::transport::http::Router;
use mcp_test::transport::http::relay::{
    Direction, Watch, lines_router, serve_router, target_router,
};
use mcp_test::transport::ndjson::{Line, Lines};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// The longest line passed through (a longer one is dropped and reported on stderr).
const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// How long the server may take to exit once the client closed its input.
const EXIT_GRACE: Duration = Duration::from_secs(5);

#[derive(Args)]
#[command(mut_arg("timeout", |a| a.help(
    "With --url: seconds each message passed on to the server waits for its reply; one \
     that takes longer gets the client an error naming the timeout instead. A stdio \
     server's lines pass through as they come, never timed out"
)))]
pub(crate) struct RecordArgs {
    /// The cassette to write (JSON Lines; created or truncated).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Serve the client Streamable HTTP on ADDR (a 127.0.0.1 address; port 0 picks one) at
    /// /mcp instead of stdio; prints `listening on ADDR` on stderr and records until stopped.
    /// The target is then reached with the library's client (a 2025-era server's own
    /// requests are answered by it, not relayed).
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    #[command(flatten)]
    target: TargetArgs,
}

pub(crate) async fn run(args: RecordArgs) -> ExitCode {
    match record(args).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mcp-test record: {e}");
            ExitCode::from(2)
        }
    }
}

#[derive(Debug, thiserror::Error)]
enum RecordError {
    #[error(transparent)]
    Cassette(#[from] CassetteError),
    #[error("{0}")]
    Target(String),
    #[error("no target: give `-- CMD ARGS...` or `--url URL`")]
    NoTarget,
}

async fn record(args: RecordArgs) -> Result<ExitCode, RecordError> {
    let label = target_label(&args.target);
    if let Some(url) = &args.target.url {
        let options = http_options(&args.target).map_err(|e| RecordError::Target(e.to_string()))?;
        let headers = options
            .header_names()
            .into_iter()
            .filter_map(|n| Some((n.clone(), options.header_value(&n)?.to_owned())))
            .collect();
        let writer = CassetteWriter::create(&args.out, &label, headers)?;
        let client = Client::http_with(url, &options)
            .map_err(|e| RecordError::Target(e.to_string()))?
            .with_timeout(Duration::from_secs(args.target.timeout.max(1)));
        if let Some(addr) = &args.http {
            let target = Arc::new(Recorder::new(client, writer));
            let router = target_router(target, HttpConfig::default());
            return Ok(serve_http("record", addr, router).await);
        }
        return over_http(client, Tap::new(writer)).await;
    }
    let Some((program, rest)) = args.target.command.split_first() else {
        return Err(RecordError::NoTarget);
    };
    let writer = CassetteWriter::create(&args.out, &label, Default::default())?;
    let mut child = tokio::process::Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| RecordError::Target(format!("cannot start `{label}`: {e}")))?;
    let child_in = child.stdin.take().expect("piped");
    let child_out = child.stdout.take().expect("piped");
    let tap = Arc::new(Mutex::new(Tap::new(writer)));
    let failed: Arc<Mutex<Option<CassetteError>>> = Arc::default();
    if let Some(addr) = &args.http {
        // The client over HTTP, the server's lines as they are: the tap sees both.
        let (watched, failures) = (tap.clone(), failed.clone());
        let watch: Watch = Arc::new(move |direction, message| {
            let mut tap = lock(&watched);
            let written = match direction {
                Direction::ToServer => tap.from_client(message),
                _ => tap.from_server(message),
            };
            keep_first(written, &failures);
        });
        let router = lines_router(child_out, child_in, Some(watch), HttpConfig::default());
        let code = serve_http("record", addr, router).await;
        lock(&tap).finish()?;
        return Ok(code);
    }

    let up = pass(
        tokio::io::stdin(),
        child_in,
        Side::Client,
        tap.clone(),
        failed.clone(),
    );
    let down = pass(
        child_out,
        tokio::io::stdout(),
        Side::Server,
        tap.clone(),
        failed.clone(),
    );
    tokio::pin!(down);
    let status = tokio::select! {
        // The client closed our stdin: the server's stdin is closed too (`pass` drops it);
        // let it finish writing and exit.
        () = up => {
            let _ = tokio::time::timeout(EXIT_GRACE, &mut down).await;
            match tokio::time::timeout(EXIT_GRACE, child.wait()).await {
                Ok(status) => status.ok(),
                Err(_) => {
                    let _ = child.kill().await;
                    None
                }
            }
        }
        // The server closed its stdout: it is ending.
        () = &mut down => child.wait().await.ok(),
    };
    lock(&tap).finish()?;
    if let Some(e) = lock(&failed).take() {
        return Err(e.into());
    }
    Ok(match status.and_then(|s| s.code()) {
        Some(0) | None => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Client,
    Server,
}

/// Copies lines from `from` to `to` as they come, each JSON message also given to the tap.
async fn pass(
    from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    side: Side,
    tap: Arc<Mutex<Tap>>,
    failed: Arc<Mutex<Option<CassetteError>>>,
) {
    let mut lines = Lines::new(from, MAX_LINE_BYTES);
    while let Some(line) = lines.next_line().await {
        let Some(mut bytes) = complete(line, side) else {
            continue;
        };
        if let Ok(message) = serde_json::from_slice::<Value>(&bytes) {
            let mut tap = lock(&tap);
            let written = match side {
                Side::Client => tap.from_client(&message),
                Side::Server => tap.from_server(&message),
            };
            keep_first(written, &failed);
        }
        bytes.push(b'\n');
        if to.write_all(&bytes).await.is_err() || to.flush().await.is_err() {
            return;
        }
    }
}

/// A line within the limit; one over it is dropped, said on stderr.
fn complete(line: Line, side: Side) -> Option<Vec<u8>> {
    match line {
        Line::Complete(bytes) => Some(bytes),
        Line::TooLong { bytes, limit, .. } => {
            eprintln!(
                "mcp-test record: a line of {bytes}+ bytes from the {} is over the limit of {limit} bytes; dropped",
                if side == Side::Client {
                    "client"
                } else {
                    "server"
                }
            );
            None
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Keeps the first cassette write that failed, for the exit.
fn keep_first(written: Result<(), CassetteError>, failed: &Mutex<Option<CassetteError>>) {
    if let Err(e) = written {
        lock(failed).get_or_insert(e);
    }
}

/// Serves `router` on `addr` (127.0.0.1 only) until the process is stopped: what
/// `record --http` and `serve --http` run. Exits 2 when it cannot listen.
pub(crate) async fn serve_http(command: &str, addr: &str, router: Router) -> ExitCode {
    let listener = match local_listener(addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("mcp-test {command}: --http {addr}: {e}");
            return ExitCode::from(2);
        }
    };
    if let Ok(bound) = listener.local_addr() {
        eprintln!("listening on {bound}");
    }
    match serve_router(listener, router).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-test {command}: {e}");
            ExitCode::from(2)
        }
    }
}

/// A listener on `addr`, which must be a loopback address: the spec's advice for a local
/// server, and a recording proxy is one.
async fn local_listener(addr: &str) -> std::io::Result<tokio::net::TcpListener> {
    let parsed: std::net::SocketAddr = addr.parse().map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not an address such as 127.0.0.1:8080 ({e})"),
        )
    })?;
    if !parsed.ip().is_loopback() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "only a loopback address (127.0.0.1, [::1]) is served",
        ));
    }
    tokio::net::TcpListener::bind(parsed).await
}

/// The proxy to a Streamable HTTP server: each client message sent as its own exchange,
/// concurrently; the notifications and the reply written back on stdout.
async fn over_http(client: Client, tap: Tap) -> Result<ExitCode, RecordError> {
    let tap = Arc::new(Mutex::new(tap));
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Value>();
    let writing = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(message) = out_rx.recv().await {
            let mut line = message.to_string();
            line.push('\n');
            if stdout.write_all(line.as_bytes()).await.is_err() || stdout.flush().await.is_err() {
                return;
            }
        }
    });
    let failed: Arc<Mutex<Option<CassetteError>>> = Arc::default();
    let mut lines = Lines::new(tokio::io::stdin(), MAX_LINE_BYTES);
    let mut sends = tokio::task::JoinSet::new();
    while let Some(line) = lines.next_line().await {
        let Some(bytes) = complete(line, Side::Client) else {
            continue;
        };
        let Ok(message) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        if message.get("method").is_none() {
            eprintln!(
                "mcp-test record: the client answered a server request; over --url the HTTP client answers those itself, so this answer is not forwarded"
            );
            continue;
        }
        keep_first(lock(&tap).from_client(&message), &failed);
        let (client, tap, out_tx, failed) =
            (client.clone(), tap.clone(), out_tx.clone(), failed.clone());
        sends.spawn(async move {
            let exchange = match Target::send(&client, &message, &Caller::default()).await {
                Ok(exchange) => exchange,
                Err(e) => {
                    eprintln!("mcp-test record: {e}");
                    if let Some(id) = message.get("id") {
                        let _ = out_tx.send(serde_json::json!({"jsonrpc": "2.0", "id": id,
                            "error": {"code": -32603, "message": format!("mcp-test record: {e}")}}));
                    }
                    return;
                }
            };
            let mut tap = lock(&tap);
            for note in exchange.notifications {
                keep_first(tap.from_server(&note), &failed);
                let _ = out_tx.send(note);
            }
            if let Some(response) = exchange.response {
                keep_first(tap.from_server(&response), &failed);
                let _ = out_tx.send(response);
            }
        });
    }
    while sends.join_next().await.is_some() {}
    drop(out_tx);
    let _ = writing.await;
    let _ = client.close().await;
    lock(&tap).finish()?;
    if let Some(e) = lock(&failed).take() {
        return Err(e.into());
    }
    Ok(ExitCode::SUCCESS)
}
