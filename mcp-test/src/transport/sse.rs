//! The one Server-Sent Events parser of the crate: what a Streamable HTTP reply body holds,
//! read by the client, the checker and the in-process test router alike.
//!
//! It follows the event-stream format of the HTML standard: lines end in `\n`, `\r\n` or `\r`;
//! a line starting with `:` is a comment; `field: value` loses one space after the colon;
//! several `data` lines join with `\n`; a blank line ends the event, and an event without
//! `data` is dropped. Unlike a browser it also keeps an event the body ends in without a
//! blank line (a test reads whole bodies and the tail of a stream).

use serde_json::Value;

/// One event of a stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// The `event` field (`None`: the default type, `message`).
    pub event: Option<String>,
    /// The `data` lines, joined with `\n`.
    pub data: String,
    /// The `id` field.
    pub id: Option<String>,
    /// The `retry` field, in milliseconds, when it is a number.
    pub retry: Option<u64>,
}

/// Every event of `text` that carries data, in order.
///
/// ```
/// use mcp_test::transport::sse::events;
/// let text = ": keep-alive\r\nevent: message\r\nid: 7\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: tail";
/// let events = events(text);
/// assert_eq!(events.len(), 2);
/// assert_eq!(events[0].event.as_deref(), Some("message"));
/// assert_eq!(events[0].id.as_deref(), Some("7"));
/// assert_eq!(events[0].data, "{\"a\":\n1}");
/// assert_eq!(events[1].data, "tail");
/// ```
pub fn events(text: &str) -> Vec<Event> {
    let mut out = Vec::new();
    let mut current = Event::default();
    let mut has_data = false;
    for line in lines(text) {
        if line.is_empty() {
            dispatch(&mut current, &mut has_data, &mut out);
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if has_data {
                    current.data.push('\n');
                }
                current.data.push_str(value);
                has_data = true;
            }
            "event" => current.event = Some(value.to_owned()),
            "id" if !value.contains('\0') => current.id = Some(value.to_owned()),
            "retry" => {
                if let Ok(ms) = value.parse() {
                    current.retry = Some(ms);
                }
            }
            _ => {}
        }
    }
    dispatch(&mut current, &mut has_data, &mut out);
    out
}

fn dispatch(current: &mut Event, has_data: &mut bool, out: &mut Vec<Event>) {
    let event = std::mem::take(current);
    if std::mem::take(has_data) {
        out.push(event);
    }
}

/// The lines of `text`, split at `\r\n`, `\n` or a lone `\r`.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find(['\r', '\n']) {
            None => Some(std::mem::take(&mut rest)),
            Some(end) => {
                let line = &rest[..end];
                let skip = if rest[end..].starts_with("\r\n") {
                    2
                } else {
                    1
                };
                rest = &rest[end + skip..];
                Some(line)
            }
        }
    })
}

/// The JSON-RPC messages of an HTTP reply body: the body itself when it is JSON
/// (`application/json`), else the data of every SSE event that is JSON, in order
/// (notifications first, then the response). Events whose data is not JSON are skipped.
///
/// ```
/// use mcp_test::transport::sse::messages;
/// use serde_json::json;
/// assert_eq!(messages(br#"{"a": 1}"#), [json!({"a": 1})]);
/// let body = "event: message\ndata: {\"a\":1}\n\nevent: message\ndata: not json\n\ndata: {\"b\":2}\n\n";
/// assert_eq!(messages(body.as_bytes()), [json!({"a": 1}), json!({"b": 2})]);
/// ```
pub fn messages(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        return vec![value];
    }
    events(&text)
        .into_iter()
        .filter_map(|event| serde_json::from_str(&event.data).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_comments_and_fields() {
        let text = "data:no-space\r\rdata:  two spaces\n\n:comment\nevent\ndata\n\n";
        let got = events(text);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0].data, "no-space");
        assert_eq!(got[1].data, " two spaces");
        // A field name alone has an empty value.
        assert_eq!(got[2].event.as_deref(), Some(""));
        assert_eq!(got[2].data, "");
    }

    #[test]
    fn an_event_without_data_is_dropped_and_fields_do_not_leak() {
        let got = events("event: ping\nid: 1\n\ndata: x\n\n");
        assert_eq!(
            got,
            [Event {
                data: "x".into(),
                ..Event::default()
            }]
        );
        assert_eq!(events("retry: 50\ndata: y\n\n")[0].retry, Some(50));
        assert!(events("").is_empty());
        assert!(events("\n\n\n").is_empty());
    }
}
