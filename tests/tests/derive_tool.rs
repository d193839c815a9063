//! `#[derive(Tool)]` as a downstream crate uses it: a plain tool and an action tool with nested
//! data, served by `mcp_test::Server` and called over the JSON wire.

use mcp_test::wire::Request;
use mcp_test::{Context, Json, Server, Tool, ToolError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};

// ---------------------------------------------------------------------------------------------
// A plain tool: its fields are the arguments.

/// Books a meeting room.
#[derive(Tool)]
#[tool(title = "Book a room", annotations(idempotent, destructive = false))]
struct BookRoom {
    /// Room code, like `B-12`.
    #[tool(pattern = "^[A-Z]-[0-9]+$", header = "Room")]
    room: String,
    /// Who books it.
    #[serde(rename = "bookedBy")]
    #[tool(min_length = 2, max_length = 20)]
    booked_by: String,
    /// Length in minutes.
    #[tool(minimum = 15, maximum = 240, default = 30)]
    minutes: u32,
    /// How many people come.
    #[tool(exclusive_minimum = 0, exclusive_maximum = 50)]
    attendees: Option<i32>,
    /// Equipment to prepare.
    #[tool(min_items = 1, max_items = 3, unique_items)]
    equipment: Option<Vec<String>>,
    /// Where to send the confirmation.
    #[tool(format = "email", example = "ada@example.com")]
    contact: Option<String>,
    /// Free-form labels.
    #[serde(default)]
    labels: BTreeMap<String, String>,
    /// Tags.
    #[serde(default)]
    tags: HashSet<String>,
    /// Anything the caller wants to keep.
    note: Option<Value>,
    /// Share of the room used, 0 to 1.
    share: Option<f64>,
    /// Whether to notify facilities.
    #[tool(header = "Notify")]
    notify: Option<bool>,
}

impl BookRoom {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        let mut tags: Vec<_> = self.tags.into_iter().collect();
        tags.sort();
        Ok(format!(
            "{} booked {} for {} min (attendees {:?}, equipment {:?}, contact {:?}, labels {:?}, tags {:?}, note {:?}, share {:?}, notify {:?})",
            self.booked_by,
            self.room,
            self.minutes,
            self.attendees,
            self.equipment,
            self.contact,
            self.labels,
            tags,
            self.note,
            self.share,
            self.notify
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// An action tool with nested data.

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Address {
    street: String,
    postal_code: Option<String>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    High,
}

#[derive(Deserialize, JsonSchema)]
struct NewContact {
    name: String,
    address: Address,
    priority: Priority,
    phones: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
struct Outcome {
    action: String,
    ids: Vec<String>,
    detail: Option<String>,
}

/// Manages the address book.
#[derive(Tool)]
#[tool(name = "contacts")]
enum Contacts {
    /// Fetches one contact.
    Get {
        /// The contact's id.
        #[tool(min_length = 1)]
        id: String,
    },
    /// Creates a contact.
    ///
    /// The contact is stored as given.
    Create {
        contact: NewContact,
        /// Also subscribe them to the newsletter.
        #[tool(default)]
        subscribe: bool,
    },
    /// Lists contacts, newest first.
    #[tool(rename = "ls")]
    List {
        #[tool(minimum = 1, maximum = 100)]
        limit: Option<u32>,
    },
    /// Deletes every contact.
    Purge,
}

impl Contacts {
    async fn run(self, _ctx: &Context) -> Result<Json<Outcome>, ToolError> {
        let outcome = match self {
            Contacts::Get { id } => Outcome {
                action: "get".into(),
                ids: vec![id],
                detail: None,
            },
            Contacts::Create { contact, subscribe } => Outcome {
                action: "create".into(),
                ids: vec!["c-1".into()],
                detail: Some(format!(
                    "{} at {} ({:?}), postal code {:?}, phones {:?}, subscribe {subscribe}",
                    contact.name,
                    contact.address.street,
                    contact.priority,
                    contact.address.postal_code,
                    contact.phones
                )),
            },
            Contacts::List { limit } => Outcome {
                action: "ls".into(),
                ids: (1..=limit.unwrap_or(2)).map(|i| format!("c-{i}")).collect(),
                detail: None,
            },
            Contacts::Purge => {
                return Err(ToolError::new("purge is disabled on this server"));
            }
        };
        Ok(Json(outcome))
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn server() -> Server {
    Server::builder("derive-demo", "1.0.0")
        .tool::<BookRoom>()
        .tool::<Contacts>()
        .build()
        .expect("the derived tools register")
}

fn envelope(params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    params
}

async fn call(server: &Server, name: &str, arguments: Value) -> Value {
    let request = Request::new(
        1,
        "tools/call",
        envelope(json!({"name": name, "arguments": arguments})),
    );
    let response = server.request(&request).await;
    match response.result() {
        Some(result) => result.clone(),
        None => panic!("expected a result, got {response:?}"),
    }
}

/// The text of a successful result's single text block; panics with the whole result otherwise.
fn ok_text(result: &Value) -> &str {
    assert_ne!(result["isError"], true, "expected success, got {result:#}");
    match result["content"].as_array().map(Vec::as_slice) {
        Some([block]) => block["text"]
            .as_str()
            .unwrap_or_else(|| panic!("expected text, got {result:#}")),
        _ => panic!("expected one content block, got {result:#}"),
    }
}

/// The text of an `isError` result; panics with the whole result otherwise.
fn error_text(result: &Value) -> String {
    assert_eq!(result["isError"], true, "expected isError, got {result:#}");
    result["content"]
        .as_array()
        .unwrap_or_else(|| panic!("expected content, got {result:#}"))
        .iter()
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn valid_booking() -> Value {
    json!({"room": "B-12", "bookedBy": "ada"})
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base[key] = value;
    base
}

// ---------------------------------------------------------------------------------------------
// tools/list

#[tokio::test]
async fn tools_list_entries_match_the_snapshots() {
    let server = server();
    let request = Request::new(1, "tools/list", envelope(json!({})));
    let response = server.request(&request).await;
    let tools = response.result().expect("a tools/list result")["tools"].clone();
    let tools = tools.as_array().expect("a tools array");
    assert_eq!(tools.len(), 2);
    insta::assert_json_snapshot!("book_room_definition", tools[0]);
    insta::assert_json_snapshot!("contacts_definition", tools[1]);
}

#[test]
fn every_generated_schema_is_published_form_and_valid_2020_12() {
    let server = server();
    let mut checked = 0;
    for definition in server.tool_definitions() {
        let mut schemas = vec![("inputSchema", &definition.input_schema)];
        if let Some(output) = &definition.output_schema {
            schemas.push(("outputSchema", output));
        }
        for (which, schema) in schemas {
            // The generic meta-schema check, straight from the jsonschema crate...
            if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
                panic!(
                    "{} {which} is not valid 2020-12: {e}\n{schema:#}",
                    definition.name
                );
            }
            // ...and the published-form rules (no $ref/$defs/$schema, object root).
            if let Err(e) = mcp_test::schema::check_published(schema) {
                panic!("{} {which}: {e}\n{schema:#}", definition.name);
            }
            checked += 1;
        }
    }
    // Two input schemas plus the action tool's output schema.
    assert_eq!(checked, 3);
}

#[test]
fn schemas_follow_serde_options_and_defaults() {
    let schema = BookRoom::input_schema();
    let properties = schema["properties"].as_object().unwrap();
    assert!(
        properties.contains_key("bookedBy"),
        "serde rename is published"
    );
    assert!(!properties.contains_key("booked_by"));
    assert_eq!(schema["required"], json!(["room", "bookedBy"]));
    assert_eq!(schema["properties"]["minutes"]["default"], 30);
    assert_eq!(
        schema["properties"]["contact"]["examples"],
        json!(["ada@example.com"])
    );
    assert_eq!(schema["properties"]["room"]["x-mcp-header"], "Room");
    assert_eq!(schema["additionalProperties"], false);
    // Deterministic: the same schema, key for key, every time.
    assert_eq!(
        serde_json::to_string(&BookRoom::input_schema()).unwrap(),
        serde_json::to_string(&schema).unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// Valid calls

#[tokio::test]
async fn the_plain_tool_accepts_minimal_and_full_arguments() {
    let server = server();
    let minimal = call(&server, "book_room", valid_booking()).await;
    assert_eq!(
        ok_text(&minimal),
        "ada booked B-12 for 30 min (attendees None, equipment None, contact None, labels {}, tags [], note None, share None, notify None)"
    );
    let full = call(
        &server,
        "book_room",
        json!({
            "room": "C-7", "bookedBy": "grace", "minutes": 60, "attendees": 4,
            "equipment": ["projector"], "contact": "grace@example.com",
            "labels": {"team": "compilers"}, "tags": ["b", "a"], "note": {"any": [1, 2]},
            "share": 0.5, "notify": true
        }),
    )
    .await;
    assert_eq!(
        ok_text(&full),
        r#"grace booked C-7 for 60 min (attendees Some(4), equipment Some(["projector"]), contact Some("grace@example.com"), labels {"team": "compilers"}, tags ["a", "b"], note Some(Object {"any": Array [Number(1), Number(2)]}), share Some(0.5), notify Some(true))"#
    );
}

#[tokio::test]
async fn every_action_runs_with_valid_data() {
    let server = server();

    let get = call(
        &server,
        "contacts",
        json!({"action": "get", "data": {"id": "7"}}),
    )
    .await;
    assert_eq!(
        get["structuredContent"],
        json!({"action": "get", "ids": ["7"], "detail": null})
    );
    let text: Value = serde_json::from_str(ok_text(&get)).expect("the text block is the JSON");
    assert_eq!(text, get["structuredContent"]);

    let create = call(
        &server,
        "contacts",
        json!({"action": "create", "data": {"contact": {
            "name": "Ada", "address": {"street": "1 Loop Rd", "postalCode": "N1"},
            "priority": "high", "phones": ["+44 1"]
        }}}),
    )
    .await;
    assert_eq!(
        create["structuredContent"]["detail"],
        r#"Ada at 1 Loop Rd (High), postal code Some("N1"), phones ["+44 1"], subscribe false"#
    );

    let list = call(
        &server,
        "contacts",
        json!({"action": "ls", "data": {"limit": 3}}),
    )
    .await;
    assert_eq!(
        list["structuredContent"]["ids"],
        json!(["c-1", "c-2", "c-3"])
    );

    // No required fields: `data` may be left out.
    let list = call(&server, "contacts", json!({"action": "ls"})).await;
    assert_eq!(list["structuredContent"]["ids"], json!(["c-1", "c-2"]));

    // An action without fields, without data; its handler's error becomes isError.
    let purge = call(&server, "contacts", json!({"action": "purge"})).await;
    assert_eq!(error_text(&purge), "purge is disabled on this server");
    let purge = call(&server, "contacts", json!({"action": "purge", "data": {}})).await;
    assert_eq!(error_text(&purge), "purge is disabled on this server");
}

// ---------------------------------------------------------------------------------------------
// Invalid calls: one per constraint kind, each naming its JSON pointer.

#[tokio::test]
async fn each_constraint_kind_is_enforced_with_its_pointer() {
    let server = server();
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "required",
            json!({"room": "B-12"}),
            "/bookedBy: missing required property",
        ),
        (
            "additionalProperties",
            with(valid_booking(), "floor", json!(3)),
            "/floor: unknown property",
        ),
        (
            "type",
            with(valid_booking(), "minutes", json!("long")),
            "/minutes: ",
        ),
        (
            "pattern",
            with(valid_booking(), "room", json!("b12")),
            "/room: ",
        ),
        (
            "minLength",
            with(valid_booking(), "bookedBy", json!("a")),
            "/bookedBy: ",
        ),
        (
            "maxLength",
            with(valid_booking(), "bookedBy", json!("a".repeat(21))),
            "/bookedBy: ",
        ),
        (
            "minimum",
            with(valid_booking(), "minutes", json!(5)),
            "/minutes: ",
        ),
        (
            "maximum",
            with(valid_booking(), "minutes", json!(241)),
            "/minutes: ",
        ),
        (
            "exclusiveMinimum",
            with(valid_booking(), "attendees", json!(0)),
            "/attendees: ",
        ),
        (
            "exclusiveMaximum",
            with(valid_booking(), "attendees", json!(50)),
            "/attendees: ",
        ),
        (
            "minItems",
            with(valid_booking(), "equipment", json!([])),
            "/equipment: ",
        ),
        (
            "maxItems",
            with(valid_booking(), "equipment", json!(["a", "b", "c", "d"])),
            "/equipment: ",
        ),
        (
            "uniqueItems",
            with(valid_booking(), "equipment", json!(["a", "a"])),
            "/equipment: ",
        ),
        (
            "format",
            with(valid_booking(), "contact", json!("not an email")),
            "/contact: ",
        ),
        (
            "map values",
            with(valid_booking(), "labels", json!({"team": 1})),
            "/labels/team: ",
        ),
        (
            "boolean",
            with(valid_booking(), "notify", json!("yes")),
            "/notify: ",
        ),
    ];
    for (kind, arguments, expected) in cases {
        let result = call(&server, "book_room", arguments.clone()).await;
        let text = error_text(&result);
        assert!(
            text.starts_with("Invalid arguments for tool book_room:") && text.contains(expected),
            "{kind}: expected {expected:?} in the error for {arguments}, got:\n{text}"
        );
    }
}

#[tokio::test]
async fn action_data_errors_name_pointers_under_data() {
    let server = server();
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "missing data",
            json!({"action": "get"}),
            "/data: missing required property",
        ),
        (
            "missing field",
            json!({"action": "get", "data": {}}),
            "/data/id: missing required property",
        ),
        (
            "minLength",
            json!({"action": "get", "data": {"id": ""}}),
            "/data/id: ",
        ),
        (
            "unknown data field",
            json!({"action": "get", "data": {"id": "1", "x": 1}}),
            "/data/x: unknown property",
        ),
        (
            "maximum",
            json!({"action": "ls", "data": {"limit": 101}}),
            "/data/limit: ",
        ),
        (
            "minimum",
            json!({"action": "ls", "data": {"limit": 0}}),
            "/data/limit: ",
        ),
        (
            "fieldless action",
            json!({"action": "purge", "data": {"x": 1}}),
            "/data/x: unknown property",
        ),
        (
            "nested required",
            json!({"action": "create", "data": {"contact": {"name": "A", "address": {}, "priority": "low", "phones": []}}}),
            "/data/contact/address/street: missing required property",
        ),
        (
            "nested rename",
            json!({"action": "create", "data": {"contact": {"name": "A", "address": {"street": "s", "postal_code": "x"}, "priority": "low", "phones": []}}}),
            "/data/contact/address/postal_code: unknown property",
        ),
        (
            "nested enum",
            json!({"action": "create", "data": {"contact": {"name": "A", "address": {"street": "s"}, "priority": "urgent", "phones": []}}}),
            "/data/contact/priority: ",
        ),
        (
            "nested array items",
            json!({"action": "create", "data": {"contact": {"name": "A", "address": {"street": "s"}, "priority": "low", "phones": [1]}}}),
            "/data/contact/phones/0: ",
        ),
        (
            "missing action",
            json!({"data": {}}),
            "/action: missing required property",
        ),
        (
            "unknown root field",
            json!({"action": "ls", "verbose": true}),
            "/verbose: unknown property",
        ),
    ];
    for (kind, arguments, expected) in cases {
        let result = call(&server, "contacts", arguments.clone()).await;
        let text = error_text(&result);
        assert!(
            text.contains(expected),
            "{kind}: expected {expected:?} in the error for {arguments}, got:\n{text}"
        );
    }
}

#[tokio::test]
async fn an_unknown_action_is_an_error_naming_the_valid_actions() {
    let server = server();
    let result = call(&server, "contacts", json!({"action": "delete", "data": {}})).await;
    let text = error_text(&result);
    assert!(text.contains("/action: "), "{text}");
    for action in ["get", "create", "ls", "purge"] {
        assert!(
            text.contains(&format!("\"{action}\"")),
            "{action} missing from: {text}"
        );
    }

    // A hostile action name is elided, and the valid actions are still all named.
    let huge = "x".repeat(100_000);
    let result = call(&server, "contacts", json!({"action": huge})).await;
    let text = error_text(&result);
    assert!(text.len() < 1_000, "{} bytes", text.len());
    assert!(
        text.ends_with(r#"is not one of: "get", "create", "ls", "purge""#),
        "{text}"
    );
}

#[test]
fn parse_on_its_own_rejects_what_the_schema_rejects() {
    // `parse` is also reachable without the server's validation in front of it.
    let e = Contacts::parse(json!({"action": "delete"}))
        .err()
        .expect("an unknown action");
    assert_eq!(
        e.to_string(),
        r#"Unknown action "delete"; valid actions: "get", "create", "ls", "purge""#
    );
    let e = Contacts::parse(json!({"action": "get", "data": {"id": "1", "x": 2}}))
        .err()
        .expect("an unknown field");
    assert!(e.to_string().contains("unknown field `x`"), "{e}");
    let e = BookRoom::parse(json!({"room": "B-1", "bookedBy": "ada", "extra": 1}))
        .err()
        .expect("an unknown argument");
    assert!(e.to_string().contains("unknown field `extra`"), "{e}");
    assert!(BookRoom::parse(valid_booking()).is_ok());
}
