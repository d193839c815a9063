//! Request helpers: one per MCP method, each building a JSON-RPC request, encoding it to JSON
//! text, and dispatching it through [`Server::handle_json_with`], the server's full path, then
//! decoding the complete JSON-RPC response. Every helper takes any [`Target`]: an in-process
//! [`Server`], or a [`Client`](crate::client::Client) connected to a server in another process.

mod context;
mod era;
mod helpers;
mod options;

pub use context::TestContext;
pub(crate) use helpers::{Waiting, send_at, transport_of};
pub use helpers::{
    call_tool, complete, discover, exchange, get_prompt, list_prompts, list_resource_templates,
    list_resources, list_tools, read_resource, request, send,
};
pub use options::DEFAULT_WAIT;
pub use options::{DEFAULT_PRINCIPAL, RequestOptions};
