//! [`Reconnect`]: how `check` opens another connection to the server it checks.
//!
//! One check is one session, but two things need a connection of their own:
//!
//! - the probes that write what the spec tells a client not to write (a message that is not
//!   JSON, a request without `method`): stdio.mdx puts the rule on the client ("MUST NOT write
//!   anything to the server's stdin that is not a valid MCP message"), so a server may read
//!   its input with a streaming JSON decoder that takes the next request as the rest of the
//!   broken one. Over stdio they run on a fresh process, so no other probe depends on how the
//!   server copes;
//! - the other era of a server that serves both (versioning.mdx §Backward Compatibility: "A
//!   dual-era server selects its behavior from how the client opens"): its 2025-11-25 side is
//!   checked on a connection opened with `initialize`.
//!
//! Over stdio, a check opens these connections ahead of need, each in a task of its own while
//! the first session runs: a server process that takes a second to start then costs that
//! second about once. One not taken is closed when the check ends.
//!
//! Without one ([`CheckOptions::reconnect`](crate::CheckOptions::reconnect) left `None`), the
//! first kind runs last on the checked session, and the report notes that the other era was
//! not checked. `mcp-test check` always gives one: the same command started again, or the same
//! URL.

use futures_util::future::BoxFuture;
use mcp_test::cases::{Connected, Era};
use mcp_test::target::TargetError;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// Opens another connection to the server being checked, in the era asked for: a stdio
/// server started again, the same Streamable HTTP endpoint, or an in-process server served
/// on a pipe. The connection is closed (and a process it started stopped) when the check is
/// done with it.
///
/// ```
/// use mcp_test::cases::{Connected, Era};
/// use mcp_test::client::Client;
/// use mcp_test_check::{CheckOptions, Reconnect, check_connected, example_server};
/// use mcp_test::transport::stdio::{StdioConfig, serve};
///
/// /// The example server on a fresh in-memory pipe, as a process would be started again.
/// async fn fresh(era: Option<Era>) -> Result<Connected, mcp_test::target::TargetError> {
///     let (client_end, server_end) = tokio::io::duplex(64 * 1024);
///     let (server_read, server_write) = tokio::io::split(server_end);
///     tokio::spawn(serve(example_server(), server_read, server_write, StdioConfig::default()));
///     let (read, write) = tokio::io::split(client_end);
///     Connected::connect(Client::connect(read, write), "example", era).await
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let options = CheckOptions::default().reconnect(Some(Reconnect::new(|era| fresh(Some(era)))));
/// let report = check_connected(&fresh(None).await.unwrap(), &options).await;
/// // The example server serves both eras: one report, a session of each.
/// assert_eq!(report.eras(), [Era::Current, Era::Legacy]);
/// assert_eq!(report.findings().count(), 0, "{}", report.to_text());
/// # }
/// ```
#[derive(Clone)]
pub struct Reconnect {
    open: Arc<dyn Fn(Era) -> BoxFuture<'static, Result<Connected, TargetError>> + Send + Sync>,
    /// Connections opened ahead of need ([`warm`](Self::warm)), each with its era, taken by
    /// [`open`](Self::open). Shared by the clones of one `Reconnect`, which one check makes.
    warm: Arc<Mutex<Vec<(Era, Opening)>>>,
}

/// An open under way in a task of its own, aborted when dropped: a connection opened ahead
/// and then not waited for (a timeout, a check cut short) never outlives its check.
struct Opening(tokio::task::JoinHandle<Result<Connected, TargetError>>);

impl Drop for Opening {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Opening {
    async fn connected(mut self) -> Result<Connected, TargetError> {
        match (&mut self.0).await {
            Ok(opened) => opened,
            // The task panicked (it is aborted only once dropped).
            Err(e) => Err(TargetError::Client(mcp_test::client::ClientError::Io {
                what: "opening a connection ahead of need".to_owned(),
                source: std::io::Error::other(e.to_string()),
                stderr: String::new(),
            })),
        }
    }
}

impl Reconnect {
    /// A way to connect again: `open(era)` connects in `era` (as
    /// [`Connected::connect`] with `Some(era)` does).
    pub fn new<F, Fut>(open: F) -> Self
    where
        F: Fn(Era) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Connected, TargetError>> + Send + 'static,
    {
        Reconnect {
            open: Arc::new(move |era| Box::pin(open(era))),
            warm: Arc::default(),
        }
    }

    /// Opens a connection in `era`: one the check opened ahead of need in that era if
    /// there is one, else a new one.
    pub async fn open(&self, era: Era) -> Result<Connected, TargetError> {
        let ahead = {
            let mut warm = self.warm.lock().unwrap_or_else(|e| e.into_inner());
            warm.iter()
                .position(|(e, _)| *e == era)
                .map(|at| warm.remove(at).1)
        };
        match ahead {
            Some(opening) => opening.connected().await,
            None => (self.open)(era).await,
        }
    }

    /// Starts opening a connection in `era` now, in a task of its own, for an
    /// [`open`](Self::open) later to take. A check warms the connections it will need over
    /// stdio while its first session runs: a server process that takes a second to start
    /// (an interpreter importing its SDK) then costs that second once, not once per
    /// connection. Needs a Tokio runtime.
    pub(crate) fn warm(&self, era: Era) {
        let opening = Opening(tokio::spawn((self.open)(era)));
        self.warm
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((era, opening));
    }

    /// Closes the connections opened ahead and not taken, each given `grace` to exit, and
    /// stops the opens still under way.
    pub(crate) async fn close_warm(&self, grace: std::time::Duration) {
        let left = std::mem::take(&mut *self.warm.lock().unwrap_or_else(|e| e.into_inner()));
        let closes = left.into_iter().map(|(_, opening)| async move {
            if opening.0.is_finished()
                && let Ok(connected) = opening.connected().await
            {
                let _ = connected.client.close_within(grace).await;
            }
        });
        futures_util::future::join_all(closes).await;
    }
}

impl fmt::Debug for Reconnect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reconnect(..)")
    }
}
