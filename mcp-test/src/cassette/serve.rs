//! A cassette as a server: each request answered from the recorded exchange it matches
//! ([`Matcher`]), under the live request's id, over newline-delimited JSON (stdio).

use super::format::Cassette;
use super::format::lock;
use super::matcher::{MatchMode, Matcher};
use crate::server::Caller;
use crate::target::{Exchange, Target, TargetFuture};
use crate::transport::ndjson::{Line, Lines};
use crate::wire::error_codes;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// The longest line a cassette server reads (4 MiB, the stdio transport's limit).
const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// How long a cassette server waits for the client's answer to a recorded server request
/// before it answers the client's request anyway.
pub const ANSWER_WAIT: Duration = Duration::from_secs(60);

/// What a cassette server sends for one client message.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Reply {
    /// The recorded notifications, in order, before the response (a progress token rewritten
    /// to the live request's).
    pub notifications: Vec<Value>,
    /// The recorded server requests (2025 era), each sent and its answer awaited before the
    /// response.
    pub server_requests: Vec<Value>,
    /// The response under the live request's id; `None` for a notification.
    pub response: Option<Value>,
}

/// Answers messages from a cassette: the responder of `mcp-test serve --cassette`.
///
/// - A request that matches a recorded one ([`Matcher`]: by default the protocol metadata a
///   client declares about itself tolerated, [`MatchMode`]) gets the recorded notifications,
///   server requests and response, the response under the live id (a 2025-11-25 session's
///   `initialize` too, as recorded).
/// - One that matches none gets a JSON-RPC error naming the closest recorded request
///   ([`Unmatched`](super::Unmatched): -32601 when its method was never recorded, -32602 when
///   its params differ). `ping` is answered `{}` when none was recorded.
/// - A notification or a response gets nothing.
///
/// ```
/// use mcp_test::cassette::{Cassette, Responder};
/// use serde_json::json;
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "target": "demo", "recordedAt": "x"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "#,
///     r#""response": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}"#, "\n",
/// );
/// let mut responder = Responder::new(&Cassette::parse(text, "demo.jsonl").unwrap());
/// let reply = responder.answer(&json!({"jsonrpc": "2.0", "id": "a", "method": "tools/list"}));
/// assert_eq!(reply.response.unwrap(), json!({"jsonrpc": "2.0", "id": "a", "result": {"tools": []}}));
/// let reply = responder.answer(&json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/list"}));
/// assert_eq!(reply.response.unwrap()["error"]["code"], -32601);
/// ```
#[derive(Clone, Debug)]
pub struct Responder {
    matcher: Matcher,
}

impl Responder {
    /// A responder for `cassette`, matching [`MatchMode::Tolerant`]ly.
    pub fn new(cassette: &Cassette) -> Responder {
        Responder::with_mode(cassette, MatchMode::default())
    }

    /// A responder for `cassette`, matching in `mode`.
    ///
    /// ```
    /// use mcp_test::cassette::{Cassette, MatchMode, Responder};
    /// use serde_json::json;
    /// let text = concat!(
    ///     r#"{"mcpTestCassette": 1, "target": "demo", "recordedAt": "x"}"#, "\n",
    ///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": "#,
    ///     r#"{"io.modelcontextprotocol/clientInfo": {"name": "recorder", "version": "1"}}}}, "#,
    ///     r#""response": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}"#, "\n",
    /// );
    /// let cassette = Cassette::parse(text, "demo.jsonl").unwrap();
    /// let asked = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta":
    ///     {"io.modelcontextprotocol/clientInfo": {"name": "another", "version": "2"}}}});
    /// let tolerant = Responder::new(&cassette).answer(&asked);
    /// assert!(tolerant.response.unwrap()["result"].is_object());
    /// let strict = Responder::with_mode(&cassette, MatchMode::Strict).answer(&asked);
    /// assert_eq!(strict.response.unwrap()["error"]["code"], -32602);
    /// ```
    pub fn with_mode(cassette: &Cassette, mode: MatchMode) -> Responder {
        Responder {
            matcher: Matcher::with_mode(cassette, mode),
        }
    }

    /// What to send for `message`.
    pub fn answer(&mut self, message: &Value) -> Reply {
        let (Some(id), Some(method)) = (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) else {
            return Reply::default();
        };
        let token = message
            .get("params")
            .and_then(|p| p.get("_meta")?.get("progressToken"))
            .cloned();
        match self.matcher.find(message) {
            Ok(recorded) => {
                let entry = &recorded.entry;
                let response = match &entry.response {
                    Some(response) => {
                        let mut response = response.clone();
                        response["id"] = id.clone();
                        response
                    }
                    None => error(
                        id,
                        error_codes::INTERNAL_ERROR,
                        &format!(
                            "the recording has no response for this `{method}` (line {}): the session ended before it came",
                            recorded.line
                        ),
                    ),
                };
                let notifications = entry
                    .notifications
                    .iter()
                    .map(|note| {
                        let mut note = note.clone();
                        if let (Some(token), Some(params)) = (&token, note.get_mut("params"))
                            && params.get("progressToken").is_some()
                        {
                            params["progressToken"] = token.clone();
                        }
                        note
                    })
                    .collect();
                Reply {
                    notifications,
                    server_requests: entry
                        .server_requests
                        .iter()
                        .map(|s| s.request.clone())
                        .collect(),
                    response: Some(response),
                }
            }
            Err(_) if method == "ping" => Reply {
                response: Some(json!({"jsonrpc": "2.0", "id": id, "result": {}})),
                ..Reply::default()
            },
            Err(unmatched) => Reply {
                response: Some(error(id, unmatched.code, &unmatched.message)),
                ..Reply::default()
            },
        }
    }
}

/// A cassette as a [`Target`]: each message answered by a [`Responder`], its recorded
/// notifications in the exchange. What `mcp-test serve --cassette FILE --http ADDR` serves
/// (through [`transport::http::relay`](crate::transport::http::relay), feature `http`), and
/// a mock server for a client's own tests in process. A 2025-era session's server requests
/// are not asked (a target has no way to ask): the recorded response answers at once.
///
/// ```
/// use mcp_test::cassette::{Cassette, CassetteTarget};
/// use mcp_test::target::Target;
/// use mcp_test::Caller;
/// use serde_json::json;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "target": "demo", "recordedAt": "x"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "#,
///     r#""response": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}"#, "\n",
/// );
/// let target = CassetteTarget::new(&Cassette::parse(text, "demo.jsonl").unwrap());
/// let asked = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list"});
/// let exchange = target.send(&asked, &Caller::default()).await.unwrap();
/// assert_eq!(exchange.response.unwrap()["id"], 5);
/// # }
/// ```
#[derive(Debug)]
pub struct CassetteTarget {
    responder: std::sync::Mutex<Responder>,
    label: String,
}

impl CassetteTarget {
    /// A target answering from `cassette`, matching [`MatchMode::Tolerant`]ly.
    pub fn new(cassette: &Cassette) -> CassetteTarget {
        CassetteTarget::with_mode(cassette, MatchMode::default())
    }

    /// A target answering from `cassette`, matching in `mode`.
    pub fn with_mode(cassette: &Cassette, mode: MatchMode) -> CassetteTarget {
        CassetteTarget {
            responder: std::sync::Mutex::new(Responder::with_mode(cassette, mode)),
            label: format!("cassette {}", cassette.source),
        }
    }
}

impl Target for CassetteTarget {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn send<'a>(&'a self, message: &'a Value, _caller: &'a Caller) -> TargetFuture<'a> {
        let reply = lock(&self.responder).answer(message);
        Box::pin(async move {
            Ok(Exchange {
                response: reply.response,
                notifications: reply.notifications,
                ..Exchange::default()
            })
        })
    }
}

fn error(id: &Value, code: i32, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Serves `cassette` on a reader and a writer with stdio's framing (one JSON message a
/// line) until the reader ends: each message answered in the order it came
/// ([`Responder`]), a recorded server request sent and its answer awaited (at most
/// [`ANSWER_WAIT`]) before the response. A line that is not JSON gets a -32700 error.
///
/// ```
/// use mcp_test::cassette::{Cassette, serve};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "target": "demo", "recordedAt": "x"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "#,
///     r#""response": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}"#, "\n",
/// );
/// let cassette = Cassette::parse(text, "demo.jsonl").unwrap();
/// let input = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/list\"}\n";
/// let mut output = Vec::new();
/// serve(&cassette, input.as_bytes(), &mut output).await.unwrap();
/// let reply: serde_json::Value = serde_json::from_slice(&output).unwrap();
/// assert_eq!(reply["id"], 7);
/// # }
/// ```
pub async fn serve<R, W>(cassette: &Cassette, reader: R, writer: W) -> std::io::Result<()>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    serve_with(cassette, MatchMode::default(), reader, writer).await
}

/// [`serve`], matching requests in `mode` (`mcp-test serve --strict-match` passes
/// [`MatchMode::Strict`]).
///
/// ```
/// use mcp_test::cassette::{Cassette, MatchMode, serve_with};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "target": "demo", "recordedAt": "x"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "#,
///     r#""response": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}"#, "\n",
/// );
/// let cassette = Cassette::parse(text, "demo.jsonl").unwrap();
/// let input = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/list\"}\n";
/// let mut output = Vec::new();
/// serve_with(&cassette, MatchMode::Strict, input.as_bytes(), &mut output).await.unwrap();
/// let reply: serde_json::Value = serde_json::from_slice(&output).unwrap();
/// assert_eq!(reply["id"], 7);
/// # }
/// ```
pub async fn serve_with<R, W>(
    cassette: &Cassette,
    mode: MatchMode,
    reader: R,
    mut writer: W,
) -> std::io::Result<()>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    let (tx, mut rx) = mpsc::unbounded_channel::<Result<Value, Value>>();
    let reading = tokio::spawn(read_messages(reader, tx));
    let mut responder = Responder::with_mode(cassette, mode);
    let mut backlog: VecDeque<Value> = VecDeque::new();
    loop {
        let message = match backlog.pop_front() {
            Some(message) => message,
            None => match rx.recv().await {
                Some(Ok(message)) => message,
                Some(Err(error)) => {
                    write_line(&mut writer, &error).await?;
                    continue;
                }
                None => break,
            },
        };
        let reply = responder.answer(&message);
        for note in &reply.notifications {
            write_line(&mut writer, note).await?;
        }
        for asked in &reply.server_requests {
            write_line(&mut writer, asked).await?;
            let Some(id) = asked.get("id") else { continue };
            // Wait for the client's answer; keep what else comes meanwhile for later.
            let waiting = async {
                loop {
                    match rx.recv().await {
                        Some(Ok(m)) if m.get("method").is_none() && m.get("id") == Some(id) => {
                            return;
                        }
                        Some(Ok(m)) => backlog.push_back(m),
                        Some(Err(_)) => {}
                        None => return,
                    }
                }
            };
            let _ = tokio::time::timeout(ANSWER_WAIT, waiting).await;
        }
        if let Some(response) = &reply.response {
            write_line(&mut writer, response).await?;
        }
    }
    reading.abort();
    writer.flush().await
}

async fn read_messages<R: AsyncRead + Unpin>(
    reader: R,
    tx: mpsc::UnboundedSender<Result<Value, Value>>,
) {
    let mut lines = Lines::new(reader, MAX_LINE_BYTES);
    while let Some(line) = lines.next_line().await {
        let parsed = match line {
            Line::Complete(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                if text.trim().is_empty() {
                    continue;
                }
                serde_json::from_str::<Value>(text.trim()).map_err(|e| {
                    error(
                        &Value::Null,
                        error_codes::PARSE_ERROR,
                        &format!("the line is not JSON: {e}"),
                    )
                })
            }
            Line::TooLong { limit, .. } => Err(error(
                &Value::Null,
                error_codes::INVALID_REQUEST,
                &format!("the message exceeds the limit of {limit} bytes per line"),
            )),
        };
        if tx.send(parsed).is_err() {
            return;
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(writer: &mut W, message: &Value) -> std::io::Result<()> {
    let mut line = message.to_string();
    line.push('\n');
    writer.write_all(line.as_bytes()).await?;
    writer.flush().await
}
