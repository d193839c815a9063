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
//! Adding a probe: a file of its own under `probes/` with its id(s) and its run function, one
//! row here naming them, and its id in the `probes(..)` column of the clauses it checks
//! (`mcp_test::spec::clauses`). The tests below hold the table and the matrix to each other.

use crate::deadline;
use crate::probes::{
    self, discovery, extension_fallback, header_case, initialize_result, input_responses,
    legacy_streams, no_response_to_notification, param_headers, result_server_info, stateless,
    stream_related, tasks_listen_undeclared,
};
use crate::run::{Run, declares_extension};
use futures_util::future::LocalBoxFuture as BoxFuture;
use mcp_test::cases::Era;
#[cfg(test)]
use mcp_test::spec::clauses;
use mcp_test::spec::clauses::Transport;

/// What a row needs before it may run. Every field left at its default needs nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// A server capability the server offers: declared, or (when its declaration is not known)
    /// not answered -32601 (`probes::discovery::offered`).
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

/// Whether the server offers `capability` ([`discovery::offered`]), asked at most once a
/// check: the answer is kept in [`Run::offered`] for every later row that needs it.
async fn offered(run: &mut Run<'_>, capability: &'static str, declared: Option<bool>) -> bool {
    if let Some(&offered) = run.offered.get(capability) {
        return offered;
    }
    let offered = discovery::offered(&mut run.c, capability, declared).await;
    run.offered.insert(capability, offered);
    offered
}

/// Why `needs` is not met, or `None` when it is. The reasons are the report's skip
/// reasons; asking whether an undeclared capability is offered sends one request, once.
async fn unmet(run: &mut Run<'_>, needs: &Needs) -> Option<String> {
    if let Some(capability) = needs.offered {
        let declared = run.has(capability);
        if !offered(run, capability, declared).await {
            return Some(format!("the server offers no {capability}"));
        }
    }
    if let Some(capability) = needs.declared {
        match run.has(capability) {
            Some(true) => {}
            None => return Some("the server's capabilities are not known".to_owned()),
            Some(false) => {
                // Undeclared, its method must be -32601 (`capabilities/{capability}`).
                offered(run, capability, Some(false)).await;
                return Some(format!(
                    "the server did not declare the `{capability}` capability"
                ));
            }
        }
    }
    if let Some(extension) = needs.extension
        && !(run.c.era == Era::Current && declares_extension(run.declared.as_ref(), extension))
    {
        return Some(format!(
            "the server does not declare the {extension} extension"
        ));
    }
    if let Some(era) = needs.era
        && era != run.c.era
    {
        return Some(format!(
            "the server speaks {}, and this probe is about {era}",
            run.c.era
        ));
    }
    // Over HTTP a probe sends beside the session, so it needs the endpoint itself.
    match needs.transport {
        Some(Transport::Http) if run.connection.http.is_none() => {
            return Some("not reached over Streamable HTTP".to_owned());
        }
        Some(Transport::Stdio) if run.connection.transport != Some(Transport::Stdio) => {
            return Some("not reached over stdio".to_owned());
        }
        _ => {}
    }
    if needs.time_left && !deadline::allows(run.deadline.as_deref(), "the raw HTTP probes") {
        return Some(mcp_test::target::DEADLINE_PASSED.to_owned());
    }
    if needs.properties && run.options.properties.is_none() {
        return Some("property tests were not asked for (--properties N)".to_owned());
    }
    if needs.base_call && probes::http_exchange::base_calls(run).is_empty() {
        return Some("no tool that check calls has a base case".to_owned());
    }
    if needs.asking_tool && input_responses::asking_calls(run).is_empty() {
        return Some("no tool asked for input or answered -32021".to_owned());
    }
    if needs.header_param && param_headers::mirrored_call(run).is_none() {
        return Some(
            "no tool that check calls has an x-mcp-header argument in its base case".to_owned(),
        );
    }
    None
}

/// Runs every row of [`PROBES`] in order, telling the run's progress before each that runs.
pub(crate) async fn run(run: &mut Run<'_>) {
    for row in PROBES {
        if let Some(why) = unmet(run, &row.needs).await {
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
        ids: &[probes::discovery::ID],
        needs: NOTHING,
        progress: "discovery: server/discover",
        run: probes::discovery::run,
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
        ids: &[probes::version_negotiation::ID],
        needs: Needs {
            era: Some(Era::Legacy),
            ..NOTHING
        },
        progress: "lifecycle: version negotiation in initialize",
        run: probes::version_negotiation::run,
    },
    Row {
        ids: &[
            probes::methods::REMOVED_AND_UNKNOWN,
            probes::methods::UNSUPPORTED_VERSION,
        ],
        needs: NOTHING,
        progress: "methods: removed and unknown methods, unsupported versions",
        run: probes::methods::run,
    },
    Row {
        ids: &[no_response_to_notification::ID],
        needs: NOTHING,
        progress: "base: a notification, and no response to it",
        run: no_response_to_notification::run,
    },
    Row {
        ids: &[probes::lists::ID],
        needs: TOOLS,
        progress: "lists: tools/list pagination, order, bad cursor",
        run: probes::lists::run,
    },
    Row {
        ids: &[
            probes::tool_definitions::DEFINITIONS,
            probes::tool_definitions::NAMES_AND_HEADERS,
        ],
        needs: TOOLS,
        progress: "tools: definitions and unknown tools",
        run: probes::tool_definitions::run,
    },
    Row {
        ids: &[probes::input_schemas::ID],
        needs: TOOLS,
        progress: "tools: input schemas, and the cases they give",
        run: probes::input_schemas::run,
    },
    Row {
        ids: &[probes::malformed_calls::ID],
        needs: TOOLS,
        progress: "tools: malformed tools/call requests",
        run: probes::malformed_calls::run,
    },
    Row {
        ids: &[probes::name_case::ID],
        needs: TOOLS,
        progress: "tools: names in another case",
        run: probes::name_case::run,
    },
    Row {
        ids: &[
            probes::schema_cases::SCHEMA_CASES,
            probes::schema_cases::OUTPUT_SCHEMA,
        ],
        needs: TOOLS,
        progress: "cases: the schema-derived cases",
        run: probes::schema_cases::run,
    },
    Row {
        ids: &[probes::embedded_resources::ID],
        needs: TOOLS,
        progress: "tools: embedded resources in results",
        run: probes::embedded_resources::run,
    },
    Row {
        ids: &[probes::multi_round_discipline::ID],
        needs: TOOLS,
        progress: "multi-round: input_required results, -32021 without capabilities",
        run: probes::multi_round_discipline::run,
    },
    Row {
        ids: &[probes::multi_round_driven::ID],
        needs: TOOLS,
        progress: "multi-round: tools that ask, driven with every client capability",
        run: probes::multi_round_driven::run,
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
        ids: &[probes::elicitation_content::ID],
        needs: Needs {
            era: Some(Era::Current),
            asking_tool: true,
            ..TOOLS
        },
        progress: "multi-round: an accepted form whose content breaks its schema",
        run: probes::elicitation_content::run,
    },
    Row {
        ids: &[probes::sampling_tool_results::ID],
        needs: Needs {
            era: Some(Era::Current),
            asking_tool: true,
            ..TOOLS
        },
        progress: "multi-round: a sampling request with tools answered with a tool use",
        run: probes::sampling_tool_results::run,
    },
    Row {
        ids: &probes::notifications::IDS,
        needs: TOOLS,
        progress: "notifications: log messages, progress, server requests",
        run: probes::notifications::run,
    },
    Row {
        ids: &probes::tasks::PROBES,
        needs: Needs {
            extension: Some(mcp_test::tasks::EXTENSION),
            ..TOOLS
        },
        progress: "tasks: the io.modelcontextprotocol/tasks lifecycle",
        run: probes::tasks::run,
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
        ids: &probes::resources::IDS,
        needs: Needs {
            offered: Some("resources"),
            ..NOTHING
        },
        progress: "resources: list, templates, read, resource-not-found",
        run: probes::resources::run,
    },
    Row {
        ids: &probes::prompts::IDS,
        needs: Needs {
            offered: Some("prompts"),
            ..NOTHING
        },
        progress: "prompts: list, unknown prompt, missing arguments, contents",
        run: probes::prompts::run,
    },
    Row {
        ids: &[probes::completion::ID],
        needs: Needs {
            declared: Some("completions"),
            ..NOTHING
        },
        progress: "completion: unknown prompt, listed arguments",
        run: probes::completion::run,
    },
    Row {
        ids: &probes::http_probes::PROBES,
        needs: Needs {
            transport: Some(Transport::Http),
            time_left: true,
            ..NOTHING
        },
        progress: "HTTP: mirrored headers, Origin, content types, status codes, GET and DELETE",
        run: probes::http_probes::run,
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
        ids: &[probes::name_header::ID],
        needs: Needs {
            transport: Some(Transport::Http),
            era: Some(Era::Current),
            time_left: true,
            base_call: true,
            ..TOOLS
        },
        progress: "HTTP: an Mcp-Name header that names another tool than the body",
        run: probes::name_header::run,
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
        ids: &[probes::before_initialized::ID],
        needs: Needs {
            transport: Some(Transport::Http),
            era: Some(Era::Legacy),
            time_left: true,
            ..NOTHING
        },
        progress: "lifecycle: a 2025-era session whose initialized notification is held back",
        run: probes::before_initialized::run,
    },
    Row {
        ids: &[probes::authorization::ID],
        needs: Needs {
            transport: Some(Transport::Http),
            time_left: true,
            ..NOTHING
        },
        progress: "HTTP: protected-resource metadata",
        run: probes::authorization::run,
    },
    Row {
        ids: &probes::auth_tokens::IDS,
        needs: Needs {
            transport: Some(Transport::Http),
            time_left: true,
            ..NOTHING
        },
        progress: "HTTP: tokens of the trusted issuer, each wrong in one way (--auth-issuer)",
        run: probes::auth_tokens::run,
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
        ids: &[probes::connection_reuse::ID],
        needs: Needs {
            era: Some(Era::Current),
            transport: Some(Transport::Http),
            time_left: true,
            asking_tool: true,
            ..TOOLS
        },
        progress: "base: a multi-round retry on a new connection",
        run: probes::connection_reuse::run,
    },
    Row {
        ids: &[probes::request_scoped::ID],
        needs: Needs {
            era: Some(Era::Current),
            transport: Some(Transport::Http),
            time_left: true,
            base_call: true,
            ..TOOLS
        },
        progress: "logging: tools called with a log level while a subscriptions/listen stream is read",
        run: probes::request_scoped::run,
    },
    Row {
        ids: &[probes::tasks_listen::ID],
        needs: Needs {
            extension: Some(mcp_test::tasks::EXTENSION),
            transport: Some(Transport::Http),
            time_left: true,
            ..TOOLS
        },
        progress: "tasks: a task followed while its subscriptions/listen stream is read",
        run: probes::tasks_listen::run,
    },
    Row {
        ids: &[probes::legacy_capabilities::ID],
        needs: Needs {
            era: Some(Era::Legacy),
            transport: Some(Transport::Http),
            time_left: true,
            base_call: true,
            ..TOOLS
        },
        progress: "multi-round: a 2025-era session declaring form elicitation and sampling without tools",
        run: probes::legacy_capabilities::run,
    },
    Row {
        ids: &[probes::properties::ID],
        needs: Needs {
            properties: true,
            ..NOTHING
        },
        progress: "properties: property tests of the tools the cases call",
        run: probes::properties::run,
    },
    Row {
        ids: &[probes::subscriptions::ID, probes::cache_hints::ID],
        needs: NOTHING,
        progress: "subscriptions and cache hints: subscriptions/listen, cacheScope of pages",
        run: probes::subscriptions::run,
    },
    Row {
        ids: &[probes::initialize_last::ID],
        needs: NOTHING,
        progress: "methods: initialize, sent last, as a 2025-era client sends it",
        run: probes::initialize_last::run,
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
        ids: &[
            probes::results_and_errors::RESULTS,
            probes::results_and_errors::ERRORS,
        ],
        needs: NOTHING,
        progress: "results and errors: every response received",
        run: probes::results_and_errors::run,
    },
    Row {
        ids: &[probes::transport::ID],
        needs: NOTHING,
        progress: "transport: what the server did on its transport",
        run: probes::transport::run,
    },
    // Last, and over stdio on a process of their own when the check can start one
    // (`CheckOptions::reconnect`): they write what the spec tells a client not to write, so
    // no other probe may depend on how the server copes. They share that process while it
    // answers (`Run::own`), the JSON first: text that is not JSON is the likelier to leave a
    // streaming reader waiting for the rest of it.
    Row {
        ids: &[probes::invalid_request::ID],
        needs: NOTHING,
        progress: "base: JSON that is no valid request, and the server serving on",
        run: probes::invalid_request::run,
    },
    Row {
        ids: &[probes::malformed_message::ID],
        needs: NOTHING,
        progress: "base: a message that is not JSON, and the server serving on",
        run: probes::malformed_message::run,
    },
];

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
