//! The resource-server side: [`TokenValidator`] checks a bearer token the way the
//! authorization spec asks an MCP server to (`basic/authorization/index.mdx` §Token Handling,
//! §Error Handling), and is an [`Authenticator`] of the HTTP transport, so the [`Identity`]
//! it makes (principal `sub`, the token's scopes) reaches the per-definition
//! [`Access`](crate::Access) rules.
//!
//! What it checks, in order: the `Authorization: Bearer` header is there (else 401 with the
//! challenge naming the protected-resource metadata and the scopes needed); the token is an
//! ES256 JWS whose signature verifies with a key of the issuer's JWKS; `iss` is the trusted
//! issuer; `aud` names this server's resource URI (RFC 8707); `exp` has not passed and `nbf`
//! has (with a leeway of 30 s for clock skew); else 401 with `error="invalid_token"`. Then the
//! required scopes ([`require_scopes`](TokenValidator::require_scopes), all or nothing, for
//! every request of the endpoint): a token without one of them gets 403
//! `error="insufficient_scope"` with `scope` naming them all (§Runtime Insufficient Scope
//! Errors). A token with them reaches the server, where each tool, resource and prompt's own
//! [`Access::scopes`](crate::Access::scopes) decides: one it lacks a scope for is listed, and
//! using it gets 403 `insufficient_scope` whose `scope` names the required scopes and the
//! definition's ([`Authenticator::insufficient_scope`]).
//!
//! [`TokenValidator::metadata_router`] serves the protected-resource metadata (RFC 9728) at
//! the well-known URIs a client tries.

use super::fetch::get_json;
use super::jwt::{self, JwtError};
use super::token::now;
use crate::context::Identity;
use crate::transport::http::{AuthRejection, Authenticator, Router, bearer_challenge};
use axum::body::Body;
use futures_util::future::BoxFuture;
use http::header::{AUTHORIZATION, CONTENT_TYPE};

use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TokenError {
    /// Not a JWS, another algorithm, an unknown key or a signature that does not verify.
    #[error(transparent)]
    Jwt(#[from] JwtError),
    /// `iss` is not the trusted issuer.
    #[error("the token's issuer (iss) is {found:?}, not the trusted {expected:?}")]
    Issuer {
        /// The trusted issuer.
        expected: String,
        /// The token's `iss`.
        found: String,
    },
    /// `aud` does not name this server.
    #[error("the token's audience (aud) is {found}, not this server ({expected})")]
    Audience {
        /// This server's resource URI.
        expected: String,
        /// The token's `aud`.
        found: Value,
    },
    /// `exp` has passed (or is missing).
    #[error("the token expired (exp {0})")]
    Expired(Value),
    /// `nbf` is still ahead.
    #[error("the token is not valid before {0}")]
    NotYetValid(i64),
    /// The keys of the issuer could not be read.
    #[error("the issuer's keys could not be read: {0}")]
    Keys(String),
}

/// Where the issuer's public keys come from.
enum Keys {
    /// Given once.
    Given(Value),
    /// Read from the issuer's metadata (`jwks_uri`), kept, read again for an unknown `kid`.
    Fetched(Mutex<Option<Value>>),
}

/// Validates bearer tokens of one issuer for one resource: what it checks, in order, and how
/// it answers, are in the [`auth` module's docs](crate::auth) and on
/// [`validate`](Self::validate).
///
/// ```
/// use mcp_test::auth::{AuthServer, TokenSpec, TokenValidator};
/// use mcp_test::transport::http::{bind_local, router, HttpConfig};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let auth = AuthServer::start().await.unwrap();
/// let listener = bind_local(0).await.unwrap();
/// let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
/// let validator = TokenValidator::new(auth.issuer(), &resource)
///     .jwks(auth.jwks())
///     .require_scopes(["mcp:read"]);
/// let good = auth.token(&TokenSpec::new(&resource).scopes(["mcp:read"]).subject("alice"));
/// let who = validator.validate(&good).await.unwrap();
/// assert_eq!(who.principal.as_deref(), Some("alice"));
/// assert!(validator.validate(&auth.token(&TokenSpec::new(&resource).expired())).await.is_err());
///
/// let server = mcp_test::Server::builder("demo", "1.0.0").build().unwrap();
/// let app = router(server, HttpConfig::default().authenticator(validator.clone()))
///     .merge(validator.metadata_router());
/// # drop((app, listener));
/// # }
/// ```
#[derive(Clone)]
pub struct TokenValidator {
    inner: Arc<Inner>,
}

struct Inner {
    issuer: String,
    resource: String,
    keys: Keys,
    required: Vec<String>,
    supported: Vec<String>,
    leeway: i64,
}

impl std::fmt::Debug for TokenValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenValidator")
            .field("issuer", &self.inner.issuer)
            .field("resource", &self.inner.resource)
            .field("required", &self.inner.required)
            .finish()
    }
}

impl TokenValidator {
    /// Tokens of `issuer` (its keys read from its RFC 8414 metadata's `jwks_uri`) for the
    /// resource `resource`, this server's canonical URL (e.g. `http://127.0.0.1:8080/mcp`).
    pub fn new(issuer: impl Into<String>, resource: impl Into<String>) -> Self {
        TokenValidator {
            inner: Arc::new(Inner {
                issuer: issuer.into(),
                resource: resource.into(),
                keys: Keys::Fetched(Mutex::new(None)),
                required: Vec::new(),
                supported: Vec::new(),
                leeway: 30,
            }),
        }
    }

    fn with(self, change: impl FnOnce(&mut Inner)) -> Self {
        let mut inner = Arc::try_unwrap(self.inner).unwrap_or_else(|shared| Inner {
            issuer: shared.issuer.clone(),
            resource: shared.resource.clone(),
            keys: match &shared.keys {
                Keys::Given(jwks) => Keys::Given(jwks.clone()),
                Keys::Fetched(_) => Keys::Fetched(Mutex::new(None)),
            },
            required: shared.required.clone(),
            supported: shared.supported.clone(),
            leeway: shared.leeway,
        });
        change(&mut inner);
        TokenValidator {
            inner: Arc::new(inner),
        }
    }

    /// Verifies with the keys of `jwks` (a JWK Set) rather than fetching them.
    #[must_use]
    pub fn jwks(self, jwks: Value) -> Self {
        self.with(|i| i.keys = Keys::Given(jwks))
    }

    /// Every request needs all of `scopes` (else 403 `insufficient_scope`): all or nothing,
    /// for the whole endpoint. They are also the 401 challenge's `scope` and the metadata's
    /// `scopes_supported` unless [`scopes_supported`](Self::scopes_supported) says otherwise.
    /// What a single tool, resource or prompt needs beyond them is its own
    /// [`Access::scopes`](crate::Access::scopes), challenged only when it is used.
    #[must_use]
    pub fn require_scopes(self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.with(|i| i.required = scopes.into_iter().map(Into::into).collect())
    }

    /// The metadata's `scopes_supported` (default: the required scopes): list the scopes
    /// your definitions' [`Access::scopes`](crate::Access::scopes) name here too, and a
    /// client that reads them (as `mcp-test check --auth-issuer` does) can ask for them up
    /// front rather than step up.
    #[must_use]
    pub fn scopes_supported(self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.with(|i| i.supported = scopes.into_iter().map(Into::into).collect())
    }

    /// The clock-skew leeway on `exp` and `nbf`, in seconds (default 30).
    #[must_use]
    pub fn leeway(self, seconds: u32) -> Self {
        self.with(|i| i.leeway = i64::from(seconds))
    }

    /// The resource URI tokens must name.
    pub fn resource(&self) -> &str {
        &self.inner.resource
    }

    /// The URL of the protected-resource metadata: `/.well-known/oauth-protected-resource`
    /// inserted before the resource's path (RFC 9728 §3.1).
    pub fn metadata_url(&self) -> String {
        metadata_url(&self.inner.resource)
    }

    /// The protected-resource metadata document (RFC 9728 §2).
    pub fn metadata(&self) -> Value {
        let supported = if self.inner.supported.is_empty() {
            &self.inner.required
        } else {
            &self.inner.supported
        };
        let mut document = json!({
            "resource": self.inner.resource,
            "authorization_servers": [self.inner.issuer],
            "bearer_methods_supported": ["header"],
        });
        if !supported.is_empty() {
            document["scopes_supported"] = json!(supported);
        }
        document
    }

    /// A router serving [`metadata`](Self::metadata) at its well-known URI and at the root
    /// form, to merge with the MCP endpoint's router.
    pub fn metadata_router(&self) -> Router {
        let document = self.metadata().to_string();
        let reply = move || {
            let document = document.clone();
            async move {
                http::Response::builder()
                    .header(CONTENT_TYPE, "application/json")
                    .body(Body::from(document))
                    .expect("static response")
            }
        };
        let path = path_of(&self.metadata_url());
        let mut router = Router::new().route(&path, axum::routing::get(reply.clone()));
        if path != WELL_KNOWN {
            router = router.route(WELL_KNOWN, axum::routing::get(reply));
        }
        router
    }

    /// The identity `token` stands for (principal `sub`, the token's `scope`, its `client_id`
    /// in the host context), or why it is refused; scopes are not judged here. Checks, in
    /// order: an ES256 signature by a key of the issuer's JWKS (read once from its metadata's
    /// `jwks_uri`, and again for an unknown `kid`), `iss`, `aud` naming this resource (scheme
    /// and host in any case, a trailing slash or not), `exp` and `nbf` within the leeway.
    ///
    /// As the transport's [`Authenticator`], no bearer token gets 401 with
    /// `resource_metadata` and the required `scope`; a refused one 401 with
    /// `error="invalid_token"`; a valid one without a required scope 403 with
    /// `error="insufficient_scope"` and every required scope.
    pub async fn validate(&self, token: &str) -> Result<Identity, TokenError> {
        let claims = match self.verify(token).await {
            Err(TokenError::Jwt(JwtError::UnknownKey(_))) if self.refetch() => {
                self.verify(token).await?
            }
            other => other?,
        };
        self.check_claims(&claims)
    }

    /// Forgets fetched keys so the next use reads them again; whether there was anything to
    /// forget.
    fn refetch(&self) -> bool {
        match &self.inner.keys {
            Keys::Given(_) => false,
            Keys::Fetched(cache) => cache
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .is_some(),
        }
    }

    async fn verify(&self, token: &str) -> Result<Map<String, Value>, TokenError> {
        let jwks = match &self.inner.keys {
            Keys::Given(jwks) => jwks.clone(),
            Keys::Fetched(cache) => {
                let known = cache.lock().unwrap_or_else(|e| e.into_inner()).clone();
                match known {
                    Some(jwks) => jwks,
                    None => {
                        let jwks = fetch_jwks(&self.inner.issuer)
                            .await
                            .map_err(TokenError::Keys)?;
                        *cache.lock().unwrap_or_else(|e| e.into_inner()) = Some(jwks.clone());
                        jwks
                    }
                }
            }
        };
        Ok(jwt::verify(token, &jwks)?)
    }

    fn check_claims(&self, claims: &Map<String, Value>) -> Result<Identity, TokenError> {
        let inner = &self.inner;
        let iss = claims.get("iss").and_then(Value::as_str).unwrap_or("");
        if iss != inner.issuer {
            return Err(TokenError::Issuer {
                expected: inner.issuer.clone(),
                found: iss.to_owned(),
            });
        }
        let aud = claims.get("aud").cloned().unwrap_or(Value::Null);
        let names_us = match &aud {
            Value::String(one) => same_resource(one, &inner.resource),
            Value::Array(many) => many.iter().any(|a| {
                a.as_str()
                    .is_some_and(|a| same_resource(a, &inner.resource))
            }),
            _ => false,
        };
        if !names_us {
            return Err(TokenError::Audience {
                expected: inner.resource.clone(),
                found: aud,
            });
        }
        let now = now();
        match claims.get("exp").and_then(Value::as_i64) {
            Some(exp) if exp + inner.leeway > now => {}
            _ => {
                return Err(TokenError::Expired(
                    claims.get("exp").cloned().unwrap_or(Value::Null),
                ));
            }
        }
        if let Some(nbf) = claims.get("nbf").and_then(Value::as_i64)
            && nbf - inner.leeway > now
        {
            return Err(TokenError::NotYetValid(nbf));
        }
        let mut identity = Identity::principal(
            claims
                .get("sub")
                .and_then(Value::as_str)
                .unwrap_or_default(),
        );
        identity.scopes = claims
            .get("scope")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        if let Some(client) = claims.get("client_id") {
            identity
                .host_context
                .insert("client_id".into(), client.clone());
        }
        Ok(identity)
    }

    /// The challenge of a 401 or 403, each parameter quoted (RFC 6750 §3).
    fn challenge(&self, error: Option<(&str, &str)>, scopes: &[String]) -> String {
        bearer_challenge(error, scopes, Some(&self.metadata_url()))
    }

    /// The transport's answer for one request head.
    async fn authenticate_head(
        &self,
        head: &http::request::Parts,
    ) -> Result<Identity, AuthRejection> {
        let required = &self.inner.required;
        let token = head
            .headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, token) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            });
        let Some(token) = token else {
            return Err(AuthRejection::new(
                self.challenge(None, required),
                "a bearer token is required (Authorization: Bearer TOKEN)",
            ));
        };
        let identity = match self.validate(token).await {
            Ok(identity) => identity,
            Err(e) => {
                let why = e.to_string();
                return Err(AuthRejection::new(
                    self.challenge(Some(("invalid_token", &why)), &[]),
                    why,
                ));
            }
        };
        let missing: Vec<&String> = required.iter().filter(|s| !identity.has_scope(s)).collect();
        if !missing.is_empty() {
            let why = format!(
                "the token lacks scope {}",
                missing
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            return Err(AuthRejection::forbidden(
                self.challenge(Some((INSUFFICIENT_SCOPE, &why)), required),
                why,
            ));
        }
        Ok(identity)
    }
}

impl Authenticator for TokenValidator {
    fn authenticate<'a>(
        &'a self,
        request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Identity, AuthRejection>> {
        Box::pin(self.authenticate_head(request))
    }

    /// `error="insufficient_scope"` with `scope` naming the required scopes and then those
    /// the definition needs (every scope the operation needs, in one challenge, as
    /// §Runtime Insufficient Scope Errors asks), and `resource_metadata`, as the 401s do.
    fn insufficient_scope(&self, scopes: &[String], description: &str) -> String {
        let mut all = self.inner.required.clone();
        for scope in scopes {
            if !all.contains(scope) {
                all.push(scope.clone());
            }
        }
        self.challenge(Some((INSUFFICIENT_SCOPE, description)), &all)
    }
}

/// The RFC 6750 error of a token short of scope.
const INSUFFICIENT_SCOPE: &str = "insufficient_scope";

const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// `resource` with the well-known path inserted before its path (RFC 9728 §3.1).
fn metadata_url(resource: &str) -> String {
    let (origin, path) = split_origin(resource);
    format!("{origin}{WELL_KNOWN}{}", path.trim_end_matches('/'))
}

/// The path (and query) of a URL.
fn path_of(url: &str) -> String {
    split_origin(url).1.to_owned()
}

/// `scheme://authority` and the rest.
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

/// Two spellings of one resource URI: the scheme and host in any case, a trailing slash
/// or not (`basic/authorization/index.mdx` §Canonical Server URI: servers SHOULD accept
/// uppercase scheme and host).
fn same_resource(a: &str, b: &str) -> bool {
    let canonical = |url: &str| {
        let (origin, path) = split_origin(url);
        format!(
            "{}{}",
            origin.to_ascii_lowercase(),
            path.trim_end_matches('/')
        )
    };
    canonical(a) == canonical(b)
}

/// The JWKS of `issuer`: its RFC 8414 metadata's `jwks_uri`, read.
async fn fetch_jwks(issuer: &str) -> Result<Value, String> {
    let metadata = get_json(&format!(
        "{}/.well-known/oauth-authorization-server",
        issuer.trim_end_matches('/')
    ))
    .await?;
    let jwks_uri = metadata
        .get("jwks_uri")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the metadata of {issuer} names no jwks_uri"))?;
    get_json(jwks_uri).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_inserts_the_well_known_path() {
        assert_eq!(
            metadata_url("http://127.0.0.1:8/mcp"),
            "http://127.0.0.1:8/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8"),
            "http://127.0.0.1:8/.well-known/oauth-protected-resource"
        );
        assert!(same_resource(
            "HTTP://LOCALHOST:8/mcp/",
            "http://localhost:8/mcp"
        ));
        assert!(!same_resource(
            "http://localhost:8/other",
            "http://localhost:8/mcp"
        ));
    }
}
