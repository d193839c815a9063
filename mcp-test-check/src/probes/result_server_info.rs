//! `base/result-server-info`: a 2026-07-28 server names itself in every result's `_meta`.
//!
//! How: it sends nothing. It reads every result received so far (the responses the checker
//! kept, errors left out) and looks for `_meta["io.modelcontextprotocol/serverInfo"]`. The
//! clause lets a server configured not to send it leave it out, which a client cannot tell
//! apart from one that forgets it: a server that leaves it out of every result gets a note.
//! A server that puts it in some results and leaves it out of others is not configured not to
//! send it: the results without it break the clause (a warning). The discover result is the
//! discovery probe's (`discover/server-info`), and an `initialize` result a 2025-era one:
//! neither is counted.
//!
//! Clause quoted: `base/result-server-info` (2026-07-28, SHOULD).

use crate::Shown;
use crate::checker::{Note, Out};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use serde_json::Value;
use std::collections::BTreeMap;

pub(crate) const ID: &str = "base/result-server-info";

/// The key of `_meta` that names the server.
const KEY: &str = "io.modelcontextprotocol/serverInfo";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let out = {
            let log = r.c.log.lock().unwrap_or_else(|e| e.into_inner());
            let results: Vec<(&str, i64, &Value)> = log
                .iter()
                .map(|l| (l.method.as_str(), l.id, &l.response))
                .collect();
            judge(&results)
        };
        r.c.push_probe(ID, out);
    })
}

/// The results of `responses` (method, id, response) that carry the key, and those that do
/// not; see the [module docs](self).
pub(crate) fn judge(responses: &[(&str, i64, &Value)]) -> Out {
    let mut with = 0_usize;
    // The results without it, by method: how many, and the first one's id.
    let mut without: BTreeMap<&str, (usize, i64)> = BTreeMap::new();
    for &(method, id, response) in responses {
        if method == "server/discover" || method == "initialize" {
            continue;
        }
        let Some(result) = response.get("result").filter(|r| r.is_object()) else {
            continue;
        };
        if result.get("_meta").and_then(|m| m.get(KEY)).is_some() {
            with += 1;
        } else {
            without.entry(method).or_insert((0, id)).0 += 1;
        }
    }
    if without.is_empty() {
        return Vec::new();
    }
    if with == 0 {
        let methods: Vec<&str> = without.keys().copied().collect();
        return vec![Note::info(format!(
            "no result names the server in _meta[\"{KEY}\"] ({}); a server should, unless it is configured not to, which a client cannot tell apart",
            methods.join(", ")
        ))];
    }
    without
        .into_iter()
        .map(|(method, (count, id))| {
            Note::broke(
                &clauses::RESULT_SERVER_INFO,
                format!(
                    "{count} result{} of {method} do{} not name the server in _meta[\"{KEY}\"], which {with} other result{} carr{}: a server should name itself in every result",
                    if count == 1 { "" } else { "s" },
                    if count == 1 { "es" } else { "" },
                    if with == 1 { "" } else { "s" },
                    if with == 1 { "ies" } else { "y" },
                ),
            )
            .on(Some(Shown {
                method: method.to_owned(),
                id: Some(id),
            }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use serde_json::json;

    fn named() -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
            "_meta": {KEY: {"name": "s", "version": "1"}}}})
    }

    fn unnamed() -> Value {
        json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete"}})
    }

    #[test]
    fn every_result_named_is_fine_and_errors_do_not_count() {
        let (a, e) = (
            named(),
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "x"}}),
        );
        assert!(judge(&[("tools/list", 1, &a), ("nope", 3, &e)]).is_empty());
    }

    #[test]
    fn no_result_named_is_a_note_for_the_server_may_be_configured_so() {
        let b = unnamed();
        let found = judge(&[("tools/list", 2, &b), ("tools/call", 4, &b)]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Info);
    }

    #[test]
    fn some_results_unnamed_is_a_warning_per_method() {
        let (a, b) = (named(), unnamed());
        let found = judge(&[
            ("tools/call", 1, &a),
            ("tools/list", 2, &b),
            ("tools/list", 5, &b),
        ]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Warning);
        assert_eq!(found[0].clause, Some(clauses::RESULT_SERVER_INFO));
        assert!(found[0].message.contains("should"), "{}", found[0].message);
        assert!(found[0].message.starts_with("2 results of tools/list"));
        assert_eq!(found[0].request.as_ref().and_then(|s| s.id), Some(2));
    }

    #[test]
    fn the_discover_and_initialize_results_are_not_counted() {
        let (a, b) = (named(), unnamed());
        let found = judge(&[
            ("tools/list", 1, &a),
            ("server/discover", 2, &b),
            ("initialize", 3, &b),
        ]);
        assert!(found.is_empty());
    }
}
