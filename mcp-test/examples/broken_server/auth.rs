//! The server as an OAuth resource server (`--trust-issuer URL`): the runtime's HTTP transport
//! with [`TokenValidator`] trusting the issuer at URL (an `mcp-test auth-server`, or an
//! `AuthServer` of the test), every request needing scopes [`SCOPES`], and the
//! protected-resource metadata served. Correct with no switch on; each switch makes one rule
//! of `basic/authorization` fail by changing what the validator decided, so everything else
//! stays the validator's own behaviour.
//!
//! The switches show only on the transport `http-auth`: HTTP with `--trust-issuer`, which the
//! checks reach with a good token of that issuer and `--auth-issuer`.

use super::{Breaks, Hooks, Switch};
use axum::Router;
use futures_util::future::BoxFuture;
use mcp_test::Identity;
use mcp_test::auth::jwt::{JwtError, decode_unverified};
use mcp_test::auth::{TokenError, TokenValidator};
use mcp_test::transport::http::{AuthRejection, Authenticator, HttpConfig};
use serde_json::Value;

pub struct Auth;

/// The transport of these switches.
pub const HTTP_AUTH: &[&str] = &["http-auth"];

/// The scopes every request needs: two, so a challenge can name too few.
pub const SCOPES: [&str; 2] = ["mcp", "mcp:read"];

const TAKES_OTHER_AUDIENCES: &str = "auth/takes-other-audiences";
const TAKES_EXPIRED: &str = "auth/takes-expired-tokens";
const TAKES_BAD_SIGNATURES: &str = "auth/takes-bad-signatures";
const SCOPE_401: &str = "auth/insufficient-scope-401";
const SCOPE_UNNAMED: &str = "auth/insufficient-scope-unnamed";
const SCOPE_ONE_AT_A_TIME: &str = "auth/scopes-one-at-a-time";
const CHALLENGE_WITHOUT_SCOPE: &str = "auth/challenge-without-scope";
const OFFLINE_ACCESS: &str = "auth/offline-access";

impl Hooks for Auth {
    fn switches(&self) -> &'static [Switch] {
        &[
            Switch {
                name: TAKES_OTHER_AUDIENCES,
                about: "takes a token of the trusted issuer issued for another resource",
                clause: "authorization/token-audience",
                probe: "auth/audience",
                transports: HTTP_AUTH,
            },
            Switch {
                name: TAKES_EXPIRED,
                about: "takes an expired token",
                clause: "authorization/expired-token-401",
                probe: "auth/expired",
                transports: HTTP_AUTH,
            },
            Switch {
                name: TAKES_BAD_SIGNATURES,
                about: "takes a token whose signature does not verify",
                clause: "authorization/token-validation",
                probe: "auth/signature",
                transports: HTTP_AUTH,
            },
            Switch {
                name: SCOPE_401,
                about: "answers a token without the scopes needed with 401 (invalid_token), not 403",
                clause: "authorization/insufficient-scope-403",
                probe: "auth/insufficient-scope",
                transports: HTTP_AUTH,
            },
            Switch {
                name: SCOPE_UNNAMED,
                about: "answers insufficient scope with 403 but names no `scope`",
                clause: "authorization/insufficient-scope-scope",
                probe: "auth/insufficient-scope",
                transports: HTTP_AUTH,
            },
            Switch {
                name: SCOPE_ONE_AT_A_TIME,
                about: "names one missing scope per 403, so a client needs two rounds",
                clause: "authorization/scope-single-challenge",
                probe: "auth/insufficient-scope",
                transports: HTTP_AUTH,
            },
            Switch {
                name: CHALLENGE_WITHOUT_SCOPE,
                about: "names no `scope` in the 401 to a request without a token",
                clause: "authorization/challenge-scope",
                probe: "auth/challenge",
                transports: HTTP_AUTH,
            },
            Switch {
                name: OFFLINE_ACCESS,
                about: "lists `offline_access` in the metadata's scopes_supported",
                clause: "authorization/no-offline-access",
                probe: "auth/challenge",
                transports: HTTP_AUTH,
            },
        ]
    }
}

/// The transport's configuration and the metadata's router for the endpoint `resource`,
/// trusting `issuer`.
pub fn protect(on: &Breaks, issuer: &str, resource: &str) -> (HttpConfig, Router) {
    let mut validator = TokenValidator::new(issuer, resource).require_scopes(SCOPES);
    if on.on(OFFLINE_ACCESS) {
        validator = validator.scopes_supported(SCOPES.into_iter().chain(["offline_access"]));
    }
    let metadata = validator.metadata_router();
    let authenticator = Broken {
        on: on.clone(),
        validator,
    };
    (HttpConfig::default().authenticator(authenticator), metadata)
}

/// The validator, with what a switch changes of its decisions.
struct Broken {
    on: Breaks,
    validator: TokenValidator,
}

impl Authenticator for Broken {
    fn authenticate<'a>(
        &'a self,
        request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Identity, AuthRejection>> {
        Box::pin(async move {
            let rejection = match self.validator.authenticate(request).await {
                Ok(identity) => return Ok(identity),
                Err(rejection) => rejection,
            };
            let token = request
                .headers
                .get(http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "));
            let Some(token) = token else {
                return Err(if self.on.on(CHALLENGE_WITHOUT_SCOPE) {
                    AuthRejection::new(without_scope(&rejection.challenge), rejection.message)
                } else {
                    rejection
                });
            };
            if rejection.status() == http::StatusCode::UNAUTHORIZED {
                let taken = match self.validator.validate(token).await {
                    Err(TokenError::Audience { .. }) => self.on.on(TAKES_OTHER_AUDIENCES),
                    Err(TokenError::Expired(_)) => self.on.on(TAKES_EXPIRED),
                    Err(TokenError::Jwt(JwtError::Signature(_))) => {
                        self.on.on(TAKES_BAD_SIGNATURES)
                    }
                    _ => false,
                };
                return if taken {
                    Ok(unverified(token))
                } else {
                    Err(rejection)
                };
            }
            // 403: the token is good but short of a scope.
            if self.on.on(SCOPE_401) {
                let challenge = rejection
                    .challenge
                    .replace("insufficient_scope", "invalid_token");
                return Err(AuthRejection::new(
                    without_scope(&challenge),
                    rejection.message,
                ));
            }
            if self.on.on(SCOPE_UNNAMED) {
                return Err(AuthRejection::forbidden(
                    without_scope(&rejection.challenge),
                    rejection.message,
                ));
            }
            if self.on.on(SCOPE_ONE_AT_A_TIME) {
                let granted = unverified(token);
                let first = SCOPES
                    .iter()
                    .find(|s| !granted.has_scope(s))
                    .expect("a 403 means a scope is missing");
                let all = format!(r#"scope="{}""#, SCOPES.join(" "));
                return Err(AuthRejection::forbidden(
                    rejection
                        .challenge
                        .replace(&all, &format!(r#"scope="{first}""#)),
                    rejection.message,
                ));
            }
            Err(rejection)
        })
    }
}

/// `challenge` without its `scope="..."` parameter.
fn without_scope(challenge: &str) -> String {
    let params = challenge.strip_prefix("Bearer ").unwrap_or(challenge);
    let kept: Vec<&str> = params
        .split(", ")
        .filter(|p| !p.starts_with("scope="))
        .collect();
    format!("Bearer {}", kept.join(", "))
}

/// The identity a token's claims name, nothing verified.
fn unverified(token: &str) -> Identity {
    let claims = decode_unverified(token).map(|(_, c)| c).unwrap_or_default();
    let text = |name: &str| claims.get(name).and_then(Value::as_str).unwrap_or_default();
    Identity::principal(text("sub")).with_scopes(text("scope").split_whitespace())
}
