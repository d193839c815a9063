//! A crate's own server binary as an HTTP fixture, as a downstream crate writes it: started
//! by `#[mcp_test(http_command = ..)]` or `TestContext::http_command`, its address read from
//! the line it prints (or a free port given to it), and stopped with the test. The binary is
//! this crate's `transport_fixture`, which serves `/mcp` and prints `listening on ADDR`.

use mcp_test::mcp_test;
use mcp_test::target::Target;
use mcp_test::testing::{HttpCommand, HttpCommandError, TestContext};
use serde_json::json;
use std::time::{Duration, Instant};

const FIXTURE: &str = env!("CARGO_BIN_EXE_transport_fixture");

#[mcp_test(http_command = [FIXTURE, "--http", "127.0.0.1:0"])]
async fn the_attribute_starts_the_binary_and_reads_its_address(mcp: TestContext) {
    assert!(mcp.label().starts_with(FIXTURE), "{}", mcp.label());
    assert!(
        mcp.label().contains(" at http://127.0.0.1:"),
        "{}",
        mcp.label()
    );
    let tools = mcp.list_tools().await;
    assert!(
        tools["result"]["tools"]
            .as_array()
            .is_some_and(|tools| tools.iter().any(|t| t["name"] == "forecast")),
        "{tools:#}"
    );
}

#[tokio::test]
async fn a_port_given_to_the_binary() {
    let mcp =
        TestContext::http_command(HttpCommand::new([FIXTURE, "--http", "127.0.0.1:{port}"])).await;
    let discovered = mcp.discover().await;
    assert_eq!(
        discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "transport-fixture",
        "{discovered:#}"
    );
}

#[tokio::test]
async fn the_process_stops_with_the_context() {
    let process = HttpCommand::new([FIXTURE, "--http", "127.0.0.1:0"])
        .start()
        .await
        .expect("the fixture starts");
    let pid = process.pid().expect("a running process");
    assert!(process.url().ends_with("/mcp"), "{}", process.url());
    let mcp = TestContext::for_target(process);
    assert!(
        mcp.call_tool("whoami", json!({}))
            .await
            .get("result")
            .is_some()
    );
    assert!(running(pid));
    drop(mcp);
    // Killed on drop; give the kernel a bounded moment to reap it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while running(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!running(pid), "process {pid} outlived its context");
}

#[tokio::test]
async fn a_binary_that_exits_first_shows_what_it_printed() {
    let err = HttpCommand::new([FIXTURE, "--bogus"])
        .start()
        .await
        .expect_err("the fixture refuses the flag");
    assert!(matches!(err, HttpCommandError::Exited { .. }), "{err}");
    let message = err.to_string();
    assert!(message.contains("usage: transport_fixture"), "{message}");
    assert!(
        message.contains("before it printed an address"),
        "{message}"
    );
}

#[tokio::test]
async fn a_binary_that_names_no_address_times_out_with_its_output() {
    // Serves stdio: it prints nothing and waits on stdin (closed, so it may also exit).
    let err = HttpCommand::new(FIXTURE)
        .startup_timeout(Duration::from_millis(300))
        .start()
        .await
        .expect_err("no address");
    let message = err.to_string();
    assert!(
        matches!(
            err,
            HttpCommandError::NotReady { .. } | HttpCommandError::Exited { .. }
        ),
        "{message}"
    );
    assert!(message.contains(FIXTURE), "{message}");
}

#[test]
fn the_label_names_the_program_and_url() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let process = HttpCommand::new([FIXTURE, "--http", "127.0.0.1:0"])
            .start()
            .await
            .expect("the fixture starts");
        assert_eq!(process.label(), format!("{FIXTURE} at {}", process.url()));
    });
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
