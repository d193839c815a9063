//! `check` calls a tool only with the user's consent, read from the tool's annotations
//! (server/tools.mdx `ToolAnnotations`, by the spec's defaults): by default read-only and
//! open-world tools, `allow_writes` adds additive writes, `open_world(false)` drops open-world
//! ones, `allow_tools` adds one named tool. A git-like fixture tells whether anything was
//! written, and a target in front of it which tools were sent `tools/call`, which the report
//! must say exactly.

#[path = "consent/git_like.rs"]
mod git_like;

use git_like::{Git, TOOLS};
use mcp_test::target::{Connection, Target, TargetFuture};
use mcp_test::{Caller, Server};
use mcp_test_check::{CheckOptions, CheckReport, ToolClass, check};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// The fixture, recording the name of every `tools/call` it is sent.
struct Watched {
    server: Server,
    names: Mutex<BTreeSet<String>>,
}

impl Target for Watched {
    fn label(&self) -> String {
        self.server.label()
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        if message["method"] == "tools/call"
            && let Some(name) = message.pointer("/params/name").and_then(Value::as_str)
        {
            self.names.lock().unwrap().insert(name.to_owned());
        }
        self.server.send(message, caller)
    }

    fn connection(&self) -> Connection {
        self.server.connection()
    }
}

/// Checks a fresh fixture with `options`: the report, the listed tools the fixture was sent a
/// `tools/call` of, and the fixture's state.
async fn checked(options: &CheckOptions) -> (CheckReport, BTreeSet<String>, Arc<Git>) {
    let git = Git::new();
    let target = Watched {
        server: git_like::server(git.clone()),
        names: Mutex::new(BTreeSet::new()),
    };
    let report = check(&target, options).await;
    let sent: BTreeSet<String> = target
        .names
        .lock()
        .unwrap()
        .iter()
        .filter(|n| TOOLS.contains(&n.as_str()))
        .cloned()
        .collect();
    // The report says exactly what was sent: no call claimed that did not happen, none missed.
    let reported: BTreeSet<String> = report
        .tools
        .iter()
        .filter(|t| t.called)
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(reported, sent, "{}", report.to_text());
    (report, sent, git)
}

fn names(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

#[tokio::test]
async fn by_default_only_read_only_and_open_world_tools_are_called_and_nothing_is_written() {
    let (report, sent, git) = checked(&CheckOptions::default()).await;
    assert_eq!(
        git.snapshot(),
        Git::new().snapshot(),
        "{}",
        report.to_text()
    );
    assert_eq!(
        sent,
        names(&["fetch_url", "status"]),
        "{}",
        report.to_text()
    );
    // Every listed tool is in the report, with its class and what would call it.
    let listed: Vec<(&str, ToolClass, bool, Option<&str>)> = report
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.class, t.called, t.allow_with.as_deref()))
        .collect();
    use ToolClass::*;
    assert_eq!(
        listed,
        [
            (
                "checkout",
                AdditiveWrite,
                false,
                Some("--allow-writes or --tool checkout")
            ),
            (
                "commit",
                AdditiveWrite,
                false,
                Some("--allow-writes or --tool commit")
            ),
            (
                "create_branch",
                AdditiveWrite,
                false,
                Some("--allow-writes or --tool create_branch")
            ),
            ("fetch_url", OpenWorld, true, None),
            (
                "reset_hard",
                Destructive,
                false,
                Some("--allow-destructive or --tool reset_hard")
            ),
            ("status", ReadOnly, true, None),
        ],
        "{}",
        report.to_text()
    );
    // The open-world tool is marked where it was called.
    let text = report.to_text();
    assert!(
        text.contains("Tools (2 of 6 called")
            && text.contains("fetch_url (open world): called [open world: may reach outside")
            && text.contains("status (read-only): called\n")
            && text.contains("commit (additive write): not called: it writes")
            && text.contains("call it with --allow-writes or --tool commit"),
        "{text}"
    );
    let json = report.to_json();
    let commit = json["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "commit")
        .unwrap();
    assert_eq!(commit["class"], "additive-write");
    assert_eq!(commit["called"], false);
    assert_eq!(commit["allow_with"], "--allow-writes or --tool commit");
    let junit = report.to_junit();
    assert!(
        junit.contains("<testcase classname=\"cases.reset_hard\" name=\"not called\"><skipped message=\"reset_hard (destructive): potentially destructive"),
        "{junit}"
    );
    assert!(
        !junit.contains("cases.status\" name=\"not called\""),
        "{junit}"
    );
    report.assert_no_defects();
}

#[tokio::test]
async fn allow_writes_calls_the_additive_writes_and_they_write() {
    let (report, sent, git) = checked(&CheckOptions::default().allow_writes(true)).await;
    assert_ne!(
        git.snapshot(),
        Git::new().snapshot(),
        "{}",
        report.to_text()
    );
    assert_eq!(
        sent,
        names(&["checkout", "commit", "create_branch", "fetch_url", "status"]),
        "{}",
        report.to_text()
    );
}

#[tokio::test]
async fn no_open_world_leaves_the_open_world_tool_alone() {
    let (report, sent, git) = checked(&CheckOptions::default().open_world(false)).await;
    assert_eq!(sent, names(&["status"]), "{}", report.to_text());
    assert!(git.fetched.lock().unwrap().is_empty());
    let fetch = report.tools.iter().find(|t| t.name == "fetch_url").unwrap();
    assert_eq!(
        fetch.allow_with.as_deref(),
        Some("dropping --no-open-world, or --tool fetch_url")
    );
}

#[tokio::test]
async fn a_named_tool_is_called_whatever_its_class_and_no_other_is_added() {
    let (report, sent, _) = checked(&CheckOptions::default().allow_tools(["reset_hard"])).await;
    assert_eq!(
        sent,
        names(&["fetch_url", "reset_hard", "status"]),
        "{}",
        report.to_text()
    );
    let (report, sent, _) = checked(&CheckOptions::default().allow_destructive(true)).await;
    assert_eq!(sent, names(&TOOLS), "{}", report.to_text());
}

/// `generate --verify` dry-runs the derived cases, which calls the tools: by the same consent
/// as `check`, so a default verify writes nothing, and the cases of the tools it held back are
/// written unverified, named in `not_verified`.
#[tokio::test]
async fn generate_verify_calls_only_what_the_consent_allows() {
    use mcp_test_check::Consent;
    use mcp_test_check::generate::{GenerateConfig, ServerSource, generate_tests};
    let verify = |consent: Consent| async move {
        let git = Git::new();
        let target = Watched {
            server: git_like::server(git.clone()),
            names: Mutex::new(BTreeSet::new()),
        };
        let config = GenerateConfig::new(ServerSource::Example, "git-like")
            .verify(true)
            .consent(consent);
        let generated = generate_tests(&target, &config, &mut |_| {})
            .await
            .expect("the file is generated");
        let sent = target.names.lock().unwrap().clone();
        (generated, sent, git)
    };
    let (generated, sent, git) = verify(Consent::default()).await;
    assert_eq!(
        git.snapshot(),
        Git::new().snapshot(),
        "a default verify wrote"
    );
    assert_eq!(sent, names(&["fetch_url", "status"]));
    let held: BTreeSet<&str> = generated
        .not_verified
        .iter()
        .filter_map(|line| line.split(':').next())
        .collect();
    assert_eq!(
        held,
        ["checkout", "commit", "create_branch", "reset_hard"].into(),
        "{:?}",
        generated.not_verified
    );
    // Every tool's cases are still written, verified or not.
    for tool in TOOLS {
        assert!(generated.text.contains(tool), "no case of {tool}");
    }
    let mut writes = Consent::default();
    writes.allow_writes = true;
    let (_, sent, git) = verify(writes).await;
    assert!(sent.contains("commit"), "{sent:?}");
    assert_ne!(
        git.snapshot(),
        Git::new().snapshot(),
        "--allow-writes wrote nothing"
    );
}
