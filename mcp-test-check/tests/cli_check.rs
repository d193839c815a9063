//! `mcp-test check` as a user runs it: the real binary, against the bundled example server (in
//! process, and over HTTP), and against deliberately broken servers started by each test on
//! 127.0.0.1 (a missing validation, a missing `resultType`, a looping cursor, a crash on input).

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mcp_test::Server;
use mcp_test::transport::http::{HttpConfig, bind_local, serve};
use mcp_test_check::example_server;
use serde_json::{Value, json};
use std::sync::Arc;

mod support;
use support::{Run, mcp_test};

#[tokio::test]
async fn check_without_a_target_checks_the_bundled_server_with_zero_findings() {
    let run = mcp_test(&["check"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("No findings."), "{}", run.stdout);
    assert!(run.stdout.contains("defect          0"), "{}", run.stdout);
    // Progress goes to stderr while it works.
    assert!(
        run.stderr.contains("checking the bundled example server"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("schema-derived cases"),
        "{}",
        run.stderr
    );
}

#[tokio::test]
async fn json_and_junit_reports() {
    let run = mcp_test(&["check", "--quiet", "--format", "json"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "--quiet: {}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON report");
    assert_eq!(
        report["summary"],
        json!({"defect": 0, "warning": 0, "info": 0})
    );
    assert_eq!(report["era"], "2026-07-28");
    let cases = report["cases"].as_array().unwrap();
    // Only the read-only tool is called by default: `notes` writes (an additive write).
    assert!(cases.len() > 30, "{}", cases.len());
    assert!(
        cases.iter().all(|c| c["case"]["tool"] == "search_notes"),
        "{cases:?}"
    );
    assert_eq!(
        report["tools"],
        json!([
            {"name": "notes", "class": "additive-write", "open_world": false, "called": false,
             "not_called": "it writes (destructiveHint: false: only additive updates, server/tools.mdx)",
             "allow_with": "--allow-writes or --tool notes"},
            {"name": "search_notes", "class": "read-only", "open_world": false, "called": true,
             "not_called": null, "allow_with": null},
        ])
    );
    assert!(cases.iter().all(|c| c["agrees"] == true));
    // Time per case and per probe, in milliseconds: what to look at when a check is slow.
    assert!(
        cases.iter().all(|c| c["ms"].as_f64().is_some()),
        "{cases:?}"
    );
    let probes = report["probes"].as_array().unwrap();
    assert!(
        probes.iter().all(|p| p["ms"].as_f64().is_some()),
        "{probes:?}"
    );
    let cases_probe = probes
        .iter()
        .find(|p| p["name"] == "tools/schema-cases")
        .expect("the schema-cases probe");
    let case_time: f64 = cases.iter().filter_map(|c| c["ms"].as_f64()).sum();
    assert!(
        cases_probe["ms"].as_f64().unwrap() > 0.0 && case_time > 0.0,
        "{cases_probe}"
    );

    let run = mcp_test(&["check", "--quiet", "--format", "junit"]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("<?xml"), "{}", run.stdout);
    assert!(run.stdout.contains("failures=\"0\""), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("<testcase classname=\"probes\" name=\"discovery/fields\">")
    );
}

#[tokio::test]
async fn check_over_http_finds_nothing_wrong_with_the_example_server() {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, example_server(), HttpConfig::default()));
    let run = mcp_test(&["check", "--url", &url]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("No findings."), "{}", run.stdout);
    assert!(
        run.stderr.contains("protocol era: 2026-07-28"),
        "{}",
        run.stderr
    );
}

/// A hand-written JSON-RPC endpoint: the example server's answer to each message, then
/// `break_it` spoils it the way a buggy server would.
type Breaker = fn(&Value, Value) -> Option<Value>;

#[derive(Clone)]
struct Broken {
    server: Server,
    break_it: Breaker,
}

/// The cursor the looping server hands out; the example server itself does not know it.
const LOOP_CURSOR: &str = "page-2";

async fn endpoint(State(app): State<Arc<Broken>>, body: Bytes) -> Response {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(_) => return StatusCode::BAD_REQUEST.into_response(),
    };
    let mut forwarded = request.clone();
    if forwarded["params"]["cursor"] == LOOP_CURSOR {
        forwarded["params"]
            .as_object_mut()
            .unwrap()
            .remove("cursor");
    }
    let Some(reply) = app.server.handle_json(&forwarded.to_string()).await else {
        return StatusCode::ACCEPTED.into_response();
    };
    let reply: Value = serde_json::from_str(&reply).unwrap();
    match (app.break_it)(&request, reply) {
        Some(reply) => (
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            reply.to_string(),
        )
            .into_response(),
        None => StatusCode::ACCEPTED.into_response(),
    }
}

async fn broken_server(break_it: Breaker) -> String {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let app = Router::new()
        .route("/mcp", axum::routing::post(endpoint))
        .with_state(Arc::new(Broken {
            server: example_server(),
            break_it,
        }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn method(request: &Value) -> &str {
    request["method"].as_str().unwrap_or("")
}

async fn check_broken(break_it: Breaker) -> Run {
    let url = broken_server(break_it).await;
    mcp_test(&["check", "--url", &url, "--timeout", "20"]).await
}

#[tokio::test]
async fn a_missing_validation_is_a_defect() {
    // `search_notes` forgets to validate `limit`: anything with a bad limit "succeeds".
    let run = check_broken(|request, reply| {
        let args = &request["params"]["arguments"];
        let bad_limit = args
            .get("limit")
            .is_some_and(|l| !l.as_i64().is_some_and(|n| (1..=50).contains(&n)));
        if method(request) == "tools/call"
            && request["params"]["name"] == "search_notes"
            && bad_limit
        {
            return Some(json!({"jsonrpc": "2.0", "id": request["id"], "result": {
                "resultType": "complete", "content": [{"type": "text", "text": "[]"}],
                "structuredContent": []}}));
        }
        Some(reply)
    })
    .await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("[defect] tools/schema-cases: search_notes › rejects `/limit` just over maximum 50 [rule:bounds]: accepted invalid arguments (a missing validation)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("rejects `/limit` of the wrong type"),
        "{}",
        run.stdout
    );
    // Nothing else is wrong with it.
    assert!(!run.stdout.contains("results/"), "{}", run.stdout);
}

#[tokio::test]
async fn a_missing_result_type_is_a_defect() {
    let run = check_broken(|_, mut reply| {
        if let Some(result) = reply.get_mut("result").and_then(Value::as_object_mut) {
            result.remove("resultType");
        }
        Some(reply)
    })
    .await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "[defect] results/shape-and-cache-hints: the tools/list result has no resultType"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("the tools/call result has no resultType"),
        "{}",
        run.stdout
    );
}

#[tokio::test]
async fn a_looping_cursor_is_a_defect() {
    // tools/list always says there is another page, at the same cursor.
    let run = check_broken(|request, mut reply| {
        if method(request) == "tools/list"
            && let Some(result) = reply.get_mut("result")
        {
            result["nextCursor"] = json!(LOOP_CURSOR);
        }
        Some(reply)
    })
    .await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("[defect] lists/tools/list: tools/list pagination loops: nextCursor \"page-2\" was already returned"),
        "{}",
        run.stdout
    );
}

#[tokio::test]
async fn a_crash_on_input_is_a_defect() {
    // The handler panics on an empty query: the connection drops without an answer.
    let run = check_broken(|request, reply| {
        if method(request) == "tools/call" && request["params"]["arguments"]["query"] == "" {
            panic!("index out of range (on purpose)");
        }
        Some(reply)
    })
    .await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("[defect] tools/schema-cases: search_notes › rejects `/query` one character under minLength 1 [rule:min-length]: the server gave no answer"),
        "{}",
        run.stdout
    );
    // The process lives on (only that connection died), so every other case still ran.
    assert!(
        run.stdout.contains("schema cases agreeing: 33/34"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("stopped answering"), "{}", run.stdout);
}

#[tokio::test]
async fn an_unreachable_server_fails_with_a_clear_message() {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let run = mcp_test(&["check", "--url", &url, "--timeout", "5"]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot connect"), "{}", run.stderr);
    assert!(run.stderr.contains(&url), "{}", run.stderr);
}

#[tokio::test]
async fn ignoring_the_mirrored_headers_is_a_defect() {
    // The hand-written endpoint never looks at the headers: a Mcp-Method header that
    // disagrees with the body goes through.
    let run = check_broken(|_, reply| Some(reply)).await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("[defect] http/header-mirroring: a request whose Mcp-Method header (tools/call) disagrees with its body (tools/list) must be HTTP 400 with -32020; got HTTP 200"),
        "{}",
        run.stdout
    );
}

/// A dual-era endpoint: a request with neither the `MCP-Protocol-Version` header nor a
/// `_meta` envelope is a 2025-era request, served as such (`tools/list` without `resultType`);
/// anything else goes to the example server.
async fn dual_era(
    State(server): State<Arc<Server>>,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap();
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(m) = header("mcp-method")
        && m != method(&request)
    {
        let reply = json!({"jsonrpc": "2.0", "id": request["id"],
            "error": {"code": -32020, "message": "Mcp-Method does not match the body"}});
        return (StatusCode::BAD_REQUEST, reply.to_string()).into_response();
    }
    let legacy =
        header("mcp-protocol-version").is_none() && request["params"].get("_meta").is_none();
    let reply: Value = if legacy {
        json!({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": []}})
    } else {
        match server.handle_json(&request.to_string()).await {
            Some(reply) => serde_json::from_str(&reply).unwrap(),
            None => return StatusCode::ACCEPTED.into_response(),
        }
    };
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        reply.to_string(),
    )
        .into_response()
}

#[tokio::test]
async fn a_request_without_meta_still_carries_the_protocol_version_header() {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let app = Router::new()
        .route("/mcp", axum::routing::post(dual_era))
        .with_state(Arc::new(example_server()));
    tokio::spawn(async move { axum::serve(listener, app).await });
    let run = mcp_test(&["check", "--url", &url, "--timeout", "20"]).await;
    assert!(
        !run.stdout.contains("without the `_meta` envelope"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("protocol 2026-07-28"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
}

#[tokio::test]
async fn an_unreachable_server_still_gets_a_json_and_a_junit_report() {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let run = mcp_test(&["check", "--url", &url, "--timeout", "5", "--format", "json"]).await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    assert_eq!(report["target"], url.as_str());
    let why = report["incomplete"].as_str().unwrap();
    assert!(why.starts_with("cannot connect"), "{why}");
    assert_eq!(report["probes"], json!([]));

    let run = mcp_test(&[
        "check",
        "--url",
        &url,
        "--timeout",
        "5",
        "--format",
        "junit",
    ])
    .await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("<?xml"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "<testcase classname=\"check\" name=\"complete\"><error message=\"cannot connect"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("errors=\"1\""), "{}", run.stdout);
}

/// A 2026-07-28 stdio server in `sh`: it answers `server/discover` at once, a request for
/// `$WRONG_ID_FOR` under id 999, and every other request with -32601 after `$DELAY` seconds
/// (none when unset), until its stdin ends.
#[cfg(unix)]
const SH_SERVER: &str = r#"
while IFS= read -r line; do
  id=${line#*\"id\":}
  [ "$id" = "$line" ] && continue
  id=${id%%[,\}]*}
  case "$line" in
    *'"method":"server/discover"'*)
      echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"sh","version":"1"}}}}' ;;
    *'"method":"'"$WRONG_ID_FOR"'"'*)
      echo '{"jsonrpc":"2.0","id":999,"error":{"code":-32601,"message":"Method not found"}}' ;;
    *)
      [ -n "$DELAY" ] && sleep "$DELAY"
      echo '{"jsonrpc":"2.0","id":'"$id"',"error":{"code":-32601,"message":"Method not found"}}' ;;
  esac
done
"#;

#[cfg(unix)]
fn probe<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no probe {name}: {report:#}"))
}

#[cfg(unix)]
#[tokio::test]
async fn a_stdio_server_that_ignores_the_end_of_its_input_is_killed_and_reported() {
    // The server answers the check, then sleeps on after its stdin is closed.
    let script = format!("{SH_SERVER}\nexec sleep 60");
    let started = std::time::Instant::now();
    let run = mcp_test(&[
        "check",
        "--quiet",
        "--format",
        "json",
        "--timeout",
        "5",
        "--close-grace",
        "1",
        "--",
        "sh",
        "-c",
        &script,
    ])
    .await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    let shutdown = probe(&report, "transport/shutdown");
    assert_eq!(shutdown["passed"], false, "{shutdown:#}");
    let finding = &shutdown["findings"][0];
    assert_eq!(finding["severity"], "warning", "{finding:#}");
    assert_eq!(finding["clause"]["id"], "stdio/exit-on-eof", "{finding:#}");
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.contains("still running 1s after its stdin was closed, and was stopped"),
        "{message}"
    );
    assert_eq!(report["incomplete"], Value::Null);
    // The sh server lacks -32022 and -32602, so defects: exit 1.
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);

    // The same server that exits at the end of its input passes the probe.
    let run = mcp_test(&[
        "check", "--quiet", "--format", "json", "--", "sh", "-c", SH_SERVER,
    ])
    .await;
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    assert_eq!(probe(&report, "transport/shutdown")["findings"], json!([]));
}

#[cfg(unix)]
#[tokio::test]
async fn a_server_that_never_answers_ends_at_the_deadline_with_exit_2() {
    let started = std::time::Instant::now();
    let run = mcp_test(&[
        "check",
        "--deadline",
        "2",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        // Reads and discards every request; stdout stays open and silent.
        "cat >/dev/null",
    ])
    .await;
    let elapsed = started.elapsed();
    assert!(elapsed < std::time::Duration::from_secs(15), "{elapsed:?}");
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    let why = report["incomplete"].as_str().unwrap();
    assert!(why.contains("within the overall deadline (2s)"), "{why}");
}

#[cfg(unix)]
#[tokio::test]
async fn a_check_cut_short_by_the_deadline_reports_what_ran_and_exits_2() {
    // Each answer takes a second; the deadline leaves time for a few.
    let script = format!("DELAY=1\n{SH_SERVER}");
    let started = std::time::Instant::now();
    let run = mcp_test(&[
        "check",
        "--deadline",
        "4",
        "--timeout",
        "3",
        "--format",
        "junit",
        "--",
        "sh",
        "-c",
        &script,
    ])
    .await;
    let elapsed = started.elapsed();
    assert!(elapsed < std::time::Duration::from_secs(20), "{elapsed:?}");
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "<testcase classname=\"check\" name=\"complete\"><error message=\"cut short by the overall deadline"
        ),
        "{}",
        run.stdout
    );
    // What ran before the deadline is reported.
    assert!(
        run.stdout
            .contains("<testcase classname=\"probes\" name=\"discovery/fields\">"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("incomplete: cut short"),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[tokio::test]
async fn check_reports_a_reply_with_the_wrong_id_as_such() {
    let script = format!("WRONG_ID_FOR=ping\n{SH_SERVER}");
    let run = mcp_test(&[
        "check",
        "--quiet",
        "--format",
        "json",
        "--timeout",
        "1",
        "--",
        "sh",
        "-c",
        &script,
    ])
    .await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    let messages: Vec<&str> = probe(&report, "methods/removed-and-unknown")["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("no answer to ping")
                && m.contains("answered with id 999 instead of")),
        "{messages:#?}"
    );
}

#[tokio::test]
async fn given_values_reach_every_valid_case_and_a_bad_one_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("mcp-test-values-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("values.json");
    std::fs::write(
        &file,
        r#"{"search_notes": {"/query": "apples"}, "*": {"/requested_by": "me@example.org"}}"#,
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let run = mcp_test(&[
        "check",
        "--quiet",
        "--format",
        "json",
        "--values",
        path,
        "--value",
        "notes:/data/id=n-2",
        "--tool",
        "notes",
    ])
    .await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON report");
    let base = |title: &str| {
        report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["case"]["title"] == title)
            .map(|c| c["case"]["args"].clone())
            .unwrap_or_else(|| panic!("no case {title:?}"))
    };
    let search = base("accepts valid arguments");
    assert_eq!(search["query"], "apples");
    assert_eq!(search["requested_by"], "me@example.org");
    assert_eq!(base("get: accepts valid arguments")["data"]["id"], "n-2");

    // A value the schema rejects: exit 2 before anything runs, naming tool, pointer and why.
    let run = mcp_test(&["check", "--value", "search_notes:/limit=500"]).await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("tool \"search_notes\": the value given for `/limit` (500) does not fit the input schema:\n  - /limit: 500 is greater than the maximum of 50"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);

    // A malformed file: its name and the JSON pointer of the bad place.
    std::fs::write(&file, r#"{"search_notes": {"query": "apples"}}"#).unwrap();
    let run = mcp_test(&["check", "--values", path]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "--values {path}: at /search_notes/query: \"query\" is not a JSON pointer"
        )),
        "{}",
        run.stderr
    );
    std::fs::write(&file, "{\"search_notes\": ").unwrap();
    let run = mcp_test(&["check", "--values", path]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("--values {path}: not JSON: ")),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn check_properties_runs_the_property_tests_as_one_probe() {
    let run = mcp_test(&["check", "--quiet", "--format", "json", "--properties", "4"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON report");
    assert_eq!(
        report["summary"],
        json!({"defect": 0, "warning": 0, "info": 0})
    );
    let found = probe(&report, "tools/properties");
    assert!(found["skipped"].is_null(), "{found}");
    // A count that is not a positive number is refused, naming the flag.
    let bad = mcp_test(&["check", "--properties", "0"]).await;
    assert_eq!(bad.status, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--properties"), "{}", bad.stderr);
}

/// `--era` shows a server serving both eras as the clients of each see it. The bundled server
/// serves both, so each era draws no finding, and the report says which era was spoken.
#[tokio::test]
async fn each_era_of_a_dual_server_is_checked_on_request() {
    for era in ["2025-11-25", "2026-07-28"] {
        let run = mcp_test(&["check", "--quiet", "--era", era, "--format", "json"]).await;
        assert_eq!(run.status, 0, "--era {era}: {}\n{}", run.stdout, run.stderr);
        let report: Value = serde_json::from_str(&run.stdout).expect("JSON report");
        assert_eq!(report["era"], era, "{report}");
        assert_eq!(report["summary"]["defect"], 0, "--era {era}: {report}");
        assert_eq!(report["summary"]["warning"], 0, "--era {era}: {report}");
    }
}

/// Over HTTP too, and an era the server does not speak is a clear failure to connect.
#[tokio::test]
async fn the_2025_era_over_http_and_an_era_not_served() {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, example_server(), HttpConfig::default()));
    let run = mcp_test(&["check", "--url", &url, "--era", "2025-11-25"]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    for line in ["defect          0", "warning         0", "as asked (--era)"] {
        assert!(run.stdout.contains(line), "{line}: {}", run.stdout);
    }
    assert!(
        run.stderr.contains("protocol era: 2025-11-25"),
        "{}",
        run.stderr
    );

    let legacy_only = Server::builder("legacy-only", "1.0.0")
        .eras([mcp_test::wire::Era::Legacy])
        .build()
        .unwrap();
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, legacy_only, HttpConfig::default()));
    let run = mcp_test(&["check", "--url", &url, "--era", "2026-07-28"]).await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("does not speak 2026-07-28")
            && run.stderr.contains("initialize chose 2025-11-25"),
        "{}",
        run.stderr
    );
}

#[tokio::test]
async fn an_unknown_era_is_refused_naming_the_choices() {
    let run = mcp_test(&["check", "--era", "2024-11-05"]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("`2024-11-05` is no era: use auto, 2026-07-28 or 2025-11-25"),
        "{}",
        run.stderr
    );
}
