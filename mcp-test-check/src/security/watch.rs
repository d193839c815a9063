//! What a check's session shows, watched as it goes: every answer read by the scanners
//! ([`scan_response`]), each definition remembered with the notifications and calls around
//! it, so that one that changes unannounced is a rug pull (`rug/changed-silently`,
//! `rug/changed-after-call`); and the first definitions of each list, the surface a fresh
//! session or a pin (`--pin`) is compared with ([`compare`]).

use super::rules::{CHANGED_AFTER_CALL, CHANGED_BETWEEN_SESSIONS, CHANGED_SILENTLY, PIN_CHANGED};
use super::text::escape;
use super::walk::{LISTS, scan_response};
use crate::{SecurityFinding, SecurityRule};
use mcp_test::cases::Era;
use mcp_test::surface::{ItemKind, Surface};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

/// One definition seen, with what had happened in the session when it was.
struct Seen {
    definition: Value,
    /// The list-changed notifications of its section seen by then.
    notified: usize,
    /// The `tools/call` requests sent by then.
    calls: usize,
}

#[derive(Default)]
struct State {
    era: Option<Era>,
    findings: Vec<SecurityFinding>,
    keys: HashSet<(&'static str, String, Option<String>, String)>,
    /// Each section's definitions, by id, as last seen.
    seen: BTreeMap<(&'static str, String), Seen>,
    /// The first definition of each item, in the order first seen, by section.
    first: BTreeMap<&'static str, Vec<Value>>,
    notified: BTreeMap<&'static str, usize>,
    calls: usize,
    /// The answers to read, with their requests: read once the session ends
    /// ([`Watch::take`]), so that reading costs the session no time.
    pending: Vec<(Value, Value)>,
}

/// How many answers a session keeps to read at its end, at most.
const MAX_PENDING: usize = 20_000;

impl State {
    fn add(&mut self, finding: SecurityFinding) {
        // One finding per rule, message kind, item and place: a tool called by many cases
        // that leaks the same way is one finding.
        let method = finding
            .source
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_owned();
        let key = (
            finding.rule.id,
            method,
            finding.subject.clone(),
            finding.pointer.clone(),
        );
        if self.keys.insert(key) {
            self.findings.push(finding);
        }
    }
}

/// The watcher of one session, shared by every sender of it (cheap to clone).
#[derive(Clone, Default)]
pub(crate) struct Watch(Arc<Mutex<State>>);

/// The list-changed notification of each section.
fn list_changed(member: &str) -> &'static str {
    match member {
        "tools" => "notifications/tools/list_changed",
        "prompts" => "notifications/prompts/list_changed",
        _ => "notifications/resources/list_changed",
    }
}

impl Watch {
    /// A watcher of a session in `era`.
    pub(crate) fn new(era: Option<Era>) -> Self {
        let watch = Watch::default();
        watch.state().era = era;
        watch
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads the handshake's result the target kept (`initialize` or `server/discover`).
    pub(crate) fn handshake(&self, method: &str, result: &Value) {
        self.state()
            .pending
            .push((json!({"method": method}), json!({"result": result})));
    }

    /// Reads one message sent (a request, a notification, a batch) and what came back.
    pub(crate) fn saw(&self, message: &Value, response: Option<&Value>, notifications: &[Value]) {
        let mut state = self.state();
        for n in notifications {
            if let Some(method) = n.get("method").and_then(Value::as_str) {
                for (_, member, _) in LISTS {
                    if method == list_changed(member) {
                        *state.notified.entry(member).or_default() += 1;
                    }
                }
            }
        }
        let requests: Vec<&Value> = match message {
            Value::Array(batch) => batch.iter().collect(),
            m => vec![m],
        };
        let responses: Vec<&Value> = match response {
            Some(Value::Array(batch)) => batch.iter().collect(),
            Some(r) => vec![r],
            None => Vec::new(),
        };
        for request in &requests {
            if request.get("method").and_then(Value::as_str) == Some("tools/call") {
                state.calls += 1;
            }
        }
        for response in responses {
            let Some(request) = requests
                .iter()
                .find(|r| r.get("id").is_some() && r.get("id") == response.get("id"))
                .or(requests.first().filter(|_| requests.len() == 1))
            else {
                continue;
            };
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            if state.pending.len() < MAX_PENDING {
                state.pending.push(((*request).clone(), response.clone()));
            }
            if let Some((_, member, id)) = LISTS.iter().find(|(m, _, _)| *m == method) {
                let items = response
                    .pointer(&format!("/result/{member}"))
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                for (i, item) in items.into_iter().enumerate() {
                    let Some(name) = item.get(*id).and_then(Value::as_str).map(str::to_owned)
                    else {
                        continue;
                    };
                    state.sighted(member, method, &name, item, i);
                }
            }
        }
    }

    /// The findings so far, and the first definitions of each list as a surface document.
    pub(crate) fn take(&self) -> (Vec<SecurityFinding>, Value) {
        let mut state = self.state();
        let era = state.era;
        for (request, response) in std::mem::take(&mut state.pending) {
            for f in scan_response(&request, &response, era) {
                state.add(f);
            }
        }
        let findings = std::mem::take(&mut state.findings);
        let mut surface = json!({});
        for (_, member, _) in LISTS {
            surface[member] = json!(state.first.get(member).cloned().unwrap_or_default());
        }
        (findings, surface)
    }
}

impl State {
    /// One item of a list answer: remembered, and held to how it was last seen.
    fn sighted(&mut self, member: &'static str, method: &str, name: &str, item: Value, i: usize) {
        let notified = self.notified.get(member).copied().unwrap_or(0);
        let key = (member, name.to_owned());
        let calls = self.calls;
        match self.seen.get_mut(&key) {
            None => {
                self.first.entry(member).or_default().push(item.clone());
                self.seen.insert(
                    key,
                    Seen {
                        definition: item,
                        notified,
                        calls,
                    },
                );
            }
            Some(seen) if seen.definition == item => {
                seen.notified = notified;
                seen.calls = calls;
            }
            Some(seen) => {
                let announced = notified > seen.notified;
                let called = calls > seen.calls;
                let old = std::mem::replace(&mut seen.definition, item.clone());
                seen.notified = notified;
                seen.calls = calls;
                if announced {
                    return;
                }
                let rule = if called {
                    &CHANGED_AFTER_CALL
                } else {
                    &CHANGED_SILENTLY
                };
                let what = changed_members(&old, &item);
                let era = self.era;
                self.add(SecurityFinding {
                    rule,
                    message: format!(
                        "{name:?} changed ({}) within the session{} with no {} notification",
                        what.join(", "),
                        if called { " after a tools/call" } else { "" },
                        list_changed(member)
                    ),
                    source: method.to_owned(),
                    subject: Some(name.to_owned()),
                    pointer: format!("/result/{member}/{i}"),
                    excerpt: excerpt_of(&old, &item),
                    decoded: None,
                    era,
                });
            }
        }
    }
}

/// The top-level members that differ between two definitions.
fn changed_members(old: &Value, new: &Value) -> Vec<String> {
    let mut keys: Vec<&String> = old
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys())
        .chain(new.as_object().into_iter().flat_map(|m| m.keys()))
        .collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| old.get(k.as_str()) != new.get(k.as_str()))
        .map(|k| k.to_owned())
        .collect()
}

/// What changed, shown: the description before and after, else the first member changed.
fn excerpt_of(old: &Value, new: &Value) -> String {
    let member = changed_members(old, new)
        .into_iter()
        .next()
        .unwrap_or_default();
    let show = |v: &Value| {
        let text = match v.get(&member) {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => "(absent)".to_owned(),
        };
        let short: String = text.chars().take(120).collect();
        escape(&short)
    };
    format!("{member}: {:?} -> {:?}", show(old), show(new))
}

/// The findings of `rule` for each definition of `before` that `after` holds changed: a
/// pin against the first session (`rug/pin-changed`), or the first session against a fresh
/// one (`rug/changed-between-sessions`). Items only one side has are no finding (a new tool
/// is not an approved one changed). `source` names where `after` was read.
pub(crate) fn compare(
    before: &Surface,
    after: &Surface,
    rule: &'static SecurityRule,
    source: &str,
    era: Option<Era>,
) -> Vec<SecurityFinding> {
    let mut before = before.clone();
    // Capabilities are no definition a model reads.
    before.capabilities = after.capabilities.clone();
    let drift = mcp_test::surface::diff(&before, after);
    let mut out: Vec<SecurityFinding> = Vec::new();
    for change in &drift.changes {
        let location = &change.location;
        let (member, id) = match location.kind {
            ItemKind::Tool => ("tools", "name"),
            ItemKind::Prompt => ("prompts", "name"),
            ItemKind::Resource => ("resources", "uri"),
            ItemKind::ResourceTemplate => ("resourceTemplates", "uriTemplate"),
            _ => continue,
        };
        let find = |s: &Surface| {
            let items: Vec<Value> = serde_json::to_value(s)
                .ok()
                .and_then(|v| v.get(member).cloned())
                .and_then(|v| v.as_array().cloned())
                .unwrap_or_default();
            items
                .into_iter()
                .find(|t| t.get(id).and_then(Value::as_str) == Some(location.item.as_str()))
        };
        let (Some(old), Some(new)) = (find(&before), find(after)) else {
            continue;
        };
        if old == new {
            continue;
        }
        let how = if std::ptr::eq(rule, &PIN_CHANGED) {
            "since it was pinned"
        } else {
            "between two fresh sessions"
        };
        out.push(SecurityFinding {
            rule,
            message: format!(
                "{} {:?} changed {how}: {}",
                location.kind.noun(),
                location.item,
                change.reason
            ),
            source: source.to_owned(),
            subject: Some(location.item.clone()),
            pointer: location.pointer.clone(),
            excerpt: excerpt_of(&old, &new),
            decoded: None,
            era,
        });
    }
    // One finding per item and place.
    let mut seen = HashSet::new();
    out.retain(|f| seen.insert((f.subject.clone(), f.pointer.clone())));
    out
}

/// The surface document of the first definitions a session listed ([`Watch::take`]).
pub(crate) fn surface_of(first: &Value) -> Option<Surface> {
    Surface::from_json(first).ok()
}

/// `rug/changed-between-sessions`, for the rule's list.
pub(crate) const BETWEEN: &SecurityRule = &CHANGED_BETWEEN_SESSIONS;
