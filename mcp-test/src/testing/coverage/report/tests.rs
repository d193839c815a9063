//! Tests of the coverage report: merging, naming remote servers, errors, filtering.

use super::*;
use crate::testing::coverage::tests::scratch_dir;

fn universe(server: &str, tools: Value) -> String {
    json!({"v": 1, "event": "universe", "source": "registry", "target": format!("{server} (in process)"),
        "server": {"name": server, "version": "1.0.0"}, "tools": tools,
        "resources": ["file:///a"], "templates": ["file:///items/{id}"], "prompts": ["greet"],
        "completions": [{"ref": "ref/prompt", "name": "greet", "argument": "name"}]})
    .to_string()
}

fn request(
    server: Option<&str>,
    target: &str,
    method: &str,
    outcome: &str,
    extra: Value,
) -> String {
    let mut event = json!({"v": 1, "event": "request", "target": target,
        "server": server.map(|s| json!({"name": s, "version": "1.0.0"})),
        "method": method, "outcome": outcome});
    if let (Value::Object(event), Value::Object(extra)) = (&mut event, extra) {
        event.extend(extra);
    }
    event.to_string()
}

/// Two files, of the lines `one` and `two`, merged.
fn merged(one: &[String], two: &[String]) -> Coverage {
    let (one, two) = (one.join("\n"), two.join("\n"));
    Coverage::from_texts([("1.jsonl", one.as_str()), ("2.jsonl", two.as_str())]).unwrap()
}

/// The one server `coverage` holds.
#[track_caller]
fn only_server(coverage: &Coverage) -> &ServerCoverage {
    let [server] = coverage.servers() else {
        panic!("one server: {:?}", coverage.servers())
    };
    server
}

/// A request to the in-process server `calc`.
fn calc(method: &str, outcome: &str, extra: Value) -> String {
    request(Some("calc"), "calc", method, outcome, extra)
}

#[test]
fn files_of_several_processes_merge_per_server_and_row() {
    let tools =
        json!([{"name": "add", "actions": []}, {"name": "items", "actions": ["get", "put"]}]);
    let one = [
        universe("calc", tools.clone()),
        calc("tools/call", "success", json!({"tool": "add"})),
        calc(
            "tools/call",
            "validation_error",
            json!({"tool": "items", "action": "get"}),
        ),
        calc(
            "resources/read",
            "success",
            json!({"uri": "file:///items/7"}),
        ),
    ];
    let two = [
        universe("calc", tools),
        calc("tools/call", "execution_error", json!({"tool": "add"})),
        calc("tools/call", "protocol_error", json!({"tool": "nope"})),
        calc(
            "completion/complete",
            "success",
            json!({"ref": "ref/prompt", "name": "greet", "argument": "name"}),
        ),
        calc(
            "resources/read",
            "protocol_error",
            json!({"uri": "file:///zzz"}),
        ),
    ];
    let coverage = merged(&one, &two);
    assert_eq!((coverage.files(), coverage.requests()), (2, 7));
    let calc = only_server(&coverage);
    assert_eq!(calc.processes(), 2);
    let add = &calc.tools()[0];
    assert_eq!(
        (
            add.name(),
            add.counts().get(Outcome::Success),
            add.counts().get(Outcome::ExecutionError)
        ),
        ("add", 1, 1)
    );
    let get = &calc.tools()[1];
    assert_eq!(
        (get.detail(), get.counts().get(Outcome::ValidationError)),
        (Some("get"), 1)
    );
    assert!(!calc.tools()[2].covered(), "items put was never called");
    let nope = &calc.tools()[3];
    assert_eq!((nope.name(), nope.listed()), ("nope", false));
    assert_eq!(calc.templates()[0].counts().total(), 1);
    assert!(!calc.resources()[0].covered());
    assert_eq!(
        (calc.resources()[1].name(), calc.resources()[1].listed()),
        ("file:///zzz", false)
    );
    let summary = calc.summary();
    assert_eq!(
        summary.tools,
        Tally {
            covered: 2,
            total: 2
        }
    );
    assert_eq!(
        summary.actions,
        Tally {
            covered: 1,
            total: 2
        }
    );
    assert_eq!(
        summary.completions,
        Tally {
            covered: 1,
            total: 1
        }
    );
    assert_eq!(
        summary.prompts,
        Tally {
            covered: 0,
            total: 1
        }
    );
    // add, get, put, file:///a, the template, greet, the completion reference.
    assert_eq!(
        summary.items(),
        Tally {
            covered: 4,
            total: 7
        }
    );
    let text = coverage.to_text();
    assert!(text.contains("== calc 1.0.0 (in process"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("items") && l.contains("put") && l.ends_with("UNCOVERED")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains("nope") && l.ends_with("not listed")),
        "{text}"
    );
    assert!(text.contains("4/7 (57.1%) items covered"), "{text}");
    let json = coverage.to_json();
    assert_eq!(
        json["summary"]["items"],
        json!({"covered": 4, "total": 7, "percent": 57.1})
    );
    assert_eq!(json["servers"][0]["tools"][1]["action"], "get");
    assert_eq!(
        json["servers"][0]["tools"][1]["outcomes"]["validation_error"],
        1
    );
}

#[test]
fn a_remote_server_is_named_from_its_other_requests_and_its_lists() {
    let one = [
        request(
            None,
            "http://x/mcp",
            "tools/call",
            "success",
            json!({"tool": "echo"}),
        ),
        request(
            Some("remote"),
            "http://x/mcp",
            "server/discover",
            "success",
            json!({}),
        ),
    ];
    let listed = json!({"v": 1, "event": "universe", "source": "list", "target": "http://x/mcp",
        "server": {"name": "remote", "version": "1.0.0"}, "tools": [{"name": "echo", "actions": []}, {"name": "add", "actions": []}]});
    let two = [
        listed.to_string(),
        request(
            None,
            "http://x/mcp",
            "prompts/get",
            "success",
            json!({"prompt": "p"}),
        ),
    ];
    let coverage = merged(&one, &two);
    let remote = only_server(&coverage);
    assert_eq!(remote.name(), "remote 1.0.0");
    assert_eq!(remote.universe(), Universe::Listed);
    assert_eq!(
        remote.summary().tools,
        Tally {
            covered: 1,
            total: 2
        }
    );
    // Prompts were never listed: the prompt requested is shown, and counts in no total.
    assert_eq!(remote.summary().prompts, Tally::default());
    assert_eq!(remote.prompts()[0].name(), "p");
}

#[test]
fn a_corrupt_line_names_its_file_and_line() {
    let good = request(Some("s"), "t", "ping", "success", json!({}));
    let text = format!(
        "{good}\n\n{{\"v\": 1, \"event\": \"request\", \"target\": \"t\", \"method\": \"x\", \"outcome\": \"fine\"}}\n"
    );
    let e = Coverage::from_texts([("p.jsonl", text.as_str())]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "p.jsonl:3: /outcome: expected one of success, validation_error, missing_capability, input_required, execution_error, protocol_error, got \"fine\""
    );
    let e = Coverage::from_texts([("q.jsonl", "{\"v\": 1, \"event\"")]).unwrap_err();
    assert!(e.to_string().starts_with("q.jsonl:1: not JSON: "), "{e}");
    let e = Coverage::from_texts([("r.jsonl", "{\"v\": 2}")]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "r.jsonl:1: /v: this mcp-test reads coverage format 1, got 2"
    );
    let e = Coverage::from_texts([(
        "s.jsonl",
        r#"{"v": 1, "event": "universe", "source": "list", "target": "t", "tools": [{"name": 3}]}"#,
    )])
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.jsonl:1: /tools/0/name: expected a string, got 3"
    );
}

#[test]
fn a_missing_or_empty_directory_is_named() {
    let dir = scratch_dir("mcp-cov-report");
    let e = Coverage::load(&dir).unwrap_err();
    assert!(matches!(e, CoverageError::Dir { .. }), "{e}");
    assert!(e.to_string().contains(&dir.display().to_string()), "{e}");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a recording").unwrap();
    let e = Coverage::load(&dir).unwrap_err();
    assert!(
        e.to_string().contains("holds no recording (*.jsonl)"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_uncovered_rows_can_be_kept() {
    let text = [
        universe(
            "calc",
            json!([{"name": "add", "actions": []}, {"name": "sub", "actions": []}]),
        ),
        calc("tools/call", "success", json!({"tool": "add"})),
    ]
    .join("\n");
    let mut coverage = Coverage::from_texts([("1.jsonl", text.as_str())]).unwrap();
    coverage.retain_uncovered();
    let names: Vec<&str> = coverage.servers()[0]
        .tools()
        .iter()
        .map(Row::name)
        .collect();
    assert_eq!(names, ["sub"]);
    assert_eq!(
        coverage.summary().tools,
        Tally {
            covered: 1,
            total: 2
        }
    );
}

/// One server reached in another process over stdio and HTTP, in both eras, on ports of
/// every run, is one row, and its figure is the whole suite's; the same name answered in
/// process is a row of its own, whose registry says nothing of what the binary serves.
#[test]
fn a_server_is_its_name_across_eras_transports_and_ports_and_apart_from_in_process() {
    let remote = |target: &str, tool: &str| {
        request(
            Some("calc"),
            target,
            "tools/call",
            "success",
            json!({"tool": tool, "in_process": false}),
        )
    };
    let listed = json!({"v": 1, "event": "universe", "source": "list",
        "target": "http://127.0.0.1:41234/mcp", "server": {"name": "calc", "version": "1.0.0"},
        "tools": [{"name": "add", "actions": []}, {"name": "sub", "actions": []}]});
    let one = [
        listed.to_string(),
        remote("http://127.0.0.1:41234/mcp", "add"),
        remote("./target/debug/calc (2025-11-25)", "sub"),
    ];
    let two = [
        remote("http://127.0.0.1:50011/mcp (2025-11-25)", "add"),
        universe(
            "calc",
            json!([{"name": "add", "actions": []}, {"name": "mul", "actions": []}]),
        ),
        request(
            Some("calc"),
            "calc 1.0.0 (in process)",
            "tools/call",
            "success",
            json!({"tool": "mul", "in_process": true}),
        ),
    ];
    let coverage = merged(&one, &two);
    let [in_process, elsewhere] = coverage.servers() else {
        panic!("two rows: {:?}", coverage.servers())
    };
    assert_eq!(
        (in_process.name(), in_process.in_process()),
        ("calc 1.0.0", true)
    );
    assert_eq!(in_process.universe(), Universe::Registry);
    // add, mul, and the resource, template, prompt and completion the helper lists.
    assert_eq!(in_process.summary().items().to_string(), "1/6 (16.7%)");
    assert_eq!(
        (elsewhere.name(), elsewhere.in_process()),
        ("calc 1.0.0", false)
    );
    assert_eq!(elsewhere.universe(), Universe::Listed);
    assert_eq!(elsewhere.labels().len(), 3, "{:?}", elsewhere.labels());
    assert_eq!(elsewhere.summary().items().to_string(), "2/2 (100.0%)");
    assert_eq!(elsewhere.processes(), 2);
    let json = coverage.to_json();
    assert_eq!(json["servers"][0]["in_process"], true);
    assert_eq!(json["servers"][1]["in_process"], false);
    assert!(
        coverage.to_text().contains(
            "== calc 1.0.0 (in another process: the items the suite listed; 2 processes)"
        ),
        "{}",
        coverage.to_text()
    );
    // A request of a file that does not say goes where its server's registry is, in any
    // file.
    let older = [universe("calc", json!([{"name": "add", "actions": []}]))];
    let said_nothing = [request(
        Some("calc"),
        "calc",
        "tools/call",
        "success",
        json!({"tool": "add"}),
    )];
    let older = merged(&older, &said_nothing);
    assert!(only_server(&older).in_process());
    assert_eq!(
        only_server(&older).summary().tools.to_string(),
        "1/1 (100.0%)"
    );
    let bad = request(
        Some("calc"),
        "t",
        "ping",
        "success",
        json!({"in_process": "yes"}),
    );
    let error = Coverage::from_texts([("x.jsonl", bad.as_str())]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("/in_process: expected a boolean"),
        "{error}"
    );
}
