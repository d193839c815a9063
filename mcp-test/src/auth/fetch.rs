//! One JSON document read over HTTP, with the crate's one HTTP client: an issuer's metadata
//! and JWKS (the validator), a client ID metadata document (the authorization server).

use crate::client::{ClientError, HttpClient, HttpOptions};
use axum::body::Bytes;
use http::HeaderMap;
use serde_json::Value;
use std::time::Duration;

/// GETs `url` and reads its body as JSON, within 10 s; the error names the URL and what went
/// wrong.
pub(crate) async fn get_json(url: &str) -> Result<Value, String> {
    let failed = |e: ClientError| e.to_string();
    let client = HttpClient::with_options(&HttpOptions::new()).map_err(failed)?;
    let uri = HttpClient::parse_url(url).map_err(failed)?;
    let reply = client
        .request(
            http::Method::GET,
            &uri,
            HeaderMap::new(),
            Bytes::new(),
            Duration::from_secs(10),
        )
        .await
        .map_err(failed)?;
    if !reply.status.is_success() {
        return Err(format!("{url} answered HTTP {}", reply.status.as_u16()));
    }
    serde_json::from_slice(&reply.body).map_err(|e| format!("{url} served no JSON: {e}"))
}
