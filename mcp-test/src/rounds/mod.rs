//! Multi-round requests (MRTR, spec §8): a tool asks the client a question mid-call, the call
//! answers `input_required`, and the client retries the same request with the answers.
//!
//! # Asking
//!
//! A handler asks through its [`Context`](crate::Context):
//!
//! | method | wire request | needs in `clientCapabilities` | answer |
//! |---|---|---|---|
//! | [`elicit(message, schema)`](crate::Context::elicit) | `elicitation/create`, form | `elicitation` | [`Elicitation`]`<Map>` |
//! | [`elicit_as::<T>(message)`](crate::Context::elicit_as) | form with `T`'s flat schema | `elicitation` | [`Elicitation`]`<T>` |
//! | [`elicit_url(message, url)`](crate::Context::elicit_url) | `elicitation/create`, URL | `elicitation.url` | [`Elicitation`]`<()>` |
//! | [`create_message(request)`](crate::Context::create_message) | `sampling/createMessage` | `sampling` | [`SampledMessage`] |
//! | [`list_roots()`](crate::Context::list_roots) | `roots/list` | `roots` | `Vec<`[`Root`]`>` |
//!
//! Each returns an [`Ask`] to `.await`, optionally after [`Ask::key`] names its key.
//!
//! **Capabilities.** When this request's `clientCapabilities` lacks what a question needs,
//! nothing is sent and the question answers [`AskError::NotSupported`]: match on it to fall
//! back. Propagating it with `?` (or calling [`Context::require`](crate::Context::require)
//! first) fails the call with -32021 and `data.requiredCapabilities`, e.g.
//! `{"elicitation": {}}`. No request kind the client did not declare is ever sent.
//!
//! # Keys
//!
//! Default keys follow run order per kind: `elicit-1`, `elicit-2`, …, `sampling-1`, …,
//! `roots-1`, …. A question may name its own key with [`Ask::key`]; keys must be unique within
//! one run (a duplicate fails the call with -32603), so do not choose names of the default form.
//!
//! # The round boundary and the replay model
//!
//! The server runs the handler inside a *round boundary*. When the run is pending and has asked
//! at least one question whose answer is not in the request, the run **ends** (its future is
//! dropped) and the call answers
//! `{"resultType":"input_required","inputRequests":{KEY:{method,params}},"requestState":"…"}`.
//! Independent questions asked concurrently — two `elicit`s under `join!` — are all asked
//! before the run stops, so they come back together in one `input_required`.
//!
//! On retry **the run replays from the start**: the handler is called again with the same
//! arguments, and every question already answered (in this retry or any earlier round) returns
//! its answer immediately. There is no suspended task on the server between rounds and nothing
//! stored: the answers of earlier rounds travel in the signed `requestState`.
//!
//! What this means for the handler:
//!
//! - **Everything before a question runs once per round.** A side effect before the last
//!   question (writing a row, sending an email, charging a card) happens again on every retry.
//!   Ask first, then act; or make the effect idempotent (keyed by something stable such as the
//!   arguments).
//! - **Ask the same questions in the same order.** Default keys are allocated in run order, so
//!   a handler whose questions depend on anything but the arguments and earlier answers (time,
//!   randomness, external state) must name its keys.
//! - A question whose future is never polled is never asked and uses no key.
//! - Ask from the handler's own future (`join!` for concurrency). A question asked from a task
//!   the handler spawned is sent too, but when the round ends the task's question fails with
//!   [`AskError::RoundEnded`] rather than pending forever.
//!
//! # requestState
//!
//! Minted by the server, HMAC-SHA256 signed with the server key
//! ([`ServerBuilder::request_state_key`](crate::ServerBuilder::request_state_key); random per
//! process by default), and bound to the method, the tool (prompt, resource), a digest of the
//! original arguments, the principal and tenant, an expiry
//! ([`ServerBuilder::request_state_ttl`](crate::ServerBuilder::request_state_ttl)) and the
//! round. Tampered, expired or foreign state (another tool, other arguments, another principal)
//! is rejected with -32602 naming which check failed.
//!
//! # Retries
//!
//! - A missing answer (a key the state asked for and the retry left out) is asked again: a fresh
//!   `input_required` for what is missing, not an error.
//! - Keys the state did not ask for are ignored.
//! - A malformed answer — not an object, the wrong result kind, an unknown `action`, form content
//!   that does not match the requested schema — fails the call with -32602 naming the key and,
//!   for content, the JSON pointer. It is not re-asked: a client that sent a malformed answer
//!   once would likely send it again.
//! - `inputResponses` without a `requestState` (a first round) are offered to that round's
//!   questions: keys it asks are answered (and validated), others ignored, the rest asked.
//!
//! `input_required` is only ever the answer to `tools/call`, `prompts/get` and `resources/read`
//! ([`INPUT_REQUIRED_METHODS`]).
//!
//! # Testing
//!
//! [`testing::run_tool`](crate::testing::run_tool) runs a tool inside the same boundary; a
//! context built with [`ContextBuilder::answer`](crate::ContextBuilder::answer) carries scripted
//! answers keyed like the client's retry; [`testing::Driver`](crate::testing::Driver) runs a
//! call to completion round by round and records every intermediate question.

pub(crate) mod ask;
mod boundary;
mod flat;

pub use crate::wire::input::{
    Elicitation, InputRequest, InputRequests, Root, SampledMessage, SamplingMessage,
    SamplingRequest,
};
pub use ask::{Ask, AskError, AskFuture, Capability};
pub use boundary::INPUT_REQUIRED_METHODS;
pub use flat::{ElicitationSchemaError, elicitation_schema};

pub(crate) use ask::{RoundHandle, TaskPhase};
pub(crate) use boundary::{
    Bounded, Phased, RoundResult, run_bounded, serve_round, serve_round_phased,
};
