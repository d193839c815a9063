//! `subscriptions/listen` (2026-07-28, Streamable HTTP), in the row that also runs
//! `cache-hints/pages` (`super::cache_hints`).
//!
//! A server that declares a `listChanged` capability is asked for those notifications; the
//! first message on the stream must be the acknowledgment carrying the subscription id, and
//! what follows within a short window must be of a requested type and carry the id. The
//! stream is read for a bounded time, then closed (which cancels the subscription). What the
//! stream showed is [`judge_listen`]'s, a pure function tested below.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`SCHEMA`](clauses::SCHEMA),
//! [`SUBSCRIPTION_ACK_FIRST`](clauses::SUBSCRIPTION_ACK_FIRST),
//! [`SUBSCRIPTION_ID_META`](clauses::SUBSCRIPTION_ID_META),
//! [`SUBSCRIPTION_REQUESTED_ONLY`](clauses::SUBSCRIPTION_REQUESTED_ONLY).

use super::http_exchange::read_messages;
use crate::Shown;
use crate::checker::{Checker, Note, Out};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec;
use mcp_test::spec::clauses;
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};
use std::time::Duration;

/// The probe's id.
pub(crate) const ID: &str = "subscriptions/listen";

/// How long a `subscriptions/listen` stream is read after its first message.
const AFTER_FIRST: Duration = Duration::from_millis(1500);

/// The row: [`subscriptions`], then the cache hints of pages.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        subscriptions(&mut r.c, r.declared.as_ref()).await;
        super::cache_hints::cache_pages(&mut r.c, r.declared.as_ref()).await;
    })
}

/// The probe `subscriptions/listen`.
pub(crate) async fn subscriptions(c: &mut Checker<'_>, declared: Option<&Value>) {
    if !c.modern() {
        return c.skip_probe(
            ID,
            "a 2025-era server: subscriptions/listen is 2026-07-28's",
        );
    }
    let listed = |capability: &str| {
        declared
            .and_then(|d| d.pointer(&format!("/{capability}/listChanged")))
            .and_then(Value::as_bool)
            == Some(true)
    };
    let mut filter = serde_json::Map::new();
    for (capability, key) in [
        ("tools", "toolsListChanged"),
        ("prompts", "promptsListChanged"),
        ("resources", "resourcesListChanged"),
    ] {
        if listed(capability) {
            filter.insert(key.to_owned(), json!(true));
        }
    }
    if filter.is_empty() {
        return c.skip_probe(ID, "the server declares no listChanged capability");
    }
    if let Some(mcp_test::target::HttpEndpoint { url, options, .. }) =
        c.session.target.connection().http
    {
        let (id, body) = c
            .session
            .body("subscriptions/listen", json!({"notifications": filter}));
        let on = Some(Shown {
            method: "subscriptions/listen".to_owned(),
            id: Some(id),
        });
        let read = read_messages(&url, &options, &body, c.session.timeout, AFTER_FIRST).await;
        let out = match read {
            Ok(messages) => {
                let seen = Listened {
                    silent: messages.is_empty(),
                    messages,
                };
                judge_listen(&seen, id, &Value::Object(filter))
            }
            Err(e) => vec![Note::info(format!(
                "subscriptions/listen could not be read: {e}"
            ))],
        };
        let out = out.into_iter().map(|n| n.on(on.clone())).collect();
        return c.push_probe(ID, out);
    }
    c.skip_probe(
        ID,
        "not reached over Streamable HTTP: over stdio check keeps no long-lived request open",
    );
}

/// What a `subscriptions/listen` stream showed in its window.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Listened {
    /// The messages, in order.
    pub(crate) messages: Vec<Value>,
    /// Whether the window closed before any message came.
    pub(crate) silent: bool,
}

/// The notification method each filter key asks for.
fn filtered(key: &str) -> Option<&'static str> {
    Some(match key {
        "toolsListChanged" => "notifications/tools/list_changed",
        "promptsListChanged" => "notifications/prompts/list_changed",
        "resourcesListChanged" => "notifications/resources/list_changed",
        "resourceSubscriptions" => "notifications/resources/updated",
        _ => return None,
    })
}

/// Judges what a listen request with id `id` and filter `filter` showed.
pub(crate) fn judge_listen(seen: &Listened, id: i64, filter: &Value) -> Out {
    let mut out = Vec::new();
    if seen.silent {
        out.push(Note::broke(
            &clauses::SUBSCRIPTION_ACK_FIRST,
            "no notifications/subscriptions/acknowledged came on the subscriptions/listen stream within the timeout",
        ));
        return out;
    }
    let asked: Vec<&str> = filter
        .as_object()
        .map(|f| {
            f.iter()
                .filter(|(_, v)| !v.is_null() && *v != &json!(false))
                .filter_map(|(k, _)| filtered(k))
                .collect()
        })
        .unwrap_or_default();
    let carries_id = |m: &Value| {
        m.pointer("/params/_meta")
            .and_then(|meta| meta.get(meta_keys::SUBSCRIPTION_ID))
            == Some(&json!(id))
    };
    let mut acknowledged = false;
    for m in &seen.messages {
        let method = m.get("method").and_then(Value::as_str);
        let Some(method) = method else {
            // The response ends the subscription: an error (-32601 from a server that does
            // not offer it is for the record), or a result, which must fit the schema.
            if m.get("error").is_some() {
                if !acknowledged {
                    out.push(Note::info(format!(
                        "the server declares listChanged, and subscriptions/listen answered an error: {}",
                        crate::brief(m)
                    )));
                }
            } else if let Err(e) = spec::check_response("subscriptions/listen", m) {
                out.push(Note::broke(
                    &clauses::SCHEMA,
                    format!("subscriptions/listen: {e}"),
                ));
            }
            break;
        };
        if !acknowledged {
            if method == "notifications/subscriptions/acknowledged" && carries_id(m) {
                acknowledged = true;
                if let Err(e) = spec::check("SubscriptionsAcknowledgedNotification", m) {
                    out.push(Note::broke(
                        &clauses::SCHEMA,
                        format!("the acknowledgment: {e}"),
                    ));
                }
                continue;
            }
            out.push(Note::broke(
                &clauses::SUBSCRIPTION_ACK_FIRST,
                format!(
                    "the first message on the subscriptions/listen stream (id {id}) is not notifications/subscriptions/acknowledged carrying the subscription id: {m}"
                ),
            ));
            acknowledged = true;
            continue;
        }
        if !asked.contains(&method) {
            out.push(Note::broke(
                &clauses::SUBSCRIPTION_REQUESTED_ONLY,
                format!("the subscription asked for {asked:?}, yet the stream carried {m}"),
            ));
        }
        if !carries_id(m) {
            out.push(Note::broke(
                &clauses::SUBSCRIPTION_ID_META,
                format!(
                    "a notification on the subscriptions/listen stream (id {id}) does not carry the subscription id in _meta: {m}"
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(out: &Out) -> Vec<Option<&str>> {
        out.iter().map(|n| n.clause.map(|c| c.id)).collect()
    }

    #[test]
    fn a_listen_stream_acknowledges_first_and_sends_only_what_was_asked() {
        let filter = json!({"toolsListChanged": true});
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                         "params": {"_meta": {meta_keys::SUBSCRIPTION_ID: 4}, "notifications": {"toolsListChanged": true}}});
        let tools = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                           "params": {"_meta": {meta_keys::SUBSCRIPTION_ID: 4}}});
        let prompts = json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed",
                             "params": {"_meta": {meta_keys::SUBSCRIPTION_ID: 4}}});
        let bare = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        let seen = |messages: Vec<Value>| Listened {
            messages,
            silent: false,
        };
        assert!(judge_listen(&seen(vec![ack.clone(), tools.clone()]), 4, &filter).is_empty());
        assert_eq!(
            ids(&judge_listen(&seen(vec![tools.clone()]), 4, &filter)),
            [Some("subscriptions/acknowledged-first")]
        );
        assert_eq!(
            ids(&judge_listen(
                &seen(vec![ack.clone(), prompts, bare]),
                4,
                &filter
            )),
            [
                Some("subscriptions/requested-only"),
                Some("subscriptions/id-in-meta")
            ]
        );
        let silent = Listened {
            messages: vec![],
            silent: true,
        };
        assert_eq!(
            ids(&judge_listen(&silent, 4, &filter)),
            [Some("subscriptions/acknowledged-first")]
        );
    }
}
