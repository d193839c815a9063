//! [`Connected`]: a client with what was learnt when connecting.

use crate::client::ClientError;
use crate::server::Caller;
use crate::target::{Connection, Target, TargetError, TargetFuture};
use crate::wire::Era;
use crate::wire::build::without_2026_meta;
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
    /// The era found, or the one asked for.
    pub era: Era,
    /// Whether [`era`](Connected::era) was asked for ([`Connected::connect`] with an era)
    /// rather than found: [`Connection::era_chosen`].
    pub era_chosen: bool,
    /// The handshake result: the `DiscoverResult` of a 2026-07-28 server, or the
    /// `InitializeResult` of a 2025-era server.
    pub handshake: Value,
    /// Why the era is 2025-11-25 although the server answered `server/discover`, when its
    /// word decided it ([`Handshake::negotiation`](crate::client::Handshake::negotiation)).
    pub negotiation: Option<String>,
}

impl Connected {
    /// Asks the server which era it speaks ([`Client::era`](crate::client::Client::era): a
    /// `server/discover`, else the 2025-11-25 `initialize` handshake).
    pub async fn probe(
        client: crate::client::Client,
        label: impl Into<String>,
    ) -> Result<Connected, TargetError> {
        Connected::connect(client, label, None).await
    }

    /// Connects in the era asked for, or, with `None`, in the one the server speaks
    /// ([`Connected::probe`]). For a server that serves both eras, this is how a check or a
    /// test sees what the clients of one era see.
    ///
    /// - [`Era::Legacy`]: the 2025-11-25 `initialize` handshake at once
    ///   ([`Client::initialize`](crate::client::Client::initialize)), without
    ///   `server/discover` first.
    /// - [`Era::Current`]: [`Client::era`](crate::client::Client::era); a server that turns
    ///   out to speak only the 2025 era is a [`ClientError::Protocol`] naming the revision
    ///   it chose.
    pub async fn connect(
        client: crate::client::Client,
        label: impl Into<String>,
        era: Option<Era>,
    ) -> Result<Connected, TargetError> {
        let handshake = match era {
            None => client.era().await?,
            Some(Era::Legacy) => client.initialize().await?,
            Some(Era::Current) => {
                let handshake = client.era().await?;
                if handshake.era != Era::Current {
                    let why = handshake.negotiation.unwrap_or_else(|| {
                        format!(
                            "server/discover failed and initialize chose {}",
                            handshake.protocol_version
                        )
                    });
                    return Err(TargetError::Client(ClientError::Protocol(format!(
                        "the server does not speak {}: {why}",
                        Era::Current.revision()
                    ))));
                }
                handshake
            }
        };
        Ok(Connected {
            client,
            label: label.into(),
            era: handshake.era,
            era_chosen: era.is_some(),
            handshake: handshake.result,
            negotiation: handshake.negotiation,
        })
    }
}

impl Target for Connected {
    fn label(&self) -> String {
        self.label.clone()
    }
    /// In the 2025 era, without the 2026-07-28 `_meta` keys: that era's handshake declared
    /// them, and a server serving both eras may refuse them on a 2025-era connection.
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        match self.era {
            Era::Current => Target::send(&self.client, message, caller),
            Era::Legacy => Box::pin(async move {
                let message = without_2026_meta(message);
                Target::send(&self.client, &message, caller).await
            }),
        }
    }
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        Target::send_text(&self.client, text, caller)
    }
    /// The client's (transport, HTTP endpoint, events), with the era found, the handshake's
    /// `capabilities` and `protocolVersion`, and the handshake result itself.
    fn connection(&self) -> Connection {
        let mut connection = self.client.connection().with_era(self.era);
        connection.era_chosen = self.era_chosen;
        connection.negotiation.clone_from(&self.negotiation);
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
