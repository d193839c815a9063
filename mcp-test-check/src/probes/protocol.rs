//! The probes of the base protocol, over any [`Target`](mcp_test::target::Target): discovery, methods, lists, tool
//! definitions, the schema cases, resources and prompts, result shapes and error codes,
//! transport hygiene.

use crate::Shown;
use crate::checker::{Checker, Logged, Note, Out, brief};
use futures_util::StreamExt;
use mcp_test::cases::{Case, Era, Expectation, Happened, Outcome, VerifyReport, run_in};
use mcp_test::spec;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::target::TransportEvent;
use mcp_test::validation::SchemaValidator;
use mcp_test::wire::meta_keys;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

impl Checker<'_> {
    pub(crate) async fn discovery(&mut self) -> Option<Value> {
        let mut out = Vec::new();
        let mut discovered = None;
        if self.modern() {
            if let Some(r) = self.req("server/discover", json!({}), &mut out).await {
                match r.get("result") {
                    None => out.push(self.broke(
                        &clauses::DISCOVER,
                        format!("server/discover answered an error: {}", r["error"]),
                    )),
                    Some(result) => {
                        let versions = result.get("supportedVersions").and_then(Value::as_array);
                        if !versions.is_some_and(|v| v.contains(&json!("2026-07-28"))) {
                            out.push(self.broke(
                                &clauses::SCHEMA,
                                format!(
                                    "supportedVersions does not list 2026-07-28, the version this server answered in: {}",
                                    result.get("supportedVersions").unwrap_or(&Value::Null)
                                ),
                            ));
                        }
                        if !result.get("capabilities").is_some_and(Value::is_object) {
                            out.push(self.broke(
                                &clauses::SCHEMA,
                                "the discover result has no `capabilities` object",
                            ));
                        }
                        let info = result.pointer("/_meta/io.modelcontextprotocol~1serverInfo");
                        match info {
                            None => out.push(self.broke(
                                &clauses::DISCOVER_SERVER_INFO,
                                "the discover result does not name the server in _meta[\"io.modelcontextprotocol/serverInfo\"]",
                            )),
                            Some(info)
                                if !(info.get("name").is_some_and(Value::is_string)
                                    && info.get("version").is_some_and(Value::is_string)) =>
                            {
                                out.push(self.broke(
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
                                out.push(self.broke(
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
        } else {
            // A 2025-era server is not wrong for being one: for the record.
            out.push(Note::info(
                "the server does not speak 2026-07-28 (server/discover is -32601); it was checked over the 2025-11-25 initialize handshake, and the 2026-only probes were skipped",
            ));
        }
        self.push_probe("discovery/fields", out);
        discovered
    }

    /// Whether to run the probes of a server `capability` (`tools`, `resources`, `prompts`,
    /// `completions`), given whether the server declared it (`None`: not known).
    ///
    /// Declared: yes. Undeclared: no method of it is called but its list method (for
    /// completions, `completion/complete`), which should be -32601; the probe
    /// `capabilities/{capability}` says what it answered. Not known (a 2025-era target that
    /// kept no handshake): yes, unless that method answers -32601.
    pub(crate) async fn offered(&mut self, capability: &str, declared: Option<bool>) -> bool {
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
        let response = self.req(method, params, &mut out).await;
        let code = response
            .as_ref()
            .and_then(|r| r.pointer("/error/code"))
            .and_then(Value::as_i64);
        let name = format!("capabilities/{capability}");
        if declared.is_none() {
            if code == Some(-32601) {
                out.push(self.info(format!(
                    "{method} is -32601: the server does not offer {capability}; its probes were skipped"
                )));
            }
            let run = response.is_some() && code != Some(-32601);
            if !run {
                self.push_probe(&name, out);
            }
            return run;
        }
        match (&response, code) {
            (None, _) | (Some(_), Some(-32601)) => {}
            (Some(r), None) => out.push(self.broke(
                &clauses::CAPABILITY_NEGOTIATION,
                format!(
                    "the server did not declare the `{capability}` capability, yet {method} answered {}; a method of an undeclared capability is not available (-32601)",
                    brief(r)
                ),
            )),
            (Some(r), Some(_)) => out.push(self.info(format!(
                "the server did not declare the `{capability}` capability; {method} answered {} rather than -32601 (Method not found)",
                brief(r)
            ))),
        }
        self.push_probe(&name, out);
        false
    }

    /// `initialize` sent to a 2026-07-28 server as a 2025-era client sends it: no `_meta`
    /// and, over HTTP, no `MCP-Protocol-Version` header. Any error is right (the code is
    /// implementation-defined), and a dual-era server MAY answer it with an
    /// `InitializeResult`, checked against the 2025-11-25 schema; an error SHOULD name the
    /// supported versions (a SHOULD for a server that supports only modern versions, which
    /// is what an error here shows).
    ///
    /// It runs last: a dual-era server that answers it may serve the rest of the connection
    /// (stdio) as a 2025-era session, which is its right, and no later probe may then be held
    /// to 2026-07-28.
    pub(crate) async fn initialize_last(&mut self) {
        if !self.modern() || self.dead.is_some() {
            return self.skip_probe(
                "methods/initialize-on-a-modern-server",
                if self.modern() {
                    "the server had stopped answering"
                } else {
                    "a 2025-era server: initialize is its handshake"
                },
            );
        }
        let mut out = Vec::new();
        let id = self.session.next_id();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "mcp-test", "version": "0"}}});
        self.last = Some(Shown {
            method: "initialize".to_owned(),
            id: Some(id),
        });
        let answer = self.send_as_legacy(body).await;
        match answer {
            Err(e) => out.push(self.broke(
                &clauses::JSONRPC_RESPONSE,
                format!("no answer to initialize: {e}"),
            )),
            Ok(r) => {
                if let Some(error) = r.get("error") {
                    let listed = error
                        .pointer("/data/supported")
                        .and_then(Value::as_array)
                        .is_some_and(|v| !v.is_empty())
                        || error.to_string().contains("2026-07-28");
                    if !listed {
                        out.push(self.broke(
                            &clauses::INITIALIZE_NAMES_VERSIONS,
                            format!(
                                "the error answering initialize names no supported protocol version; got {}",
                                brief(&r)
                            ),
                        ));
                    }
                } else if let Err(e) = spec::check_response_in(Era::Legacy, "initialize", &r) {
                    // A dual-era server answered as a 2025-era one: held to that schema.
                    out.push(
                        Note::broke(&clauses::LEGACY_SCHEMA, format!("initialize: {e}"))
                            .on(self.last.clone()),
                    );
                }
                if r.get("id") != Some(&json!(id)) {
                    let clause = if r.get("error").is_some() {
                        &clauses::ERROR_ID
                    } else {
                        &clauses::RESULT_ID
                    };
                    out.push(self.broke(
                        clause,
                        format!("the response to initialize (id {id}) has id {}", r["id"]),
                    ));
                }
            }
        }
        self.push_probe("methods/initialize-on-a-modern-server", out);
    }

    pub(crate) async fn methods(&mut self) {
        let mut out = Vec::new();
        let mut expect_32601 = vec!["mcp-test/no-such-method"];
        if self.modern() {
            expect_32601.extend([
                "ping",
                "logging/setLevel",
                "resources/subscribe",
                "resources/unsubscribe",
            ]);
        }
        for method in expect_32601 {
            if let Some(r) = self.req(method, json!({}), &mut out).await
                && r.pointer("/error/code").and_then(Value::as_i64) != Some(-32601)
            {
                let what = if method.starts_with("mcp-test/") {
                    "an unknown method"
                } else {
                    "a method 2026-07-28 removed"
                };
                out.push(self.broke(
                    &clauses::JSONRPC_METHOD_NOT_FOUND,
                    format!("{method} ({what}) must be -32601; got {}", brief(&r)),
                ));
            }
        }
        if !self.modern()
            && let Some(r) = self.req("ping", json!({}), &mut out).await
            && r.get("error").is_some()
        {
            // 2025-11-25 has ping (2026-07-28 removed it, hence -32601 above).
            out.push(
                Note::broke(
                    &clauses::LEGACY_PING,
                    format!(
                        "ping must be answered with an empty result; got {}",
                        brief(&r)
                    ),
                )
                .on(self.last.clone()),
            );
        }
        self.push_probe("methods/removed-and-unknown", out);
        if !self.modern() {
            self.skip_probe(
                "methods/unsupported-version",
                "a 2025-era server: version negotiation is the initialize handshake",
            );
            return;
        }
        let mut out = Vec::new();
        let meta = json!({"_meta": {
            meta_keys::PROTOCOL_VERSION: "1999-01-01",
            meta_keys::CLIENT_CAPABILITIES: {},
        }});
        if let Some(r) = self.req("tools/list", meta, &mut out).await {
            if r.pointer("/error/code").and_then(Value::as_i64) != Some(-32022) {
                out.push(self.broke(
                    &clauses::UNSUPPORTED_VERSION,
                    format!(
                        "a request for protocol version 1999-01-01 must be -32022 (UnsupportedProtocolVersion); got {}",
                        brief(&r)
                    ),
                ));
            } else {
                let data = r.pointer("/error/data");
                let supported = data
                    .and_then(|d| d.get("supported"))
                    .and_then(Value::as_array);
                // UnsupportedProtocolVersionError requires data.supported and
                // data.requested (schema.ts).
                if !supported.is_some_and(|s| s.contains(&json!("2026-07-28"))) {
                    out.push(self.broke(
                        &clauses::SCHEMA,
                        format!("the -32022 error must list the supported versions, 2026-07-28 among them, in data.supported; data is {}", data.unwrap_or(&Value::Null)),
                    ));
                }
                if data.and_then(|d| d.get("requested")) != Some(&json!("1999-01-01")) {
                    out.push(self.broke(
                        &clauses::SCHEMA,
                        "the -32022 error must echo the requested version in data.requested",
                    ));
                }
            }
        }
        let id = self.session.next_id();
        let bare = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {}});
        self.last = Some(Shown {
            method: "tools/list".to_owned(),
            id: Some(id),
        });
        match self.send_without_envelope(bare).await {
            Ok(r) => {
                // The body has no version, the header says 2026-07-28: a server may call that
                // a header mismatch (-32020).
                let code = r.pointer("/error/code").and_then(Value::as_i64);
                if !matches!(code, Some(-32602 | -32020)) {
                    out.push(self.broke(
                        &clauses::META_REQUIRED,
                        format!(
                            "a request without the `_meta` envelope must be -32602; got {}",
                            brief(&r)
                        ),
                    ));
                }
                self.log_response("tools/list", id, r);
            }
            Err(e) => out.push(self.broke(
                &clauses::JSONRPC_RESPONSE,
                format!("no answer to tools/list without `_meta`: {e}"),
            )),
        }
        self.push_probe("methods/unsupported-version", out);
    }

    /// Sends a request that lacks the `_meta` envelope. Over HTTP it still carries
    /// `MCP-Protocol-Version: 2026-07-28` and `Mcp-Method`, which the client derives from
    /// `_meta` and so would leave out: a dual-era server keys on that header, and without it
    /// rightly serves the request as 2025-era.
    /// Sends `body` as a 2025-era client would: over HTTP with no `MCP-Protocol-Version`
    /// header (a dual-era server keys on it), on stdio as it is.
    async fn send_as_legacy(&self, body: Value) -> Result<Value, String> {
        if let Some(mcp_test::target::HttpEndpoint { url, options, .. }) =
            self.session.target.connection().http
        {
            return super::raw_http::post_legacy(&url, &options, &body, self.session.timeout).await;
        }
        self.session.raw(body).await.map_err(|e| e.to_string())
    }

    async fn send_without_envelope(&self, body: Value) -> Result<Value, String> {
        if let Some(mcp_test::target::HttpEndpoint { url, options, .. }) =
            self.session.target.connection().http
        {
            return super::raw_http::post_modern(&url, &options, &body, self.session.timeout).await;
        }
        self.session.raw(body).await.map_err(|e| e.to_string())
    }

    pub(crate) fn log_response(&self, method: &str, id: i64, response: Value) {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Logged {
                method: method.to_owned(),
                id,
                response,
            });
    }

    /// Every page of a list method; findings for loops, duplicates and a list that does not
    /// end. `responds`: the clause that makes the server answer it, if one does (an error
    /// or a loop is otherwise a note, and -32601 nothing: the method is optional).
    /// `first_cursor` is set to the first `nextCursor` and the page it gave, if any.
    async fn pages(
        &mut self,
        method: &str,
        key: &str,
        responds: Option<&Clause>,
        out: &mut Out,
        first_cursor: &mut Option<(String, Vec<Value>)>,
    ) -> Option<Vec<Value>> {
        let mut items = Vec::new();
        let mut cursors = HashSet::new();
        let mut cursor: Option<String> = None;
        for _ in 0..200 {
            let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
            let r = self.req(method, params, out).await?;
            let Some(result) = r.get("result") else {
                let message = format!("{method} answered an error: {}", brief(&r));
                match responds {
                    Some(clause) => out.push(self.broke(clause, message)),
                    None if r.pointer("/error/code").and_then(Value::as_i64) == Some(-32601) => {}
                    None => out.push(self.info(message)),
                }
                return None;
            };
            let Some(page) = result.get(key).and_then(Value::as_array) else {
                out.push(self.broke(
                    &clauses::SCHEMA,
                    format!("the {method} result has no `{key}` array"),
                ));
                return None;
            };
            if let Some(c) = &cursor
                && first_cursor.is_none()
            {
                *first_cursor = Some((c.clone(), page.clone()));
            }
            items.extend(page.iter().cloned());
            match result.get("nextCursor") {
                None | Some(Value::Null) => return Some(items),
                Some(Value::String(next)) => {
                    if !cursors.insert(next.clone()) {
                        // A client that follows the cursors never gets to the end of the
                        // set the server must answer with.
                        let message = format!(
                            "{method} pagination loops: nextCursor {next:?} was already returned, so a client following the cursors never reaches the end of the list"
                        );
                        out.push(match responds {
                            Some(clause) => self.broke(clause, message),
                            None => self.info(message),
                        });
                        return Some(items);
                    }
                    cursor = Some(next.clone());
                }
                Some(other) => {
                    out.push(self.broke(
                        &clauses::SCHEMA,
                        format!("{method}: nextCursor must be a string, got {other}"),
                    ));
                    return Some(items);
                }
            }
        }
        out.push(self.info(format!("{method} did not end within 200 pages")));
        Some(items)
    }

    /// Pagination, stable order, duplicates and a bad cursor for one list method, which a
    /// server with the capability must answer (`responds`).
    async fn list_probe(
        &mut self,
        method: &str,
        key: &str,
        id_field: &str,
        responds: Option<&Clause>,
    ) -> Vec<Value> {
        let mut out = Vec::new();
        let mut paged = None;
        let listed = self
            .pages(method, key, responds, &mut out, &mut paged)
            .await;
        // An optional method the server does not implement (-32601): nothing more to ask.
        if listed.is_none() && responds.is_none() && self.dead.is_none() && out.is_empty() {
            self.push_probe(&format!("lists/{method}"), out);
            return Vec::new();
        }
        let first = listed.unwrap_or_default();
        let tools = method == "tools/list";
        let names = |items: &[Value]| -> Vec<String> {
            items
                .iter()
                .map(|t| t.get(id_field).map(Value::to_string).unwrap_or_default())
                .collect()
        };
        let mut seen = HashSet::new();
        for n in names(&first) {
            if !seen.insert(n.clone()) {
                let message = format!("{method} lists {id_field} {n} more than once");
                out.push(if tools {
                    self.broke(&clauses::TOOL_NAMES_UNIQUE, message)
                } else {
                    self.info(message)
                });
            }
        }
        if self.dead.is_none() {
            let mut again_out = Vec::new();
            let second = self
                .pages(method, key, responds, &mut again_out, &mut None)
                .await;
            if let Some(second) = second {
                let (a, b) = (names(&first), names(&second));
                let mut sorted = (a.clone(), b.clone());
                sorted.0.sort();
                sorted.1.sort();
                if a != b {
                    let message = format!(
                        "{method} differs between two calls in a row: first {a:?}, then {b:?}"
                    );
                    // The order of tools is a SHOULD; the set MAY change over time, and no
                    // clause orders resources or prompts.
                    out.push(if tools && sorted.0 == sorted.1 {
                        self.broke(&clauses::TOOLS_DETERMINISTIC_ORDER, message)
                    } else {
                        self.info(message)
                    });
                } else if let Some((cursor, page)) = paged {
                    // The set did not change between the two listings: the same cursor
                    // should give the same page again.
                    let params = json!({"cursor": cursor});
                    if let Some(r) = self.req(method, params, &mut out).await
                        && let Some(again) = r.pointer(&format!("/result/{key}"))
                        && let Some(again) = again.as_array()
                        && names(again) != names(&page)
                    {
                        out.push(self.broke(
                            &clauses::PAGINATION_STABLE_CURSORS,
                            format!(
                                "{method} with the cursor {cursor:?} a second time gave another page, though the list did not change: first {:?}, then {:?}",
                                names(&page),
                                names(again)
                            ),
                        ));
                    }
                }
            }
            let bad = json!({"cursor": "mcp-test-not-a-cursor"});
            if let Some(r) = self.req(method, bad, &mut out).await
                && r.get("error").is_none()
            {
                out.push(self.broke(
                    &clauses::INVALID_CURSOR,
                    format!("{method} with an invalid cursor answered a result, not -32602"),
                ));
            }
        }
        self.push_probe(&format!("lists/{method}"), out);
        first
    }

    pub(crate) async fn tool_lists(&mut self) -> Vec<Value> {
        self.list_probe("tools/list", "tools", "name", Some(&clauses::TOOLS_LIST))
            .await
    }

    pub(crate) async fn tool_definitions(&mut self, tools: &[Value]) {
        let mut out = Vec::new();
        for tool in tools {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
            if let Err(e) = spec::check_in(self.era, "Tool", tool) {
                out.push(self.broke(&clauses::SCHEMA, format!("tool {name:?}: {e}")));
            }
            if let Some(schema) = tool.get("outputSchema")
                && let Err(e) = SchemaValidator::new(schema)
            {
                out.push(self.broke(
                    &clauses::SCHEMA_VALID,
                    format!("tool {name:?}: outputSchema is not a valid JSON Schema: {e}"),
                ));
            }
        }
        let params = json!({"name": "mcp-test-no-such-tool", "arguments": {}});
        if let Some(r) = self.req("tools/call", params, &mut out).await {
            // server/tools.mdx §Error Handling lists an unknown tool among the protocol
            // errors, with -32602 as its example, and gives no level: a note.
            match Happened::from_response(&r) {
                Happened::RpcError { code: -32602, .. } => {}
                Happened::ToolError { .. } => out.push(self.info(
                    "an unknown tool answered isError: true; server/tools.mdx §Error Handling lists an unknown tool among the protocol errors (its example: -32602)",
                )),
                other => out.push(self.info(format!(
                    "calling an unknown tool answered {other}; server/tools.mdx §Error Handling lists it among the protocol errors (its example: -32602)"
                ))),
            }
        }
        self.push_probe("tools/definitions-and-unknown-tool", out);
        self.names_and_headers(tools);
    }

    pub(crate) async fn run_cases(
        &mut self,
        tools: &[Value],
        cases: &[Case],
        progress: &mut (dyn FnMut(&str) + Send),
    ) -> VerifyReport {
        let mut report = VerifyReport::default();
        let mut out = Vec::new();
        let mut outputs = Vec::new();
        let output_schemas: BTreeMap<&str, &Value> = tools
            .iter()
            .filter_map(|t| Some((t.get("name")?.as_str()?, t.get("outputSchema")?)))
            .collect();
        // The cases run `jobs` at a time, each followed by a liveness request, so one slow
        // tool does not hold up the rest; once a liveness request goes unanswered no further
        // case is sent. The outcomes are then read in the cases' order.
        let jobs = self.jobs.max(1);
        let stopped = AtomicBool::new(false);
        // A case still running after `case_time` is cancelled, and its tool's later valid
        // cases are not sent: each would wait as long again.
        let case_time = self.case_time.filter(|t| *t < self.session.timeout);
        let slow_tools: Mutex<HashSet<&str>> = Mutex::new(HashSet::new());
        let limit_ms = case_time.map_or(0, |t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX));
        let ran: Vec<Option<Ran>> = {
            let this = &*self;
            let stopped = &stopped;
            let slow_tools = &slow_tools;
            let total = cases.len();
            futures_util::stream::iter(cases.iter())
                .map(|case| async move {
                    if stopped.load(AtomicOrdering::SeqCst) || this.dead.is_some() {
                        return None;
                    }
                    // Without client capabilities: a tool that asks must answer -32021, which
                    // the multi-round probes look at.
                    let is_slow = |tool: &str| {
                        slow_tools
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .contains(tool)
                    };
                    // Invalid arguments are still sent: a server rejects them before any
                    // slow work, and they are what the cases check most.
                    if case.expectation != Expectation::Error && is_slow(&case.tool) {
                        let happened = Happened::Slow {
                            limit_ms,
                            sent: false,
                        };
                        return Some((happened, None, true, Duration::ZERO));
                    }
                    let started = Instant::now();
                    let (happened, response) = match case_time {
                        None => run_in(&this.session, case, None).await,
                        Some(limit) => match this.session.call_within(case, limit).await {
                            Some(ran) => ran,
                            None => {
                                slow_tools
                                    .lock()
                                    .unwrap_or_else(|e| e.into_inner())
                                    .insert(case.tool.as_str());
                                let happened = Happened::Slow {
                                    limit_ms,
                                    sent: true,
                                };
                                (happened, None)
                            }
                        },
                    };
                    let took = started.elapsed();
                    let alive = this.alive().await || this.session.past_deadline();
                    if !alive {
                        stopped.store(true, AtomicOrdering::SeqCst);
                    }
                    Some((happened, response, alive, took))
                })
                .buffered(jobs)
                .enumerate()
                .map(|(i, ran)| {
                    if i % 25 == 0 && i > 0 {
                        progress(&format!("cases: {i}/{total}"));
                    }
                    ran
                })
                .collect()
                .await
        };
        let mut skipped = 0;
        for (case, ran) in cases.iter().zip(ran) {
            let Some((happened, response, alive, took)) = ran.filter(|_| self.dead.is_none())
            else {
                skipped += 1;
                continue;
            };
            if let Some(r) = &response {
                self.log_response("tools/call", r["id"].as_i64().unwrap_or(-1), r.clone());
            }
            let shown = Some(Shown {
                method: "tools/call".to_owned(),
                id: response.as_ref().and_then(|r| r["id"].as_i64()),
            });
            let agrees = happened.agrees_with(case.expectation);
            // What a call without an answer means is `classify`'s, below; here, whether the
            // server was still there after the case.
            if !alive {
                let label = format!("{} › {}", case.tool, case.title);
                match &happened {
                    Happened::Failed { message } => self.dead = Some(message.clone()),
                    _ => {
                        // Answered, then gone: this case killed or wedged the server (or,
                        // with several in flight, one of them did).
                        let at_once = if jobs > 1 {
                            format!(
                                "; up to {jobs} cases were in flight at once, `--jobs 1` pins it down"
                            )
                        } else {
                            String::new()
                        };
                        out.push(
                            self.broke(
                                &clauses::JSONRPC_RESPONSE,
                                format!(
                                    "the server stopped answering right after the case {label} (its call was answered; the next request got no answer{at_once}); arguments {}",
                                    case.args
                                ),
                            )
                            .on(shown.clone()),
                        );
                        self.dead = Some(format!("after the case {label}"));
                    }
                }
            }
            if let (Happened::Success { .. }, Some(schema), Some(r)) =
                (&happened, output_schemas.get(case.tool.as_str()), &response)
            {
                outputs.extend(
                    output_findings(self.era, &case.tool, schema, &r["result"])
                        .into_iter()
                        .map(|n| n.on(shown.clone())),
                );
            }
            report.outcomes.push(Outcome {
                case: case.clone(),
                happened,
                agrees,
                response,
                duration: Some(took),
            });
        }
        out.extend(crate::classify::findings(self.era, &report.outcomes));
        out.extend(slow_notes(&report.outcomes));
        if skipped > 0 {
            out.push(Note::info(format!(
                "{skipped} cases skipped after the server stopped answering"
            )));
        }
        self.push_probe("tools/schema-cases", out);
        if output_schemas.is_empty() {
            self.skip_probe(
                "tools/output-schema",
                "no tool called declares an outputSchema",
            );
        } else {
            self.push_probe("tools/output-schema", outputs);
        }
        report
    }

    /// The resource probes: the lists (resources, templates), reading listed resources and
    /// their contents, a missing resource and a URI that is none. Returns the templates
    /// listed (for the completion probe).
    pub(crate) async fn resources(&mut self) -> Vec<Value> {
        let resources = self
            .list_probe(
                "resources/list",
                "resources",
                "uri",
                Some(&clauses::RESOURCES_LIST),
            )
            .await;
        // No clause makes a server with resources list templates: an error is a note, and
        // -32601 nothing.
        let templates = self
            .list_probe(
                "resources/templates/list",
                "resourceTemplates",
                "uriTemplate",
                None,
            )
            .await;
        let mut out = Vec::new();
        let mut contents = Vec::new();
        for res in resources.iter().take(10) {
            let Some(uri) = res.get("uri").and_then(Value::as_str) else {
                continue;
            };
            let Some(r) = self
                .req("resources/read", json!({"uri": uri}), &mut out)
                .await
            else {
                continue;
            };
            match r.get("result") {
                // No clause says a listed resource must be readable by every client.
                None => out.push(self.info(format!(
                    "reading the listed resource {uri} failed: {}",
                    brief(&r)
                ))),
                Some(result) => {
                    for m in super::catalog::blob_notes(uri, result) {
                        contents.push(self.broke(&clauses::RESOURCE_BINARY_ENCODED, m));
                    }
                }
            }
        }
        self.push_probe("resources/contents", contents);
        let garbage = json!({"uri": "mcp-test: not a uri"});
        if let Some(r) = self.req("resources/read", garbage, &mut out).await
            && r.get("result").is_some()
        {
            out.push(self.broke(
                &clauses::RESOURCE_VALIDATE_URIS,
                format!(
                    "reading \"mcp-test: not a uri\" (no valid URI) answered a result, not an error: {}",
                    brief(&r)
                ),
            ));
        }
        let missing = json!({"uri": "mcp-test://no/such/resource"});
        if let Some(r) = self.req("resources/read", missing, &mut out).await {
            // 2026-07-28: MUST -32602. 2025-11-25: SHOULD -32002, and -32602 is the code
            // a later revision settled on, so it is not held against a 2025-era server.
            let expected = if self.modern() { "-32602" } else { "-32002" };
            match r.pointer("/error/code").and_then(Value::as_i64) {
                Some(-32602) => {}
                Some(-32002) if !self.modern() => {}
                Some(code) => out.push(self.broke(
                    &clauses::RESOURCE_NOT_FOUND,
                    format!("a missing resource must be {expected}; got {code}"),
                )),
                None => {
                    let empty = r
                        .pointer("/result/contents")
                        .and_then(Value::as_array)
                        .is_some_and(Vec::is_empty);
                    let clause = if empty && self.modern() {
                        &clauses::RESOURCE_NOT_FOUND_EMPTY
                    } else {
                        &clauses::RESOURCE_NOT_FOUND
                    };
                    out.push(self.broke(
                        clause,
                        format!(
                            "reading a missing resource answered a result, not {expected}: {}",
                            brief(&r)
                        ),
                    ));
                }
            }
        }
        self.push_probe("resources/not-found", out);
        templates
    }

    /// The prompt probes: the list, errors for an unknown prompt and missing arguments, and
    /// the contents of a few prompts (with arguments the server suggests, when it declared
    /// `completions`: `complete`). Returns the prompts listed (for the completion probe).
    pub(crate) async fn prompts(&mut self, complete: bool) -> Vec<Value> {
        let prompts = self
            .list_probe(
                "prompts/list",
                "prompts",
                "name",
                Some(&clauses::PROMPTS_LIST),
            )
            .await;
        let mut out = Vec::new();
        for prompt in &prompts {
            let Some(name) = prompt.get("name").and_then(Value::as_str) else {
                continue;
            };
            let required = prompt
                .get("arguments")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|x| x["required"] == json!(true)));
            if required
                && let Some(r) = self
                    .req(
                        "prompts/get",
                        json!({"name": name, "arguments": {}}),
                        &mut out,
                    )
                    .await
                && r.pointer("/error/code").and_then(Value::as_i64) != Some(-32602)
            {
                out.push(self.broke(
                    &clauses::PROMPT_ERRORS,
                    format!(
                        "prompt {name:?} without its required arguments: -32602 expected; got {}",
                        brief(&r)
                    ),
                ));
            }
        }
        let unknown = json!({"name": "mcp-test-no-such-prompt"});
        if let Some(r) = self.req("prompts/get", unknown, &mut out).await
            && r.pointer("/error/code").and_then(Value::as_i64) != Some(-32602)
        {
            out.push(self.broke(
                &clauses::PROMPT_ERRORS,
                format!("an unknown prompt: -32602 expected; got {}", brief(&r)),
            ));
        }
        self.push_probe("prompts/arguments", out);
        self.prompt_contents(&prompts, complete).await;
        prompts
    }

    /// Every response so far: ids, error codes, cache hints, and the schema of the era's
    /// revision. A 2025-era server that chose a revision older than 2025-11-25 (`chosen`) is
    /// still checked against 2025-11-25's schema, the closest bundled, and what differs is
    /// noted, not held against it.
    pub(crate) fn results_and_errors(&mut self, chosen: Option<String>) {
        let log = std::mem::take(&mut *self.log.lock().unwrap_or_else(|e| e.into_inner()));
        let mut results = Vec::new();
        let mut errors = Vec::new();
        let era = self.era;
        let older = chosen.filter(|v| era == Era::Legacy && v != Era::Legacy.revision());
        if let Some(version) = &older {
            results.push(Note::info(format!(
                "the server chose protocol revision {version}; its results were checked against 2025-11-25's schema, the closest bundled, and any difference is only noted"
            )));
        }
        let mut undefined = std::collections::BTreeSet::new();
        for entry in &log {
            let r = &entry.response;
            let on = Some(Shown {
                method: entry.method.clone(),
                id: Some(entry.id),
            });
            let note = |clause: &Clause, message: String| {
                Note::broke_in(era, clause, message).on(on.clone())
            };
            let is_error = r.get("error").is_some();
            if r.get("id") != Some(&json!(entry.id)) {
                let clause = if is_error {
                    &clauses::ERROR_ID
                } else {
                    &clauses::RESULT_ID
                };
                errors.push(note(
                    clause,
                    format!(
                        "the response to {} (id {}) has id {}",
                        entry.method,
                        entry.id,
                        r.get("id").unwrap_or(&Value::Null)
                    ),
                ));
            }
            if let Some(error) = r.get("error") {
                let fields_missing = error.get("code").is_none()
                    || !error.get("message").is_some_and(Value::is_string);
                if fields_missing {
                    errors.push(note(
                        &clauses::ERROR_FIELDS,
                        format!(
                            "{}: the error must have a code and a string message; got {error}",
                            entry.method
                        ),
                    ));
                }
                if let Some(code) = error.get("code") {
                    match code.as_i64() {
                        Some(-32002 | -32042) if self.modern() => errors.push(note(
                            &clauses::REMOVED_ERROR_CODES,
                            format!(
                                "{} answered {code}, a code 2026-07-28 servers must not emit",
                                entry.method
                            ),
                        )),
                        Some(c)
                            if self.modern()
                                && (-32099..=-32020).contains(&c)
                                && !(-32022..=-32020).contains(&c) =>
                        {
                            errors.push(note(
                                &clauses::RESERVED_ERROR_CODES,
                                format!(
                                    "{} answered {c}, a code of the range -32020..-32099 that the specification does not define",
                                    entry.method
                                ),
                            ));
                        }
                        // The legacy sub-range: new implementations should avoid it, and
                        // whether one is new cannot be seen; for the record.
                        Some(c) if (-32019..=-32000).contains(&c) => errors.push(
                            Note::info(format!(
                                "{} answered {c}, an implementation-defined server error code",
                                entry.method
                            ))
                            .on(on.clone()),
                        ),
                        None => errors.push(note(
                            &clauses::ERROR_CODE_INTEGER,
                            format!(
                                "{}: the error code must be an integer, got {code}",
                                entry.method
                            ),
                        )),
                        _ => {}
                    }
                }
                if fields_missing || !error.get("code").is_some_and(Value::is_i64) {
                    continue;
                }
            }
            if !self.modern() {
                if !is_error && spec::legacy_result_definition(&entry.method).is_none() {
                    undefined.insert(entry.method.clone());
                }
                if let Err(e) = spec::check_response_in(era, &entry.method, r) {
                    let into = if is_error { &mut errors } else { &mut results };
                    let message = format!("{}: {e}", entry.method);
                    into.push(match &older {
                        None => note(&clauses::SCHEMA, message),
                        Some(version) => Note::info(format!(
                            "{message} (the server chose {version}, whose schema is not bundled)"
                        ))
                        .on(on.clone()),
                    });
                }
                continue;
            }
            if let Some(result) = r.get("result") {
                if result.get("resultType").is_none() {
                    results.push(note(
                        &clauses::RESULT_TYPE,
                        format!("the {} result has no resultType", entry.method),
                    ));
                    continue;
                }
                if result.get("resultType") == Some(&json!("input_required")) {
                    if !spec::INPUT_REQUIRED_METHODS.contains(&entry.method.as_str()) {
                        results.push(note(
                            &clauses::MRTR_SUPPORTED_REQUESTS,
                            format!(
                                "{} answered input_required, which only tools/call, prompts/get and resources/read may",
                                entry.method
                            ),
                        ));
                        continue;
                    }
                    if result.get("inputRequests").is_none() && result.get("requestState").is_none()
                    {
                        results.push(note(
                            &clauses::MRTR_REQUESTS_OR_STATE,
                            format!(
                                "the {} input_required result has neither inputRequests nor requestState",
                                entry.method
                            ),
                        ));
                        continue;
                    }
                }
                if let Some(ttl) = result.get("ttlMs").and_then(Value::as_f64)
                    && ttl < 0.0
                {
                    results.push(note(
                        &clauses::CACHE_TTL_NON_NEGATIVE,
                        format!("the {} result has ttlMs {ttl}", entry.method),
                    ));
                    continue;
                }
                if let Err(e) = spec::check_response(&entry.method, r) {
                    results.push(note(&clauses::SCHEMA, format!("{}: {e}", entry.method)));
                }
            } else if is_error && let Err(e) = spec::check("JSONRPCErrorResponse", r) {
                errors.push(note(&clauses::SCHEMA, format!("{}: {e}", entry.method)));
            }
        }
        if !undefined.is_empty() {
            results.push(Note::info(format!(
                "2025-11-25 defines no result for {}: those results were checked as JSON-RPC responses only",
                undefined.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
        self.push_probe("results/shape-and-cache-hints", results);
        self.push_probe("errors/codes-and-ids", errors);
    }

    /// What the server did on its transport, judged by era: a 2026-07-28 server never sends
    /// a request on stdio (MUST NOT); a 2025-era one may (sampling, roots, elicitation,
    /// ping), which is only noted. Lines that are not messages break the stdout rule, unless
    /// a run of them joins into JSON-RPC messages: then a message was written over several
    /// lines, which breaks the framing rule (no embedded newlines) instead.
    ///
    /// What a server writes right after its last response may still be on its way: the events
    /// are read once they have stopped growing for a moment (at most a quarter second).
    pub(crate) async fn transport(&mut self) {
        let target = self.session.target;
        let mut events = target.connection().events;
        for _ in 0..10 {
            tokio::time::sleep(Duration::from_millis(25)).await;
            let now = target.connection().events;
            let settled = now.len() == events.len();
            events = now;
            if settled {
                break;
            }
        }
        let mut out: Out = Vec::new();
        let mut run: Vec<&TransportEvent> = Vec::new();
        for event in &events {
            if matches!(
                event,
                TransportEvent::NotJson { .. } | TransportEvent::NotJsonRpc { .. }
            ) {
                run.push(event);
                continue;
            }
            out.extend(self.stdout_lines(&run));
            run.clear();
            out.push(match event {
                TransportEvent::ServerRequest { .. } if self.modern() => {
                    Note::broke(&clauses::STDIO_NO_REQUESTS, event.to_string())
                }
                TransportEvent::UnmatchedReply { .. } => {
                    Note::broke_in(self.era, &clauses::RESULT_ID, event.to_string())
                }
                TransportEvent::StreamLeftOpen { .. } => Note::broke(
                    if self.modern() {
                        &clauses::HTTP_RESPONSE_ENDS_STREAM
                    } else {
                        &clauses::LEGACY_HTTP_RESPONSE_ENDS_STREAM
                    },
                    event.to_string(),
                ),
                TransportEvent::NotUtf8 { .. } => Note::broke(
                    if self.modern() {
                        &clauses::UTF8
                    } else {
                        &clauses::LEGACY_UTF8
                    },
                    event.to_string(),
                ),
                // No clause caps a message (too long, too deep: the client's limit, named),
                // nor says a request gets one response only (JSON-RPC 2.0 asks a Response
                // for each call, and a second is not a missing one), nor bounds how fast a
                // server may send requests: for the record.
                _ => Note::info(event.to_string()),
            });
        }
        out.extend(self.stdout_lines(&run));
        let mut out = at_most_of_a_kind(out, 10);
        if let Some(dead) = &self.dead {
            out.push(Note::broke_in(
                self.era,
                &clauses::JSONRPC_RESPONSE,
                format!("the server stopped answering: {dead}"),
            ));
        }
        self.push_probe("transport/hygiene", out);
    }

    /// Consecutive stdout lines that are not messages: one finding for a run that joins into
    /// whole JSON-RPC messages (written over several lines), else one per line.
    fn stdout_lines(&self, run: &[&TransportEvent]) -> Out {
        let lines: Vec<&str> = run
            .iter()
            .filter_map(|e| match e {
                TransportEvent::NotJson { line, .. } | TransportEvent::NotJsonRpc { line } => {
                    Some(line.as_str())
                }
                _ => None,
            })
            .collect();
        if let Some(messages) = super::stdio_framing::split_messages(&lines) {
            let clause = if self.modern() {
                &clauses::STDIO_NO_EMBEDDED_NEWLINES
            } else {
                &clauses::LEGACY_STDIO_NO_EMBEDDED_NEWLINES
            };
            return vec![Note::broke(
                clause,
                format!(
                    "{} message(s) written over {} lines of stdout: {}",
                    messages,
                    lines.len(),
                    mcp_test::cases::shorten(&lines.join("\\n"), 200)
                ),
            )];
        }
        let clause = if self.modern() {
            &clauses::STDIO_STDOUT
        } else {
            &clauses::LEGACY_STDIO_STDOUT
        };
        run.iter()
            .map(|e| Note::broke(clause, e.to_string()))
            .collect()
    }
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

fn output_findings(era: Era, tool: &str, schema: &Value, result: &Value) -> Out {
    let mut out = Vec::new();
    let Ok(validator) = SchemaValidator::new(schema) else {
        return out;
    };
    match result.get("structuredContent") {
        None => out.push(Note::broke_in(
            era,
            &clauses::OUTPUT_SCHEMA,
            format!(
                "tool {tool:?} has an outputSchema but a successful result has no structuredContent"
            ),
        )),
        Some(content) => {
            let violations = validator.violations(content);
            if !violations.is_empty() {
                out.push(Note::broke_in(
                    era,
                    &clauses::OUTPUT_SCHEMA,
                    format!(
                        "tool {tool:?}: structuredContent does not match the outputSchema:\n{}",
                        mcp_test::validation::describe(&violations)
                    ),
                ));
            }
        }
    }
    out
}

/// What running one case gave: what happened, the response, whether the server still answered
/// afterwards, and how long the call took.
type Ran = (Happened, Option<Value>, bool, Duration);

/// One note per tool with cases cancelled for their time ([`Happened::Slow`]): how many, and
/// how to wait for them.
fn slow_notes(outcomes: &[Outcome]) -> Vec<Note> {
    let mut by_tool: BTreeMap<&str, (usize, usize, u64)> = BTreeMap::new();
    for outcome in outcomes {
        if let Happened::Slow { limit_ms, sent } = outcome.happened {
            let entry = by_tool.entry(outcome.case.tool.as_str()).or_default();
            if sent {
                entry.0 += 1;
            } else {
                entry.1 += 1;
            }
            entry.2 = limit_ms;
        }
    }
    by_tool
        .into_iter()
        .map(|(tool, (cancelled, unsent, limit_ms))| {
            Note::info(format!(
                "tool {tool:?}: {cancelled} case(s) still running after {limit_ms} ms were cancelled and {unsent} more not sent, so their predictions were not checked (`--case-time SECS` waits longer)"
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::example_server;
    use crate::{CheckOptions, Severity, check};
    use mcp_test::target::{Target, TargetFuture};
    use mcp_test::{Caller, Server};
    use serde_json::Value;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// The example server, wedged for good right after it answers the first call that sends
    /// an unknown property.
    struct WedgedAfterUnknownProperty {
        server: Server,
        wedged: AtomicBool,
    }

    impl Target for WedgedAfterUnknownProperty {
        fn label(&self) -> String {
            "wedged".to_owned()
        }
        fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
            Box::pin(async move {
                if self.wedged.load(Ordering::SeqCst) {
                    std::future::pending::<()>().await;
                }
                let killer = message["method"] == "tools/call"
                    && message
                        .pointer("/params/arguments/unexpected_property")
                        .is_some();
                let answer = self.server.send(message, caller).await;
                if killer {
                    self.wedged.store(true, Ordering::SeqCst);
                }
                answer
            })
        }
    }

    #[tokio::test]
    async fn the_liveness_check_after_each_case_names_the_case_that_wedged_the_server() {
        let target = WedgedAfterUnknownProperty {
            server: example_server(),
            wedged: AtomicBool::new(false),
        };
        let options = CheckOptions {
            timeout: Duration::from_millis(300),
            ..CheckOptions::default()
        };
        let report = check(&target, &options).await;
        let finding = report
            .findings()
            .find(|f| f.message.contains("stopped answering right after the case"))
            .unwrap_or_else(|| panic!("no liveness finding:\n{}", report.to_text()));
        assert_eq!(finding.probe, "tools/schema-cases");
        assert_eq!(finding.severity, Severity::Defect);
        assert!(
            finding.message.contains("unknown property"),
            "{}",
            finding.message
        );
        assert_eq!(
            finding.clause.map(|c| c.id),
            Some("jsonrpc/response-required")
        );
        // The cases after it were not sent to a server that no longer answers.
        assert!(
            report
                .findings()
                .any(|f| f.message.contains("cases skipped after")),
            "{}",
            report.to_text()
        );
    }

    /// The example server, counting the calls in flight at once; each call waits until a
    /// second one arrives or 50 ms pass, so concurrent calls overlap.
    struct Counting {
        server: Server,
        now: std::sync::atomic::AtomicUsize,
        most: std::sync::atomic::AtomicUsize,
    }

    impl Target for Counting {
        fn label(&self) -> String {
            "counting".to_owned()
        }
        fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
            Box::pin(async move {
                let call = message["method"] == "tools/call";
                if call {
                    let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
                    self.most.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                let answer = self.server.send(message, caller).await;
                if call {
                    self.now.fetch_sub(1, Ordering::SeqCst);
                }
                answer
            })
        }
    }

    #[tokio::test(start_paused = true)]
    async fn cases_run_jobs_at_a_time_and_one_after_the_other_with_one_job() {
        for (jobs, want) in [(1, 1), (3, 3)] {
            let target = Counting {
                server: example_server(),
                now: Default::default(),
                most: Default::default(),
            };
            let options = CheckOptions {
                jobs,
                ..CheckOptions::default()
            };
            let report = check(&target, &options).await;
            assert_eq!(report.count(Severity::Defect), 0, "{}", report.to_text());
            assert!(report.cases.outcomes.len() > jobs, "{}", report.to_text());
            assert_eq!(target.most.load(Ordering::SeqCst), want, "jobs = {jobs}");
        }
    }
}

#[cfg(test)]
mod extension_tests {
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

/// `notes` with at most `keep` of each kind (clause and severity): a flood of one misdeed
/// (100,000 lines on stdout, requests from the server) is the first few, then one note
/// counting the rest, with the same clause.
fn at_most_of_a_kind(notes: Out, keep: usize) -> Out {
    /// A kind of note (its clause and severity), how many there were, and the clause.
    type Kind = (
        (Option<&'static str>, crate::Severity),
        usize,
        Option<Clause>,
    );
    let kind = |n: &Note| (n.clause.map(|c| c.id), n.severity);
    let mut counts: Vec<Kind> = Vec::new();
    let mut out = Vec::new();
    for note in notes {
        let k = kind(&note);
        let seen = match counts.iter_mut().find(|(c, _, _)| *c == k) {
            Some((_, n, _)) => {
                *n += 1;
                *n
            }
            None => {
                counts.push((k, 1, note.clause));
                1
            }
        };
        if seen <= keep {
            out.push(note);
        }
    }
    for ((_, severity), n, clause) in counts {
        if n > keep {
            let message = format!(
                "{} more findings like the {keep} above, not listed one by one",
                n - keep
            );
            out.push(match clause {
                Some(clause) => Note {
                    severity,
                    clause: Some(clause),
                    message,
                    request: None,
                },
                None => Note::info(message),
            });
        }
    }
    out
}
