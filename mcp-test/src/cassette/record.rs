//! Recording: [`Recorder`], a target that writes every exchange it forwards, and [`Tap`],
//! which assembles exchanges from the messages a proxy sees pass in both directions.

use super::error::CassetteError;
use super::format::{CassetteWriter, Entry, ServerRequest};
use crate::server::Caller;
use crate::target::{Connection, Target, TargetFuture};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;

/// A [`Target`] that forwards every message to `T` and writes each exchange (the message, the
/// notifications it caused, the reply) to a cassette. Every round of a multi-round call and
/// every task poll is a send of its own, so each is a line. A failed send (the transport's
/// error) writes nothing; the error goes back to the caller. A write that fails is kept and
/// reported by [`finish`](Recorder::finish).
///
/// ```
/// use mcp_test::cassette::{Cassette, Recorder};
/// use mcp_test::testing::{RequestOptions, list_tools};
/// use mcp_test::Server;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let dir = std::env::temp_dir().join(format!("cassette-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("list.jsonl");
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let recorder = Recorder::create(server, &path).unwrap();
/// list_tools(&recorder, &RequestOptions::new()).await;
/// recorder.finish().unwrap();
///
/// let cassette = Cassette::load(&path).unwrap();
/// assert_eq!(cassette.header.era.as_deref(), Some("2026-07-28"));
/// assert_eq!(cassette.entries[0].entry.method(), Some("tools/list"));
/// assert!(cassette.entries[0].entry.volatile.contains(&"/response/id".to_owned()));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # }
/// ```
pub struct Recorder<T> {
    target: T,
    writer: CassetteWriter,
    failed: Mutex<Option<CassetteError>>,
}

impl<T: std::fmt::Debug> std::fmt::Debug for Recorder<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("target", &self.target)
            .field("writer", &self.writer)
            .finish_non_exhaustive()
    }
}

impl<T: Target> Recorder<T> {
    /// Records `target` into the cassette at `path`, which it replaces once the recording is
    /// complete ([`CassetteWriter::create_replacing`]): until [`finish`](Recorder::finish)
    /// (or the recorder dropped outside a panic) the recording goes to a hidden file beside
    /// it, so a test replaying `path` meanwhile reads the previous cassette whole, and a
    /// recording that panics leaves it as it was. The target's HTTP headers, if it has any,
    /// go into the header line with secret values redacted. [`Recorder::new`] with
    /// [`CassetteWriter::create`] writes each line into `path` at once instead.
    pub fn create(target: T, path: impl AsRef<Path>) -> Result<Recorder<T>, CassetteError> {
        let writer =
            CassetteWriter::create_replacing(path, &target.label(), http_headers(&target))?;
        Ok(Recorder::new(target, writer))
    }

    /// Records `target` with `writer`.
    pub fn new(target: T, writer: CassetteWriter) -> Recorder<T> {
        Recorder {
            target,
            writer,
            failed: Mutex::new(None),
        }
    }

    /// The target recorded.
    pub fn inner(&self) -> &T {
        &self.target
    }

    /// Writes the header if nothing was recorded, and returns the first write that failed;
    /// a recording of [`Recorder::create`] is then moved over the cassette (not after a
    /// failed write: the cassette stays as it was).
    pub fn finish(&self) -> Result<(), CassetteError> {
        if let Some(error) = super::format::lock(&self.failed).take() {
            return Err(error);
        }
        self.writer.finish()
    }

    fn write(&self, entry: Entry) {
        if let Err(error) = self.writer.write(entry) {
            super::format::lock(&self.failed).get_or_insert(error);
        }
    }
}

/// The extra headers a target sends over HTTP, by name.
pub(crate) fn http_headers(target: &impl Target) -> BTreeMap<String, String> {
    let Some(http) = target.connection().http else {
        return BTreeMap::new();
    };
    http.options
        .header_names()
        .into_iter()
        .filter_map(|name| {
            let value = http.options.header_value(&name)?.to_owned();
            Some((name, value))
        })
        .collect()
}

impl<T: Target> Target for Recorder<T> {
    fn label(&self) -> String {
        self.target.label()
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let exchange = self.target.send(message, caller).await?;
            self.write(Entry {
                request: Some(message.clone()),
                notifications: exchange.notifications.clone(),
                response: exchange.response.clone(),
                ..Entry::default()
            });
            Ok(exchange)
        })
    }

    fn connection(&self) -> Connection {
        self.target.connection()
    }

    /// Forwarded; recorded when `text` is a JSON message (a cassette holds JSON only).
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let exchange = self.target.send_text(text, caller).await?;
            if let Ok(message @ Value::Object(_)) = serde_json::from_str::<Value>(text)
                && message.get("method").and_then(Value::as_str).is_some()
            {
                self.write(Entry {
                    request: Some(message),
                    notifications: exchange.notifications.clone(),
                    response: exchange.response.clone(),
                    ..Entry::default()
                });
            }
            Ok(exchange)
        })
    }
}

/// What a proxy sees pass, assembled into exchanges: each client request with the
/// notifications and server requests that came while it was in flight and its response,
/// written when the response comes; a client notification at once. A server request or
/// notification goes with the client request in flight it names (a progress token) or,
/// else, the latest one in flight; with none in flight, a line of its own.
///
/// ```
/// use mcp_test::cassette::{Cassette, CassetteWriter, Tap};
/// use serde_json::json;
///
/// let dir = std::env::temp_dir().join(format!("tap-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("session.jsonl");
/// let mut tap = Tap::new(CassetteWriter::create(&path, "demo", Default::default()).unwrap());
/// tap.from_client(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
///     "params": {"name": "ask"}})).unwrap();
/// tap.from_server(&json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create",
///     "params": {"message": "Name?"}})).unwrap();
/// tap.from_client(&json!({"jsonrpc": "2.0", "id": 0, "result": {"action": "decline"}})).unwrap();
/// tap.from_server(&json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}})).unwrap();
/// tap.finish().unwrap();
///
/// let cassette = Cassette::load(&path).unwrap();
/// let entry = &cassette.entries[0].entry;
/// assert_eq!(entry.server_requests[0].response.as_ref().unwrap()["result"]["action"], "decline");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct Tap {
    writer: CassetteWriter,
    /// Client requests in flight, by id (as JSON text), in the order they came.
    pending: Vec<(String, Entry)>,
    /// Server requests awaiting the client's answer: their id, and the client request they
    /// went with (`None`: a line of their own, kept in `orphans`).
    asked: HashMap<String, Option<String>>,
    orphans: Vec<Entry>,
}

impl Tap {
    /// A tap writing to `writer`.
    pub fn new(writer: CassetteWriter) -> Tap {
        Tap {
            writer,
            pending: Vec::new(),
            asked: HashMap::new(),
            orphans: Vec::new(),
        }
    }

    /// A message from the client to the server.
    pub fn from_client(&mut self, message: &Value) -> Result<(), CassetteError> {
        let id = message.get("id").map(Value::to_string);
        match (message.get("method").is_some(), id) {
            (true, Some(id)) => {
                self.pending.retain(|(k, _)| *k != id);
                self.pending.push((
                    id,
                    Entry {
                        request: Some(message.clone()),
                        ..Entry::default()
                    },
                ));
                Ok(())
            }
            (true, None) => self.writer.write(Entry {
                request: Some(message.clone()),
                ..Entry::default()
            }),
            // The client's answer to a server request.
            (false, Some(id)) => {
                let Some(owner) = self.asked.remove(&id) else {
                    return Ok(());
                };
                let entry = match owner {
                    Some(owner) => self
                        .pending
                        .iter_mut()
                        .find(|(k, _)| *k == owner)
                        .map(|(_, e)| e),
                    None => self.orphans.iter_mut().find(|e| {
                        e.server_requests
                            .iter()
                            .any(|s| s.request.get("id").map(Value::to_string) == Some(id.clone()))
                    }),
                };
                if let Some(entry) = entry
                    && let Some(asked) = entry
                        .server_requests
                        .iter_mut()
                        .find(|s| s.request.get("id").map(Value::to_string).as_deref() == Some(&id))
                {
                    asked.response = Some(message.clone());
                }
                if owner_is_none_and_done(&self.orphans) {
                    for entry in std::mem::take(&mut self.orphans) {
                        self.writer.write(entry)?;
                    }
                }
                Ok(())
            }
            (false, None) => Ok(()),
        }
    }

    /// A message from the server to the client.
    pub fn from_server(&mut self, message: &Value) -> Result<(), CassetteError> {
        let id = message.get("id").map(Value::to_string);
        if message.get("method").is_none() {
            // A response: its request's exchange is complete.
            let Some(id) = id else { return Ok(()) };
            let Some(at) = self.pending.iter().position(|(k, _)| *k == id) else {
                return Ok(());
            };
            let (_, mut entry) = self.pending.remove(at);
            entry.response = Some(message.clone());
            return self.writer.write(entry);
        }
        let owner = self.owner_of(message);
        match (id, owner) {
            (Some(id), Some(owner)) => {
                if let Some((_, entry)) = self.pending.iter_mut().find(|(k, _)| *k == owner) {
                    entry.server_requests.push(ServerRequest {
                        request: message.clone(),
                        response: None,
                    });
                }
                self.asked.insert(id, Some(owner));
                Ok(())
            }
            (Some(id), None) => {
                self.orphans.push(Entry {
                    server_requests: vec![ServerRequest {
                        request: message.clone(),
                        response: None,
                    }],
                    ..Entry::default()
                });
                self.asked.insert(id, None);
                Ok(())
            }
            (None, Some(owner)) => {
                if let Some((_, entry)) = self.pending.iter_mut().find(|(k, _)| *k == owner) {
                    entry.notifications.push(message.clone());
                }
                Ok(())
            }
            (None, None) => self.writer.write(Entry {
                notifications: vec![message.clone()],
                ..Entry::default()
            }),
        }
    }

    /// The client request in flight a server message goes with: the one whose progress token
    /// it names, else the latest.
    fn owner_of(&self, message: &Value) -> Option<String> {
        let params = message.get("params");
        let token = params
            .and_then(|p| p.get("progressToken"))
            .or_else(|| params.and_then(|p| p.get("_meta")?.get("progressToken")));
        if let Some(token) = token
            && let Some((id, _)) = self.pending.iter().find(|(_, e)| {
                e.request
                    .as_ref()
                    .and_then(|r| r.get("params")?.get("_meta")?.get("progressToken"))
                    == Some(token)
            })
        {
            return Some(id.clone());
        }
        self.pending.last().map(|(id, _)| id.clone())
    }

    /// Ends the recording: requests still in flight are written without a response, and the
    /// header if nothing was. What comes after is recorded as before.
    pub fn finish(&mut self) -> Result<(), CassetteError> {
        for (_, entry) in std::mem::take(&mut self.pending) {
            self.writer.write(entry)?;
        }
        for entry in std::mem::take(&mut self.orphans) {
            self.writer.write(entry)?;
        }
        self.writer.finish()
    }
}

fn owner_is_none_and_done(orphans: &[Entry]) -> bool {
    !orphans.is_empty()
        && orphans
            .iter()
            .all(|e| e.server_requests.iter().all(|s| s.response.is_some()))
}
