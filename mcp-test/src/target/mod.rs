//! [`Target`]: anything that answers JSON-RPC. One trait under the test surface, the client,
//! the schema cases and the checker.
//!
//! - The in-process [`Server`] is a target: every message goes through
//!   [`Server::handle_json_with`] as text, with the [`Caller`]'s identity, assigns and timeout,
//!   and the progress and log notifications the request caused come back in the [`Exchange`].
//! - A [`Client`](crate::client::Client) connected to a server over stdio or Streamable HTTP
//!   is a target (features `client` and `http`).
//! - [`drive`] runs a multi-round (`input_required`) request against any target with one
//!   [`Answers`] script, and returns every round ([`Rounds`]). It is the only round-driving
//!   loop of the crate: the test helpers, the client, the checker and the in-process
//!   [`Driver`](crate::testing::Driver) all call it.
//!
//! The trait is small: [`label`](Target::label) and [`send`](Target::send), the message round
//! trip, and [`connection`](Target::connection), one description of the connection
//! ([`Connection`]: era, transport, HTTP endpoint with its [`HttpOptions`], declared
//! capabilities, protocol revision, transport events so far). A wrapper forwards the three
//! methods, each in one line when it adds nothing.
//!
//! The trait is fallible and object-safe (`&dyn Target`): a transport failure is a
//! [`TargetError`], never a panic. The test helpers of [`testing`](crate::testing) are the
//! panicking layer on top.
//!
//! ```
//! use mcp_test::target::{Target, TargetError};
//! use mcp_test::{Caller, Server};
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), TargetError> {
//! let server = Server::builder("demo", "1.0.0").build().unwrap();
//! let target: &dyn Target = &server;
//! let message = json!({"jsonrpc": "2.0", "id": 7, "method": "nope"});
//! let exchange = target.send(&message, &Caller::default()).await?;
//! assert_eq!(exchange.response.unwrap()["error"]["code"], -32601);
//! # Ok(())
//! # }
//! ```

pub(crate) mod answered;
pub(crate) mod answering;
mod base;
#[cfg(any(feature = "client", feature = "http"))]
pub(crate) mod challenge;
#[cfg(any(feature = "client", feature = "http"))]
pub(crate) mod client_error;
mod drive;
mod http_options;
pub(crate) mod session_ids;
mod synthesize;

#[cfg(any(feature = "cases", feature = "client", feature = "http"))]
#[doc(hidden)]
pub use base::CLOSE_GRACE;
#[doc(hidden)]
pub use base::DEADLINE_PASSED;
pub(crate) use base::describe;
pub use base::{
    Connection, Exchange, HttpEndpoint, Target, TargetError, TargetFuture, TransportEvent,
};
pub use drive::{Answers, DEFAULT_MAX_ROUNDS, DriveError, Rounds, drive};
pub use http_options::HttpOptions;
pub use synthesize::synthesize_answer;

use crate::server::{Caller, Server};
use crate::session::Session;
use crate::wire::Era;
use serde_json::Value;
use std::time::Duration;

impl Target for Server {
    fn label(&self) -> String {
        format!("{} {} (in process)", self.info().name, self.info().version)
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            // A watch around this send (a coverage recording) learns which server answered.
            answered::answering(self);
            let (sink, mut received) = tokio::sync::mpsc::unbounded_channel();
            let mut caller = caller.clone();
            caller.notifications = Some(sink);
            let text = serde_json::to_string(message).expect("a JSON value always encodes");
            let reply = self.handle_json_with(&text, &caller).await;
            drop(caller);
            let mut notifications = Vec::new();
            while let Ok(notification) = received.try_recv() {
                notifications.push(
                    serde_json::to_value(&notification).expect("a notification always encodes"),
                );
            }
            let response = parse_reply(reply)?;
            Ok(Exchange {
                response,
                notifications,
                status: None,
                content_type: None,
            })
        })
    }

    fn connection(&self) -> Connection {
        Connection::new().with_era(Era::Current)
    }

    /// The server's answer to `text` as [`Server::handle_json_with`] gives it (-32700 when it
    /// is not JSON).
    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            answered::answering(self);
            let response = parse_reply(self.handle_json_with(text, caller).await)?;
            Ok(Exchange {
                response,
                ..Exchange::default()
            })
        })
    }
}

/// A connection to an in-process server in either era: the first message fixes it (see
/// [`session`](crate::session)). The server's own requests go to the session's
/// [`Outgoing`](crate::session::Outgoing), given when it was made.
impl Target for Session {
    fn label(&self) -> String {
        let info = self.server().info();
        format!("{} {} (in process, session)", info.name, info.version)
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            answered::answering(self.server());
            let (sink, mut received) = tokio::sync::mpsc::unbounded_channel();
            let mut caller = caller.clone();
            caller.notifications = Some(sink);
            // Through text, as on a wire: every message exercises serialization.
            let text = serde_json::to_string(message).expect("a JSON value always encodes");
            let message = serde_json::from_str(&text).expect("JSON text decodes");
            let reply = self.handle_value(message, &caller).await;
            drop(caller);
            let mut notifications = Vec::new();
            while let Ok(notification) = received.try_recv() {
                notifications.push(
                    serde_json::to_value(&notification).expect("a notification always encodes"),
                );
            }
            Ok(Exchange {
                response: reply.map(|r| serde_json::to_value(r).expect("a response encodes")),
                notifications,
                status: None,
                content_type: None,
            })
        })
    }

    fn connection(&self) -> Connection {
        let mut connection = Connection::new();
        if let Some(era) = self.era() {
            connection = connection.with_era(era);
        }
        if let Some(version) = self.protocol_version() {
            connection = connection.with_protocol_version(version);
        }
        connection
    }
}

/// The in-process server's reply text as JSON (`None`: no reply, to a notification).
fn parse_reply(reply: Option<String>) -> Result<Option<Value>, TargetError> {
    reply
        .map(|text| match serde_json::from_str(&text) {
            Ok(value) => Ok(value),
            Err(source) => Err(TargetError::InvalidJson { text, source }),
        })
        .transpose()
}

/// A pointer to a target is the target: each method forwarded, `send_text` too.
macro_rules! forward_target {
    ($($pointer:ty),*) => {$(
        impl<T: Target + ?Sized> Target for $pointer {
            fn label(&self) -> String {
                (**self).label()
            }
            fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
                (**self).send(message, caller)
            }
            fn connection(&self) -> Connection {
                (**self).connection()
            }
            fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
                (**self).send_text(text, caller)
            }
        }
    )*};
}
forward_target!(&T, std::sync::Arc<T>, Box<T>);

/// Sends `message` and waits at most `timeout` for the exchange: the one place a deadline is
/// put around a target that may not apply one itself.
pub async fn send_within(
    target: &(impl Target + ?Sized),
    message: &Value,
    caller: &Caller,
    timeout: Duration,
) -> Result<Exchange, TargetError> {
    match tokio::time::timeout(timeout, target.send(message, caller)).await {
        Ok(result) => result,
        Err(_) => Err(TargetError::Timeout {
            request: describe(message),
            after: timeout,
        }),
    }
}
