//! One caller through everything a test does, and nothing green that tested nothing
//! (issue 45, items 1 and 2): a context's identity reaches the schema cases, the property
//! tests and `check`; a generator that ran on nothing fails, naming why, unless the test says
//! it means it.

use mcp_test::authorization::Access;
use mcp_test::testing::{RequestOptions, TestContext};
use mcp_test::{Context, Identity, Server, Tool, ToolError};
use mcp_test::{assert_properties, assert_schema_cases};
use mcp_test_downstream::panic_of;

/// Reads the ledger.
#[derive(Tool)]
#[tool(name = "balance", annotations(read_only, idempotent))]
struct Balance {
    /// The account, 1 to 9
    #[tool(minimum = 1, maximum = 9)]
    account: i64,
}

impl Balance {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok(format!("account {}: 0", self.account))
    }
}

/// Posts to the ledger (behind the `ledger.write` scope).
#[derive(Tool)]
#[tool(name = "post", annotations(read_only, idempotent))]
struct Post {
    /// The amount, 1 to 100
    #[tool(minimum = 1, maximum = 100)]
    amount: i64,
}

impl Post {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        Ok(format!(
            "{} posted {}",
            ctx.principal().unwrap_or("?"),
            self.amount
        ))
    }
}

const WRITE: &str = "ledger.write";

/// The ledger: `post` is listed to every caller and refused without the scope (the
/// default), or with `hidden`, listed only to a caller that holds it.
fn ledger(hidden: bool) -> Server {
    let access = Access::scopes([WRITE]);
    let access = if hidden {
        access.hidden_without_scope()
    } else {
        access
    };
    Server::builder("ledger", "1.0.0")
        .tool::<Balance>()
        .tool_with_access::<Post>(access)
        .build()
        .expect("the ledger builds")
}

fn server() -> Server {
    ledger(false)
}

fn writer() -> TestContext {
    TestContext::with_options(
        server(),
        RequestOptions::new().principal("ada").scopes([WRITE]),
    )
}

#[tokio::test]
async fn the_schema_cases_of_a_context_run_as_its_caller() {
    let mcp = writer();
    let report = assert_schema_cases!(mcp);
    let posted: Vec<_> = report
        .outcomes
        .iter()
        .filter(|o| o.case.tool == "post")
        .collect();
    assert!(posted.len() > 1, "the scoped tool got its cases: {report}");
    assert!(posted.iter().all(|o| o.agrees), "{report}");
}

#[tokio::test]
async fn a_tool_hidden_without_its_scope_gets_cases_from_a_context_that_holds_it() {
    let mcp = TestContext::with_options(
        ledger(true),
        RequestOptions::new().principal("ada").scopes([WRITE]),
    );
    let report = assert_schema_cases!(mcp, only = "post");
    assert!(report.outcomes.len() > 1, "{report}");
    assert!(report.outcomes.iter().all(|o| o.agrees), "{report}");
}

#[tokio::test]
async fn identity_lists_the_tools_as_it_calls_them() {
    let server = ledger(true);
    let ada = Identity::principal("ada").with_scopes([WRITE]);
    let report = assert_schema_cases!(server, identity = ada.clone(), only = "post");
    assert!(!report.outcomes.is_empty(), "{report}");
    assert!(report.outcomes.iter().all(|o| o.case.tool == "post"));
    let properties = assert_properties!(server, identity = ada, only = "post", cases = 8);
    assert!(
        properties.runs.iter().any(|r| r.tool == "post"),
        "{properties}"
    );
}

#[tokio::test]
async fn properties_of_a_context_run_as_its_caller() {
    let mcp = writer();
    let report = assert_properties!(mcp, only = "post", cases = 8);
    assert!(report.cases() > 0, "{report}");
}

#[tokio::test]
async fn check_of_a_context_calls_the_tools_its_caller_sees() {
    let mcp = writer();
    let report = mcp_test_check::check(&mcp, &mcp_test_check::CheckOptions::default()).await;
    assert!(
        report.tools.iter().any(|t| t.name == "post" && t.called),
        "{}",
        report.to_text()
    );
    assert!(!report.has_defects(), "{}", report.to_text());
}

#[tokio::test]
async fn a_filter_that_names_no_tool_fails_naming_it() {
    let mcp = writer();
    let message = panic_of(async {
        assert_schema_cases!(mcp, only = "nope");
    })
    .await;
    assert!(message.contains("`only = \"nope\"`"), "{message}");
    assert!(
        message.contains("balance, post"),
        "lists what there is: {message}"
    );
    let message = panic_of(async {
        assert_properties!(mcp, only = "nope", cases = 4);
    })
    .await;
    assert!(message.contains("`only = \"nope\"`"), "{message}");
}

#[tokio::test]
async fn an_action_the_tool_does_not_have_selects_no_case() {
    let mcp = writer();
    let message = panic_of(async {
        assert_schema_cases!(mcp, only = ("post", "refund"));
    })
    .await;
    assert!(message.contains("selects no case"), "{message}");
}

/// A server whose one tool is behind a scope the caller lacks: it lists no tool to it.
fn scoped_only() -> TestContext {
    let server = Server::builder("vault", "1.0.0")
        .tool_with_access::<Post>(Access::scopes([WRITE]).hidden_without_scope())
        .build()
        .unwrap();
    TestContext::with_options(server, RequestOptions::new().principal("eve"))
}

#[tokio::test]
async fn no_tool_visible_to_the_caller_fails_unless_the_test_means_it() {
    let mcp = scoped_only();
    let message = panic_of(async {
        assert_schema_cases!(mcp);
    })
    .await;
    assert!(message.contains("lists no tool"), "{message}");
    let message = panic_of(async {
        assert_properties!(mcp, cases = 4);
    })
    .await;
    assert!(message.contains("lists no tool"), "{message}");
    let report = assert_schema_cases!(mcp, allow_empty = true);
    assert!(report.outcomes.is_empty());
    let report = assert_properties!(mcp, allow_empty = true, cases = 4);
    assert!(report.runs.is_empty());
}

#[tokio::test]
async fn every_tool_skipped_is_nothing_tested() {
    let mcp = writer();
    let message = panic_of(async {
        assert_schema_cases!(mcp, skip = "balance", skip = "post");
    })
    .await;
    assert!(message.contains("is skipped"), "{message}");
}

#[tokio::test]
async fn the_surface_of_a_context_is_what_its_caller_sees() {
    let writer = TestContext::with_options(
        ledger(true),
        RequestOptions::new().principal("ada").scopes([WRITE]),
    );
    let surface = mcp_test::surface::Surface::fetch(&writer)
        .await
        .expect("the surface is fetched");
    let names: Vec<&str> = surface
        .tools
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["balance", "post"]);
    let anonymous = mcp_test::surface::Surface::fetch(&ledger(true))
        .await
        .expect("the surface is fetched");
    assert_eq!(
        anonymous.tools.len(),
        1,
        "a bare server is asked anonymously"
    );
}

#[tokio::test]
async fn an_empty_surface_is_no_snapshot() {
    let hidden = mcp_test::surface::Surface::fetch(&scoped_only())
        .await
        .expect("the surface is fetched");
    assert!(hidden.is_empty(), "{:?}", hidden.tools);
    let message = panic_of(async move {
        mcp_test::assert_surface_snapshot!(hidden);
    })
    .await;
    assert!(message.contains("the surface is empty"), "{message}");
}

#[tokio::test]
async fn a_bare_server_is_fetched_and_checked_as_the_caller_given() {
    let ada = Identity::principal("ada").with_scopes([WRITE]);
    let server = ledger(true);
    let timeout = std::time::Duration::from_secs(10);
    let caller = mcp_test::Caller::new(ada.clone());
    let surface = mcp_test::surface::Surface::fetch_as(&server, &caller, timeout)
        .await
        .expect("the surface is fetched");
    assert_eq!(surface.tools.len(), 2, "{:?}", surface.tools);
    let options = mcp_test_check::CheckOptions::default().identity(ada);
    let report = mcp_test_check::check(&server, &options).await;
    assert!(
        report.tools.iter().any(|t| t.name == "post" && t.called),
        "{}",
        report.to_text()
    );
    let anonymous = mcp_test_check::check(&server, &mcp_test_check::CheckOptions::default()).await;
    assert!(
        !anonymous.tools.iter().any(|t| t.name == "post"),
        "{}",
        anonymous.to_text()
    );
}
