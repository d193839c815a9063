//! Session cassettes as a downstream crate uses them: a session with the conformance fixture
//! (a process over stdio) recorded through `mcp_test::cassette::Recorder`, multi-round calls
//! and task polling included, replayed against fresh fixture processes ten times in a row with
//! no difference; a server whose answer changed reported with the exchange, the line and the
//! JSON pointer, its live session written to `.pending` for review and accepted by moving it;
//! and a recorded session served back by `Responder`.

use mcp_test::cassette::{
    Cassette, CassetteError, Recorder, ReplayMode, ReplayOptions, Responder, pending_path, replay,
    replay_with,
};
use mcp_test::client::Client;
use mcp_test::prelude::*;
use mcp_test::target::Target;
use mcp_test::testing::{
    answer_task, call_tool, call_tool_as_task, discover, drive_tool, get_prompt, list_tools,
    poll_task, read_resource, rpc_error, task_id,
};
use std::path::{Path, PathBuf};

/// A directory of this test's own (its name and the process id), empty.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mcp-test-cassettes-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn fixture_process() -> Client {
    Client::spawn(tokio::process::Command::new(env!(
        "CARGO_BIN_EXE_conformance_fixture"
    )))
    .await
    .unwrap()
}

fn opts() -> RequestOptions {
    RequestOptions::new().client_capabilities(json!({"elicitation": {}}))
}

/// The session recorded: discovery, lists, a plain call, a call with progress, a multi-round
/// call (two rounds of `input_required`, each with a new `requestState`), a task polled to
/// its end, a task that asks for input (polled, answered with `tasks/update`, polled again),
/// a resource and a prompt.
async fn session(target: &(impl Target + ?Sized)) {
    discover(target, &opts()).await;
    list_tools(target, &opts()).await;
    assert_tool_text!(
        call_tool(target, "test_simple_text", json!({}), &opts()).await,
        "This is a simple text response for testing."
    );
    call_tool(
        target,
        "test_tool_with_progress",
        json!({}),
        &opts().meta(json!({"progressToken": "p-1"})),
    )
    .await;
    let answers = json!({
        "step1": answer::accept(json!({"name": "Ada"})),
        "step2": answer::accept(json!({"color": "blue"})),
    });
    let (last, rounds) = drive_tool(
        target,
        "test_input_required_result_multi_round",
        json!({}),
        answers,
        &opts(),
    )
    .await;
    assert_eq!(rounds.len(), 2);
    assert_tool_text!(last, "Completed both rounds: name = Ada, color = blue");

    let created = call_tool_as_task(target, "slow_compute", json!({"seconds": 0.2}), &opts()).await;
    let id = task_id(&created).to_owned();
    let done = poll_task(target, &id, &opts()).await;
    assert_eq!(done["result"]["status"], "completed", "{done:#}");

    let created = call_tool_as_task(
        target,
        "confirm_delete",
        json!({"filename": "a.txt"}),
        &opts(),
    )
    .await;
    let id = task_id(&created).to_owned();
    let asking = poll_task(target, &id, &opts()).await;
    assert_eq!(asking["result"]["status"], "input_required", "{asking:#}");
    let answered = answer_task(
        target,
        &id,
        json!({"confirm": answer::accept(json!({"confirm": true}))}),
        &opts(),
    )
    .await;
    assert_eq!(answered["result"]["status"], "completed", "{answered:#}");

    let read = read_resource(target, "test://static-text", &opts()).await;
    assert_eq!(
        read["result"]["contents"][0]["text"],
        "This is the content of the static text resource."
    );
    let prompt = get_prompt(
        target,
        "test_prompt_with_arguments",
        json!({"arg1": "a", "arg2": "b"}),
        &opts(),
    )
    .await;
    assert!(prompt.get("result").is_some(), "{prompt:#}");
}

async fn record_fixture(path: &Path) {
    let client = fixture_process().await;
    let recorder = Recorder::create(client, path).unwrap();
    session(&recorder).await;
    recorder.finish().unwrap();
    recorder.inner().close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fixture_session_replays_ten_times_without_a_difference() {
    let dir = scratch("ten");
    let path = dir.join("fixture.jsonl");
    record_fixture(&path).await;

    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(cassette.header.era.as_deref(), Some("2026-07-28"));
    let methods: Vec<&str> = cassette
        .entries
        .iter()
        .filter_map(|r| r.entry.method())
        .collect();
    // Both rounds of the multi-round call, the polls and the task's answer are lines.
    assert!(
        methods.contains(&"tasks/get") && methods.contains(&"tasks/update"),
        "{methods:?}"
    );
    let rounds = cassette
        .entries
        .iter()
        .filter(|r| {
            r.entry.request.as_ref().unwrap()["params"]["name"]
                == "test_input_required_result_multi_round"
        })
        .count();
    assert_eq!(rounds, 3, "three sends of the multi-round call");
    assert!(
        cassette.entries.iter().any(|r| r
            .entry
            .volatile
            .iter()
            .any(|p| p.ends_with("/requestState"))),
        "requestState is marked volatile"
    );
    let progress = cassette
        .entries
        .iter()
        .find(|r| r.entry.request.as_ref().unwrap()["params"]["name"] == "test_tool_with_progress")
        .unwrap();
    assert!(
        !progress.entry.notifications.is_empty(),
        "the progress notifications are recorded"
    );

    for run in 1..=10 {
        let live = fixture_process().await;
        let replayed = replay_with(
            &live,
            &path,
            &ReplayOptions::new().mode(ReplayMode::Compare),
        )
        .await
        .unwrap_or_else(|e| panic!("replay {run}: {e}"));
        assert_eq!(
            replayed.compared + replayed.polls_skipped,
            methods.len(),
            "replay {run}: {replayed:?}"
        );
        live.close().await.unwrap();
    }
    assert!(!pending_path(&path).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Echoes its text, with a prefix the test chooses: two servers that answer differently.
#[derive(Tool)]
struct Say {
    /// What to say.
    text: String,
}

impl Say {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let prefix = ctx.state::<&'static str>().copied().unwrap_or("");
        Ok(format!("{prefix}{}", self.text))
    }
}

fn saying(prefix: &'static str) -> Server {
    Server::builder("say", "1.0.0")
        .state(prefix)
        .tool::<Say>()
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_changed_answer_is_reported_and_its_pending_session_can_be_accepted() {
    let dir = scratch("changed");
    let path = dir.join("say.jsonl");
    let recorder = Recorder::create(saying("v1: "), &path).unwrap();
    list_tools(&recorder, &opts()).await;
    call_tool(&recorder, "say", json!({"text": "hi"}), &opts()).await;
    recorder.finish().unwrap();

    // The same server: no difference.
    replay(&saying("v1: "), &path).await.unwrap();

    // The answer changed.
    let changed = saying("v2: ");
    let err = replay_with(
        &changed,
        &path,
        &ReplayOptions::new().mode(ReplayMode::Compare),
    )
    .await
    .unwrap_err();
    let CassetteError::Differs {
        differences,
        pending,
        ..
    } = &err
    else {
        panic!("expected a difference, got {err}");
    };
    assert_eq!(differences.len(), 1, "{err}");
    let difference = &differences[0];
    assert_eq!(difference.exchange, 2);
    assert_eq!(difference.line, 3);
    assert_eq!(difference.method, "tools/call");
    assert_eq!(difference.pointer, "/response/result/content/0/text");
    assert_eq!(difference.recorded, Some(json!("v1: hi")));
    assert_eq!(difference.live, Some(json!("v2: hi")));
    let message = err.to_string();
    assert!(
        message.contains("line 3") && message.contains(".pending"),
        "{message}"
    );

    // The panicking form fails the same way.
    let panicked = tokio::spawn({
        let path = path.clone();
        async move { mcp_test::assert_cassette!(saying("v2: "), &path) }
    })
    .await
    .unwrap_err();
    assert!(panicked.is_panic());

    // The live session was written for review; accepting it makes the replay pass.
    let pending = pending.clone().unwrap();
    assert_eq!(pending, pending_path(&path));
    let reviewed = std::fs::read_to_string(&pending).unwrap();
    assert!(reviewed.contains("v2: hi"), "{reviewed}");
    std::fs::rename(&pending, &path).unwrap();
    replay(&changed, &path).await.unwrap();
    assert!(replay(&saying("v1: "), &path).await.is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn overwrite_re_records_the_same_requests() {
    let dir = scratch("overwrite");
    let path = dir.join("say.jsonl");
    let recorder = Recorder::create(saying("old "), &path).unwrap();
    call_tool(&recorder, "say", json!({"text": "x"}), &opts()).await;
    recorder.finish().unwrap();

    let replayed = replay_with(
        &saying("new "),
        &path,
        &ReplayOptions::new().mode(ReplayMode::Overwrite),
    )
    .await
    .unwrap();
    assert!(replayed.overwritten);
    assert!(std::fs::read_to_string(&path).unwrap().contains("new x"));
    replay(&saying("new "), &path).await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_session_is_served_back_with_the_live_ids() {
    let dir = scratch("served");
    let path = dir.join("fixture.jsonl");
    record_fixture(&path).await;
    let cassette = Cassette::load(&path).unwrap();

    // The same session against the cassette served over stdio's framing, in process.
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_end);
    let serving = cassette.clone();
    tokio::spawn(async move {
        mcp_test::cassette::serve(&serving, server_read, server_write)
            .await
            .unwrap();
    });
    let (read, write) = tokio::io::split(client_end);
    let client = Client::connect(read, write);
    session(&client).await;

    // A request nobody recorded: the closest recorded one is named.
    let mut responder = Responder::new(&cassette);
    let mut asked = cassette
        .entries
        .iter()
        .find(|r| r.entry.request.as_ref().unwrap()["params"]["name"] == "test_simple_text")
        .and_then(|r| r.entry.request.clone())
        .unwrap();
    asked["id"] = json!(99);
    asked["params"]["arguments"] = json!({"extra": 1});
    let reply = responder.answer(&asked);
    let error = &reply.response.unwrap()["error"];
    assert_eq!(error["code"], -32602);
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("/params/arguments/extra"), "{message}");
    // Over the wire too: a tool the session never called.
    let unknown = rpc_error(call_tool(&client, "test_image_content", json!({}), &opts()).await);
    assert_eq!(unknown.code, -32602);
    assert!(
        unknown.message.contains("/params/name"),
        "{}",
        unknown.message
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `#[ignore]`d test that re-records a cassette while others replay it (`cargo test --
/// --include-ignored`) never leaves them a truncated file: `Recorder::create` writes beside
/// the cassette and moves the recording over it when it finishes; a recording that panics
/// leaves the cassette as it was, and nothing beside it.
#[tokio::test]
async fn re_recording_replaces_the_cassette_whole_or_not_at_all() {
    let dir = scratch("replacing");
    let path = dir.join("session.jsonl");
    let server = || mcp_test_downstream::conformance::conformance_server();
    let first = Recorder::create(server(), &path).unwrap();
    list_tools(&first, &opts()).await;
    first.finish().unwrap();
    let recorded = std::fs::read_to_string(&path).unwrap();
    assert_eq!(Cassette::load(&path).unwrap().entries.len(), 1);

    // Re-recording: meanwhile the cassette is the old one, whole, and replays.
    let again = Recorder::create(server(), &path).unwrap();
    list_tools(&again, &opts()).await;
    call_tool(&again, "test_simple_text", json!({}), &opts()).await;
    assert_eq!(std::fs::read_to_string(&path).unwrap(), recorded);
    assert_eq!(replay(&server(), &path).await.unwrap().compared, 1);
    again.finish().unwrap();
    assert_eq!(Cassette::load(&path).unwrap().entries.len(), 2);

    // A recording test that fails: the cassette stays.
    let before = std::fs::read_to_string(&path).unwrap();
    let failing = std::panic::AssertUnwindSafe(async {
        let recorder = Recorder::create(server(), &path).unwrap();
        list_tools(&recorder, &opts()).await;
        panic!("the recording test failed");
    });
    assert!(
        futures_util::FutureExt::catch_unwind(failing)
            .await
            .is_err()
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);

    // One that ends without `finish` still replaces it.
    {
        let recorder = Recorder::create(server(), &path).unwrap();
        call_tool(&recorder, "test_simple_text", json!({}), &opts()).await;
    }
    assert_eq!(Cassette::load(&path).unwrap().entries.len(), 1);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        ["session.jsonl"],
        "nothing is left beside the cassette"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
