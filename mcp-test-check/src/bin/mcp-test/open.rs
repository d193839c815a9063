//! How the command line reaches a server: the target options (`--url`, `--header`,
//! `--ca-cert`, or `-- CMD ARGS...`), and opening them as a connected target, or the bundled
//! example server when none is given.

use clap::Args;
use mcp_test::Server;
use mcp_test::cases::{Connected, every_client_capability};
use mcp_test::client::{Answers, Client, ClientError, HttpOptions};
use mcp_test::target::{Target, TargetError};
use mcp_test::wire::Era;
use mcp_test_check::generate::ServerSource;
use mcp_test_check::{Reconnect, example_server};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Args)]
pub(crate) struct TargetArgs {
    /// A Streamable HTTP server, e.g. http://127.0.0.1:8080/mcp or https://mcp.example.com/mcp.
    #[arg(long, conflicts_with = "command")]
    pub(crate) url: Option<String>,
    /// An HTTP header sent with every request to --url, as 'Name: value' (repeatable), e.g.
    /// 'Authorization: Bearer TOKEN'. The lines of $MCP_TEST_HEADERS (one 'Name: value' per
    /// line) are sent too, which keeps secrets out of shell history.
    #[arg(
        long = "header",
        short = 'H',
        value_name = "NAME: VALUE",
        requires = "url"
    )]
    pub(crate) headers: Vec<String>,
    /// A CA certificate (PEM) to trust for an https:// --url, beside the webpki roots: for a
    /// server whose certificate a private CA signed.
    #[arg(long, value_name = "FILE", requires = "url")]
    pub(crate) ca_cert: Option<PathBuf>,
    /// Seconds each request is waited for before the check moves on. A request that takes
    /// longer is a note naming this timeout, never a defect (the spec puts no time on an
    /// answer); it is still waited for, up to 3 × the timeout (at least 5 s more), and one
    /// left unanswered that long while the server answers others is a defect.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub(crate) timeout: u64,
    /// Seconds to wait for the first answer (the handshake). Default: 300 when the command
    /// installs the server before it runs it (npx, uvx, pipx run, bunx, pnpm dlx, yarn dlx,
    /// docker run), else 30.
    #[arg(long, value_name = "SECS")]
    pub(crate) connect_timeout: Option<u64>,
    /// The longest message read from the server, in bytes: a line on stdio, an SSE event, an
    /// HTTP reply. A longer one is thrown away and reported as this limit hit.
    #[arg(long, value_name = "BYTES", default_value_t = mcp_test::client::DEFAULT_MAX_MESSAGE_BYTES,
          value_parser = clap::value_parser!(usize))]
    pub(crate) max_message_bytes: usize,
    /// The protocol era to speak: `auto` asks the server (`server/discover`, else the
    /// 2025-11-25 `initialize` handshake); `2025-11-25` speaks the `initialize` handshake at
    /// once, which shows a server serving both eras as its 2025-era clients see it;
    /// `2026-07-28` fails on a server that speaks only the 2025 era.
    #[arg(long, value_name = "ERA", default_value = "auto", value_parser = parse_era)]
    pub(crate) era: EraChoice,
    /// A stdio server: the program and its arguments, after `--`.
    #[arg(last = true, value_name = "CMD ARGS")]
    pub(crate) command: Vec<String>,
}

/// `--era`: `None` for `auto`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EraChoice(pub(crate) Option<Era>);

fn parse_era(text: &str) -> Result<EraChoice, String> {
    match text {
        "auto" => Ok(EraChoice(None)),
        _ if text == Era::Current.revision() => Ok(EraChoice(Some(Era::Current))),
        _ if text == Era::Legacy.revision() => Ok(EraChoice(Some(Era::Legacy))),
        _ => Err(format!(
            "`{text}` is no era: use auto, {} or {}",
            Era::Current.revision(),
            Era::Legacy.revision()
        )),
    }
}

/// Why the server could not be reached.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OpenError {
    /// The client could not be made: a bad URL, a program that does not start.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The server did not answer the handshake.
    #[error("{target}: {source}")]
    Handshake {
        /// The URL, or the command line in backquotes.
        target: String,
        /// What the client said.
        source: TargetError,
    },
    /// The server did not answer the handshake within the connect timeout.
    #[error(
        "{target}: no answer to the handshake within the connect timeout of {timeout} (`--connect-timeout SECS` waits longer)"
    )]
    ConnectTimeout {
        /// The URL, or the command line in backquotes.
        target: String,
        /// The connect timeout, and why it applied.
        timeout: ConnectTimeout,
    },
    /// The handshake did not end within the overall deadline.
    #[error("{target}: no answer to the handshake within the overall deadline ({after:?})")]
    Deadline {
        /// The URL, or the command line.
        target: String,
        /// The deadline.
        after: Duration,
    },
}

/// The server to talk to.
pub(crate) enum Served {
    /// Over stdio or HTTP, connected: closed at the end.
    Remote(Connected),
    /// The bundled example server, in process.
    InProcess(Server),
}

/// The server to talk to, and how it was given.
pub(crate) struct Opened {
    pub(crate) served: Served,
    pub(crate) source: ServerSource,
    /// The connect timeout that applied (none for the example server, in process).
    pub(crate) connect: Option<ConnectTimeout>,
}

/// How long the handshake may take, and why that long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ConnectTimeout {
    pub(crate) after: Duration,
    pub(crate) why: String,
}

impl std::fmt::Display for ConnectTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} s, {}", self.after.as_secs(), self.why)
    }
}

/// The connect timeout for a command that runs the server at once, and for a URL.
pub(crate) const SHORT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// The connect timeout for a command that installs the server before it runs it.
pub(crate) const LONG_CONNECT_TIMEOUT: Duration = Duration::from_secs(300);
/// How often a line says what is still awaited.
const WAITING_EVERY: Duration = Duration::from_secs(5);

/// The connect timeout: `--connect-timeout` when given; else [`LONG_CONNECT_TIMEOUT`] for a
/// command that installs the server first ([`installs_first`]), [`SHORT_CONNECT_TIMEOUT`]
/// for any other command or a URL.
pub(crate) fn connect_timeout(explicit: Option<u64>, command: &[String]) -> ConnectTimeout {
    if let Some(secs) = explicit {
        return ConnectTimeout {
            after: Duration::from_secs(secs.max(1)),
            why: "as --connect-timeout says".to_owned(),
        };
    }
    match installs_first(command) {
        Some(how) => ConnectTimeout {
            after: LONG_CONNECT_TIMEOUT,
            why: format!("since the command installs the server first ({how})"),
        },
        None if command.is_empty() => ConnectTimeout {
            after: SHORT_CONNECT_TIMEOUT,
            why: "for a server reached by URL".to_owned(),
        },
        None => ConnectTimeout {
            after: SHORT_CONNECT_TIMEOUT,
            why: "since the command runs the server at once".to_owned(),
        },
    }
}

/// How `command` installs the server before it runs it, if it does, judged by the program's
/// name and its first argument that is not an option: `npx`, `uvx`, `bunx`, `pnpx`,
/// `pipx run`, `pnpm dlx`, `yarn dlx`, `npm exec`, `uv tool run`, `docker run`,
/// `podman run` (each of which fetches a package or an image when it has none).
pub(crate) fn installs_first(command: &[String]) -> Option<String> {
    let (program, rest) = command.split_first()?;
    let name = std::path::Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    let name = name
        .strip_suffix(".cmd")
        .or_else(|| name.strip_suffix(".exe"))
        .unwrap_or(name)
        .to_ascii_lowercase();
    let mut words = rest
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'));
    let first = words.next();
    let found = match (name.as_str(), first) {
        ("npx" | "uvx" | "bunx" | "pnpx", _) => name.clone(),
        ("pipx", Some("run")) | ("pnpm" | "yarn", Some("dlx")) | ("npm", Some("exec")) => {
            format!("{name} {}", first.unwrap_or_default())
        }
        ("uv", Some("tool")) if words.next() == Some("run") => "uv tool run".to_owned(),
        ("docker" | "podman", Some("run")) => format!("{name} run"),
        ("docker" | "podman", Some("container")) if words.next() == Some("run") => {
            format!("{name} container run")
        }
        _ => return None,
    };
    Some(found)
}

/// How a client for what the target options name is made, as often as needed: the first
/// connection of a command, and the others `check` opens ([`reconnect`]).
#[derive(Clone)]
struct Dial {
    /// `--url`, with the HTTP options of the other flags.
    url: Option<(String, HttpOptions)>,
    /// The command after `--`; empty for the example server.
    command: Vec<String>,
    /// Each call's timeout (the longer of the connect timeout and `--timeout`).
    timeout: Duration,
    max_message_bytes: usize,
    /// Processes of the command started ahead of need ([`prespawn`]), taken first.
    spares: Spares,
    /// The answers the command gives to the server's questions, when it gives any
    /// ([`open_answering`]).
    answers: Option<Answers>,
}

/// Processes of the command started ahead of need, beside the first ([`prespawn`]): the
/// connections `check` opens of its own then find a process that has already started, which
/// for a server that takes a second to start (an interpreter importing its SDK) is most of
/// the check's time. Each is a process that was sent nothing yet.
#[derive(Clone, Default)]
pub(crate) struct Spares(Arc<Mutex<Vec<Client>>>);

impl Spares {
    fn take(&self) -> Option<Client> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    /// Closes the processes not taken (they were sent nothing), each given a short grace.
    pub(crate) async fn close(&self) {
        let left = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        let closes = left
            .into_iter()
            .map(|client| async move { client.close_within(SPARE_GRACE).await });
        futures_util::future::join_all(closes).await;
    }
}

/// How long an unused spare process gets to exit once its stdin is closed.
const SPARE_GRACE: Duration = Duration::from_millis(200);

/// Starts `n` processes of the command the target options name, for the connections `check`
/// opens of its own ([`reconnect`]) to take; none for a URL or the example server, whose
/// connections cost a request. A process that cannot be started is left out: the connection
/// that would have taken it starts one then, and says why if that fails too.
pub(crate) async fn prespawn(args: &TargetArgs, n: usize) -> Spares {
    let spares = Spares::default();
    if args.url.is_some() || args.command.is_empty() {
        return spares;
    }
    let Ok(dial) = Dial::new(args) else {
        return spares;
    };
    for _ in 0..n {
        if let Ok(client) = dial.new_client().await {
            spares
                .0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(client);
        }
    }
    spares
}

impl Dial {
    fn new(args: &TargetArgs) -> Result<Dial, ClientError> {
        let connect = connect_timeout(args.connect_timeout, &args.command);
        let url = match &args.url {
            Some(url) => Some((url.clone(), http_options(args)?)),
            None => None,
        };
        Ok(Dial {
            url,
            command: args.command.clone(),
            timeout: connect.after.max(Duration::from_secs(args.timeout.max(1))),
            max_message_bytes: args.max_message_bytes,
            spares: Spares::default(),
            answers: None,
        })
    }

    /// A client ([`new_client`](Self::new_client)), on a process started ahead of need when
    /// there is one ([`Spares`]).
    async fn client(&self) -> Result<Client, ClientError> {
        match self.spares.take() {
            Some(client) => Ok(client),
            None => self.new_client().await,
        }
    }

    /// A new client: over HTTP to the URL, a new process of the command, or the example
    /// server on an in-memory pipe. Without answers the handshake declares no client
    /// capabilities, and the checker's requests declare their own: none for the schema
    /// cases, every one when it drives a tool that asks. With answers (`call`) a 2025-11-25
    /// handshake declares every capability they can answer (elicitation in form and URL
    /// mode, sampling, roots), and the client answers the server's own requests from them.
    async fn new_client(&self) -> Result<Client, ClientError> {
        let client = if let Some((url, options)) = &self.url {
            Client::http_with(url, options)?.with_max_message_bytes(self.max_message_bytes)
        } else if let Some((program, rest)) = self.command.split_first() {
            let mut command = tokio::process::Command::new(program);
            command.args(rest);
            Client::spawn(command)
                .await?
                .with_max_message_bytes(self.max_message_bytes)
        } else {
            let (client_end, server_end) = tokio::io::duplex(64 * 1024);
            let (server_read, server_write) = tokio::io::split(server_end);
            tokio::spawn(mcp_test::transport::stdio::serve(
                example_server(),
                server_read,
                server_write,
                mcp_test::transport::stdio::StdioConfig::default(),
            ));
            let (read, write) = tokio::io::split(client_end);
            Client::connect(read, write)
        };
        let client = client.with_timeout(self.timeout);
        Ok(match &self.answers {
            Some(answers) => client
                .with_capabilities(every_client_capability())
                .with_answers(answers.clone()),
            None => client.with_capabilities(serde_json::json!({})),
        })
    }
}

/// How `check` opens another connection to the server the target options name
/// ([`Reconnect`]): the same URL, the command started again, or the example server on a new
/// pipe, each connected in the era asked for within the connect timeout, on a process of
/// `spares` while there is one.
pub(crate) fn reconnect(args: &TargetArgs, spares: Spares) -> Result<Reconnect, ClientError> {
    let mut dial = Dial::new(args)?;
    dial.spares = spares;
    let label = target_label(args);
    let connect = connect_timeout(args.connect_timeout, &args.command).after;
    Ok(Reconnect::new(move |era| {
        let (dial, label) = (dial.clone(), label.clone());
        async move {
            let client = dial.client().await?;
            let connecting = Connected::connect(client.clone(), label, Some(era));
            match tokio::time::timeout(connect, connecting).await {
                Ok(connected) => connected,
                Err(_) => {
                    let _ = client.close_within(Duration::ZERO).await;
                    Err(TargetError::Client(ClientError::Timeout {
                        request: format!("the {era} handshake of another connection"),
                        after: connect,
                        stderr: String::new(),
                    }))
                }
            }
        }
    }))
}

/// Awaits `handshake` for at most `timeout`, saying every few seconds (through `note`) how
/// long it has waited: `None` when the timeout passed first.
async fn within_connect_timeout<T>(
    handshake: impl std::future::Future<Output = T>,
    timeout: &ConnectTimeout,
    note: &dyn Fn(&str),
) -> Option<T> {
    let started = tokio::time::Instant::now();
    let until = started + timeout.after;
    let handshake = tokio::time::timeout_at(until, handshake);
    tokio::pin!(handshake);
    let mut every = tokio::time::interval_at(started + WAITING_EVERY, WAITING_EVERY);
    loop {
        tokio::select! {
            done = &mut handshake => return done.ok(),
            _ = every.tick() => note(&waiting_line(started.elapsed(), timeout)),
        }
    }
}

/// The line that says the handshake is still awaited.
pub(crate) fn waiting_line(waited: Duration, timeout: &ConnectTimeout) -> String {
    format!(
        "waiting for the answer to the handshake (server/discover, or initialize for a 2025-era server): {} s so far, connect timeout {timeout}",
        waited.as_secs()
    )
}

impl Opened {
    pub(crate) fn target(&self) -> &dyn Target {
        match &self.served {
            Served::Remote(connected) => connected,
            Served::InProcess(server) => server,
        }
    }

    /// Ends the session with a remote server (the client's close grace).
    pub(crate) async fn close(&self) {
        if let Served::Remote(connected) = &self.served {
            let _ = connected.client.close().await;
        }
    }
}

/// The target as reports name it: the URL, the command line, or the example server.
pub(crate) fn target_label(args: &TargetArgs) -> String {
    match &args.url {
        Some(url) => url.clone(),
        None if !args.command.is_empty() => args.command.join(" "),
        None => example_server().label(),
    }
}

/// The environment variable of extra headers: one `Name: value` per line.
const HEADERS_ENV: &str = "MCP_TEST_HEADERS";

/// The headers ($MCP_TEST_HEADERS, then each --header) and the CA of the HTTP target; an
/// error names the flag, the variable's line or the file.
pub(crate) fn http_options(args: &TargetArgs) -> Result<HttpOptions, ClientError> {
    let mut options = HttpOptions::new();
    if let Ok(lines) = std::env::var(HEADERS_ENV) {
        for (n, line) in lines.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            options = options
                .header_line(line)
                .map_err(|e| ClientError::BadHeader {
                    header: format!("${HEADERS_ENV} line {}", n + 1),
                    reason: e.to_string(),
                })?;
        }
    }
    for line in &args.headers {
        options = options
            .header_line(line)
            .map_err(|e| ClientError::BadHeader {
                header: "--header".to_owned(),
                reason: e.to_string(),
            })?;
    }
    if let Some(path) = &args.ca_cert {
        options = options.ca_cert_file(path).map_err(|e| ClientError::Tls {
            reason: format!("--ca-cert: {e}"),
        })?;
    }
    Ok(options)
}

pub(crate) async fn open(args: &TargetArgs, progress: bool) -> Result<Opened, OpenError> {
    open_answering(args, progress, None).await
}

/// [`open`] for a command that answers the server's questions with `answers` (`call`): a
/// 2025-11-25 connection then declares the client capabilities they answer in its
/// `initialize` and answers the server's own requests from them ([`Dial::new_client`]).
pub(crate) async fn open_answering(
    args: &TargetArgs,
    progress: bool,
    answers: Option<Answers>,
) -> Result<Opened, OpenError> {
    let dial = || -> Result<Dial, ClientError> {
        let mut dial = Dial::new(args)?;
        dial.answers.clone_from(&answers);
        Ok(dial)
    };
    // The handshake waits up to the connect timeout; each call of the check is bounded by
    // `--timeout` on top of that (the client's own timeout is the longer of the two).
    let connect = connect_timeout(args.connect_timeout, &args.command);
    let note = |s: &str| {
        if progress {
            eprintln!("mcp-test: {s}");
        }
    };
    if let Some(url) = &args.url {
        note(&format!("connecting to {url} (connect timeout {connect})"));
        let client = dial()?.client().await?;
        let connected = within_connect_timeout(
            Connected::connect(client, url.clone(), args.era.0),
            &connect,
            &note,
        )
        .await
        .ok_or_else(|| OpenError::ConnectTimeout {
            target: url.clone(),
            timeout: connect.clone(),
        })?
        .map_err(|source| OpenError::Handshake {
            target: url.clone(),
            source,
        })?;
        note(&format!("protocol era: {}", connected.era));
        return Ok(Opened {
            served: Served::Remote(connected),
            source: ServerSource::Url(url.clone()),
            connect: Some(connect),
        });
    }
    if !args.command.is_empty() {
        let label = args.command.join(" ");
        note(&format!("starting `{label}` (connect timeout {connect})"));
        let client = dial()?.client().await?;
        let connected = within_connect_timeout(
            Connected::connect(client.clone(), label.clone(), args.era.0),
            &connect,
            &note,
        )
        .await
        .ok_or_else(|| OpenError::ConnectTimeout {
            target: format!("`{label}`"),
            timeout: connect.clone(),
        });
        let connected = match connected {
            Ok(handshake) => handshake.map_err(|source| OpenError::Handshake {
                target: format!("`{label}`"),
                source,
            })?,
            Err(e) => {
                // The child would outlive the check otherwise: stop it now.
                let _ = client.close_within(Duration::ZERO).await;
                return Err(e);
            }
        };
        note(&format!("protocol era: {}", connected.era));
        return Ok(Opened {
            served: Served::Remote(connected),
            source: ServerSource::Command(args.command.clone()),
            connect: Some(connect),
        });
    }
    if let Some(era) = args.era.0 {
        // One era of the in-process server is what a client of that era sees over a
        // connection: serve it on an in-memory stdio pipe and connect in that era.
        note(&format!(
            "no target given: checking the bundled example server in process, in {era}"
        ));
        let client = dial()?.client().await?;
        let connected = Connected::connect(client, "the bundled example server", Some(era))
            .await
            .map_err(|source| OpenError::Handshake {
                target: "the bundled example server".to_owned(),
                source,
            })?;
        return Ok(Opened {
            served: Served::Remote(connected),
            source: ServerSource::Example,
            connect: None,
        });
    }
    note("no target given: checking the bundled example server in process");
    Ok(Opened {
        served: Served::InProcess(example_server()),
        source: ServerSource::Example,
        connect: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_command_that_installs_first_gets_the_long_connect_timeout() {
        for (line, how) in [
            ("npx -y @modelcontextprotocol/server-everything", "npx"),
            ("npx server-pdf", "npx"),
            ("/usr/local/bin/npx.cmd -y pkg", "npx"),
            ("uvx mcp-server-fetch", "uvx"),
            ("pipx run mcp-server-time", "pipx run"),
            ("bunx some-server", "bunx"),
            ("pnpm dlx some-server", "pnpm dlx"),
            ("pnpm --silent dlx some-server", "pnpm dlx"),
            ("yarn dlx some-server", "yarn dlx"),
            ("npm exec -y some-server", "npm exec"),
            ("uv tool run mcp-server-git", "uv tool run"),
            ("docker run -i --rm mcp/fetch", "docker run"),
            ("docker container run -i mcp/fetch", "docker container run"),
            ("podman run -i mcp/fetch", "podman run"),
        ] {
            let chosen = connect_timeout(None, &words(line));
            assert_eq!(chosen.after, LONG_CONNECT_TIMEOUT, "{line}");
            assert_eq!(
                chosen.why,
                format!("since the command installs the server first ({how})"),
                "{line}"
            );
        }
    }

    #[test]
    fn a_plain_command_or_a_url_gets_the_short_connect_timeout() {
        for line in [
            "node build/index.js",
            "python -m my_server",
            "uv run server.py",
            "pipx list",
            "pnpm start",
            "yarn start",
            "docker exec -i box server",
            "./target/debug/server --stdio",
            "npm start",
        ] {
            let chosen = connect_timeout(None, &words(line));
            assert_eq!(chosen.after, SHORT_CONNECT_TIMEOUT, "{line}");
            assert_eq!(
                chosen.why, "since the command runs the server at once",
                "{line}"
            );
        }
        let url = connect_timeout(None, &[]);
        assert_eq!(url.after, SHORT_CONNECT_TIMEOUT);
        assert_eq!(url.why, "for a server reached by URL");
    }

    #[test]
    fn an_explicit_connect_timeout_always_wins() {
        let chosen = connect_timeout(Some(7), &words("npx -y pkg"));
        assert_eq!(chosen.after, Duration::from_secs(7));
        assert_eq!(chosen.to_string(), "7 s, as --connect-timeout says");
        assert_eq!(
            connect_timeout(Some(0), &words("node x.js")).after,
            Duration::from_secs(1)
        );
        assert_eq!(
            connect_timeout(None, &words("npx pkg")).to_string(),
            "300 s, since the command installs the server first (npx)"
        );
    }
}
