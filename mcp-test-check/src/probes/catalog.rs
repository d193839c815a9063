//! The probes of what a server offers, beyond its lists: tool names and `x-mcp-header`
//! annotations, malformed `tools/call` requests, a tool called by its name in another case,
//! embedded resources without the capability, the contents of resources and prompts, and
//! `completion/complete`.
//!
//! The judgements are pure functions of what the server listed or answered
//! ([`definition_notes`], [`completion_notes`], [`blob_notes`], [`content_notes`]), tested
//! below without a server.

use crate::checker::Checker;
use crate::{Note, Out, brief};
use mcp_test::cases::{Case, Era, Expectation, Happened, Outcome};
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::wire::tool_name;
use serde_json::{Value, json};

/// How many listed prompts, arguments or templates a probe samples at most.
const SAMPLE: usize = 5;

/// One finding about a listed definition or an answer, before it is quoted in an era: the
/// 2026-07-28 clause it breaks, or none for a note.
#[derive(Debug, PartialEq)]
pub(crate) struct Found {
    clause: Option<&'static Clause>,
    message: String,
}

impl Found {
    fn broke(clause: &'static Clause, message: String) -> Self {
        Found {
            clause: Some(clause),
            message,
        }
    }

    fn info(message: String) -> Self {
        Found {
            clause: None,
            message,
        }
    }

    fn into_note(self, era: Era) -> Note {
        match self.clause {
            Some(clause) => Note::broke_in(era, clause, self.message),
            None => Note::info(self.message),
        }
    }
}

impl Checker<'_> {
    fn era_now(&self) -> Era {
        if self.modern() {
            Era::Current
        } else {
            Era::Legacy
        }
    }

    /// `tools/names-and-headers`: each listed tool's name (server/tools.mdx §Tool Names) and
    /// the `x-mcp-header` annotations of its input schema (§x-mcp-header).
    pub(crate) fn names_and_headers(&mut self, tools: &[Value]) {
        let era = self.era_now();
        let out: Out = tools
            .iter()
            .flat_map(definition_notes)
            .map(|f| f.into_note(era))
            .collect();
        self.push_probe("tools/names-and-headers", out);
    }

    /// `tools/malformed-calls`: `tools/call` without a tool name (2025-11-25: without
    /// `params`), and with `arguments` a string and an array. An error of any kind, or a
    /// tool error, is a rejection; -32603 is noted (the spec's example for a protocol error
    /// is -32602, but no clause asks for it); a success for a tool that requires arguments
    /// means its inputs were not validated (server/tools.mdx §Security Considerations).
    /// `tools` are the tools the check may call: a server that accepts malformed arguments
    /// runs the tool.
    pub(crate) async fn malformed_calls(&mut self, tools: &[Value]) {
        let mut out = Vec::new();
        // No tool name: nothing can run, whatever the server does with it.
        let (what, body) = if self.modern() {
            let (id, body) = self.session.body("tools/call", json!({}));
            ("tools/call whose params have no `name`", (id, body))
        } else {
            let (id, mut body) = self.session.body("tools/call", json!({}));
            if let Some(b) = body.as_object_mut() {
                b.remove("params");
            }
            ("tools/call without params", (id, body))
        };
        if let Some(r) = self.send("tools/call", body.0, body.1, &mut out).await {
            match Happened::from_response(&r) {
                Happened::RpcError { code: -32603, .. } => out.push(self.info(format!(
                    "{what} answered -32603 (Internal error); server/tools.mdx §Error Handling counts a malformed request among the protocol errors, with -32602 (Invalid params) as its example"
                ))),
                Happened::RpcError { .. } | Happened::ToolError { .. } => {}
                other => out.push(self.info(format!(
                    "{what} answered {other}; server/tools.mdx §Error Handling counts a malformed request among the protocol errors, answered with a JSON-RPC error"
                ))),
            }
        }
        let required = |t: &Value| {
            t.pointer("/inputSchema/required")
                .and_then(Value::as_array)
                .is_some_and(|r| !r.is_empty())
        };
        let tool = tools.iter().find(|t| required(t)).or_else(|| tools.first());
        if let Some(tool) = tool
            && let Some(name) = tool.get("name").and_then(Value::as_str)
        {
            let needs = required(tool);
            for (kind, arguments) in [("a string", json!("mcp-test")), ("an array", json!([]))] {
                let params = json!({"name": name, "arguments": arguments});
                let Some(r) = self.req("tools/call", params, &mut out).await else {
                    break;
                };
                let what = format!("tools/call of {name:?} with `arguments` {kind}");
                match Happened::from_response(&r) {
                    Happened::RpcError { code: -32603, .. } => out.push(self.info(format!(
                        "{what} answered -32603 (Internal error); server/tools.mdx §Error Handling counts a malformed request (one that fails the CallToolRequest schema) among the protocol errors, with -32602 (Invalid params) as its example"
                    ))),
                    Happened::Success { .. } | Happened::InputRequired if needs => {
                        out.push(self.broke(
                            &clauses::VALIDATE_TOOL_INPUTS,
                            format!(
                                "{what} was accepted ({}), though its input schema is an object with required properties",
                                brief(&r)
                            ),
                        ));
                    }
                    Happened::Success { .. } | Happened::InputRequired => out.push(self.info(
                        format!(
                            "{what} was accepted ({}); `arguments` must be an object (CallToolRequest)",
                            brief(&r)
                        ),
                    )),
                    _ => {}
                }
            }
        }
        self.push_probe("tools/malformed-calls", out);
    }

    /// `tools/name-case`: the first tool with a valid case, called by its name in another
    /// case (`add` as `ADD`) with that case's arguments; a success means the server does not
    /// consider names case-sensitive (server/tools.mdx §Tool Names). `listed` are the names
    /// of every listed tool: a tool whose other-case name matches another listed tool,
    /// ignoring case, is not tried, so the call can only reach the tool the check may call.
    pub(crate) async fn name_case(&mut self, listed: &[String], cases: &[Case]) {
        let mut out = Vec::new();
        let candidate = cases.iter().find_map(|case| {
            if case.expectation != Expectation::Success {
                return None;
            }
            let variant = other_case(&case.tool)?;
            let clash = listed
                .iter()
                .filter(|n| n.eq_ignore_ascii_case(&case.tool))
                .count();
            (clash == 1).then_some((case, variant))
        });
        let Some((case, variant)) = candidate else {
            return self.skip_probe(
                "tools/name-case",
                "no tool the check may call has a valid case and a name with letters",
            );
        };
        let params = json!({"name": variant, "arguments": case.args});
        if let Some(r) = self.req("tools/call", params, &mut out).await
            && matches!(
                Happened::from_response(&r),
                Happened::Success { .. } | Happened::InputRequired
            )
        {
            out.push(self.broke(
                &clauses::TOOL_NAME_CASE,
                format!(
                    "calling {variant:?}, a tool it does not list, ran its tool {:?} ({}): the name was not considered case-sensitive",
                    case.tool,
                    brief(&r)
                ),
            ));
        }
        self.push_probe("tools/name-case", out);
    }

    /// `tools/embedded-resources`: a server that returns `resource` content from its tools
    /// should implement the `resources` capability (server/tools.mdx §Embedded Resources);
    /// `declared`: whether it declared it (`None`: not known, and the probe is skipped).
    pub(crate) fn embedded_resources(&mut self, outcomes: &[Outcome], declared: Option<bool>) {
        match declared {
            Some(false) => {}
            Some(true) => {
                return self.skip_probe(
                    "tools/embedded-resources",
                    "the server declares the `resources` capability",
                );
            }
            None => {
                return self.skip_probe(
                    "tools/embedded-resources",
                    "the server's capabilities are not known",
                );
            }
        }
        let era = self.era_now();
        let mut out = Vec::new();
        let mut tools: Vec<&str> = Vec::new();
        for outcome in outcomes {
            let Some(response) = &outcome.response else {
                continue;
            };
            let embeds = response
                .pointer("/result/content")
                .and_then(Value::as_array)
                .is_some_and(|c| c.iter().any(|b| b.get("type") == Some(&json!("resource"))));
            if embeds && !tools.contains(&outcome.case.tool.as_str()) {
                tools.push(&outcome.case.tool);
                out.push(
                    Note::broke_in(
                        era,
                        &clauses::EMBEDDED_RESOURCES_CAPABILITY,
                        format!(
                            "tool {:?} returned an embedded resource, yet the server does not declare the `resources` capability",
                            outcome.case.tool
                        ),
                    )
                    .on(Some(crate::Shown {
                        method: "tools/call".to_owned(),
                        id: response.get("id").and_then(Value::as_i64),
                    })),
                );
            }
        }
        self.push_probe("tools/embedded-resources", out);
    }

    /// `completion/complete`, for a server that declared `completions`: an unknown prompt
    /// should be -32602 (server/utilities/completion.mdx §Error Handling); the completions of
    /// a few listed prompt arguments and template variables are checked for a consistent
    /// `total` and `hasMore` (noted), and, for a 2025-era server, at most 100 values (the
    /// 2025-11-25 schema says so in words only; 2026-07-28's `maxItems` is checked with every
    /// result).
    pub(crate) async fn completion(&mut self, prompts: &[Value], templates: &[Value]) {
        let mut out = Vec::new();
        let unknown = json!({"ref": {"type": "ref/prompt", "name": "mcp-test-no-such-prompt"},
                             "argument": {"name": "mcp-test", "value": ""}});
        if let Some(r) = self.req("completion/complete", unknown, &mut out).await
            && r.pointer("/error/code").and_then(Value::as_i64) != Some(-32602)
        {
            out.push(self.broke(
                &clauses::COMPLETION_ERRORS,
                format!(
                    "completing an argument of an unknown prompt: -32602 expected; got {}",
                    brief(&r)
                ),
            ));
        }
        let mut refs = Vec::new();
        for prompt in prompts.iter().take(SAMPLE) {
            let Some(name) = prompt.get("name").and_then(Value::as_str) else {
                continue;
            };
            for argument in prompt
                .get("arguments")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .take(SAMPLE)
            {
                if let Some(arg) = argument.get("name").and_then(Value::as_str) {
                    refs.push((json!({"type": "ref/prompt", "name": name}), arg.to_owned()));
                }
            }
        }
        for template in templates.iter().take(SAMPLE) {
            let Some(uri) = template.get("uriTemplate").and_then(Value::as_str) else {
                continue;
            };
            for variable in template_variables(uri).into_iter().take(SAMPLE) {
                refs.push((json!({"type": "ref/resource", "uri": uri}), variable));
            }
        }
        for (reference, argument) in refs {
            if self.dead.is_some() {
                break;
            }
            let params = json!({"ref": reference, "argument": {"name": argument, "value": ""}});
            let Some(r) = self.req("completion/complete", params, &mut out).await else {
                break;
            };
            if let Some(result) = r.get("result") {
                let what = format!("completing {argument:?} of {reference}");
                for message in completion_notes(result) {
                    out.push(self.info(format!("{what}: {message}")));
                }
                let count = result
                    .pointer("/completion/values")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                if !self.modern() && count > 100 {
                    out.push(self.info(format!(
                        "{what}: {count} values; the 2025-11-25 schema says they must not exceed 100 items"
                    )));
                }
            }
        }
        self.push_probe("completion/complete", out);
    }

    /// `prompts/get`: a few listed prompts, got with values for their required arguments
    /// that the server itself suggests (`completion/complete`, only when `complete`: the
    /// server declared `completions`); a prompt whose required arguments have no suggestion
    /// is left alone, since a made-up value may make any prompt's result meaningless. Image
    /// content is base64 with a MIME type (server/prompts.mdx §Image Content).
    pub(crate) async fn prompt_contents(&mut self, prompts: &[Value], complete: bool) {
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
                if !complete || self.dead.is_some() {
                    continue 'prompts;
                }
                let mut params = json!({"ref": {"type": "ref/prompt", "name": name},
                                        "argument": {"name": argument, "value": ""}});
                if !arguments.is_empty() {
                    params["context"] = json!({"arguments": arguments});
                }
                let suggested = self
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
            let Some(r) = self.req("prompts/get", params, &mut out).await else {
                break;
            };
            if let Some(result) = r.get("result") {
                for m in content_notes(result) {
                    out.push(self.broke(&clauses::PROMPT_IMAGE, format!("prompt {name:?}: {m}")));
                }
            }
        }
        self.push_probe("prompts/get", out);
    }
}

/// What is wrong with one listed tool's name and its `x-mcp-header` annotations.
pub(crate) fn definition_notes(tool: &Value) -> Vec<Found> {
    let mut found = Vec::new();
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    // The rule is the library's (`wire::tool_name`); both of its parts are reported here, each
    // under its own clause, where the library's `check` stops at the first.
    let length = name.chars().count();
    if !(tool_name::MIN_CHARS..=tool_name::MAX_CHARS).contains(&length) {
        found.push(Found::broke(
            &clauses::TOOL_NAME_LENGTH,
            format!(
                "tool name {name:?} is {length} characters long, not {} to {}",
                tool_name::MIN_CHARS,
                tool_name::MAX_CHARS
            ),
        ));
    }
    let odd: String = name
        .chars()
        .filter(|&c| !tool_name::is_allowed(c))
        .collect();
    if !odd.is_empty() {
        found.push(Found::broke(
            &clauses::TOOL_NAME_CHARACTERS,
            format!(
                "tool name {name:?} has characters outside {}: {odd:?}",
                tool_name::ALLOWED
            ),
        ));
    }
    let Some(schema) = tool.get("inputSchema") else {
        return found;
    };
    let mut headers = Vec::new();
    annotations(schema, true, true, String::new(), &mut headers);
    let mut seen: Vec<String> = Vec::new();
    for h in headers {
        let at = if h.pointer.is_empty() {
            "the schema root".to_owned()
        } else {
            h.pointer.clone()
        };
        let what = format!("tool {name:?}: the x-mcp-header at {at}");
        match h.value.as_str() {
            None => found.push(Found::broke(
                &clauses::X_MCP_HEADER_TOKEN,
                format!("{what} is {}, not a header name", h.value),
            )),
            Some("") => found.push(Found::broke(
                &clauses::X_MCP_HEADER_NOT_EMPTY,
                format!("{what} is empty"),
            )),
            Some(value) => {
                if value.chars().any(char::is_control) {
                    found.push(Found::broke(
                        &clauses::X_MCP_HEADER_NO_CONTROL,
                        format!("{what} ({value:?}) has control characters"),
                    ));
                }
                if !value.chars().all(is_tchar) {
                    found.push(Found::broke(
                        &clauses::X_MCP_HEADER_TOKEN,
                        format!("{what} ({value:?}) is not an HTTP field-name token (1*tchar)"),
                    ));
                }
                let folded = value.to_ascii_lowercase();
                if seen.contains(&folded) {
                    found.push(Found::broke(
                        &clauses::X_MCP_HEADER_UNIQUE,
                        format!(
                            "tool {name:?}: x-mcp-header {value:?} is used more than once (case-insensitively) in the input schema"
                        ),
                    ));
                } else {
                    seen.push(folded);
                }
            }
        }
        if !h.reachable {
            found.push(Found::broke(
                &clauses::X_MCP_HEADER_REACHABLE,
                format!(
                    "{what} is not on a property reached from the root through `properties` alone"
                ),
            ));
        } else {
            match primitive(h.schema) {
                Ok(()) => {}
                Err(Some(kind)) => found.push(Found::broke(
                    &clauses::X_MCP_HEADER_PRIMITIVE,
                    format!("{what} is on a property of type {kind}, not integer, string or boolean"),
                )),
                Err(None) => found.push(Found::info(format!(
                    "{what} is on a property whose `type` does not say it is an integer, a string or a boolean ({}); x-mcp-header MUST only be applied to those",
                    h.schema.get("type").unwrap_or(&Value::Null)
                ))),
            }
        }
    }
    found
}

/// One `x-mcp-header` annotation found in a schema.
struct Header<'s> {
    pointer: String,
    value: &'s Value,
    reachable: bool,
    schema: &'s Value,
}

/// The keywords whose value is one subschema, a map of them, or an array of them.
const ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
const MAP: &[&str] = &[
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
const ARRAY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Every `x-mcp-header` in `schema`, walking only the places a subschema can be (so a
/// `default`, `const` or `examples` value, or a property merely named `x-mcp-header`, is not
/// taken for one). `reachable`: reached from the root through `properties` alone; the root
/// itself is no property.
fn annotations<'s>(
    schema: &'s Value,
    reachable: bool,
    root: bool,
    pointer: String,
    out: &mut Vec<Header<'s>>,
) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(value) = object.get("x-mcp-header") {
        out.push(Header {
            pointer: pointer.clone(),
            value,
            reachable: reachable && !root,
            schema,
        });
    }
    let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (k, sub) in properties {
            let at = format!("{pointer}/properties/{}", escape(k));
            annotations(sub, reachable, false, at, out);
        }
    }
    for key in ONE {
        if let Some(sub) = object.get(*key).filter(|s| s.is_object()) {
            annotations(sub, false, false, format!("{pointer}/{key}"), out);
        }
    }
    for key in MAP {
        if let Some(map) = object.get(*key).and_then(Value::as_object) {
            for (k, sub) in map {
                let at = format!("{pointer}/{key}/{}", escape(k));
                annotations(sub, false, false, at, out);
            }
        }
    }
    for key in ARRAY {
        if let Some(items) = object.get(*key).and_then(Value::as_array) {
            for (i, sub) in items.iter().enumerate() {
                annotations(sub, false, false, format!("{pointer}/{key}/{i}"), out);
            }
        }
    }
}

/// Whether a property's schema is of a primitive type (integer, string, boolean): `Err(Some)`
/// names a type that is not, `Err(None)` when its `type` does not tell.
fn primitive(schema: &Value) -> Result<(), Option<String>> {
    let allowed = |t: &str| matches!(t, "integer" | "string" | "boolean");
    let wrong = |t: &str| matches!(t, "number" | "object" | "array");
    match schema.get("type") {
        Some(Value::String(t)) if allowed(t) => Ok(()),
        Some(Value::String(t)) if wrong(t) => Err(Some(t.clone())),
        Some(Value::Array(types)) => {
            let types: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            if let Some(t) = types.iter().find(|t| wrong(t)) {
                Err(Some((*t).to_owned()))
            } else if !types.is_empty() && types.iter().all(|t| allowed(t)) {
                Ok(())
            } else {
                Err(None)
            }
        }
        _ => Err(None),
    }
}

/// `name` in another case: upper case, or lower case if it is all upper case already;
/// `None` when it has no ASCII letter.
fn other_case(name: &str) -> Option<String> {
    let upper = name.to_ascii_uppercase();
    let variant = if upper == name {
        name.to_ascii_lowercase()
    } else {
        upper
    };
    (variant != name).then_some(variant)
}

/// RFC 9110 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// The variable names of an RFC 6570 template (`{id}`, `{+path}`, `{?a,b}`...).
fn template_variables(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let expression = &rest[open + 1..open + close];
        let expression = expression.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for var in expression.split(',') {
            let var = var.trim_end_matches('*');
            let var = var.split(':').next().unwrap_or(var);
            if !var.is_empty() && !names.iter().any(|n| n == var) {
                names.push(var.to_owned());
            }
        }
        rest = &rest[open + close + 1..];
    }
    names
}

/// Notes on a `CompleteResult` whose `total` or `hasMore` disagree with its values (the
/// schema describes them; no clause binds them).
pub(crate) fn completion_notes(result: &Value) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(completion) = result.get("completion") else {
        return notes;
    };
    let count = completion
        .get("values")
        .and_then(Value::as_array)
        .map_or(0, Vec::len) as u64;
    let total = completion.get("total").and_then(Value::as_u64);
    let more = completion.get("hasMore").and_then(Value::as_bool);
    if let Some(total) = total
        && total < count
    {
        notes.push(format!(
            "total is {total}, fewer than the {count} values sent (total counts every option available)"
        ));
    }
    match (more, total) {
        (Some(true), Some(total)) if total <= count => notes.push(format!(
            "hasMore is true, yet total ({total}) says all {count} values were sent"
        )),
        (Some(false), Some(total)) if total > count => notes.push(format!(
            "hasMore is false, yet total ({total}) is more than the {count} values sent"
        )),
        _ => {}
    }
    notes
}

/// What is wrong with the binary contents of a `ReadResourceResult` for `uri`: a `blob` that
/// is not base64.
pub(crate) fn blob_notes(uri: &str, result: &Value) -> Vec<String> {
    result
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, item)| {
            let blob = item.get("blob")?.as_str()?;
            (!is_base64(blob)).then(|| {
                format!(
                    "resource {uri}: contents[{i}].blob is not base64: {:?}",
                    mcp_test::cases::shorten(blob, 60)
                )
            })
        })
        .collect()
}

/// What is wrong with the image contents of a `GetPromptResult`: data not base64, or no
/// valid MIME type.
pub(crate) fn content_notes(result: &Value) -> Vec<String> {
    let mut notes = Vec::new();
    for (i, message) in result
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(content) = message.get("content") else {
            continue;
        };
        if content.get("type").and_then(Value::as_str) != Some("image") {
            continue;
        }
        match content.get("data").and_then(Value::as_str) {
            Some(data) if is_base64(data) => {}
            Some(data) => notes.push(format!(
                "messages[{i}] is an image whose data is not base64: {:?}",
                mcp_test::cases::shorten(data, 60)
            )),
            None => notes.push(format!("messages[{i}] is an image without data")),
        }
        match content.get("mimeType").and_then(Value::as_str) {
            Some(mime) if is_mime_type(mime) => {}
            other => notes.push(format!(
                "messages[{i}] is an image without a valid MIME type: {other:?}"
            )),
        }
    }
    notes
}

/// Standard base64 (RFC 4648 §4), padded.
fn is_base64(s: &str) -> bool {
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
}

/// `type/subtype`, each an RFC 6838 name, with any parameters after `;`.
fn is_mime_type(s: &str) -> bool {
    let essence = s.split(';').next().unwrap_or("").trim();
    let name = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&^_.+-".contains(c))
    };
    matches!(essence.split_once('/'), Some((t, sub)) if name(t) && name(sub))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clauses_of(tool: Value) -> Vec<Option<&'static str>> {
        definition_notes(&tool)
            .into_iter()
            .map(|f| f.clause.map(|c| c.id))
            .collect()
    }

    #[test]
    fn tool_names_are_held_to_length_and_characters() {
        assert!(clauses_of(json!({"name": "admin.tools.list_v2-x"})).is_empty());
        assert_eq!(clauses_of(json!({"name": ""})), [Some("tools/name-length")]);
        assert_eq!(
            clauses_of(json!({"name": "a".repeat(129)})),
            [Some("tools/name-length")]
        );
        assert_eq!(
            clauses_of(json!({"name": "get user"})),
            [Some("tools/name-characters")]
        );
        assert_eq!(
            clauses_of(json!({"name": "ns/tool"})),
            [Some("tools/name-characters")]
        );
    }

    fn schema(properties: Value) -> Value {
        json!({"name": "t", "inputSchema": {"type": "object", "properties": properties}})
    }

    #[test]
    fn x_mcp_header_on_the_right_properties_is_fine() {
        let tool = schema(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "flag": {"type": ["boolean"], "x-mcp-header": "Flag"},
            "nested": {"type": "object", "properties": {
                "id": {"type": "string", "x-mcp-header": "Id"}}},
            "x-mcp-header": {"type": "string"},
            "d": {"type": "object", "default": {"x-mcp-header": "not a schema"}}
        }));
        assert!(clauses_of(tool).is_empty());
    }

    #[test]
    fn x_mcp_header_on_a_number_is_a_defect() {
        let tool = schema(json!({"amount": {"type": "number", "x-mcp-header": "Amount"}}));
        assert_eq!(clauses_of(tool), [Some("tools/x-mcp-header-primitive")]);
        let tool = schema(json!({"v": {"type": ["string", "number"], "x-mcp-header": "V"}}));
        assert_eq!(clauses_of(tool), [Some("tools/x-mcp-header-primitive")]);
        // No `type`: it cannot be told, so only a note.
        let tool = schema(json!({"v": {"enum": ["a"], "x-mcp-header": "V"}}));
        assert_eq!(clauses_of(tool), [None]);
    }

    #[test]
    fn x_mcp_header_values_are_tokens_unique_and_not_empty() {
        let tool = schema(json!({
            "a": {"type": "string", "x-mcp-header": ""},
            "b": {"type": "string", "x-mcp-header": "Has Space"},
            "c": {"type": "string", "x-mcp-header": "Line\r\nX"},
            "d": {"type": "string", "x-mcp-header": "Same"},
            "e": {"type": "string", "x-mcp-header": "same"}
        }));
        assert_eq!(
            clauses_of(tool),
            [
                Some("tools/x-mcp-header-not-empty"),
                Some("tools/x-mcp-header-token"),
                Some("tools/x-mcp-header-no-control"),
                Some("tools/x-mcp-header-token"),
                Some("tools/x-mcp-header-unique"),
            ]
        );
    }

    #[test]
    fn x_mcp_header_must_be_statically_reachable() {
        let tool = json!({"name": "t", "inputSchema": {
            "type": "object",
            "properties": {"list": {"type": "array", "items": {
                "type": "string", "x-mcp-header": "Item"}}},
            "anyOf": [{"properties": {"k": {"type": "string", "x-mcp-header": "K"}}}],
            "$defs": {"r": {"type": "string", "x-mcp-header": "R"}}
        }});
        assert_eq!(clauses_of(tool), [Some("tools/x-mcp-header-reachable"); 3]);
        let root = json!({"name": "t", "inputSchema": {"type": "object", "x-mcp-header": "Root"}});
        assert_eq!(clauses_of(root), [Some("tools/x-mcp-header-reachable")]);
    }

    #[test]
    fn another_case_of_a_name() {
        assert_eq!(other_case("add").as_deref(), Some("ADD"));
        assert_eq!(other_case("getUser").as_deref(), Some("GETUSER"));
        assert_eq!(other_case("ADD").as_deref(), Some("add"));
        assert_eq!(other_case("1-2"), None);
    }

    #[test]
    fn completion_totals_must_agree_with_the_values() {
        let ok = json!({"completion": {"values": ["a", "b"], "total": 10, "hasMore": true}});
        assert!(completion_notes(&ok).is_empty());
        let ok = json!({"completion": {"values": ["a"], "total": 1, "hasMore": false}});
        assert!(completion_notes(&ok).is_empty());
        let few = json!({"completion": {"values": ["a", "b"], "total": 1}});
        assert_eq!(completion_notes(&few).len(), 1);
        let more = json!({"completion": {"values": ["a"], "total": 1, "hasMore": true}});
        assert_eq!(completion_notes(&more).len(), 1);
        let less = json!({"completion": {"values": ["a"], "total": 5, "hasMore": false}});
        assert_eq!(completion_notes(&less).len(), 1);
    }

    #[test]
    fn template_variables_are_read_from_every_expression() {
        assert_eq!(
            template_variables("file:///{+path}{?a,b*}"),
            ["path", "a", "b"]
        );
        assert_eq!(template_variables("x://items/{id}/{id}"), ["id"]);
        assert!(template_variables("x://plain").is_empty());
    }

    #[test]
    fn images_are_base64_with_a_mime_type() {
        let good = json!({"messages": [{"role": "user", "content":
            {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}}]});
        assert!(content_notes(&good).is_empty());
        let bad = json!({"messages": [{"role": "user", "content":
            {"type": "image", "data": "not base64!", "mimeType": "png"}}]});
        assert_eq!(content_notes(&bad).len(), 2);
        assert!(is_base64(""));
        assert!(!is_base64("abc"));
        assert!(!is_base64("ab=c"));
    }
}
