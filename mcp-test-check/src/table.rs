//! The probes of `check`, as one table ([`PROBES`]) and the one loop that runs it ([`run`]).
//!
//! A row is one probe, or a few that share one exchange with the server (the tasks lifecycle,
//! the raw HTTP requests): the ids it reports, what it needs ([`Needs`]: a server capability,
//! an extension, an era, a transport, the schema cases, a time budget left), the line of
//! progress it prints, and the function that runs it. The loop runs the rows in order; a row
//! whose needs are not met is not run, and each of its probes is reported as skipped with the
//! reason the unmet need gives, so a skip reason is never written by hand. Which clauses of the
//! requirements matrix a probe checks is the matrix's to say (its `probes(..)` column); a finding's
//! severity is its clause's level ([`Note::broke`](crate::Note::broke)).
//!
//! Adding a probe: its run function in a file of its own (or beside the probes of its area),
//! one row here, and its id in the `probes(..)` column of the clauses it checks
//! (`mcp_test::spec::clauses`). The tests below hold the table and the matrix to each other.

use crate::checker::{Checker, Note};
use crate::probes::{
    authorization, extension_fallback, header_case, http_probes, initialize_result,
    input_responses, legacy_streams, no_response_to_notification, param_headers, properties,
    result_server_info, stateless, stream_related, tasks, tasks_listen_undeclared,
};
use crate::{AUTHORIZATION_PROBE, CheckOptions, SkippedTool, deadline};
use futures_util::future::LocalBoxFuture as BoxFuture;
use mcp_test::__check::Deadline;
use mcp_test::cases::{Case, Era, VerifyReport, derive_split};
use mcp_test::spec::clauses::{self, Transport};
use mcp_test::target::Connection;
use mcp_test::validation::SchemaValidator;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a row needs before it may run. Every field left at its default needs nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// A server capability the server offers: declared, or (when its declaration is not known)
    /// not answered -32601 (`Checker::offered`).
    pub offered: Option<&'static str>,
    /// A server capability the server declared (not guessed from an answer).
    pub declared: Option<&'static str>,
    /// A 2026-07-28 extension the server declares in `capabilities.extensions`; only a
    /// 2026-07-28 server declares one.
    pub extension: Option<&'static str>,
    /// The protocol era the probe is about.
    pub era: Option<Era>,
    /// The transport the probe talks over, beside the session.
    pub transport: Option<Transport>,
    /// Time left before the overall deadline, for a row that sends outside the session (whose
    /// requests the deadline cannot refuse one by one).
    pub time_left: bool,
    /// The property tests were asked for (`--properties N`).
    pub properties: bool,
    /// A tool `check` calls with a base case (`rule:base`), for a probe that calls one again.
    pub base_call: bool,
    /// A tool `check` calls whose base case carries an argument its input schema marks with
    /// `x-mcp-header`, for the probe of `Mcp-Param-*` headers.
    pub header_param: bool,
    /// A tool whose base case asked for input or answered -32021.
    pub asking_tool: bool,
}

/// A row's run function: it reads and fills the [`Run`] and records its probes on the checker.
type Runner = for<'r, 'a> fn(&'r mut Run<'a>) -> BoxFuture<'r, ()>;

/// One row of the table.
pub(crate) struct Row {
    /// The probes it reports, as the report names them.
    pub ids: &'static [&'static str],
    /// What it needs.
    pub needs: Needs,
    /// The line of progress printed before it runs.
    pub progress: &'static str,
    /// Runs it.
    pub run: Runner,
}

/// What the rows share: the checker (session, responses so far, probes recorded) and what
/// earlier rows learnt.
pub(crate) struct Run<'a> {
    pub c: Checker<'a>,
    pub options: &'a CheckOptions,
    /// Told a line before each row that runs, and by the rows that take long.
    progress: &'a mut (dyn FnMut(&str) + Send),
    /// The connection as the target described it when the check began.
    pub connection: Connection,
    pub era: Era,
    pub deadline: Option<Arc<Deadline>>,
    /// The capabilities the server declared: a 2026-07-28 server's from `server/discover`, a
    /// 2025-era server's from its `InitializeResult` (kept by the target). `None`: not known.
    pub declared: Option<Value>,
    /// Whether each capability is offered, once asked (`Needs::offered`).
    offered: BTreeMap<&'static str, bool>,
    /// The tools listed, by name.
    pub listed: Vec<String>,
    /// The tools `check` may call, and those it calls only as tasks.
    pub tools: Vec<Value>,
    pub task_only: Vec<Value>,
    /// The schema cases of `tools`, and what happened to each.
    pub cases: Vec<Case>,
    pub report: VerifyReport,
    /// The tools not called, and why.
    pub skipped_tools: Vec<SkippedTool>,
    /// The tools the property tests may call: those the schema cases call.
    pub property_tools: Vec<Value>,
    /// The resource templates and prompts listed.
    pub templates: Vec<Value>,
    pub prompts: Vec<Value>,
}

impl<'a> Run<'a> {
    pub(crate) fn new(
        c: Checker<'a>,
        options: &'a CheckOptions,
        connection: Connection,
        progress: &'a mut (dyn FnMut(&str) + Send),
    ) -> Self {
        let era = c.era;
        Run {
            c,
            options,
            progress,
            connection,
            era,
            deadline: None,
            declared: None,
            offered: BTreeMap::new(),
            listed: Vec::new(),
            tools: Vec::new(),
            task_only: Vec::new(),
            cases: Vec::new(),
            report: VerifyReport::default(),
            skipped_tools: Vec::new(),
            property_tools: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
        }
    }

    /// Whether the server declared `capability`: `None` when its capabilities are not known.
    fn has(&self, capability: &str) -> Option<bool> {
        self.declared
            .as_ref()
            .map(|d| d.get(capability).is_some_and(|v| !v.is_null()))
    }

    /// Why `needs` is not met, or `None` when it is. The reasons are the report's skip
    /// reasons; asking whether an undeclared capability is offered sends one request, once.
    async fn unmet(&mut self, needs: &Needs) -> Option<String> {
        if let Some(capability) = needs.offered {
            let offered = match self.offered.get(capability) {
                Some(&offered) => offered,
                None => {
                    let declared = self.has(capability);
                    let offered = self.c.offered(capability, declared).await;
                    self.offered.insert(capability, offered);
                    offered
                }
            };
            if !offered {
                return Some(format!("the server offers no {capability}"));
            }
        }
        if let Some(capability) = needs.declared {
            match self.has(capability) {
                Some(true) => {}
                None => return Some("the server's capabilities are not known".to_owned()),
                Some(false) => {
                    // Undeclared, its method must be -32601 (`capabilities/{capability}`).
                    if !self.offered.contains_key(capability) {
                        let offered = self.c.offered(capability, Some(false)).await;
                        self.offered.insert(capability, offered);
                    }
                    return Some(format!(
                        "the server did not declare the `{capability}` capability"
                    ));
                }
            }
        }
        if let Some(extension) = needs.extension
            && !(self.era == Era::Current && declares_extension(self.declared.as_ref(), extension))
        {
            return Some(format!(
                "the server does not declare the {extension} extension"
            ));
        }
        if let Some(era) = needs.era
            && era != self.era
        {
            return Some(format!(
                "the server speaks {}, and this probe is about {era}",
                self.era
            ));
        }
        // Over HTTP a probe sends beside the session, so it needs the endpoint itself.
        match needs.transport {
            Some(Transport::Http) if self.connection.http.is_none() => {
                return Some("not reached over Streamable HTTP".to_owned());
            }
            Some(Transport::Stdio) if self.connection.transport != Some(Transport::Stdio) => {
                return Some("not reached over stdio".to_owned());
            }
            _ => {}
        }
        if needs.time_left && !deadline::allows(self.deadline.as_deref(), "the raw HTTP probes") {
            return Some(mcp_test::target::DEADLINE_PASSED.to_owned());
        }
        if needs.properties && self.options.properties.is_none() {
            return Some("property tests were not asked for (--properties N)".to_owned());
        }
        if needs.base_call && crate::probes::http_exchange::base_calls(self).is_empty() {
            return Some("no tool that check calls has a base case".to_owned());
        }
        if needs.asking_tool && input_responses::asking_calls(self).is_empty() {
            return Some("no tool asked for input or answered -32021".to_owned());
        }
        if needs.header_param && param_headers::mirrored_call(self).is_none() {
            return Some(
                "no tool that check calls has an x-mcp-header argument in its base case".to_owned(),
            );
        }
        None
    }
}

/// Whether `declared` (a server's capabilities) declares `extension`.
fn declares_extension(declared: Option<&Value>, extension: &str) -> bool {
    declared
        .and_then(|d| d.get("extensions"))
        .and_then(Value::as_object)
        .is_some_and(|e| e.contains_key(extension))
}

/// Runs every row of [`PROBES`] in order, telling the run's progress before each that runs.
pub(crate) async fn run(run: &mut Run<'_>) {
    for row in PROBES {
        if let Some(why) = run.unmet(&row.needs).await {
            for id in row.ids {
                run.c.skip_probe(id, why.clone());
            }
            continue;
        }
        (run.progress)(row.progress);
        (row.run)(run).await;
    }
}

/// The clauses of the requirements matrix that name `probe` as a check of theirs.
#[cfg(test)]
fn clauses_of(probe: &str) -> impl Iterator<Item = &'static clauses::Clause> + '_ {
    clauses::ALL
        .iter()
        .copied()
        .filter(move |c| c.probes().contains(&probe))
}

const NOTHING: Needs = Needs {
    offered: None,
    declared: None,
    extension: None,
    era: None,
    transport: None,
    time_left: false,
    properties: false,
    base_call: false,
    header_param: false,
    asking_tool: false,
};

const TOOLS: Needs = Needs {
    offered: Some("tools"),
    ..NOTHING
};

/// The probes of `check`, in the order they run. See the [module docs](self).
pub(crate) const PROBES: &[Row] = &[
    Row {
        ids: &["discovery/fields"],
        needs: NOTHING,
        progress: "discovery: server/discover",
        run: discovery,
    },
    Row {
        ids: &[initialize_result::ID],
        needs: Needs {
            era: Some(Era::Legacy),
            ..NOTHING
        },
        progress: "lifecycle: the InitializeResult of the handshake",
        run: initialize_result::run,
    },
    Row {
        ids: &["methods/removed-and-unknown", "methods/unsupported-version"],
        needs: NOTHING,
        progress: "methods: removed and unknown methods, unsupported versions",
        run: methods,
    },
    Row {
        ids: &[no_response_to_notification::ID],
        needs: NOTHING,
        progress: "base: a notification, and no response to it",
        run: no_response_to_notification::run,
    },
    Row {
        ids: &["lists/tools/list"],
        needs: TOOLS,
        progress: "lists: tools/list pagination, order, bad cursor",
        run: tool_list,
    },
    Row {
        ids: &[
            "tools/definitions-and-unknown-tool",
            "tools/names-and-headers",
        ],
        needs: TOOLS,
        progress: "tools: definitions and unknown tools",
        run: tool_definitions,
    },
    Row {
        ids: &["tools/input-schemas"],
        needs: TOOLS,
        progress: "tools: input schemas, and the cases they give",
        run: input_schemas,
    },
    Row {
        ids: &["tools/malformed-calls"],
        needs: TOOLS,
        progress: "tools: malformed tools/call requests",
        run: malformed_calls,
    },
    Row {
        ids: &["tools/name-case"],
        needs: TOOLS,
        progress: "tools: names in another case",
        run: name_case,
    },
    Row {
        ids: &["tools/schema-cases", "tools/output-schema"],
        needs: TOOLS,
        progress: "cases: the schema-derived cases",
        run: schema_cases,
    },
    Row {
        ids: &["tools/embedded-resources"],
        needs: TOOLS,
        progress: "tools: embedded resources in results",
        run: embedded_resources,
    },
    Row {
        ids: &["multi-round/discipline"],
        needs: TOOLS,
        progress: "multi-round: input_required results, -32021 without capabilities",
        run: multi_round_discipline,
    },
    Row {
        ids: &["multi-round/driven"],
        needs: TOOLS,
        progress: "multi-round: tools that ask, driven with every client capability",
        run: multi_round_driven,
    },
    Row {
        ids: &[input_responses::ID],
        needs: Needs {
            era: Some(Era::Current),
            asking_tool: true,
            ..TOOLS
        },
        progress: "multi-round: a retry whose inputResponses is not an object",
        run: input_responses::run,
    },
    Row {
        ids: &[
            "notifications/logging",
            "notifications/progress",
            "notifications/server-initiated",
        ],
        needs: TOOLS,
        progress: "notifications: log messages, progress, server requests",
        run: notifications,
    },
    Row {
        ids: &tasks::PROBES,
        needs: Needs {
            extension: Some(mcp_test::tasks::EXTENSION),
            ..TOOLS
        },
        progress: "tasks: the io.modelcontextprotocol/tasks lifecycle",
        run: tasks_lifecycle,
    },
    Row {
        ids: &[extension_fallback::ID],
        needs: Needs {
            extension: Some(mcp_test::tasks::EXTENSION),
            ..NOTHING
        },
        progress: "versioning: an extension's method from a client without it",
        run: extension_fallback::run,
    },
    Row {
        ids: &[tasks_listen_undeclared::ID],
        needs: Needs {
            extension: Some(mcp_test::tasks::EXTENSION),
            ..NOTHING
        },
        progress: "tasks: subscriptions/listen for task ids, without the extension",
        run: tasks_listen_undeclared::run,
    },
    Row {
        ids: &[
            "lists/resources/list",
            "lists/resources/templates/list",
            "resources/contents",
            "resources/not-found",
        ],
        needs: Needs {
            offered: Some("resources"),
            ..NOTHING
        },
        progress: "resources: list, templates, read, resource-not-found",
        run: resources,
    },
    Row {
        ids: &["lists/prompts/list", "prompts/arguments", "prompts/get"],
        needs: Needs {
            offered: Some("prompts"),
            ..NOTHING
        },
        progress: "prompts: list, unknown prompt, missing arguments, contents",
        run: prompts,
    },
    Row {
        ids: &["completion/complete"],
        needs: Needs {
            declared: Some("completions"),
            ..NOTHING
        },
        progress: "completion: unknown prompt, listed arguments",
        run: completion,
    },
    Row {
        ids: &http_probes::PROBES,
        needs: Needs {
            transport: Some(Transport::Http),
            time_left: true,
            ..NOTHING
        },
        progress: "HTTP: mirrored headers, Origin, content types, status codes, GET and DELETE",
        run: raw_http,
    },
    Row {
        ids: &[header_case::ID],
        needs: Needs {
            transport: Some(Transport::Http),
            era: Some(Era::Current),
            time_left: true,
            ..NOTHING
        },
        progress: "HTTP: header names in another case",
        run: header_case::run,
    },
    Row {
        ids: &[param_headers::ID],
        needs: Needs {
            transport: Some(Transport::Http),
            era: Some(Era::Current),
            time_left: true,
            header_param: true,
            ..TOOLS
        },
        progress: "HTTP: Mcp-Param headers that disagree with the arguments",
        run: param_headers::run,
    },
    Row {
        ids: &[stream_related::ID],
        needs: Needs {
            transport: Some(Transport::Http),
            era: Some(Era::Current),
            time_left: true,
            base_call: true,
            ..TOOLS
        },
        progress: "HTTP: the notifications on a tool call's SSE stream",
        run: stream_related::run,
    },
    Row {
        ids: &[legacy_streams::ID],
        needs: Needs {
            transport: Some(Transport::Http),
            era: Some(Era::Legacy),
            time_left: true,
            ..NOTHING
        },
        progress: "HTTP: the SSE streams of a 2025-era session: GET, event IDs, resuming",
        run: legacy_streams::run,
    },
    Row {
        ids: &[AUTHORIZATION_PROBE],
        needs: Needs {
            transport: Some(Transport::Http),
            time_left: true,
            ..NOTHING
        },
        progress: "HTTP: protected-resource metadata",
        run: protected_resource,
    },
    Row {
        ids: &[stateless::ID],
        needs: Needs {
            era: Some(Era::Current),
            transport: Some(Transport::Http),
            time_left: true,
            ..TOOLS
        },
        progress: "base: tools/list first on a new connection, and in the session",
        run: stateless::run,
    },
    Row {
        ids: &[properties::PROBE],
        needs: Needs {
            properties: true,
            ..NOTHING
        },
        progress: "properties: property tests of the tools the cases call",
        run: property_tests,
    },
    Row {
        ids: &["subscriptions/listen", "cache-hints/pages"],
        needs: NOTHING,
        progress: "subscriptions and cache hints: subscriptions/listen, cacheScope of pages",
        run: subscriptions,
    },
    Row {
        ids: &["methods/initialize-on-a-modern-server"],
        needs: NOTHING,
        progress: "methods: initialize, sent last, as a 2025-era client sends it",
        run: initialize_last,
    },
    Row {
        ids: &[result_server_info::ID],
        needs: Needs {
            era: Some(Era::Current),
            ..NOTHING
        },
        progress: "base: serverInfo in the _meta of every result",
        run: result_server_info::run,
    },
    Row {
        ids: &["results/shape-and-cache-hints", "errors/codes-and-ids"],
        needs: NOTHING,
        progress: "results and errors: every response received",
        run: results_and_errors,
    },
    Row {
        ids: &["transport/hygiene"],
        needs: NOTHING,
        progress: "transport: what the server did on its transport",
        run: transport,
    },
];

fn discovery<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let discover = r.c.discovery().await;
        r.declared = match r.era {
            Era::Current => discover
                .as_ref()
                .and_then(|d| d.get("capabilities"))
                .cloned()
                .or_else(|| r.connection.capabilities.clone()),
            Era::Legacy => r.connection.capabilities.clone(),
        };
    })
}

fn methods<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.methods())
}

fn tool_list<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        r.tools = r.c.tool_lists().await;
        r.listed = r
            .tools
            .iter()
            .filter_map(|t| Some(t.get("name")?.as_str()?.to_owned()))
            .collect();
    })
}

fn tool_definitions<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        r.c.tool_definitions(&r.tools).await;
        // From here on `tools` are the tools `check` may call.
        let tasks_declared = r.era == Era::Current
            && declares_extension(r.declared.as_ref(), mcp_test::tasks::EXTENSION);
        let listed = std::mem::take(&mut r.tools);
        let (tools, task_only, skipped) = crate::callable_tools(listed, r.options, tasks_declared);
        r.tools = tools;
        r.task_only = task_only;
        r.skipped_tools = skipped;
    })
}

fn input_schemas<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let (cases, problems, bad_values) = derive_split(&r.tools, &r.options.cases);
        r.cases = cases;
        // A value the user gave that does not fit is the user's mistake, not the server's:
        // that tool is not called.
        r.skipped_tools
            .extend(bad_values.into_iter().map(|e| SkippedTool {
                reason: match &e.action {
                    Some(action) => format!(
                        "action {action:?}: the value given for `{}` {}",
                        e.pointer, e.message
                    ),
                    None => format!("the value given for `{}` {}", e.pointer, e.message),
                },
                name: e.tool,
            }));
        let skipped = &r.skipped_tools;
        r.property_tools = r
            .tools
            .iter()
            .filter(|t| {
                let name = t.get("name").and_then(Value::as_str);
                !skipped.iter().any(|s| Some(s.name.as_str()) == name)
            })
            .cloned()
            .collect();
        let era = r.era;
        let tools = &r.tools;
        r.c.probe("tools/input-schemas", |out| {
            for p in problems {
                // A schema that does not compile breaks the spec; one this crate found no
                // valid arguments for may be fine: noted.
                let schema = tools
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(p.tool.as_str()))
                    .and_then(|t| t.get("inputSchema"));
                let invalid = schema.is_some_and(|s| SchemaValidator::new(s).is_err());
                out.push(if invalid {
                    Note::broke_in(
                        era,
                        &clauses::TOOL_INPUT_SCHEMA,
                        format!("the input schema is not a valid JSON Schema: {p}"),
                    )
                } else {
                    Note::info(format!("no cases derived: {p}"))
                });
            }
        });
    })
}

fn malformed_calls<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.malformed_calls(&r.tools))
}

fn name_case<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.name_case(&r.listed, &r.cases))
}

fn schema_cases<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        (r.progress)(&format!("cases: {} schema-derived cases", r.cases.len()));
        r.report = r.c.run_cases(&r.tools, &r.cases, &mut *r.progress).await;
    })
}

fn embedded_resources<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let declared = r.has("resources");
        r.c.embedded_resources(&r.report.outcomes, declared);
    })
}

fn multi_round_discipline<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.multi_round_discipline(&r.report))
}

fn multi_round_driven<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.multi_round_driven(&r.report))
}

fn notifications<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.notifications(&r.report, r.declared.as_ref()))
}

fn tasks_lifecycle<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let (task_cases, _, _) = derive_split(&r.task_only, &r.options.cases);
        let base: Vec<Case> = r
            .cases
            .iter()
            .chain(&task_cases)
            .filter(|c| c.source == "rule:base")
            .cloned()
            .collect();
        r.c.tasks(&r.task_only, &base).await;
    })
}

fn resources<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        r.templates = r.c.resources().await;
    })
}

fn prompts<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let complete = r.has("completions") == Some(true);
        r.prompts = r.c.prompts(complete).await;
    })
}

fn completion<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.completion(&r.prompts, &r.templates))
}

/// The HTTP endpoint of the connection; a row that needs `Transport::Http` has one.
fn endpoint(r: &Run<'_>) -> (String, mcp_test::client::HttpOptions) {
    let http = r.connection.http.as_ref();
    (
        http.map(|h| h.url.clone()).unwrap_or_default(),
        http.map(|h| h.options.clone()).unwrap_or_default(),
    )
}

fn raw_http<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, http) = endpoint(r);
        for (probe, found) in http_probes::run(&url, &http, r.era, r.options.timeout).await {
            match found {
                Ok(out) => r.c.push_probe(probe, out),
                Err(why) => r.c.skip_probe(probe, why),
            }
        }
    })
}

fn protected_resource<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let (url, http) = endpoint(r);
        let timeout = r.options.timeout;
        let (found, mut out, _) =
            authorization::protected_resource(&url, &http, None, timeout).await;
        out.extend(authorization::invalid_token(&url, &http, found, timeout).await);
        r.c.push_probe(AUTHORIZATION_PROBE, out);
    })
}

fn property_tests<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        let cases = r.options.properties.unwrap_or_default();
        properties::run(&mut r.c, &r.property_tools, cases, r.options).await;
    })
}

fn subscriptions<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        r.c.subscriptions(r.declared.as_ref()).await;
        r.c.cache_pages(r.declared.as_ref()).await;
    })
}

fn initialize_last<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(r.c.initialize_last())
}

fn results_and_errors<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        r.c.results_and_errors(r.connection.protocol_version.clone());
    })
}

fn transport<'r>(r: &'r mut Run<'_>) -> BoxFuture<'r, ()> {
    Box::pin(async move {
        r.c.transport().await;
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_probe_id_is_reported_by_one_row_only() {
        let mut seen = HashSet::new();
        for row in PROBES {
            for id in row.ids {
                assert!(seen.insert(*id), "{id} is in two rows of the table");
            }
        }
    }

    /// The matrix names probes by id; a name no row reports is a typo or a probe that went
    /// away, and the matrix would then claim a check nobody runs.
    #[test]
    fn every_probe_the_matrix_names_is_a_row_of_the_table() {
        let ids: HashSet<&str> = PROBES.iter().flat_map(|r| r.ids.iter().copied()).collect();
        // Probes recorded outside the table: the capability answers the loop itself asks
        // for (`Run::unmet`), and closing a connected server (`check_connected`).
        let outside = [
            "capabilities/tools",
            "capabilities/resources",
            "capabilities/prompts",
            "capabilities/completions",
            crate::SHUTDOWN_PROBE,
        ];
        for clause in clauses::ALL {
            for probe in clause.probes() {
                assert!(
                    ids.contains(probe) || outside.contains(probe),
                    "clause {} names probe {probe}, which no row of the table reports",
                    clause.id
                );
            }
        }
    }

    /// A row that checks no clause of the matrix could only ever report notes: it is listed
    /// here with why, or it is missing from the matrix.
    #[test]
    fn every_row_checks_a_clause_of_the_matrix() {
        for row in PROBES {
            for id in row.ids {
                assert!(
                    clauses_of(id).next().is_some(),
                    "probe {id} checks no clause of the requirements matrix"
                );
            }
        }
    }
}
