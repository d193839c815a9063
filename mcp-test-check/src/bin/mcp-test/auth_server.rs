//! `mcp-test auth-server`: the local authorization server (`mcp_test::auth::AuthServer`) for
//! servers in other languages, and the `check` options that test a server as an OAuth
//! resource server (`--auth-issuer`, with `--client-id` / `--client-secret` for an issuer of
//! the user's own, and `--auth-scope` for scopes beyond those the server names).

use super::open::{TargetArgs, http_options};
use clap::Args;
use mcp_test::auth::AuthServer;
use mcp_test_check::AuthIssuer;
use std::process::ExitCode;
use std::time::Duration;

/// Runs a local OAuth 2.1 authorization server for tests on 127.0.0.1 until killed: RFC 8414
/// metadata, JWKS, dynamic client registration, authorization code with PKCE, client ID
/// metadata documents, client credentials, refresh, RFC 7662 introspection, and `/mint` for
/// any token (wrong ones included) that `mcp-test check --auth-issuer` sends. Prints
/// `listening on ISSUER` first.
#[derive(Args)]
pub(crate) struct AuthServerArgs {
    /// The port of 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Also print MCP_TEST_AUTH_ISSUER, MCP_TEST_AUTH_CLIENT_ID and MCP_TEST_AUTH_CLIENT_SECRET
    /// (a confidential client for client_credentials) as NAME=VALUE lines.
    #[arg(long)]
    print_env: bool,
}

pub(crate) async fn run(args: AuthServerArgs) -> ExitCode {
    let server = match AuthServer::start_on(args.port).await {
        Ok(server) => server,
        Err(e) => {
            eprintln!(
                "mcp-test: auth-server: cannot listen on 127.0.0.1:{}: {e}",
                args.port
            );
            return ExitCode::from(2);
        }
    };
    println!("listening on {}", server.issuer());
    if args.print_env {
        println!("MCP_TEST_AUTH_ISSUER={}", server.issuer());
        println!("MCP_TEST_AUTH_CLIENT_ID={}", server.client_id());
        println!("MCP_TEST_AUTH_CLIENT_SECRET={}", server.client_secret());
    }
    // Serves on this runtime until the process is stopped (Ctrl-C or a signal).
    std::future::pending::<ExitCode>().await
}

/// `check` as a resource-server tester.
#[derive(Args)]
pub(crate) struct AuthArgs {
    /// The authorization server the checked server trusts (its issuer URL). `check` reads
    /// what the server asks of a token (its 401 challenge and protected-resource metadata),
    /// connects with a good token of this issuer, and probes the server with tokens wrong in
    /// one way each (auth/* probes). An `mcp-test auth-server` mints every token itself; an
    /// issuer of your own needs --client-id and --client-secret (client_credentials).
    #[arg(long, value_name = "URL", requires = "url")]
    auth_issuer: Option<String>,
    /// The confidential client of --auth-issuer for client_credentials.
    #[arg(
        long,
        value_name = "ID",
        requires = "auth_issuer",
        requires = "client_secret"
    )]
    client_id: Option<String>,
    /// Its secret.
    #[arg(long, value_name = "SECRET", requires = "client_id")]
    client_secret: Option<String>,
    /// Also ask for SCOPE in the check's token (repeatable): a scope the server's tools,
    /// resources or prompts need beyond what its 401 challenge and metadata's
    /// scopes_supported name (both are asked for already), so the check can use them. The
    /// report (auth/challenge) says which scopes the token held.
    #[arg(long = "auth-scope", value_name = "SCOPE", requires = "auth_issuer", value_parser = scope_token)]
    auth_scopes: Vec<String>,
}

/// One OAuth scope (RFC 6749 §3.3: printable ASCII but space, `"` and `\`).
fn scope_token(scope: &str) -> Result<String, String> {
    if scope.is_empty() {
        return Err("a scope cannot be empty".to_owned());
    }
    match scope
        .chars()
        .find(|&c| !(c == '!' || ('#'..='[').contains(&c) || (']'..='~').contains(&c)))
    {
        Some(' ') => Err(format!(
            "{scope:?} holds a space: give each scope its own --auth-scope"
        )),
        Some(c) => Err(format!(
            "{scope:?} holds {c:?}, which no OAuth scope may (RFC 6749 §3.3: printable ASCII but space, \" and \\)"
        )),
        None => Ok(scope.to_owned()),
    }
}

impl AuthArgs {
    /// The issuer, after adding `Authorization: Bearer` with a good token of it to the target's
    /// headers; `None` without --auth-issuer.
    pub(crate) async fn prepare(
        &self,
        target: &mut TargetArgs,
    ) -> Result<Option<AuthIssuer>, String> {
        let Some(url) = &self.auth_issuer else {
            return Ok(None);
        };
        let mut issuer = AuthIssuer::new(url).scopes(self.auth_scopes.iter().cloned());
        if let (Some(id), Some(secret)) = (&self.client_id, &self.client_secret) {
            issuer = issuer.client_credentials(id, secret);
        }
        let endpoint = target.url.clone().unwrap_or_default();
        let options = http_options(target).map_err(|e| e.to_string())?;
        let timeout = Duration::from_secs(target.timeout.max(1));
        let with_token = issuer
            .bearer_for(&endpoint, &options, timeout)
            .await
            .map_err(|e| format!("--auth-issuer {url}: no token for {endpoint}: {e}"))?;
        if let Some(value) = with_token.header_value("authorization") {
            target.headers.retain(|h| {
                !h.split(':')
                    .next()
                    .is_some_and(|n| n.trim().eq_ignore_ascii_case("authorization"))
            });
            target.headers.push(format!("Authorization: {value}"));
        }
        Ok(Some(issuer))
    }
}
