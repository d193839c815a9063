//! The rules engine, `verify` and `assert_schema_cases!`, used as a downstream crate would.

use mcp_test::cases::{
    Case, CaseOptions, Era, Expectation, Happened, derive_cases, derive_for_tools,
    every_client_capability, verify,
};
use mcp_test::spec::clauses::{self, Level};
use mcp_test::target::{Connection, Exchange, Target, TargetFuture};
use mcp_test::{Caller, Context, Server, Tool, ToolError, assert_schema_cases};
use mcp_test_check::{CheckOptions, CheckReport, Severity, ToolClass, check, example_server};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Mutex;

fn tools_of(server: &Server) -> Vec<Value> {
    server
        .tool_definitions()
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect()
}

/// Checks every case against the schema with `jsonschema` directly, not through the engine.
fn assert_predictions_match_schema(schema: &Value, cases: &[Case]) {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap();
    for case in cases {
        let valid = validator.is_valid(&case.args);
        match case.expectation {
            Expectation::Success => assert!(valid, "success case is invalid: {case:#?}"),
            Expectation::Error => assert!(!valid, "error case is valid: {case:#?}"),
            Expectation::Observe => {}
        }
    }
}

fn every_keyword() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 2, "maxLength": 8},
            "code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{2}$"},
            "kind": {"enum": ["a", "b"]},
            "version": {"const": 2},
            "email": {"type": "string", "format": "email"},
            "count": {"type": "integer", "minimum": 1, "maximum": 9},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "tags": {"type": "array", "items": {"type": "string"},
                     "minItems": 1, "maxItems": 3, "uniqueItems": true},
            "owner": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer", "minimum": 0},
                    "roles": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"role": {"type": "string", "enum": ["admin", "user"]}},
                        "required": ["role"],
                        "additionalProperties": false
                    }}
                },
                "required": ["id"],
                "additionalProperties": false
            }
        },
        "required": ["name", "code", "count"],
        "additionalProperties": false
    })
}

#[test]
fn every_rule_of_the_table_fires_and_every_prediction_matches_the_schema() {
    let schema = every_keyword();
    let cases = derive_cases("everything", &schema, &CaseOptions::default()).unwrap();
    let sources: HashSet<&str> = cases.iter().map(|c| c.source.as_str()).collect();
    for rule in [
        "rule:base",
        "rule:required",
        "rule:enum",
        "rule:min-length",
        "rule:max-length",
        "rule:pattern",
        "rule:bounds",
        "rule:type",
        "rule:min-items",
        "rule:max-items",
        "rule:unique-items",
        "rule:additional-properties",
        "rule:const",
        "rule:format",
    ] {
        assert!(sources.contains(rule), "{rule} missing from {sources:?}");
    }
    assert_predictions_match_schema(&schema, &cases);
    // Exact boundaries succeed.
    let titles: Vec<&str> = cases.iter().map(|c| c.title.as_str()).collect();
    for t in [
        "accepts `/name` of exactly minLength 2",
        "accepts `/name` of exactly maxLength 8",
        "accepts `/count` at exactly minimum 1",
        "accepts `/count` at exactly maximum 9",
        "accepts `/tags` with exactly maxItems 3",
    ] {
        let case = cases
            .iter()
            .find(|c| c.title == t)
            .unwrap_or_else(|| panic!("{t} in {titles:#?}"));
        assert_eq!(case.expectation, Expectation::Success);
    }
    let just_over = cases
        .iter()
        .find(|c| c.title == "rejects `/count` just over maximum 9")
        .unwrap();
    assert_eq!(just_over.args["count"], 10);
    let exclusive = cases
        .iter()
        .find(|c| c.title == "rejects `/ratio` equal to exclusiveMinimum 0")
        .unwrap();
    assert_eq!(exclusive.args["ratio"].as_f64(), Some(0.0));
}

#[test]
fn the_rules_recurse_into_nested_objects_and_arrays() {
    let cases = derive_cases("everything", &every_keyword(), &CaseOptions::default()).unwrap();
    let find = |title: &str| {
        cases
            .iter()
            .find(|c| c.title == title)
            .unwrap_or_else(|| panic!("no case {title:?}"))
    };
    let missing = find("rejects a missing `/owner/roles/0/role`");
    assert_eq!(missing.expectation, Expectation::Error);
    assert_eq!(missing.args["owner"]["roles"][0], json!({}));
    let outside = find("rejects `/owner/roles/0/role` outside its enum");
    assert_eq!(outside.args["owner"]["roles"][0]["role"], "not_a_member");
    find("rejects an unknown property `/owner/unexpected_property`");
    find("rejects `/owner/id` just under minimum 0");
    find("rejects `/tags/0` of the wrong type");
}

#[test]
fn cases_are_unique_deterministic_and_plain_data() {
    let schema = every_keyword();
    let a = derive_cases("t", &schema, &CaseOptions::default()).unwrap();
    let b = derive_cases("t", &schema, &CaseOptions::default()).unwrap();
    assert_eq!(a, b);
    let mut seen = HashSet::new();
    for c in &a {
        assert!(
            seen.insert((c.args.to_string(), c.expectation)),
            "duplicate {c:#?}"
        );
    }
    let titles: HashSet<&str> = a.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles.len(), a.len(), "titles are unique per tool");
    // Serde round trip, with the documented field names.
    let json = serde_json::to_value(&a[0]).unwrap();
    assert_eq!(json["expectation"], "success");
    assert_eq!(json["source"], "rule:base");
    let back: Case = serde_json::from_value(json).unwrap();
    assert_eq!(back, a[0]);
    // Without edge cases: the base case only.
    let only_base = derive_cases("t", &schema, &CaseOptions::default().edge_cases(false)).unwrap();
    assert_eq!(only_base.len(), 1);
    assert_eq!(only_base[0].expectation, Expectation::Success);
}

#[test]
fn a_pattern_sample_matches_and_a_violation_misses() {
    let schema = json!({"type": "object", "properties": {
        "sku": {"type": "string", "pattern": "^[a-f0-9]{8}-(x|y)$"}}, "required": ["sku"]});
    let cases = derive_cases("p", &schema, &CaseOptions::default()).unwrap();
    let re = regex_lite_match("^[a-f0-9]{8}-(x|y)$");
    assert!(
        re(cases[0].args["sku"].as_str().unwrap()),
        "{:?}",
        cases[0].args
    );
    let bad = cases.iter().find(|c| c.source == "rule:pattern").unwrap();
    assert!(!re(bad.args["sku"].as_str().unwrap()), "{:?}", bad.args);
}

/// A pattern matcher through jsonschema (the dialect the server uses).
fn regex_lite_match(pattern: &str) -> impl Fn(&str) -> bool {
    let v = jsonschema::validator_for(&json!({"pattern": pattern})).unwrap();
    move |s| v.is_valid(&json!(s))
}

/// Manages tickets.
#[derive(Tool)]
#[tool(name = "tickets")]
enum Tickets {
    /// Opens a ticket.
    Open {
        #[tool(min_length = 3, max_length = 60)]
        title: String,
        #[tool(minimum = 1, maximum = 5)]
        priority: u8,
    },
    /// Closes a ticket.
    Close {
        #[tool(pattern = "^T-[0-9]{1,5}$")]
        id: String,
    },
    /// Counts tickets.
    Count,
}

impl Tickets {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(match self {
            Tickets::Open { title, priority } => format!("opened {title} at {priority}"),
            Tickets::Close { id } => format!("closed {id}"),
            Tickets::Count => "0".into(),
        })
    }
}

#[tokio::test]
async fn every_action_of_an_action_tool_gets_its_cases() {
    let server = Server::builder("tickets", "1.0.0")
        .tool::<Tickets>()
        .build()
        .unwrap();
    let tools = tools_of(&server);
    let (cases, problems) = derive_for_tools(&tools, &CaseOptions::default());
    assert!(problems.is_empty(), "{problems:?}");
    for action in ["open", "close", "count"] {
        let base = cases
            .iter()
            .find(|c| c.title == format!("{action}: accepts valid arguments"))
            .unwrap_or_else(|| panic!("no base case for {action}"));
        assert_eq!(base.args["action"], action);
    }
    let titles: Vec<&str> = cases.iter().map(|c| c.title.as_str()).collect();
    for t in [
        "open: rejects `/data/priority` just over maximum 5",
        "open: rejects `/data/title` one character under minLength 3",
        "close: rejects `/data/id` not matching its pattern",
        "rejects an unknown action",
    ] {
        assert!(titles.contains(&t), "{t} missing from {titles:#?}");
    }
    assert_predictions_match_schema(&tools[0]["inputSchema"], &cases);
    let report = assert_schema_cases!(server);
    assert_eq!(report.outcomes.len(), cases.len());
}

#[tokio::test]
async fn the_bundled_example_server_passes_every_case() {
    let server = example_server();
    let report = assert_schema_cases!(server);
    assert!(report.outcomes.len() > 50, "{}", report.outcomes.len());
    let quick = assert_schema_cases!(example_server(), edge_cases = false);
    assert_eq!(quick.outcomes.len(), 4, "one per plain tool and per action");
}

/// A server that forgot all validation: it answers every call with success.
struct Permissive(Server);

impl Target for Permissive {
    fn label(&self) -> String {
        "permissive".into()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        if message["method"] == "tools/call" {
            let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                "resultType": "complete", "content": [{"type": "text", "text": "ok"}]}});
            return Box::pin(async move {
                Ok(Exchange {
                    response: Some(reply),
                    ..Exchange::default()
                })
            });
        }
        self.0.send(message, caller)
    }
}

#[tokio::test]
async fn verify_reports_predicted_and_happened_for_each_disagreement() {
    let server = Server::builder("tickets", "1.0.0")
        .tool::<Tickets>()
        .build()
        .unwrap();
    let (cases, _) = derive_for_tools(&tools_of(&server), &CaseOptions::default());
    let report = verify(&Permissive(server), &cases).await;
    let bad: Vec<_> = report.disagreements().collect();
    let errors = cases
        .iter()
        .filter(|c| c.expectation == Expectation::Error)
        .count();
    assert_eq!(bad.len(), errors, "every error case disagrees");
    let text = report.to_string();
    assert!(
        text.starts_with(&format!(
            "{errors} of {} schema-derived cases disagree",
            cases.len()
        )),
        "{text}"
    );
    assert!(text.contains("- tickets › open: rejects `/data/priority` just over maximum 5 [rule:bounds]\n  predicted: error\n  happened:  success (\"ok\")"), "{text}");
}

#[tokio::test]
#[should_panic(expected = "assert_schema_cases! failed for permissive")]
async fn assert_schema_cases_fails_with_the_report() {
    let server = Server::builder("tickets", "1.0.0")
        .tool::<Tickets>()
        .build()
        .unwrap();
    assert_schema_cases!(Permissive(server));
}

#[test]
fn an_unsatisfiable_schema_is_a_clear_problem() {
    let tools = vec![
        json!({"name": "ok", "inputSchema": {"type": "object"}}),
        json!({"name": "impossible", "inputSchema": {"type": "object",
            "properties": {"x": {"type": "string", "minLength": 5, "maxLength": 2}},
            "required": ["x"]}}),
        json!({"name": "broken", "inputSchema": {"type": "object", "properties": {"x": {"type": 7}}}}),
    ];
    let (cases, problems) = derive_for_tools(&tools, &CaseOptions::default());
    assert!(cases.iter().all(|c| c.tool == "ok"));
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 2, "{text:#?}");
    assert!(
        text[0].starts_with("tool \"impossible\": no valid arguments could be derived"),
        "{}",
        text[0]
    );
    assert!(text[0].contains("/x"), "{}", text[0]);
    assert!(
        text[1].starts_with("tool \"broken\": the input schema does not compile"),
        "{}",
        text[1]
    );
}

/// Books a table, asking who for through a form.
#[derive(Tool)]
#[tool(name = "book_table")]
struct BookTable {
    #[tool(minimum = 1, maximum = 12)]
    seats: u8,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Guest {
    /// The guest's name.
    name: String,
}

impl BookTable {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let form = ctx
            .elicit_as::<Guest>("Who is the table for?")
            .key("guest")
            .await?;
        let name = form.accepted().map_or("nobody".to_owned(), |g| g.name);
        Ok(format!("{} seats for {name:?}", self.seats))
    }
}

fn booking_server() -> Server {
    Server::builder("bookings", "1.0.0")
        .tool::<BookTable>()
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_tool_that_asks_passes_its_cases_with_and_without_client_capabilities() {
    // Without capabilities every valid case is -32021 naming elicitation: never a
    // disagreement.
    let report = assert_schema_cases!(booking_server());
    let needs = report
        .outcomes
        .iter()
        .filter(|o| matches!(o.happened, Happened::NeedsCapabilities { .. }))
        .count();
    let valid = report
        .outcomes
        .iter()
        .filter(|o| o.case.expectation == Expectation::Success)
        .count();
    assert_eq!(needs, valid, "{:#?}", report.outcomes);
    let base = &report.outcomes[0];
    assert_eq!(
        base.happened,
        Happened::NeedsCapabilities {
            required: json!({"elicitation": {}})
        }
    );

    // With them, every round is answered with a synthesized form until the call completes.
    let report = assert_schema_cases!(
        booking_server(),
        client_capabilities = every_client_capability(),
    );
    for o in report
        .outcomes
        .iter()
        .filter(|o| o.case.expectation == Expectation::Success)
    {
        match &o.happened {
            Happened::Success { text } => assert!(text.contains("seats for"), "{text}"),
            other => panic!("{}: {other}", o.case.title),
        }
    }
}

/// The in-process server, recording every message sent to it.
struct Recorded {
    server: Server,
    sent: Mutex<Vec<Value>>,
}

impl Target for Recorded {
    fn label(&self) -> String {
        self.server.label()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        self.sent.lock().unwrap().push(message.clone());
        self.server.send(message, caller)
    }
}

/// `book_table` has no annotations: potentially destructive by the spec's defaults, so it is
/// called only when allowed.
fn calling_every_tool() -> CheckOptions {
    CheckOptions::default().allow_destructive(true)
}

fn probe<'a>(report: &'a CheckReport, name: &str) -> &'a mcp_test_check::Probe {
    report
        .probes
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no probe {name}: {}", report.to_text()))
}

#[tokio::test]
async fn check_drives_a_tool_that_asks_and_finds_nothing_wrong() {
    let target = Recorded {
        server: booking_server(),
        sent: Mutex::new(Vec::new()),
    };
    let report = check(&target, &calling_every_tool()).await;
    assert_eq!(report.findings().count(), 0, "{}", report.to_text());
    assert!(probe(&report, "multi-round/discipline").passed());
    assert!(probe(&report, "multi-round/driven").passed());
    let sent = target.sent.lock().unwrap();
    // The schema cases declare nothing; the driven call declares everything and answers.
    let capabilities =
        |m: &Value| m["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"].clone();
    let driven: Vec<&Value> = sent
        .iter()
        .filter(|m| m["method"] == "tools/call" && capabilities(m) == every_client_capability())
        .collect();
    assert!(
        driven
            .iter()
            .any(|m| m["params"]["inputResponses"]["guest"]["action"] == "accept"),
        "{driven:#?}"
    );
    // ...and a retry with a tampered requestState, which the server refused.
    assert!(
        driven.iter().any(|m| m["params"]["requestState"]
            .as_str()
            .is_some_and(|s| s.ends_with("tampered"))),
        "{driven:#?}"
    );
}

/// A server that asks for elicitation even when the request declared no capability (it
/// should answer -32021), or whose last round fails with an internal error.
struct Pushy {
    server: Server,
    internal_error_at_the_end: bool,
}

impl Target for Pushy {
    fn label(&self) -> String {
        "pushy".into()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let mut exchange = self.server.send(message, caller).await?;
            let Some(response) = exchange.response.as_mut() else {
                return Ok(exchange);
            };
            if response["error"]["code"] == -32021 {
                *response = json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                    "resultType": "input_required",
                    "inputRequests": {"guest": {"method": "elicitation/create", "params": {
                        "mode": "form", "message": "Who is the table for?",
                        "requestedSchema": {"type": "object",
                            "properties": {"name": {"type": "string"}}, "required": ["name"]}}}}}});
            } else if self.internal_error_at_the_end
                && message["params"].get("inputResponses").is_some()
                && response["result"]["resultType"] == "complete"
            {
                *response = json!({"jsonrpc": "2.0", "id": message["id"],
                    "error": {"code": -32603, "message": "boom"}});
            }
            Ok(exchange)
        })
    }
}

#[tokio::test]
async fn asking_for_an_undeclared_capability_is_a_defect() {
    let pushy = Pushy {
        server: booking_server(),
        internal_error_at_the_end: false,
    };
    let report = check(&pushy, &calling_every_tool()).await;
    assert!(report.has_defects(), "{}", report.to_text());
    let discipline = probe(&report, "multi-round/discipline");
    assert!(!discipline.passed());
    assert!(
        discipline
            .findings
            .iter()
            .all(|f| f.severity == Severity::Defect
                && f.message
                    .contains("asks for a capability the client did not declare")),
        "{:#?}",
        discipline.findings
    );
    // Every case of the tool asks the same question: one finding, with the count.
    assert_eq!(discipline.findings.len(), 1, "{:#?}", discipline.findings);
    let finding = &discipline.findings[0];
    assert!(
        finding
            .message
            .starts_with("book_table › accepts valid arguments (and in ")
            && finding
                .message
                .contains("more cases): input request \"guest\" (elicitation/create)"),
        "{finding:#?}"
    );
    assert_eq!(
        finding.clause.map(|c| c.id),
        Some("mrtr/declared-capabilities-only")
    );
    assert_eq!(
        finding.request.as_ref().map(|r| r.method.as_str()),
        Some("tools/call")
    );
    // Driven with every capability, the server itself behaves.
    assert!(
        probe(&report, "multi-round/driven").passed(),
        "{}",
        report.to_text()
    );
}

#[tokio::test]
async fn a_driven_call_that_ends_in_an_internal_error_is_noted_not_called_wrong() {
    // Every answer was schema-valid, yet the call ends in -32603: likely a bug, but no clause
    // of the spec forbids an internal error, so it is an info note with no clause.
    let pushy = Pushy {
        server: booking_server(),
        internal_error_at_the_end: true,
    };
    let report = check(&pushy, &calling_every_tool()).await;
    let driven = probe(&report, "multi-round/driven");
    assert!(
        driven.findings.iter().any(|f| f.severity == Severity::Info
            && f.clause.is_none()
            && f.message
                .contains("ended in an internal error after 2 rounds")),
        "{}",
        report.to_text()
    );
}

/// The in-process server in an era of the test's choosing, with the capabilities it kept from
/// the handshake, and every response rewritten by `rewrite(request, response)`.
struct Rewritten {
    server: Server,
    era: Option<Era>,
    capabilities: Option<Value>,
    /// The `protocolVersion` a 2025-era server chose.
    version: Option<&'static str>,
    rewrite: fn(&Value, &mut Value),
    sent: Mutex<Vec<Value>>,
}

impl Rewritten {
    fn new(server: Server, rewrite: fn(&Value, &mut Value)) -> Self {
        Rewritten {
            server,
            era: None,
            capabilities: None,
            version: None,
            rewrite,
            sent: Mutex::new(Vec::new()),
        }
    }

    fn sent(&self, method: &str) -> Vec<Value> {
        let sent = self.sent.lock().unwrap();
        sent.iter()
            .filter(|m| m["method"] == method)
            .cloned()
            .collect()
    }
}

impl Target for Rewritten {
    fn label(&self) -> String {
        "rewritten".into()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            self.sent.lock().unwrap().push(message.clone());
            let mut exchange = self.server.send(message, caller).await?;
            if let Some(response) = exchange.response.as_mut() {
                (self.rewrite)(message, response);
            }
            Ok(exchange)
        })
    }
    fn connection(&self) -> Connection {
        let mut connection = Connection::new();
        connection.era = self.era;
        connection.capabilities = self.capabilities.clone();
        connection.protocol_version = self.version.map(str::to_owned);
        connection
    }
}

fn no_rewrite(_: &Value, _: &mut Value) {}

/// What a 2025-era server must do that the 2026-07-28 runtime does not: answer `ping`.
fn answers_ping(request: &Value, response: &mut Value) {
    if request["method"] == "ping" {
        *response = json!({"jsonrpc": "2.0", "id": request["id"], "result": {}});
    }
}

/// Every tool of a `tools/list` result loses its required `inputSchema`.
fn no_input_schema(request: &Value, response: &mut Value) {
    if request["method"] == "tools/list"
        && let Some(tools) = response
            .pointer_mut("/result/tools")
            .and_then(Value::as_array_mut)
    {
        for tool in tools {
            tool.as_object_mut().unwrap().remove("inputSchema");
        }
    }
}

#[tokio::test]
async fn a_legacy_result_is_held_to_the_2025_11_25_schema() {
    let target = Rewritten {
        era: Some(Era::Legacy),
        capabilities: Some(json!({"tools": {}})),
        version: Some("2025-11-25"),
        ..Rewritten::new(booking_server(), no_input_schema)
    };
    let report = check(&target, &CheckOptions::default()).await;
    let results = probe(&report, "results/shape-and-cache-hints");
    assert!(
        results
            .findings
            .iter()
            .any(|f| f.severity == Severity::Defect
                && f.clause.is_some_and(|c| c.id == "legacy/base/schema")
                && f.message
                    .contains("not a valid ListToolsResult (MCP 2025-11-25 schema)")),
        "{}",
        report.to_text()
    );
}

#[tokio::test]
async fn a_legacy_server_on_an_older_revision_is_held_to_no_schema() {
    // Only the 2025-11-25 schema is bundled: a server that chose 2025-03-26 is not held to it.
    let target = Rewritten {
        era: Some(Era::Legacy),
        capabilities: Some(json!({"tools": {}})),
        version: Some("2025-03-26"),
        ..Rewritten::new(booking_server(), no_input_schema)
    };
    let report = check(&target, &CheckOptions::default()).await;
    let results = probe(&report, "results/shape-and-cache-hints");
    assert!(results.passed(), "{}", report.to_text());
    assert!(
        results.findings[0]
            .message
            .contains("chose protocol revision 2025-03-26"),
        "{}",
        report.to_text()
    );
}

fn prompt_server() -> Server {
    Server::builder("prompts", "1.0.0")
        .tool::<BookTable>()
        .prompt(
            mcp_test::prompts::Prompt::new("greet")
                .argument(mcp_test::prompts::PromptArgument::new("name").required())
                .text("Hello"),
        )
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_legacy_server_is_probed_for_the_capabilities_its_initialize_result_declared() {
    // Tools only: no resources or prompts method is called beyond the -32601 check.
    let target = Rewritten {
        era: Some(Era::Legacy),
        capabilities: Some(json!({"tools": {}})),
        ..Rewritten::new(booking_server(), answers_ping)
    };
    let report = check(&target, &CheckOptions::default()).await;
    assert!(!report.has_defects(), "{}", report.to_text());
    assert!(probe(&report, "capabilities/resources").passed());
    assert!(probe(&report, "capabilities/prompts").passed());
    assert!(
        report
            .probes
            .iter()
            .filter(|p| p.name.starts_with("lists/resources") || p.name.starts_with("lists/prompts"))
            .all(|p| p.skipped.as_deref().is_some_and(|why| why.contains("offers no"))),
        "{}",
        report.to_text()
    );
    assert_eq!(target.sent("resources/list").len(), 1);
    assert!(target.sent("resources/read").is_empty());
    assert!(target.sent("prompts/get").is_empty());
}

#[tokio::test]
async fn an_undeclared_capability_that_lists_items_breaks_its_must_and_is_not_probed() {
    // The discover result drops `prompts`, but prompts/list still answers.
    fn hide_prompts(request: &Value, response: &mut Value) {
        // Only a discover result: the version probe's server/discover is refused (-32022).
        if request["method"] == "server/discover"
            && let Some(capabilities) = response
                .pointer_mut("/result/capabilities")
                .and_then(Value::as_object_mut)
        {
            capabilities.remove("prompts");
        }
    }
    let target = Rewritten::new(prompt_server(), hide_prompts);
    let report = check(&target, &CheckOptions::default()).await;
    let prompts = probe(&report, "capabilities/prompts");
    // server/prompts.mdx: "Servers that support prompts MUST declare the `prompts`
    // capability"; a non-empty prompts/list shows the server supports them.
    let clauses: Vec<(Severity, &str)> = prompts
        .findings
        .iter()
        .map(|f| (f.severity, f.clause.as_ref().map_or("", |c| c.id)))
        .collect();
    assert_eq!(
        clauses,
        [(Severity::Defect, "prompts/capability-declared")],
        "{}",
        report.to_text()
    );
    assert!(target.sent("prompts/get").is_empty());
}

#[tokio::test]
async fn prompt_errors_with_the_wrong_code_are_warnings_not_defects() {
    // server/prompts.mdx §Error Handling: unknown prompt and missing arguments SHOULD be -32602.
    fn internal(request: &Value, response: &mut Value) {
        if request["method"] == "prompts/get" && response.get("error").is_some() {
            *response = json!({"jsonrpc": "2.0", "id": request["id"],
                "error": {"code": -32603, "message": "boom"}});
        }
    }
    let target = Rewritten::new(prompt_server(), internal);
    let report = check(&target, &CheckOptions::default()).await;
    let prompts = probe(&report, "prompts/arguments");
    assert_eq!(prompts.findings.len(), 2, "{}", report.to_text());
    assert!(
        prompts
            .findings
            .iter()
            .all(|f| f.severity == Severity::Warning
                && f.clause
                    .is_some_and(|c| c.id == "prompts/errors" && c.level == Level::Should)),
        "{}",
        report.to_text()
    );
    assert!(!report.has_defects(), "{}", report.to_text());
}

#[tokio::test]
async fn initialize_answered_with_any_error_is_not_a_defect() {
    // basic/versioning.mdx §Backward Compatibility: the error is implementation-defined; it
    // SHOULD name the supported versions.
    fn bare_32022(request: &Value, response: &mut Value) {
        if request["method"] == "initialize" {
            *response = json!({"jsonrpc": "2.0", "id": request["id"],
                "error": {"code": -32022, "message": "Unsupported protocol version"}});
        }
    }
    fn named(request: &Value, response: &mut Value) {
        if request["method"] == "initialize" {
            *response = json!({"jsonrpc": "2.0", "id": request["id"],
                "error": {"code": -32022, "message": "Unsupported protocol version",
                          "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}});
        }
    }
    let report = check(
        &Rewritten::new(booking_server(), named),
        &CheckOptions::default(),
    )
    .await;
    assert_eq!(report.findings().count(), 0, "{}", report.to_text());
    let report = check(
        &Rewritten::new(booking_server(), bare_32022),
        &CheckOptions::default(),
    )
    .await;
    assert!(!report.has_defects(), "{}", report.to_text());
    let methods = probe(&report, "methods/initialize-on-a-modern-server");
    assert!(
        methods.findings.len() == 1
            && methods.findings[0].severity == Severity::Warning
            && methods.findings[0].clause == Some(clauses::INITIALIZE_NAMES_VERSIONS),
        "{}",
        report.to_text()
    );
}

#[tokio::test]
async fn tool_execution_errors_on_valid_arguments_are_one_info_per_tool() {
    // Every call that would succeed answers isError: true instead, a business-logic failure.
    fn fail_in_business(request: &Value, response: &mut Value) {
        if request["method"] == "tools/call" && response["result"]["resultType"] == "complete" {
            response["result"]["isError"] = json!(true);
            response["result"]
                .as_object_mut()
                .unwrap()
                .remove("structuredContent");
        }
    }
    let report = check(
        &Rewritten::new(example_server(), fail_in_business),
        &CheckOptions::default(),
    )
    .await;
    let cases = probe(&report, "tools/schema-cases");
    let tools: HashSet<&str> = report
        .cases
        .outcomes
        .iter()
        .filter(|o| matches!(o.happened, Happened::ToolError { .. }))
        .filter(|o| o.case.expectation == Expectation::Success)
        .map(|o| o.case.tool.as_str())
        .collect();
    assert!(!tools.is_empty(), "{}", report.to_text());
    assert_eq!(cases.findings.len(), tools.len(), "{}", report.to_text());
    assert!(
        cases
            .findings
            .iter()
            .all(|f| f.severity == Severity::Info && f.message.contains("isError: true")),
        "{}",
        report.to_text()
    );
    assert!(!report.has_defects(), "{}", report.to_text());
}

#[tokio::test]
async fn a_potentially_destructive_tool_is_called_only_when_allowed() {
    let target = Rewritten::new(booking_server(), no_rewrite);
    let report = check(&target, &CheckOptions::default()).await;
    assert!(
        target
            .sent("tools/call")
            .iter()
            .all(|m| m["params"]["name"] != "book_table")
    );
    let book = report
        .tools
        .iter()
        .find(|t| t.name == "book_table")
        .expect("every listed tool is in the report");
    assert_eq!(book.class, ToolClass::Destructive, "{}", report.to_text());
    assert!(!book.called);
    assert_eq!(
        book.allow_with.as_deref(),
        Some("--allow-destructive or --tool book_table")
    );
    assert!(
        report
            .to_text()
            .contains("book_table (destructive): not called: potentially destructive"),
        "{}",
        report.to_text()
    );
    let json = report.to_json();
    let listed = json["tools"].as_array().unwrap();
    let book = listed.iter().find(|t| t["name"] == "book_table").unwrap();
    assert_eq!(
        (&book["class"], &book["called"]),
        (&json!("destructive"), &json!(false))
    );
    assert!(
        report
            .to_junit()
            .contains("<skipped message=\"book_table (destructive): potentially destructive")
    );
    let allowed = CheckOptions::default().allow_tools(["book_table"]);
    let target = Rewritten::new(booking_server(), no_rewrite);
    let report = check(&target, &allowed).await;
    assert!(
        report.tools.iter().all(|t| t.called),
        "{}",
        report.to_text()
    );
    assert!(
        target
            .sent("tools/call")
            .iter()
            .any(|m| m["params"]["name"] == "book_table")
    );
}

#[tokio::test]
async fn a_tool_that_requires_tasks_is_never_called() {
    fn requires_tasks(_request: &Value, response: &mut Value) {
        if let Some(tools) = response
            .pointer_mut("/result/tools")
            .and_then(Value::as_array_mut)
        {
            for tool in tools {
                tool["execution"] = json!({"taskSupport": "required"});
            }
        }
    }
    let target = Rewritten::new(booking_server(), requires_tasks);
    let report = check(&target, &calling_every_tool()).await;
    assert!(
        target
            .sent("tools/call")
            .iter()
            .all(|m| m["params"]["name"] != "book_table"),
        "{}",
        report.to_text()
    );
    let book = report
        .tools
        .iter()
        .find(|t| t.name == "book_table")
        .unwrap();
    assert!(!book.called, "{}", report.to_text());
    assert!(
        book.not_called
            .as_deref()
            .unwrap_or("")
            .contains("MUST NOT call it without task augmentation")
    );
    assert!(report.cases.outcomes.is_empty());
}

/// Tells the weather on a day: its `date` must really be one.
#[derive(Tool)]
#[tool(name = "weather_on", annotations(read_only))]
struct WeatherOn {
    /// The day, as YYYY-MM-DD.
    #[tool(format = "date")]
    day: String,
}

impl WeatherOn {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        // Strict, as a real server is: "sample" would be a tool error.
        let parts: Vec<&str> = self.day.split('-').collect();
        match parts.as_slice() {
            [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2 => {
                Ok(format!("sunny on {}", self.day))
            }
            _ => Err(ToolError::new(format!("not a date: {}", self.day))),
        }
    }
}

/// Forecasts up to a week ahead; its range check is off by one.
#[derive(Tool)]
#[tool(name = "forecast", annotations(read_only))]
struct Forecast {
    /// How many days ahead.
    #[tool(minimum = 1, maximum = 7)]
    days: u8,
}

impl Forecast {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        if self.days >= 7 {
            return Err(ToolError::new("days must be less than 7"));
        }
        Ok(format!("{} days of sun", self.days))
    }
}

/// Reads a note that exists only under one id.
#[derive(Tool)]
#[tool(name = "read_note", annotations(read_only))]
struct ReadNote {
    /// The note's id.
    id: String,
}

impl ReadNote {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        match self.id.as_str() {
            "n-1" => Ok("apples, pears".into()),
            other => Err(ToolError::new(format!("no note {other}"))),
        }
    }
}

fn weather_server() -> Server {
    Server::builder("weather", "1.0.0")
        .tool::<WeatherOn>()
        .tool::<Forecast>()
        .tool::<ReadNote>()
        .build()
        .unwrap()
}

#[tokio::test]
async fn check_sends_schema_values_finds_an_off_by_one_and_takes_given_values() {
    let report = check(&weather_server(), &CheckOptions::default()).await;
    let cases = probe(&report, "tools/schema-cases");
    let text = report.to_text();
    // `format: date` got a date, which the strict tool accepts: no finding names it.
    let base = report
        .cases
        .outcomes
        .iter()
        .find(|o| o.case.tool == "weather_on" && o.case.source == "rule:base")
        .unwrap();
    assert_eq!(base.case.args, json!({"day": "2026-01-01"}));
    assert!(matches!(base.happened, Happened::Success { .. }), "{text}");
    assert!(
        cases
            .findings
            .iter()
            .all(|f| !f.message.contains("weather_on")),
        "{text}"
    );
    // forecast refuses exactly its inclusive maximum while 4 passes: one defect, quoting the
    // rule that validation follows the schema's dialect (where the maximum is inclusive).
    let off_by_one: Vec<_> = cases
        .findings
        .iter()
        .filter(|f| f.message.contains("off-by-one"))
        .collect();
    assert_eq!(off_by_one.len(), 1, "{text}");
    let f = off_by_one[0];
    assert_eq!(
        (f.severity, f.clause.map(|c| c.id)),
        (Severity::Defect, Some("schema/validate-per-dialect")),
        "{text}"
    );
    assert!(
        f.message.starts_with(
            "forecast › accepts `/days` at exactly maximum 7 [rule:bounds]: refused `/days` = 7, on the inclusive maximum its own inputSchema declares, while the interior value 4 passed"
        ),
        "{text}"
    );
    // read_note knows only n-1: its generated id is a tool error, one info for the tool.
    let read_note: Vec<_> = cases
        .findings
        .iter()
        .filter(|f| f.message.starts_with("tool \"read_note\""))
        .collect();
    assert_eq!(read_note.len(), 1, "{text}");
    assert_eq!(read_note[0].severity, Severity::Info);
    assert!(read_note[0].message.contains("isError: true"), "{text}");
    // The off-by-one is the one defect.
    assert_eq!(report.count(Severity::Defect), 1, "{text}");

    // With the id given, read_note's valid cases all succeed: only the off-by-one is left.
    let options = CheckOptions::default().cases(CaseOptions::default().value(
        "read_note",
        "/id",
        json!("n-1"),
    ));
    let report = check(&weather_server(), &options).await;
    let cases = probe(&report, "tools/schema-cases");
    assert_eq!(cases.findings.len(), 1, "{}", report.to_text());
    assert!(cases.findings[0].message.contains("off-by-one"));

    // A given value the schema rejects: the tool is not called, and the report says why.
    let options =
        CheckOptions::default().cases(CaseOptions::default().value("forecast", "/days", json!(8)));
    let report = check(&weather_server(), &options).await;
    assert!(
        report
            .cases
            .outcomes
            .iter()
            .all(|o| o.case.tool != "forecast"),
        "{}",
        report.to_text()
    );
    let skipped = report.tools.iter().find(|t| t.name == "forecast").unwrap();
    let reason = skipped.not_called.as_deref().unwrap_or("");
    assert!(!skipped.called, "{}", report.to_text());
    assert!(
        reason
            .starts_with("the value given for `/days` (8) does not fit the input schema:\n- /days: 8 is greater than the maximum of 7"),
        "{reason}"
    );
}

/// Waits far longer than any test should: only a case time limit ends its cases.
#[derive(Tool)]
#[tool(name = "sleepy", annotations(read_only))]
struct Sleepy {
    /// How many seconds to wait.
    #[tool(minimum = 0, maximum = 600)]
    seconds: u64,
}

impl Sleepy {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        tokio::time::sleep(std::time::Duration::from_secs(self.seconds.max(600))).await;
        Ok("done".into())
    }
}

/// A case still running at the case time is cancelled and the tool's later cases are not
/// sent: the check ends in about one case time, with a note and no finding against the server,
/// and the other tools' cases all ran.
#[tokio::test]
async fn a_slow_tool_is_cancelled_at_the_case_time_and_noted_not_blamed() {
    let server = Server::builder("slow", "1.0.0")
        .tool::<Sleepy>()
        .tool::<WeatherOn>()
        .build()
        .unwrap();
    let options = CheckOptions::default().case_time(Some(std::time::Duration::from_millis(300)));
    let started = std::time::Instant::now();
    let report = check(&server, &options).await;
    let text = report.to_text();
    // Bounded, not timed: far below the 600 s the tool would wait, and the 30 s call timeout.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(25),
        "{text}"
    );
    assert_eq!(report.count(Severity::Defect), 0, "{text}");
    assert_eq!(report.count(Severity::Warning), 0, "{text}");
    let sleepy = |expectation: Expectation| -> Vec<&Happened> {
        report
            .cases
            .outcomes
            .iter()
            .filter(|o| o.case.tool == "sleepy" && o.case.expectation == expectation)
            .map(|o| &o.happened)
            .collect()
    };
    let valid = sleepy(Expectation::Success);
    assert!(valid.len() > 2, "{text}");
    assert!(
        valid
            .iter()
            .all(|h| matches!(h, Happened::Slow { limit_ms: 300, .. })),
        "{valid:?}"
    );
    assert!(
        valid
            .iter()
            .any(|h| matches!(h, Happened::Slow { sent: false, .. })),
        "later valid cases of a slow tool are not sent: {valid:?}"
    );
    // Invalid arguments are still sent, and rejected before any waiting.
    let invalid = sleepy(Expectation::Error);
    assert!(!invalid.is_empty(), "{text}");
    assert!(
        invalid
            .iter()
            .all(|h| matches!(h, Happened::ToolError { .. })),
        "{invalid:?}"
    );
    assert!(
        report
            .cases
            .outcomes
            .iter()
            .filter(|o| o.case.tool == "weather_on")
            .all(|o| !matches!(o.happened, Happened::Slow { .. })),
        "{text}"
    );
    let note = probe(&report, "tools/schema-cases")
        .findings
        .iter()
        .find(|f| f.message.contains("sleepy"))
        .unwrap_or_else(|| panic!("no note on the slow tool: {text}"));
    assert_eq!(note.severity, Severity::Info);
    assert!(note.message.contains("--case-time"), "{}", note.message);
}

/// What the schema cases learnt of a slow tool spares its property tests: every property case
/// would wait the case time again. The other tool's properties still run.
#[tokio::test]
async fn a_tool_slow_in_its_cases_gets_no_property_tests_and_a_note() {
    let server = Server::builder("slow", "1.0.0")
        .tool::<Sleepy>()
        .tool::<WeatherOn>()
        .build()
        .unwrap();
    let options = CheckOptions::default()
        .case_time(Some(std::time::Duration::from_millis(300)))
        .properties(Some(3));
    let report = check(&server, &options).await;
    let text = report.to_text();
    let properties = probe(&report, "tools/properties");
    let notes: Vec<&str> = properties
        .findings
        .iter()
        .map(|f| f.message.as_str())
        .filter(|m| m.starts_with("no property tests of"))
        .collect();
    assert_eq!(
        notes,
        [
            "no property tests of sleepy: their schema cases outlasted the case time (`--case-time`), which every property case would wait again"
        ],
        "{text}"
    );
    assert_eq!(report.count(Severity::Defect), 0, "{text}");
    assert_eq!(report.count(Severity::Warning), 0, "{text}");
}

// ---- Property tests (issue 22) ---------------------------------------------------------

use mcp_test::cases::properties::{Invariant, PropertyOptions, check_properties};

/// A few cases per property: enough to exercise every tool and action, cheap in CI.
fn few(cases: u32) -> PropertyOptions {
    PropertyOptions::default().cases(cases)
}

/// Stores a label; refuses nothing its schema allows, except a label of exactly seven
/// characters, on which it panics (the runtime answers -32603): a bug to find and shrink.
#[derive(Tool)]
#[tool(name = "label", annotations(read_only))]
struct Label {
    #[tool(min_length = 1, max_length = 12)]
    text: String,
    #[tool(minimum = 0, maximum = 1000)]
    copies: u16,
    tags: Option<Vec<String>>,
}

impl Label {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        if self.text.chars().count() == 7 {
            panic!("a seven-character label");
        }
        let tags = self.tags.map_or(0, |t| t.len());
        Ok(format!("{} x{} ({tags} tags)", self.text, self.copies))
    }
}

/// A total, with an output schema.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Total {
    total: u32,
}

/// Adds up to ten small numbers.
#[derive(Tool)]
#[tool(name = "sum", annotations(read_only))]
struct Sum {
    #[tool(max_items = 10)]
    values: Vec<u8>,
}

impl Sum {
    async fn run(self, _ctx: &Context) -> Result<mcp_test::Json<Total>, ToolError> {
        let total = self.values.iter().map(|v| u32::from(*v)).sum();
        Ok(mcp_test::Json(Total { total }))
    }
}

fn label_server() -> Server {
    Server::builder("labels", "1.0.0")
        .tool::<Label>()
        .tool::<Sum>()
        .tool::<Tickets>()
        .build()
        .unwrap()
}

/// A wire bug the runtime would never let through: `sum`'s `structuredContent` turns into a
/// string once it adds up three numbers or more.
fn total_as_text(request: &Value, response: &mut Value) {
    if request["params"]["name"] == "sum"
        && request["params"]["arguments"]["values"]
            .as_array()
            .is_some_and(|v| v.len() >= 3)
        && let Some(content) = response.pointer_mut("/result/structuredContent")
    {
        *content = json!("many");
    }
}

/// The conformance fixture but for its task tools, which the conformance suite calls as tasks:
/// one takes as many seconds as it is told, one fails with -32603 on purpose.
fn conformance_options(cases: u32) -> PropertyOptions {
    few(cases).skip("slow_compute").skip("protocol_error_job")
}

#[tokio::test]
async fn properties_hold_on_the_servers_of_this_crate_in_process() {
    let report = check_properties(&example_server(), &few(24)).await;
    assert!(
        report.failures.is_empty() && report.problems.is_empty(),
        "{report}"
    );
    let conformance = mcp_test_downstream::conformance::conformance_server();
    let report = check_properties(&conformance, &conformance_options(16)).await;
    assert!(
        report.failures.is_empty() && report.problems.is_empty(),
        "{report}"
    );
    // Every tool, both properties each (a tool with no arguments has nothing to break).
    assert!(
        report.runs.len() >= 2 * conformance.tool_definitions().len() - 20,
        "{report}"
    );
    // The transport fixture, without the tools that wait for a second caller, sleep or
    // misbehave on purpose.
    let transport = mcp_test_downstream::transport_server();
    let options = few(16).skip("rendezvous").skip("sleep").skip("misbehave");
    let report = check_properties(&transport, &options).await;
    assert!(
        report.failures.is_empty() && report.problems.is_empty(),
        "{report}"
    );
    // Every action of an action tool runs on its own.
    let tickets = Server::builder("tickets", "1.0.0")
        .tool::<Tickets>()
        .build()
        .unwrap();
    let report = check_properties(&tickets, &few(16)).await;
    let actions: HashSet<_> = report
        .runs
        .iter()
        .filter_map(|r| r.action.clone())
        .collect();
    assert_eq!(actions.len(), 3, "{report}");
    assert!(report.failures.is_empty(), "{report}");
}

#[tokio::test]
async fn properties_hold_on_the_conformance_fixture_over_stdio() {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_conformance_fixture"));
    command.kill_on_drop(true);
    let client = mcp_test::client::Client::spawn(command).await.unwrap();
    let report = check_properties(&client, &conformance_options(8)).await;
    assert!(
        report.failures.is_empty() && report.problems.is_empty(),
        "{report}"
    );
    assert!(report.cases() >= 8 * 10, "{report}");
}

#[tokio::test]
async fn properties_catch_a_crash_on_valid_arguments_and_shrink_it() {
    let server = label_server();
    let report = check_properties(&server, &few(64).only("label")).await;
    assert_eq!(report.failures.len(), 1, "{report}");
    let failure = &report.failures[0];
    assert_eq!(failure.invariant, "no-protocol-error");
    // Shrunk: seven of the simplest character, the fewest copies, no optional tags.
    assert_eq!(
        failure.args,
        json!({"text": "aaaaaaa", "copies": 0}),
        "{report}"
    );
    assert!(failure.shrink_calls > 0);
    let response = failure.response.as_ref().unwrap();
    assert_eq!(response["error"]["code"], -32603, "{report}");
    // The report shows the minimal arguments and the whole response.
    let text = report.to_string();
    assert!(
        text.contains(r#"minimal arguments: {"copies":0,"text":"aaaaaaa"}"#),
        "{text}"
    );
    assert!(text.contains("\"code\": -32603"), "{text}");
    // Deterministic: the same seed finds the same minimal failure.
    let again = check_properties(&server, &few(64).only("label")).await;
    assert_eq!(again.failures[0].args, failure.args);
}

#[tokio::test]
async fn properties_catch_structured_output_that_breaks_its_schema() {
    let target = Rewritten::new(label_server(), total_as_text);
    let options = few(64).only("sum").without(Invariant::InvalidNamed);
    let report = check_properties(&target, &options).await;
    assert_eq!(report.failures.len(), 1, "{report}");
    let failure = &report.failures[0];
    assert_eq!(failure.invariant, "output-schema", "{report}");
    assert_eq!(failure.args, json!({"values": [0, 0, 0]}), "{report}");
    assert!(failure.message.contains("does not validate"), "{report}");
    // Switched off, the invariant finds nothing.
    let off = check_properties(&target, &options.without(Invariant::OutputSchema)).await;
    assert!(off.failures.is_empty(), "{off}");
}

#[tokio::test]
async fn properties_want_invalid_arguments_refused_naming_the_pointer() {
    // A server that answers every tool execution error with a bare "invalid" text.
    fn bare_errors(request: &Value, response: &mut Value) {
        if request["method"] == "tools/call" && response["result"]["isError"] == true {
            response["result"]["content"] = json!([{"type": "text", "text": "invalid"}]);
        }
    }
    let target = Rewritten::new(label_server(), bare_errors);
    let options = few(16).only("sum");
    let report = check_properties(&target, &options).await;
    let failure = report
        .failures
        .iter()
        .find(|f| f.invariant == "invalid-named")
        .unwrap_or_else(|| panic!("{report}"));
    let pointer = failure.pointer.as_deref().unwrap();
    assert!(failure.message.contains(pointer), "{report}");
    // Still broken in exactly that place after shrinking.
    let schema = &tools_of(&label_server())
        .into_iter()
        .find(|t| t["name"] == "sum")
        .unwrap()["inputSchema"];
    let errors: Vec<String> = jsonschema::validator_for(schema)
        .unwrap()
        .iter_errors(&failure.args)
        .map(|e| e.instance_path().to_string())
        .collect();
    assert!(!errors.is_empty(), "{report}");
    // The runtime itself names the pointer: no failure.
    let report = check_properties(&label_server(), &options).await;
    assert!(report.failures.is_empty(), "{report}");
}

#[tokio::test]
async fn properties_run_user_invariants_on_arguments_and_response() {
    let options = few(32).only("sum").invariant((
        "totals stay under 500",
        |args: &Value, response: &Value| {
            let total = response["result"]["structuredContent"]["total"]
                .as_u64()
                .unwrap_or(0);
            let count = args["values"].as_array().map_or(0, Vec::len);
            if total < 500 {
                Ok(())
            } else {
                Err(format!("{count} values add up to {total}"))
            }
        },
    ));
    let report = check_properties(&label_server(), &options).await;
    let failure = report
        .failures
        .iter()
        .find(|f| f.invariant == "totals stay under 500")
        .unwrap_or_else(|| panic!("{report}"));
    // Shrunk to the fewest values, each as small as it can be while the total stays 500+.
    let values = failure.args["values"].as_array().unwrap();
    let total: u64 = values.iter().filter_map(Value::as_u64).sum();
    assert!(total >= 500 && values.len() <= 3, "{report}");
}

#[tokio::test]
async fn properties_keep_the_minimal_failure_and_replay_it_first() {
    let dir = std::env::temp_dir().join(format!(
        "mcp-test-properties-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let options = few(64).only("label").regressions(&dir);
    let first = check_properties(&label_server(), &options).await;
    let kept = first.failures[0]
        .saved_to
        .clone()
        .unwrap_or_else(|| panic!("{first}"));
    assert!(kept.ends_with("label.json"), "{}", kept.display());
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
    assert_eq!(
        stored["failures"][0]["args"],
        json!({"text": "aaaaaaa", "copies": 0})
    );
    // Replayed first: found without a single case drawn, even with another seed.
    let second = check_properties(&label_server(), &options.clone().seed(99)).await;
    assert!(second.failures[0].replayed, "{second}");
    assert_eq!(second.failures[0].args, first.failures[0].args);
    // A file that is not JSON is a problem naming it, not a panic.
    std::fs::write(&kept, "{oops").unwrap();
    let third = check_properties(&label_server(), &options).await;
    assert!(
        third.problems.iter().any(|p| p.contains("label.json")),
        "{third}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn assert_properties_panics_with_the_minimal_arguments_and_the_response() {
    use futures_util::FutureExt;
    let server = label_server();
    let report =
        mcp_test::assert_properties!(server, cases = 8, skip = "label", no_regressions = ());
    assert!(report.cases() > 8);
    let caught = std::panic::AssertUnwindSafe(async {
        mcp_test::assert_properties!(server, cases = 64, only = "label", no_regressions = ());
    })
    .catch_unwind()
    .await;
    let panic = caught.expect_err("the crash is found");
    let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        text.contains("assert_properties! failed for labels"),
        "{text}"
    );
    assert!(
        text.contains("aaaaaaa") && text.contains("-32603"),
        "{text}"
    );
}

/// The label server, gone for good once `label` is asked for more than 900 copies: every
/// message after that goes unanswered.
struct DiesOnMany {
    server: Server,
    dead: std::sync::atomic::AtomicBool,
}

impl Target for DiesOnMany {
    fn label(&self) -> String {
        "dies on many".into()
    }
    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        use std::sync::atomic::Ordering;
        Box::pin(async move {
            if self.dead.load(Ordering::SeqCst) {
                return Err(mcp_test::target::TargetError::Timeout {
                    request: "a request to a dead server".into(),
                    after: std::time::Duration::from_millis(1),
                });
            }
            if message["params"]["arguments"]["copies"].as_u64() > Some(900) {
                self.dead.store(true, Ordering::SeqCst);
            }
            self.server.send(message, caller).await
        })
    }
}

#[tokio::test]
async fn properties_report_a_server_that_stops_answering_without_shrinking() {
    let target = DiesOnMany {
        server: label_server(),
        dead: std::sync::atomic::AtomicBool::new(false),
    };
    let options = few(64).only("label").without(Invariant::NoProtocolError);
    let report = check_properties(&target, &options).await;
    let failure = report
        .failures
        .iter()
        .find(|f| f.invariant == "answers")
        .unwrap_or_else(|| panic!("{report}"));
    // The call that killed it was answered; the next request was not.
    assert!(failure.message.contains("not the next request"), "{report}");
    assert!(failure.args["copies"].as_u64() > Some(900), "{report}");
    assert_eq!(failure.shrink_calls, 0, "a dead server is not asked again");
}
