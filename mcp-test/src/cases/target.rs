//! [`Target`]: anything that answers JSON-RPC requests — the in-process [`Server`], or a
//! server in another process reached by a client.

use crate::Server;
use crate::testing::build_request;
use futures_util::future::BoxFuture;
use serde_json::Value;
use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Something that answers JSON-RPC requests: the cases, `verify` and `check` run against it.
///
/// Implemented for the in-process [`Server`] (every message goes through
/// [`Server::handle_json`] as text). A client for a server in another process implements it
/// in a few lines: send one message, return the decoded response.
///
/// ```
/// use mcp_test::cases::Target;
/// use mcp_test::Server;
/// use serde_json::json;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let reply = server.send(json!({"jsonrpc": "2.0", "id": 7, "method": "nope"})).await.unwrap();
/// assert_eq!(reply.unwrap()["error"]["code"], -32601);
/// # }
/// ```
pub trait Target: Send + Sync {
    /// A short name for reports: the server's command line, URL, or "in-process".
    fn label(&self) -> String;

    /// Sends one JSON-RPC message and returns the decoded response, or `None` for a
    /// notification. An error means the transport failed: the process exited, the connection
    /// dropped, or the server wrote something that is not JSON-RPC.
    fn send(&self, message: Value) -> BoxFuture<'_, Result<Option<Value>, TargetError>>;

    /// Which protocol era the target speaks, as found when connecting.
    fn era(&self) -> Era {
        Era::Current
    }

    /// What the server did that its transport forbids, so far: lines on stdout that are not
    /// JSON-RPC, replies to no request, requests from the server. Empty by default.
    fn transport_violations(&self) -> Vec<String> {
        Vec::new()
    }

    /// The server's Streamable HTTP endpoint, when it is reached over HTTP: `check` then
    /// also sends raw requests whose mirrored headers disagree with the body.
    fn http_url(&self) -> Option<String> {
        None
    }
}

/// The protocol era a target was found to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Era {
    /// MCP 2026-07-28: per-request `_meta`, `server/discover`, `resultType`.
    #[serde(rename = "2026-07-28")]
    Current,
    /// A pre-2026 server, reached through the 2025-11-25 `initialize` handshake.
    #[serde(rename = "2025-11-25")]
    Legacy,
}

impl fmt::Display for Era {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Era::Current => "2026-07-28",
            Era::Legacy => "2025-11-25 (initialize handshake)",
        })
    }
}

/// A transport failure: what the server did instead of answering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetError {
    /// What happened, e.g. "timed out after 30s" or "the server process exited (status 101)".
    pub message: String,
}

impl TargetError {
    /// A transport error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        TargetError {
            message: message.into(),
        }
    }
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TargetError {}

impl Target for Server {
    fn label(&self) -> String {
        format!("{} {} (in process)", self.info().name, self.info().version)
    }

    fn send(&self, message: Value) -> BoxFuture<'_, Result<Option<Value>, TargetError>> {
        Box::pin(async move {
            let text = message.to_string();
            match self.handle_json(&text).await {
                None => Ok(None),
                Some(reply) => serde_json::from_str(&reply).map(Some).map_err(|e| {
                    TargetError::new(format!("the server answered with invalid JSON: {e}"))
                }),
            }
        })
    }
}

impl<T: Target + ?Sized> Target for &T {
    fn label(&self) -> String {
        (**self).label()
    }
    fn send(&self, message: Value) -> BoxFuture<'_, Result<Option<Value>, TargetError>> {
        (**self).send(message)
    }
    fn era(&self) -> Era {
        (**self).era()
    }
    fn transport_violations(&self) -> Vec<String> {
        (**self).transport_violations()
    }
    fn http_url(&self) -> Option<String> {
        (**self).http_url()
    }
}

impl<T: Target + ?Sized> Target for std::sync::Arc<T> {
    fn label(&self) -> String {
        (**self).label()
    }
    fn send(&self, message: Value) -> BoxFuture<'_, Result<Option<Value>, TargetError>> {
        (**self).send(message)
    }
    fn era(&self) -> Era {
        (**self).era()
    }
    fn transport_violations(&self) -> Vec<String> {
        (**self).transport_violations()
    }
    fn http_url(&self) -> Option<String> {
        (**self).http_url()
    }
}

impl<T: Target + ?Sized> Target for Box<T> {
    fn label(&self) -> String {
        (**self).label()
    }
    fn send(&self, message: Value) -> BoxFuture<'_, Result<Option<Value>, TargetError>> {
        (**self).send(message)
    }
    fn era(&self) -> Era {
        (**self).era()
    }
    fn transport_violations(&self) -> Vec<String> {
        (**self).transport_violations()
    }
    fn http_url(&self) -> Option<String> {
        (**self).http_url()
    }
}

impl Target for crate::client::Client {
    fn label(&self) -> String {
        format!("{self:?}")
    }

    fn send(&self, message: Value) -> BoxFuture<'_, Result<Option<Value>, TargetError>> {
        Box::pin(async move {
            self.exchange(&message)
                .await
                .map(|exchange| exchange.response)
                .map_err(|e| TargetError::new(e.to_string()))
        })
    }

    fn transport_violations(&self) -> Vec<String> {
        self.violations()
    }
}

/// A connected client with what was learnt when connecting: a label for reports and the era.
///
/// ```no_run
/// use mcp_test::cases::{Connected, Target};
/// use mcp_test::client::Client;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let client = Client::spawn(tokio::process::Command::new("./my-server")).await.unwrap();
/// let target = Connected::probe(client, "./my-server").await.unwrap();
/// println!("{} speaks {}", target.label(), target.era());
/// # }
/// ```
#[derive(Debug)]
pub struct Connected {
    /// The client.
    pub client: crate::client::Client,
    /// The label for reports.
    pub label: String,
    /// The era found.
    pub era: Era,
}

impl Connected {
    /// Asks the server which era it speaks ([`Client::era`](crate::client::Client::era): a
    /// `server/discover`, else the 2025-11-25 `initialize` handshake).
    pub async fn probe(
        client: crate::client::Client,
        label: impl Into<String>,
    ) -> Result<Connected, TargetError> {
        let era = match client.era().await {
            Ok(crate::client::Era::Modern { .. }) => Era::Current,
            Ok(_) => Era::Legacy,
            Err(e) => return Err(TargetError::new(e.to_string())),
        };
        Ok(Connected {
            client,
            label: label.into(),
            era,
        })
    }
}

impl Target for Connected {
    fn label(&self) -> String {
        self.label.clone()
    }
    fn send(&self, message: Value) -> BoxFuture<'_, Result<Option<Value>, TargetError>> {
        Target::send(&self.client, message)
    }
    fn era(&self) -> Era {
        self.era
    }
    fn transport_violations(&self) -> Vec<String> {
        self.client.violations()
    }
    /// The label, when it is an `http://` URL.
    fn http_url(&self) -> Option<String> {
        self.label
            .starts_with("http://")
            .then(|| self.label.clone())
    }
}

/// Sends requests with fresh ids and a per-call timeout.
pub(crate) struct Session<'a> {
    pub(crate) target: &'a dyn Target,
    pub(crate) timeout: Duration,
    next_id: AtomicI64,
}

impl<'a> Session<'a> {
    pub(crate) fn new(target: &'a dyn Target, timeout: Duration) -> Self {
        Session {
            target,
            timeout,
            next_id: AtomicI64::new(1),
        }
    }

    pub(crate) fn next_id(&self) -> i64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// A request for `method` with the protocol fields, and a fresh id. Returns (id, response).
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Value,
    ) -> (i64, Result<Value, TargetError>) {
        let id = self.next_id();
        let mut body = build_request(method, params);
        body["id"] = Value::from(id);
        (id, self.raw(body).await)
    }

    /// Sends a message as written and waits at most the timeout for its response.
    pub(crate) async fn raw(&self, body: Value) -> Result<Value, TargetError> {
        match tokio::time::timeout(self.timeout, self.target.send(body)).await {
            Err(_) => Err(TargetError::new(format!(
                "no answer within {:?} (the per-call timeout)",
                self.timeout
            ))),
            Ok(Err(e)) => Err(e),
            Ok(Ok(Some(v))) => Ok(v),
            Ok(Ok(None)) => Err(TargetError::new("no response to a request")),
        }
    }
}
