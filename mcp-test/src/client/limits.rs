//! The client's limits on what it reads and keeps of a server (public as `client::DEFAULT_MAX_*`
//! and `client::MAX_*`), and the helpers its two transports share to quote a line, tell a
//! message nesting too deep and end an error with the tail of stderr. A leaf of `client`: it
//! imports nothing of it, so the transports reach these without going through the parent.

/// The longest message the client reads from a server unless told otherwise: 64 MiB, the
/// default of each limit below
/// ([`Client::with_max_message_bytes`](super::Client::with_max_message_bytes) sets them all).
/// The largest real MCP messages (base64 images, long resources) are a few MiB, so this is ten
/// times that, and a message at the limit costs a few times its size while it is parsed (its
/// bytes, its text, its JSON value): a test machine is not exhausted by it.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest line the client reads from a stdio server's stdout
/// ([`Client::with_max_line_bytes`](super::Client::with_max_line_bytes)):
/// [`DEFAULT_MAX_MESSAGE_BYTES`], since each line is one message. A longer line is read to its
/// end and never held (an endless line costs at most the limit), and the request waiting for it
/// fails with [`ClientError::TooLarge`](super::ClientError::TooLarge).
pub const DEFAULT_MAX_LINE_BYTES: usize = DEFAULT_MAX_MESSAGE_BYTES;

/// The longest SSE event the client reads from a Streamable HTTP reply
/// ([`Client::with_max_event_bytes`](super::Client::with_max_event_bytes)):
/// [`DEFAULT_MAX_MESSAGE_BYTES`], since each event holds one message. Comments (keep-alives) do
/// not count: they are skipped as they arrive.
pub const DEFAULT_MAX_EVENT_BYTES: usize = DEFAULT_MAX_MESSAGE_BYTES;

/// The most the client reads of one HTTP reply
/// ([`Client::with_max_response_bytes`](super::Client::with_max_response_bytes)): a JSON body
/// whole, or an SSE stream up to the response to the request, comments included:
/// [`DEFAULT_MAX_MESSAGE_BYTES`]. An SSE stream is read as it arrives and given up once the
/// response is in, so a stream the server never closes, or one of keep-alives only, is never
/// held whole: it ends at the response, this limit or the timeout, whichever comes first.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = DEFAULT_MAX_MESSAGE_BYTES;

/// How much of a stdio server's stderr the client keeps: the last 256 KiB, the part an error
/// report shows (a server that floods stderr is drained, never blocked, and never fills
/// memory).
pub const MAX_STDERR_BYTES: usize = 256 << 10;

/// How many transport events ([`Client::transport_events`](super::Client::transport_events))
/// and how many notifications per request the client keeps: 10,000 each. A server flooding
/// either is then reported by the ones kept; the rest are counted and dropped.
pub const MAX_KEPT_MESSAGES: usize = 10_000;

/// How many bytes of notifications the client keeps per request, and of the lines quoted by
/// transport events in all: 16 MiB each, so that a flood of large notifications costs at
/// most this much however many requests are in flight. A transport event quotes at most the
/// first [`MAX_QUOTED_BYTES`] of its line.
pub const MAX_KEPT_BYTES: usize = 16 << 20;

/// How much of a line a transport event or an error quotes: its first 1 KiB, then its length.
pub const MAX_QUOTED_BYTES: usize = 1024;

/// The last 4 KiB of a child's stderr, as a suffix for error messages.
#[cfg(feature = "client")]
pub(super) fn stderr_tail(stderr: &str) -> String {
    let stderr = stderr.trim_end();
    if stderr.is_empty() {
        return String::new();
    }
    let mut start = stderr.len().saturating_sub(4096);
    while !stderr.is_char_boundary(start) {
        start += 1;
    }
    format!("\n--- server stderr ---\n{}", &stderr[start..])
}

/// `line` as a transport event or an error quotes it: up to [`MAX_QUOTED_BYTES`], then how
/// long it was.
pub(crate) fn quoted(line: &str) -> String {
    if line.len() <= MAX_QUOTED_BYTES {
        return line.to_owned();
    }
    let mut end = MAX_QUOTED_BYTES;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &line[..end], line.len())
}

/// Whether `e`, from parsing a message, is serde_json's recursion limit
/// ([`MAX_JSON_DEPTH`](super::MAX_JSON_DEPTH)).
pub(crate) fn is_too_deep(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}
