//! How `check` judges time: a call slower than `--timeout` is a note naming the timeout, never
//! a defect; a call that stays unanswered while the server answers others is a defect, found
//! within the wait the check allows (3 × the timeout, at least 5 s more than it).
//!
//! The servers are mcp-test servers served over in-memory pipes the way a child's stdio
//! would be, so each request has a real transport with its own reader in between.

use mcp_test::cases::Connected;
use mcp_test::client::Client;
use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test::{Context, Server, Tool, ToolError};
use mcp_test_check::{CheckOptions, CheckReport, Severity, check_connected};
use schemars::JsonSchema;
use serde::Deserialize;
use std::time::Duration;

/// Waits for the printer: answers after 2 s.
#[derive(Tool, Deserialize, JsonSchema)]
#[tool(name = "poll", annotations(read_only, open_world = false))]
struct Poll {}

impl Poll {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_secs(2)).await;
        Ok("no commands".to_owned())
    }
}

/// Never answers.
#[derive(Tool, Deserialize, JsonSchema)]
#[tool(name = "stuck", annotations(read_only, open_world = false))]
struct Stuck {
    /// How many.
    #[tool(minimum = 1, maximum = 3)]
    #[allow(dead_code)]
    count: u32,
}

impl Stuck {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        std::future::pending::<()>().await;
        Ok("never".to_owned())
    }
}

/// Says hello at once.
#[derive(Tool, Deserialize, JsonSchema)]
#[tool(name = "hello", annotations(read_only, open_world = false))]
struct Hello {}

impl Hello {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok("hello".to_owned())
    }
}

/// Checks `server`, served over in-memory pipes, with a 1 s timeout; bounded, so a check
/// that waits for ever fails the test instead of hanging it.
async fn check_with_1s_timeout(server: Server) -> CheckReport {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve(
        server,
        server_read,
        server_write,
        StdioConfig::default(),
    ));
    let (read, write) = tokio::io::split(client_end);
    let connected = Connected::probe(Client::connect(read, write), "timing")
        .await
        .expect("the server answers the handshake");
    let options = CheckOptions::default().timeout(Duration::from_secs(1));
    tokio::time::timeout(
        Duration::from_secs(300),
        check_connected(&connected, &options),
    )
    .await
    .expect("the check ends")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_slower_than_the_timeout_is_a_note_naming_it_every_time() {
    let runs = (0..10).map(|_| {
        check_with_1s_timeout(Server::builder("slow", "1").tool::<Poll>().build().unwrap())
    });
    let reports = futures_util::future::join_all(runs).await;
    for report in &reports {
        let text = report.to_text();
        assert_eq!(report.count(Severity::Defect), 0, "{text}");
        assert_eq!(report.count(Severity::Warning), 0, "{text}");
        let note = report
            .findings()
            .find(|f| f.message.contains("within the 1 s timeout"))
            .unwrap_or_else(|| panic!("no note naming the timeout:\n{text}"));
        assert_eq!(note.severity, Severity::Info, "{text}");
        assert!(note.message.contains("--timeout SECS"), "{}", note.message);
        // It was answered after all, and the note says so.
        assert!(
            report
                .findings()
                .any(|f| f.message.contains("it was answered")),
            "{text}"
        );
    }
}

#[tokio::test]
async fn a_call_never_answered_while_the_server_answers_others_is_a_defect() {
    let server = Server::builder("stuck", "1")
        .tool::<Stuck>()
        .tool::<Hello>()
        .build()
        .unwrap();
    let report = check_with_1s_timeout(server).await;
    let text = report.to_text();
    let defect = report
        .findings()
        .find(|f| f.severity == Severity::Defect && f.message.contains("while the server answered"))
        .unwrap_or_else(|| {
            panic!(
                "no defect for the call never answered:\n{text}\n{:#}",
                report.to_json()
            )
        });
    assert_eq!(
        defect.clause.map(|c| c.id),
        Some("jsonrpc/response-required"),
        "{text}"
    );
    assert!(
        defect.message.contains("tools/call (id "),
        "{}",
        defect.message
    );
    assert!(defect.message.contains("must"), "{}", defect.message);
    // Its calls with valid arguments are one defect: the first shown, the others counted.
    let defects: Vec<_> = report
        .findings()
        .filter(|f| f.severity == Severity::Defect)
        .collect();
    assert_eq!(defects.len(), 1, "{text}");
    assert!(
        defect.message.contains("went unanswered the same way"),
        "{}",
        defect.message
    );
    // Only the silent tool is blamed: the other one's calls were answered.
    assert!(
        report
            .findings()
            .filter(|f| f.severity == Severity::Defect)
            .all(|f| f.message.contains("no answer to tools/call")),
        "{text}"
    );
}

/// A server whose first `tools/call` takes 6 s; everything else is answered at once.
struct FirstCallSlow {
    server: Server,
    slowed: std::sync::atomic::AtomicBool,
}

impl mcp_test::target::Target for FirstCallSlow {
    fn label(&self) -> String {
        "first call slow".to_owned()
    }
    fn send<'a>(
        &'a self,
        message: &'a serde_json::Value,
        caller: &'a mcp_test::Caller,
    ) -> mcp_test::target::TargetFuture<'a> {
        Box::pin(async move {
            if message["method"] == "tools/call"
                && !self.slowed.swap(true, std::sync::atomic::Ordering::SeqCst)
            {
                tokio::time::sleep(Duration::from_secs(6)).await;
            }
            self.server.send(message, caller).await
        })
    }
}

#[tokio::test]
async fn a_request_awaited_longer_than_a_few_seconds_is_told_of_while_it_waits() {
    // Only this test's function writes here.
    static LINES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let target = FirstCallSlow {
        server: Server::builder("slow", "1")
            .tool::<Hello>()
            .build()
            .unwrap(),
        slowed: Default::default(),
    };
    let options = CheckOptions::default()
        .timeout(Duration::from_secs(10))
        .on_waiting(Some(|line| {
            LINES
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(line.to_owned());
        }));
    let report = tokio::time::timeout(
        Duration::from_secs(120),
        mcp_test_check::check(&target, &options),
    )
    .await
    .expect("the check ends");
    let lines = LINES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    assert!(
        lines.iter().any(
            |l| l.starts_with("waiting for the answer to tools/call (id ")
                && l.ends_with("): 5 s so far, timeout 10 s")
        ),
        "{lines:#?}"
    );
    // Answered within the timeout: nothing to report.
    assert_eq!(report.findings().count(), 0, "{}", report.to_text());
}

/// A server that handles one message at a time, whose `tools/call` takes 3 s: a request sent
/// meanwhile is answered only once the call is done.
struct OneAtATime {
    server: Server,
    busy: tokio::sync::Mutex<()>,
}

impl mcp_test::target::Target for OneAtATime {
    fn label(&self) -> String {
        "one at a time".to_owned()
    }
    fn send<'a>(
        &'a self,
        message: &'a serde_json::Value,
        caller: &'a mcp_test::Caller,
    ) -> mcp_test::target::TargetFuture<'a> {
        Box::pin(async move {
            let _busy = self.busy.lock().await;
            if message["method"] == "tools/call" {
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
            self.server.send(message, caller).await
        })
    }
}

#[tokio::test]
async fn a_server_busy_with_a_slow_call_is_not_taken_for_gone() {
    let target = OneAtATime {
        server: Server::builder("serial", "1")
            .tool::<Hello>()
            .build()
            .unwrap(),
        busy: tokio::sync::Mutex::new(()),
    };
    let options = CheckOptions::default()
        .timeout(Duration::from_secs(1))
        .jobs(1);
    let report = tokio::time::timeout(
        Duration::from_secs(300),
        mcp_test_check::check(&target, &options),
    )
    .await
    .expect("the check ends");
    let text = report.to_text();
    assert_eq!(report.count(Severity::Defect), 0, "{text}");
    assert_eq!(report.count(Severity::Warning), 0, "{text}");
    assert!(
        !report.probes.iter().any(|p| p
            .skipped
            .as_deref()
            .is_some_and(|s| s.contains("stopped answering"))),
        "{text}"
    );
    assert!(
        report
            .findings()
            .any(|f| f.message.contains("within the 1 s timeout")),
        "{text}"
    );
}
