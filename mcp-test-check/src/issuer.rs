//! The authorization server a checked server trusts (`--auth-issuer`), and how `check` gets
//! tokens from it: what makes `check` a tester of the server as an OAuth resource server.
//!
//! Two kinds of issuer:
//!
//! - **the local one** (`mcp-test auth-server`, or [`AuthServer`](mcp_test::auth::AuthServer)
//!   in a Rust test): its metadata names a `mcp_test_mint_endpoint`, where `check` mints any
//!   token it needs, deliberately wrong ones included (another audience, expired);
//! - **the user's own**, with a confidential client's id and secret
//!   ([`AuthIssuer::client_credentials`]): tokens come from its `token_endpoint` by the
//!   `client_credentials` grant with the `resource` (RFC 8707) and `scope` chosen; a token with
//!   a changed signature is made from a good one; an expired one cannot be had, and the probe
//!   that needs it says so.
//!
//! What the server asks of a token is read from outside, as a client would
//! ([`Protected::discover`]): a request without a token must get 401, whose
//! `WWW-Authenticate` names the `scope` and the `resource_metadata` URL; the metadata's
//! `resource` is the audience. A good token holds the challenge's `scope`, every scope of the
//! metadata's `scopes_supported` and those asked for with [`AuthIssuer::scopes`]
//! (`--auth-scope`): the challenge names only what the first request needs, and a check that
//! held no more would be refused every tool behind another scope.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderValue, Method, StatusCode};
use mcp_test::__check::{HttpClient, HttpReply, challenge_param};
use mcp_test::auth::TokenSpec;
use mcp_test::client::{ClientError, HttpOptions};
use serde_json::{Value, json};
use std::time::Duration;

/// The authorization server a checked server trusts.
///
/// ```
/// use mcp_test_check::AuthIssuer;
/// let local = AuthIssuer::new("http://127.0.0.1:9000");
/// let own = AuthIssuer::new("https://auth.example.com").client_credentials("id", "secret");
/// assert_eq!(own.issuer(), "https://auth.example.com");
/// # let _ = local;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuthIssuer {
    issuer: String,
    client: Option<(String, String)>,
    /// Scopes asked for beyond those the server names.
    scopes: Vec<String>,
}

/// Why no token could be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IssuerError {
    /// The issuer or the server could not be reached or read.
    #[error("{what}: {source}")]
    Unreachable {
        /// What was being read.
        what: String,
        /// Why it failed.
        source: Box<ClientError>,
    },
    /// The issuer answered, but not with a token (or not with its metadata).
    #[error("{0}")]
    Refused(String),
    /// This kind of token cannot be had from this issuer.
    #[error("{0}")]
    Unsupported(&'static str),
}

impl AuthIssuer {
    /// The issuer at `issuer` (its identifier: the base of
    /// `/.well-known/oauth-authorization-server`).
    pub fn new(issuer: impl Into<String>) -> Self {
        AuthIssuer {
            issuer: issuer.into().trim_end_matches('/').to_owned(),
            client: None,
            scopes: Vec::new(),
        }
    }

    /// Gets tokens by the `client_credentials` grant as client `id` with `secret`.
    #[must_use]
    pub fn client_credentials(mut self, id: impl Into<String>, secret: impl Into<String>) -> Self {
        self.client = Some((id.into(), secret.into()));
        self
    }

    /// Also asks for `scopes` in every good token (`--auth-scope`): the scopes a server's
    /// tools, resources or prompts need beyond what its 401 challenge and metadata name, so
    /// the check can use them rather than be refused for want of scope.
    ///
    /// ```
    /// use mcp_test_check::AuthIssuer;
    /// let issuer = AuthIssuer::new("http://127.0.0.1:9000").scopes(["notes.write"]);
    /// assert_eq!(issuer.extra_scopes(), ["notes.write"]);
    /// ```
    #[must_use]
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        for scope in scopes {
            let scope = scope.into();
            if !self.scopes.contains(&scope) {
                self.scopes.push(scope);
            }
        }
        self
    }

    /// The issuer identifier.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The scopes asked for beyond those the server names ([`scopes`](Self::scopes)).
    pub fn extra_scopes(&self) -> &[String] {
        &self.scopes
    }

    /// `options` plus `Authorization: Bearer` with a token this issuer grants for the server
    /// at `url` ([`grant_for`](Self::grant_for) says with which scopes). `options`
    /// unchanged when the server asks for no token.
    pub async fn bearer_for(
        &self,
        url: &str,
        options: &HttpOptions,
        timeout: Duration,
    ) -> Result<HttpOptions, IssuerError> {
        Ok(self.grant_for(url, options, timeout).await?.options)
    }

    /// A good token this issuer grants for the server at `url`, and what it holds: the
    /// audience is the `resource` of the protected-resource metadata the server's 401 names
    /// (else `url`); the scopes are the 401 challenge's `scope`, then the metadata's
    /// `scopes_supported`, then the [`scopes`](Self::scopes) asked for, each once. A grant
    /// with `options` unchanged and no token when the server asks for none.
    pub async fn grant_for(
        &self,
        url: &str,
        options: &HttpOptions,
        timeout: Duration,
    ) -> Result<Grant, IssuerError> {
        let Some(protected) = Protected::discover(url, options, timeout).await? else {
            return Ok(Grant {
                options: options.clone(),
                resource: None,
                scopes: Vec::new(),
            });
        };
        let scopes = protected.token_scopes(&self.scopes);
        let tokens = Tokens::connect(self, options, timeout).await?;
        let token = tokens
            .token(&protected.resource, &scopes, Kind::Good)
            .await?;
        let options = options
            .without_header("authorization")
            .header("Authorization", &format!("Bearer {token}"))
            .map_err(|e| IssuerError::Refused(format!("the token is no header value: {e}")))?;
        Ok(Grant {
            options,
            resource: Some(protected.resource),
            scopes,
        })
    }
}

/// A token had from an [`AuthIssuer`] ([`AuthIssuer::grant_for`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Grant {
    /// The options given, with `Authorization: Bearer TOKEN`.
    pub options: HttpOptions,
    /// The token's audience; `None` when the server asks for no token (and none was had).
    pub resource: Option<String>,
    /// The scopes it holds.
    pub scopes: Vec<String>,
}

/// What a server asks of a token, read from outside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Protected {
    /// The audience: the metadata's `resource`, else the endpoint's URL.
    pub resource: String,
    /// The scopes: the 401 challenge's `scope`, else the metadata's `scopes_supported`.
    pub scopes: Vec<String>,
    /// The 401's `WWW-Authenticate`.
    pub challenge: String,
    /// The challenge's `scope` parameter, when it has one.
    pub challenge_scope: Option<String>,
    /// The metadata's `scopes_supported`.
    pub scopes_supported: Vec<String>,
}

/// One raw request's reply, or why none came.
pub(crate) async fn send(
    client: &HttpClient,
    method: Method,
    url: &str,
    headers: HeaderMap,
    body: impl Into<Bytes>,
    timeout: Duration,
) -> Result<HttpReply, IssuerError> {
    let unreachable = |source| IssuerError::Unreachable {
        what: format!("{method} {url}"),
        source: Box::new(source),
    };
    let uri = HttpClient::parse_url(url).map_err(unreachable)?;
    client
        .request(method.clone(), &uri, headers, body.into(), timeout)
        .await
        .map_err(unreachable)
}

/// `server/discover` POSTed to `url` with `token` as bearer (none: no `Authorization`).
pub(crate) async fn discover_with(
    client: &HttpClient,
    url: &str,
    token: Option<&str>,
    timeout: Duration,
) -> Result<HttpReply, IssuerError> {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    let body = mcp_test::wire::build::build_request("server/discover", json!({}));
    for (name, value) in mcp_test::wire::build::mirrored_headers(&body) {
        if let (Ok(name), Ok(value)) = (
            http::HeaderName::try_from(name),
            HeaderValue::try_from(value),
        ) {
            headers.insert(name, value);
        }
    }
    if let Some(token) = token {
        let value = HeaderValue::from_str(&format!("Bearer {token}"))
            .map_err(|e| IssuerError::Refused(format!("the token is no header value: {e}")))?;
        headers.insert(AUTHORIZATION, value);
    }
    send(
        client,
        Method::POST,
        url,
        headers,
        body.to_string(),
        timeout,
    )
    .await
}

/// The `WWW-Authenticate` of a reply, all challenges joined.
pub(crate) fn www_authenticate(reply: &HttpReply) -> String {
    reply
        .headers
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Protected {
    /// The scopes of a good token: the challenge's `scope`, then `scopes_supported`, then
    /// `extra`, each once.
    pub(crate) fn token_scopes(&self, extra: &[String]) -> Vec<String> {
        let named = self
            .challenge_scope
            .iter()
            .flat_map(|s| s.split_whitespace().map(str::to_owned));
        let mut scopes: Vec<String> = Vec::new();
        for scope in named
            .chain(self.scopes_supported.iter().cloned())
            .chain(extra.iter().cloned())
        {
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        scopes
    }

    /// What the server at `url` asks of a token: `None` when it answers a request without one
    /// (it asks for none).
    pub(crate) async fn discover(
        url: &str,
        options: &HttpOptions,
        timeout: Duration,
    ) -> Result<Option<Protected>, IssuerError> {
        let bare = options.without_header("authorization");
        let client =
            HttpClient::with_options(&bare).map_err(|source| IssuerError::Unreachable {
                what: url.to_owned(),
                source: Box::new(source),
            })?;
        let reply = discover_with(&client, url, None, timeout).await?;
        if reply.status != StatusCode::UNAUTHORIZED {
            return Ok(None);
        }
        let challenge = www_authenticate(&reply);
        let challenge_scope = challenge_param(&challenge, "scope");
        let metadata = match challenge_param(&challenge, "resource_metadata") {
            Some(at) => {
                let reply = send(&client, Method::GET, &at, HeaderMap::new(), "", timeout).await?;
                serde_json::from_slice::<Value>(&reply.body).ok()
            }
            None => None,
        }
        .unwrap_or(Value::Null);
        let scopes_supported: Vec<String> = metadata
            .get("scopes_supported")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect();
        let scopes = match &challenge_scope {
            Some(scope) => scope.split_whitespace().map(str::to_owned).collect(),
            None => scopes_supported.clone(),
        };
        Ok(Some(Protected {
            resource: metadata
                .get("resource")
                .and_then(Value::as_str)
                .unwrap_or(url)
                .to_owned(),
            scopes,
            challenge,
            challenge_scope,
            scopes_supported,
        }))
    }
}

/// Which token to get.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    /// One the server should take.
    Good,
    /// For another resource.
    Audience(String),
    /// Expired an hour ago.
    Expired,
    /// A good one whose signature was changed.
    Tampered,
}

/// Where tokens come from: the local issuer's mint, or a token endpoint.
pub(crate) struct Tokens {
    client: HttpClient,
    mint: Option<String>,
    token_endpoint: Option<String>,
    credentials: Option<(String, String)>,
    timeout: Duration,
}

impl Tokens {
    /// Reads the issuer's metadata (RFC 8414).
    pub(crate) async fn connect(
        issuer: &AuthIssuer,
        options: &HttpOptions,
        timeout: Duration,
    ) -> Result<Tokens, IssuerError> {
        let bare = options.without_header("authorization");
        let client =
            HttpClient::with_options(&bare).map_err(|source| IssuerError::Unreachable {
                what: issuer.issuer.clone(),
                source: Box::new(source),
            })?;
        let at = format!("{}/.well-known/oauth-authorization-server", issuer.issuer);
        let reply = send(&client, Method::GET, &at, HeaderMap::new(), "", timeout).await?;
        let metadata: Value = serde_json::from_slice(&reply.body)
            .ok()
            .filter(|_| reply.status.is_success())
            .ok_or_else(|| {
                IssuerError::Refused(format!(
                    "{at} served no metadata: HTTP {}",
                    reply.status.as_u16()
                ))
            })?;
        let field = |name: &str| {
            metadata
                .get(name)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let tokens = Tokens {
            client,
            mint: field("mcp_test_mint_endpoint"),
            token_endpoint: field("token_endpoint"),
            credentials: issuer.client.clone(),
            timeout,
        };
        if tokens.mint.is_none() && tokens.credentials.is_none() {
            return Err(IssuerError::Unsupported(
                "the issuer is not an mcp-test auth-server (its metadata names no mcp_test_mint_endpoint): give a client id and secret (--client-id, --client-secret) for client_credentials",
            ));
        }
        Ok(tokens)
    }

    /// A token of `kind` for `resource` with `scopes`.
    pub(crate) async fn token(
        &self,
        resource: &str,
        scopes: &[String],
        kind: Kind,
    ) -> Result<String, IssuerError> {
        if kind == Kind::Tampered {
            let good = Box::pin(self.token(resource, scopes, Kind::Good)).await?;
            return Ok(tamper(&good));
        }
        // A client of the user's own gets real grants; the mint of the local issuer makes
        // what no grant gives (an expired token), or everything when no client was given.
        let granted = match (&self.token_endpoint, &self.credentials, &kind) {
            (_, _, Kind::Expired) | (None, _, _) | (_, None, _) => None,
            (Some(endpoint), Some(credentials), _) => Some((endpoint, credentials)),
        };
        let Some((endpoint, (id, secret))) = granted else {
            let Some(mint) = &self.mint else {
                return Err(IssuerError::Unsupported(if kind == Kind::Expired {
                    "an authorization server grants no expired token; run the local one (mcp-test auth-server) to probe expiry"
                } else {
                    "the issuer's metadata names no token_endpoint"
                }));
            };
            let mut spec = TokenSpec::new(resource)
                .scopes(scopes.iter().cloned())
                .subject("mcp-test-check")
                .client_id("mcp-test-check");
            spec = match kind {
                Kind::Audience(other) => spec.audience(other),
                Kind::Expired => spec.expired(),
                _ => spec,
            };
            let body = serde_json::to_string(&spec).expect("a token spec serializes");
            let mut headers = HeaderMap::new();
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            let reply = send(
                &self.client,
                Method::POST,
                mint,
                headers,
                body,
                self.timeout,
            )
            .await?;
            return access_token(&reply, mint);
        };
        let resource = match kind {
            Kind::Audience(other) => other,
            _ => resource.to_owned(),
        };
        let mut form = form_urlencoded::Serializer::new(String::new());
        form.append_pair("grant_type", "client_credentials")
            .append_pair("resource", &resource);
        if !scopes.is_empty() {
            form.append_pair("scope", &scopes.join(" "));
        }
        let mut headers = HeaderMap::new();
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        let basic = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            form_urlencoded::byte_serialize(id.as_bytes()).collect::<String>(),
            form_urlencoded::byte_serialize(secret.as_bytes()).collect::<String>()
        ));
        let value = HeaderValue::from_str(&format!("Basic {basic}")).map_err(|e| {
            IssuerError::Refused(format!("the client credentials are no header value: {e}"))
        })?;
        headers.insert(AUTHORIZATION, value);
        let reply = send(
            &self.client,
            Method::POST,
            endpoint,
            headers,
            form.finish(),
            self.timeout,
        )
        .await?;
        access_token(&reply, endpoint)
    }
}

/// The `access_token` of a token reply.
fn access_token(reply: &HttpReply, at: &str) -> Result<String, IssuerError> {
    serde_json::from_slice::<Value>(&reply.body)
        .ok()
        .filter(|_| reply.status.is_success())
        .and_then(|v| {
            v.get("access_token")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .ok_or_else(|| {
            IssuerError::Refused(format!(
                "{at} granted no token: HTTP {}: {}",
                reply.status.as_u16(),
                mcp_test::cases::shorten(&reply.text(), 200)
            ))
        })
}

/// `token` with its signature changed: for a JWS, one bit of the signature's first byte; for
/// an opaque token, its last character.
fn tamper(token: &str) -> String {
    if let Some((input, signature)) = token.rsplit_once('.')
        && let Ok(mut bytes) = URL_SAFE_NO_PAD.decode(signature)
        && !bytes.is_empty()
    {
        bytes[0] ^= 0x01;
        return format!("{input}.{}", URL_SAFE_NO_PAD.encode(bytes));
    }
    let mut chars: Vec<char> = token.chars().collect();
    if let Some(last) = chars.last_mut() {
        *last = if *last == 'A' { 'B' } else { 'A' };
    }
    chars.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tampered_token_differs_in_its_signature_only() {
        let token = "aGVhZA.Ym9keQ.c2lnbmF0dXJl";
        let changed = tamper(token);
        assert_ne!(changed, token);
        assert!(changed.starts_with("aGVhZA.Ym9keQ."));
        assert_ne!(tamper("opaque"), "opaque");
    }
}
