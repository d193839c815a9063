//! The ad-hoc commands (`list`, `call`, `read`, `prompt`, `complete`) as a user runs them:
//! the real binary against the conformance fixture server (`examples/conformance.rs`), over
//! Streamable HTTP (served in this process on 127.0.0.1) and over stdio (this test binary
//! started again as the server, see [`fixture_stdio_server`]).

use serde_json::{Value, json};
use std::process::Stdio;
use tokio::io::AsyncWriteExt;

#[allow(dead_code)]
#[path = "../../mcp-test/examples/conformance.rs"]
mod conformance;
mod fixture;

/// Set in the environment of the stdio fixture (this binary, started again).
const FIXTURE_ENV: &str = "MCP_TEST_ADHOC_FIXTURE";

/// Not a test: the conformance server over stdio, when this binary is started as the stdio
/// fixture ([`fixture::serve_stdio`]). Ignored, so a normal run skips it.
#[tokio::test]
#[ignore = "the stdio fixture server, started by the ad-hoc tests"]
async fn fixture_stdio_server() {
    fixture::serve_stdio(FIXTURE_ENV, conformance::conformance_server).await;
}

/// The target arguments of the stdio fixture: `-- sh -c ... THIS_BINARY`.
fn stdio_target() -> Vec<String> {
    fixture::stdio_target(FIXTURE_ENV)
}

/// The target arguments of the conformance server over HTTP, served by this process.
async fn http_target() -> Vec<String> {
    let url = fixture::http_url(conformance::conformance_server()).await;
    vec!["--url".to_owned(), url]
}

/// Both targets, each with its name for failure messages.
async fn targets() -> Vec<(&'static str, Vec<String>)> {
    let mut out = vec![("http", http_target().await)];
    if cfg!(unix) {
        out.push(("stdio", stdio_target()));
    }
    out
}

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Runs `mcp-test ARGS TARGET` with `stdin` as its input (none: empty).
async fn run(args: &[&str], target: &[String], stdin: Option<&str>) -> Run {
    // Options before `--` (a stdio target) or anywhere (an HTTP one).
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"));
    command
        .args(args)
        .args(target)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().expect("the mcp-test binary runs");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.unwrap_or("").to_owned();
    tokio::spawn(async move {
        let _ = input.write_all(text.as_bytes()).await;
    });
    let output = tokio::time::timeout(
        std::time::Duration::from_secs(120),
        child.wait_with_output(),
    )
    .await
    .expect("mcp-test ends within 120 s")
    .expect("mcp-test ran");
    Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[tokio::test]
async fn list_names_every_tool_resource_template_and_prompt() {
    for (name, target) in targets().await {
        let tools = run(&["list", "tools"], &target, None).await;
        assert_eq!(tools.status, 0, "{name}: {}", tools.stderr);
        assert!(
            tools
                .stdout
                .contains("test_simple_text  Returns a simple text response."),
            "{name}: {}",
            tools.stdout
        );
        let resources = run(&["list", "resources"], &target, None).await;
        assert!(
            resources.stdout.contains("test://static-text"),
            "{name}: {}",
            resources.stdout
        );
        let templates = run(&["list", "templates"], &target, None).await;
        assert!(
            templates.stdout.contains("test://template/{id}/data"),
            "{name}: {}",
            templates.stdout
        );
        let prompts = run(&["list", "prompts", "--format", "json"], &target, None).await;
        assert_eq!(prompts.status, 0, "{name}: {}", prompts.stderr);
        let listed: Value = serde_json::from_str(&prompts.stdout).unwrap();
        assert!(
            listed["prompts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["name"] == "test_prompt_with_arguments"),
            "{name}: {listed}"
        );
    }
}

#[tokio::test]
async fn call_takes_pairs_or_json_and_reports_tool_errors() {
    for (name, target) in targets().await {
        let simple = run(&["call", "test_simple_text"], &target, None).await;
        assert_eq!(simple.status, 0, "{name}: {}", simple.stderr);
        assert_eq!(
            simple.stdout,
            "This is a simple text response for testing.\n"
        );

        let pairs = run(
            &[
                "call",
                "json_schema_2020_12_tool",
                "name=Ada",
                "contactMethod=email",
                "email=a@b.c",
            ],
            &target,
            None,
        )
        .await;
        assert_eq!(pairs.status, 0, "{name}: {}", pairs.stderr);
        assert!(
            pairs.stdout.contains(r#""email":"a@b.c""#),
            "{name}: {}",
            pairs.stdout
        );

        let object = run(
            &[
                "call",
                "json_schema_2020_12_tool",
                r#"{"phone": "1", "contactMethod": "phone"}"#,
                "--format",
                "json",
            ],
            &target,
            None,
        )
        .await;
        assert_eq!(object.status, 0, "{name}: {}", object.stderr);
        let result: Value = serde_json::from_str(&object.stdout).unwrap();
        assert_eq!(
            result["content"][0]["text"],
            r#"ok: {"contactMethod":"phone","phone":"1"}"#
        );

        let failing = run(&["call", "test_error_handling"], &target, None).await;
        assert_eq!(failing.status, 1, "{name}: {}", failing.stderr);
        assert!(
            failing.stdout.contains("intentionally returns an error"),
            "{name}"
        );
        assert!(
            failing.stderr.contains("isError"),
            "{name}: {}",
            failing.stderr
        );

        let unknown = run(&["call", "no_such_tool"], &target, None).await;
        assert_eq!(unknown.status, 1, "{name}: {}", unknown.stderr);
        assert!(
            unknown.stderr.contains("error -32602"),
            "{name}: {}",
            unknown.stderr
        );

        let bad = run(&["call", "test_simple_text", "novalue"], &target, None).await;
        assert_eq!(bad.status, 2, "{name}");
        assert!(
            bad.stderr.contains("expected k=v"),
            "{name}: {}",
            bad.stderr
        );
    }
}

#[tokio::test]
async fn call_answers_multi_round_questions_from_flags_a_file_or_the_input() {
    let answers = std::env::temp_dir().join(format!(
        "mcp-test-adhoc-answers-{}.json",
        std::process::id()
    ));
    std::fs::write(
        &answers,
        json!({
            "step1": {"action": "accept", "content": {"name": "Ada"}},
            "step2": {"action": "accept", "content": {"color": "teal"}},
        })
        .to_string(),
    )
    .unwrap();
    for (name, target) in targets().await {
        let flagged = run(
            &[
                "call",
                "test_input_required_result_elicitation",
                "--answer",
                r#"user_name={"action": "accept", "content": {"name": "Ada"}}"#,
            ],
            &target,
            None,
        )
        .await;
        assert_eq!(flagged.status, 0, "{name}: {}", flagged.stderr);
        assert_eq!(flagged.stdout, "Hello, Ada!\n", "{name}");

        let filed = run(
            &[
                "call",
                "test_input_required_result_multi_round",
                "--answers",
                answers.to_str().unwrap(),
            ],
            &target,
            None,
        )
        .await;
        assert_eq!(filed.status, 0, "{name}: {}", filed.stderr);
        assert!(
            filed.stdout.contains("name = Ada, color = teal"),
            "{name}: {}",
            filed.stdout
        );

        // Not a terminal and no answer: an error that says how to answer.
        let unanswered = run(
            &["call", "test_input_required_result_elicitation"],
            &target,
            None,
        )
        .await;
        assert_eq!(unanswered.status, 2, "{name}: {}", unanswered.stderr);
        assert!(
            unanswered.stderr.contains("user_name"),
            "{name}: {}",
            unanswered.stderr
        );
        assert!(
            unanswered.stderr.contains("--answer"),
            "{name}: {}",
            unanswered.stderr
        );

        // Asked on the input, as on a terminal.
        let asked = run(
            &[
                "call",
                "test_input_required_result_elicitation",
                "--interactive",
            ],
            &target,
            Some("Grace\n\n"),
        )
        .await;
        assert_eq!(asked.status, 0, "{name}: {}", asked.stderr);
        assert_eq!(asked.stdout, "Hello, Grace!\n", "{name}");
        assert!(
            asked.stderr.contains("What is your name?"),
            "{name}: {}",
            asked.stderr
        );
    }
    let _ = std::fs::remove_file(answers);
}

/// In the 2025-11-25 era the server asks its questions with requests of its own on the
/// connection, and only of a client whose `initialize` declared the capability: `call`
/// declares what its answers answer (elicitation, sampling, roots) and answers there, from
/// the flags or the input, over stdio and HTTP.
#[tokio::test]
async fn call_answers_a_2025_era_session_on_the_connection() {
    for (name, target) in targets().await {
        let era = ["--era", "2025-11-25"];
        let elicited = run(
            &[
                &[
                    "call",
                    "test_input_required_result_elicitation",
                    "--answer",
                    r#"user_name={"action": "accept", "content": {"name": "Ada"}}"#,
                ],
                &era[..],
            ]
            .concat(),
            &target,
            None,
        )
        .await;
        assert_eq!(elicited.status, 0, "{name}: {}", elicited.stderr);
        assert_eq!(elicited.stdout, "Hello, Ada!\n", "{name}");

        let sampled = run(
            &[
                &[
                    "call",
                    "test_input_required_result_sampling",
                    "--answer",
                    r#"capital_question={"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}"#,
                ],
                &era[..],
            ]
            .concat(),
            &target,
            None,
        )
        .await;
        assert_eq!(sampled.status, 0, "{name}: {}", sampled.stderr);
        assert!(
            sampled.stdout.contains("Sampling response: Paris"),
            "{name}: {}",
            sampled.stdout
        );

        let asked = run(
            &[
                &[
                    "call",
                    "test_input_required_result_elicitation",
                    "--interactive",
                ],
                &era[..],
            ]
            .concat(),
            &target,
            Some("Grace\n\n"),
        )
        .await;
        assert_eq!(asked.status, 0, "{name}: {}", asked.stderr);
        assert_eq!(asked.stdout, "Hello, Grace!\n", "{name}");
    }
}

#[tokio::test]
async fn read_prompt_and_complete() {
    for (name, target) in targets().await {
        let read = run(&["read", "test://static-text"], &target, None).await;
        assert_eq!(read.status, 0, "{name}: {}", read.stderr);
        assert_eq!(
            read.stdout,
            "This is the content of the static text resource.\n"
        );
        let templated = run(
            &["read", "test://template/42/data", "--format", "json"],
            &target,
            None,
        )
        .await;
        assert_eq!(templated.status, 0, "{name}: {}", templated.stderr);
        let contents: Value = serde_json::from_str(&templated.stdout).unwrap();
        assert_eq!(contents["contents"][0]["uri"], "test://template/42/data");
        let missing = run(&["read", "test://nothing"], &target, None).await;
        assert_eq!(missing.status, 1, "{name}: {}", missing.stderr);

        let prompt = run(
            &["prompt", "test_prompt_with_arguments", "arg1=a", "arg2=b"],
            &target,
            None,
        )
        .await;
        assert_eq!(prompt.status, 0, "{name}: {}", prompt.stderr);
        assert!(
            prompt
                .stdout
                .contains("user: Prompt with arguments: arg1='a', arg2='b'"),
            "{name}: {}",
            prompt.stdout
        );

        let complete = run(
            &[
                "complete",
                "--prompt",
                "test_prompt_with_arguments",
                "arg1",
                "par",
            ],
            &target,
            None,
        )
        .await;
        assert_eq!(complete.status, 0, "{name}: {}", complete.stderr);
        assert_eq!(complete.stdout, "paris\npark\nparty\n", "{name}");
        let neither = run(&["complete", "arg1"], &target, None).await;
        assert_eq!(neither.status, 2, "{name}");
    }
}

/// A directory of this test's own under the system's temporary folder, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        TempDir(std::env::temp_dir().join(format!("{name}-{}-{nanos}", std::process::id())))
    }
    fn path(&self, sub: &str) -> String {
        self.0.join(sub).display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// MCP coverage end to end: the requests of a small suite recorded (each context to a
/// directory of its own, without touching the environment), in process and over HTTP, then
/// `mcp-test coverage` on each directory, as text and as JSON.
#[tokio::test]
async fn coverage_reports_what_a_suite_exercised_and_what_it_missed() {
    use mcp_test::target::Answers;
    use mcp_test::testing::TestContext;
    use mcp_test::testing::coverage::Recorder;

    let dir = TempDir::new("mcp-coverage-e2e");
    let none: &[String] = &[];

    // In process: the registry is the universe.
    let mcp = TestContext::new(conformance::conformance_server())
        .record_coverage(&Recorder::new(dir.path("in-process")));
    mcp.call_tool("test_simple_text", json!({})).await;
    mcp.call_tool("greet", json!({})).await;
    mcp.call_tool("test_error_handling", json!({})).await;
    mcp.call_tool("test_missing_capability", json!({})).await;
    mcp.call_tool("nope", json!({})).await;
    mcp.with(|o| o.client_capabilities(json!({"elicitation": {}})))
        .call_tool_rounds(
            "test_input_required_result_elicitation",
            json!({}),
            &Answers::synthesized(),
        )
        .await;
    mcp.read_resource("test://template/7/data").await;
    mcp.get_prompt("test_simple_prompt", json!({})).await;
    mcp.complete(
        json!({"type": "ref/prompt", "name": "test_prompt_with_arguments"}),
        json!({"name": "arg1", "value": "pa"}),
    )
    .await;

    let text = run(&["coverage", &dir.path("in-process")], none, None).await;
    assert_eq!(text.status, 0, "{}", text.stderr);
    let row = |name: &str| {
        text.stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{}", text.stdout))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    // name, requests, ok, invalid, -32021, input_req, tool_err, rpc_err[, note]
    assert_eq!(
        row("test_simple_text"),
        ["test_simple_text", "1", "1", ".", ".", ".", ".", "."]
    );
    assert_eq!(row("greet")[1..4], ["1", ".", "1"]);
    assert_eq!(row("test_error_handling")[6], "1");
    assert_eq!(row("test_missing_capability")[4], "1");
    assert_eq!(
        row("test_input_required_result_elicitation")[1..6],
        ["2", "1", ".", ".", "1"]
    );
    assert_eq!(row("nope").last(), Some(&"listed"), "not listed");
    assert_eq!(row("test_audio_content").last(), Some(&"UNCOVERED"));
    assert_eq!(row("test://static-text").last(), Some(&"UNCOVERED"));
    assert_eq!(row("test://template/{id}/data")[1..3], ["1", "1"]);
    assert_eq!(row("test_simple_prompt")[1], "1");
    assert!(
        text.stdout
            .lines()
            .any(|l| l.contains("ref/prompt test_prompt_with_arguments")
                && l.contains("arg1")
                && !l.contains("UNCOVERED")),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains(
            "== mcp-test-conformance-fixture 0.1.0 (in process: every registered item; 1 process)"
        ),
        "{}",
        text.stdout
    );

    let report = dir.path("report.json");
    let json_run = run(
        &[
            "coverage",
            &dir.path("in-process"),
            "--format",
            "json",
            "--json",
            &report,
        ],
        none,
        None,
    )
    .await;
    assert_eq!(json_run.status, 0, "{}", json_run.stderr);
    let printed: Value = serde_json::from_str(&json_run.stdout).expect("--format json prints JSON");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("--json writes the file"))
            .expect("--json writes JSON");
    assert_eq!(printed, written);
    let server = &printed["servers"][0];
    assert_eq!(server["universe"], "registry");
    let tools = server["tools"].as_array().unwrap();
    let total_tools = conformance::conformance_server().tool_definitions().len();
    assert_eq!(
        server["summary"]["tools"],
        json!({"covered": 5, "total": total_tools})
    );
    let greet = tools.iter().find(|t| t["name"] == "greet").unwrap();
    assert_eq!(greet["outcomes"]["validation_error"], 1);
    assert_eq!(greet["covered"], true);
    // 5 tools, 1 template, 1 prompt and 1 completion reference (arg1 of
    // test_prompt_with_arguments), of every tool, resource, template, prompt and reference.
    let fixture = conformance::conformance_server();
    let items = &server["summary"]["items"];
    assert_eq!(items["covered"], 8);
    assert_eq!(
        items["total"],
        total_tools
            + fixture.resource_definitions().len()
            + fixture.resource_template_definitions().len()
            + fixture.prompt_definitions().len()
            + 1
    );

    let gated = run(
        &["coverage", &dir.path("in-process"), "--fail-under", "90"],
        none,
        None,
    )
    .await;
    assert_eq!(gated.status, 1, "{}", gated.stderr);
    assert!(
        gated.stderr.contains("under --fail-under 90%"),
        "{}",
        gated.stderr
    );
    let uncovered = run(
        &["coverage", &dir.path("in-process"), "--uncovered"],
        none,
        None,
    )
    .await;
    assert!(
        uncovered.stdout.contains("test_audio_content"),
        "{}",
        uncovered.stdout
    );
    assert!(
        !uncovered.stdout.contains("test_simple_text"),
        "{}",
        uncovered.stdout
    );

    // Over HTTP: the server names itself in each result's _meta, and what the suite listed is
    // the universe; what it did not list (prompts) is unknown.
    let url = http_target().await.pop().unwrap();
    let remote = TestContext::http(&url).record_coverage(&Recorder::new(dir.path("http")));
    remote.list_tools().await;
    remote.call_tool("test_simple_text", json!({})).await;
    remote.get_prompt("test_simple_prompt", json!({})).await;
    let over_http = run(
        &["coverage", &dir.path("http"), "--format", "json"],
        none,
        None,
    )
    .await;
    assert_eq!(over_http.status, 0, "{}", over_http.stderr);
    let printed: Value = serde_json::from_str(&over_http.stdout).unwrap();
    let server = &printed["servers"][0];
    assert_eq!(server["server"], "mcp-test-conformance-fixture 0.1.0");
    assert_eq!(server["targets"], json!([url]));
    assert_eq!(server["universe"], "listed");
    assert_eq!(
        server["summary"]["tools"],
        json!({"covered": 1, "total": total_tools})
    );
    assert_eq!(
        server["summary"]["prompts"],
        json!({"covered": 0, "total": 0})
    );
    assert_eq!(server["prompts"][0]["name"], "test_simple_prompt");

    // Bad input: no directory, an empty one, a corrupt line.
    let missing = run(&["coverage", &dir.path("missing")], none, None).await;
    assert_eq!(missing.status, 2);
    assert!(
        missing.stderr.contains(&dir.path("missing")),
        "{}",
        missing.stderr
    );
    std::fs::create_dir_all(dir.path("corrupt")).unwrap();
    let empty = run(&["coverage", &dir.path("corrupt")], none, None).await;
    assert_eq!(empty.status, 2);
    assert!(
        empty.stderr.contains("holds no recording"),
        "{}",
        empty.stderr
    );
    let good = std::fs::read_dir(dir.path("http"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let first = std::fs::read_to_string(good).unwrap();
    let bad = dir.0.join("corrupt").join("1-2-0.jsonl");
    std::fs::write(
        &bad,
        format!("{}\n{{\"v\": 1,", first.lines().next().unwrap()),
    )
    .unwrap();
    let corrupt = run(&["coverage", &dir.path("corrupt")], none, None).await;
    assert_eq!(corrupt.status, 2);
    assert!(
        corrupt
            .stderr
            .contains(&format!("{}:2: not JSON", bad.display())),
        "{}",
        corrupt.stderr
    );
}

/// Set in the environment of the recording fixture (this binary, started again).
const COVERAGE_FIXTURE_ENV: &str = "MCP_TEST_ADHOC_COVERAGE_FIXTURE";

/// Not a test: a tiny suite run with `MCP_TEST_COVERAGE` set, when this binary is started
/// again by [`coverage_env_records_the_free_helpers_and_the_round_driver`]. Ignored, so a normal
/// run skips it; without the variable it does nothing.
#[tokio::test]
#[ignore = "the recording fixture, started by the coverage test"]
async fn coverage_env_fixture() {
    if std::env::var_os(COVERAGE_FIXTURE_ENV).is_none() {
        return;
    }
    use mcp_test::testing::{RequestOptions, call_tool, drive_tool};
    let server = conformance::conformance_server();
    let options = RequestOptions::new().client_capabilities(json!({"elicitation": {}}));
    call_tool(&server, "test_simple_text", json!({}), &options).await;
    drive_tool(
        &server,
        "test_input_required_result_elicitation",
        json!({}),
        json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}}),
        &options,
    )
    .await;
}

/// `MCP_TEST_COVERAGE` as a suite uses it: a test process started with it set records the
/// free helpers and the round driver, and `mcp-test coverage` with no DIR reads the variable.
#[tokio::test]
async fn coverage_env_records_the_free_helpers_and_the_round_driver() {
    let dir = TempDir::new("mcp-coverage-env");
    let recorded = dir.path("recorded");
    let status = tokio::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "coverage_env_fixture",
            "--exact",
            "--ignored",
            "--test-threads=1",
        ])
        .env(COVERAGE_FIXTURE_ENV, "1")
        .env("MCP_TEST_COVERAGE", &recorded)
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .status();
    let status = tokio::time::timeout(std::time::Duration::from_secs(120), status)
        .await
        .expect("the fixture ends within 120 s")
        .expect("the fixture runs");
    assert!(status.success());
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"));
    command
        .args(["coverage", "--format", "json"])
        .env("MCP_TEST_COVERAGE", &recorded)
        .kill_on_drop(true);
    let output = tokio::time::timeout(std::time::Duration::from_secs(120), command.output())
        .await
        .expect("mcp-test ends within 120 s")
        .expect("mcp-test ran");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let tools = report["servers"][0]["tools"].as_array().unwrap();
    let row = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap();
    assert_eq!(row("test_simple_text")["outcomes"]["success"], 1);
    let rounds = &row("test_input_required_result_elicitation")["outcomes"];
    assert_eq!(
        (&rounds["input_required"], &rounds["success"]),
        (&json!(1), &json!(1))
    );
    assert_eq!(report["requests"], 3);
}

/// A suite whose server has nothing to cover (no tool, resource, template or prompt) covers
/// nothing: `--fail-under` fails, naming the directory, instead of reading 0 of 0 items as
/// 100 %. (A directory with no recording at all is refused already, exit 2.)
#[tokio::test]
async fn coverage_of_nothing_to_cover_fails_the_bar() {
    use mcp_test::testing::TestContext;
    use mcp_test::testing::coverage::Recorder;
    let dir = TempDir::new("mcp-coverage-empty");
    let path = dir.path("suite");
    let empty = mcp_test::Server::builder("empty", "1.0.0").build().unwrap();
    let mcp = TestContext::new(empty).record_coverage(&Recorder::new(&path));
    mcp.discover().await;
    let none: &[String] = &[];
    let barred = run(&["coverage", &path, "--fail-under", "50"], none, None).await;
    assert_eq!(barred.status, 1, "{}", barred.stderr);
    assert!(
        barred.stderr.contains("nothing was covered"),
        "{}",
        barred.stderr
    );
    let plain = run(&["coverage", &path], none, None).await;
    assert_eq!(
        plain.status, 0,
        "without a bar it is a note: {}",
        plain.stderr
    );
    assert!(
        plain.stderr.contains("nothing was covered"),
        "{}",
        plain.stderr
    );
}
