//! The stdio side of the client: a child process, one JSON-RPC message per line.

use super::{ClientError, Exchange, describe, stderr_tail};
use crate::target::TransportEvent;
use serde_json::{Value, json};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Child;
use tokio::sync::{oneshot, watch};

type Reply = Result<(Value, Vec<Value>), Failure>;

enum Failure {
    Closed,
    NotJson { line: String, reason: String },
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
    closed: bool,
}

struct Shared {
    state: Mutex<State>,
    stderr: Mutex<Vec<u8>>,
    stderr_done: watch::Sender<bool>,
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
            stderr_done: watch::channel(false).0,
        });
        let for_stderr = shared.clone();
        tokio::spawn(async move {
            if let Some(mut stderr) = stderr {
                let mut buf = [0_u8; 4096];
                loop {
                    match stderr.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => for_stderr
                            .stderr
                            .lock()
                            .expect("stderr lock")
                            .extend_from_slice(&buf[..n]),
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
                match reader.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => break,
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

    pub(super) fn program(&self) -> &str {
        &self.program
    }

    pub(super) fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.shared.stderr.lock().expect("stderr lock")).into_owned()
    }

    pub(super) fn events(&self) -> Vec<TransportEvent> {
        self.shared.state.lock().expect("state lock").events.clone()
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
        match tokio::time::timeout(timeout, process.wait()).await {
            Ok(Ok(status)) => Ok(Some(status)),
            Ok(Err(source)) => Err(ClientError::Io {
                what: "could not wait for the server process".to_owned(),
                source,
                stderr: String::new(),
            }),
            Err(_) => {
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
                state.events.push(TransportEvent::NotJson {
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
            state.events.push(TransportEvent::ServerRequest {
                method: message["method"].as_str().unwrap_or("?").to_owned(),
                line: line.to_owned(),
            });
            return Some(answer_to_server(&message));
        } else if is_object && has("method") {
            for pending in &mut state.pending {
                pending.notes.push(message.clone());
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
                (None, None) => state.events.push(TransportEvent::UnmatchedReply {
                    id: key,
                    line: line.to_owned(),
                }),
            }
        } else {
            state.events.push(TransportEvent::NotJsonRpc {
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
