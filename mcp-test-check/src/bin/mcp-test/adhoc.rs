//! The ad-hoc commands, in the spirit of the MCP Inspector's CLI mode: `list`, `call`, `read`,
//! `prompt` and `complete`, each one request (one per page for `list`, one per round for
//! `call`) to the same targets as `check`, printed as text or JSON.
//!
//! Exit codes: 0 when the server answered with a result, 1 when it answered with a JSON-RPC
//! error (or a tool result with `isError: true`), 2 when the request could not be made (bad
//! arguments, no connection).

use super::open::{OpenError, Opened, TargetArgs, open_answering};
use clap::{Args, Subcommand, ValueEnum};
use mcp_test::cases::every_client_capability;
use mcp_test::target::{Answers, DriveError, Target, drive, send_within};
use mcp_test::testing::{RequestOptions, answer};
use mcp_test::wire::build::build_request;
use mcp_test::wire::meta_keys;
use serde_json::{Map, Value, json};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// How the answer is printed.
#[derive(Clone, Copy, ValueEnum)]
pub(super) enum Output {
    /// For a human: names and descriptions, the text of content blocks.
    Text,
    /// The result, as JSON.
    Json,
}

/// What `list` lists.
#[derive(Clone, Copy, ValueEnum)]
pub(super) enum Listing {
    /// `tools/list`.
    Tools,
    /// `resources/list`.
    Resources,
    /// `resources/templates/list`.
    Templates,
    /// `prompts/list`.
    Prompts,
}

/// The ad-hoc commands.
#[derive(Subcommand)]
pub(super) enum Adhoc {
    /// Lists the server's tools, resources, resource templates or prompts (every page).
    List(ListArgs),
    /// Calls a tool with arguments as k=v pairs or one JSON object. When the tool asks for
    /// input (a multi-round request), the questions are asked on the terminal; otherwise the
    /// answers come from --answers FILE or --answer KEY=JSON.
    Call(CallArgs),
    /// Reads a resource.
    Read(ReadArgs),
    /// Gets a prompt, with arguments as k=v pairs.
    Prompt(PromptArgs),
    /// Asks for completions of a prompt's or resource template's argument.
    Complete(CompleteArgs),
}

/// What every ad-hoc command takes.
#[derive(Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Seconds each request is waited for (each page of `list`, each round of `call`); one \
     that takes longer fails the command (exit 2). The handshake waits --connect-timeout"
)))]
pub(super) struct Common {
    #[command(flatten)]
    target: TargetArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    format: Output,
}

#[derive(Args)]
pub(super) struct ListArgs {
    /// What to list.
    #[arg(value_enum)]
    what: Listing,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
pub(super) struct CallArgs {
    /// The tool.
    tool: String,
    /// The arguments: k=v pairs (v is JSON when it parses as JSON, else a string:
    /// n=5, text=hi, id='"42"'), or one JSON object ('{"text": "hi"}').
    #[arg(value_name = "ARGS")]
    arguments: Vec<String>,
    /// A JSON file of answers to the tool's questions, by key: {"user_name": {"action":
    /// "accept", "content": {"name": "Ada"}}}.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
    /// One answer, as KEY=JSON (repeatable; wins over --answers).
    #[arg(long = "answer", value_name = "KEY=JSON")]
    answer: Vec<String>,
    /// Ask the tool's questions on stdin and stderr even when stdin is not a terminal.
    #[arg(long, conflicts_with = "no_interactive")]
    interactive: bool,
    /// Never ask: a question no answer covers is an error.
    #[arg(long)]
    no_interactive: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
pub(super) struct ReadArgs {
    /// The resource URI.
    uri: String,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
pub(super) struct PromptArgs {
    /// The prompt.
    name: String,
    /// The arguments, as k=v pairs (each value a string).
    #[arg(value_name = "K=V")]
    arguments: Vec<String>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("reference").required(true).args(["prompt", "template"]))]
pub(super) struct CompleteArgs {
    /// Complete an argument of this prompt.
    #[arg(long, value_name = "NAME")]
    prompt: Option<String>,
    /// Complete a variable of this resource template (its URI template).
    #[arg(long, value_name = "URI_TEMPLATE")]
    template: Option<String>,
    /// The argument (or template variable) to complete.
    argument: String,
    /// What has been typed of it so far.
    #[arg(default_value = "")]
    value: String,
    /// Arguments already given, as k=v (repeatable): the completion's context.
    #[arg(long = "context", value_name = "K=V")]
    context: Vec<String>,
    #[command(flatten)]
    common: Common,
}

/// Runs one ad-hoc command.
pub(super) async fn run(command: Adhoc) -> ExitCode {
    let (common, name) = match &command {
        Adhoc::List(a) => (&a.common, "list"),
        Adhoc::Call(a) => (&a.common, "call"),
        Adhoc::Read(a) => (&a.common, "read"),
        Adhoc::Prompt(a) => (&a.common, "prompt"),
        Adhoc::Complete(a) => (&a.common, "complete"),
    };
    let fail = |e: &dyn std::fmt::Display| {
        eprintln!("mcp-test {name}: {e}");
        ExitCode::from(2)
    };
    // Arguments are read before the server is started.
    let request = match Request::from(&command) {
        Ok(request) => request,
        Err(e) => return fail(&e),
    };
    // A tool may ask: `call` declares what its answers answer (in 2025-11-25 the handshake
    // carries it, and the server asks on the connection).
    let answers = match &request {
        Request::Call { answers, .. } => Some(answers.clone()),
        _ => None,
    };
    let opened = match open_answering(&common.target, false, answers).await {
        Ok(opened) => opened,
        Err(e) => return fail(&connect_error(&e)),
    };
    let session = Session {
        opened: &opened,
        timeout: Duration::from_secs(common.target.timeout.max(1)),
        next_id: Arc::new(AtomicI64::new(1)),
    };
    let outcome = request.run(&session).await;
    opened.close().await;
    match outcome {
        Ok(Answered::Result(result, text)) => {
            print(common.format, &result, &text);
            ExitCode::SUCCESS
        }
        Ok(Answered::ToolError(result, text)) => {
            print(common.format, &result, &text);
            eprintln!("mcp-test {name}: the tool reported an error (isError: true)");
            ExitCode::from(1)
        }
        Ok(Answered::Error(error)) => {
            if matches!(common.format, Output::Json) {
                print(Output::Json, &json!({"error": error}), "");
            }
            eprintln!(
                "mcp-test {name}: the server answered with error {}: {}",
                error.get("code").unwrap_or(&Value::Null),
                error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("(no message)")
            );
            ExitCode::from(1)
        }
        Err(e) => fail(&e),
    }
}

/// A failed connection, with a hint for the cases a user can fix.
fn connect_error(e: &OpenError) -> String {
    let text = format!("cannot connect: {e}");
    if text.contains("needs authorization") {
        format!(
            "{text}\nhint: pass a token with --header 'Authorization: Bearer TOKEN' or MCP_TEST_HEADERS"
        )
    } else {
        text
    }
}

fn print(format: Output, result: &Value, text: &str) {
    let out = match format {
        Output::Json => serde_json::to_string_pretty(result).unwrap_or_default() + "\n",
        Output::Text => text.to_owned(),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
}

/// What the server said.
enum Answered {
    /// A result, and its text form.
    Result(Value, String),
    /// A tool result with `isError: true`, and its text form.
    ToolError(Value, String),
    /// A JSON-RPC error object.
    Error(Value),
}

/// The server, and the ids and timeout of this run.
struct Session<'a> {
    opened: &'a Opened,
    timeout: Duration,
    next_id: Arc<AtomicI64>,
}

impl Session<'_> {
    fn target(&self) -> &dyn Target {
        self.opened.target()
    }

    fn options(&self) -> RequestOptions {
        RequestOptions::new().timeout(self.timeout)
    }

    fn body(&self, method: &str, params: Value) -> Value {
        let mut body = build_request(method, params);
        body["id"] = Value::from(self.next_id.fetch_add(1, Ordering::Relaxed));
        body
    }

    /// Sends one request and returns its result, or the error object.
    async fn request(&self, method: &str, params: Value) -> Result<Result<Value, Value>, String> {
        let body = self.body(method, params);
        let exchange = send_within(self.target(), &body, &self.options().caller(), self.timeout)
            .await
            .map_err(|e| format!("{method}: {e}"))?;
        response_of(method, exchange.response)
    }
}

fn response_of(method: &str, response: Option<Value>) -> Result<Result<Value, Value>, String> {
    let Some(response) = response else {
        return Err(format!("{method}: no response"));
    };
    if let Some(error) = response.get("error") {
        return Ok(Err(error.clone()));
    }
    match response.get("result") {
        Some(result) => Ok(Ok(result.clone())),
        None => Err(format!(
            "{method}: the response has neither result nor error: {response}"
        )),
    }
}

/// One command, its arguments read and checked.
enum Request {
    List(Listing),
    Call {
        tool: String,
        arguments: Value,
        answers: Answers,
    },
    Read(String),
    Prompt {
        name: String,
        arguments: Map<String, Value>,
    },
    Complete {
        reference: Value,
        argument: String,
        value: String,
        context: Map<String, Value>,
    },
}

impl Request {
    fn from(command: &Adhoc) -> Result<Request, String> {
        Ok(match command {
            Adhoc::List(a) => Request::List(a.what),
            Adhoc::Call(a) => Request::Call {
                tool: a.tool.clone(),
                arguments: tool_arguments(&a.arguments)?,
                answers: answers(a)?,
            },
            Adhoc::Read(a) => Request::Read(a.uri.clone()),
            Adhoc::Prompt(a) => Request::Prompt {
                name: a.name.clone(),
                arguments: string_pairs(&a.arguments, "argument")?,
            },
            Adhoc::Complete(a) => Request::Complete {
                reference: match (&a.prompt, &a.template) {
                    (Some(name), _) => json!({"type": "ref/prompt", "name": name}),
                    (None, Some(uri)) => json!({"type": "ref/resource", "uri": uri}),
                    (None, None) => return Err("give --prompt NAME or --template URI".into()),
                },
                argument: a.argument.clone(),
                value: a.value.clone(),
                context: string_pairs(&a.context, "--context")?,
            },
        })
    }

    async fn run(self, session: &Session<'_>) -> Result<Answered, String> {
        match self {
            Request::List(what) => list(session, what).await,
            Request::Call {
                tool,
                arguments,
                answers,
            } => call(session, &tool, arguments, &answers).await,
            Request::Read(uri) => {
                let result = session
                    .request("resources/read", json!({"uri": uri}))
                    .await?;
                Ok(match result {
                    Ok(result) => {
                        let text = contents_text(&result);
                        Answered::Result(result, text)
                    }
                    Err(error) => Answered::Error(error),
                })
            }
            Request::Prompt { name, arguments } => {
                let mut params = json!({"name": name});
                if !arguments.is_empty() {
                    params["arguments"] = Value::Object(arguments);
                }
                Ok(match session.request("prompts/get", params).await? {
                    Ok(result) => {
                        let text = prompt_text(&result);
                        Answered::Result(result, text)
                    }
                    Err(error) => Answered::Error(error),
                })
            }
            Request::Complete {
                reference,
                argument,
                value,
                context,
            } => {
                let mut params = json!({
                    "ref": reference,
                    "argument": {"name": argument, "value": value},
                });
                if !context.is_empty() {
                    params["context"] = json!({"arguments": context});
                }
                Ok(
                    match session.request("completion/complete", params).await? {
                        Ok(result) => {
                            let mut text = String::new();
                            for value in result["completion"]["values"]
                                .as_array()
                                .into_iter()
                                .flatten()
                            {
                                text.push_str(value.as_str().unwrap_or_default());
                                text.push('\n');
                            }
                            if result["completion"]["hasMore"] == true {
                                text.push_str("(more)\n");
                            }
                            Answered::Result(result, text)
                        }
                        Err(error) => Answered::Error(error),
                    },
                )
            }
        }
    }
}

/// Every page of a list, as one result: `{"tools": [...]}`.
async fn list(session: &Session<'_>, what: Listing) -> Result<Answered, String> {
    let (method, key) = match what {
        Listing::Tools => ("tools/list", "tools"),
        Listing::Resources => ("resources/list", "resources"),
        Listing::Templates => ("resources/templates/list", "resourceTemplates"),
        Listing::Prompts => ("prompts/list", "prompts"),
    };
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _page in 0..1000 {
        let params = cursor
            .as_ref()
            .map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let result = match session.request(method, params).await? {
            Ok(result) => result,
            Err(error) => return Ok(Answered::Error(error)),
        };
        let Some(page) = result.get(key).and_then(Value::as_array) else {
            return Err(format!(
                "{method}: the result has no `{key}` array: {result}"
            ));
        };
        items.extend(page.iter().cloned());
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(next) if Some(next) == cursor.as_deref() => {
                return Err(format!("{method}: the server repeated the cursor {next:?}"));
            }
            Some(next) => cursor = Some(next.to_owned()),
            None => {
                let mut text = String::new();
                for item in &items {
                    let name = match what {
                        Listing::Resources => item["uri"].as_str(),
                        Listing::Templates => item["uriTemplate"].as_str(),
                        Listing::Tools | Listing::Prompts => item["name"].as_str(),
                    }
                    .unwrap_or("?");
                    let description = item["description"]
                        .as_str()
                        .or_else(|| item["title"].as_str())
                        .unwrap_or("");
                    let description = description.lines().next().unwrap_or("");
                    if description.is_empty() {
                        text.push_str(&format!("{name}\n"));
                    } else {
                        text.push_str(&format!("{name}  {description}\n"));
                    }
                }
                return Ok(Answered::Result(json!({ key: items }), text));
            }
        }
    }
    Err(format!("{method}: more than 1000 pages"))
}

/// `tools/call`, driven through every round with `answers`.
async fn call(
    session: &Session<'_>,
    tool: &str,
    arguments: Value,
    answers: &Answers,
) -> Result<Answered, String> {
    // Every question can be answered (scripted, or asked), so every capability is declared
    // (in 2025-11-25 by the handshake too, `open_answering`).
    let capabilities = every_client_capability();
    let body = session.body(
        "tools/call",
        json!({
            "name": tool,
            "arguments": arguments,
            "_meta": {(meta_keys::CLIENT_CAPABILITIES): capabilities},
        }),
    );
    let ids = Arc::clone(&session.next_id);
    let next_id = move || Value::from(ids.fetch_add(1, Ordering::Relaxed));
    let caller = session.options().caller();
    let rounds = drive(session.target(), &body, answers, &caller, Some(&next_id))
        .await
        .map_err(|e| match &e {
            DriveError::Unanswered { .. } => format!(
                "tools/call {tool}: {e}\nhint: answer it with --answer KEY=JSON or --answers FILE, or run on a terminal (or with --interactive) to be asked"
            ),
            _ => format!("tools/call {tool}: {e}"),
        })?;
    let response = rounds.exchanges.last().and_then(|e| e.response.clone());
    Ok(match response_of("tools/call", response)? {
        Ok(result) => {
            let text = content_text(&result);
            if result.get("isError") == Some(&Value::Bool(true)) {
                Answered::ToolError(result, text)
            } else {
                Answered::Result(result, text)
            }
        }
        Err(error) => Answered::Error(error),
    })
}

/// The arguments of `call`: one JSON object, or k=v pairs.
fn tool_arguments(given: &[String]) -> Result<Value, String> {
    if let [only] = given
        && only.trim_start().starts_with('{')
    {
        return match serde_json::from_str::<Value>(only) {
            Ok(Value::Object(object)) => Ok(Value::Object(object)),
            Ok(other) => Err(format!("the arguments must be a JSON object, not {other}")),
            Err(e) => Err(format!("the arguments are not a JSON object ({e}): {only}")),
        };
    }
    let mut arguments = Map::new();
    for pair in given {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!(
                "argument {pair:?}: expected k=v (or one JSON object for all of them)"
            ));
        };
        if key.is_empty() {
            return Err(format!("argument {pair:?}: the name before `=` is empty"));
        }
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::from(value));
        arguments.insert(key.to_owned(), value);
    }
    Ok(Value::Object(arguments))
}

/// k=v pairs whose values are strings (prompt arguments, completion context).
fn string_pairs(given: &[String], what: &str) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for pair in given {
        match pair.split_once('=') {
            Some((key, value)) if !key.is_empty() => {
                out.insert(key.to_owned(), Value::from(value));
            }
            _ => return Err(format!("{what} {pair:?}: expected k=v")),
        }
    }
    Ok(out)
}

/// The answers of `call`: the file, then each --answer, then the terminal when there is one
/// (or --interactive).
fn answers(args: &CallArgs) -> Result<Answers, String> {
    let mut answers = Answers::new();
    if let Some(path) = &args.answers {
        let file = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--answers {file}: cannot read it: {e}"))?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| format!("--answers {file}: not JSON: {e}"))?;
        let Value::Object(by_key) = doc else {
            return Err(format!(
                "--answers {file}: expected a JSON object of answers by key, got {doc}"
            ));
        };
        for (key, value) in by_key {
            if !value.is_object() {
                return Err(format!(
                    "--answers {file}: /{key}: an answer is a JSON object (e.g. {{\"action\": \"accept\", \"content\": {{...}}}}), not {value}"
                ));
            }
            answers = answers.answer(key, value);
        }
    }
    for given in &args.answer {
        let Some((key, value)) = given.split_once('=') else {
            return Err(format!("--answer {given:?}: expected KEY=JSON"));
        };
        let value: Value = serde_json::from_str(value)
            .map_err(|e| format!("--answer {key}: the answer is not JSON ({e}): {value}"))?;
        if !value.is_object() {
            return Err(format!(
                "--answer {key}: an answer is a JSON object (e.g. {{\"action\": \"accept\", \"content\": {{...}}}}), not {value}"
            ));
        }
        answers = answers.answer(key, value);
    }
    let interactive = args.interactive || (!args.no_interactive && std::io::stdin().is_terminal());
    if interactive {
        answers = answers.respond(|key, request| {
            tokio::task::block_in_place(|| ask(key, request, &mut std::io::stdin().lock()))
        });
    }
    Ok(answers)
}

/// Asks the user on stderr, reading `input`, how to answer input request `key`; `None` at
/// the end of the input.
fn ask(key: &str, request: &Value, input: &mut dyn BufRead) -> Option<Value> {
    let method = request["method"].as_str().unwrap_or("");
    let params = &request["params"];
    let mut line = |prompt: &str| -> Option<String> {
        eprint!("{prompt}");
        let _ = std::io::stderr().flush();
        let mut text = String::new();
        match input.read_line(&mut text) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(text.trim_end_matches(['\r', '\n']).to_owned()),
        }
    };
    eprintln!("The server asks ({key}, {method}):");
    match method {
        "elicitation/create" => {
            if let Some(message) = params["message"].as_str() {
                eprintln!("  {message}");
            }
            if params["mode"] == "url" {
                eprintln!("  URL: {}", params["url"].as_str().unwrap_or(""));
                let choice = line("Open it and consent? [Y/n/c(ancel)] ")?;
                return Some(choice_answer(&choice, answer::consent()));
            }
            let mut content = Map::new();
            let schema = &params["requestedSchema"];
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if let Some(properties) = schema["properties"].as_object() {
                for (name, property) in properties {
                    let kind = property["type"].as_str().unwrap_or("string");
                    let choices = property["enum"]
                        .as_array()
                        .map(|e| {
                            let e: Vec<String> = e.iter().map(Value::to_string).collect();
                            format!(" one of {}", e.join(", "))
                        })
                        .unwrap_or_default();
                    let mark = if required.contains(&name.as_str()) {
                        ", required"
                    } else {
                        ""
                    };
                    loop {
                        let given = line(&format!("  {name} ({kind}{mark}){choices}: "))?;
                        if given.is_empty() && mark.is_empty() {
                            break;
                        }
                        match typed(kind, &given) {
                            Some(value) => {
                                content.insert(name.clone(), value);
                                break;
                            }
                            None => eprintln!("  not a {kind}: {given:?}"),
                        }
                    }
                }
            }
            let choice = line("Submit? [Y/n(decline)/c(ancel)] ")?;
            Some(choice_answer(
                &choice,
                answer::accept(Value::Object(content)),
            ))
        }
        "sampling/createMessage" => {
            for message in params["messages"].as_array().into_iter().flatten() {
                let text = message["content"]["text"]
                    .as_str()
                    .map_or_else(|| message["content"].to_string(), str::to_owned);
                eprintln!("  {}: {text}", message["role"].as_str().unwrap_or("?"));
            }
            let reply = line("Reply as the model: ")?;
            Some(answer::sampled("mcp-test-cli", &reply))
        }
        "roots/list" => {
            let roots = line("Roots (file:// URIs, comma-separated; empty for none): ")?;
            Some(answer::roots(
                roots
                    .split(',')
                    .map(str::trim)
                    .filter(|r| !r.is_empty())
                    .map(str::to_owned),
            ))
        }
        _ => {
            eprintln!("  {params}");
            let given = line("Answer as JSON: ")?;
            serde_json::from_str(&given).ok()
        }
    }
}

/// `accepted` for yes (or nothing), decline for n, cancel for c.
fn choice_answer(choice: &str, accepted: Value) -> Value {
    match choice.trim().to_ascii_lowercase().as_str() {
        "n" | "no" | "decline" => answer::decline(),
        "c" | "cancel" => answer::cancel(),
        _ => accepted,
    }
}

/// `given` as a value of JSON Schema type `kind`.
fn typed(kind: &str, given: &str) -> Option<Value> {
    match kind {
        "integer" => given.trim().parse::<i64>().ok().map(Value::from),
        "number" => given.trim().parse::<f64>().ok().map(Value::from),
        "boolean" => match given.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" | "true" => Some(Value::Bool(true)),
            "n" | "no" | "false" => Some(Value::Bool(false)),
            _ => None,
        },
        _ => Some(Value::from(given)),
    }
}

/// The text of a tool result: each text block, other blocks as JSON, then the structured
/// content when there is no text.
fn content_text(result: &Value) -> String {
    let mut out = String::new();
    for block in result["content"].as_array().into_iter().flatten() {
        match block["type"].as_str() {
            Some("text") => out.push_str(block["text"].as_str().unwrap_or("")),
            Some("image" | "audio") => out.push_str(&format!(
                "[{} {}, {} bytes of base64]",
                block["type"].as_str().unwrap_or(""),
                block["mimeType"].as_str().unwrap_or(""),
                block["data"].as_str().map_or(0, str::len)
            )),
            _ => out.push_str(&block.to_string()),
        }
        out.push('\n');
    }
    if out.is_empty()
        && let Some(structured) = result.get("structuredContent")
    {
        out = serde_json::to_string_pretty(structured).unwrap_or_default() + "\n";
    }
    out
}

/// The text of a `resources/read` result.
fn contents_text(result: &Value) -> String {
    let mut out = String::new();
    for content in result["contents"].as_array().into_iter().flatten() {
        match content["text"].as_str() {
            Some(text) => out.push_str(text),
            None => out.push_str(&format!(
                "[{} {}, {} bytes of base64]",
                content["uri"].as_str().unwrap_or(""),
                content["mimeType"].as_str().unwrap_or(""),
                content["blob"].as_str().map_or(0, str::len)
            )),
        }
        out.push('\n');
    }
    out
}

/// The messages of a `prompts/get` result, one `role: text` each.
fn prompt_text(result: &Value) -> String {
    let mut out = String::new();
    if let Some(description) = result["description"].as_str() {
        out.push_str(&format!("# {description}\n"));
    }
    for message in result["messages"].as_array().into_iter().flatten() {
        let content = &message["content"];
        let text = content["text"]
            .as_str()
            .map_or_else(|| content.to_string(), str::to_owned);
        out.push_str(&format!(
            "{}: {text}\n",
            message["role"].as_str().unwrap_or("?")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_pairs_or_one_object() {
        let pairs = ["n=5", "text=hi", r#"id="42""#, "flag=true", "list=[1,2]"].map(String::from);
        assert_eq!(
            tool_arguments(&pairs).unwrap(),
            json!({"n": 5, "text": "hi", "id": "42", "flag": true, "list": [1, 2]})
        );
        assert_eq!(
            tool_arguments(&[r#"{"a": 1}"#.to_owned()]).unwrap(),
            json!({"a": 1})
        );
        assert!(
            tool_arguments(&["{not json".to_owned()])
                .unwrap_err()
                .contains("not a JSON object")
        );
        assert!(
            tool_arguments(&["novalue".to_owned()])
                .unwrap_err()
                .contains("k=v")
        );
        assert_eq!(tool_arguments(&[]).unwrap(), json!({}));
    }

    #[test]
    fn the_terminal_answers_a_form_and_a_sampling_request() {
        let form = json!({"method": "elicitation/create", "params": {
            "message": "What is your name?",
            "requestedSchema": {"type": "object", "properties": {
                "age": {"type": "integer"}, "name": {"type": "string"}}, "required": ["age"]}}});
        let mut input = std::io::Cursor::new("x\n41\nAda\n\n");
        assert_eq!(
            ask("k", &form, &mut input),
            Some(answer::accept(json!({"age": 41, "name": "Ada"})))
        );
        let mut declined = std::io::Cursor::new("1\n\nn\n");
        assert_eq!(ask("k", &form, &mut declined), Some(answer::decline()));
        let mut ended = std::io::Cursor::new("");
        assert_eq!(ask("k", &form, &mut ended), None);
        let sampling = json!({"method": "sampling/createMessage", "params": {"messages": [
            {"role": "user", "content": {"type": "text", "text": "Capital of France?"}}]}});
        let mut reply = std::io::Cursor::new("Paris\n");
        assert_eq!(
            ask("k", &sampling, &mut reply),
            Some(answer::sampled("mcp-test-cli", "Paris"))
        );
    }
}
