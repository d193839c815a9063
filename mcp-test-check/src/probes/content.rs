//! Content notes shared by the probes that read resources and prompts: binary contents are
//! base64 ([`blob_notes`]), images base64 with a MIME type ([`content_notes`]). Pure functions
//! of an answer, tested below without a server.

use serde_json::Value;

/// How many listed prompts, arguments or templates a probe samples at most.
pub(crate) const SAMPLE: usize = 5;

/// What is wrong with the binary contents of a `ReadResourceResult` for `uri`: a `blob` that
/// is not base64.
pub(crate) fn blob_notes(uri: &str, result: &Value) -> Vec<String> {
    result
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, item)| {
            let blob = item.get("blob")?.as_str()?;
            (!is_base64(blob)).then(|| {
                format!(
                    "resource {uri}: contents[{i}].blob is not base64: {:?}",
                    mcp_test::cases::shorten(blob, 60)
                )
            })
        })
        .collect()
}

/// What is wrong with the image contents of a `GetPromptResult`: data not base64, or no
/// valid MIME type.
pub(crate) fn content_notes(result: &Value) -> Vec<String> {
    let mut notes = Vec::new();
    for (i, message) in result
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(content) = message.get("content") else {
            continue;
        };
        if content.get("type").and_then(Value::as_str) != Some("image") {
            continue;
        }
        match content.get("data").and_then(Value::as_str) {
            Some(data) if is_base64(data) => {}
            Some(data) => notes.push(format!(
                "messages[{i}] is an image whose data is not base64: {:?}",
                mcp_test::cases::shorten(data, 60)
            )),
            None => notes.push(format!("messages[{i}] is an image without data")),
        }
        match content.get("mimeType").and_then(Value::as_str) {
            Some(mime) if is_mime_type(mime) => {}
            other => notes.push(format!(
                "messages[{i}] is an image without a valid MIME type: {other:?}"
            )),
        }
    }
    notes
}

/// Standard base64 (RFC 4648 §4), padded.
fn is_base64(s: &str) -> bool {
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
}

/// `type/subtype`, each an RFC 6838 name, with any parameters after `;`.
fn is_mime_type(s: &str) -> bool {
    let essence = s.split(';').next().unwrap_or("").trim();
    let name = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&^_.+-".contains(c))
    };
    matches!(essence.split_once('/'), Some((t, sub)) if name(t) && name(sub))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn images_are_base64_with_a_mime_type() {
        let good = json!({"messages": [{"role": "user", "content":
            {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}}]});
        assert!(content_notes(&good).is_empty());
        let bad = json!({"messages": [{"role": "user", "content":
            {"type": "image", "data": "not base64!", "mimeType": "png"}}]});
        assert_eq!(content_notes(&bad).len(), 2);
        assert!(is_base64(""));
        assert!(!is_base64("abc"));
        assert!(!is_base64("ab=c"));
    }
}
