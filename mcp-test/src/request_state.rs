//! The signed `requestState` of multi-round requests (spec §8).
//!
//! A token is `v1.<payload>.<tag>`: `payload` is the base64url (no padding) of a small JSON
//! object, `tag` the base64url HMAC-SHA256 of `"mcp-test/requestState/v1." + payload` under the
//! server's key. The payload binds the state to
//!
//! - the method (`tools/call`, `prompts/get`, `resources/read`) and the tool, prompt or
//!   resource it was minted for;
//! - a SHA-256 digest of the original arguments in canonical form (keys sorted), so another
//!   argument list is rejected;
//! - a SHA-256 digest of the principal and tenant, so another caller is rejected;
//! - an expiry (milliseconds since the Unix epoch) and the round number;
//! - the keys of the questions asked in that round, and the answers of earlier rounds (the run
//!   replays from the start on every round, so answers of round 1 travel to round 3 here).
//!
//! The state is signed, not encrypted: the client can read it, but it only holds what the
//! client itself sent (answers) plus digests. The server keeps nothing between rounds.

use crate::wire::ErrorObject;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit as _, Mac as _};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

type HmacSha256 = Hmac<Sha256>;

const VERSION_PREFIX: &str = "v1.";
const MAC_CONTEXT: &[u8] = b"mcp-test/requestState/v1.";

/// The shortest server key accepted, in bytes.
pub(crate) const MIN_KEY_LEN: usize = 32;

/// What the server's clock says, injectable for tests.
pub(crate) type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// How the server signs and checks `requestState`: its key, the lifetime of a state, and its
/// clock.
#[derive(Clone)]
pub(crate) struct StateConfig {
    key: Arc<[u8]>,
    ttl: Duration,
    clock: Clock,
}

impl fmt::Debug for StateConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateConfig")
            .field("key", &"<redacted>")
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl StateConfig {
    /// A config with a fresh random 32-byte key, the given TTL and the system clock.
    pub(crate) fn random(ttl: Duration) -> Self {
        let mut key = [0_u8; 32];
        getrandom::fill(&mut key).expect("the operating system provides random bytes");
        StateConfig::new(key.to_vec(), ttl, None)
    }

    pub(crate) fn new(key: Vec<u8>, ttl: Duration, clock: Option<Clock>) -> Self {
        StateConfig {
            key: key.into(),
            ttl,
            clock: clock.unwrap_or_else(|| Arc::new(SystemTime::now)),
        }
    }

    pub(crate) fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    fn now_ms(&self) -> u64 {
        millis((self.clock)())
    }

    fn mac(&self) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC accepts any key length");
        mac.update(MAC_CONTEXT);
        mac
    }
}

fn millis(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What a state is bound to: computed from the request on mint and on every retry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Binding {
    pub(crate) method: String,
    pub(crate) target: String,
    pub(crate) arguments: String,
    pub(crate) who: String,
}

impl Binding {
    pub(crate) fn new(
        method: &str,
        target: &str,
        arguments: &Value,
        principal: Option<&str>,
        tenant: Option<&str>,
    ) -> Self {
        Binding {
            method: method.to_owned(),
            target: target.to_owned(),
            arguments: digest(&canonical_json(arguments)),
            who: digest(&serde_json::to_string(&(principal, tenant)).expect("strings serialize")),
        }
    }
}

/// The signed content of a state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Payload {
    /// Method.
    pub(crate) m: String,
    /// Tool, prompt or resource.
    pub(crate) t: String,
    /// Digest of the arguments.
    pub(crate) a: String,
    /// Digest of principal and tenant.
    pub(crate) w: String,
    /// Expiry, ms since the epoch.
    pub(crate) exp: u64,
    /// The round that produced this state (1 for the first `input_required`).
    pub(crate) r: u32,
    /// Keys asked in that round: the only keys a retry may answer.
    pub(crate) k: Vec<String>,
    /// Answers of earlier rounds.
    pub(crate) s: Map<String, Value>,
}

/// Mints a state for `binding` after round `round`.
pub(crate) fn mint(
    config: &StateConfig,
    binding: &Binding,
    round: u32,
    pending: Vec<String>,
    answers: Map<String, Value>,
) -> String {
    let ttl_ms = u64::try_from(config.ttl.as_millis()).unwrap_or(u64::MAX);
    let payload = Payload {
        m: binding.method.clone(),
        t: binding.target.clone(),
        a: binding.arguments.clone(),
        w: binding.who.clone(),
        exp: config.now_ms().saturating_add(ttl_ms),
        r: round,
        k: pending,
        s: answers,
    };
    let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&payload).expect("payload serializes"));
    let mut mac = config.mac();
    mac.update(body.as_bytes());
    let tag = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    format!("{VERSION_PREFIX}{body}.{tag}")
}

/// Verifies a state and its binding. Every failure is -32602 with a message saying what was
/// wrong.
pub(crate) fn open(
    config: &StateConfig,
    binding: &Binding,
    token: &str,
) -> Result<Payload, ErrorObject> {
    let reject = |why: String| {
        ErrorObject::invalid_params(format!("Invalid params: requestState rejected: {why}"))
    };
    let tampered = || {
        reject(
            "it failed verification (it was altered, truncated, or minted by another server); \
             start the request again without requestState and inputResponses"
                .to_owned(),
        )
    };
    let rest = token.strip_prefix(VERSION_PREFIX).ok_or_else(tampered)?;
    let (body, tag) = rest.split_once('.').ok_or_else(tampered)?;
    let tag = URL_SAFE_NO_PAD.decode(tag).map_err(|_| tampered())?;
    let mut mac = config.mac();
    mac.update(body.as_bytes());
    mac.verify_slice(&tag).map_err(|_| tampered())?;
    let bytes = URL_SAFE_NO_PAD.decode(body).map_err(|_| tampered())?;
    let payload: Payload = serde_json::from_slice(&bytes).map_err(|_| tampered())?;
    if payload.m != binding.method {
        return Err(reject(format!(
            "it was minted for {}, not {}",
            payload.m, binding.method
        )));
    }
    if payload.t != binding.target {
        return Err(reject(format!(
            "it was minted for `{}`, not `{}`",
            payload.t, binding.target
        )));
    }
    if payload.a != binding.arguments {
        return Err(reject(
            "it was minted for other arguments (a retry must resend the original arguments unchanged)"
                .to_owned(),
        ));
    }
    if payload.w != binding.who {
        return Err(reject(
            "it was minted for another principal or tenant".to_owned(),
        ));
    }
    let now = config.now_ms();
    if now > payload.exp {
        return Err(reject(format!(
            "it expired {} ms ago (a state is valid for {} ms); start the request again without \
             requestState and inputResponses",
            now - payload.exp,
            config.ttl.as_millis()
        )));
    }
    Ok(payload)
}

/// `value` as JSON text with every object's keys sorted, so equal JSON has one spelling.
pub(crate) fn canonical_json(value: &Value) -> String {
    fn write(value: &Value, out: &mut String) {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, key) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::from(key.as_str()).to_string());
                    out.push(':');
                    write(&map[key], out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn digest(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn fixed_clock(ms: &Arc<AtomicU64>) -> Clock {
        let ms = Arc::clone(ms);
        Arc::new(move || UNIX_EPOCH + Duration::from_millis(ms.load(Ordering::SeqCst)))
    }

    fn binding(args: Value, principal: Option<&str>) -> Binding {
        Binding::new("tools/call", "greet", &args, principal, Some("acme"))
    }

    #[test]
    fn round_trips_and_rejects_every_kind_of_foreign_state() {
        let now = Arc::new(AtomicU64::new(1_000_000));
        let config = StateConfig::new(
            vec![7; 32],
            Duration::from_secs(60),
            Some(fixed_clock(&now)),
        );
        let b = binding(json!({"x": 1, "y": [1, 2]}), Some("alice"));
        let mut answers = Map::new();
        answers.insert("elicit-1".into(), json!({"action": "decline"}));
        let token = mint(&config, &b, 2, vec!["elicit-2".into()], answers.clone());

        // Key order of the arguments does not matter.
        let same = binding(json!({"y": [1, 2], "x": 1}), Some("alice"));
        let payload = open(&config, &same, &token).unwrap();
        assert_eq!(payload.r, 2);
        assert_eq!(payload.k, ["elicit-2"]);
        assert_eq!(payload.s, answers);

        let msg = |b: &Binding, t: &str| open(&config, b, t).unwrap_err().message;
        assert!(
            msg(
                &binding(json!({"x": 2, "y": [1, 2]}), Some("alice")),
                &token
            )
            .contains("other arguments")
        );
        assert!(
            msg(&binding(json!({"x": 1, "y": [1, 2]}), Some("bob")), &token)
                .contains("another principal")
        );
        let other_tool = Binding::new(
            "tools/call",
            "other",
            &json!({"x": 1, "y": [1, 2]}),
            Some("alice"),
            Some("acme"),
        );
        assert!(msg(&other_tool, &token).contains("not `other`"));
        let other_tenant = Binding::new(
            "tools/call",
            "greet",
            &json!({"x": 1, "y": [1, 2]}),
            Some("alice"),
            None,
        );
        assert!(msg(&other_tenant, &token).contains("another principal or tenant"));

        // Any change to any byte is caught.
        let mut bytes = token.clone().into_bytes();
        for i in 0..bytes.len() {
            let original = bytes[i];
            bytes[i] = if original == b'A' { b'B' } else { b'A' };
            let altered = String::from_utf8(bytes.clone()).unwrap();
            if altered != token {
                let e = open(&config, &b, &altered).unwrap_err();
                assert_eq!(e.code, -32602);
            }
            bytes[i] = original;
        }
        assert!(msg(&b, "").contains("failed verification"));
        assert!(msg(&b, "v1.e30").contains("failed verification"));

        // Another key.
        let other_key = StateConfig::new(
            vec![8; 32],
            Duration::from_secs(60),
            Some(fixed_clock(&now)),
        );
        assert!(
            open(&other_key, &b, &token)
                .unwrap_err()
                .message
                .contains("failed verification")
        );

        // Expiry, by the injected clock.
        now.fetch_add(60_000, Ordering::SeqCst);
        assert!(
            open(&config, &b, &token).is_ok(),
            "valid up to and including the expiry"
        );
        now.fetch_add(1, Ordering::SeqCst);
        assert!(msg(&b, &token).contains("expired 1 ms ago"));
    }

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        assert_eq!(
            canonical_json(&json!({"b": {"d": 1, "c": [true, null]}, "a": "é\""})),
            r#"{"a":"é\"","b":{"c":[true,null],"d":1}}"#
        );
    }
}
