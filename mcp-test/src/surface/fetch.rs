//! Reading a [`Surface`] from any [`Target`]: every page of the four lists, and the
//! capabilities the connection knows (2025-11-25: the `initialize` result's) or
//! `server/discover` gives (2026-07-28).

use super::document::{SECTIONS, Surface, SurfaceError};
use crate::schema::kind_of;
use crate::server::Caller;
use crate::target::{Target, TargetError, send_within};
use crate::wire::build::build_request;
use crate::wire::{Era, error_codes};
use serde_json::{Map, Value, json};
use std::time::Duration;

/// How long each request of [`Surface::fetch`] is waited for.
pub const DEFAULT_FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// The most pages one list may have before [`Surface::fetch`] gives up.
const MAX_PAGES: usize = 1000;

/// Why a surface could not be read from a target.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The target failed to deliver a reply.
    #[error("{method}: {source}")]
    Target {
        /// The request that failed.
        method: String,
        /// What the target said.
        source: TargetError,
    },
    /// The server answered a list request with a JSON-RPC error.
    #[error("{method} failed: {error}")]
    Rpc {
        /// The request.
        method: String,
        /// The error object.
        error: Value,
    },
    /// What the server listed is no surface: an item without its name (`name`, `uri`,
    /// `uriTemplate`), two items of one name, a schema that is neither an object nor a
    /// boolean. The pointer is into the surface document (`/tools/3`).
    #[error("what the server lists is not a valid surface: {0}")]
    Invalid(#[from] SurfaceError),
    /// A reply did not have the shape the spec gives it.
    #[error("{method}: {reason}")]
    Shape {
        /// The request.
        method: String,
        /// What was wrong, quoting the reply.
        reason: String,
    },
}

impl Surface {
    /// The surface of `target`: every page of `tools/list`, `resources/list`,
    /// `resources/templates/list` and `prompts/list`, and the capabilities, normalized.
    /// Each request waits at most [`DEFAULT_FETCH_TIMEOUT`] ([`Surface::fetch_within`]
    /// chooses).
    ///
    /// The era comes from the target's [`connection`](Target::connection): a 2025-11-25
    /// connection is asked without the 2026-07-28 `_meta` and its capabilities are those
    /// of its `initialize` result; otherwise `server/discover` gives them (a server that
    /// does not know it, reached without a known era, has the capabilities the connection
    /// learnt meanwhile, else `{}`). A list the declared capabilities leave out is empty
    /// without asking; a list answered with "method not found" is empty too.
    ///
    /// The lists are asked as the target's caller: anonymously of a bare [`Server`](crate::Server), as its
    /// options say of a [`TestContext`](crate::testing::TestContext) (principal, scopes), so
    /// a definition listed only to a caller with a scope is in the surface of a context that
    /// holds it. To fetch a bare server's surface as some caller, wrap it in a context with
    /// that caller's options: `Surface::fetch(&TestContext::with_options(server,
    /// RequestOptions::new().scopes(["admin"])))`.
    ///
    /// ```
    /// use mcp_test::prelude::*;
    /// use mcp_test::surface::Surface;
    ///
    /// /// Says hello.
    /// #[derive(Tool)]
    /// struct Hello {
    ///     /// Who to greet
    ///     name: String,
    /// }
    /// impl Hello {
    ///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
    ///         Ok(format!("hello {}", self.name))
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = Server::builder("demo", "1.0.0").tool::<Hello>().build().unwrap();
    /// let surface = Surface::fetch(&server).await.unwrap();
    /// assert_eq!(surface.tools[0]["name"], "hello");
    /// assert_eq!(surface.tools[0]["inputSchema"]["required"], json!(["name"]));
    /// assert!(surface.capabilities.get("tools").is_some());
    /// # }
    /// ```
    pub async fn fetch(target: &(impl Target + ?Sized)) -> Result<Surface, FetchError> {
        Surface::fetch_within(target, DEFAULT_FETCH_TIMEOUT).await
    }

    /// [`Surface::fetch`], waiting at most `timeout` for each reply.
    pub async fn fetch_within(
        target: &(impl Target + ?Sized),
        timeout: Duration,
    ) -> Result<Surface, FetchError> {
        Surface::fetch_as(target, &Caller::default(), timeout).await
    }

    /// [`Surface::fetch_within`] as `caller` (in process: a server lists to it what its
    /// identity may see), for a target that is not a context of that caller. A
    /// [`TestContext`](crate::testing::TestContext) given an anonymous caller asks as its
    /// own, so this is for a bare server, or a context asked as someone else.
    ///
    /// ```
    /// use mcp_test::authorization::Access;
    /// use mcp_test::prelude::*;
    /// use mcp_test::surface::Surface;
    /// use mcp_test::{Caller, Identity};
    ///
    /// /// Purges the cache.
    /// #[derive(Tool)]
    /// struct Purge {}
    /// impl Purge {
    ///     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
    ///         Ok("purged".into())
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let server = Server::builder("ops", "1.0.0")
    ///     .tool_with_access::<Purge>(Access::scopes(["ops.admin"]).hidden_without_scope())
    ///     .build()
    ///     .unwrap();
    /// let timeout = std::time::Duration::from_secs(5);
    /// assert!(Surface::fetch(&server).await.unwrap().is_empty());
    /// let admin = Caller::new(Identity::principal("root").with_scopes(["ops.admin"]));
    /// let surface = Surface::fetch_as(&server, &admin, timeout).await.unwrap();
    /// assert_eq!(surface.tools[0]["name"], "purge");
    /// # }
    /// ```
    pub async fn fetch_as(
        target: &(impl Target + ?Sized),
        caller: &Caller,
        timeout: Duration,
    ) -> Result<Surface, FetchError> {
        let asker = Asker {
            target: &target,
            timeout,
            next_id: std::sync::atomic::AtomicI64::new(1),
            caller,
        };
        let mut era = target.connection().era;
        let mut capabilities = known_capabilities(target);
        if era != Some(Era::Legacy) && capabilities.is_none() {
            let response = asker.ask("server/discover", json!({}), era).await?;
            if let Some(found) = response.get("result").and_then(|r| r.get("capabilities")) {
                capabilities = Some(found.clone());
            } else {
                // Not a 2026-07-28 server: what the connection learnt meanwhile (a 2025-era
                // handshake) decides.
                era = target.connection().era;
                capabilities = known_capabilities(target);
            }
        }
        let mut surface = Surface::new();
        for section in &SECTIONS {
            // A 2025-era context does its handshake with its first request: what it learnt.
            if capabilities.is_none() {
                capabilities = known_capabilities(target);
            }
            let declared = match &capabilities {
                Some(capabilities) => capabilities.get(capability_of(section.key)).is_some(),
                None => true,
            };
            if !declared {
                continue;
            }
            let items = asker.list(section.key, era).await?;
            match section.key {
                "tools" => surface.tools = items,
                "prompts" => surface.prompts = items,
                "resources" => surface.resources = items,
                _ => surface.resource_templates = items,
            }
        }
        let capabilities = capabilities.or_else(|| known_capabilities(target));
        surface.capabilities = capabilities.unwrap_or_else(|| Value::Object(Map::new()));
        // Checked as a file is, so what `to_text` writes always reads back.
        Ok(Surface::from_json(&surface.to_json())?)
    }
}

/// The capabilities the target's connection knows: its own, or its handshake's.
fn known_capabilities(target: &(impl Target + ?Sized)) -> Option<Value> {
    let connection = target.connection();
    connection.capabilities.or_else(|| {
        connection
            .handshake
            .as_ref()
            .and_then(|h| h.get("capabilities"))
            .cloned()
    })
}

/// The capability that declares a section.
fn capability_of(section: &str) -> &'static str {
    match section {
        "tools" => "tools",
        "prompts" => "prompts",
        _ => "resources",
    }
}

/// The list method of a section.
fn list_method(section: &str) -> &'static str {
    match section {
        "tools" => "tools/list",
        "prompts" => "prompts/list",
        "resources" => "resources/list",
        _ => "resources/templates/list",
    }
}

/// Sends the requests of one fetch, with fresh ids.
struct Asker<'a, T: ?Sized> {
    target: &'a &'a T,
    timeout: Duration,
    next_id: std::sync::atomic::AtomicI64,
    caller: &'a Caller,
}

impl<T: Target + ?Sized> Asker<'_, T> {
    /// The response to `method` with `params`, in the form of `era` (2025-11-25: no
    /// 2026-07-28 `_meta`).
    async fn ask(
        &self,
        method: &str,
        params: Value,
        era: Option<Era>,
    ) -> Result<Value, FetchError> {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut body = if era == Some(Era::Legacy) {
            json!({"jsonrpc": "2.0", "method": method, "params": params})
        } else {
            build_request(method, params)
        };
        body["id"] = Value::from(id);
        let exchange = send_within(*self.target, &body, self.caller, self.timeout)
            .await
            .map_err(|source| FetchError::Target {
                method: method.to_owned(),
                source,
            })?;
        exchange.response.ok_or_else(|| FetchError::Target {
            method: method.to_owned(),
            source: TargetError::NoResponse {
                request: format!("{method} (id {id})"),
            },
        })
    }

    /// Every item of the section `key`, page after page.
    async fn list(&self, key: &str, era: Option<Era>) -> Result<Vec<Value>, FetchError> {
        let method = list_method(key);
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let response = self.ask(method, params, era).await?;
            if let Some(error) = response.get("error") {
                if error.get("code").and_then(Value::as_i64)
                    == Some(i64::from(error_codes::METHOD_NOT_FOUND))
                    && cursor.is_none()
                {
                    return Ok(Vec::new());
                }
                return Err(FetchError::Rpc {
                    method: method.to_owned(),
                    error: error.clone(),
                });
            }
            let result = response.get("result").unwrap_or(&Value::Null);
            let Some(page) = result.get(key).and_then(Value::as_array) else {
                return Err(FetchError::Shape {
                    method: method.to_owned(),
                    reason: format!("the result has no `{key}` array: {result}"),
                });
            };
            items.extend(page.iter().cloned());
            match result.get("nextCursor") {
                None | Some(Value::Null) => return Ok(items),
                Some(Value::String(next)) if Some(next) == cursor.as_ref() => {
                    return Err(FetchError::Shape {
                        method: method.to_owned(),
                        reason: format!(
                            "the server handed back the cursor {next:?} it was asked with"
                        ),
                    });
                }
                Some(Value::String(next)) => cursor = Some(next.clone()),
                Some(other) => {
                    return Err(FetchError::Shape {
                        method: method.to_owned(),
                        reason: format!("nextCursor is {}, not a string", kind_of(other)),
                    });
                }
            }
        }
        Err(FetchError::Shape {
            method: method.to_owned(),
            reason: format!("the list did not end within {MAX_PAGES} pages"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::{Exchange, TargetFuture};

    /// A server that answers `server/discover` with tools only, and `tools/list` with
    /// `pages` (the cursor of each page is its index).
    struct Pages(Vec<Value>);

    impl Target for Pages {
        fn label(&self) -> String {
            "pages".to_owned()
        }
        fn send<'a>(&'a self, message: &'a Value, _caller: &'a Caller) -> TargetFuture<'a> {
            Box::pin(async move {
                let result = match message["method"].as_str() {
                    Some("server/discover") => json!({"capabilities": {"tools": {}}}),
                    Some("tools/list") => {
                        let at = message["params"]["cursor"]
                            .as_str()
                            .and_then(|c| c.parse::<usize>().ok())
                            .unwrap_or(0);
                        self.0[at].clone()
                    }
                    _ => return Ok(Exchange::default()),
                };
                Ok(Exchange {
                    response: Some(
                        json!({"jsonrpc": "2.0", "id": message["id"], "result": result}),
                    ),
                    ..Exchange::default()
                })
            })
        }
    }

    /// The surface of a [`Pages`] server answering with `pages`.
    async fn fetch_pages(pages: [Value; 2]) -> Result<Surface, FetchError> {
        Surface::fetch(&Pages(pages.into())).await
    }

    #[tokio::test]
    async fn every_page_is_followed_and_only_declared_lists_asked() {
        let surface = fetch_pages([
            json!({"tools": [{"name": "b", "inputSchema": {}}], "nextCursor": "1"}),
            json!({"tools": [{"name": "a", "inputSchema": {}}]}),
        ])
        .await
        .unwrap();
        let names: Vec<&Value> = surface.tools.iter().map(|t| &t["name"]).collect();
        assert_eq!(names, [&json!("a"), &json!("b")]);
        // Prompts and resources were not declared, so never asked (the target would not answer).
        assert!(surface.prompts.is_empty() && surface.resources.is_empty());
    }

    #[tokio::test]
    async fn a_tool_listed_twice_is_named_by_its_place() {
        let a = json!({"name": "a", "inputSchema": {}});
        let err = fetch_pages([
            json!({"tools": [a], "nextCursor": "1"}),
            json!({"tools": [a]}),
        ])
        .await
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("at /tools/1: a second tool with name \"a\""),
            "{err}"
        );
    }

    #[tokio::test]
    async fn a_cursor_handed_back_ends_the_fetch() {
        let page = json!({"tools": [], "nextCursor": "1"});
        let err = fetch_pages([page.clone(), page]).await.unwrap_err();
        assert!(
            err.to_string().contains("handed back the cursor \"1\""),
            "{err}"
        );
    }
}
