//! The stdio transport of MCP 2026-07-28 (spec §6): newline-delimited JSON-RPC on a reader and
//! a writer (the process's stdin and stdout).
//!
//! - Only MCP messages are written; nothing else ever goes on the writer.
//! - Requests are answered concurrently: a slow call never blocks a fast one.
//! - A request's progress and log notifications are written before its response.
//! - `notifications/cancelled {requestId}` stops that request; nothing more is written for it.
//!   Unknown or late cancellations are ignored.
//! - A line longer than the limit, or not UTF-8, gets an error (-32600 / -32700) and the server
//!   keeps serving.
//! - At end of input the server stops reading, finishes the requests in flight, and returns.
//! - The connection is one [`Session`]: its first message fixes the era (2026-07-28, or the
//!   2025-11-25 `initialize` handshake, see [`session`](crate::session)). In the 2025 era the
//!   server's own requests (`elicitation/create`, ...) and change notifications are written
//!   on stdout too, and the client's responses to them, read on stdin, resume the request
//!   that asked.

use crate::server::{Caller, Server};
use crate::session::Session;
use crate::wire::{ErrorObject, RequestId, Response};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinSet};

/// Configuration of the stdio transport.
#[derive(Clone, Debug)]
pub struct StdioConfig {
    /// The longest accepted line in bytes (default 4 MiB).
    pub max_line_bytes: usize,
    /// Who every request comes from: stdio has no authentication, so this is the identity of
    /// the process's owner (default anonymous).
    pub caller: Caller,
}

impl Default for StdioConfig {
    fn default() -> Self {
        StdioConfig {
            max_line_bytes: 4 * 1024 * 1024,
            caller: Caller::default(),
        }
    }
}

/// Serves `server` on the process's stdin and stdout until stdin closes.
pub async fn serve_stdio(server: Server) -> std::io::Result<()> {
    serve(
        server,
        tokio::io::stdin(),
        tokio::io::stdout(),
        StdioConfig::default(),
    )
    .await
}

/// Serves `server` on any reader and writer (a child's pipes, a `tokio::io::duplex`, ...).
///
/// ```
/// use mcp_test::transport::stdio::{serve, StdioConfig};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = mcp_test::Server::builder("s", "1").build().unwrap();
/// let input = concat!(
///     r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"#,
///     r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","#,
///     r#""io.modelcontextprotocol/clientCapabilities":{}}}}"#, "\n",
/// );
/// let mut output = Vec::new();
/// serve(server, input.as_bytes(), &mut output, StdioConfig::default()).await.unwrap();
/// let reply: serde_json::Value = serde_json::from_slice(&output).unwrap();
/// assert_eq!(reply["result"]["supportedVersions"][0], "2026-07-28");
/// # }
/// ```
pub async fn serve<R, W>(
    server: Server,
    reader: R,
    writer: W,
    config: StdioConfig,
) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let (out_tx, out_rx) = mpsc::unbounded_channel::<String>();
    let (own_tx, own_rx) = mpsc::unbounded_channel::<Value>();
    let session = Session::new(server, Some(own_tx));
    let in_flight: Arc<Mutex<HashMap<RequestId, AbortHandle>>> = Arc::default();
    let mut tasks = JoinSet::new();
    let reading = async {
        let mut reader = BufReader::new(reader);
        let mut line = Vec::new();
        loop {
            line.clear();
            let overflow = read_line(&mut reader, &mut line, config.max_line_bytes).await?;
            if line.is_empty() && !overflow {
                return Ok::<(), std::io::Error>(()); // end of input
            }
            if overflow {
                let error = ErrorObject::invalid_request(format!(
                    "the message exceeds the limit of {} bytes per line",
                    config.max_line_bytes
                ));
                let _ = out_tx.send(to_line(&Response::Error { id: None, error }));
                continue;
            }
            let text = match std::str::from_utf8(&line) {
                Ok(text) => text.trim(),
                Err(e) => {
                    let error = ErrorObject::parse_error(format!("the line is not UTF-8: {e}"));
                    let _ = out_tx.send(to_line(&Response::Error { id: None, error }));
                    continue;
                }
            };
            if text.is_empty() {
                continue;
            }
            let message: Value = match serde_json::from_str(text) {
                Ok(message) => message,
                Err(e) => {
                    let error = ErrorObject::parse_error(e);
                    let _ = out_tx.send(to_line(&Response::Error { id: None, error }));
                    continue;
                }
            };
            if session.deliver(&message) {
                continue;
            }
            if message.get("method").and_then(Value::as_str) == Some("notifications/cancelled")
                && message.get("id").is_none()
            {
                let target = message
                    .get("params")
                    .and_then(|p| p.get("requestId"))
                    .and_then(RequestId::from_value);
                if let Some(target) = target
                    && let Some(handle) = lock(&in_flight).remove(&target)
                {
                    handle.abort();
                }
                continue;
            }
            let id = message.get("id").and_then(RequestId::from_value);
            let session = session.clone();
            let caller = config.caller.clone();
            let out = out_tx.clone();
            let registry = in_flight.clone();
            let task_id = id.clone();
            let handle = tasks.spawn(async move {
                answer(session, message, caller, &out).await;
                if let Some(id) = task_id {
                    lock(&registry).remove(&id);
                }
            });
            if let Some(id) = id {
                lock(&in_flight).insert(id, handle);
            }
        }
    };
    let writing = write_lines(writer, out_rx, own_rx);
    tokio::pin!(writing);
    // Read until end of input while writing, then finish the requests in flight: a question
    // still waiting for the client's answer can get none now, so it fails.
    tokio::select! {
        read = reading => read?,
        written = &mut writing => return written,
    }
    session.close();
    while tasks.join_next().await.is_some() {}
    drop(session);
    drop(out_tx);
    writing.await
}

/// Answers one message: its notifications as they come, then its response.
async fn answer(
    session: Session,
    message: Value,
    mut caller: Caller,
    out: &mpsc::UnboundedSender<String>,
) {
    let (note_tx, mut note_rx) = mpsc::unbounded_channel();
    caller.notifications = Some(note_tx);
    let handling = session.handle_value(message, &caller);
    tokio::pin!(handling);
    let response = loop {
        tokio::select! {
            biased;
            Some(note) = note_rx.recv() => {
                let _ = out.send(serde_json::to_string(&note).expect("notifications serialize"));
            }
            response = &mut handling => break response,
        }
    };
    while let Ok(note) = note_rx.try_recv() {
        let _ = out.send(serde_json::to_string(&note).expect("notifications serialize"));
    }
    if let Some(response) = response {
        let _ = out.send(to_line(&response));
    }
}

/// Writes the replies and notifications of requests (`lines`) and the session's own messages
/// (`own`) until `lines` closes.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut lines: mpsc::UnboundedReceiver<String>,
    mut own: mpsc::UnboundedReceiver<Value>,
) -> std::io::Result<()> {
    let mut own_open = true;
    loop {
        let mut line = tokio::select! {
            biased;
            message = own.recv(), if own_open => match message {
                Some(message) => message.to_string(),
                None => {
                    own_open = false;
                    continue;
                }
            },
            line = lines.recv() => match line {
                Some(line) => line,
                None => break,
            },
        };
        line.push('\n');
        writer.write_all(line.as_bytes()).await?;
        writer.flush().await?;
    }
    writer.flush().await
}

/// Reads one line (without its `\n`) into `line`, keeping at most `max` bytes. Returns `true`
/// when the line was longer (the rest is discarded). An empty `line` and `false` is end of
/// input.
async fn read_line<R: AsyncBufReadExt + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<bool> {
    let mut overflow = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            // End of input: a last line without a newline still counts.
            return Ok(overflow);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if !overflow {
            if line.len() + chunk.len() > max {
                overflow = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(available.len());
        reader.consume(used);
        if done.is_some() {
            if overflow {
                return Ok(true);
            }
            if line.is_empty() {
                // A blank line: keep it distinguishable from end of input.
                line.push(b' ');
            }
            return Ok(false);
        }
    }
}

fn to_line(response: &Response) -> String {
    serde_json::to_string(response).expect("responses serialize")
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
