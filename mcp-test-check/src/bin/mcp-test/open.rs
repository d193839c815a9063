//! How the command line reaches a server: the target options (`--url`, `--header`,
//! `--ca-cert`, or `-- CMD ARGS...`), and opening them as a connected target, or the bundled
//! example server when none is given.

use clap::Args;
use mcp_test::Server;
use mcp_test::cases::Connected;
use mcp_test::client::{Client, ClientError, HttpOptions};
use mcp_test::target::{Target, TargetError};
use mcp_test_check::example_server;
use mcp_test_check::generate::ServerSource;
use std::path::PathBuf;
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
    /// Per-call timeout in seconds: a call that takes longer is reported, not waited on.
    #[arg(long, default_value_t = 30)]
    pub(crate) timeout: u64,
    /// Seconds to wait for the first answer (a `npx -y ...` server installs itself first).
    #[arg(long, default_value_t = 300)]
    pub(crate) connect_timeout: u64,
    /// The longest message read from the server, in bytes: a line on stdio, an SSE event, an
    /// HTTP reply. A longer one is thrown away and reported as this limit hit.
    #[arg(long, value_name = "BYTES", default_value_t = mcp_test::client::DEFAULT_MAX_MESSAGE_BYTES,
          value_parser = clap::value_parser!(usize))]
    pub(crate) max_message_bytes: usize,
    /// A stdio server: the program and its arguments, after `--`.
    #[arg(last = true, value_name = "CMD ARGS")]
    pub(crate) command: Vec<String>,
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
    // The client waits up to the connect timeout; each call of the check is bounded by
    // `--timeout` on top of that.
    let timeout = Duration::from_secs(args.connect_timeout.max(args.timeout).max(1));
    let note = |s: &str| {
        if progress {
            eprintln!("mcp-test: {s}");
        }
    };
    if let Some(url) = &args.url {
        note(&format!("connecting to {url}"));
        let client = Client::http_with(url, &http_options(args)?)?
            .with_timeout(timeout)
            .with_max_message_bytes(args.max_message_bytes)
            .with_capabilities(serde_json::json!({}));
        let connected = Connected::probe(client, url.clone())
            .await
            .map_err(|source| OpenError::Handshake {
                target: url.clone(),
                source,
            })?;
        note(&format!("protocol era: {}", connected.era));
        return Ok(Opened {
            served: Served::Remote(connected),
            source: ServerSource::Url(url.clone()),
        });
    }
    if let Some((program, rest)) = args.command.split_first() {
        let label = args.command.join(" ");
        note(&format!("starting `{label}`"));
        let mut command = tokio::process::Command::new(program);
        command.args(rest);
        // The handshake declares no client capabilities, and the checker's requests declare
        // their own: none for the schema cases, every one when it drives a tool that asks.
        let client = Client::spawn(command)
            .await?
            .with_timeout(timeout)
            .with_max_message_bytes(args.max_message_bytes)
            .with_capabilities(serde_json::json!({}));
        let connected = Connected::probe(client, label.clone())
            .await
            .map_err(|source| OpenError::Handshake {
                target: format!("`{label}`"),
                source,
            })?;
        note(&format!("protocol era: {}", connected.era));
        return Ok(Opened {
            served: Served::Remote(connected),
            source: ServerSource::Command(args.command.clone()),
        });
    }
    note("no target given: checking the bundled example server in process");
    Ok(Opened {
        served: Served::InProcess(example_server()),
        source: ServerSource::Example,
    })
}
