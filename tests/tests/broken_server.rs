//! The deliberately broken server proves each probe of `check`: with no switch on it gets no
//! finding over stdio or HTTP, and each `--break SWITCH` makes exactly its probe report exactly
//! its clause, on every transport where the break shows. Every requirement of the matrix
//! (`mcp_test::spec::clauses`) that a probe checks on a 2026-07-28 server has a switch.

use futures_util::StreamExt;
use mcp_test::auth::AuthServer;
use mcp_test::cases::Connected;
use mcp_test::client::{Client, HttpOptions};
use mcp_test::spec::clauses;
use mcp_test::wire::Era;
use mcp_test_check::{
    AuthIssuer, CheckOptions, CheckReport, Finding, Severity, check, check_connected,
};
use serde::Deserialize;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

const FIXTURE: &str = env!("CARGO_BIN_EXE_broken_server");

/// A switch as `broken_server --list` prints it.
#[derive(Debug, Deserialize)]
struct Switch {
    name: String,
    clause: String,
    probe: String,
    transports: Vec<String>,
}

fn switches() -> Vec<Switch> {
    let out = std::process::Command::new(FIXTURE)
        .arg("--list")
        .output()
        .expect("the fixture runs");
    assert!(out.status.success(), "broken_server --list failed");
    serde_json::from_slice(&out.stdout).expect("--list prints JSON")
}

fn options() -> CheckOptions {
    CheckOptions::default()
        .timeout(Duration::from_secs(10))
        .deadline(Some(Duration::from_secs(60)))
        .close_grace(Duration::from_secs(2))
        // The fixture's tools answer at once; under a loaded machine a case time could only
        // add notes the clean fixture must not have.
        .case_time(None)
}

fn command(breaks: &[&str]) -> Command {
    let mut command = Command::new(FIXTURE);
    for name in breaks {
        command.args(["--break", name]);
    }
    command.kill_on_drop(true);
    command
}

/// `check` over stdio, closing the server at the end as `mcp-test check` does.
async fn over_stdio(breaks: &[&str]) -> CheckReport {
    let client = Client::spawn(command(breaks))
        .await
        .expect("the fixture starts");
    let connected = Connected::probe(client, "broken_server")
        .await
        .expect("the fixture answers server/discover");
    check_connected(&connected, &options()).await
}

/// `check` over Streamable HTTP, on a free port of 127.0.0.1.
async fn over_http(breaks: &[&str]) -> CheckReport {
    over_http_trusting(breaks, None).await
}

/// `check` over Streamable HTTP of the fixture as a resource server trusting a local
/// authorization server of this test, connected with a good token of it and told the issuer
/// (`--auth-issuer`), so the token probes run.
async fn over_http_auth(breaks: &[&str]) -> CheckReport {
    let auth = AuthServer::start()
        .await
        .expect("the authorization server starts");
    over_http_trusting(breaks, Some(&auth)).await
}

async fn over_http_trusting(breaks: &[&str], auth: Option<&AuthServer>) -> CheckReport {
    let mut command = command(breaks);
    command.args(["--http", "127.0.0.1:0"]);
    if let Some(auth) = auth {
        command.args(["--trust-issuer", auth.issuer()]);
    }
    command.stderr(Stdio::piped()).stdout(Stdio::null());
    let mut child = command.spawn().expect("the fixture starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("piped")).lines();
    let address = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = stderr.next_line().await.expect("stderr reads") {
            if let Some(address) = line.strip_prefix("listening on ") {
                return address.to_owned();
            }
        }
        panic!("the fixture exited before listening");
    })
    .await
    .expect("the fixture listens within 20 s");
    let url = format!("http://{address}/mcp");
    let (token, options) = match auth {
        // The token a switch of the authorization area asks for; an open server ignores it.
        None => (
            HttpOptions::new()
                .header("Authorization", "Bearer fixture-token")
                .expect("a valid header"),
            options(),
        ),
        Some(auth) => {
            let issuer = AuthIssuer::new(auth.issuer());
            let token = issuer
                .bearer_for(&url, &HttpOptions::new(), Duration::from_secs(10))
                .await
                .expect("a token of the trusted issuer");
            (token, options().auth_issuer(Some(issuer)))
        }
    };
    let client = Client::http_with(&url, &token).expect("a valid URL");
    let connected = Connected::probe(client, "broken_server over HTTP")
        .await
        .expect("the fixture answers server/discover");
    let report = check(&connected, &options).await;
    drop(child);
    report
}

async fn over(transport: &str, breaks: &[&str]) -> CheckReport {
    match transport {
        "stdio" => over_stdio(breaks).await,
        "http" => over_http(breaks).await,
        "http-auth" => over_http_auth(breaks).await,
        other => panic!("unknown transport {other:?}"),
    }
}

#[tokio::test]
async fn the_clean_fixture_has_no_finding_on_either_transport() {
    for transport in ["stdio", "http", "http-auth"] {
        let report = over(transport, &[]).await;
        // Over http-auth, two notes: the protected-resource metadata was found, and which
        // scopes the check's token held.
        let notes = 2 * usize::from(transport == "http-auth");
        assert_eq!(
            report.findings().count(),
            notes,
            "over {transport}:\n{}",
            report.to_text()
        );
        assert_eq!(
            report
                .findings()
                .filter(|f| f.severity != Severity::Info)
                .count(),
            0,
            "over {transport}:\n{}",
            report.to_text()
        );
        assert!(report.incomplete.is_none(), "{}", report.to_text());
    }
}

/// With a trusted issuer the token probes run (none is skipped) and find nothing on the clean
/// fixture; without one they are skipped, saying why.
#[tokio::test]
async fn the_token_probes_run_only_with_a_trusted_issuer() {
    let token_probes = |report: &CheckReport| -> Vec<(String, Option<String>)> {
        report
            .probes
            .iter()
            .filter(|p| p.name.starts_with("auth/"))
            .map(|p| (p.name.clone(), p.skipped.clone()))
            .collect()
    };
    let with = over_http_auth(&[]).await;
    let ran = token_probes(&with);
    assert_eq!(ran.len(), 5, "{}", with.to_text());
    assert!(ran.iter().all(|(_, skipped)| skipped.is_none()), "{ran:?}");
    assert!(
        with.findings().all(|f| f.severity == Severity::Info),
        "{}",
        with.to_text()
    );
    let without = over_http(&[]).await;
    let skipped = token_probes(&without);
    assert_eq!(skipped.len(), 5, "{}", without.to_text());
    assert!(
        skipped
            .iter()
            .all(|(_, why)| why.as_deref().is_some_and(|w| w.contains("--auth-issuer"))),
        "{skipped:?}"
    );
}

/// What is wrong with the report of one switch on one transport, if anything.
fn disagreement(switch: &Switch, transport: &str, report: &CheckReport) -> Option<String> {
    let findings: Vec<_> = report.findings().collect();
    let fired = findings.iter().any(|f| {
        f.probe == switch.probe && f.clause.as_ref().is_some_and(|c| c.id == switch.clause)
    });
    // A switch that makes the fixture a 2025-era server is held to its clause and to no
    // warning or defect elsewhere; notes are allowed there (the era checked, tools that ask
    // a client that declared no elicitation in its initialize).
    let era_note = |f: &&Finding| report.era == Some(Era::Legacy) && f.severity == Severity::Info;
    // A resource server's metadata is found and noted (`http/authorization`): a note, not a
    // finding against it.
    let auth_note = |f: &&Finding| transport == "http-auth" && f.severity == Severity::Info;
    let others: Vec<String> = findings
        .iter()
        .filter(|f| f.probe != switch.probe && !era_note(f) && !auth_note(f))
        .map(|f| format!("{} ({})", f.probe, f.message))
        .collect();
    if fired && others.is_empty() {
        return None;
    }
    Some(format!(
        "--break {} over {transport}: expected {} to report {}{}{}\n{}",
        switch.name,
        switch.probe,
        switch.clause,
        if fired { "" } else { "; it did not" },
        if others.is_empty() {
            String::new()
        } else {
            format!("; other probes fired: {}", others.join("; "))
        },
        report.to_text()
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_switch_makes_exactly_its_probe_report_its_clause() {
    let switches = switches();
    let runs: Vec<(&Switch, &str)> = switches
        .iter()
        .flat_map(|s| s.transports.iter().map(move |t| (s, t.as_str())))
        .collect();
    // Twelve checks at a time: each is a fresh process, so they cannot disturb each other, and
    // most of a check is waiting (the listen stream, the end of an SSE response).
    let failures: Vec<String> = futures_util::stream::iter(runs)
        .map(|(switch, transport)| async move {
            let report = over(transport, &[switch.name.as_str()]).await;
            disagreement(switch, transport, &report)
        })
        .buffer_unordered(12)
        .filter_map(|d| async move { d })
        .collect()
        .await;
    assert!(
        failures.is_empty(),
        "{} of the switches' checks disagree:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_switch_names_a_clause_of_the_matrix_that_its_probe_checks() {
    for switch in switches() {
        let clause = clauses::find(&switch.clause)
            .unwrap_or_else(|| panic!("{}: no clause {:?}", switch.name, switch.clause));
        assert!(
            clause.probes().contains(&switch.probe.as_str()),
            "{}: the matrix does not name {} among the probes of {} ({:?})",
            switch.name,
            switch.probe,
            clause.id,
            clause.probes()
        );
        assert!(
            !switch.transports.is_empty(),
            "{}: no transport",
            switch.name
        );
    }
}

/// Requirements the hostile-server corpus (`tests/tests/hostile_servers.rs`) breaks, rather
/// than a switch of the broken server.
const HOSTILE_CORPUS: [&str; 1] = ["transport/utf-8"];

/// Requirements no switch can break: the fixture's HTTP stack (hyper) lowercases every header
/// name before any code of the server sees it, so none can compare names case-sensitively.
/// The probe's judging is unit-tested over recorded replies instead.
const BEYOND_THE_FIXTURE: [&str; 1] = ["http/header-name-case"];

#[test]
fn every_probed_requirement_of_2026_07_28_has_a_switch() {
    let switches = switches();
    let missing: Vec<String> = clauses::ALL
        .iter()
        .filter(|c| c.revision == "2026-07-28" && c.binds(Era::Current))
        .filter(|c| !c.probes().is_empty())
        .filter(|c| !switches.iter().any(|s| s.clause == c.id))
        // Bytes the broken server's rewrites of JSON values cannot write: the hostile-server
        // corpus (`hostile_servers.rs`) breaks it instead.
        .filter(|c| !HOSTILE_CORPUS.contains(&c.id))
        .filter(|c| !BEYOND_THE_FIXTURE.contains(&c.id))
        .map(|c| format!("{} ({})", c.id, c.probes().join(", ")))
        .collect();
    assert!(
        missing.is_empty(),
        "{} probed requirements have no switch in broken_server:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// `check --properties`: on the clean fixture the property tests find nothing; with
/// `structuredContent` that breaks `total`'s output schema and `add` running out-of-range
/// arguments, they find both, each as a defect quoting its clause, with minimal arguments.
#[tokio::test]
async fn check_properties_find_the_breaks_and_nothing_on_the_clean_fixture() {
    async fn with_properties(breaks: &[&str]) -> CheckReport {
        let client = Client::spawn(command(breaks))
            .await
            .expect("the fixture starts");
        let connected = Connected::probe(client, "broken_server")
            .await
            .expect("the fixture answers server/discover");
        let options = options().properties(Some(16));
        check_connected(&connected, &options).await
    }
    let clean = with_properties(&[]).await;
    let probe = clean
        .probes
        .iter()
        .find(|p| p.name == "tools/properties")
        .unwrap_or_else(|| panic!("no tools/properties probe:\n{}", clean.to_text()));
    assert!(probe.skipped.is_none(), "{}", clean.to_text());
    assert_eq!(clean.findings().count(), 0, "{}", clean.to_text());

    let broken = with_properties(&[
        "tools/structured-content-mismatch",
        "tools/out-of-range-accepted",
    ])
    .await;
    let found: Vec<_> = broken
        .findings()
        .filter(|f| f.probe == "tools/properties")
        .collect();
    for (clause, tool) in [
        (clauses::OUTPUT_SCHEMA, "\"total\""),
        (clauses::VALIDATE_TOOL_INPUTS, "\"add\""),
    ] {
        let finding = found
            .iter()
            .find(|f| f.clause == Some(clause))
            .unwrap_or_else(|| panic!("no {} finding:\n{}", clause.id, broken.to_text()));
        assert_eq!(
            finding.severity,
            mcp_test_check::Severity::Defect,
            "{}",
            broken.to_text()
        );
        assert!(finding.message.contains(tool), "{}", finding.message);
        assert!(
            finding.message.contains("minimal arguments"),
            "{}",
            finding.message
        );
    }
}
