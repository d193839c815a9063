//! What `#[mcp_test(stdio = ..)]`, `#[mcp_test(http = ..)]`, `#[mcp_test(http_command = ..)]`,
//! `#[mcp_test(rmcp = ..)]`, `#[mcp_test(start_paused = true)]` and `#[mcp_test(era = both)]` expand to, reached through
//! `mcp_test::__private`. Not public API.
//!
//! Without the feature a target needs, the same name is a function whose bound nothing
//! satisfies, so the compile error says which feature to enable instead of "not found".

#[cfg(feature = "http")]
pub use super::accepts::HttpUrl;
use super::request::{RequestOptions, TestContext};

/// `#[mcp_test(stdio = command)]`: a context over the server `command` starts, with the test's
/// options.
#[cfg(feature = "client")]
#[track_caller]
pub fn stdio_context(command: impl super::IntoCommand, options: RequestOptions) -> TestContext {
    TestContext::stdio(command).with(|_| options)
}

/// `#[mcp_test(http = url)]`: a context over the server at `url`, with the test's options.
#[cfg(feature = "http")]
#[track_caller]
pub fn http_context(url: impl HttpUrl, options: RequestOptions) -> TestContext {
    TestContext::http(url.url()).with(|_| options)
}

/// `#[mcp_test(rmcp = handler)]`: a context over the rmcp `ServerHandler` `handler`, served in
/// this process, with the test's options.
#[cfg(feature = "rmcp")]
pub fn rmcp_context<S: ::rmcp::ServerHandler>(handler: S, options: RequestOptions) -> TestContext {
    TestContext::rmcp(handler).with(|_| options)
}

/// Implemented by nothing: the bound of `rmcp_context` without the `rmcp` feature.
#[cfg(not(feature = "rmcp"))]
#[diagnostic::on_unimplemented(
    message = "`#[mcp_test(rmcp = ..)]` needs the `rmcp` feature of mcp-test",
    label = "needs the `rmcp` feature",
    note = "enable it where mcp-test is a dependency: `mcp-test = {{ version = \"..\", features = [\"rmcp\"] }}`"
)]
pub trait NeedsRmcpFeature {}

/// Without the `rmcp` feature: a compile error at `rmcp`, naming the feature.
#[cfg(not(feature = "rmcp"))]
pub fn rmcp_context<S: NeedsRmcpFeature>(_handler: S, _options: RequestOptions) -> TestContext {
    unreachable!("NeedsRmcpFeature has no implementations")
}

/// `headers = ..` and `bearer = ..` of `#[mcp_test(http = .., http_command = ..)]`: what the
/// fixture's client sends on every request.
#[derive(Debug, Default)]
pub struct FixtureHeaders {
    headers: Vec<(String, String)>,
    bearer: Option<String>,
}

impl FixtureHeaders {
    /// None yet.
    pub fn new() -> Self {
        FixtureHeaders::default()
    }

    /// Adds every `(name, value)` of `headers`.
    pub fn headers(
        mut self,
        headers: impl IntoIterator<Item = (impl Into<String>, impl Into<String>)>,
    ) -> Self {
        for (name, value) in headers {
            self.headers.push((name.into(), value.into()));
        }
        self
    }

    /// `Authorization: Bearer TOKEN`.
    pub fn bearer(mut self, token: impl Into<String>) -> Self {
        self.bearer = Some(token.into());
        self
    }
}

/// `#[mcp_test(http = url, headers = .., bearer = ..)]`: a context over the server at `url`
/// whose client sends `headers`, with the test's options.
///
/// # Panics
///
/// At the test, naming the header, when a name or value cannot be sent.
#[cfg(feature = "http")]
#[track_caller]
pub fn http_context_with(
    url: impl HttpUrl,
    headers: FixtureHeaders,
    options: RequestOptions,
) -> TestContext {
    let mut http = crate::client::HttpOptions::new();
    let bearer = headers
        .bearer
        .map(|t| ("Authorization".to_owned(), format!("Bearer {t}")));
    for (name, value) in headers.headers.into_iter().chain(bearer) {
        http = match http.without_header(&name).header(&name, &value) {
            Ok(http) => http,
            Err(e) => panic!("#[mcp_test(http = ..)]: {e}"),
        };
    }
    TestContext::http_with(url.url(), &http).with(|_| options)
}

/// Without the `http` feature: a compile error at `http`, naming the feature.
#[cfg(not(feature = "http"))]
pub fn http_context_with<U: NeedsHttpFeature>(
    _url: U,
    _headers: FixtureHeaders,
    _options: RequestOptions,
) -> TestContext {
    unreachable!("NeedsHttpFeature has no implementations")
}

/// `#[mcp_test(http_command = command, headers = .., bearer = ..)]`: [`http_command_context`]
/// whose client sends `headers` ([`HttpCommand::headers`](super::HttpCommand::headers),
/// [`HttpCommand::bearer`](super::HttpCommand::bearer)).
#[cfg(all(feature = "client", feature = "http"))]
#[track_caller]
pub fn http_command_context_with(
    command: impl super::IntoHttpCommand,
    headers: FixtureHeaders,
    options: RequestOptions,
) -> impl std::future::Future<Output = TestContext> {
    let mut command = command.into_http_command().headers(headers.headers);
    if let Some(token) = headers.bearer {
        command = command.bearer(token);
    }
    http_command_context(command, options)
}

/// Without the `client` and `http` features: a compile error at `http_command`, naming them.
#[cfg(not(all(feature = "client", feature = "http")))]
pub fn http_command_context_with<C: NeedsClientAndHttpFeatures>(
    _command: C,
    _headers: FixtureHeaders,
    _options: RequestOptions,
) -> std::future::Pending<TestContext> {
    unreachable!("NeedsClientAndHttpFeatures has no implementations")
}

/// Implemented by nothing: the bound of `stdio_context` without the `client` feature.
#[cfg(not(feature = "client"))]
#[diagnostic::on_unimplemented(
    message = "`#[mcp_test(stdio = ..)]` needs the `client` feature of mcp-test",
    label = "needs the `client` feature",
    note = "enable it where mcp-test is a dependency: `mcp-test = {{ version = \"..\", features = [\"client\"] }}`"
)]
pub trait NeedsClientFeature {}

/// Without the `client` feature: a compile error at `stdio`, naming the feature.
#[cfg(not(feature = "client"))]
pub fn stdio_context<C: NeedsClientFeature>(_command: C, _options: RequestOptions) -> TestContext {
    unreachable!("NeedsClientFeature has no implementations")
}

/// Implemented by nothing: the bound of `http_context` without the `http` feature.
#[cfg(not(feature = "http"))]
#[diagnostic::on_unimplemented(
    message = "`#[mcp_test(http = ..)]` needs the `http` feature of mcp-test",
    label = "needs the `http` feature",
    note = "enable it where mcp-test is a dependency: `mcp-test = {{ version = \"..\", features = [\"http\"] }}`"
)]
pub trait NeedsHttpFeature {}

/// Without the `http` feature: a compile error at `http`, naming the feature.
#[cfg(not(feature = "http"))]
pub fn http_context<U: NeedsHttpFeature>(_url: U, _options: RequestOptions) -> TestContext {
    unreachable!("NeedsHttpFeature has no implementations")
}

/// `#[mcp_test(start_paused = true)]`: the test's runtime starts with tokio's clock paused.
#[cfg(feature = "test-util")]
pub fn start_paused(builder: &mut tokio::runtime::Builder, paused: bool) {
    builder.start_paused(paused);
}

/// Implemented by nothing: the bound of `start_paused` without the `test-util` feature.
#[cfg(not(feature = "test-util"))]
#[diagnostic::on_unimplemented(
    message = "`#[mcp_test(start_paused = true)]` needs the `test-util` feature of mcp-test",
    label = "needs the `test-util` feature (tokio's paused clock)",
    note = "enable it where mcp-test is a dependency: `mcp-test = {{ version = \"..\", features = [\"test-util\"] }}`"
)]
pub trait NeedsTestUtilFeature {}

/// Without the `test-util` feature: a compile error at `true`, naming the feature.
#[cfg(not(feature = "test-util"))]
pub fn start_paused<P: NeedsTestUtilFeature>(_builder: &mut tokio::runtime::Builder, _paused: P) {
    unreachable!("NeedsTestUtilFeature has no implementations")
}

/// `#[mcp_test(http_command = command)]`: starts the command, learns its address and connects
/// ([`TestContext::http_command`]), with the test's options.
#[cfg(all(feature = "client", feature = "http"))]
#[track_caller]
pub fn http_command_context(
    command: impl super::IntoHttpCommand,
    options: RequestOptions,
) -> impl std::future::Future<Output = TestContext> {
    let started = TestContext::http_command(command);
    async move { started.await.with(|_| options) }
}

/// Implemented by nothing: the bound of `http_command_context` without the `client` and
/// `http` features.
#[cfg(not(all(feature = "client", feature = "http")))]
#[diagnostic::on_unimplemented(
    message = "`#[mcp_test(http_command = ..)]` needs the `client` and `http` features of mcp-test",
    label = "needs the `client` and `http` features",
    note = "enable them where mcp-test is a dependency: `mcp-test = {{ version = \"..\", features = [\"client\", \"http\"] }}`"
)]
pub trait NeedsClientAndHttpFeatures {}

/// Without the `client` and `http` features: a compile error at `http_command`, naming them.
#[cfg(not(all(feature = "client", feature = "http")))]
pub fn http_command_context<C: NeedsClientAndHttpFeatures>(
    _command: C,
    _options: RequestOptions,
) -> std::future::Pending<TestContext> {
    unreachable!("NeedsClientAndHttpFeatures has no implementations")
}

/// `#[mcp_test(era = both)]`: runs `run` once in each era, 2026-07-28 first, even when the
/// first fails, then fails naming each era whose run panicked and why.
///
/// The failure starts with the test's location (where the macro calls this, the
/// `#[mcp_test]` attribute): it is printed on stderr and is the panic's payload, re-raised
/// without the panic hook, so no line points into mcp-test (each era's own panic has already
/// been reported where it happened).
#[track_caller]
pub fn run_in_eras<F, Fut>(mut run: F) -> impl std::future::Future<Output = ()>
where
    F: FnMut(crate::wire::Era) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let location = std::panic::Location::caller();
    async move {
        let mut failed = Vec::new();
        for era in [crate::wire::Era::Current, crate::wire::Era::Legacy] {
            if let Err(panic) = CatchUnwind(Box::pin(run(era))).await {
                let reason = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(a panic without a message)")
                    .to_owned();
                failed.push(format!("in {}: {reason}", era.revision()));
            }
        }
        if !failed.is_empty() {
            let message = format!(
                "{location}: #[mcp_test(era = both)]: the test failed {}:\n{}",
                if failed.len() == 2 {
                    "in both eras"
                } else {
                    "in one era"
                },
                failed.join("\n")
            );
            eprintln!("{message}");
            std::panic::resume_unwind(Box::new(message));
        }
    }
}

/// A future whose panic is caught and returned.
struct CatchUnwind<F>(std::pin::Pin<Box<F>>);

impl<F: std::future::Future> std::future::Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn std::any::Any + Send>>;
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let inner = self.0.as_mut();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(std::task::Poll::Pending) => std::task::Poll::Pending,
            Ok(std::task::Poll::Ready(output)) => std::task::Poll::Ready(Ok(output)),
            Err(panic) => std::task::Poll::Ready(Err(panic)),
        }
    }
}
