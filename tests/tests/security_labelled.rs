//! The labelled set of the security rules (`tests/security/`): every positive, taken from a
//! published write-up, draws each rule it lists; no hard negative (other languages, emoji,
//! honest uses of "important" and "ignore case", a filesystem server's own read tool...)
//! draws any finding; and every rule that reads text has a positive, so none goes untested.
//! The rules a session shows (rug pulls) are tested end to end in
//! `security_check.rs`.

use mcp_test_check::SecurityFinding;
use mcp_test_check::security::{At, Place, RULES, scan_definition, scan_returned, scan_text};
use serde_json::Value;
use std::collections::BTreeSet;

/// The rules no single string shows: a session's changes.
const SESSION_RULES: &[&str] = &[
    "rug/changed-silently",
    "rug/changed-after-call",
    "rug/changed-between-sessions",
    "rug/pin-changed",
    // The exposure rules look at sockets and HTTP answers, not text: tests/tests/security_exposure.rs.
    "exposure/listens-beyond-loopback",
    "exposure/predictable-session-id",
    "exposure/credentials-in-url",
    "exposure/cors-credentials",
];

fn load(name: &str) -> Vec<Value> {
    let path = format!("{}/security/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    doc["items"].as_array().cloned().expect("an `items` array")
}

/// What the scanners find in one labelled item, read as its `kind` says.
fn scan(item: &Value) -> Vec<SecurityFinding> {
    let value = &item["value"];
    let at = |source| At {
        source,
        subject: None,
        era: None,
    };
    match item["kind"].as_str().expect("a kind") {
        "tool" => scan_definition(&at("tools/list"), value, "/tools/0"),
        "prompt" => scan_definition(&at("prompts/list"), value, "/prompts/0"),
        "resource" => scan_definition(&at("resources/list"), value, "/resources/0"),
        "instructions" => scan_definition(&at("initialize"), value, "/instructions"),
        "result" => scan_returned(&at("tools/call"), value, "/result", &[]),
        "error" => scan_returned(&at("tools/call"), value, "/error", &[]),
        "text" => scan_text(value.as_str().expect("a string"), Place::Definition)
            .into_iter()
            .map(|h| SecurityFinding {
                rule: h.rule,
                message: h.message,
                source: "text".into(),
                subject: None,
                pointer: String::new(),
                excerpt: h.excerpt,
                decoded: h.decoded,
                era: None,
            })
            .collect(),
        other => panic!("unknown kind {other}"),
    }
}

#[test]
fn every_positive_draws_each_rule_it_lists() {
    let items = load("positives.json");
    let mut missed = Vec::new();
    let mut found_rules = BTreeSet::new();
    let (mut expected_total, mut found_total) = (0, 0);
    for item in &items {
        let id = item["id"].as_str().unwrap_or("?");
        let found: BTreeSet<&str> = scan(item).iter().map(|f| f.rule.id).collect();
        for rule in item["expect"].as_array().expect("an `expect` list") {
            let rule = rule.as_str().expect("a rule id");
            assert!(RULES.iter().any(|r| r.id == rule), "{id}: no rule {rule}");
            expected_total += 1;
            if found.contains(rule) {
                found_total += 1;
                found_rules.insert(rule.to_owned());
            } else {
                missed.push(format!("{id}: {rule} not found (found {found:?})"));
            }
        }
    }
    eprintln!(
        "positives: {found_total}/{expected_total} expected rule hits found in {} items",
        items.len()
    );
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
    let untested: Vec<&str> = RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !SESSION_RULES.contains(id) && !found_rules.contains(*id))
        .collect();
    assert!(untested.is_empty(), "rules with no positive: {untested:?}");
}

#[test]
fn no_negative_draws_a_finding() {
    let items = load("negatives.json");
    let mut flagged = Vec::new();
    for item in &items {
        let id = item["id"].as_str().unwrap_or("?");
        for f in scan(item) {
            flagged.push(format!("{id}: {} {}: {}", f.rule.id, f.message, f.excerpt));
        }
    }
    eprintln!(
        "negatives: {} of {} items flagged",
        flagged.len(),
        items.len()
    );
    assert!(flagged.is_empty(), "flagged:\n{}", flagged.join("\n"));
}

#[test]
fn every_positive_lists_a_source_and_the_catalogue_names_each_rule_once() {
    for item in load("positives.json") {
        let source = item["source"].as_str().unwrap_or("");
        assert!(source.starts_with("https://"), "{}: no source", item["id"]);
    }
    let ids: BTreeSet<&str> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), RULES.len());
    for rule in RULES {
        assert!(rule.source.starts_with("https://"), "{}", rule.id);
    }
    for id in SESSION_RULES {
        assert!(ids.contains(id), "{id}");
    }
}
