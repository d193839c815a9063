//! A test context speaking the 2025-11-25 era ([`TestContext::in_era`]): the target wrapped so
//! that its first message is preceded by the `initialize` handshake, the 2026-07-28 `_meta`
//! the helpers write is left out, no request id is sent twice in the session
//! ([`session_ids`](crate::target::session_ids): by the client over stdio and HTTP, here in
//! process), and the server's own requests are answered from the answers of the round
//! helpers in flight.

#[cfg(any(feature = "client", feature = "http"))]
use crate::client::Client;
use crate::server::{Caller, Server};
use crate::session::Session;
use crate::target::answering::AnswerSources;
use crate::target::session_ids::SessionIds;
use crate::target::{Connection, Target, TargetError, TargetFuture};
use crate::wire::build::without_2026_meta;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use tokio::sync::OnceCell;

/// How the handshake is spoken, and who keeps the session's request ids unique.
enum Handshake {
    /// An in-process [`Session`]: `initialize` sent as a message; the ids kept here, fresh
    /// ones counted from 1.
    Session { ids: SessionIds, next_id: AtomicI64 },
    /// A client (stdio, HTTP): `Client::initialize_declaring`, which also sets the HTTP
    /// session's protocol version; the client keeps its session's ids unique.
    #[cfg(any(feature = "client", feature = "http"))]
    Client(Client),
}

/// The id of the in-process handshake's `initialize`.
const INITIALIZE_ID: &str = "mcp-test-initialize";

/// A target spoken to in the 2025-11-25 era.
pub(super) struct Legacy {
    inner: Arc<dyn Target>,
    handshake: Handshake,
    capabilities: Value,
    /// The `initialize` result, once the handshake is done, or why it failed.
    done: OnceCell<Result<Value, String>>,
}

impl Legacy {
    /// An in-process session of `server`, its requests answered from `answers`. Must run
    /// inside a tokio runtime (the answering task).
    #[track_caller]
    pub(super) fn in_process(
        server: Server,
        capabilities: Value,
        answers: Arc<AnswerSources>,
    ) -> Legacy {
        if tokio::runtime::Handle::try_current().is_err() {
            panic!(
                "TestContext::in_era(Era::Legacy) must be called inside a tokio runtime (an \
                 #[mcp_test] or #[tokio::test] body): the in-process session answers the \
                 server's requests on a task"
            );
        }
        let (out, mut asked) = tokio::sync::mpsc::unbounded_channel::<Value>();
        let session = Session::new(server, Some(out));
        let answering = session.clone();
        tokio::spawn(async move {
            while let Some(message) = asked.recv().await {
                if message.get("id").is_some() && message.get("method").is_some() {
                    answering.deliver(&answers.respond(&message));
                }
            }
        });
        let ids = SessionIds::default();
        ids.note(&json!({"id": INITIALIZE_ID, "method": "initialize"}));
        Legacy {
            inner: Arc::new(session),
            handshake: Handshake::Session {
                ids,
                next_id: AtomicI64::new(1),
            },
            capabilities,
            done: OnceCell::new(),
        }
    }

    /// `client` spoken to in the 2025 era, each message sent through `inner` (the client,
    /// or a target over it: a process it talks to, a coverage recording).
    #[cfg(any(feature = "client", feature = "http"))]
    pub(super) fn client(client: Client, inner: Arc<dyn Target>, capabilities: Value) -> Legacy {
        Legacy {
            inner,
            handshake: Handshake::Client(client),
            capabilities,
            done: OnceCell::new(),
        }
    }

    /// The handshake, once; its failure fails every send after it.
    async fn initialized(&self) -> Result<(), TargetError> {
        let outcome = self
            .done
            .get_or_init(|| async {
                match &self.handshake {
                    #[cfg(any(feature = "client", feature = "http"))]
                    Handshake::Client(client) => client
                        .initialize_declaring(self.capabilities.clone())
                        .await
                        .map(|handshake| handshake.result)
                        .map_err(|e| e.to_string()),
                    Handshake::Session { .. } => {
                        let initialize = json!({"jsonrpc": "2.0", "id": INITIALIZE_ID,
                            "method": "initialize", "params": {
                                "protocolVersion": crate::wire::Era::Legacy.revision(),
                                "capabilities": self.capabilities,
                                "clientInfo": {"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}}});
                        let caller = Caller::default();
                        let reply = self
                            .inner
                            .send(&initialize, &caller)
                            .await
                            .map_err(|e| e.to_string())?;
                        let response = reply.response.unwrap_or(Value::Null);
                        let Some(result) = response.get("result") else {
                            return Err(format!("initialize: expected a result, got {response}"));
                        };
                        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
                        self.inner
                            .send(&note, &caller)
                            .await
                            .map(|_| result.clone())
                            .map_err(|e| e.to_string())
                    }
                }
            })
            .await;
        outcome
            .clone()
            .map(|_| ())
            .map_err(|reason| TargetError::Unsupported {
                what: format!(
                    "the 2025-11-25 era, as {} failed the initialize handshake: {reason}",
                    self.inner.label()
                ),
            })
    }
}

impl Target for Legacy {
    fn label(&self) -> String {
        format!("{} (2025-11-25)", self.inner.label())
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            self.initialized().await?;
            let message = without_2026_meta(message);
            match &self.handshake {
                Handshake::Session { ids, next_id } => {
                    let fresh = || next_id.fetch_add(1, Ordering::Relaxed);
                    let claimed = ids.claim(&message, &fresh);
                    let mut exchange = self.inner.send(&claimed.wire, caller).await?;
                    claimed.restore(&mut exchange);
                    Ok(exchange)
                }
                #[cfg(any(feature = "client", feature = "http"))]
                Handshake::Client(_) => self.inner.send(&message, caller).await,
            }
        })
    }

    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            self.initialized().await?;
            self.inner.send_text(text, caller).await
        })
    }

    /// The inner target's, in the 2025-11-25 era, with what the handshake gave once it is
    /// done (the `initialize` result, its capabilities, revision and `serverInfo`).
    fn connection(&self) -> Connection {
        let mut connection = self.inner.connection().with_era(crate::wire::Era::Legacy);
        if let Some(Ok(result)) = self.done.get() {
            connection.capabilities = result.get("capabilities").cloned();
            if let Some(version) = result.get("protocolVersion").and_then(Value::as_str) {
                connection.protocol_version = Some(version.to_owned());
            }
            if let Some(info) = result.get("serverInfo") {
                connection.server_info = Some(info.clone());
            }
            connection.handshake = Some(result.clone());
        }
        connection
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::meta_keys;

    #[test]
    fn the_2026_meta_is_left_out_and_the_rest_kept() {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "t", "_meta": {meta_keys::PROTOCOL_VERSION: "2026-07-28",
            meta_keys::CLIENT_CAPABILITIES: {}, "progressToken": "p"}}});
        let sent = without_2026_meta(&message);
        assert_eq!(sent["params"]["_meta"], json!({"progressToken": "p"}));
        let bare = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {
            "_meta": {meta_keys::PROTOCOL_VERSION: "2026-07-28"}}});
        assert_eq!(without_2026_meta(&bare)["params"], json!({}));
    }
}
