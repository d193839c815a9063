//! `mcp-test check --expect FILE` and `--write-expect FILE` as a user runs them, against the
//! bundled example server (in process, no findings): the exit status is the comparison's
//! verdict, and a malformed file is refused before anything is checked.

mod support;
use support::{TempFile, mcp_test};

#[tokio::test]
async fn a_report_that_matches_the_file_exits_0() {
    let file = TempFile::new(
        "empty.json",
        Some(r#"{"server": "example", "findings": []}"#),
    );
    let run = mcp_test(&["check", "--quiet", "--expect", file.arg()]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Summary"),
        "the report is still printed"
    );
    assert!(run.stderr.contains("expect: match"), "{}", run.stderr);
}

#[tokio::test]
async fn a_listed_finding_that_is_not_there_exits_1_and_names_the_entry() {
    let file = TempFile::new(
        "gone.json",
        Some(
            r#"{"findings": [{"severity": "defect", "probe": "resources/not-found",
                "clause": "resources/not-found", "why": "it used to answer -32002"}]}"#,
        ),
    );
    let run = mcp_test(&["check", "--quiet", "--expect", file.arg()]).await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("/findings/0: [defect] resources/not-found (clause resources/not-found)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("expect: MISMATCH"), "{}", run.stderr);
}

#[tokio::test]
async fn a_malformed_file_exits_2_naming_the_file_and_the_pointer() {
    let file = TempFile::new(
        "bad.json",
        Some(
            r#"{"findings": [{"severity": "warning", "probe": "p"}, {"severity": "bad", "probe": "p"}]}"#,
        ),
    );
    let run = mcp_test(&["check", "--expect", file.arg()]).await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains(&format!("{}: at /findings/1/severity: ", file.arg())),
        "{}",
        run.stderr
    );
    // Refused before anything was checked.
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        !run.stderr.contains("schema-derived cases"),
        "{}",
        run.stderr
    );

    let missing = TempFile::new("missing.json", None);
    let run = mcp_test(&["check", "--expect", missing.arg()]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("cannot read {}", missing.arg())),
        "{}",
        run.stderr
    );
}

#[tokio::test]
async fn write_expect_writes_a_file_that_the_next_run_matches() {
    let file = TempFile::new("written.json", None);
    let run = mcp_test(&["check", "--quiet", "--write-expect", file.arg()]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file.0).expect("written")).expect("JSON");
    assert_eq!(written["findings"], serde_json::json!([]), "{written}");
    let run = mcp_test(&["check", "--quiet", "--expect", file.arg()]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
}

#[tokio::test]
async fn a_server_that_cannot_be_checked_exits_2_whatever_the_file_says() {
    let file = TempFile::new("unreachable.json", Some(r#"{"findings": []}"#));
    // A port that was free a moment ago: nothing listens there.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("its address"));
    drop(listener);
    let run = mcp_test(&["check", "--quiet", "--expect", file.arg(), "--url", &url]).await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cannot connect"), "{}", run.stderr);
}
