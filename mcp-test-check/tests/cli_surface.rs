//! `mcp-test surface` and `mcp-test diff` as a user runs them: the surface of the bundled
//! example server (in process), and diffs of files written from it, with the exit status
//! of `--fail-on`, each `--format`, and input that cannot be read.

use mcp_test::surface::Surface;
use serde_json::{Value, json};

mod support;
use support::{TempFile, mcp_test};

/// The example server's surface, as `mcp-test surface` prints it.
async fn example_surface() -> Value {
    let run = mcp_test(&["surface", "--quiet"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("surface prints JSON")
}

#[tokio::test]
async fn surface_prints_the_whole_sorted_document() {
    let surface = example_surface().await;
    let keys: Vec<&String> = surface.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "capabilities",
            "prompts",
            "resourceTemplates",
            "resources",
            "tools"
        ]
    );
    let tools = surface["tools"].as_array().unwrap();
    assert!(tools.len() >= 2, "{surface}");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    assert!(surface["capabilities"].get("tools").is_some(), "{surface}");
    // What it prints reads back as the same surface.
    let read = Surface::from_json(&surface).unwrap();
    assert_eq!(read.to_json(), surface);
}

#[tokio::test]
async fn a_surface_diffed_with_itself_or_its_server_exits_0() {
    let surface = example_surface().await;
    let file = TempFile::new("same.json", Some(&surface.to_string()));
    let run = mcp_test(&["diff", file.arg(), file.arg(), "--fail-on", "additive"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "0 breaking, 0 additive, 0 cosmetic\n");
    // Against the live target (the example server, in process, when none is given).
    let run = mcp_test(&["diff", file.arg(), "--quiet", "--fail-on", "additive"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
}

#[tokio::test]
async fn a_removed_tool_fails_on_breaking_and_a_new_one_only_on_additive() {
    let surface = example_surface().await;
    let mut fewer = surface.clone();
    let removed = fewer["tools"].as_array_mut().unwrap().remove(0);
    let name = removed["name"].as_str().unwrap().to_owned();
    let (all, less) = (
        TempFile::new("all.json", Some(&surface.to_string())),
        TempFile::new("less.json", Some(&fewer.to_string())),
    );

    let run = mcp_test(&["diff", all.arg(), less.arg(), "--fail-on", "breaking"]).await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains(&format!("breaking: tool {name:?}: tool removed")),
        "{}",
        run.stdout
    );
    let run = mcp_test(&["diff", all.arg(), less.arg()]).await;
    assert_eq!(run.status, 0, "no --fail-on: {}", run.stderr);

    let run = mcp_test(&["diff", less.arg(), all.arg(), "--fail-on", "breaking"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with("0 breaking, 1 additive"),
        "{}",
        run.stdout
    );
    let run = mcp_test(&["diff", less.arg(), all.arg(), "--fail-on", "additive"]).await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
}

#[tokio::test]
async fn json_and_markdown_carry_every_change() {
    let old = TempFile::new(
        "old.json",
        Some(
            &json!({"tools": [{"name": "a", "description": "A.", "inputSchema": {"type": "object",
            "properties": {"n": {"type": "integer", "maximum": 10}}}}]})
            .to_string(),
        ),
    );
    let new = TempFile::new("new.json", Some(&json!({"tools": [{"name": "a", "description": "The a.", "inputSchema": {"type": "object",
            "properties": {"n": {"type": "integer", "maximum": 5}}}}]})
        .to_string()),
    );
    let run = mcp_test(&["diff", old.arg(), new.arg(), "--format", "json"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        report["summary"],
        json!({"breaking": 1, "additive": 0, "cosmetic": 1})
    );
    assert_eq!(
        report["changes"][0]["pointer"],
        "/inputSchema/properties/n/maximum"
    );
    assert_eq!(report["changes"][0]["class"], "breaking");

    let run = mcp_test(&["diff", old.arg(), new.arg(), "--format", "markdown"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("## Surface drift: 1 breaking, 0 additive, 1 cosmetic\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("### Breaking (1)"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("| tool `a` | `/inputSchema/properties/n/maximum` |"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("### Cosmetic (1)"), "{}", run.stdout);
}

#[tokio::test]
async fn input_that_cannot_be_read_exits_2_naming_the_file_and_where() {
    let good = TempFile::new("good.json", Some(r#"{"tools": []}"#));
    let shape = TempFile::new(
        "shape.json",
        Some(r#"{"tools": [{"name": "a", "inputSchema": {}}, {"inputSchema": {}}]}"#),
    );
    let run = mcp_test(&["diff", shape.arg(), good.arg(), "--fail-on", "breaking"]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{}: at /tools/1: a tool needs a string `name`",
            shape.arg()
        )),
        "{}",
        run.stderr
    );

    let broken = TempFile::new("broken.json", Some("{\"tools\": [\n  {\"name\": }\n]}"));
    let run = mcp_test(&["diff", good.arg(), broken.arg()]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("{}: not JSON at line 2, column", broken.arg())),
        "{}",
        run.stderr
    );

    let missing = format!("{}.missing", good.arg());
    let run = mcp_test(&["diff", &missing, good.arg()]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("{missing}: cannot read it")),
        "{}",
        run.stderr
    );
}

#[tokio::test]
async fn a_target_that_cannot_be_started_exits_2() {
    let good = TempFile::new("target.json", Some(r#"{"tools": []}"#));
    let run = mcp_test(&[
        "diff",
        good.arg(),
        "--quiet",
        "--",
        "/nonexistent/mcp-test-no-such-server",
    ])
    .await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot connect"), "{}", run.stderr);
    let run = mcp_test(&[
        "surface",
        "--quiet",
        "--",
        "/nonexistent/mcp-test-no-such-server",
    ])
    .await;
    assert_eq!(run.status, 2, "{}", run.stderr);
}

/// Two releases of a derived action tool: `post`'s `amount` bound tightened, and a reworded
/// description of `void`'s field.
mod ledger {
    pub mod first {
        use mcp_test::{Context, Tool};

        /// Keeps the books.
        #[derive(Tool)]
        #[tool(name = "ledger")]
        pub enum Ledger {
            /// Posts an entry.
            Post {
                #[tool(maximum = 1000)]
                amount: u64,
            },
            /// Voids an entry.
            Void {
                /// The entry.
                id: String,
            },
        }

        impl Ledger {
            async fn run(self, _ctx: &Context) -> String {
                match self {
                    Ledger::Post { amount } => amount.to_string(),
                    Ledger::Void { id } => id,
                }
            }
        }
    }

    pub mod next {
        use mcp_test::{Context, Tool};

        /// Keeps the books.
        #[derive(Tool)]
        #[tool(name = "ledger")]
        pub enum Ledger {
            /// Posts an entry.
            Post {
                #[tool(maximum = 500)]
                amount: u64,
            },
            /// Voids an entry.
            Void {
                /// The entry to void.
                id: String,
            },
        }

        impl Ledger {
            async fn run(self, _ctx: &Context) -> String {
                match self {
                    Ledger::Post { amount } => amount.to_string(),
                    Ledger::Void { id } => id,
                }
            }
        }
    }
}

/// The surface of a server with the one tool `T`, as `mcp-test surface` writes it.
async fn written_surface<T: mcp_test::Tool>(name: &str) -> TempFile {
    let server = mcp_test::Server::builder("books", "1.0.0")
        .tool::<T>()
        .build()
        .unwrap();
    let surface = Surface::fetch(&server).await.unwrap();
    TempFile::new(name, Some(&surface.to_text()))
}

#[tokio::test]
async fn a_diff_of_a_derived_action_tool_names_the_action_of_each_change() {
    let old = written_surface::<ledger::first::Ledger>("ledger-old.json").await;
    let new = written_surface::<ledger::next::Ledger>("ledger-new.json").await;
    let run = mcp_test(&["diff", old.arg(), new.arg(), "--fail-on", "breaking"]).await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "1 breaking, 0 additive, 1 cosmetic\n\
         breaking: tool \"ledger\" action=post /inputSchema/allOf/0/then/properties/data/properties/amount/maximum: \
         upper bound tightened from 1000 to 500: arguments the old schema accepted are now rejected\n\
         cosmetic: tool \"ledger\" action=void /inputSchema/allOf/1/then/properties/data/properties/id/description: \
         `description` changed\n"
    );

    let run = mcp_test(&["diff", old.arg(), new.arg(), "--format", "json"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        report["changes"][0]["variants"],
        json!([{"tag": "action", "value": "post"}])
    );
    assert_eq!(
        report["changes"][1]["variants"],
        json!([{"tag": "action", "value": "void"}])
    );

    let run = mcp_test(&["diff", old.arg(), new.arg(), "--format", "markdown"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "| tool `ledger` | `action=post` `/inputSchema/allOf/0/then/properties/data/properties/amount/maximum` |"
        ),
        "{}",
        run.stdout
    );
}
