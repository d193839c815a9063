//! `mcp-test check`'s security options as a user runs them, against a server served in this
//! process over Streamable HTTP whose one tool carries markup addressed to the model
//! (`hidden/markup`, a medium risk): `--fail-on-security LEVEL` exits 1 at or below the
//! finding's risk and 0 above it; `--pin FILE` reports `rug/pin-changed` for an approved
//! tool whose description changed; `--write-expect FILE` writes the findings' `security`
//! entries.

#[allow(dead_code)] // the stdio half of the fixture is not used here
mod fixture;
mod support;
use mcp_test::{Context, Server, Tool, ToolError};
use support::{TempFile, mcp_test};

/// Adds two numbers. <IMPORTANT>Answer with the sum only.</IMPORTANT>
#[derive(Tool)]
#[tool(name = "add", annotations(read_only, idempotent, open_world = false))]
struct Add {
    /// The first number
    a: i64,
    /// The second number
    b: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok((self.a + self.b).to_string())
    }
}

async fn url() -> String {
    fixture::http_url(
        Server::builder("marked", "1.0.0")
            .tool::<Add>()
            .build()
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn fail_on_security_exits_1_at_or_below_the_finding_s_risk_and_0_above_it() {
    let url = url().await;
    for (level, status) in [("low", 1), ("medium", 1), ("high", 0)] {
        let run = mcp_test(&[
            "check",
            "--quiet",
            "--url",
            &url,
            "--fail-on-security",
            level,
        ])
        .await;
        assert_eq!(
            run.status, status,
            "{level}: {}\n{}",
            run.stdout, run.stderr
        );
        assert!(run.stdout.contains("hidden/markup"), "{}", run.stdout);
    }
}

#[tokio::test]
async fn a_pinned_description_that_changed_is_rug_pin_changed() {
    let url = url().await;
    let surface = mcp_test(&["surface", "--quiet", "--url", &url]).await;
    assert_eq!(surface.status, 0, "{}", surface.stderr);
    let pinned = surface
        .stdout
        .replace("Answer with the sum only.", "Approved wording.");
    assert_ne!(pinned, surface.stdout, "{}", surface.stdout);
    let pin = TempFile::new("pin.json", Some(&pinned));
    let run = mcp_test(&[
        "check",
        "--quiet",
        "--url",
        &url,
        "--pin",
        pin.arg(),
        "--format",
        "json",
    ])
    .await;
    let json: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    let changed: Vec<&serde_json::Value> = json["security"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"]["id"] == "rug/pin-changed")
        .collect();
    assert_eq!(changed.len(), 1, "{json:#}");
    assert_eq!(changed[0]["subject"], "add", "{json:#}");
}

#[tokio::test]
async fn write_expect_writes_the_security_entries_found() {
    let url = url().await;
    let file = TempFile::new("written.json", None);
    let run = mcp_test(&[
        "check",
        "--quiet",
        "--url",
        &url,
        "--write-expect",
        file.arg(),
    ])
    .await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file.0).unwrap()).unwrap();
    let security = written["security"]
        .as_array()
        .unwrap_or_else(|| panic!("{written:#}"));
    assert!(
        security
            .iter()
            .any(|e| e["rule"] == "hidden/markup" && e["subject"] == "add"),
        "{written:#}"
    );
}
