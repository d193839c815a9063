//! The one Server-Sent Events parser of the crate: what a Streamable HTTP reply body holds,
//! read by the client, the checker and the in-process test router alike.
//!
//! It follows the event-stream format of the HTML standard: lines end in `\n`, `\r\n` or `\r`;
//! a line starting with `:` is a comment; `field: value` loses one space after the colon;
//! several `data` lines join with `\n`; a blank line ends the event, and an event without
//! `data` is dropped. Unlike a browser it also keeps an event the body ends in without a
//! blank line (a test reads whole bodies and the tail of a stream).
//!
//! [`EventReader`] parses a stream as it arrives, in chunks cut anywhere, and keeps no event
//! longer than its limit: an endless stream is never held whole, and an endless comment
//! (a keep-alive that never ends its line) costs nothing. [`events`] is the same parser over
//! a whole text.

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

/// An event longer than the limit of its [`EventReader`]: its lines are read and thrown away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventTooLarge {
    /// How many bytes of fields it had when it went over the limit (it has at least this many).
    pub bytes: usize,
    /// The limit.
    pub limit: usize,
}

impl std::fmt::Display for EventTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "an SSE event of at least {} bytes, over the limit of {} bytes",
            self.bytes, self.limit
        )
    }
}

impl std::error::Error for EventTooLarge {}

/// An incremental SSE parser: feed it the bytes of a stream as they come
/// ([`push`](Self::push)), in chunks cut anywhere (inside a line, between the `\r` and `\n`
/// of a line end, inside a UTF-8 sequence), and [`finish`](Self::finish) at the end. It
/// yields the same events as [`events`] over the whole text.
///
/// The fields of one event (its lines other than comments) may take at most `max_event_bytes`;
/// a longer event yields [`EventTooLarge`] as soon as it goes over, and the rest of it is read
/// to its end and thrown away. Comment lines are skipped as they arrive, however long.
///
/// ```
/// use mcp_test::transport::sse::{EventReader, EventTooLarge};
/// let mut reader = EventReader::new(16);
/// let mut got = Vec::new();
/// for chunk in [&b"data: {\"a\""[..], b":1}\r", b"\n\r\n: keep-alive\n", b"data: 0123456789", b"abcdef\n\n"] {
///     reader.push(chunk, &mut got);
/// }
/// reader.finish(&mut got);
/// assert_eq!(got.len(), 2);
/// assert_eq!(got[0].as_ref().unwrap().data, "{\"a\":1}");
/// assert_eq!(got[1], Err(EventTooLarge { bytes: 22, limit: 16 }));
/// ```
#[derive(Debug)]
pub struct EventReader {
    max_event: usize,
    /// The line being read, without its end (empty while `skipping`).
    line: Vec<u8>,
    /// Whether the line being read has any byte yet (an empty `line` may be a blank line).
    in_line: bool,
    /// The line being read is a comment, or does not fit: its bytes are not kept.
    skipping: bool,
    /// The last byte was a `\r`: a `\n` right after it ends no other line.
    after_cr: bool,
    current: Event,
    has_data: bool,
    /// Bytes of fields in the current event so far.
    size: usize,
    /// The current event went over the limit.
    over: bool,
    /// A line kept was not valid UTF-8.
    invalid_utf8: bool,
}

impl EventReader {
    /// A reader keeping no event longer than `max_event_bytes`.
    pub fn new(max_event_bytes: usize) -> Self {
        EventReader {
            max_event: max_event_bytes,
            line: Vec::new(),
            in_line: false,
            skipping: false,
            after_cr: false,
            current: Event::default(),
            has_data: false,
            size: 0,
            over: false,
            invalid_utf8: false,
        }
    }

    /// Reads `bytes`, appending each event they complete to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Result<Event, EventTooLarge>>) {
        let mut rest = bytes;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if let Some(stripped) = rest.strip_prefix(b"\n") {
                rest = stripped;
            }
        }
        while !rest.is_empty() {
            match rest.iter().position(|b| *b == b'\r' || *b == b'\n') {
                None => {
                    self.take(rest, out);
                    return;
                }
                Some(end) => {
                    self.take(&rest[..end], out);
                    let skip = if rest[end] == b'\r' {
                        match rest.get(end + 1) {
                            Some(b'\n') => 2,
                            Some(_) => 1,
                            None => {
                                self.after_cr = true;
                                1
                            }
                        }
                    } else {
                        1
                    };
                    rest = &rest[end + skip..];
                    self.end_line(out);
                }
            }
        }
    }

    /// Whether a line read so far (other than a comment or a line of an event over the limit)
    /// was not valid UTF-8: its invalid bytes were replaced with U+FFFD.
    pub fn invalid_utf8(&self) -> bool {
        self.invalid_utf8
    }

    /// Ends the stream: an event it ends in without a blank line is kept. The reader is then
    /// as new, but for [`invalid_utf8`](Self::invalid_utf8).
    pub fn finish(&mut self, out: &mut Vec<Result<Event, EventTooLarge>>) {
        if self.in_line {
            self.end_line(out);
        }
        self.dispatch(out);
        self.after_cr = false;
    }

    /// Part of a line.
    fn take(&mut self, part: &[u8], out: &mut Vec<Result<Event, EventTooLarge>>) {
        if part.is_empty() {
            return;
        }
        if !self.in_line {
            self.in_line = true;
            self.skipping = part[0] == b':';
        }
        if self.skipping {
            return;
        }
        self.size = self.size.saturating_add(part.len());
        if self.over || self.size > self.max_event {
            // Over the limit: said at once (an endless event is reported as soon as it goes
            // over), and nothing more of this event is kept.
            if !self.over {
                out.push(Err(EventTooLarge {
                    bytes: self.size,
                    limit: self.max_event,
                }));
            }
            self.over = true;
            self.skipping = true;
            self.line = Vec::new();
            return;
        }
        self.line.extend_from_slice(part);
    }

    fn end_line(&mut self, out: &mut Vec<Result<Event, EventTooLarge>>) {
        let was_line = std::mem::take(&mut self.in_line);
        let skipped = std::mem::take(&mut self.skipping);
        let line = std::mem::take(&mut self.line);
        if !was_line {
            // A blank line ends the event.
            self.dispatch(out);
            return;
        }
        if skipped {
            return;
        }
        if !self.invalid_utf8 && std::str::from_utf8(&line).is_err() {
            self.invalid_utf8 = true;
        }
        let line = String::from_utf8_lossy(&line);
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (&*line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.current.data.push('\n');
                }
                self.current.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.current.event = Some(value.to_owned()),
            "id" if !value.contains('\0') => self.current.id = Some(value.to_owned()),
            "retry" => {
                if let Ok(ms) = value.parse() {
                    self.current.retry = Some(ms);
                }
            }
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<Result<Event, EventTooLarge>>) {
        let event = std::mem::take(&mut self.current);
        let has_data = std::mem::take(&mut self.has_data);
        self.size = 0;
        if std::mem::take(&mut self.over) {
            // Said when it went over.
        } else if has_data {
            out.push(Ok(event));
        }
    }
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
    let mut reader = EventReader::new(usize::MAX);
    let mut out = Vec::new();
    reader.push(text.as_bytes(), &mut out);
    reader.finish(&mut out);
    out.into_iter().filter_map(Result::ok).collect()
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
    use crate::transport::{push_all, read_in_pieces};

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

    fn read(pieces: &[&[u8]], max: usize) -> Vec<Result<Event, EventTooLarge>> {
        let reader = EventReader::new(max);
        read_in_pieces(reader, pieces, EventReader::push, |mut r, out| {
            r.finish(out)
        })
    }

    #[test]
    fn every_cut_gives_the_same_events() {
        let text = ": ping\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: 012345678901234567890123456789012345678901234\n\n\rdata: x\r\rdata: tail";
        let whole = read(&[text.as_bytes()], 40);
        assert_eq!(whole.len(), 4, "{whole:?}");
        assert_eq!(
            whole[0].as_ref().map(|e| e.data.as_str()),
            Ok("{\"a\":\n1}")
        );
        assert!(matches!(whole[1], Err(EventTooLarge { limit: 40, .. })));
        assert_eq!(whole[3].as_ref().map(|e| e.data.as_str()), Ok("tail"));
        for cut in 0..=text.len() {
            let (a, b) = text.as_bytes().split_at(cut);
            let got = read(&[a, &[], b], 40);
            let shape = |v: &[Result<Event, EventTooLarge>]| -> Vec<Result<Event, usize>> {
                v.iter().map(|e| e.clone().map_err(|e| e.limit)).collect()
            };
            assert_eq!(shape(&got), shape(&whole), "cut at {cut}");
        }
        assert_eq!(
            read(&[text.as_bytes()], usize::MAX)
                .into_iter()
                .map(Result::unwrap)
                .collect::<Vec<_>>(),
            events(text)
        );
    }

    #[test]
    fn endless_comments_cost_nothing_and_bytes_not_utf8_are_seen() {
        let mut reader = EventReader::new(10);
        let endless = std::iter::repeat_n(&[b' '; 1000][..], 1000);
        let mut out = push_all(
            &mut reader,
            std::iter::once(&b":"[..]).chain(endless),
            EventReader::push,
        );
        assert!(out.is_empty() && reader.line.capacity() == 0);
        reader.push(b"\ndata: \xff\n\n", &mut out);
        assert!(reader.invalid_utf8());
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].as_ref().map(|e| e.data.as_str()), Ok("\u{fffd}"));
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
