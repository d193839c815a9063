//! `mcp-test load` as a user runs it: the real binary against a server of the runtime that
//! counts the calls it answers, over Streamable HTTP in both eras (served in this process on
//! 127.0.0.1) and over stdio (this test binary started again as the server, one process
//! pipelined or several). Every run is bounded by a count of requests; the counts of its JSON
//! report must equal the calls the server received. No assertion is on time.

use mcp_test::{Context, Server, Tool, ToolError};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

mod fixture;
mod support;
use support::{TempFile, mcp_test};

/// The calls a server answered.
#[derive(Default)]
struct Calls(AtomicU64);

/// Counts the call and says which count it was.
#[derive(Tool)]
#[tool(name = "count", annotations(read_only, open_world = false))]
struct Count {
    /// Who asks.
    #[tool(min_length = 1, max_length = 20)]
    who: String,
}

impl Count {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let n = ctx
            .state::<Arc<Calls>>()
            .map_or(0, |c| c.0.fetch_add(1, Ordering::SeqCst) + 1);
        Ok(format!("{}: call {n}", self.who))
    }
}

/// Fails while three or more calls are in flight: after arriving it waits up to half a
/// second for the third, so at concurrency 1 and 2 it never fails and at 4 it does.
#[derive(Tool)]
#[tool(name = "crowd", annotations(read_only, open_world = false))]
struct Crowd {}

/// The calls of `crowd` in flight, and a wake-up for those waiting.
#[derive(Default)]
struct InFlight {
    now: AtomicU64,
    crowded: tokio::sync::Notify,
}

impl Crowd {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let state = ctx.state::<Arc<InFlight>>().expect("the state").clone();
        let now = state.now.fetch_add(1, Ordering::SeqCst) + 1;
        let crowded = if now >= 3 {
            state.crowded.notify_waiters();
            true
        } else {
            tokio::time::timeout(Duration::from_millis(500), state.crowded.notified())
                .await
                .is_ok()
        };
        state.now.fetch_sub(1, Ordering::SeqCst);
        if crowded {
            Err(ToolError::new("three calls at once"))
        } else {
            Ok("alone".to_owned())
        }
    }
}

fn counting_server(calls: Arc<Calls>) -> Server {
    Server::builder("counting", "1.0.0")
        .state(calls)
        .state(Arc::new(InFlight::default()))
        .tool::<Count>()
        .build()
        .expect("the fixture builds")
}

const FIXTURE_ENV: &str = "MCP_TEST_CLI_LOAD_FIXTURE";
const COUNT_FILE_ENV: &str = "MCP_TEST_CLI_LOAD_COUNT_FILE";

/// The stdio fixture: the counting server, which on exit appends its count to the file
/// `$MCP_TEST_CLI_LOAD_COUNT_FILE` names ([`fixture::serve_stdio`]). Ignored, so a normal run
/// skips it.
#[tokio::test]
#[ignore = "the stdio fixture server, started by the load tests"]
async fn fixture_stdio_server() {
    let calls = Arc::new(Calls::default());
    let served = calls.clone();
    fixture::serve_stdio(FIXTURE_ENV, move || counting_server(served)).await;
    if let Some(path) = std::env::var_os(COUNT_FILE_ENV) {
        use std::io::Write as _;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the count file opens");
        // One write of the whole line: the processes append to the same file, and
        // `writeln!` may split a line across two writes that another process's
        // line lands between.
        let line = format!("{}\n", calls.0.load(Ordering::SeqCst));
        file.write_all(line.as_bytes())
            .expect("the count is written");
    }
}

/// Runs `mcp-test load ARGS --format json`; its exit code and report.
async fn load(args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["load", "--format", "json", "--quiet"];
    all.extend_from_slice(args);
    let run = mcp_test(&all).await;
    let report = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    (run.status, report, run.stderr)
}

/// The counts of a one-step report that every request succeeded: requests of the step, of
/// its one call and of the run, and the series' sum.
fn requests_of(report: &Value) -> u64 {
    let step = &report["steps"][0];
    let requests = step["requests"].as_u64().expect("a count of requests");
    assert_eq!(step["calls"][0]["label"], "tools/call count", "{report}");
    assert_eq!(step["calls"][0]["requests"], requests, "{report}");
    assert_eq!(report["requests"], requests, "{report}");
    assert_eq!(report["errors"], 0, "{report}");
    let series: u64 = report["series"]
        .as_array()
        .expect("a series")
        .iter()
        .map(|p| p["requests"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(series, requests, "the series adds up to the step: {report}");
    requests
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_in_both_eras_the_report_counts_what_the_server_answered() {
    for era in ["2026-07-28", "2025-11-25"] {
        let calls = Arc::new(Calls::default());
        let url = fixture::http_url(counting_server(calls.clone())).await;
        let (status, report, stderr) = load(&[
            "--url",
            &url,
            "--era",
            era,
            "--requests",
            "300",
            "--concurrency",
            "8",
        ])
        .await;
        assert_eq!(status, 0, "{era}: {stderr}\n{report}");
        assert_eq!(report["era"], era, "{report}");
        assert_eq!(report["transport"], "http");
        assert_eq!(report["connections"], "per-client");
        assert_eq!(report["connections_opened"], 8, "{report}");
        assert_eq!(requests_of(&report), 300, "{report}");
        assert_eq!(
            calls.0.load(Ordering::SeqCst),
            300,
            "{era}: the server's count"
        );
        let latency = &report["steps"][0]["latency"];
        assert!(
            latency["p50_ms"].as_f64() <= latency["p99_ms"].as_f64()
                && latency["p99_ms"].as_f64() <= latency["max_ms"].as_f64(),
            "{latency}"
        );
        // Nothing was started, so nothing was sampled.
        assert_eq!(report["resources"], Value::Null, "{report}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_stdio_one_process_pipelined_or_several_the_counts_match_and_memory_is_sampled() {
    for connections in ["1", "3"] {
        let counts = TempFile::new(&format!("load-counts-{connections}"), None);
        let mut args: Vec<String> = [
            "load",
            "--format",
            "json",
            "--quiet",
            "--requests",
            "240",
            "--concurrency",
            "6",
            "--connections",
            connections,
        ]
        .map(str::to_owned)
        .to_vec();
        let mut target = fixture::stdio_target(FIXTURE_ENV);
        // The fixture's environment: the file it appends its count to.
        target[3] = format!("{COUNT_FILE_ENV}={} {}", counts.arg(), target[3]);
        args.extend(target);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = mcp_test(&refs).await;
        let report: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
        assert_eq!(run.status, 0, "{}\n{report}", run.stderr);
        assert_eq!(report["transport"], "stdio");
        assert_eq!(report["connections"], "shared");
        let processes: usize = connections.parse().unwrap();
        assert_eq!(report["connections_opened"], processes, "{report}");
        assert_eq!(requests_of(&report), 240);
        // Each process wrote its count when its stdin closed: together, every request.
        let written = std::fs::read_to_string(&counts.0).expect("the servers wrote counts");
        let lines: Vec<u64> = written.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(lines.len(), processes, "{written}");
        assert_eq!(lines.iter().sum::<u64>(), 240, "{written}");
        if processes > 1 {
            assert!(
                lines.iter().all(|n| *n > 0),
                "every process got some: {written}"
            );
        }
        let resources = &report["resources"];
        assert_eq!(resources["pids"].as_array().map(Vec::len), Some(processes));
        let rss = &resources["rss_kb"];
        assert!(rss["first"].as_u64() > Some(0), "{resources}");
        assert!(rss["peak"].as_u64() >= rss["last"].as_u64(), "{resources}");
        assert!(resources["fds"]["first"].as_u64() > Some(2), "{resources}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ramp_reports_the_last_concurrency_within_the_error_bound() {
    let server = Server::builder("crowd", "1.0.0")
        .state(Arc::new(InFlight::default()))
        .tool::<Crowd>()
        .build()
        .expect("the fixture builds");
    let url = fixture::http_url(server).await;
    let (status, report, stderr) =
        load(&["--url", &url, "--ramp", "1,2,4,8", "--requests", "4"]).await;
    // The ramp found a concurrency within the bound: exit 0, however far it went.
    assert_eq!(status, 0, "{stderr}\n{report}");
    let steps = report["steps"].as_array().expect("steps");
    assert_eq!(
        steps.len(),
        3,
        "it stops at the first step out of bounds: {report}"
    );
    assert_eq!(steps[0]["within_bounds"], true, "{report}");
    assert_eq!(steps[1]["within_bounds"], true, "{report}");
    assert_eq!(steps[2]["within_bounds"], false, "{report}");
    assert_eq!(steps[2]["concurrency"], 4);
    assert!(
        steps[2]["calls"][0]["errors"]["isError"].as_u64() > Some(0),
        "{report}"
    );
    assert!(
        steps[2]["broke"][0]
            .as_str()
            .unwrap_or_default()
            .contains("--max-error-rate 0"),
        "{report}"
    );
    assert_eq!(report["last_within_bounds"], 2, "{report}");
    // A fixed run at 4 breaks the bound: exit 1.
    let (status, report, _) = load(&["--url", &url, "--concurrency", "4", "--requests", "4"]).await;
    assert_eq!(status, 1, "{report}");
    assert_eq!(report["ok"], false);
    assert_eq!(report["last_within_bounds"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scenario_file_mixes_calls_by_weight_and_the_tool_counts_match() {
    let file = TempFile::new(
        "mix.json",
        Some(
            r#"{"calls": [{"tool": "count", "arguments": {"who": "mix"}, "weight": 3},
                           {"method": "tools/list", "name": "list"}]}"#,
        ),
    );
    let calls = Arc::new(Calls::default());
    let url = fixture::http_url(counting_server(calls.clone())).await;
    let (status, report, stderr) = load(&[
        "--url",
        &url,
        "--scenario",
        file.arg(),
        "--requests",
        "400",
        "--concurrency",
        "4",
    ])
    .await;
    assert_eq!(status, 0, "{stderr}\n{report}");
    let step = &report["steps"][0];
    assert_eq!(step["requests"], 400, "{report}");
    assert_eq!(step["calls"][1]["label"], "list");
    let counted = step["calls"][0]["requests"].as_u64().expect("a count");
    let listed = step["calls"][1]["requests"].as_u64().expect("a count");
    assert_eq!(counted + listed, 400);
    assert_eq!(
        calls.0.load(Ordering::SeqCst),
        counted,
        "the server's count"
    );
    // Three to one, loosely: the draw is by weight.
    assert!(
        counted > 2 * listed && listed > 0,
        "{counted} against {listed}"
    );
}

#[tokio::test]
async fn a_bad_scenario_file_names_the_json_pointer_and_exits_2() {
    for (text, said) in [
        (
            r#"{"calls": [{"tool": "count"}, {"tool": "count", "weight": -1}]}"#,
            "/calls/1/weight: a weight is a whole number from 1 to 1000000, not -1",
        ),
        (
            r#"{"calls": [{"tool": "count", "params": {}}]}"#,
            "/calls/0/params: a tool call takes `arguments`, not `params`",
        ),
        (
            r#"{"calls": [{"method": "tools/list", "wieght": 2}]}"#,
            "/calls/0/wieght: unknown key `wieght`",
        ),
        (r#"{"calls": []}"#, "/calls: `calls` is empty"),
        ("{\n  \"calls\": [,]\n}", "line 2, column 13: not JSON"),
    ] {
        let file = TempFile::new("scenario.json", Some(text));
        let calls = Arc::new(Calls::default());
        let url = fixture::http_url(counting_server(calls.clone())).await;
        let run = mcp_test(&[
            "load",
            "--scenario",
            file.arg(),
            "--requests",
            "5",
            "--url",
            &url,
        ])
        .await;
        assert_eq!(run.status, 2, "{text}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{}: {said}", file.arg())),
            "{text}: {}",
            run.stderr
        );
        assert_eq!(calls.0.load(Ordering::SeqCst), 0, "nothing was sent");
    }
}
