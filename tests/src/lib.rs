//! Tools shared by the transport tests and the `transport_fixture` binary, written with the
//! public API only, as a downstream crate would.

use mcp_test::wire::LoggingLevel;
use mcp_test::{CallToolResult, Context, Server, Tool, ToolError};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// Two calls of [`Rendezvous`] finish only if they run at the same time: each waits for the
/// other at a barrier. A transport that serialised requests would never answer them.
#[derive(Clone)]
pub struct Gate(pub Arc<tokio::sync::Barrier>);

/// Waits at the [`Gate`] barrier, then answers its `label`.
pub struct Rendezvous {
    label: String,
}

impl Tool for Rendezvous {
    const NAME: &'static str = "rendezvous";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"label": {"type": "string"}}, "required": ["label"]})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Rendezvous {
            label: args["label"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let gate = ctx
            .state::<Gate>()
            .ok_or_else(|| ToolError::new("no gate"))?;
        gate.0.wait().await;
        Ok(CallToolResult::text(self.label))
    }
}

/// Sleeps for `ms` milliseconds (bounded), then answers "slept".
pub struct Sleep {
    ms: u64,
}

impl Tool for Sleep {
    const NAME: &'static str = "sleep";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": 600000}}, "required": ["ms"]})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Sleep {
            ms: args["ms"].as_u64().unwrap_or(0),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        tokio::time::sleep(Duration::from_millis(self.ms)).await;
        Ok(CallToolResult::text("slept"))
    }
}

/// Reports `steps` progress notifications and an info log line, then answers "done".
pub struct Progress {
    steps: u32,
}

impl Tool for Progress {
    const NAME: &'static str = "progress";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"steps": {"type": "integer", "minimum": 1, "maximum": 100}}, "required": ["steps"]})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Progress {
            steps: args["steps"].as_u64().unwrap_or(1) as u32,
        })
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        for step in 1..=self.steps {
            ctx.progress(f64::from(step), Some(f64::from(self.steps)), None);
            tokio::task::yield_now().await;
        }
        ctx.log(LoggingLevel::Info, Some("progress"), json!("finished"));
        Ok(CallToolResult::text("done"))
    }
}

/// Looks up weather by region; `region` is mirrored as `Mcp-Param-Region`, `days` as
/// `Mcp-Param-Days`, `metric` as `Mcp-Param-Metric`.
pub struct Forecast {
    region: String,
}

impl Tool for Forecast {
    const NAME: &'static str = "forecast";
    fn input_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "days": {"type": "integer", "x-mcp-header": "Days"},
                "metric": {"type": "boolean", "x-mcp-header": "Metric"}
            },
            "required": ["region"]
        })
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Forecast {
            region: args["region"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(format!("sunny in {}", self.region)))
    }
}

/// Answers who is calling: principal, tenant and scopes as JSON text.
pub struct WhoAmI;

impl Tool for WhoAmI {
    const NAME: &'static str = "whoami";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(WhoAmI)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(
            json!({"principal": ctx.principal(), "tenant": ctx.tenant(), "scopes": ctx.scopes()})
                .to_string(),
        ))
    }
}

/// Announces that the tool list changed (as a server whose tools depend on a flag would).
pub struct Announce;

impl Tool for Announce {
    const NAME: &'static str = "announce";
    fn input_schema() -> Value {
        json!({"type": "object"})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Announce)
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        if !ctx.notify_tools_list_changed() {
            return Err(ToolError::new("no server"));
        }
        Ok(CallToolResult::text("announced"))
    }
}

/// Misbehaves on purpose: `panic` panics, `hang` never finishes, `spin` loops (yielding)
/// forever.
pub struct Misbehave {
    mode: String,
}

impl Tool for Misbehave {
    const NAME: &'static str = "misbehave";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"mode": {"enum": ["panic", "hang", "spin"]}}, "required": ["mode"]})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(Misbehave {
            mode: args["mode"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        match self.mode.as_str() {
            "panic" => panic!("misbehave: asked to panic"),
            "hang" => std::future::pending().await,
            _ => loop {
                tokio::task::yield_now().await;
            },
        }
    }
}

/// Asks the client for a name (one elicitation round), then answers
/// `"{nonce}: hi {name}"`: a load test can check no answer leaks into another call.
pub struct AskName {
    nonce: String,
}

impl Tool for AskName {
    const NAME: &'static str = "ask_name";
    fn input_schema() -> Value {
        json!({"type": "object", "properties": {"nonce": {"type": "string"}}, "required": ["nonce"]})
    }
    fn parse(args: Value) -> Result<Self, ToolError> {
        Ok(AskName {
            nonce: args["nonce"].as_str().unwrap_or_default().to_owned(),
        })
    }
    async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
        let answer = ctx.elicit("What is your name?", schema).await?;
        let name = match answer {
            mcp_test::rounds::Elicitation::Accept(form) => {
                form["name"].as_str().unwrap_or("?").to_owned()
            }
            _ => "nobody".to_owned(),
        };
        Ok(CallToolResult::text(format!("{}: hi {name}", self.nonce)))
    }
}

/// The server every transport test uses.
pub fn transport_server() -> Server {
    Server::builder("transport-fixture", "1.0.0")
        .logging()
        .tool::<Rendezvous>()
        .tool::<Sleep>()
        .tool::<Progress>()
        .tool::<Forecast>()
        .tool::<WhoAmI>()
        .tool::<Announce>()
        .tool::<Misbehave>()
        .tool::<AskName>()
        .state(Gate(Arc::new(tokio::sync::Barrier::new(2))))
        .build()
        .expect("the fixture server builds")
}

/// The conformance fixture server (`mcp-test/examples/conformance.rs`), one definition for
/// the `conformance_fixture` binary and the tests that serve it in process:
/// [`conformance::conformance_server`], or [`conformance::conformance_builder`] to change a
/// setting first.
#[path = "../../mcp-test/examples/conformance.rs"]
pub mod conformance;

pub mod matrix;

pub mod notes;

pub mod rmcp_calculator;

pub mod variant;

/// The README's examples compile as this crate's doctests, so the README cannot drift from the
/// library.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// Serves `server` over Streamable HTTP on 127.0.0.1, on a port the system picks, as a task of
/// the current runtime (so it ends with the test), and returns the endpoint's URL.
pub async fn serve_http(server: Server) -> String {
    use mcp_test::transport::http;
    let listener = http::bind_local(0).await.expect("a free 127.0.0.1 port");
    let url = format!(
        "http://{}/mcp",
        listener.local_addr().expect("a bound address")
    );
    tokio::spawn(http::serve(listener, server, http::HttpConfig::default()));
    url
}

/// The message a panic carried (its payload a `String` or a `&str`), if any.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
}

/// The panic message of `future`, which must panic (empty when it carried none).
pub async fn panic_of<F: std::future::Future>(future: F) -> String {
    use futures_util::FutureExt;
    match std::panic::AssertUnwindSafe(future).catch_unwind().await {
        Ok(_) => panic!("expected a panic"),
        Err(payload) => panic_message(&*payload).unwrap_or_default(),
    }
}
