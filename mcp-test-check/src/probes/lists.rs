//! `lists/tools/list`, and the paging every list probe shares ([`pages`], [`list_probe`]).
//!
//! A list is read page by page to its end: an error, a page without its array, a cursor that
//! is no string or one that comes back (a loop) are findings; then read again, which must give
//! the same items (tools: in the same order), the same cursor the same page, and an invalid
//! cursor must be an error (-32602). A tool name listed twice breaks the uniqueness rule.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`INVALID_CURSOR`](clauses::INVALID_CURSOR),
//! [`PAGINATION_STABLE_CURSORS`](clauses::PAGINATION_STABLE_CURSORS), [`SCHEMA`](clauses::SCHEMA),
//! [`TOOLS_DETERMINISTIC_ORDER`](clauses::TOOLS_DETERMINISTIC_ORDER),
//! [`TOOLS_LIST`](clauses::TOOLS_LIST), [`TOOL_NAMES_UNIQUE`](clauses::TOOL_NAMES_UNIQUE).

use crate::checker::{Checker, Out, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::wire::error_codes::{INVALID_PARAMS, METHOD_NOT_FOUND};
use serde_json::{Value, json};
use std::collections::HashSet;

/// The probe's id.
pub(crate) const ID: &str = "lists/tools/list";

/// The row: `tools/list`, whose tools (and their names) later rows go by.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        r.tools = list_probe(
            &mut r.c,
            "tools/list",
            "tools",
            "name",
            Some(&clauses::TOOLS_LIST),
        )
        .await;
        r.listed = r
            .tools
            .iter()
            .filter_map(|t| Some(t.get("name")?.as_str()?.to_owned()))
            .collect();
    })
}

/// Every page of a list method; findings for loops, duplicates and a list that does not
/// end. `responds`: the clause that makes the server answer it, if one does (an error
/// or a loop is otherwise a note, and -32601 nothing: the method is optional).
/// `first_cursor` is set to the first `nextCursor` and the page it gave, if any.
pub(crate) async fn pages(
    c: &mut Checker<'_>,
    method: &str,
    key: &str,
    responds: Option<&Clause>,
    out: &mut Out,
    first_cursor: &mut Option<(String, Vec<Value>)>,
) -> Option<Vec<Value>> {
    let mut items = Vec::new();
    let mut cursors = HashSet::new();
    let mut cursor: Option<String> = None;
    for _ in 0..200 {
        let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
        let r = c.req(method, params, out).await?;
        let Some(result) = r.get("result") else {
            let message = format!("{method} answered an error: {}", brief(&r));
            match responds {
                Some(clause) => out.push(c.broke(clause, message)),
                None if r.pointer("/error/code").and_then(Value::as_i64)
                    == Some(i64::from(METHOD_NOT_FOUND)) => {}
                None => out.push(c.info(message)),
            }
            return None;
        };
        let Some(page) = result.get(key).and_then(Value::as_array) else {
            out.push(c.broke(
                &clauses::SCHEMA,
                format!("the {method} result has no `{key}` array"),
            ));
            return None;
        };
        if let Some(c) = &cursor
            && first_cursor.is_none()
        {
            *first_cursor = Some((c.clone(), page.clone()));
        }
        items.extend(page.iter().cloned());
        match result.get("nextCursor") {
            None | Some(Value::Null) => return Some(items),
            Some(Value::String(next)) => {
                if !cursors.insert(next.clone()) {
                    // A client that follows the cursors never gets to the end of the
                    // set the server must answer with.
                    let message = format!(
                        "{method} pagination loops: nextCursor {next:?} was already returned, so a client following the cursors never reaches the end of the list"
                    );
                    out.push(match responds {
                        Some(clause) => c.broke(clause, message),
                        None => c.info(message),
                    });
                    return Some(items);
                }
                cursor = Some(next.clone());
            }
            Some(other) => {
                out.push(c.broke(
                    &clauses::SCHEMA,
                    format!("{method}: nextCursor must be a string, got {other}"),
                ));
                return Some(items);
            }
        }
    }
    out.push(c.info(format!("{method} did not end within 200 pages")));
    Some(items)
}

/// Pagination, stable order, duplicates and a bad cursor for one list method, which a
/// server with the capability must answer (`responds`).
pub(crate) async fn list_probe(
    c: &mut Checker<'_>,
    method: &str,
    key: &str,
    id_field: &str,
    responds: Option<&Clause>,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut paged = None;
    let listed = pages(c, method, key, responds, &mut out, &mut paged).await;
    // An optional method the server does not implement (-32601): nothing more to ask.
    if listed.is_none() && responds.is_none() && c.dead.is_none() && out.is_empty() {
        c.push_probe(&format!("lists/{method}"), out);
        return Vec::new();
    }
    let first = listed.unwrap_or_default();
    let tools = method == "tools/list";
    let names = |items: &[Value]| -> Vec<String> {
        items
            .iter()
            .map(|t| t.get(id_field).map(Value::to_string).unwrap_or_default())
            .collect()
    };
    let mut seen = HashSet::new();
    for n in names(&first) {
        if !seen.insert(n.clone()) {
            let message = format!("{method} lists {id_field} {n} more than once");
            out.push(if tools {
                c.broke(&clauses::TOOL_NAMES_UNIQUE, message)
            } else {
                c.info(message)
            });
        }
    }
    if c.dead.is_none() {
        let mut again_out = Vec::new();
        let second = pages(c, method, key, responds, &mut again_out, &mut None).await;
        if let Some(second) = second {
            let (a, b) = (names(&first), names(&second));
            let mut sorted = (a.clone(), b.clone());
            sorted.0.sort();
            sorted.1.sort();
            if a != b {
                let message =
                    format!("{method} differs between two calls in a row: first {a:?}, then {b:?}");
                // The order of tools is a SHOULD; the set MAY change over time, and no
                // clause orders resources or prompts.
                out.push(if tools && sorted.0 == sorted.1 {
                    c.broke(&clauses::TOOLS_DETERMINISTIC_ORDER, message)
                } else {
                    c.info(message)
                });
            } else if let Some((cursor, page)) = paged {
                // The set did not change between the two listings: the same cursor
                // should give the same page again.
                let params = json!({"cursor": cursor});
                if let Some(r) = c.req(method, params, &mut out).await
                    && let Some(again) = r.pointer(&format!("/result/{key}"))
                    && let Some(again) = again.as_array()
                    && names(again) != names(&page)
                {
                    out.push(c.broke(
                        &clauses::PAGINATION_STABLE_CURSORS,
                        format!(
                            "{method} with the cursor {cursor:?} a second time gave another page, though the list did not change: first {:?}, then {:?}",
                            names(&page),
                            names(again)
                        ),
                    ));
                }
            }
        }
        let bad = json!({"cursor": "mcp-test-not-a-cursor"});
        if let Some(r) = c.req(method, bad, &mut out).await
            && r.get("error").is_none()
        {
            out.push(c.broke(
                &clauses::INVALID_CURSOR,
                format!("{method} with an invalid cursor answered a result, not {INVALID_PARAMS}"),
            ));
        }
    }
    c.push_probe(&format!("lists/{method}"), out);
    first
}
