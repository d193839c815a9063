//! Per-definition scopes as a downstream crate meets them: the notes server
//! (`mcp_test_downstream::notes`: `read_notes` behind `notes.read`, `add_note`, a resource
//! and a prompt behind `notes.write`) on mcp-test's runtime, behind OAuth tokens of the
//! local issuer. A token with only the read scope sees the write tool listed and is
//! challenged for the write scope when it calls it: over HTTP a 403 `insufficient_scope`
//! naming it (the header, and the client's typed error), in process the JSON-RPC error
//! naming it; a token with the write scope calls it. Then the same server as a process of its
//! own (`notes_server`), reached through `#[mcp_test(http_command = ..)]` with a bearer
//! token.

use mcp_test::auth::{AuthServer, TokenSpec, TokenValidator};
use mcp_test::client::{Client, ClientError};
use mcp_test::prelude::*;
use mcp_test::testing::HttpCommand;
use mcp_test::transport::http::bind_local;
use mcp_test::{Access, Identity};
use mcp_test_downstream::notes::{NotesAuth, READ, WRITE, notes_router, notes_server};
use serde_json::Value;

/// The notes server on 127.0.0.1 trusting `auth`; its URL.
async fn serve_notes(auth: &AuthServer) -> String {
    let listener = bind_local(0).await.expect("a free port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let app = notes_router(
        &url,
        NotesAuth::Issuer {
            issuer: auth.issuer().to_owned(),
            scopes_supported: Vec::new(),
        },
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn tool_names(listed: &Value) -> Vec<&str> {
    listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {listed}"))
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect()
}

#[tokio::test]
async fn a_read_token_is_challenged_for_the_write_scope_over_http() {
    let auth = AuthServer::start().await.expect("the issuer starts");
    let url = serve_notes(&auth).await;
    let reader = auth.bearer(&TokenSpec::new(&url).scopes([READ]));

    // Listed, so the client knows the tool is there to step up to.
    let mcp = TestContext::http_with(&url, &reader);
    assert_eq!(
        tool_names(&mcp.list_tools().await),
        ["add_note", "read_notes"]
    );
    assert_tool_text!(
        mcp.call_tool("read_notes", json!({})).await,
        "notes of everyone: []"
    );

    // Called: a 403 whose challenge names the write scope, as the client's typed error.
    let client = Client::http_with(&url, &reader).expect("a client");
    let call = client.tool_call_body("add_note", json!({"text": "milk"}));
    let refused = client.send(&call).await.expect_err("a 403");
    let ClientError::Forbidden {
        status,
        challenge: Some(challenge),
        body,
        ..
    } = &refused
    else {
        panic!("not Forbidden with a challenge: {refused:?}");
    };
    assert_eq!(*status, 403);
    assert_eq!(
        challenge.error.as_deref(),
        Some("insufficient_scope"),
        "{refused}"
    );
    assert_eq!(challenge.scope, [WRITE], "{refused}");
    let metadata = TokenValidator::new(auth.issuer(), &url).metadata_url();
    assert_eq!(
        challenge.resource_metadata.as_deref(),
        Some(metadata.as_str())
    );
    assert!(refused.to_string().contains("notes.write"), "{refused}");
    // The body is the JSON-RPC error, naming the tool and the scope in band too.
    let error: Value = serde_json::from_str(body).expect("a JSON body");
    assert_eq!(
        error["error"]["data"]["error"], "insufficient_scope",
        "{error}"
    );
    assert_eq!(error["error"]["data"]["scope"], WRITE, "{error}");
    assert_eq!(error["error"]["data"]["name"], "add_note", "{error}");

    // The raw header, as any client reads it.
    let raw = mcp_test::client::HttpClient::with_options(&reader).expect("a client");
    let mut headers = http::HeaderMap::new();
    for (name, value) in mcp_test::wire::build::mirrored_headers(&call) {
        headers.insert(
            http::HeaderName::try_from(name).expect("a header name"),
            http::HeaderValue::try_from(value).expect("a header value"),
        );
    }
    headers.insert(
        http::header::CONTENT_TYPE,
        "application/json".parse().unwrap(),
    );
    headers.insert(
        http::header::ACCEPT,
        "application/json, text/event-stream".parse().unwrap(),
    );
    let reply = raw
        .request(
            http::Method::POST,
            &mcp_test::client::HttpClient::parse_url(&url).expect("a URL"),
            headers,
            call.to_string().into(),
            std::time::Duration::from_secs(10),
        )
        .await
        .expect("a reply");
    assert_eq!(reply.status, 403);
    let header = reply.headers[http::header::WWW_AUTHENTICATE]
        .to_str()
        .expect("ASCII");
    assert!(header.starts_with("Bearer "), "{header}");
    assert!(header.contains(r#"error="insufficient_scope""#), "{header}");
    assert!(header.contains(r#"scope="notes.write""#), "{header}");
    assert!(
        header.contains(&format!(r#"resource_metadata="{metadata}""#)),
        "{header}"
    );

    // The resource and the prompt behind the write scope answer the same way.
    let read = client
        .send(&mcp_test::wire::build::build_request(
            "resources/read",
            json!({"uri": "notes://drafts"}),
        ))
        .await
        .expect_err("a 403");
    assert!(
        matches!(&read, ClientError::Forbidden { challenge: Some(c), .. } if c.scope == [WRITE]),
        "{read:?}"
    );

    // With the write scope too (the union a step-up asks for), the call goes through.
    let writer = TestContext::http_with(
        &url,
        &auth.bearer(&TokenSpec::new(&url).scopes([READ, WRITE])),
    );
    assert_tool_text!(
        writer.call_tool("add_note", json!({"text": "milk"})).await,
        "1 notes"
    );
    let drafts = mcp_test::testing::result(writer.read_resource("notes://drafts").await);
    assert_eq!(drafts["contents"][0]["text"], "milk", "{drafts}");
    assert_tool_text!(
        writer.call_tool("read_notes", json!({})).await,
        "notes of everyone: [milk]"
    );
}

#[mcp_test(server = notes_server, scopes = [READ])]
async fn in_process_the_error_names_the_missing_scope(mcp: TestContext) {
    assert_eq!(
        tool_names(&mcp.list_tools().await),
        ["add_note", "read_notes"]
    );
    let refused = mcp.call_tool("add_note", json!({"text": "milk"})).await;
    let error = &refused["error"];
    assert_eq!(error["code"], -32602, "{refused}");
    assert_eq!(
        error["message"],
        "Insufficient scope: tool add_note needs scope notes.write (the caller lacks notes.write)"
    );
    assert_eq!(
        error["data"],
        json!({"error": "insufficient_scope", "scope": WRITE, "name": "add_note"})
    );
    let prompt = mcp.get_prompt("draft", json!({})).await;
    assert_eq!(prompt["error"]["data"]["scope"], WRITE, "{prompt}");
    assert_eq!(prompt["error"]["data"]["name"], "draft", "{prompt}");
    let read = mcp.read_resource("notes://drafts").await;
    assert_eq!(read["error"]["data"]["uri"], "notes://drafts", "{read}");
    assert_eq!(read["error"]["data"]["scope"], WRITE, "{read}");
    // A name never registered is still just unknown.
    let unknown = mcp.call_tool("delete_note", json!({})).await;
    assert_eq!(
        unknown["error"]["message"], "Unknown tool: delete_note",
        "{unknown}"
    );
}

#[mcp_test(server = notes_server, scopes = [READ, WRITE])]
async fn in_process_the_write_scope_calls_it(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("add_note", json!({"text": "eggs"})).await,
        "1 notes"
    );
    let draft = mcp_test::testing::result(mcp.get_prompt("draft", json!({})).await);
    assert_eq!(
        draft["messages"][0]["content"]["text"], "Draft a short note.",
        "{draft}"
    );
}

/// Purges everything (confidential: hidden from callers without `ops.admin`).
#[derive(Tool)]
struct Purge {}

impl Purge {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok("purged".into())
    }
}

#[tokio::test]
async fn a_rule_hidden_without_scope_and_a_callback_still_hide() {
    let server = Server::builder("ops", "1.0.0")
        .tool_with_access::<Purge>(Access::scopes(["ops.admin"]).hidden_without_scope())
        .build()
        .unwrap();
    let anyone = TestContext::new(server.clone());
    assert_eq!(tool_names(&anyone.list_tools().await), Vec::<&str>::new());
    let hidden = anyone.call_tool("purge", json!({})).await;
    assert_eq!(
        hidden["error"]["message"], "Unknown tool: purge",
        "{hidden}"
    );
    let admin = anyone.with(|o| o.scopes(["ops.admin"]));
    assert_tool_text!(admin.call_tool("purge", json!({})).await, "purged");

    let tenant_only = Server::builder("ops", "1.0.0")
        .tool_with_access::<Purge>(
            Access::scopes(["ops.admin"])
                .authorize(|who: &Identity| who.tenant.as_deref() == Some("acme")),
        )
        .build()
        .unwrap();
    let globex = TestContext::new(tenant_only).with(|o| o.tenant("globex"));
    assert_eq!(tool_names(&globex.list_tools().await), Vec::<&str>::new());
    let refused = globex.call_tool("purge", json!({})).await;
    assert_eq!(
        refused["error"]["message"], "Unknown tool: purge",
        "{refused}"
    );
}

/// The notes server as a process trusting a fresh local issuer, with a writer's token minted
/// once its URL (the token's audience) is known.
async fn notes_process_for_a_writer() -> HttpCommand {
    let auth = AuthServer::start().await.expect("the issuer starts");
    HttpCommand::new([
        env!("CARGO_BIN_EXE_notes_server"),
        "--http",
        "127.0.0.1:0",
        "--trust-issuer",
        auth.issuer(),
    ])
    .bearer_for(move |url| auth.token(&TokenSpec::new(url).scopes([READ, WRITE])))
}

#[mcp_test(http_command = notes_process_for_a_writer().await, flavor = "multi_thread")]
async fn an_http_command_fixture_with_an_issuers_token(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("add_note", json!({"text": "tea"})).await,
        "1 notes"
    );
    assert_tool_text!(
        mcp.call_tool("read_notes", json!({})).await,
        "notes of everyone: [tea]"
    );
}

#[mcp_test(
    http_command = [env!("CARGO_BIN_EXE_notes_server"), "--http", "127.0.0.1:0", "--static-token", "s3cret"],
    bearer = "s3cret",
    headers = [("X-Notes-Tenant", "acme")]
)]
async fn an_http_command_fixture_with_a_bearer_and_headers(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("add_note", json!({"text": "jam"})).await,
        "1 notes"
    );
    assert_tool_text!(
        mcp.call_tool("read_notes", json!({})).await,
        "notes of acme: [jam]"
    );
}

#[tokio::test]
async fn an_http_command_without_the_token_is_refused_with_the_challenge() {
    let mcp = TestContext::http_command(HttpCommand::new([
        env!("CARGO_BIN_EXE_notes_server"),
        "--http",
        "127.0.0.1:0",
        "--static-token",
        "s3cret",
    ]))
    .await;
    let client = Client::http_with(
        mcp.label().rsplit(" at ").next().expect("a URL"),
        &mcp_test::auth::bearer("wrong"),
    )
    .expect("a client");
    let refused = client
        .send(&client.tool_call_body("read_notes", json!({})))
        .await
        .expect_err("a 401");
    assert!(
        matches!(refused, ClientError::Unauthorized { .. }),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_header_http_cannot_carry_fails_the_start_naming_it() {
    let err = HttpCommand::new([env!("CARGO_BIN_EXE_notes_server"), "--http", "127.0.0.1:0"])
        .header("X-Bad", "line\nbreak")
        .start()
        .await
        .expect_err("not started");
    let text = err.to_string();
    assert!(text.contains("was not started"), "{text}");
    assert!(text.contains("X-Bad"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_with_the_write_scope_sees_the_write_tool() {
    use mcp_test::cases::Connected;
    use mcp_test::client::HttpOptions;
    use mcp_test_check::{AuthIssuer, CheckOptions, Severity, check};
    use std::time::Duration;

    let auth = AuthServer::start().await.expect("the issuer starts");
    // The server names only the read scope (its scopes_supported): the write scope is one a
    // check must be told to ask for.
    let url = serve_notes(&auth).await;
    for (asked, sees) in [(vec![], false), (vec![WRITE], true)] {
        let issuer = AuthIssuer::new(auth.issuer()).scopes(asked.clone());
        let grant = issuer
            .grant_for(&url, &HttpOptions::new(), Duration::from_secs(10))
            .await
            .expect("a token of the local issuer");
        let mut held = vec![READ];
        held.extend(asked.iter().copied());
        assert_eq!(grant.scopes, held);
        let client = Client::http_with(&url, &grant.options).expect("a client");
        let connected = Connected::probe(client, "the notes server")
            .await
            .expect("it answers server/discover");
        let options = CheckOptions::default()
            .timeout(Duration::from_secs(10))
            .deadline(Some(Duration::from_secs(60)))
            .case_time(None)
            .allow_writes(true)
            .auth_issuer(Some(issuer));
        let report = check(&connected, &options).await;
        // The server answers as it should either way: a 403 for a missing scope is no defect.
        report.assert_no_defects();
        let cases: Vec<_> = report
            .cases
            .outcomes
            .iter()
            .filter(|o| o.case.tool == "add_note")
            .collect();
        assert!(!cases.is_empty(), "{asked:?}: no case of add_note");
        assert_eq!(
            cases.iter().all(|o| o.agrees),
            sees,
            "{asked:?}: {}",
            report.cases
        );
        let refused = report
            .findings()
            .filter(|f| f.message.contains("refused for want of scope"))
            .count();
        assert_eq!(refused > 0, !sees, "{asked:?}: {refused} refusals");
        let said = report
            .findings()
            .find(|f| f.probe == "auth/challenge" && f.severity == Severity::Info)
            .unwrap_or_else(|| panic!("{asked:?}: no note of the token's scopes"));
        assert!(
            said.message
                .contains(&format!("held scope {:?}", held.join(" "))),
            "{}",
            said.message
        );
    }
}

/// The notes server in this process behind one static token; its URL.
async fn notes_with_a_static_token() -> String {
    let listener = bind_local(0).await.expect("a free port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let app = notes_router(&url, NotesAuth::Static("s3cret".to_owned()));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[mcp_test(
    http = notes_with_a_static_token().await,
    bearer = "s3cret",
    headers = [("X-Notes-Tenant", "globex")]
)]
async fn an_http_fixture_with_a_bearer_and_headers(mcp: TestContext) {
    assert_tool_text!(
        mcp.call_tool("read_notes", json!({})).await,
        "notes of globex: []"
    );
}

/// Step-up in a 2025-11-25 session over HTTP: the same 403 `insufficient_scope`, naming the
/// write scope, on a call inside a session the `initialize` handshake opened.
#[tokio::test]
async fn a_2025_session_is_challenged_for_the_write_scope_too() {
    use mcp_test::cases::{Connected, Era};
    let auth = AuthServer::start().await.expect("the issuer starts");
    let url = serve_notes(&auth).await;
    let reader = auth.bearer(&TokenSpec::new(&url).scopes([READ]));
    let client = Client::http_with(&url, &reader).expect("a client");
    let connected = Connected::connect(client.clone(), "notes", Some(Era::Legacy))
        .await
        .expect("the 2025-11-25 handshake");
    assert_eq!(connected.era, Era::Legacy);
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": "add_note", "arguments": {"text": "milk"}}});
    let refused = connected.client.send(&call).await.expect_err("a 403");
    assert!(
        matches!(
            &refused,
            ClientError::Forbidden { status: 403, challenge: Some(c), .. }
                if c.error.as_deref() == Some("insufficient_scope") && c.scope == [WRITE]
        ),
        "{refused:?}"
    );
    let read = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
                      "params": {"name": "read_notes", "arguments": {}}});
    let answered = connected
        .client
        .send(&read)
        .await
        .expect("the read tool answers");
    assert_eq!(
        answered["result"]["content"][0]["text"], "notes of everyone: []",
        "{answered}"
    );
}
