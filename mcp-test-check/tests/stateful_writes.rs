//! A schema case of a tool that writes is judged on the state it met: after an earlier call of
//! a tool that may write succeeded, a refusal of valid arguments may be the state that call
//! left ("already claimed"), so it is a note naming that call, never a defect. The same
//! refusals from a tool that says it writes nothing keep their verdict: the off-by-one they
//! look like.

use mcp_test::{Context, Server, Tool, ToolError};
use mcp_test_check::{CheckOptions, CheckReport, Severity, check};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Who holds the block, once claimed.
#[derive(Default)]
struct Block {
    claimed: AtomicBool,
    by: Mutex<Option<String>>,
}

fn claim(ctx: &Context, who: String) -> Result<String, ToolError> {
    let block = ctx
        .state::<std::sync::Arc<Block>>()
        .ok_or_else(|| ToolError::new("no block"))?;
    if block.claimed.swap(true, Ordering::SeqCst) {
        let by = block.by.lock().unwrap().clone().unwrap_or_default();
        return Err(ToolError::new(format!("already claimed by {by}")));
    }
    *block.by.lock().unwrap() = Some(who.clone());
    Ok(format!("claimed for {who}"))
}

/// Claims the block of seats; it can be claimed once.
#[derive(Tool)]
#[tool(name = "claim", annotations(destructive = false, open_world = false))]
struct Claim {
    /// Who claims it.
    #[tool(min_length = 1, max_length = 40)]
    who: String,
    /// How many seats.
    #[tool(minimum = 1, maximum = 4)]
    seats: i64,
}

impl Claim {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let _ = self.seats;
        claim(ctx, self.who)
    }
}

/// The same tool, annotated as writing nothing (wrongly, for the control).
#[derive(Tool)]
#[tool(name = "claim", annotations(read_only, open_world = false))]
struct ClaimSaidReadOnly {
    /// Who claims it.
    #[tool(min_length = 1, max_length = 40)]
    who: String,
    /// How many seats.
    #[tool(minimum = 1, maximum = 4)]
    seats: i64,
}

impl ClaimSaidReadOnly {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let _ = self.seats;
        claim(ctx, self.who)
    }
}

fn server<T: Tool + 'static>() -> Server {
    Server::builder("claims", "1.0.0")
        .state(std::sync::Arc::new(Block::default()))
        .tool::<T>()
        .build()
        .expect("the fixture's declarations are valid")
}

/// One case at a time, so the base case (sent first) is the one that claims.
fn options() -> CheckOptions {
    CheckOptions::default().jobs(1).all_cases(true)
}

fn case_findings(report: &CheckReport) -> Vec<&mcp_test_check::Finding> {
    report
        .findings()
        .filter(|f| f.probe == "tools/schema-cases")
        .collect()
}

#[tokio::test]
async fn a_write_tool_refused_after_its_base_case_claimed_gets_notes_naming_that_call() {
    let report = check(&server::<Claim>(), &options().allow_writes(true)).await;
    assert!(
        report.tools.iter().any(|t| t.name == "claim" && t.called),
        "{}",
        report.to_text()
    );
    let found = case_findings(&report);
    let after: Vec<_> = found
        .iter()
        .filter(|f| f.message.contains("after the earlier call claim › "))
        .collect();
    assert!(!after.is_empty(), "{}", report.to_text());
    for f in &found {
        assert_eq!(f.severity, Severity::Info, "{}", report.to_text());
    }
    assert!(
        after
            .iter()
            .all(|f| f.message.contains("of a tool that may write succeeded")
                && f.message.contains("already claimed")),
        "{}",
        report.to_text()
    );
    report.assert_no_defects();
}

#[tokio::test]
async fn the_same_refusals_from_a_tool_said_read_only_keep_their_off_by_one() {
    let report = check(&server::<ClaimSaidReadOnly>(), &options()).await;
    let found = case_findings(&report);
    assert!(
        found.iter().any(|f| f.severity == Severity::Defect
            && f.message.contains("an off-by-one")
            && f.message.contains("already claimed")),
        "{}",
        report.to_text()
    );
    assert!(
        !found
            .iter()
            .any(|f| f.message.contains("after the earlier call")),
        "{}",
        report.to_text()
    );
}
