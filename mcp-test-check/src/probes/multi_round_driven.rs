//! `multi-round/driven` (spec §8): every tool whose base case asked for input (or answered
//! -32021) is called again declaring every client capability and driven to its final
//! response with synthesized answers (`mcp_test::target::Answers::synthesized`).
//!
//! Every round, not only the first, is held to what every response is (its id, `resultType`,
//! inputRequests or requestState, `ttlMs`, the official schema: `results_and_errors`'s
//! `judge_response`) and must ask only for declared capabilities; the run
//! must end complete, or in a JSON-RPC error other than -32603; an extra answer, a declined
//! one, and a tampered `requestState` must be handled (refused, or the flow started over: the
//! same questions asked again).
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`ELICITATION_HANDLE_DECLINE`](clauses::ELICITATION_HANDLE_DECLINE),
//! [`JSONRPC_RESPONSE`](clauses::JSONRPC_RESPONSE), [`MRTR_ASK_AGAIN`](clauses::MRTR_ASK_AGAIN),
//! [`MRTR_DECLARED_ONLY`](clauses::MRTR_DECLARED_ONLY),
//! [`MRTR_IGNORE_EXTRA`](clauses::MRTR_IGNORE_EXTRA),
//! [`MRTR_REQUESTS_OR_STATE`](clauses::MRTR_REQUESTS_OR_STATE),
//! [`MRTR_REQUEST_KINDS`](clauses::MRTR_REQUEST_KINDS),
//! [`MRTR_STATE_INTEGRITY`](clauses::MRTR_STATE_INTEGRITY),
//! [`SAMPLING_CONTEXT`](clauses::SAMPLING_CONTEXT), [`SAMPLING_TOOLS`](clauses::SAMPLING_TOOLS),
//! [`SCHEMA`](clauses::SCHEMA).

use crate::Shown;
use crate::checker::{Checker, Note, Out, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::{Happened, Outcome, VerifyReport, every_client_capability};
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::target::{Answers, DriveError, Rounds, synthesize_answer};
use mcp_test::wire::error_codes;
use mcp_test::wire::error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY;
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "multi-round/driven";

/// The row: [`multi_round_driven`] over the cases' outcomes.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(multi_round_driven(&mut r.c, &r.report))
}

/// Every tool whose base case asks, driven to its final response with every client
/// capability declared.
pub(crate) async fn multi_round_driven(c: &mut Checker<'_>, report: &VerifyReport) {
    let mut out = Vec::new();
    let asking: Vec<&Outcome> = report
        .outcomes
        .iter()
        .filter(|o| {
            o.case.source == "rule:base"
                && matches!(
                    o.happened,
                    Happened::InputRequired | Happened::NeedsCapabilities { .. }
                )
        })
        .collect();
    if asking.is_empty() {
        return c.skip_probe(
            ID,
            format!("no tool asked for input or answered {MISSING_REQUIRED_CLIENT_CAPABILITY}"),
        );
    }
    for o in asking {
        if c.dead.is_some() {
            break;
        }
        drive_one(c, o, &mut out).await;
    }
    c.push_probe(ID, out);
}

async fn drive_one(c: &mut Checker<'_>, o: &Outcome, out: &mut Out) {
    let label = format!("{} › {}", o.case.tool, o.case.title);
    let params = json!({
        "name": o.case.tool,
        "arguments": o.case.args,
        "_meta": {meta_keys::CLIENT_CAPABILITIES: every_client_capability()},
    });
    let (id, body) = c.session.body("tools/call", params);
    let on = Some(Shown {
        method: "tools/call".to_owned(),
        id: Some(id),
    });
    let (rounds, complete) = match c.session.drive(&body, &Answers::synthesized()).await {
        Ok(rounds) => (rounds, true),
        Err(e) => {
            let rounds = e.rounds().cloned().unwrap_or_default();
            let (clause, problem) = match &e {
                DriveError::Unanswered {
                    round,
                    key,
                    request,
                    ..
                } => (
                    Some(&clauses::MRTR_REQUEST_KINDS),
                    format!(
                        "round {round} asks {key:?} with {}, which is no input request a client answers: {request}",
                        request
                            .get("method")
                            .and_then(Value::as_str)
                            .unwrap_or("no method")
                    ),
                ),
                // A server MAY ask again and again (mrtr.mdx); past the limit it is noted.
                DriveError::TooManyRounds { limit, .. } => (
                    None,
                    format!("still input_required after {limit} rounds with every answer given"),
                ),
                // Silence within the timeout is no verdict (`checker::timeout_text`).
                DriveError::Target { source, .. } if crate::checker::timed_out(source) => {
                    (None, e.to_string())
                }
                DriveError::Target { .. } => (Some(&clauses::JSONRPC_RESPONSE), e.to_string()),
                // A round the driver could not answer: what is wrong with it, if anything,
                // is [`check_rounds`]'s to say (neither inputRequests nor requestState, or
                // off the schema); one with only requestState is valid, and this client
                // does not retry a round that asks nothing.
                DriveError::Malformed { result, .. } => {
                    let state_only = result.get("requestState").is_some()
                        && result.get("inputRequests").is_none();
                    (
                        None,
                        if state_only {
                            format!(
                                "round {} answered input_required with requestState and no inputRequests, which the schema allows; this client does not retry a round that asks nothing, so the run stopped there",
                                rounds.len()
                            )
                        } else {
                            String::new()
                        },
                    )
                }
                other => (Some(&clauses::SCHEMA), other.to_string()),
            };
            if !problem.is_empty() {
                let message = format!("{label}: driven with every client capability: {problem}");
                out.push(
                    match clause {
                        Some(clause) => Note::broke(clause, message),
                        None => Note::info(message),
                    }
                    .on(on.clone()),
                );
            }
            if let DriveError::Target { source, .. } = &e {
                c.after_failure(source.to_string()).await;
            }
            (rounds, false)
        }
    };
    check_rounds(c, &label, &rounds, out);
    if complete {
        let last = rounds.last();
        if last.pointer("/error/code").and_then(Value::as_i64)
            == Some(i64::from(error_codes::INTERNAL_ERROR))
        {
            // Schema-valid answers to every question: an internal error is the server's,
            // but no clause says MUST; noted.
            out.push(
                Note::info(format!(
                    "{label}: driven with every client capability and synthesized answers, it ended in an internal error after {} rounds: {}",
                    rounds.len(),
                    brief(last)
                ))
                .on(on.clone()),
            );
        }
    }
    ask_again(c, &label, &rounds, out).await;
    declined(c, &label, &rounds, out).await;
    extra_answer(c, &label, &rounds, out).await;
    tamper(c, &label, o, &rounds, out).await;
}

/// Starts the request afresh and, when it asks for input, retries it without the
/// answers (echoing its `requestState`, which is not reused): the server should ask
/// again (a new `input_required`), not fail. A server that does not need the answers may
/// complete instead.
async fn ask_again(c: &mut Checker<'_>, label: &str, rounds: &Rounds, out: &mut Out) {
    let asked_first = rounds
        .exchanges
        .first()
        .and_then(|x| x.response.as_ref())
        .and_then(|r| r.pointer("/result/inputRequests"))
        .and_then(Value::as_object)
        .is_some_and(|a| !a.is_empty());
    if rounds.requests.len() < 2 || !asked_first {
        return;
    }
    let Some((params, _)) = start_afresh(c, rounds, out).await else {
        return;
    };
    let clause = &clauses::MRTR_ASK_AGAIN;
    c.req_not_answered_with("error", "tools/call", params, out, clause, |got| {
        format!(
            "{label}: a retry without the answers it was asked for should get a new input_required result; got {got}"
        )
    })
    .await;
}

/// Sends the first request of `rounds` again, as new: the params of a retry (its params, with
/// the `requestState` the response gave, if any), and the input requests it asked for. `None`
/// when it got no answer or asked for nothing.
async fn start_afresh(
    c: &mut Checker<'_>,
    rounds: &Rounds,
    out: &mut Out,
) -> Option<(Value, serde_json::Map<String, Value>)> {
    let mut params = rounds.requests.first()?.get("params")?.clone();
    let first = c.req("tools/call", params.clone(), out).await?;
    let asked = first
        .pointer("/result/inputRequests")
        .and_then(Value::as_object)
        .filter(|a| !a.is_empty())?
        .clone();
    if let Some(state) = first.pointer("/result/requestState") {
        params["requestState"] = state.clone();
    }
    Some((params, asked))
}

/// Starts the request afresh and, when it asks for input, retries it with synthesized
/// answers plus one answer to a question never asked: the server should ignore what it
/// does not need, not fail.
async fn extra_answer(c: &mut Checker<'_>, label: &str, rounds: &Rounds, out: &mut Out) {
    if rounds.requests.len() < 2 || c.dead.is_some() {
        return;
    }
    let Some((mut params, asked)) = start_afresh(c, rounds, out).await else {
        return;
    };
    let mut answers = serde_json::Map::new();
    for (key, request) in &asked {
        let Some(answer) = synthesize_answer(request) else {
            return;
        };
        answers.insert(key.clone(), answer);
    }
    answers.insert("mcp-test-unasked".to_owned(), json!({"action": "accept"}));
    params["inputResponses"] = Value::Object(answers);
    let clause = &clauses::MRTR_IGNORE_EXTRA;
    c.req_not_answered_with("error", "tools/call", params, out, clause, |got| {
        format!(
            "{label}: a retry whose inputResponses also answer an input request never made (\"mcp-test-unasked\") should be served as without it; got {got}"
        )
    })
    .await;
}

/// When the first round asks for elicitation, drives the request afresh answering every
/// elicitation with `decline`, then with `cancel`: the server must handle both, and an
/// internal error (-32603), or no answer, is a failure to.
async fn declined(c: &mut Checker<'_>, label: &str, rounds: &Rounds, out: &mut Out) {
    let elicits = rounds
        .exchanges
        .first()
        .and_then(|x| x.response.as_ref())
        .and_then(|r| r.pointer("/result/inputRequests"))
        .and_then(Value::as_object)
        .is_some_and(|asks| {
            asks.values()
                .any(|a| a.get("method") == Some(&json!("elicitation/create")))
        });
    let Some(params) = rounds.requests.first().and_then(|r| r.get("params")) else {
        return;
    };
    if !elicits {
        return;
    }
    for action in ["decline", "cancel"] {
        if c.dead.is_some() {
            return;
        }
        let (id, body) = c.session.body("tools/call", params.clone());
        let on = Some(Shown {
            method: "tools/call".to_owned(),
            id: Some(id),
        });
        let answers = Answers::new()
            .method("elicitation/create", json!({"action": action}))
            .synthesize();
        match c.session.drive(&body, &answers).await {
            Ok(rounds)
                if rounds.last().pointer("/error/code").and_then(Value::as_i64)
                    == Some(i64::from(error_codes::INTERNAL_ERROR)) =>
            {
                out.push(
                    Note::broke(
                        &clauses::ELICITATION_HANDLE_DECLINE,
                        format!(
                            "{label}: with every elicitation answered `{action}`, it ended in an internal error: {}",
                            brief(rounds.last())
                        ),
                    )
                    .on(on),
                );
            }
            Err(e @ DriveError::Target { .. }) => {
                let message = format!("{label}: with every elicitation answered `{action}`: {e}");
                let timed_out = matches!(&e, DriveError::Target { source, .. } if crate::checker::timed_out(source));
                out.push(
                    if timed_out {
                        Note::info(message)
                    } else {
                        Note::broke(&clauses::JSONRPC_RESPONSE, message)
                    }
                    .on(on),
                );
                c.after_failure(e.to_string()).await;
            }
            // Asking again after a decline is allowed (mrtr.mdx); the other failures were
            // already reported by the run with synthesized answers.
            _ => {}
        }
    }
}

/// Each round is held to what every response is (`results_and_errors::judge_response`: its
/// id, its error's code and fields, `resultType`, inputRequests or requestState, `ttlMs`,
/// the official schema), and asks only for capabilities its request declared.
fn check_rounds(c: &Checker<'_>, label: &str, rounds: &Rounds, out: &mut Out) {
    let mut undefined = std::collections::BTreeSet::new();
    for (i, (request, exchange)) in rounds.requests.iter().zip(&rounds.exchanges).enumerate() {
        let round = i + 1;
        let Some(response) = &exchange.response else {
            continue;
        };
        let id = request["id"].as_i64();
        let on = Some(Shown {
            method: "tools/call".to_owned(),
            id,
        });
        if let Some(id) = id {
            let (results, errors) = super::results_and_errors::judge_response(
                c.era,
                None,
                "tools/call",
                id,
                response,
                &mut undefined,
            );
            out.extend(results.into_iter().chain(errors).map(|mut note| {
                note.message = format!("{label}: round {round}: {}", note.message);
                note
            }));
        }
        let Some(asked) = response
            .pointer("/result/inputRequests")
            .and_then(Value::as_object)
        else {
            continue;
        };
        let declared = request
            .pointer("/params/_meta")
            .and_then(|m| m.get(meta_keys::CLIENT_CAPABILITIES))
            .unwrap_or(&Value::Null);
        for (key, input) in asked {
            for (clause, missing) in undeclared(declared, input) {
                out.push(
                    Note::broke(
                        clause,
                        format!(
                            "{label}: round {round}: input request {key:?} ({}) asks for {missing}, which the request did not declare",
                            input.get("method").and_then(Value::as_str).unwrap_or("?")
                        ),
                    )
                    .on(on.clone()),
                );
            }
        }
    }
}

/// Sends the first retry that echoes a `requestState` again with the state tampered
/// with: the server must refuse it. Without a driven retry to replay, the base case's
/// arguments go with the tampered state alone.
async fn tamper(c: &mut Checker<'_>, label: &str, o: &Outcome, rounds: &Rounds, out: &mut Out) {
    let asked = rounds.exchanges.iter().position(|x| {
        x.response
            .as_ref()
            .and_then(|r| r.pointer("/result/requestState"))
            .is_some_and(Value::is_string)
    });
    let state = asked
        .and_then(|i| rounds.exchanges[i].response.as_ref())
        .and_then(|r| r.pointer("/result/requestState"))
        .and_then(Value::as_str)
        .or_else(|| {
            o.response
                .as_ref()
                .and_then(|r| r.pointer("/result/requestState"))
                .and_then(Value::as_str)
        });
    let Some(state) = state else {
        return;
    };
    let tampered = format!("{state}tampered");
    let replay = asked.and_then(|i| rounds.requests.get(i + 1));
    let params = match replay.and_then(|r| r.get("params")) {
        Some(params) => {
            let mut params = params.clone();
            params["requestState"] = Value::from(tampered);
            params
        }
        None => json!({"name": o.case.tool, "arguments": o.case.args,
                       "requestState": tampered}),
    };
    // The questions of the round whose state was tampered with: a server that asks them
    // again has started over, which trusts nothing of the state.
    let first_questions = asked
        .and_then(|i| rounds.exchanges[i].response.as_ref())
        .and_then(|r| r.pointer("/result/inputRequests"));
    if let Some(r) = c.req("tools/call", params, out).await
        && r.get("error").is_none()
        && !(r.pointer("/result/resultType") == Some(&json!("input_required"))
            && first_questions.is_some()
            && r.pointer("/result/inputRequests") == first_questions)
    {
        // The clause binds when the state influences the outcome; a server whose state
        // only fails the request MAY go unprotected, and a result that ran on tampered
        // state (or a round past the one it came from) is exactly what the clause
        // forbids.
        out.push(c.broke(
            &clauses::MRTR_STATE_INTEGRITY,
            format!(
                "{label}: a tampered requestState was accepted: {}",
                brief(&r)
            ),
        ));
    }
}

/// The capabilities input request `input` needs that `declared` (a `ClientCapabilities`
/// object) does not declare, each with the clause asking without it breaks.
///
/// - `elicitation/create` in form mode needs `elicitation` (an empty object declares form
///   mode), in URL mode `elicitation.url`;
/// - `sampling/createMessage` needs `sampling`, and `sampling.tools` to pass `tools`; an
///   `includeContext` other than `none` without `sampling.context` is a SHOULD NOT;
/// - `roots/list` needs `roots`.
fn undeclared(declared: &Value, input: &Value) -> Vec<(&'static Clause, &'static str)> {
    let must = &clauses::MRTR_DECLARED_ONLY;
    let params = input.get("params").unwrap_or(&Value::Null);
    let has = |pointer: &str| declared.pointer(pointer).is_some_and(Value::is_object);
    let mut missing = Vec::new();
    match input.get("method").and_then(Value::as_str) {
        Some("elicitation/create") => {
            let url = params.get("mode").and_then(Value::as_str) == Some("url");
            let elicitation = declared.get("elicitation").and_then(Value::as_object);
            match elicitation {
                None => missing.push((must, "elicitation")),
                Some(e) if url && !e.contains_key("url") => {
                    missing.push((must, "URL-mode elicitation (elicitation.url)"));
                }
                Some(e) if !url && !e.contains_key("form") && e.contains_key("url") => {
                    missing.push((must, "form-mode elicitation (elicitation.form)"));
                }
                Some(_) => {}
            }
        }
        Some("sampling/createMessage") => {
            if !has("/sampling") {
                missing.push((must, "sampling"));
            } else {
                if params.get("tools").is_some() && !has("/sampling/tools") {
                    missing.push((
                        &clauses::SAMPLING_TOOLS,
                        "tool use in sampling (sampling.tools)",
                    ));
                }
                let context = params.get("includeContext").and_then(Value::as_str);
                if context.is_some_and(|c| c != "none") && !has("/sampling/context") {
                    missing.push((
                        &clauses::SAMPLING_CONTEXT,
                        "context inclusion in sampling (sampling.context)",
                    ));
                }
            }
        }
        Some("roots/list") if !has("/roots") => missing.push((must, "roots")),
        _ => {}
    }
    missing
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asks(method: &str, params: Value) -> Value {
        json!({"method": method, "params": params})
    }

    #[test]
    fn what_each_input_request_needs() {
        let all = every_client_capability();
        let none = json!({});
        let form = asks("elicitation/create", json!({"message": "?"}));
        let url = asks(
            "elicitation/create",
            json!({"mode": "url", "url": "https://x"}),
        );
        let sample = asks("sampling/createMessage", json!({"maxTokens": 5}));
        let roots = asks("roots/list", json!({}));
        for q in [&form, &url, &sample, &roots] {
            assert!(undeclared(&all, q).is_empty(), "{q}");
            assert_eq!(undeclared(&none, q).len(), 1, "{q}");
        }
        // An empty elicitation object declares form mode only.
        let legacy = json!({"elicitation": {}});
        assert!(undeclared(&legacy, &form).is_empty());
        assert_eq!(
            undeclared(&legacy, &url),
            [(
                &clauses::MRTR_DECLARED_ONLY,
                "URL-mode elicitation (elicitation.url)"
            )]
        );
        let url_only = json!({"elicitation": {"url": {}}});
        assert_eq!(undeclared(&url_only, &form).len(), 1);
        let tools = asks(
            "sampling/createMessage",
            json!({"maxTokens": 5, "tools": [], "includeContext": "thisServer"}),
        );
        assert_eq!(
            undeclared(&all, &tools),
            [
                (
                    &clauses::SAMPLING_TOOLS,
                    "tool use in sampling (sampling.tools)"
                ),
                (
                    &clauses::SAMPLING_CONTEXT,
                    "context inclusion in sampling (sampling.context)"
                )
            ]
        );
        assert!(undeclared(&none, &asks("other/thing", json!({}))).is_empty());
    }
}
