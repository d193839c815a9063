//! The free request helpers, one per MCP method, each taking a target and [`RequestOptions`].

use super::options::{RequestOptions, Takes, object};
use crate::server::Caller;
use crate::target::{Connection, Exchange, Target, TargetError, TargetFuture, describe};
use serde::Serialize;
use serde_json::{Map, Value};
use std::panic::Location;
use std::time::Duration;

/// `target` as the test surface sends to it: every send waits at most `wait` for its reply,
/// the same way on every transport, and one that gets none by then fails with
/// [`TargetError::Timeout`]. An in-process server is not told the wait (it keeps its own
/// request limit, as a server in another process does, so its -32603 for a request past that
/// limit is the server's answer, on every transport); a client is, so that it cancels the
/// request (`notifications/cancelled` on stdio) when the wait is over.
pub(crate) struct Waiting<'a, T: ?Sized> {
    pub(crate) target: &'a T,
    pub(crate) wait: Duration,
}

impl<T: Target + ?Sized> Target for Waiting<'_, T> {
    fn label(&self) -> String {
        self.target.label()
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        Box::pin(async move {
            let in_process = self.target.connection().transport.is_none();
            let mut caller = caller.clone();
            caller.timeout = (!in_process).then_some(self.wait);
            let timed_out = || TargetError::Timeout {
                request: describe(message),
                after: self.wait,
            };
            match tokio::time::timeout(self.wait, self.target.send(message, &caller)).await {
                Ok(Err(e)) if is_timeout(&e) => Err(timed_out()),
                Ok(sent) => sent,
                Err(_) => Err(timed_out()),
            }
        })
    }

    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        self.target.send_text(text, caller)
    }

    fn connection(&self) -> Connection {
        self.target.connection()
    }
}

/// Whether `error` is a wait that ran out (the target's own or the client's).
fn is_timeout(error: &TargetError) -> bool {
    match error {
        TargetError::Timeout { .. } => true,
        #[cfg(any(feature = "client", feature = "http"))]
        TargetError::Client(crate::client::ClientError::Timeout { .. }) => true,
        _ => false,
    }
}

/// "in process", "over stdio" or "over HTTP": where `target`'s server is.
pub(crate) fn transport_of(target: &(impl Target + ?Sized)) -> &'static str {
    match target.connection().transport {
        None => "in process",
        Some(crate::spec::clauses::Transport::Http) => "over HTTP",
        Some(_) => "over stdio",
    }
}

/// Sends `body` to the target: for a [`Server`], encodes it, dispatches it through
/// [`Server::handle_json_with`] as `options`' caller, and decodes the reply; for a
/// [`Client`](crate::client::Client), sends it over the client's transport. [`send`] for a
/// helper that captured its caller's location.
pub(crate) async fn send_at(
    server: &(impl Target + ?Sized),
    body: &Value,
    options: &RequestOptions,
    caller: &'static Location<'static>,
) -> Value {
    exchange_at(server, body, options, caller)
        .await
        .response
        .unwrap_or(Value::Null)
}

/// [`exchange`] for a helper that captured its caller's location: a transport failure panics
/// naming that line (the test's), since a panic inside this future would name this file.
pub(crate) async fn exchange_at(
    server: &(impl Target + ?Sized),
    body: &Value,
    options: &RequestOptions,
    caller: &'static Location<'static>,
) -> Exchange {
    let waiting = Waiting {
        target: server,
        wait: options.wait(),
    };
    match crate::testing::coverage::send_recorded(&waiting, body, &options.caller()).await {
        Ok(exchange) => exchange,
        Err(TargetError::Timeout { request, after }) => panic!(
            "{caller}: no reply {} to {request} from {} within {after:?}, the test's timeout \
             (RequestOptions::timeout, #[mcp_test(timeout = ..)]): the request timed out",
            transport_of(server),
            server.label(),
        ),
        Err(e) => panic!(
            "{caller}: {} gave no reply to {}: {e}",
            server.label(),
            describe(body)
        ),
    }
}

/// Sends `body` and returns the whole [`Exchange`]: the response and the notifications the
/// request caused (progress, log messages), in process as over the wire. Panics, naming the
/// target, the transport error and the line of the call, when no reply can be had.
///
/// ```
/// use mcp_test::testing::{exchange, build_request, RequestOptions};
/// use mcp_test::Server;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let exchange = exchange(&server, &build_request("server/discover", serde_json::json!({})), &RequestOptions::new()).await;
/// assert!(exchange.notifications.is_empty());
/// assert_eq!(exchange.response.unwrap()["result"]["supportedVersions"][0], "2026-07-28");
/// # }
/// ```
#[track_caller]
pub fn exchange(
    server: &(impl Target + ?Sized),
    body: &Value,
    options: &RequestOptions,
) -> impl Future<Output = Exchange> {
    let caller = Location::caller();
    exchange_at(server, body, options, caller)
}

/// Sends an already built request body (from [`build_request`](crate::testing::build_request) or
/// [`mcp_request!`](crate::mcp_request)) through the server's full path, as `options`' caller.
/// Only the identity, assigns and timeout of `options` apply: the body is sent as written.
/// Returns the decoded response, or `null` for a notification (which gets none).
///
/// ```
/// use mcp_test::testing::{send, RequestOptions};
/// use mcp_test::{assert_rpc_error, mcp_request, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let response = send(&server, &mcp_request!("ping"), &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601);
/// # }
/// ```
#[track_caller]
pub fn send(
    server: &(impl Target + ?Sized),
    body: &Value,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let caller = Location::caller();
    send_at(server, body, options, caller)
}

/// Calls tool `name` with `arguments` and returns the complete JSON-RPC response. Takes the
/// retry options (`request_state`, `input_responses`).
///
/// ```
/// use mcp_test::testing::{call_tool, RequestOptions};
/// use mcp_test::{assert_tool_text, CallToolResult, Context, Server, Tool, ToolError};
/// use serde_json::{json, Value};
///
/// struct Whoami;
/// impl Tool for Whoami {
///     const NAME: &'static str = "whoami";
///     fn input_schema() -> Value { json!({"type": "object"}) }
///     fn parse(_: Value) -> Result<Self, ToolError> { Ok(Whoami) }
///     async fn call(self, ctx: &Context) -> Result<CallToolResult, ToolError> {
///         Ok(CallToolResult::text(ctx.principal().unwrap_or("nobody")))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").tool::<Whoami>().build().unwrap();
/// let response = call_tool(&server, "whoami", json!({}), &RequestOptions::new()).await;
/// assert_tool_text!(response, "test-principal");
/// let response = call_tool(&server, "whoami", json!({}), &RequestOptions::new().principal("alice")).await;
/// assert_eq!(response["result"]["content"][0]["text"], "alice");
/// # }
/// ```
#[track_caller]
pub fn call_tool(
    server: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let body = options.tool_call_body("call_tool", name, arguments);
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Lists one page of tools; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_tools, result, RequestOptions};
/// use mcp_test::Server;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("empty", "1.0.0").build().unwrap();
/// // A server without tools does not advertise them, so tools/list is -32601.
/// let response = list_tools(&server, &RequestOptions::new()).await;
/// assert_eq!(response["error"]["code"], -32601);
/// # }
/// ```
#[track_caller]
pub fn list_tools(
    server: &(impl Target + ?Sized),
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let body = options.body("list_tools", Takes::Cursor, "tools/list", Map::new());
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Lists one page of resources; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_resources, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// // A server that does not advertise resources answers -32601.
/// assert_rpc_error!(list_resources(&server, &RequestOptions::new()).await, -32601);
/// # }
/// ```
#[track_caller]
pub fn list_resources(
    server: &(impl Target + ?Sized),
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let body = options.body(
        "list_resources",
        Takes::Cursor,
        "resources/list",
        Map::new(),
    );
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Lists one page of resource templates; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_resource_templates, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// assert_rpc_error!(list_resource_templates(&server, &RequestOptions::new()).await, -32601);
/// # }
/// ```
#[track_caller]
pub fn list_resource_templates(
    server: &(impl Target + ?Sized),
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let body = options.body(
        "list_resource_templates",
        Takes::Cursor,
        "resources/templates/list",
        Map::new(),
    );
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Reads the resource at `uri`. Takes the retry options.
///
/// ```
/// use mcp_test::testing::{read_resource, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// let response = read_resource(&server, "file:///docs/item-7", &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601, "resources/read");
/// # }
/// ```
#[track_caller]
pub fn read_resource(
    server: &(impl Target + ?Sized),
    uri: &str,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let mut params = Map::new();
    params.insert("uri".to_owned(), Value::from(uri));
    let body = options.body("read_resource", Takes::Retry, "resources/read", params);
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Lists one page of prompts; pass the `cursor` option for a continuation.
///
/// ```
/// use mcp_test::testing::{list_prompts, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// assert_rpc_error!(list_prompts(&server, &RequestOptions::new()).await, -32601);
/// # }
/// ```
#[track_caller]
pub fn list_prompts(
    server: &(impl Target + ?Sized),
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let body = options.body("list_prompts", Takes::Cursor, "prompts/list", Map::new());
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Gets prompt `name` with string `arguments`. Takes the retry options.
///
/// ```
/// use mcp_test::testing::{get_prompt, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// use serde_json::json;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// let response = get_prompt(&server, "summarize", json!({"topic": "release"}), &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601);
/// # }
/// ```
#[track_caller]
pub fn get_prompt(
    server: &(impl Target + ?Sized),
    name: &str,
    arguments: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let arguments = object("get_prompt", "arguments", arguments);
    let mut params = Map::new();
    params.insert("name".to_owned(), Value::from(name));
    params.insert("arguments".to_owned(), arguments);
    let body = options.body("get_prompt", Takes::Retry, "prompts/get", params);
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Requests completions for a prompt or resource-template reference: `reference` is the wire
/// `ref` (`{"type": "ref/prompt", "name": ..}`), `argument` is `{"name": .., "value": ..}`.
/// Pass the `completion_context` option for the request's `context`.
///
/// ```
/// use mcp_test::testing::{complete, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// use serde_json::json;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("tools-only", "1.0.0").build().unwrap();
/// let response = complete(
///     &server,
///     json!({"type": "ref/prompt", "name": "summarize"}),
///     json!({"name": "topic", "value": "rel"}),
///     &RequestOptions::new(),
/// ).await;
/// assert_rpc_error!(response, -32601);
/// # }
/// ```
#[track_caller]
pub fn complete(
    server: &(impl Target + ?Sized),
    reference: impl Serialize,
    argument: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let mut params = Map::new();
    params.insert("ref".to_owned(), object("complete", "reference", reference));
    params.insert(
        "argument".to_owned(),
        object("complete", "argument", argument),
    );
    let body = options.body("complete", Takes::Completion, "completion/complete", params);
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Sends `server/discover`.
///
/// ```
/// use mcp_test::testing::{discover, result, RequestOptions};
/// use mcp_test::Server;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let discovered = result(discover(&server, &RequestOptions::new()).await);
/// assert_eq!(discovered["supportedVersions"][0], "2026-07-28");
/// # }
/// ```
#[track_caller]
pub fn discover(
    server: &(impl Target + ?Sized),
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let body = options.body("discover", Takes::Nothing, "server/discover", Map::new());
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}

/// Sends any request method through the same builder. `params` is an object (or `null` for
/// none) that must not hold `_meta`, `requestState` or `inputResponses`: those are the `meta`,
/// `request_state` and `input_responses` options, so protocol fields stay apart from
/// application metadata. Takes the retry options.
///
/// ```
/// use mcp_test::testing::{request, RequestOptions};
/// use mcp_test::{assert_rpc_error, Server};
/// use serde_json::Value;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::builder("demo", "1.0.0").build().unwrap();
/// let response = request(&server, "ping", Value::Null, &RequestOptions::new()).await;
/// assert_rpc_error!(response, -32601, "removed");
/// # }
/// ```
#[track_caller]
pub fn request(
    server: &(impl Target + ?Sized),
    method: &str,
    params: impl Serialize,
    options: &RequestOptions,
) -> impl Future<Output = Value> {
    let params = match object("request", "params", params) {
        Value::Null => Map::new(),
        Value::Object(params) => params,
        other => panic!(
            "request: params must be a JSON object (or null for none), got {}: {other}",
            crate::wire::json_type(&other)
        ),
    };
    for (key, option) in [
        ("_meta", "meta"),
        ("requestState", "request_state"),
        ("inputResponses", "input_responses"),
    ] {
        if params.contains_key(key) {
            panic!("request: params must not hold {key:?}; set it with RequestOptions::{option}");
        }
    }
    let body = options.body("request", Takes::Retry, method, params);
    let caller = Location::caller();
    async move { send_at(server, &body, options, caller).await }
}
