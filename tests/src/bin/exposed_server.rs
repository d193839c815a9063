//! A Streamable HTTP server that exposes more than it should, one mistake per `--attack
//! NAME` (repeatable), for the end-to-end tests of `check`'s exposure rules
//! (`tests/security_exposure.rs`). With no attack it is an honest server that must draw no
//! exposure finding.
//!
//! It is the mcp-test runtime's HTTP transport (`mcp_test::transport::http`) behind an axum
//! middleware that changes what the mistake changes:
//!
//! - `sequential-session-ids`: the `Mcp-Session-Id`s the client sees are `1`, `2`, `3`...
//!   (mapped to the runtime's random ids and back);
//! - `token-in-query`: with `--token T`, a request without `Authorization: Bearer T` gets 401,
//!   but one whose URL carries `?access_token=T` is served;
//! - `cors-credentials`: every answer (and any preflight) allows the request's `Origin` with
//!   `Access-Control-Allow-Credentials: true`, and the transport accepts that origin.
//!
//! `--token T` alone is the honest resource server: the token in a header only.
//! Usage: `exposed_server --http 127.0.0.1:0 [--token T] [--attack NAME]...`; it prints
//! `listening on ADDR`.

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, Method, StatusCode};
use mcp_test::transport::http::HttpConfig;
use mcp_test::{Context, Server, Tool, ToolError};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

/// Adds two numbers.
#[derive(Tool)]
#[tool(name = "add", annotations(read_only, idempotent, open_world = false))]
struct Add {
    /// The first number, 0 to 100
    #[tool(minimum = 0, maximum = 100)]
    a: i64,
    /// The second number, 0 to 100
    #[tool(minimum = 0, maximum = 100)]
    b: i64,
}

impl Add {
    async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
        Ok((self.a + self.b).to_string())
    }
}

#[derive(Default)]
struct Ids {
    /// The id the client sees to the runtime's, and back.
    to_real: HashMap<String, String>,
    to_shown: HashMap<String, String>,
    next: u64,
}

struct Exposure {
    on: BTreeSet<String>,
    token: Option<String>,
    ids: Mutex<Ids>,
}

const SESSION: &str = "mcp-session-id";

impl Exposure {
    fn has(&self, attack: &str) -> bool {
        self.on.contains(attack)
    }

    fn authorized(&self, req: &Request) -> bool {
        let Some(token) = &self.token else {
            return true;
        };
        let header = req
            .headers()
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        if header == Some(format!("Bearer {token}").as_str()) {
            return true;
        }
        self.has("token-in-query")
            && req.uri().query().is_some_and(|q| {
                q.split('&')
                    .any(|pair| pair == format!("access_token={token}"))
            })
    }

    async fn handle(self: Arc<Self>, mut req: Request, next: Next) -> Response {
        let origin = req.headers().get(http::header::ORIGIN).cloned();
        if self.has("cors-credentials") && req.method() == Method::OPTIONS {
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NO_CONTENT;
            cors(&mut response, origin.as_ref());
            let h = response.headers_mut();
            h.insert(
                "access-control-allow-methods",
                HeaderValue::from_static("GET, POST, DELETE"),
            );
            h.insert(
                "access-control-allow-headers",
                HeaderValue::from_static(
                    "content-type, mcp-protocol-version, mcp-session-id, authorization",
                ),
            );
            return response;
        }
        if !self.authorized(&req) {
            let mut response = Response::new(Body::from("a bearer token is needed"));
            *response.status_mut() = StatusCode::UNAUTHORIZED;
            response.headers_mut().insert(
                http::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"exposed\""),
            );
            return response;
        }
        if self.has("sequential-session-ids")
            && let Some(shown) = req.headers().get(SESSION).and_then(|v| v.to_str().ok())
        {
            let real = self.ids.lock().unwrap().to_real.get(shown).cloned();
            if let Some(real) = real.and_then(|r| HeaderValue::from_str(&r).ok()) {
                req.headers_mut().insert(SESSION, real);
            }
        }
        let mut response = next.run(req).await;
        if self.has("sequential-session-ids")
            && let Some(real) = response
                .headers()
                .get(SESSION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        {
            let shown = {
                let mut ids = self.ids.lock().unwrap();
                match ids.to_shown.get(&real) {
                    Some(shown) => shown.clone(),
                    None => {
                        ids.next += 1;
                        let shown = ids.next.to_string();
                        ids.to_shown.insert(real.clone(), shown.clone());
                        ids.to_real.insert(shown.clone(), real);
                        shown
                    }
                }
            };
            response
                .headers_mut()
                .insert(SESSION, HeaderValue::from_str(&shown).expect("digits"));
        }
        if self.has("cors-credentials") {
            cors(&mut response, origin.as_ref());
        }
        response
    }
}

/// Allows `origin` (reflected) with credentials.
fn cors(response: &mut Response, origin: Option<&HeaderValue>) {
    if let Some(origin) = origin {
        let h = response.headers_mut();
        h.insert("access-control-allow-origin", origin.clone());
        h.insert(
            "access-control-allow-credentials",
            HeaderValue::from_static("true"),
        );
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: exposed_server --http ADDR [--token T] [--attack sequential-session-ids|token-in-query|cors-credentials]..."
    );
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut addr, mut token, mut on) = (None, None, BTreeSet::new());
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--http" => addr = Some(value()),
            "--token" => token = Some(value()),
            "--attack" => {
                on.insert(value());
            }
            _ => usage(),
        }
    }
    let exposure = Arc::new(Exposure {
        on,
        token,
        ids: Mutex::default(),
    });
    let mut config = HttpConfig::default();
    if exposure.has("cors-credentials") {
        config = config.allow_origin("https://evil.example");
    }
    let server = Server::builder("exposed", "1.0.0")
        .tool::<Add>()
        .build()
        .expect("the server builds");
    let app = mcp_test::transport::http::router(server, config).layer(axum::middleware::from_fn(
        move |req: Request, next: Next| exposure.clone().handle(req, next),
    ));
    let listener = tokio::net::TcpListener::bind(addr.unwrap_or_else(|| usage())).await?;
    println!("listening on {}", listener.local_addr()?);
    axum::serve(listener, app).await
}
