//! AI-suggested cases against a small OpenAI-compatible server each test starts on 127.0.0.1:
//! JSON mode and its retry, batching, truncation, validation, the cache, and the CLI's
//! fallback and `--require-ai`.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mcp_test::cases::Expectation;
use mcp_test::transport::http::bind_local;
use mcp_test_check::ai::{AiOptions, MAX_DESCRIPTION_CHARS, suggest};
use mcp_test_check::example_server;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-test");

#[derive(Default)]
struct Model {
    /// Reject `response_format` with a 400, as some gateways do.
    no_json_mode: bool,
    /// Every request body received.
    requests: Mutex<Vec<Value>>,
}

async fn completions(State(model): State<Arc<Model>>, body: String) -> Response {
    let request: Value = serde_json::from_str(&body).unwrap();
    model.requests.lock().unwrap().push(request.clone());
    if model.no_json_mode && request.get("response_format").is_some() {
        let error = json!({"error": {"message": "Unrecognized request argument: response_format"}});
        return (StatusCode::BAD_REQUEST, error.to_string()).into_response();
    }
    let tools: Value =
        serde_json::from_str(request["messages"][1]["content"].as_str().unwrap()).unwrap();
    let first = tools["tools"][0]["name"].as_str().unwrap().to_owned();
    let cases = json!({"cases": [
        {"tool": "search_notes", "title": "finds a note by a word of its body",
         "args": {"query": "pears"}, "expectation": "success",
         "rationale": "realistic query"},
        {"tool": "search_notes", "title": "a limit of zero",
         "args": {"query": "x", "limit": 0}, "expectation": "success",
         "rationale": "hallucinated: the schema says minimum 1"},
        {"tool": "no_such_tool", "title": "made up", "args": {}, "expectation": "success",
         "rationale": "hallucinated tool"},
        {"tool": "notes", "title": "gets a note that does not exist",
         "args": {"action": "get", "data": {"id": "n-999"}}, "expectation": "error",
         "rationale": "valid arguments, but no such note"},
        {"tool": first, "title": "not an object", "args": "oops", "expectation": "success",
         "rationale": "arguments must be an object"},
    ]});
    // Without JSON mode the model wraps its answer in a fence.
    let content = if request.get("response_format").is_some() {
        cases.to_string()
    } else {
        format!("```json\n{cases}\n```")
    };
    let reply = json!({"id": "cmpl-1", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]});
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        reply.to_string(),
    )
        .into_response()
}

async fn start(model: Model) -> (String, Arc<Model>) {
    let model = Arc::new(model);
    let listener = bind_local(0).await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let app = Router::new()
        .route("/v1/chat/completions", axum::routing::post(completions))
        .with_state(model.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, model)
}

fn example_tools() -> Vec<Value> {
    example_server()
        .tool_definitions()
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("ai-cache")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn suggestions_are_validated_and_the_dropped_are_counted() {
    let (base, model) = start(Model::default()).await;
    let options = AiOptions::new(&base, "test-model");
    let got = suggest(&options, "example", &example_tools())
        .await
        .unwrap();
    assert_eq!((got.proposed, got.dropped, got.requests), (5, 3, 1));
    let titles: Vec<&str> = got.cases.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "finds a note by a word of its body",
            "gets a note that does not exist"
        ]
    );
    assert!(got.cases.iter().all(|c| c.source == "ai:test-model"));
    assert_eq!(got.cases[1].expectation, Expectation::Error);
    // Strict JSON mode, the system prompt asking for data only, and no key for localhost.
    let request = model.requests.lock().unwrap()[0].clone();
    assert_eq!(request["response_format"], json!({"type": "json_object"}));
    assert_eq!(request["model"], "test-model");
    assert!(
        request["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("Never write code")
    );
    // The kept cases behave as predicted against the server.
    let report = mcp_test::cases::verify(&example_server(), &got.cases).await;
    assert!(report.all_agree(), "{report}");
}

#[tokio::test]
async fn a_400_naming_response_format_is_retried_without_it() {
    let (base, model) = start(Model {
        no_json_mode: true,
        ..Model::default()
    })
    .await;
    let got = suggest(&AiOptions::new(&base, "m"), "example", &example_tools())
        .await
        .unwrap();
    assert_eq!(got.cases.len(), 2, "the fenced answer parses too");
    let requests = model.requests.lock().unwrap();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].get("response_format").is_some());
    assert!(requests[1].get("response_format").is_none());
}

#[tokio::test]
async fn at_most_40_tools_per_request_with_truncated_descriptions() {
    let (base, model) = start(Model::default()).await;
    let mut tools = example_tools();
    for i in 0..43 {
        tools.push(
            json!({"name": format!("tool_{i:02}"), "description": "d".repeat(1000),
                          "inputSchema": {"type": "object"}}),
        );
    }
    let got = suggest(&AiOptions::new(&base, "m"), "many", &tools)
        .await
        .unwrap();
    assert_eq!(got.requests, 2);
    let requests = model.requests.lock().unwrap();
    let sent: Vec<Value> = requests
        .iter()
        .map(|r| serde_json::from_str(r["messages"][1]["content"].as_str().unwrap()).unwrap())
        .collect();
    let sizes: Vec<usize> = sent
        .iter()
        .map(|s| s["tools"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [40, 5]);
    let long = sent[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "tool_00")
        .unwrap();
    assert_eq!(
        long["description"].as_str().unwrap().chars().count(),
        MAX_DESCRIPTION_CHARS + 1,
        "cut, plus an ellipsis"
    );
}

#[tokio::test]
async fn responses_are_cached_by_model_label_and_tool_set() {
    let (base, model) = start(Model::default()).await;
    let dir = scratch("cache");
    let options = AiOptions::new(&base, "m").cache_dir(Some(dir.clone()));
    let tools = example_tools();
    let first = suggest(&options, "example", &tools).await.unwrap();
    let again = suggest(&options, "example", &tools).await.unwrap();
    assert_eq!((again.requests, again.cache_hits), (0, 1));
    assert_eq!(again.cases, first.cases);
    // The cache file names the model and the label.
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let cached: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(
        (cached["model"].as_str(), cached["serverLabel"].as_str()),
        (Some("m"), Some("example"))
    );
    // Another label, model or tool set misses.
    assert_eq!(
        suggest(&options, "other", &tools).await.unwrap().requests,
        1
    );
    let other_model = AiOptions::new(&base, "m2").cache_dir(Some(dir.clone()));
    assert_eq!(
        suggest(&other_model, "example", &tools)
            .await
            .unwrap()
            .requests,
        1
    );
    assert_eq!(
        suggest(&options, "example", &tools[..1])
            .await
            .unwrap()
            .requests,
        1
    );
    // A maximum age of zero ignores the cache.
    let fresh = options.clone().cache_max_age(Some(Duration::ZERO));
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(
        suggest(&fresh, "example", &tools).await.unwrap().requests,
        1
    );
    assert_eq!(model.requests.lock().unwrap().len(), 5);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn errors_name_the_endpoint() {
    let (base, _) = start(Model::default()).await;
    let err = suggest(
        &AiOptions::new(format!("{base}/nope"), "m"),
        "x",
        &example_tools(),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("/v1/nope/chat/completions answered HTTP 404"),
        "{err}"
    );
    let err = suggest(
        &AiOptions::new("https://127.0.0.1:1/v1", "m"),
        "x",
        &example_tools(),
    )
    .await
    .unwrap_err();
    // https:// is spoken (feature `tls`): nobody listens there, and the error names the URL.
    assert!(
        err.to_string()
            .contains("POST https://127.0.0.1:1/v1/chat/completions"),
        "{err}"
    );
}

async fn generate(args: &[&str], out: &std::path::Path) -> (i32, String) {
    generate_in(std::path::Path::new("."), args, out).await
}

/// `generate` run in `cwd`, where the default cache directory would be.
async fn generate_in(cwd: &std::path::Path, args: &[&str], out: &std::path::Path) -> (i32, String) {
    let output = tokio::process::Command::new(BIN)
        .current_dir(cwd)
        .arg("generate")
        .args(args)
        .arg("-o")
        .arg(out)
        .env_remove("MCP_TEST_AI_BASE_URL")
        .env_remove("MCP_TEST_AI_MODEL")
        .env_remove("MCP_TEST_AI_API_KEY")
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_cli_falls_back_without_configuration_and_fails_with_require_ai() {
    let dir = scratch("cli-fallback");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("generated.rs");
    let (status, stderr) = generate(&["--ai-generate"], &out).await;
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stderr.contains("AI generation is not configured"),
        "{stderr}"
    );
    assert!(stderr.contains("using the rules engine only"), "{stderr}");
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("rule:bounds")
    );

    let (status, stderr) = generate(&["--ai-generate", "--require-ai"], &out).await;
    assert_eq!(status, 1, "{stderr}");
    assert!(
        stderr.contains("--require-ai: AI generation is not configured"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_cli_adds_validated_ai_cases() {
    let (base, _) = start(Model::default()).await;
    let dir = scratch("cli-ai");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("generated.rs");
    let cache = dir.join("cache");
    let (status, stderr) = generate(
        &[
            "--ai-generate",
            "--require-ai",
            "--verify",
            "--ai-base-url",
            &base,
            "--ai-model",
            "tiny",
            "--ai-cache-dir",
            cache.to_str().unwrap(),
        ],
        &out,
    )
    .await;
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stderr.contains("AI suggested cases: 5, kept after schema validation: 2 (dropped 3)"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("// ai:tiny: realistic query"), "{text}");
    assert!(
        text.contains("async fn notes_gets_a_note_that_does_not_exist()"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn no_ai_cache_neither_reads_nor_writes_the_cache() {
    let (base, model) = start(Model::default()).await;
    let dir = scratch("cli-no-cache");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("generated.rs");
    let args = [
        "--ai-generate",
        "--require-ai",
        "--ai-base-url",
        &base,
        "--ai-model",
        "tiny",
        "--no-ai-cache",
    ];
    for _ in 0..2 {
        let (status, stderr) = generate_in(&dir, &args, &out).await;
        assert_eq!(status, 0, "{stderr}");
    }
    assert_eq!(
        model.requests.lock().unwrap().len(),
        2,
        "without the cache, every run asks the model"
    );
    assert!(
        !dir.join(".mcp-test-cache").exists(),
        "the default cache directory was written"
    );
    // With the default cache the second run is answered from it.
    for _ in 0..2 {
        let (status, stderr) = generate_in(&dir, &args[..6], &out).await;
        assert_eq!(status, 0, "{stderr}");
    }
    assert_eq!(model.requests.lock().unwrap().len(), 3);
    assert!(dir.join(".mcp-test-cache").is_dir());

    let (status, stderr) =
        generate_in(&dir, &[&args[..], &["--ai-cache-dir", "c"]].concat(), &out).await;
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("--no-ai-cache"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A provider of one's own, in process: `generate_tests` asks it with the options' model,
/// `max_tokens` and JSON mode, and the file gets its validated cases.
#[tokio::test]
async fn generate_tests_asks_a_provider_of_ones_own() {
    use mcp_test_check::ai::{AiProvider, AiRequest};
    use mcp_test_check::generate::{AiGenerate, GenerateConfig, ServerSource, generate_tests};
    let seen: Arc<Mutex<Vec<AiRequest>>> = Arc::default();
    let log = seen.clone();
    let stub = move |request: &AiRequest| {
        log.lock().unwrap().push(request.clone());
        Ok(json!({"cases": [
            {"tool": "search_notes", "title": "finds pears", "args": {"query": "pears"},
             "expectation": "success", "rationale": "stubbed"},
            {"tool": "search_notes", "title": "limit zero", "args": {"query": "x", "limit": 0},
             "expectation": "success", "rationale": "dropped: the schema says minimum 1"},
        ]})
        .to_string())
    };
    let provider: Arc<dyn AiProvider> = Arc::new(stub);
    let options = AiOptions::new("unused://", "stub-model")
        .cache_dir(None)
        .max_tokens(321)
        .strict_json(false);
    let mut config = GenerateConfig::new(ServerSource::Example, "example");
    config.verify = true;
    config.ai = Some(AiGenerate::new(options).provider(provider).required(true));
    let mut steps = Vec::new();
    let generated = generate_tests(&example_server(), &config, &mut |s| {
        steps.push(s.to_owned())
    })
    .await
    .unwrap();
    let suggested = generated.suggested.as_ref().unwrap();
    assert_eq!((suggested.proposed, suggested.dropped), (2, 1));
    assert!(
        generated.text.contains("// ai:stub-model: stubbed"),
        "{}",
        generated.text
    );
    assert_eq!(generated.disagreements, Some(0));
    assert!(steps.iter().any(|s| s.contains("model")), "{steps:?}");
    let requests = seen.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        (request.model.as_str(), request.max_tokens, request.json),
        ("stub-model", 321, false)
    );
    assert!(request.user.contains("search_notes"), "{}", request.user);

    // A provider that fails, required: the error is the provider's.
    let failing = |_: &AiRequest| {
        Err(mcp_test_check::ai::AiError::Provider {
            provider: "stub".into(),
            message: "quota exceeded".into(),
        })
    };
    let mut config = GenerateConfig::new(ServerSource::Example, "example");
    config.ai = Some(
        AiGenerate::new(AiOptions::new("unused://", "m").cache_dir(None))
            .provider(Arc::new(failing))
            .required(true),
    );
    let err = generate_tests(&example_server(), &config, &mut |_| {})
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "--require-ai: stub: quota exceeded");
}

/// `--ai-timeout` bounds the wait for a model that never answers.
#[tokio::test]
async fn the_cli_gives_up_on_a_silent_model_after_ai_timeout() {
    let listener = bind_local(0).await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let app = Router::new().route(
        "/v1/chat/completions",
        axum::routing::post(std::future::pending::<String>),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    let dir = scratch("cli-timeout");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("generated.rs");
    let (status, stderr) = generate(
        &[
            "--ai-generate",
            "--require-ai",
            "--no-ai-cache",
            "--ai-base-url",
            &base,
            "--ai-timeout",
            "1",
        ],
        &out,
    )
    .await;
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("within 1s"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}
