//! One connection to a [`Server`], in either protocol era: MCP 2026-07-28 (stateless, every
//! request carries its `_meta`) or the 2025-11-25 `initialize` handshake.
//!
//! A transport makes one [`Session`] per connection (a stdio process, an HTTP session, or a
//! test in process) and hands it every message. The first message fixes the era
//! (`basic/versioning.mdx` §Backward Compatibility of 2026-07-28: "An `initialize` request
//! selects legacy semantics; a per-request `_meta` selects modern ones"):
//!
//! - `initialize` (when the server serves [`Era::Legacy`], see
//!   [`ServerBuilder::eras`](crate::ServerBuilder::eras)) makes a 2025-era session;
//! - `server/discover`, or any message whose `params._meta` names a protocol version (an
//!   `initialize` too), makes a 2026-07-28 session, answered by [`Server::handle_value`] exactly as without a session
//!   (a later `initialize` is -32601 there);
//! - anything else is answered without fixing the era: as 2026-07-28 would answer it when
//!   that era is served (a request without `_meta` is -32602), else -32600 asking for
//!   `initialize` first; a `ping` is answered `{}` (2025-11-25 allows it before
//!   initialization).
//!
//! # The 2025 era
//!
//! - **Version negotiation** (basic/lifecycle of 2025-11-25): the server echoes an offered
//!   revision it supports, [`LEGACY_VERSIONS`] (2025-11-25 and 2025-06-18), and answers any
//!   other with 2025-11-25, the latest. 2025-03-26 is not among them: it obliges servers to
//!   accept JSON-RPC batches, which this runtime refuses in every era. A 2025-06-18 session
//!   gets the same results as a 2025-11-25 one: fields 2025-11-25 added (`icons`, URL-mode
//!   elicitation when the client declares it) are not removed.
//! - **Capabilities**: the `InitializeResult` declares what is registered (`tools`,
//!   `resources` with `subscribe` and `listChanged`, `prompts`, `completions`, `logging`),
//!   without the 2026-only `extensions`. The client's declared capabilities (`elicitation`,
//!   `sampling`, `roots`) are those of every later request.
//! - **Requests before `initialize`** other than `ping` are refused (-32600); requests after
//!   the `InitializeResult` are served even before `notifications/initialized` arrives, since
//!   clients commonly pipeline them.
//! - `ping` answers `{}`; `logging/setLevel` (only when `logging` is declared) sets the level
//!   from which `notifications/message` is sent, and none is sent before it;
//!   `resources/subscribe` and `resources/unsubscribe` (only when resources are registered)
//!   keep the session's URIs, and [`Server::notify_resource_updated`] sends
//!   `notifications/resources/updated` for each subscribed one on the session's connection;
//!   the list-change announcements of [`Server`] become
//!   `notifications/{tools,prompts,resources}/list_changed`. Progress (`_meta.progressToken`)
//!   and cancellation (`notifications/cancelled`, handled by the transport) are as in
//!   2026-07-28.
//! - **Results** are in 2025-11-25 shape: no `resultType`, `ttlMs`, `cacheScope` nor
//!   `_meta` server info; a tool whose output is not an object (which 2026-07-28 allows) is
//!   listed without its `outputSchema`, and its result without `structuredContent`, whose
//!   JSON stays in the text block. The 2026-only methods (`server/discover`, `subscriptions/listen`,
//!   `tasks/*`) are -32601.
//! - **Questions**: what 2026-07-28 answers as `input_required` (a handler's
//!   [`Context::elicit`](crate::Context::elicit), `create_message`, `list_roots`) is sent here
//!   as a server-to-client request (`elicitation/create`, `sampling/createMessage`,
//!   `roots/list`) on the connection, and its answer resumes the handler, so a tool written
//!   once asks the same way in both eras. Each such request carries the question's key in
//!   `params._meta["io.github.mcp-test/inputKey"]` ([`meta_keys::INPUT_KEY`]),
//!   so a client's answers scripted by key apply in both eras. The answers are awaited as long as a request may run
//!   (the caller's timeout capped by the server's maximum); when the request ends first
//!   (cancelled, timed out), the questions still open are withdrawn with
//!   `notifications/cancelled`. A question the client did not
//!   declare the capability for is never sent: the error the handler propagates is -32602
//!   (2025-11-25 has no -32021) naming the capability, with `data.requiredCapabilities`.
//!
//! ```
//! use mcp_test::session::Session;
//! use mcp_test::{Caller, Server};
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let session = Session::new(Server::builder("demo", "1.0.0").build().unwrap(), None);
//! let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
//!     "protocolVersion": "2025-06-18", "capabilities": {},
//!     "clientInfo": {"name": "host", "version": "1"}}});
//! let reply = session.handle_value(init, &Caller::default()).await.unwrap();
//! let reply = serde_json::to_value(reply).unwrap();
//! assert_eq!(reply["result"]["protocolVersion"], "2025-06-18");
//! assert_eq!(reply["result"]["serverInfo"]["name"], "demo");
//! let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
//! let pong = serde_json::to_value(session.handle_value(ping, &Caller::default()).await).unwrap();
//! assert_eq!(pong["result"], json!({}));
//! # }
//! ```

use crate::server::{Caller, Server};
use crate::subscriptions::Change;
use crate::wire::{
    Era, ErrorObject, LoggingLevel, RequestId, Response, error_codes, json_type, meta_keys,
};
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// The 2025-era revisions the runtime negotiates in `initialize`, latest first.
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];

/// Where a session writes what the server sends on its own: its requests (`elicitation/create`,
/// ...) and the notifications of no request (`notifications/resources/updated`, list changes),
/// each one whole JSON-RPC message.
pub type Outgoing = mpsc::UnboundedSender<Value>;

/// The most rounds of questions one 2025-era request may ask before it fails.
const MAX_ROUNDS: usize = 32;

/// One connection's era and 2025-era state; see the [module docs](self). Cheap to clone
/// (shared).
#[derive(Clone)]
pub struct Session {
    inner: Arc<Inner>,
}

struct Inner {
    server: Server,
    outgoing: Option<Outgoing>,
    state: Arc<Mutex<State>>,
    pending: Mutex<HashMap<RequestId, oneshot::Sender<Value>>>,
    next_id: AtomicU64,
    listener: Mutex<Option<tokio::task::AbortHandle>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(listener) = lock(&self.listener).take() {
            listener.abort();
        }
    }
}

#[derive(Debug, Default)]
struct State {
    era: Option<Era>,
    protocol_version: Option<String>,
    client_capabilities: Map<String, Value>,
    initialized: bool,
    log_level: Option<LoggingLevel>,
    subscribed: HashSet<String>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("server", &self.inner.server)
            .field("state", &*lock(&self.inner.state))
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session of `server` whose server-initiated messages go to `outgoing` (`None`: a
    /// connection that cannot carry them, so a 2025-era question fails the request with
    /// -32603).
    pub fn new(server: Server, outgoing: Option<Outgoing>) -> Session {
        Session {
            inner: Arc::new(Inner {
                server,
                outgoing,
                state: Arc::default(),
                pending: Mutex::default(),
                next_id: AtomicU64::new(1),
                listener: Mutex::default(),
            }),
        }
    }

    /// The server this session serves.
    pub fn server(&self) -> &Server {
        &self.inner.server
    }

    /// The era the first message fixed, if it did yet.
    pub fn era(&self) -> Option<Era> {
        lock(&self.inner.state).era
    }

    /// The revision `initialize` negotiated (2025 era), or 2026-07-28 (current era).
    pub fn protocol_version(&self) -> Option<String> {
        let state = lock(&self.inner.state);
        match state.era? {
            Era::Current => Some(crate::wire::PROTOCOL_VERSION.to_owned()),
            Era::Legacy => state.protocol_version.clone(),
        }
    }

    /// Whether `notifications/initialized` has arrived (2025 era).
    pub fn initialized(&self) -> bool {
        lock(&self.inner.state).initialized
    }

    /// Hands the session a message with no `method` and an `id`: the client's response to a
    /// request the server sent. Returns `false` when no such request is waiting (the message
    /// is not a response, or its id is unknown or already answered).
    pub fn deliver(&self, message: &Value) -> bool {
        if !is_response(message) {
            return false;
        }
        let Some(id) = message.get("id").and_then(RequestId::from_value) else {
            return false;
        };
        let Some(waiting) = lock(&self.inner.pending).remove(&id) else {
            return false;
        };
        waiting.send(message.clone()).is_ok()
    }

    /// Ends the session: every question still waiting for the client's answer fails, and no
    /// more change notifications are sent.
    pub fn close(&self) {
        lock(&self.inner.pending).clear();
        if let Some(listener) = lock(&self.inner.listener).take() {
            listener.abort();
        }
    }

    /// Handles one message; `None` for a notification, and in the 2025 era for a response
    /// (one that answers a question of the server's is [`delivered`](Session::deliver), any
    /// other ignored). Server requests of this message go on the session's
    /// [`Outgoing`].
    pub async fn handle_value(&self, message: Value, caller: &Caller) -> Option<Response> {
        self.handle_value_on(message, caller, None).await
    }

    /// [`Session::handle_value`], with this request's server requests on `out` instead of the
    /// session's [`Outgoing`] (over HTTP: the request's own SSE stream).
    pub async fn handle_value_on(
        &self,
        message: Value,
        caller: &Caller,
        out: Option<&Outgoing>,
    ) -> Option<Response> {
        if self.deliver(&message) {
            return None;
        }
        let server = &self.inner.server;
        if self.era() == Some(Era::Legacy) && is_response(&message) {
            // An answer to a question withdrawn or never asked: a response gets no response.
            return None;
        }
        match self.era() {
            Some(Era::Current) => return server.handle_value(message, caller).await,
            Some(Era::Legacy) => {}
            None => {
                let Some((id, method)) = shape(&message) else {
                    return server.handle_value(message, caller).await;
                };
                let modern = method == "server/discover" || names_a_version(&message);
                if method == "initialize" && !modern && server.serves(Era::Legacy) {
                    return Some(self.initialize(id?, &message));
                }
                if server.serves(Era::Current) && modern {
                    lock(&self.inner.state).era = Some(Era::Current);
                    return server.handle_value(message, caller).await;
                }
                let id = id?;
                if method == "ping" && server.serves(Era::Legacy) {
                    return Some(result(id, json!({})));
                }
                if server.serves(Era::Current) {
                    return server.handle_value(message, caller).await;
                }
                return Some(Response::Error {
                    id: Some(id),
                    error: if method == "server/discover" {
                        ErrorObject::method_not_found(method)
                    } else {
                        ErrorObject::invalid_request(
                            "the session is not initialized: send initialize first (this server serves only the 2025-11-25 handshake)",
                        )
                    },
                });
            }
        }
        self.legacy(message, caller, out).await
    }

    /// `initialize`: version and capability negotiation.
    fn initialize(&self, id: RequestId, message: &Value) -> Response {
        let error = |detail: String| Response::Error {
            id: Some(id.clone()),
            error: ErrorObject::invalid_params(format!("Invalid params: {detail}")),
        };
        let Some(params) = message.get("params").and_then(Value::as_object) else {
            return error(
                "initialize needs params {protocolVersion, capabilities, clientInfo}".into(),
            );
        };
        let Some(offered) = params.get("protocolVersion").and_then(Value::as_str) else {
            return error(format!(
                "protocolVersion must be a string, got {}",
                params.get("protocolVersion").map_or("nothing", json_type)
            ));
        };
        let capabilities = match params.get("capabilities") {
            Some(Value::Object(c)) => c.clone(),
            other => {
                return error(format!(
                    "capabilities must be an object, got {}",
                    other.map_or("nothing", json_type)
                ));
            }
        };
        match params.get("clientInfo") {
            Some(Value::Object(info))
                if info.get("name").is_some_and(Value::is_string)
                    && info.get("version").is_some_and(Value::is_string) => {}
            other => {
                return error(format!(
                    "clientInfo must be an object with a string name and version, got {}",
                    other.map_or_else(|| "nothing".to_owned(), Value::to_string)
                ));
            }
        }
        let version = LEGACY_VERSIONS
            .iter()
            .find(|v| **v == offered)
            .unwrap_or(&LEGACY_VERSIONS[0]);
        {
            let mut state = lock(&self.inner.state);
            state.era = Some(Era::Legacy);
            state.protocol_version = Some((*version).to_owned());
            state.client_capabilities = capabilities;
        }
        self.start_listener();
        let server = &self.inner.server;
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": legacy_capabilities(server),
            "serverInfo": server.info(),
        });
        if let Some(instructions) = server.instructions() {
            result["instructions"] = Value::from(instructions);
        }
        result_of(id, result)
    }

    /// Forwards the server's change announcements to the connection as 2025 notifications.
    fn start_listener(&self) {
        let Some(outgoing) = self.inner.outgoing.clone() else {
            return;
        };
        let capabilities = legacy_capabilities(&self.inner.server);
        let declared = |kind: &str| capabilities.get(kind).is_some();
        let (tools, prompts, resources) = (
            declared("tools"),
            declared("prompts"),
            declared("resources"),
        );
        let mut changes = self.inner.server.watch_changes();
        let state = self.inner.state.clone();
        let task = tokio::spawn(async move {
            loop {
                let change = match changes.recv().await {
                    Ok(change) => change,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                };
                let note = match change {
                    Change::Tools if tools => {
                        notification("notifications/tools/list_changed", None)
                    }
                    Change::Prompts if prompts => {
                        notification("notifications/prompts/list_changed", None)
                    }
                    Change::Resources if resources => {
                        notification("notifications/resources/list_changed", None)
                    }
                    Change::ResourceUpdated(uri) if lock(&state).subscribed.contains(&uri) => {
                        notification("notifications/resources/updated", Some(json!({"uri": uri})))
                    }
                    Change::Close => break,
                    _ => continue,
                };
                if outgoing.send(note).is_err() {
                    break;
                }
            }
        });
        if let Some(old) = lock(&self.inner.listener).replace(task.abort_handle()) {
            old.abort();
        }
    }

    /// A message of a 2025-era session.
    async fn legacy(
        &self,
        message: Value,
        caller: &Caller,
        out: Option<&Outgoing>,
    ) -> Option<Response> {
        let server = &self.inner.server;
        let Some((id, method)) = shape(&message) else {
            return server.handle_value(message, caller).await;
        };
        let Some(id) = id else {
            if method == "notifications/initialized" {
                lock(&self.inner.state).initialized = true;
            }
            return None;
        };
        let params = message.get("params").cloned();
        let outcome = match method {
            "initialize" => Err(ErrorObject::invalid_request(
                "the session is already initialized: initialize is sent once per session",
            )),
            "ping" => Ok(json!({})),
            "logging/setLevel" if server.capabilities().logging.is_some() => {
                self.set_level(params.as_ref())
            }
            "resources/subscribe" | "resources/unsubscribe"
                if server.capabilities().resources.is_some() =>
            {
                self.subscribe(method == "resources/subscribe", params.as_ref())
            }
            "server/discover"
            | "subscriptions/listen"
            | "tasks/get"
            | "tasks/update"
            | "tasks/cancel"
            | "logging/setLevel"
            | "resources/subscribe"
            | "resources/unsubscribe" => Err(ErrorObject::method_not_found(method)),
            _ => {
                let method = method.to_owned();
                return Some(self.forward(id, &method, message, caller, out).await);
            }
        };
        Some(match outcome {
            Ok(value) => result(id, value),
            Err(error) => Response::Error {
                id: Some(id),
                error,
            },
        })
    }

    fn set_level(&self, params: Option<&Value>) -> Result<Value, ErrorObject> {
        let level = params.and_then(|p| p.get("level"));
        let level: LoggingLevel = level
            .and_then(|l| serde_json::from_value(l.clone()).ok())
            .ok_or_else(|| {
                ErrorObject::invalid_params(format!(
                    "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency, got {}",
                    level.map_or_else(|| "nothing".to_owned(), Value::to_string)
                ))
            })?;
        lock(&self.inner.state).log_level = Some(level);
        Ok(json!({}))
    }

    fn subscribe(&self, subscribe: bool, params: Option<&Value>) -> Result<Value, ErrorObject> {
        let uri = params.and_then(|p| p.get("uri"));
        let Some(uri) = uri.and_then(Value::as_str) else {
            return Err(ErrorObject::invalid_params(format!(
                "Invalid params: uri must be a string, got {}",
                uri.map_or("nothing", json_type)
            )));
        };
        let mut state = lock(&self.inner.state);
        if subscribe {
            state.subscribed.insert(uri.to_owned());
        } else {
            state.subscribed.remove(uri);
        }
        Ok(json!({}))
    }

    /// A request the runtime serves in both eras: sent to the server in 2026-07-28 form with
    /// the session's capabilities and log level, its questions asked of the client, its
    /// result brought back to 2025 shape.
    async fn forward(
        &self,
        id: RequestId,
        method: &str,
        mut message: Value,
        caller: &Caller,
        out: Option<&Outgoing>,
    ) -> Response {
        // 2025-11-25 server/tools.mdx: a tool whose `execution.taskSupport` is "required" must
        // be invoked as a task, and a call that is not gets -32601. This runtime serves no
        // 2025-era tasks, so no call to it can be.
        if method == "tools/call"
            && let Some(name) = message.pointer("/params/name").and_then(Value::as_str)
            && self.inner.server.task_support(name) == Some(crate::tasks::TaskSupport::Required)
        {
            let error = ErrorObject::new(
                crate::wire::error_codes::METHOD_NOT_FOUND,
                format!(
                    "Method not found: tool {name} runs only as a task (execution.taskSupport \
                     \"required\"), and this server serves no tasks in 2025-11-25"
                ),
            );
            return Response::Error {
                id: Some(id),
                error,
            };
        }
        let (capabilities, log_level) = {
            let state = lock(&self.inner.state);
            let mut capabilities = state.client_capabilities.clone();
            // 2026-only: a 2025 client declares no extension the runtime would act on.
            capabilities.remove("extensions");
            (capabilities, state.log_level)
        };
        let params = match message.get_mut("params") {
            None => {
                message["params"] = json!({});
                message.get_mut("params").expect("just inserted")
            }
            Some(Value::Object(_)) => message.get_mut("params").expect("present"),
            Some(other) => {
                let error = ErrorObject::invalid_params(format!(
                    "Invalid params: params must be an object, got {}",
                    json_type(other)
                ));
                return Response::Error {
                    id: Some(id),
                    error,
                };
            }
        };
        let meta = params
            .as_object_mut()
            .expect("an object")
            .entry("_meta")
            .or_insert_with(|| json!({}));
        if !meta.is_object() {
            *meta = json!({});
        }
        meta[meta_keys::PROTOCOL_VERSION] = Value::from(crate::wire::PROTOCOL_VERSION);
        meta[meta_keys::CLIENT_CAPABILITIES] = Value::Object(capabilities);
        match log_level {
            Some(level) => {
                meta[meta_keys::LOG_LEVEL] = serde_json::to_value(level).expect("a level encodes");
            }
            None => {
                meta.as_object_mut()
                    .expect("an object")
                    .remove(meta_keys::LOG_LEVEL);
            }
        }
        let server = &self.inner.server;
        let mut rounds = 0;
        loop {
            let response = server
                .handle_value(message.clone(), caller)
                .await
                .expect("a request gets a response");
            let result = match response {
                Response::Result { result, .. } => result,
                Response::Error { id, error } => {
                    return Response::Error {
                        id,
                        error: legacy_error(error),
                    };
                }
            };
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                let mut result = result;
                match method {
                    "tools/list" => {
                        publish_task_support(server, &mut result);
                        legacy_output_schemas(&mut result);
                    }
                    "tools/call" => legacy_structured_content(&mut result),
                    _ => {}
                }
                return result_of(id, result);
            }
            rounds += 1;
            if rounds > MAX_ROUNDS {
                let error = ErrorObject::internal(format!(
                    "Internal error: {method} asked more than {MAX_ROUNDS} rounds of questions"
                ));
                return Response::Error {
                    id: Some(id),
                    error,
                };
            }
            match self.ask_client(&result, caller, out).await {
                Ok(answers) => {
                    let params = message["params"].as_object_mut().expect("an object");
                    params.insert("inputResponses".into(), Value::Object(answers));
                    match result.get("requestState") {
                        Some(state) => {
                            params.insert("requestState".into(), state.clone());
                        }
                        None => {
                            params.remove("requestState");
                        }
                    }
                }
                Err(error) => {
                    return Response::Error {
                        id: Some(id),
                        error,
                    };
                }
            }
        }
    }

    /// Sends each input request of an `input_required` result to the client as a request of
    /// its own, and gathers the answers by key.
    async fn ask_client(
        &self,
        result: &Value,
        caller: &Caller,
        out: Option<&Outgoing>,
    ) -> Result<Map<String, Value>, ErrorObject> {
        let Some(out) = out.or(self.inner.outgoing.as_ref()) else {
            return Err(ErrorObject::internal(
                "Internal error: the tool asked the client a question, and this connection cannot carry a request from the server",
            ));
        };
        let empty = Map::new();
        let requests = result
            .get("inputRequests")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut waiting = Vec::new();
        let mut withdrawn = Withdraw {
            pending: &self.inner.pending,
            out,
            ids: Vec::new(),
        };
        for (key, request) in requests {
            let method = request
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let id = format!(
                "mcp-test-server-{}",
                self.inner.next_id.fetch_add(1, Ordering::Relaxed)
            );
            let (tx, rx) = oneshot::channel();
            lock(&self.inner.pending).insert(RequestId::String(id.clone()), tx);
            withdrawn.ids.push(RequestId::String(id.clone()));
            let mut sent = json!({"jsonrpc": "2.0", "id": id, "method": method});
            let mut params = request.get("params").cloned().unwrap_or_else(|| json!({}));
            if let Some(params) = params.as_object_mut() {
                let meta = params
                    .entry("_meta")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(meta) = meta.as_object_mut() {
                    meta.insert(
                        crate::wire::meta_keys::INPUT_KEY.to_owned(),
                        Value::from(key.as_str()),
                    );
                }
            }
            sent["params"] = params;
            if out.send(sent).is_err() {
                return Err(ErrorObject::internal(
                    "Internal error: the connection closed before the server could ask its question",
                ));
            }
            waiting.push((key.clone(), method, rx));
        }
        let mut answers = Map::new();
        let wait = self.inner.server.request_timeout(caller);
        let deadline = tokio::time::Instant::now() + wait;
        for (key, method, rx) in waiting {
            let reply = match tokio::time::timeout_at(deadline, rx).await {
                Ok(Ok(reply)) => reply,
                Ok(Err(_)) => {
                    return Err(ErrorObject::internal(format!(
                        "Internal error: the connection closed before the client answered {method}"
                    )));
                }
                Err(_) => {
                    return Err(ErrorObject::internal(format!(
                        "Internal error: the client did not answer {method} within {} ms",
                        wait.as_millis()
                    )));
                }
            };
            if let Some(result) = reply.get("result") {
                answers.insert(key, result.clone());
            } else {
                let error = &reply["error"];
                return Err(ErrorObject::internal(format!(
                    "Internal error: the client answered {method} with error {}: {}",
                    error["code"],
                    error["message"].as_str().unwrap_or_default()
                )));
            }
        }
        Ok(answers)
    }
}

/// The server's requests still waiting for the client's answer. When the request that asked
/// ends first (cancelled, timed out, or failed on another answer), dropping this withdraws
/// them and tells the client with `notifications/cancelled` (2025-11-25
/// basic/utilities/cancellation: either side may cancel a request it sent).
struct Withdraw<'a> {
    pending: &'a Mutex<HashMap<RequestId, oneshot::Sender<Value>>>,
    out: &'a Outgoing,
    ids: Vec<RequestId>,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        let mut pending = lock(self.pending);
        for id in self.ids.drain(..) {
            // An answered request left the map when its answer was delivered.
            if pending.remove(&id).is_some() {
                let params = json!({"requestId": id, "reason": "the request that asked has ended"});
                let _ = self
                    .out
                    .send(notification("notifications/cancelled", Some(params)));
            }
        }
    }
}

/// A JSON-RPC response: no `method`, a `result` or an `error`.
fn is_response(message: &Value) -> bool {
    message.get("method").is_none()
        && (message.get("result").is_some() || message.get("error").is_some())
}

/// Whether `params._meta` names a protocol version: a 2026-07-28 request (an `initialize`
/// shaped so is one too, answered -32601 as 2026-07-28 answers it).
pub(crate) fn names_a_version(message: &Value) -> bool {
    message
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta_keys::PROTOCOL_VERSION))
        .is_some()
}

/// The id (`None` for a notification) and method of a message in JSON-RPC shape; `None` when
/// the shape is off, which [`Server::handle_value`] then answers.
fn shape(message: &Value) -> Option<(Option<RequestId>, &str)> {
    let object = message.as_object()?;
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return None;
    }
    let method = object.get("method")?.as_str()?;
    match object.get("id") {
        None => Some((None, method)),
        Some(raw) => Some((Some(RequestId::from_value(raw)?), method)),
    }
}

/// The capabilities a 2025-era `InitializeResult` declares: the server's, without the
/// 2026-only `extensions`.
fn legacy_capabilities(server: &Server) -> Map<String, Value> {
    let mut capabilities = match serde_json::to_value(server.capabilities()) {
        Ok(Value::Object(c)) => c,
        _ => Map::new(),
    };
    capabilities.remove("extensions");
    capabilities
}

/// A 2026 error in 2025 terms: -32021 (no such code in 2025-11-25) becomes -32602 naming the
/// missing capability, `data` kept.
fn legacy_error(error: ErrorObject) -> ErrorObject {
    if error.code != error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY {
        return error;
    }
    let mut legacy = ErrorObject::invalid_params(format!(
        "Invalid params: {} (not declared in the capabilities of initialize)",
        error.message
    ));
    if let Some(data) = error.data {
        legacy = legacy.with_data(data);
    }
    legacy
}

/// A 2025-11-25 `tools/list` result names each tool's task support as that revision's `Tool`
/// does (server/tools.mdx, `execution.taskSupport`; absent means "forbidden"), so a client
/// knows not to call a task-only tool without task augmentation, which this runtime does not
/// serve in that era (it declares no `tasks` capability). 2026-07-28 removed `Tool.execution`:
/// the tasks extension's per-request capability is its one handshake, and a task-only tool
/// tells a client that did not declare it with -32021.
fn publish_task_support(server: &Server, result: &mut Value) {
    let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) else {
        return;
    };
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        match server.task_support(name) {
            Some(support) if support != crate::tasks::TaskSupport::Forbidden => {
                tool["execution"] = json!({"taskSupport": support.as_str()});
            }
            _ => {}
        }
    }
}

/// 2026-07-28 lets a tool's `outputSchema` be any schema (SEP-2106: an array, a scalar);
/// 2025-11-25's `Tool.outputSchema` must be `type: "object"`. A tool whose output is not an
/// object is listed without one in that era: the schema is a promise a 2025 client cannot be
/// given, and the result's text block still carries the JSON (see
/// [`legacy_structured_content`]).
fn legacy_output_schemas(result: &mut Value) {
    let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) else {
        return;
    };
    for tool in tools.iter_mut().filter_map(Value::as_object_mut) {
        let object = tool
            .get("outputSchema")
            .is_none_or(|schema| schema.get("type").and_then(Value::as_str) == Some("object"));
        if !object {
            tool.remove("outputSchema");
        }
    }
}

/// 2025-11-25's `CallToolResult.structuredContent` is an object; 2026-07-28's any JSON value.
/// A value that is not an object is left out in that era (it is optional there), the
/// serialized JSON staying in the text block 2026-07-28 asks a tool to send beside it.
fn legacy_structured_content(result: &mut Value) {
    if let Some(map) = result.as_object_mut()
        && map.get("structuredContent").is_some_and(|v| !v.is_object())
    {
        map.remove("structuredContent");
    }
}

/// A result in 2025-11-25 shape: without `resultType`, the cache hints and the server info
/// of `_meta`.
fn result_of(id: RequestId, mut result: Value) -> Response {
    if let Value::Object(map) = &mut result {
        map.remove("resultType");
        map.remove("ttlMs");
        map.remove("cacheScope");
        if let Some(Value::Object(meta)) = map.get_mut("_meta") {
            meta.remove(meta_keys::SERVER_INFO);
            if meta.is_empty() {
                map.remove("_meta");
            }
        }
    }
    Response::Result { id, result }
}

fn result(id: RequestId, result: Value) -> Response {
    Response::Result { id, result }
}

fn notification(method: &str, params: Option<Value>) -> Value {
    let mut note = json!({"jsonrpc": "2.0", "method": method});
    if let Some(params) = params {
        note["params"] = params;
    }
    note
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
