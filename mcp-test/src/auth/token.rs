//! What a test asks the local authorization server to mint: [`TokenSpec`], every claim of
//! the token chosen, including deliberately wrong ones (another audience, expired, not yet
//! valid, another issuer, a signature that does not verify, algorithm `none`).

use crate::setters;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// How the minted token is signed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Signature {
    /// With the server's key, published in its JWKS: the one that verifies.
    #[default]
    Valid,
    /// With a key of the same `kid` that the JWKS does not hold.
    WrongKey,
    /// With the server's key, then one byte of the signature changed.
    Tampered,
    /// Unsigned, header `{"alg":"none"}` (RFC 7519 §6).
    NoneAlg,
}

/// The claims of one token the local authorization server mints with
/// [`AuthServer::token`](crate::auth::AuthServer::token) (or over HTTP at its `/mint`
/// endpoint, whose JSON body is this type's: each field, its type and its default are in
/// [`AuthServer`'s docs](crate::auth::AuthServer#post-mint)).
///
/// By default: issuer the server's own, subject `mcp-test-user`, no scope, valid for an hour
/// from now, signed with the server's key.
///
/// ```
/// use mcp_test::auth::{Signature, TokenSpec};
///
/// let good = TokenSpec::new("http://127.0.0.1:8080/mcp").scopes(["mcp:read"]).subject("alice");
/// let expired = good.clone().expired();
/// let forged = good.clone().signature(Signature::WrongKey);
/// let elsewhere = good.audience("https://other.example/mcp");
/// # let _ = (expired, forged, elsewhere);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct TokenSpec {
    /// `aud`: the resource the token is for (RFC 8707: the MCP server's canonical URI).
    #[serde(deserialize_with = "one_or_many")]
    pub(crate) audience: Vec<String>,
    /// `scope`, space-separated in the token.
    pub(crate) scopes: Vec<String>,
    /// `sub`.
    pub(crate) subject: String,
    /// `exp` − now, in seconds; negative for a token that has expired.
    pub(crate) expires_in: f64,
    /// `nbf` − now, in seconds, when set.
    pub(crate) not_before_in: Option<f64>,
    /// `iss`, when not the server's own.
    pub(crate) issuer: Option<String>,
    /// `client_id`.
    pub(crate) client_id: Option<String>,
    /// How it is signed.
    pub(crate) signature: Signature,
    /// More claims, written last (they may replace any above).
    pub(crate) extra: Map<String, Value>,
}

impl Default for TokenSpec {
    fn default() -> Self {
        TokenSpec {
            audience: Vec::new(),
            scopes: Vec::new(),
            subject: "mcp-test-user".to_owned(),
            expires_in: 3600.0,
            not_before_in: None,
            issuer: None,
            client_id: None,
            signature: Signature::Valid,
            extra: Map::new(),
        }
    }
}

impl TokenSpec {
    /// A token for the resource `audience` (the MCP server's URL).
    pub fn new(audience: impl Into<String>) -> Self {
        TokenSpec::default().audience(audience)
    }

    setters! {
        /// `aud` is `audience` alone.
        audience(audience: impl Into<String>) => audience = vec![audience.into()];

        /// `aud` is every one of `audiences` (none: no `aud` claim at all).
        audiences(audiences: impl IntoIterator<Item = impl Into<String>>)
            => audience = audiences.into_iter().map(Into::into).collect();

        /// The scopes granted.
        scopes(scopes: impl IntoIterator<Item = impl Into<String>>)
            => scopes = scopes.into_iter().map(Into::into).collect();

        /// `sub`, the principal the server sees.
        subject(subject: impl Into<String>) => subject = subject.into();
        /// Expires `seconds` from now (negative: expired that long ago).
        expires_in(seconds: f64) => expires_in = seconds;
    }

    /// Expired an hour ago, well past any clock-skew leeway.
    #[must_use]
    pub fn expired(self) -> Self {
        self.expires_in(-3600.0)
    }

    setters! {
        /// Valid only from `seconds` from now (`nbf`).
        not_before_in(seconds: f64) => not_before_in = Some(seconds);
        /// `iss` is `issuer` rather than the server's own.
        issuer(issuer: impl Into<String>) => issuer = Some(issuer.into());
        /// `client_id`.
        client_id(client_id: impl Into<String>) => client_id = Some(client_id.into());
        /// How the token is signed.
        signature: Signature;
    }

    /// One more claim (replacing any the spec writes under that name).
    #[must_use]
    pub fn claim(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        self.extra.insert(name.into(), value.into());
        self
    }

    /// The claims, issued by `issuer` now, with token id `jti`.
    pub(crate) fn claims(&self, issuer: &str, jti: &str) -> Value {
        let now = now();
        let mut claims = Map::new();
        claims.insert(
            "iss".into(),
            self.issuer.as_deref().unwrap_or(issuer).into(),
        );
        claims.insert("sub".into(), self.subject.clone().into());
        match self.audience.as_slice() {
            [] => {}
            [one] => {
                claims.insert("aud".into(), one.clone().into());
            }
            many => {
                claims.insert("aud".into(), many.to_vec().into());
            }
        }
        claims.insert("iat".into(), now.into());
        claims.insert("exp".into(), (now + self.expires_in.round() as i64).into());
        if let Some(nbf) = self.not_before_in {
            claims.insert("nbf".into(), (now + nbf.round() as i64).into());
        }
        if !self.scopes.is_empty() {
            claims.insert("scope".into(), self.scopes.join(" ").into());
        }
        if let Some(client) = &self.client_id {
            claims.insert("client_id".into(), client.clone().into());
        }
        claims.insert("jti".into(), jti.into());
        for (name, value) in &self.extra {
            claims.insert(name.clone(), value.clone());
        }
        Value::Object(claims)
    }
}

/// A string or an array of strings, as `aud` is written.
fn one_or_many<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    match OneOrMany::deserialize(deserializer) {
        Ok(OneOrMany::One(one)) => Ok(vec![one]),
        Ok(OneOrMany::Many(many)) => Ok(many),
        Err(_) => Err(serde::de::Error::custom(
            "`audience` must be a string or an array of strings",
        )),
    }
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
