//! Surface drift end to end: the labelled pairs of `tests/drift/pairs` (each rule of the
//! diff, and rewrites that must come out cosmetic), and surfaces read from real servers: an
//! in-process one built with `#[derive(Tool)]`, and the conformance fixture over stdio in
//! both eras.

use mcp_test::prelude::*;
use mcp_test::surface::{Class, Surface, diff};
use mcp_test::target::Target;
use mcp_test::wire::Era;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn pairs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("drift/pairs");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn load(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The change as the expected files write it.
fn key(class: &str, kind: &str, item: &str, pointer: &str) -> String {
    format!("{class} {kind} {item:?} {pointer:?}")
}

#[test]
fn every_labelled_pair_comes_out_as_labelled() {
    let dirs = pairs();
    assert!(dirs.len() >= 40, "only {} pairs", dirs.len());
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let old = Surface::from_text(&load(&dir.join("old.json")))
            .unwrap_or_else(|e| panic!("{name}/old.json: {e}"));
        let new = Surface::from_text(&load(&dir.join("new.json")))
            .unwrap_or_else(|e| panic!("{name}/new.json: {e}"));
        let expected: Value = serde_json::from_str(&load(&dir.join("expected.json")))
            .unwrap_or_else(|e| panic!("{name}/expected.json: {e}"));
        let drift = diff(&old, &new);
        let mut got: Vec<String> = drift
            .changes
            .iter()
            .map(|c| {
                let kind = serde_json::to_value(c.location.kind).unwrap();
                key(
                    c.class.as_str(),
                    kind.as_str().unwrap(),
                    &c.location.item,
                    &c.location.pointer,
                )
            })
            .collect();
        got.sort();
        let listed = expected["changes"].as_array().expect("changes");
        let mut want: Vec<String> = listed
            .iter()
            .map(|c| {
                let s = |k: &str| {
                    c[k].as_str()
                        .unwrap_or_else(|| panic!("{name}: {k} in {c}"))
                };
                key(s("class"), s("kind"), s("item"), s("pointer"))
            })
            .collect();
        want.sort();
        if got != want {
            failures.push(format!(
                "{name}: expected\n    {}\n  got\n    {}\n  ({})",
                want.join("\n    "),
                got.join("\n    "),
                drift.to_text().trim_end().replace('\n', "\n    ")
            ));
            continue;
        }
        for wanted in listed {
            let Some(words) = wanted.get("reason").and_then(Value::as_str) else {
                continue;
            };
            let pointer = wanted["pointer"].as_str().unwrap_or_default();
            let found = drift
                .changes
                .iter()
                .any(|c| c.location.pointer == pointer && c.reason.contains(words));
            if !found {
                failures.push(format!(
                    "{name}: no change at {pointer:?} whose reason has {words:?}:\n{}",
                    drift.to_text()
                ));
            }
        }
        if name.starts_with("cosmetic_") && drift.worst() > Some(Class::Cosmetic) {
            failures.push(format!("{name} must stay cosmetic:\n{}", drift.to_text()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_pair_read_back_against_itself_has_no_changes() {
    for dir in pairs() {
        let new = Surface::from_text(&load(&dir.join("new.json"))).unwrap();
        let again = Surface::from_text(&new.to_text()).unwrap();
        assert_eq!(diff(&new, &again).changes, [], "{}", dir.display());
    }
}

/// Forecasts the weather.
#[derive(Tool)]
#[tool(annotations(read_only))]
struct Forecast {
    /// The city.
    city: String,
    /// How many days ahead.
    days: Option<u8>,
}

impl Forecast {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!(
            "{}: sunny for {} days",
            self.city,
            self.days.unwrap_or(1)
        ))
    }
}

/// Forecasts the weather (the next release: `days` now required, wider).
#[derive(Tool)]
#[tool(name = "forecast")]
struct ForecastNext {
    /// The city.
    city: String,
    /// How many days ahead.
    days: u16,
}

impl ForecastNext {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("{}: sunny for {} days", self.city, self.days))
    }
}

fn weather() -> Server {
    Server::builder("weather", "1.0.0")
        .tool::<Forecast>()
        .build()
        .unwrap()
}

#[mcp_test(server = weather)]
async fn the_surface_of_a_derived_tool_is_snapshot(mcp: TestContext) {
    let surface = Surface::fetch(&mcp).await.unwrap();
    assert_eq!(surface.tools.len(), 1);
    mcp_test::assert_surface_snapshot!(surface);
}

#[tokio::test]
async fn the_next_release_of_a_derived_tool_breaks_its_clients() {
    let old = Surface::fetch(&weather()).await.unwrap();
    let next = Server::builder("weather", "1.1.0")
        .tool::<ForecastNext>()
        .build()
        .unwrap();
    let new = Surface::fetch(&next).await.unwrap();
    let drift = diff(&old, &new);
    let breaking: Vec<&str> = drift
        .of(Class::Breaking)
        .map(|c| c.location.pointer.as_str())
        .collect();
    assert!(
        breaking.contains(&"/inputSchema/required"),
        "{}",
        drift.to_text()
    );
    assert!(
        breaking.contains(&"/annotations/readOnlyHint"),
        "{}",
        drift.to_text()
    );
    // u8 -> u16 loosens `maximum`: additive.
    assert!(
        drift
            .of(Class::Additive)
            .any(|c| c.location.pointer.ends_with("/days/maximum")),
        "{}",
        drift.to_text()
    );
}

fn fixture(page_size: &str) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_conformance_fixture"));
    command.args(["--page-size", page_size]);
    command
}

#[tokio::test]
async fn the_fixture_has_one_surface_in_process_and_over_stdio_paged() {
    let in_process = Surface::fetch(&mcp_test_downstream::conformance::conformance_server())
        .await
        .unwrap();
    assert!(in_process.tools.len() > 2, "{}", in_process.to_text());
    assert!(!in_process.resources.is_empty() && !in_process.prompts.is_empty());
    // Two items a page: every list is paged, and every page followed.
    let stdio = TestContext::stdio(fixture("2"));
    let over_stdio = Surface::fetch(&stdio).await.unwrap();
    assert_eq!(diff(&in_process, &over_stdio).changes, []);
    assert_eq!(over_stdio, in_process);
}

#[tokio::test]
async fn a_2025_era_connection_takes_its_capabilities_from_initialize() {
    let current = Surface::fetch(&mcp_test_downstream::conformance::conformance_server())
        .await
        .unwrap();
    let legacy = TestContext::stdio(fixture("3")).in_era(Era::Legacy);
    let surface = Surface::fetch(&legacy).await.unwrap();
    assert_eq!(legacy.connection().era, Some(Era::Legacy));
    let handshake = legacy
        .connection()
        .handshake
        .expect("the initialize result");
    assert_eq!(surface.capabilities, handshake["capabilities"]);
    // The same tools, but for a tool's task support (`execution`): part of 2025-11-25, an
    // extension in 2026-07-28 that this client did not declare.
    let without_execution = |tools: &[Value]| -> Vec<Value> {
        tools
            .iter()
            .map(|tool| {
                let mut tool = tool.clone();
                tool.as_object_mut().unwrap().remove("execution");
                tool
            })
            .collect()
    };
    assert!(surface.tools.iter().any(|t| t.get("execution").is_some()));
    assert_eq!(
        without_execution(&surface.tools),
        without_execution(&current.tools)
    );
    assert_eq!(surface.resources, current.resources);
    assert_eq!(surface.resource_templates, current.resource_templates);
    assert_eq!(surface.prompts, current.prompts);
}

#[tokio::test]
async fn the_fixture_has_the_same_surface_over_http() {
    let in_process = Surface::fetch(&mcp_test_downstream::conformance::conformance_server())
        .await
        .unwrap();
    let url =
        mcp_test_downstream::serve_http(mcp_test_downstream::conformance::conformance_server())
            .await;
    let over_http = Surface::fetch(&TestContext::http(&url)).await.unwrap();
    assert_eq!(diff(&in_process, &over_http).changes, []);
}

mod rmcp_server {
    use super::*;
    use mcp_test_downstream::rmcp_calculator::Calculator;

    #[tokio::test]
    async fn an_rmcp_server_has_a_surface_too() {
        let surface = Surface::fetch(&TestContext::rmcp(Calculator))
            .await
            .unwrap();
        assert_eq!(surface.tools.len(), 1, "{}", surface.to_text());
        assert_eq!(surface.tools[0]["name"], "add");
        let mut required: Vec<&str> = surface.tools[0]["inputSchema"]["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        required.sort_unstable();
        assert_eq!(required, ["a", "b"]);
        assert!(
            surface.capabilities.get("tools").is_some(),
            "{}",
            surface.to_text()
        );
        assert!(surface.prompts.is_empty() && surface.resources.is_empty());
    }
}

#[mcp_test(server = weather, era = both)]
async fn a_derived_tool_has_one_surface_in_either_era(mcp: TestContext) {
    let surface = Surface::fetch(&mcp).await.unwrap();
    let current = Surface::fetch(&weather()).await.unwrap();
    assert_eq!(diff(&current, &surface).changes, [], "in {:?}", mcp.era());
}
