//! The runtime under load, as a user ships it: the transport fixture (`transport_fixture`, the
//! runtime's own stdio and Streamable HTTP transports) as a child process, on 127.0.0.1 on a
//! port the system picks.
//!
//! - 1,000 requests at once over HTTP in each era, from 50 sessions of 20 requests each: every
//!   request answered once under its own id, with its own session's nonce (`forecast` echoes
//!   the region it was given), none crossed between sessions.
//! - 1,000 requests pipelined on one stdio stream, read raw: each id answered exactly once.
//! - `notifications/cancelled` for 200 slow calls in the middle of a stdio stream: the others
//!   are all answered, the cancelled ones never, and the server exits at end of input at once
//!   (a cancelled call still running would hold it for a minute).
//! - 200 HTTP connections dropped with slow calls in flight, in each era: the server answers
//!   the other sessions, and its descriptors come back near where they were.
//! - The server's resident memory (`/proc/PID/status`) after each load and a settle stays
//!   within a generous bound over its baseline. No assertion is on time: waits are bounded,
//!   and a wait that runs out fails with what it saw.

use futures_util::future::join_all;
use mcp_test::Caller;
use mcp_test::cases::Connected;
use mcp_test::client::Client;
use mcp_test::target::Target;
use mcp_test::wire::Era;
use mcp_test_check::load::sample_processes;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

const FIXTURE: &str = env!("CARGO_BIN_EXE_transport_fixture");

/// How much the server's resident memory may grow over its baseline after a load and a
/// settle: generous, since an allocator keeps what it once used; a leak of the requests
/// (a kilobyte or more each, thousands of them over the tests) or of their tasks shows.
const RSS_SLACK_KB: u64 = 64 * 1024;

/// How many descriptors may stay open over the baseline once dropped connections have
/// been noticed.
const FD_SLACK: u64 = 16;

/// The fixture over HTTP: the child (killed when dropped), its URL and process id.
struct HttpServer {
    _child: Child,
    url: String,
    pid: u32,
}

async fn http_server() -> HttpServer {
    let mut child = Command::new(FIXTURE)
        .args(["--http", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the fixture starts");
    let pid = child.id().expect("a running child");
    let mut lines = BufReader::new(child.stderr.take().expect("piped")).lines();
    let addr = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.expect("stderr reads") {
            if let Some(addr) = line.strip_prefix("listening on ") {
                return addr.to_owned();
            }
        }
        panic!("the fixture exited before it said where it listens");
    })
    .await
    .expect("the fixture says where it listens within 30 s");
    // Keep reading stderr so the child never blocks on it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    HttpServer {
        _child: child,
        url: format!("http://{addr}/mcp"),
        pid,
    }
}

fn rss_kb(pid: u32) -> u64 {
    sample_processes(&[pid]).0.expect("/proc/PID/status reads")
}

fn fds(pid: u32) -> u64 {
    sample_processes(&[pid]).1.expect("/proc/PID/fd reads")
}

/// Waits (bounded) until the server's descriptors are back within [`FD_SLACK`] of
/// `baseline`, and fails naming them if they are not.
async fn fds_settle(pid: u32, baseline: u64, after: &str) {
    let mut now = fds(pid);
    for _ in 0..100 {
        if now <= baseline + FD_SLACK {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        now = fds(pid);
    }
    panic!("{after}: {now} descriptors open, baseline {baseline} (+{FD_SLACK} allowed)");
}

/// `clients` sessions in `era`, each sending `each` `forecast` calls at once with a region of
/// its own; every reply must carry its request's id and its own region back. Returns how many
/// were answered.
async fn sessions(url: &str, era: Era, clients: usize, each: usize) -> usize {
    let runs = (0..clients).map(|c| async move {
        let client = Client::http(url)
            .expect("a client")
            .with_timeout(Duration::from_secs(60));
        let connected = Connected::connect(client, url, Some(era))
            .await
            .unwrap_or_else(|e| panic!("session {c} in {era}: {e}"));
        let calls = (0..each).map(|i| {
            let connected = &connected;
            async move {
                let region = format!("{era}-session{c}-call{i}");
                let body = connected
                    .client
                    .tool_call_body("forecast", json!({"region": region}));
                let exchange = Target::send(connected, &body, &Caller::default())
                    .await
                    .unwrap_or_else(|e| panic!("{region}: {e}"));
                let reply = exchange.response.expect("a response");
                assert_eq!(
                    reply["id"], body["id"],
                    "{region}: answered under another id"
                );
                assert_eq!(
                    reply["result"]["content"][0]["text"],
                    format!("sunny in {region}"),
                    "{region}: another session's answer, or none: {reply}"
                );
            }
        });
        join_all(calls).await;
        assert!(
            connected.client.transport_events().is_empty(),
            "session {c}: {:?}",
            connected.client.transport_events()
        );
        each
    });
    join_all(runs).await.into_iter().sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_requests_at_once_over_http_in_each_era_each_answered_in_its_own_session() {
    let server = http_server().await;
    // Warm up: the first sessions allocate what every later one reuses.
    assert_eq!(sessions(&server.url, Era::Current, 10, 10).await, 100);
    assert_eq!(sessions(&server.url, Era::Legacy, 10, 10).await, 100);
    let baseline = rss_kb(server.pid);
    let fd_baseline = fds(server.pid);
    for era in [Era::Current, Era::Legacy] {
        let answered =
            tokio::time::timeout(Duration::from_secs(120), sessions(&server.url, era, 50, 20))
                .await
                .unwrap_or_else(|_| {
                    panic!("{era}: 1,000 requests not answered within two minutes")
                });
        assert_eq!(answered, 1_000, "{era}");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_kb(server.pid);
    assert!(
        after < baseline + RSS_SLACK_KB,
        "rss {after} kB after 2,000 requests, baseline {baseline} kB"
    );
    fds_settle(server.pid, fd_baseline, "after 2,000 requests").await;
}

/// The `_meta` of a 2026-07-28 request, from the client's own request builder.
fn request(id: u64, tool: &str, arguments: Value) -> Value {
    let builder = Client::http("http://127.0.0.1:9/mcp").expect("a client");
    let mut body = builder.tool_call_body(tool, arguments);
    body["id"] = json!(id);
    body
}

/// The fixture over stdio, read raw: its stdin, its stdout's lines and the child.
struct StdioServer {
    child: Child,
    stdin: tokio::process::ChildStdin,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

fn stdio_server() -> StdioServer {
    let mut child = Command::new(FIXTURE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the fixture starts");
    StdioServer {
        stdin: child.stdin.take().expect("piped"),
        lines: BufReader::new(child.stdout.take().expect("piped")).lines(),
        child,
    }
}

impl StdioServer {
    async fn write(&mut self, messages: &[Value]) {
        let mut text = String::new();
        for m in messages {
            text.push_str(&m.to_string());
            text.push('\n');
        }
        self.stdin
            .write_all(text.as_bytes())
            .await
            .expect("stdin writes");
        self.stdin.flush().await.expect("stdin flushes");
    }

    /// Reads responses until every id of `wanted` has one; returns each id's responses (all
    /// that came, the unwanted ones too).
    async fn read_until(&mut self, wanted: &[u64]) -> HashMap<u64, Vec<Value>> {
        let mut seen: HashMap<u64, Vec<Value>> = HashMap::new();
        let read = async {
            while wanted.iter().any(|id| !seen.contains_key(id)) {
                let line = self
                    .lines
                    .next_line()
                    .await
                    .expect("stdout reads")
                    .expect("the server ended its output early");
                let message: Value = serde_json::from_str(&line).expect("a JSON line");
                if let Some(id) = message.get("id").and_then(Value::as_u64) {
                    seen.entry(id).or_default().push(message);
                }
            }
        };
        if tokio::time::timeout(Duration::from_secs(120), read)
            .await
            .is_err()
        {
            let missing = wanted.iter().filter(|id| !seen.contains_key(id)).count();
            panic!(
                "{missing} of {} requests unanswered after two minutes",
                wanted.len()
            );
        }
        seen
    }
}

fn forecasts(ids: std::ops::RangeInclusive<u64>) -> Vec<Value> {
    ids.map(|id| request(id, "forecast", json!({"region": format!("r{id}")})))
        .collect()
}

fn assert_each_answered_once(seen: &HashMap<u64, Vec<Value>>, ids: std::ops::RangeInclusive<u64>) {
    for id in ids {
        let replies = &seen[&id];
        assert_eq!(replies.len(), 1, "id {id} answered {} times", replies.len());
        assert_eq!(
            replies[0]["result"]["content"][0]["text"],
            format!("sunny in r{id}"),
            "{}",
            replies[0]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_requests_pipelined_on_stdio_each_answered_once() {
    let mut server = stdio_server();
    let pid = server.child.id().expect("running");
    server.write(&forecasts(1..=100)).await;
    let warm: Vec<u64> = (1..=100).collect();
    assert_each_answered_once(&server.read_until(&warm).await, 1..=100);
    let baseline = rss_kb(pid);
    server.write(&forecasts(101..=1_100)).await;
    let ids: Vec<u64> = (101..=1_100).collect();
    let seen = server.read_until(&ids).await;
    assert_each_answered_once(&seen, 101..=1_100);
    assert_eq!(seen.len(), 1_000, "no reply under an id not sent");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = rss_kb(pid);
    assert!(
        after < baseline + RSS_SLACK_KB,
        "rss {after} kB after 1,000 requests, baseline {baseline} kB"
    );
    drop(server.stdin);
    let status = tokio::time::timeout(Duration::from_secs(30), server.child.wait())
        .await
        .expect("the server exits at end of input")
        .expect("it is waited for");
    assert!(status.success(), "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_calls_in_the_middle_of_a_stdio_stream_stop_and_the_others_are_answered() {
    let mut server = stdio_server();
    // 200 calls that would sleep a minute, among 500 quick ones.
    let mut first = Vec::new();
    for id in 1..=200 {
        first.push(request(id, "sleep", json!({"ms": 60_000})));
        first.push(request(
            1_000 + id,
            "forecast",
            json!({"region": format!("r{}", 1_000 + id)}),
        ));
    }
    server.write(&first).await;
    let cancels: Vec<Value> = (1..=200)
        .map(|id| {
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                   "params": {"requestId": id, "reason": "load test"}})
        })
        .collect();
    server.write(&cancels).await;
    server.write(&forecasts(1_201..=1_500)).await;
    let ids: Vec<u64> = (1_001..=1_500).collect();
    let seen = server.read_until(&ids).await;
    assert_each_answered_once(&seen, 1_001..=1_500);
    // A last request after everything: the cancelled ones must not have been answered by then.
    server.write(&forecasts(2_000..=2_000)).await;
    let last = server.read_until(&[2_000]).await;
    let answered_cancelled: Vec<&u64> = seen
        .keys()
        .chain(last.keys())
        .filter(|id| **id <= 200)
        .collect();
    assert!(
        answered_cancelled.is_empty(),
        "cancelled requests answered: {answered_cancelled:?}"
    );
    // At end of input the server finishes what is in flight: a cancelled call still sleeping
    // would hold it for a minute.
    drop(server.stdin);
    let status = tokio::time::timeout(Duration::from_secs(30), server.child.wait())
        .await
        .expect("the server exits at end of input: no cancelled call is still running")
        .expect("it is waited for");
    assert!(status.success(), "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_dropped_with_calls_in_flight_leave_no_descriptors_and_others_are_answered() {
    let server = http_server().await;
    assert_eq!(sessions(&server.url, Era::Current, 4, 5).await, 20);
    let fd_baseline = fds(server.pid);
    let baseline = rss_kb(server.pid);
    for era in [Era::Current, Era::Legacy] {
        // 200 slow calls, each on a connection of its own, dropped while in flight.
        let url = server.url.clone();
        let doomed = tokio::spawn(async move {
            let calls = (0..200).map(|_| {
                let url = url.clone();
                async move {
                    let client = Client::http(&url).expect("a client");
                    let connected = Connected::connect(client, url.as_str(), Some(era))
                        .await
                        .expect("a session");
                    let body = connected
                        .client
                        .tool_call_body("sleep", json!({"ms": 60_000}));
                    let _ = Target::send(&connected, &body, &Caller::default()).await;
                }
            });
            join_all(calls).await;
        });
        // The server takes them in: wait (bounded) until it holds their connections.
        let mut held = fds(server.pid);
        for _ in 0..200 {
            if held >= fd_baseline + 150 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            held = fds(server.pid);
        }
        assert!(
            held >= fd_baseline + 150,
            "{era}: the slow calls never arrived ({held} descriptors, baseline {fd_baseline})"
        );
        doomed.abort();
        let _ = doomed.await;
        // Others are answered meanwhile.
        assert_eq!(sessions(&server.url, era, 10, 50).await, 500, "{era}");
        fds_settle(
            server.pid,
            fd_baseline,
            &format!("{era}: after 200 dropped connections"),
        )
        .await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = rss_kb(server.pid);
    assert!(
        after < baseline + RSS_SLACK_KB,
        "rss {after} kB after the dropped connections, baseline {baseline} kB"
    );
}
