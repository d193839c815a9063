//! `http/param-headers`: a server validates the `Mcp-Param-{Name}` headers of a `tools/call`
//! against the arguments they mirror, and compares integers numerically.
//!
//! The first tool `check` calls whose base case (`rule:base`) carries an argument its input
//! schema marks with `x-mcp-header` is called again with that base case, posted raw beside the
//! session with every mirrored header:
//!
//! 1. as a correct client sends it (the control: when it is not served, nothing is judged);
//! 2. with the `Mcp-Param-{Name}` header holding another value than the argument;
//! 3. with the header holding a Base64 sentinel that is not Base64 (`=?base64?SGVs!!!bG8=?=`),
//!    which no decoding makes equal to the argument;
//! 4. for an integer argument, with the header written `42.0` for `42`.
//!
//! 2 and 3 must be refused with HTTP 400 and -32020 (HeaderMismatch), 2026-07-28
//! streamable-http §Server Behavior for Custom Headers ([`clauses::HTTP_PARAM_HEADERS`],
//! MUST); 4 should be served like 1, §Server Validation ([`clauses::HTTP_PARAM_NUMERIC`],
//! SHOULD). A server that does not validate runs the tool with its base case again, which
//! `check` calls anyway: only tools the schema cases call are used.

use super::http_exchange::{Watched, Wire, base_calls, endpoint, json_headers, put};
use crate::run::Run;
use crate::{Note, Out, Shown};
use futures_util::future::LocalBoxFuture;
use mcp_test::headers::{HeaderParam, header_params, param_value};
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes;
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const ID: &str = "http/param-headers";

/// A Base64 sentinel whose payload is not Base64.
const ILL_FORMED: &str = "=?base64?SGVs!!!bG8=?=";

pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, options) = endpoint(r);
        let Some((tool, arguments, params)) = mirrored_call(r) else {
            // `Needs::header_param` holds one; nothing to send without it.
            r.c.push_probe(ID, Vec::new());
            return;
        };
        let out = match Wire::new(&url, &options, r.options.timeout) {
            Ok(wire) => {
                // Every request of the probe is a `tools/call` of `tool`.
                r.called.record_name(&tool);
                probe(&wire, &tool, &arguments, &params).await
            }
            Err(e) => vec![Note::info(format!("the probe did not run: {e}"))],
        };
        r.c.push_probe(ID, out);
    })
}

/// The first base call whose arguments carry an `x-mcp-header` argument with a header form:
/// the tool's name, the arguments, and those arguments.
pub(crate) fn mirrored_call(r: &Run<'_>) -> Option<(String, Value, Vec<HeaderParam>)> {
    base_calls(r).into_iter().find_map(|(tool, arguments)| {
        let name = tool.get("name")?.as_str()?.to_owned();
        let params: Vec<HeaderParam> = tool
            .get("inputSchema")
            .map(header_params)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.lookup(&arguments).and_then(param_value).is_some())
            .collect();
        (!params.is_empty()).then_some((name, arguments, params))
    })
}

/// One request of the probe: what is sent in `Mcp-Param-{Name}`, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Control,
    Mismatch,
    IllFormed,
    Numeric,
}

async fn probe(wire: &Wire, tool: &str, arguments: &Value, params: &[HeaderParam]) -> Out {
    let mut out = Vec::new();
    // (what is sent, the parameter, its value in the header, its argument's header form)
    let mut requests: Vec<(Kind, &HeaderParam, String, String)> = Vec::new();
    for (n, param) in params.iter().enumerate() {
        let Some(value) = param.lookup(arguments) else {
            continue;
        };
        let Some(right) = param_value(value) else {
            continue;
        };
        if n == 0 {
            requests.push((Kind::Control, param, right.clone(), right.clone()));
            requests.push((Kind::Mismatch, param, other_value(value), right.clone()));
            if right != ILL_FORMED {
                requests.push((Kind::IllFormed, param, ILL_FORMED.to_owned(), right.clone()));
            }
        }
        let integer = value.is_i64() || value.is_u64();
        if integer && !requests.iter().any(|r| r.0 == Kind::Numeric) {
            requests.push((Kind::Numeric, param, format!("{right}.0"), right));
        }
    }
    for (n, (kind, param, sent, right)) in requests.into_iter().enumerate() {
        let header = format!("Mcp-Param-{}", param.name);
        let mut body = mcp_test::wire::build::build_call_request(tool, arguments.clone());
        body["id"] = json!(format!("mcp-test-param-headers-{n}"));
        let mut headers = json_headers();
        for (name, value) in mcp_test::wire::build::mirrored_headers(&body) {
            put(&mut headers, &name, &value);
        }
        for p in params {
            if let Some(v) = p.lookup(arguments).and_then(param_value) {
                put(&mut headers, &p.header_name(), &v);
            }
        }
        put(&mut headers, &param.header_name(), &sent);
        let on = Some(Shown {
            method: format!("tools/call {tool} ({header}: {sent})"),
            id: None,
        });
        let reply = wire.post(headers, &body, Duration::ZERO).await;
        let id = body["id"].clone();
        let verdict = judge(kind, &header, &right, &sent, &id, reply);
        let stop = kind == Kind::Control && verdict.is_some();
        out.extend(verdict.map(|n| n.on(on)));
        if stop {
            break;
        }
    }
    out
}

/// Another header value for the argument `value`: the next integer, the other boolean, or
/// the string with a suffix.
fn other_value(value: &Value) -> String {
    match value {
        Value::Bool(b) => (!b).to_string(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.checked_add(1).unwrap_or(i - 1).to_string(),
            None => n.as_u64().map_or(1, |u| u.saturating_sub(1)).to_string(),
        },
        Value::String(s) => mcp_test::headers::encode_value(&format!("{s}-mcp-test")),
        _ => "mcp-test".to_owned(),
    }
}

/// Judges the reply to one request; for the control, `Some` means nothing more is judged.
fn judge(
    kind: Kind,
    header: &str,
    right: &str,
    sent: &str,
    id: &Value,
    reply: Result<Watched, String>,
) -> Option<Note> {
    let reply = match reply {
        Ok(reply) => reply,
        Err(e) => {
            return Some(Note::info(format!(
                "tools/call with {header}: {sent} got no reply: {e}"
            )));
        }
    };
    let response = reply.response(id);
    let served = response.as_ref().is_some_and(|r| r.get("result").is_some());
    let refused =
        reply.status == 400 && reply.code() == Some(i64::from(error_codes::HEADER_MISMATCH));
    match kind {
        Kind::Control if served => None,
        Kind::Control => Some(Note::info(format!(
            "tools/call of the base case with {header}: {right}, as a correct client sends it, was not served ({}), so the Mcp-Param headers were not judged",
            reply.brief()
        ))),
        Kind::Mismatch | Kind::IllFormed if refused => None,
        Kind::Mismatch | Kind::IllFormed if response.is_none() && reply.status < 400 => {
            Some(Note::info(format!(
                "tools/call with {header}: {sent} got no response to it: {}",
                reply.brief()
            )))
        }
        Kind::Mismatch => Some(Note::broke(
            &clauses::HTTP_PARAM_HEADERS,
            format!(
                "a tools/call whose {header} header ({sent}) does not match its argument ({right}) must be refused with HTTP 400 and {} (HeaderMismatch); got {}",
                error_codes::HEADER_MISMATCH,
                reply.brief()
            ),
        )),
        Kind::IllFormed => Some(Note::broke(
            &clauses::HTTP_PARAM_HEADERS,
            format!(
                "a tools/call whose {header} header is a Base64 sentinel that is not Base64 ({sent}) must be refused with HTTP 400 and {} (HeaderMismatch); got {}",
                error_codes::HEADER_MISMATCH,
                reply.brief()
            ),
        )),
        Kind::Numeric if refused => Some(Note::broke(
            &clauses::HTTP_PARAM_NUMERIC,
            format!(
                "an integer argument should be compared numerically: {header}: {sent} for the argument {right} was refused: {}",
                reply.brief()
            ),
        )),
        Kind::Numeric => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;
    use bytes::Bytes;
    use http::HeaderMap;

    fn reply(status: u16, body: Value) -> Result<Watched, String> {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", "application/json".parse().unwrap());
        Ok(Watched {
            status,
            headers,
            body: Bytes::from(body.to_string()),
            ended: true,
        })
    }

    fn ran() -> Result<Watched, String> {
        reply(
            200,
            json!({"jsonrpc": "2.0", "id": "x", "result": {"content": []}}),
        )
    }

    fn refused() -> Result<Watched, String> {
        reply(
            400,
            json!({"jsonrpc": "2.0", "id": "x", "error": {"code": -32020, "message": "Mcp-Param-Region does not match"}}),
        )
    }

    fn judged(kind: Kind, reply: Result<Watched, String>) -> Option<Note> {
        judge(
            kind,
            "Mcp-Param-Region",
            "eu",
            "eu-mcp-test",
            &json!("x"),
            reply,
        )
    }

    #[test]
    fn a_validating_server_has_no_finding() {
        assert_eq!(judged(Kind::Control, ran()), None);
        assert_eq!(judged(Kind::Mismatch, refused()), None);
        assert_eq!(judged(Kind::IllFormed, refused()), None);
        assert_eq!(judged(Kind::Numeric, ran()), None);
    }

    #[test]
    fn a_mismatch_served_breaks_the_must() {
        for kind in [Kind::Mismatch, Kind::IllFormed] {
            let note = judged(kind, ran()).expect("a finding");
            assert_eq!(note.clause, Some(clauses::HTTP_PARAM_HEADERS));
            assert_eq!(note.severity, Severity::Defect);
            assert!(note.message.contains("must"), "{}", note.message);
            assert!(note.message.contains("HTTP 200"), "{}", note.message);
        }
        // Refused, but not as a header mismatch.
        let other = reply(
            200,
            json!({"jsonrpc": "2.0", "id": "x", "error": {"code": -32602, "message": "bad"}}),
        );
        let note = judged(Kind::Mismatch, other).expect("a finding");
        assert!(note.message.contains("-32602"), "{}", note.message);
    }

    #[test]
    fn an_integer_written_42_0_refused_breaks_the_should() {
        let note = judged(Kind::Numeric, refused()).expect("a finding");
        assert_eq!(note.clause, Some(clauses::HTTP_PARAM_NUMERIC));
        assert_eq!(note.severity, Severity::Warning);
        assert!(note.message.contains("should"), "{}", note.message);
    }

    #[test]
    fn a_control_not_served_or_no_reply_is_a_note() {
        let note = judged(Kind::Control, refused()).expect("a note");
        assert_eq!(note.severity, Severity::Info);
        let note = judged(Kind::Mismatch, Err("no reply within 1s".into())).expect("a note");
        assert_eq!(note.severity, Severity::Info);
    }

    #[test]
    fn another_value_differs_from_the_argument() {
        for v in [json!(true), json!(42), json!(i64::MAX), json!("eu")] {
            assert_ne!(other_value(&v), param_value(&v).unwrap(), "{v}");
        }
    }
}
