//! The client's answers to a server's own requests (`elicitation/create`,
//! `sampling/createMessage`, `roots/list`, `ping`) on an open 2025-11-25 connection, from the
//! same [`Answers`] the 2026-07-28 round driver resends as `inputResponses`.

use super::Answers;
use crate::wire::{error_codes, meta_keys};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The methods a server asks of a client that declared the matching capability.
pub(crate) const ANSWERED_METHODS: [&str; 3] =
    ["elicitation/create", "sampling/createMessage", "roots/list"];

/// Where the answers come from: a client's own (`Client::with_answers`) and those of each
/// round helper in flight (`Client::call_rounds`, a 2025-era `TestContext`'s
/// `call_tool_rounds`), the latest asked first.
#[derive(Default)]
pub(crate) struct AnswerSources {
    fixed: Mutex<Option<Answers>>,
    in_flight: Mutex<Vec<(u64, Answers)>>,
    next: AtomicU64,
}

/// Removes the answers of one round helper in flight when it ends.
pub(crate) struct InFlight {
    sources: Arc<AnswerSources>,
    token: u64,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.sources
            .in_flight
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .retain(|(t, _)| *t != self.token);
    }
}

// Without a client feature only the in-process 2025-era context uses these sources, and it has
// no answers of its own.
#[cfg_attr(not(any(feature = "client", feature = "http")), allow(dead_code))]
impl AnswerSources {
    pub(crate) fn set_fixed(&self, answers: Answers) {
        *self
            .fixed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(answers);
    }

    /// Whether the client answers server requests from answers of its own.
    pub(crate) fn has_fixed(&self) -> bool {
        self.fixed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some()
    }

    /// `answers`, then the client's own: what a 2026-07-28 round answers from.
    pub(crate) fn with_fixed(&self, answers: &Answers) -> Answers {
        let fixed = self
            .fixed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let Some(fixed) = fixed else {
            return answers.clone();
        };
        let first = answers.clone();
        Answers::new()
            .max_rounds(answers.round_limit())
            .respond(move |key, request| {
                first
                    .find(key, request)
                    .or_else(|| fixed.find(key, request))
            })
    }

    /// Answers from `answers` too while the returned guard lives.
    pub(crate) fn during(self: &Arc<Self>, answers: &Answers) -> InFlight {
        let token = self.next.fetch_add(1, Ordering::Relaxed);
        self.in_flight
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((token, answers.clone()));
        InFlight {
            sources: self.clone(),
            token,
        }
    }

    /// The JSON-RPC response to `request`, a request from the server.
    ///
    /// `ping` gets an empty result (2025-11-25 basic/utilities/ping.mdx: the receiver MUST
    /// respond promptly). A request for elicitation, sampling or roots is looked up in the
    /// answers under the key a server of this crate's runtime names in
    /// `params._meta["io.github.mcp-test/inputKey"]` (the key of the tool's question, the one
    /// the 2026-07-28 round driver answers), else under the method's name, so answers scripted
    /// in order, per method, by a responder or synthesized apply to any server. No answer is
    /// an error naming the keys the script has (-32603); no answers at all is -32601, as for
    /// any method the client does not serve.
    pub(crate) fn respond(&self, request: &Value) -> Value {
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let method = request.get("method").and_then(Value::as_str);
        if method == Some("ping") {
            return json!({"jsonrpc": "2.0", "id": id, "result": {}});
        }
        let method = method.unwrap_or_default();
        let sources: Vec<Answers> = {
            let in_flight = self
                .in_flight
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let fixed = self
                .fixed
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            in_flight
                .iter()
                .rev()
                .map(|(_, a)| a.clone())
                .chain(fixed.iter().cloned())
                .collect()
        };
        if !ANSWERED_METHODS.contains(&method) || sources.is_empty() {
            return json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": error_codes::METHOD_NOT_FOUND,
                "message": format!(
                    "Method not found: this client serves no {} request (it has no answers for it)",
                    if method.is_empty() { "such" } else { method }
                ),
            }});
        }
        let key = input_key(request).unwrap_or(method).to_owned();
        let mut question = json!({"method": method});
        if let Some(params) = request.get("params") {
            question["params"] = params.clone();
        }
        for answers in &sources {
            if let Some(answer) = answers.find(&key, &question) {
                return json!({"jsonrpc": "2.0", "id": id, "result": answer});
            }
        }
        let mut keys: Vec<&str> = sources.iter().flat_map(Answers::keys).collect();
        keys.sort_unstable();
        keys.dedup();
        json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": error_codes::INTERNAL_ERROR,
            "message": format!(
                "the test scripted no answer for {method} {key:?}; the script answers the keys {keys:?}"
            ),
        }})
    }
}

/// The key of the question a server of this crate's runtime asks with `request`.
fn input_key(request: &Value) -> Option<&str> {
    request
        .get("params")?
        .get("_meta")?
        .get(meta_keys::INPUT_KEY)?
        .as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(method: &str, key: Option<&str>) -> Value {
        let mut request = json!({"jsonrpc": "2.0", "id": "s-1", "method": method, "params": {}});
        if let Some(key) = key {
            request["params"]["_meta"] = json!({ meta_keys::INPUT_KEY: key });
        }
        request
    }

    #[test]
    fn a_keyed_answer_meets_the_key_the_runtime_names() {
        let sources = AnswerSources::default();
        sources.set_fixed(Answers::new().answer(
            "name",
            json!({"action": "accept", "content": {"name": "Ada"}}),
        ));
        let reply = sources.respond(&asked("elicitation/create", Some("name")));
        assert_eq!(reply["id"], "s-1");
        assert_eq!(reply["result"]["content"]["name"], "Ada", "{reply}");
        let missing = sources.respond(&asked("elicitation/create", Some("nmae")));
        assert_eq!(missing["error"]["code"], -32603, "{missing}");
        let text = missing["error"]["message"].as_str().unwrap();
        assert!(
            text.contains("\"nmae\"") && text.contains("[\"name\"]"),
            "{text}"
        );
    }

    #[test]
    fn answers_of_a_call_in_flight_come_first_and_leave_with_it() {
        let sources = Arc::new(AnswerSources::default());
        sources.set_fixed(
            Answers::new().method("roots/list", json!({"roots": [{"uri": "file:///a"}]})),
        );
        {
            let call =
                Answers::new().method("roots/list", json!({"roots": [{"uri": "file:///b"}]}));
            let _guard = sources.during(&call);
            let reply = sources.respond(&asked("roots/list", None));
            assert_eq!(reply["result"]["roots"][0]["uri"], "file:///b", "{reply}");
        }
        let reply = sources.respond(&asked("roots/list", None));
        assert_eq!(reply["result"]["roots"][0]["uri"], "file:///a", "{reply}");
    }

    #[test]
    fn without_answers_only_ping_is_served() {
        let sources = AnswerSources::default();
        assert_eq!(sources.respond(&asked("ping", None))["result"], json!({}));
        let reply = sources.respond(&asked("sampling/createMessage", None));
        assert_eq!(reply["error"]["code"], -32601, "{reply}");
        sources.set_fixed(Answers::synthesized());
        let reply = sources.respond(&asked("tools/list", None));
        assert_eq!(reply["error"]["code"], -32601, "{reply}");
    }
}
