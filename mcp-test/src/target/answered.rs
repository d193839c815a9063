//! Which in-process [`Server`] answered the sends inside a scope.
//!
//! [`watched`] runs a future (a send through any [`Target`](super::Target)) with a slot on its
//! task, and returns its output with the in-process server that answered, if one did. A
//! `Server`'s [`Target::send`](super::Target::send) fills the slot ([`answering`]) as it
//! starts; whatever sends on the same task passes it through (a reference, a context, a
//! recording, any wrapper), and a client of a server in another process never fills it.
//! Nothing is downcast: the server that answered is the only one that knows it is one.
//!
//! The target layer owns the slot because the `Server` target fills it; the layers above read
//! it (coverage recording learns a server's registry this way, `testing::coverage`).

use crate::server::Server;
use std::cell::RefCell;
use std::future::Future;

tokio::task_local! {
    /// The in-process server that answered the send being watched ([`watched`]), once one
    /// has.
    static ANSWERED_BY: RefCell<Option<Server>>;
}

/// Runs `send` and returns its output with the in-process [`Server`] that answered, if one
/// did (see the [module docs](self)).
pub(crate) async fn watched<F: Future>(send: F) -> (F::Output, Option<Server>) {
    let (output, server) = ANSWERED_BY
        .scope(RefCell::new(None), async {
            let output = send.await;
            (output, ANSWERED_BY.with(RefCell::take))
        })
        .await;
    // A watch around this one (a helper that records globally, sending through a context
    // that records to its own directory) hears it too.
    if let Some(server) = &server {
        answering(server);
    }
    (output, server)
}

/// Tells the innermost [`watched`] send in progress on this task, if any, that `server`
/// answers it. The first server to say so is the one (a server whose tool sends to another
/// in-process server answered the request it was sent). Costs a task-local look-up when
/// nothing watches.
pub(crate) fn answering(server: &Server) {
    let _ = ANSWERED_BY.try_with(|slot| {
        slot.borrow_mut().get_or_insert_with(|| server.clone());
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Caller;
    use crate::target::Target;

    #[tokio::test]
    async fn an_in_process_server_fills_the_slot_through_a_reference() {
        let server = Server::builder("demo", "1.0.0").build().unwrap();
        let target: &dyn Target = &&server;
        let message = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let (sent, answered) = watched(target.send(&message, &Caller::default())).await;
        assert!(sent.is_ok());
        assert_eq!(answered.unwrap().info().name, "demo");
    }

    #[tokio::test]
    async fn nothing_answers_outside_a_watch_or_without_a_server() {
        let server = Server::builder("demo", "1.0.0").build().unwrap();
        answering(&server);
        let ((), answered) = watched(async {}).await;
        assert!(answered.is_none());
    }

    #[tokio::test]
    async fn the_outer_watch_hears_the_inner_one() {
        let server = Server::builder("demo", "1.0.0").build().unwrap();
        let ((_, inner), outer) = watched(watched(async { answering(&server) })).await;
        assert!(inner.is_some() && outer.is_some());
    }
}
