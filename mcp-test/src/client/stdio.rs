//! The stdio side of the client: a child process, one JSON-RPC message per line.

use super::{
    ClientError, DEFAULT_MAX_MESSAGE_BYTES, Exchange, MAX_KEPT_MESSAGES, MAX_STDERR_BYTES,
    describe, stderr_tail,
};
use crate::target::TransportEvent;
use serde_json::{Value, json};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Child;
use tokio::sync::{oneshot, watch};

type Reply = Result<(Value, Vec<Value>), Failure>;

enum Failure {
    Closed,
    NotJson { line: String, reason: String },
    TooLarge { bytes: usize, limit: usize },
}

struct Pending {
    /// The request id as JSON text (`1`, `"a"`, `null`).
    key: String,
    notes: Vec<Value>,
    tx: oneshot::Sender<Reply>,
}

#[derive(Default)]
struct State {
    pending: Vec<Pending>,
    /// Requests given up on (timed out, `notifications/cancelled` sent): a late reply to one is
    /// allowed, and ignored.
    cancelled: Vec<String>,
    events: Vec<TransportEvent>,
    /// Events not kept past [`MAX_KEPT_MESSAGES`].
    events_dropped: usize,
    closed: bool,
}

impl State {
    /// Keeps `event`, unless [`MAX_KEPT_MESSAGES`] are kept already (then counts it).
    fn record(&mut self, event: TransportEvent) {
        if self.events.len() < MAX_KEPT_MESSAGES {
            self.events.push(event);
        } else {
            self.events_dropped += 1;
        }
    }
}

struct Shared {
    state: Mutex<State>,
    /// The last [`MAX_STDERR_BYTES`] of stderr (up to twice that between trims).
    stderr: Mutex<Vec<u8>>,
    /// How many bytes of stderr were dropped from the front.
    stderr_dropped: AtomicUsize,
    stderr_done: watch::Sender<bool>,
    /// The longest line kept from stdout.
    max_line: AtomicUsize,
}

type Writer = Box<dyn AsyncWrite + Send + Unpin>;

pub(super) struct StdioTransport {
    program: String,
    stdin: Arc<tokio::sync::Mutex<Option<Writer>>>,
    child: tokio::sync::Mutex<Option<Child>>,
    shared: Arc<Shared>,
}

impl StdioTransport {
    pub(super) fn spawn(mut command: tokio::process::Command) -> Result<Self, ClientError> {
        let program = command
            .as_std()
            .get_program()
            .to_string_lossy()
            .into_owned();
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // Its own process group, so that closing it reaches every process it started.
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn().map_err(|source| ClientError::Spawn {
            program: program.clone(),
            source,
        })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        Ok(Self::start(
            program,
            Box::new(stdin),
            stdout,
            Some(stderr),
            Some(child),
        ))
    }

    /// Speaks over any reader (the server's output) and writer (its input).
    pub(super) fn connect(
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
    ) -> Self {
        Self::start(
            "in-process streams".to_owned(),
            Box::new(writer),
            reader,
            None::<tokio::io::Empty>,
            None,
        )
    }

    fn start(
        program: String,
        stdin: Writer,
        stdout: impl AsyncRead + Send + Unpin + 'static,
        stderr: Option<impl AsyncRead + Send + Unpin + 'static>,
        child: Option<Child>,
    ) -> Self {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            stderr: Mutex::new(Vec::new()),
            stderr_dropped: AtomicUsize::new(0),
            stderr_done: watch::channel(false).0,
            max_line: AtomicUsize::new(DEFAULT_MAX_MESSAGE_BYTES),
        });
        let for_stderr = shared.clone();
        tokio::spawn(async move {
            if let Some(mut stderr) = stderr {
                let mut buf = [0_u8; 4096];
                loop {
                    match stderr.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let mut kept = for_stderr.stderr.lock().expect("stderr lock");
                            kept.extend_from_slice(&buf[..n]);
                            // Keep the tail: trim to the limit once it is twice over, so a
                            // flood costs a copy per MAX_STDERR_BYTES read, not per read.
                            if kept.len() > 2 * MAX_STDERR_BYTES {
                                let drop = kept.len() - MAX_STDERR_BYTES;
                                kept.drain(..drop);
                                for_stderr.stderr_dropped.fetch_add(drop, Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
            for_stderr.stderr_done.send_replace(true);
        });
        let for_stdout = shared.clone();
        let stdin = Arc::new(tokio::sync::Mutex::new(Some(stdin)));
        let answers = stdin.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                let max = for_stdout.max_line.load(Ordering::Relaxed);
                match read_line_capped(&mut reader, &mut line, max).await {
                    Ok((0, _)) | Err(_) => break,
                    Ok((bytes, true)) => for_stdout.on_oversized(bytes, max),
                    Ok(_) => {
                        if let Some(answer) = for_stdout.on_line(&line) {
                            // A server that waits for the answer must get one; one that can no
                            // longer read it has closed its stdin, which is its business.
                            let mut text = answer.to_string();
                            text.push('\n');
                            if let Some(pipe) = answers.lock().await.as_mut() {
                                let _ = pipe.write_all(text.as_bytes()).await;
                                let _ = pipe.flush().await;
                            }
                        }
                    }
                }
            }
            let mut state = for_stdout.state.lock().expect("state lock");
            state.closed = true;
            for pending in state.pending.drain(..) {
                let _ = pending.tx.send(Err(Failure::Closed));
            }
        });
        StdioTransport {
            program,
            stdin,
            child: tokio::sync::Mutex::new(child),
            shared,
        }
    }

    /// Keeps no line from stdout longer than `bytes`.
    pub(super) fn set_max_line(&self, bytes: usize) {
        self.shared.max_line.store(bytes, Ordering::Relaxed);
    }

    pub(super) fn program(&self) -> &str {
        &self.program
    }

    pub(super) fn stderr(&self) -> String {
        let kept = self.shared.stderr.lock().expect("stderr lock");
        let start = kept.len().saturating_sub(MAX_STDERR_BYTES);
        let dropped = self.shared.stderr_dropped.load(Ordering::Relaxed) + start;
        let text = String::from_utf8_lossy(&kept[start..]);
        if dropped == 0 {
            text.into_owned()
        } else {
            format!("[{dropped} earlier bytes of stderr not kept]\n{text}")
        }
    }

    pub(super) fn events(&self) -> Vec<TransportEvent> {
        let state = self.shared.state.lock().expect("state lock");
        let mut events = state.events.clone();
        if state.events_dropped > 0 {
            events.push(TransportEvent::Dropped {
                count: state.events_dropped,
            });
        }
        events
    }

    /// The stderr tail once the child's stderr has closed (or after a short wait).
    async fn final_stderr(&self) -> String {
        let mut done = self.shared.stderr_done.subscribe();
        let _ = tokio::time::timeout(Duration::from_secs(2), done.wait_for(|d| *d)).await;
        stderr_tail(&self.stderr())
    }

    async fn write(&self, message: &Value) -> Result<(), ClientError> {
        let mut line = serde_json::to_string(message).expect("a JSON value always encodes");
        line.push('\n');
        let mut stdin = self.stdin.lock().await;
        let Some(pipe) = stdin.as_mut() else {
            return Err(ClientError::ClientClosed {
                request: describe(message),
            });
        };
        let written = async {
            pipe.write_all(line.as_bytes()).await?;
            pipe.flush().await
        }
        .await;
        drop(stdin);
        written.map_err(|source| ClientError::Io {
            what: format!(
                "could not write {} to the server's stdin",
                describe(message)
            ),
            source,
            stderr: stderr_tail(&self.stderr()),
        })
    }

    pub(super) async fn exchange(
        &self,
        body: &Value,
        timeout: Duration,
    ) -> Result<Exchange, ClientError> {
        let Some(id) = body.get("id") else {
            self.write(body).await?;
            return Ok(Exchange::default());
        };
        let key = id.to_string();
        let request = describe(body);
        let (tx, rx) = oneshot::channel();
        // Where the transport events stood when the request went out: a reply to no request
        // that arrives after it is told apart from silence if the request times out.
        let events_before = {
            let mut state = self.shared.state.lock().expect("state lock");
            if state.closed {
                drop(state);
                return Err(ClientError::Closed {
                    request,
                    stderr: stderr_tail(&self.stderr()),
                });
            }
            if state.pending.iter().any(|p| p.key == key) {
                return Err(ClientError::Protocol(format!(
                    "cannot send {request}: a request with id {key} is already in flight on this connection"
                )));
            }
            state.pending.push(Pending {
                key: key.clone(),
                notes: Vec::new(),
                tx,
            });
            state.events.len()
        };
        if let Err(e) = self.write(body).await {
            self.forget(&key);
            return Err(e);
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(Ok((response, notifications)))) => Ok(Exchange {
                response: Some(response),
                notifications,
                status: None,
                content_type: None,
            }),
            Ok(Ok(Err(Failure::NotJson { line, reason }))) => Err(ClientError::NotJson {
                line,
                reason,
                stderr: stderr_tail(&self.stderr()),
            }),
            Ok(Ok(Err(Failure::TooLarge { bytes, limit }))) => Err(ClientError::TooLarge {
                what: "a line on stdout".to_owned(),
                bytes,
                limit,
                stderr: stderr_tail(&self.stderr()),
            }),
            Ok(Ok(Err(Failure::Closed)) | Err(_)) => Err(ClientError::Closed {
                request,
                stderr: self.final_stderr().await,
            }),
            Err(_) => {
                self.forget(&key);
                let unmatched = {
                    let mut state = self.shared.state.lock().expect("state lock");
                    state.cancelled.push(key.clone());
                    unmatched_since(&state.events, events_before)
                };
                let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                    "params": {"requestId": id, "reason": "client timeout"}});
                let _ = self.write(&cancel).await;
                let stderr = stderr_tail(&self.stderr());
                if unmatched.is_empty() {
                    Err(ClientError::Timeout {
                        request,
                        after: timeout,
                        stderr,
                    })
                } else {
                    Err(ClientError::WrongId {
                        request,
                        expected: key,
                        got: unmatched,
                        after: Some(timeout),
                        stderr,
                    })
                }
            }
        }
    }

    fn forget(&self, key: &str) {
        let mut state = self.shared.state.lock().expect("state lock");
        state.pending.retain(|p| p.key != key);
    }

    pub(super) async fn close(&self, timeout: Duration) -> Result<Option<ExitStatus>, ClientError> {
        if let Some(mut pipe) = self.stdin.lock().await.take() {
            let _ = pipe.shutdown().await;
        }
        let mut child = self.child.lock().await;
        let Some(process) = child.as_mut() else {
            return Ok(None);
        };
        let group = process.id();
        match tokio::time::timeout(timeout, process.wait()).await {
            Ok(Ok(status)) => {
                // The server is gone; whatever it started and left behind goes too.
                end_group(group, TERM_GRACE).await;
                Ok(Some(status))
            }
            Ok(Err(source)) => Err(ClientError::Io {
                what: "could not wait for the server process".to_owned(),
                source,
                stderr: String::new(),
            }),
            Err(_) => {
                // SIGTERM to the whole group first, then SIGKILL to what is left.
                end_group(group, TERM_GRACE).await;
                let _ = process.kill().await;
                drop(child);
                Err(ClientError::NoExit {
                    after: timeout,
                    stderr: self.final_stderr().await,
                })
            }
        }
    }
}

/// The ids of the replies to no request in flight among `events[from..]`, each once.
fn unmatched_since(events: &[TransportEvent], from: usize) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for event in events.iter().skip(from) {
        if let TransportEvent::UnmatchedReply { id, .. } = event
            && !ids.contains(id)
        {
            ids.push(id.clone());
        }
    }
    ids
}

/// The client's answer to a request from the server: `ping` gets an empty result (2025-11-25
/// basic/utilities/ping.mdx: the receiver MUST respond promptly with an empty response), and
/// anything else -32601, since this client declares no capability a server may ask of it
/// (roots, sampling, elicitation). A 2025-era server may send them; waiting for an answer
/// that never came would hang it.
fn answer_to_server(request: &Value) -> Value {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    match request.get("method").and_then(Value::as_str) {
        Some("ping") => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        method => json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": crate::wire::error_codes::METHOD_NOT_FOUND,
            "message": format!(
                "Method not found: this client serves no {} request (it declared no capability for it)",
                method.unwrap_or("such")
            ),
        }}),
    }
}

impl Shared {
    /// Takes one line from the server's stdout; returns the answer to send back when the
    /// line is a request from the server.
    /// A line longer than the limit was read and thrown away: recorded, and the one request
    /// in flight, if only one is, fails naming the limit (with several, the line could be any
    /// one's answer: they time out instead).
    fn on_oversized(&self, bytes: usize, limit: usize) {
        let mut state = self.state.lock().expect("state lock");
        state.record(TransportEvent::TooLarge { bytes, limit });
        if state.pending.len() == 1 {
            let pending = state.pending.remove(0);
            let _ = pending.tx.send(Err(Failure::TooLarge { bytes, limit }));
        }
    }

    fn on_line(&self, raw: &[u8]) -> Option<Value> {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            return None;
        }
        let mut state = self.state.lock().expect("state lock");
        let message: Value = match serde_json::from_str(line) {
            Ok(message) => message,
            Err(e) => {
                state.record(TransportEvent::NotJson {
                    line: line.to_owned(),
                    reason: e.to_string(),
                });
                for pending in state.pending.drain(..) {
                    let _ = pending.tx.send(Err(Failure::NotJson {
                        line: line.to_owned(),
                        reason: e.to_string(),
                    }));
                }
                return None;
            }
        };
        let is_object = message.is_object();
        let has = |k: &str| message.get(k).is_some();
        if is_object && has("method") && has("id") {
            state.record(TransportEvent::ServerRequest {
                method: message["method"].as_str().unwrap_or("?").to_owned(),
                line: line.to_owned(),
            });
            return Some(answer_to_server(&message));
        } else if is_object && has("method") {
            for pending in &mut state.pending {
                if pending.notes.len() < MAX_KEPT_MESSAGES {
                    pending.notes.push(message.clone());
                }
            }
        } else if is_object && (has("result") || has("error")) {
            let key = message.get("id").unwrap_or(&Value::Null).to_string();
            let index = state
                .pending
                .iter()
                .position(|p| p.key == key)
                .or_else(|| (key == "null" && !state.pending.is_empty()).then_some(0));
            let late = state.cancelled.iter().position(|c| *c == key);
            match (index, late) {
                (Some(index), _) => {
                    let pending = state.pending.remove(index);
                    let _ = pending.tx.send(Ok((message, pending.notes)));
                }
                (None, Some(late)) => {
                    state.cancelled.remove(late);
                }
                (None, None) => state.record(TransportEvent::UnmatchedReply {
                    id: key,
                    line: line.to_owned(),
                }),
            }
        } else {
            state.record(TransportEvent::NotJsonRpc {
                line: line.to_owned(),
            });
            for pending in state.pending.drain(..) {
                let _ = pending.tx.send(Err(Failure::NotJson {
                    line: line.to_owned(),
                    reason: "not a JSON-RPC message".to_owned(),
                }));
            }
        }
        None
    }
}

/// Reads one line (up to and including `\n`, or to the end of input) into `line`, keeping at
/// most `max` bytes of it: a longer line is consumed to its end but not kept. Returns how many
/// bytes were consumed (0 at the end of input) and whether the line was longer than `max`.
async fn read_line_capped<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut over = false;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok((consumed, over));
        }
        let (n, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if !over {
            if line.len() + n > max {
                over = true;
                line.clear();
            } else {
                line.extend_from_slice(&buf[..n]);
            }
        }
        reader.consume(n);
        consumed += n;
        if done {
            return Ok((consumed, over));
        }
    }
}

/// How long the processes of a server's group get between SIGTERM and SIGKILL.
const TERM_GRACE: Duration = Duration::from_millis(500);

/// Ends the process group led by `leader` (the server, spawned as a group leader): SIGTERM,
/// then after `grace` SIGKILL to any process of it still there. Nothing when the group is
/// already empty, or off unix.
async fn end_group(leader: Option<u32>, grace: Duration) {
    #[cfg(unix)]
    if let Some(pid) = leader.and_then(|p| libc::pid_t::try_from(p).ok()) {
        // SAFETY: kill(2) with a negative pid signals the process group; it touches no memory.
        let alive = |signal| unsafe { libc::kill(-pid, signal) } == 0;
        if alive(libc::SIGTERM) {
            let started = std::time::Instant::now();
            while started.elapsed() < grace && alive(0) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            if alive(libc::SIGKILL) {
                // Let the kernel end them before the caller looks (a zombie counts as alive
                // to kill(2), hence the bound).
                let killed = std::time::Instant::now();
                while killed.elapsed() < grace && alive(0) {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (leader, grace);
}

impl Drop for StdioTransport {
    /// A client dropped without closing still takes the server's whole group with it
    /// (`kill_on_drop` reaches only the server itself).
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(pid) = self
            .child
            .get_mut()
            .as_ref()
            .and_then(Child::id)
            .and_then(|p| libc::pid_t::try_from(p).ok())
        {
            // SAFETY: as in `end_group`.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}
