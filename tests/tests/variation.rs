//! `check` tested by the space of servers, not by examples.
//!
//! Legal variation: the variant server (`src/bin/variant_server.rs`) draws every choice the
//! spec leaves open from a seed; on every seed, over stdio and over Streamable HTTP, `check`
//! must report no defect and no warning. A failing seed replays alone:
//! `VARIANT_SEED=1234 cargo test -p mcp-test-downstream --test variation`; `VARIANT_SEEDS`
//! sets how many seeds run (`N`, or `N:M` for N stdio and M HTTP seeds).
//!
//! Mutants: the same server with exactly one response changed at a place the official schema
//! or a clause constrains (`variant::mutants`); a mutant is killed when a defect or warning
//! names the place (its field, pointer or method) and quotes a clause. The kill rate is
//! printed, and held above a floor (`BENCHMARKS.md`, "Mutant kill rate").
//!
//! `check` runs through the checker's library, with the options `mcp-test check` gives
//! (another connection for the other era and for the probes that must not spoil the session):
//! cargo names the `mcp-test` binary (`CARGO_BIN_EXE_mcp-test`) only to the tests of the
//! package that builds it, `mcp-test-check`, not to this one.

use futures_util::StreamExt;
use mcp_test::cases::{Connected, Era};
use mcp_test::client::Client;
use mcp_test::target::TargetError;
use mcp_test_check::{CheckOptions, CheckReport, Finding, Reconnect, Severity, check_connected};
use mcp_test_downstream::variant::mutants::{Kind, Mutation, mutations};
use mcp_test_downstream::variant::{
    Eras, HttpReply, HttpState, LegacyWord, Reader, SessionId, SseStyle, Variant,
};
use std::collections::BTreeSet;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

const FIXTURE: &str = env!("CARGO_BIN_EXE_variant_server");

/// Stdio seeds are `0..`, HTTP seeds `HTTP_BASE..`, so the two sets never share a server.
const HTTP_BASE: u64 = 1000;
const STDIO_SEEDS: u64 = 25;
const HTTP_SEEDS: u64 = 13;

/// The seeds to run: `(stdio, http)`.
fn seeds() -> (Vec<u64>, Vec<u64>) {
    if let Ok(seed) = std::env::var("VARIANT_SEED") {
        let seed: u64 = seed.trim().parse().expect("VARIANT_SEED is a number");
        return if seed >= HTTP_BASE {
            (vec![], vec![seed])
        } else {
            (vec![seed], vec![])
        };
    }
    let (stdio, http) = match std::env::var("VARIANT_SEEDS") {
        Ok(text) => match text.split_once(':') {
            Some((s, h)) => (
                s.trim().parse().expect("VARIANT_SEEDS is N or N:M"),
                h.trim().parse().expect("VARIANT_SEEDS is N or N:M"),
            ),
            None => {
                let n: u64 = text.trim().parse().expect("VARIANT_SEEDS is N or N:M");
                (n, n.div_ceil(2))
            }
        },
        Err(_) => (STDIO_SEEDS, HTTP_SEEDS),
    };
    (
        (0..stdio).collect(),
        (HTTP_BASE..HTTP_BASE + http).collect(),
    )
}

fn options() -> CheckOptions {
    CheckOptions::default()
        .timeout(Duration::from_secs(10))
        .deadline(Some(Duration::from_secs(90)))
        .close_grace(Duration::from_secs(2))
        // The fixture's tools answer at once; under a loaded machine a case time could only
        // add notes a correct server must not have.
        .case_time(None)
}

fn command(args: &[String]) -> Command {
    let mut command = Command::new(FIXTURE);
    command.args(args).kill_on_drop(true);
    command
}

/// `check` of the fixture started with `args` over stdio, as `mcp-test check -- FIXTURE ARGS`
/// does (a process of its own for each further connection); with what it wrote to stderr.
async fn over_stdio(args: Vec<String>) -> (CheckReport, String) {
    match try_stdio(args).await {
        Ok(checked) => checked,
        Err(e) => panic!("the fixture answers: {e}"),
    }
}

/// [`over_stdio`], with the error of a connection that failed.
async fn try_stdio(args: Vec<String>) -> Result<(CheckReport, String), TargetError> {
    let client = Client::spawn(command(&args)).await?;
    let connected = Connected::connect(client.clone(), "variant_server", None).await?;
    let again = args.clone();
    let reconnect = Reconnect::new(move |era: Era| {
        let args = again.clone();
        async move {
            let client = Client::spawn(command(&args)).await?;
            Connected::connect(client, "variant_server", Some(era)).await
        }
    });
    let report = check_connected(&connected, &options().reconnect(Some(reconnect))).await;
    Ok((report, client.stderr()))
}

/// `check` of the fixture over Streamable HTTP on a port of 127.0.0.1 it picks, as
/// `mcp-test check URL` does.
async fn over_http(args: Vec<String>) -> (CheckReport, String) {
    let mut command = command(&args);
    command.args(["--http", "127.0.0.1:0"]);
    command.stderr(Stdio::piped()).stdout(Stdio::null());
    let mut child = command.spawn().expect("the fixture starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("piped")).lines();
    let log = Arc::new(Mutex::new(String::new()));
    let address = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = stderr.next_line().await.expect("stderr reads") {
            if let Some(address) = line.strip_prefix("listening on ") {
                return address.to_owned();
            }
            log.lock().unwrap().push_str(&format!("{line}\n"));
        }
        panic!("the fixture exited before listening");
    })
    .await
    .expect("the fixture listens within 20 s");
    // Read on, so its chatter never fills the pipe.
    let drain = {
        let log = log.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = stderr.next_line().await {
                log.lock().unwrap().push_str(&format!("{line}\n"));
            }
        })
    };
    let url = format!("http://{address}/mcp");
    let connected = Connected::connect(
        Client::http(&url).expect("a valid URL"),
        "variant_server over HTTP",
        None,
    )
    .await
    .expect("the fixture answers");
    let again = url.clone();
    let reconnect = Reconnect::new(move |era: Era| {
        let url = again.clone();
        async move {
            let client = Client::http(&url).map_err(TargetError::Client)?;
            Connected::connect(client, "variant_server over HTTP", Some(era)).await
        }
    });
    let report = check_connected(&connected, &options().reconnect(Some(reconnect))).await;
    drop(child);
    drain.abort();
    let log = log.lock().unwrap().clone();
    (report, log)
}

fn seed_args(seed: u64) -> Vec<String> {
    vec!["--seed".into(), seed.to_string()]
}

fn bad(f: &Finding) -> bool {
    f.severity != Severity::Info
}

fn describe(f: &Finding) -> String {
    format!(
        "[{:?}] {} ({}; {}{}): {}",
        f.severity,
        f.probe,
        f.clause.map_or("no clause", |c| c.id),
        f.era.map_or("era ?".to_owned(), |e| format!("era {e}")),
        f.request
            .as_ref()
            .map_or(String::new(), |r| format!("; {r}")),
        f.message
    )
}

/// What a seed's report must say of eras, beyond having no defect and no warning: the eras
/// checked are those the variant serves, a 2025-11-25 server is probed by no 2026-07-28 rule,
/// and one that named its versions in a 2026-07-28 answer has the report say so.
fn era_faults(variant: &Variant, report: &CheckReport) -> Vec<String> {
    let served = match variant.eras {
        Eras::Current => vec![Era::Current],
        Eras::Legacy => vec![Era::Legacy],
        Eras::Both => vec![Era::Current, Era::Legacy],
    };
    let mut faults = Vec::new();
    if report.eras() != served {
        faults.push(format!(
            "eras checked {:?}, the server serves {served:?}",
            report.eras()
        ));
    }
    if variant.eras == Eras::Legacy {
        faults.extend(
            report
                .findings()
                .filter(|f| f.era == Some(Era::Current))
                .map(|f| {
                    format!(
                        "a 2026-07-28 finding on a 2025-11-25 server: {}",
                        describe(f)
                    )
                }),
        );
    }
    if variant.names_its_versions() && report.negotiation.is_none() {
        faults.push("the report does not say the server's versions chose the era".into());
    }
    faults
}

/// One seed's failure, if it has one.
fn judge(transport: &str, seed: u64, report: &CheckReport, stderr: &str) -> Option<String> {
    let mut offending: Vec<String> = report.findings().filter(|f| bad(f)).map(describe).collect();
    offending.extend(era_faults(&Variant::draw(seed), report));
    if offending.is_empty() && report.incomplete.is_none() {
        return None;
    }
    let draws: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("variant: "))
        .collect();
    Some(format!(
        "seed {seed} over {transport} (replay: VARIANT_SEED={seed} cargo test -p mcp-test-downstream --test variation)\n  draws: {}\n  stderr draws: {}\n  incomplete: {:?}\n  {}",
        Variant::draw(seed).summary(),
        draws.join(" | "),
        report.incomplete,
        offending.join("\n  ")
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_legal_variant_gets_no_defect_and_no_warning() {
    let (stdio, http) = seeds();
    let started = Instant::now();
    let runs: Vec<(&str, u64)> = stdio
        .iter()
        .map(|s| ("stdio", *s))
        .chain(http.iter().map(|s| ("http", *s)))
        .collect();
    let total = runs.len();
    assert!(
        total > 0,
        "no seed to run (VARIANT_SEEDS / VARIANT_SEED chose none): a run on nothing tests nothing"
    );
    let failures: Vec<String> = futures_util::stream::iter(runs)
        .map(|(transport, seed)| async move {
            let began = Instant::now();
            let (report, stderr) = match transport {
                "stdio" => over_stdio(seed_args(seed)).await,
                _ => over_http(seed_args(seed)).await,
            };
            let verdict = judge(transport, seed, &report, &stderr);
            println!(
                "variant seed {seed} over {transport}: {} in {:.1} s ({})",
                if verdict.is_none() { "clean" } else { "FAILED" },
                began.elapsed().as_secs_f64(),
                Variant::draw(seed).summary()
            );
            verdict
        })
        .buffer_unordered(6)
        .filter_map(|d| async move { d })
        .collect()
        .await;
    println!(
        "variation: {total} seeds ({} stdio, {} HTTP) in {:.1} s",
        stdio.len(),
        http.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {total} variants got defects or warnings:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every value of every axis is drawn by at least one of the default seeds; the axes only
/// one transport shows, by a seed of that transport.
#[test]
fn every_axis_value_is_drawn_by_some_default_seed() {
    let stdio: Vec<Variant> = (0..STDIO_SEEDS).map(Variant::draw).collect();
    let http: Vec<Variant> = (HTTP_BASE..HTTP_BASE + HTTP_SEEDS)
        .map(Variant::draw)
        .collect();
    let http_only = [
        HttpReply::AXIS,
        SseStyle::AXIS,
        HttpState::AXIS,
        SessionId::AXIS,
    ];
    let mut missing = Vec::new();
    // How a 2025-11-25 server refuses a 2026-07-28 request shows only on such a server, and
    // differs by transport (a -32022 over stdio, a 400 over HTTP): each value on each.
    for (transport, pool) in [("stdio", &stdio), ("http", &http)] {
        let drawn: BTreeSet<String> = pool
            .iter()
            .filter(|v| v.eras == Eras::Legacy)
            .map(|v| v.legacy_word.to_string())
            .collect();
        for value in LegacyWord::ALL {
            if !drawn.contains(&value.to_string()) {
                missing.push(format!("{}={value} over {transport}", LegacyWord::AXIS));
            }
        }
    }
    for (axis, values) in Variant::every_axis_value() {
        let pool: Vec<&Variant> = if axis == Reader::AXIS {
            stdio.iter().collect()
        } else if http_only.contains(&axis) {
            http.iter().collect()
        } else {
            stdio.iter().chain(http.iter()).collect()
        };
        let drawn: BTreeSet<String> = pool
            .iter()
            .flat_map(|v| v.draws())
            .filter(|(a, _)| *a == axis)
            .map(|(_, value)| value)
            .collect();
        for value in values {
            if !drawn.contains(&value) {
                missing.push(format!("{axis}={value}"));
            }
        }
    }
    assert!(missing.is_empty(), "never drawn: {}", missing.join(", "));
}

/// Whether a finding names the mutated place and quotes a clause.
fn kills(mutation: &Mutation, f: &Finding) -> bool {
    if !bad(f) || f.clause.is_none() {
        return false;
    }
    let message = &f.message;
    let names_field = match mutation.kind {
        Kind::DropRequired | Kind::WrongType => {
            let field = mutation.field();
            let inner = mutation.pointer.trim_start_matches("/result");
            message.contains(&format!("`{field}`"))
                || message.contains(&format!("\"{field}\""))
                || message.contains(&format!("'{field}'"))
                || message.contains(&format!(" {field} "))
                || message.contains(&format!("{field}:"))
                || message.contains(inner)
                || message.contains(&format!("/{field}"))
        }
        Kind::WrongId => message.contains("id"),
        Kind::WrongJsonrpc => message.contains("jsonrpc"),
        Kind::ErrorCode => message.contains("-326") || message.contains("code"),
    };
    let names_method = message.contains(&mutation.method)
        || f.request
            .as_ref()
            .is_some_and(|r| r.method == mutation.method);
    names_field || (names_method && !matches!(mutation.kind, Kind::ErrorCode))
}

/// The mutants to run: all, or `VARIANT_MUTANTS` (a number) of them spread over the list.
fn mutant_indices(len: usize) -> Vec<usize> {
    match std::env::var("VARIANT_MUTANTS") {
        Ok(n) => {
            let n: usize = n.trim().parse().expect("VARIANT_MUTANTS is a number");
            let n = n.clamp(1, len);
            (0..n).map(|i| i * len / n).collect()
        }
        Err(_) => (0..len).collect(),
    }
}

/// What became of one mutant.
struct Outcome {
    index: usize,
    mutation: Mutation,
    /// The fixture changed a response (a check that never asks for the place cannot).
    applied: bool,
    killed_by: Option<String>,
}

/// The kill rate measured (in `BENCHMARKS.md`), less a margin: applied mutants killed.
const KILL_RATE_FLOOR: f64 = 0.93;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutants_of_one_response_are_killed() {
    let all = mutations();
    let started = Instant::now();
    let outcomes: Vec<Outcome> = futures_util::stream::iter(mutant_indices(all.len()))
        .map(|index| {
            let mutation = all[index].clone();
            async move {
                let args = vec!["--mutate".to_owned(), index.to_string()];
                let (applied, killed_by) = match try_stdio(args).await {
                    Ok((report, stderr)) => (
                        match stderr.lines().find(|l| l.starts_with("variant: mutated ")) {
                            Some(line) => {
                                println!("mutant {index}: {line}");
                                true
                            }
                            None => false,
                        },
                        report
                            .findings()
                            .find(|f| kills(&mutation, f))
                            .map(describe),
                    ),
                    // The client itself refused the response: killed if it said where.
                    Err(e) => {
                        let e = e.to_string();
                        let named = e.contains(mutation.field()) || e.contains(&mutation.method);
                        (true, named.then(|| format!("the connection's error: {e}")))
                    }
                };
                Outcome {
                    index,
                    mutation,
                    applied,
                    killed_by,
                }
            }
        })
        .buffer_unordered(6)
        .collect()
        .await;
    let mut outcomes = outcomes;
    outcomes.sort_by_key(|o| o.index);
    let applied: Vec<&Outcome> = outcomes.iter().filter(|o| o.applied).collect();
    let killed = applied.iter().filter(|o| o.killed_by.is_some()).count();
    for o in &outcomes {
        println!(
            "mutant {:3} {:<60} {}",
            o.index,
            o.mutation.describe(),
            match (&o.killed_by, o.applied) {
                (_, false) => "not applied (no check request reached the place)".to_owned(),
                (Some(by), true) => format!("killed by {by}"),
                (None, true) => "SURVIVED".to_owned(),
            }
        );
    }
    let rate = killed as f64 / applied.len().max(1) as f64;
    println!(
        "mutant kill rate: {killed}/{} applied mutants killed ({:.1}%); {} of {} mutants applied; {:.1} s",
        applied.len(),
        rate * 100.0,
        applied.len(),
        outcomes.len(),
        started.elapsed().as_secs_f64()
    );
    if std::env::var("VARIANT_MUTANTS").is_err() {
        for kind in Kind::ALL {
            assert!(
                applied.iter().any(|o| o.mutation.kind == kind),
                "no {} mutant was applied",
                kind.name()
            );
        }
    }
    assert!(
        rate >= KILL_RATE_FLOOR,
        "kill rate {:.1}% below the floor {:.1}%",
        rate * 100.0,
        KILL_RATE_FLOOR * 100.0
    );
}
