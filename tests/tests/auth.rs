//! `mcp_test::auth` end to end: the local authorization server's real HTTP flows (dynamic
//! registration, authorization code with PKCE, client ID metadata documents, client
//! credentials, refresh, introspection), and the runtime's HTTP transport validating its
//! tokens: 401 and 403 with their challenges, the protected-resource metadata, and the
//! identity reaching the per-definition access rules.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE, LOCATION, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderValue, Method, StatusCode};
use mcp_test::auth::{AuthServer, Signature, TokenSpec, TokenValidator};
use mcp_test::client::{HttpClient, HttpOptions, HttpReply};
use mcp_test::testing::TestContext;
use mcp_test::transport::http::{HttpConfig, bind_local, router};
use mcp_test::{Access, Context, Server, Tool, ToolError};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::time::Duration;

/// Lists the items (needs scope `items.read`).
#[derive(Tool)]
struct Items {}

impl Items {
    async fn run(self, ctx: &Context) -> Result<String, ToolError> {
        Ok(format!(
            "items for {}",
            ctx.identity().principal.as_deref().unwrap_or("nobody")
        ))
    }
}

/// Says hello.
#[derive(Tool)]
struct Hello {}

impl Hello {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok("hello".into())
    }
}

/// An MCP server on 127.0.0.1 trusting `auth`, every request needing scope `mcp`; its
/// resource URL and validator.
async fn protected(auth: &AuthServer) -> (String, TokenValidator) {
    let listener = bind_local(0).await.expect("a free port");
    let resource = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    // The keys are fetched from the issuer's metadata, as a real server would.
    let validator = TokenValidator::new(auth.issuer(), &resource).require_scopes(["mcp"]);
    let server = Server::builder("protected", "1.0.0")
        .tool::<Hello>()
        .tool_with_access::<Items>(Access::scopes(["items.read"]))
        .build()
        .expect("a valid server");
    let app = router(
        server,
        HttpConfig::default().authenticator(validator.clone()),
    )
    .merge(validator.metadata_router());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (resource, validator)
}

async fn send(method: Method, url: &str, headers: HeaderMap, body: impl Into<Bytes>) -> HttpReply {
    let client = HttpClient::with_options(&HttpOptions::new()).expect("a client");
    let uri = HttpClient::parse_url(url).expect("a URL");
    client
        .request(method, &uri, headers, body.into(), Duration::from_secs(10))
        .await
        .unwrap_or_else(|e| panic!("{url}: {e}"))
}

async fn post_form(url: &str, pairs: &[(&str, &str)], basic: Option<(&str, &str)>) -> HttpReply {
    let mut form = form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs {
        form.append_pair(name, value);
    }
    let mut headers = HeaderMap::new();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-www-form-urlencoded"),
    );
    if let Some((id, secret)) = basic {
        let encoded = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"));
        headers.insert(
            AUTHORIZATION,
            HeaderValue::from_str(&format!("Basic {encoded}")).expect("a header"),
        );
    }
    send(Method::POST, url, headers, form.finish()).await
}

fn json_of(reply: &HttpReply) -> Value {
    serde_json::from_slice(&reply.body)
        .unwrap_or_else(|e| panic!("not JSON ({e}): HTTP {} {}", reply.status, reply.text()))
}

/// POSTs `server/discover` to `url` with `Authorization: Bearer token` (none when `None`).
async fn discover_with(url: &str, token: Option<&str>) -> HttpReply {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        "accept",
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    headers.insert(
        "mcp-protocol-version",
        HeaderValue::from_static("2026-07-28"),
    );
    headers.insert("mcp-method", HeaderValue::from_static("server/discover"));
    if let Some(token) = token {
        headers.insert(
            AUTHORIZATION,
            HeaderValue::from_str(&format!("Bearer {token}")).expect("a header"),
        );
    }
    let body = mcp_test::wire::build::build_request("server/discover", json!({})).to_string();
    send(Method::POST, url, headers, body).await
}

fn challenge(reply: &HttpReply) -> String {
    reply
        .headers
        .get(WWW_AUTHENTICATE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("HTTP {} without WWW-Authenticate", reply.status))
        .to_owned()
}

#[tokio::test]
async fn the_metadata_names_every_endpoint_and_the_jwks_verifies_its_tokens() {
    let auth = AuthServer::start().await.expect("the server starts");
    let issuer = auth.issuer();
    let metadata = json_of(
        &send(
            Method::GET,
            &format!("{issuer}/.well-known/oauth-authorization-server"),
            HeaderMap::new(),
            "",
        )
        .await,
    );
    assert_eq!(metadata["issuer"], issuer);
    assert_eq!(
        metadata["code_challenge_methods_supported"],
        json!(["S256"])
    );
    let jwks = json_of(&send(Method::GET, &format!("{issuer}/jwks"), HeaderMap::new(), "").await);
    let token = auth.token(&TokenSpec::new("http://127.0.0.1:1/mcp").subject("bob"));
    let claims = mcp_test::auth::jwt::verify(&token, &jwks).expect("its own key verifies");
    assert_eq!(claims["sub"], "bob");
    assert_eq!(claims["iss"], issuer);
    assert_eq!(claims["aud"], "http://127.0.0.1:1/mcp");
}

/// The value of `name` in the query of a redirect's `Location`.
fn redirect_param(reply: &HttpReply, name: &str) -> String {
    assert_eq!(reply.status, StatusCode::FOUND, "{}", reply.text());
    let location = reply.headers[LOCATION].to_str().expect("a location");
    let query = location.split_once('?').expect("a query").1;
    form_urlencoded::parse(query.as_bytes())
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| panic!("no {name} in {location}"))
}

/// Exchanges an authorization code at `issuer`'s token endpoint with the PKCE `verifier`.
async fn exchange(
    issuer: &str,
    code: &str,
    redirect: &str,
    client_id: &str,
    verifier: &str,
) -> HttpReply {
    post_form(
        &format!("{issuer}/token"),
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect),
            ("client_id", client_id),
            ("code_verifier", verifier),
        ],
        None,
    )
    .await
}

#[tokio::test]
async fn a_registered_client_gets_a_token_with_pkce_and_refreshes_it() {
    let auth = AuthServer::start().await.expect("the server starts");
    let issuer = auth.issuer().to_owned();
    let redirect = "http://127.0.0.1:1/callback";
    let registered = json_of(
        &send(
            Method::POST,
            &format!("{issuer}/register"),
            HeaderMap::new(),
            json!({"redirect_uris": [redirect], "token_endpoint_auth_method": "none", "client_name": "t"})
                .to_string(),
        )
        .await,
    );
    let client_id = registered["client_id"]
        .as_str()
        .expect("a client id")
        .to_owned();
    assert!(registered.get("client_secret").is_none(), "{registered}");

    let verifier = "a-verifier-of-enough-length-0123456789-abcdefghij";
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    let authorize = |challenge: &str, method: &str| {
        let mut query = form_urlencoded::Serializer::new(String::new());
        query
            .append_pair("response_type", "code")
            .append_pair("client_id", &client_id)
            .append_pair("redirect_uri", redirect)
            .append_pair("code_challenge", challenge)
            .append_pair("code_challenge_method", method)
            .append_pair("state", "s1")
            .append_pair("scope", "mcp items.read")
            .append_pair("resource", "http://127.0.0.1:1/mcp");
        let url = format!("{issuer}/authorize?{}", query.finish());
        async move { send(Method::GET, &url, HeaderMap::new(), "").await }
    };
    // Without PKCE S256 the error goes back to the client.
    let plain = authorize(verifier, "plain").await;
    assert_eq!(redirect_param(&plain, "error"), "invalid_request");

    let approved = authorize(&challenge, "S256").await;
    assert_eq!(redirect_param(&approved, "state"), "s1");
    assert_eq!(redirect_param(&approved, "iss"), issuer);
    let code = redirect_param(&approved, "code");
    let wrong = exchange(
        &issuer,
        &code,
        redirect,
        &client_id,
        "another-verifier-of-enough-length-0123",
    )
    .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert_eq!(json_of(&wrong)["error"], "invalid_grant");
    // A failed exchange spends the code (RFC 6749 §4.1.2: a code is used once).
    let again = exchange(&issuer, &code, redirect, &client_id, verifier).await;
    assert_eq!(json_of(&again)["error"], "invalid_grant");

    // Again, this time with the right verifier first.
    let code = redirect_param(&authorize(&challenge, "S256").await, "code");
    let tokens = json_of(&exchange(&issuer, &code, redirect, &client_id, verifier).await);
    assert_eq!(tokens["scope"], "mcp items.read", "{tokens}");
    let token = tokens["access_token"].as_str().expect("a token");
    let claims = mcp_test::auth::jwt::verify(token, &auth.jwks()).expect("verifies");
    assert_eq!(claims["aud"], "http://127.0.0.1:1/mcp");
    let refresh = tokens["refresh_token"].as_str().expect("a refresh token");
    let refreshed = json_of(
        &post_form(
            &format!("{issuer}/token"),
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh),
                ("client_id", &client_id),
            ],
            None,
        )
        .await,
    );
    assert!(refreshed["access_token"].is_string(), "{refreshed}");
}

#[tokio::test]
async fn a_client_id_metadata_document_stands_for_a_registration() {
    let auth = AuthServer::start().await.expect("the server starts");
    let listener = bind_local(0).await.expect("a free port");
    let client_id = format!(
        "http://{}/client.json",
        listener.local_addr().expect("bound")
    );
    let document = json!({"client_id": client_id, "client_name": "cimd", "redirect_uris": ["http://127.0.0.1:1/cb"]});
    let app = axum::Router::new().route(
        "/client.json",
        axum::routing::get(move || {
            let document = document.to_string();
            async move { document }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    let url = |redirect: &str| {
        let mut query = form_urlencoded::Serializer::new(String::new());
        query
            .append_pair("response_type", "code")
            .append_pair("client_id", &client_id)
            .append_pair("redirect_uri", redirect)
            .append_pair("code_challenge", "x")
            .append_pair("code_challenge_method", "S256")
            .append_pair("resource", "http://127.0.0.1:1/mcp");
        format!("{}/authorize?{}", auth.issuer(), query.finish())
    };
    let ok = send(
        Method::GET,
        &url("http://127.0.0.1:1/cb"),
        HeaderMap::new(),
        "",
    )
    .await;
    assert_eq!(ok.status, StatusCode::FOUND, "{}", ok.text());
    let elsewhere = send(
        Method::GET,
        &url("http://127.0.0.1:1/other"),
        HeaderMap::new(),
        "",
    )
    .await;
    assert_eq!(
        elsewhere.status,
        StatusCode::BAD_REQUEST,
        "{}",
        elsewhere.text()
    );
}

#[tokio::test]
async fn client_credentials_tokens_reach_the_access_rules_through_the_validator() {
    let auth = AuthServer::start().await.expect("the server starts");
    let (resource, _) = protected(&auth).await;
    let token_url = format!("{}/token", auth.issuer());
    let token_for = |scope: &'static str| {
        let (token_url, resource, auth) = (token_url.clone(), resource.clone(), auth.clone());
        async move {
            let reply = post_form(
                &token_url,
                &[
                    ("grant_type", "client_credentials"),
                    ("scope", scope),
                    ("resource", &resource),
                ],
                Some((auth.client_id(), auth.client_secret())),
            )
            .await;
            json_of(&reply)["access_token"]
                .as_str()
                .unwrap_or_else(|| panic!("no token: {}", reply.text()))
                .to_owned()
        }
    };
    let names = |listed: Value| -> Vec<String> {
        listed["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("no tools: {listed}"))
            .iter()
            .map(|t| t["name"].as_str().expect("a name").to_owned())
            .collect()
    };
    let reader = TestContext::http_with(
        &resource,
        &mcp_test::auth::bearer(&token_for("mcp items.read").await),
    );
    assert_eq!(names(reader.list_tools().await), ["hello", "items"]);
    let called = reader.call_tool("items", json!({})).await;
    assert_eq!(
        called["result"]["content"][0]["text"],
        format!("items for {}", auth.client_id()),
        "{called}"
    );
    // Without items.read the tool is still listed, and calling it is a 403 naming the scope.
    let plain_token = mcp_test::auth::bearer(&token_for("mcp").await);
    let plain = TestContext::http_with(&resource, &plain_token);
    assert_eq!(names(plain.list_tools().await), ["hello", "items"]);
    let client = mcp_test::client::Client::http_with(&resource, &plain_token).expect("a client");
    let refused = client
        .send(&client.tool_call_body("items", json!({})))
        .await
        .expect_err("a 403");
    match &refused {
        mcp_test::client::ClientError::Forbidden {
            challenge: Some(challenge),
            ..
        } => {
            assert!(challenge.is_insufficient_scope(), "{refused}");
            // The endpoint's scope and the tool's, in one challenge.
            assert_eq!(challenge.scope, ["mcp", "items.read"], "{refused}");
        }
        other => panic!("not a 403 with a challenge: {other:?}"),
    }

    let wrong_secret = post_form(
        &token_url,
        &[
            ("grant_type", "client_credentials"),
            ("resource", &resource),
        ],
        Some((auth.client_id(), "not-the-secret")),
    )
    .await;
    assert_eq!(wrong_secret.status, StatusCode::UNAUTHORIZED);
    assert_eq!(json_of(&wrong_secret)["error"], "invalid_client");
}

#[tokio::test]
async fn each_wrong_token_gets_401_and_a_missing_scope_403_with_the_scope() {
    let auth = AuthServer::start().await.expect("the server starts");
    let (resource, validator) = protected(&auth).await;
    let good = TokenSpec::new(&resource).scopes(["mcp"]);

    let ok = discover_with(&resource, Some(&auth.token(&good))).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text());

    let none = discover_with(&resource, None).await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    let bare = challenge(&none);
    assert!(
        bare.contains(&format!(
            r#"resource_metadata="{}""#,
            validator.metadata_url()
        )),
        "{bare}"
    );
    assert!(bare.contains(r#"scope="mcp""#), "{bare}");
    assert!(!bare.contains("error="), "{bare}");

    let wrong = [
        (
            "another audience",
            good.clone().audience("http://127.0.0.1:1/other"),
        ),
        ("no audience", good.clone().audiences(Vec::<String>::new())),
        ("expired", good.clone().expired()),
        ("not yet valid", good.clone().not_before_in(3600.0)),
        ("another issuer", good.clone().issuer("http://127.0.0.1:1")),
        ("another key", good.clone().signature(Signature::WrongKey)),
        (
            "a changed signature",
            good.clone().signature(Signature::Tampered),
        ),
        ("alg none", good.clone().signature(Signature::NoneAlg)),
    ];
    for (what, spec) in wrong {
        let reply = discover_with(&resource, Some(&auth.token(&spec))).await;
        assert_eq!(
            reply.status,
            StatusCode::UNAUTHORIZED,
            "{what}: {}",
            reply.text()
        );
        let challenge = challenge(&reply);
        assert!(
            challenge.contains(r#"error="invalid_token""#),
            "{what}: {challenge}"
        );
        assert!(
            challenge.contains("resource_metadata="),
            "{what}: {challenge}"
        );
    }
    let garbage = discover_with(&resource, Some("not-a-jwt")).await;
    assert_eq!(garbage.status, StatusCode::UNAUTHORIZED);

    let unscoped = discover_with(
        &resource,
        Some(&auth.token(&good.clone().scopes(["other"]))),
    )
    .await;
    assert_eq!(
        unscoped.status,
        StatusCode::FORBIDDEN,
        "{}",
        unscoped.text()
    );
    let forbidden = challenge(&unscoped);
    assert!(
        forbidden.contains(r#"error="insufficient_scope""#),
        "{forbidden}"
    );
    assert!(forbidden.contains(r#"scope="mcp""#), "{forbidden}");

    let metadata =
        json_of(&send(Method::GET, &validator.metadata_url(), HeaderMap::new(), "").await);
    assert_eq!(metadata["resource"], resource);
    assert_eq!(metadata["authorization_servers"], json!([auth.issuer()]));
    assert_eq!(metadata["scopes_supported"], json!(["mcp"]));
}

#[tokio::test]
async fn introspection_says_active_only_for_a_live_token_of_its_own() {
    let auth = AuthServer::start().await.expect("the server starts");
    let url = format!("{}/introspect", auth.issuer());
    let spec = TokenSpec::new("http://127.0.0.1:1/mcp")
        .scopes(["a", "b"])
        .subject("carol");
    let live = json_of(&post_form(&url, &[("token", &auth.token(&spec))], None).await);
    assert_eq!(live["active"], true, "{live}");
    assert_eq!(live["sub"], "carol");
    assert_eq!(live["scope"], "a b");
    assert_eq!(live["aud"], "http://127.0.0.1:1/mcp");
    for spec in [
        spec.clone().expired(),
        spec.clone().signature(Signature::Tampered),
        spec.clone().issuer("http://127.0.0.1:1"),
    ] {
        let dead = json_of(&post_form(&url, &[("token", &auth.token(&spec))], None).await);
        assert_eq!(dead, json!({"active": false}));
    }
    let minted = json_of(
        &send(
            Method::POST,
            &format!("{}/mint", auth.issuer()),
            HeaderMap::new(),
            json!({"audience": ["http://127.0.0.1:1/mcp"], "scopes": ["x"], "signature": "wrong-key"}).to_string(),
        )
        .await,
    );
    let token = minted["access_token"].as_str().expect("a token");
    assert!(mcp_test::auth::jwt::verify(token, &auth.jwks()).is_err());

    // The body as the rustdoc of `AuthServer` documents it: one audience as a string, every
    // other field left to its default.
    let mint = format!("{}/mint", auth.issuer());
    let minted = json_of(
        &send(
            Method::POST,
            &mint,
            HeaderMap::new(),
            json!({"audience": "http://127.0.0.1:1/mcp", "scopes": ["notes.read"]}).to_string(),
        )
        .await,
    );
    let claims = mcp_test::auth::jwt::verify(
        minted["access_token"].as_str().expect("a token"),
        &auth.jwks(),
    )
    .expect("signed with the issuer's key");
    assert_eq!(claims["aud"], "http://127.0.0.1:1/mcp");
    assert_eq!(claims["scope"], "notes.read");
    assert_eq!(claims["sub"], "mcp-test-user");
    // A field the body does not have is refused naming it, not ignored.
    for (body, field) in [
        (json!({"scope": ["notes.read"]}), "unknown field `scope`"),
        (
            json!({"audience": 7}),
            "`audience` must be a string or an array of strings",
        ),
        (json!({"signature": "forged"}), "unknown variant `forged`"),
    ] {
        let reply = send(Method::POST, &mint, HeaderMap::new(), body.to_string()).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{body}");
        let error = json_of(&reply);
        assert_eq!(error["error"], "invalid_request", "{error}");
        let description = error["error_description"].as_str().expect("a description");
        assert!(description.contains(field), "{body}: {description}");
    }
}
