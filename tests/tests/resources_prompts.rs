//! Resources, resource templates, prompts, completion and per-definition authorization, through
//! the wire: every request goes through `Server::handle_json_with` as JSON text, and every reply
//! is checked against the official 2026-07-28 schema.

use mcp_test::completion::{Completion, CompletionRequest};
use mcp_test::prompts::{Prompt, PromptArgument, PromptMessage};
use mcp_test::resources::{NotFound, Resource, ResourceTemplate};
use mcp_test::testing::{self, RequestOptions};
use mcp_test::wire::{CacheHint, CacheScope, Content, ResourceContents};
use mcp_test::{
    Access, BuildError, CallToolResult, Caller, Context, Identity, Server, ServerBuilder, Tool,
    ToolError,
};
use serde_json::{Map, Value, json};

const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// Sends `method` with `params` (plus the protocol `_meta`, unless `params` has its own) as
/// `caller`, checks the reply against the schema, and returns it.
async fn rpc(server: &Server, caller: &Caller, method: &str, params: Value) -> Value {
    let mut params = params;
    if params.get("_meta").is_none() {
        params["_meta"] = meta();
    }
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let reply = server
        .handle_json_with(&body.to_string(), caller)
        .await
        .expect("a request gets a response");
    let reply: Value = serde_json::from_str(&reply).expect("the reply is JSON");
    if let Err(e) = mcp_test::spec::check_response(method, &reply) {
        panic!("{method}: the reply breaks the schema: {e}\nreply: {reply:#}");
    }
    assert_eq!(reply["id"], 7, "{reply}");
    reply
}

#[track_caller]
fn result(reply: &Value) -> &Value {
    reply
        .get("result")
        .unwrap_or_else(|| panic!("expected a result, got {reply:#}"))
}

#[track_caller]
fn error(reply: &Value, code: i64) -> &Value {
    let error = reply
        .get("error")
        .unwrap_or_else(|| panic!("expected error {code}, got {reply:#}"));
    assert_eq!(error["code"], code, "{reply:#}");
    error
}

fn anonymous() -> Caller {
    Caller::default()
}

fn staff() -> Caller {
    Caller::new(Identity::principal("sam").with_scopes(["staff"]))
}

fn acme() -> Caller {
    Caller::new(Identity::principal("ann").with_tenant("acme"))
}

#[derive(serde::Deserialize)]
struct TemplateData {
    id: String,
}

#[derive(serde::Deserialize)]
struct ItemId {
    id: u32,
}

#[derive(serde::Deserialize)]
struct FilePath {
    path: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct WithArgs {
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(non_snake_case)]
struct EmbedArgs {
    /// URI of the resource to embed
    resourceUri: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Review {
    /// The code to review.
    code: String,
    /// The language of the code.
    language: Option<String>,
    /// How many findings at most.
    max_findings: Option<u8>,
}

/// A staff-only tool, to check tool authorization.
struct Purge;

impl Tool for Purge {
    const NAME: &'static str = "purge";
    fn input_schema() -> Value {
        json!({"type": "object", "additionalProperties": false})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Purge)
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text("purged"))
    }
}

/// A public tool.
struct Hello;

impl Tool for Hello {
    const NAME: &'static str = "hello";
    fn input_schema() -> Value {
        json!({"type": "object", "additionalProperties": false})
    }
    fn parse(_: Value) -> Result<Self, ToolError> {
        Ok(Hello)
    }
    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text("hi"))
    }
}

fn builder() -> ServerBuilder {
    Server::builder("docs", "1.0.0")
        .tool::<Hello>()
        // Hidden without the scope (rather than listed and challenged for it): the tests of
        // authorization below are about definitions a denied caller cannot tell exist.
        .tool_with_access::<Purge>(Access::scopes(["staff"]).hidden_without_scope())
        .resource(
            Resource::new("test://static-text", "static-text")
                .description("A static text resource")
                .mime_type("text/plain")
                .text("This is the content of the static text resource."),
        )
        .resource(
            Resource::new("test://static-binary", "static-binary")
                .description("A static PNG")
                .mime_type("image/png")
                .blob(PNG)
                .cache(CacheHint::new(86_400_000, CacheScope::Public)),
        )
        .resource(
            Resource::new("docs://handbook", "handbook")
                .description("The staff handbook")
                .mime_type("text/markdown")
                .access(Access::scopes(["staff"]).hidden_without_scope())
                .read(|ctx: Context| async move {
                    Ok::<_, ToolError>(format!(
                        "# Handbook\nfor {}",
                        ctx.principal().unwrap_or("?")
                    ))
                }),
        )
        .resource(
            Resource::new("docs://broken", "broken")
                .description("Fails to read")
                .read(|_ctx: Context| async move {
                    // A failure (not the handler's own words): `?` makes it -32603.
                    Err(std::io::Error::other("the disk is on fire"))?;
                    Ok::<_, ToolError>("unreachable")
                }),
        )
        .resource(
            Resource::new("docs://panics", "panics")
                .description("Panics when read")
                .read(|_ctx: Context| async move {
                    if true {
                        panic!("read exploded");
                    }
                    Ok::<_, ToolError>("never")
                }),
        )
        .resource(
            Resource::new("docs://empty", "empty").read(|_ctx: Context| async move {
                Ok::<_, ToolError>(Vec::<ResourceContents>::new())
            }),
        )
        .resource(
            Resource::new("docs://confirm", "confirm")
                .description("Asks before it is read")
                .read(|ctx: Context| async move {
                    let answer = ctx
                        .elicit(
                            "Really read it?",
                            json!({"type": "object", "properties": {"ok": {"type": "boolean"}},
                                   "required": ["ok"]}),
                        )
                        .key("confirm")
                        .await?;
                    let ok = answer.accepted().is_some_and(|c| c["ok"] == true);
                    Ok::<_, ToolError>(if ok { "the secret" } else { "declined" })
                }),
        )
        .resource_template(
            ResourceTemplate::new("test://template/{id}/data", "template-data")
                .description("Data by id")
                .mime_type("application/json")
                .read(
                    |_ctx: Context, TemplateData { id }: TemplateData| async move {
                        Ok::<_, ToolError>(format!(
                            r#"{{"id":"{id}","templateTest":true,"data":"Data for ID: {id}"}}"#
                        ))
                    },
                )
                .complete_from("id", ["123", "124", "456"]),
        )
        .resource_template(
            ResourceTemplate::new("docs://items/{id}", "item")
                .description("An item by numeric id")
                .mime_type("text/plain")
                .read(|_ctx: Context, ItemId { id }: ItemId| async move {
                    if id == 0 {
                        return Err(NotFound.into());
                    }
                    Ok::<_, ToolError>(format!("item {id}"))
                })
                .complete("id", |_ctx: Context, req: CompletionRequest| async move {
                    let all = (0..250).map(|i| i.to_string());
                    Ok::<_, ToolError>(Completion::new(all.filter(|v| v.starts_with(&req.value))))
                }),
        )
        .resource_template(
            ResourceTemplate::new("file:///{+path}", "tenant-file")
                .description("A file of the acme tenant")
                .access(
                    Access::public()
                        .authorize(|who: &Identity| who.tenant.as_deref() == Some("acme")),
                )
                .read(|_ctx: Context, FilePath { path }: FilePath| async move {
                    Ok::<_, ToolError>(format!("contents of {path}"))
                }),
        )
        .prompt(
            Prompt::new("test_simple_prompt")
                .description("A simple prompt without arguments")
                .text("This is a simple prompt for testing."),
        )
        .prompt(
            Prompt::new("test_prompt_with_arguments")
                .description("A prompt with arguments")
                .get(|_ctx: Context, a: WithArgs| async move {
                    Ok::<_, ToolError>(format!(
                        "Prompt with arguments: arg1='{}', arg2='{}'",
                        a.arg1, a.arg2
                    ))
                })
                .complete_from("arg1", ["paris", "park", "party", "rome"]),
        )
        .prompt(
            Prompt::new("test_prompt_with_embedded_resource")
                .description("A prompt with an embedded resource")
                .get(|_ctx: Context, a: EmbedArgs| async move {
                    Ok::<_, ToolError>(vec![
                        PromptMessage::user(Content::embedded(ResourceContents::text(
                            a.resourceUri,
                            Some("text/plain"),
                            "Embedded resource content for testing.",
                        ))),
                        PromptMessage::user_text("Please process the embedded resource above."),
                    ])
                }),
        )
        .prompt(
            Prompt::new("test_prompt_with_image")
                .description("A prompt with an image")
                .get(|_ctx: Context, ()| async move {
                    Ok::<_, ToolError>(vec![
                        PromptMessage::user(Content::image_bytes(PNG, "image/png")),
                        PromptMessage::user_text("Please analyze the image above."),
                    ])
                }),
        )
        .prompt(
            Prompt::new("code_review")
                .title("Code review")
                .description("Reviews code")
                .argument(PromptArgument::new("language").title("Language"))
                .get(|_ctx: Context, r: Review| async move {
                    Ok::<_, ToolError>(vec![
                        PromptMessage::user_text(format!(
                            "Review this {} code (at most {} findings):\n{}",
                            r.language.as_deref().unwrap_or("unknown"),
                            r.max_findings.unwrap_or(10),
                            r.code
                        )),
                        PromptMessage::assistant(Content::audio_bytes(b"RIFF", "audio/wav")),
                    ])
                })
                .complete(
                    "language",
                    |_ctx: Context, req: CompletionRequest| async move {
                        // Context-aware: a code argument mentioning `fn` suggests rust first.
                        let mut all = vec!["python", "rust", "ruby"];
                        if req.context.get("code").is_some_and(|c| c.contains("fn ")) {
                            all.sort_by_key(|l| *l != "rust");
                        }
                        Ok::<_, ToolError>(
                            all.into_iter()
                                .filter(|l| l.starts_with(&req.value))
                                .collect::<Vec<_>>(),
                        )
                    },
                ),
        )
        .prompt(
            Prompt::new("staff_briefing")
                .description("Staff only")
                .access(
                    Access::scopes(["staff"])
                        .or_scopes(["admin", "audit"])
                        .hidden_without_scope(),
                )
                .argument(PromptArgument::new("topic").required())
                .get(|_ctx: Context, args: Map<String, Value>| async move {
                    Ok::<_, ToolError>(format!("Brief the staff on {}", args["topic"]))
                })
                .complete_from("topic", ["payroll", "parking"]),
        )
        .prompt(
            Prompt::new("test_input_required_result_prompt")
                .description("Asks the user for context")
                .get(|ctx: Context, ()| async move {
                    let answer = ctx
                        .elicit(
                            "What context should the prompt use?",
                            json!({"type": "object", "properties": {"context": {"type": "string"}},
                                   "required": ["context"]}),
                        )
                        .key("user_context")
                        .await?;
                    let context = answer
                        .accepted()
                        .and_then(|c| c["context"].as_str().map(str::to_owned))
                        .unwrap_or_else(|| "none".into());
                    Ok::<_, ToolError>(format!("Use this context: {context}"))
                }),
        )
        .prompt(Prompt::new("fails").get(|_ctx: Context, ()| async move {
            Err(std::io::Error::other("boom"))?;
            Ok::<_, ToolError>("unreachable")
        }))
}

fn server() -> Server {
    builder().build().expect("the server builds")
}

// ---- capabilities -------------------------------------------------------------------------

#[tokio::test]
async fn discover_advertises_exactly_what_is_registered() {
    let full = rpc(&server(), &anonymous(), "server/discover", json!({})).await;
    let caps = &result(&full)["capabilities"];
    let keys =
        |caps: &Value| -> Vec<String> { caps.as_object().unwrap().keys().cloned().collect() };
    let mut all = keys(caps);
    all.sort();
    assert_eq!(all, ["completions", "prompts", "resources", "tools"]);
    assert_eq!(caps["completions"], json!({}));

    // Prompts without any completion handler: no completions capability, and the method is
    // then -32601, as are the resource methods of a server without resources.
    let prompts_only = Server::builder("p", "1")
        .prompt(Prompt::new("p").text("t"))
        .build()
        .unwrap();
    let caps = rpc(&prompts_only, &anonymous(), "server/discover", json!({})).await;
    let caps = &result(&caps)["capabilities"];
    assert_eq!(keys(caps), ["prompts"]);
    for (method, params) in [
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}}),
        ),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("resources/read", json!({"uri": "test://x"})),
    ] {
        error(
            &rpc(&prompts_only, &anonymous(), method, params).await,
            -32601,
        );
    }

    // A template alone is enough for the resources capability.
    let templates_only =
        Server::builder("t", "1")
            .resource_template(ResourceTemplate::new("t://{x}", "t").read(
                |_ctx: Context, _: Map<String, Value>| async move { Ok::<_, ToolError>("x") },
            ))
            .build()
            .unwrap();
    let reply = rpc(&templates_only, &anonymous(), "server/discover", json!({})).await;
    assert_eq!(keys(&result(&reply)["capabilities"]), ["resources"]);
    let list = rpc(&templates_only, &anonymous(), "resources/list", json!({})).await;
    assert_eq!(result(&list)["resources"], json!([]));
    error(
        &rpc(&templates_only, &anonymous(), "prompts/list", json!({})).await,
        -32601,
    );
}

// ---- resources ----------------------------------------------------------------------------

#[tokio::test]
async fn resources_list_is_sorted_cached_and_filtered_by_authorization() {
    let server = server();
    let uris = |reply: &Value| -> Vec<String> {
        result(reply)["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap().to_owned())
            .collect()
    };
    let anon = rpc(&server, &anonymous(), "resources/list", json!({})).await;
    assert_eq!(
        uris(&anon),
        [
            "docs://broken",
            "docs://confirm",
            "docs://empty",
            "docs://panics",
            "test://static-binary",
            "test://static-text"
        ]
    );
    assert_eq!(result(&anon)["ttlMs"], 60_000);
    assert_eq!(result(&anon)["cacheScope"], "private");
    assert!(result(&anon).get("nextCursor").is_none());
    let text = &result(&anon)["resources"][5];
    assert_eq!(
        text,
        &json!({"uri": "test://static-text", "name": "static-text",
                "description": "A static text resource", "mimeType": "text/plain"})
    );

    let staff_list = rpc(&server, &staff(), "resources/list", json!({})).await;
    assert!(uris(&staff_list).contains(&"docs://handbook".to_owned()));
    assert_eq!(uris(&staff_list).len(), uris(&anon).len() + 1);

    // Stable: the same caller gets the same list, whatever it did in between.
    rpc(
        &server,
        &staff(),
        "resources/read",
        json!({"uri": "docs://handbook"}),
    )
    .await;
    let again = rpc(&server, &anonymous(), "resources/list", json!({})).await;
    assert_eq!(result(&again)["resources"], result(&anon)["resources"]);
}

#[tokio::test]
async fn every_list_paginates_like_tools_list_with_one_cache_scope() {
    let server = builder()
        .page_size(2)
        .prompts_cache(CacheHint::new(5_000, CacheScope::Private))
        .build()
        .unwrap();
    for (method, field, caller) in [
        ("resources/list", "resources", staff()),
        ("resources/templates/list", "resourceTemplates", acme()),
        ("prompts/list", "prompts", staff()),
        ("tools/list", "tools", staff()),
    ] {
        let mut seen = Vec::new();
        let mut scopes = Vec::new();
        let mut params = json!({});
        for page in 1.. {
            let reply = rpc(&server, &caller, method, params.clone()).await;
            let r = result(&reply);
            let items = r[field].as_array().unwrap();
            assert!(items.len() <= 2, "{method} page {page}: {r}");
            seen.extend(items.iter().cloned());
            scopes.push(r["cacheScope"].clone());
            assert!(r["ttlMs"].as_u64().is_some(), "{method}: {r}");
            match r.get("nextCursor") {
                Some(next) => params = json!({"cursor": next}),
                None => break,
            }
            assert!(page < 20, "{method} never ends");
        }
        let unpaged = builder().build().unwrap();
        let all = rpc(&unpaged, &caller, method, json!({})).await;
        assert_eq!(Value::from(seen), result(&all)[field], "{method}");
        assert!(
            scopes.windows(2).all(|w| w[0] == w[1]),
            "{method}: {scopes:?}"
        );

        // A cursor of one list is refused by another, and garbage is refused.
        for cursor in [Value::from("garbage"), Value::from("")] {
            let e = rpc(&server, &caller, method, json!({"cursor": cursor})).await;
            assert_eq!(error(&e, -32602)["data"]["cursor"], cursor);
        }
        let e = rpc(&server, &caller, method, json!({"cursor": 3})).await;
        error(&e, -32602);
    }
    let first = rpc(&server, &staff(), "prompts/list", json!({})).await;
    assert_eq!(result(&first)["ttlMs"], 5_000);
    let cursor = result(&first)["nextCursor"].clone();
    let e = rpc(
        &server,
        &staff(),
        "resources/list",
        json!({"cursor": cursor}),
    )
    .await;
    error(&e, -32602);
}

#[tokio::test]
async fn a_cursor_minted_for_one_view_is_refused_in_another() {
    let server = builder().page_size(2).build().unwrap();
    let staff_page = rpc(&server, &staff(), "prompts/list", json!({})).await;
    let cursor = result(&staff_page)["nextCursor"].clone();
    // The anonymous view lacks staff_briefing, so its contents differ: the cursor is stale.
    let e = rpc(
        &server,
        &anonymous(),
        "prompts/list",
        json!({"cursor": cursor}),
    )
    .await;
    assert!(
        error(&e, -32602)["message"]
            .as_str()
            .unwrap()
            .contains("cursor"),
        "{e}"
    );
}

#[tokio::test]
async fn reads_return_text_and_blob_contents_with_cache_hints() {
    let server = server();
    let text = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "test://static-text"}),
    )
    .await;
    assert_eq!(
        result(&text)["contents"],
        json!([{"uri": "test://static-text", "mimeType": "text/plain",
                "text": "This is the content of the static text resource."}])
    );
    assert_eq!(result(&text)["resultType"], "complete");
    assert_eq!(
        (&result(&text)["ttlMs"], &result(&text)["cacheScope"]),
        (&json!(60_000), &json!("private"))
    );
    assert_eq!(
        result(&text)["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "docs"
    );

    let blob = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "test://static-binary"}),
    )
    .await;
    let contents = &result(&blob)["contents"][0];
    assert_eq!(contents["mimeType"], "image/png");
    assert_eq!(contents["blob"], "iVBORw0KGgo=");
    assert!(contents.get("text").is_none());
    // The per-resource hint wins over the server default.
    assert_eq!(result(&blob)["ttlMs"], 86_400_000);
    assert_eq!(result(&blob)["cacheScope"], "public");
}

#[tokio::test]
async fn templates_substitute_typed_variables() {
    let server = server();
    let reply = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "test://template/123/data"}),
    )
    .await;
    assert_eq!(
        result(&reply)["contents"],
        json!([{"uri": "test://template/123/data", "mimeType": "application/json",
                "text": r#"{"id":"123","templateTest":true,"data":"Data for ID: 123"}"#}])
    );
    // Percent-encoded values are decoded before the handler sees them.
    let reply = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "test://template/a%20b/data"}),
    )
    .await;
    assert!(
        result(&reply)["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains(r#""id":"a b""#)
    );

    let item = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "docs://items/42"}),
    )
    .await;
    assert_eq!(result(&item)["contents"][0]["text"], "item 42");

    // A reserved expansion spans slashes.
    let file = rpc(
        &server,
        &acme(),
        "resources/read",
        json!({"uri": "file:///etc/app/config.toml"}),
    )
    .await;
    assert_eq!(
        result(&file)["contents"][0]["text"],
        "contents of etc/app/config.toml"
    );

    let list = rpc(&server, &acme(), "resources/templates/list", json!({})).await;
    assert_eq!(
        result(&list)["resourceTemplates"],
        json!([
            {"uriTemplate": "docs://items/{id}", "name": "item",
             "description": "An item by numeric id", "mimeType": "text/plain"},
            {"uriTemplate": "file:///{+path}", "name": "tenant-file",
             "description": "A file of the acme tenant"},
            {"uriTemplate": "test://template/{id}/data", "name": "template-data",
             "description": "Data by id", "mimeType": "application/json"},
        ])
    );
    let anon = rpc(&server, &anonymous(), "resources/templates/list", json!({})).await;
    assert_eq!(
        result(&anon)["resourceTemplates"].as_array().unwrap().len(),
        2
    );
}

#[tokio::test]
async fn a_missing_resource_is_invalid_params_with_its_uri_never_empty_contents() {
    let server = server();
    for (uri, detail) in [
        ("test://nonexistent-resource-for-conformance-testing", None),
        ("docs://items/abc", Some("`id`")),
        ("docs://items/0", None),
        ("docs://items/", None),
        ("test://template/1/2/data", None),
        ("docs://empty", Some("no contents")),
    ] {
        let reply = rpc(&server, &anonymous(), "resources/read", json!({"uri": uri})).await;
        let e = error(&reply, -32602);
        assert_eq!(e["data"]["uri"], uri, "{reply}");
        let message = e["message"].as_str().unwrap();
        assert!(message.starts_with("Resource not found"), "{message}");
        if let Some(detail) = detail {
            assert!(message.contains(detail), "{uri}: {message}");
        }
    }
    for params in [json!({}), json!({"uri": 5})] {
        let reply = rpc(&server, &anonymous(), "resources/read", params).await;
        assert!(
            error(&reply, -32602)["message"]
                .as_str()
                .unwrap()
                .contains("uri"),
            "{reply}"
        );
    }
}

#[tokio::test]
async fn read_handler_failures_are_internal_errors_naming_the_uri() {
    let server = server();
    let broken = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "docs://broken"}),
    )
    .await;
    let e = error(&broken, -32603);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("the disk is on fire"),
        "{e}"
    );
    assert_eq!(e["data"]["uri"], "docs://broken");

    let panics = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "docs://panics"}),
    )
    .await;
    let e = error(&panics, -32603);
    assert_eq!(e["data"]["panic"], "read exploded");

    let prompt = rpc(
        &server,
        &anonymous(),
        "prompts/get",
        json!({"name": "fails"}),
    )
    .await;
    assert!(
        error(&prompt, -32603)["message"]
            .as_str()
            .unwrap()
            .contains("boom")
    );
}

/// A handler's own words (`ToolError::new`) refuse the request: from a read, a prompt or a
/// completion that is -32602 with the message as written, as the spec asks for bad arguments,
/// while an error `?` converts stays -32603 (`read_handler_failures_are_internal_errors..`).
#[tokio::test]
async fn a_handlers_own_words_are_invalid_params_with_the_message_kept() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Trip {
        city: String,
    }
    #[derive(serde::Deserialize)]
    struct Item {
        id: u32,
    }
    let server = Server::builder("refusals", "1.0.0")
        .resource_template(ResourceTemplate::new("shop://items/{id}", "item").read(
            |_ctx: Context, Item { id }: Item| async move {
                if id == 0 {
                    return Err(ToolError::new("item ids start at 1"));
                }
                Ok(format!("item {id}"))
            },
        ))
        .prompt(
            Prompt::new("trip")
                .get(|_ctx: Context, trip: Trip| async move {
                    if trip.city == "Atlantis" {
                        return Err(ToolError::new("no trips to Atlantis"));
                    }
                    Ok(format!("Plan a trip to {}", trip.city))
                })
                .complete(
                    "city",
                    |_ctx: Context, request: CompletionRequest| async move {
                        if request.value.len() > 20 {
                            return Err(ToolError::new("type at most 20 characters"));
                        }
                        Ok(vec!["Paris"])
                    },
                ),
        )
        .build()
        .unwrap();

    let read = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "shop://items/0"}),
    )
    .await;
    let e = error(&read, -32602);
    assert_eq!(e["message"], "item ids start at 1");
    assert_eq!(e["data"], json!({"uri": "shop://items/0"}));

    let prompt = rpc(
        &server,
        &anonymous(),
        "prompts/get",
        json!({"name": "trip", "arguments": {"city": "Atlantis"}}),
    )
    .await;
    let e = error(&prompt, -32602);
    assert_eq!(e["message"], "no trips to Atlantis");
    assert_eq!(e["data"], json!({"prompt": "trip"}));

    let complete = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "trip"},
               "argument": {"name": "city", "value": "x".repeat(21)}}),
    )
    .await;
    let e = error(&complete, -32602);
    assert_eq!(e["message"], "type at most 20 characters");
    assert_eq!(e["data"], json!({"argument": "city"}));

    // The same handlers serve what they accept.
    let ok = rpc(
        &server,
        &anonymous(),
        "prompts/get",
        json!({"name": "trip", "arguments": {"city": "Paris"}}),
    )
    .await;
    assert_eq!(
        result(&ok)["messages"][0]["content"]["text"],
        "Plan a trip to Paris"
    );
}

#[tokio::test]
async fn resources_read_can_ask_for_input_and_complete_on_the_retry() {
    let server = server();
    let caps = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    });
    let first = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"_meta": caps, "uri": "docs://confirm"}),
    )
    .await;
    let r = result(&first);
    assert_eq!(r["resultType"], "input_required");
    assert!(
        r.get("ttlMs").is_none(),
        "input_required carries no cache hints: {r}"
    );
    assert_eq!(
        r["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    let retry = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"_meta": caps, "uri": "docs://confirm",
               "inputResponses": {"confirm": {"action": "accept", "content": {"ok": true}}},
               "requestState": r["requestState"]}),
    )
    .await;
    assert_eq!(result(&retry)["contents"][0]["text"], "the secret");
    assert_eq!(result(&retry)["cacheScope"], "private");

    // Without the elicitation capability the question cannot be asked: -32021.
    let no_caps = rpc(
        &server,
        &anonymous(),
        "resources/read",
        json!({"uri": "docs://confirm"}),
    )
    .await;
    error(&no_caps, -32021);
}

// ---- prompts ------------------------------------------------------------------------------

#[tokio::test]
async fn prompts_list_publishes_arguments_with_required() {
    let server = server();
    let reply = rpc(&server, &anonymous(), "prompts/list", json!({})).await;
    let prompts = result(&reply)["prompts"].as_array().unwrap();
    let names: Vec<&str> = prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "code_review",
            "fails",
            "test_input_required_result_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
            "test_simple_prompt"
        ]
    );
    assert_eq!(
        prompts[3],
        json!({"name": "test_prompt_with_arguments", "description": "A prompt with arguments",
               "arguments": [
                   {"name": "arg1", "description": "First test argument", "required": true},
                   {"name": "arg2", "description": "Second test argument", "required": true}]})
    );
    assert_eq!(
        prompts[0]["arguments"],
        json!([
            {"name": "code", "description": "The code to review.", "required": true},
            {"name": "language", "title": "Language", "required": false},
            {"name": "max_findings", "description": "How many findings at most.", "required": false}
        ])
    );
    assert!(
        prompts[6].get("arguments").is_none(),
        "no arguments, no list"
    );
    let staff_reply = rpc(&server, &staff(), "prompts/list", json!({})).await;
    let staff_names: Vec<&str> = result(&staff_reply)["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(staff_names.contains(&"staff_briefing"));
}

#[tokio::test]
async fn prompts_get_fills_arguments_and_carries_any_content_block() {
    let server = server();
    let get = |name: &'static str, arguments: Value| {
        let server = server.clone();
        async move {
            rpc(
                &server,
                &anonymous(),
                "prompts/get",
                json!({"name": name, "arguments": arguments}),
            )
            .await
        }
    };
    let simple = get("test_simple_prompt", json!({})).await;
    assert_eq!(
        result(&simple)["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}])
    );
    assert!(
        result(&simple).get("ttlMs").is_none(),
        "prompts/get has no cache hints"
    );

    let args = get(
        "test_prompt_with_arguments",
        json!({"arg1": "hello", "arg2": "world"}),
    )
    .await;
    assert_eq!(
        result(&args)["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='hello', arg2='world'"
    );

    let embedded = get(
        "test_prompt_with_embedded_resource",
        json!({"resourceUri": "test://doc"}),
    )
    .await;
    assert_eq!(
        result(&embedded)["messages"],
        json!([
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": "test://doc", "mimeType": "text/plain",
                "text": "Embedded resource content for testing."}}},
            {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}}
        ])
    );

    let image = get("test_prompt_with_image", json!({})).await;
    assert_eq!(
        result(&image)["messages"][0]["content"],
        json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"})
    );

    // Typed fields parse from the strings of the wire; optional ones may be left out.
    let review = get("code_review", json!({"code": "x = 1", "max_findings": "3"})).await;
    assert_eq!(
        result(&review)["messages"][0]["content"]["text"],
        "Review this unknown code (at most 3 findings):\nx = 1"
    );
    assert_eq!(result(&review)["messages"][1]["role"], "assistant");
    assert_eq!(result(&review)["messages"][1]["content"]["type"], "audio");

    // `arguments` may be absent for a prompt without arguments.
    let bare = rpc(
        &server,
        &anonymous(),
        "prompts/get",
        json!({"name": "test_simple_prompt"}),
    )
    .await;
    result(&bare);
}

#[tokio::test]
async fn bad_prompt_requests_are_invalid_params_naming_what_is_wrong() {
    let server = server();
    for (params, needle) in [
        (json!({"name": "nope"}), "Unknown prompt: nope"),
        (
            json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "a"}}),
            "`arg2`",
        ),
        (json!({"name": "test_prompt_with_arguments"}), "`arg1`"),
        (
            json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "a", "arg2": "b", "arg3": "c"}}),
            "no argument `arg3`",
        ),
        (
            json!({"name": "test_simple_prompt", "arguments": {"x": "1"}}),
            "takes no arguments",
        ),
        (
            json!({"name": "code_review", "arguments": {"code": "c", "max_findings": "many"}}),
            "`max_findings`",
        ),
        (
            json!({"name": "code_review", "arguments": {"code": 5}}),
            "arguments.code must be a string",
        ),
        (
            json!({"name": "code_review", "arguments": ["code"]}),
            "arguments must be an object",
        ),
        (json!({}), "missing name"),
        (json!({"name": 3}), "name must be a string"),
    ] {
        let reply = rpc(&server, &anonymous(), "prompts/get", params.clone()).await;
        let message = error(&reply, -32602)["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains(needle), "{params}: {message}");
    }
}

#[tokio::test]
async fn prompts_get_can_answer_input_required() {
    let server = server();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    });
    let first = rpc(
        &server,
        &anonymous(),
        "prompts/get",
        json!({"_meta": meta, "name": "test_input_required_result_prompt"}),
    )
    .await;
    let r = result(&first);
    assert_eq!(r["resultType"], "input_required");
    assert_eq!(
        r["inputRequests"]["user_context"]["params"]["message"],
        "What context should the prompt use?"
    );
    let retry = rpc(
        &server,
        &anonymous(),
        "prompts/get",
        json!({"_meta": meta, "name": "test_input_required_result_prompt",
               "inputResponses": {"user_context": {"action": "accept", "content": {"context": "tests"}}},
               "requestState": r["requestState"]}),
    )
    .await;
    assert_eq!(result(&retry)["resultType"], "complete");
    assert_eq!(
        result(&retry)["messages"][0]["content"]["text"],
        "Use this context: tests"
    );

    // A state minted for another prompt is refused.
    let other = rpc(
        &server,
        &anonymous(),
        "prompts/get",
        json!({"_meta": meta, "name": "test_simple_prompt",
               "inputResponses": {"user_context": {"action": "accept", "content": {"context": "x"}}},
               "requestState": r["requestState"]}),
    )
    .await;
    error(&other, -32602);
}

// ---- completion ---------------------------------------------------------------------------

fn complete_params(reference: Value, name: &str, value: &str) -> Value {
    json!({"ref": reference, "argument": {"name": name, "value": value}})
}

#[tokio::test]
async fn completion_completes_prompt_arguments_and_template_variables() {
    let server = server();
    let prompt = json!({"type": "ref/prompt", "name": "test_prompt_with_arguments"});
    let reply = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        complete_params(prompt.clone(), "arg1", "par"),
    )
    .await;
    assert_eq!(
        result(&reply)["completion"],
        json!({"values": ["paris", "park", "party"], "total": 3, "hasMore": false})
    );
    // A real argument with no completion handler has no suggestions.
    let reply = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        complete_params(prompt, "arg2", "x"),
    )
    .await;
    assert_eq!(result(&reply)["completion"]["values"], json!([]));

    let template = json!({"type": "ref/resource", "uri": "test://template/{id}/data"});
    let reply = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        complete_params(template, "id", "12"),
    )
    .await;
    assert_eq!(
        result(&reply)["completion"]["values"],
        json!(["123", "124"])
    );

    // More than 100 candidates: 100 values, the total, and hasMore.
    let items = json!({"type": "ref/resource", "uri": "docs://items/{id}"});
    let reply = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        complete_params(items, "id", ""),
    )
    .await;
    let c = &result(&reply)["completion"];
    assert_eq!(c["values"].as_array().unwrap().len(), 100);
    assert_eq!((&c["total"], &c["hasMore"]), (&json!(250), &json!(true)));
}

#[tokio::test]
async fn completion_sees_the_context_arguments() {
    let server = server();
    let mut params = complete_params(
        json!({"type": "ref/prompt", "name": "code_review"}),
        "language",
        "r",
    );
    let plain = rpc(&server, &anonymous(), "completion/complete", params.clone()).await;
    assert_eq!(
        result(&plain)["completion"]["values"],
        json!(["rust", "ruby"])
    );
    params["context"] = json!({"arguments": {"code": "fn main() {}"}});
    let reply = rpc(&server, &anonymous(), "completion/complete", params.clone()).await;
    assert_eq!(
        result(&reply)["completion"]["values"],
        json!(["rust", "ruby"])
    );
    params["argument"]["value"] = json!("");
    let reply = rpc(&server, &anonymous(), "completion/complete", params.clone()).await;
    assert_eq!(result(&reply)["completion"]["values"][0], "rust");
    params["context"] = json!({"arguments": {"code": 1}});
    let reply = rpc(&server, &anonymous(), "completion/complete", params).await;
    assert!(
        error(&reply, -32602)["message"]
            .as_str()
            .unwrap()
            .contains("context.arguments.code")
    );
}

#[tokio::test]
async fn bad_completion_references_and_arguments_are_invalid_params() {
    let server = server();
    let prompt = |name: &str| json!({"type": "ref/prompt", "name": name});
    let resource = |uri: &str| json!({"type": "ref/resource", "uri": uri});
    for (params, needle) in [
        (
            complete_params(prompt("nope"), "a", ""),
            "Unknown prompt: nope",
        ),
        (
            complete_params(prompt("test_prompt_with_arguments"), "arg9", ""),
            "no argument `arg9`",
        ),
        (
            complete_params(resource("test://template/{id}/data"), "idx", ""),
            "no variable `idx`",
        ),
        (
            complete_params(resource("test://static-text"), "x", ""),
            "no variables",
        ),
        (
            complete_params(resource("test://none/{x}"), "x", ""),
            "Resource not found",
        ),
        (
            complete_params(json!({"type": "ref/tool", "name": "hello"}), "x", ""),
            "ref.type",
        ),
        (
            complete_params(json!("ref/prompt"), "x", ""),
            "ref must be an object",
        ),
        (
            json!({"ref": prompt("test_prompt_with_arguments")}),
            "missing argument",
        ),
        (
            json!({"ref": prompt("test_prompt_with_arguments"), "argument": {"name": "arg1"}}),
            "argument.value",
        ),
        (
            json!({"argument": {"name": "arg1", "value": ""}}),
            "missing ref",
        ),
    ] {
        let reply = rpc(&server, &anonymous(), "completion/complete", params.clone()).await;
        let message = error(&reply, -32602)["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains(needle), "{params}: {message}");
    }
}

// ---- authorization ------------------------------------------------------------------------

/// A hidden definition (refused by a callback, or by a scope rule made
/// `hidden_without_scope`) answers exactly as an unknown one: same code, same message shape,
/// same data, so a denied caller cannot tell it exists. (A scope rule that is not hidden is
/// listed and challenged instead: `tests/auth_step_up.rs`.)
#[tokio::test]
async fn denied_definitions_are_indistinguishable_from_unknown_ones() {
    let server = server();
    let same = |denied: &Value, unknown: &Value, denied_key: &str, unknown_key: &str| {
        let d = serde_json::to_string(&denied["error"])
            .unwrap()
            .replace(denied_key, "KEY");
        let u = serde_json::to_string(&unknown["error"])
            .unwrap()
            .replace(unknown_key, "KEY");
        assert_eq!(d, u, "denied: {denied}\nunknown: {unknown}");
    };
    let read = |uri: &str| json!({"uri": uri});
    let denied = rpc(
        &server,
        &anonymous(),
        "resources/read",
        read("docs://handbook"),
    )
    .await;
    let unknown = rpc(
        &server,
        &anonymous(),
        "resources/read",
        read("docs://nothing"),
    )
    .await;
    error(&denied, -32602);
    same(&denied, &unknown, "docs://handbook", "docs://nothing");

    let denied = rpc(
        &server,
        &staff(),
        "resources/read",
        read("file:///etc/passwd"),
    )
    .await;
    let unknown = rpc(
        &server,
        &staff(),
        "resources/read",
        read("nofile:///etc/passwd"),
    )
    .await;
    same(
        &denied,
        &unknown,
        "file:///etc/passwd",
        "nofile:///etc/passwd",
    );

    let get = |name: &str| json!({"name": name, "arguments": {"topic": "t"}});
    let denied = rpc(&server, &anonymous(), "prompts/get", get("staff_briefing")).await;
    let unknown = rpc(&server, &anonymous(), "prompts/get", get("staff_debrief")).await;
    same(&denied, &unknown, "staff_briefing", "staff_debrief");

    let refp =
        |name: &str| complete_params(json!({"type": "ref/prompt", "name": name}), "topic", "p");
    let denied = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        refp("staff_briefing"),
    )
    .await;
    let unknown = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        refp("staff_debrief"),
    )
    .await;
    same(&denied, &unknown, "staff_briefing", "staff_debrief");

    let refr = |uri: &str| complete_params(json!({"type": "ref/resource", "uri": uri}), "path", "");
    let denied = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        refr("file:///{+path}"),
    )
    .await;
    let unknown = rpc(
        &server,
        &anonymous(),
        "completion/complete",
        refr("file:///{+other}"),
    )
    .await;
    same(&denied, &unknown, "file:///{+path}", "file:///{+other}");

    let call = |name: &str| json!({"name": name, "arguments": {}});
    let denied = rpc(&server, &anonymous(), "tools/call", call("purge")).await;
    let unknown = rpc(&server, &anonymous(), "tools/call", call("purgx")).await;
    same(&denied, &unknown, "purge", "purgx");
}

#[tokio::test]
async fn allowed_callers_see_and_use_restricted_definitions() {
    let server = server();
    let handbook = rpc(
        &server,
        &staff(),
        "resources/read",
        json!({"uri": "docs://handbook"}),
    )
    .await;
    assert_eq!(
        result(&handbook)["contents"][0]["text"],
        "# Handbook\nfor sam"
    );

    // The alternative scope set: admin and audit together, not either alone.
    let both = Caller::new(Identity::principal("a").with_scopes(["audit", "admin"]));
    let one = Caller::new(Identity::principal("b").with_scopes(["admin"]));
    let get = json!({"name": "staff_briefing", "arguments": {"topic": "payroll"}});
    let reply = rpc(&server, &both, "prompts/get", get.clone()).await;
    assert_eq!(
        result(&reply)["messages"][0]["content"]["text"],
        "Brief the staff on \"payroll\""
    );
    error(&rpc(&server, &one, "prompts/get", get).await, -32602);

    let reply = rpc(
        &server,
        &staff(),
        "completion/complete",
        complete_params(
            json!({"type": "ref/prompt", "name": "staff_briefing"}),
            "topic",
            "pa",
        ),
    )
    .await;
    assert_eq!(
        result(&reply)["completion"]["values"],
        json!(["payroll", "parking"])
    );

    let tools = rpc(&server, &anonymous(), "tools/list", json!({})).await;
    assert_eq!(result(&tools)["tools"].as_array().unwrap().len(), 1);
    let tools = rpc(&server, &staff(), "tools/list", json!({})).await;
    assert_eq!(result(&tools)["tools"].as_array().unwrap().len(), 2);
    let call = rpc(
        &server,
        &staff(),
        "tools/call",
        json!({"name": "purge", "arguments": {}}),
    )
    .await;
    assert_eq!(result(&call)["content"][0]["text"], "purged");

    // The callback sees the tenant: another tenant does not see acme's files.
    let globex = Caller::new(Identity::principal("g").with_tenant("globex"));
    let reply = rpc(
        &server,
        &globex,
        "resources/read",
        json!({"uri": "file:///a.txt"}),
    )
    .await;
    error(&reply, -32602);
}

/// The same rules through the test surface's request helpers, with its identity options.
#[tokio::test]
async fn the_request_helpers_reach_every_method_with_identities() {
    let server = server();
    let anon = RequestOptions::new().anonymous();
    let staff = RequestOptions::new().principal("sam").scopes(["staff"]);

    let list = testing::list_resources(&server, &anon).await;
    let count = list["result"]["resources"].as_array().unwrap().len();
    let list = testing::list_resources(&server, &staff).await;
    assert_eq!(
        list["result"]["resources"].as_array().unwrap().len(),
        count + 1
    );

    let read = testing::read_resource(&server, "docs://handbook", &staff).await;
    assert_eq!(read["result"]["contents"][0]["text"], "# Handbook\nfor sam");
    let read = testing::read_resource(&server, "docs://handbook", &anon).await;
    assert_eq!(read["error"]["code"], -32602);
    assert_eq!(read["error"]["data"]["uri"], "docs://handbook");

    let templates = testing::list_resource_templates(&server, &anon).await;
    assert_eq!(
        templates["result"]["resourceTemplates"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let prompts = testing::list_prompts(&server, &staff).await;
    assert!(prompts["result"]["prompts"].as_array().unwrap().len() > 7);

    let got = testing::get_prompt(
        &server,
        "test_prompt_with_arguments",
        json!({"arg1": "a", "arg2": "b"}),
        &anon,
    )
    .await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='a', arg2='b'"
    );
    let missing = testing::get_prompt(
        &server,
        "test_prompt_with_arguments",
        json!({"arg1": "a"}),
        &anon,
    )
    .await;
    assert_eq!(missing["error"]["code"], -32602);

    let completion = testing::complete(
        &server,
        json!({"type": "ref/prompt", "name": "code_review"}),
        json!({"name": "language", "value": ""}),
        &anon
            .clone()
            .completion_context(json!({"arguments": {"code": "fn x() {}"}})),
    )
    .await;
    assert_eq!(completion["result"]["completion"]["values"][0], "rust");
}

// ---- declaration mistakes -----------------------------------------------------------------

fn build_error(builder: ServerBuilder) -> BuildError {
    builder.build().expect_err("the declaration is refused")
}

#[test]
fn declaration_mistakes_are_build_errors_naming_the_definition() {
    let text = |uri: &str| Resource::new(uri, "r").text("t");
    let cases: Vec<(ServerBuilder, &str)> = vec![
        (
            Server::builder("s", "1")
                .resource(text("a://x"))
                .resource(text("a://x")),
            "two resources are registered as `a://x`",
        ),
        (
            Server::builder("s", "1").resource(text("no scheme")),
            "resource `no scheme`: a URI needs a scheme",
        ),
        (
            Server::builder("s", "1").resource(Resource::new("a://x", "x")),
            "resource `a://x`: it has no read handler",
        ),
        (
            Server::builder("s", "1").resource_template(
                ResourceTemplate::new("a://{?q}", "q").read(
                    |_c: Context, _: Map<String, Value>| async move { Ok::<_, ToolError>("") },
                ),
            ),
            "resource template `a://{?q}`: invalid URI template",
        ),
        (
            Server::builder("s", "1").resource_template(
                ResourceTemplate::new("a://{id}", "t")
                    .read(
                        |_c: Context, _: Map<String, Value>| async move { Ok::<_, ToolError>("") },
                    )
                    .complete_from("name", ["x"]),
            ),
            "a completion is attached to `name`, which it does not have",
        ),
        (
            Server::builder("s", "1")
                .prompt(Prompt::new("p").text("t"))
                .prompt(Prompt::new("p").text("u")),
            "two prompts are registered as `p`",
        ),
        (
            Server::builder("s", "1").prompt(Prompt::new("p")),
            "prompt `p`: it has no get handler",
        ),
        (
            Server::builder("s", "1").prompt(Prompt::new("p").text("t").complete_from("a", ["x"])),
            "prompt `p`: a completion is attached to `a`",
        ),
        (
            Server::builder("s", "1")
                .resource(text("a://x").access(Access::scopes(["s"])))
                .resources_cache(CacheHint::new(1, CacheScope::Public)),
            "resources/list must not be cached with cacheScope \"public\"",
        ),
        (
            Server::builder("s", "1").resource(
                text("a://x")
                    .access(Access::scopes(["s"]))
                    .cache(CacheHint::new(1, CacheScope::Public)),
            ),
            "its contents must not be cached",
        ),
        (
            Server::builder("s", "1")
                .tool_with_access::<Purge>(Access::scopes(["staff"]))
                .tools_cache(CacheHint::new(1, CacheScope::Public)),
            "tool `purge`: it is restricted by authorization",
        ),
    ];
    for (builder, needle) in cases {
        let e = build_error(builder).to_string();
        assert!(e.contains(needle), "expected {needle:?} in: {e}");
    }
    // Public definitions may be cached publicly.
    Server::builder("s", "1")
        .resource(text("a://x").cache(CacheHint::new(1, CacheScope::Public)))
        .resources_cache(CacheHint::new(1, CacheScope::Public))
        .build()
        .unwrap();
}
