//! The Streamable HTTP transport of MCP 2026-07-28 (spec §5), as an axum [`Router`].
//!
//! One POST endpoint (default `/mcp`). Every request is checked, in this order:
//!
//! 1. HTTP method: anything but POST gets **405** with `Allow: POST`.
//! 2. DNS-rebinding protection: a `Host` that is not localhost (or an allowed host), or an
//!    `Origin` that is not a localhost origin (or an allowed origin), gets **403**.
//! 3. Authentication, when an [`Authenticator`] is configured: a rejection gets **401** (or
//!    **403** for a valid token without the scope needed) with `WWW-Authenticate`.
//!    Later, a request for a tool, resource or prompt whose [`Access`](crate::Access) rule
//!    needs a scope the caller lacks gets **403** with the authenticator's
//!    [`insufficient_scope`](Authenticator::insufficient_scope) challenge
//!    (`error="insufficient_scope"`, `scope` naming what it needs) and the JSON-RPC error as
//!    the body; without an authenticator that error stays in band
//!    ([`authorization`](crate::authorization)).
//! 4. Body: over the size limit gets **413**; not UTF-8 or not JSON gets **400** / -32700.
//! 5. Mirrored headers (§5.2): `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and
//!    `Mcp-Param-*` must be present where required, single, well-formed, and equal to the body
//!    after Base64-sentinel decoding and trimming; integers compare numerically. Any failure
//!    gets **400** / -32020 naming the header.
//! 6. The server's own dispatch. Its errors map to statuses: -32700, -32600, -32020, -32021,
//!    -32022 and envelope -32602 → 400; -32601 → 404; other handler errors follow the
//!    configured [`ErrorStatusPolicy`].
//!
//! A notification gets **202** with an empty body. A request is answered with JSON, or with an
//! SSE stream (`event: message`) when the handler sends progress or log notifications before
//! its response; the stream ends with the response. Closing the response stream cancels the
//! request. A 2026-07-28 request gets no `Mcp-Session-Id`.
//!
//! # The 2025-11-25 era on the same endpoint
//!
//! When the server serves [`Era::Legacy`] (the default, see
//! [`ServerBuilder::eras`](crate::ServerBuilder::eras)), a POSTed `initialize` without
//! `Mcp-Session-Id` (and without a protocol version in `params._meta`, which makes it a
//! 2026-07-28 request, -32601) starts a 2025-era [`Session`] (basic/transports of 2025-11-25, §Session
//! Management):
//!
//! - its `InitializeResult` carries a fresh `Mcp-Session-Id` header (32 random bytes, hex),
//!   which every later request of the session sends; the session is bound to the principal
//!   that initialized it;
//! - a request with an unknown or ended session id gets **404** (a 2026-07-28 request, whose
//!   `params._meta` names a protocol version, is served as if the header were not there, as
//!   that revision asks); without one (other than `initialize`), when the server does not
//!   also serve 2026-07-28, **400**; a server that serves 2026-07-28 alone ignores the
//!   header, as before;
//! - `MCP-Protocol-Version`, when sent, must be a revision the session supports
//!   ([`LEGACY_VERSIONS`]), else **400**; the 2026-07-28 mirrored headers are not asked for;
//! - a POSTed notification or response (the client's answer to a server request) gets
//!   **202**; `notifications/cancelled` stops the request it names (its stream ends without
//!   a response); a request is answered with JSON, or an SSE stream carrying its notifications
//!   and the server's requests (`elicitation/create`, ...) before its response;
//! - GET with the session id opens the session's own SSE stream (list changes, resource
//!   updates), one at a time (a second gets **409**); DELETE ends the session (**204**);
//!   GET and DELETE without a session id get **405** with `Allow: POST`; a session idle
//!   longer than [`HttpConfig::session_idle_timeout`] (an hour by default) ends, and its id
//!   then gets **404** like any ended session's;
//! - the Host and Origin checks (and authentication) apply to every method.
//!
//! ```
//! use mcp_test::transport::http::{router, HttpConfig};
//! # fn demo(server: mcp_test::Server) {
//! let app: axum::Router = router(server, HttpConfig::default());
//! # let _ = app;
//! # }
//! ```

use crate::authorization::ScopeChallenge;
use crate::context::Identity;
use crate::headers::{self, HeaderParam};
use crate::server::{Caller, Server};
use crate::session::{LEGACY_VERSIONS, Session};
use crate::setters;
use crate::wire::{Era, ErrorObject, Notification, RequestId, RequestMeta, Response, error_codes};
pub use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use futures_util::future::BoxFuture;
use http::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE, HOST, ORIGIN, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderValue, Method, StatusCode};
use serde_json::Value;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

pub mod relay;

/// How errors raised by handlers (after the envelope and header checks) map to HTTP statuses.
///
/// The spec fixes a status only for envelope errors (400), -32020/-32021/-32022 (400) and
/// -32601 (404); for the rest (unknown tool, bad cursor, resource not found, internal errors)
/// it is silent (§13.1), and the reference SDKs differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorStatusPolicy {
    /// 200 with the error in the body, like the TypeScript SDK. The default.
    #[default]
    InBand,
    /// Every -32602 gets 400 and -32603 gets 500, like the Python SDK.
    Strict,
}

/// Why an [`Authenticator`] turned a request away: answered with 401 (or 403, see
/// [`AuthRejection::forbidden`]) and this `WWW-Authenticate` challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthRejection {
    /// The `WWW-Authenticate` header value, e.g. `Bearer realm="mcp", error="invalid_token"`.
    pub challenge: String,
    /// A human-readable reason, sent as the body.
    pub message: String,
    /// 401, or 403 for a token that is valid but lacks a scope.
    status: StatusCode,
}

impl AuthRejection {
    /// A rejection with a challenge and a reason, answered with 401.
    pub fn new(challenge: impl Into<String>, message: impl Into<String>) -> Self {
        AuthRejection {
            challenge: challenge.into(),
            message: message.into(),
            status: StatusCode::UNAUTHORIZED,
        }
    }

    /// A rejection answered with 403: the token is valid but not enough, e.g.
    /// `Bearer error="insufficient_scope", scope="files:write"` (RFC 6750 §3.1).
    pub fn forbidden(challenge: impl Into<String>, message: impl Into<String>) -> Self {
        AuthRejection {
            status: StatusCode::FORBIDDEN,
            ..AuthRejection::new(challenge, message)
        }
    }

    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

/// Turns an HTTP request into the [`Identity`] its handlers see, or rejects it with 401.
///
/// Any `Fn(&http::request::Parts) -> Result<Identity, AuthRejection>` is an authenticator;
/// implement the trait directly for asynchronous verification.
///
/// ```
/// use mcp_test::Identity;
/// use mcp_test::transport::http::{AuthRejection, HttpConfig};
///
/// let config = HttpConfig::default().authenticator(|parts: &http::request::Parts| {
///     match parts.headers.get("authorization").and_then(|v| v.to_str().ok()) {
///         Some("Bearer good") => Ok(Identity::principal("alice").with_scopes(["read"])),
///         _ => Err(AuthRejection::new(r#"Bearer realm="mcp""#, "a valid bearer token is required")),
///     }
/// });
/// # let _ = config;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot authenticate HTTP requests",
    label = "not an `Authenticator`",
    note = "pass a closure `|parts: &http::request::Parts| -> Result<Identity, AuthRejection>`, `Send + Sync + 'static`",
    note = "for a check that must `.await` (a token lookup), implement `Authenticator` on a type of your own and return a boxed future"
)]
pub trait Authenticator: Send + Sync + 'static {
    /// Authenticates one request from its head.
    fn authenticate<'a>(
        &'a self,
        request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Identity, AuthRejection>>;

    /// The `WWW-Authenticate` value of the **403** that answers a request the authenticated
    /// caller may not make for want of scope: a tool, resource or prompt whose
    /// [`Access`](crate::Access) rule needs `scopes` (see
    /// [`authorization`](crate::authorization)), with `description` saying which and what
    /// the caller lacks. By default `Bearer error="insufficient_scope", scope="...",
    /// error_description="..."` ([`bearer_challenge`]); override it to add what the
    /// challenges of your own 401s carry, as [`TokenValidator`](crate::auth::TokenValidator)
    /// adds `resource_metadata` and the scopes every request needs.
    ///
    /// ```
    /// use mcp_test::transport::http::Authenticator;
    /// let anyone = |_: &http::request::Parts| Ok(mcp_test::Identity::principal("p"));
    /// assert_eq!(
    ///     anyone.insufficient_scope(&["notes.write".to_owned()], "needs notes.write"),
    ///     r#"Bearer error="insufficient_scope", error_description="needs notes.write", scope="notes.write""#
    /// );
    /// ```
    fn insufficient_scope(&self, scopes: &[String], description: &str) -> String {
        bearer_challenge(Some(("insufficient_scope", description)), scopes, None)
    }
}

/// A `Bearer` challenge (RFC 6750 §3): `error` and `error_description` when given, `scope`
/// (space-separated) when any, `resource_metadata` (RFC 9728 §5.1) when given, each quoted.
///
/// ```
/// use mcp_test::transport::http::bearer_challenge;
/// assert_eq!(
///     bearer_challenge(None, &["mcp".to_owned()], Some("http://h/.well-known/oauth-protected-resource")),
///     r#"Bearer scope="mcp", resource_metadata="http://h/.well-known/oauth-protected-resource""#
/// );
/// assert_eq!(bearer_challenge(Some(("invalid_token", "say \"why\"")), &[], None),
///     r#"Bearer error="invalid_token", error_description="say \"why\"""#);
/// ```
pub fn bearer_challenge(
    error: Option<(&str, &str)>,
    scopes: &[String],
    resource_metadata: Option<&str>,
) -> String {
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let mut params = Vec::new();
    if let Some((code, description)) = error {
        params.push(format!(r#"error="{}""#, quote(code)));
        params.push(format!(r#"error_description="{}""#, quote(description)));
    }
    if !scopes.is_empty() {
        params.push(format!(r#"scope="{}""#, quote(&scopes.join(" "))));
    }
    if let Some(metadata) = resource_metadata {
        params.push(format!(r#"resource_metadata="{}""#, quote(metadata)));
    }
    if params.is_empty() {
        return "Bearer".to_owned();
    }
    format!("Bearer {}", params.join(", "))
}

impl<F> Authenticator for F
where
    F: Fn(&http::request::Parts) -> Result<Identity, AuthRejection> + Send + Sync + 'static,
{
    fn authenticate<'a>(
        &'a self,
        request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Identity, AuthRejection>> {
        let outcome = self(request);
        Box::pin(async move { outcome })
    }
}

/// Configuration of the HTTP transport. `Default` serves `/mcp`, accepts only localhost hosts
/// and origins, limits bodies to 4 MiB and requests to 60 s, keeps handler errors in band, and
/// authenticates nobody (every request is anonymous).
#[derive(Clone)]
pub struct HttpConfig {
    path: String,
    max_body_bytes: usize,
    request_timeout: Duration,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    error_status: ErrorStatusPolicy,
    authenticator: Option<Arc<dyn Authenticator>>,
    session_idle_timeout: Duration,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            path: "/mcp".to_owned(),
            max_body_bytes: 4 * 1024 * 1024,
            request_timeout: Duration::from_secs(60),
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            error_status: ErrorStatusPolicy::InBand,
            authenticator: None,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
        }
    }
}

/// How long a 2025-era session may sit idle before it ends: [`HttpConfig::session_idle_timeout`].
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(60 * 60);

impl std::fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpConfig")
            .field("path", &self.path)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("request_timeout", &self.request_timeout)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("error_status", &self.error_status)
            .field("authenticator", &self.authenticator.is_some())
            .field("session_idle_timeout", &self.session_idle_timeout)
            .finish()
    }
}

impl HttpConfig {
    setters! {
        /// The endpoint path (default `/mcp`).
        path(path: impl Into<String>) => path = path.into();
        /// The largest accepted body in bytes (default 4 MiB); larger bodies get 413.
        max_body_bytes(bytes: usize) => max_body_bytes = bytes;
        /// How long one request may run (default 60 s, further capped by the server's maximum).
        request_timeout(timeout: Duration) => request_timeout = timeout;
    }

    /// Accepts this `Host` name (without port) besides localhost, e.g. behind a proxy.
    #[must_use]
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.allowed_hosts.push(host.into().to_ascii_lowercase());
        self
    }

    /// Accepts this exact `Origin` (e.g. `https://app.example.com`) besides localhost origins.
    #[must_use]
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.allowed_origins
            .push(origin.into().to_ascii_lowercase());
        self
    }

    setters! {
        /// How handler errors map to statuses (default [`ErrorStatusPolicy::InBand`]).
        error_status(policy: ErrorStatusPolicy) => error_status = policy;

        /// Authenticates every request with `authenticator`.
        authenticator(authenticator: impl Authenticator)
            => authenticator = Some(Arc::new(authenticator));

        /// How long a 2025-era session (`Mcp-Session-Id`) may sit idle before the server ends it
        /// (default [`DEFAULT_SESSION_IDLE_TIMEOUT`], one hour). Idle means no request for that
        /// long, no request still running and no GET stream open. An ended session's id then
        /// gets 404, which tells a 2025-11-25 client to start a new session with `initialize`
        /// (basic/transports.mdx §Session Management: the server MAY terminate a session at any
        /// time). Without it, sessions a client never DELETEs would be held until the limit of
        /// open sessions refused new ones.
        session_idle_timeout(timeout: Duration) => session_idle_timeout = timeout;
    }
}

struct App {
    server: Server,
    config: HttpConfig,
    /// The open 2025-era sessions, by `Mcp-Session-Id`.
    sessions: Mutex<HashMap<String, Arc<HttpSession>>>,
}

/// One 2025-era session over HTTP.
struct HttpSession {
    session: Session,
    /// The principal that initialized it; other callers do not find it.
    principal: Option<String>,
    /// The session's own messages (no request's), for the GET stream; taken while one is
    /// open.
    stream: Mutex<Option<mpsc::UnboundedReceiver<Value>>>,
    /// The requests in flight, which `notifications/cancelled` stops.
    in_flight: Mutex<HashMap<RequestId, tokio::task::AbortHandle>>,
    /// When a request last named it.
    last_used: Mutex<tokio::time::Instant>,
}

impl HttpSession {
    /// Whether it has been idle longer than `timeout`: no request for that long, none running,
    /// and no GET stream open (its receiver is taken while one is).
    fn expired(&self, timeout: Duration) -> bool {
        lock(&self.last_used).elapsed() > timeout
            && lock(&self.in_flight).is_empty()
            && lock(&self.stream).is_some()
    }
}

/// The `Mcp-Session-Id` header.
const SESSION_ID: &str = "mcp-session-id";

/// The most 2025-era sessions open at once; `initialize` beyond it gets 503.
const MAX_SESSIONS: usize = 10_000;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The MCP endpoint as an axum router, for `axum::serve` or, in tests,
/// [`testing::http`](crate::testing::http) (`tower::ServiceExt::oneshot` underneath).
pub fn router(server: Server, config: HttpConfig) -> Router {
    let path = config.path.clone();
    Router::new()
        .route(&path, axum::routing::any(endpoint))
        .with_state(Arc::new(App {
            server,
            config,
            sessions: Mutex::default(),
        }))
}

/// Serves `server` over HTTP on `addr` until the returned future is dropped or fails. Bind
/// `127.0.0.1` for a local server (the spec's advice); [`bind_local`] picks a free port.
pub async fn serve(
    listener: tokio::net::TcpListener,
    server: Server,
    config: HttpConfig,
) -> std::io::Result<()> {
    axum::serve(listener, router(server, config)).await
}

/// Binds `127.0.0.1` on `port` (0 for any free port).
pub async fn bind_local(port: u16) -> std::io::Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await
}

async fn endpoint(
    State(app): State<Arc<App>>,
    request: http::Request<Body>,
) -> http::Response<Body> {
    let (parts, body) = request.into_parts();
    // A server of 2026-07-28 alone ignores `Mcp-Session-Id`, as that revision asks.
    let session_id = parts
        .headers
        .get(SESSION_ID)
        .filter(|_| app.server.serves(Era::Legacy))
        .map(|v| v.to_str().unwrap_or_default().to_owned());
    let allowed = [Method::POST, Method::GET, Method::DELETE];
    if !allowed.contains(&parts.method) || (parts.method != Method::POST && session_id.is_none()) {
        return http::Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(ALLOW, "POST")
            .body(Body::from("the MCP endpoint accepts POST only"))
            .expect("static response");
    }
    if let Err(reason) = check_host_and_origin(&app.config, &parts.headers) {
        return json_error(
            StatusCode::FORBIDDEN,
            None,
            ErrorObject::invalid_request(reason),
        );
    }
    let identity = match &app.config.authenticator {
        None => Identity::anonymous(),
        Some(auth) => match auth.authenticate(&parts).await {
            Ok(identity) => identity,
            Err(rejection) => {
                let challenge = HeaderValue::from_str(&rejection.challenge)
                    .unwrap_or_else(|_| HeaderValue::from_static("Bearer"));
                return http::Response::builder()
                    .status(rejection.status)
                    .header(WWW_AUTHENTICATE, challenge)
                    .body(Body::from(rejection.message))
                    .expect("static response");
            }
        },
    };
    let caller = Caller {
        identity,
        timeout: Some(app.config.request_timeout),
        ..Caller::default()
    };
    if let Some(id) = session_id {
        let Some(session) = find_session(&app, &id, &caller) else {
            if parts.method != Method::POST || !app.server.serves(Era::Current) {
                return unknown_session(&id);
            }
            // A 2026-07-28 request is served as if the header were not there; anything else
            // names a session that ended or never was.
            let message = match read_message(&app.config, body).await {
                Ok(message) => message,
                Err(response) => return response,
            };
            let modern = crate::session::names_a_version(&message)
                || message.get("method").and_then(Value::as_str) == Some("server/discover");
            if !modern {
                return unknown_session(&id);
            }
            return stateless(app, &parts.headers, message, caller).await;
        };
        return match parts.method {
            Method::GET => open_stream(session),
            Method::DELETE => {
                end_session(&app, &id);
                http::Response::builder()
                    .status(StatusCode::NO_CONTENT)
                    .body(Body::empty())
                    .expect("static response")
            }
            _ => {
                let message = match read_message(&app.config, body).await {
                    Ok(message) => message,
                    Err(response) => return response,
                };
                in_session(&app, &session, &parts.headers, message, caller).await
            }
        };
    }
    let message = match read_message(&app.config, body).await {
        Ok(message) => message,
        Err(response) => return response,
    };
    let initialize = message.get("method").and_then(Value::as_str) == Some("initialize")
        && message.get("id").is_some()
        && !crate::session::names_a_version(&message);
    if initialize && app.server.serves(Era::Legacy) {
        return start_session(&app, message, caller).await;
    }
    if !app.server.serves(Era::Current) {
        let id = message.get("id").and_then(RequestId::from_value);
        return json_error(
            StatusCode::BAD_REQUEST,
            id,
            ErrorObject::invalid_request(
                "missing Mcp-Session-Id: send initialize first (this server serves only the 2025-11-25 handshake)",
            ),
        );
    }
    stateless(app, &parts.headers, message, caller).await
}

/// Reads the body as one JSON value: 413 over the limit, 400 / -32700 when it is not UTF-8
/// JSON.
async fn read_message(config: &HttpConfig, body: Body) -> Result<Value, http::Response<Body>> {
    let bytes = match axum::body::to_bytes(body, config.max_body_bytes).await {
        Ok(bytes) => bytes,
        Err(e) => {
            let e = e.into_inner();
            let too_large = e.is::<http_body_util::LengthLimitError>();
            return Err(if too_large {
                http::Response::builder()
                    .status(StatusCode::PAYLOAD_TOO_LARGE)
                    .body(Body::from(format!(
                        "the request body exceeds the limit of {} bytes",
                        config.max_body_bytes
                    )))
                    .expect("static response")
            } else {
                json_error(
                    StatusCode::BAD_REQUEST,
                    None,
                    ErrorObject::parse_error(format!("could not read the body: {e}")),
                )
            });
        }
    };
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        json_error(
            StatusCode::BAD_REQUEST,
            None,
            ErrorObject::parse_error(format!("the body is not UTF-8: {e}")),
        )
    })?;
    serde_json::from_str(text)
        .map_err(|e| json_error(StatusCode::BAD_REQUEST, None, ErrorObject::parse_error(e)))
}

/// The session `id` names, when `caller` may use it.
/// A session idle past [`HttpConfig::session_idle_timeout`] ends here (and is not found).
fn find_session(app: &App, id: &str, caller: &Caller) -> Option<Arc<HttpSession>> {
    let session = lock(&app.sessions).get(id).cloned()?;
    if session.expired(app.config.session_idle_timeout) {
        end_session(app, id);
        return None;
    }
    if session.principal != caller.identity.principal {
        return None;
    }
    *lock(&session.last_used) = tokio::time::Instant::now();
    Some(session)
}

/// Removes the session `id` and closes it.
fn end_session(app: &App, id: &str) {
    if let Some(session) = lock(&app.sessions).remove(id) {
        session.session.close();
    }
}

/// Ends every session idle past the timeout.
fn end_idle_sessions(app: &App) {
    let idle: Vec<String> = lock(&app.sessions)
        .iter()
        .filter(|(_, s)| s.expired(app.config.session_idle_timeout))
        .map(|(id, _)| id.clone())
        .collect();
    for id in idle {
        end_session(app, &id);
    }
}

fn unknown_session(id: &str) -> http::Response<Body> {
    json_error(
        StatusCode::NOT_FOUND,
        None,
        ErrorObject::invalid_request(format!(
            "no session {id:?}: it ended or never existed; send initialize to start a new one"
        )),
    )
}

/// `initialize` without a session id: a new 2025-era session, whose id the result carries.
async fn start_session(app: &Arc<App>, message: Value, caller: Caller) -> http::Response<Body> {
    end_idle_sessions(app);
    if lock(&app.sessions).len() >= MAX_SESSIONS {
        let id = message.get("id").and_then(RequestId::from_value);
        return json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            id,
            ErrorObject::internal(format!(
                "Internal error: {MAX_SESSIONS} sessions are open; end one with DELETE first"
            )),
        );
    }
    let (outgoing, stream) = mpsc::unbounded_channel();
    let session = Session::new(app.server.clone(), Some(outgoing));
    let response = session.handle_value(message, &caller).await;
    let Some(response) = response else {
        return accepted();
    };
    let mut reply = json_response(&app.config, true, &response);
    if response.error().is_none() && session.era() == Some(Era::Legacy) {
        let mut bytes = [0_u8; 32];
        if let Err(e) = getrandom::fill(&mut bytes) {
            return json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                None,
                ErrorObject::internal(format!("Internal error: no random session id: {e}")),
            );
        }
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        reply.headers_mut().insert(
            SESSION_ID,
            HeaderValue::from_str(&id).expect("hex is a header value"),
        );
        lock(&app.sessions).insert(
            id,
            Arc::new(HttpSession {
                session,
                principal: caller.identity.principal.clone(),
                stream: Mutex::new(Some(stream)),
                in_flight: Mutex::default(),
                last_used: Mutex::new(tokio::time::Instant::now()),
            }),
        );
    }
    reply
}

/// A POST of a 2025-era session.
async fn in_session(
    app: &Arc<App>,
    session: &Arc<HttpSession>,
    headers: &HeaderMap,
    message: Value,
    caller: Caller,
) -> http::Response<Body> {
    let id = message.get("id").and_then(RequestId::from_value);
    match single_header(headers, headers::PROTOCOL_VERSION, "MCP-Protocol-Version") {
        Ok(None) => {}
        Ok(Some(version)) if LEGACY_VERSIONS.contains(&version) => {}
        Ok(Some(version)) => {
            return json_error(
                StatusCode::BAD_REQUEST,
                id,
                ErrorObject::invalid_request(format!(
                    "MCP-Protocol-Version {version:?} is not one this session supports ({})",
                    LEGACY_VERSIONS.join(", ")
                )),
            );
        }
        Err(error) => {
            return json_error(
                StatusCode::BAD_REQUEST,
                id,
                ErrorObject::invalid_request(error.message),
            );
        }
    }
    if session.session.deliver(&message) {
        return accepted();
    }
    let is_request = message.get("id").is_some() && message.get("method").is_some();
    if !is_request {
        if message.get("method").and_then(Value::as_str) == Some("notifications/cancelled") {
            // basic/utilities/cancellation: stop the request; nothing more is sent for it.
            let target = message
                .get("params")
                .and_then(|p| p.get("requestId"))
                .and_then(RequestId::from_value);
            if let Some(target) = target
                && let Some(handle) = lock(&session.in_flight).remove(&target)
            {
                handle.abort();
            }
            return accepted();
        }
        let notification =
            message.get("id").is_none() && message.get("method").is_some_and(Value::is_string);
        let response = message.get("method").is_none()
            && message.get("id").is_some()
            && (message.get("result").is_some() || message.get("error").is_some());
        if !notification && !response {
            // basic/transports (2025-11-25): input the server cannot accept gets an HTTP error
            // status, whose body may be a JSON-RPC error with no id.
            return json_error(
                StatusCode::BAD_REQUEST,
                None,
                ErrorObject::invalid_request("neither a request, a notification nor a response"),
            );
        }
        // A notification (or a response nobody waits for): 202.
        let _ = session.session.handle_value(message, &caller).await;
        return accepted();
    }
    run_streamed(app, session, message, caller).await
}

/// Runs a 2025-era request: JSON when nothing comes before its response, else an SSE stream
/// of its notifications and the server's requests, then the response.
async fn run_streamed(
    app: &Arc<App>,
    held: &Arc<HttpSession>,
    message: Value,
    mut caller: Caller,
) -> http::Response<Body> {
    let session = held.session.clone();
    let request_id = message.get("id").and_then(RequestId::from_value);
    let (merged, mut rx) = mpsc::unbounded_channel::<Value>();
    let (notes, mut note_rx) = mpsc::unbounded_channel::<Notification>();
    caller.notifications = Some(notes);
    let forward = merged.clone();
    tokio::spawn(async move {
        while let Some(note) = note_rx.recv().await {
            let note = serde_json::to_value(&note).expect("notifications encode");
            if forward.send(note).is_err() {
                break;
            }
        }
    });
    let registry = held.clone();
    let registered = request_id.clone();
    let mut task = AbortOnDrop(tokio::spawn(async move {
        let requests = merged;
        let response = session
            .handle_value_on(message, &caller, Some(&requests))
            .await;
        if let Some(id) = registered {
            lock(&registry.in_flight).remove(&id);
        }
        response
    }));
    if let Some(id) = request_id
        && !task.0.is_finished()
    {
        lock(&held.in_flight).insert(id, task.0.abort_handle());
    }
    let Some(first) = rx.recv().await else {
        return finished(&app.config, true, (&mut task.0).await);
    };
    messages_then_response(first, rx, task, |message: &Value| {
        sse_frame(&message.to_string())
    })
}

/// GET of a 2025-era session: its own SSE stream, one at a time.
fn open_stream(session: Arc<HttpSession>) -> http::Response<Body> {
    let Some(rx) = lock(&session.stream).take() else {
        return http::Response::builder()
            .status(StatusCode::CONFLICT)
            .body(Body::from(
                "this session's SSE stream is already open: one GET stream at a time",
            ))
            .expect("static response");
    };
    // Hands the receiver back when the client closes the stream, so it may GET again.
    struct Held {
        rx: Option<mpsc::UnboundedReceiver<Value>>,
        session: Arc<HttpSession>,
    }
    impl Drop for Held {
        fn drop(&mut self) {
            if let Some(rx) = self.rx.take() {
                *lock(&self.session.stream) = Some(rx);
            }
        }
    }
    let held = Held {
        rx: Some(rx),
        session,
    };
    let stream = futures_util::stream::unfold(held, |mut held| async move {
        let message = held.rx.as_mut()?.recv().await?;
        Some((
            Ok::<_, std::convert::Infallible>(sse_frame(&message.to_string())),
            held,
        ))
    });
    sse_response(Body::from_stream(stream))
}

fn sse_response(body: Body) -> http::Response<Body> {
    http::Response::builder()
        .status(StatusCode::OK)
        .header(CONTENT_TYPE, "text/event-stream")
        .header(CACHE_CONTROL, "no-cache")
        .header("x-accel-buffering", "no")
        .body(body)
        .expect("static response")
}

fn accepted() -> http::Response<Body> {
    http::Response::builder()
        .status(StatusCode::ACCEPTED)
        .body(Body::empty())
        .expect("static response")
}

/// A request with no session: the 2026-07-28 stateless handling.
async fn stateless(
    app: Arc<App>,
    headers: &HeaderMap,
    message: Value,
    caller: Caller,
) -> http::Response<Body> {
    let is_notification = message
        .as_object()
        .is_some_and(|m| !m.contains_key("id") && m.get("method").is_some_and(Value::is_string));
    if is_notification {
        app.server.handle_value(message, &caller).await;
        return accepted();
    }
    let is_request = message.as_object().is_some_and(|m| {
        m.get("id").and_then(RequestId::from_value).is_some()
            && m.get("method").is_some_and(Value::is_string)
            && m.get("jsonrpc") == Some(&Value::from("2.0"))
    });
    if is_request
        && let Err(error) = check_headers(&app.server, &caller.identity, headers, &message)
    {
        let id = message.get("id").and_then(RequestId::from_value);
        return json_error(StatusCode::BAD_REQUEST, id, error);
    }
    dispatch(app, message, caller).await
}

/// Runs the request; answers JSON unless a notification comes before the response, in which
/// case the answer is an SSE stream of the notifications and then the response.
async fn dispatch(app: Arc<App>, message: Value, mut caller: Caller) -> http::Response<Body> {
    let envelope_ok = message
        .get("params")
        .and_then(|p| p.as_object())
        .is_some_and(|p| RequestMeta::parse(p.get("_meta")).is_ok());
    let (tx, mut rx) = mpsc::unbounded_channel::<Notification>();
    caller.notifications = Some(tx);
    let server = app.server.clone();
    let mut task = AbortOnDrop(tokio::spawn(async move {
        server.handle_value(message, &caller).await
    }));
    let first = rx.recv().await;
    let Some(first) = first else {
        // No notification: the handler finished (dropping the sender) before sending any.
        return finished(&app.config, envelope_ok, (&mut task.0).await);
    };
    messages_then_response(first, rx, task, sse_event)
}

/// An SSE stream of the messages a request's handler sends while it runs (`first`, then the
/// rest of `rx`, each framed by `frame`), ending with the handler's response.
fn messages_then_response<T: Send + 'static>(
    first: T,
    rx: mpsc::UnboundedReceiver<T>,
    task: AbortOnDrop,
    frame: fn(&T) -> Bytes,
) -> http::Response<Body> {
    let stream = futures_util::stream::unfold(
        (Some(first), rx, Some(task)),
        move |(pending, mut rx, task)| async move {
            if let Some(message) = pending {
                return Some((
                    Ok::<_, std::convert::Infallible>(frame(&message)),
                    (None, rx, task),
                ));
            }
            let mut task = task?;
            if let Some(message) = rx.recv().await {
                return Some((Ok(frame(&message)), (None, rx, Some(task))));
            }
            let response = (&mut task.0).await.ok().flatten()?;
            let last = sse_frame(&serde_json::to_string(&response).expect("responses serialize"));
            Some((Ok(last), (None, rx, None)))
        },
    );
    sse_response(Body::from_stream(stream))
}

/// Aborts the request's task when the HTTP exchange is dropped: closing the stream cancels.
struct AbortOnDrop(tokio::task::JoinHandle<Option<Response>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn sse_event(note: &Notification) -> Bytes {
    sse_frame(&serde_json::to_string(note).expect("notifications serialize"))
}

fn sse_frame(json: &str) -> Bytes {
    Bytes::from(format!("event: message\ndata: {json}\n\n"))
}

/// The answer to a request whose handler finished before it sent any notification: its
/// response as JSON, 202 for none (a notification or a response), or 500 when the handler's
/// task failed.
fn finished(
    config: &HttpConfig,
    envelope_ok: bool,
    joined: Result<Option<Response>, tokio::task::JoinError>,
) -> http::Response<Body> {
    match joined {
        Ok(Some(response)) => json_response(config, envelope_ok, &response),
        Ok(None) => accepted(),
        Err(e) => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            None,
            ErrorObject::internal(format!("Internal error: the request task failed: {e}")),
        ),
    }
}

fn json_response(
    config: &HttpConfig,
    envelope_ok: bool,
    response: &Response,
) -> http::Response<Body> {
    let body = serde_json::to_string(response).expect("responses serialize");
    let Some(error) = response.error() else {
        return json_body(StatusCode::OK, body);
    };
    // A caller the authenticator let in, short of a scope a definition needs: 403 with the
    // step-up challenge (basic/authorization §Runtime Insufficient Scope Errors), the
    // JSON-RPC error as the body.
    if let Some(authenticator) = &config.authenticator
        && let Some(scopes) = ScopeChallenge::named_by(error)
    {
        let challenge = authenticator.insufficient_scope(&scopes, &error.message);
        let challenge = HeaderValue::from_str(&challenge)
            .unwrap_or_else(|_| HeaderValue::from_static(r#"Bearer error="insufficient_scope""#));
        let mut reply = json_body(StatusCode::FORBIDDEN, body);
        reply.headers_mut().insert(WWW_AUTHENTICATE, challenge);
        return reply;
    }
    json_body(
        status_for(error.code, envelope_ok, config.error_status),
        body,
    )
}

/// A response of `status` whose body is the JSON text `body`.
fn json_body(status: StatusCode, body: String) -> http::Response<Body> {
    http::Response::builder()
        .status(status)
        .header(CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("static response")
}

/// The HTTP status of a JSON-RPC error code.
///
/// ```
/// use mcp_test::transport::http::{status_for, ErrorStatusPolicy};
/// assert_eq!(status_for(-32601, true, ErrorStatusPolicy::InBand), 404);
/// assert_eq!(status_for(-32602, false, ErrorStatusPolicy::InBand), 400); // envelope
/// assert_eq!(status_for(-32602, true, ErrorStatusPolicy::InBand), 200);  // e.g. unknown tool
/// assert_eq!(status_for(-32602, true, ErrorStatusPolicy::Strict), 400);
/// assert_eq!(status_for(-32603, true, ErrorStatusPolicy::Strict), 500);
/// ```
pub fn status_for(code: i32, envelope_ok: bool, policy: ErrorStatusPolicy) -> StatusCode {
    match code {
        error_codes::PARSE_ERROR
        | error_codes::INVALID_REQUEST
        | error_codes::HEADER_MISMATCH
        | error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY
        | error_codes::UNSUPPORTED_PROTOCOL_VERSION => StatusCode::BAD_REQUEST,
        error_codes::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        error_codes::INVALID_PARAMS if !envelope_ok => StatusCode::BAD_REQUEST,
        _ => match policy {
            ErrorStatusPolicy::InBand => StatusCode::OK,
            ErrorStatusPolicy::Strict if code == error_codes::INVALID_PARAMS => {
                StatusCode::BAD_REQUEST
            }
            ErrorStatusPolicy::Strict if code == error_codes::INTERNAL_ERROR => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ErrorStatusPolicy::Strict => StatusCode::OK,
        },
    }
}

fn json_error(
    status: StatusCode,
    id: Option<RequestId>,
    error: ErrorObject,
) -> http::Response<Body> {
    let body = serde_json::to_string(&Response::Error { id, error }).expect("errors serialize");
    json_body(status, body)
}

/// `localhost` or a loopback address (`127.0.0.0/8`, `[::1]`).
fn is_local_host(host: &str) -> bool {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    host == "localhost"
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Splits `host[:port]` (IPv6 in brackets) and returns the lowercase host.
fn host_name(authority: &str) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => authority[..=end].to_owned(),
            None => authority,
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host.to_owned(),
        _ => authority,
    }
}

/// Why a request fails the DNS-rebinding protection (answered 403).
#[derive(Debug, thiserror::Error)]
enum Rebinding {
    #[error("the Host header is not visible ASCII")]
    HostNotAscii,
    #[error(
        "Host {0:?} is not allowed (DNS-rebinding protection: only localhost and configured hosts)"
    )]
    Host(String),
    #[error("the Origin header is not visible ASCII")]
    OriginNotAscii,
    #[error(
        "Origin {0:?} is not allowed (DNS-rebinding protection: only localhost and configured origins)"
    )]
    Origin(String),
}

fn check_host_and_origin(config: &HttpConfig, headers: &HeaderMap) -> Result<(), Rebinding> {
    if let Some(host) = headers.get(HOST) {
        let host = host.to_str().map_err(|_| Rebinding::HostNotAscii)?;
        let name = host_name(host);
        if !is_local_host(&name) && !config.allowed_hosts.contains(&name) {
            return Err(Rebinding::Host(host.to_owned()));
        }
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let origin = origin.to_str().map_err(|_| Rebinding::OriginNotAscii)?;
        let lower = origin.trim().to_ascii_lowercase();
        let local = ["http://", "https://"].iter().any(|scheme| {
            lower
                .strip_prefix(scheme)
                .is_some_and(|authority| is_local_host(&host_name(authority)))
        });
        if !local && !config.allowed_origins.contains(&lower) {
            return Err(Rebinding::Origin(origin.to_owned()));
        }
    }
    Ok(())
}

/// The single value of a header, trimmed; `Ok(None)` when absent. Duplicates and values that
/// are not visible ASCII are -32020.
fn single_header<'a>(
    headers: &'a HeaderMap,
    name: &str,
    shown: &str,
) -> Result<Option<&'a str>, ErrorObject> {
    let mut values = headers.get_all(name).iter();
    let Some(first) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(ErrorObject::header_mismatch(format!(
            "Header mismatch: {shown} header appears more than once"
        )));
    }
    let text = first.to_str().map_err(|_| {
        ErrorObject::header_mismatch(format!(
            "Header mismatch: {shown} header value contains invalid characters"
        ))
    })?;
    Ok(Some(text.trim_matches([' ', '\t'])))
}

fn mismatch(shown: &str, header: &str, body: &str) -> ErrorObject {
    ErrorObject::header_mismatch(format!(
        "Header mismatch: {shown} header value '{header}' does not match body value '{body}'"
    ))
}

fn missing(shown: &str, what: &str) -> ErrorObject {
    ErrorObject::header_mismatch(format!(
        "Header mismatch: missing required {shown} header (it must mirror {what})"
    ))
}

/// Checks the mirrored headers of one request against its body (spec §5.2).
pub(crate) fn check_headers(
    server: &Server,
    identity: &Identity,
    headers: &HeaderMap,
    message: &Value,
) -> Result<(), ErrorObject> {
    let method = message["method"].as_str().unwrap_or_default();
    let params = message.get("params");
    let body_version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(crate::wire::meta_keys::PROTOCOL_VERSION))
        .and_then(Value::as_str);
    match single_header(headers, headers::PROTOCOL_VERSION, "MCP-Protocol-Version")? {
        // A client that sends no version header is most likely a 2025-era one, whose first
        // request is `initialize`: name the versions served, in the message and in
        // `data.supported`, which basic/versioning.mdx asks of a modern-only server (SHOULD).
        None => {
            let supported = [crate::wire::PROTOCOL_VERSION];
            let error = missing("MCP-Protocol-Version", "params._meta protocolVersion");
            let message = format!(
                "{}; this server speaks protocol version {}",
                error.message,
                supported.join(", ")
            );
            return Err(ErrorObject::header_mismatch(message)
                .with_data(serde_json::json!({ "supported": supported })));
        }
        Some(header) => {
            if let Some(body) = body_version
                && header != body
            {
                return Err(mismatch("MCP-Protocol-Version", header, body));
            }
        }
    }
    match single_header(headers, headers::METHOD, "Mcp-Method")? {
        None => return Err(missing("Mcp-Method", "the JSON-RPC method")),
        Some(header) if header != method => return Err(mismatch("Mcp-Method", header, method)),
        Some(_) => {}
    }
    let name_field = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        // The tasks extension: Mcp-Name carries params.taskId.
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    };
    if let Some(field) = name_field
        && let Some(body) = params.and_then(|p| p.get(field)).and_then(Value::as_str)
    {
        match single_header(headers, headers::NAME, "Mcp-Name")? {
            None => return Err(missing("Mcp-Name", &format!("params.{field}"))),
            Some(raw) => {
                let decoded = headers::decode_value(raw).map_err(|e| {
                    ErrorObject::header_mismatch(format!("Header mismatch: Mcp-Name: {e}"))
                })?;
                if decoded != body {
                    return Err(mismatch("Mcp-Name", raw, body));
                }
            }
        }
    }
    if method == "tools/call"
        && let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str)
        && let Some(tool) = server.visible_tool(name, identity)
    {
        let arguments = params
            .and_then(|p| p.get("arguments"))
            .unwrap_or(&Value::Null);
        for param in headers::header_params(&tool.input_schema) {
            check_param(headers, &param, arguments)?;
        }
    }
    Ok(())
}

fn check_param(
    headers: &HeaderMap,
    param: &HeaderParam,
    arguments: &Value,
) -> Result<(), ErrorObject> {
    let shown = format!("Mcp-Param-{}", param.name);
    let body = match param.lookup(arguments) {
        None | Some(Value::Null) => return Ok(()),
        Some(value) => value,
    };
    let Some(raw) = single_header(headers, &param.header_name(), &shown)? else {
        return Err(missing(
            &shown,
            &format!("arguments/{}", param.path.join("/")),
        ));
    };
    let decoded = headers::decode_value(raw)
        .map_err(|e| ErrorObject::header_mismatch(format!("Header mismatch: {shown}: {e}")))?;
    let matches = match body {
        Value::String(s) => decoded == *s,
        Value::Bool(b) => decoded == b.to_string(),
        Value::Number(n) => match (decoded.parse::<f64>(), n.as_f64()) {
            (Ok(h), Some(b)) => {
                h == b
                    && decoded
                        .chars()
                        .all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
            }
            _ => false,
        },
        _ => false,
    };
    if matches {
        Ok(())
    } else {
        Err(mismatch(&shown, raw, &body.to_string()))
    }
}

/// The JSON-RPC messages of a response body: one for `application/json`, every `data:` event
/// of an SSE stream in order (notifications, then the response).
///
/// ```
/// let body = "event: message\ndata: {\"a\":1}\n\nevent: message\ndata: {\"b\":2}\n\n";
/// let messages = mcp_test::transport::http::messages(body.as_bytes());
/// assert_eq!(messages, [serde_json::json!({"a": 1}), serde_json::json!({"b": 2})]);
/// ```
pub fn messages(body: &[u8]) -> Vec<Value> {
    super::sse::messages(body)
}
