//! The value trees of one property, on a thread of their own.
//!
//! proptest's boxed value trees are not `Send`, and the runner holds one across every call it
//! awaits; a future holding one could not be sent to another thread, nor could `check`'s,
//! which runs the properties. So the runner and its trees live on a small thread, and the
//! async side asks it for a new value, a simpler one or a more complex one over channels.

use std::sync::mpsc;

use proptest::strategy::{SBoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use tokio::sync::oneshot;

enum Command<T> {
    New(oneshot::Sender<Result<T, String>>),
    Simplify(oneshot::Sender<Option<T>>),
    Complicate(oneshot::Sender<Option<T>>),
}

/// A handle on the thread that holds one property's runner and current value tree. The
/// thread ends when the handle is dropped.
pub(crate) struct Trees<T> {
    commands: mpsc::Sender<Command<T>>,
}

impl<T: Clone + std::fmt::Debug + Send + 'static> Trees<T> {
    /// Starts the thread: values of `strategy`, from a generator seeded with `seed`.
    pub(crate) fn start(strategy: SBoxedStrategy<T>, seed: [u8; 32]) -> Result<Self, String> {
        let (commands, inbox) = mpsc::channel::<Command<T>>();
        std::thread::Builder::new()
            .name("mcp-test-properties".into())
            .spawn(move || {
                let config = Config {
                    failure_persistence: None,
                    ..Config::default()
                };
                let mut runner = TestRunner::new_with_rng(
                    config,
                    TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
                );
                let mut tree: Option<Box<dyn ValueTree<Value = T>>> = None;
                while let Ok(command) = inbox.recv() {
                    match command {
                        Command::New(reply) => {
                            let made = strategy
                                .new_tree(&mut runner)
                                .map(|t| {
                                    let value = t.current();
                                    tree = Some(t);
                                    value
                                })
                                .map_err(|reason| reason.to_string());
                            let _ = reply.send(made);
                        }
                        Command::Simplify(reply) => {
                            let moved = tree
                                .as_mut()
                                .and_then(|t| t.simplify().then(|| t.current()));
                            let _ = reply.send(moved);
                        }
                        Command::Complicate(reply) => {
                            let moved = tree
                                .as_mut()
                                .and_then(|t| t.complicate().then(|| t.current()));
                            let _ = reply.send(moved);
                        }
                    }
                }
            })
            .map_err(|e| format!("could not start the thread of the value trees: {e}"))?;
        Ok(Trees { commands })
    }

    /// A fresh value (and tree).
    pub(crate) async fn new_value(&self) -> Result<T, String> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::New(reply))
            .map_err(|_| "the thread of the value trees ended".to_owned())?;
        answer
            .await
            .map_err(|_| "the thread of the value trees ended".to_owned())?
    }

    /// A simpler value, `None` when there is none.
    pub(crate) async fn simplify(&self) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        self.commands.send(Command::Simplify(reply)).ok()?;
        answer.await.ok().flatten()
    }

    /// A value back toward the last failing one, `None` when there is none.
    pub(crate) async fn complicate(&self) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        self.commands.send(Command::Complicate(reply)).ok()?;
        answer.await.ok().flatten()
    }
}
