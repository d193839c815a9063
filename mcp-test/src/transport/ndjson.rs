//! Newline-delimited framing, as the stdio client reads a server's stdout: lines cut at `\n`,
//! read as they arrive, none kept longer than a limit.
//!
//! [`LineReader`] takes the bytes of a stream in chunks cut anywhere and yields each line
//! whole (without its `\n`; a `\r` before it stays, for the reader of the line to trim), or,
//! for a line longer than its limit, only how long it was: such a line is read to its end
//! and never held, so a server that writes an endless line costs the client at most the limit.

/// How many of the first bytes of a line over the limit [`Line::TooLong`] keeps.
pub const HEAD_BYTES: usize = 256;

/// One line of a stream, as [`LineReader`] yields it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line within the limit, without its `\n`.
    Complete(Vec<u8>),
    /// A line longer than the limit, yielded as soon as it goes over (an endless line is
    /// reported at once); the rest of it, up to its `\n`, is skipped unseen.
    TooLong {
        /// How many bytes of it were read when it went over the limit (at least `limit + 1`).
        bytes: usize,
        /// The limit.
        limit: usize,
        /// Its first bytes (at most [`HEAD_BYTES`]), enough to find the id of a reply.
        head: Vec<u8>,
    },
}

/// An incremental line splitter with a limit per line.
///
/// ```
/// use mcp_test::transport::ndjson::{Line, LineReader};
/// let mut reader = LineReader::new(8);
/// let mut lines = Vec::new();
/// for chunk in [&b"{\"a\":"[..], b"1}\n0123456789", b"abc\n{}"] {
///     reader.push(chunk, &mut lines);
/// }
/// reader.finish(&mut lines);
/// assert_eq!(lines, [
///     Line::Complete(b"{\"a\":1}".to_vec()),
///     Line::TooLong { bytes: 10, limit: 8, head: b"0123456789".to_vec() },
///     Line::Complete(b"{}".to_vec()),
/// ]);
/// ```
#[derive(Debug)]
pub struct LineReader {
    max: usize,
    line: Vec<u8>,
    /// Bytes of the current line so far.
    len: usize,
    /// The current line was reported [`Line::TooLong`].
    reported: bool,
}

impl LineReader {
    /// A reader keeping no line longer than `max_line_bytes`.
    pub fn new(max_line_bytes: usize) -> Self {
        LineReader {
            max: max_line_bytes,
            line: Vec::new(),
            len: 0,
            reported: false,
        }
    }

    /// Reads `bytes`, appending each line they complete (or take over the limit) to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Line>) {
        let mut rest = bytes;
        loop {
            match rest.iter().position(|b| *b == b'\n') {
                None => {
                    self.take(rest, out);
                    return;
                }
                Some(end) => {
                    self.take(&rest[..end], out);
                    self.end(out);
                    rest = &rest[end + 1..];
                }
            }
        }
    }

    /// Ends the stream: a last line without its `\n` is yielded too.
    pub fn finish(mut self, out: &mut Vec<Line>) {
        if self.len > 0 {
            self.end(out);
        }
    }

    /// Keeps no line longer than `max_line_bytes` from now on (the line being read included).
    pub fn set_max_line_bytes(&mut self, max_line_bytes: usize) {
        self.max = max_line_bytes;
    }

    fn take(&mut self, part: &[u8], out: &mut Vec<Line>) {
        self.len = self.len.saturating_add(part.len());
        if self.reported {
            return;
        }
        if self.len > self.max {
            let mut head = std::mem::take(&mut self.line);
            head.truncate(HEAD_BYTES);
            head.shrink_to_fit();
            let more = HEAD_BYTES.saturating_sub(head.len()).min(part.len());
            head.extend_from_slice(&part[..more]);
            self.reported = true;
            out.push(Line::TooLong {
                bytes: self.len,
                limit: self.max,
                head,
            });
            return;
        }
        self.line.extend_from_slice(part);
    }

    fn end(&mut self, out: &mut Vec<Line>) {
        self.len = 0;
        if !std::mem::take(&mut self.reported) {
            out.push(Line::Complete(std::mem::take(&mut self.line)));
        }
    }
}

/// The lines of an async stream, one at a time: a [`LineReader`] fed from `reader` as it is
/// read, so no line longer than the limit is ever held.
///
/// ```
/// use mcp_test::transport::ndjson::{Line, Lines};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let mut lines = Lines::new(&b"{\"a\":1}\nlast"[..], 1024);
/// assert_eq!(lines.next_line().await, Some(Line::Complete(b"{\"a\":1}".to_vec())));
/// assert_eq!(lines.next_line().await, Some(Line::Complete(b"last".to_vec())));
/// assert_eq!(lines.next_line().await, None);
/// # }
/// ```
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    /// `None` once the stream ended.
    lines: Option<LineReader>,
    ready: std::collections::VecDeque<Line>,
    buf: Vec<u8>,
}

impl<R: tokio::io::AsyncRead + Unpin> Lines<R> {
    /// The lines of `reader`, none kept longer than `max_line_bytes`.
    pub fn new(reader: R, max_line_bytes: usize) -> Self {
        Lines {
            reader,
            lines: Some(LineReader::new(max_line_bytes)),
            ready: std::collections::VecDeque::new(),
            buf: vec![0; 64 * 1024],
        }
    }

    /// The next line; `None` at the end of the stream (a read error ends it too), after a
    /// last line without its `\n`.
    pub async fn next_line(&mut self) -> Option<Line> {
        use tokio::io::AsyncReadExt;
        loop {
            if let Some(line) = self.ready.pop_front() {
                return Some(line);
            }
            let lines = self.lines.as_mut()?;
            let n = self.reader.read(&mut self.buf).await.unwrap_or(0);
            let mut out = Vec::new();
            if n == 0 {
                if let Some(lines) = self.lines.take() {
                    lines.finish(&mut out);
                }
            } else {
                lines.push(&self.buf[..n], &mut out);
            }
            self.ready.extend(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{push_all, read_in_pieces};

    fn read(pieces: &[&[u8]], max: usize) -> Vec<Line> {
        let reader = LineReader::new(max);
        read_in_pieces(reader, pieces, LineReader::push, LineReader::finish)
    }

    #[test]
    fn every_cut_gives_the_same_lines() {
        let text = b"{\"a\":1}\n\n0123456789abcdef\r\n{}\ntail";
        let whole = read(&[text], 10);
        assert_eq!(whole.len(), 5, "{whole:?}");
        assert_eq!(whole[1], Line::Complete(Vec::new()));
        assert!(matches!(whole[2], Line::TooLong { limit: 10, .. }));
        assert_eq!(whole[4], Line::Complete(b"tail".to_vec()));
        for cut in 0..=text.len() {
            let (a, b) = text.split_at(cut);
            let got = read(&[a, b], 10);
            assert_eq!(got.len(), whole.len(), "cut at {cut}");
            for (g, w) in got.iter().zip(&whole) {
                match (g, w) {
                    (Line::TooLong { bytes, head, .. }, Line::TooLong { .. }) => {
                        assert!(*bytes > 10 && head.starts_with(b"0123456789"), "{g:?}");
                    }
                    _ => assert_eq!(g, w, "cut at {cut}"),
                }
            }
        }
    }

    #[test]
    fn an_endless_line_is_reported_once_as_it_goes_over_and_never_held() {
        let mut reader = LineReader::new(100);
        let endless = std::iter::repeat_n(&[b'a'; 1000][..], 1000);
        let pieces = std::iter::once(&b"{\"id\":7,"[..]).chain(endless);
        let mut out = push_all(&mut reader, pieces, LineReader::push);
        assert_eq!(out.len(), 1);
        match &out[0] {
            Line::TooLong { bytes, head, .. } => {
                assert_eq!(*bytes, 1008);
                assert_eq!(head.len(), HEAD_BYTES);
                assert!(head.starts_with(b"{\"id\":7,"));
            }
            other => panic!("{other:?}"),
        }
        assert!(reader.line.capacity() <= 1008, "{}", reader.line.capacity());
        reader.push(b"aa\n{}\n", &mut out);
        assert_eq!(out[1], Line::Complete(b"{}".to_vec()));
    }
}
