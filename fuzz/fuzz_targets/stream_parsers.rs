//! The stream parsers of the client on arbitrary bytes in arbitrary chunks: the NDJSON framing
//! of stdio (`transport::ndjson::LineReader`) and the SSE parser of Streamable HTTP
//! (`transport::sse::EventReader`). Neither panics; cutting the stream anywhere changes
//! nothing but how far into an over-long line or event the limit was seen; no line or event
//! kept is longer than the limit; and with no limit the SSE parser fed in chunks reads
//! exactly what it reads from the whole text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_test::transport::ndjson::{HEAD_BYTES, Line, LineReader};
use mcp_test::transport::sse::{Event, EventReader, EventTooLarge, events};

/// `body` cut into chunks whose lengths cycle through `cuts` (0 is a chunk of 1 byte).
fn chunks<'a>(body: &'a [u8], cuts: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = body;
    let mut i = 0;
    while !rest.is_empty() {
        let n = (usize::from(cuts[i % cuts.len()]) % 33 + 1).min(rest.len());
        out.push(&rest[..n]);
        rest = &rest[n..];
        i += 1;
    }
    out
}

fn lines(pieces: &[&[u8]], limit: usize) -> Vec<Line> {
    let mut reader = LineReader::new(limit);
    let mut out = Vec::new();
    for piece in pieces {
        reader.push(piece, &mut out);
    }
    reader.finish(&mut out);
    out
}

fn sse(pieces: &[&[u8]], limit: usize) -> Vec<Result<Event, EventTooLarge>> {
    let mut reader = EventReader::new(limit);
    let mut out = Vec::new();
    for piece in pieces {
        reader.push(piece, &mut out);
    }
    reader.finish(&mut out);
    out
}

/// A line with what depends on the chunking taken out.
fn shape(line: &Line) -> Result<&[u8], usize> {
    match line {
        Line::Complete(bytes) => Ok(bytes),
        Line::TooLong { limit, .. } => Err(*limit),
    }
}

fn event_shape(event: &Result<Event, EventTooLarge>) -> Result<&Event, usize> {
    event.as_ref().map_err(|e| e.limit)
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let limit = match data[0] {
        255 => usize::MAX,
        n => usize::from(n) * 3,
    };
    let cuts = &data[1..4];
    let body = &data[4..];
    let pieces = chunks(body, cuts);

    // NDJSON: one pass over the whole, one over the chunks.
    let whole = lines(&[body], limit);
    let chunked = lines(&pieces, limit);
    assert_eq!(
        whole.iter().map(shape).collect::<Vec<_>>(),
        chunked.iter().map(shape).collect::<Vec<_>>()
    );
    // Against the plain split at `\n`.
    let mut expected: Vec<&[u8]> = body.split(|b| *b == b'\n').collect();
    if expected.last().is_some_and(|l| l.is_empty()) {
        expected.pop();
    }
    assert_eq!(expected.len(), chunked.len());
    for (line, raw) in chunked.iter().zip(&expected) {
        match line {
            Line::Complete(bytes) => {
                assert!(bytes.len() <= limit);
                assert_eq!(bytes.as_slice(), *raw);
            }
            Line::TooLong { bytes, limit: l, head } => {
                assert_eq!(*l, limit);
                assert!(raw.len() > limit && *bytes > limit && *bytes <= raw.len());
                assert!(head.len() <= HEAD_BYTES && raw.starts_with(head));
            }
        }
    }

    // SSE: the same, and the chunked events of an unlimited reader are those of `events`.
    let whole = sse(&[body], limit);
    let chunked = sse(&pieces, limit);
    assert_eq!(
        whole.iter().map(event_shape).collect::<Vec<_>>(),
        chunked.iter().map(event_shape).collect::<Vec<_>>()
    );
    for event in chunked.iter().flatten() {
        let size = event.data.len()
            + event.event.as_ref().map_or(0, String::len)
            + event.id.as_ref().map_or(0, String::len);
        // Kept fields come from lines within the limit (the replacement of bytes that are
        // not UTF-8 may grow them: three bytes for one).
        assert!(size <= limit.saturating_mul(3));
    }
    let unlimited = sse(&pieces, usize::MAX);
    let text = String::from_utf8_lossy(body);
    assert_eq!(
        unlimited.into_iter().map(Result::unwrap).collect::<Vec<_>>(),
        events(&text)
    );
});
