//! [`Connected`]: a client with what was learnt when connecting.

use crate::server::Caller;
use crate::target::{Connection, Target, TargetError, TargetFuture};
use crate::wire::Era;
use serde_json::Value;

/// A connected client with what was learnt when connecting: a label for reports, the era, and
/// the handshake result (whose `capabilities` the checker reads, through
/// [`Target::connection`]).
///
/// ```no_run
/// use mcp_test::cases::Connected;
/// use mcp_test::target::Target;
/// use mcp_test::client::Client;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let client = Client::spawn(tokio::process::Command::new("./my-server")).await.unwrap();
/// let target = Connected::probe(client, "./my-server").await.unwrap();
/// println!("{} speaks {}", target.label(), target.era);
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
    /// The handshake result: the `DiscoverResult` of a 2026-07-28 server, or the
    /// `InitializeResult` of a 2025-era server.
    pub handshake: Value,
}

impl Connected {
    /// Asks the server which era it speaks ([`Client::era`](crate::client::Client::era): a
    /// `server/discover`, else the 2025-11-25 `initialize` handshake).
    pub async fn probe(
        client: crate::client::Client,
        label: impl Into<String>,
    ) -> Result<Connected, TargetError> {
        let handshake = client.era().await?;
        Ok(Connected {
            client,
            label: label.into(),
            era: handshake.era,
            handshake: handshake.result,
        })
    }
}

impl Target for Connected {
    fn label(&self) -> String {
        self.label.clone()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Target::send(&self.client, message, caller)
    }
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        Target::send_text(&self.client, text, caller)
    }
    /// The client's (transport, HTTP endpoint, events), with the era found, the handshake's
    /// `capabilities` and `protocolVersion`, and the handshake result itself.
    fn connection(&self) -> Connection {
        let mut connection = self.client.connection().with_era(self.era);
        connection.capabilities = self.handshake.get("capabilities").cloned();
        connection.protocol_version = self
            .handshake
            .get("protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_owned);
        connection.handshake = Some(self.handshake.clone());
        connection
    }
}
