//! HTTPS and authorization on every client path, end to end on 127.0.0.1: the example server
//! behind rustls with a certificate a private CA made for this test (rcgen), and behind a
//! bearer-token check that answers 401 with a `resource_metadata` challenge. The library
//! client, `mcp-test check` and the ad-hoc commands reach it with `--ca-cert` and `--header`.

use axum::Router;
use axum::routing::get;
use mcp_test::Identity;
use mcp_test::client::{Client, ClientError, HttpOptions};
use mcp_test::transport::http::{AuthRejection, HttpConfig, bind_local, router};
use mcp_test_check::example_server;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};

mod support;
use support::mcp_test;

/// A CA, and a certificate for `127.0.0.1` and `localhost` it signed: the CA's PEM, and the
/// server's TLS configuration.
fn private_ca() -> (String, Arc<rustls::ServerConfig>) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "mcp-test private CA");
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let leaf_key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .unwrap()
        .signed_by(&leaf_key, &ca)
        .unwrap();
    let ca_cert: &rcgen::Certificate = ca.as_ref();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(leaf_key.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![leaf.der().clone()], key)
    .unwrap();
    (ca_cert.pem(), Arc::new(config))
}

/// TCP then TLS, for `axum::serve`; a failed handshake drops that connection only.
struct TlsListener {
    tcp: TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((stream, addr)) = self.tcp.accept().await else {
                continue;
            };
            if let Ok(Ok(tls)) = tokio::time::timeout(
                std::time::Duration::from_secs(10),
                self.acceptor.accept(stream),
            )
            .await
            {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

/// How the test server guards itself.
#[derive(Clone, Copy)]
enum Guard {
    /// Anyone may call.
    Open,
    /// Anyone may call, and every other path answers 200 with a JSON object of its own.
    OpenJsonEverywhere,
    /// `Authorization: Bearer good` or 401 naming the metadata; the metadata is served,
    /// `authorization_servers` included when `complete`. With `any_token`, every bearer token
    /// is taken (a server that validates nothing).
    Bearer { complete: bool, any_token: bool },
}

/// The example server on 127.0.0.1 at `/mcp`, over HTTPS when `tls` is given: its URL.
async fn start(tls: Option<Arc<rustls::ServerConfig>>, guard: Guard) -> String {
    let tcp = bind_local(0).await.unwrap();
    let addr = tcp.local_addr().unwrap();
    let scheme = if tls.is_some() { "https" } else { "http" };
    let url = format!("{scheme}://{addr}/mcp");
    let metadata_url = format!("{scheme}://{addr}/.well-known/oauth-protected-resource/mcp");
    let mut config = HttpConfig::default();
    let mut app = Router::new();
    if let Guard::Bearer {
        complete,
        any_token,
    } = guard
    {
        let challenge = format!(r#"Bearer resource_metadata="{metadata_url}", scope="mcp""#);
        config = config.authenticator(move |parts: &http::request::Parts| {
            match parts
                .headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
            {
                Some("Bearer good") => Ok(Identity::principal("tester")),
                Some(token) if any_token && token.starts_with("Bearer ") => {
                    Ok(Identity::principal("anyone"))
                }
                _ => Err(AuthRejection::new(
                    challenge.clone(),
                    "a bearer token is required",
                )),
            }
        });
        let mut document = json!({"resource": url, "scopes_supported": ["mcp"]});
        if complete {
            document["authorization_servers"] = json!(["https://auth.example.com"]);
        }
        app = app.route(
            "/.well-known/oauth-protected-resource/mcp",
            get(move || {
                let document = document.clone();
                async move {
                    (
                        [(http::header::CONTENT_TYPE, "application/json")],
                        document.to_string(),
                    )
                }
            }),
        );
    }
    if let Guard::OpenJsonEverywhere = guard {
        app = app.fallback(|| async {
            (
                [(http::header::CONTENT_TYPE, "application/json")],
                r#"{"error": "no such page"}"#,
            )
        });
    }
    let app = app.merge(router(example_server(), config));
    match tls {
        Some(config) => {
            let listener = TlsListener {
                tcp,
                acceptor: tokio_rustls::TlsAcceptor::from(config),
            };
            tokio::spawn(async move { axum::serve(listener, app).await });
        }
        None => {
            tokio::spawn(async move { axum::serve(tcp, app).await });
        }
    }
    url
}

/// `text` in a file of its own under the temporary directory.
fn scratch_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("mcp-test-tls-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[tokio::test]
async fn the_library_client_speaks_https_with_a_private_ca_and_refuses_without_it() {
    let (ca, tls) = private_ca();
    let url = start(Some(tls), Guard::Open).await;
    let options = HttpOptions::new().ca_cert_pem(ca.as_bytes()).unwrap();
    let client = Client::http_with(&url, &options).unwrap();
    let tools = client.call("tools/list", json!({})).await.unwrap();
    assert!(!tools["tools"].as_array().unwrap().is_empty(), "{tools}");

    // webpki's roots alone do not know the private CA.
    let err = Client::http(&url)
        .unwrap()
        .call("tools/list", json!({}))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, ClientError::Connection { .. }), "{text}");
    assert!(text.to_lowercase().contains("certificate"), "{text}");
}

#[tokio::test]
async fn the_library_client_reports_401_as_needing_authorization_and_sends_headers() {
    let url = start(
        None,
        Guard::Bearer {
            complete: true,
            any_token: false,
        },
    )
    .await;
    let err = Client::http(&url).unwrap().era().await.unwrap_err();
    let ClientError::Unauthorized {
        resource_metadata, ..
    } = &err
    else {
        panic!("not Unauthorized: {err}");
    };
    assert_eq!(
        resource_metadata.as_deref(),
        Some(
            url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
                .as_str()
        )
    );
    assert!(err.to_string().contains("needs authorization"), "{err}");

    let client = Client::http(&url)
        .unwrap()
        .with_header("Authorization", "Bearer good")
        .unwrap();
    let handshake = client.era().await.unwrap();
    assert_eq!(handshake.protocol_version, "2026-07-28");
}

#[tokio::test]
async fn check_over_https_runs_every_probe_through_the_private_ca() {
    let (ca, tls) = private_ca();
    let url = start(Some(tls), Guard::Open).await;
    let ca_file = scratch_file("ca.pem", &ca);
    let ca_path = ca_file.to_str().unwrap();
    let run = mcp_test(&[
        "check",
        "--quiet",
        "--format",
        "json",
        "--url",
        &url,
        "--ca-cert",
        ca_path,
    ])
    .await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["summary"]["defect"], 0, "{}", run.stdout);
    assert_eq!(report["summary"]["warning"], 0, "{}", run.stdout);
    // The raw HTTP probes went through TLS too: none was skipped or failed to connect. The
    // Mcp-Param probe needs a tool with an `x-mcp-header` argument, which this server has not;
    // the 2026-only refusals of 2025-era traffic are not asked of a server that also serves
    // the 2025-11-25 handshake, as the runtime does by default.
    let probes = report["probes"].as_array().unwrap();
    for probe in probes
        .iter()
        .filter(|p| p["name"].as_str().unwrap().starts_with("http/"))
    {
        if probe["name"] == "http/earlier-revisions" {
            let reason = probe["skipped"].as_str().unwrap_or_default();
            assert!(reason.contains("2025-era initialize"), "{probe}");
        } else if probe["name"] != "http/param-headers" {
            assert!(probe["skipped"].is_null(), "{probe}");
        }
        assert!(!probe.to_string().contains("could not"), "{probe}");
    }

    // The ad-hoc commands take the same options.
    let run = mcp_test(&["list", "tools", "--url", &url, "--ca-cert", ca_path]).await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("search_notes"), "{}", run.stdout);

    let run = mcp_test(&["check", "--quiet", "--url", &url]).await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.to_lowercase().contains("certificate"),
        "{}",
        run.stderr
    );

    let bad = scratch_file("bad.pem", "not a certificate");
    let run = mcp_test(&["check", "--url", &url, "--ca-cert", bad.to_str().unwrap()]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--ca-cert"), "{}", run.stderr);
    assert!(run.stderr.contains("bad.pem"), "{}", run.stderr);
    let _ = std::fs::remove_file(ca_file);
    let _ = std::fs::remove_file(bad);
}

#[tokio::test]
async fn check_says_needs_authorization_then_checks_with_the_token() {
    let url = start(
        None,
        Guard::Bearer {
            complete: true,
            any_token: false,
        },
    )
    .await;
    let metadata = url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let run = mcp_test(&["check", "--quiet", "--url", &url]).await;
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("needs authorization"), "{}", run.stderr);
    assert!(run.stdout.contains("needs authorization"), "{}", run.stdout);
    assert!(run.stdout.contains(&metadata), "{}", run.stdout);
    assert!(run.stdout.contains("defect          0"), "{}", run.stdout);

    let run = mcp_test(&[
        "check",
        "--quiet",
        "--format",
        "json",
        "--url",
        &url,
        "-H",
        "Authorization: Bearer good",
    ])
    .await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["summary"]["defect"], 0, "{}", run.stdout);
    // The well-known metadata was found and holds.
    assert!(
        run.stdout.contains("protected-resource metadata found"),
        "{}",
        run.stdout
    );

    // The same from the environment, so the token stays out of shell history.
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args(["check", "--quiet", "--url", &url])
        .env(
            "MCP_TEST_HEADERS",
            "X-Unused: 1\nAuthorization: Bearer good\n",
        )
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // An ad-hoc command says so too, with a hint, and works with the token.
    let run = mcp_test(&["read", "notes://index", "--url", &url]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("needs authorization"), "{}", run.stderr);
    assert!(run.stderr.contains("--header"), "{}", run.stderr);
    let run = mcp_test(&[
        "read",
        "notes://index",
        "--url",
        &url,
        "-H",
        "Authorization: Bearer good",
    ])
    .await;
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("n-1"), "{}", run.stdout);

    let run = mcp_test(&["check", "--url", &url, "-H", "no colon here"]).await;
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--header"), "{}", run.stderr);
    assert!(run.stderr.contains("Name: value"), "{}", run.stderr);
}

#[tokio::test]
async fn metadata_without_authorization_servers_is_a_defect_quoting_its_clause() {
    let url = start(
        None,
        Guard::Bearer {
            complete: false,
            any_token: false,
        },
    )
    .await;
    let run = mcp_test(&["check", "--quiet", "--format", "json", "--url", &url]).await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let defects: Vec<&Value> = report["probes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["findings"].as_array().unwrap())
        .filter(|f| f["severity"] == "defect")
        .collect();
    assert_eq!(defects.len(), 1, "{}", run.stdout);
    assert_eq!(
        defects[0]["clause"]["id"], "authorization/authorization-servers",
        "{}",
        run.stdout
    );
}

/// AI generation against a hosted-style endpoint: HTTPS with a private CA, a bearer key, and
/// the CLI's `max_tokens`, JSON-mode and cache options in the request it sends.
#[tokio::test]
async fn generate_asks_an_https_model_endpoint_with_the_cli_options() {
    let (ca, tls) = private_ca();
    // (the Authorization header, the body) of each request.
    type Seen = Vec<(Option<String>, Value)>;
    let seen: Arc<std::sync::Mutex<Seen>> = Arc::default();
    let log = seen.clone();
    let app = Router::new().route(
        "/v1/chat/completions",
        axum::routing::post(move |headers: http::HeaderMap, body: String| {
            let log = log.clone();
            async move {
                let request: Value = serde_json::from_str(&body).unwrap_or_default();
                let key = headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                log.lock().unwrap().push((key, request));
                let cases = json!({"cases": [{"tool": "search_notes", "title": "finds pears",
                    "args": {"query": "pears"}, "expectation": "success", "rationale": "over TLS"}]});
                let reply = json!({"choices": [{"message": {"role": "assistant",
                    "content": cases.to_string()}}]});
                ([(http::header::CONTENT_TYPE, "application/json")], reply.to_string())
            }
        }),
    );
    let tcp = bind_local(0).await.unwrap();
    let base = format!("https://{}/v1", tcp.local_addr().unwrap());
    let listener = TlsListener {
        tcp,
        acceptor: tokio_rustls::TlsAcceptor::from(tls),
    };
    tokio::spawn(async move { axum::serve(listener, app).await });
    let ca_file = scratch_file("ai-ca.pem", &ca);
    let out = scratch_file("generated.rs", "");
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args([
            "generate",
            "--ai-generate",
            "--require-ai",
            "--no-ai-cache",
            "--ai-base-url",
            &base,
            "--ai-ca-cert",
            ca_file.to_str().unwrap(),
            "--ai-max-tokens",
            "77",
            "--ai-strict-json",
            "false",
            "--ai-timeout",
            "30",
            "-o",
        ])
        .arg(&out)
        .env("MCP_TEST_AI_API_KEY", "sk-test")
        .env_remove("MCP_TEST_AI_BASE_URL")
        .env_remove("MCP_TEST_AI_MODEL")
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("AI suggested cases: 1, kept after schema validation: 1"),
        "{stderr}"
    );
    assert!(std::fs::read_to_string(&out).unwrap().contains("over TLS"));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    let (key, request) = &seen[0];
    assert_eq!(key.as_deref(), Some("Bearer sk-test"));
    assert_eq!(request["max_tokens"], 77, "{request}");
    assert_eq!(request["model"], "gpt-4o-mini", "{request}");
    assert!(request.get("response_format").is_none(), "{request}");
    let _ = std::fs::remove_file(ca_file);
    let _ = std::fs::remove_file(out);
}

/// A server that answers every path with JSON of its own serves no metadata: nothing is
/// reported against it.
#[tokio::test]
async fn json_at_the_well_known_uri_that_is_not_metadata_is_no_finding() {
    let url = start(None, Guard::OpenJsonEverywhere).await;
    let run = mcp_test(&["check", "--quiet", "--format", "json", "--url", &url]).await;
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let probe = report["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "http/authorization")
        .unwrap();
    assert_eq!(probe["status"], "passed", "{probe}");
    assert_eq!(probe["findings"], json!([]), "{probe}");
}

/// A server that asks for a token but takes any: the invalid-token probe reports it, quoting
/// the clause; with the strict server the same probe finds nothing.
#[tokio::test]
async fn a_server_that_takes_any_token_is_a_defect() {
    let url = start(
        None,
        Guard::Bearer {
            complete: true,
            any_token: true,
        },
    )
    .await;
    let run = mcp_test(&[
        "check",
        "--quiet",
        "--format",
        "json",
        "--url",
        &url,
        "-H",
        "Authorization: Bearer good",
    ])
    .await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let defects: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "defect")
        .collect();
    // The server serves both eras, and each session finds it, naming its era.
    let eras: Vec<&Value> = defects.iter().map(|d| &d["era"]).collect();
    assert_eq!(eras, ["2026-07-28", "2025-11-25"], "{}", run.stdout);
    for defect in defects {
        assert!(
            defect["clause"]["id"]
                .as_str()
                .is_some_and(|id| id.ends_with("authorization/invalid-token-401")),
            "{defect}"
        );
        assert_eq!(defect["probe"], "http/authorization");
    }
}
