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

use crate::Shown;
use crate::checker::{Checker, Note, Out};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec;
use mcp_test::spec::clauses;
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "subscriptions/listen";

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
        let out = match listen::read(&url, &options, &body, c.session.timeout).await {
            Ok(seen) => judge_listen(&seen, id, &Value::Object(filter)),
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

/// Reading a `subscriptions/listen` stream for a bounded time.
mod listen {
    use super::Listened;
    use bytes::Bytes;
    use http::HeaderValue;
    use http::header::{ACCEPT, CONTENT_TYPE};
    use http_body_util::{BodyExt, Full};
    use mcp_test::__check::HttpClient;
    use mcp_test::client::HttpOptions;
    use serde_json::Value;
    use std::time::Duration;
    use tokio::time::Instant;

    /// How long the stream is read after the first message.
    const AFTER_FIRST: Duration = Duration::from_millis(1500);

    /// POSTs `body` and reads the reply until it ends, or `timeout` passes with no message,
    /// or [`AFTER_FIRST`] after the first message; then drops the connection.
    pub(crate) async fn read(
        url: &str,
        options: &HttpOptions,
        body: &Value,
        timeout: Duration,
    ) -> Result<Listened, String> {
        let uri: http::Uri = url.parse().map_err(|e| format!("{url}: {e}"))?;
        let client = HttpClient::with_options(options).map_err(|e| e.to_string())?;
        let mut request = http::Request::new(Full::new(Bytes::from(body.to_string())));
        *request.method_mut() = http::Method::POST;
        *request.uri_mut() = uri;
        let headers = request.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(
            ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        for (name, value) in mcp_test::wire::build::mirrored_headers_for(body, &[]) {
            if let (Ok(name), Ok(value)) = (
                http::HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(&value),
            ) {
                headers.insert(name, value);
            }
        }
        let start = Instant::now();
        let response = tokio::time::timeout(timeout, client.send_raw(request))
            .await
            .map_err(|_| format!("no reply within {timeout:?}"))?
            .map_err(|e| e.to_string())?;
        let mut incoming = response.into_body();
        let mut bytes = Vec::new();
        let mut until = start + timeout;
        let mut first = false;
        loop {
            let frame = match tokio::time::timeout_at(until, incoming.frame()).await {
                Err(_) | Ok(None) => break,
                Ok(Some(Err(e))) => return Err(e.to_string()),
                Ok(Some(Ok(frame))) => frame,
            };
            if let Ok(data) = frame.into_data() {
                bytes.extend_from_slice(&data);
            }
            if !first && !mcp_test::transport::sse::messages(&bytes).is_empty() {
                first = true;
                until = until.min(Instant::now() + AFTER_FIRST);
            }
        }
        let messages = mcp_test::transport::sse::messages(&bytes);
        Ok(Listened {
            silent: messages.is_empty(),
            messages,
        })
    }
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
