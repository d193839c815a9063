//! JSON Web Tokens as the local authorization server signs them and the validator reads them:
//! the compact JWS form (RFC 7515 §7.1) with ES256 (ECDSA P-256 with SHA-256, RFC 7518 §3.4),
//! and the JSON Web Key Set that publishes the public keys (RFC 7517).
//!
//! Why ES256 over ring rather than a JWT crate: ring is already in the dependency tree of
//! feature `tls` (rustls), it signs and verifies P-256 with the fixed-width `r || s` signature
//! JWS uses, and the compact form is three base64url parts joined by dots. A JWT crate would
//! bring a second crypto backend (RustCrypto or aws-lc) for the same two operations. ES256 is
//! the algorithm every OAuth library a server in another language uses can verify.
//!
//! Only `ES256` is accepted when verifying: a token naming `none`, `HS256` or anything else is
//! refused before any key is looked at (RFC 8725 §3.1, §3.2).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{
    ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair,
    UnparsedPublicKey,
};
use serde_json::{Map, Value, json};
use std::fmt;

/// The one signing algorithm, as JOSE names it.
pub const ALGORITHM: &str = "ES256";

/// Why a token could not be read or its signature did not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JwtError {
    /// Not three base64url parts of JSON objects.
    #[error("the token is not a compact JWS: {0}")]
    Malformed(String),
    /// The header names another algorithm than ES256.
    #[error("the token's algorithm is {0:?}; only ES256 is accepted")]
    Algorithm(String),
    /// No key of the set has the header's `kid`.
    #[error("no key of the issuer's JWKS has kid {0:?}")]
    UnknownKey(String),
    /// The signature does not verify with the key.
    #[error("the token's signature does not verify with the issuer's key {0:?}")]
    Signature(String),
    /// A key of a JWKS could not be read.
    #[error("a key of the JWKS is not an EC P-256 public key: {0}")]
    BadKey(String),
}

/// A JSON object of a token: its header or its claims.
pub type Object = Map<String, Value>;

/// An ES256 key pair with its key id.
pub struct SigningKey {
    kid: String,
    pair: EcdsaKeyPair,
    rng: SystemRandom,
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("kid", &self.kid)
            .finish()
    }
}

impl SigningKey {
    /// A fresh key pair from the operating system's randomness, with key id `kid`.
    pub fn generate(kid: impl Into<String>) -> Self {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .expect("the operating system provides random bytes");
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .expect("a key ring just generated reads back");
        SigningKey {
            kid: kid.into(),
            pair,
            rng,
        }
    }

    /// The key id (`kid`).
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The public key as a JWK (RFC 7517 §4, RFC 7518 §6.2).
    pub fn jwk(&self) -> Value {
        // ring's public key is the uncompressed point: 0x04 || x (32 bytes) || y (32 bytes).
        let point = self.pair.public_key().as_ref();
        json!({
            "kty": "EC",
            "crv": "P-256",
            "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
            "kid": self.kid,
            "use": "sig",
            "alg": ALGORITHM,
        })
    }

    /// The compact JWS of `claims`, header `{"alg":"ES256","typ":"at+jwt","kid":..}`
    /// (RFC 9068 §2.1).
    pub fn sign(&self, claims: &Value) -> String {
        let header = json!({"alg": ALGORITHM, "typ": "at+jwt", "kid": self.kid});
        let input = format!("{}.{}", part(&header), part(claims));
        let signature = self
            .pair
            .sign(&self.rng, input.as_bytes())
            .expect("ECDSA signing does not fail with a valid key");
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(signature.as_ref()))
    }
}

/// A JSON value as one base64url part.
pub(crate) fn part(value: &Value) -> String {
    URL_SAFE_NO_PAD.encode(value.to_string())
}

/// The header and claims of a compact JWS, read without verifying anything.
pub fn decode_unverified(token: &str) -> Result<(Object, Object), JwtError> {
    let parts: Vec<&str> = token.split('.').collect();
    let [header, claims, _signature] = parts[..] else {
        return Err(JwtError::Malformed(format!(
            "{} dot-separated parts, not 3",
            parts.len()
        )));
    };
    Ok((object(header, "header")?, object(claims, "claims")?))
}

fn object(part: &str, what: &str) -> Result<Object, JwtError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|e| JwtError::Malformed(format!("the {what} is not base64url: {e}")))?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(JwtError::Malformed(format!(
            "the {what} is not a JSON object"
        ))),
        Err(e) => Err(JwtError::Malformed(format!("the {what} is not JSON: {e}"))),
    }
}

/// Verifies the ES256 signature of `token` with the key of `jwks` (a JWK Set, `{"keys":
/// [..]}`) its header names, and returns its claims. Nothing in the claims is checked here.
pub fn verify(token: &str, jwks: &Value) -> Result<Object, JwtError> {
    let (header, claims) = decode_unverified(token)?;
    let alg = header.get("alg").and_then(Value::as_str).unwrap_or("");
    if alg != ALGORITHM {
        return Err(JwtError::Algorithm(alg.to_owned()));
    }
    let kid = header.get("kid").and_then(Value::as_str).unwrap_or("");
    let keys = jwks.get("keys").and_then(Value::as_array);
    let key = keys
        .into_iter()
        .flatten()
        .find(|k| k.get("kid").and_then(Value::as_str).unwrap_or("") == kid)
        .ok_or_else(|| JwtError::UnknownKey(kid.to_owned()))?;
    let point = public_point(key)?;
    let (input, signature) = token
        .rsplit_once('.')
        .expect("three parts were found above");
    let signature = URL_SAFE_NO_PAD
        .decode(signature)
        .map_err(|e| JwtError::Malformed(format!("the signature is not base64url: {e}")))?;
    UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, point)
        .verify(input.as_bytes(), &signature)
        .map_err(|_| JwtError::Signature(kid.to_owned()))?;
    Ok(claims)
}

/// The uncompressed point of an EC P-256 JWK.
fn public_point(jwk: &Value) -> Result<Vec<u8>, JwtError> {
    let field = |name: &str| jwk.get(name).and_then(Value::as_str).unwrap_or("");
    if field("kty") != "EC" || field("crv") != "P-256" {
        return Err(JwtError::BadKey(format!(
            "kty {:?}, crv {:?}",
            field("kty"),
            field("crv")
        )));
    }
    let coordinate = |name: &str| {
        URL_SAFE_NO_PAD
            .decode(field(name))
            .ok()
            .filter(|c| c.len() == 32)
            .ok_or_else(|| JwtError::BadKey(format!("`{name}` is not 32 base64url bytes")))
    };
    let mut point = vec![4u8];
    point.extend(coordinate("x")?);
    point.extend(coordinate("y")?);
    Ok(point)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_token_verifies_with_its_key_and_no_other() {
        let key = SigningKey::generate("k1");
        let other = SigningKey::generate("k1");
        let token = key.sign(&json!({"sub": "alice"}));
        let claims = verify(&token, &json!({"keys": [key.jwk()]})).unwrap();
        assert_eq!(claims["sub"], "alice");
        assert_eq!(
            verify(&token, &json!({"keys": [other.jwk()]})),
            Err(JwtError::Signature("k1".into()))
        );
        assert_eq!(
            verify(&token, &json!({"keys": []})),
            Err(JwtError::UnknownKey("k1".into()))
        );
    }

    #[test]
    fn other_algorithms_and_bad_shapes_are_refused() {
        let none = format!(
            "{}.{}.",
            part(&json!({"alg": "none"})),
            part(&json!({"sub": "x"}))
        );
        assert_eq!(
            verify(&none, &json!({"keys": []})),
            Err(JwtError::Algorithm("none".into()))
        );
        assert!(matches!(
            verify("a.b", &json!({})),
            Err(JwtError::Malformed(_))
        ));
        assert!(matches!(
            verify("!!.e30.x", &json!({})),
            Err(JwtError::Malformed(_))
        ));
    }
}
