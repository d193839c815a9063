//! The bundled example server that `mcp-test check` checks when given no target: a small notes
//! service built from derived tools, a resource, a resource template and a prompt.

use mcp_test::prompts::{Prompt, PromptMessage};
use mcp_test::resources::{Resource, ResourceTemplate};
use mcp_test::{Context, Json, Server, Tool, ToolError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The notes every example server starts with.
const SEED_NOTES: &[(&str, &str, &str)] = &[
    ("n-1", "Groceries", "apples, pears"),
    ("n-2", "Ideas", "a tool that checks MCP servers"),
    ("n-3", "Travel", "book the train"),
];

/// The example server's notes: shared state, one store per server.
#[derive(Debug)]
struct Store {
    notes: Mutex<BTreeMap<String, Note>>,
    /// Who searched, when a search names its requester.
    audit: Mutex<Vec<String>>,
}

impl Store {
    fn new() -> Self {
        let notes = SEED_NOTES
            .iter()
            .map(|(id, title, body)| {
                let note = Note {
                    id: (*id).to_owned(),
                    title: (*title).to_owned(),
                    body: (*body).to_owned(),
                    labels: Vec::new(),
                };
                ((*id).to_owned(), note)
            })
            .collect();
        Store {
            notes: Mutex::new(notes),
            audit: Mutex::new(Vec::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Note>> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn store(ctx: &Context) -> Result<Arc<Store>, ToolError> {
    ctx.state::<Arc<Store>>()
        .cloned()
        .ok_or_else(|| ToolError::new("the notes store is not registered"))
}

/// A note.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Note {
    /// Its id, `n-<number>`.
    id: String,
    /// Its title.
    title: String,
    /// Its text.
    body: String,
    /// Its labels.
    labels: Vec<Label>,
}

/// A coloured label on a note.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Label {
    /// The label's name.
    #[schemars(length(min = 1, max = 20))]
    name: String,
    /// Its colour.
    color: Color,
}

/// A label colour.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
    Blue,
}

/// Result order.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Order {
    Newest,
    Oldest,
}

/// A note to create.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NewNote {
    /// The title.
    #[schemars(length(min = 1, max = 80))]
    title: String,
    /// The text.
    body: String,
    /// Up to three labels.
    #[schemars(length(max = 3))]
    labels: Vec<Label>,
}

/// Searches notes by text.
#[derive(Tool)]
#[tool(
    name = "search_notes",
    annotations(read_only, idempotent, open_world = false)
)]
struct SearchNotes {
    /// Text to look for in titles and bodies.
    #[tool(min_length = 1, max_length = 100)]
    query: String,
    /// How many notes to return at most.
    #[tool(minimum = 1, maximum = 50, default = 10)]
    limit: u32,
    /// Result order.
    order: Option<Order>,
    /// Only notes carrying all of these labels.
    #[tool(max_items = 5, unique_items)]
    labels: Option<Vec<String>>,
    /// A project code such as `ABC-123`.
    #[tool(pattern = "^[A-Z]{3}-[0-9]{3}$")]
    project: Option<String>,
    /// Who asks, for the audit log.
    #[tool(format = "email")]
    requested_by: Option<String>,
}

impl SearchNotes {
    async fn run(self, ctx: &Context) -> Result<Json<Vec<Note>>, ToolError> {
        let store = store(ctx)?;
        let query = self.query.to_lowercase();
        let wanted = self.labels.unwrap_or_default();
        if let Some(who) = self.requested_by {
            store
                .audit
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(who);
        }
        let project = self.project;
        let mut found: Vec<Note> = store
            .lock()
            .values()
            .filter(|n| {
                n.title.to_lowercase().contains(&query) || n.body.to_lowercase().contains(&query)
            })
            .filter(|n| wanted.iter().all(|w| n.labels.iter().any(|l| &l.name == w)))
            .filter(|n| project.as_ref().is_none_or(|p| n.body.contains(p.as_str())))
            .cloned()
            .collect();
        if matches!(self.order, Some(Order::Newest)) {
            found.reverse();
        }
        found.truncate(self.limit as usize);
        Ok(Json(found))
    }
}

/// Reads, creates and deletes notes.
#[derive(Tool)]
#[tool(name = "notes", annotations(destructive = false, open_world = false))]
enum Notes {
    /// Gets one note by id.
    Get {
        /// The note's id.
        #[tool(pattern = "^n-[0-9]{1,6}$", example = "n-1")]
        id: String,
    },
    /// Creates a note and returns its id.
    Create {
        /// The note.
        note: NewNote,
    },
    /// Counts the notes.
    Count,
}

impl Notes {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let store = store(ctx)?;
        let mut notes = store.lock();
        match self {
            Notes::Get { id } => match notes.get(&id) {
                Some(note) => Ok(format!("{}: {}", note.title, note.body)),
                None => Err(ToolError::new(format!("no note with id {id}"))),
            },
            Notes::Create { note } => {
                let id = format!("n-{}", notes.len() + 1);
                notes.insert(
                    id.clone(),
                    Note {
                        id: id.clone(),
                        title: note.title,
                        body: note.body,
                        labels: note.labels,
                    },
                );
                Ok(id)
            }
            Notes::Count => Ok(notes.len().to_string()),
        }
    }
}

/// The prompt's arguments.
#[derive(Deserialize, JsonSchema)]
struct SummarizeArgs {
    /// The id of the note to summarize.
    id: String,
}

/// The bundled example server: a small notes service, the target of `mcp-test check` without
/// arguments and a realistic fixture for [`assert_schema_cases!`](mcp_test::assert_schema_cases).
///
/// - `search_notes`: a plain tool with length, bound, enum, array, pattern and format
///   constraints, answering with structured content (an `outputSchema`); read-only and closed
///   world, so `check` calls it by default;
/// - `notes`: an action tool (`get`, `create` with a nested object and an array of objects,
///   `count`); `create` writes, so it is annotated `destructiveHint: false` (an additive
///   write), which `check` calls only under `--allow-writes`
///   ([`CheckOptions::allow_writes`](crate::CheckOptions::allow_writes));
/// - the resource `notes://index`, the template `notes://notes/{id}` and the prompt
///   `summarize` with a required argument.
///
/// Each call builds a fresh server with its own store.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = mcp_test_check::example_server();
/// let names: Vec<_> = server.tool_definitions().iter().map(|t| t.name.as_str()).collect();
/// assert_eq!(names, ["notes", "search_notes"]);
/// mcp_test::assert_schema_cases!(server);
/// # }
/// ```
pub fn example_server() -> Server {
    let store = Arc::new(Store::new());
    let index_store = store.clone();
    let note_store = store.clone();
    let prompt_store = store.clone();
    Server::builder("mcp-test-example-notes", env!("CARGO_PKG_VERSION"))
        .instructions("A small notes service: search, read and create notes.")
        .state(store)
        .tool::<SearchNotes>()
        .tool::<Notes>()
        .resource(
            Resource::new("notes://index", "index")
                .description("Every note's id and title")
                .mime_type("text/plain")
                .read(move |_ctx: Context| {
                    let store = index_store.clone();
                    async move {
                        let lines: Vec<String> = store
                            .lock()
                            .values()
                            .map(|n| format!("{} {}", n.id, n.title))
                            .collect();
                        Ok::<_, ToolError>(lines.join("\n"))
                    }
                }),
        )
        .resource_template(
            ResourceTemplate::new("notes://notes/{id}", "note")
                .description("One note's text")
                .mime_type("text/plain")
                .read(move |_ctx: Context, args: SummarizeArgs| {
                    let store = note_store.clone();
                    async move {
                        match store.lock().get(&args.id) {
                            Some(n) => Ok(n.body.clone()),
                            None => Err(ToolError::from(mcp_test::ErrorObject::new(
                                mcp_test::wire::error_codes::INVALID_PARAMS,
                                format!("Resource not found: notes://notes/{}", args.id),
                            ))),
                        }
                    }
                }),
        )
        .prompt(
            Prompt::new("summarize")
                .description("Asks for a one-line summary of a note")
                .get(move |_ctx: Context, args: SummarizeArgs| {
                    let store = prompt_store.clone();
                    async move {
                        let body = store.lock().get(&args.id).map(|n| n.body.clone());
                        match body {
                            Some(body) => Ok(vec![PromptMessage::user_text(format!(
                                "Summarize this note in one line:\n{body}"
                            ))]),
                            None => Err(ToolError::from(mcp_test::ErrorObject::new(
                                mcp_test::wire::error_codes::INVALID_PARAMS,
                                format!("no note with id {}", args.id),
                            ))),
                        }
                    }
                }),
        )
        .build()
        .expect("the example server's declarations are valid")
}
