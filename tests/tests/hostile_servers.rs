//! The hostile-server corpus (issue #19): the library client and `check` against servers that
//! misbehave on purpose, one row per misbehaviour and transport (`src/bin/hostile_server.rs`,
//! over real pipes and real sockets on 127.0.0.1).
//!
//! Each row runs in a process of its own, this test binary started again on the hidden test
//! [`hostile_case_runner`]: at the same time, each with a server of its own, the library
//! client makes the handshake and one `tools/call` (timeout 1 s, 10 s for the rows that send
//! 16 MiB and more), and `check` runs (the same per-call timeout, overall deadline
//! [`CHECK_DEADLINE`], close grace 1 s); then the process writes what happened and its own
//! peak resident memory (`VmHWM` of `/proc/self/status`) to a file. The row asserts three
//! things:
//!
//! - both finished within their deadline (and the process within [`WALL`]);
//! - the process stayed under [`MEMORY_BOUND_KIB`] (128 MiB), the client's message limit set
//!   to [`LIMIT`] (16 MiB; the default, 64 MiB, is four times slower to reach in an
//!   unoptimised build on a loaded machine), while the servers send 20 MiB lines, bodies and
//!   events, endless lines, bodies and streams, and floods of 20,000 messages;
//! - the client's outcome and a finding of the report name what the server did.
//!
//! The rows that start children (`children`, `ignore-sigterm`) also assert that none of the
//! processes the servers started is left running afterwards.

#![cfg(target_os = "linux")]

use mcp_test::cases::Connected;
use mcp_test::client::Client;
use mcp_test_check::{CheckOptions, CheckReport, check_connected};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use test_case::test_case;
use tokio::io::AsyncBufReadExt;

/// The peak resident memory a row may reach, client and checker together: 128 MiB.
const MEMORY_BOUND_KIB: u64 = 128 * 1024;
/// The message limit of the client in every row (`Client::with_max_message_bytes`).
const LIMIT: usize = 16 << 20;
/// The overall deadline of each check (`CheckOptions::deadline`).
const CHECK_DEADLINE: Duration = Duration::from_secs(10);
/// The per-call timeout of the client and of the check.
const CALL_TIMEOUT: Duration = Duration::from_secs(1);
/// The per-call timeout of the rows whose server sends [`LIMIT`] and more, or floods, which
/// an unoptimised test build on a loaded machine may take seconds to read.
const BIG_CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// Those rows.
const BIG: [&str; 8] = [
    "huge-line",
    "endless-line",
    "huge-body",
    "endless-body",
    "endless-sse",
    "huge-event",
    "notification-flood",
    "request-flood",
];
/// How long a check may take in all: its deadline, the close grace, the group's SIGTERM and
/// SIGKILL graces, and slack for a loaded machine.
const CHECK_BOUND: Duration = Duration::from_secs(40);
/// How long the library client's one call and close may take in all.
const CLIENT_BOUND: Duration = Duration::from_secs(30);
/// How long the whole row process may take before it is killed and the row fails.
const WALL: Duration = Duration::from_secs(90);
/// The variable that tells this binary to run one row ([`hostile_case_runner`]).
const CASE_VAR: &str = "MCP_TEST_HOSTILE_CASE";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transport {
    Stdio,
    Http,
}
use Transport::{Http, Stdio};

// mode, transport, what the client's outcome (`ok RESULT` or `error MESSAGE`, then its
// transport events) contains (each of the parts joined with ` && `), what a finding of the
// check contains.
#[test_case("none", Stdio, "ok {", ""; "stdio correct server")]
#[test_case("none", Http, "ok {", ""; "http correct server")]
#[test_case("slowloris", Stdio, "within 1s", "within the 1 s timeout"; "stdio slowloris")]
#[test_case("slowloris", Http, "within 1s", "within the 1 s timeout"; "http slowloris")]
#[test_case("slow-headers", Http, "within 1s", "within the 1 s timeout"; "http slow headers")]
#[test_case("late-reply", Stdio, "within 1s", "within the 1 s timeout"; "stdio late reply")]
#[test_case("body-never-closes", Http, "within 1s", "within the 1 s timeout"; "http body never closes")]
#[test_case("sse-keepalive", Http, "ok { && still open", "still open"; "http endless sse keep-alives after the response")]
#[test_case("sse-silent", Http, "within 1s", "within the 1 s timeout"; "http endless sse keep-alives and no response")]
#[test_case("notification-flood", Stdio, "ok { && were not kept", "were not kept"; "stdio notification flood")]
#[test_case("notification-flood", Http, "ok { && were not kept", "were not kept"; "http notification flood")]
#[test_case("request-flood", Stdio, "ok { && sent a ping request", "sent a ping request"; "stdio server request flood")]
#[test_case("request-flood", Http, "ok { && were not kept", "were not kept"; "http server request flood")]
#[test_case("stdout-flood", Stdio, "ok { && is not JSON", "were counted and not kept"; "stdio stdout flood")]
#[test_case("reply-twice", Stdio, "ok { && a second reply", "a second reply"; "stdio reply twice")]
#[test_case("reply-twice", Http, "ok { && a second reply", "a second reply"; "http reply twice")]
#[test_case("wrong-id", Stdio, "999999", "999999"; "stdio wrong id")]
#[test_case("wrong-id", Http, "999999", "999999"; "http wrong id")]
#[test_case("sse-wrong-id", Http, "999999", "999999"; "http sse wrong id")]
#[test_case("invalid-utf8", Stdio, "not valid UTF-8", "not valid UTF-8"; "stdio invalid utf-8")]
#[test_case("invalid-utf8", Http, "not valid UTF-8", "not valid UTF-8"; "http invalid utf-8")]
#[test_case("invalid-utf8-sse", Http, "not valid UTF-8", "not valid UTF-8"; "http sse invalid utf-8")]
#[test_case("deep-json", Stdio, "JSON depth limit", "JSON depth limit"; "stdio deep json")]
#[test_case("deep-json", Http, "JSON depth limit", "JSON depth limit"; "http deep json")]
#[test_case("deep-json-sse", Http, "JSON depth limit", "JSON depth limit"; "http sse deep json")]
#[test_case("huge-line", Stdio, "max_line_bytes", "max_line_bytes"; "stdio line over the limit")]
#[test_case("endless-line", Stdio, "max_line_bytes", "max_line_bytes"; "stdio endless line")]
#[test_case("huge-body", Http, "max_response_bytes", "max_response_bytes"; "http body over the limit")]
#[test_case("endless-body", Http, "max_response_bytes", "max_response_bytes"; "http endless body")]
#[test_case("endless-sse", Http, "max_response_bytes", "max_response_bytes"; "http endless sse events")]
#[test_case("huge-event", Http, "max_event_bytes", "limit of this client"; "http sse event over the limit")]
#[test_case("garbage", Stdio, "ok { && is not JSON", "is not JSON"; "stdio garbage on stdout")]
#[test_case("exit-mid-reply", Stdio, "EOF while parsing", "EOF while parsing"; "stdio exit in the middle of a reply")]
#[test_case("reset", Http, "failed", "failed"; "http connection closed mid-body")]
#[test_case("bad-status", Http, "HTTP 500", "HTTP 500"; "http 500 with html")]
#[test_case("huge-headers", Http, "failed", "failed"; "http huge headers")]
#[test_case("garbage-http", Http, "failed", "failed"; "http not http at all")]
#[test_case("stderr-flood", Stdio, "ok { && drained and dropped", "drained and dropped"; "stdio stderr flood")]
#[test_case("children", Stdio, "ok { && left processes", "left processes"; "stdio children and a grandchild holding stdout")]
#[test_case("ignore-sigterm", Stdio, "ok { && then SIGKILL", "then SIGKILL"; "stdio server and children ignoring sigterm")]
#[test_case("on-discover-slowloris", Stdio, "within 1s", "within"; "stdio slowloris on the handshake")]
#[test_case("on-discover-deep-json", Http, "JSON depth limit", "JSON depth limit"; "http deep json on the handshake")]
fn hostile(mode: &str, transport: Transport, client_says: &str, finding: &str) {
    let dir = scratch(mode, transport);
    let result = dir.join("result.json");
    let pids = dir.join("pids");
    let started = Instant::now();
    let mut child = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "hostile_case_runner",
            "--exact",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(
            CASE_VAR,
            json!({"mode": mode, "http": transport == Http, "result": result, "pids": pids})
                .to_string(),
        )
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the row process");
    let stderr = child.stderr.take().expect("piped");
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut std::io::BufReader::new(stderr), &mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the row process") {
            break status;
        }
        if started.elapsed() > WALL {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{mode} over {transport:?}: the row did not finish within {WALL:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = stderr.join().unwrap_or_default();
    let text = std::fs::read_to_string(&result).unwrap_or_else(|e| {
        panic!("{mode} over {transport:?}: no result ({e}), {status}; stderr:\n{stderr}")
    });
    let got: Value = serde_json::from_str(&text).expect("the row's result is JSON");
    let report = &got["report"];
    let say = || format!("{mode} over {transport:?}:\n{}", shorten(&text));

    let peak = got["peak_kib"].as_u64().expect("VmHWM read");
    // Shown with --nocapture: the figures of the row.
    eprintln!(
        "hostile row {mode} over {transport:?}: client {} ms, check {} ms, peak {peak} KiB",
        got["client_ms"], got["check_ms"]
    );
    // 1. Within the deadlines.
    let client_ms = got["client_ms"].as_u64().unwrap_or(u64::MAX);
    let check_ms = got["check_ms"].as_u64().unwrap_or(u64::MAX);
    assert!(
        client_ms <= millis(CLIENT_BOUND),
        "the client took {client_ms} ms; {}",
        say()
    );
    assert!(
        check_ms <= millis(CHECK_BOUND),
        "the check took {check_ms} ms; {}",
        say()
    );
    // 2. Under the memory bound.
    assert!(
        peak <= MEMORY_BOUND_KIB,
        "peak resident memory {peak} KiB over the bound of {MEMORY_BOUND_KIB} KiB; {}",
        say()
    );
    // 3. What the server did, named.
    let client = got["client"].as_str().unwrap_or_default();
    for part in client_says.split(" && ") {
        assert!(
            client.contains(part),
            "the client's outcome does not say {part:?}; {}",
            say()
        );
    }
    let findings: Vec<String> = report["findings"]
        .as_array()
        .map(|f| {
            f.iter()
                .map(|f| format!("{}: {}", f["probe"], f["message"].as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    // A limit of the client is no verdict on the server: never a defect nor a warning.
    if finding.starts_with("max_") || finding.contains("depth limit") {
        let judged: Vec<&Value> = report["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["message"].as_str().is_some_and(|m| m.contains(finding)))
            .filter(|f| f["severity"] != "info")
            .collect();
        assert!(
            judged.is_empty(),
            "a limit of the client reported against the server: {judged:#?}"
        );
    }
    if finding.is_empty() {
        // A correct server over real pipes or sockets: nothing from the transport, and no
        // defect at all on stdio (the raw HTTP server here checks no header, which the HTTP
        // probes report).
        assert!(
            !findings.iter().any(|f| f.contains("transport/")),
            "{findings:#?}; {}",
            say()
        );
        if transport == Stdio {
            assert_eq!(report["summary"]["defect"], 0, "{findings:#?}");
        }
    } else {
        assert!(
            findings.iter().any(|f| f.contains(finding))
                || report["incomplete"]
                    .as_str()
                    .is_some_and(|i| i.contains(finding)),
            "no finding says {finding:?}: {findings:#?}; {}",
            say()
        );
    }
    // No orphans.
    let started_pids: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    if matches!(mode, "children" | "ignore-sigterm") {
        // Two servers (the client's and the check's), each with two children and a shell
        // whose child holds stdout.
        assert_eq!(started_pids.len(), 8, "{started_pids:?}; {}", say());
    }
    for pid in started_pids {
        let mut gone = false;
        for _ in 0..100 {
            if !running(pid) {
                gone = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            gone,
            "process {pid} started by the server is still running; {}",
            say()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn shorten(text: &str) -> String {
    text.chars().take(6000).collect()
}

/// A fresh folder for one row.
fn scratch(mode: &str, transport: Transport) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-test-hostile-{}-{mode}-{transport:?}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Whether `pid` is a live process (a zombie is not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(')')?.1.trim_start().chars().next()?;
            Some(state != 'Z' && state != 'X')
        })
        .unwrap_or(false)
}

/// The peak resident memory of this process, in KiB.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Not a test of its own: runs one row of [`hostile`] when this binary is started with
/// [`CASE_VAR`] set (and passes at once otherwise).
#[test]
fn hostile_case_runner() {
    let Ok(case) = std::env::var(CASE_VAR) else {
        return;
    };
    let case: Value = serde_json::from_str(&case).expect("the case is JSON");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let got = runtime.block_on(run_case(&case));
    let result = case["result"].as_str().expect("result path");
    std::fs::write(result, got.to_string()).expect("write the result");
    // Nothing of the row may outlive it: the servers are stopped by now.
    runtime.shutdown_timeout(Duration::from_secs(1));
}

async fn run_case(case: &Value) -> Value {
    let mode = case["mode"].as_str().unwrap_or("none");
    let http = case["http"].as_bool().unwrap_or(false);
    let pids = case["pids"].as_str().unwrap_or_default();
    // `on-discover-X`: X, on the handshake.
    let (mode, on) = match mode.strip_prefix("on-discover-") {
        Some(mode) => (mode, "server/discover"),
        None => (mode, "tools/call"),
    };
    let mut args: Vec<String> = vec!["--mode".into(), mode.into(), "--on".into(), on.into()];
    args.extend(["--pids".into(), pids.into()]);
    if http {
        args.push("--http".into());
    }

    let timeout = if BIG.contains(&mode) {
        BIG_CALL_TIMEOUT
    } else {
        CALL_TIMEOUT
    };
    // The library client and the check, each with a server of its own, at the same time.
    let ((outcome, client_ms), (report, check_ms)) = tokio::join!(
        library_client(&args, mode, timeout),
        checker(&args, mode, timeout)
    );
    json!({
        "client": outcome,
        "client_ms": client_ms,
        "check_ms": check_ms,
        "report": report,
        "peak_kib": peak_kib(),
    })
}

/// The library client: the handshake and one call, then close. What it got (its result or
/// error, its transport events) and how long it took in all.
async fn library_client(args: &[String], mode: &str, timeout: Duration) -> (String, u128) {
    let started = Instant::now();
    let (client, server) = connect(args, mode, timeout).await;
    let outcome = match &client {
        Ok(client) => {
            let client = client.clone();
            // As a user's client goes: the handshake, then the call.
            let call = match client.era().await {
                Ok(_) => {
                    client
                        .call(
                            "tools/call",
                            json!({"name": "echo", "arguments": {"text": "hi"}}),
                        )
                        .await
                }
                Err(e) => Err(e),
            };
            let mut said = match call {
                Ok(result) => format!("ok {}", shorten(&result.to_string())),
                Err(e) => format!("error {}", shorten(&e.to_string())),
            };
            // What the server sent after the reply, if anything, is on its way.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let before = client.transport_events().len();
            for event in client.transport_events().iter().take(20) {
                said.push_str(&format!("\nevent: {}", shorten(&event.to_string())));
            }
            if let Err(e) = client.close_within(Duration::from_secs(1)).await {
                said.push_str(&format!("\nclose: {e}"));
            }
            for event in client.transport_events().iter().skip(before) {
                said.push_str(&format!("\nevent: {}", shorten(&event.to_string())));
            }
            said
        }
        Err(e) => format!("error {}", shorten(e)),
    };
    stop(server).await;
    (outcome, started.elapsed().as_millis())
}

/// `check`, as `mcp-test check` runs it, on a server of its own: the report, and how long it
/// took in all.
async fn checker(args: &[String], mode: &str, timeout: Duration) -> (Value, u128) {
    let started = Instant::now();
    let (client, server) = connect(args, mode, timeout).await;
    let report = match client {
        Ok(client) => match Connected::probe(client, format!("hostile {mode}")).await {
            Ok(connected) => {
                let options = CheckOptions::default()
                    .timeout(timeout)
                    .deadline(Some(CHECK_DEADLINE))
                    .close_grace(Duration::from_secs(1));
                check_connected(&connected, &options).await.to_json()
            }
            // What `mcp-test check` reports when the handshake fails: why, as incomplete.
            Err(e) => CheckReport::not_checked(mode, format!("cannot connect: {e}")).to_json(),
        },
        Err(e) => CheckReport::not_checked(mode, e).to_json(),
    };
    stop(server).await;
    (report, started.elapsed().as_millis())
}

/// A client for the hostile server with `args`: a child process over stdio, or the server
/// started with `--http` and reached at the URL it prints. The HTTP server process comes back
/// too, to stop once done.
async fn connect(
    args: &[String],
    mode: &str,
    timeout: Duration,
) -> (Result<Client, String>, Option<tokio::process::Child>) {
    let program = env!("CARGO_BIN_EXE_hostile_server");
    let mut command = if mode == "ignore-sigterm" {
        // Started with SIGTERM ignored, which `exec` keeps.
        let mut command = tokio::process::Command::new("sh");
        command
            .arg("-c")
            .arg("trap '' TERM; exec \"$0\" \"$@\"")
            .arg(program)
            .args(args);
        command
    } else {
        let mut command = tokio::process::Command::new(program);
        command.args(args);
        command
    };
    if !args.iter().any(|a| a == "--http") {
        let client = Client::spawn(command).await.map_err(|e| e.to_string());
        return (
            client.map(|c| {
                c.with_timeout(timeout)
                    .with_capabilities(json!({}))
                    .with_probe_wait(timeout)
                    .with_max_message_bytes(LIMIT)
            }),
            None,
        );
    }
    command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    let mut server = match command.spawn() {
        Ok(server) => server,
        Err(e) => return (Err(format!("cannot start the server: {e}")), None),
    };
    let Some(stdout) = server.stdout.take() else {
        return (Err("no stdout".into()), Some(server));
    };
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line()).await;
    let Ok(Ok(Some(line))) = line else {
        return (
            Err(format!("the server printed no address: {line:?}")),
            Some(server),
        );
    };
    let Some(url) = line.strip_prefix("listening on ") else {
        return (Err(format!("unexpected first line {line:?}")), Some(server));
    };
    let client = Client::http(url).map_err(|e| e.to_string()).map(|c| {
        c.with_timeout(timeout)
            .with_capabilities(json!({}))
            .with_probe_wait(timeout)
            .with_max_message_bytes(LIMIT)
            .with_max_event_bytes(1 << 20)
    });
    (client, Some(server))
}

/// Stops an HTTP server process (closing its stdin ends it; a kill if not).
async fn stop(server: Option<tokio::process::Child>) {
    if let Some(mut server) = server {
        drop(server.stdin.take());
        if tokio::time::timeout(Duration::from_secs(2), server.wait())
            .await
            .is_err()
        {
            let _ = server.kill().await;
        }
    }
}
