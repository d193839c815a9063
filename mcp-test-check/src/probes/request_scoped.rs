//! `logging/request-scoped`: a 2026-07-28 server keeps log messages off `subscriptions/listen`
//! streams.
//!
//! How (Streamable HTTP): a `subscriptions/listen` for the list changes the server declares
//! (`listChanged`) is posted on a connection of its own and, once its first message came,
//! read while the tools the schema cases call (at most [`MAX_TOOLS`], each with its base case)
//! are called again in the session with `_meta["io.modelcontextprotocol/logLevel"]: "debug"`,
//! and [`SETTLE`] after; then the stream is dropped. A `notifications/message` on the listen
//! stream breaks server/utilities/logging.mdx §Per-request log level: "the server **MUST
//! NOT** deliver it on a `subscriptions/listen` stream" ([`clauses::LOGGING_REQUEST_SCOPED`]).
//! A listen that is refused, or shows nothing within the timeout, is a note: there was no
//! stream to watch. Over stdio `check` keeps no long-lived request open.
//!
//! The listen stream is read by [`listen_while`], which `tasks/listen-no-progress`
//! (`super::tasks_listen`) shares.

use super::http_exchange::{Wire, base_calls, mirrored_json_headers};
use crate::Shown;
use crate::checker::{Note, Out, brief};
use crate::run::Run;
use bytes::Bytes;
use futures_util::future::LocalBoxFuture;
use http::Method;
use http_body_util::BodyExt;
use mcp_test::cases::shorten;
use mcp_test::client::HttpOptions;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::wire::meta_keys;
use serde_json::{Map, Value, json};
use std::cell::RefCell;
use std::future::Future;
use std::time::Duration;

pub(crate) const ID: &str = "logging/request-scoped";

/// The JSON-RPC id of the probe's listen request (the session numbers its own).
const LISTEN_ID: &str = "mcp-test-request-scoped";

/// At most this many tools are called while the stream is read.
const MAX_TOOLS: usize = 3;

/// How long a listen stream is still read after the work beside it is done.
pub(crate) const SETTLE: Duration = Duration::from_millis(500);

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let Some(http) = r.connection.http.clone() else {
            return;
        };
        let filter = list_changes(r.declared.as_ref());
        if filter.is_empty() {
            return r.c.skip_probe(
                ID,
                "the server declares no listChanged capability, so there is no subscriptions/listen stream to watch",
            );
        }
        let calls: Vec<(Value, Value)> = base_calls(r).into_iter().take(MAX_TOOLS).collect();
        if calls.is_empty() {
            return r
                .c
                .skip_probe(ID, "no tool that check calls has a base case");
        }
        let (_, mut listen) =
            r.c.session
                .body("subscriptions/listen", json!({"notifications": filter}));
        listen["id"] = json!(LISTEN_ID);
        let timeout = r.c.session.timeout;
        let c = &mut r.c;
        let called = &r.called;
        let work = async move {
            let mut ignored = Vec::new();
            for (tool, arguments) in calls {
                let params = json!({"name": tool["name"], "arguments": arguments,
                    "_meta": {meta_keys::LOG_LEVEL: "debug"}});
                let (id, body) = c.session.body("tools/call", params);
                called.record(&body);
                if c.send_unkept("tools/call", id, body, &mut ignored)
                    .await
                    .is_none()
                {
                    break;
                }
            }
        };
        let (heard, _) = listen_while(&http.url, &http.options, &listen, timeout, work).await;
        let shown = Some(Shown {
            method: format!("subscriptions/listen (id {LISTEN_ID:?})"),
            id: None,
        });
        let out: Out = judge(&heard)
            .into_iter()
            .map(|n| n.on(shown.clone()))
            .collect();
        r.c.push_probe(ID, out);
    })
}

/// The `notifications` filter of a listen for every list change `declared` (a server's
/// capabilities) declares.
fn list_changes(declared: Option<&Value>) -> Map<String, Value> {
    let mut filter = Map::new();
    for (capability, key) in [
        ("tools", "toolsListChanged"),
        ("prompts", "promptsListChanged"),
        ("resources", "resourcesListChanged"),
    ] {
        if declared.and_then(|d| d.pointer(&format!("/{capability}/listChanged")))
            == Some(&json!(true))
        {
            filter.insert(key.to_owned(), json!(true));
        }
    }
    filter
}

/// What a listen stream showed while other work ran beside it.
#[derive(Debug)]
pub(crate) enum Heard {
    /// The stream opened (its first message came), and these are all its messages.
    Open(Vec<Value>),
    /// It answered at once with these messages and no stream (a response first: an error,
    /// most likely); the work was not done.
    Refused(Vec<Value>),
    /// No message within the timeout, or no reply at all; the work was not done.
    Nothing(String),
}

/// POSTs `body` (a `subscriptions/listen`) with its mirrored headers on a connection of its
/// own. Once the first message of the reply came, `work` runs while the reply is read, and
/// the reading goes on [`SETTLE`] after it; then the connection is dropped, which ends the
/// stream on HTTP. Waits at most `timeout` for the first message; `None` for the work's
/// output when it did not run.
pub(crate) async fn listen_while<T>(
    url: &str,
    options: &HttpOptions,
    body: &Value,
    timeout: Duration,
    work: impl Future<Output = T>,
) -> (Heard, Option<T>) {
    let until = tokio::time::Instant::now() + timeout;
    let wire = match Wire::new(url, options, timeout) {
        Ok(wire) => wire,
        Err(e) => return (Heard::Nothing(e), None),
    };
    let bytes = Bytes::from(body.to_string());
    let headers = mirrored_json_headers(body);
    let (head, mut incoming) = match wire.head(Method::POST, headers, bytes, until).await {
        Ok(reply) => reply,
        Err(e) => return (Heard::Nothing(e), None),
    };
    let status = head.status;
    let mut bytes = Vec::new();
    // Up to the first message: the acknowledgment, or the answer that refuses the listen.
    loop {
        let messages = mcp_test::transport::sse::messages(&bytes);
        if let Some(first) = messages.first() {
            if first.get("method").is_none() {
                return (Heard::Refused(messages), None);
            }
            break;
        }
        match tokio::time::timeout_at(until, incoming.frame()).await {
            Err(_) => {
                return (
                    Heard::Nothing(format!("HTTP {status}, no message within {timeout:?}")),
                    None,
                );
            }
            Ok(None | Some(Err(_))) => {
                return (
                    Heard::Nothing(format!("HTTP {status}, the reply ended with no message")),
                    None,
                );
            }
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    bytes.extend_from_slice(&data);
                }
            }
        }
    }
    let sink = RefCell::new(bytes);
    let output = {
        let reading = async {
            while let Some(Ok(frame)) = incoming.frame().await {
                if let Ok(data) = frame.into_data() {
                    sink.borrow_mut().extend_from_slice(&data);
                }
            }
        };
        let working = async {
            let output = work.await;
            tokio::time::sleep(SETTLE).await;
            output
        };
        tokio::pin!(reading, working);
        let mut ended = false;
        loop {
            tokio::select! {
                () = &mut reading, if !ended => ended = true,
                output = &mut working => break output,
            }
        }
    };
    let messages = mcp_test::transport::sse::messages(&sink.into_inner());
    (Heard::Open(messages), Some(output))
}

/// The notifications of `methods` a listen stream carried, each breaking `clause` in the
/// words `says` gives it (the method and the notification's params, shortened); a note
/// when there was no stream to watch.
pub(crate) fn on_the_stream(
    heard: &Heard,
    methods: &[&str],
    clause: &Clause,
    says: impl Fn(&str, &str) -> String,
) -> Out {
    match heard {
        Heard::Open(messages) => messages
            .iter()
            .filter_map(|m| {
                let method = m.get("method").and_then(Value::as_str)?;
                let params = m.get("params").unwrap_or(&Value::Null).to_string();
                methods
                    .contains(&method)
                    .then(|| Note::broke(clause, says(method, &shorten(&params, 160))))
            })
            .collect(),
        Heard::Refused(messages) => vec![Note::info(format!(
            "subscriptions/listen was answered at once, with no stream to watch: {}",
            messages.first().map(brief).unwrap_or_default()
        ))],
        Heard::Nothing(why) => vec![Note::info(format!(
            "subscriptions/listen opened no stream to watch ({why})"
        ))],
    }
}

/// What the listen stream showed; see the [module docs](self).
fn judge(heard: &Heard) -> Out {
    on_the_stream(
        heard,
        &["notifications/message"],
        &clauses::LOGGING_REQUEST_SCOPED,
        |method, note| {
            format!(
                "the subscriptions/listen stream carried {method} while tools were called with a log level ({note}); log messages are request-scoped, and a server must not deliver them on a subscriptions/listen stream"
            )
        },
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::Severity;

    /// The acknowledgement opening a listen stream that asked for `notifications`.
    pub(crate) fn acknowledged(notifications: Value) -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {meta_keys::SUBSCRIPTION_ID: LISTEN_ID},
                "notifications": notifications}})
    }

    fn ack() -> Value {
        acknowledged(json!({"toolsListChanged": true}))
    }

    #[test]
    fn the_filter_asks_for_the_declared_list_changes() {
        let declared = json!({"tools": {"listChanged": true}, "prompts": {}, "logging": {}});
        let filter = list_changes(Some(&declared));
        assert_eq!(Value::Object(filter), json!({"toolsListChanged": true}));
        assert!(list_changes(None).is_empty());
    }

    #[test]
    fn a_stream_without_log_messages_is_no_finding() {
        let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
            "params": {"_meta": {meta_keys::SUBSCRIPTION_ID: LISTEN_ID}}});
        assert!(judge(&Heard::Open(vec![ack(), changed])).is_empty());
    }

    #[test]
    fn a_log_message_on_the_stream_breaks_the_clause() {
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "debug", "data": "calling"}});
        let notes = judge(&Heard::Open(vec![ack(), log]));
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].clause, Some(clauses::LOGGING_REQUEST_SCOPED));
        assert_eq!(notes[0].severity, Severity::Defect);
        assert!(
            notes[0].message.contains("must not"),
            "{}",
            notes[0].message
        );
    }

    #[test]
    fn no_stream_is_a_note() {
        let error = json!({"jsonrpc": "2.0", "id": LISTEN_ID,
            "error": {"code": -32601, "message": "Method not found"}});
        for heard in [
            Heard::Refused(vec![error]),
            Heard::Nothing("no message within 10s".to_owned()),
        ] {
            let notes = judge(&heard);
            assert_eq!(notes.len(), 1);
            assert_eq!(notes[0].severity, Severity::Info);
        }
    }

    /// A listen stream on a local server: its first message, then the work beside the
    /// stream, then what came while it ran.
    #[tokio::test]
    async fn the_stream_is_read_while_the_work_runs() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let (go, went) = tokio::sync::oneshot::channel::<()>();
        let (wrote, written) = tokio::sync::oneshot::channel::<()>();
        let server = async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut buf = vec![0u8; 4096];
            let _ = socket.read(&mut buf).await.unwrap();
            let event = |m: Value| format!("data: {m}\n\n");
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n";
            socket.write_all(head.as_bytes()).await.unwrap();
            socket.write_all(event(ack()).as_bytes()).await.unwrap();
            // The log message comes only once the work began.
            went.await.unwrap();
            let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "x"}});
            socket.write_all(event(log).as_bytes()).await.unwrap();
            wrote.send(()).unwrap();
            // Held open until the client drops it.
            let _ = socket.read(&mut buf).await;
        };
        let body = json!({"jsonrpc": "2.0", "id": LISTEN_ID, "method": "subscriptions/listen",
            "params": {"notifications": {"toolsListChanged": true}}});
        let options = HttpOptions::default();
        let client = listen_while(&url, &options, &body, Duration::from_secs(10), async move {
            go.send(()).unwrap();
            written.await.unwrap();
            7
        });
        let ((heard, output), ()) = tokio::join!(client, server);
        assert_eq!(output, Some(7));
        let notes = judge(&heard);
        assert_eq!(notes.len(), 1, "{heard:?}");
        assert_eq!(notes[0].severity, Severity::Defect);
    }
}
