//! `base/invalid-request`: JSON that is not a valid JSON-RPC request gets -32600 (Invalid
//! Request).
//!
//! How: as `base/malformed-message` ([`probe_text`]), last and on a connection of its own
//! where it can, with a request that has an id and no `method`. A reply with another code
//! breaks `jsonrpc/invalid-request` (MUST, as MCP makes JSON-RPC 2.0 a MUST); its id may be
//! the request's or null. No reply to the invalid request itself is a note, and so is no
//! answer to the request sent after it (robustness: the spec binds the client not to send it).

use super::malformed_message::{Sent, probe_text};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::INVALID_REQUEST;

pub(crate) const ID: &str = "base/invalid-request";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let id = r.c.session.next_id();
        let what = Sent {
            label: "a request without a method",
            text: format!(r#"{{"jsonrpc": "2.0", "id": {id}, "params": {{}}}}"#),
            reply_id: Some(id.to_string()),
        };
        let clause = &clauses::JSONRPC_INVALID_REQUEST;
        let code = i64::from(INVALID_REQUEST);
        probe_text(r, ID, &what, clause, code, "Invalid Request").await;
    })
}
