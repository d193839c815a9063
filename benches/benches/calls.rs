//! The mcp-test bench suite, side by side in one binary so ratios hold on a noisy machine.
//!
//! Run it with `scripts/bench` (which also builds the cold-start test binary and prints the
//! table of medians and ratios), or `cargo bench -p mcp-test-benches --bench calls`.
//!
//! `MCP_BENCH_PROFILE=<workload>:<n>` runs one workload `n` times and exits, without criterion,
//! for `valgrind --tool=callgrind` (see `scripts/bench --callgrind`).

use criterion::{BenchmarkId, Criterion, criterion_group};
use mcp_test::cases::{CaseOptions, derive_for_tools};
use mcp_test_benches::rmcp_side::{self, Lifecycle};
use mcp_test_benches::*;
use serde_json::Value;
use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

/// One call shape: the request body, the rmcp tool name with its arguments, and the text the
/// call answers.
struct Shape {
    id: &'static str,
    body: Value,
    tool: &'static str,
    arguments: Value,
    text: &'static str,
}

fn shapes() -> [Shape; 2] {
    [
        Shape {
            id: "add",
            body: add_request(),
            tool: "add",
            arguments: add_arguments(),
            text: ADD_TEXT,
        },
        Shape {
            id: "records",
            body: records_request(),
            tool: "records",
            arguments: records_arguments(),
            text: RECORDS_TEXT,
        },
    ]
}

/// The serde_json floor: decode and encode the request and the response as `Value`.
fn floor_full(request: &str, response: &str) -> (String, String) {
    let request: Value = serde_json::from_str(request).expect("JSON");
    let response: Value = serde_json::from_str(response).expect("JSON");
    (
        serde_json::to_string(&request).expect("encodes"),
        serde_json::to_string(&response).expect("encodes"),
    )
}

/// The server side of the floor: decode the request, encode the (already built) response.
fn floor_server(request: &str, response: &Value) -> (Value, String) {
    let request: Value = serde_json::from_str(request).expect("JSON");
    (request, serde_json::to_string(response).expect("encodes"))
}

fn calls(c: &mut Criterion) {
    let rt = runtime();
    let server = server();
    let app = http_router(server.clone());
    let discover = rt.block_on(rmcp_side::connect(Lifecycle::Discover));
    let initialize = rt.block_on(rmcp_side::connect(Lifecycle::Initialize));
    for shape in shapes() {
        let mut group = c.benchmark_group(format!("call/{}", shape.id));
        let text = shape.body.to_string();
        let response = rt.block_on(call_text(&server, &text));
        let response_value: Value = serde_json::from_str(&response).expect("JSON");
        group.bench_function("mcp-test in-process", |b| {
            b.iter(|| rt.block_on(call_text(&server, black_box(&text))));
        });
        group.bench_function("mcp-test HTTP router", |b| {
            b.iter(|| rt.block_on(http_call(&app, &shape.body, black_box(&text))));
        });
        let params = rmcp_side::call_params(shape.tool, shape.arguments.clone());
        for (id, client) in [
            ("rmcp duplex discover", &discover),
            ("rmcp duplex initialize", &initialize),
        ] {
            group.bench_function(id, |b| {
                b.iter(|| rt.block_on(rmcp_side::call(client, black_box(params.clone()))));
            });
        }
        group.bench_function("serde_json floor", |b| {
            b.iter(|| floor_full(black_box(&text), black_box(&response)));
        });
        group.bench_function("serde_json floor server side", |b| {
            b.iter(|| floor_server(black_box(&text), black_box(&response_value)));
        });
        group.finish();
    }
}

/// What one step of a test costs: `TestContext::call_tool` plus `assert_tool_text!`, next to
/// rmcp's client `call_tool` over a duplex pipe with the same check (the pattern of rmcp's own
/// tests), and the bare `handle_json` the context sits on; then the two-round call through
/// `call_tool_rounds`.
fn test_surface(c: &mut Criterion) {
    let rt = runtime();
    let server = server();
    let mcp = test_context(&server);
    let rmcp = rt.block_on(rmcp_side::connect(Lifecycle::Discover));
    for shape in shapes() {
        let mut group = c.benchmark_group(format!("test/{}", shape.id));
        let text = shape.body.to_string();
        group.bench_function("TestContext call_tool + assert_tool_text!", |b| {
            b.iter(|| {
                rt.block_on(surface_call(
                    &mcp,
                    shape.tool,
                    black_box(shape.arguments.clone()),
                    shape.text,
                ))
            });
        });
        let params = rmcp_side::call_params(shape.tool, shape.arguments.clone());
        group.bench_function("rmcp client call_tool + assert_eq!", |b| {
            b.iter(|| {
                let result = rt.block_on(rmcp_side::call(&rmcp, black_box(params.clone())));
                assert_eq!(rmcp_side::text(&result), Some(shape.text));
            });
        });
        group.bench_function("handle_json", |b| {
            b.iter(|| rt.block_on(call_text(&server, black_box(&text))));
        });
        group.finish();
    }
    let mut group = c.benchmark_group("test/greet");
    group.bench_function("TestContext call_tool_rounds two rounds", |b| {
        b.iter(|| rt.block_on(surface_two_rounds(&mcp)));
    });
    group.finish();
}

fn multi_round(c: &mut Criterion) {
    let rt = runtime();
    let server = server();
    let first = greet_request().to_string();
    let mut group = c.benchmark_group("multi_round");
    group.bench_function("greet two rounds", |b| {
        b.iter(|| rt.block_on(two_round_call(&server, black_box(&first))));
    });
    group.finish();
}

fn cold_start(c: &mut Criterion) {
    let rt = runtime();
    let first = fifty_first_request().to_string();
    let mut group = c.benchmark_group("cold_start");
    group.sample_size(20);
    group.bench_function("50 tools build + first call", |b| {
        b.iter(|| {
            rt.block_on(async {
                let server = fifty_tool_server();
                call_text(&server, black_box(&first)).await
            })
        });
    });
    // The test binary is built by `scripts/bench` (`cargo test --no-run`), which passes its path.
    if let Ok(binary) = std::env::var("MCP_TEST_ONE_TEST_BIN") {
        group.sample_size(10);
        for test in ["adds", "fifty_tools_first_call"] {
            group.bench_with_input(BenchmarkId::new("process", test), test, |b, test| {
                b.iter(|| {
                    let out = Command::new(&binary)
                        .args([test, "--exact", "--test-threads=1"])
                        .output()
                        .expect("the test binary runs");
                    assert!(out.status.success(), "{out:?}");
                });
            });
        }
    } else {
        eprintln!("MCP_TEST_ONE_TEST_BIN unset: skipping cold_start/process (run scripts/bench)");
    }
    group.finish();
}

fn case_generation(c: &mut Criterion) {
    let tools = thousand_tools();
    let options = CaseOptions::default();
    let mut group = c.benchmark_group("cases");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("1000 tools", |b| {
        b.iter(|| derive_for_tools(black_box(&tools), &options));
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = calls, test_surface, multi_round, cold_start, case_generation
}

/// Runs one workload `n` times (for callgrind): `MCP_BENCH_PROFILE=<workload>:<n>`.
fn profile(spec: &str) {
    let (workload, n) = spec
        .split_once(':')
        .and_then(|(w, n)| Some((w, n.parse::<usize>().ok()?)))
        .unwrap_or_else(|| panic!("MCP_BENCH_PROFILE must be <workload>:<n>, got {spec:?}"));
    let rt = runtime();
    let server = server();
    let (body, tool, arguments) = if workload.ends_with("records") {
        (records_request(), "records", records_arguments())
    } else {
        (add_request(), "add", add_arguments())
    };
    let text = body.to_string();
    let response = rt.block_on(call_text(&server, &text));
    match workload {
        "in-process-add" | "in-process-records" => {
            for _ in 0..n {
                black_box(rt.block_on(call_text(&server, black_box(&text))));
            }
        }
        "http-add" | "http-records" => {
            let app = http_router(server.clone());
            for _ in 0..n {
                black_box(rt.block_on(http_call(&app, &body, black_box(&text))));
            }
        }
        "rmcp-add" | "rmcp-records" => {
            let client = rt.block_on(rmcp_side::connect(Lifecycle::Discover));
            let params = rmcp_side::call_params(tool, arguments);
            for _ in 0..n {
                black_box(rt.block_on(rmcp_side::call(&client, params.clone())));
            }
        }
        "floor-add" | "floor-records" => {
            for _ in 0..n {
                black_box(floor_full(black_box(&text), black_box(&response)));
            }
        }
        "surface-add" | "surface-records" => {
            let mcp = test_context(&server);
            let expected = if tool == "add" {
                ADD_TEXT
            } else {
                RECORDS_TEXT
            };
            for _ in 0..n {
                rt.block_on(surface_call(&mcp, tool, arguments.clone(), expected));
            }
        }
        "surface-two-rounds" => {
            let mcp = test_context(&server);
            for _ in 0..n {
                rt.block_on(surface_two_rounds(&mcp));
            }
        }
        "multi-round" => {
            let first = greet_request().to_string();
            for _ in 0..n {
                black_box(rt.block_on(two_round_call(&server, &first)));
            }
        }
        "cold-start" => {
            let first = fifty_first_request().to_string();
            for _ in 0..n {
                black_box(rt.block_on(async { call_text(&fifty_tool_server(), &first).await }));
            }
        }
        "cases" => {
            let tools = thousand_tools();
            for _ in 0..n {
                black_box(derive_for_tools(&tools, &CaseOptions::default()));
            }
        }
        other => panic!("unknown workload {other:?}"),
    }
}

fn main() {
    if let Ok(spec) = std::env::var("MCP_BENCH_PROFILE") {
        profile(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
