//! mcp-test's client answers the questions a server asks in either era from one `Answers`:
//! in 2026-07-28 `call_rounds` resends with `inputResponses`, in 2025-11-25 the client
//! answers the server's `elicitation/create` / `roots/list` request on the open connection,
//! over stdio and over HTTP.

use mcp_test::client::Client;
use mcp_test::target::Answers;
use mcp_test::testing::answer;
use mcp_test::transport::http::{HttpConfig, bind_local};
use mcp_test::transport::stdio::{StdioConfig, serve};
use mcp_test::wire::Era;
use mcp_test::{Context, Server, Tool, ToolError};
use serde::Deserialize;
use serde_json::json;

/// Asks for a name and the client's roots, the same code in both eras.
#[derive(Tool)]
#[tool(name = "greet")]
struct Greet {}

#[derive(Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

impl Greet {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        let form = match ctx.elicit_as::<Name>("Your name?").key("name").await {
            Ok(form) => form,
            Err(e) if e.is_not_supported() => return Ok("Hello! (no questions here)".into()),
            Err(e) => return Err(e.into()),
        };
        let roots = ctx.list_roots().key("roots").await?;
        Ok(format!(
            "Hello, {}! ({} roots)",
            form.accepted().map_or("stranger".into(), |n| n.name),
            roots.len()
        ))
    }
}

fn server(era: Era) -> Server {
    Server::builder("answers", "1.0.0")
        .tool::<Greet>()
        .eras([era])
        .build()
        .unwrap()
}

/// The answers of every test here, written once.
fn answers() -> Answers {
    Answers::new()
        .answer("name", answer::accept(json!({"name": "Ada"})))
        .answer("roots", answer::roots(["file:///a", "file:///b"]))
}

fn stdio_client(era: Era) -> Client {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve(
        server(era),
        server_read,
        server_write,
        StdioConfig::default(),
    ));
    let (read, write) = tokio::io::split(client_end);
    Client::connect(read, write)
}

async fn http_client(era: Era) -> Client {
    let listener = bind_local(0).await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(mcp_test::transport::http::serve(
        listener,
        server(era),
        HttpConfig::default(),
    ));
    Client::http(&url).unwrap()
}

/// Calls `greet` through `call_rounds` and returns the final text.
async fn greet(client: &Client, era: Era, answers: &Answers) -> (String, usize) {
    assert_eq!(client.era().await.unwrap().era, era);
    let rounds = client
        .call_rounds(&client.tool_call_body("greet", json!({})), answers)
        .await
        .unwrap();
    let text = rounds.last()["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{era}: {}", rounds.last()))
        .to_owned();
    (text, rounds.len())
}

#[tokio::test]
async fn one_script_answers_the_same_over_stdio_in_both_eras() {
    for era in [Era::Current, Era::Legacy] {
        let client = stdio_client(era).with_answers(answers());
        let (text, _) = greet(&client, era, &Answers::new()).await;
        assert_eq!(text, "Hello, Ada! (2 roots)", "{era}");
    }
}

#[tokio::test]
async fn one_script_answers_the_same_over_http_in_both_eras() {
    for era in [Era::Current, Era::Legacy] {
        let client = http_client(era).await.with_answers(answers());
        let (text, _) = greet(&client, era, &Answers::new()).await;
        assert_eq!(text, "Hello, Ada! (2 roots)", "{era}");
    }
}

/// The answers given to `call_rounds` answer the 2025-era server's requests while it runs,
/// once the client declared the capabilities they serve.
#[tokio::test]
async fn the_answers_of_call_rounds_answer_a_2025_server() {
    let capabilities = json!({"elicitation": {}, "roots": {}});
    let client = stdio_client(Era::Legacy).with_capabilities(capabilities.clone());
    let (text, rounds) = greet(&client, Era::Legacy, &answers()).await;
    assert_eq!(text, "Hello, Ada! (2 roots)");
    assert_eq!(
        rounds, 1,
        "in 2025-11-25 the question is asked inside the one call"
    );

    let client = http_client(Era::Legacy)
        .await
        .with_capabilities(capabilities);
    let (text, _) = greet(&client, Era::Legacy, &answers()).await;
    assert_eq!(text, "Hello, Ada! (2 roots)");
}

/// Without answers, a 2025-era `initialize` declares no elicitation, so the tool learns the
/// client cannot answer, instead of asking and waiting.
#[tokio::test]
async fn without_answers_a_2025_client_declares_no_elicitation() {
    let client = stdio_client(Era::Legacy);
    let (text, _) = greet(&client, Era::Legacy, &Answers::new()).await;
    assert_eq!(text, "Hello! (no questions here)");
}

/// A question the script does not answer fails the call, naming the key asked and the keys
/// the script has, so a typo shows.
#[tokio::test]
async fn an_unanswered_2025_question_names_the_keys_of_the_script() {
    let client = stdio_client(Era::Legacy)
        .with_answers(Answers::new().answer("nmae", answer::accept(json!({"name": "Ada"}))));
    assert_eq!(client.era().await.unwrap().era, Era::Legacy);
    let response = client
        .send(&client.tool_call_body("greet", json!({})))
        .await
        .unwrap();
    let text = response.to_string();
    assert!(
        text.contains(r#"\"name\""#) && text.contains(r#"[\"nmae\"]"#),
        "{response}"
    );
}
