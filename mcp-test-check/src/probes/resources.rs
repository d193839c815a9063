//! The resource probes, for a server that offers `resources`: `lists/resources/list`,
//! `lists/resources/templates/list`, `resources/contents` and `resources/not-found`.
//!
//! Both lists are paged and read twice (`super::lists`); a few listed resources are read and
//! their binary contents must be base64 (`super::content`). A URI that is none must be an
//! error; a missing resource -32602 (2026-07-28; a 2025-era server may answer -32002).
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`RESOURCES_LIST`](clauses::RESOURCES_LIST),
//! [`RESOURCE_BINARY_ENCODED`](clauses::RESOURCE_BINARY_ENCODED),
//! [`RESOURCE_NOT_FOUND`](clauses::RESOURCE_NOT_FOUND),
//! [`RESOURCE_NOT_FOUND_EMPTY`](clauses::RESOURCE_NOT_FOUND_EMPTY),
//! [`RESOURCE_VALIDATE_URIS`](clauses::RESOURCE_VALIDATE_URIS).

use super::lists::list_probe;
use crate::checker::{Checker, Note, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::{INVALID_PARAMS, RESOURCE_NOT_FOUND};
use serde_json::{Value, json};

/// The probes of the row, in the order they are recorded.
pub(crate) const IDS: [&str; 4] = [
    "lists/resources/list",
    "lists/resources/templates/list",
    CONTENTS,
    NOT_FOUND,
];
/// The probe of the contents of listed resources.
const CONTENTS: &str = "resources/contents";
/// The probe of a missing resource and of a URI that is none.
const NOT_FOUND: &str = "resources/not-found";

/// The row: the resource probes; the templates listed are kept for the completion probe.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        r.templates = resources(&mut r.c).await;
    })
}

/// The resource probes: the lists (resources, templates), reading listed resources and
/// their contents, a missing resource and a URI that is none. Returns the templates
/// listed (for the completion probe).
pub(crate) async fn resources(c: &mut Checker<'_>) -> Vec<Value> {
    let resources = list_probe(
        c,
        "resources/list",
        "resources",
        "uri",
        Some(&clauses::RESOURCES_LIST),
    )
    .await;
    // No clause makes a server with resources list templates: an error is a note, and
    // -32601 nothing.
    let templates = list_probe(
        c,
        "resources/templates/list",
        "resourceTemplates",
        "uriTemplate",
        None,
    )
    .await;
    let mut out = Vec::new();
    let mut contents = Vec::new();
    for res in resources.iter().take(10) {
        let Some(uri) = res.get("uri").and_then(Value::as_str) else {
            continue;
        };
        let Some(r) = c.req("resources/read", json!({"uri": uri}), &mut out).await else {
            continue;
        };
        match r.get("result") {
            // No clause says a listed resource must be readable by every client.
            None => out.push(c.info(format!(
                "reading the listed resource {uri} failed: {}",
                brief(&r)
            ))),
            Some(result) => {
                for m in super::content::blob_notes(uri, result) {
                    contents.push(c.broke(&clauses::RESOURCE_BINARY_ENCODED, m));
                }
            }
        }
    }
    c.push_probe(CONTENTS, contents);
    let garbage = json!({"uri": "mcp-test: not a uri"});
    let clause = &clauses::RESOURCE_VALIDATE_URIS;
    c.req_not_answered_with("result", "resources/read", garbage, &mut out, clause, |got| {
        format!(
            "reading \"mcp-test: not a uri\" (no valid URI) answered a result, not an error: {got}"
        )
    })
    .await;
    let missing = json!({"uri": "mcp-test://no/such/resource"});
    if let Some(r) = c.req("resources/read", missing, &mut out).await {
        // 2026-07-28: MUST -32602. 2025-11-25: SHOULD -32002, and -32602 is the code
        // a later revision settled on, so it is not held against a 2025-era server.
        let expected = if c.modern() {
            INVALID_PARAMS
        } else {
            RESOURCE_NOT_FOUND
        };
        match r.pointer("/error/code").and_then(Value::as_i64) {
            Some(code) if code == i64::from(INVALID_PARAMS) => {}
            Some(code) if code == i64::from(RESOURCE_NOT_FOUND) && !c.modern() => {}
            Some(code) => {
                // 2026-07-28 says MUST, 2025-11-25 SHOULD: the word is the level's.
                let clause = if c.modern() {
                    &clauses::RESOURCE_NOT_FOUND
                } else {
                    &clauses::LEGACY_RESOURCE_NOT_FOUND
                };
                let word = super::wording::keyword(clause.level);
                out.push(
                    Note::broke(
                        clause,
                        format!("a missing resource {word} be {expected}; got {code}"),
                    )
                    .on(c.last.clone()),
                );
            }
            None => {
                let empty = r
                    .pointer("/result/contents")
                    .and_then(Value::as_array)
                    .is_some_and(Vec::is_empty);
                let clause = if empty && c.modern() {
                    &clauses::RESOURCE_NOT_FOUND_EMPTY
                } else {
                    &clauses::RESOURCE_NOT_FOUND
                };
                out.push(c.broke(
                    clause,
                    format!(
                        "reading a missing resource answered a result, not {expected}: {}",
                        brief(&r)
                    ),
                ));
            }
        }
    }
    c.push_probe(NOT_FOUND, out);
    templates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use crate::probes::test_targets::Refusing;
    use mcp_test::cases::Era;
    use std::time::Duration;

    async fn not_found(era: Era) -> Vec<crate::Finding> {
        // Every `resources/read` is answered -32603.
        let server = Refusing {
            server: mcp_test::Server::builder("s", "1").build().expect("builds"),
            method: "resources/read",
            error: json!({"code": -32603, "message": "no"}),
        };
        let mut c = Checker::new(&server, era, Duration::from_secs(5));
        resources(&mut c).await;
        let probes = c.into_probes();
        let probe = probes
            .into_iter()
            .find(|p| p.name == NOT_FOUND)
            .expect("the probe ran");
        probe.findings
    }

    /// 2025-11-25 asks -32002 for a missing resource with SHOULD: a warning that says
    /// "should", never "must"; 2026-07-28 asks -32602 with MUST.
    #[tokio::test]
    async fn a_missing_resource_is_asked_for_at_its_revisions_level() {
        let legacy = not_found(Era::Legacy).await;
        assert_eq!(legacy.len(), 1, "{legacy:?}");
        assert_eq!(legacy[0].clause, Some(clauses::LEGACY_RESOURCE_NOT_FOUND));
        assert_eq!(legacy[0].severity, Severity::Warning);
        assert!(
            legacy[0].message.contains("should be -32002; got -32603"),
            "{}",
            legacy[0].message
        );
        assert!(!legacy[0].message.contains("must"), "{}", legacy[0].message);
        let current = not_found(Era::Current).await;
        assert_eq!(current.len(), 1, "{current:?}");
        assert_eq!(current[0].severity, Severity::Defect);
        assert!(
            current[0].message.contains("must be -32602; got -32603"),
            "{}",
            current[0].message
        );
    }
}
