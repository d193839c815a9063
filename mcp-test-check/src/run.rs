//! What the rows of the probe table share ([`Run`]): the checker, and what earlier rows learnt.
//! Below the probes, which read and fill it; the table (`crate::table`) runs them over it.

use crate::checker::Checker;
use crate::consent::Called;
use crate::{CheckOptions, ListedTool};
use mcp_test::__check::Deadline;
use mcp_test::cases::{Case, VerifyReport};
use mcp_test::target::Connection;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the rows share: the checker (session, responses so far, probes recorded) and what
/// earlier rows learnt.
pub(crate) struct Run<'a> {
    pub c: Checker<'a>,
    pub options: &'a CheckOptions,
    /// Told a line before each row that runs, and by the rows that take long.
    pub progress: &'a mut (dyn FnMut(&str) + Send),
    /// The connection as the target described it when the check began.
    pub connection: Connection,
    pub deadline: Option<Arc<Deadline>>,
    /// The capabilities the server declared: a 2026-07-28 server's from `server/discover`, a
    /// 2025-era server's from its `InitializeResult` (kept by the target). `None`: not known.
    pub declared: Option<Value>,
    /// Whether each capability is offered, once asked (`Needs::offered`).
    pub(crate) offered: BTreeMap<&'static str, bool>,
    /// The tools listed, by name.
    pub listed: Vec<String>,
    /// Every listed tool until `tools/definitions-and-unknown-tool` narrows it to the tools
    /// `check` may call (`crate::callable_tools`); then those, and those it calls only as
    /// tasks. No probe calls a tool outside these two.
    pub tools: Vec<Value>,
    pub task_only: Vec<Value>,
    /// The schema cases of `tools`, and what happened to each.
    pub cases: Vec<Case>,
    /// How many derived cases were left out of `cases` as the same kind as one kept.
    pub cases_left_out: usize,
    pub report: VerifyReport,
    /// Every listed tool with its class, and for each `check` may not call, why and which
    /// flags would (filled by `tools/definitions-and-unknown-tool`, which narrows `tools`, and
    /// `tools/input-schemas`; whether each was called is read from `called` at the end).
    pub listed_tools: Vec<ListedTool>,
    /// The tool names sent in `tools/call` so far, by the session and by the raw HTTP probes.
    pub called: Called,
    /// The tools the property tests may call: those the schema cases call.
    pub property_tools: Vec<Value>,
    /// The resource templates and prompts listed.
    pub templates: Vec<Value>,
    pub prompts: Vec<Value>,
    /// The server answered `initialize` with an `InitializeResult` on a 2026-07-28
    /// connection (`methods/initialize-on-a-modern-server`): it serves 2025-11-25 too.
    pub serves_legacy: bool,
    /// Over stdio, the process of their own that the probes writing what a client must not
    /// (`base/invalid-request`, `base/malformed-message`) wrote to, while it still answers,
    /// with the id its next request gets: the next such probe writes to it too, and a
    /// process that stopped answering is never written to again.
    pub own: Option<(mcp_test::cases::Connected, i64)>,
}

impl<'a> Run<'a> {
    pub(crate) fn new(
        c: Checker<'a>,
        options: &'a CheckOptions,
        connection: Connection,
        progress: &'a mut (dyn FnMut(&str) + Send),
    ) -> Self {
        Run {
            c,
            options,
            progress,
            connection,
            deadline: None,
            declared: None,
            offered: BTreeMap::new(),
            listed: Vec::new(),
            tools: Vec::new(),
            task_only: Vec::new(),
            cases: Vec::new(),
            cases_left_out: 0,
            report: VerifyReport::default(),
            listed_tools: Vec::new(),
            called: Called::default(),
            property_tools: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
            serves_legacy: false,
            own: None,
        }
    }

    /// Records that `why` kept `check` from calling the listed tool `name`.
    pub(crate) fn not_called(&mut self, name: &str, why: String) {
        if let Some(t) = self.listed_tools.iter_mut().find(|t| t.name == name) {
            t.not_called.get_or_insert(why);
        }
    }

    /// Whether something already kept `check` from calling the listed tool `name`.
    pub(crate) fn held_back(&self, name: &str) -> bool {
        self.listed_tools
            .iter()
            .any(|t| t.name == name && t.not_called.is_some())
    }

    /// Whether the server declared `capability`: `None` when its capabilities are not known.
    pub(crate) fn has(&self, capability: &str) -> Option<bool> {
        self.declared
            .as_ref()
            .map(|d| d.get(capability).is_some_and(|v| !v.is_null()))
    }

    /// The HTTP endpoint of the connection; a row that needs `Transport::Http` has one.
    pub(crate) fn endpoint(&self) -> (String, mcp_test::client::HttpOptions) {
        let http = self.connection.http.as_ref();
        (
            http.map(|h| h.url.clone()).unwrap_or_default(),
            http.map(|h| h.options.clone()).unwrap_or_default(),
        )
    }
}

/// Whether `declared` (a server's capabilities) declares `extension`.
pub(crate) fn declares_extension(declared: Option<&Value>, extension: &str) -> bool {
    declared
        .and_then(|d| d.get("extensions"))
        .and_then(Value::as_object)
        .is_some_and(|e| e.contains_key(extension))
}
