//! Every option of `assert_schema_cases!`, as a suite uses it: capabilities, identity, only
//! and skip, values, a hook, expected failures, the seed, the four of them as one selection,
//! and one panic at the caller's line listing every disagreement.

use futures_util::FutureExt;
use mcp_test::cases::properties::{PropertyOptions, check_properties};
use mcp_test::cases::{Case, Selection, VerifyReport, every_client_capability};
use mcp_test::{Context, Identity, Server, Tool, ToolError, assert_schema_cases};
use mcp_test_downstream::panic_of;
use serde_json::json;
use std::panic::AssertUnwindSafe;

/// Asks the user to confirm.
#[derive(Tool)]
#[tool(name = "ask")]
struct Ask {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    ok: bool,
}

impl Ask {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let answer = ctx.elicit_as::<Confirm>("ok?").await?;
        Ok(format!("{}", answer.accepted().is_some_and(|c| c.ok)))
    }
}

/// Orders of the caller.
#[derive(Tool)]
#[tool(name = "order")]
enum Order {
    /// Shows one order of the caller's.
    Get { id: String },
    /// Cancels one order.
    Cancel { id: String },
}

impl Order {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let mine =
            ctx.identity().principal.as_deref() == Some("ada") && ctx.tenant() == Some("acme");
        match self {
            Order::Get { id } if id == "o-1" && mine => Ok("2 mugs".into()),
            Order::Get { .. } => Err(ToolError::new("no such order")),
            Order::Cancel { id } => Err(ToolError::new(format!("cannot cancel {id} today"))),
        }
    }
}

/// Buys an item; a T-shirt needs a size, which the schema cannot say.
#[derive(Tool)]
#[tool(name = "buy")]
struct Buy {
    #[tool(max_length = 20)]
    item: String,
    size: Option<String>,
}

impl Buy {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        match self.size.filter(|s| !s.is_empty()) {
            None => Err(ToolError::new("a T-shirt needs a size")),
            Some(size) => Ok(format!("bought {} in {size}", self.item)),
        }
    }
}

/// Always fails: every valid case disagrees.
#[derive(Tool)]
#[tool(name = "broken")]
struct Broken {
    #[tool(minimum = 1, maximum = 3)]
    n: u8,
}

impl Broken {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Err(ToolError::new(format!("broken on {}", self.n)))
    }
}

fn shop() -> Server {
    Server::builder("shop", "1.0.0")
        .tool::<Ask>()
        .tool::<Order>()
        .tool::<Buy>()
        .tool::<Broken>()
        .build()
        .unwrap()
}

#[tokio::test]
async fn without_capabilities_a_tool_that_asks_agrees_with_minus_32021() {
    let report = assert_schema_cases!(shop(), only = "ask");
    let valid = report
        .outcomes
        .iter()
        .find(|o| o.case.title == "accepts valid arguments")
        .expect("the base case");
    assert_eq!(
        valid
            .response
            .as_ref()
            .and_then(|r| r.pointer("/error/code")),
        Some(&json!(-32021)),
        "{report}"
    );
    assert!(report.all_agree(), "{report}");
}

#[tokio::test]
async fn with_capabilities_the_rounds_are_driven_to_the_final_answer() {
    let report = assert_schema_cases!(
        shop(),
        only = "ask",
        client_capabilities = every_client_capability()
    );
    assert!(
        report
            .outcomes
            .iter()
            .any(|o| o.happened.to_string().starts_with("success")),
        "{report}"
    );
}

#[tokio::test]
async fn identity_values_and_only_an_action_reach_the_order_that_exists() {
    let report = assert_schema_cases!(
        shop(),
        identity = Identity::principal("ada").with_tenant("acme"),
        only = ("order", "get"),
        values = [("order", "/data/id", json!("o-1"))],
    );
    assert!(
        report
            .outcomes
            .iter()
            .all(|o| o.case.args["action"] == "get")
    );
    assert!(
        report
            .outcomes
            .iter()
            .any(|o| o.happened.to_string().contains("2 mugs")),
        "{report}"
    );
    // Anonymous, the same cases disagree: the identity did reach the handler.
    let problems = panic_of(async {
        assert_schema_cases!(
            shop(),
            only = ("order", "get"),
            values = [("order", "/data/id", json!("o-1"))],
        );
    })
    .await;
    assert!(problems.contains("no such order"), "{problems}");
}

#[tokio::test]
async fn skip_leaves_out_a_tool_and_an_action() {
    let report = assert_schema_cases!(
        shop(),
        identity = Identity::principal("ada").with_tenant("acme"),
        values = [("order", "/data/id", json!("o-1"))],
        skip = "ask",
        skip = "broken",
        skip = "buy",
        skip = ("order", "cancel"),
    );
    assert!(report.outcomes.iter().all(|o| o.case.tool == "order"));
    assert!(
        report
            .outcomes
            .iter()
            .all(|o| o.case.args["action"] != "cancel")
    );
    // The unknown action belongs to no action: skipping one keeps it.
    assert!(
        report
            .outcomes
            .iter()
            .any(|o| o.case.args["action"] == "no_such_action"),
        "{report}"
    );
}

/// The `only`, `skip`, `seed` and `identity` options are one [`Selection`]: given whole, it
/// gives the cases the four give apart, and the property tests run what it selects.
#[tokio::test]
async fn one_selection_is_only_skip_seed_and_identity_for_cases_and_properties() {
    let selection = Selection::default()
        .skip("ask")
        .skip("broken")
        .skip("buy")
        .skip(("order", "cancel"))
        .seed(7)
        .identity(Identity::principal("ada").with_tenant("acme"));
    let apart = assert_schema_cases!(
        shop(),
        identity = Identity::principal("ada").with_tenant("acme"),
        values = [("order", "/data/id", json!("o-1"))],
        skip = "ask",
        skip = "broken",
        skip = "buy",
        skip = ("order", "cancel"),
        seed = 7,
    );
    let whole = assert_schema_cases!(
        shop(),
        selection = selection.clone(),
        values = [("order", "/data/id", json!("o-1"))],
    );
    let cases = |report: &VerifyReport| -> Vec<Case> {
        report.outcomes.iter().map(|o| o.case.clone()).collect()
    };
    assert!(!apart.outcomes.is_empty());
    assert_eq!(cases(&apart), cases(&whole));

    let options = PropertyOptions::default().cases(2).selection(selection);
    let report = check_properties(&shop(), &options).await;
    let ran: std::collections::BTreeSet<(&str, Option<&str>)> = report
        .runs
        .iter()
        .map(|r| (r.tool.as_str(), r.action.as_deref()))
        .collect();
    assert_eq!(ran, [("order", Some("get"))].into(), "{report}");
}

#[tokio::test]
async fn before_each_changes_the_arguments_sent_and_the_report_shows_them() {
    let report = assert_schema_cases!(
        shop(),
        only = "buy",
        before_each = |case: &mut Case| {
            if case.expectation == mcp_test::cases::Expectation::Success {
                case.args["size"] = json!("M");
            }
        },
    );
    assert!(
        report
            .outcomes
            .iter()
            .filter(|o| o.case.expectation == mcp_test::cases::Expectation::Success)
            .all(|o| o.case.args["size"] == "M" && o.agrees),
        "{report}"
    );
}

#[tokio::test]
async fn an_expected_failure_is_accepted_and_fails_when_it_holds_or_names_nothing() {
    let report = assert_schema_cases!(
        shop(),
        only = "buy",
        expect_failure = ("buy", "accepts only the required properties"),
        expect_failure = ("buy", "accepts `/size` as the empty string"),
    );
    assert_eq!(report.outcomes.iter().filter(|o| !o.agrees).count(), 2);

    let held = panic_of(async {
        assert_schema_cases!(
            shop(),
            only = "buy",
            expect_failure = ("buy", "accepts only the required properties"),
            expect_failure = ("buy", "accepts `/size` as the empty string"),
            expect_failure = ("buy", "accepts valid arguments"),
        );
    })
    .await;
    assert!(held.contains("buy › accepts valid arguments: marked as an expected failure, but its prediction (success) held"), "{held}");

    let nothing = panic_of(async {
        assert_schema_cases!(
            shop(),
            only = "buy",
            expect_failure = ("buy", "accepts only the required properties"),
            expect_failure = ("buy", "accepts `/size` as the empty string"),
            expect_failure = ("buy", "no such title"),
        );
    })
    .await;
    assert!(nothing.contains("names no case that ran"), "{nothing}");
}

#[tokio::test]
async fn one_panic_lists_every_disagreement() {
    let problems = panic_of(async {
        assert_schema_cases!(shop(), only = "broken");
    })
    .await;
    // The base case and both inclusive bounds: each listed, with its arguments.
    for title in [
        "broken › accepts valid arguments",
        "broken › accepts `/n` at exactly minimum 1",
        "broken › accepts `/n` at exactly maximum 3",
    ] {
        assert!(problems.contains(title), "{title}:\n{problems}");
    }
    assert!(
        problems.starts_with("assert_schema_cases! failed for shop 1.0.0"),
        "{problems}"
    );
    assert!(problems.contains("arguments: {\"n\":"), "{problems}");
}

#[tokio::test]
async fn the_seed_is_an_option_and_the_same_seed_gives_the_same_cases() {
    let a = assert_schema_cases!(shop(), only = "buy", seed = 7, before_each = size_m);
    let b = assert_schema_cases!(shop(), only = "buy", seed = 7, before_each = size_m);
    let titles = |r: &mcp_test::cases::VerifyReport| {
        r.outcomes
            .iter()
            .map(|o| (o.case.title.clone(), o.case.args.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(titles(&a), titles(&b));
}

fn size_m(case: &mut Case) {
    if case.expectation == mcp_test::cases::Expectation::Success {
        case.args["size"] = json!("M");
    }
}

#[tokio::test]
async fn the_panic_names_the_line_of_the_assertion() {
    use std::sync::{Arc, Mutex};
    const NAME: &str = "the_panic_names_the_line_of_the_assertion";
    let seen: Arc<Mutex<Vec<(String, u32)>>> = Arc::default();
    let previous = Arc::new(std::panic::take_hook());
    {
        let seen = seen.clone();
        let previous = previous.clone();
        std::panic::set_hook(Box::new(move |info| {
            // Only this test's thread (libtest names it after the test; nextest runs it
            // alone, on `main`).
            let thread = std::thread::current().name().unwrap_or("").to_owned();
            if (thread.ends_with(NAME) || thread == "main")
                && let Some(location) = info.location()
            {
                let mut seen = seen.lock().unwrap();
                seen.push((location.file().to_owned(), location.line()));
            }
            previous(info);
        }));
    }
    let line = line!() + 2;
    let _ = AssertUnwindSafe(async {
        assert_schema_cases!(shop(), only = "broken");
    })
    .catch_unwind()
    .await;
    let _ = std::panic::take_hook();
    let seen = seen.lock().unwrap().clone();
    assert!(
        seen.iter()
            .any(|(file, l)| file.ends_with("schema_cases_options.rs") && *l == line),
        "expected a panic at line {line} of this file, saw {seen:?}"
    );
}

#[tokio::test]
async fn edge_cases_false_sends_one_valid_case_per_tool_and_action() {
    let report = assert_schema_cases!(
        shop(),
        edge_cases = false,
        identity = Identity::principal("ada").with_tenant("acme"),
        only = "order",
        skip = ("order", "cancel"),
        values = [("order", "/data/id", json!("o-1"))],
    );
    assert_eq!(report.outcomes.len(), 1, "{report}");
    assert_eq!(
        report.outcomes[0].case.title,
        "get: accepts valid arguments"
    );
}
