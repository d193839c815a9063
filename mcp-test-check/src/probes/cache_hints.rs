//! `cache-hints/pages` (2026-07-28): every page of each list the server declares (tools,
//! resources, prompts) must carry the same `cacheScope`. Run by the row of
//! `subscriptions/listen` (`super::subscriptions`).
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`CACHE_SCOPE_PAGES`](clauses::CACHE_SCOPE_PAGES).

use crate::checker::Checker;
use mcp_test::spec::clauses;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "cache-hints/pages";

/// The probe `cache-hints/pages`: the `cacheScope` of every page of each list offered.
pub(crate) async fn cache_pages(c: &mut Checker<'_>, declared: Option<&Value>) {
    if !c.modern() {
        return c.skip_probe(ID, "a 2025-era server: cache hints are 2026-07-28's");
    }
    let mut out = Vec::new();
    let mut walked = false;
    for (capability, method) in [
        ("tools", "tools/list"),
        ("resources", "resources/list"),
        ("prompts", "prompts/list"),
    ] {
        let offered = declared
            .and_then(|d| d.get(capability))
            .is_some_and(|v| !v.is_null());
        if !offered {
            continue;
        }
        walked = true;
        let mut scopes: Vec<(usize, Value)> = Vec::new();
        let mut cursor: Option<Value> = None;
        for page in 1..=50 {
            let params = cursor.take().map_or(json!({}), |c| json!({"cursor": c}));
            let Some(r) = c.req(method, params, &mut out).await else {
                break;
            };
            let Some(result) = r.get("result") else {
                break;
            };
            if let Some(scope) = result.get("cacheScope") {
                scopes.push((page, scope.clone()));
            }
            match result.get("nextCursor") {
                Some(next @ Value::String(_)) => cursor = Some(next.clone()),
                _ => break,
            }
        }
        if let Some((_, first)) = scopes.first()
            && let Some((page, other)) = scopes.iter().find(|(_, s)| s != first)
        {
            out.push(c.broke(
                &clauses::CACHE_SCOPE_PAGES,
                format!("{method}: page 1 has cacheScope {first}, page {page} has {other}"),
            ));
        }
    }
    if walked {
        c.push_probe(ID, out);
    } else {
        c.skip_probe(ID, "the server declares no tools, resources or prompts");
    }
}
