//! Opaque cursors for the `*/list` methods (spec §9, Pagination).
//!
//! A cursor encodes the list it belongs to, the offset of the next page, and a fingerprint of
//! the list's contents, base64url-encoded. A cursor from another list, from a list whose
//! contents changed, or that is not one of ours is rejected with -32602 rather than silently
//! restarting or skipping items.

use crate::wire::ErrorObject;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use std::hash::{Hash, Hasher};

/// A fingerprint of a list's item keys, stable within a process.
pub(crate) fn fingerprint<'a>(keys: impl IntoIterator<Item = &'a str>) -> u64 {
    // SipHash with fixed zero keys: deterministic, unlike `RandomState`.
    #[allow(deprecated)]
    let mut hasher = std::hash::SipHasher::new();
    for key in keys {
        key.hash(&mut hasher);
    }
    hasher.finish()
}

/// One page of `items`, starting where `cursor` points, with the cursor of the next page if
/// any items remain.
pub(crate) fn page<'a, T>(
    items: &'a [T],
    cursor: Option<&str>,
    page_size: usize,
    list: &str,
    fingerprint: u64,
) -> Result<(&'a [T], Option<String>), ErrorObject> {
    let start = match cursor {
        None => 0,
        Some(c) => decode(c, list, fingerprint)
            .filter(|&offset| offset > 0 && offset < items.len())
            .ok_or_else(|| {
                ErrorObject::invalid_params(format!(
                    "Invalid params: invalid cursor for {list} (cursors are opaque: pass back the nextCursor of the previous page unchanged)"
                ))
                .with_data(serde_json::json!({ "cursor": c }))
            })?,
    };
    let end = start.saturating_add(page_size).min(items.len());
    let next = (end < items.len()).then(|| encode(end, list, fingerprint));
    Ok((&items[start..end], next))
}

fn encode(offset: usize, list: &str, fingerprint: u64) -> String {
    URL_SAFE_NO_PAD.encode(format!("{list}|{offset}|{fingerprint:016x}"))
}

fn decode(cursor: &str, list: &str, fingerprint: u64) -> Option<usize> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let mut parts = text.split('|');
    let (l, o, f) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || l != list || f != format!("{fingerprint:016x}") {
        return None;
    }
    o.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_follow_cursors_to_the_end() {
        let items: Vec<u32> = (0..5).collect();
        let fp = fingerprint(["a"]);
        let (p1, c1) = page(&items, None, 2, "tools/list", fp).unwrap();
        assert_eq!(p1, [0, 1]);
        let (p2, c2) = page(&items, c1.as_deref(), 2, "tools/list", fp).unwrap();
        assert_eq!(p2, [2, 3]);
        let (p3, c3) = page(&items, c2.as_deref(), 2, "tools/list", fp).unwrap();
        assert_eq!(p3, [4]);
        assert_eq!(c3, None);
    }

    #[test]
    fn foreign_and_stale_cursors_are_rejected() {
        let items: Vec<u32> = (0..5).collect();
        let fp = fingerprint(["a"]);
        let (_, c) = page(&items, None, 2, "tools/list", fp).unwrap();
        let c = c.unwrap();
        for (cursor, list, fp) in [
            (c.as_str(), "prompts/list", fp),
            (c.as_str(), "tools/list", fp + 1),
            ("", "tools/list", fp),
            ("not base64 !", "tools/list", fp),
        ] {
            let err = page(&items, Some(cursor), 2, list, fp).unwrap_err();
            assert_eq!(err.code, -32602);
            assert_eq!(err.data.unwrap()["cursor"], cursor);
        }
    }
}
