//! `http/authorization`: a server that asks for credentials (HTTP 401) and its OAuth 2.0
//! protected-resource metadata (2026-07-28 `basic/authorization`, RFC 9728).
//!
//! - A 401 at connect time is not the server's fault: [`check_unauthorized`] reports it as
//!   "needs authorization", with the `resource_metadata` URL its `WWW-Authenticate` names, and
//!   the check as not run ([`CheckReport::incomplete`], exit 2).
//! - Where the metadata is served (the `resource_metadata` URL, else the well-known URIs at
//!   the endpoint's path and at the root, in that order), it is read and validated: a JSON
//!   object whose `resource` is the endpoint and whose `authorization_servers` lists at least
//!   one server. A well-known URI that serves no JSON object naming `resource` or
//!   `authorization_servers` is not the metadata (many servers use no authorization, and some
//!   answer any path with JSON of their own); a `resource_metadata` URL that serves none is a
//!   broken promise.
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`AUTH_CONFORM`](clauses::AUTH_CONFORM),
//! [`AUTH_INVALID_TOKEN_401`](clauses::AUTH_INVALID_TOKEN_401), [`AUTH_PRM`](clauses::AUTH_PRM),
//! [`AUTH_PRM_AUTHORIZATION_SERVERS`](clauses::AUTH_PRM_AUTHORIZATION_SERVERS),
//! [`AUTH_PRM_RESOURCE`](clauses::AUTH_PRM_RESOURCE).

use crate::run::Run;
use crate::{CheckReport, Note, Out, Shown};
use bytes::Bytes;
use futures_util::future::LocalBoxFuture;
use http::header::ACCEPT;
use http::{HeaderMap, HeaderValue, Method};
use mcp_test::__check::HttpClient;
use mcp_test::cases::shorten;
use mcp_test::client::HttpOptions;
use mcp_test::spec::clauses;
use serde_json::Value;
use std::time::Duration;

/// The probe's name in reports.
pub const AUTHORIZATION_PROBE: &str = "http/authorization";

/// The probe's id, as the table names it.
pub(crate) const ID: &str = AUTHORIZATION_PROBE;

/// The row: the protected-resource metadata of the connection's endpoint, then a request
/// with a token no server issued.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, http) = r.endpoint();
        let timeout = r.options.timeout;
        let (found, mut out, _) = protected_resource(&url, &http, None, timeout).await;
        out.extend(invalid_token(&url, &http, found, timeout).await);
        r.c.push_probe(ID, out);
    })
}

/// Where the metadata was looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The `resource_metadata` URL of a 401 challenge.
    Challenge,
    /// `/.well-known/oauth-protected-resource` + the endpoint's path.
    PathWellKnown,
    /// `/.well-known/oauth-protected-resource` at the root.
    RootWellKnown,
}

/// The report of a check that could not run because `url` answered 401: one
/// [`AUTHORIZATION_PROBE`] with a note saying the server needs authorization (and where its
/// metadata is), the validation of that metadata when the server serves it, and
/// [`CheckReport::incomplete`] set, so `mcp-test check` exits 2 (1 if the metadata breaks a
/// rule).
///
/// `www_authenticate` and `resource_metadata` are those of the
/// [`ClientError::Unauthorized`](mcp_test::client::ClientError::Unauthorized) the connection
/// failed with; `options` are the headers and authorities the client used.
pub async fn check_unauthorized(
    url: &str,
    options: &HttpOptions,
    www_authenticate: Option<&str>,
    resource_metadata: Option<&str>,
    timeout: Duration,
) -> CheckReport {
    let mut notes = vec![Note::info(format!(
        "the server needs authorization: it answered HTTP 401{}; pass credentials with --header 'Authorization: Bearer TOKEN' (or MCP_TEST_HEADERS) to check it",
        www_authenticate.map_or_else(String::new, |c| format!(" (WWW-Authenticate: {c})"))
    ))
    .on(Some(Shown {
        method: "server/discover".to_owned(),
        id: None,
    }))];
    let (found, mut out, tried) =
        protected_resource(url, options, resource_metadata, timeout).await;
    notes.append(&mut out);
    if !tried.is_empty() {
        notes.push(Note::info(format!(
            "no protected-resource metadata served at {}",
            tried.join(" or ")
        )));
    }
    if !found && resource_metadata.is_none() {
        notes.push(Note::broke(
            &clauses::AUTH_CONFORM,
            "the server asks for authorization, but names no protected-resource metadata in WWW-Authenticate (`resource_metadata`) and serves none at the well-known URIs, so a client cannot discover how to get a token",
        ));
    }
    let mut report = CheckReport::not_checked(
        url,
        format!(
            "{url} needs authorization (HTTP 401){}",
            resource_metadata.map_or_else(String::new, |m| format!(
                "; protected-resource metadata: {m}"
            ))
        ),
    );
    report.transport = Some(clauses::Transport::Http);
    let findings = notes
        .into_iter()
        .map(|n| n.into_finding(AUTHORIZATION_PROBE, None))
        .collect();
    report.probes.push(crate::Probe {
        name: AUTHORIZATION_PROBE.to_owned(),
        findings,
        skipped: None,
        duration: None,
    });
    report
}

/// Looks for the protected-resource metadata of the endpoint `url` and validates what it
/// finds. Whether it was found, the notes, and the well-known URIs that serve no metadata
/// (with their status), which say nothing wrong: most servers use no authorization.
pub(crate) async fn protected_resource(
    url: &str,
    options: &HttpOptions,
    resource_metadata: Option<&str>,
    timeout: Duration,
) -> (bool, Out, Vec<String>) {
    let mut out = Vec::new();
    let client = match HttpClient::with_options(options) {
        Ok(client) => client,
        Err(e) => {
            out.push(Note::info(format!("the metadata was not read: {e}")));
            return (false, out, Vec::new());
        }
    };
    let candidates: Vec<(String, Source)> = match resource_metadata {
        Some(m) => vec![(m.to_owned(), Source::Challenge)],
        None => well_known(url),
    };
    let mut tried = Vec::new();
    for (at, source) in candidates {
        let shown = Some(Shown {
            method: format!("GET {at}"),
            id: None,
        });
        let uri = match HttpClient::parse_url(&at) {
            Ok(uri) => uri,
            Err(e) => {
                if source == Source::Challenge {
                    out.push(
                        Note::broke(
                            &clauses::AUTH_PRM,
                            format!("the `resource_metadata` URL of the 401 challenge is not usable: {e}"),
                        )
                        .on(shown),
                    );
                }
                continue;
            }
        };
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        let reply = match client
            .request(Method::GET, &uri, headers, Bytes::new(), timeout)
            .await
        {
            Ok(reply) => reply,
            Err(e) => {
                out.push(Note::info(format!("{at} could not be read: {e}")).on(shown));
                continue;
            }
        };
        let text = reply.text();
        // At a well-known URI, only a document that reads as the metadata is taken for it: a
        // server without authorization may answer any path with JSON of its own.
        let document = serde_json::from_str::<Value>(&text)
            .ok()
            .filter(Value::is_object)
            .filter(|d| {
                source == Source::Challenge
                    || d.get("resource").is_some()
                    || d.get("authorization_servers").is_some()
            });
        match document {
            Some(document) if reply.status.is_success() => {
                out.push(
                    Note::info(format!("protected-resource metadata found at {at}"))
                        .on(shown.clone()),
                );
                out.extend(
                    validate(&document, url, source)
                        .into_iter()
                        .map(|n| n.on(shown.clone())),
                );
                return (true, out, tried);
            }
            _ if source == Source::Challenge => {
                out.push(
                    Note::broke(
                        &clauses::AUTH_PRM,
                        format!(
                            "the `resource_metadata` URL the 401 challenge names does not serve the metadata (a JSON object): HTTP {}{}: {}",
                            reply.status.as_u16(),
                            reply.content_type().map_or_else(String::new, |t| format!(" ({t})")),
                            shorten(&text, 200)
                        ),
                    )
                    .on(shown),
                );
                return (false, out, tried);
            }
            _ => tried.push(format!("{at} (HTTP {})", reply.status.as_u16())),
        }
    }
    (false, out, tried)
}

/// The token the invalid-token probe sends.
const INVALID_TOKEN: &str = "Bearer mcp-test-invalid-token";

/// When the check runs with an `Authorization` header and the server refuses a request
/// without it (401), the same request with a token no server issued must be refused with 401
/// too (`basic/authorization/index.mdx` §Token Handling). A server that does not ask for
/// authorization is not probed: it has no token to validate.
///
/// A server that refuses the request without credentials, names no metadata in its challenge
/// and serves none (`found` false) leaves a client no way to learn how to get a token: a
/// warning ([`clauses::AUTH_CONFORM`]).
pub(crate) async fn invalid_token(
    url: &str,
    options: &HttpOptions,
    found: bool,
    timeout: Duration,
) -> Out {
    let mut out = Vec::new();
    if options.header_value("authorization").is_none() {
        return out;
    }
    let Ok(uri) = HttpClient::parse_url(url) else {
        return out;
    };
    let body = Bytes::from(
        mcp_test::wire::build::build_request("server/discover", serde_json::json!({})).to_string(),
    );
    let headers = || {
        let mut headers = super::http_exchange::json_headers();
        headers.insert(
            mcp_test::headers::PROTOCOL_VERSION,
            HeaderValue::from_static(mcp_test::wire::PROTOCOL_VERSION),
        );
        headers.insert(
            mcp_test::headers::METHOD,
            HeaderValue::from_static("server/discover"),
        );
        headers
    };
    let bare = options.without_header("authorization");
    let Ok(client) = HttpClient::with_options(&bare) else {
        return out;
    };
    match client.post(&uri, headers(), body.clone(), timeout).await {
        Ok(reply) if reply.status == http::StatusCode::UNAUTHORIZED => {
            let named = matches!(
                mcp_test::__check::unauthorized(url, &reply.headers),
                mcp_test::client::ClientError::Unauthorized {
                    resource_metadata: Some(_),
                    ..
                }
            );
            if !found && !named {
                out.push(Note::broke(
                    &clauses::AUTH_CONFORM,
                    "a request without credentials is refused (HTTP 401), but the challenge names no protected-resource metadata (`resource_metadata`) and none is served at the well-known URIs, so a client cannot discover how to get a token",
                ));
            }
        }
        // Open to anyone: there is no token to validate.
        Ok(_) => return out,
        Err(e) => {
            out.push(Note::info(format!(
                "the request without credentials got no reply, so the invalid-token probe did not run: {e}"
            )));
            return out;
        }
    }
    let shown = Some(Shown {
        method: format!("server/discover (Authorization: {INVALID_TOKEN})"),
        id: None,
    });
    let mut with_bad = headers();
    with_bad.insert(
        http::header::AUTHORIZATION,
        HeaderValue::from_static(INVALID_TOKEN),
    );
    match client.post(&uri, with_bad, body, timeout).await {
        Ok(reply) if reply.status == http::StatusCode::UNAUTHORIZED => {}
        Ok(reply) => out.push(
            Note::broke(
                &clauses::AUTH_INVALID_TOKEN_401,
                format!(
                    "a request with a token no server issued got HTTP {}, not 401 (a request with no token got 401)",
                    reply.status.as_u16()
                ),
            )
            .on(shown),
        ),
        Err(e) => out.push(
            Note::info(format!("the request with an invalid token got no reply: {e}")).on(shown),
        ),
    }
    out
}

/// The well-known URIs of the metadata of the endpoint `url`, in the order
/// `authorization-server-discovery.mdx` lists them: with the endpoint's path, then at the root.
fn well_known(url: &str) -> Vec<(String, Source)> {
    let Ok(uri) = url.parse::<http::Uri>() else {
        return Vec::new();
    };
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return Vec::new();
    };
    let root = format!("{scheme}://{authority}/.well-known/oauth-protected-resource");
    let path = uri.path().trim_end_matches('/');
    let mut out = Vec::new();
    if !path.is_empty() {
        out.push((format!("{root}{path}"), Source::PathWellKnown));
    }
    out.push((root, Source::RootWellKnown));
    out
}

/// The rules RFC 9728 and the MCP spec set for the document found at `source`.
fn validate(document: &Value, url: &str, source: Source) -> Out {
    let mut out = Vec::new();
    match document.get("resource") {
        Some(Value::String(resource)) => {
            // The root form serves a document for the whole origin (the MCP spec allows it
            // for an endpoint below the root): its `resource` is not held to the endpoint.
            if source != Source::RootWellKnown && canonical(resource) != canonical(url) {
                out.push(Note::broke(
                    &clauses::AUTH_PRM_RESOURCE,
                    format!(
                        "the metadata's `resource` is {resource:?}, not the endpoint it was found for ({url})"
                    ),
                ));
            }
        }
        Some(other) => out.push(Note::broke(
            &clauses::AUTH_PRM,
            format!("`resource` must be a string (the resource identifier), not {other}"),
        )),
        None => out.push(Note::broke(
            &clauses::AUTH_PRM,
            "the metadata has no `resource` (REQUIRED by RFC 9728 §2)",
        )),
    }
    match document.get("authorization_servers") {
        Some(Value::Array(servers))
            if servers
                .iter()
                .any(|s| s.as_str().is_some_and(|s| !s.is_empty())) =>
        {
            if let Some(bad) = servers.iter().find(|s| !s.is_string()) {
                out.push(Note::broke(
                    &clauses::AUTH_PRM,
                    format!(
                        "`authorization_servers` lists {bad}, which is not an issuer URL string"
                    ),
                ));
            }
        }
        Some(other) => out.push(Note::broke(
            &clauses::AUTH_PRM_AUTHORIZATION_SERVERS,
            format!(
                "`authorization_servers` lists no authorization server: {}",
                shorten(&other.to_string(), 200)
            ),
        )),
        None => out.push(Note::broke(
            &clauses::AUTH_PRM_AUTHORIZATION_SERVERS,
            "the metadata has no `authorization_servers`",
        )),
    }
    out
}

/// A URL compared the way RFC 3986 §6.2.2-6.2.3 lets two spellings of one resource be: the
/// scheme and host in lowercase, no default port, no trailing slash.
fn canonical(url: &str) -> String {
    let Ok(uri) = url.parse::<http::Uri>() else {
        return url.to_owned();
    };
    let scheme = uri.scheme_str().unwrap_or("").to_ascii_lowercase();
    let host = uri.host().unwrap_or("").to_ascii_lowercase();
    let port = match (scheme.as_str(), uri.port_u16()) {
        ("http", Some(80)) | ("https", Some(443)) | (_, None) => String::new(),
        (_, Some(port)) => format!(":{port}"),
    };
    let path_and_query = uri.path_and_query().map_or("", |p| p.as_str());
    format!(
        "{scheme}://{host}{port}{}",
        path_and_query.trim_end_matches('/')
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn clauses_of(out: &Out) -> Vec<&'static str> {
        out.iter().filter_map(|n| n.clause.map(|c| c.id)).collect()
    }

    #[test]
    fn well_known_uris_follow_the_endpoint_path_then_the_root() {
        let found: Vec<String> = well_known("https://example.com/public/mcp")
            .into_iter()
            .map(|(u, _)| u)
            .collect();
        assert_eq!(
            found,
            [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(well_known("http://127.0.0.1:8/").len(), 1);
        assert!(well_known("not a url").is_empty());
    }

    #[test]
    fn a_good_document_passes_and_each_rule_can_fail() {
        let url = "https://MCP.example.com:443/mcp/";
        let good = json!({"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://as.example.com"]});
        assert!(validate(&good, url, Source::PathWellKnown).is_empty());
        let elsewhere = json!({"resource": "https://other.example.com/mcp", "authorization_servers": ["https://as"]});
        assert_eq!(
            clauses_of(&validate(&elsewhere, url, Source::Challenge)),
            ["authorization/resource-matches"]
        );
        assert!(validate(&elsewhere, url, Source::RootWellKnown).is_empty());
        let bare = json!({});
        assert_eq!(
            clauses_of(&validate(&bare, url, Source::Challenge)),
            [
                "authorization/protected-resource-metadata",
                "authorization/authorization-servers"
            ]
        );
        let empty = json!({"resource": "https://mcp.example.com/mcp", "authorization_servers": []});
        assert_eq!(
            clauses_of(&validate(&empty, url, Source::Challenge)),
            ["authorization/authorization-servers"]
        );
    }
}
