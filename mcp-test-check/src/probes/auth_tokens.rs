//! `auth/*`: the server as an OAuth 2.1 resource server, probed with tokens of the issuer it
//! trusts ([`CheckOptions::auth_issuer`](crate::CheckOptions::auth_issuer), `--auth-issuer`),
//! each wrong in one way (`basic/authorization/index.mdx` §Token Handling, §Error Handling,
//! §Scope Selection Strategy, §Refresh Tokens).
//!
//! First, what the server asks of a token is read as a client reads it (a request without
//! one gets 401; its challenge's `scope` and `resource_metadata`; the metadata's `resource`
//! and `scopes_supported`), and a good token (that audience, those scopes) must be taken:
//! else the issuer is not one the server trusts, and the probes are skipped saying so. Then:
//!
//! | probe | sends | the server must (level) |
//! |---|---|---|
//! | `auth/audience` | a token for another resource | refuse it with 401 ([`AUTH_TOKEN_AUDIENCE`](clauses::AUTH_TOKEN_AUDIENCE), MUST) |
//! | `auth/expired` | a token that expired an hour ago | answer 401 ([`AUTH_TOKEN_EXPIRED`](clauses::AUTH_TOKEN_EXPIRED), MUST) |
//! | `auth/signature` | a good token with one bit of its signature changed | refuse it with 401 ([`AUTH_TOKEN_VALIDATION`](clauses::AUTH_TOKEN_VALIDATION), MUST) |
//! | `auth/insufficient-scope` | a good token without the scopes, then one with those the 403 named | 403 `insufficient_scope` ([`AUTH_INSUFFICIENT_SCOPE_403`](clauses::AUTH_INSUFFICIENT_SCOPE_403)), naming the scopes ([`AUTH_INSUFFICIENT_SCOPE_SCOPE`](clauses::AUTH_INSUFFICIENT_SCOPE_SCOPE)), all in one challenge ([`AUTH_SCOPE_SINGLE_CHALLENGE`](clauses::AUTH_SCOPE_SINGLE_CHALLENGE)); all SHOULD |
//! | `auth/challenge` | nothing more: the 401 and the metadata | name the scopes in the 401 when a token needs some ([`AUTH_CHALLENGE_SCOPE`](clauses::AUTH_CHALLENGE_SCOPE), SHOULD); no `offline_access` ([`AUTH_NO_OFFLINE_ACCESS`](clauses::AUTH_NO_OFFLINE_ACCESS), SHOULD NOT) |
//!
//! A refusal with 401 is all the MUSTs ask; 403 for a token that is invalid (rather than
//! short of scope) is still a refusal but not the status the spec gives, so it breaks the
//! clause too. A token kind the issuer cannot grant (an expired one from a real
//! authorization server) leaves its probe skipped, with why.

use crate::issuer::{Kind, Protected, Tokens, discover_with, www_authenticate};
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use http::StatusCode;
use mcp_test::__check::{HttpClient, HttpReply, challenge_param};
use mcp_test::spec::clauses;

/// A token for another resource.
pub(crate) const AUDIENCE: &str = "auth/audience";
/// An expired token.
pub(crate) const EXPIRED: &str = "auth/expired";
/// A token whose signature does not verify.
pub(crate) const SIGNATURE: &str = "auth/signature";
/// A token without the scopes needed.
pub(crate) const SCOPE: &str = "auth/insufficient-scope";
/// The 401 challenge and the metadata's scopes.
pub(crate) const CHALLENGE: &str = "auth/challenge";

/// The probes of the row, in the order they run.
pub(crate) const IDS: [&str; 5] = [AUDIENCE, EXPIRED, SIGNATURE, SCOPE, CHALLENGE];

/// The audience of the wrong-audience token: a resource no server of the check is.
const ELSEWHERE: &str = "https://elsewhere.invalid/mcp";

/// The row.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let skip_all = |r: &mut Run<'_>, why: String| {
            for id in IDS {
                r.c.skip_probe(id, why.clone());
            }
        };
        let Some(issuer) = r.options.auth_issuer.clone() else {
            return skip_all(
                r,
                "no authorization server to get tokens from (--auth-issuer)".to_owned(),
            );
        };
        let (url, options) = r.endpoint();
        let timeout = r.options.timeout;
        let protected = match Protected::discover(&url, &options, timeout).await {
            Ok(Some(protected)) => protected,
            Ok(None) => {
                return skip_all(
                    r,
                    "the server answers a request without a token: it asks for no authorization"
                        .to_owned(),
                );
            }
            Err(e) => return skip_all(r, format!("the server could not be asked: {e}")),
        };
        let tokens = match Tokens::connect(&issuer, &options, timeout).await {
            Ok(tokens) => tokens,
            Err(e) => return skip_all(r, format!("no token from {}: {e}", issuer.issuer())),
        };
        let bare = options.without_header("authorization");
        let client = match HttpClient::with_options(&bare) {
            Ok(client) => client,
            Err(e) => return skip_all(r, format!("no HTTP client: {e}")),
        };
        let good_scopes = protected.token_scopes(issuer.extra_scopes());
        let probe = Probe {
            url,
            client,
            tokens,
            protected,
            good_scopes,
            timeout,
        };
        match probe.send(Kind::Good, None).await {
            Ok(reply) if reply.status.is_success() => {}
            Ok(reply) => {
                return skip_all(
                    r,
                    format!(
                        "the server refused a token of {} for {} with scope {:?} (HTTP {}{}): does it trust this issuer?",
                        issuer.issuer(),
                        probe.protected.resource,
                        probe.good_scopes.join(" "),
                        reply.status.as_u16(),
                        challenge_note(&reply)
                    ),
                );
            }
            Err(why) => return skip_all(r, why),
        }
        for (id, kind, clause, what) in [
            (
                AUDIENCE,
                Kind::Audience(ELSEWHERE.to_owned()),
                &clauses::AUTH_TOKEN_AUDIENCE,
                format!("a token issued for another resource ({ELSEWHERE})"),
            ),
            (
                EXPIRED,
                Kind::Expired,
                &clauses::AUTH_TOKEN_EXPIRED,
                "a token that expired an hour ago".to_owned(),
            ),
            (
                SIGNATURE,
                Kind::Tampered,
                &clauses::AUTH_TOKEN_VALIDATION,
                "a token whose signature was changed".to_owned(),
            ),
        ] {
            match probe.refused(kind, clause, &what).await {
                Ok(out) => r.c.push_probe(id, out),
                Err(why) => r.c.skip_probe(id, why),
            }
        }
        let (scope_out, needs_scope) = probe.insufficient_scope().await;
        match scope_out {
            Ok(out) => r.c.push_probe(SCOPE, out),
            Err(why) => r.c.skip_probe(SCOPE, why),
        }
        let mut challenge = probe.challenge(needs_scope);
        challenge.push(probe.held(&issuer));
        r.c.push_probe(CHALLENGE, challenge);
    })
}

/// ` (WWW-Authenticate: ...)` when the reply has one.
fn challenge_note(reply: &HttpReply) -> String {
    let challenge = www_authenticate(reply);
    if challenge.is_empty() {
        String::new()
    } else {
        format!(", WWW-Authenticate: {challenge}")
    }
}

/// What the probes of the row share.
struct Probe {
    url: String,
    client: HttpClient,
    tokens: Tokens,
    protected: Protected,
    /// The scopes of a good token: the 401's, `scopes_supported`, and those asked for.
    good_scopes: Vec<String>,
    timeout: std::time::Duration,
}

impl Probe {
    /// `server/discover` with a token of `kind` (scopes: `scopes`, else a good token's).
    async fn send(&self, kind: Kind, scopes: Option<&[String]>) -> Result<HttpReply, String> {
        let scopes = scopes.unwrap_or(&self.good_scopes);
        let token = self
            .tokens
            .token(&self.protected.resource, scopes, kind)
            .await
            .map_err(|e| e.to_string())?;
        discover_with(&self.client, &self.url, Some(&token), self.timeout)
            .await
            .map_err(|e| format!("the request got no reply: {e}"))
    }

    fn shown(what: &str) -> Option<Shown> {
        Some(Shown {
            method: format!("server/discover (Authorization: Bearer <{what}>)"),
            id: None,
        })
    }

    /// A token of `kind` must get 401.
    async fn refused(
        &self,
        kind: Kind,
        clause: &clauses::Clause,
        what: &str,
    ) -> Result<Out, String> {
        let reply = self.send(kind, None).await?;
        if reply.status == StatusCode::UNAUTHORIZED {
            return Ok(Vec::new());
        }
        let taken = if reply.status.is_success() {
            "the server took it"
        } else {
            "the server refused it, but not with 401"
        };
        Ok(vec![
            Note::broke(
                clause,
                format!(
                    "{what} got HTTP {}: {taken} (invalid and expired tokens must get 401){}",
                    reply.status.as_u16(),
                    challenge_note(&reply)
                ),
            )
            .on(Self::shown(what)),
        ])
    }

    /// A good token without the scopes; whether the server turned it away (it needs a scope).
    async fn insufficient_scope(&self) -> (Result<Out, String>, bool) {
        if self.protected.scopes.is_empty() {
            return (
                Err("the server names no scope (neither in its 401 challenge nor in scopes_supported)".to_owned()),
                false,
            );
        }
        let what = "a good token without any of the scopes the server names";
        let reply = match self.send(Kind::Good, Some(&[])).await {
            Ok(reply) => reply,
            Err(why) => return (Err(why), false),
        };
        if reply.status.is_success() {
            return (
                Err(format!(
                    "the server took a token without scope {:?}: it needs none of them for server/discover",
                    self.protected.scopes.join(" ")
                )),
                false,
            );
        }
        let shown = Self::shown(what);
        let challenge = www_authenticate(&reply);
        let error = challenge_param(&challenge, "error");
        let mut out = Vec::new();
        if reply.status != StatusCode::FORBIDDEN || error.as_deref() != Some("insufficient_scope") {
            out.push(
                Note::broke(
                    &clauses::AUTH_INSUFFICIENT_SCOPE_403,
                    format!(
                        "{what} got HTTP {}{}, not 403 with error=\"insufficient_scope\"",
                        reply.status.as_u16(),
                        challenge_note(&reply)
                    ),
                )
                .on(shown.clone()),
            );
            return (Ok(out), true);
        }
        let Some(named) = challenge_param(&challenge, "scope").filter(|s| !s.trim().is_empty())
        else {
            out.push(
                Note::broke(
                    &clauses::AUTH_INSUFFICIENT_SCOPE_SCOPE,
                    format!("the 403 names no `scope`: WWW-Authenticate: {challenge}"),
                )
                .on(shown),
            );
            return (Ok(out), true);
        };
        let named: Vec<String> = named.split_whitespace().map(str::to_owned).collect();
        match self.send(Kind::Good, Some(&named)).await {
            Ok(retry) if retry.status.is_success() => {}
            Ok(retry) => out.push(
                Note::broke(
                    &clauses::AUTH_SCOPE_SINGLE_CHALLENGE,
                    format!(
                        "a token with exactly the scopes the 403 named ({:?}) got HTTP {}{}: the challenge did not name every scope the request needs",
                        named.join(" "),
                        retry.status.as_u16(),
                        challenge_note(&retry)
                    ),
                )
                .on(Self::shown("a token with the scopes the 403 named")),
            ),
            Err(why) => out.push(Note::info(format!(
                "no token with the scopes the 403 named: {why}"
            ))),
        }
        (Ok(out), true)
    }

    /// What a good token of the check held, and where each scope came from: the report's
    /// word on what the check could see (a tool behind a scope it did not hold is refused).
    fn held(&self, issuer: &crate::AuthIssuer) -> Note {
        let p = &self.protected;
        let list = |scopes: &[String]| {
            if scopes.is_empty() {
                "none".to_owned()
            } else {
                format!("{:?}", scopes.join(" "))
            }
        };
        Note::info(format!(
            "a good token of {} for {} held scope {} (the 401 challenge's scope: {}; the metadata's scopes_supported: {}; asked for with --auth-scope: {}); a tool, resource or prompt behind another scope is refused to the check",
            issuer.issuer(),
            p.resource,
            list(&self.good_scopes),
            p.challenge_scope
                .as_deref()
                .map_or("none".to_owned(), |s| format!("{s:?}")),
            list(&p.scopes_supported),
            list(issuer.extra_scopes()),
        ))
    }

    /// The 401 challenge and the metadata's scopes; `needs_scope`: a token without scopes
    /// was turned away.
    fn challenge(&self, needs_scope: bool) -> Out {
        let p = &self.protected;
        let shown = Some(Shown {
            method: "server/discover (no Authorization)".to_owned(),
            id: None,
        });
        let mut out = Vec::new();
        if needs_scope && p.challenge_scope.is_none() {
            out.push(
                Note::broke(
                    &clauses::AUTH_CHALLENGE_SCOPE,
                    format!(
                        "a token needs scope {:?}, but the 401 challenge names no `scope`: WWW-Authenticate: {}",
                        p.scopes.join(" "),
                        p.challenge
                    ),
                )
                .on(shown.clone()),
            );
        }
        let in_challenge = p
            .challenge_scope
            .as_deref()
            .is_some_and(|s| s.split_whitespace().any(|s| s == "offline_access"));
        let in_metadata = p.scopes_supported.iter().any(|s| s == "offline_access");
        if in_challenge || in_metadata {
            out.push(
                Note::broke(
                    &clauses::AUTH_NO_OFFLINE_ACCESS,
                    format!(
                        "`offline_access` is asked of clients in {}",
                        match (in_challenge, in_metadata) {
                            (true, true) =>
                                "the 401 challenge's scope and the metadata's scopes_supported",
                            (true, false) => "the 401 challenge's scope",
                            _ => "the protected-resource metadata's scopes_supported",
                        }
                    ),
                )
                .on(shown),
            );
        }
        out
    }
}
