//! A notes server behind OAuth scopes, as a downstream crate would write one on mcp-test's
//! runtime: reading needs [`READ`], writing [`WRITE`] (each tool's own
//! [`Access::scopes`]); served over HTTP by the `notes_server` binary trusting an issuer
//! (`--trust-issuer`) or one static token (`--static-token`), and in process by the tests.

use mcp_test::auth::TokenValidator;
use mcp_test::transport::http::{AuthRejection, HttpConfig, Router, router};
use mcp_test::{Access, Context, Identity, Server, Tool, ToolError};
use std::sync::{Arc, Mutex};

/// The scope that reads notes.
pub const READ: &str = "notes.read";
/// The scope that writes them.
pub const WRITE: &str = "notes.write";

/// The notes, shared by the tools of one server.
#[derive(Clone, Default)]
pub struct Notes(Arc<Mutex<Vec<String>>>);

impl Notes {
    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Lists the notes.
#[derive(Tool)]
#[tool(annotations(read_only))]
pub struct ReadNotes {}

impl ReadNotes {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let notes = ctx
            .state::<Notes>()
            .ok_or_else(|| ToolError::new("no notes"))?;
        let whose = ctx.identity().tenant.as_deref().unwrap_or("everyone");
        Ok(format!("notes of {whose}: [{}]", notes.all().join(", ")))
    }
}

/// Adds a note.
#[derive(Tool)]
#[tool(annotations(destructive = false, idempotent = false))]
pub struct AddNote {
    /// The note's text
    #[tool(min_length = 1, max_length = 200)]
    pub text: String,
}

impl AddNote {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let notes = ctx
            .state::<Notes>()
            .ok_or_else(|| ToolError::new("no notes"))?;
        let mut all = notes.0.lock().unwrap_or_else(|e| e.into_inner());
        all.push(self.text);
        Ok(format!("{} notes", all.len()))
    }
}

/// The notes server: `read_notes` behind [`READ`], `add_note` behind [`WRITE`], a
/// `notes://drafts` resource and a `draft` prompt behind [`WRITE`] too.
pub fn notes_server() -> Server {
    let notes = Notes::default();
    let drafts = notes.clone();
    Server::builder("notes", "1.0.0")
        .tool_with_access::<ReadNotes>(Access::scopes([READ]))
        .tool_with_access::<AddNote>(Access::scopes([WRITE]))
        .resource(
            mcp_test::resources::Resource::new("notes://drafts", "drafts")
                .mime_type("text/plain")
                .access(Access::scopes([WRITE]))
                .read(move |_ctx: Context| {
                    let drafts = drafts.clone();
                    async move { Ok::<_, ToolError>(drafts.all().join("\n")) }
                }),
        )
        .prompt(
            mcp_test::prompts::Prompt::new("draft")
                .description("Drafts a note")
                .access(Access::scopes([WRITE]))
                .text("Draft a short note."),
        )
        .state(notes)
        .build()
        .expect("the notes server builds")
}

/// How the HTTP endpoint authenticates.
#[derive(Clone, Debug)]
pub enum NotesAuth {
    /// Tokens of this issuer for the endpoint's URL (no scope needed for the endpoint
    /// itself; `scopes_supported` lists [`READ`] alone, the minimum, unless more are given).
    Issuer {
        /// The issuer.
        issuer: String,
        /// The metadata's `scopes_supported` (empty: [`READ`]).
        scopes_supported: Vec<String>,
    },
    /// `Authorization: Bearer TOKEN` with this token, granting [`READ`] and [`WRITE`]; the
    /// tenant is the `X-Notes-Tenant` header's.
    Static(String),
}

/// The router serving [`notes_server`] at `url` (`http://ADDR/mcp`) behind `auth`.
pub fn notes_router(url: &str, auth: NotesAuth) -> Router {
    let server = notes_server();
    match auth {
        NotesAuth::Issuer {
            issuer,
            scopes_supported,
        } => {
            let supported = if scopes_supported.is_empty() {
                vec![READ.to_owned()]
            } else {
                scopes_supported
            };
            let validator = TokenValidator::new(issuer, url).scopes_supported(supported);
            router(
                server,
                HttpConfig::default().authenticator(validator.clone()),
            )
            .merge(validator.metadata_router())
        }
        NotesAuth::Static(token) => {
            let expected = format!("Bearer {token}");
            let config = HttpConfig::default().authenticator(
                move |parts: &http::request::Parts| -> Result<Identity, AuthRejection> {
                    let header = |name: &str| {
                        parts
                            .headers
                            .get(name)
                            .and_then(|v| v.to_str().ok())
                            .map(str::to_owned)
                    };
                    if header("authorization").as_deref() != Some(expected.as_str()) {
                        return Err(AuthRejection::new("Bearer", "a bearer token is required"));
                    }
                    let mut who = Identity::principal("static").with_scopes([READ, WRITE]);
                    who.tenant = header("x-notes-tenant");
                    Ok(who)
                },
            );
            router(server, config)
        }
    }
}
