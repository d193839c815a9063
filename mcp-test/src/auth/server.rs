//! The local authorization server: OAuth 2.1 for tests, on 127.0.0.1 only.
//!
//! | endpoint | what |
//! |---|---|
//! | `GET /.well-known/oauth-authorization-server` | its metadata (RFC 8414) |
//! | `GET /jwks` | its public key (RFC 7517) |
//! | `POST /register` | dynamic client registration (RFC 7591): a client id, and a secret unless `token_endpoint_auth_method` is `none` |
//! | `GET /authorize` | the authorization code grant, approved at once (no user to ask), PKCE `S256` required; a `client_id` that is an `https://` (or `http://127.0.0.1`) URL is read as a client ID metadata document |
//! | `POST /token` | `authorization_code` (+ PKCE verifier), `client_credentials` (HTTP Basic or `client_secret_post`) and `refresh_token` |
//! | `POST /introspect` | token introspection (RFC 7662): lets a server in another language validate a token with an HTTP client only |
//! | `POST /mint` | any token a [`TokenSpec`] describes (JSON body, field by field in [`AuthServer`]'s docs, "`POST /mint`"), deliberately wrong ones included: what `mcp-test check` sends to probe a server |
//!
//! Every access token is an ES256 JWT (RFC 9068 form) whose `aud` is the `resource`
//! parameter (RFC 8707) of the request that asked for it; a request without one is refused
//! (`invalid_target`), since MCP clients must send it. Introspection and `/mint` need no
//! client authentication: the server is for tests on the loopback interface and holds
//! nothing to protect.

use super::fetch::get_json;
use super::jwt::{self, SigningKey};
use super::token::{Signature, TokenSpec, now};
use crate::client::HttpOptions;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use http::{HeaderMap, StatusCode};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// How long an authorization code may wait to be exchanged.
const CODE_LIFETIME: i64 = 60;

/// How long an access token from `/token` lives.
const TOKEN_LIFETIME: f64 = 3600.0;

/// A running local authorization server. Dropping the last clone stops it.
///
/// ```
/// use mcp_test::auth::{AuthServer, TokenSpec};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let auth = AuthServer::start().await.unwrap();
/// assert!(auth.issuer().starts_with("http://127.0.0.1:"));
/// let token = auth.token(&TokenSpec::new("http://127.0.0.1:9/mcp").scopes(["mcp:read"]));
/// assert_eq!(token.split('.').count(), 3);
/// # }
/// ```
///
/// # `POST /mint`
///
/// Mints any token over HTTP, for a test or a tool in another language (what
/// `mcp-test check --auth-issuer` sends; the metadata names the endpoint as
/// `mcp_test_mint_endpoint`). No client authentication: the server binds 127.0.0.1 only. The
/// body is a JSON object, [`TokenSpec`] as JSON; every field may be left out:
///
/// | field | type | default | the claim |
/// |---|---|---|---|
/// | `audience` | string, or array of strings | none (no `aud`) | `aud`: the resource (the MCP server's URL) the token is for; `[]` for none; several make an array |
/// | `scopes` | array of strings | `[]` (no `scope`) | `scope`, space-separated |
/// | `subject` | string | `"mcp-test-user"` | `sub`, the principal the server sees |
/// | `expires_in` | number, seconds | `3600` | `exp` = now + this; negative for a token that has expired |
/// | `not_before_in` | number, seconds, or `null` | `null` (no `nbf`) | `nbf` = now + this |
/// | `issuer` | string, or `null` | `null`: the server's own | `iss` |
/// | `client_id` | string, or `null` | `null` (no `client_id`) | `client_id` |
/// | `signature` | `"valid"`, `"wrong-key"`, `"tampered"` or `"none-alg"` | `"valid"` | how it is signed ([`Signature`](crate::auth::Signature)) |
/// | `extra` | object | `{}` | more claims, written last (they replace any above) |
///
/// The reply is `200` with `{"access_token": "<JWT>", "token_type": "Bearer"}`. A body that is
/// not such an object (a field of another type, a field not in the table) is `400` with
/// `{"error": "invalid_request", "error_description": "..."}` naming the field.
///
/// ```http
/// POST /mint HTTP/1.1
/// Content-Type: application/json
///
/// {"audience": "http://127.0.0.1:8080/mcp", "scopes": ["notes.read", "notes.write"],
///  "subject": "alice", "expires_in": -60, "signature": "wrong-key",
///  "extra": {"tenant": "acme"}}
/// ```
///
/// is the token of
///
/// ```
/// use mcp_test::auth::{Signature, TokenSpec};
/// let body = r#"{"audience": "http://127.0.0.1:8080/mcp", "scopes": ["notes.read", "notes.write"],
///                "subject": "alice", "expires_in": -60, "signature": "wrong-key",
///                "extra": {"tenant": "acme"}}"#;
/// let spec = TokenSpec::new("http://127.0.0.1:8080/mcp")
///     .scopes(["notes.read", "notes.write"])
///     .subject("alice")
///     .expires_in(-60.0)
///     .signature(Signature::WrongKey)
///     .claim("tenant", "acme");
/// assert_eq!(serde_json::from_str::<TokenSpec>(body).unwrap(), spec);
/// // A typo is refused, naming the field, rather than silently ignored.
/// let typo = serde_json::from_str::<TokenSpec>(r#"{"scope": ["a"]}"#).unwrap_err();
/// assert!(typo.to_string().contains("unknown field `scope`"), "{typo}");
/// ```
#[derive(Clone)]
pub struct AuthServer {
    inner: Arc<Inner>,
    _serving: Arc<Serving>,
}

impl std::fmt::Debug for AuthServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthServer")
            .field("issuer", &self.inner.issuer)
            .finish()
    }
}

/// Aborts the serving task when the last handle goes.
struct Serving(tokio::task::AbortHandle);

impl Drop for Serving {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A registered client.
#[derive(Clone, Debug)]
struct Registered {
    secret: Option<String>,
    redirect_uris: Vec<String>,
}

/// What an authorization code or a refresh token stands for.
#[derive(Clone, Debug)]
struct Grant {
    client_id: String,
    redirect_uri: String,
    challenge: String,
    scopes: Vec<String>,
    resource: String,
    subject: String,
    expires: i64,
}

struct Inner {
    issuer: String,
    key: SigningKey,
    /// Signs [`Signature::WrongKey`] tokens: same `kid`, not in the JWKS.
    wrong_key: SigningKey,
    client_id: String,
    client_secret: String,
    clients: Mutex<HashMap<String, Registered>>,
    codes: Mutex<HashMap<String, Grant>>,
    refresh: Mutex<HashMap<String, Grant>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `bytes` random bytes as hex.
fn random_hex(bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).expect("the operating system provides random bytes");
    buffer.iter().map(|b| format!("{b:02x}")).collect()
}

impl AuthServer {
    /// Starts a server on a free port of 127.0.0.1.
    pub async fn start() -> std::io::Result<AuthServer> {
        AuthServer::start_on(0).await
    }

    /// Starts a server on `port` of 127.0.0.1 (0: any free port).
    pub async fn start_on(port: u16) -> std::io::Result<AuthServer> {
        let listener =
            tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
        let address = listener.local_addr()?;
        let kid = random_hex(8);
        let client_id = "mcp-test-client".to_owned();
        let client_secret = random_hex(16);
        let inner = Arc::new(Inner {
            issuer: format!("http://{address}"),
            key: SigningKey::generate(kid.clone()),
            wrong_key: SigningKey::generate(kid),
            client_id: client_id.clone(),
            client_secret: client_secret.clone(),
            clients: Mutex::new(HashMap::from([(
                client_id,
                Registered {
                    secret: Some(client_secret),
                    redirect_uris: Vec::new(),
                },
            )])),
            codes: Mutex::default(),
            refresh: Mutex::default(),
        });
        let app = router(inner.clone());
        let task = tokio::spawn(async move {
            // The listener only fails when the runtime goes away.
            let _ = axum::serve(listener, app).await;
        });
        Ok(AuthServer {
            inner,
            _serving: Arc::new(Serving(task.abort_handle())),
        })
    }

    /// The issuer identifier, `http://127.0.0.1:PORT` (no trailing slash): the `iss` of its
    /// tokens and the base of its endpoints.
    pub fn issuer(&self) -> &str {
        &self.inner.issuer
    }

    /// The client id of the confidential client registered from the start, for
    /// `client_credentials`.
    pub fn client_id(&self) -> &str {
        &self.inner.client_id
    }

    /// That client's secret (fresh each start).
    pub fn client_secret(&self) -> &str {
        &self.inner.client_secret
    }

    /// The JWK Set its `/jwks` serves.
    pub fn jwks(&self) -> Value {
        self.inner.jwks()
    }

    /// Mints the token `spec` describes, without any HTTP.
    pub fn token(&self, spec: &TokenSpec) -> String {
        self.inner.mint(spec)
    }

    /// `Authorization: Bearer` + the token `spec` describes, as options for
    /// [`Client::http_with`](crate::client::Client::http_with) or
    /// [`TestContext::http_with`](crate::testing::TestContext::http_with).
    pub fn bearer(&self, spec: &TokenSpec) -> HttpOptions {
        bearer(&self.token(spec))
    }
}

/// Options that send `Authorization: Bearer TOKEN`.
pub fn bearer(token: &str) -> HttpOptions {
    HttpOptions::new()
        .header("Authorization", &format!("Bearer {token}"))
        .expect("a token of base64url parts and dots is a valid header value")
}

impl Inner {
    fn jwks(&self) -> Value {
        json!({"keys": [self.key.jwk()]})
    }

    fn mint(&self, spec: &TokenSpec) -> String {
        let claims = spec.claims(&self.issuer, &random_hex(16));
        match spec.signature {
            Signature::Valid => self.key.sign(&claims),
            Signature::WrongKey => self.wrong_key.sign(&claims),
            Signature::Tampered => {
                let token = self.key.sign(&claims);
                let (input, signature) = token.rsplit_once('.').expect("a JWS has three parts");
                let mut bytes = URL_SAFE_NO_PAD
                    .decode(signature)
                    .expect("a signature just encoded");
                bytes[0] ^= 0x01;
                format!("{input}.{}", URL_SAFE_NO_PAD.encode(bytes))
            }
            Signature::NoneAlg => format!(
                "{}.{}.",
                jwt::part(&json!({"alg": "none", "typ": "at+jwt"})),
                jwt::part(&claims)
            ),
        }
    }

    fn metadata(&self) -> Value {
        let at = |path: &str| format!("{}{path}", self.issuer);
        json!({
            "issuer": self.issuer,
            "authorization_endpoint": at("/authorize"),
            "token_endpoint": at("/token"),
            "registration_endpoint": at("/register"),
            "introspection_endpoint": at("/introspect"),
            "jwks_uri": at("/jwks"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "client_credentials", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "introspection_endpoint_auth_methods_supported": ["none"],
            "authorization_response_iss_parameter_supported": true,
            "client_id_metadata_document_supported": true,
            "mcp_test_mint_endpoint": at("/mint"),
        })
    }

    /// A token for `grant`, and a refresh token standing for the same grant.
    fn issue(&self, grant: Grant) -> Value {
        let spec = TokenSpec::new(grant.resource.clone())
            .scopes(grant.scopes.clone())
            .subject(grant.subject.clone())
            .client_id(grant.client_id.clone())
            .expires_in(TOKEN_LIFETIME);
        let refresh = random_hex(24);
        let scope = grant.scopes.join(" ");
        lock(&self.refresh).insert(refresh.clone(), grant);
        json!({
            "access_token": self.mint(&spec),
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFETIME as u64,
            "scope": scope,
            "refresh_token": refresh,
        })
    }
}

fn router(inner: Arc<Inner>) -> Router {
    use axum::routing::{get, post};
    Router::new()
        .route("/.well-known/oauth-authorization-server", get(metadata))
        .route("/jwks", get(jwks))
        .route("/register", post(register))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .route("/introspect", post(introspect))
        .route("/mint", post(mint))
        .with_state(inner)
}

fn json_reply(status: StatusCode, body: &Value) -> http::Response<Body> {
    http::Response::builder()
        .status(status)
        .header(CONTENT_TYPE, "application/json")
        .header(CACHE_CONTROL, "no-store")
        .body(Body::from(body.to_string()))
        .expect("static response")
}

/// An OAuth error reply (RFC 6749 §5.2).
fn oauth_error(
    status: StatusCode,
    error: &str,
    description: impl Into<String>,
) -> http::Response<Body> {
    json_reply(
        status,
        &json!({"error": error, "error_description": description.into()}),
    )
}

/// The pairs of a form body or a query string.
fn form(bytes: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(bytes).into_owned().collect()
}

async fn metadata(State(inner): State<Arc<Inner>>) -> http::Response<Body> {
    json_reply(StatusCode::OK, &inner.metadata())
}

async fn jwks(State(inner): State<Arc<Inner>>) -> http::Response<Body> {
    json_reply(StatusCode::OK, &inner.jwks())
}

async fn mint(State(inner): State<Arc<Inner>>, body: Bytes) -> http::Response<Body> {
    match serde_json::from_slice::<TokenSpec>(&body) {
        Ok(spec) => json_reply(
            StatusCode::OK,
            &json!({"access_token": inner.mint(&spec), "token_type": "Bearer"}),
        ),
        Err(e) => oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            format!("the body is not a token spec: {e}"),
        ),
    }
}

async fn register(State(inner): State<Arc<Inner>>, body: Bytes) -> http::Response<Body> {
    let bad = |what: &str, why: String| oauth_error(StatusCode::BAD_REQUEST, what, why);
    let Ok(Value::Object(mut request)) = serde_json::from_slice::<Value>(&body) else {
        return bad(
            "invalid_client_metadata",
            "the body is not a JSON object (RFC 7591 §3.1)".into(),
        );
    };
    let redirect_uris = match request.get("redirect_uris") {
        None => Vec::new(),
        Some(Value::Array(uris)) if uris.iter().all(Value::is_string) => uris
            .iter()
            .filter_map(|u| u.as_str().map(str::to_owned))
            .collect(),
        Some(other) => {
            return bad(
                "invalid_redirect_uri",
                format!("/redirect_uris must be an array of strings, not {other}"),
            );
        }
    };
    if let Some(bad_uri) = redirect_uris.iter().find(|u| !redirect_allowed(u)) {
        return bad(
            "invalid_redirect_uri",
            format!("/redirect_uris: {bad_uri:?} is neither a loopback http:// URL nor https://"),
        );
    }
    let method = request
        .get("token_endpoint_auth_method")
        .and_then(Value::as_str)
        .unwrap_or("client_secret_basic")
        .to_owned();
    let secret = (method != "none").then(|| random_hex(16));
    let client_id = format!("client-{}", random_hex(8));
    lock(&inner.clients).insert(
        client_id.clone(),
        Registered {
            secret: secret.clone(),
            redirect_uris,
        },
    );
    request.insert("client_id".into(), client_id.into());
    request.insert("client_id_issued_at".into(), now().into());
    request.insert("token_endpoint_auth_method".into(), method.into());
    if let Some(secret) = secret {
        request.insert("client_secret".into(), secret.into());
        request.insert("client_secret_expires_at".into(), 0.into());
    }
    json_reply(StatusCode::CREATED, &Value::Object(request))
}

/// A redirect URI the server sends codes to: loopback over http, or https.
fn redirect_allowed(uri: &str) -> bool {
    uri.starts_with("https://")
        || uri.starts_with("http://127.0.0.1")
        || uri.starts_with("http://localhost")
        || uri.starts_with("http://[::1]")
}

/// The redirect URIs of `client_id`: a registered client's, or those of the client ID
/// metadata document at the URL `client_id` (its `client_id` must be that URL).
async fn redirect_uris(inner: &Inner, client_id: &str) -> Result<Vec<String>, String> {
    if let Some(client) = lock(&inner.clients).get(client_id) {
        return Ok(client.redirect_uris.clone());
    }
    if !(client_id.starts_with("https://") || client_id.starts_with("http://127.0.0.1")) {
        return Err(format!(
            "unknown client_id {client_id:?}: register it at /register, or use the URL of a client ID metadata document"
        ));
    }
    let document = get_json(client_id).await?;
    if document.get("client_id").and_then(Value::as_str) != Some(client_id) {
        return Err(format!(
            "the client ID metadata document at {client_id} names client_id {}, not its own URL",
            document.get("client_id").unwrap_or(&Value::Null)
        ));
    }
    Ok(document
        .get("redirect_uris")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str().map(str::to_owned))
        .collect())
}

async fn authorize(
    State(inner): State<Arc<Inner>>,
    RawQuery(query): RawQuery,
) -> http::Response<Body> {
    let q = form(query.unwrap_or_default().as_bytes());
    let get = |name: &str| q.get(name).cloned().unwrap_or_default();
    let (client_id, redirect_uri) = (get("client_id"), get("redirect_uri"));
    // Errors before the redirect URI is known good are shown, never redirected (RFC 6749
    // §4.1.2.1).
    let registered = match redirect_uris(&inner, &client_id).await {
        Ok(uris) => uris,
        Err(why) => return oauth_error(StatusCode::BAD_REQUEST, "invalid_client", why),
    };
    if !registered.contains(&redirect_uri) {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            format!("redirect_uri {redirect_uri:?} is not registered for {client_id}"),
        );
    }
    let state = q.get("state").cloned();
    let redirect = |pairs: Vec<(&str, String)>| {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (name, value) in pairs {
            query.append_pair(name, &value);
        }
        if let Some(state) = &state {
            query.append_pair("state", state);
        }
        query.append_pair("iss", &inner.issuer);
        let separator = if redirect_uri.contains('?') { '&' } else { '?' };
        http::Response::builder()
            .status(StatusCode::FOUND)
            .header(
                LOCATION,
                format!("{redirect_uri}{separator}{}", query.finish()),
            )
            .body(Body::empty())
            .expect("static response")
    };
    let error = |code: &str, why: &str| {
        redirect(vec![
            ("error", code.to_owned()),
            ("error_description", why.to_owned()),
        ])
    };
    if get("response_type") != "code" {
        return error("unsupported_response_type", "response_type must be code");
    }
    if get("code_challenge").is_empty() || get("code_challenge_method") != "S256" {
        return error(
            "invalid_request",
            "PKCE is required: send code_challenge with code_challenge_method=S256",
        );
    }
    if get("resource").is_empty() {
        return error(
            "invalid_target",
            "the resource parameter (RFC 8707) is required: the MCP server's URL",
        );
    }
    let code = random_hex(16);
    lock(&inner.codes).insert(
        code.clone(),
        Grant {
            client_id,
            redirect_uri: redirect_uri.clone(),
            challenge: get("code_challenge"),
            scopes: get("scope").split_whitespace().map(str::to_owned).collect(),
            resource: get("resource"),
            subject: "mcp-test-user".to_owned(),
            expires: now() + CODE_LIFETIME,
        },
    );
    redirect(vec![("code", code)])
}

/// The client a token request authenticates as: HTTP Basic, else `client_id` and
/// `client_secret` in the form. `Ok(None)` when it names no client at all.
fn client_auth(
    headers: &HeaderMap,
    form: &HashMap<String, String>,
) -> Result<Option<(String, Option<String>)>, String> {
    if let Some(value) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let Some(encoded) = value.strip_prefix("Basic ") else {
            return Err("the Authorization header of a token request must be Basic".into());
        };
        let decoded = STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .ok_or("the Basic credentials are not base64 of UTF-8")?;
        let (id, secret) = decoded
            .split_once(':')
            .ok_or("the Basic credentials have no `:`")?;
        // RFC 6749 §2.3.1: the id and secret are form-urlencoded before they are joined.
        let unescape = |s: &str| {
            form_urlencoded::parse(format!("x={s}").as_bytes())
                .next()
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default()
        };
        return Ok(Some((unescape(id), Some(unescape(secret)))));
    }
    Ok(form
        .get("client_id")
        .map(|id| (id.clone(), form.get("client_secret").cloned())))
}

async fn token(
    State(inner): State<Arc<Inner>>,
    headers: HeaderMap,
    body: Bytes,
) -> http::Response<Body> {
    let form = form(&body);
    let bad = |error: &str, why: String| oauth_error(StatusCode::BAD_REQUEST, error, why);
    let unauthorized = |why: String| oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", why);
    let client = match client_auth(&headers, &form) {
        Ok(client) => client,
        Err(why) => return unauthorized(why),
    };
    // A confidential client must show its secret; a public one (or a client ID metadata
    // document) shows none.
    if let Some((id, secret)) = &client {
        let known = lock(&inner.clients).get(id).cloned();
        if let Some(Registered {
            secret: Some(expected),
            ..
        }) = known
            && secret.as_deref() != Some(expected.as_str())
        {
            return unauthorized(format!("wrong or missing client_secret for {id}"));
        }
    }
    let client_id = client.as_ref().map(|(id, _)| id.clone());
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    match field("grant_type").as_str() {
        "client_credentials" => {
            let Some(id) = client_id else {
                return unauthorized("client_credentials needs client authentication".into());
            };
            if !matches!(
                lock(&inner.clients).get(&id),
                Some(Registered {
                    secret: Some(_),
                    ..
                })
            ) {
                return unauthorized(format!("{id} is no confidential client"));
            }
            if field("resource").is_empty() {
                return bad(
                    "invalid_target",
                    "the resource parameter (RFC 8707) is required: the MCP server's URL".into(),
                );
            }
            json_reply(
                StatusCode::OK,
                &inner.issue(Grant {
                    client_id: id.clone(),
                    redirect_uri: String::new(),
                    challenge: String::new(),
                    scopes: field("scope")
                        .split_whitespace()
                        .map(str::to_owned)
                        .collect(),
                    resource: field("resource"),
                    subject: id,
                    expires: 0,
                }),
            )
        }
        "authorization_code" => {
            let Some(grant) = lock(&inner.codes).remove(&field("code")) else {
                return bad("invalid_grant", "unknown or used authorization code".into());
            };
            if grant.expires < now() {
                return bad("invalid_grant", "the authorization code expired".into());
            }
            if client_id.as_deref() != Some(grant.client_id.as_str()) {
                return bad(
                    "invalid_grant",
                    "the code was issued to another client_id".into(),
                );
            }
            if field("redirect_uri") != grant.redirect_uri {
                return bad(
                    "invalid_grant",
                    "redirect_uri differs from the authorization request's".into(),
                );
            }
            let verifier = field("code_verifier");
            let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
            if verifier.is_empty() || computed != grant.challenge {
                return bad(
                    "invalid_grant",
                    "code_verifier does not match the code_challenge (PKCE S256)".into(),
                );
            }
            if !field("resource").is_empty() && field("resource") != grant.resource {
                return bad(
                    "invalid_target",
                    "resource differs from the authorization request's".into(),
                );
            }
            json_reply(StatusCode::OK, &inner.issue(grant))
        }
        "refresh_token" => {
            let Some(grant) = lock(&inner.refresh).remove(&field("refresh_token")) else {
                return bad("invalid_grant", "unknown or used refresh token".into());
            };
            if client_id.as_deref() != Some(grant.client_id.as_str()) {
                return bad(
                    "invalid_grant",
                    "the refresh token was issued to another client_id".into(),
                );
            }
            json_reply(StatusCode::OK, &inner.issue(grant))
        }
        "" => bad("invalid_request", "no grant_type".into()),
        other => bad(
            "unsupported_grant_type",
            format!(
                "grant_type {other:?}: this server knows authorization_code, client_credentials and refresh_token"
            ),
        ),
    }
}

async fn introspect(State(inner): State<Arc<Inner>>, body: Bytes) -> http::Response<Body> {
    let form = form(&body);
    let token = form.get("token").map(String::as_str).unwrap_or("");
    let inactive = || json_reply(StatusCode::OK, &json!({"active": false}));
    let Ok(claims) = jwt::verify(token, &inner.jwks()) else {
        return inactive();
    };
    let time = |name: &str| claims.get(name).and_then(Value::as_i64);
    let now = now();
    if claims.get("iss").and_then(Value::as_str) != Some(inner.issuer.as_str())
        || time("exp").is_none_or(|exp| exp <= now)
        || time("nbf").is_some_and(|nbf| nbf > now)
    {
        return inactive();
    }
    let mut reply = claims;
    reply.insert("active".into(), true.into());
    reply.insert("token_type".into(), "Bearer".into());
    json_reply(StatusCode::OK, &Value::Object(reply))
}
