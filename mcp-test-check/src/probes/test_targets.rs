//! Targets the probes' unit tests check against.

use mcp_test::target::{Connection, Exchange, Target, TargetFuture};
use mcp_test::{Caller, Server};
use serde_json::{Value, json};

/// The in-process `server`, but every request for `method` is answered with the JSON-RPC
/// `error` (`{"code": .., "message": ..}`).
pub(crate) struct Refusing {
    pub server: Server,
    pub method: &'static str,
    pub error: Value,
}

impl Target for Refusing {
    fn label(&self) -> String {
        format!("{} refusing {}", self.server.info().name, self.method)
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        if message.get("method").and_then(Value::as_str) == Some(self.method) {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            let response = json!({"jsonrpc": "2.0", "id": id, "error": self.error});
            return Box::pin(async move {
                Ok(Exchange {
                    response: Some(response),
                    ..Exchange::default()
                })
            });
        }
        self.server.send(message, caller)
    }
    fn connection(&self) -> Connection {
        self.server.connection()
    }
}
