//! `discovery/fields`: a 2026-07-28 server's `server/discover` result, and the `capabilities/*`
//! answers the table's loop asks for before it runs a row that needs a capability.
//!
//! - [`discovery`]: `server/discover` must answer a result listing 2026-07-28 among its
//!   `supportedVersions`, with a `capabilities` object, the server named (a string name and
//!   version) in `_meta["io.modelcontextprotocol/serverInfo"]`, and every declared extension
//!   a prefixed `_meta` key. A 2025-era server is noted, not faulted. The capabilities it
//!   declares are what later rows go by ([`run`]).
//! - [`offered`]: whether to run the probes of a capability; an undeclared one's list method
//!   should be -32601, which the probe `capabilities/{capability}` reports: a list with items
//!   breaks the capability's own MUST ("Servers that support prompts **MUST** declare the
//!   `prompts` capability"), an empty one the SHOULD of capability negotiation.
//!
//! Clauses quoted (`mcp_test::spec::clauses`):
//! [`CAPABILITY_NEGOTIATION`](clauses::CAPABILITY_NEGOTIATION),
//! [`TOOLS_CAPABILITY`](clauses::TOOLS_CAPABILITY),
//! [`RESOURCES_CAPABILITY`](clauses::RESOURCES_CAPABILITY),
//! [`PROMPTS_CAPABILITY`](clauses::PROMPTS_CAPABILITY), [`DISCOVER`](clauses::DISCOVER),
//! [`DISCOVER_SERVER_INFO`](clauses::DISCOVER_SERVER_INFO),
//! [`EXTENSION_IDENTIFIERS`](clauses::EXTENSION_IDENTIFIERS), [`SCHEMA`](clauses::SCHEMA).

use crate::checker::{Checker, Note, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::Era;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::wire::error_codes::METHOD_NOT_FOUND;
use serde_json::{Value, json};

/// The probe's id.
pub(crate) const ID: &str = "discovery/fields";

/// The row: discovery, then the capabilities the server declared, which later rows go by.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(async move {
        let why = if r.options.second_session {
            Legacy::SecondSession
        } else if let Some(said) = &r.connection.negotiation {
            Legacy::ServerSaid(said.clone())
        } else if r.connection.era_chosen {
            Legacy::Chosen
        } else {
            Legacy::Found
        };
        let discover = discovery(&mut r.c, &why).await;
        r.declared = match r.c.era {
            Era::Current => discover
                .as_ref()
                .and_then(|d| d.get("capabilities"))
                .cloned()
                .or_else(|| r.connection.capabilities.clone()),
            Era::Legacy => r.connection.capabilities.clone(),
        };
    })
}

/// Records [`ID`]; returns the discover result of a 2026-07-28 server that answered one.
/// Why a session is in 2025-11-25, for the note that says so once.
pub(crate) enum Legacy {
    /// Connecting found no `DiscoverResult`.
    Found,
    /// The caller asked for it (`--era`).
    Chosen,
    /// The server's `server/discover` named 2025-11-25 and not 2026-07-28: why.
    ServerSaid(String),
    /// The other era's session of a server that serves both.
    SecondSession,
}

pub(crate) async fn discovery(c: &mut Checker<'_>, why: &Legacy) -> Option<Value> {
    let mut out = Vec::new();
    let mut discovered = None;
    if c.modern() {
        if let Some(r) = c.req("server/discover", json!({}), &mut out).await {
            match r.get("result") {
                None => out.push(c.broke(
                    &clauses::DISCOVER,
                    format!("server/discover answered an error: {}", r["error"]),
                )),
                Some(result) => {
                    let versions = result.get("supportedVersions").and_then(Value::as_array);
                    if !versions.is_some_and(|v| v.contains(&json!("2026-07-28"))) {
                        out.push(c.broke(
                            &clauses::SCHEMA,
                            format!(
                                "supportedVersions does not list 2026-07-28, the version this server answered in: {}",
                                result.get("supportedVersions").unwrap_or(&Value::Null)
                            ),
                        ));
                    }
                    if !result.get("capabilities").is_some_and(Value::is_object) {
                        out.push(c.broke(
                            &clauses::SCHEMA,
                            "the discover result has no `capabilities` object",
                        ));
                    }
                    let info = result.pointer("/_meta/io.modelcontextprotocol~1serverInfo");
                    match info {
                        None => out.push(c.broke(
                            &clauses::DISCOVER_SERVER_INFO,
                            "the discover result does not name the server in _meta[\"io.modelcontextprotocol/serverInfo\"]",
                        )),
                        Some(info)
                            if !(info.get("name").is_some_and(Value::is_string)
                                && info.get("version").is_some_and(Value::is_string)) =>
                        {
                            out.push(c.broke(
                                &clauses::SCHEMA,
                                format!("serverInfo needs a string name and version: {info}"),
                            ));
                        }
                        Some(_) => {}
                    }
                    let extensions = result
                        .pointer("/capabilities/extensions")
                        .and_then(Value::as_object);
                    for key in extensions.into_iter().flat_map(|e| e.keys()) {
                        if !extension_id_ok(key) {
                            out.push(c.broke(
                                &clauses::EXTENSION_IDENTIFIERS,
                                format!(
                                    "the declared extension {key:?} is not a prefixed `_meta` key (prefix: dot-separated labels and a slash, as in io.modelcontextprotocol/tasks)"
                                ),
                            ));
                        }
                    }
                    discovered = Some(result.clone());
                }
            }
        }
    } else if !matches!(why, Legacy::SecondSession) {
        // A 2025-era server is not wrong for being one: for the record, once. (The other
        // era's session of a dual-era server needs no note: the report names both eras.)
        out.push(Note::info(match why {
            Legacy::Chosen => "checked over the 2025-11-25 initialize handshake, as asked (--era): the 2026-only probes were skipped".to_owned(),
            Legacy::ServerSaid(said) => format!("checked over the 2025-11-25 initialize handshake, as the server's own word on versions asks (server/discover.mdx: \"The client should choose one of these for subsequent requests\"): {said}; no 2026-07-28 rule was probed"),
            Legacy::SecondSession => String::new(),
            Legacy::Found => "the server does not speak 2026-07-28 (connecting, it did not answer server/discover with a DiscoverResult); it was checked over the 2025-11-25 initialize handshake, and the 2026-only probes were skipped".to_owned(),
        }));
    }
    c.push_probe(ID, out);
    discovered
}

/// Whether to run the probes of a server `capability` (`tools`, `resources`, `prompts`,
/// `completions`), given whether the server declared it (`None`: not known).
///
/// Declared: yes. Undeclared: no method of it is called but its list method (for
/// completions, `completion/complete`), which should be -32601; the probe
/// `capabilities/{capability}` says what it answered. Not known (a 2025-era target that
/// kept no handshake): yes, unless that method answers -32601.
pub(crate) async fn offered(c: &mut Checker<'_>, capability: &str, declared: Option<bool>) -> bool {
    if declared == Some(true) {
        return true;
    }
    let (method, params) = match capability {
        "tools" => ("tools/list", json!({})),
        "resources" => ("resources/list", json!({})),
        "prompts" => ("prompts/list", json!({})),
        _ => (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "mcp-test-no-such-prompt"},
                   "argument": {"name": "mcp-test", "value": ""}}),
        ),
    };
    let mut out = Vec::new();
    let response = c.req(method, params, &mut out).await;
    let code = response
        .as_ref()
        .and_then(|r| r.pointer("/error/code"))
        .and_then(Value::as_i64);
    let name = format!("capabilities/{capability}");
    let not_found = i64::from(METHOD_NOT_FOUND);
    if declared.is_none() {
        if code == Some(not_found) {
            out.push(c.info(format!(
                "{method} is {METHOD_NOT_FOUND}: the server does not offer {capability}; its probes were skipped"
            )));
        }
        let run = response.is_some() && code != Some(not_found);
        if !run {
            c.push_probe(&name, out);
        }
        return run;
    }
    match (&response, code) {
        (None, _) => {}
        (Some(_), Some(code)) if code == not_found => {}
        // Items listed show the server supports the capability, which its own MUST then
        // binds it to declare; an empty list shows only that it answered a method it did not
        // declare, which the SHOULD of capability negotiation covers.
        (Some(r), None) => match supported(capability, r) {
            Some((clause, items)) => out.push(c.broke(
                clause,
                format!(
                    "the server lists {items} in {method} but did not declare the `{capability}` capability"
                ),
            )),
            None => out.push(c.broke(
                &clauses::CAPABILITY_NEGOTIATION,
                format!(
                    "the server did not declare the `{capability}` capability, yet {method} answered {}; a method of an undeclared capability is not available ({METHOD_NOT_FOUND})",
                    brief(r)
                ),
            )),
        },
        (Some(r), Some(_)) => out.push(c.info(format!(
            "the server did not declare the `{capability}` capability; {method} answered {} rather than {METHOD_NOT_FOUND} (Method not found)",
            brief(r)
        ))),
    }
    c.push_probe(&name, out);
    false
}

/// The clause a server breaks by listing items of `capability` it did not declare, and the
/// items in brief, when `response` (to its list method) lists any: "Servers that support
/// tools **MUST** declare the `tools` capability" (server/tools.mdx, and the same sentence of
/// resources and prompts). `None` for an empty list, another capability, or an error.
fn supported(capability: &str, response: &Value) -> Option<(&'static Clause, String)> {
    let (clause, key) = match capability {
        "tools" => (&clauses::TOOLS_CAPABILITY, "tools"),
        "resources" => (&clauses::RESOURCES_CAPABILITY, "resources"),
        "prompts" => (&clauses::PROMPTS_CAPABILITY, "prompts"),
        _ => return None,
    };
    let items = response.pointer(&format!("/result/{key}"))?.as_array()?;
    let first = items.first()?;
    let name = first.get("name").or_else(|| first.get("uri"));
    let named = name.map_or_else(String::new, |n| format!(", {n} first"));
    Some((clause, format!("{} {key}{named},", items.len())))
}

/// Whether `key` is a `_meta` key with the prefix an extension identifier must have
/// (basic/index.mdx §`_meta`: dot-separated labels that start with a letter and end with a
/// letter or digit, a slash, then a name that is empty or starts and ends alphanumeric).
fn extension_id_ok(key: &str) -> bool {
    let Some((prefix, name)) = key.split_once('/') else {
        return false;
    };
    let label_ok = |label: &str| {
        label.starts_with(|c: char| c.is_ascii_alphabetic())
            && label.ends_with(|c: char| c.is_ascii_alphanumeric())
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    let name_ok = name.is_empty()
        || (name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.ends_with(|c: char| c.is_ascii_alphanumeric())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')));
    prefix.split('.').all(label_ok) && name_ok
}

#[cfg(test)]
mod tests {
    use super::extension_id_ok;

    #[test]
    fn extension_identifiers_need_a_prefix() {
        for good in [
            "io.modelcontextprotocol/tasks",
            "com.example/x-y_z.1",
            "dev.acme/",
        ] {
            assert!(extension_id_ok(good), "{good}");
        }
        for bad in [
            "tasks",
            "/tasks",
            "1com.example/x",
            "com.example-/x",
            "com..x/y",
            "a/b/c",
            "a/-x",
        ] {
            assert!(!extension_id_ok(bad), "{bad}");
        }
    }
}
