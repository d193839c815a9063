//! Finding the recorded exchange that answers a live request: same method, same parameters,
//! the volatile ones (the id, `_meta.progressToken`) left out; and, when none does, the
//! closest one to name in the error.

use super::diff::differences;
use super::format::{Cassette, Recorded};
use crate::wire::error_codes;
use serde_json::Value;

/// Why no recorded exchange answers a request: the JSON-RPC error a cassette server sends.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unmatched {
    /// -32601 (method not found) when no recorded request has the method; -32602 (invalid
    /// params) when some do but none with these parameters.
    pub code: i32,
    /// What was asked, and the closest recorded request: its line, its method, and the JSON
    /// pointer where its params differ, with both values.
    pub message: String,
}

/// The recorded requests of a cassette, matched against live ones.
///
/// A request matches a recorded one with the same `method` and the same `params`, leaving
/// out the id and `params._meta.progressToken` (chosen afresh by every client). Everything
/// else compares as recorded: a `requestState` or task id the client got from a recorded
/// response comes back as it was. Of the recorded requests that match, the first not yet
/// used answers; when all were used, the last used one answers again (a client that polls a
/// finished task, or lists twice).
///
/// ```
/// use mcp_test::cassette::{Cassette, Matcher};
/// use serde_json::json;
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "target": "demo", "recordedAt": "x"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}}, "#,
///     r#""response": {"jsonrpc": "2.0", "id": 1, "result": {"content": []}}}"#, "\n",
/// );
/// let cassette = Cassette::parse(text, "demo.jsonl").unwrap();
/// let mut matcher = Matcher::new(&cassette);
/// let asked = json!({"jsonrpc": "2.0", "id": 42, "method": "tools/call",
///     "params": {"name": "add", "arguments": {"a": 1}, "_meta": {"progressToken": 7}}});
/// assert_eq!(matcher.find(&asked).unwrap().line, 2);
///
/// let other = json!({"jsonrpc": "2.0", "id": 43, "method": "tools/call",
///     "params": {"name": "add", "arguments": {"a": 2}}});
/// let unmatched = matcher.find(&other).unwrap_err();
/// assert_eq!(unmatched.code, -32602);
/// assert!(unmatched.message.contains("/params/arguments/a"), "{}", unmatched.message);
/// ```
#[derive(Clone, Debug)]
pub struct Matcher {
    source: String,
    recorded: Vec<Recorded>,
    used: Vec<bool>,
    last: Option<usize>,
}

impl Matcher {
    /// The requests of `cassette` (its notifications and lines without a request left out).
    pub fn new(cassette: &Cassette) -> Matcher {
        let recorded: Vec<Recorded> = cassette
            .entries
            .iter()
            .filter(|r| r.entry.is_request())
            .cloned()
            .collect();
        Matcher {
            source: cassette.source.clone(),
            used: vec![false; recorded.len()],
            recorded,
            last: None,
        }
    }

    /// The recorded exchange that answers `request`, or why none does.
    pub fn find(&mut self, request: &Value) -> Result<&Recorded, Unmatched> {
        let key = matching_key(request);
        let matching: Vec<usize> = (0..self.recorded.len())
            .filter(|&i| {
                self.recorded[i]
                    .entry
                    .request
                    .as_ref()
                    .is_some_and(|r| matching_key(r) == key)
            })
            .collect();
        let chosen = matching
            .iter()
            .copied()
            .find(|&i| !self.used[i])
            .or_else(|| {
                self.last
                    .filter(|l| matching.contains(l))
                    .or(matching.last().copied())
            });
        match chosen {
            Some(i) => {
                self.used[i] = true;
                self.last = Some(i);
                Ok(&self.recorded[i])
            }
            None => Err(self.closest(request, &key)),
        }
    }

    fn closest(&self, request: &Value, key: &Value) -> Unmatched {
        let method = request
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let same_method = self
            .recorded
            .iter()
            .filter(|r| r.entry.method() == Some(method));
        let best = same_method
            .filter_map(|r| {
                let found = differences("", &matching_key(r.entry.request.as_ref()?), key);
                Some((found.len(), r, found))
            })
            .min_by_key(|(n, r, _)| (*n, r.line));
        match best {
            Some((_, r, found)) => {
                let (pointer, was, now) = found.into_iter().next().unwrap_or_default();
                let show = |v: Option<Value>| v.map_or("(absent)".to_owned(), |v| v.to_string());
                Unmatched {
                    code: error_codes::INVALID_PARAMS,
                    message: format!(
                        "no request recorded in {} matches this `{method}`: the closest, line {} (`{method}`), differs at {pointer}: recorded {}, got {}",
                        self.source,
                        r.line,
                        show(was),
                        show(now)
                    ),
                }
            }
            None => {
                let mut methods: Vec<&str> = self
                    .recorded
                    .iter()
                    .filter_map(|r| r.entry.method())
                    .collect();
                methods.sort_unstable();
                methods.dedup();
                Unmatched {
                    code: error_codes::METHOD_NOT_FOUND,
                    message: format!(
                        "`{method}` was not recorded in {} (it recorded: {})",
                        self.source,
                        if methods.is_empty() {
                            "nothing".to_owned()
                        } else {
                            methods.join(", ")
                        }
                    ),
                }
            }
        }
    }
}

/// What two requests must share to match: the method and the params without
/// `_meta.progressToken`.
fn matching_key(request: &Value) -> Value {
    let mut params = request.get("params").cloned().unwrap_or(Value::Null);
    if let Some(meta) = params.get_mut("_meta").and_then(Value::as_object_mut) {
        meta.remove("progressToken");
        if meta.is_empty()
            && let Some(params) = params.as_object_mut()
        {
            params.remove("_meta");
        }
    }
    if params.as_object().is_some_and(serde_json::Map::is_empty) {
        params = Value::Null;
    }
    serde_json::json!({"method": request.get("method"), "params": params})
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cassette(lines: &[Value]) -> Cassette {
        let mut text =
            String::from("{\"mcpTestCassette\": 1, \"target\": \"t\", \"recordedAt\": \"x\"}\n");
        for line in lines {
            text.push_str(&line.to_string());
            text.push('\n');
        }
        Cassette::parse(&text, "t.jsonl").unwrap()
    }

    fn poll(id: i64, status: &str) -> Value {
        json!({"request": {"jsonrpc": "2.0", "id": id, "method": "tasks/get", "params": {"taskId": "t"}},
               "response": {"jsonrpc": "2.0", "id": id, "result": {"status": status}}})
    }

    #[test]
    fn repeated_polls_answer_in_order_then_the_last_again() {
        let c = cassette(&[poll(1, "working"), poll(2, "completed")]);
        let mut m = Matcher::new(&c);
        let ask =
            json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/get", "params": {"taskId": "t"}});
        let status = |r: &Recorded| r.entry.response.as_ref().unwrap()["result"]["status"].clone();
        assert_eq!(status(m.find(&ask).unwrap()), "working");
        assert_eq!(status(m.find(&ask).unwrap()), "completed");
        assert_eq!(status(m.find(&ask).unwrap()), "completed");
    }

    #[test]
    fn an_unrecorded_method_is_method_not_found_listing_the_recorded() {
        let c = cassette(&[poll(1, "working")]);
        let err = Matcher::new(&c)
            .find(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            .unwrap_err();
        assert_eq!(err.code, -32601);
        assert!(err.message.contains("tasks/get"), "{}", err.message);
    }

    #[test]
    fn empty_params_and_no_params_match() {
        let c = cassette(&[
            json!({"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            "response": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}),
        ]);
        assert!(
            Matcher::new(&c)
                .find(&json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list"}))
                .is_ok()
        );
    }
}
