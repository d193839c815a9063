//! What a server asks the client mid-call (spec §8): the `inputRequests` of an `input_required`
//! result, the params of its questions, and the shapes of the client's answers.

use super::Role;
use crate::setters;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// The methods a server may ask the client (the `method` of an [`InputRequest`]).
pub(crate) const ELICIT: &str = "elicitation/create";
pub(crate) const SAMPLE: &str = "sampling/createMessage";
pub(crate) const ROOTS: &str = "roots/list";

/// One question for the client, in wire shape: a bare `{method, params}` with no `jsonrpc` and
/// no `id` (spec §8 `InputRequest`).
///
/// ```
/// use mcp_test::rounds::InputRequest;
/// let q: InputRequest = serde_json::from_value(serde_json::json!({
///     "method": "elicitation/create",
///     "params": {"mode": "form", "message": "Your name?",
///                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}
/// })).unwrap();
/// assert_eq!(q.message(), Some("Your name?"));
/// assert_eq!(q.requested_schema().unwrap()["properties"]["name"]["type"], "string");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputRequest {
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// The request's params.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub params: Value,
}

impl InputRequest {
    /// The elicitation's `message`, if this is an elicitation.
    pub fn message(&self) -> Option<&str> {
        self.params.get("message").and_then(Value::as_str)
    }

    /// The elicitation mode: `form` (also when `mode` is absent) or `url`.
    pub fn mode(&self) -> Option<&str> {
        (self.method == ELICIT).then(|| {
            self.params
                .get("mode")
                .and_then(Value::as_str)
                .unwrap_or("form")
        })
    }

    /// The form's `requestedSchema`, if this is a form elicitation.
    pub fn requested_schema(&self) -> Option<&Value> {
        self.params.get("requestedSchema")
    }

    /// The URL of a URL-mode elicitation.
    pub fn url(&self) -> Option<&str> {
        self.params.get("url").and_then(Value::as_str)
    }
}

/// The questions of one `input_required` result, by key, in the order the run asked them.
///
/// Serializes as the wire's `inputRequests` object. When the run was checked against a server
/// (a context built with [`ContextBuilder::server`](crate::ContextBuilder::server)), it also
/// carries the `requestState` the server minted for the retry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputRequests {
    entries: Vec<(String, InputRequest)>,
    request_state: Option<String>,
}

impl InputRequests {
    /// The question under `key`.
    pub fn get(&self, key: &str) -> Option<&InputRequest> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, q)| q)
    }

    /// The keys, in the order the run asked them.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// `(key, question)` pairs, in the order the run asked them.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &InputRequest)> {
        self.entries.iter().map(|(k, q)| (k.as_str(), q))
    }

    /// How many questions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `requestState` minted for the retry, when the run had a server to sign it.
    pub fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }

    pub(crate) fn set_request_state(&mut self, state: String) {
        self.request_state = Some(state);
    }

    /// The wire `inputRequests` object.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("questions serialize")
    }

    pub(crate) fn push(&mut self, key: String, request: InputRequest) {
        self.entries.push((key, request));
    }
}

impl Serialize for InputRequests {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, q) in &self.entries {
            map.serialize_entry(k, q)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for InputRequests {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(deserializer)?;
        let mut out = InputRequests::default();
        for (k, v) in map {
            out.push(
                k,
                serde_json::from_value(v).map_err(serde::de::Error::custom)?,
            );
        }
        Ok(out)
    }
}

/// The answer to an elicitation: the user accepted (with the form's content, typed), declined,
/// or cancelled.
///
/// ```
/// use mcp_test::rounds::Elicitation;
/// let answer: Elicitation<String> = Elicitation::Accept("octocat".into());
/// assert_eq!(answer.accepted(), Some("octocat".to_owned()));
/// assert_eq!(Elicitation::<String>::Decline.accepted(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user submitted the form (or, in URL mode, consented); `T` is the content.
    Accept(T),
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request without choosing.
    Cancel,
}

impl<T> Elicitation<T> {
    /// The content, if the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicitation::Accept(t) => Some(t),
            Elicitation::Decline | Elicitation::Cancel => None,
        }
    }

    /// Whether the user accepted.
    pub fn is_accepted(&self) -> bool {
        matches!(self, Elicitation::Accept(_))
    }

    /// `accept`, `decline` or `cancel`, as on the wire.
    pub fn action(&self) -> &'static str {
        match self {
            Elicitation::Accept(_) => "accept",
            Elicitation::Decline => "decline",
            Elicitation::Cancel => "cancel",
        }
    }
}

/// One message of a sampling request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// `user` or `assistant`.
    pub role: Role,
    /// A content block (`{"type": "text", "text": ...}`, image, audio, ...) or an array of them.
    pub content: Value,
}

impl SamplingMessage {
    /// A user message with one text block.
    pub fn user(text: impl Into<String>) -> Self {
        SamplingMessage {
            role: Role::User,
            content: json!({"type": "text", "text": text.into()}),
        }
    }

    /// An assistant message with one text block.
    pub fn assistant(text: impl Into<String>) -> Self {
        SamplingMessage {
            role: Role::Assistant,
            content: json!({"type": "text", "text": text.into()}),
        }
    }
}

/// The params of a `sampling/createMessage` question.
///
/// ```
/// use mcp_test::rounds::{SamplingMessage, SamplingRequest};
/// let req = SamplingRequest::new(100)
///     .message(SamplingMessage::user("What is the capital of France?"))
///     .system_prompt("Answer in one word.");
/// let wire = serde_json::to_value(&req).unwrap();
/// assert_eq!(wire["maxTokens"], 100);
/// assert_eq!(wire["messages"][0]["content"]["text"], "What is the capital of France?");
/// ```
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingRequest {
    /// The conversation to sample from.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens to sample.
    pub max_tokens: u64,
    /// An optional system prompt.
    pub system_prompt: Option<String>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Stop sequences.
    pub stop_sequences: Option<Vec<String>>,
    /// Model preferences (`{hints?, costPriority?, speedPriority?, intelligencePriority?}`).
    pub model_preferences: Option<Value>,
}

impl SamplingRequest {
    /// A request for at most `max_tokens` tokens, with no messages yet.
    pub fn new(max_tokens: u64) -> Self {
        SamplingRequest {
            messages: Vec::new(),
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: None,
            model_preferences: None,
        }
    }

    /// Appends a message.
    #[must_use]
    pub fn message(mut self, message: SamplingMessage) -> Self {
        self.messages.push(message);
        self
    }

    setters! {
        /// Sets the system prompt.
        system_prompt(prompt: impl Into<String>) => system_prompt = Some(prompt.into());
    }
}

/// What the client's model answered to a sampling question (`CreateMessageResult`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SampledMessage {
    /// Normally `assistant`.
    pub role: Role,
    /// A content block or an array of them.
    pub content: Value,
    /// The model that produced it.
    pub model: String,
    /// Why sampling stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, ...).
    pub stop_reason: Option<String>,
}

impl SampledMessage {
    /// The text, when the content is one text block.
    pub fn text(&self) -> Option<&str> {
        (self.content.get("type").and_then(Value::as_str) == Some("text"))
            .then(|| self.content.get("text").and_then(Value::as_str))
            .flatten()
    }
}

/// A root the client exposes (`roots/list`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A display name.
    pub name: Option<String>,
}
