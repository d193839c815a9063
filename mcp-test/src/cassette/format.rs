//! The cassette file: JSON Lines, a [`Header`] first, then one [`Entry`] a line; reading one
//! back with the line of each entry ([`Cassette`]), writing one a line at a time
//! ([`CassetteWriter`]), and the marks of what is volatile in an entry ([`volatile_pointers`]).

use super::diff::escape;
use super::error::CassetteError;
use crate::testing::DEFAULT_REDACTIONS;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The version of the cassette format this crate writes and reads ([`Header::format`]).
pub const FORMAT_VERSION: u64 = 1;

/// The value a secret header is written as: its name is kept, its value never written.
pub const REDACTED: &str = "[redacted]";

/// The first line of a cassette: what was recorded, when, and in which version of the format.
///
/// ```
/// use mcp_test::cassette::Header;
/// let header: Header = serde_json::from_str(
///     r#"{"mcpTestCassette": 1, "era": "2026-07-28", "target": "demo", "recordedAt": "2026-12-01T10:00:00.000Z"}"#,
/// ).unwrap();
/// assert_eq!(header.format, 1);
/// assert_eq!(header.era.as_deref(), Some("2026-07-28"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Header {
    /// The format version ([`FORMAT_VERSION`]); a reader refuses a newer one.
    #[serde(rename = "mcpTestCassette")]
    pub format: u64,
    /// The protocol era of the session: `"2026-07-28"`, or `"2025-11-25"` when it began with
    /// `initialize`. `None` when nothing was recorded.
    #[serde(default)]
    pub era: Option<String>,
    /// The target recorded: its command line, URL, or name in process.
    pub target: String,
    /// When the recording began (ISO 8601, UTC).
    #[serde(rename = "recordedAt")]
    pub recorded_at: String,
    /// The extra HTTP headers sent to the target, secret ones as [`REDACTED`].
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
}

/// A request the server sent to the client while a client request was in flight (a 2025-era
/// `elicitation/create`, `sampling/createMessage`, `roots/list`), with the client's answer.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ServerRequest {
    /// The server's request.
    pub request: Value,
    /// The client's answer, when it came.
    pub response: Option<Value>,
}

/// One exchange: a client message, what the server sent while it was answered, and the
/// answer. A line with no `request` holds server notifications that came while no request was
/// in flight (kept for the record; neither replayed nor served).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Entry {
    /// The client's message: a request, or a notification (then `response` is `None`).
    pub request: Option<Value>,
    /// The server's own requests while this one was answered, with the client's answers.
    #[serde(
        default,
        rename = "serverRequests",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub server_requests: Vec<ServerRequest>,
    /// The notifications the server sent while this request was answered, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notifications: Vec<Value>,
    /// The server's response.
    pub response: Option<Value>,
    /// JSON pointers into this line of the values that differ from run to run (ids,
    /// `requestState`, task ids, timestamps, server info: [`volatile_pointers`]). They are
    /// marked, not frozen: a replay compares around them and carries them forward.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volatile: Vec<String>,
}

impl Entry {
    /// The method of the client's message, when it has one.
    pub fn method(&self) -> Option<&str> {
        self.request.as_ref()?.get("method")?.as_str()
    }

    /// Whether the client's message is a request (it has an id), not a notification.
    pub fn is_request(&self) -> bool {
        self.request.as_ref().is_some_and(|r| r.get("id").is_some())
    }

    /// The entry with its [`volatile`](Entry::volatile) marks computed from its messages.
    #[must_use]
    pub fn marked(mut self) -> Self {
        self.volatile = Vec::new();
        let whole = serde_json::to_value(&self).expect("an entry encodes");
        self.volatile = volatile_pointers(&whole);
        self
    }
}

/// Object keys whose values are volatile wherever they appear: opaque state, task handles,
/// progress tokens and timestamps.
const VOLATILE_KEYS: &[&str] = &[
    "requestState",
    "taskId",
    "progressToken",
    "createdAt",
    "lastUpdatedAt",
    "timestamp",
];

/// The JSON pointers of the volatile values of an entry (as its JSON object): in each of its
/// messages, the places of the snapshots' [`DEFAULT_REDACTIONS`] (the id, `requestState`,
/// server info, task ids and timestamps) that hold a value, and every value, at any depth,
/// under a key named `requestState`, `taskId`, `progressToken`, `createdAt`, `lastUpdatedAt`
/// or `timestamp`.
///
/// ```
/// use mcp_test::cassette::volatile_pointers;
/// use serde_json::json;
/// let line = json!({
///     "request": {"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"taskId": "t-9"}},
///     "response": {"jsonrpc": "2.0", "id": 3, "result": {"taskId": "t-9", "status": "working"}},
/// });
/// assert_eq!(volatile_pointers(&line), [
///     "/request/id", "/request/params/taskId", "/response/id", "/response/result/taskId",
/// ]);
/// ```
pub fn volatile_pointers(line: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut messages: Vec<(String, &Value)> = Vec::new();
    for key in ["request", "response"] {
        if let Some(message) = line.get(key) {
            messages.push((format!("/{key}"), message));
        }
    }
    if let Some(Value::Array(notes)) = line.get("notifications") {
        for (i, note) in notes.iter().enumerate() {
            messages.push((format!("/notifications/{i}"), note));
        }
    }
    if let Some(Value::Array(asked)) = line.get("serverRequests") {
        for (i, pair) in asked.iter().enumerate() {
            for key in ["request", "response"] {
                if let Some(message) = pair.get(key) {
                    messages.push((format!("/serverRequests/{i}/{key}"), message));
                }
            }
        }
    }
    for (prefix, message) in messages {
        let mut found = Vec::new();
        for rule in DEFAULT_REDACTIONS {
            let keys = rule.keys();
            if keys
                .iter()
                .try_fold(message, |value, key| value.get(*key))
                .is_some()
            {
                let mut pointer = prefix.clone();
                for key in keys {
                    pointer.push('/');
                    pointer.push_str(&escape(key));
                }
                found.push(pointer);
            }
        }
        keyed(message, &prefix, &mut found);
        found.sort();
        found.dedup();
        // A mark under another (a task id inside volatile server info) adds nothing.
        let covered: Vec<String> = found
            .iter()
            .filter(|p| {
                found
                    .iter()
                    .any(|q| q != *p && p.starts_with(&format!("{q}/")))
            })
            .cloned()
            .collect();
        found.retain(|p| !covered.contains(p));
        out.extend(found);
    }
    out
}

fn keyed(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let pointer = format!("{at}/{}", escape(key));
                if VOLATILE_KEYS.contains(&key.as_str()) {
                    out.push(pointer);
                } else {
                    keyed(inner, &pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                keyed(inner, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Whether a header's value is a secret, never written: `Authorization`, `Proxy-Authorization`,
/// `Cookie`, `Set-Cookie`, and any header whose name says token, key, secret, password,
/// session or auth.
///
/// ```
/// use mcp_test::cassette::is_secret_header;
/// assert!(is_secret_header("Authorization"));
/// assert!(is_secret_header("X-Api-Key"));
/// assert!(is_secret_header("x-github-token"));
/// assert!(!is_secret_header("Accept"));
/// ```
pub fn is_secret_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [
        "cookie", "token", "key", "secret", "password", "session", "auth",
    ]
    .iter()
    .any(|word| name.contains(word))
}

/// `headers` as a cassette writes them: every name kept, a secret's value ([`is_secret_header`])
/// replaced with [`REDACTED`].
pub fn redact_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> BTreeMap<String, String> {
    headers
        .into_iter()
        .map(|(name, value)| {
            let value = if is_secret_header(name) {
                REDACTED
            } else {
                value
            };
            (name.to_owned(), value.to_owned())
        })
        .collect()
}

/// One entry of a [`Cassette`] with the line of the file it was read from (1-based).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Recorded {
    /// The line of the cassette.
    pub line: usize,
    /// The entry.
    pub entry: Entry,
}

/// A cassette read back: its header and its entries, each with its line.
///
/// ```
/// use mcp_test::cassette::Cassette;
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "era": "2026-07-28", "target": "demo", "recordedAt": "2026-12-01T10:00:00.000Z"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "ping"}, "response": {"jsonrpc": "2.0", "id": 1, "result": {}}}"#, "\n",
/// );
/// let cassette = Cassette::parse(text, "inline").unwrap();
/// assert_eq!(cassette.entries[0].line, 2);
/// assert_eq!(cassette.entries[0].entry.method(), Some("ping"));
///
/// // Bad input names the line and what is wrong there.
/// let err = Cassette::parse("{\"mcpTestCassette\": 1}\n", "inline").unwrap_err();
/// assert!(err.to_string().contains("inline:1"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Cassette {
    /// Where it was read from (a path, or a name given to [`Cassette::parse`]).
    pub source: String,
    /// Its first line.
    pub header: Header,
    /// The entries, in the order recorded.
    pub entries: Vec<Recorded>,
}

impl Cassette {
    /// Reads the cassette at `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<Cassette, CassetteError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| CassetteError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Cassette::parse(&text, &path.display().to_string())
    }

    /// Reads a cassette from its text; `source` names it in errors. Blank lines are skipped.
    pub fn parse(text: &str, source: &str) -> Result<Cassette, CassetteError> {
        let bad = |line: usize, message: String| CassetteError::Format {
            source_name: source.to_owned(),
            line,
            message,
        };
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        let Some((first, header_text)) = lines.next() else {
            return Err(bad(1, "the file is empty: no header line".to_owned()));
        };
        let header_value: Value = serde_json::from_str(header_text)
            .map_err(|e| bad(first, format!("the header is not JSON: {e}")))?;
        let header: Header = serde_json::from_value(header_value)
            .map_err(|e| bad(first, format!("not a cassette header: {e}")))?;
        if header.format > FORMAT_VERSION {
            return Err(bad(
                first,
                format!(
                    "format version {} is newer than this mcp-test reads ({FORMAT_VERSION})",
                    header.format
                ),
            ));
        }
        let mut entries = Vec::new();
        for (line, text) in lines {
            let value: Value =
                serde_json::from_str(text).map_err(|e| bad(line, format!("not JSON: {e}")))?;
            let entry: Entry = serde_json::from_value(value)
                .map_err(|e| bad(line, format!("not a cassette entry: {e}")))?;
            if let Some(request) = &entry.request
                && request.get("method").and_then(Value::as_str).is_none()
            {
                return Err(bad(line, "/request has no method".to_owned()));
            }
            entries.push(Recorded { line, entry });
        }
        Ok(Cassette {
            source: source.to_owned(),
            header,
            entries,
        })
    }
}

/// Writes a cassette a line at a time, each flushed as it is written, so a session cut short
/// keeps every exchange up to the cut. The header goes first, written with the first entry
/// (its era read from that entry's method: `initialize` begins a 2025-11-25 session) or by
/// [`finish`](CassetteWriter::finish). Cloning shares the file.
#[derive(Clone)]
pub struct CassetteWriter {
    inner: Arc<Mutex<WriterState>>,
}

struct WriterState {
    out: Box<dyn Write + Send>,
    header: Option<Header>,
    path: PathBuf,
    /// For [`CassetteWriter::create_replacing`]: the file written until the recording
    /// finishes, then moved over `path`; `None` once moved or for another writer.
    pending: Option<PathBuf>,
    /// Whether a write failed: such a recording never replaces the cassette.
    failed: bool,
    /// Whether a replacing recording was moved over the cassette: nothing more is written.
    finished: bool,
}

/// Tells apart the files of several recordings of one process.
static NEXT_PENDING: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Where a recording that replaces `path` is written until it finishes: beside it (the same
/// file system, so the move is atomic), hidden, named by the process and a count.
fn pending_file(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "cassette".into(), |n| n.to_string_lossy().into_owned());
    let n = NEXT_PENDING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}-{n}.recording", std::process::id()))
}

/// Writes `bytes` to `path` as one change: to a file beside it, then moved over it, so a
/// reader sees the old file or the new one whole, never a part.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CassetteError> {
    let pending = pending_file(path);
    let io = |source| CassetteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let written = std::fs::write(&pending, bytes).and_then(|()| std::fs::rename(&pending, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&pending);
    }
    written.map_err(io)
}

impl std::fmt::Debug for CassetteWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = lock(&self.inner);
        f.debug_struct("CassetteWriter")
            .field("path", &state.path)
            .finish_non_exhaustive()
    }
}

impl CassetteWriter {
    /// Creates (or truncates) the file at `path` for a recording of `target` (its label),
    /// sent with `headers` (written redacted, [`redact_headers`]). Every line is in the file
    /// as soon as it is written, so a recording stopped at any moment (`mcp-test record`
    /// until Ctrl-C) keeps what it saw; a reader of `path` meanwhile sees a part of it.
    /// [`CassetteWriter::create_replacing`] leaves `path` as it was until the end.
    pub fn create(
        path: impl AsRef<Path>,
        target: &str,
        headers: BTreeMap<String, String>,
    ) -> Result<CassetteWriter, CassetteError> {
        let path = path.as_ref().to_path_buf();
        let file = std::fs::File::create(&path).map_err(|source| CassetteError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(CassetteWriter::to_writer(
            Box::new(std::io::BufWriter::new(file)),
            &path,
            target,
            headers,
        ))
    }

    /// A recording that replaces the cassette at `path` only once it is complete: written to
    /// a hidden file beside it, moved over `path` in one step by
    /// [`finish`](CassetteWriter::finish) (or when the last clone is dropped, unless a panic
    /// is unwinding or a write failed, which leave `path` as it was and remove the partial
    /// file). So a test that replays `path` while another re-records it (`cargo test --
    /// --include-ignored`) reads the old cassette or the new one whole, never a truncated one.
    ///
    /// ```
    /// use mcp_test::cassette::CassetteWriter;
    /// let dir = std::env::temp_dir().join(format!("cassette-replacing-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("session.jsonl");
    /// std::fs::write(&path, "the old cassette\n").unwrap();
    /// let writer = CassetteWriter::create_replacing(&path, "demo", Default::default()).unwrap();
    /// assert_eq!(std::fs::read_to_string(&path).unwrap(), "the old cassette\n");
    /// writer.finish().unwrap();
    /// assert!(std::fs::read_to_string(&path).unwrap().contains("mcpTestCassette"));
    /// assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "nothing left beside it");
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn create_replacing(
        path: impl AsRef<Path>,
        target: &str,
        headers: BTreeMap<String, String>,
    ) -> Result<CassetteWriter, CassetteError> {
        let path = path.as_ref().to_path_buf();
        let pending = pending_file(&path);
        let file = std::fs::File::create(&pending).map_err(|source| CassetteError::Io {
            path: path.clone(),
            source,
        })?;
        let writer = CassetteWriter::to_writer(
            Box::new(std::io::BufWriter::new(file)),
            &path,
            target,
            headers,
        );
        lock(&writer.inner).pending = Some(pending);
        Ok(writer)
    }

    /// A writer onto any `out`; `path` names it in errors.
    pub fn to_writer(
        out: Box<dyn Write + Send>,
        path: &Path,
        target: &str,
        headers: BTreeMap<String, String>,
    ) -> CassetteWriter {
        let header = Header {
            format: FORMAT_VERSION,
            era: None,
            target: target.to_owned(),
            recorded_at: crate::tasks::iso8601(std::time::SystemTime::now()),
            headers: redact_headers(headers.iter().map(|(n, v)| (n.as_str(), v.as_str()))),
        };
        CassetteWriter {
            inner: Arc::new(Mutex::new(WriterState {
                out,
                header: Some(header),
                path: path.to_path_buf(),
                pending: None,
                failed: false,
                finished: false,
            })),
        }
    }

    /// Writes `entry` (marking its volatile values) as one line.
    pub fn write(&self, entry: Entry) -> Result<(), CassetteError> {
        let entry = entry.marked();
        let mut state = lock(&self.inner);
        if let Some(mut header) = state.header.take() {
            if header.era.is_none() {
                header.era = entry.method().map(|m| {
                    if m == "initialize" {
                        crate::wire::Era::Legacy.revision().to_owned()
                    } else {
                        crate::wire::Era::Current.revision().to_owned()
                    }
                });
            }
            let line = serde_json::to_string(&header).expect("a header encodes");
            state.line(&line)?;
        }
        let line = serde_json::to_string(&entry).expect("an entry encodes");
        state.line(&line)
    }

    /// Writes the header when no entry did, and flushes; a writer of
    /// [`create_replacing`](CassetteWriter::create_replacing) then moves the recording over
    /// the cassette. Writing after it is an error for such a writer.
    pub fn finish(&self) -> Result<(), CassetteError> {
        let mut state = lock(&self.inner);
        if let Some(header) = state.header.take() {
            let line = serde_json::to_string(&header).expect("a header encodes");
            state.line(&line)?;
        }
        state.commit()
    }
}

impl Drop for WriterState {
    /// A replacing recording not finished: moved over the cassette when it ended normally,
    /// removed when a panic is unwinding or a write failed.
    fn drop(&mut self) {
        if self.pending.is_none() {
            return;
        }
        if std::thread::panicking() || self.failed {
            if let Some(pending) = self.pending.take() {
                let _ = std::fs::remove_file(pending);
            }
            return;
        }
        if let Some(header) = self.header.take() {
            let line = serde_json::to_string(&header).expect("a header encodes");
            let _ = self.line(&line);
        }
        if self.commit().is_err()
            && let Some(pending) = self.pending.take()
        {
            let _ = std::fs::remove_file(pending);
        }
    }
}

impl WriterState {
    fn line(&mut self, line: &str) -> Result<(), CassetteError> {
        let path = self.path.clone();
        if self.finished {
            return Err(CassetteError::Io {
                path,
                source: std::io::Error::other("the recording has finished"),
            });
        }
        let written = self
            .out
            .write_all(line.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"))
            .and_then(|()| self.out.flush());
        if written.is_err() {
            self.failed = true;
        }
        written.map_err(|source| CassetteError::Io { path, source })
    }

    /// Moves a replacing recording over the cassette (nothing for another writer).
    fn commit(&mut self) -> Result<(), CassetteError> {
        let Some(pending) = self.pending.take() else {
            return Ok(());
        };
        let path = self.path.clone();
        let moved = self
            .out
            .flush()
            .and_then(|()| std::fs::rename(&pending, &path));
        // Nothing is written after the move.
        self.out = Box::new(std::io::sink());
        self.finished = true;
        moved.map_err(|source| {
            let _ = std::fs::remove_file(&pending);
            CassetteError::Io { path, source }
        })
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn marks_cover_rounds_tasks_and_meta() {
        let entry = Entry {
            request: Some(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "t", "requestState": "abc", "_meta": {"progressToken": 5}}}),
            ),
            response: Some(json!({"jsonrpc": "2.0", "id": 2, "result": {
                "resultType": "task", "taskId": "x", "createdAt": "2026", "status": "working",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}}})),
            ..Entry::default()
        }
        .marked();
        assert_eq!(
            entry.volatile,
            [
                "/request/id",
                "/request/params/_meta/progressToken",
                "/request/params/requestState",
                "/response/id",
                "/response/result/_meta/io.modelcontextprotocol~1serverInfo",
                "/response/result/createdAt",
                "/response/result/taskId",
            ]
        );
    }

    #[test]
    fn a_newer_format_is_refused_with_its_line() {
        let text = "\n{\"mcpTestCassette\": 9, \"target\": \"t\", \"recordedAt\": \"x\"}\n";
        let err = Cassette::parse(text, "c.jsonl").unwrap_err().to_string();
        assert!(err.contains("c.jsonl:2") && err.contains("newer"), "{err}");
    }

    #[test]
    fn a_bad_entry_names_its_line() {
        let text = "{\"mcpTestCassette\": 1, \"target\": \"t\", \"recordedAt\": \"x\"}\n{\"request\": {\"id\": 1}}\n";
        let err = Cassette::parse(text, "c.jsonl").unwrap_err().to_string();
        assert!(
            err.contains("c.jsonl:2") && err.contains("/request"),
            "{err}"
        );
    }

    #[test]
    fn secrets_keep_their_names_only() {
        let written = redact_headers([
            ("Authorization", "Bearer s3cr3t"),
            ("X-Region", "eu"),
            ("Cookie", "a=b"),
        ]);
        assert_eq!(written["Authorization"], REDACTED);
        assert_eq!(written["Cookie"], REDACTED);
        assert_eq!(written["X-Region"], "eu");
    }
}
