//! The prompt probes, for a server that offers `prompts`: `lists/prompts/list`,
//! `prompts/arguments` and `prompts/get`.
//!
//! The list is paged and read twice (`super::lists`). An unknown prompt, and a prompt asked
//! for without its required arguments, must be -32602. A few prompts are got with values the
//! server itself suggests (`completion/complete`, when it declared `completions`), and their
//! image content must be base64 with a MIME type (`super::content`).
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`PROMPTS_LIST`](clauses::PROMPTS_LIST),
//! [`PROMPT_ERRORS`](clauses::PROMPT_ERRORS), [`PROMPT_IMAGE`](clauses::PROMPT_IMAGE).

use super::content::{SAMPLE, content_notes};
use super::lists::list_probe;
use crate::checker::Checker;
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::spec::clauses;
use mcp_test::wire::error_codes::INVALID_PARAMS;
use serde_json::{Value, json};

/// The probes of the row, in the order they are recorded.
pub(crate) const IDS: [&str; 3] = ["lists/prompts/list", ARGUMENTS, GET];
/// The probe of an unknown prompt and missing arguments.
const ARGUMENTS: &str = "prompts/arguments";
/// The probe of the contents of a few prompts.
const GET: &str = "prompts/get";

/// The row: the prompt probes; the prompts listed are kept for the completion probe.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let complete = r.has("completions") == Some(true);
        r.prompts = prompts(&mut r.c, complete).await;
    })
}

/// The prompt probes: the list, errors for an unknown prompt and missing arguments, and
/// the contents of a few prompts (with arguments the server suggests, when it declared
/// `completions`: `complete`). Returns the prompts listed (for the completion probe).
pub(crate) async fn prompts(c: &mut Checker<'_>, complete: bool) -> Vec<Value> {
    let prompts = list_probe(
        c,
        "prompts/list",
        "prompts",
        "name",
        Some(&clauses::PROMPTS_LIST),
    )
    .await;
    let mut out = Vec::new();
    for prompt in &prompts {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        let required = prompt
            .get("arguments")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|x| x["required"] == json!(true)));
        if required {
            let params = json!({"name": name, "arguments": {}});
            c.req_invalid_params("prompts/get", params, &mut out, &clauses::PROMPT_ERRORS, |got| {
                format!(
                    "prompt {name:?} without its required arguments: {INVALID_PARAMS} expected; got {got}"
                )
            })
            .await;
        }
    }
    let unknown = json!({"name": "mcp-test-no-such-prompt"});
    c.req_invalid_params(
        "prompts/get",
        unknown,
        &mut out,
        &clauses::PROMPT_ERRORS,
        |got| format!("an unknown prompt: {INVALID_PARAMS} expected; got {got}"),
    )
    .await;
    c.push_probe(ARGUMENTS, out);
    prompt_contents(c, &prompts, complete).await;
    prompts
}

/// `prompts/get`: a few listed prompts, got with values for their required arguments
/// that the server itself suggests (`completion/complete`, only when `complete`: the
/// server declared `completions`); a prompt whose required arguments have no suggestion
/// is left alone, since a made-up value may make any prompt's result meaningless. Image
/// content is base64 with a MIME type (server/prompts.mdx §Image Content).
pub(crate) async fn prompt_contents(c: &mut Checker<'_>, prompts: &[Value], complete: bool) {
    let mut out = Vec::new();
    'prompts: for prompt in prompts.iter().take(SAMPLE) {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        let required: Vec<&str> = prompt
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|a| a.get("required") == Some(&json!(true)))
            .filter_map(|a| a.get("name").and_then(Value::as_str))
            .collect();
        let mut arguments = serde_json::Map::new();
        for argument in required {
            if !complete || c.dead.is_some() {
                continue 'prompts;
            }
            let mut params = json!({"ref": {"type": "ref/prompt", "name": name},
                                    "argument": {"name": argument, "value": ""}});
            if !arguments.is_empty() {
                params["context"] = json!({"arguments": arguments});
            }
            let suggested = c
                .req("completion/complete", params, &mut out)
                .await
                .and_then(|r| {
                    r.pointer("/result/completion/values/0")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                });
            match suggested {
                Some(value) => {
                    arguments.insert(argument.to_owned(), json!(value));
                }
                None => continue 'prompts,
            }
        }
        let params = json!({"name": name, "arguments": arguments});
        let Some(r) = c.req(GET, params, &mut out).await else {
            break;
        };
        if let Some(result) = r.get("result") {
            for m in content_notes(result) {
                out.push(c.broke(&clauses::PROMPT_IMAGE, format!("prompt {name:?}: {m}")));
            }
        }
    }
    c.push_probe(GET, out);
}
