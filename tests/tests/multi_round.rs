//! Multi-round requests (spec §8), as a downstream crate tests them: every case through the wire
//! (JSON text in, JSON text out via `Server::handle_json_with`) and through `run_tool` / the
//! `Driver`. Every `input_required` result is checked against the official schema.

use mcp_test::rounds::{Capability, Elicitation, InputRequests, SamplingMessage, SamplingRequest};
use mcp_test::testing::{DriveError, Driver, RunOutcome, answer, run_tool};
use mcp_test::wire::ClientCapabilities;
use mcp_test::{CallToolResult, Caller, Context, Identity, Server, Tool, ToolError};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

// ---------------------------------------------------------------------------------------------
// Tools, written by hand against `mcp_test::Tool`.
// ---------------------------------------------------------------------------------------------

fn name_schema() -> Value {
    json!({"type": "object", "properties": {"name": {"type": "string", "minLength": 1}},
           "required": ["name"]})
}

fn word_schema() -> Value {
    json!({"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]})
}

/// One question; falls back when the client cannot answer.
struct Greet {
    greeting: String,
}

impl Tool for Greet {
    const NAME: &'static str = "greet";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"greeting": {"type": "string"}},
               "additionalProperties": false})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Greet {
            greeting: args["greeting"].as_str().unwrap_or("Hello").to_owned(),
        })
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let g = self.greeting;
        Ok(
            match ctx.elicit("What is your name?", name_schema()).await {
                Ok(Elicitation::Accept(form)) => {
                    CallToolResult::text(format!("{g}, {}!", form["name"].as_str().unwrap_or("?")))
                }
                Ok(Elicitation::Decline) => CallToolResult::text(format!("{g}, whoever you are.")),
                Ok(Elicitation::Cancel) => CallToolResult::error_text("cancelled by the user"),
                Err(e) if e.is_not_supported() => {
                    CallToolResult::text(format!("{g}! (this client cannot answer questions)"))
                }
                Err(e) => return Err(e.into()),
            },
        )
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Profile {
    /// Your name.
    name: String,
}

#[derive(Deserialize, schemars::JsonSchema, PartialEq, Debug)]
#[serde(rename_all = "lowercase")]
enum Plan {
    Free,
    Pro,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct PlanChoice {
    plan: Plan,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Pay 10 EUR a month?
    confirm: bool,
}

/// Counts how often a run starts: the replay model re-runs everything before a question.
#[derive(Default)]
struct Starts(AtomicU32);

/// Two rounds (name, plan) for the free plan, three (name, plan, confirm) for pro.
struct Signup;

impl Tool for Signup {
    const NAME: &'static str = "signup";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Signup)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        if let Some(starts) = ctx.assign::<Arc<Starts>>() {
            starts.0.fetch_add(1, Ordering::SeqCst);
        }
        let Some(profile) = ctx.elicit_as::<Profile>("Who are you?").await?.accepted() else {
            return Ok(CallToolResult::error_text("no profile"));
        };
        let Some(choice) = ctx.elicit_as::<PlanChoice>("Which plan?").await?.accepted() else {
            return Ok(CallToolResult::error_text("no plan"));
        };
        if choice.plan == Plan::Pro {
            let confirm = ctx.elicit_as::<Confirm>("Confirm the payment").await?;
            if !confirm.accepted().is_some_and(|c| c.confirm) {
                return Ok(CallToolResult::text(format!(
                    "{}: not signed up",
                    profile.name
                )));
            }
        }
        Ok(CallToolResult::text(format!(
            "{} signed up for {:?} in round {}",
            profile.name,
            choice.plan,
            ctx.round()
        )))
    }
}

/// Two independent questions asked concurrently: they come back in one round.
struct Pair;

impl Tool for Pair {
    const NAME: &'static str = "pair";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Pair)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        ctx.require(&[Capability::ElicitationForm])?;
        let (a, b) = tokio::join!(
            ctx.elicit("First word?", word_schema()),
            ctx.elicit("Second word?", word_schema()),
        );
        let word = |e: Elicitation<Map<String, Value>>| {
            e.accepted()
                .and_then(|m| m["word"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "-".into())
        };
        Ok(CallToolResult::text(format!("{} {}", word(a?), word(b?))))
    }
}

/// All three kinds in one round, one under a key of its own.
struct Survey;

impl Tool for Survey {
    const NAME: &'static str = "survey";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Survey)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        ctx.require(&[
            Capability::ElicitationForm,
            Capability::Sampling,
            Capability::Roots,
        ])?;
        let (name, capital, roots) = tokio::join!(
            ctx.elicit("Your name?", name_schema()).key("user_name"),
            ctx.create_message(
                SamplingRequest::new(100).message(SamplingMessage::user("Capital of France?"))
            ),
            ctx.list_roots(),
        );
        let name = name?.accepted().ok_or(ToolError::new("no name"))?;
        let capital = capital?;
        let roots = roots?;
        Ok(CallToolResult::text(format!(
            "{} / {} ({}) / {}",
            name["name"].as_str().unwrap_or_default(),
            capital.text().unwrap_or_default(),
            capital.model,
            roots
                .iter()
                .map(|r| r.uri.as_str())
                .collect::<Vec<_>>()
                .join(",")
        )))
    }
}

/// Needs sampling and propagates the missing capability with `?` (-32021).
struct NeedsSampling;

impl Tool for NeedsSampling {
    const NAME: &'static str = "needs_sampling";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(NeedsSampling)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let answer = ctx
            .create_message(SamplingRequest::new(10).message(SamplingMessage::user("Hi")))
            .await?;
        Ok(CallToolResult::text(
            answer.text().unwrap_or_default().to_owned(),
        ))
    }
}

/// URL mode, with a form fallback when the client has no `elicitation.url`.
struct Login;

impl Tool for Login {
    const NAME: &'static str = "login";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Login)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        match ctx
            .elicit_url("Sign in to continue", "https://example.com/login")
            .await
        {
            Ok(Elicitation::Accept(())) => Ok(CallToolResult::text("signed in")),
            Ok(_) => Ok(CallToolResult::error_text("sign-in refused")),
            Err(e) if e.is_not_supported() => Ok(CallToolResult::text(
                "this client cannot open URLs: use a token",
            )),
            Err(e) => Err(e.into()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Wire helpers.
// ---------------------------------------------------------------------------------------------

/// A clock a test moves by hand.
#[derive(Clone, Default)]
struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    fn now(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(1_700_000_000_000 + self.0.load(Ordering::SeqCst))
    }
    fn advance(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

fn server_with(clock: &ManualClock) -> Server {
    let clock = clock.clone();
    Server::builder("rounds", "1.0.0")
        .tool::<Greet>()
        .tool::<Signup>()
        .tool::<Pair>()
        .tool::<Survey>()
        .tool::<NeedsSampling>()
        .tool::<Login>()
        .request_state_ttl(Duration::from_secs(60))
        .request_state_clock(move || clock.now())
        .build()
        .unwrap()
}

fn server() -> Server {
    server_with(&ManualClock::default())
}

fn all_caps() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

/// A `tools/call` request; `retry` adds `inputResponses` and `requestState`.
fn call(id: u64, tool: &str, args: Value, caps: &Value, retry: Option<(&Value, &str)>) -> String {
    let mut params = json!({
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": caps},
        "name": tool,
        "arguments": args,
    });
    if let Some((responses, state)) = retry {
        params["inputResponses"] = responses.clone();
        params["requestState"] = Value::from(state);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()
}

async fn send(server: &Server, caller: &Caller, text: &str) -> Value {
    let reply = server.handle_json_with(text, caller).await.unwrap();
    let reply: Value = serde_json::from_str(&reply).unwrap();
    if reply.get("result").is_some()
        && let Err(e) = mcp_test::spec::check_response("tools/call", &reply)
    {
        panic!("not a valid tools/call response: {e}\n{reply:#}");
    }
    if reply["result"]["resultType"] == "input_required" {
        check_input_required(&reply, caps_of(text));
    }
    reply
}

fn caps_of(request: &str) -> ClientCapabilities {
    let request: Value = serde_json::from_str(request).unwrap();
    serde_json::from_value(
        request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"].clone(),
    )
    .unwrap()
}

/// A validator for one `$defs` entry of the official schema, compiled once per process.
fn spec_validator(definition: &'static str) -> &'static jsonschema::Validator {
    static DEFS: OnceLock<
        std::sync::Mutex<std::collections::HashMap<&'static str, &'static jsonschema::Validator>>,
    > = OnceLock::new();
    let defs = DEFS.get_or_init(Default::default);
    let mut defs = defs.lock().unwrap();
    defs.entry(definition).or_insert_with(|| {
        let schema: Value = serde_json::from_str(mcp_test::spec::SCHEMA_JSON).unwrap();
        let root = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": format!("#/$defs/{definition}"),
            "$defs": schema["$defs"],
        });
        Box::leak(Box::new(jsonschema::options().build(&root).unwrap()))
    })
}

fn assert_valid(definition: &'static str, instance: &Value) {
    let errors: Vec<String> = spec_validator(definition)
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path().as_str()))
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {definition}: {errors:?}\n{instance:#}"
    );
}

/// Checks an `input_required` response against the official schema and spec §8.
fn check_input_required(response: &Value, caps: ClientCapabilities) {
    assert_valid("JSONRPCResultResponse", response);
    let result = &response["result"];
    assert_valid("InputRequiredResult", result);
    assert!(
        result["requestState"].is_string(),
        "the server always sends requestState"
    );
    let requests = result["inputRequests"].as_object().expect("inputRequests");
    assert!(!requests.is_empty());
    for (key, request) in requests {
        assert_valid("InputRequest", request);
        let (definition, declared) = match request["method"].as_str().unwrap() {
            "elicitation/create" if request["params"]["mode"] == "url" => {
                ("ElicitRequest", caps.elicitation_url())
            }
            "elicitation/create" => ("ElicitRequest", caps.elicitation_form()),
            "sampling/createMessage" => ("CreateMessageRequest", caps.sampling()),
            "roots/list" => ("ListRootsRequest", caps.roots()),
            other => panic!("{key}: unexpected method {other}"),
        };
        assert_valid(definition, request);
        assert!(
            declared,
            "{key}: {} was not declared by the client",
            request["method"]
        );
    }
}

/// Runs a call to completion as a client does: fresh id per retry, `requestState` echoed byte
/// for byte, answers from `respond`. Returns every `inputRequests` and the final response.
async fn drive_wire(
    server: &Server,
    caller: &Caller,
    tool: &str,
    args: Value,
    caps: &Value,
    mut respond: impl FnMut(&str, &Value) -> Value,
) -> (Vec<Value>, Value) {
    let mut id = 1;
    let mut reply = send(server, caller, &call(id, tool, args.clone(), caps, None)).await;
    let mut rounds = Vec::new();
    while reply["result"]["resultType"] == "input_required" {
        assert!(rounds.len() < 10, "more than 10 rounds");
        let requests = reply["result"]["inputRequests"].clone();
        let responses: Map<String, Value> = requests
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, r)| (k.clone(), respond(k, r)))
            .collect();
        let state = reply["result"]["requestState"].as_str().unwrap().to_owned();
        rounds.push(requests);
        id += 1;
        let retry = call(
            id,
            tool,
            args.clone(),
            caps,
            Some((&Value::Object(responses), &state)),
        );
        reply = send(server, caller, &retry).await;
        assert_eq!(reply["id"], id, "the reply echoes the retry's new id");
    }
    (rounds, reply)
}

fn text(reply: &Value) -> &str {
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {reply:#}"))
}

fn keys(requests: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = requests
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn error(reply: &Value) -> (i64, &str) {
    let e = &reply["error"];
    (
        e["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {reply:#}")),
        e["message"].as_str().unwrap(),
    )
}

fn ctx_all() -> mcp_test::ContextBuilder {
    Context::builder().elicitation_url().sampling().roots()
}

fn one_text(result: &CallToolResult) -> &str {
    result.content[0].as_text().unwrap()
}

// ---------------------------------------------------------------------------------------------
// One, two and three rounds.
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn one_round_over_the_wire() {
    let server = server();
    let caller = Caller::default();
    let caps = json!({"elicitation": {}});
    let first = send(
        &server,
        &caller,
        &call(1, "greet", json!({"greeting": "Hi"}), &caps, None),
    )
    .await;
    assert_eq!(first["result"]["resultType"], "input_required");
    assert_eq!(
        first["result"]["inputRequests"],
        json!({"elicit-1": {"method": "elicitation/create", "params": {
            "mode": "form", "message": "What is your name?", "requestedSchema": name_schema()}}})
    );
    let state = first["result"]["requestState"].as_str().unwrap();
    let retry = call(
        2,
        "greet",
        json!({"greeting": "Hi"}),
        &caps,
        Some((
            &json!({"elicit-1": {"action": "accept", "content": {"name": "Ada"}}}),
            state,
        )),
    );
    let done = send(&server, &caller, &retry).await;
    assert_eq!(done["result"]["resultType"], "complete");
    assert_eq!(text(&done), "Hi, Ada!");
}

#[tokio::test]
async fn one_round_through_run_tool() {
    let ctx = Context::builder().elicitation().build();
    let questions = run_tool::<Greet>(&ctx, json!({}))
        .await
        .unwrap()
        .input_required()
        .unwrap();
    assert_eq!(questions.keys().collect::<Vec<_>>(), ["elicit-1"]);
    let q = questions.get("elicit-1").unwrap();
    assert_eq!(q.method, "elicitation/create");
    assert_eq!(q.message(), Some("What is your name?"));
    assert_eq!(q.requested_schema(), Some(&name_schema()));
    // Keyed as the client sees it: the same JSON as the wire's inputRequests.
    assert_eq!(questions.to_value()["elicit-1"]["params"]["mode"], "form");

    let ctx = Context::builder()
        .elicitation()
        .answer("elicit-1", answer::accept(json!({"name": "Ada"})))
        .build();
    let done = run_tool::<Greet>(&ctx, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(one_text(&done), "Hello, Ada!");
}

#[tokio::test]
async fn two_and_three_rounds_over_the_wire_replay_from_the_start() {
    let server = server();
    for (plan, rounds, expected) in [
        ("free", 2, "Ada signed up for Free in round 3"),
        ("pro", 3, "Ada signed up for Pro in round 4"),
    ] {
        let starts = Arc::new(Starts::default());
        let caller = Caller::default().with_assign(starts.clone());
        let (seen, done) = drive_wire(
            &server,
            &caller,
            "signup",
            json!({}),
            &json!({"elicitation": {}}),
            |key, request| match request["params"]["message"].as_str().unwrap() {
                "Who are you?" => answer::accept(json!({"name": "Ada"})),
                "Which plan?" => answer::accept(json!({"plan": plan})),
                "Confirm the payment" => answer::accept(json!({"confirm": true})),
                other => panic!("{key}: unexpected question {other}"),
            },
        )
        .await;
        assert_eq!(seen.len(), rounds, "{plan}");
        assert_eq!(text(&done), expected);
        // Every round replays the run from the start: one start per request.
        assert_eq!(starts.0.load(Ordering::SeqCst), rounds as u32 + 1);
        // Each round asks exactly the next question, keyed in run order.
        for (i, requests) in seen.iter().enumerate() {
            let key = format!("elicit-{}", i + 1);
            assert_eq!(keys(requests), [key.as_str()], "{plan} round {}", i + 1);
        }
        // Typed questions publish the flat schema of their type.
        assert_eq!(
            seen[1]["elicit-2"]["params"]["requestedSchema"],
            json!({"type": "object", "properties": {"plan": {"type": "string", "enum": ["free", "pro"]}},
                   "required": ["plan"]})
        );
        if plan == "pro" {
            assert_eq!(
                seen[2]["elicit-3"]["params"]["requestedSchema"]["properties"]["confirm"],
                json!({"type": "boolean", "description": "Pay 10 EUR a month?"})
            );
        }
    }
}

#[tokio::test]
async fn two_and_three_rounds_through_the_driver() {
    for (plan, rounds) in [("free", 2), ("pro", 3)] {
        let starts = Arc::new(Starts::default());
        let ctx = Context::builder()
            .elicitation()
            .assign(starts.clone())
            .build();
        let transcript = Driver::<Signup>::new(&ctx, json!({}))
            .answer("elicit-1", answer::accept(json!({"name": "Ada"})))
            .answer("elicit-2", answer::accept(json!({"plan": plan})))
            .answer("elicit-3", answer::accept(json!({"confirm": true})))
            .run()
            .await
            .unwrap();
        assert_eq!(transcript.questions.len(), rounds);
        assert_eq!(transcript.round_count(), rounds + 1);
        assert_eq!(starts.0.load(Ordering::SeqCst), rounds as u32 + 1);
        assert_eq!(
            transcript.question(0, "elicit-1").unwrap().message(),
            Some("Who are you?")
        );
        assert_eq!(
            transcript
                .question(0, "elicit-1")
                .unwrap()
                .requested_schema()
                .unwrap()["properties"]["name"],
            json!({"type": "string", "description": "Your name."})
        );
        assert_eq!(
            transcript.question(1, "elicit-2").unwrap().message(),
            Some("Which plan?")
        );
        let result = transcript.result.unwrap();
        assert!(one_text(&result).starts_with("Ada signed up"), "{result:?}");
    }
}

#[tokio::test]
async fn the_driver_names_the_question_it_has_no_answer_for_and_caps_rounds() {
    let ctx = Context::builder().elicitation().build();
    let err = Driver::<Signup>::new(&ctx, json!({}))
        .answer("elicit-1", answer::accept(json!({"name": "Ada"})))
        .run()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DriveError::Unanswered { round: 2, key, .. } if key == "elicit-2"),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "round 2: no scripted answer for question `elicit-2` (elicitation/create: \"Which plan?\")"
    );

    let err = Driver::<Signup>::new(&ctx, json!({}))
        .respond(|key, q| match q.message() {
            Some("Who are you?") => Some(answer::accept(json!({"name": key}))),
            Some("Which plan?") => Some(answer::accept(json!({"plan": "pro"}))),
            _ => Some(answer::accept(json!({"confirm": true}))),
        })
        .max_rounds(2)
        .run()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DriveError::TooManyRounds { limit: 2, rounds } if rounds.len() == 2),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Several questions in one round.
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn concurrent_questions_come_back_together_over_the_wire() {
    let server = server();
    let (rounds, done) = drive_wire(
        &server,
        &Caller::default(),
        "pair",
        json!({}),
        &json!({"elicitation": {}}),
        |key, _| answer::accept(json!({"word": format!("w{key}")})),
    )
    .await;
    assert_eq!(rounds.len(), 1);
    assert_eq!(keys(&rounds[0]), ["elicit-1", "elicit-2"]);
    assert_eq!(rounds[0]["elicit-1"]["params"]["message"], "First word?");
    assert_eq!(rounds[0]["elicit-2"]["params"]["message"], "Second word?");
    assert_eq!(text(&done), "welicit-1 welicit-2");

    // All three kinds in one round, one under a key the tool chose.
    let (rounds, done) = drive_wire(
        &server,
        &Caller::default(),
        "survey",
        json!({}),
        &all_caps(),
        |key, _| match key {
            "user_name" => answer::accept(json!({"name": "Ada"})),
            "sampling-1" => answer::sampled("model-x", "Paris"),
            "roots-1" => answer::roots(["file:///a", "file:///b"]),
            other => panic!("unexpected key {other}"),
        },
    )
    .await;
    assert_eq!(rounds.len(), 1);
    assert_eq!(keys(&rounds[0]), ["roots-1", "sampling-1", "user_name"]);
    assert_eq!(
        rounds[0]["roots-1"],
        json!({"method": "roots/list", "params": {}})
    );
    assert_eq!(rounds[0]["sampling-1"]["params"]["maxTokens"], 100);
    assert_eq!(text(&done), "Ada / Paris (model-x) / file:///a,file:///b");
}

#[tokio::test]
async fn concurrent_questions_come_back_together_through_run_tool() {
    let ctx = Context::builder().elicitation().build();
    let q = run_tool::<Pair>(&ctx, json!({}))
        .await
        .unwrap()
        .input_required()
        .unwrap();
    assert_eq!(q.keys().collect::<Vec<_>>(), ["elicit-1", "elicit-2"]);

    let ctx = ctx_all().build();
    let q = run_tool::<Survey>(&ctx, json!({}))
        .await
        .unwrap()
        .input_required()
        .unwrap();
    assert_eq!(
        q.keys().collect::<Vec<_>>(),
        ["user_name", "sampling-1", "roots-1"]
    );
    assert_eq!(
        q.get("sampling-1").unwrap().params["messages"][0]["content"]["text"],
        "Capital of France?"
    );

    let ctx = ctx_all()
        .answer("user_name", answer::accept(json!({"name": "Ada"})))
        .answer("sampling-1", answer::sampled("m", "Paris"))
        .answer("roots-1", answer::roots(["file:///r"]))
        .build();
    let done = run_tool::<Survey>(&ctx, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(one_text(&done), "Ada / Paris (m) / file:///r");
}

// ---------------------------------------------------------------------------------------------
// Decline and cancel.
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn decline_and_cancel_over_the_wire() {
    let server = server();
    let caps = json!({"elicitation": {}});
    let (_, declined) = drive_wire(
        &server,
        &Caller::default(),
        "greet",
        json!({}),
        &caps,
        |_, _| answer::decline(),
    )
    .await;
    assert_eq!(text(&declined), "Hello, whoever you are.");
    let (_, cancelled) = drive_wire(
        &server,
        &Caller::default(),
        "greet",
        json!({}),
        &caps,
        |_, _| answer::cancel(),
    )
    .await;
    assert_eq!(cancelled["result"]["isError"], true);
    assert_eq!(text(&cancelled), "cancelled by the user");
    // A declined plan question ends the three-step signup early.
    let (rounds, done) = drive_wire(
        &server,
        &Caller::default(),
        "signup",
        json!({}),
        &caps,
        |key, _| {
            if key == "elicit-1" {
                answer::accept(json!({"name": "Ada"}))
            } else {
                answer::decline()
            }
        },
    )
    .await;
    assert_eq!(rounds.len(), 2);
    assert_eq!(text(&done), "no plan");
}

#[tokio::test]
async fn decline_and_cancel_through_run_tool() {
    for (reply, expected, is_error) in [
        (answer::decline(), "Hello, whoever you are.", false),
        (answer::cancel(), "cancelled by the user", true),
    ] {
        let ctx = Context::builder()
            .elicitation()
            .answer("elicit-1", reply)
            .build();
        let done = run_tool::<Greet>(&ctx, json!({}))
            .await
            .unwrap()
            .complete()
            .unwrap();
        assert_eq!(one_text(&done), expected);
        assert_eq!(done.is_error, is_error);
    }
    let ctx = Context::builder()
        .elicitation()
        .answer("elicit-1", answer::decline())
        .build();
    assert_eq!(
        ctx.elicit("?", name_schema()).await.unwrap(),
        Elicitation::Decline
    );
}

// ---------------------------------------------------------------------------------------------
// Tampered, expired and foreign state.
// ---------------------------------------------------------------------------------------------

/// Round 1 of `greet` for `caller`: the state.
async fn first_state(server: &Server, caller: &Caller, args: Value) -> String {
    let first = send(
        server,
        caller,
        &call(1, "greet", args, &json!({"elicitation": {}}), None),
    )
    .await;
    first["result"]["requestState"].as_str().unwrap().to_owned()
}

fn accept_ada() -> Value {
    json!({"elicit-1": {"action": "accept", "content": {"name": "Ada"}}})
}

#[tokio::test]
async fn tampered_state_is_rejected() {
    let server = server();
    let caller = Caller::default();
    let caps = json!({"elicitation": {}});
    let state = first_state(&server, &caller, json!({})).await;
    let mut tampered = vec![
        format!("{state}x"),
        state[..state.len() - 1].to_owned(),
        String::new(),
        "v1.eyJtIjoidG9vbHMvY2FsbCJ9.AAAA".to_owned(),
    ];
    // Flip one character in the payload and one in the tag.
    for at in [5, state.len() - 3] {
        let mut bytes = state.clone().into_bytes();
        bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
        tampered.push(String::from_utf8(bytes).unwrap());
    }
    for (i, bad) in tampered.iter().enumerate() {
        let reply = send(
            &server,
            &caller,
            &call(
                2 + i as u64,
                "greet",
                json!({}),
                &caps,
                Some((&accept_ada(), bad)),
            ),
        )
        .await;
        let (code, message) = error(&reply);
        assert_eq!(code, -32602, "{bad}");
        assert!(
            message.contains("requestState rejected: it failed verification"),
            "{message}"
        );
    }
    // A state from another server (another key) is tampered state too.
    let other = server_with(&ManualClock::default());
    let reply = send(
        &other,
        &caller,
        &call(9, "greet", json!({}), &caps, Some((&accept_ada(), &state))),
    )
    .await;
    assert_eq!(error(&reply).0, -32602);
    // The untouched state still works.
    let ok = send(
        &server,
        &caller,
        &call(10, "greet", json!({}), &caps, Some((&accept_ada(), &state))),
    )
    .await;
    assert_eq!(text(&ok), "Hello, Ada!");
}

#[tokio::test]
async fn expired_state_is_rejected() {
    let clock = ManualClock::default();
    let server = server_with(&clock);
    let caller = Caller::default();
    let caps = json!({"elicitation": {}});
    let state = first_state(&server, &caller, json!({})).await;
    clock.advance(60_000);
    let ok = send(
        &server,
        &caller,
        &call(2, "greet", json!({}), &caps, Some((&accept_ada(), &state))),
    )
    .await;
    assert_eq!(text(&ok), "Hello, Ada!", "valid until its expiry");
    clock.advance(1);
    let reply = send(
        &server,
        &caller,
        &call(3, "greet", json!({}), &caps, Some((&accept_ada(), &state))),
    )
    .await;
    let (code, message) = error(&reply);
    assert_eq!(code, -32602);
    assert!(
        message.contains("requestState rejected: it expired 1 ms ago"),
        "{message}"
    );
}

#[tokio::test]
async fn foreign_state_is_rejected() {
    let server = server();
    let caps = json!({"elicitation": {}});
    let alice = Caller::new(Identity::principal("alice").with_tenant("acme"));
    let state = first_state(&server, &alice, json!({"greeting": "Hi"})).await;
    let cases: [(&Caller, &str, Value, &str); 4] = [
        (
            &alice,
            "greet",
            json!({"greeting": "Yo"}),
            "minted for other arguments",
        ),
        (
            &alice,
            "signup",
            json!({"greeting": "Hi"}),
            "minted for `greet`, not `signup`",
        ),
        (
            &Caller::new(Identity::principal("bob").with_tenant("acme")),
            "greet",
            json!({"greeting": "Hi"}),
            "another principal",
        ),
        (
            &Caller::new(Identity::principal("alice").with_tenant("other")),
            "greet",
            json!({"greeting": "Hi"}),
            "another principal or tenant",
        ),
    ];
    for (caller, tool, args, why) in cases {
        let reply = send(
            &server,
            caller,
            &call(2, tool, args, &caps, Some((&accept_ada(), &state))),
        )
        .await;
        let (code, message) = error(&reply);
        assert_eq!(code, -32602, "{why}");
        assert!(message.contains(why), "{message}");
    }
    let ok = send(
        &server,
        &alice,
        &call(
            3,
            "greet",
            json!({"greeting": "Hi"}),
            &caps,
            Some((&accept_ada(), &state)),
        ),
    )
    .await;
    assert_eq!(text(&ok), "Hi, Ada!");
}

#[tokio::test]
async fn state_shape_errors_are_invalid_params() {
    let server = server();
    let caps = json!({"elicitation": {}});
    let caller = Caller::default();
    let mut request: Value =
        serde_json::from_str(&call(1, "greet", json!({}), &caps, None)).unwrap();
    request["params"]["requestState"] = json!(42);
    let reply = send(&server, &caller, &request.to_string()).await;
    assert_eq!(
        error(&reply),
        (
            -32602,
            "Invalid params: requestState must be the string the server sent, got integer"
        )
    );
    request["params"]["requestState"] = json!("x");
    request["params"]["inputResponses"] = json!([]);
    let reply = send(&server, &caller, &request.to_string()).await;
    assert!(error(&reply).1.contains("inputResponses must be an object"));
    request["params"]
        .as_object_mut()
        .unwrap()
        .remove("requestState");
    // Without a state (a first round) the answers are offered to that round's questions: a key
    // it asks is answered; a key it does not ask is ignored, and the question is asked (spec §8:
    // re-request, not an error; conformance input-required-result-missing-input-response).
    request["params"]["inputResponses"] = accept_ada();
    let reply = send(&server, &caller, &request.to_string()).await;
    assert_eq!(text(&reply), "Hello, Ada!");
    request["params"]["inputResponses"] =
        json!({"wrong_key": {"action": "accept", "content": {"name": "Eve"}}});
    let reply = send(&server, &caller, &request.to_string()).await;
    assert_eq!(reply["result"]["resultType"], "input_required", "{reply:#}");
    assert!(
        reply["result"]["inputRequests"].get("elicit-1").is_some(),
        "{reply:#}"
    );
}

/// The test-side counterpart: a run's answers come only from its own context, so a state
/// cannot leak between contexts; and a question asked outside any boundary is a clear error,
/// never a hang.
#[tokio::test]
async fn run_tool_answers_only_from_its_own_context() {
    let answered = Context::builder()
        .elicitation()
        .answer("elicit-1", answer::accept(json!({"name": "Ada"})))
        .build();
    let other = Context::builder().elicitation().build();
    let (a, b) = tokio::join!(
        run_tool::<Greet>(&answered, json!({})),
        run_tool::<Greet>(&other, json!({}))
    );
    assert_eq!(one_text(&a.unwrap().complete().unwrap()), "Hello, Ada!");
    assert!(b.unwrap().input_required().is_some());

    let err = Greet {
        greeting: "Hi".into(),
    }
    .call(&other)
    .await
    .unwrap_err();
    let err = err.protocol_error().unwrap();
    assert_eq!(err.code, -32603);
    assert!(
        err.message.contains("not inside a round boundary"),
        "{}",
        err.message
    );
}

// ---------------------------------------------------------------------------------------------
// Missing capabilities: fallback and -32021.
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn missing_capability_over_the_wire() {
    let server = server();
    let caller = Caller::default();
    // Fallback: nothing is asked.
    let reply = send(
        &server,
        &caller,
        &call(1, "greet", json!({}), &json!({}), None),
    )
    .await;
    assert_eq!(text(&reply), "Hello! (this client cannot answer questions)");
    // Only sampling declared: no elicitation entry (conformance `capability-check`).
    let reply = send(
        &server,
        &caller,
        &call(2, "greet", json!({}), &json!({"sampling": {}}), None),
    )
    .await;
    assert_eq!(reply["result"]["resultType"], "complete");
    // URL mode needs elicitation.url; form alone falls back.
    let reply = send(
        &server,
        &caller,
        &call(3, "login", json!({}), &json!({"elicitation": {}}), None),
    )
    .await;
    assert_eq!(text(&reply), "this client cannot open URLs: use a token");
    let reply = send(
        &server,
        &caller,
        &call(
            4,
            "login",
            json!({}),
            &json!({"elicitation": {"url": {}}}),
            None,
        ),
    )
    .await;
    assert_eq!(
        reply["result"]["inputRequests"]["elicit-1"]["params"]["mode"],
        "url"
    );
    assert_eq!(
        reply["result"]["inputRequests"]["elicit-1"]["params"]["url"],
        "https://example.com/login"
    );

    // Required: -32021 with data.requiredCapabilities as an object.
    let reply = send(
        &server,
        &caller,
        &call(
            5,
            "needs_sampling",
            json!({}),
            &json!({"elicitation": {}}),
            None,
        ),
    )
    .await;
    assert_eq!(reply["error"]["code"], -32021);
    assert_eq!(
        reply["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    assert_valid("JSONRPCErrorResponse", &reply);
    let reply = send(
        &server,
        &caller,
        &call(6, "pair", json!({}), &json!({}), None),
    )
    .await;
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}})
    );
    let reply = send(
        &server,
        &caller,
        &call(7, "survey", json!({}), &json!({"elicitation": {}}), None),
    )
    .await;
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}, "roots": {}})
    );
    assert_eq!(
        reply["error"]["message"],
        "Server requires the sampling and roots capability for this request"
    );
}

#[tokio::test]
async fn missing_capability_through_run_tool() {
    let plain = Context::builder().build();
    let done = run_tool::<Greet>(&plain, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(
        one_text(&done),
        "Hello! (this client cannot answer questions)"
    );
    // Even a scripted answer is not used when the capability is missing.
    let scripted = Context::builder()
        .answer("elicit-1", answer::accept(json!({"name": "Ada"})))
        .build();
    let done = run_tool::<Greet>(&scripted, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(
        one_text(&done),
        "Hello! (this client cannot answer questions)"
    );
    let form_only = Context::builder().elicitation().build();
    let done = run_tool::<Login>(&form_only, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(one_text(&done), "this client cannot open URLs: use a token");

    let err = run_tool::<NeedsSampling>(&form_only, json!({}))
        .await
        .unwrap_err();
    let err = err.protocol_error().unwrap();
    assert_eq!(err.code, -32021);
    assert_eq!(
        err.data,
        Some(json!({"requiredCapabilities": {"sampling": {}}}))
    );
    let err = run_tool::<Survey>(&form_only, json!({})).await.unwrap_err();
    assert_eq!(
        err.protocol_error().unwrap().data,
        Some(json!({"requiredCapabilities": {"sampling": {}, "roots": {}}}))
    );
}

// ---------------------------------------------------------------------------------------------
// Missing, extra and malformed answers.
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn missing_extra_and_malformed_answers_over_the_wire() {
    let server = server();
    let caller = Caller::default();
    let caps = json!({"elicitation": {}});
    let first = send(&server, &caller, &call(1, "pair", json!({}), &caps, None)).await;
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();

    // Missing: only elicit-1 answered (and elicit-2 under a wrong key) → asked again for elicit-2.
    let partial = json!({"elicit-1": {"action": "accept", "content": {"word": "a"}},
                         "elicit_2": {"action": "accept", "content": {"word": "b"}}});
    let second = send(
        &server,
        &caller,
        &call(2, "pair", json!({}), &caps, Some((&partial, &state))),
    )
    .await;
    assert_eq!(second["result"]["resultType"], "input_required");
    assert_eq!(keys(&second["result"]["inputRequests"]), ["elicit-2"]);
    let state2 = second["result"]["requestState"].as_str().unwrap();
    // Round 3 answers only elicit-2: elicit-1's answer travels in the state.
    let rest = json!({"elicit-2": {"action": "accept", "content": {"word": "b"}},
                      "extra": {"action": "accept", "content": {"word": "ignored"}},
                      "elicit-1": {"action": "accept", "content": {"word": "not-a-re-answer"}}});
    let done = send(
        &server,
        &caller,
        &call(3, "pair", json!({}), &caps, Some((&rest, state2))),
    )
    .await;
    assert_eq!(text(&done), "a b");

    // Extra keys are ignored.
    let extra = json!({"elicit-1": {"action": "accept", "content": {"word": "x"}},
                       "elicit-2": {"action": "decline"},
                       "unknown": 42});
    let done = send(
        &server,
        &caller,
        &call(4, "pair", json!({}), &caps, Some((&extra, &state))),
    )
    .await;
    assert_eq!(text(&done), "x -");

    // Malformed values: -32602 naming the key and what is wrong.
    let malformed = [
        (
            json!(42),
            "inputResponses[\"elicit-1\"]: expected an ElicitResult object {action, content?}, got integer",
        ),
        (json!(null), "got null"),
        (
            json!({"action": "maybe"}),
            "action must be \"accept\", \"decline\" or \"cancel\", got \"maybe\"",
        ),
        (json!({"roots": []}), "missing action"),
        (
            json!({"action": "accept", "content": {"word": 5}}),
            "/content/word",
        ),
        (
            json!({"action": "accept", "content": {}}),
            "/content/word: missing required property",
        ),
        (
            json!({"action": "accept", "content": "word"}),
            "content must be an object, got string",
        ),
    ];
    for (i, (bad, why)) in malformed.into_iter().enumerate() {
        let responses = json!({"elicit-1": bad, "elicit-2": {"action": "decline"}});
        let reply = send(
            &server,
            &caller,
            &call(
                10 + i as u64,
                "pair",
                json!({}),
                &caps,
                Some((&responses, &state)),
            ),
        )
        .await;
        let (code, message) = error(&reply);
        assert_eq!(code, -32602, "{responses}");
        assert!(
            message.starts_with("Invalid params: inputResponses[\"elicit-1\"]: "),
            "{message}"
        );
        assert!(message.contains(why), "{message} should contain {why}");
    }
}

#[tokio::test]
async fn missing_extra_and_malformed_answers_through_run_tool() {
    // Missing: a fresh question for what is missing.
    let ctx = Context::builder()
        .elicitation()
        .answer("elicit-1", answer::accept(json!({"word": "a"})))
        .build();
    let q = run_tool::<Pair>(&ctx, json!({}))
        .await
        .unwrap()
        .input_required()
        .unwrap();
    assert_eq!(q.keys().collect::<Vec<_>>(), ["elicit-2"]);
    // Extra: ignored.
    let ctx = Context::builder()
        .elicitation()
        .answer("elicit-1", answer::accept(json!({"word": "a"})))
        .answer("elicit-2", answer::accept(json!({"word": "b"})))
        .answer("bogus", json!("whatever"))
        .build();
    let done = run_tool::<Pair>(&ctx, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(one_text(&done), "a b");
    // Malformed: the -32602 error, even though the tool never looked at it (Greet swallows
    // nothing here, Pair propagates, Signup's typed form rejects a wrong enum value).
    let ctx = Context::builder()
        .elicitation()
        .answer("elicit-1", json!(7))
        .build();
    let err = run_tool::<Pair>(&ctx, json!({})).await.unwrap_err();
    let err = err.protocol_error().unwrap();
    assert_eq!(err.code, -32602);
    assert!(
        err.message.contains("inputResponses[\"elicit-1\"]"),
        "{}",
        err.message
    );
    let ctx = Context::builder()
        .elicitation()
        .answer("elicit-1", answer::accept(json!({"name": "Ada"})))
        .answer("elicit-2", answer::accept(json!({"plan": "gold"})))
        .build();
    let err = run_tool::<Signup>(&ctx, json!({})).await.unwrap_err();
    let message = &err.protocol_error().unwrap().message;
    assert!(
        message.contains("inputResponses[\"elicit-2\"]") && message.contains("/content/plan"),
        "{message}"
    );
    // Sampling and roots answers are checked too.
    let ctx = ctx_all()
        .answer("user_name", answer::accept(json!({"name": "Ada"})))
        .answer("sampling-1", json!({"role": "assistant", "model": "m"}))
        .answer("roots-1", json!({"roots": [{"name": "no uri"}]}))
        .build();
    let err = run_tool::<Survey>(&ctx, json!({})).await.unwrap_err();
    let message = &err.protocol_error().unwrap().message;
    assert!(
        message.contains("not a CreateMessageResult") || message.contains("/roots/0"),
        "{message}"
    );
}

// ---------------------------------------------------------------------------------------------
// 100 concurrent multi-round calls never mix.
// ---------------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_concurrent_multi_round_calls_over_the_wire_never_mix() {
    let server = server();
    let calls = (0..100).map(|i| {
        let server = server.clone();
        tokio::spawn(async move {
            let caller = Caller::new(Identity::principal(format!("user-{i}")));
            let plan = if i % 2 == 0 { "free" } else { "pro" };
            let (rounds, done) = drive_wire(
                &server,
                &caller,
                "signup",
                json!({}),
                &json!({"elicitation": {}}),
                |_, request| match request["params"]["message"].as_str().unwrap() {
                    "Who are you?" => answer::accept(json!({"name": format!("n{i}")})),
                    "Which plan?" => answer::accept(json!({"plan": plan})),
                    _ => answer::accept(json!({"confirm": true})),
                },
            )
            .await;
            (i, rounds.len(), text(&done).to_owned())
        })
    });
    let results = futures_util::future::join_all(calls).await;
    assert_eq!(results.len(), 100);
    for result in results {
        let (i, rounds, text) = result.unwrap();
        let (plan, expected_rounds) = if i % 2 == 0 { ("Free", 2) } else { ("Pro", 3) };
        assert_eq!(rounds, expected_rounds, "call {i}");
        assert_eq!(
            text,
            format!("n{i} signed up for {plan} in round {}", expected_rounds + 1)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_concurrent_driven_calls_never_mix() {
    let calls = (0..100).map(|i| {
        tokio::spawn(async move {
            let ctx = Context::builder().elicitation().build();
            let plan = if i % 2 == 0 { "free" } else { "pro" };
            let transcript = Driver::<Signup>::new(&ctx, json!({}))
                .answer("elicit-1", answer::accept(json!({"name": format!("n{i}")})))
                .answer("elicit-2", answer::accept(json!({"plan": plan})))
                .answer("elicit-3", answer::accept(json!({"confirm": true})))
                .run()
                .await
                .unwrap();
            (
                i,
                transcript.questions.len(),
                one_text(&transcript.result.unwrap()).to_owned(),
            )
        })
    });
    for result in futures_util::future::join_all(calls).await {
        let (i, rounds, text) = result.unwrap();
        let (plan, expected_rounds) = if i % 2 == 0 { ("Free", 2) } else { ("Pro", 3) };
        assert_eq!(rounds, expected_rounds, "call {i}");
        assert_eq!(
            text,
            format!("n{i} signed up for {plan} in round {}", expected_rounds + 1)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Scope and shape.
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn input_required_is_never_the_answer_to_tools_list() {
    let server = server();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": all_caps()}}});
    let reply: Value =
        serde_json::from_str(&server.handle_json(&list.to_string()).await.unwrap()).unwrap();
    assert_eq!(reply["result"]["resultType"], "complete");
    assert_eq!(
        mcp_test::rounds::INPUT_REQUIRED_METHODS,
        ["tools/call", "prompts/get", "resources/read"]
    );
}

#[test]
fn input_requests_serialize_as_the_wire_object() {
    let q: InputRequests = serde_json::from_value(json!({
        "a": {"method": "roots/list", "params": {}},
        "b": {"method": "elicitation/create", "params": {"mode": "url", "message": "m", "url": "https://x"}}
    }))
    .unwrap();
    assert_eq!(q.len(), 2);
    assert_eq!(q.get("b").unwrap().url(), Some("https://x"));
    assert_eq!(q.get("b").unwrap().mode(), Some("url"));
    assert_valid("InputRequests", &q.to_value());
}

#[test]
fn a_short_state_key_is_a_build_error() {
    let err = Server::builder("s", "1")
        .tool::<Greet>()
        .request_state_key(vec![1; 16])
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the requestState key must be at least 32 bytes long, is 16"
    );
}

#[tokio::test]
async fn servers_sharing_a_key_accept_each_others_state() {
    let build = || {
        Server::builder("s", "1")
            .tool::<Greet>()
            .request_state_key(vec![9; 32])
            .build()
            .unwrap()
    };
    let (a, b) = (build(), build());
    let caller = Caller::default();
    let caps = json!({"elicitation": {}});
    let state = first_state(&a, &caller, json!({})).await;
    let done = send(
        &b,
        &caller,
        &call(2, "greet", json!({}), &caps, Some((&accept_ada(), &state))),
    )
    .await;
    assert_eq!(text(&done), "Hello, Ada!");
}

#[tokio::test]
async fn run_outcome_is_comparable() {
    let ctx = Context::builder().build();
    let outcome = run_tool::<Greet>(&ctx, json!({"greeting": 5})).await;
    let err = outcome.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Invalid arguments for tool greet:\n- /greeting:"),
        "{err}"
    );
    assert_eq!(RunOutcome::Complete(1).complete(), Some(1));
}

// ---------------------------------------------------------------------------------------------
// requestState through run_tool: a context with a server mints and checks state as the wire.
// ---------------------------------------------------------------------------------------------

fn accept_name(name: &str) -> Value {
    answer::accept(json!({"name": name}))
}

#[tokio::test]
async fn tampered_expired_and_foreign_state_through_run_tool() {
    let clock = ManualClock::default();
    let server = server_with(&clock);
    let alice = Identity::principal("alice").with_tenant("acme");
    let base = || {
        Context::builder()
            .server(server.clone())
            .elicitation()
            .identity(alice.clone())
    };
    let hi = json!({"greeting": "Hi"});
    let q = run_tool::<Greet>(&base().build(), hi.clone())
        .await
        .unwrap()
        .input_required()
        .unwrap();
    let state = q
        .request_state()
        .expect("a server-backed run mints a state")
        .to_owned();
    let retry = |builder: mcp_test::ContextBuilder, state: &str| {
        builder
            .request_state(state)
            .answer("elicit-1", accept_name("Ada"))
            .build()
    };
    let rejected = |result: Result<RunOutcome<CallToolResult>, ToolError>| {
        let err = result.unwrap_err();
        let err = err.protocol_error().expect("a protocol error").clone();
        assert_eq!(err.code, -32602, "{}", err.message);
        err.message
    };

    // The untouched state works, through run_tool and through the wire alike.
    let done = run_tool::<Greet>(&retry(base(), &state), hi.clone())
        .await
        .unwrap();
    assert_eq!(one_text(&done.complete().unwrap()), "Hi, Ada!");
    let wire = send(
        &server,
        &Caller::new(alice.clone()),
        &call(
            2,
            "greet",
            hi.clone(),
            &json!({"elicitation": {}}),
            Some((&accept_ada(), &state)),
        ),
    )
    .await;
    assert_eq!(text(&wire), "Hi, Ada!");

    // Tampered.
    let mut bytes = state.clone().into_bytes();
    bytes[7] = if bytes[7] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    let message = rejected(run_tool::<Greet>(&retry(base(), &tampered), hi.clone()).await);
    assert!(message.contains("failed verification"), "{message}");

    // Foreign: other arguments, another tool, another principal, another tenant.
    let message =
        rejected(run_tool::<Greet>(&retry(base(), &state), json!({"greeting": "Yo"})).await);
    assert!(message.contains("other arguments"), "{message}");
    let message = rejected(run_tool::<Login>(&retry(base(), &state), hi.clone()).await);
    assert!(
        message.contains("minted for `greet`, not `login`"),
        "{message}"
    );
    let bob = base().identity(Identity::principal("bob").with_tenant("acme"));
    let message = rejected(run_tool::<Greet>(&retry(bob, &state), hi.clone()).await);
    assert!(message.contains("another principal"), "{message}");
    let elsewhere = base().identity(Identity::principal("alice"));
    let message = rejected(run_tool::<Greet>(&retry(elsewhere, &state), hi.clone()).await);
    assert!(message.contains("another principal or tenant"), "{message}");

    // Expired, by the server's clock.
    clock.advance(60_001);
    let message = rejected(run_tool::<Greet>(&retry(base(), &state), hi.clone()).await);
    assert!(message.contains("expired 1 ms ago"), "{message}");

    // A state without the server that minted it cannot be checked.
    let orphan = Context::builder()
        .elicitation()
        .request_state(state.as_str())
        .answer("elicit-1", accept_name("Ada"))
        .build();
    let message = rejected(run_tool::<Greet>(&orphan, hi).await);
    assert!(
        message.contains("build the context with ContextBuilder::server"),
        "{message}"
    );
}

#[tokio::test]
async fn multi_round_state_through_run_tool_carries_earlier_answers() {
    let server = server();
    let base = || Context::builder().server(server.clone()).elicitation();
    let q = run_tool::<Pair>(&base().build(), json!({}))
        .await
        .unwrap()
        .input_required()
        .unwrap();
    assert_eq!(q.keys().collect::<Vec<_>>(), ["elicit-1", "elicit-2"]);
    // Answer only elicit-1 (plus a key nobody asked for): elicit-2 is asked again.
    let ctx = base()
        .request_state(q.request_state().unwrap())
        .answer("elicit-1", answer::accept(json!({"word": "a"})))
        .answer("nobody-asked", answer::decline())
        .build();
    let q = run_tool::<Pair>(&ctx, json!({}))
        .await
        .unwrap()
        .input_required()
        .unwrap();
    assert_eq!(q.keys().collect::<Vec<_>>(), ["elicit-2"]);
    // The last retry carries only elicit-2; elicit-1's answer travels in the state.
    let ctx = base()
        .request_state(q.request_state().unwrap())
        .answer("elicit-2", answer::accept(json!({"word": "b"})))
        .build();
    let done = run_tool::<Pair>(&ctx, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(one_text(&done), "a b");
    // A malformed answer on a state retry is -32602 as on the wire.
    let q = run_tool::<Pair>(&base().build(), json!({}))
        .await
        .unwrap()
        .input_required()
        .unwrap();
    let ctx = base()
        .request_state(q.request_state().unwrap())
        .answer("elicit-1", json!([]))
        .build();
    let err = run_tool::<Pair>(&ctx, json!({})).await.unwrap_err();
    assert!(
        err.protocol_error().unwrap().message.contains("got array"),
        "{err}"
    );
}

/// A form type that cannot be flat is a clear error, never a malformed question on the wire.
#[tokio::test]
async fn a_type_that_cannot_be_flat_is_a_clear_error() {
    #[derive(Deserialize, schemars::JsonSchema)]
    struct Address {
        #[allow(dead_code)]
        street: String,
    }
    #[derive(Deserialize, schemars::JsonSchema)]
    struct Nested {
        #[allow(dead_code)]
        address: Address,
    }
    struct AsksNested;
    impl Tool for AsksNested {
        const NAME: &'static str = "asks_nested";
        fn input_schema() -> Value {
            json!({"type": "object"})
        }
        fn parse(_: Value) -> Result<Self, ToolError> {
            Ok(AsksNested)
        }
        async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
            ctx.elicit_as::<Nested>("Where?").await?;
            Ok(CallToolResult::text("unreachable"))
        }
    }
    let ctx = Context::builder().elicitation().build();
    let err = run_tool::<AsksNested>(&ctx, json!({})).await.unwrap_err();
    let err = err.protocol_error().unwrap();
    assert_eq!(err.code, -32603);
    assert!(
        err.message
            .contains("Nested cannot be an elicitation form: field `address`"),
        "{}",
        err.message
    );
    let server = Server::builder("s", "1")
        .tool::<AsksNested>()
        .build()
        .unwrap();
    let reply = send(
        &server,
        &Caller::default(),
        &call(
            1,
            "asks_nested",
            json!({}),
            &json!({"elicitation": {}}),
            None,
        ),
    )
    .await;
    assert_eq!(reply["error"]["code"], -32603);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("field `address`")
    );
}

#[tokio::test]
async fn url_mode_consent_over_the_wire_and_through_run_tool() {
    let server = server();
    let caps = json!({"elicitation": {"url": {}}});
    let (rounds, done) = drive_wire(
        &server,
        &Caller::default(),
        "login",
        json!({}),
        &caps,
        |_, _| answer::consent(),
    )
    .await;
    assert_eq!(
        rounds[0]["elicit-1"],
        json!({"method": "elicitation/create", "params": {
            "mode": "url", "message": "Sign in to continue", "url": "https://example.com/login"}})
    );
    assert_eq!(text(&done), "signed in");

    let ctx = Context::builder()
        .elicitation_url()
        .answer("elicit-1", answer::decline())
        .build();
    let done = run_tool::<Login>(&ctx, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(one_text(&done), "sign-in refused");
    let ctx = Context::builder()
        .elicitation_url()
        .answer("elicit-1", answer::consent())
        .build();
    let done = run_tool::<Login>(&ctx, json!({}))
        .await
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(one_text(&done), "signed in");
}
