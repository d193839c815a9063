//! `results/shape-and-cache-hints` and `errors/codes-and-ids`: every response kept so far
//! (`Checker::log`), read once the other probes are done; nothing is sent.
//!
//! Each response must carry its request's id; an error must have an integer code and a string
//! message, and a 2026-07-28 server must not answer -32002 or -32042 (removed) or a code of
//! the reserved range the spec does not define. A result must match the era's schema; a
//! 2026-07-28 one must name its `resultType`, ask for input only where that may be asked, and
//! carry a non-negative `ttlMs`.
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`CACHE_TTL_NON_NEGATIVE`](clauses::CACHE_TTL_NON_NEGATIVE),
//! [`ERROR_CODE_INTEGER`](clauses::ERROR_CODE_INTEGER), [`ERROR_FIELDS`](clauses::ERROR_FIELDS),
//! [`ERROR_ID`](clauses::ERROR_ID), [`MRTR_REQUESTS_OR_STATE`](clauses::MRTR_REQUESTS_OR_STATE),
//! [`MRTR_SUPPORTED_REQUESTS`](clauses::MRTR_SUPPORTED_REQUESTS),
//! [`REMOVED_ERROR_CODES`](clauses::REMOVED_ERROR_CODES),
//! [`RESERVED_ERROR_CODES`](clauses::RESERVED_ERROR_CODES), [`RESULT_ID`](clauses::RESULT_ID),
//! [`RESULT_TYPE`](clauses::RESULT_TYPE), [`SCHEMA`](clauses::SCHEMA).

use crate::Shown;
use crate::checker::{Checker, Note};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::Era;
use mcp_test::spec;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::wire::error_codes::{
    HEADER_MISMATCH, RESOURCE_NOT_FOUND, SERVER_ERROR_HIGHEST, SERVER_ERROR_LOWEST,
    UNSUPPORTED_PROTOCOL_VERSION, URL_ELICITATION_REQUIRED,
};
use serde_json::{Value, json};

/// The probe of results.
pub(crate) const RESULTS: &str = "results/shape-and-cache-hints";
/// The probe of errors.
pub(crate) const ERRORS: &str = "errors/codes-and-ids";

/// The row: [`results_and_errors`], knowing the revision the server chose.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        results_and_errors(&mut r.c, r.connection.protocol_version.clone());
    })
}

/// Every response so far: ids, error codes, cache hints, and the schema of the era's
/// revision. A 2025-era server that chose a revision older than 2025-11-25 (`chosen`) is
/// still checked against 2025-11-25's schema, the closest bundled, and what differs is
/// noted, not held against it.
pub(crate) fn results_and_errors(c: &mut Checker<'_>, chosen: Option<String>) {
    let log = std::mem::take(&mut *c.log.lock().unwrap_or_else(|e| e.into_inner()));
    let mut results = Vec::new();
    let mut errors = Vec::new();
    let era = c.era;
    let older = chosen.filter(|v| era == Era::Legacy && v != Era::Legacy.revision());
    if let Some(version) = &older {
        results.push(Note::info(format!(
            "the server chose protocol revision {version}; its results were checked against 2025-11-25's schema, the closest bundled, and any difference is only noted"
        )));
    }
    let mut undefined = std::collections::BTreeSet::new();
    for entry in &log {
        let (r, e) = judge_response(
            era,
            older.as_deref(),
            &entry.method,
            entry.id,
            &entry.response,
            &mut undefined,
        );
        results.extend(r);
        errors.extend(e);
    }
    if !undefined.is_empty() {
        results.push(Note::info(format!(
            "2025-11-25 defines no result for {}: those results were checked as JSON-RPC responses only",
            undefined.into_iter().collect::<Vec<_>>().join(", ")
        )));
    }
    c.push_probe(RESULTS, results);
    c.push_probe(ERRORS, errors);
}

/// What one response (to `method`, sent with id `id`) shows, by the rules every response is
/// held to: `(results, errors)`, the notes of each probe. `older`: the revision a 2025-era
/// server chose when older than 2025-11-25; `undefined` gathers the 2025-era methods whose
/// result 2025-11-25 does not define. The results/errors probes apply it to every response
/// kept, and `multi-round/driven` to every round it drove.
pub(crate) fn judge_response(
    era: Era,
    older: Option<&str>,
    method: &str,
    id: i64,
    r: &Value,
    undefined: &mut std::collections::BTreeSet<String>,
) -> (Vec<Note>, Vec<Note>) {
    let mut results = Vec::new();
    let mut errors = Vec::new();
    let modern = era == Era::Current;
    let on = Some(Shown {
        method: method.to_owned(),
        id: Some(id),
    });
    let note =
        |clause: &Clause, message: String| Note::broke_in(era, clause, message).on(on.clone());
    let is_error = r.get("error").is_some();
    if r.get("id") != Some(&json!(id)) {
        let clause = if is_error {
            &clauses::ERROR_ID
        } else {
            &clauses::RESULT_ID
        };
        errors.push(note(
            clause,
            format!(
                "the response to {} (id {}) has id {}",
                method,
                id,
                r.get("id").unwrap_or(&Value::Null)
            ),
        ));
    }
    if let Some(error) = r.get("error") {
        let fields_missing =
            error.get("code").is_none() || !error.get("message").is_some_and(Value::is_string);
        if fields_missing {
            errors.push(note(
                &clauses::ERROR_FIELDS,
                format!(
                    "{}: the error must have a code and a string message; got {error}",
                    method
                ),
            ));
        }
        if let Some(code) = error.get("code") {
            match code.as_i64() {
                Some(n)
                    if modern
                        && (n == i64::from(RESOURCE_NOT_FOUND)
                            || n == i64::from(URL_ELICITATION_REQUIRED)) =>
                {
                    errors.push(note(
                        &clauses::REMOVED_ERROR_CODES,
                        format!(
                            "{} answered {code}, a code 2026-07-28 servers must not emit",
                            method
                        ),
                    ))
                }
                Some(n)
                    if modern
                        && (i64::from(SERVER_ERROR_LOWEST)..=i64::from(HEADER_MISMATCH))
                            .contains(&n)
                        && !(i64::from(UNSUPPORTED_PROTOCOL_VERSION)
                            ..=i64::from(HEADER_MISMATCH))
                            .contains(&n) =>
                {
                    errors.push(note(
                        &clauses::RESERVED_ERROR_CODES,
                        format!(
                            "{} answered {n}, a code of the range {HEADER_MISMATCH}..{SERVER_ERROR_LOWEST} that the specification does not define",
                            method
                        ),
                    ));
                }
                // The legacy sub-range: new implementations should avoid it, and
                // whether one is new cannot be seen; for the record. Except the code
                // 2025-11-25 itself gives a missing resource, in that era.
                Some(n)
                    if (i64::from(HEADER_MISMATCH) + 1..=i64::from(SERVER_ERROR_HIGHEST))
                        .contains(&n)
                        && !(!modern
                            && method == "resources/read"
                            && n == i64::from(RESOURCE_NOT_FOUND)) =>
                {
                    errors.push(
                        Note::info(format!(
                            "{} answered {n}, an implementation-defined server error code",
                            method
                        ))
                        .on(on.clone()),
                    )
                }
                None => errors.push(note(
                    &clauses::ERROR_CODE_INTEGER,
                    format!("{}: the error code must be an integer, got {code}", method),
                )),
                _ => {}
            }
        }
        if fields_missing || !error.get("code").is_some_and(Value::is_i64) {
            return (results, errors);
        }
    }
    // Both eras: the schema of each says a tool's own errors are reported in its result.
    if let Some(result) = r.get("result")
        && method == "tools/call"
        && result.get("isError") == Some(&json!(true))
        && result
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
    {
        results.push(note(
            &clauses::TOOL_ERRORS_IN_RESULT,
            "a tools/call result with isError: true and an empty content array: an error that originates from the tool should be reported inside the result, so the model sees what went wrong".to_owned(),
        ));
    }
    if !modern {
        if !is_error && spec::legacy_result_definition(method).is_none() {
            undefined.insert(method.to_owned());
        }
        if let Err(e) = spec::check_response_in(era, method, r) {
            let into = if is_error { &mut errors } else { &mut results };
            let message = format!("{}: {e}", method);
            into.push(match &older {
                None => note(&clauses::SCHEMA, message),
                Some(version) => Note::info(format!(
                    "{message} (the server chose {version}, whose schema is not bundled)"
                ))
                .on(on.clone()),
            });
        }
        return (results, errors);
    }
    if let Some(result) = r.get("result") {
        if result.get("resultType").is_none() {
            results.push(note(
                &clauses::RESULT_TYPE,
                format!("the {} result has no resultType", method),
            ));
            return (results, errors);
        }
        if result.get("resultType") == Some(&json!("input_required")) {
            if !spec::INPUT_REQUIRED_METHODS.contains(&method) {
                results.push(note(
                    &clauses::MRTR_SUPPORTED_REQUESTS,
                    format!(
                        "{} answered input_required, which only tools/call, prompts/get and resources/read may",
                        method
                    ),
                ));
                return (results, errors);
            }
            if result.get("inputRequests").is_none() && result.get("requestState").is_none() {
                results.push(note(
                    &clauses::MRTR_REQUESTS_OR_STATE,
                    format!(
                        "the {} input_required result has neither inputRequests nor requestState",
                        method
                    ),
                ));
                return (results, errors);
            }
        }
        if let Some(ttl) = result.get("ttlMs").and_then(Value::as_f64)
            && ttl < 0.0
        {
            results.push(note(
                &clauses::CACHE_TTL_NON_NEGATIVE,
                format!("the {} result has ttlMs {ttl}", method),
            ));
            return (results, errors);
        }
        if let Err(e) = spec::check_response(method, r) {
            results.push(note(&clauses::SCHEMA, format!("{}: {e}", method)));
        }
    } else if is_error && let Err(e) = spec::check("JSONRPCErrorResponse", r) {
        errors.push(note(&clauses::SCHEMA, format!("{}: {e}", method)));
    }
    (results, errors)
}
