//! Your own server binary as an HTTP fixture: start the command, learn the address it serves
//! on, connect over Streamable HTTP, and stop it with the test. Features `client` and `http`.
//! See [`HttpCommand`].

use super::accepts::IntoCommand;
use super::request::TestContext;
use crate::client::{Client, ClientError, HttpOptions};
use crate::server::Caller;
use crate::setters;
use crate::target::{Connection, Target, TargetFuture};
use serde_json::Value;
use std::collections::VecDeque;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::panic::Location;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, oneshot};

/// The placeholder an argument holds where the server's port goes: `"--port={port}"`.
///
/// ```
/// assert_eq!(mcp_test::testing::PORT, "{port}");
/// ```
pub const PORT: &str = "{port}";

/// How long [`HttpCommand::start`] waits for the server by default.
pub const DEFAULT_STARTUP: Duration = Duration::from_secs(10);

/// How many of the server's last output lines a startup failure shows.
const KEPT_LINES: usize = 40;

/// A command that serves MCP over Streamable HTTP, to start as a test's server: start the
/// command, learn the address it serves on, connect over Streamable HTTP, and stop it with the
/// test. Features `client` and `http`.
///
/// The address is learned one of two ways:
///
/// - **printed** (the default): the first line on the server's stdout or stderr that names an
///   address: a URL (`http://127.0.0.1:43211/mcp`, used as written; a base URL without a
///   path gets [`path`](HttpCommand::path)) or a socket address
///   (`listening on 127.0.0.1:43211`, `[::1]:43211`, `localhost:43211`, `0.0.0.0:43211`),
///   which becomes `http://HOST:PORT` + [`path`](HttpCommand::path) (`/mcp` by default; an
///   unspecified host is reached on loopback). Start your server on port 0 and print the
///   address it got, and no two tests ever race for a port;
/// - **given**: an argument holding [`PORT`] (`"--port={port}"`) or [`port_env`](HttpCommand::port_env)
///   (`PORT=..`): a free port is picked, handed to the server, and the fixture connects once
///   something accepts connections there.
///
/// Either way the wait is bounded ([`startup_timeout`](HttpCommand::startup_timeout), 10 s by
/// default, in real time even under a paused tokio clock), and a server that exits first or
/// names no address fails with what it printed. The process is killed when the last clone of
/// the [`TestContext`] (or the [`HttpProcess`]) is dropped.
///
/// ```ignore
/// // A binary of the crate under test, which prints `listening on ADDR` once bound.
/// #[mcp_test(http_command = [env!("CARGO_BIN_EXE_my_server"), "--http", "127.0.0.1:0"])]
/// async fn lists_tools(mcp: TestContext) {
///     assert!(mcp.list_tools().await["result"]["tools"].is_array());
/// }
///
/// // A port given to it, on a path of its own.
/// #[tokio::test]
/// async fn on_a_given_port() {
///     let mcp = TestContext::http_command(
///         HttpCommand::new([env!("CARGO_BIN_EXE_my_server"), "--port", "{port}"]).path("/"),
///     )
///     .await;
///     assert!(mcp.list_tools().await["result"]["tools"].is_array());
/// }
/// ```
///
/// Anything [`IntoCommand`] takes converts into one
/// ([`IntoHttpCommand`]), which learns a printed address and connects on `/mcp`.
///
/// ```
/// use mcp_test::testing::HttpCommand;
/// use std::time::Duration;
/// let command = HttpCommand::new(["my-server", "--port", "{port}"])
///     .path("/rpc")
///     .startup_timeout(Duration::from_secs(30));
/// assert!(format!("{command:?}").contains("my-server"));
/// ```
pub struct HttpCommand {
    command: Command,
    path: String,
    port_env: Option<String>,
    startup: Duration,
    options: HttpOptions,
    /// Headers to send, checked when the command starts.
    headers: Vec<(String, String)>,
    /// The bearer token, or how to make it once the URL is known.
    bearer: Option<Bearer>,
}

/// What [`HttpCommand::bearer_for`] takes: the server's URL to a token.
type TokenFor = Box<dyn Fn(&str) -> String + Send + Sync>;

/// Where the bearer token of an [`HttpCommand`] comes from.
enum Bearer {
    Token(String),
    For(TokenFor),
}

impl std::fmt::Debug for HttpCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpCommand")
            .field("command", &self.command)
            .field("path", &self.path)
            .field("port_env", &self.port_env)
            .field("startup", &self.startup)
            .field(
                "headers",
                &self.headers.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("bearer", &self.bearer.is_some())
            .finish()
    }
}

impl HttpCommand {
    /// The command to start: a program path, a `[program, args..]` array, or a `Command`.
    pub fn new(command: impl IntoCommand) -> Self {
        HttpCommand {
            command: command.into_command(),
            path: "/mcp".to_owned(),
            port_env: None,
            startup: DEFAULT_STARTUP,
            options: HttpOptions::new(),
            headers: Vec::new(),
            bearer: None,
        }
    }

    /// Sends header `name: value` on every request (after those of
    /// [`http_options`](Self::http_options), replacing one of the same name). Checked when
    /// the command starts: a name or value HTTP cannot carry fails
    /// [`start`](Self::start) with [`ClientError::BadHeader`] naming it, before the server
    /// is started.
    ///
    /// ```
    /// use mcp_test::testing::HttpCommand;
    /// let command = HttpCommand::new(["my-server", "--port", "{port}"])
    ///     .header("X-Tenant", "acme")
    ///     .headers([("X-Trace", "t-1"), ("X-Region", "eu")])
    ///     .bearer("s3cret");
    /// assert!(format!("{command:?}").contains("X-Region"));
    /// ```
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Sends every `(name, value)` of `headers`, as [`header`](Self::header) does.
    #[must_use]
    pub fn headers(
        mut self,
        headers: impl IntoIterator<Item = (impl Into<String>, impl Into<String>)>,
    ) -> Self {
        for (name, value) in headers {
            self.headers.push((name.into(), value.into()));
        }
        self
    }

    /// Sends `Authorization: Bearer TOKEN` on every request.
    #[must_use]
    pub fn bearer(mut self, token: impl Into<String>) -> Self {
        self.bearer = Some(Bearer::Token(token.into()));
        self
    }

    /// Sends `Authorization: Bearer` with the token `token` makes from the server's URL, once
    /// it is known (a printed address or a given port): an OAuth access token's audience is
    /// that URL (RFC 8707), which a server started on port 0 has only once it runs. The
    /// closure is kept as long as the server process, so whatever it holds (an
    /// [`AuthServer`](crate::auth::AuthServer) the server trusts and reads its keys from)
    /// lives as long as the server does.
    ///
    /// ```ignore
    /// let auth = AuthServer::start().await?;
    /// let command = HttpCommand::new([env!("CARGO_BIN_EXE_my_server"), "--trust-issuer", auth.issuer(),
    ///                                 "--http", "127.0.0.1:0"])
    ///     .bearer_for(move |url| auth.token(&TokenSpec::new(url).scopes(["notes.write"])));
    /// let mcp = TestContext::http_command(command).await;
    /// ```
    #[must_use]
    pub fn bearer_for(mut self, token: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        self.bearer = Some(Bearer::For(Box::new(token)));
        self
    }

    /// The client's options: headers and, with feature `tls`, certificate authorities to
    /// trust. [`header`](Self::header) and [`bearer`](Self::bearer) add to them.
    #[must_use]
    pub fn http_options(mut self, options: HttpOptions) -> Self {
        self.options = options;
        self
    }

    /// The options with the headers added (the bearer token comes once the URL is known).
    fn checked_options(&mut self) -> Result<HttpOptions, ClientError> {
        let mut options = self.options.clone();
        for (name, value) in &self.headers {
            options = options.without_header(name).header(name, value)?;
        }
        if let Some(Bearer::Token(token)) = &self.bearer {
            options = with_bearer(options, token)?;
        }
        Ok(options)
    }

    /// The endpoint's path when the server names only its socket address or a base URL (or
    /// is given a port): `/mcp` by default; `"/"` for a server that answers at its root. A
    /// printed URL with a path is used as written.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        let path = path.into();
        self.path = if path.starts_with('/') {
            path
        } else {
            format!("/{path}")
        };
        self
    }

    setters! {
        /// Gives the server a free port in the environment variable `var` (`PORT`, say), instead
        /// of reading the address it prints.
        port_env(var: impl Into<String>) => port_env = Some(var.into());

        /// How long to wait for the address (or for the given port to accept connections); 10 s
        /// by default. Real time, even under a paused tokio clock.
        startup_timeout(timeout: Duration) => startup = timeout;
    }

    /// The program, for messages.
    fn program(&self) -> String {
        self.command
            .as_std()
            .get_program()
            .to_string_lossy()
            .into_owned()
    }

    /// Whether the port is given (a [`PORT`] argument or [`port_env`](Self::port_env)) rather
    /// than printed.
    fn gives_port(&self) -> bool {
        self.port_env.is_some()
            || self
                .command
                .as_std()
                .get_args()
                .any(|arg| arg.to_string_lossy().contains(PORT))
    }

    /// Starts the server, learns its address and connects. Must be called inside a tokio
    /// runtime.
    pub async fn start(mut self) -> Result<HttpProcess, HttpCommandError> {
        let program = self.program();
        let options = self
            .checked_options()
            .map_err(|source| HttpCommandError::Header {
                program: program.clone(),
                source: Box::new(source),
            })?;
        let client = Connect {
            options,
            bearer: match self.bearer.take() {
                Some(Bearer::For(token)) => Some(token),
                _ => None,
            },
        };
        let deadline = real_time_deadline(self.startup);
        if self.gives_port() {
            let port = free_port().map_err(|source| HttpCommandError::Spawn {
                program: program.clone(),
                source,
            })?;
            let mut command = with_port(&self.command, port);
            if let Some(var) = &self.port_env {
                command.env(var, port.to_string());
            }
            command
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut started = spawn(command, &program)?;
            let url = format!("http://127.0.0.1:{port}{}", self.path);
            wait_accepting(port, &mut started, deadline, &program, self.startup).await?;
            connect(started, url, program, client)
        } else {
            let mut command = self.command;
            command
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut started = spawn(command, &program)?;
            let url =
                wait_address(&mut started, deadline, &program, &self.path, self.startup).await?;
            connect(started, url, program, client)
        }
    }
}

/// What [`TestContext::http_command`] and `#[mcp_test(http_command = ..)]` take: an
/// [`HttpCommand`], or anything [`IntoCommand`] takes (a printed address, path `/mcp`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a command to start an HTTP server with",
    label = "expected a program path, a [program, args..] array, a Command, or an HttpCommand",
    note = "`#[mcp_test(http_command = ..)]` takes e.g. `[env!(\"CARGO_BIN_EXE_my_server\"), \"--http\", \"127.0.0.1:0\"]`; to take a URL, use `http = ..`"
)]
pub trait IntoHttpCommand {
    /// The command.
    fn into_http_command(self) -> HttpCommand;
}

impl IntoHttpCommand for HttpCommand {
    fn into_http_command(self) -> HttpCommand {
        self
    }
}

impl<C: IntoCommand> IntoHttpCommand for C {
    fn into_http_command(self) -> HttpCommand {
        HttpCommand::new(self)
    }
}

/// Why an [`HttpCommand`] did not give a server to talk to.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpCommandError {
    /// The command could not be started (or no free port could be picked).
    #[error("could not start {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The error.
        source: std::io::Error,
    },
    /// The server exited before it was ready.
    #[error("{program} exited ({status}) before it {waited_for}; its output:\n{output}")]
    Exited {
        /// The program.
        program: String,
        /// How it exited.
        status: String,
        /// What the fixture waited for.
        waited_for: String,
        /// Its last lines of output.
        output: String,
    },
    /// The server was not ready in time.
    #[error("{program} {waited_for} within {timeout:?}; its output:\n{output}")]
    NotReady {
        /// The program.
        program: String,
        /// What the fixture waited for, as "did not ..".
        waited_for: String,
        /// How long it waited.
        timeout: Duration,
        /// Its last lines of output.
        output: String,
    },
    /// A header given to send ([`HttpCommand::header`], [`HttpCommand::bearer`]) is not one
    /// HTTP can carry; the server was not started.
    #[error("{program} was not started: {source}")]
    Header {
        /// The program.
        program: String,
        /// The header's error ([`ClientError::BadHeader`], naming it).
        source: Box<ClientError>,
    },
    /// The address it named is not a URL the client takes.
    #[error("{program} serves at {url}, which the client cannot reach: {source}")]
    Client {
        /// The program.
        program: String,
        /// The URL.
        url: String,
        /// The error.
        source: Box<ClientError>,
    },
}

/// A server started from an [`HttpCommand`], connected over Streamable HTTP: a [`Target`]
/// that kills the process when dropped.
pub struct HttpProcess {
    client: Client,
    url: String,
    program: String,
    child: Mutex<Child>,
    output: Lines,
    /// What [`HttpCommand::bearer_for`] was given, kept with the process (with whatever it
    /// holds).
    _bearer: Option<TokenFor>,
}

impl std::fmt::Debug for HttpProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpProcess")
            .field("program", &self.program)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl HttpProcess {
    /// The URL the client sends to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.lock().ok().and_then(|child| child.id())
    }

    /// The server's last lines of output (stdout and stderr, interleaved as read).
    pub fn output(&self) -> Vec<String> {
        self.output.snapshot()
    }
}

impl Drop for HttpProcess {
    fn drop(&mut self) {
        if let Ok(child) = self.child.get_mut() {
            let _ = child.start_kill();
        }
    }
}

impl Target for HttpProcess {
    fn label(&self) -> String {
        format!("{} at {}", self.program, self.url)
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Target::send(&self.client, message, caller)
    }

    fn connection(&self) -> Connection {
        self.client.connection()
    }
}

impl TestContext {
    /// A context over your own server binary serving Streamable HTTP: starts `command`
    /// (anything [`IntoHttpCommand`] takes), learns its address (printed, or a port given to
    /// it: see [`HttpCommand`]) and connects; the process is killed when the last clone of
    /// the context is dropped. Features `client` and `http`; `#[mcp_test(http_command = ..)]`
    /// writes this for you.
    ///
    /// # Panics
    ///
    /// At the caller's line, with the server's output, when it cannot be started, exits
    /// first, or names no address in time.
    #[track_caller]
    pub fn http_command(command: impl IntoHttpCommand) -> impl Future<Output = TestContext> {
        let command = command.into_http_command();
        let caller = Location::caller();
        async move {
            match command.start().await {
                Ok(process) => {
                    let client = process.client.clone();
                    TestContext::over_client(process, client)
                }
                Err(e) => panic!("{caller}: TestContext::http_command: {e}"),
            }
        }
    }
}

/// The server's output lines, the last [`KEPT_LINES`] kept for messages.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<VecDeque<String>>>);

impl Lines {
    fn push(&self, line: &str) {
        if let Ok(mut lines) = self.0.lock() {
            if lines.len() == KEPT_LINES {
                lines.pop_front();
            }
            lines.push_back(line.to_owned());
        }
    }

    fn snapshot(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|lines| lines.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn shown(&self) -> String {
        let lines = self.snapshot();
        if lines.is_empty() {
            "(nothing)".to_owned()
        } else {
            lines.join("\n")
        }
    }
}

/// Starts `command` (killed on drop) and reads its stdout and stderr for as long as it runs,
/// so a chatty server never blocks on a full pipe.
fn spawn(mut command: Command, program: &str) -> Result<Started, HttpCommandError> {
    command.kill_on_drop(true);
    let mut child = command.spawn().map_err(|source| HttpCommandError::Spawn {
        program: program.to_owned(),
        source,
    })?;
    let lines = Lines::default();
    let (tx, rx) = mpsc::unbounded_channel();
    if let Some(stdout) = child.stdout.take() {
        tokio::spawn(drain(stdout, lines.clone(), tx.clone()));
    }
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(drain(stderr, lines.clone(), tx));
    }
    Ok(Started {
        child,
        lines,
        printed: rx,
    })
}

/// A started server: the process, its output so far, and its lines as they come.
struct Started {
    child: Child,
    lines: Lines,
    printed: mpsc::UnboundedReceiver<String>,
}

/// Reads `stream` line by line into `lines` (and `tx`, while someone listens) until it ends.
async fn drain(stream: impl AsyncRead + Unpin, lines: Lines, tx: mpsc::UnboundedSender<String>) {
    let mut reader = BufReader::new(stream).lines();
    while let Ok(Some(line)) = reader.next_line().await {
        lines.push(&line);
        // Nobody listens once the address is known: the lines are still read.
        let _ = tx.send(line);
    }
}

/// A deadline in real time: resolves after `timeout` on a thread of its own, so a paused
/// tokio clock (which jumps while the test waits on the child) cannot cut the wait short.
fn real_time_deadline(timeout: Duration) -> oneshot::Receiver<()> {
    let (tx, rx) = oneshot::channel();
    std::thread::spawn(move || {
        std::thread::sleep(timeout);
        let _ = tx.send(());
    });
    rx
}

/// Waits for the first printed line that names an address, returning the URL.
async fn wait_address(
    started: &mut Started,
    mut deadline: oneshot::Receiver<()>,
    program: &str,
    path: &str,
    timeout: Duration,
) -> Result<String, HttpCommandError> {
    loop {
        tokio::select! {
            line = started.printed.recv() => match line {
                Some(line) => {
                    if let Some(url) = address_in(&line, path) {
                        return Ok(url);
                    }
                }
                // Both streams closed: the server is gone, or will say nothing more.
                None => {
                    let status = started.child.wait().await;
                    return Err(HttpCommandError::Exited {
                        program: program.to_owned(),
                        status: status.map_or_else(|e| e.to_string(), |s| s.to_string()),
                        waited_for: "printed an address to connect to".to_owned(),
                        output: started.lines.shown(),
                    });
                }
            },
            _ = &mut deadline => {
                return Err(HttpCommandError::NotReady {
                    program: program.to_owned(),
                    waited_for: "printed no address to connect to (a line such as \
                                 `listening on 127.0.0.1:PORT` or `http://127.0.0.1:PORT/mcp`)"
                        .to_owned(),
                    timeout,
                    output: started.lines.shown(),
                });
            }
        }
    }
}

/// Waits until something accepts connections on `port` of loopback.
async fn wait_accepting(
    port: u16,
    Started { child, lines, .. }: &mut Started,
    mut deadline: oneshot::Receiver<()>,
    program: &str,
    timeout: Duration,
) -> Result<(), HttpCommandError> {
    loop {
        if tokio::net::TcpStream::connect((Ipv4Addr::LOCALHOST, port))
            .await
            .is_ok()
        {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(HttpCommandError::Exited {
                program: program.to_owned(),
                status: status.to_string(),
                waited_for: format!("accepted connections on port {port}"),
                output: lines.shown(),
            });
        }
        if !matches!(
            deadline.try_recv(),
            Err(oneshot::error::TryRecvError::Empty)
        ) {
            return Err(HttpCommandError::NotReady {
                program: program.to_owned(),
                waited_for: format!("accepted no connection on port {port}"),
                timeout,
                output: lines.shown(),
            });
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// How the client connects: its options, and the bearer token to make from the URL.
struct Connect {
    options: HttpOptions,
    bearer: Option<TokenFor>,
}

/// `options` plus `Authorization: Bearer TOKEN` (replacing any `Authorization`).
fn with_bearer(options: HttpOptions, token: &str) -> Result<HttpOptions, ClientError> {
    options
        .without_header("authorization")
        .header("Authorization", &format!("Bearer {token}"))
}

fn connect(
    started: Started,
    url: String,
    program: String,
    how: Connect,
) -> Result<HttpProcess, HttpCommandError> {
    let Started {
        child,
        lines: output,
        ..
    } = started;
    let failed = |source| HttpCommandError::Client {
        program: program.clone(),
        url: url.clone(),
        source: Box::new(source),
    };
    let options = match &how.bearer {
        Some(token) => with_bearer(how.options, &token(&url)).map_err(failed)?,
        None => how.options,
    };
    let client = Client::http_with(&url, &options).map_err(failed)?;
    Ok(HttpProcess {
        client,
        url,
        program,
        child: Mutex::new(child),
        output,
        _bearer: how.bearer,
    })
}

/// A port free on loopback now (the listener that found it is closed before the server binds
/// it).
fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// `command` with every [`PORT`] in its arguments replaced by `port`: the program, the
/// arguments, the environment and the working directory are kept.
fn with_port(command: &Command, port: u16) -> Command {
    let std = command.as_std();
    let mut out = Command::new(std.get_program());
    for arg in std.get_args() {
        out.arg(arg.to_string_lossy().replace(PORT, &port.to_string()));
    }
    for (key, value) in std.get_envs() {
        match value {
            Some(value) => out.env(key, value),
            None => out.env_remove(key),
        };
    }
    if let Some(dir) = std.get_current_dir() {
        out.current_dir(dir);
    }
    out
}

/// The URL a line of server output names, if any: a URL as written, or a socket address with
/// `path` (an unspecified host reached on loopback).
///
/// ```text
/// "listening on http://127.0.0.1:8080/mcp" -> http://127.0.0.1:8080/mcp
/// "Listening on 0.0.0.0:8080"              -> http://127.0.0.1:8080/mcp
/// "bound to [::1]:9000."                   -> http://[::1]:9000/mcp
/// ```
fn address_in(line: &str, path: &str) -> Option<String> {
    let tokens = line.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                ',' | ';' | '"' | '\'' | '(' | ')' | '<' | '>' | '`' | '='
            )
    });
    for token in tokens {
        let token = token.trim_end_matches(['.', ':', '!']);
        if let Some(rest) = token
            .strip_prefix("http://")
            .or_else(|| token.strip_prefix("https://"))
        {
            let scheme = &token[..token.len() - rest.len()];
            let (authority, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let authority = socket(authority).unwrap_or_else(|| authority.to_owned());
            if authority.is_empty() {
                continue;
            }
            // A base URL (no path, or `/`) gets the endpoint's path; a path is kept.
            let tail = if tail.is_empty() || tail == "/" {
                path
            } else {
                tail
            };
            return Some(format!("{scheme}{authority}{tail}"));
        }
        if let Some(authority) = socket(token) {
            return Some(format!("http://{authority}{path}"));
        }
    }
    None
}

/// `host:port` for a socket address token (`127.0.0.1:80`, `[::1]:80`, `localhost:80`), the
/// unspecified hosts replaced by loopback.
fn socket(token: &str) -> Option<String> {
    if let Ok(addr) = token.parse::<SocketAddr>() {
        if addr.port() == 0 {
            return None;
        }
        let ip = match addr.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        return Some(SocketAddr::new(ip, addr.port()).to_string());
    }
    let port = token.strip_prefix("localhost:")?;
    (!port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) && port != "0")
        .then(|| format!("localhost:{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_found_in_the_usual_lines() {
        let cases = [
            (
                "listening on http://127.0.0.1:8080/mcp",
                Some("http://127.0.0.1:8080/mcp"),
            ),
            (
                "Listening on 0.0.0.0:8080",
                Some("http://127.0.0.1:8080/mcp"),
            ),
            ("bound to [::1]:9000.", Some("http://[::1]:9000/mcp")),
            (
                "serving at http://localhost:3000/",
                Some("http://localhost:3000/mcp"),
            ),
            (
                "listening on localhost:3000",
                Some("http://localhost:3000/mcp"),
            ),
            (
                "INFO server: addr=127.0.0.1:4000",
                Some("http://127.0.0.1:4000/mcp"),
            ),
            ("addr: 127.0.0.1:4000", Some("http://127.0.0.1:4000/mcp")),
            (
                "Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
                Some("http://127.0.0.1:8000/mcp"),
            ),
            ("starting up at 12:30", None),
            ("port 0 requested", None),
        ];
        for (line, expected) in cases {
            assert_eq!(address_in(line, "/mcp").as_deref(), expected, "{line}");
        }
    }

    #[test]
    fn the_port_placeholder_is_replaced_in_every_argument() {
        let mut command = Command::new("srv");
        command.args(["--port", PORT, "--url=http://127.0.0.1:{port}/x"]);
        command.env("A", "1");
        let replaced = with_port(&command, 4242);
        let args: Vec<String> = replaced
            .as_std()
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(args, ["--port", "4242", "--url=http://127.0.0.1:4242/x"]);
        assert_eq!(replaced.as_std().get_envs().count(), 1);
    }
}
