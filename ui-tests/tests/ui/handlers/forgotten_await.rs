//! Handlers that return a helper's future instead of awaiting it, or an unsupported type.

use mcp_test::completion::CompletionRequest;
use mcp_test::prompts::Prompt;
use mcp_test::resources::{Resource, ResourceTemplate};
use mcp_test::{Context, ToolError};

async fn greeting() -> String {
    "Hello!".to_owned()
}

async fn cities() -> Vec<String> {
    vec!["Paris".to_owned()]
}

#[derive(serde::Deserialize)]
struct Item {
    id: u32,
}

fn main() {
    let _ = Prompt::new("greet").get(|_ctx: Context, ()| async move { Ok::<_, ToolError>(greeting()) });
    let _ = Resource::new("test://greeting", "greeting")
        .read(|_ctx: Context| async move { Ok::<_, ToolError>(greeting()) });
    let _ = ResourceTemplate::new("test://items/{id}", "item")
        .read(|_ctx: Context, item: Item| async move { Ok::<_, ToolError>(item.id) });
    let _ = Prompt::new("trip")
        .text("Plan a trip")
        .complete("city", |_ctx: Context, _req: CompletionRequest| async move {
            Ok::<_, ToolError>(cities())
        });
}
