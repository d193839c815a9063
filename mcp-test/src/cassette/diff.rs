//! Where two JSON values differ, by JSON pointer, and a replay's differences as a readable
//! report.

use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;

/// `key` as one reference token of a JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// One place where a live answer differs from the recorded one.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Difference {
    /// Which exchange (1-based, among the cassette's entries).
    pub exchange: usize,
    /// The line of the cassette that holds it.
    pub line: usize,
    /// The method of its request.
    pub method: String,
    /// Where, as a JSON pointer into the line (`/response/result/content/0/text`).
    pub pointer: String,
    /// The recorded value there (`None`: absent).
    pub recorded: Option<Value>,
    /// The live value there (`None`: absent).
    pub live: Option<Value>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: &Option<Value>| match v {
            Some(v) => short(v),
            None => "(absent)".to_owned(),
        };
        write!(
            f,
            "exchange {} (line {}, `{}`) at {}:\n    recorded: {}\n    live:     {}",
            self.exchange,
            self.line,
            self.method,
            self.pointer,
            show(&self.recorded),
            show(&self.live)
        )
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 300 {
        let mut end = 300;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &text[..end], text.len())
    } else {
        text
    }
}

/// The pointers (under `at`) where `recorded` and `live` differ, with the value of each side
/// (`None` where a side has nothing): the deepest place of each difference, objects compared
/// key by key and arrays item by item.
///
/// ```
/// use mcp_test::cassette::differences;
/// use serde_json::json;
/// let found = differences("/r", &json!({"a": [1, 2], "b": "x"}), &json!({"a": [1, 3], "c": 0}));
/// let pointers: Vec<&str> = found.iter().map(|(p, _, _)| p.as_str()).collect();
/// assert_eq!(pointers, ["/r/a/1", "/r/b", "/r/c"]);
/// ```
pub fn differences(
    at: &str,
    recorded: &Value,
    live: &Value,
) -> Vec<(String, Option<Value>, Option<Value>)> {
    let mut out = Vec::new();
    walk(at, Some(recorded), Some(live), &mut out);
    out
}

fn walk(
    at: &str,
    recorded: Option<&Value>,
    live: Option<&Value>,
    out: &mut Vec<(String, Option<Value>, Option<Value>)>,
) {
    match (recorded, live) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                walk(
                    &format!("{at}/{}", escape(key)),
                    a.get(key),
                    b.get(key),
                    out,
                );
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for i in 0..a.len().max(b.len()) {
                walk(&format!("{at}/{i}"), a.get(i), b.get(i), out);
            }
        }
        (a, b) if a == b => {}
        (a, b) => out.push((at.to_owned(), a.cloned(), b.cloned())),
    }
}

/// The message of [`CassetteError::Differs`](super::CassetteError::Differs).
pub(crate) fn report(source: &str, differences: &[Difference], pending: Option<&Path>) -> String {
    let mut text = format!(
        "{source}: the live session differs from the recording in {} place{}:",
        differences.len(),
        if differences.len() == 1 { "" } else { "s" }
    );
    for difference in differences.iter().take(20) {
        let _ = write!(text, "\n  {difference}");
    }
    if differences.len() > 20 {
        let _ = write!(text, "\n  … and {} more", differences.len() - 20);
    }
    match pending {
        Some(pending) => {
            let _ = write!(
                text,
                "\nThe live session is in {}: review it, then accept it with `mv {} {source}`, \
                 or re-record with MCP_TEST_CASSETTE=overwrite.",
                pending.display(),
                pending.display()
            );
        }
        None => text.push_str("\nRe-record with MCP_TEST_CASSETTE=overwrite to accept it."),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_difference_reads_with_its_place() {
        let d = Difference {
            exchange: 3,
            line: 4,
            method: "tools/call".into(),
            pointer: "/response/result/content/0/text".into(),
            recorded: Some(json!("5")),
            live: None,
        };
        let text = d.to_string();
        assert!(text.contains("exchange 3 (line 4, `tools/call`)"), "{text}");
        assert!(
            text.contains("recorded: \"5\"") && text.contains("(absent)"),
            "{text}"
        );
    }

    #[test]
    fn equal_values_have_no_difference() {
        let v = json!({"a": [1, {"b": null}]});
        assert!(differences("", &v, &v).is_empty());
        assert_eq!(differences("", &json!(1), &json!("1")).len(), 1);
    }
}
