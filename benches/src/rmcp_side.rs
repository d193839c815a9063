//! The same `add` and `records` tools on rmcp 3.11 (`#[tool_router]`), served and called over
//! `tokio::io::duplex`, as rmcp's own tests connect a client and a server.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, ProtocolVersion};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt as _, ServerHandler, ServiceExt as _,
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

/// The arguments of `add`.
#[derive(Deserialize, JsonSchema)]
pub struct AddArgs {
    /// First operand
    a: i64,
    /// Second operand
    b: i64,
}

/// The 20 properties of the `create` action, with the constraints of the mcp-test tool as
/// schema keywords (rmcp publishes them; it does not check them).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateData {
    #[schemars(length(min = 1, max = 64))]
    name: String,
    #[schemars(length(min = 3))]
    email: String,
    #[schemars(range(min = 0, max = 150))]
    age: i64,
    active: bool,
    #[schemars(length(min = 2, max = 2))]
    country: String,
    city: String,
    street: String,
    #[schemars(regex(pattern = "^[0-9]{5}$"))]
    zip: String,
    phone: Option<String>,
    #[schemars(range(min = 0))]
    score: f64,
    tags: Vec<String>,
    #[schemars(range(min = 1, max = 5))]
    priority: i64,
    notes: Option<String>,
    #[schemars(length(min = 1))]
    company: String,
    title: String,
    #[schemars(range(min = 0))]
    balance: i64,
    verified: bool,
    locale: String,
    timezone: String,
    referrer: Option<String>,
}

/// `{"action": ..., "data": ...}`, adjacently tagged as the mcp-test action tool's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "action", content = "data", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // as the mcp-test tool: one value per call
pub enum RecordsOp {
    /// Creates a record from its 20 fields.
    Create(CreateData),
    /// Deletes a record.
    Delete {
        /// The record
        id: String,
    },
}

/// The arguments of `records`. rmcp requires an input schema whose root is `type: object`, so
/// the tagged enum is flattened into a struct.
#[derive(Deserialize, JsonSchema)]
pub struct RecordsArgs {
    #[serde(flatten)]
    op: RecordsOp,
}

/// The rmcp server with `add` and `records`.
#[derive(Clone)]
pub struct RmcpServer {
    tool_router: ToolRouter<Self>,
}

impl Default for RmcpServer {
    fn default() -> Self {
        RmcpServer {
            tool_router: Self::tool_router(),
        }
    }
}

#[tool_router]
impl RmcpServer {
    /// Adds two integers.
    #[tool(name = "add", description = "Adds two integers.")]
    async fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }

    /// Manages customer records.
    #[tool(name = "records", description = "Manages customer records.")]
    async fn records(&self, Parameters(args): Parameters<RecordsArgs>) -> String {
        match args.op {
            RecordsOp::Create(d) => {
                let texts = [
                    &d.email,
                    &d.country,
                    &d.city,
                    &d.street,
                    &d.zip,
                    &d.company,
                    &d.title,
                    &d.locale,
                    &d.timezone,
                ];
                let optional = [&d.phone, &d.notes, &d.referrer];
                let set = texts.iter().filter(|s| !s.is_empty()).count()
                    + optional.iter().filter(|s| s.is_some()).count()
                    + usize::from(d.active)
                    + usize::from(d.verified)
                    + usize::from(d.age > 0)
                    + usize::from(d.score > 0.0)
                    + usize::from(d.priority > 0)
                    + usize::from(d.balance > 0)
                    + usize::from(!d.tags.is_empty());
                format!("created {} ({set} fields set)", d.name)
            }
            RecordsOp::Delete { id } => format!("deleted {id}"),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RmcpServer {}

/// The client: rmcp's default handler.
#[derive(Clone, Default)]
pub struct BenchClient;

impl ClientHandler for BenchClient {}

/// A connected rmcp client; its server runs as a task on the same runtime.
pub type RmcpClient = RunningService<RoleClient, BenchClient>;

/// Which rmcp lifecycle to connect with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifecycle {
    /// The 2026-07-28 era: `server/discover`, then self-contained requests with
    /// `_meta` protocol fields (what mcp-test serves).
    Discover,
    /// The legacy `initialize` handshake.
    Initialize,
}

/// Connects a client to a fresh [`RmcpServer`] over `tokio::io::duplex`. Call it inside the
/// runtime the calls will run on: the server is spawned on it.
pub async fn connect(lifecycle: Lifecycle) -> RmcpClient {
    let (server_side, client_side) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = RmcpServer::default()
            .serve(server_side)
            .await
            .expect("the rmcp server starts");
        let _ = running.waiting().await;
    });
    let mode = match lifecycle {
        Lifecycle::Discover => ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
        Lifecycle::Initialize => ClientLifecycleMode::Initialize,
    };
    BenchClient
        .serve_with_lifecycle(client_side, mode)
        .await
        .expect("the rmcp client connects")
}

/// `tools/call` params for `name` with `arguments` (an object).
pub fn call_params(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let arguments: JsonObject = match arguments {
        Value::Object(map) => map,
        other => panic!("arguments must be an object, got {other}"),
    };
    let mut params = CallToolRequestParams::new(name);
    params.arguments = Some(arguments);
    params
}

/// One call; panics on a transport or protocol error.
pub async fn call(client: &RmcpClient, params: CallToolRequestParams) -> CallToolResult {
    client
        .call_tool(params)
        .await
        .expect("the rmcp call succeeds")
}

/// The text of the first content item of an rmcp result.
pub fn text(result: &CallToolResult) -> Option<&str> {
    result.content.first()?.as_text().map(|t| t.text.as_str())
}
