//! Authorization over HTTP (`basic/authorization`): the correct server asks for no
//! credentials and serves no protected-resource metadata (authorization is optional). Each
//! switch turns authorization on, or serves metadata, and gets one rule wrong. The checks send
//! `Authorization: Bearer fixture-token` ([`TOKEN`]) over HTTP, which an open server ignores.

use super::{Breaks, HTTP, Hooks, Switch};
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use serde_json::json;

pub struct Authorization;

/// The token the checks send, and the only one a strict server takes.
pub const TOKEN: &str = "Bearer fixture-token";

const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

fn header<'a>(head: &'a http::request::Parts, name: &str) -> Option<&'a str> {
    head.headers.get(name).and_then(|v| v.to_str().ok())
}

impl Hooks for Authorization {
    fn switches(&self) -> &'static [Switch] {
        &[
            Switch {
                name: "authorization/any-token",
                about: "answers 401 without a token, but takes any bearer token as valid",
                clause: "authorization/invalid-token-401",
                probe: "http/authorization",
                transports: HTTP,
            },
            Switch {
                name: "authorization/no-discovery",
                about: "answers 401 with a bare `Bearer` challenge and serves no protected-resource metadata",
                clause: "authorization/conform",
                probe: "http/authorization",
                transports: HTTP,
            },
            Switch {
                name: "authorization/metadata-without-servers",
                about: "serves protected-resource metadata with no `authorization_servers`",
                clause: "authorization/authorization-servers",
                probe: "http/authorization",
                transports: HTTP,
            },
            Switch {
                name: "authorization/metadata-without-resource",
                about: "serves protected-resource metadata with no `resource`",
                clause: "authorization/protected-resource-metadata",
                probe: "http/authorization",
                transports: HTTP,
            },
            Switch {
                name: "authorization/metadata-for-another-resource",
                about: "serves protected-resource metadata whose `resource` is another server",
                clause: "authorization/resource-matches",
                probe: "http/authorization",
                transports: HTTP,
            },
        ]
    }

    fn http_request(&self, on: &Breaks, head: &mut http::request::Parts) -> Option<Response> {
        let host = header(head, "host").unwrap_or("127.0.0.1").to_owned();
        let resource = format!("http://{host}/mcp");
        let servers = json!(["https://auth.example.com"]);
        if head.uri.path().starts_with(WELL_KNOWN) {
            let document = if on.on("authorization/metadata-without-servers") {
                json!({"resource": resource})
            } else if on.on("authorization/metadata-without-resource") {
                json!({"authorization_servers": servers})
            } else if on.on("authorization/metadata-for-another-resource") {
                json!({"resource": "http://elsewhere.example/mcp", "authorization_servers": servers})
            } else if on.on("authorization/any-token") {
                json!({"resource": resource, "authorization_servers": servers})
            } else {
                return None;
            };
            return Some(
                (
                    [(http::header::CONTENT_TYPE, "application/json")],
                    document.to_string(),
                )
                    .into_response(),
            );
        }
        let any = on.on("authorization/any-token");
        if !any && !on.on("authorization/no-discovery") {
            return None;
        }
        let taken = match header(head, "authorization") {
            Some(token) if any => token.starts_with("Bearer "),
            Some(token) => token == TOKEN,
            None => false,
        };
        if taken {
            return None;
        }
        let challenge = if any {
            format!(r#"Bearer resource_metadata="http://{host}{WELL_KNOWN}/mcp""#)
        } else {
            "Bearer".to_owned()
        };
        Some(
            (
                StatusCode::UNAUTHORIZED,
                [(http::header::WWW_AUTHENTICATE, challenge)],
                "a bearer token is required",
            )
                .into_response(),
        )
    }
}
