//! A reset hook wherever generated calls share a server (issue 45, item 8): the schema cases,
//! the property tests and `check` from a test each run `before_each` before every call, so a
//! stateful tool is judged on the state the test means.

use mcp_test::assert_properties;
use mcp_test::{Context, Server, Tool, ToolError};
use mcp_test_check::{CheckOptions, check};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

type Taken = Arc<Mutex<Vec<String>>>;

/// Claims the one slot for a name: while it is held, every claim is refused.
#[derive(Tool)]
#[tool(name = "claim", annotations(destructive = false, open_world = false))]
struct Claim {
    /// The name, 1 to 8 characters
    #[tool(min_length = 1, max_length = 8)]
    name: String,
}

impl Claim {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let taken = ctx.state::<Taken>().expect("the store");
        let mut taken = taken.lock().unwrap();
        if let Some(holder) = taken.first() {
            return Err(ToolError::new(format!("the slot is held by {holder}")));
        }
        taken.push(self.name.clone());
        Ok(format!("claimed {}", self.name))
    }
}

fn claims(taken: &Taken) -> Server {
    Server::builder("claims", "1.0.0")
        .state(taken.clone())
        .tool::<Claim>()
        .build()
        .unwrap()
}

/// Counts the hook's runs and empties the store.
fn reset(taken: &Taken, runs: &Arc<AtomicUsize>) -> impl Fn(&str) + Send + Sync + 'static {
    let (taken, runs) = (taken.clone(), runs.clone());
    move |tool: &str| {
        assert_eq!(tool, "claim");
        runs.fetch_add(1, Ordering::SeqCst);
        taken.lock().unwrap().clear();
    }
}

#[tokio::test]
async fn properties_reset_before_every_call() {
    let taken = Taken::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let server = claims(&taken);
    let report = assert_properties!(server, cases = 16, before_each = reset(&taken, &runs));
    assert!(report.cases() >= 16, "{report}");
    assert!(
        runs.load(Ordering::SeqCst) as u32 >= report.cases(),
        "the hook ran before every call"
    );
}

#[tokio::test]
async fn without_a_reset_the_cases_meet_what_earlier_ones_left() {
    // The same check, without the hook: a valid case after the first meets the slot the
    // first one took and is refused, which is what the hook is for.
    let taken = Taken::default();
    let options = CheckOptions::default().allow_writes(true).jobs(1);
    let report = check(&claims(&taken), &options).await;
    assert!(
        report.cases.outcomes.iter().any(|o| !o.agrees),
        "{}",
        report.to_text()
    );
}

#[tokio::test]
async fn check_resets_before_each_case() {
    let taken = Taken::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let options = CheckOptions::default()
        .allow_writes(true)
        .jobs(1)
        .before_each(reset(&taken, &runs));
    let report = check(&claims(&taken), &options).await;
    assert!(!report.has_defects(), "{}", report.to_text());
    let sent = report
        .cases
        .outcomes
        .iter()
        .filter(|o| o.case.tool == "claim")
        .count();
    assert!(sent > 1, "{}", report.to_text());
    assert!(
        runs.load(Ordering::SeqCst) >= sent,
        "the hook ran before every case"
    );
    assert!(
        report.cases.outcomes.iter().all(|o| o.agrees),
        "each case met an empty store: {}",
        report.to_text()
    );
}
