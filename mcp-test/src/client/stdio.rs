//! The stdio side of the client: a child process, one JSON-RPC message per line.

use super::ClientError;
use super::limits::{
    DEFAULT_MAX_LINE_BYTES, MAX_KEPT_BYTES, MAX_KEPT_MESSAGES, MAX_STDERR_BYTES, is_too_deep,
    quoted, stderr_tail,
};
use crate::target::answering::AnswerSources;
use crate::target::{Exchange, TransportEvent, describe};
use crate::transport::ndjson::{Line, LineReader};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::process::Child;
use tokio::sync::{mpsc, oneshot, watch};

/// How many answers to requests from the server wait to be written at most; past that (a
/// server flooding requests without reading its input) they are counted and dropped.
const ANSWER_QUEUE: usize = 256;

/// How long one write to the server's stdin may take before it is given up: a server that
/// does not read its input must not block the client.
const ANSWER_WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// How many answered request ids are remembered to tell a reply sent twice from a reply to
/// no request.
const ANSWERED_KEPT: usize = 4096;

type Reply = Result<(Value, Vec<Value>), Failure>;

enum Failure {
    Closed,
    TooLarge { bytes: usize, limit: usize },
    TooDeep { line: String },
    NotUtf8 { line: String, at: usize },
}

struct Pending {
    /// The request id as JSON text (`1`, `"a"`, `null`).
    key: String,
    notes: Vec<Value>,
    /// Bytes of the lines of `notes`, kept up to [`MAX_KEPT_BYTES`].
    notes_bytes: usize,
    /// Notifications not kept.
    notes_dropped: usize,
    tx: oneshot::Sender<Reply>,
}

#[derive(Default)]
struct State {
    pending: Vec<Pending>,
    /// Requests given up on (timed out, `notifications/cancelled` sent): a late reply to one is
    /// allowed, and ignored.
    cancelled: Vec<String>,
    events: Vec<TransportEvent>,
    /// Bytes of the lines the kept events quote.
    events_bytes: usize,
    /// Events not kept past [`MAX_KEPT_MESSAGES`] or [`MAX_KEPT_BYTES`].
    events_dropped: usize,
    /// The ids of the last requests answered, to tell a reply sent twice.
    answered: VecDeque<String>,
    /// Requests from the server left unanswered (the answer queue was full).
    unanswered: usize,
    closed: bool,
}

impl State {
    /// Keeps `event`, unless [`MAX_KEPT_MESSAGES`] are kept already (then counts it).
    fn record(&mut self, event: TransportEvent) {
        let bytes = match &event {
            TransportEvent::NotJson { line, .. }
            | TransportEvent::NotJsonRpc { line }
            | TransportEvent::UnmatchedReply { line, .. }
            | TransportEvent::ServerRequest { line, .. }
            | TransportEvent::NotUtf8 { line, .. }
            | TransportEvent::TooDeep { line, .. }
            | TransportEvent::DuplicateReply { line, .. } => line.len(),
            _ => 0,
        };
        if self.events.len() < MAX_KEPT_MESSAGES && self.events_bytes + bytes <= MAX_KEPT_BYTES {
            self.events_bytes += bytes;
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
    /// The answers to the server's own requests.
    answers: Arc<AnswerSources>,
}

type Writer = Box<dyn AsyncWrite + Send + Unpin>;

pub(super) struct StdioTransport {
    program: String,
    /// The child's process id, read once at spawn (none over in-process streams).
    pid: Option<u32>,
    stdin: Arc<tokio::sync::Mutex<Option<Writer>>>,
    child: tokio::sync::Mutex<Option<Child>>,
    shared: Arc<Shared>,
}

impl StdioTransport {
    pub(super) fn spawn(
        mut command: tokio::process::Command,
        answers: Arc<AnswerSources>,
    ) -> Result<Self, ClientError> {
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
            answers,
        ))
    }

    /// Speaks over any reader (the server's output) and writer (its input).
    pub(super) fn connect(
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
        answers: Arc<AnswerSources>,
    ) -> Self {
        Self::start(
            "in-process streams".to_owned(),
            Box::new(writer),
            reader,
            None::<tokio::io::Empty>,
            None,
            answers,
        )
    }

    fn start(
        program: String,
        stdin: Writer,
        stdout: impl AsyncRead + Send + Unpin + 'static,
        stderr: Option<impl AsyncRead + Send + Unpin + 'static>,
        child: Option<Child>,
        answers: Arc<AnswerSources>,
    ) -> Self {
        let shared = Arc::new(Shared {
            answers,
            state: Mutex::new(State::default()),
            stderr: Mutex::new(Vec::new()),
            stderr_dropped: AtomicUsize::new(0),
            stderr_done: watch::channel(false).0,
            max_line: AtomicUsize::new(DEFAULT_MAX_LINE_BYTES),
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
        // Answers to the server's requests go through a bounded queue to a writer of their
        // own: the reader never waits on the server's input, so a server that floods
        // requests without reading its answers can neither block the reading of its output
        // nor fill memory.
        let (answers, mut queued) = mpsc::channel::<Value>(ANSWER_QUEUE);
        let to_stdin = stdin.clone();
        tokio::spawn(async move {
            while let Some(answer) = queued.recv().await {
                let mut text = answer.to_string();
                text.push('\n');
                // A server that waits for the answer must get one; one that can no longer read
                // it has closed its stdin (or stopped reading), which is its business.
                let mut pipe = to_stdin.lock().await;
                if let Some(pipe) = pipe.as_mut() {
                    let write = async {
                        pipe.write_all(text.as_bytes()).await?;
                        pipe.flush().await
                    };
                    let _ = tokio::time::timeout(ANSWER_WRITE_TIMEOUT, write).await;
                }
            }
        });
        tokio::spawn(async move {
            let mut stdout = stdout;
            let mut buf = vec![0_u8; 64 << 10];
            let mut reader = LineReader::new(for_stdout.max_line.load(Ordering::Relaxed));
            let mut lines = Vec::new();
            loop {
                let n = match stdout.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                reader.set_max_line_bytes(for_stdout.max_line.load(Ordering::Relaxed));
                reader.push(&buf[..n], &mut lines);
                for line in lines.drain(..) {
                    for_stdout.on_framed(line, &answers);
                }
            }
            reader.finish(&mut lines);
            for line in lines.drain(..) {
                for_stdout.on_framed(line, &answers);
            }
            let mut state = for_stdout.state.lock().expect("state lock");
            state.closed = true;
            for pending in state.pending.drain(..) {
                let _ = pending.tx.send(Err(Failure::Closed));
            }
        });
        StdioTransport {
            program,
            pid: child.as_ref().and_then(Child::id),
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

    pub(super) fn pid(&self) -> Option<u32> {
        self.pid
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
        let stderr_dropped = self.shared.stderr_dropped.load(Ordering::Relaxed);
        if stderr_dropped > 0 {
            events.push(TransportEvent::StderrDropped {
                bytes: stderr_dropped,
            });
        }
        if state.unanswered > 0 {
            events.push(TransportEvent::Unanswered {
                count: state.unanswered,
            });
        }
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

    async fn write(&self, message: &Value, timeout: Duration) -> Result<(), ClientError> {
        let written = tokio::time::timeout(timeout, self.write_now(message)).await;
        written.unwrap_or_else(|_| {
            Err(ClientError::Timeout {
                request: format!(
                    "{} (the server did not read its stdin: the message could not be written)",
                    describe(message)
                ),
                after: timeout,
                stderr: stderr_tail(&self.stderr()),
            })
        })
    }

    async fn write_now(&self, message: &Value) -> Result<(), ClientError> {
        let line = serde_json::to_string(message).expect("a JSON value always encodes");
        self.write_line(line, describe(message)).await
    }

    /// Writes `text` as one line, as it is (JSON or not): a message no JSON value encodes, and
    /// waits up to `timeout` for its reply, under `null` or the id `text` carries when it is
    /// JSON with one. No reply by then: an exchange without a response (a late one is
    /// ignored, as for a request given up on).
    pub(super) async fn exchange_text(
        &self,
        text: &str,
        timeout: Duration,
    ) -> Result<Exchange, ClientError> {
        if text.contains(['\n', '\r']) {
            return Err(ClientError::Protocol(format!(
                "cannot write {text:?} as one message: stdio frames a message as one line"
            )));
        }
        let key = serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| v.get("id").cloned())
            .map_or_else(|| "null".to_owned(), |id| id.to_string());
        let request = format!("a message that is not a request ({})", quoted(text));
        let (rx, _) = self.register(&key, &request)?;
        // Given up before its reply (the caller stopped waiting): the slot goes, and a late
        // reply is ignored as for a request given up on.
        let _slot = Slot {
            shared: &self.shared,
            key: &key,
        };
        let started = tokio::time::Instant::now();
        let written =
            tokio::time::timeout(timeout, self.write_line(text.to_owned(), request.clone())).await;
        let written = written.unwrap_or_else(|_| {
            Err(ClientError::Timeout {
                request: format!(
                    "{request} (the server did not read its stdin: the message could not be written)"
                ),
                after: timeout,
                stderr: stderr_tail(&self.stderr()),
            })
        });
        if let Err(e) = written {
            self.forget(&key);
            return Err(e);
        }
        let left = timeout.saturating_sub(started.elapsed());
        if let Some(exchange) = self.reply_within(&key, rx, left, &request).await? {
            return Ok(exchange);
        }
        // One statement, so the lock is released before the slot's own drop takes it.
        (self.shared.state.lock().expect("state lock").cancelled).push(key.clone());
        Ok(Exchange::default())
    }

    /// Waits up to `left` for the reply to `request` (its slot `rx`, under `key`): the
    /// exchange, the failure that came instead, or `None` when the time ran out (the slot is
    /// then forgotten; what a timeout means is the caller's).
    async fn reply_within(
        &self,
        key: &str,
        rx: oneshot::Receiver<Reply>,
        left: Duration,
        request: &str,
    ) -> Result<Option<Exchange>, ClientError> {
        match tokio::time::timeout(left, rx).await {
            Ok(Ok(Ok((response, notifications)))) => Ok(Some(Exchange {
                response: Some(response),
                notifications,
                status: None,
                content_type: None,
            })),
            Ok(Ok(Err(failure))) => Err(self.failed(failure, request).await),
            Ok(Err(_)) => Err(self.failed(Failure::Closed, request).await),
            Err(_) => {
                self.forget(key);
                Ok(None)
            }
        }
    }

    async fn write_line(&self, mut line: String, what: String) -> Result<(), ClientError> {
        line.push('\n');
        let mut stdin = self.stdin.lock().await;
        let Some(pipe) = stdin.as_mut() else {
            return Err(ClientError::ClientClosed { request: what });
        };
        let written = async {
            pipe.write_all(line.as_bytes()).await?;
            pipe.flush().await
        }
        .await;
        drop(stdin);
        written.map_err(|source| ClientError::Io {
            what: format!("could not write {what} to the server's stdin"),
            source,
            stderr: stderr_tail(&self.stderr()),
        })
    }

    /// Registers a reply slot for the message whose id is `key` (JSON text) before it is
    /// written: the receiver its reply is sent to, and how many transport events were kept
    /// then. `request` names it in the errors: a closed connection, an id already in flight.
    fn register(
        &self,
        key: &str,
        request: &str,
    ) -> Result<(oneshot::Receiver<Reply>, usize), ClientError> {
        let (tx, rx) = oneshot::channel();
        let mut state = self.shared.state.lock().expect("state lock");
        if state.closed {
            drop(state);
            return Err(ClientError::Closed {
                request: request.to_owned(),
                stderr: stderr_tail(&self.stderr()),
            });
        }
        if state.pending.iter().any(|p| p.key == key) {
            return Err(ClientError::Protocol(format!(
                "cannot send {request}: a request with id {key} is already in flight on this connection"
            )));
        }
        state.pending.push(Pending {
            key: key.to_owned(),
            notes: Vec::new(),
            notes_bytes: 0,
            notes_dropped: 0,
            tx,
        });
        Ok((rx, state.events.len()))
    }

    pub(super) async fn exchange(
        &self,
        body: &Value,
        timeout: Duration,
    ) -> Result<Exchange, ClientError> {
        let Some(id) = body.get("id") else {
            self.write(body, timeout).await?;
            return Ok(Exchange::default());
        };
        let key = id.to_string();
        let request = describe(body);
        // Where the transport events stood when the request went out: a reply to no request
        // that arrives after it is told apart from silence if the request times out.
        let (rx, events_before) = self.register(&key, &request)?;
        let started = tokio::time::Instant::now();
        if let Err(e) = self.write(body, timeout).await {
            self.forget(&key);
            return Err(e);
        }
        let left = timeout.saturating_sub(started.elapsed());
        if let Some(exchange) = self.reply_within(&key, rx, left, &request).await? {
            return Ok(exchange);
        }
        let (unmatched, stray) = {
            let mut state = self.shared.state.lock().expect("state lock");
            state.cancelled.push(key.clone());
            (
                unmatched_since(&state.events, events_before),
                stray_since(&state.events, events_before),
            )
        };
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": id, "reason": "client timeout"}});
        let _ = self.write(&cancel, Duration::from_secs(1)).await;
        let stderr = stderr_tail(&self.stderr());
        if let (true, Some((line, reason))) = (unmatched.is_empty(), stray) {
            // Silence, but for lines that are not messages: the likeliest answer, named.
            Err(ClientError::NotJson {
                line,
                reason: format!("{reason}; and no reply to {request} came within {timeout:?}"),
                stderr,
            })
        } else if unmatched.is_empty() {
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

    /// The error of `request`, which got `failure` instead of its reply.
    async fn failed(&self, failure: Failure, request: &str) -> ClientError {
        match failure {
            Failure::TooLarge { bytes, limit } => ClientError::TooLarge {
                what: format!("a line on stdout (while {request} waited for its reply)"),
                limit_name: "max_line_bytes",
                bytes,
                limit,
                stderr: stderr_tail(&self.stderr()),
            },
            Failure::TooDeep { line } => ClientError::TooDeep {
                what: format!("a line on stdout (while {request} waited for its reply)"),
                line,
                stderr: stderr_tail(&self.stderr()),
            },
            Failure::NotUtf8 { line, at } => ClientError::NotUtf8 {
                what: format!("the reply to {request}"),
                at,
                line,
                stderr: stderr_tail(&self.stderr()),
            },
            Failure::Closed => ClientError::Closed {
                request: request.to_owned(),
                stderr: self.final_stderr().await,
            },
        }
    }

    /// Records how the server's process group had to be stopped, if it had to be.
    fn record_stop(&self, server_exited: bool, ended: Ended) {
        let sigkill = match ended {
            Ended::Empty => return,
            Ended::Terminated => false,
            Ended::Killed => true,
        };
        let mut state = self.shared.state.lock().expect("state lock");
        state.record(TransportEvent::GroupStopped {
            server_exited,
            sigkill,
        });
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
                let ended = end_group(group, TERM_GRACE, None).await;
                self.record_stop(true, ended);
                Ok(Some(status))
            }
            Ok(Err(source)) => Err(ClientError::Io {
                what: "could not wait for the server process".to_owned(),
                source,
                stderr: String::new(),
            }),
            Err(_) => {
                // SIGTERM to the whole group first, then SIGKILL to what is left.
                let ended = end_group(group, TERM_GRACE, Some(&mut *process)).await;
                self.record_stop(false, ended);
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

/// The reply slot of a message written as text, for as long as its reply is awaited: when
/// the wait ends without the reply (a timeout, or the caller dropping the wait), the slot is
/// removed and its key marked given up, so a late reply is ignored rather than taken for a
/// reply to no request, and the key can be used again.
struct Slot<'a> {
    shared: &'a Shared,
    key: &'a str,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        let before = state.pending.len();
        state.pending.retain(|p| p.key != self.key);
        if state.pending.len() < before {
            state.cancelled.push(self.key.to_owned());
        }
    }
}

/// The first line of stdout among `events[from..]` that was not a JSON-RPC message, with
/// why, when there is one.
fn stray_since(events: &[TransportEvent], from: usize) -> Option<(String, String)> {
    events.iter().skip(from).find_map(|event| match event {
        TransportEvent::NotJson { line, reason } => Some((line.clone(), reason.clone())),
        TransportEvent::NotJsonRpc { line } => {
            Some((line.clone(), "not a JSON-RPC message".to_owned()))
        }
        _ => None,
    })
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

impl Shared {
    /// Takes one framed line from the server's stdout, and queues the answer when it is a
    /// request from the server.
    fn on_framed(&self, line: Line, answers: &mpsc::Sender<Value>) {
        match line {
            Line::TooLong { bytes, limit, head } => self.on_oversized(bytes, limit, &head),
            Line::Complete(line) => {
                if let Some(answer) = self.on_line(&line)
                    && answers.try_send(answer).is_err()
                {
                    self.state.lock().expect("state lock").unanswered += 1;
                }
            }
        }
    }

    /// A line went over the limit (the rest of it is skipped unseen): recorded, and the request it
    /// answers fails naming the limit: the one whose id its first bytes carry, else the one
    /// request in flight if only one is (with several, the line could be any one's answer:
    /// they time out instead).
    fn on_oversized(&self, bytes: usize, limit: usize, head: &[u8]) {
        let mut state = self.state.lock().expect("state lock");
        state.record(TransportEvent::TooLarge { bytes, limit });
        let index = leading_id(head)
            .and_then(|id| state.pending.iter().position(|p| p.key == id))
            .or_else(|| (state.pending.len() == 1).then_some(0));
        if let Some(index) = index {
            let pending = state.pending.remove(index);
            let _ = pending.tx.send(Err(Failure::TooLarge { bytes, limit }));
        }
    }

    /// Takes one line from the server's stdout; returns the answer to send back when the
    /// line is a request from the server.
    fn on_line(&self, raw: &[u8]) -> Option<Value> {
        let utf8 = std::str::from_utf8(raw).err().map(|e| e.valid_up_to());
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            return None;
        }
        let mut state = self.state.lock().expect("state lock");
        if let Some(at) = utf8 {
            state.record(TransportEvent::NotUtf8 {
                what: "a line on stdout".to_owned(),
                at,
                line: quoted(line),
            });
        }
        let message: Value = match serde_json::from_str(line) {
            Ok(message) => message,
            Err(e) if is_too_deep(&e) => {
                state.record(TransportEvent::TooDeep {
                    what: "a line on stdout".to_owned(),
                    line: quoted(line),
                });
                let index = leading_id(line.as_bytes())
                    .and_then(|id| state.pending.iter().position(|p| p.key == id))
                    .or_else(|| (state.pending.len() == 1).then_some(0));
                if let Some(index) = index {
                    let pending = state.pending.remove(index);
                    let _ = pending
                        .tx
                        .send(Err(Failure::TooDeep { line: quoted(line) }));
                }
                return None;
            }
            // A stray line (a log line, a banner) breaks the stdio rule once, and is recorded
            // as such; it answers nothing, so the requests in flight stay in flight and are
            // matched by id as their answers come. One that gets none names the line when it
            // times out ([`StdioTransport::exchange`]).
            Err(e) => {
                state.record(TransportEvent::NotJson {
                    line: quoted(line),
                    reason: e.to_string(),
                });
                return None;
            }
        };
        let is_object = message.is_object();
        let has = |k: &str| message.get(k).is_some();
        if is_object && has("method") && has("id") {
            state.record(TransportEvent::ServerRequest {
                method: message["method"].as_str().unwrap_or("?").to_owned(),
                line: quoted(line),
            });
            drop(state);
            return Some(self.answers.respond(&message));
        } else if is_object && has("method") {
            for pending in &mut state.pending {
                if pending.notes.len() < MAX_KEPT_MESSAGES
                    && pending.notes_bytes + line.len() <= MAX_KEPT_BYTES
                {
                    pending.notes_bytes += line.len();
                    pending.notes.push(message.clone());
                } else {
                    pending.notes_dropped += 1;
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
                    if pending.notes_dropped > 0 {
                        state.record(TransportEvent::NotificationsDropped {
                            id: pending.key.clone(),
                            count: pending.notes_dropped,
                        });
                    }
                    if state.answered.len() == ANSWERED_KEPT {
                        state.answered.pop_front();
                    }
                    state.answered.push_back(pending.key.clone());
                    match utf8 {
                        // The answer is not UTF-8: the request fails saying so.
                        Some(at) => {
                            let _ = pending.tx.send(Err(Failure::NotUtf8 {
                                line: quoted(line),
                                at,
                            }));
                        }
                        None => {
                            let _ = pending.tx.send(Ok((message, pending.notes)));
                        }
                    }
                }
                (None, Some(late)) => {
                    state.cancelled.remove(late);
                }
                (None, None) if key != "null" && state.answered.contains(&key) => {
                    state.record(TransportEvent::DuplicateReply {
                        id: key,
                        line: quoted(line),
                    });
                }
                (None, None) => state.record(TransportEvent::UnmatchedReply {
                    id: key,
                    line: quoted(line),
                }),
            }
        } else {
            // JSON that is no JSON-RPC message: recorded, and nothing in flight given up.
            state.record(TransportEvent::NotJsonRpc { line: quoted(line) });
        }
        None
    }
}

/// The id a JSON-RPC message starts with, as JSON text, when its first bytes show it (`"id"`
/// among the first keys, its value a number or a string without escapes): how a reply too
/// long or too deep to parse is matched to its request.
fn leading_id(head: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(head);
    let at = text.find("\"id\"")?;
    let rest = text[at + 4..].trim_start().strip_prefix(':')?.trim_start();
    let end = if let Some(string) = rest.strip_prefix('"') {
        let close = string.find(['"', '\\'])?;
        if !string[close..].starts_with('"') {
            return None;
        }
        close + 2
    } else {
        rest.find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(rest.len())
    };
    let id = &rest[..end];
    (!id.is_empty() && id != "-" && (id.len() > 1 || !id.starts_with('"'))).then(|| id.to_owned())
}

/// How long the processes of a server's group get between SIGTERM and SIGKILL.
const TERM_GRACE: Duration = Duration::from_millis(500);

/// How [`end_group`] found the server's process group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// Empty already (or off unix).
    Empty,
    /// Ended by SIGTERM.
    Terminated,
    /// Still there after SIGTERM and the grace: SIGKILL.
    Killed,
}

/// Ends the process group led by `leader` (the server, spawned as a group leader): SIGTERM,
/// then after `grace` SIGKILL to any process of it still there. Nothing when the group is
/// already empty, or off unix.
///
/// `unreaped` is the leader's handle while nobody has waited for it yet: a process that
/// exited stays a zombie of its parent, this one, until it is waited for, and kill(2) finds a
/// zombie as it finds a live process. Without reaping it here, a server that SIGTERM did end
/// would look as if it ignored the signal, and be reported so.
async fn end_group(
    leader: Option<u32>,
    grace: Duration,
    mut unreaped: Option<&mut Child>,
) -> Ended {
    #[cfg(unix)]
    if let Some(pid) = leader.and_then(|p| libc::pid_t::try_from(p).ok()) {
        // SAFETY: kill(2) with a negative pid signals the process group; it touches no memory.
        let alive = |signal| unsafe { libc::kill(-pid, signal) } == 0;
        // Whether any process of the group is still there, the leader reaped first.
        let mut still_there = || {
            if let Some(child) = unreaped.as_deref_mut() {
                let _ = child.try_wait();
            }
            alive(0)
        };
        if alive(libc::SIGTERM) {
            let started = std::time::Instant::now();
            while started.elapsed() < grace && still_there() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            if alive(libc::SIGKILL) {
                // Let the kernel end them before the caller looks (a zombie of a process
                // other than this one counts as alive to kill(2), hence the bound).
                let killed = std::time::Instant::now();
                while killed.elapsed() < grace && still_there() {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                return Ended::Killed;
            }
            return Ended::Terminated;
        }
    }
    #[cfg(not(unix))]
    let _ = (leader, grace, unreaped);
    Ended::Empty
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

#[cfg(test)]
mod tests {
    use super::leading_id;

    #[test]
    fn the_id_is_read_from_the_first_bytes_of_a_reply() {
        assert_eq!(
            leading_id(br#"{"jsonrpc":"2.0","id":12,"result":{"x":"aaa"#),
            Some("12".into())
        );
        assert_eq!(
            leading_id(br#"{"id" : "a-1", "result"#),
            Some("\"a-1\"".into())
        );
        assert_eq!(leading_id(br#"{"id":-3}"#), Some("-3".into()));
        // Nothing to go on: no id, an id cut off or escaped.
        assert_eq!(leading_id(br#"{"jsonrpc":"2.0","method":"x"#), None);
        assert_eq!(leading_id(br#"{"id":"abc"#), None);
        assert_eq!(leading_id(br#"{"id":"a\"b"}"#), None);
        assert_eq!(leading_id(br#"{"id":}"#), None);
    }
}
