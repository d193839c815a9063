//! `base/invalid-request`: JSON that is not a valid JSON-RPC request gets -32600 (Invalid
//! Request), and the server keeps serving.
//!
//! How: as `base/malformed-message` ([`exchange_text`]), with a request that has an id and no
//! `method`. A reply with another code breaks `jsonrpc/invalid-request` (MUST, as MCP makes
//! JSON-RPC 2.0 a MUST); its id may be the request's or null. No answer to the request sent
//! after it breaks `jsonrpc/response-required`; no reply to the invalid request itself, the
//! server serving on, is a note.

use super::malformed_message::{Sent, exchange_text, judge, record};
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
        let seen = exchange_text(r, &what).await;
        let out = judge(
            r.c.era,
            &what,
            &seen,
            &clauses::JSONRPC_INVALID_REQUEST,
            i64::from(INVALID_REQUEST),
            "Invalid Request",
        );
        record(r, ID, &seen, out);
    })
}
