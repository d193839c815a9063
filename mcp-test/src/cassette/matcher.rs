//! Finding the recorded exchange that answers a live request: same method, same parameters,
//! the volatile ones (the id, `_meta.progressToken`) left out, and by default the protocol
//! metadata a client fills in about itself too ([`MatchMode`]); and, when none does, the
//! closest one to name in the error.

use super::diff::differences;
use super::format::{Cassette, Recorded};
use crate::wire::{error_codes, meta_keys};
use serde_json::{Map, Value};

/// Why no recorded exchange answers a request: the JSON-RPC error a cassette server sends.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unmatched {
    /// -32601 (method not found) when no recorded request has the method; -32602 (invalid
    /// params) when some do but none with these parameters, or none whose answer fits what
    /// this request declares.
    pub code: i32,
    /// What was asked, and the closest recorded request: its line, its method, and the JSON
    /// pointer where its params differ, with both values.
    pub message: String,
}

/// How a live request is matched against the recorded ones.
///
/// ```
/// use mcp_test::cassette::MatchMode;
/// assert_eq!(MatchMode::default(), MatchMode::Tolerant);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatchMode {
    /// The method and the params, leaving out what a client says about itself rather than
    /// what it asks, which differs from client to client for the same request:
    ///
    /// - in `params._meta` (2026-07-28): `io.modelcontextprotocol/protocolVersion`,
    ///   `io.modelcontextprotocol/clientCapabilities`, `io.modelcontextprotocol/clientInfo`;
    /// - in a 2025-11-25 `initialize`: `protocolVersion`, `capabilities`, `clientInfo`
    ///   (any `initialize` matches the recorded one);
    ///
    /// besides the id and `_meta.progressToken`, which every mode leaves out. Unless the
    /// recorded answer depended on them: a recorded request whose answer asks the client for
    /// elicitation, sampling or roots (an `input_required` result, or a 2025 session's
    /// requests to the client) answers only a request that declares those capabilities (in
    /// its `clientCapabilities`, or in its session's `initialize`); one refused with -32021
    /// answers only a request that still lacks what the error names; one refused with
    /// -32022 only a request naming the same protocol version. Of the recorded requests
    /// that match, one whose metadata is the live request's too comes first.
    #[default]
    Tolerant,
    /// The method and the params as recorded, only the id and `_meta.progressToken` left
    /// out: a cassette answers only a client that declares exactly what the recording
    /// client did (`mcp-test serve --strict-match`).
    Strict,
}

/// The recorded requests of a cassette, matched against live ones.
///
/// A request matches a recorded one with the same `method` and the same `params`, leaving
/// out the id and `params._meta.progressToken` (chosen afresh by every client) and, in the
/// default [`MatchMode::Tolerant`], the protocol metadata a client declares about itself
/// (its capabilities, `clientInfo`, protocol version) unless the recorded answer depended on
/// them. Everything else compares as recorded: a `requestState` or task id the client got
/// from a recorded response comes back as it was. Of the recorded requests that match, the
/// first not yet used answers; when all were used, the last used one answers again (a
/// client that polls a finished task, or lists twice).
///
/// ```
/// use mcp_test::cassette::{Cassette, MatchMode, Matcher};
/// use serde_json::json;
/// let text = concat!(
///     r#"{"mcpTestCassette": 1, "target": "demo", "recordedAt": "x"}"#, "\n",
///     r#"{"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}, "#,
///     r#""_meta": {"io.modelcontextprotocol/clientCapabilities": {"roots": {}}}}}, "#,
///     r#""response": {"jsonrpc": "2.0", "id": 1, "result": {"content": []}}}"#, "\n",
/// );
/// let cassette = Cassette::parse(text, "demo.jsonl").unwrap();
/// let mut matcher = Matcher::new(&cassette);
/// // Another client: other capabilities, a progress token of its own.
/// let asked = json!({"jsonrpc": "2.0", "id": 42, "method": "tools/call",
///     "params": {"name": "add", "arguments": {"a": 1}, "_meta": {"progressToken": 7,
///     "io.modelcontextprotocol/clientCapabilities": {}}}});
/// assert_eq!(matcher.find(&asked).unwrap().line, 2);
/// // Matched strictly, the capabilities must be the recorded ones.
/// let strict = Matcher::with_mode(&cassette, MatchMode::Strict).find(&asked).unwrap_err();
/// assert!(strict.message.contains("clientCapabilities"), "{}", strict.message);
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
    mode: MatchMode,
    recorded: Vec<Recorded>,
    /// The key of each recorded request in `mode`, and strictly.
    keys: Vec<(Value, Value)>,
    used: Vec<bool>,
    last: Option<usize>,
    /// The capabilities the live session's `initialize` declared (2025-11-25), once seen.
    session_capabilities: Option<Value>,
}

impl Matcher {
    /// The requests of `cassette` (its notifications and lines without a request left out),
    /// matched [`MatchMode::Tolerant`]ly.
    pub fn new(cassette: &Cassette) -> Matcher {
        Matcher::with_mode(cassette, MatchMode::default())
    }

    /// The requests of `cassette`, matched in `mode`.
    pub fn with_mode(cassette: &Cassette, mode: MatchMode) -> Matcher {
        let recorded: Vec<Recorded> = cassette
            .entries
            .iter()
            .filter(|r| r.entry.is_request())
            .cloned()
            .collect();
        let keys = recorded
            .iter()
            .map(|r| {
                let request = r.entry.request.as_ref().unwrap_or(&Value::Null);
                (
                    matching_key(request, mode),
                    matching_key(request, MatchMode::Strict),
                )
            })
            .collect();
        Matcher {
            source: cassette.source.clone(),
            mode,
            used: vec![false; recorded.len()],
            recorded,
            keys,
            last: None,
            session_capabilities: None,
        }
    }

    /// How this matcher matches.
    pub fn mode(&self) -> MatchMode {
        self.mode
    }

    /// The recorded exchange that answers `request`, or why none does.
    pub fn find(&mut self, request: &Value) -> Result<&Recorded, Unmatched> {
        if request.get("method").and_then(Value::as_str) == Some("initialize") {
            self.session_capabilities = request.pointer("/params/capabilities").cloned();
        }
        let key = matching_key(request, self.mode);
        let matching: Vec<usize> = (0..self.recorded.len())
            .filter(|&i| self.keys[i].0 == key)
            .collect();
        let mut usable = Vec::new();
        let mut refused = None;
        for &i in &matching {
            match self.depended(i, request) {
                None => usable.push(i),
                Some(why) => {
                    refused.get_or_insert((i, why));
                }
            }
        }
        let strict = matching_key(request, MatchMode::Strict);
        let exact: Vec<usize> = usable
            .iter()
            .copied()
            .filter(|&i| self.keys[i].1 == strict)
            .collect();
        let chosen = exact
            .iter()
            .chain(&usable)
            .copied()
            .find(|&i| !self.used[i])
            .or_else(|| {
                self.last
                    .filter(|l| usable.contains(l))
                    .or(usable.last().copied())
            });
        match (chosen, refused) {
            (Some(i), _) => {
                self.used[i] = true;
                self.last = Some(i);
                Ok(&self.recorded[i])
            }
            (None, Some((i, why))) => Err(Unmatched {
                code: error_codes::INVALID_PARAMS,
                message: format!(
                    "line {} of {} records this `{}`, but its answer depended on what the recording client declared: {why} (serve it to a client that declares the same, or record this client's session)",
                    self.recorded[i].line,
                    self.source,
                    request
                        .get("method")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                ),
            }),
            (None, None) => Err(self.closest(request, &key)),
        }
    }

    /// Why the answer recorded at `i` does not fit `request` although their keys match:
    /// what the answer depended on that `request` does not declare (tolerant mode only).
    fn depended(&self, i: usize, request: &Value) -> Option<String> {
        if self.mode == MatchMode::Strict {
            return None;
        }
        let entry = &self.recorded[i].entry;
        let recorded = entry.request.as_ref()?;
        let declared = request
            .pointer("/params/_meta")
            .and_then(|m| m.get(meta_keys::CLIENT_CAPABILITIES))
            .or(self.session_capabilities.as_ref())
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        let response = entry.response.as_ref();
        if let Some(error) = response.and_then(|r| r.get("error")) {
            let code = error.get("code").and_then(Value::as_i64);
            if code == Some(i64::from(error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY)) {
                let required = error.pointer("/data/requiredCapabilities");
                let still_missing = match required {
                    Some(Value::Object(required)) => {
                        required.keys().any(|name| declared.get(name).is_none())
                    }
                    _ => {
                        declared
                            == declared_by(recorded).unwrap_or_else(|| Value::Object(Map::new()))
                    }
                };
                return (!still_missing).then(|| {
                    "it was refused for a missing client capability (-32021), which this request declares".to_owned()
                });
            }
            if code == Some(i64::from(error_codes::UNSUPPORTED_PROTOCOL_VERSION)) {
                let version = |r: &Value| {
                    r.pointer("/params/_meta")
                        .and_then(|m| m.get(meta_keys::PROTOCOL_VERSION))
                        .or_else(|| r.pointer("/params/protocolVersion"))
                        .cloned()
                };
                return (version(recorded) != version(request)).then(|| {
                    format!(
                        "it was refused for its protocol version (-32022), {}, and this request names {}",
                        shown(version(recorded)),
                        shown(version(request))
                    )
                });
            }
        }
        let asked = response
            .and_then(|r| r.pointer("/result/inputRequests"))
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|inputs| inputs.values())
            .chain(entry.server_requests.iter().map(|s| &s.request));
        for input in asked {
            if let Some(missing) = undeclared(&declared, input) {
                let method = input.get("method").and_then(Value::as_str);
                return Some(format!(
                    "it asks the client `{}`, which needs {missing}, and this request does not declare it",
                    method.unwrap_or_default()
                ));
            }
        }
        None
    }

    fn closest(&self, request: &Value, key: &Value) -> Unmatched {
        let method = request
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let best = (0..self.recorded.len())
            .filter(|&i| self.recorded[i].entry.method() == Some(method))
            .map(|i| {
                let found = differences("", &self.keys[i].0, key);
                (found.len(), &self.recorded[i], found)
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

fn shown(value: Option<Value>) -> String {
    value.map_or("none".to_owned(), |v| v.to_string())
}

/// The capabilities a recorded 2026-07-28 request declared in its `_meta`.
fn declared_by(request: &Value) -> Option<Value> {
    request
        .pointer("/params/_meta")?
        .get(meta_keys::CLIENT_CAPABILITIES)
        .cloned()
}

/// The capability an input request (2026-07-28) or a server's request (2025-11-25) needs
/// that `declared` (a `ClientCapabilities` object) does not declare: form-mode elicitation
/// needs `elicitation` (an empty object declares form mode), URL mode `elicitation.url`;
/// sampling needs `sampling`, and `sampling.tools` to pass tools; `roots/list` needs
/// `roots`.
fn undeclared(declared: &Value, input: &Value) -> Option<&'static str> {
    let params = input.get("params").unwrap_or(&Value::Null);
    let has = |pointer: &str| declared.pointer(pointer).is_some_and(Value::is_object);
    match input.get("method").and_then(Value::as_str)? {
        "elicitation/create" => {
            let url = params.get("mode").and_then(Value::as_str) == Some("url");
            let elicitation = declared.get("elicitation").and_then(Value::as_object);
            match elicitation {
                None => Some("elicitation"),
                Some(e) if url && !e.contains_key("url") => Some("elicitation.url"),
                Some(e) if !url && !e.contains_key("form") && e.contains_key("url") => {
                    Some("elicitation.form")
                }
                Some(_) => None,
            }
        }
        "sampling/createMessage" if !has("/sampling") => Some("sampling"),
        "sampling/createMessage" if params.get("tools").is_some() && !has("/sampling/tools") => {
            Some("sampling.tools")
        }
        "roots/list" if !has("/roots") => Some("roots"),
        _ => None,
    }
}

/// What two requests must share to match in `mode`: the method and the params without
/// `_meta.progressToken`, and when tolerant without the client's own protocol metadata.
fn matching_key(request: &Value, mode: MatchMode) -> Value {
    let method = request.get("method");
    let mut params = request.get("params").cloned().unwrap_or(Value::Null);
    if let Some(params) = params.as_object_mut() {
        if let Some(meta) = params.get_mut("_meta").and_then(Value::as_object_mut) {
            meta.remove("progressToken");
            if mode == MatchMode::Tolerant {
                for key in [
                    meta_keys::PROTOCOL_VERSION,
                    meta_keys::CLIENT_CAPABILITIES,
                    meta_keys::CLIENT_INFO,
                ] {
                    meta.remove(key);
                }
            }
            if meta.is_empty() {
                params.remove("_meta");
            }
        }
        if mode == MatchMode::Tolerant && method.and_then(Value::as_str) == Some("initialize") {
            for key in ["protocolVersion", "capabilities", "clientInfo"] {
                params.remove(key);
            }
        }
    }
    if params.as_object().is_some_and(Map::is_empty) {
        params = Value::Null;
    }
    serde_json::json!({"method": method, "params": params})
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

    fn call(id: i64, capabilities: Value, info: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "greet", "arguments": {},
            "_meta": {meta_keys::PROTOCOL_VERSION: "2026-07-28",
                      meta_keys::CLIENT_CAPABILITIES: capabilities,
                      meta_keys::CLIENT_INFO: {"name": info, "version": "1"}}}})
    }

    fn entry(request: Value, result: Value) -> Value {
        json!({"request": request, "response": {"jsonrpc": "2.0", "id": 1, "result": result}})
    }

    #[test]
    fn what_a_client_says_of_itself_is_tolerated_unless_strict() {
        let c = cassette(&[entry(
            call(1, json!({"roots": {}}), "recorder"),
            json!({"content": []}),
        )]);
        let other = call(9, json!({"sampling": {}}), "another-client");
        assert_eq!(Matcher::new(&c).find(&other).unwrap().line, 2);
        let strict = Matcher::with_mode(&c, MatchMode::Strict)
            .find(&other)
            .unwrap_err();
        assert_eq!(strict.code, -32602);
        assert!(
            strict.message.contains("clientCapabilities"),
            "{}",
            strict.message
        );
        // What the request asks still counts.
        let mut changed = other.clone();
        changed["params"]["arguments"] = json!({"name": "x"});
        assert!(Matcher::new(&c).find(&changed).is_err());
    }

    #[test]
    fn the_recording_of_the_same_metadata_answers_first() {
        let c = cassette(&[
            entry(call(1, json!({}), "a"), json!({"content": [], "n": 1})),
            entry(
                call(2, json!({"roots": {}}), "b"),
                json!({"content": [], "n": 2}),
            ),
        ]);
        let mut m = Matcher::new(&c);
        let n = |r: &Recorded| r.entry.response.as_ref().unwrap()["result"]["n"].clone();
        assert_eq!(n(m.find(&call(5, json!({"roots": {}}), "b")).unwrap()), 2);
        assert_eq!(n(m.find(&call(6, json!({"x": {}}), "c")).unwrap()), 1);
    }

    #[test]
    fn an_answer_that_asks_answers_only_a_client_that_declares_what_it_asks() {
        let asks = json!({"resultType": "input_required", "inputRequests": {"name": {
            "method": "elicitation/create", "params": {"mode": "form", "message": "?",
            "requestedSchema": {"type": "object"}}}}});
        let c = cassette(&[entry(call(1, json!({"elicitation": {}}), "a"), asks)]);
        assert!(
            Matcher::new(&c)
                .find(&call(
                    2,
                    json!({"elicitation": {"form": {}}, "roots": {}}),
                    "b"
                ))
                .is_ok()
        );
        let refused = Matcher::new(&c)
            .find(&call(3, json!({"roots": {}}), "b"))
            .unwrap_err();
        assert_eq!(refused.code, -32602);
        assert!(
            refused.message.contains("line 2")
                && refused
                    .message
                    .contains("`elicitation/create`, which needs elicitation"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn a_missing_capability_error_answers_only_a_client_still_missing_it() {
        let c = cassette(&[json!({"request": call(1, json!({}), "a"), "response": {
            "jsonrpc": "2.0", "id": 1, "error": {"code": -32021, "message": "needs sampling",
            "data": {"requiredCapabilities": {"sampling": {}}}}}})]);
        assert!(
            Matcher::new(&c)
                .find(&call(2, json!({"roots": {}}), "b"))
                .is_ok()
        );
        let declares = Matcher::new(&c)
            .find(&call(3, json!({"sampling": {}}), "b"))
            .unwrap_err();
        assert!(declares.message.contains("-32021"), "{}", declares.message);
    }

    #[test]
    fn a_2025_session_matches_any_initialize_and_its_capabilities_decide_its_questions() {
        let initialize = |caps: Value, name: &str| {
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": caps,
                "clientInfo": {"name": name, "version": "1"}}})
        };
        let question = json!({"request": {"jsonrpc": "2.0", "id": 0, "method": "roots/list"},
            "response": {"jsonrpc": "2.0", "id": 0, "result": {"roots": []}}});
        let c = cassette(&[
            entry(
                initialize(json!({"roots": {}}), "recorder"),
                json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
            ),
            json!({"request": {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "roots", "arguments": {}}},
                "serverRequests": [question],
                "response": {"jsonrpc": "2.0", "id": 2, "result": {"content": []}}}),
        ]);
        let asked = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "roots", "arguments": {}}});
        let mut declaring = Matcher::new(&c);
        assert!(
            declaring
                .find(&initialize(json!({"roots": {}}), "other"))
                .is_ok()
        );
        assert!(declaring.find(&asked).is_ok());
        let mut silent = Matcher::new(&c);
        assert!(silent.find(&initialize(json!({}), "other")).is_ok());
        let refused = silent.find(&asked).unwrap_err();
        assert!(
            refused.message.contains("needs roots"),
            "{}",
            refused.message
        );
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
