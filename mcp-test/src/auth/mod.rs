//! OAuth authorization for tests, both sides (feature `auth`).
//!
//! The 2026-07-28 authorization spec puts most of its rules on the MCP server as an OAuth 2.1
//! resource server: protected-resource metadata (RFC 9728) and the `WWW-Authenticate`
//! challenge that points to it, tokens validated for *this* server (audience), expired and
//! malformed tokens refused with 401, insufficient scope answered with 403 and the scope it
//! needs. Testing those rules needs an authorization server whose tokens the server trusts,
//! and tokens that are deliberately wrong. This module is that:
//!
//! - [`AuthServer`]: a local authorization server on 127.0.0.1 (metadata, JWKS, dynamic
//!   client registration, authorization code with PKCE, client credentials, refresh,
//!   introspection), which also mints any token a [`TokenSpec`] describes, directly
//!   ([`AuthServer::token`]) or over HTTP (`/mint`, for `mcp-test check`);
//! - [`TokenValidator`]: the runtime's side, an
//!   [`Authenticator`](crate::transport::http::Authenticator) of the HTTP transport that
//!   validates those tokens (signature, issuer, audience, expiry, scopes) and hands the
//!   principal and scopes to the per-definition [`Access`](crate::Access) rules; with the
//!   protected-resource metadata served beside the endpoint
//!   ([`TokenValidator::metadata_router`]).
//!
//! The `mcp-test auth-server` command runs an [`AuthServer`] for servers in other languages.
//!
//! ```
//! use mcp_test::auth::{AuthServer, TokenSpec, TokenValidator};
//! use mcp_test::prelude::*;
//! use mcp_test::transport::http::{bind_local, router, HttpConfig};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let auth = AuthServer::start().await.unwrap();
//! let listener = bind_local(0).await.unwrap();
//! let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
//! let validator = TokenValidator::new(auth.issuer(), &resource).require_scopes(["mcp"]);
//! let server = Server::builder("demo", "1.0.0").build().unwrap();
//! let app = router(server, HttpConfig::default().authenticator(validator.clone()))
//!     .merge(validator.metadata_router());
//! tokio::spawn(async move { axum::serve(listener, app).await });
//!
//! let alice = auth.bearer(&TokenSpec::new(&resource).scopes(["mcp"]).subject("alice"));
//! let mcp = TestContext::http_with(&resource, &alice);
//! mcp.discover().await;
//! # }
//! ```

mod fetch;
pub mod jwt;
mod server;
mod token;
mod validator;

pub use server::{AuthServer, bearer};
pub use token::{Signature, TokenSpec};
pub use validator::{TokenError, TokenValidator};
