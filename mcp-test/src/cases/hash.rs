//! Structural hashes of JSON values for the rules engine's maps: the de-duplication of cases,
//! the validators shared by equal schemas, and the memo of compiled subschemas.

use serde_json::Value;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::args::Edit;
use crate::validation::unescape_token;

pub(super) fn str_hash(s: &str) -> u64 {
    let mut h = Fx::default();
    s.hash(&mut h);
    h.finish()
}

/// FxHash's multiply-rotate: the keys are not attacker-chosen (the cases and titles are the
/// engine's own) and equal hashes are compared anyway, so a fast hash is all the engine's
/// maps need; SipHash, restarted for every object member, cost a tenth of deriving all cases.
#[derive(Default)]
pub(super) struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(super) type BuildFx = BuildHasherDefault<Fx>;

/// A hash of `value` that agrees with its `==`: numbers by their kind and value, and an
/// object's members in any order (a `Map` compares as a map whichever order it keeps).
///
/// An object's hash is made of the sum of its members' hashes, and a member's of its key and
/// its value's hash, so [`BaseHashes`] can hash an edited value from the hashes of the parts
/// the edit left alone.
pub(super) fn value_hash(value: &Value) -> u64 {
    match value {
        Value::Object(map) => object_hash(
            map.len(),
            map.iter().fold(0, |sum, (k, v)| {
                sum.wrapping_add(member_hash(k, value_hash(v)))
            }),
        ),
        Value::Array(items) => array_hash(items.iter().map(value_hash)),
        leaf => leaf_hash(leaf),
    }
}

fn leaf_hash(value: &Value) -> u64 {
    let mut h = Fx::default();
    match value {
        Value::Bool(b) => (1u8, b).hash(&mut h),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                (2u8, u).hash(&mut h);
            } else if let Some(i) = n.as_i64() {
                (3u8, i).hash(&mut h);
            } else {
                (4u8, n.as_f64().map(f64::to_bits)).hash(&mut h);
            }
        }
        Value::String(s) => (5u8, s).hash(&mut h),
        _ => 0u8.hash(&mut h),
    }
    h.finish()
}

fn member_hash(key: &str, value: u64) -> u64 {
    let mut h = Fx::default();
    (key, value).hash(&mut h);
    h.finish()
}

fn object_hash(len: usize, members: u64) -> u64 {
    let mut h = Fx::default();
    (7u8, len, members).hash(&mut h);
    h.finish()
}

fn array_hash(items: impl ExactSizeIterator<Item = u64>) -> u64 {
    let mut h = Fx::default();
    (6u8, items.len()).hash(&mut h);
    for item in items {
        item.hash(&mut h);
    }
    h.finish()
}

/// The [`value_hash`] of edits of one base value, computed from the hashes of the base's
/// parts: an edit of one member of a 20-member object costs the hash of that member, not of
/// the 20. The containers' hashes are kept by address, which is stable as the base is shared
/// and never changed.
pub(super) struct BaseHashes<'b> {
    base: &'b Value,
    /// The sum of the member hashes of each object of the base, by address.
    sums: HashMap<usize, u64, BuildFx>,
}

impl<'b> BaseHashes<'b> {
    pub(super) fn new(base: &'b Value) -> Self {
        BaseHashes {
            base,
            sums: HashMap::default(),
        }
    }

    /// The hash of `value`, a part of the base.
    fn hash(&mut self, value: &'b Value) -> u64 {
        match value {
            Value::Object(map) => object_hash(map.len(), self.sum(value)),
            Value::Array(items) => array_hash(items.iter().map(|item| self.hash(item))),
            leaf => leaf_hash(leaf),
        }
    }

    /// The sum of the member hashes of `object`, a part of the base.
    fn sum(&mut self, object: &'b Value) -> u64 {
        let address = std::ptr::from_ref(object) as usize;
        if let Some(&sum) = self.sums.get(&address) {
            return sum;
        }
        let Value::Object(map) = object else {
            return 0;
        };
        let sum = map.iter().fold(0u64, |sum, (k, v)| {
            sum.wrapping_add(member_hash(k, self.hash(v)))
        });
        self.sums.insert(address, sum);
        sum
    }

    /// The hash of the base with `edit` made; `None` when the edit has no place in it.
    pub(super) fn edited(&mut self, edit: &Edit) -> Option<u64> {
        let (pointer, new) = match edit {
            Edit::Set(pointer, value) => (pointer, Some(value)),
            Edit::Remove(pointer) => (pointer, None),
        };
        if pointer.is_empty() {
            return new.map(value_hash);
        }
        self.edited_at(self.base, pointer.strip_prefix('/')?, new)
    }

    /// The hash of `node` with the edit made at `pointer` (its tokens, without the leading
    /// `/`) below it.
    fn edited_at(&mut self, node: &'b Value, pointer: &str, new: Option<&Value>) -> Option<u64> {
        let (token, rest) = match pointer.split_once('/') {
            Some((token, rest)) => (unescape_token(token), Some(rest)),
            None => (unescape_token(pointer), None),
        };
        match node {
            Value::Object(map) => {
                let old = map.get(token.as_ref());
                let replacement = match (rest, new) {
                    (Some(rest), _) => Some(self.edited_at(old?, rest, new)?),
                    (None, Some(value)) => Some(value_hash(value)),
                    (None, None) => {
                        old?;
                        None
                    }
                };
                let (mut len, mut sum) = (map.len(), self.sum(node));
                if let Some(old) = old {
                    sum = sum.wrapping_sub(member_hash(&token, self.hash(old)));
                    len -= 1;
                }
                if let Some(replacement) = replacement {
                    sum = sum.wrapping_add(member_hash(&token, replacement));
                    len += 1;
                }
                Some(object_hash(len, sum))
            }
            Value::Array(items) => {
                // As `pointer_mut`: no sign, no leading zero.
                if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
                    return None;
                }
                let at = token.parse::<usize>().ok()?;
                let item = items.get(at)?;
                let replacement = match rest {
                    Some(rest) => self.edited_at(item, rest, new)?,
                    None => value_hash(new?),
                };
                let hashes = items.iter().enumerate().map(|(i, item)| {
                    if i == at {
                        replacement
                    } else {
                        self.hash(item)
                    }
                });
                Some(array_hash(hashes))
            }
            _ => None,
        }
    }
}
