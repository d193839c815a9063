//! Fixtures of the mcp-test bench suite (`scripts/bench`, or `cargo bench -p mcp-test-benches`).
//!
//! The same two tools exist twice: once on mcp-test (`#[derive(Tool)]`) and once on rmcp 3.11
//! (`#[tool_router]`), and both are called with the same arguments. The request and response
//! texts of the mcp-test calls are also what the `serde_json` floor decodes and encodes. The
//! tests in `tests/fixtures.rs` check that every fixture answers as expected, so a bench cannot
//! silently measure an error path.

use mcp_test::testing::http::oneshot;
use mcp_test::testing::{build_call_request, put_mirrored_headers};
use mcp_test::transport::http::{HttpConfig, Router, router};
use mcp_test::{CallToolResult, Context, Server, Tool, ToolError};
use serde_json::{Map, Value, json};

pub mod rmcp_side;

/// The runtime every bench runs on: tokio's current-thread scheduler with time and IO enabled
/// (mcp-test puts a deadline on each request; rmcp's duplex transport needs IO).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime builds")
}

// ---------------------------------------------------------------------------------------------
// The tools, on mcp-test.
// ---------------------------------------------------------------------------------------------

/// Adds two integers.
#[derive(Tool)]
#[tool(name = "add")]
struct Add {
    /// First operand
    a: i64,
    /// Second operand
    b: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok((self.a + self.b).to_string())
    }
}

/// Manages customer records.
#[derive(Tool)]
#[tool(name = "records")]
// One value lives for one call; the variants mirror the wire arguments as they are.
#[allow(clippy::large_enum_variant)]
enum Records {
    /// Creates a record from its 20 fields.
    Create {
        #[tool(min_length = 1, max_length = 64)]
        name: String,
        #[tool(min_length = 3)]
        email: String,
        #[tool(minimum = 0, maximum = 150)]
        age: i64,
        active: bool,
        #[tool(min_length = 2, max_length = 2)]
        country: String,
        city: String,
        street: String,
        #[tool(pattern = "^[0-9]{5}$")]
        zip: String,
        phone: Option<String>,
        #[tool(minimum = 0)]
        score: f64,
        tags: Vec<String>,
        #[tool(minimum = 1, maximum = 5)]
        priority: i64,
        notes: Option<String>,
        #[tool(min_length = 1)]
        company: String,
        title: String,
        #[tool(minimum = 0)]
        balance: i64,
        verified: bool,
        locale: String,
        timezone: String,
        referrer: Option<String>,
    },
    /// Deletes a record.
    Delete {
        #[tool(min_length = 1)]
        id: String,
    },
}

impl Records {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(match self {
            Records::Create {
                name,
                email,
                age,
                active,
                country,
                city,
                street,
                zip,
                phone,
                score,
                tags,
                priority,
                notes,
                company,
                title,
                balance,
                verified,
                locale,
                timezone,
                referrer,
            } => {
                let texts = [
                    &email, &country, &city, &street, &zip, &company, &title, &locale, &timezone,
                ];
                let optional = [&phone, &notes, &referrer];
                let set = texts.iter().filter(|s| !s.is_empty()).count()
                    + optional.iter().filter(|s| s.is_some()).count()
                    + usize::from(active)
                    + usize::from(verified)
                    + usize::from(age > 0)
                    + usize::from(score > 0.0)
                    + usize::from(priority > 0)
                    + usize::from(balance > 0)
                    + usize::from(!tags.is_empty());
                format!("created {name} ({set} fields set)")
            }
            Records::Delete { id } => format!("deleted {id}"),
        })
    }
}

/// Asks for a name (one elicitation), then greets: a two-round call.
#[derive(Tool)]
#[tool(name = "greet")]
struct Greet {
    /// The greeting
    greeting: String,
}

impl Greet {
    async fn run(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}},
                            "required": ["name"]});
        let answer = ctx.elicit("What is your name?", schema).await?;
        let name = answer
            .accepted()
            .and_then(|form| form.get("name").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| "stranger".to_owned());
        Ok(CallToolResult::text(format!("{}, {name}!", self.greeting)))
    }
}

/// A server with `add`, `records` and `greet`.
pub fn server() -> Server {
    Server::builder("bench", "1.0.0")
        .tool::<Add>()
        .tool::<Records>()
        .tool::<Greet>()
        .request_state_key(*b"bench-request-state-key-32-bytes")
        .build()
        .expect("the bench server builds")
}

/// The `add` server alone, for the `#[mcp_test]` cold-start test.
pub fn add_server() -> Server {
    Server::builder("bench", "1.0.0")
        .tool::<Add>()
        .build()
        .expect("the add server builds")
}

// ---------------------------------------------------------------------------------------------
// Requests.
// ---------------------------------------------------------------------------------------------

/// The arguments of the `add` call.
pub fn add_arguments() -> Value {
    json!({"a": 2, "b": 3})
}

/// The `data` of the `records` `create` call: all 20 properties.
pub fn create_data() -> Value {
    json!({
        "name": "Ada Lovelace", "email": "ada@example.com", "age": 36, "active": true,
        "country": "GB", "city": "London", "street": "12 St James's Square", "zip": "10001",
        "phone": "+44 20 7946 0000", "score": 98.5, "tags": ["vip", "math"], "priority": 2,
        "notes": "prefers letters", "company": "Analytical Engines Ltd",
        "title": "Countess of Lovelace", "balance": 1843, "verified": true, "locale": "en-GB",
        "timezone": "Europe/London", "referrer": "babbage"
    })
}

/// The arguments of the `records` call.
pub fn records_arguments() -> Value {
    json!({"action": "create", "data": create_data()})
}

/// The `add` request body (id 1, protocol fields under `_meta`).
pub fn add_request() -> Value {
    build_call_request("add", add_arguments())
}

/// The `records` request body.
pub fn records_request() -> Value {
    build_call_request("records", records_arguments())
}

/// The text `add` answers.
pub const ADD_TEXT: &str = "5";
/// The text `records` answers.
pub const RECORDS_TEXT: &str = "created Ada Lovelace (19 fields set)";

/// One in-process call: JSON text in, JSON text out.
pub async fn call_text(server: &Server, request: &str) -> String {
    server
        .handle_json(request)
        .await
        .expect("a request with an id gets a response")
}

/// The text of the single text item of a `tools/call` response, `None` for anything else
/// (an error, `isError: true`, `input_required`).
pub fn result_text(response: &Value) -> Option<&str> {
    let result = response.get("result")?;
    if result.get("isError") == Some(&Value::Bool(true))
        || result.get("resultType").and_then(Value::as_str) != Some("complete")
    {
        return None;
    }
    result["content"][0]["text"].as_str()
}

// ---------------------------------------------------------------------------------------------
// HTTP in process.
// ---------------------------------------------------------------------------------------------

/// The Streamable HTTP router over `server`, default configuration.
pub fn http_router(server: Server) -> Router {
    router(server, HttpConfig::default())
}

/// A POST of `body` with the headers a client sends: host, content type, accept, and the
/// mirrored `Mcp-*` headers (which the router checks against the body).
pub fn http_request(body: &Value, text: &str) -> http::Request<String> {
    let mut request = http::Request::post("/mcp")
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(text.to_owned())
        .expect("the request builds");
    put_mirrored_headers(&mut request, body);
    request
}

/// One call through the router in process; returns the status and the body.
pub async fn http_call(app: &Router, body: &Value, text: &str) -> (u16, Vec<u8>) {
    let response = oneshot(app, http_request(body, text)).await;
    (response.status().as_u16(), response.into_body().to_vec())
}

// ---------------------------------------------------------------------------------------------
// Multi-round.
// ---------------------------------------------------------------------------------------------

/// The client capabilities of the multi-round call: form elicitation.
fn elicitation_capabilities() -> Value {
    json!({"elicitation": {"form": {}}})
}

/// The first request of the two-round `greet` call.
pub fn greet_request() -> Value {
    let mut body = build_call_request("greet", json!({"greeting": "Hello"}));
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        elicitation_capabilities();
    body
}

/// The text the two-round call ends with.
pub const GREET_TEXT: &str = "Hello, Ada!";

/// A complete two-round call as a client makes it: the first request, `input_required` with a
/// signed `requestState`, then the retry with `inputResponses` and the state echoed. Returns
/// the final response text.
pub async fn two_round_call(server: &Server, first: &str) -> String {
    let reply = call_text(server, first).await;
    let reply: Value = serde_json::from_str(&reply).expect("the reply is JSON");
    let result = &reply["result"];
    let state = result["requestState"]
        .as_str()
        .expect("round one ends with input_required and a requestState");
    let responses: Map<String, Value> = result["inputRequests"]
        .as_object()
        .expect("round one asks")
        .keys()
        .map(|key| {
            let answer = json!({"action": "accept", "content": {"name": "Ada"}});
            (key.clone(), answer)
        })
        .collect();
    let mut retry = greet_request();
    retry["id"] = json!(2);
    retry["params"]["inputResponses"] = Value::Object(responses);
    retry["params"]["requestState"] = Value::from(state);
    call_text(server, &retry.to_string()).await
}

// ---------------------------------------------------------------------------------------------
// What a test runs: the test surface over the same server.
// ---------------------------------------------------------------------------------------------

/// The context a `#[mcp_test(server = server)]` test gets, with elicitation declared so the
/// two-round call can ask.
pub fn test_context(server: &Server) -> mcp_test::testing::TestContext {
    mcp_test::testing::TestContext::with_options(
        server.clone(),
        mcp_test::testing::RequestOptions::new().client_capabilities(elicitation_capabilities()),
    )
}

/// One test step as a user writes it: `mcp.call_tool(..)` and `assert_tool_text!` on the
/// response (which panics, with the whole response, on anything but `expected`).
pub async fn surface_call(
    mcp: &mcp_test::testing::TestContext,
    tool: &str,
    arguments: Value,
    expected: &str,
) {
    mcp_test::assert_tool_text!(mcp.call_tool(tool, arguments).await, expected);
}

/// The two-round `greet` call through the test surface: `call_tool_rounds` with one scripted
/// answer, then `assert_tool_text!` on the last round.
pub async fn surface_two_rounds(mcp: &mcp_test::testing::TestContext) {
    let answers = mcp_test::target::Answers::new()
        .then(mcp_test::testing::answer::accept(json!({"name": "Ada"})));
    let rounds = mcp
        .call_tool_rounds("greet", json!({"greeting": "Hello"}), &answers)
        .await;
    mcp_test::assert_tool_text!(rounds, GREET_TEXT);
}

// ---------------------------------------------------------------------------------------------
// Cold start: 50 derived tools.
// ---------------------------------------------------------------------------------------------

// Each tool lives in a module of its own under one name, `Search`, written here in the macro
// body: `#[derive(Tool)]` spans its generated `run(self, ctx)` call with the type's identifier,
// so a type name passed in as a `macro_rules!` argument would not see `self` and `ctx`.
macro_rules! fifty_tools {
    ($($module:ident $name:tt)*) => {
        $(
            mod $module {
                use mcp_test::{Context, Tool, ToolError};

                /// Searches one of fifty generated catalogs.
                #[derive(Tool)]
                #[tool(name = $name)]
                pub struct Search {
                    /// What to look for
                    #[tool(min_length = 1, max_length = 80)]
                    query: String,
                    /// How many hits to return
                    #[tool(minimum = 1, maximum = 100)]
                    limit: Option<i64>,
                    /// Only hits in this language
                    #[tool(pattern = "^[a-z]{2}$")]
                    language: Option<String>,
                    /// Only hits with all of these tags
                    #[tool(max_items = 10, unique_items)]
                    tags: Vec<String>,
                    /// Match the query exactly
                    exact: bool,
                }

                impl Search {
                    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
                        let language = self.language.as_deref().unwrap_or("any language");
                        let mode = if self.exact { "exact" } else { "fuzzy" };
                        Ok(format!(
                            "{} {mode} hits for {} in {language}, {} tags",
                            self.limit.unwrap_or(10),
                            self.query,
                            self.tags.len()
                        ))
                    }
                }
            }
        )*

        /// A server with 50 derived tools (`tool00` ... `tool49`), five arguments each.
        pub fn fifty_tool_server() -> Server {
            Server::builder("fifty", "1.0.0")
                $(.tool::<$module::Search>())*
                .build()
                .expect("the 50-tool server builds")
        }
    };
}

fifty_tools!(
    t00 "tool00" t01 "tool01" t02 "tool02" t03 "tool03" t04 "tool04"
    t05 "tool05" t06 "tool06" t07 "tool07" t08 "tool08" t09 "tool09"
    t10 "tool10" t11 "tool11" t12 "tool12" t13 "tool13" t14 "tool14"
    t15 "tool15" t16 "tool16" t17 "tool17" t18 "tool18" t19 "tool19"
    t20 "tool20" t21 "tool21" t22 "tool22" t23 "tool23" t24 "tool24"
    t25 "tool25" t26 "tool26" t27 "tool27" t28 "tool28" t29 "tool29"
    t30 "tool30" t31 "tool31" t32 "tool32" t33 "tool33" t34 "tool34"
    t35 "tool35" t36 "tool36" t37 "tool37" t38 "tool38" t39 "tool39"
    t40 "tool40" t41 "tool41" t42 "tool42" t43 "tool43" t44 "tool44"
    t45 "tool45" t46 "tool46" t47 "tool47" t48 "tool48" t49 "tool49"
);

/// The first call on the 50-tool server (to the last tool, `tool49`).
pub fn fifty_first_request() -> Value {
    build_call_request(
        "tool49",
        json!({"query": "rust", "limit": 3, "language": "en", "tags": ["a"], "exact": false}),
    )
}

/// The text the first call on the 50-tool server answers.
pub const FIFTY_TEXT: &str = "3 fuzzy hits for rust in en, 1 tags";

// ---------------------------------------------------------------------------------------------
// Case generation: 1,000 tool schemas.
// ---------------------------------------------------------------------------------------------

/// One generated property schema; `k` picks the kind and its constraints.
fn property(k: usize) -> Value {
    match k % 8 {
        0 => json!({"type": "string", "minLength": 1 + k % 3, "maxLength": 40 + k % 7}),
        1 => json!({"type": "integer", "minimum": 0, "maximum": 10 + k}),
        2 => json!({"type": "boolean"}),
        3 => json!({"type": "string", "enum": ["low", "medium", "high"]}),
        4 => json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5}),
        5 => json!({"type": "number", "exclusiveMinimum": 0, "maximum": 1000}),
        6 => json!({"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"}),
        _ => json!({"type": "object",
                    "properties": {"street": {"type": "string", "minLength": 1},
                                   "zip": {"type": "string", "maxLength": 10}},
                    "required": ["street"], "additionalProperties": false}),
    }
}

/// A `tools/list` of 1,000 tools with varied schemas: every tenth is the 20-property `records`
/// action tool (as `#[derive(Tool)]` publishes it), the others plain tools of 1 to 12
/// properties, about half of them required, drawn from eight kinds (length, range, enum, array,
/// pattern, nested object, ...).
pub fn thousand_tools() -> Vec<Value> {
    let records = serde_json::to_value(Records::definition()).expect("a definition serializes");
    (0..1000)
        .map(|i| {
            if i % 10 == 0 {
                let mut tool = records.clone();
                tool["name"] = Value::from(format!("records_{i:04}"));
                return tool;
            }
            let count = 1 + i % 12;
            let properties: Map<String, Value> = (0..count)
                .map(|p| (format!("p{p}"), property(i + p)))
                .collect();
            let required: Vec<String> = (0..count)
                .filter(|p| (i + p) % 2 == 0)
                .map(|p| format!("p{p}"))
                .collect();
            json!({
                "name": format!("tool_{i:04}"),
                "inputSchema": {"type": "object", "properties": properties,
                                "required": required, "additionalProperties": false}
            })
        })
        .collect()
}
