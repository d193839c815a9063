//! The cross-feature matrix (issue 45, item 9): one server (`mcp_test_downstream::matrix`: a
//! plain tool, a tool that asks mid-call, a task-capable tool, a resource, a prompt) reached
//! over every transport, in every era, and every feature run on each, so that a new feature
//! is tested where it meets the others. The cells are generated from the three lists below;
//! each prints its name and verdict, and the test fails at the end, listing every failed
//! cell, unless every cell ran and none failed.

use futures_util::FutureExt;
use mcp_test::auth::{AuthServer, TokenSpec, TokenValidator};
use mcp_test::cassette::{Cassette, Recorder, ReplayMode, ReplayOptions, replay_with};
use mcp_test::spec::clauses::Transport as Wire;
use mcp_test::surface::Surface;
use mcp_test::target::Answers;
use mcp_test::testing::coverage::Recorder as CoverageRecorder;
use mcp_test::testing::coverage::report::Coverage;
use mcp_test::testing::{
    RequestOptions, TestContext, answer, call_tool, get_prompt, list_tools, read_resource,
    text_response,
};
use mcp_test::transport::http::{HttpConfig, bind_local, router};
use mcp_test::wire::Era;
use mcp_test::{assert_properties, assert_schema_cases, assert_task_status, assert_tool_text};
use mcp_test_check::{CheckOptions, check};
use mcp_test_downstream::matrix::{
    NOTE_TEXT, NOTE_URI, PROMPT, PROMPT_TEXT, RESTED, echoed, matrix_server,
};
use serde_json::{Value, json};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The matrix server as a process of this crate.
const BIN: &str = env!("CARGO_BIN_EXE_matrix_server");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transport {
    InProcess,
    Stdio,
    Http,
    HttpOAuth,
}

const TRANSPORTS: [Transport; 4] = [
    Transport::InProcess,
    Transport::Stdio,
    Transport::Http,
    Transport::HttpOAuth,
];

const ERAS: [Era; 2] = [Era::Current, Era::Legacy];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feature {
    Call,
    Rounds,
    Tasks,
    SchemaCases,
    Properties,
    Surface,
    Check,
    Cassette,
    Coverage,
}

const FEATURES: [Feature; 9] = [
    Feature::Call,
    Feature::Rounds,
    Feature::Tasks,
    Feature::SchemaCases,
    Feature::Properties,
    Feature::Surface,
    Feature::Check,
    Feature::Cassette,
    Feature::Coverage,
];

/// Cells the specification makes impossible, each with the reason: none. Every feature is
/// defined in both eras over every transport.
const IMPOSSIBLE: &[(Transport, Era, Feature, &str)] = &[];

/// Cells that run, but assert less than the feature's full claim, each with the reason.
const REDUCED: &[(Era, Feature, &str)] = &[(
    Era::Legacy,
    Feature::Tasks,
    "the runtime serves no 2025-11-25 task augmentation (session.rs declares no `tasks` \
     capability in that era): the cell asserts that tools/list names the tool's \
     `execution.taskSupport` \"optional\" and that a call runs to the task's result",
)];

/// Cells that fail because of a known library bug, each with the bug: their failure is
/// reported and does not fail the test; a pass there fails it, so the list is kept current.
const KNOWN_GAPS: &[(Transport, Era, Feature, &str)] = &[];

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transport::InProcess => "in-process",
            Transport::Stdio => "stdio",
            Transport::Http => "http",
            Transport::HttpOAuth => "http+oauth",
        })
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Feature::Call => "call",
            Feature::Rounds => "rounds",
            Feature::Tasks => "tasks",
            Feature::SchemaCases => "schema-cases",
            Feature::Properties => "properties",
            Feature::Surface => "surface",
            Feature::Check => "check",
            Feature::Cassette => "cassette",
            Feature::Coverage => "coverage",
        })
    }
}

fn era_name(era: Era) -> &'static str {
    match era {
        Era::Current => "2026-07-28",
        Era::Legacy => "2025-11-25",
    }
}

/// What the cells share: the local authorization server the OAuth endpoints trust.
struct Setup {
    auth: AuthServer,
}

/// The options every context starts from: a client that answers elicitation.
fn opts() -> RequestOptions {
    RequestOptions::new().client_capabilities(json!({"elicitation": {}}))
}

/// The matrix server on 127.0.0.1 behind tokens of `auth` for its own URL; its URL.
async fn serve_oauth(auth: &AuthServer) -> String {
    let listener = bind_local(0).await.expect("a free port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let validator = TokenValidator::new(auth.issuer(), &url);
    let app = router(
        matrix_server(),
        HttpConfig::default().authenticator(validator.clone()),
    )
    .merge(validator.metadata_router());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

/// A fresh context on a fresh server (a process of its own over stdio, an endpoint of its
/// own over HTTP) over `transport` in `era`, recording coverage with `coverage` if given.
async fn open(
    setup: &Setup,
    transport: Transport,
    era: Era,
    coverage: Option<&CoverageRecorder>,
) -> TestContext {
    let base = match transport {
        Transport::InProcess => TestContext::with_options(matrix_server(), opts()),
        Transport::Stdio => TestContext::stdio([BIN]).with(|_| opts()),
        Transport::Http => {
            TestContext::http(mcp_test_downstream::serve_http(matrix_server()).await)
                .with(|_| opts())
        }
        Transport::HttpOAuth => {
            let url = serve_oauth(&setup.auth).await;
            let token = setup.auth.bearer(&TokenSpec::new(&url));
            TestContext::http_with(&url, &token).with(|_| opts())
        }
    };
    let base = match coverage {
        Some(recorder) => base.record_coverage(recorder),
        None => base,
    };
    let mcp = base.in_era(era);
    assert_eq!(mcp.era(), era);
    // Each cell is reached the way its row says.
    let reached = mcp.target().connection().transport;
    let expected = match transport {
        Transport::InProcess => reached,
        Transport::Stdio => Some(Wire::Stdio),
        Transport::Http | Transport::HttpOAuth => Some(Wire::Http),
    };
    assert_eq!(reached, expected, "{transport} reaches {}", mcp.label());
    mcp
}

/// A directory of this cell's own, empty.
fn scratch(cell: &str) -> PathBuf {
    let name: String = cell
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = std::env::temp_dir().join(format!("mcp-test-matrix-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn names(items: &[Value], key: &str) -> Vec<String> {
    let mut names: Vec<String> = items
        .iter()
        .filter_map(|item| item[key].as_str().map(str::to_owned))
        .collect();
    names.sort();
    names
}

/// Runs one cell: the feature over the transport in the era. Panics (an assertion) when the
/// result is empty or wrong; returns what it found, for the verdict line.
async fn run_cell(setup: &Setup, transport: Transport, era: Era, feature: Feature) -> String {
    let cell = format!("{transport}/{}/{feature}", era_name(era));
    match feature {
        Feature::Call => {
            let mcp = open(setup, transport, era, None).await;
            let said = text_response(mcp.call_tool("echo", json!({"text": "hi"})).await);
            assert_eq!(said, echoed("hi"));
            format!("echo answered {said:?}")
        }
        Feature::Rounds => {
            let mcp = open(setup, transport, era, None).await;
            let answers = Answers::new().then(answer::accept(json!({"name": "Ada"})));
            let rounds = mcp.call_tool_rounds("ask", json!({}), &answers).await;
            assert_tool_text!(rounds, "Hello, Ada!");
            if era == Era::Current {
                // 2026-07-28: `input_required`, then the retry with the answer.
                assert_eq!(rounds.len(), 2, "two rounds in 2026-07-28");
            }
            format!("ask completed with the answer in {} round(s)", rounds.len())
        }
        Feature::Tasks if era == Era::Legacy => {
            let mcp = open(setup, transport, era, None).await;
            let listed = mcp.list_tools().await;
            let nap = listed["result"]["tools"]
                .as_array()
                .and_then(|tools| tools.iter().find(|t| t["name"] == "nap"))
                .unwrap_or_else(|| panic!("nap is not listed: {listed}"))
                .clone();
            assert_eq!(nap["execution"]["taskSupport"], "optional", "{nap}");
            assert_tool_text!(mcp.call_tool("nap", json!({})).await, RESTED);
            "nap listed with taskSupport optional and ran to its result".to_owned()
        }
        Feature::Tasks => {
            let mcp = open(setup, transport, era, None).await;
            let created = mcp.call_tool_as_task("nap", json!({})).await;
            assert_eq!(created["result"]["resultType"], "task", "{created}");
            let id = mcp_test::testing::task_id(&created).to_owned();
            let done = mcp.poll_task(&id).await;
            let task = assert_task_status!(done, "completed");
            assert_tool_text!(task["result"].clone(), RESTED);
            format!("task {id} completed with {RESTED:?}")
        }
        Feature::SchemaCases => {
            let mcp = open(setup, transport, era, None).await;
            let report = assert_schema_cases!(mcp, only = "echo");
            assert!(!report.outcomes.is_empty(), "{report}");
            assert!(report.outcomes.iter().all(|o| o.agrees), "{report}");
            assert!(
                report.outcomes.iter().all(|o| o.case.tool == "echo"),
                "{report}"
            );
            format!("{} outcomes, all agree", report.outcomes.len())
        }
        Feature::Properties => {
            let mcp = open(setup, transport, era, None).await;
            let report = assert_properties!(mcp, only = "echo", cases = 8, no_regressions = ());
            assert!(report.cases() > 0, "{report}");
            assert!(report.failures.is_empty(), "{report}");
            assert!(report.runs.iter().any(|r| r.tool == "echo"), "{report}");
            format!("{} cases, no failure", report.cases())
        }
        Feature::Surface => {
            let mcp = open(setup, transport, era, None).await;
            let surface = Surface::fetch(&mcp).await.expect("the surface is fetched");
            assert_eq!(names(&surface.tools, "name"), ["ask", "echo", "nap"]);
            assert_eq!(names(&surface.resources, "uri"), [NOTE_URI]);
            assert_eq!(names(&surface.prompts, "name"), [PROMPT]);
            format!(
                "{} tools, {} resource, {} prompt",
                surface.tools.len(),
                surface.resources.len(),
                surface.prompts.len()
            )
        }
        Feature::Check => {
            let mcp = open(setup, transport, era, None).await;
            let options = CheckOptions::default()
                .timeout(Duration::from_secs(10))
                .deadline(Some(Duration::from_secs(40)));
            let report = check(&mcp, &options).await;
            let text = report.to_text();
            assert_eq!(report.era, Some(era), "{text}");
            assert!(report.incomplete.is_none(), "{text}");
            assert!(!report.has_defects(), "{text}");
            let mut called: Vec<&str> = report
                .tools
                .iter()
                .filter(|t| t.called)
                .map(|t| t.name.as_str())
                .collect();
            called.sort_unstable();
            assert_eq!(called, ["ask", "echo", "nap"], "{text}");
            assert!(!report.cases.outcomes.is_empty(), "{text}");
            format!(
                "no defect, {} probes, {} cases, tools called: {}",
                report.probes.len(),
                report.cases.outcomes.len(),
                called.join(", ")
            )
        }
        Feature::Cassette => {
            let dir = scratch(&cell);
            let path = dir.join("session.jsonl");
            let mcp = open(setup, transport, era, None).await;
            let recorder = Recorder::create(mcp.clone(), &path).expect("the cassette is created");
            let said = text_response(
                call_tool(&recorder, "echo", json!({"text": "tape"}), mcp.options()).await,
            );
            assert_eq!(said, echoed("tape"));
            list_tools(&recorder, mcp.options()).await;
            let read = read_resource(&recorder, NOTE_URI, mcp.options()).await;
            assert_eq!(read["result"]["contents"][0]["text"], NOTE_TEXT, "{read}");
            let prompt = get_prompt(&recorder, PROMPT, json!({}), mcp.options()).await;
            assert_eq!(
                prompt["result"]["messages"][0]["content"]["text"], PROMPT_TEXT,
                "{prompt}"
            );
            recorder.finish().expect("the cassette is written");
            drop(recorder);
            drop(mcp);
            let cassette = Cassette::load(&path).expect("the cassette loads");
            let recorded = cassette
                .entries
                .iter()
                .find(|r| r.entry.method() == Some("tools/call"))
                .unwrap_or_else(|| panic!("no tools/call recorded in {}", path.display()));
            let recorded_text = recorded.entry.response.as_ref().map(text_response);
            assert_eq!(recorded_text.as_deref(), Some(echoed("tape").as_str()));
            let fresh = open(setup, transport, era, None).await;
            let replayed = replay_with(
                &fresh,
                &path,
                &ReplayOptions::new().mode(ReplayMode::Compare),
            )
            .await
            .unwrap_or_else(|e| panic!("the replay differs: {e}"));
            assert!(replayed.compared >= 4, "{replayed:?}");
            let _ = std::fs::remove_dir_all(&dir);
            format!(
                "{} lines recorded, {} compared on replay, no difference",
                cassette.entries.len(),
                replayed.compared
            )
        }
        Feature::Coverage => {
            let dir = scratch(&cell);
            let recorder = CoverageRecorder::new(&dir);
            let mcp = open(setup, transport, era, Some(&recorder)).await;
            assert_tool_text!(
                mcp.call_tool("echo", json!({"text": "seen"})).await,
                echoed("seen")
            );
            let coverage = Coverage::load(&dir).expect("the recorded coverage");
            let _ = std::fs::remove_dir_all(&dir);
            let [server] = coverage.servers() else {
                panic!("one server row: {:?}", coverage.servers().len());
            };
            assert_eq!(server.name(), "matrix 1.0.0");
            assert_eq!(server.in_process(), transport == Transport::InProcess);
            let echo = server
                .tools()
                .iter()
                .find(|t| t.name() == "echo")
                .expect("echo has a row");
            assert!(echo.covered(), "echo is covered");
            assert_eq!(echo.counts().total(), 1);
            format!("echo covered ({} call)", echo.counts().total())
        }
    }
}

/// The message of a caught panic.
fn message(payload: Box<dyn std::any::Any + Send>) -> String {
    mcp_test_downstream::panic_message(&*payload)
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// How long one cell may take.
const CELL_LIMIT: Duration = Duration::from_secs(45);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_feature_over_every_transport_in_every_era() {
    let started = Instant::now();
    let setup = Setup {
        auth: AuthServer::start().await.expect("the issuer starts"),
    };
    let mut ran = 0;
    let mut failed = Vec::new();
    let mut gaps_seen = Vec::new();
    for transport in TRANSPORTS {
        for era in ERAS {
            for feature in FEATURES {
                let cell = format!("{transport}/{}/{feature}", era_name(era));
                if let Some((.., why)) = IMPOSSIBLE
                    .iter()
                    .find(|(t, e, f, _)| (*t, *e, *f) == (transport, era, feature))
                {
                    println!("cell {cell}: impossible ({why})");
                    continue;
                }
                let gap = KNOWN_GAPS
                    .iter()
                    .find(|(t, e, f, _)| (*t, *e, *f) == (transport, era, feature));
                let at = Instant::now();
                let run = std::panic::AssertUnwindSafe(run_cell(&setup, transport, era, feature))
                    .catch_unwind();
                let verdict = match tokio::time::timeout(CELL_LIMIT, run).await {
                    Ok(Ok(found)) => Ok(found),
                    Ok(Err(payload)) => Err(message(payload)),
                    Err(_) => Err(format!("did not finish within {CELL_LIMIT:?}")),
                };
                ran += 1;
                let ms = at.elapsed().as_millis();
                match (verdict, gap) {
                    (Ok(found), None) => println!("cell {cell}: ok ({found}; {ms} ms)"),
                    (Ok(found), Some((.., bug))) => {
                        println!("cell {cell}: PASSES although a known gap ({found}; {ms} ms)");
                        failed.push(format!(
                            "{cell}: passes, so remove it from KNOWN_GAPS ({bug})"
                        ));
                    }
                    (Err(why), None) => {
                        println!("cell {cell}: FAILED ({ms} ms)\n{why}");
                        failed.push(format!("{cell}: {why}"));
                    }
                    (Err(why), Some((.., bug))) => {
                        println!("cell {cell}: known gap ({bug}; {ms} ms)\n{why}");
                        gaps_seen.push(cell);
                    }
                }
            }
        }
    }
    for (era, feature, why) in REDUCED {
        println!("reduced: */{}/{feature}: {why}", era_name(*era));
    }
    let expected = TRANSPORTS.len() * ERAS.len() * FEATURES.len() - IMPOSSIBLE.len();
    println!(
        "{ran} cells ran ({} known gaps) in {:?}",
        gaps_seen.len(),
        started.elapsed()
    );
    assert_eq!(ran, expected, "every cell ran");
    assert!(
        failed.is_empty(),
        "{} of {ran} cells failed:\n{}",
        failed.len(),
        failed.join("\n\n")
    );
}

/// The OAuth transport is one: without a token the endpoint refuses.
#[tokio::test]
async fn the_oauth_endpoint_refuses_a_request_without_a_token() {
    let auth = AuthServer::start().await.expect("the issuer starts");
    let url = serve_oauth(&auth).await;
    let client = mcp_test::client::Client::http(&url).expect("a client");
    let refused = client
        .send(&client.tool_call_body("echo", json!({"text": "hi"})))
        .await
        .expect_err("a 401");
    assert!(
        matches!(refused, mcp_test::client::ClientError::Unauthorized { .. }),
        "{refused:?}"
    );
}
