//! A git-like server for the consent tests: one tool of each class, its repository in shared
//! state, so a test can tell whether `check` wrote to it. Nothing here leaves the process:
//! `fetch_url` only records the URL it was given.
//!
//! | tool | annotations | class |
//! |---|---|---|
//! | `status` | `readOnlyHint: true`, `openWorldHint: false` | read-only |
//! | `fetch_url` | `readOnlyHint: true` | open world |
//! | `commit`, `create_branch`, `checkout` | `destructiveHint: false`, `openWorldHint: false` | additive write |
//! | `reset_hard` | none | destructive |

use mcp_test::{Context, Server, Tool, ToolError};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The repository: what a write changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repo {
    /// The branch checked out.
    pub head: String,
    /// Each branch and the commit messages on it.
    pub branches: BTreeMap<String, Vec<String>>,
    /// Whether a change is staged.
    pub staged: bool,
}

/// The fixture's state: the repository, and the URLs `fetch_url` was asked for.
#[derive(Debug)]
pub struct Git {
    pub repo: Mutex<Repo>,
    pub fetched: Mutex<Vec<String>>,
}

impl Git {
    /// A repository on `main` with one commit and a staged change.
    pub fn new() -> Arc<Git> {
        let branches = BTreeMap::from([("main".to_owned(), vec!["initial".to_owned()])]);
        Arc::new(Git {
            repo: Mutex::new(Repo {
                head: "main".to_owned(),
                branches,
                staged: true,
            }),
            fetched: Mutex::new(Vec::new()),
        })
    }

    /// The repository as it is now.
    pub fn snapshot(&self) -> Repo {
        self.repo.lock().unwrap().clone()
    }
}

fn git(ctx: &Context) -> Result<Arc<Git>, ToolError> {
    ctx.state::<Arc<Git>>()
        .cloned()
        .ok_or_else(|| ToolError::new("no repository"))
}

/// Shows the branch checked out and whether a change is staged.
#[derive(Tool)]
#[tool(name = "status", annotations(read_only, open_world = false))]
struct Status {}

impl Status {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let git = git(ctx)?;
        let repo = git.repo.lock().unwrap();
        Ok(format!("on {}, staged: {}", repo.head, repo.staged))
    }
}

/// Commits the staged change.
#[derive(Tool)]
#[tool(name = "commit", annotations(destructive = false, open_world = false))]
struct Commit {
    /// The commit message.
    #[tool(min_length = 1, max_length = 200)]
    message: String,
}

impl Commit {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let git = git(ctx)?;
        let mut repo = git.repo.lock().unwrap();
        let head = repo.head.clone();
        repo.branches.entry(head).or_default().push(self.message);
        repo.staged = false;
        Ok("committed".to_owned())
    }
}

/// Creates a branch at the head.
#[derive(Tool)]
#[tool(
    name = "create_branch",
    annotations(destructive = false, open_world = false)
)]
struct CreateBranch {
    /// The new branch's name.
    #[tool(min_length = 1, max_length = 100)]
    name: String,
}

impl CreateBranch {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let git = git(ctx)?;
        let mut repo = git.repo.lock().unwrap();
        let commits = repo.branches[&repo.head].clone();
        repo.branches.insert(self.name.clone(), commits);
        Ok(format!("created {}", self.name))
    }
}

/// Checks a branch out.
#[derive(Tool)]
#[tool(
    name = "checkout",
    annotations(destructive = false, open_world = false)
)]
struct Checkout {
    /// The branch to check out.
    #[tool(min_length = 1, max_length = 100)]
    branch: String,
}

impl Checkout {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let git = git(ctx)?;
        let mut repo = git.repo.lock().unwrap();
        // A lenient checkout: an unknown branch is created, as `git checkout -B` would.
        repo.branches
            .entry(self.branch.clone())
            .or_insert_with(Vec::new);
        repo.head = self.branch.clone();
        Ok(format!("on {}", self.branch))
    }
}

/// Throws away every commit but the first and the staged change.
#[derive(Tool)]
#[tool(name = "reset_hard")]
struct ResetHard {}

impl ResetHard {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let git = git(ctx)?;
        let mut repo = git.repo.lock().unwrap();
        let head = repo.head.clone();
        repo.branches.entry(head).or_default().truncate(1);
        repo.staged = false;
        Ok("reset".to_owned())
    }
}

/// Fetches a URL (here: records it, and answers without going anywhere).
#[derive(Tool)]
#[tool(name = "fetch_url", annotations(read_only))]
struct FetchUrl {
    /// The URL to fetch.
    #[tool(format = "uri", max_length = 2000)]
    url: String,
}

impl FetchUrl {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let git = git(ctx)?;
        git.fetched.lock().unwrap().push(self.url.clone());
        Ok(format!("fetched {}", self.url))
    }
}

/// The six tools, in the order `tools/list` gives them (by name).
pub const TOOLS: [&str; 6] = [
    "checkout",
    "commit",
    "create_branch",
    "fetch_url",
    "reset_hard",
    "status",
];

/// The fixture server over `git`.
pub fn server(git: Arc<Git>) -> Server {
    Server::builder("git-like", "1.0.0")
        .state(git)
        .tool::<Status>()
        .tool::<Commit>()
        .tool::<CreateBranch>()
        .tool::<Checkout>()
        .tool::<ResetHard>()
        .tool::<FetchUrl>()
        .build()
        .expect("the fixture's declarations are valid")
}
