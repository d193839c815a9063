//! The requirements of the spec that a client can observe from outside a server, each with
//! its level and its words.
//!
//! A checker may call a server wrong only by quoting the clause it breaks, and the clause's
//! level decides how wrong: a [`Level::Must`] or [`Level::MustNot`] broken is a defect, a
//! [`Level::Should`] or [`Level::ShouldNot`] a warning, a [`Level::May`] a note. Every
//! [`Clause`] here is quoted from the revision it names (`docs/specification/<revision>/` of
//! the MCP specification repository); [`ALL`] lists them.
//!
//! ```
//! use mcp_test::spec::clauses::{self, Level};
//! let clause = clauses::find("resources/not-found").unwrap();
//! assert_eq!(clause.level, Level::Must);
//! assert_eq!(clause.to_string(), "server/resources.mdx §Error Handling (MUST)");
//! assert!(clause.text.contains("`-32602`"));
//! ```

use serde::Serialize;
use std::fmt;

/// How binding a clause is, in the words of RFC 2119 as the spec uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Level {
    /// **MUST** (or **REQUIRED**).
    Must,
    /// **MUST NOT**.
    MustNot,
    /// **SHOULD** (or **RECOMMENDED**).
    Should,
    /// **SHOULD NOT**.
    ShouldNot,
    /// **MAY**: allowed, never wrong.
    May,
}

impl Level {
    /// Whether breaking the clause breaks the spec (MUST, MUST NOT).
    pub fn is_absolute(self) -> bool {
        matches!(self, Level::Must | Level::MustNot)
    }

    /// The keyword as the spec writes it.
    pub fn keyword(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::MustNot => "MUST NOT",
            Level::Should => "SHOULD",
            Level::ShouldNot => "SHOULD NOT",
            Level::May => "MAY",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// One requirement, quoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Clause {
    /// A stable name, `area/what`, e.g. `resources/not-found`.
    pub id: &'static str,
    /// The revision whose text it quotes: `2026-07-28`, `2025-11-25`, `JSON-RPC 2.0`, or
    /// [`EXT_TASKS`] for the tasks extension.
    pub revision: &'static str,
    /// The page, relative to the revision's folder, e.g. `server/resources.mdx`.
    pub file: &'static str,
    /// The section heading it sits under.
    pub section: &'static str,
    /// How binding it is.
    pub level: Level,
    /// The sentence itself.
    pub text: &'static str,
    /// The part of the protocol it belongs to.
    pub area: Area,
    /// The transport on which a client can see it kept or broken.
    pub transport: Transport,
    /// How `check` holds a server to it, or why it cannot.
    #[serde(skip)]
    pub check: Check,
}

/// The parts of the protocol the requirements matrix is grouped by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Area {
    /// JSON-RPC messages, `_meta`, results and the schema.
    Base,
    /// Discovery, `initialize`, versions and capabilities.
    Lifecycle,
    /// The stdio transport.
    Stdio,
    /// The Streamable HTTP transport and its header rules.
    Http,
    /// Tools.
    Tools,
    /// Resources and resource templates.
    Resources,
    /// Prompts.
    Prompts,
    /// Argument completion.
    Completion,
    /// Log messages and progress notifications.
    Logging,
    /// Cursors.
    Pagination,
    /// Multi-round requests (`input_required`, `requestState`).
    MultiRound,
    /// `subscriptions/listen` and list-changed notifications.
    Subscriptions,
    /// `ttlMs` and the other cache hints.
    CacheHints,
    /// Error codes and error responses.
    Errors,
    /// The tasks extension (`io.modelcontextprotocol/tasks`).
    Tasks,
    /// Authorization over HTTP: 401 challenges and protected-resource metadata.
    Authorization,
}

impl Area {
    /// Every area, in the order the matrix lists them.
    pub const ALL: [Area; 16] = [
        Area::Base,
        Area::Lifecycle,
        Area::Stdio,
        Area::Http,
        Area::Tools,
        Area::Resources,
        Area::Prompts,
        Area::Completion,
        Area::Logging,
        Area::Pagination,
        Area::MultiRound,
        Area::Subscriptions,
        Area::CacheHints,
        Area::Errors,
        Area::Tasks,
        Area::Authorization,
    ];

    /// Its name in reports: `base`, `multi-round`, ...
    pub fn name(self) -> &'static str {
        match self {
            Area::Base => "base",
            Area::Lifecycle => "lifecycle",
            Area::Stdio => "stdio",
            Area::Http => "http",
            Area::Tools => "tools",
            Area::Resources => "resources",
            Area::Prompts => "prompts",
            Area::Completion => "completion",
            Area::Logging => "logging",
            Area::Pagination => "pagination",
            Area::MultiRound => "multi-round",
            Area::Subscriptions => "subscriptions",
            Area::CacheHints => "cache-hints",
            Area::Errors => "errors",
            Area::Tasks => "tasks",
            Area::Authorization => "authorization",
        }
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a requirement can be seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transport {
    /// On any transport.
    Any,
    /// Only over stdio.
    Stdio,
    /// Only over Streamable HTTP.
    Http,
}

impl Transport {
    /// `any`, `stdio` or `http`.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Any => "any",
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }
}

/// How a requirement is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// By these probes of `mcp-test check` (the probe names of its report).
    Probes(&'static [&'static str]),
    /// Not from outside a server, for this reason.
    Outside(&'static str),
    /// A client could see it, but no probe checks it yet; what a probe would do.
    NotYet(&'static str),
}

/// [`Check::Probes`], for the table below.
const fn probes(names: &'static [&'static str]) -> Check {
    Check::Probes(names)
}

/// [`Check::Outside`], for the table below.
const fn outside(why: &'static str) -> Check {
    Check::Outside(why)
}

impl Clause {
    /// The eras whose servers it binds: a 2026-07-28 clause binds 2026-07-28 servers (and so
    /// does a clause of the tasks extension, which extends 2026-07-28), a 2025-11-25 clause
    /// 2025-era ones, a JSON-RPC 2.0 clause both.
    pub fn binds(&self, era: crate::wire::Era) -> bool {
        match self.revision {
            "2026-07-28" | EXT_TASKS => era == crate::wire::Era::Current,
            "2025-11-25" => era == crate::wire::Era::Legacy,
            _ => true,
        }
    }

    /// The probes that check it; empty when it cannot be checked from outside.
    pub fn probes(&self) -> &'static [&'static str] {
        match self.check {
            Check::Probes(names) => names,
            Check::Outside(_) | Check::NotYet(_) => &[],
        }
    }
}

impl Clause {
    /// Where to read it: `file §section`, with the revision in front unless it is 2026-07-28.
    pub fn location(&self) -> String {
        if self.revision == "2026-07-28" {
            format!("{} §{}", self.file, self.section)
        } else {
            format!("{} {} §{}", self.revision, self.file, self.section)
        }
    }
}

impl Clause {
    /// The address of the clause's page and section on the web: modelcontextprotocol.io for
    /// the spec's revisions (a JSON-RPC 2.0 clause quotes the 2026-07-28 page that adopts it),
    /// the extension's repository for the tasks extension. The fragment is the section
    /// heading as the site slugs it.
    ///
    /// ```
    /// use mcp_test::spec::clauses;
    /// let clause = clauses::find("resources/not-found").unwrap();
    /// assert_eq!(
    ///     clause.url(),
    ///     "https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling"
    /// );
    /// ```
    pub fn url(&self) -> String {
        let fragment = slug(self.section);
        if self.revision == EXT_TASKS {
            return format!(
                "https://github.com/modelcontextprotocol/ext-tasks/blob/main/{}#{fragment}",
                self.file
            );
        }
        let revision = match self.revision {
            "2025-11-25" => "2025-11-25",
            _ => "2026-07-28",
        };
        let page = self.file.trim_end_matches(".mdx").trim_end_matches(".md");
        let page = page.strip_suffix("/index").unwrap_or(page);
        format!("https://modelcontextprotocol.io/specification/{revision}/{page}#{fragment}")
    }
}

/// A heading as an anchor: lowercase letters and digits, a hyphen for each run of spaces or
/// hyphens, nothing else.
fn slug(heading: &str) -> String {
    let mut out = String::new();
    for c in heading.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if (c == ' ' || c == '-') && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.location(), self.level)
    }
}

/// The 2025-11-25 twin of a 2026-07-28 clause: the same rule in the older revision's words
/// (`legacy/` before its id), or the clause itself when it quotes JSON-RPC 2.0, which both
/// eras follow. `None`: 2025-11-25 has no such rule.
///
/// ```
/// use mcp_test::spec::clauses::{self, in_2025};
/// assert_eq!(in_2025(&clauses::RESOURCE_NOT_FOUND), Some(&clauses::LEGACY_RESOURCE_NOT_FOUND));
/// assert_eq!(in_2025(&clauses::TOOLS_DETERMINISTIC_ORDER), None);
/// ```
pub fn in_2025(clause: &Clause) -> Option<&'static Clause> {
    if clause.revision == "JSON-RPC 2.0" || clause.revision == "2025-11-25" {
        return find(clause.id);
    }
    let id = format!("legacy/{}", clause.id);
    ALL.iter().copied().find(|c| c.id == id)
}

/// The clause named `id`, if it is one of [`ALL`].
pub fn find(id: &str) -> Option<&'static Clause> {
    ALL.iter().copied().find(|c| c.id == id)
}

/// The requirements matrix as Markdown: a count per revision and area, then one table per
/// revision with every requirement, its level, area, transport and the probes that check it
/// (or why no client can). `mcp-test/REQUIREMENTS.md` is this text; a test keeps it current.
pub fn matrix_markdown() -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "# Requirements matrix\n\n\
         Every server-side requirement (MUST, MUST NOT, SHOULD, SHOULD NOT) of MCP 2026-07-28, \
         and of 2025-11-25 for servers of the legacy era, with the probe of `mcp-test check` \
         that checks it or why no client can check it from outside. Generated from \
         `mcp_test::spec::clauses` (`src/spec/clauses.rs`); do not edit by hand: \
         `UPDATE_REQUIREMENTS=1 cargo test -p mcp-test --lib matrix` rewrites it.\n\n\
         A JSON-RPC 2.0 row binds both eras. A 2025-era server is held to the 2025-11-25 \
         rows; a probe quoting a 2026-07-28 rule with no 2025-11-25 twin only notes it.\n\n\
         `tests/tests/broken_server.rs` proves each probed 2026-07-28 row on \
         `examples/broken_server`, which breaks it with one `--break` switch.\n\n\
         The `ext-tasks` rows quote the tasks extension (`io.modelcontextprotocol/tasks`, \
         `specification/draft/tasks.md` of `modelcontextprotocol/ext-tasks`); they bind a \
         2026-07-28 server that declares the extension in `server/discover`.\n\n",
    );
    let revisions = ["2026-07-28", "2025-11-25", "JSON-RPC 2.0", EXT_TASKS];
    let _ = writeln!(out, "## Counts\n");
    let _ = writeln!(
        out,
        "| revision | area | rows | probed | not probed yet | not checkable |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|");
    for revision in revisions {
        let mut totals = (0, 0, 0, 0);
        for area in Area::ALL {
            let rows: Vec<_> = ALL
                .iter()
                .filter(|c| c.revision == revision && c.area == area)
                .collect();
            if rows.is_empty() {
                continue;
            }
            let probed = rows.iter().filter(|c| !c.probes().is_empty()).count();
            let not_yet = rows
                .iter()
                .filter(|c| matches!(c.check, Check::NotYet(_)))
                .count();
            let outside = rows.len() - probed - not_yet;
            let _ = writeln!(
                out,
                "| {revision} | {area} | {} | {probed} | {not_yet} | {outside} |",
                rows.len()
            );
            totals = (
                totals.0 + rows.len(),
                totals.1 + probed,
                totals.2 + not_yet,
                totals.3 + outside,
            );
        }
        let _ = writeln!(
            out,
            "| **{revision}** | **all** | **{}** | **{}** | **{}** | **{}** |",
            totals.0, totals.1, totals.2, totals.3
        );
    }
    for revision in revisions {
        let _ = writeln!(out, "\n## {revision}\n");
        let _ = writeln!(
            out,
            "| id | level | area | transport | where | checked by | requirement |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|");
        for area in Area::ALL {
            for c in ALL
                .iter()
                .filter(|c| c.revision == revision && c.area == area)
            {
                let by = match c.check {
                    Check::Probes(names) => names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    Check::Outside(why) => format!("not checkable: {why}"),
                    Check::NotYet(how) => format!("not probed yet: {how}"),
                };
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} §{} | {} | {} |",
                    c.id,
                    c.level,
                    c.area,
                    c.transport.name(),
                    c.file,
                    c.section.replace('|', "\\|"),
                    by.replace('|', "\\|"),
                    c.text.replace('|', "\\|").replace('\n', " ")
                );
            }
        }
    }
    out
}

/// The revision string of the tasks extension's clauses: its draft specification,
/// `specification/draft/tasks.md` of the repository `modelcontextprotocol/ext-tasks`.
pub const EXT_TASKS: &str = "ext-tasks";

macro_rules! clauses {
    ($($(#[$doc:meta])* $name:ident = $id:literal, $rev:literal, $file:literal, $section:literal, $level:ident,
        $area:ident, $transport:ident, $check:expr, $text:literal;)*) => {
        $(
            $(#[$doc])*
            pub const $name: Clause = Clause {
                id: $id,
                revision: $rev,
                file: $file,
                section: $section,
                level: Level::$level,
                text: $text,
                area: Area::$area,
                transport: Transport::$transport,
                check: $check,
            };
        )*
        /// Every clause of this module, in the order written.
        pub const ALL: &[&Clause] = &[$(&$name),*];
    };
}

clauses! {
    // ==== Base protocol, lifecycle and versioning, errors, logging and progress,
    // subscriptions, cache hints, multi-round requests ====
    /// Every message is JSON-RPC 2.0, whose error table gives -32601 to an unknown method.
    JSONRPC_METHOD_NOT_FOUND = "jsonrpc/method-not-found", "JSON-RPC 2.0", "basic/index.mdx", "Messages", Must,
        Base, Any, probes(&["methods/removed-and-unknown"]),
        "All messages between MCP clients and servers **MUST** follow the [JSON-RPC 2.0](https://www.jsonrpc.org/specification) specification. (JSON-RPC 2.0 §5.1: -32601 Method not found, \"The method does not exist / is not available.\")";
    /// Invalid JSON is -32700, with a null id.
    JSONRPC_PARSE_ERROR = "jsonrpc/parse-error", "JSON-RPC 2.0", "basic/index.mdx", "Messages", Must,
        Base, Any, probes(&["base/malformed-message"]),
        "All messages between MCP clients and servers **MUST** follow the [JSON-RPC 2.0](https://www.jsonrpc.org/specification) specification. (JSON-RPC 2.0 §5.1: -32700 Parse error, \"Invalid JSON was received by the server.\"; §5: \"If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it **MUST** be Null.\")";
    /// JSON that is not a valid request is -32600.
    JSONRPC_INVALID_REQUEST = "jsonrpc/invalid-request", "JSON-RPC 2.0", "basic/index.mdx", "Messages", Must,
        Base, Any, probes(&["base/invalid-request"]),
        "All messages between MCP clients and servers **MUST** follow the [JSON-RPC 2.0](https://www.jsonrpc.org/specification) specification. (JSON-RPC 2.0 §5.1: -32600 Invalid Request, \"The JSON sent is not a valid Request object.\")";
    /// A request gets a response.
    JSONRPC_RESPONSE = "jsonrpc/response-required", "JSON-RPC 2.0", "basic/index.mdx", "Messages", Must,
        Base, Any, probes(&["transport/hygiene", "tools/schema-cases", "methods/initialize-on-a-modern-server", "tools/properties", "http/name-header-mismatch", "base/malformed-message"]),
        "All messages between MCP clients and servers **MUST** follow the JSON-RPC 2.0 specification. (JSON-RPC 2.0 §5: \"When a rpc call is made, the Server **MUST** reply with a Response, except for in the case of Notifications.\")";
    /// A result carries the request's id.
    RESULT_ID = "base/result-id", "2026-07-28", "basic/index.mdx", "Result Responses", Must,
        Base, Any, probes(&["results/shape-and-cache-hints", "methods/initialize-on-a-modern-server"]),
        "Result responses **MUST** include the same ID as the request they correspond to.";
    /// An error carries the request's id.
    ERROR_ID = "base/error-id", "2026-07-28", "basic/index.mdx", "Error Responses", Must,
        Errors, Any, probes(&["errors/codes-and-ids", "methods/initialize-on-a-modern-server"]),
        "Error responses **MUST** include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).";
    /// Error codes are integers.
    ERROR_CODE_INTEGER = "base/error-code-integer", "2026-07-28", "basic/index.mdx", "Error Responses", Must,
        Errors, Any, probes(&["errors/codes-and-ids"]),
        "Error codes **MUST** be integers.";
    /// Every 2026-07-28 result has `resultType`.
    RESULT_TYPE = "base/result-type", "2026-07-28", "basic/index.mdx", "Result Responses", Must,
        Base, Any, probes(&["results/shape-and-cache-hints"]),
        "The `result` **MUST** include a `resultType` field to indicate the type of the result.";
    /// The schema is the source of truth for every message.
    SCHEMA = "base/schema", "2026-07-28", "basic/index.mdx", "Schema", Must,
        Base, Any, probes(&["results/shape-and-cache-hints", "discovery/fields", "notifications/logging", "notifications/progress", "subscriptions/listen"]),
        "All implementations **MUST** support the base protocol, versioning, and the message patterns. […] The full specification of the protocol is defined as a TypeScript schema. This is the source of truth for all protocol messages and structures.";
    /// -32002 and -32042 are gone in 2026-07-28.
    REMOVED_ERROR_CODES = "base/removed-error-codes", "2026-07-28", "basic/index.mdx", "Error Codes", MustNot,
        Errors, Any, probes(&["errors/codes-and-ids"]),
        "Implementations of this protocol version **MUST NOT** emit these codes:";
    /// The legacy server-error sub-range, which only new implementations should avoid.
    IMPLEMENTATION_ERROR_CODES = "base/implementation-error-codes", "2026-07-28", "basic/index.mdx", "Error Codes", ShouldNot,
        Errors, Any, outside("it binds new implementations, and whether an implementation is new cannot be seen from outside; a code in -32000..-32019 is noted for the record"),
        "New codes **MUST NOT** be allocated in this sub-range, and new implementations **SHOULD NOT** use codes from this sub-range at all.";
    /// Codes in -32020..-32099 are the specification's only.
    RESERVED_ERROR_CODES = "base/reserved-error-codes", "2026-07-28", "basic/index.mdx", "Error Codes", MustNot,
        Errors, Any, probes(&["errors/codes-and-ids"]),
        "Implementations **MUST NOT** emit any code from this sub-range that is not defined by this specification and **MUST** use defined codes only with their specified meanings.";
    /// Application error codes outside the reserved range.
    APPLICATION_ERROR_CODES = "base/application-error-codes", "2026-07-28", "basic/index.mdx", "Error Codes", Should,
        Errors, Any, outside("whether a code was allocated for a purpose the specification does not define is a fact about the implementation's design, not its messages"),
        "New error codes for purposes not defined by this specification **SHOULD** be allocated outside the JSON-RPC reserved range (`-32768` to `-32000`); the remainder of the integer space is available for application-defined errors.";
    /// An error has a code and a message.
    ERROR_FIELDS = "base/error-fields", "2026-07-28", "basic/index.mdx", "Error Responses", Must,
        Errors, Any, probes(&["errors/codes-and-ids"]),
        "Error responses **MUST** include an `error` field with a `code` and `message`.";
    /// 2025-11-25: an error has a code and a message.
    LEGACY_ERROR_FIELDS = "legacy/base/error-fields", "2025-11-25", "basic/index.mdx", "Responses", Must,
        Errors, Any, probes(&["errors/codes-and-ids"]),
        "Error responses **MUST** include an `error` field with a `code` and `message`.";
    /// A request without the required `_meta` fields is -32602.
    META_REQUIRED = "base/meta-required", "2026-07-28", "basic/index.mdx", "`_meta`", Must,
        Base, Any, probes(&["methods/unsupported-version"]),
        "A request missing any required field is malformed; the server **MUST** reject it with JSON-RPC error code `-32602` (Invalid params).";
    /// Reserved `_meta` keys carry no assumptions.
    META_RESERVED_KEYS = "base/meta-reserved-keys", "2026-07-28", "basic/index.mdx", "`_meta`", MustNot,
        Base, Any, outside("what a server assumes about the values at reserved keys happens inside it"),
        "Certain key names are reserved by MCP for protocol-level metadata, as specified below; implementations **MUST NOT** make assumptions about values at these keys.";
    /// A server relies on no undeclared client capability.
    UNDECLARED_CLIENT_CAPABILITY = "base/undeclared-client-capability", "2026-07-28", "basic/index.mdx", "`_meta`", MustNot,
        Base, Any, outside("what a server relies on happens inside it; what shows, an input request or a -32021 for an undeclared capability, is mrtr/declared-capabilities-only and base/missing-client-capability"),
        "A server **MUST NOT** rely on capabilities the client has not declared.";
    /// A request that needs a capability the client did not declare is -32021.
    MISSING_CLIENT_CAPABILITY = "base/missing-client-capability", "2026-07-28", "basic/index.mdx", "`_meta`", Must,
        Base, Any, probes(&["multi-round/discipline"]),
        "If processing a request requires a capability the client did not include in `io.modelcontextprotocol/clientCapabilities`, the server **MUST** return a `MissingRequiredClientCapabilityError` (`-32021`) whose `data.requiredCapabilities` lists the missing capabilities.";
    /// Every result names the server.
    RESULT_SERVER_INFO = "base/result-server-info", "2026-07-28", "basic/index.mdx", "`_meta`", Should,
        Base, Any, probes(&["base/result-server-info"]),
        "Servers **SHOULD** include the following `io.modelcontextprotocol/*` field in every result's `_meta`, unless specifically configured not to do so, to identify themselves without relying on any prior connection state:";
    /// Client info and capabilities do not steer the server.
    CLIENT_INFO_NO_BEHAVIOR = "base/client-info-no-behavior", "2026-07-28", "basic/index.mdx", "`_meta`", ShouldNot,
        Base, Any, outside("telling whether the client's self-description changed a server's behavior takes two clients the server cannot tell apart otherwise, and its security decisions are internal"),
        "Implementations **SHOULD NOT** use them to change the behavior of the client or server, and **SHOULD NOT** rely on them for security decisions.";
    /// Notifications on a subscription carry its id.
    SUBSCRIPTION_ID_META = "subscriptions/id-in-meta", "2026-07-28", "basic/index.mdx", "`_meta`", Must,
        Subscriptions, Http, probes(&["subscriptions/listen"]),
        "On notifications delivered via a `subscriptions/listen` stream, the server **MUST** include `io.modelcontextprotocol/subscriptionId` in `_meta` so the client can correlate the notification with the originating subscription request.";
    /// No state carried over from earlier requests.
    STATELESS = "base/stateless", "2026-07-28", "basic/index.mdx", "Statelessness", MustNot,
        Base, Any, probes(&["base/stateless"]),
        "Servers **MUST NOT** rely on prior requests over the same connection to establish context (e.g., capabilities, protocol version, client identity).";
    /// Many conversations at once.
    STATELESS_MANY_TASKS = "base/stateless-many-tasks", "2026-07-28", "basic/index.mdx", "Statelessness", Should,
        Base, Any, outside("how a server handles requests of many tasks or conversations is not something one client's requests show"),
        "Servers **SHOULD** be prepared to handle requests associated with multiple tasks, threads, or conversations.";
    /// No required connection reuse.
    STATELESS_NO_REUSE = "base/stateless-no-connection-reuse", "2026-07-28", "basic/index.mdx", "Statelessness", ShouldNot,
        Base, Any, probes(&["base/connection-reuse"]),
        "Servers **SHOULD NOT** require that a client reuse the same connection or process to perform related operations.";
    /// State spanning requests is referenced explicitly.
    STATELESS_EXPLICIT_STATE = "base/stateless-explicit-state", "2026-07-28", "basic/index.mdx", "Statelessness", Must,
        Base, Any, outside("where a server keeps state between requests happens inside it"),
        "State that needs to span multiple requests (e.g., long-running tasks, application-level handles) **MUST** be referenced by an explicit identifier the client passes on each request.";
    /// Unsupported schema dialects fail gracefully.
    SCHEMA_UNSUPPORTED_DIALECT = "base/unsupported-dialect", "2026-07-28", "basic/index.mdx", "Implementation Requirements", Must,
        Base, Any, outside("a server validates the schemas it holds, which a client cannot replace with one in an unsupported dialect"),
        "They **MUST** handle unsupported dialects gracefully by returning an appropriate error indicating the dialect is not supported.";
    /// No network `$ref`s.
    SCHEMA_NO_NETWORK_REF = "base/no-network-ref", "2026-07-28", "basic/index.mdx", "`$ref` Resolution", MustNot,
        Base, Any, outside("whether a server fetches a network URI while validating its own schemas happens inside it"),
        "Implementations **MUST NOT** automatically dereference `$ref` values that resolve to a network URI.";
    /// Servers implement `server/discover`.
    DISCOVER = "discover/implemented", "2026-07-28", "server/discover.mdx", "server/discover", Must,
        Lifecycle, Any, probes(&["discovery/fields"]),
        "Servers **MUST** implement it.";
    /// The discover result names the server.
    DISCOVER_SERVER_INFO = "discover/server-info", "2026-07-28", "server/discover.mdx", "DiscoverResult", Should,
        Lifecycle, Any, probes(&["discovery/fields"]),
        "Servers **SHOULD** include this field.";
    /// An unsupported protocol version is -32022.
    UNSUPPORTED_VERSION = "versioning/unsupported-version", "2026-07-28", "basic/versioning.mdx", "Protocol Version Negotiation", Must,
        Lifecycle, Any, probes(&["methods/unsupported-version"]),
        "If the server does not implement the requested version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it **MUST** respond with an `UnsupportedProtocolVersionError`.";
    /// An extension one side lacks falls back or fails.
    EXTENSION_FALLBACK = "versioning/extension-fallback", "2026-07-28", "basic/versioning.mdx", "Extension Negotiation", Must,
        Lifecycle, Any, probes(&["versioning/extension-fallback"]),
        "If one party supports an extension but the other does not, the supporting party **MUST** either revert to core protocol behavior or reject the request with an appropriate error.";
    /// A modern-only server names its versions when refusing `initialize`.
    INITIALIZE_NAMES_VERSIONS = "versioning/initialize-names-versions", "2026-07-28", "basic/versioning.mdx", "Backward Compatibility with Initialization-Based Versions", Should,
        Lifecycle, Any, probes(&["methods/initialize-on-a-modern-server"]),
        "A server that supports only modern versions **SHOULD** name the protocol versions it supports in any error it returns to an `initialize` request, on any transport.";
    /// Capabilities are respected.
    CAPABILITY_NEGOTIATION = "capabilities/respected", "2026-07-28", "server/prompts.mdx", "Implementation Considerations", Should,
        Lifecycle, Any, probes(&["capabilities/tools", "capabilities/resources", "capabilities/prompts", "capabilities/completions"]),
        "Both parties **SHOULD** respect capability negotiation";
    /// 2025-11-25: the schema is the source of truth for every message.
    LEGACY_SCHEMA = "legacy/base/schema", "2025-11-25", "basic/index.mdx", "Schema", Must,
        Base, Any, probes(&["results/shape-and-cache-hints", "discovery/fields", "notifications/logging", "notifications/progress", "subscriptions/listen"]),
        "All implementations **MUST** support the base protocol and lifecycle management components. […] The full specification of the protocol is defined as a TypeScript schema. This is the source of truth for all protocol messages and structures.";
    /// 2025-11-25: a result carries the request's id.
    LEGACY_RESULT_ID = "legacy/base/result-id", "2025-11-25", "basic/index.mdx", "Responses", Must,
        Base, Any, probes(&["results/shape-and-cache-hints", "methods/initialize-on-a-modern-server"]),
        "Result responses **MUST** include the same ID as the request they correspond to.";
    /// 2025-11-25: an error carries the request's id.
    LEGACY_ERROR_ID = "legacy/base/error-id", "2025-11-25", "basic/index.mdx", "Responses", Must,
        Errors, Any, probes(&["errors/codes-and-ids", "methods/initialize-on-a-modern-server"]),
        "Error responses **MUST** include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).";
    /// 2025-11-25: error codes are integers.
    LEGACY_ERROR_CODE_INTEGER = "legacy/base/error-code-integer", "2025-11-25", "basic/index.mdx", "Responses", Must,
        Errors, Any, probes(&["errors/codes-and-ids"]),
        "Error codes **MUST** be integers.";
    /// 2025-11-25: capabilities are respected.
    LEGACY_CAPABILITY_NEGOTIATION = "legacy/capabilities/respected", "2025-11-25", "server/prompts.mdx", "Implementation Considerations", Should,
        Lifecycle, Any, probes(&["capabilities/tools", "capabilities/resources", "capabilities/prompts", "capabilities/completions"]),
        "Both parties **SHOULD** respect capability negotiation";
    /// 2025-11-25: the `initialize` answer states the server's capabilities and information.
    LEGACY_INITIALIZE_RESULT = "legacy/lifecycle/initialize-result", "2025-11-25", "basic/lifecycle.mdx", "Initialization", Must,
        Lifecycle, Any, probes(&["lifecycle/initialize-result"]),
        "The server **MUST** respond with its own capabilities and information:";
    /// 2025-11-25: no requests before `initialized`.
    LEGACY_NO_REQUESTS_BEFORE_INITIALIZED = "legacy/lifecycle/no-requests-before-initialized", "2025-11-25", "basic/lifecycle.mdx", "Initialization", ShouldNot,
        Lifecycle, Any, probes(&["lifecycle/before-initialized"]),
        "The server **SHOULD NOT** send requests other than pings and logging before receiving the `initialized` notification.";
    /// 2025-11-25: the same version when supported.
    LEGACY_SAME_VERSION = "legacy/lifecycle/same-version", "2025-11-25", "basic/lifecycle.mdx", "Version Negotiation", Must,
        Lifecycle, Any, probes(&["lifecycle/version-negotiation"]),
        "If the server supports the requested protocol version, it **MUST** respond with the same version.";
    /// 2025-11-25: otherwise a version it supports.
    LEGACY_OTHER_VERSION = "legacy/lifecycle/other-version", "2025-11-25", "basic/lifecycle.mdx", "Version Negotiation", Must,
        Lifecycle, Any, probes(&["lifecycle/version-negotiation"]),
        "Otherwise, the server **MUST** respond with another protocol version it supports.";
    /// 2025-11-25: the latest version it supports.
    LEGACY_LATEST_VERSION = "legacy/lifecycle/latest-version", "2025-11-25", "basic/lifecycle.mdx", "Version Negotiation", Should,
        Lifecycle, Any, outside("which versions a server supports, and so which is its latest, is known only to it"),
        "This **SHOULD** be the _latest_ version supported by the server.";
    /// 2025-11-25: ping is answered promptly and empty.
    LEGACY_PING = "legacy/ping/respond", "2025-11-25", "basic/utilities/ping.mdx", "Behavior Requirements", Must,
        Base, Any, probes(&["methods/removed-and-unknown"]),
        "The receiver **MUST** respond promptly with an empty response:";

    // Logging (deprecated in 2026-07-28, still binding) and progress.
    /// A server that logs declares `logging`.
    LOGGING_CAPABILITY = "logging/capability", "2026-07-28", "server/utilities/logging.mdx", "Capabilities", Must,
        Logging, Any, probes(&["notifications/logging"]),
        "Servers that emit log message notifications **MUST** declare the `logging` capability:";
    /// 2025-11-25: a server that logs declares `logging`.
    LEGACY_LOGGING_CAPABILITY = "legacy/logging/capability", "2025-11-25", "server/utilities/logging.mdx", "Capabilities", Must,
        Logging, Any, probes(&["notifications/logging"]),
        "Servers that emit log message notifications **MUST** declare the `logging` capability:";
    /// No log messages for a request that did not ask for them.
    LOGGING_NOT_REQUESTED = "logging/not-requested", "2026-07-28", "server/utilities/logging.mdx", "Per-request log level", MustNot,
        Logging, Any, probes(&["notifications/logging"]),
        "The server **MUST NOT** emit `notifications/message` for a request that does not include this field.";
    /// Log messages stay on their request's stream.
    LOGGING_REQUEST_SCOPED = "logging/request-scoped", "2026-07-28", "server/utilities/logging.mdx", "Per-request log level", MustNot,
        Logging, Any, probes(&["logging/request-scoped"]),
        "`notifications/message` is request-scoped: the server **MUST NOT** deliver it on a `subscriptions/listen` stream or on any stream other than the one carrying the response to the request that set the log level.";
    /// An unknown log level is -32602.
    LOGGING_INVALID_LEVEL = "logging/invalid-level", "2026-07-28", "server/utilities/logging.mdx", "Error Handling", Should,
        Logging, Any, probes(&["notifications/logging"]),
        "If the `io.modelcontextprotocol/logLevel` value carried in a request's `_meta` is not a recognized log level, the server **SHOULD** reject that request with a standard JSON-RPC error: Invalid log level: `-32602` (Invalid params)";
    /// 2025-11-25: an unknown log level is -32602.
    LEGACY_LOGGING_INVALID_LEVEL = "legacy/logging/invalid-level", "2025-11-25", "server/utilities/logging.mdx", "Error Handling", Should,
        Logging, Any, probes(&["notifications/logging"]),
        "Servers **SHOULD** return standard JSON-RPC errors for common failure cases: Invalid log level: `-32602` (Invalid params)";
    /// New implementations do not adopt logging.
    LOGGING_DEPRECATED = "logging/deprecated", "2026-07-28", "server/utilities/logging.mdx", "Logging", ShouldNot,
        Logging, Any, outside("it binds new implementations, and whether an implementation is new cannot be seen from outside"),
        "New implementations **SHOULD NOT** adopt it; existing implementations **SHOULD** migrate to logging to `stderr` for stdio transports, or to OpenTelemetry for structured observability.";
    /// Rate limits, context, consistent names, no sensitive data.
    LOGGING_PRACTICES = "logging/practices", "2026-07-28", "server/utilities/logging.mdx", "Implementation Considerations", Should,
        Logging, Any, outside("rate limits and the content of log messages are judgements over a server's lifetime, not a shape a client can check"),
        "Servers **SHOULD**: Rate limit log messages; Include relevant context in data field; Use consistent logger names; Remove sensitive information";
    /// 2025-11-25: rate limits, context, consistent names, no sensitive data.
    LEGACY_LOGGING_PRACTICES = "legacy/logging/practices", "2025-11-25", "server/utilities/logging.mdx", "Implementation Considerations", Should,
        Logging, Any, outside("rate limits and the content of log messages are judgements over a server's lifetime, not a shape a client can check"),
        "Servers **SHOULD**: Rate limit log messages; Include relevant context in data field; Use consistent logger names; Remove sensitive information";
    /// No secrets in log messages.
    LOGGING_NO_SECRETS = "logging/no-secrets", "2026-07-28", "server/utilities/logging.mdx", "Security", MustNot,
        Logging, Any, outside("whether a log message holds credentials, personal data or internal details is a judgement about its content"),
        "Log messages **MUST NOT** contain: Credentials or secrets; Personal identifying information; Internal system details that could aid attacks";
    /// 2025-11-25: no secrets in log messages.
    LEGACY_LOGGING_NO_SECRETS = "legacy/logging/no-secrets", "2025-11-25", "server/utilities/logging.mdx", "Security", MustNot,
        Logging, Any, outside("whether a log message holds credentials, personal data or internal details is a judgement about its content"),
        "Log messages **MUST NOT** contain: Credentials or secrets; Personal identifying information; Internal system details that could aid attacks";
    /// Progress increases.
    PROGRESS_INCREASES = "progress/increasing", "2026-07-28", "basic/patterns/progress.mdx", "Progress Flow", Must,
        Logging, Any, probes(&["notifications/progress"]),
        "The `progress` value **MUST** increase with each notification, even if the total is unknown.";
    /// 2025-11-25: progress increases.
    LEGACY_PROGRESS_INCREASES = "legacy/progress/increasing", "2025-11-25", "basic/utilities/progress.mdx", "Progress Flow", Must,
        Logging, Any, probes(&["notifications/progress"]),
        "The `progress` value **MUST** increase with each notification, even if the total is unknown.";
    /// Progress only for the client's own tokens.
    PROGRESS_TOKENS = "progress/known-tokens", "2026-07-28", "basic/patterns/progress.mdx", "Behavior Requirements", Must,
        Logging, Any, probes(&["notifications/progress"]),
        "Progress notifications **MUST** only reference tokens that: Were provided in an active request; Are associated with an in-progress operation";
    /// 2025-11-25: progress only for the client's own tokens.
    LEGACY_PROGRESS_TOKENS = "legacy/progress/known-tokens", "2025-11-25", "basic/utilities/progress.mdx", "Behavior Requirements", Must,
        Logging, Any, probes(&["notifications/progress"]),
        "Progress notifications **MUST** only reference tokens that: Were provided in an active request; Are associated with an in-progress operation";
    /// No progress after the response.
    PROGRESS_STOPS = "progress/stop-after-completion", "2026-07-28", "basic/patterns/progress.mdx", "Implementation Notes", Must,
        Logging, Any, probes(&["notifications/progress"]),
        "Progress notifications **MUST** stop after completion";
    /// 2025-11-25: no progress after the response.
    LEGACY_PROGRESS_STOPS = "legacy/progress/stop-after-completion", "2025-11-25", "basic/utilities/progress.mdx", "Implementation Notes", Must,
        Logging, Any, probes(&["notifications/progress"]),
        "Progress notifications **MUST** stop after completion";
    /// Progress messages are readable.
    PROGRESS_MESSAGE = "progress/message", "2026-07-28", "basic/patterns/progress.mdx", "Progress Flow", Should,
        Logging, Any, outside("whether a progress message is relevant and human readable is a judgement about its words"),
        "The `message` field **SHOULD** provide relevant human readable progress information.";
    /// Tokens tracked, notifications rate-limited.
    PROGRESS_PRACTICES = "progress/practices", "2026-07-28", "basic/patterns/progress.mdx", "Implementation Notes", Should,
        Logging, Any, outside("tracking tokens and rate limiting are internal, and a flood is a matter of degree over time"),
        "Clients and servers **SHOULD** track active progress tokens";
    /// A server closing a subscription says so.
    CANCELLED_SUBSCRIPTION_TEARDOWN = "cancellation/subscription-teardown", "2026-07-28", "basic/patterns/cancellation.mdx", "Cancellation", Must,
        Subscriptions, Any, outside("check cannot make a server tear down a subscription stream on its own initiative"),
        "A server **MUST** send `notifications/cancelled` referencing a `subscriptions/listen` request ID when it tears down that subscription stream (see Subscriptions).";
    /// `notifications/cancelled` only for subscriptions.
    CANCELLED_ONLY_SUBSCRIPTIONS = "cancellation/server-only-subscriptions", "2026-07-28", "basic/patterns/cancellation.mdx", "Cancellation", MustNot,
        Subscriptions, Any, probes(&["notifications/server-initiated"]),
        "Servers **MUST NOT** send `notifications/cancelled` for any other purpose.";
    /// A disconnect cancels.
    CANCELLED_ON_DISCONNECT = "cancellation/disconnect", "2026-07-28", "basic/patterns/cancellation.mdx", "Transport-Specific Cancellation", Must,
        Base, Http, outside("what a server does with a request whose client disconnected happens inside it"),
        "The server **MUST** treat a client disconnect as cancellation of that request.";

    // Subscriptions.
    /// Only the notification types asked for.
    SUBSCRIPTION_REQUESTED_ONLY = "subscriptions/requested-only", "2026-07-28", "basic/patterns/subscriptions.mdx", "Opening a Stream", MustNot,
        Subscriptions, Http, probes(&["subscriptions/listen"]),
        "The server **MUST NOT** send notification types the client has not explicitly requested.";
    /// The acknowledgment comes first.
    SUBSCRIPTION_ACK_FIRST = "subscriptions/acknowledged-first", "2026-07-28", "basic/patterns/subscriptions.mdx", "Acknowledgment", Must,
        Subscriptions, Http, probes(&["subscriptions/listen"]),
        "The server **MUST** send `notifications/subscriptions/acknowledged` as the first message carrying the subscription's ID in `_meta` under `io.modelcontextprotocol/subscriptionId`, and **MUST NOT** send any notification on the subscription before it.";
    /// A server ending a subscription answers it.
    SUBSCRIPTION_GRACEFUL_END = "subscriptions/graceful-end", "2026-07-28", "basic/patterns/subscriptions.mdx", "Graceful Closure", Should,
        Subscriptions, Any, outside("check cannot make a server end a subscription on its own initiative"),
        "When the server ends a subscription on its own initiative (for example, during shutdown), it **SHOULD** respond to the original `subscriptions/listen` request with a completion result before closing the stream.";

    // Cache hints.
    /// `ttlMs` is never negative.
    CACHE_TTL_NON_NEGATIVE = "cache/ttl-non-negative", "2026-07-28", "server/utilities/caching.mdx", "Time-to-Live (TTL) Field", Must,
        CacheHints, Any, probes(&["results/shape-and-cache-hints"]),
        "Servers **MUST** provide a `ttlMs` value that is `>= 0`.";
    /// One `cacheScope` for every page of a list.
    CACHE_SCOPE_PAGES = "cache/scope-across-pages", "2026-07-28", "server/utilities/caching.mdx", "Interaction with Pagination", Must,
        CacheHints, Any, probes(&["cache-hints/pages"]),
        "Servers **MUST** apply the same `cacheScope` to all response pages for a given list request.";

    // Multi-round requests.
    /// Server-to-client requests go through MRTR.
    MRTR_ONLY = "mrtr/server-requests", "2026-07-28", "basic/patterns/mrtr.mdx", "Multi Round-Trip Requests", Must,
        MultiRound, Http, probes(&["notifications/server-initiated"]),
        "Servers **MUST** send server-to-client requests (such as `roots/list`, `sampling/createMessage`, or `elicitation/create`) using the MRTR pattern.";
    /// `input_required` only on the three methods.
    MRTR_SUPPORTED_REQUESTS = "mrtr/supported-requests", "2026-07-28", "basic/patterns/mrtr.mdx", "Supported Requests", MustNot,
        MultiRound, Any, probes(&["results/shape-and-cache-hints"]),
        "Servers **MUST NOT** send `InputRequiredResult` responses on any other client requests.";
    /// An `InputRequiredResult` has input requests or state.
    MRTR_REQUESTS_OR_STATE = "mrtr/requests-or-state", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", Must,
        MultiRound, Any, probes(&["multi-round/driven", "results/shape-and-cache-hints"]),
        "Servers **MUST** include at least one of `inputRequests` or `requestState` in every `InputRequiredResult` response.";
    /// Input request keys are unique.
    MRTR_UNIQUE_KEYS = "mrtr/unique-keys", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", Must,
        MultiRound, Any, outside("`inputRequests` is a JSON object, whose keys a parsed message cannot repeat"),
        "`inputRequests` keys are server assigned identifiers and **MUST** be unique within the scope of the request.";
    /// Input requests are only of declared kinds.
    MRTR_DECLARED_ONLY = "mrtr/declared-capabilities-only", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", MustNot,
        MultiRound, Any, probes(&["multi-round/discipline", "multi-round/driven"]),
        "Servers **MUST NOT** send an `inputRequests` that the client has not declared support for in its capabilities.";
    /// Input requests are elicitation, sampling or roots.
    MRTR_REQUEST_KINDS = "mrtr/request-kinds", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", Must,
        MultiRound, Any, probes(&["multi-round/driven"]),
        "`inputRequests` values are request objects that **MUST** be one of `ElicitRequest`, `CreateMessageRequest`, or `ListRootsRequest`.";
    /// `requestState` is attacker-controlled.
    MRTR_STATE_UNTRUSTED = "mrtr/state-untrusted", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", Must,
        MultiRound, Any, outside("how a server treats a requestState happens inside it; the one consequence a client sees, tampered state accepted, is mrtr/state-integrity"),
        "If a client request contains a `requestState` field, servers **MUST** treat `requestState` as an attacker-controlled input.";
    /// Tampered state is refused.
    MRTR_STATE_INTEGRITY = "mrtr/state-integrity", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", Must,
        MultiRound, Any, probes(&["multi-round/driven"]),
        "If `requestState` influences authorization, resource access, or business logic, servers **MUST** protect its integrity (e.g. HMAC or AEAD) and **MUST** reject state that fails verification.";
    /// One-time state is consumed once.
    MRTR_STATE_ONCE = "mrtr/state-once", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", Must,
        MultiRound, Any, outside("which requestStates must be consumed at most once is the server's business rule, unknown to a client"),
        "Servers for which a given `requestState` must be consumed at most once (e.g., one-time redemptions) **MUST** enforce that invariant server-side.";
    /// Replay protection inside the state.
    MRTR_STATE_REPLAY = "mrtr/state-replay", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", Should,
        MultiRound, Any, outside("what an opaque requestState holds cannot be read from outside"),
        "To prevent replay, servers **SHOULD** include the following inside the integrity-protected `requestState` payload and verify each on receipt:";
    /// No assumption the client answers.
    MRTR_NO_ASSUMED_RETRY = "mrtr/no-assumed-retry", "2026-07-28", "basic/patterns/mrtr.mdx", "Server Requirements (Basic Workflow)", MustNot,
        MultiRound, Any, outside("what a server assumes about a retry that never comes happens inside it"),
        "Servers **MUST NOT** assume that clients will fulfill the `inputRequests` or retry the original request.";
    /// Input responses are validated.
    MRTR_VALIDATE_RESPONSES = "mrtr/validate-input-responses", "2026-07-28", "basic/patterns/mrtr.mdx", "Error Handling", Should,
        MultiRound, Any, probes(&["multi-round/input-responses"]),
        "Servers **SHOULD** validate that the data provided by the client is a valid `InputResponses` object and that the information inside can be correctly parsed.";
    /// Unknown input responses are ignored.
    MRTR_IGNORE_EXTRA = "mrtr/ignore-extra-responses", "2026-07-28", "basic/patterns/mrtr.mdx", "Error Handling", Should,
        MultiRound, Any, probes(&["multi-round/driven"]),
        "If additional, unexpected parameters are provided in the `InputResponses` object, the server **SHOULD** ignore any information it does not recognize or need.";
    /// Missing answers get a new round.
    MRTR_ASK_AGAIN = "mrtr/ask-again", "2026-07-28", "basic/patterns/mrtr.mdx", "Error Handling", Should,
        MultiRound, Any, probes(&["multi-round/driven"]),
        "If the client fails to send all the information requested in a previous `InputRequests`, and the missing information is necessary for the server to process the request, the server **SHOULD** respond with a new `InputRequiredResult` requesting the missing information again, rather than returning an error.";
    /// `includeContext` other than `none` needs `sampling.context`.
    SAMPLING_CONTEXT = "sampling/include-context", "2026-07-28", "client/sampling.mdx", "Capabilities", ShouldNot,
        MultiRound, Any, probes(&["multi-round/driven"]),
        "Servers **SHOULD** avoid using these values (e.g. can just omit `includeContext` since it defaults to `\"none\"`), and **SHOULD NOT** use them unless the client declares `sampling.context` capability.";
    /// Tool-enabled sampling needs `sampling.tools`.
    SAMPLING_TOOLS = "sampling/tools", "2026-07-28", "client/sampling.mdx", "Tools in Sampling", MustNot,
        MultiRound, Any, probes(&["multi-round/driven"]),
        "Servers **MUST NOT** send tool-enabled sampling requests to Clients that have not declared support for tool use via the `sampling.tools` capability.";

    /// A notification gets no response.
    NO_RESPONSE_TO_NOTIFICATION = "base/no-response-to-notification", "2026-07-28", "basic/index.mdx", "Notifications", MustNot,
        Base, Any, probes(&["base/no-response-to-notification"]),
        "The receiver **MUST NOT** send a response.";
    /// 2025-11-25: a notification gets no response.
    LEGACY_NO_RESPONSE_TO_NOTIFICATION = "legacy/base/no-response-to-notification", "2025-11-25", "basic/index.mdx", "Notifications", MustNot,
        Base, Any, probes(&["base/no-response-to-notification"]),
        "The receiver **MUST NOT** send a response.";
    /// A result response has `result`.
    RESULT_FIELD = "base/result-field", "2026-07-28", "basic/index.mdx", "Result Responses", Must,
        Base, Any, outside("a message with neither `result` nor `error` is not taken for a response, so the request shows as unanswered (jsonrpc/response-required)"),
        "Result responses **MUST** include a `result` field.";
    /// Extension identifiers are prefixed `_meta`-style keys.
    EXTENSION_IDENTIFIERS = "versioning/extension-identifiers", "2026-07-28", "basic/versioning.mdx", "Extension Negotiation", Must,
        Lifecycle, Any, probes(&["discovery/fields"]),
        "Extension identifiers **MUST** follow the `_meta` key naming rules, with a mandatory prefix.";
    /// No secrets through form-mode elicitation.
    ELICITATION_FORM_NOT_SENSITIVE = "elicitation/form-not-sensitive", "2026-07-28", "client/elicitation.mdx", "User Interaction Model", MustNot,
        MultiRound, Any, outside("whether a form asks for a secret is a judgement about its words"),
        "Servers **MUST NOT** use form mode elicitation to request sensitive information such as passwords, API keys, access tokens, or payment credentials";
    /// 2025-11-25: no secrets through form-mode elicitation.
    LEGACY_ELICITATION_FORM_NOT_SENSITIVE = "legacy/elicitation/form-not-sensitive", "2025-11-25", "client/elicitation.mdx", "User Interaction Model", MustNot,
        MultiRound, Any, outside("whether a form asks for a secret is a judgement about its words"),
        "Servers **MUST NOT** use form mode elicitation to request sensitive information such as passwords, API keys, access tokens, or payment credentials";
    /// Only elicitation modes the client supports.
    ELICITATION_SUPPORTED_MODES = "elicitation/supported-modes", "2026-07-28", "client/elicitation.mdx", "Capabilities", MustNot,
        MultiRound, Any, outside("a mode the client did not declare is reported as mrtr/declared-capabilities-only, which the same input request breaks"),
        "Servers **MUST NOT** send elicitation requests with modes that are not supported by the client.";
    /// 2025-11-25: only elicitation modes the client supports.
    LEGACY_ELICITATION_SUPPORTED_MODES = "legacy/elicitation/supported-modes", "2025-11-25", "client/elicitation.mdx", "Capabilities", MustNot,
        MultiRound, Any, probes(&["multi-round/legacy-capabilities"]),
        "Servers **MUST NOT** send elicitation requests with modes that are not supported by the client.";
    /// Declines and cancellations are handled.
    ELICITATION_HANDLE_DECLINE = "elicitation/handle-decline", "2026-07-28", "client/elicitation.mdx", "Error Handling", Must,
        MultiRound, Any, probes(&["multi-round/driven"]),
        "Servers **SHOULD NOT** assume that elicitation requests will always succeed, and **MUST** handle cases where the user declines or cancels the elicitation, or where the client fails to process the request.";
    /// Elicited data is validated.
    ELICITATION_VALIDATE = "elicitation/validate-data", "2026-07-28", "client/elicitation.mdx", "Form Mode Security", Should,
        MultiRound, Any, probes(&["multi-round/elicitation-content"]),
        "Servers **SHOULD** validate received data matches the requested schema";
    /// Tool results answer each tool use.
    SAMPLING_TOOL_RESULTS = "sampling/tool-results", "2026-07-28", "client/sampling.mdx", "Security Considerations", Must,
        MultiRound, Any, probes(&["multi-round/sampling-tool-results"]),
        "Servers **MUST** ensure that when replying to a `stopReason: \"toolUse\"`, each `ToolUseContent` item is responded to with a `ToolResultContent` item with a matching `toolUseId`, and that the user message contains only tool results (no other content types)";
    /// 2025-11-25: tool-enabled sampling needs `sampling.tools`.
    LEGACY_SAMPLING_TOOLS = "legacy/sampling/tools", "2025-11-25", "client/sampling.mdx", "Tools in Sampling", MustNot,
        MultiRound, Any, probes(&["multi-round/legacy-capabilities"]),
        "Servers **MUST NOT** send tool-enabled sampling requests to Clients that have not declared support for tool use via the `sampling.tools` capability.";

    // ==== Tools, resources, prompts, completion, pagination ====
    /// A server with `tools` answers `tools/list`.
    TOOLS_LIST = "tools/list", "2026-07-28", "server/tools.mdx", "Capabilities", Must,
        Tools, Any, probes(&["lists/tools/list"]),
        "Servers that declare the `tools` capability **MUST** respond to `tools/list` requests with the set of tools currently available to the requesting client.";
    /// A server with `resources` answers `resources/list`.
    RESOURCES_LIST = "resources/list", "2026-07-28", "server/resources.mdx", "Capabilities", Must,
        Resources, Any, probes(&["lists/resources/list"]),
        "Servers that declare the `resources` capability **MUST** respond to `resources/list` requests with the set of resources currently available to the requesting client.";
    /// A server with `prompts` answers `prompts/list`.
    PROMPTS_LIST = "prompts/list", "2026-07-28", "server/prompts.mdx", "Capabilities", Must,
        Prompts, Any, probes(&["lists/prompts/list"]),
        "Servers that declare the `prompts` capability **MUST** respond to `prompts/list` requests with the set of prompts currently available to the requesting client.";
    /// An invalid cursor is -32602.
    INVALID_CURSOR = "pagination/invalid-cursor", "2026-07-28", "server/utilities/pagination.mdx", "Error Handling", Should,
        Pagination, Any, probes(&["lists/tools/list", "lists/resources/list", "lists/resources/templates/list", "lists/prompts/list"]),
        "Invalid cursors **SHOULD** result in an error with code -32602 (Invalid params).";
    /// `tools/list` comes in a deterministic order.
    TOOLS_DETERMINISTIC_ORDER = "tools/deterministic-order", "2026-07-28", "server/tools.mdx", "Capabilities", Should,
        Tools, Any, probes(&["lists/tools/list"]),
        "Servers **SHOULD** return tools in a deterministic order (i.e., the same ordering across requests when the underlying set of tools has not changed).";
    /// Tool names are unique.
    TOOL_NAMES_UNIQUE = "tools/names-unique", "2026-07-28", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["lists/tools/list"]),
        "Tool names **SHOULD** be unique within a server.";
    /// A tool's name is 1 to 128 characters long.
    TOOL_NAME_LENGTH = "tools/name-length", "2026-07-28", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Tool names **SHOULD** be between 1 and 128 characters in length (inclusive).";
    /// A tool's name uses only letters, digits, `_`, `-` and `.`.
    TOOL_NAME_CHARACTERS = "tools/name-characters", "2026-07-28", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "The following **SHOULD** be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (\\_), hyphen (-), and dot (.) […] Tool names **SHOULD NOT** contain spaces, commas, or other special characters.";
    /// Tool names are case-sensitive.
    TOOL_NAME_CASE = "tools/name-case-sensitive", "2026-07-28", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["tools/name-case"]),
        "Tool names **SHOULD** be considered case-sensitive.";
    /// The set of tools does not depend on the connection.
    TOOLS_SET_STABLE = "tools/set-not-per-connection", "2026-07-28", "server/tools.mdx", "Capabilities", MustNot,
        Tools, Any, outside("the set MAY change over time, so one client cannot tell a set that varies per connection or by side effect from one that changed"),
        "This set **MAY** be empty and **MAY** change over time (see List Changed Notification), but **MUST NOT** vary per-connection or as a side effect of other requests on the connection.";
    /// A server that has tools declares `tools`.
    TOOLS_CAPABILITY = "tools/capability-declared", "2026-07-28", "server/tools.mdx", "Capabilities", Must,
        Tools, Any, probes(&["capabilities/tools"]),
        "Servers that support tools **MUST** declare the `tools` capability:";
    /// A changed tool list is announced.
    TOOLS_LIST_CHANGED = "tools/list-changed", "2026-07-28", "server/tools.mdx", "List Changed Notification", Should,
        Tools, Any, outside("a client cannot make a server's tool list change"),
        "When the list of available tools changes, servers that declared the `listChanged` capability **SHOULD** send a notification to clients that have opened a `subscriptions/listen` stream with `toolsListChanged: true`:";
    /// A tool's input schema is a valid JSON Schema object.
    TOOL_INPUT_SCHEMA = "tools/input-schema", "2026-07-28", "server/tools.mdx", "Tool", Must,
        Tools, Any, probes(&["tools/input-schemas"]),
        "`inputSchema`: JSON Schema defining expected parameters. **MUST** be a valid JSON Schema object (not `null`)";
    /// An `x-mcp-header` is not empty.
    X_MCP_HEADER_NOT_EMPTY = "tools/x-mcp-header-not-empty", "2026-07-28", "server/tools.mdx", "x-mcp-header", MustNot,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Constraints on `x-mcp-header` values: **MUST NOT** be empty";
    /// An `x-mcp-header` is an HTTP field-name token.
    X_MCP_HEADER_TOKEN = "tools/x-mcp-header-token", "2026-07-28", "server/tools.mdx", "x-mcp-header", Must,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Constraints on `x-mcp-header` values: **MUST** match HTTP field-name token syntax (`1*tchar`, RFC 9110 Section 5.1)";
    /// An `x-mcp-header` has no control characters.
    X_MCP_HEADER_NO_CONTROL = "tools/x-mcp-header-no-control", "2026-07-28", "server/tools.mdx", "x-mcp-header", MustNot,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Constraints on `x-mcp-header` values: **MUST NOT** contain control characters, including carriage return (CR, `\\r`) or line feed (LF, `\\n`)";
    /// The `x-mcp-header` values of a schema differ, ignoring case.
    X_MCP_HEADER_UNIQUE = "tools/x-mcp-header-unique", "2026-07-28", "server/tools.mdx", "x-mcp-header", Must,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Constraints on `x-mcp-header` values: **MUST** be case-insensitively unique among all `x-mcp-header` values in the `inputSchema`";
    /// `x-mcp-header` only on integer, string and boolean properties.
    X_MCP_HEADER_PRIMITIVE = "tools/x-mcp-header-primitive", "2026-07-28", "server/tools.mdx", "x-mcp-header", Must,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Constraints on `x-mcp-header` values: **MUST** only be applied to parameters with primitive types (integer, string, boolean). Parameters with type `number` are not permitted.";
    /// `x-mcp-header` only on properties reached through `properties` alone.
    X_MCP_HEADER_REACHABLE = "tools/x-mcp-header-reachable", "2026-07-28", "server/tools.mdx", "x-mcp-header", Must,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Constraints on `x-mcp-header` values: **MUST** only be applied to properties that are _statically reachable_ from the schema root, as defined in Custom Headers from Tool Parameters, which also defines how header values are extracted from call arguments";
    /// A mirrored integer stays within the IEEE 754 safe range.
    X_MCP_HEADER_SAFE_INTEGER = "tools/x-mcp-header-safe-integer", "2026-07-28", "server/tools.mdx", "x-mcp-header", Must,
        Tools, Any, outside("about the values a client sends at call time, not a property of the tool definition a server lists"),
        "Integer values **MUST** be within the safe range for integers represented using IEEE754 double-precision floating point numbers (−2<sup>53</sup>+1 to 2<sup>53</sup>−1)";
    /// No sensitive parameter is mirrored into a header.
    X_MCP_HEADER_SENSITIVE = "tools/x-mcp-header-not-sensitive", "2026-07-28", "server/tools.mdx", "x-mcp-header", ShouldNot,
        Tools, Any, outside("whether a parameter is sensitive is the server's knowledge, not the checker's"),
        "Server developers **SHOULD NOT** mark sensitive parameters (passwords, API keys, tokens, PII) with `x-mcp-header`, as header values are visible to network intermediaries.";
    /// Embedded resources come with the `resources` capability.
    EMBEDDED_RESOURCES_CAPABILITY = "tools/embedded-resources-capability", "2026-07-28", "server/tools.mdx", "Embedded Resources", Should,
        Tools, Any, probes(&["tools/embedded-resources"]),
        "Servers that use embedded resources **SHOULD** implement the `resources` capability:";
    /// Schemas are valid in their dialect.
    SCHEMA_VALID = "schema/valid", "2026-07-28", "basic/index.mdx", "Schema Validation", Must,
        Tools, Any, probes(&["tools/definitions-and-unknown-tool"]),
        "Schemas **MUST** be valid according to their declared or default dialect";
    /// Validation follows the schema's dialect (an inclusive bound is inclusive).
    SCHEMA_DIALECT = "schema/validate-per-dialect", "2026-07-28", "basic/index.mdx", "Implementation Requirements", Must,
        Tools, Any, probes(&["tools/schema-cases"]),
        "Clients and servers **MUST** validate schemas according to their declared or default dialect.";
    /// 2025-11-25: validation follows the schema's dialect.
    LEGACY_SCHEMA_DIALECT = "legacy/schema/validate-per-dialect", "2025-11-25", "basic/index.mdx", "Implementation Requirements", Must,
        Tools, Any, probes(&["tools/schema-cases"]),
        "Clients and servers **MUST** validate schemas according to their declared or default dialect.";
    /// Structured results conform to the output schema.
    OUTPUT_SCHEMA = "tools/output-schema", "2026-07-28", "server/tools.mdx", "Output Schema", Must,
        Tools, Any, probes(&["tools/output-schema", "tools/properties"]),
        "Servers **MUST** provide structured results that conform to this schema.";
    /// Tool inputs are validated.
    VALIDATE_TOOL_INPUTS = "tools/validate-inputs", "2026-07-28", "server/tools.mdx", "Security Considerations", Must,
        Tools, Any, probes(&["tools/schema-cases", "tools/malformed-calls", "tools/properties"]),
        "Servers **MUST**: Validate all tool inputs";
    /// An unknown tool is a protocol error, not a result.
    TOOLS_UNKNOWN_TOOL = "tools/unknown-tool-error", "2026-07-28", "server/tools.mdx", "Error Handling", MustNot,
        Tools, Any, probes(&["tools/definitions-and-unknown-tool"]),
        "1. **Protocol Errors** indicate issues with the request structure itself that models are less likely to be able to fix: - Unknown tool […] They are returned as standard JSON-RPC errors (basic/index.mdx: all messages **MUST** follow the JSON-RPC 2.0 specification, whose §5 says of `result`: \"This member **MUST NOT** exist if there was an error invoking the method.\")";
    /// A tool's own errors are reported in its result, for the model to see.
    TOOL_ERRORS_IN_RESULT = "tools/errors-in-result", "2026-07-28", "schema.mdx", "CallToolResult", Should,
        Tools, Any, probes(&["tools/schema-cases", "results/shape-and-cache-hints"]),
        "Any errors that originate from the tool **SHOULD** be reported inside the result object, with `isError` set to true, _not_ as an MCP protocol-level error response. Otherwise, the LLM would not be able to see that an error occurred and self-correct. (server/tools.mdx §Error Handling: \"**Tool Execution Errors** contain actionable feedback that language models can use to self-correct\")";
    /// The rest of the servers' security list.
    TOOLS_SECURITY = "tools/security", "2026-07-28", "server/tools.mdx", "Security Considerations", Must,
        Tools, Any, outside("access control, rate limits and sanitizing are a server's inner workings; a black-box check must not flood a server to find its limit"),
        "Servers **MUST**: […] Implement proper access controls; Rate limit tool invocations; Sanitize tool outputs";
    /// A missing resource is -32602.
    RESOURCE_NOT_FOUND = "resources/not-found", "2026-07-28", "server/resources.mdx", "Error Handling", Must,
        Resources, Any, probes(&["resources/not-found"]),
        "If the requested resource does not exist, servers **MUST** return a JSON-RPC error with code `-32602` (Invalid Params).";
    /// A missing resource is never an empty result.
    RESOURCE_NOT_FOUND_EMPTY = "resources/not-found-not-empty", "2026-07-28", "server/resources.mdx", "Error Handling", MustNot,
        Resources, Any, probes(&["resources/not-found"]),
        "Servers **MUST NOT** return an empty `contents` array for a non-existent resource.";
    /// An internal error is -32603.
    RESOURCE_INTERNAL_ERROR = "resources/internal-error", "2026-07-28", "server/resources.mdx", "Error Handling", Should,
        Resources, Any, outside("a client cannot provoke an internal error on purpose"),
        "Servers **SHOULD** return `-32603` for internal errors.";
    /// Resource URIs are validated.
    RESOURCE_VALIDATE_URIS = "resources/validate-uris", "2026-07-28", "server/resources.mdx", "Security Considerations", Must,
        Resources, Any, probes(&["resources/not-found"]),
        "Servers **MUST** validate all resource URIs";
    /// A resource URI's scheme follows RFC 3986.
    RESOURCE_URI_SCHEME = "resources/uri-scheme", "2026-07-28", "server/resources.mdx", "Custom URI Schemes", Must,
        Resources, Any, outside("checked as base/schema: the schema gives `Resource.uri` the format `uri`, which results/shape-and-cache-hints checks in every resources/list result"),
        "Custom URI schemes **MUST** be in accordance with [RFC3986](https://datatracker.ietf.org/doc/html/rfc3986), taking the above guidance in to account.";
    /// `https://` only for what the client can fetch itself.
    RESOURCE_HTTPS_SCHEME = "resources/https-scheme", "2026-07-28", "server/resources.mdx", "https://", Should,
        Resources, Any, outside("whether the client could fetch a resource from the web on its own is the server's knowledge"),
        "Servers **SHOULD** use this scheme only when the client is able to fetch and load the resource directly from the web on its own—that is, it doesn’t need to read the resource via the MCP server. For other use cases, servers **SHOULD** prefer to use another URI scheme, or define a custom one, even if the server will itself be downloading resource contents over the internet.";
    /// Binary resource contents are base64.
    RESOURCE_BINARY_ENCODED = "resources/binary-encoded", "2026-07-28", "server/resources.mdx", "Security Considerations", Must,
        Resources, Any, probes(&["resources/contents"]),
        "Binary data **MUST** be properly encoded";
    /// Access control, permissions and paths.
    RESOURCES_SECURITY = "resources/security", "2026-07-28", "server/resources.mdx", "Security Considerations", Must,
        Resources, Any, outside("access control and permissions are a server's inner workings, and a check must not try directory traversal on a server's files"),
        "Access controls **SHOULD** be implemented for sensitive resources […] Resource permissions **SHOULD** be checked before operations […] Servers **MUST** sanitize file paths to prevent directory traversal attacks when serving `file://` resources";
    /// The set of resources does not depend on the connection.
    RESOURCES_SET_STABLE = "resources/set-not-per-connection", "2026-07-28", "server/resources.mdx", "Capabilities", MustNot,
        Resources, Any, outside("the set MAY change over time, so one client cannot tell a set that varies per connection or by side effect from one that changed"),
        "This set **MAY** be empty and **MAY** change over time (see List Changed Notification), but **MUST NOT** vary per-connection or as a side effect of other requests on the connection.";
    /// A server that has resources declares `resources`.
    RESOURCES_CAPABILITY = "resources/capability-declared", "2026-07-28", "server/resources.mdx", "Capabilities", Must,
        Resources, Any, probes(&["capabilities/resources"]),
        "Servers that support resources **MUST** declare the `resources` capability:";
    /// A changed resource list is announced.
    RESOURCES_LIST_CHANGED = "resources/list-changed", "2026-07-28", "server/resources.mdx", "List Changed Notification", Should,
        Resources, Any, outside("a client cannot make a server's resource list change"),
        "When the list of available resources changes, servers that declared the `listChanged` capability **SHOULD** send a notification:";
    /// Prompt errors are -32602.
    PROMPT_ERRORS = "prompts/errors", "2026-07-28", "server/prompts.mdx", "Error Handling", Should,
        Prompts, Any, probes(&["prompts/arguments"]),
        "Servers **SHOULD** return standard JSON-RPC errors for common failure cases: Invalid prompt name: `-32602` (Invalid params); Missing required arguments: `-32602` (Invalid params)";
    /// Prompt arguments are validated.
    PROMPT_VALIDATE_ARGUMENTS = "prompts/validate-arguments", "2026-07-28", "server/prompts.mdx", "Implementation Considerations", Should,
        Prompts, Any, outside("what a server validates is seen only in its answers to missing or unknown arguments, which prompts/errors holds it to"),
        "Servers **SHOULD** validate prompt arguments before processing";
    /// Prompt inputs and outputs are validated.
    PROMPTS_SECURITY = "prompts/security", "2026-07-28", "server/prompts.mdx", "Security", Must,
        Prompts, Any, outside("what counts as an injection is the server's knowledge"),
        "Implementations **MUST** carefully validate all prompt inputs and outputs to prevent injection attacks or unauthorized access to resources.";
    /// An image in a prompt is base64 with a MIME type.
    PROMPT_IMAGE = "prompts/image-content", "2026-07-28", "server/prompts.mdx", "Image Content", Must,
        Prompts, Any, probes(&["prompts/get"]),
        "The image data **MUST** be base64-encoded and include a valid MIME type.";
    /// An embedded resource has a URI, a MIME type and its contents.
    PROMPT_EMBEDDED_RESOURCE = "prompts/embedded-resource", "2026-07-28", "server/prompts.mdx", "Embedded Resources", Must,
        Prompts, Any, outside("the schema requires these fields: results/shape-and-cache-hints holds every prompts/get result to it, as base/schema"),
        "Resources can contain either text or binary (blob) data and **MUST** include: A valid resource URI; The appropriate MIME type; Either text content or base64-encoded blob data";
    /// The set of prompts does not depend on the connection.
    PROMPTS_SET_STABLE = "prompts/set-not-per-connection", "2026-07-28", "server/prompts.mdx", "Capabilities", MustNot,
        Prompts, Any, outside("the set MAY change over time, so one client cannot tell a set that varies per connection or by side effect from one that changed"),
        "This set **MAY** be empty and **MAY** change over time (see List Changed Notification), but **MUST NOT** vary per-connection or as a side effect of other requests on the connection.";
    /// A server that has prompts declares `prompts`.
    PROMPTS_CAPABILITY = "prompts/capability-declared", "2026-07-28", "server/prompts.mdx", "Capabilities", Must,
        Prompts, Any, probes(&["capabilities/prompts"]),
        "Servers that support prompts **MUST** declare the `prompts` capability in their `DiscoverResult`:";
    /// A changed prompt list is announced.
    PROMPTS_LIST_CHANGED = "prompts/list-changed", "2026-07-28", "server/prompts.mdx", "List Changed Notification", Should,
        Prompts, Any, outside("a client cannot make a server's prompt list change"),
        "When the list of available prompts changes, servers that declared the `listChanged` capability **SHOULD** send a notification to clients that have opened a `subscriptions/listen` stream with `promptsListChanged: true`:";
    /// Completion errors are -32602.
    COMPLETION_ERRORS = "completion/errors", "2026-07-28", "server/utilities/completion.mdx", "Error Handling", Should,
        Completion, Any, probes(&["completion/complete"]),
        "Servers **SHOULD** return standard JSON-RPC errors for common failure cases: […] Invalid prompt name: `-32602` (Invalid params)";
    /// A server that completes declares `completions`.
    COMPLETION_CAPABILITY = "completion/capability-declared", "2026-07-28", "server/utilities/completion.mdx", "Capabilities", Must,
        Completion, Any, outside("completion/complete answered without the capability is reported by the capabilities/completions probe under capabilities/respected"),
        "Servers that support completions **MUST** declare the `completions` capability:";
    /// Relevance, fuzzy matching, rate limits, validation.
    COMPLETION_CONSIDERATIONS = "completion/server-considerations", "2026-07-28", "server/utilities/completion.mdx", "Implementation Considerations", Should,
        Completion, Any, outside("relevance and fuzziness are judgements, and a check must not flood a server to find its rate limit"),
        "Servers **SHOULD**: Return suggestions sorted by relevance; Implement fuzzy matching where appropriate; Rate limit completion requests; Validate all inputs";
    /// Completion security.
    COMPLETION_SECURITY = "completion/security", "2026-07-28", "server/utilities/completion.mdx", "Security", Must,
        Completion, Any, outside("access control and disclosure are the server's knowledge, and a check must not flood a server to find its rate limit"),
        "Implementations **MUST**: Validate all completion inputs; Implement appropriate rate limiting; Control access to sensitive suggestions; Prevent completion-based information disclosure";
    /// Stable cursors (an invalid one is `pagination/invalid-cursor`).
    PAGINATION_STABLE_CURSORS = "pagination/stable-cursors", "2026-07-28", "server/utilities/pagination.mdx", "Implementation Guidelines", Should,
        Pagination, Any, probes(&["lists/tools/list", "lists/resources/list", "lists/resources/templates/list", "lists/prompts/list"]),
        "Servers **SHOULD**: Provide stable cursors; Handle invalid cursors gracefully";
    /// 2025-11-25: a tool's input schema is a valid JSON Schema object.
    LEGACY_TOOL_INPUT_SCHEMA = "legacy/tools/input-schema", "2025-11-25", "server/tools.mdx", "Tool", Must,
        Tools, Any, probes(&["tools/input-schemas"]),
        "`inputSchema`: JSON Schema defining expected parameters. **MUST** be a valid JSON Schema object (not `null`)";
    /// 2025-11-25: schemas are valid in their dialect.
    LEGACY_SCHEMA_VALID = "legacy/schema/valid", "2025-11-25", "basic/index.mdx", "Schema Validation", Must,
        Tools, Any, probes(&["tools/definitions-and-unknown-tool"]),
        "Schemas **MUST** be valid according to their declared or default dialect";
    /// 2025-11-25: structured results conform to the output schema.
    LEGACY_OUTPUT_SCHEMA = "legacy/tools/output-schema", "2025-11-25", "server/tools.mdx", "Output Schema", Must,
        Tools, Any, probes(&["tools/output-schema", "tools/properties"]),
        "Servers **MUST** provide structured results that conform to this schema.";
    /// 2025-11-25: tool inputs are validated.
    LEGACY_VALIDATE_TOOL_INPUTS = "legacy/tools/validate-inputs", "2025-11-25", "server/tools.mdx", "Security Considerations", Must,
        Tools, Any, probes(&["tools/schema-cases", "tools/malformed-calls", "tools/properties"]),
        "Servers **MUST**: Validate all tool inputs";
    /// 2025-11-25: an unknown tool is a protocol error, not a result.
    LEGACY_TOOLS_UNKNOWN_TOOL = "legacy/tools/unknown-tool-error", "2025-11-25", "server/tools.mdx", "Error Handling", MustNot,
        Tools, Any, probes(&["tools/definitions-and-unknown-tool"]),
        "1. **Protocol Errors**: Standard JSON-RPC errors for issues like: - Unknown tools […] (basic/index.mdx: all messages **MUST** follow the JSON-RPC 2.0 specification, whose §5 says of `result`: \"This member **MUST NOT** exist if there was an error invoking the method.\")";
    /// 2025-11-25: a tool's own errors are reported in its result, for the model to see.
    LEGACY_TOOL_ERRORS_IN_RESULT = "legacy/tools/errors-in-result", "2025-11-25", "schema.mdx", "CallToolResult", Should,
        Tools, Any, probes(&["tools/schema-cases", "results/shape-and-cache-hints"]),
        "Any errors that originate from the tool **SHOULD** be reported inside the result object, with `isError` set to true, _not_ as an MCP protocol-level error response. Otherwise, the LLM would not be able to see that an error occurred and self-correct. (server/tools.mdx §Error Handling: \"**Tool Execution Errors** contain actionable feedback that language models can use to self-correct\")";
    /// 2025-11-25: the rest of the servers' security list.
    LEGACY_TOOLS_SECURITY = "legacy/tools/security", "2025-11-25", "server/tools.mdx", "Security Considerations", Must,
        Tools, Any, outside("access control, rate limits and sanitizing are a server's inner workings; a black-box check must not flood a server to find its limit"),
        "Servers **MUST**: […] Implement proper access controls; Rate limit tool invocations; Sanitize tool outputs";
    /// 2025-11-25: an invalid cursor is -32602.
    LEGACY_INVALID_CURSOR = "legacy/pagination/invalid-cursor", "2025-11-25", "server/utilities/pagination.mdx", "Error Handling", Should,
        Pagination, Any, probes(&["lists/tools/list", "lists/resources/list", "lists/resources/templates/list", "lists/prompts/list"]),
        "Invalid cursors **SHOULD** result in an error with code -32602 (Invalid params).";
    /// 2025-11-25: stable cursors (an invalid one is `legacy/pagination/invalid-cursor`).
    LEGACY_PAGINATION_STABLE_CURSORS = "legacy/pagination/stable-cursors", "2025-11-25", "server/utilities/pagination.mdx", "Implementation Guidelines", Should,
        Pagination, Any, probes(&["lists/tools/list", "lists/resources/list", "lists/resources/templates/list", "lists/prompts/list"]),
        "Servers **SHOULD**: Provide stable cursors; Handle invalid cursors gracefully";
    /// 2025-11-25: tool names are unique.
    LEGACY_TOOL_NAMES_UNIQUE = "legacy/tools/names-unique", "2025-11-25", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["lists/tools/list"]),
        "Tool names **SHOULD** be unique within a server.";
    /// 2025-11-25: a tool's name is 1 to 128 characters long.
    LEGACY_TOOL_NAME_LENGTH = "legacy/tools/name-length", "2025-11-25", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "Tool names **SHOULD** be between 1 and 128 characters in length (inclusive).";
    /// 2025-11-25: a tool's name uses only letters, digits, `_`, `-` and `.`.
    LEGACY_TOOL_NAME_CHARACTERS = "legacy/tools/name-characters", "2025-11-25", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["tools/names-and-headers"]),
        "The following **SHOULD** be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (\\_), hyphen (-), and dot (.) […] Tool names **SHOULD NOT** contain spaces, commas, or other special characters.";
    /// 2025-11-25: tool names are case-sensitive.
    LEGACY_TOOL_NAME_CASE = "legacy/tools/name-case-sensitive", "2025-11-25", "server/tools.mdx", "Tool Names", Should,
        Tools, Any, probes(&["tools/name-case"]),
        "Tool names **SHOULD** be considered case-sensitive.";
    /// 2025-11-25: a server that has tools declares `tools`.
    LEGACY_TOOLS_CAPABILITY = "legacy/tools/capability-declared", "2025-11-25", "server/tools.mdx", "Capabilities", Must,
        Tools, Any, probes(&["capabilities/tools"]),
        "Servers that support tools **MUST** declare the `tools` capability:";
    /// 2025-11-25: a changed tool list is announced.
    LEGACY_TOOLS_LIST_CHANGED = "legacy/tools/list-changed", "2025-11-25", "server/tools.mdx", "List Changed Notification", Should,
        Tools, Any, outside("a client cannot make a server's tool list change"),
        "When the list of available tools changes, servers that declared the `listChanged` capability **SHOULD** send a notification:";
    /// 2025-11-25: embedded resources come with the `resources` capability.
    LEGACY_EMBEDDED_RESOURCES_CAPABILITY = "legacy/tools/embedded-resources-capability", "2025-11-25", "server/tools.mdx", "Embedded Resources", Should,
        Tools, Any, probes(&["tools/embedded-resources"]),
        "Servers that use embedded resources **SHOULD** implement the `resources` capability:";
    /// 2025-11-25: prompt errors are -32602.
    LEGACY_PROMPT_ERRORS = "legacy/prompts/errors", "2025-11-25", "server/prompts.mdx", "Error Handling", Should,
        Prompts, Any, probes(&["prompts/arguments"]),
        "Servers **SHOULD** return standard JSON-RPC errors for common failure cases: Invalid prompt name: `-32602` (Invalid params); Missing required arguments: `-32602` (Invalid params)";
    /// 2025-11-25: prompt arguments are validated.
    LEGACY_PROMPT_VALIDATE_ARGUMENTS = "legacy/prompts/validate-arguments", "2025-11-25", "server/prompts.mdx", "Implementation Considerations", Should,
        Prompts, Any, outside("what a server validates is seen only in its answers to missing or unknown arguments, which prompts/errors holds it to"),
        "Servers **SHOULD** validate prompt arguments before processing";
    /// 2025-11-25: prompt inputs and outputs are validated.
    LEGACY_PROMPTS_SECURITY = "legacy/prompts/security", "2025-11-25", "server/prompts.mdx", "Security", Must,
        Prompts, Any, outside("what counts as an injection is the server's knowledge"),
        "Implementations **MUST** carefully validate all prompt inputs and outputs to prevent injection attacks or unauthorized access to resources.";
    /// 2025-11-25: an image in a prompt is base64 with a MIME type.
    LEGACY_PROMPT_IMAGE = "legacy/prompts/image-content", "2025-11-25", "server/prompts.mdx", "Image Content", Must,
        Prompts, Any, probes(&["prompts/get"]),
        "The image data **MUST** be base64-encoded and include a valid MIME type.";
    /// 2025-11-25: an embedded resource has a URI, a MIME type and its contents.
    LEGACY_PROMPT_EMBEDDED_RESOURCE = "legacy/prompts/embedded-resource", "2025-11-25", "server/prompts.mdx", "Embedded Resources", Must,
        Prompts, Any, outside("the schema requires these fields: results/shape-and-cache-hints holds every prompts/get result to it, as base/schema"),
        "Resources can contain either text or binary (blob) data and **MUST** include: A valid resource URI; The appropriate MIME type; Either text content or base64-encoded blob data";
    /// 2025-11-25: a server that has prompts declares `prompts`.
    LEGACY_PROMPTS_CAPABILITY = "legacy/prompts/capability-declared", "2025-11-25", "server/prompts.mdx", "Capabilities", Must,
        Prompts, Any, probes(&["capabilities/prompts"]),
        "Servers that support prompts **MUST** declare the `prompts` capability during initialization:";
    /// 2025-11-25: a changed prompt list is announced.
    LEGACY_PROMPTS_LIST_CHANGED = "legacy/prompts/list-changed", "2025-11-25", "server/prompts.mdx", "List Changed Notification", Should,
        Prompts, Any, outside("a client cannot make a server's prompt list change"),
        "When the list of available prompts changes, servers that declared the `listChanged` capability **SHOULD** send a notification:";
    /// 2025-11-25: a missing resource is -32002.
    LEGACY_RESOURCE_NOT_FOUND = "legacy/resources/not-found", "2025-11-25", "server/resources.mdx", "Error Handling", Should,
        Resources, Any, probes(&["resources/not-found"]),
        "Servers **SHOULD** return standard JSON-RPC errors for common failure cases: Resource not found: `-32002`";
    /// 2025-11-25: resource URIs are validated.
    LEGACY_RESOURCE_VALIDATE_URIS = "legacy/resources/validate-uris", "2025-11-25", "server/resources.mdx", "Security Considerations", Must,
        Resources, Any, probes(&["resources/not-found"]),
        "Servers **MUST** validate all resource URIs";
    /// 2025-11-25: a resource URI's scheme follows RFC 3986.
    LEGACY_RESOURCE_URI_SCHEME = "legacy/resources/uri-scheme", "2025-11-25", "server/resources.mdx", "Custom URI Schemes", Must,
        Resources, Any, outside("checked as base/schema: the schema gives `Resource.uri` the format `uri`, which results/shape-and-cache-hints checks in every resources/list result"),
        "Custom URI schemes **MUST** be in accordance with [RFC3986](https://datatracker.ietf.org/doc/html/rfc3986), taking the above guidance in to account.";
    /// 2025-11-25: `https://` only for what the client can fetch itself.
    LEGACY_RESOURCE_HTTPS_SCHEME = "legacy/resources/https-scheme", "2025-11-25", "server/resources.mdx", "https://", Should,
        Resources, Any, outside("whether the client could fetch a resource from the web on its own is the server's knowledge"),
        "Servers **SHOULD** use this scheme only when the client is able to fetch and load the resource directly from the web on its own—that is, it doesn’t need to read the resource via the MCP server. For other use cases, servers **SHOULD** prefer to use another URI scheme, or define a custom one, even if the server will itself be downloading resource contents over the internet.";
    /// 2025-11-25: binary resource contents are base64.
    LEGACY_RESOURCE_BINARY_ENCODED = "legacy/resources/binary-encoded", "2025-11-25", "server/resources.mdx", "Security Considerations", Must,
        Resources, Any, probes(&["resources/contents"]),
        "Binary data **MUST** be properly encoded";
    /// 2025-11-25: access control and permissions.
    LEGACY_RESOURCES_SECURITY = "legacy/resources/security", "2025-11-25", "server/resources.mdx", "Security Considerations", Should,
        Resources, Any, outside("access control and permissions are a server's inner workings"),
        "Access controls **SHOULD** be implemented for sensitive resources […] Resource permissions **SHOULD** be checked before operations";
    /// 2025-11-25: a server that has resources declares `resources`.
    LEGACY_RESOURCES_CAPABILITY = "legacy/resources/capability-declared", "2025-11-25", "server/resources.mdx", "Capabilities", Must,
        Resources, Any, probes(&["capabilities/resources"]),
        "Servers that support resources **MUST** declare the `resources` capability:";
    /// 2025-11-25: a changed resource list is announced.
    LEGACY_RESOURCES_LIST_CHANGED = "legacy/resources/list-changed", "2025-11-25", "server/resources.mdx", "List Changed Notification", Should,
        Resources, Any, outside("a client cannot make a server's resource list change"),
        "When the list of available resources changes, servers that declared the `listChanged` capability **SHOULD** send a notification:";
    /// 2025-11-25: completion errors are -32602.
    LEGACY_COMPLETION_ERRORS = "legacy/completion/errors", "2025-11-25", "server/utilities/completion.mdx", "Error Handling", Should,
        Completion, Any, probes(&["completion/complete"]),
        "Servers **SHOULD** return standard JSON-RPC errors for common failure cases: […] Invalid prompt name: `-32602` (Invalid params)";
    /// 2025-11-25: a server that completes declares `completions`.
    LEGACY_COMPLETION_CAPABILITY = "legacy/completion/capability-declared", "2025-11-25", "server/utilities/completion.mdx", "Capabilities", Must,
        Completion, Any, outside("completion/complete answered without the capability is reported by the capabilities/completions probe under capabilities/respected"),
        "Servers that support completions **MUST** declare the `completions` capability:";
    /// 2025-11-25: relevance, fuzzy matching, rate limits, validation.
    LEGACY_COMPLETION_CONSIDERATIONS = "legacy/completion/server-considerations", "2025-11-25", "server/utilities/completion.mdx", "Implementation Considerations", Should,
        Completion, Any, outside("relevance and fuzziness are judgements, and a check must not flood a server to find its rate limit"),
        "Servers **SHOULD**: Return suggestions sorted by relevance; Implement fuzzy matching where appropriate; Rate limit completion requests; Validate all inputs";
    /// 2025-11-25: completion security.
    LEGACY_COMPLETION_SECURITY = "legacy/completion/security", "2025-11-25", "server/utilities/completion.mdx", "Security", Must,
        Completion, Any, outside("access control and disclosure are the server's knowledge, and a check must not flood a server to find its rate limit"),
        "Implementations **MUST**: Validate all completion inputs; Implement appropriate rate limiting; Control access to sensitive suggestions; Prevent completion-based information disclosure";

    // ==== Transports: stdio, Streamable HTTP ====
    /// stdout carries MCP messages only.
    STDIO_STDOUT = "stdio/stdout-messages-only", "2026-07-28", "basic/transports/stdio.mdx", "stdio", MustNot,
        Stdio, Stdio, probes(&["transport/hygiene"]),
        "The server **MUST NOT** write anything to its `stdout` that is not a valid MCP message.";
    /// 2025-11-25: stdout carries MCP messages only.
    LEGACY_STDIO_STDOUT = "legacy/stdio/stdout-messages-only", "2025-11-25", "basic/transports.mdx", "stdio", MustNot,
        Stdio, Stdio, probes(&["transport/hygiene"]),
        "The server **MUST NOT** write anything to its `stdout` that is not a valid MCP message.";
    /// One message per line: a message broken over several lines.
    STDIO_NO_EMBEDDED_NEWLINES = "stdio/no-embedded-newlines", "2026-07-28", "basic/transports/stdio.mdx", "stdio", MustNot,
        Stdio, Stdio, probes(&["transport/hygiene"]),
        "Messages are delimited by newlines, and **MUST NOT** contain embedded newlines.";
    /// 2025-11-25: one message per line.
    LEGACY_STDIO_NO_EMBEDDED_NEWLINES = "legacy/stdio/no-embedded-newlines", "2025-11-25", "basic/transports.mdx", "stdio", MustNot,
        Stdio, Stdio, probes(&["transport/hygiene"]),
        "Messages are delimited by newlines, and **MUST NOT** contain embedded newlines.";
    /// A 2026-07-28 server never sends requests on stdio.
    STDIO_NO_REQUESTS = "stdio/no-requests", "2026-07-28", "basic/transports/stdio.mdx", "Receiving Messages", MustNot,
        Stdio, Stdio, probes(&["transport/hygiene"]),
        "The server **MUST NOT** write JSON-RPC _requests_ to `stdout`.";
    /// A server exits when stdin closes.
    STDIO_EXIT_ON_EOF = "stdio/exit-on-eof", "2026-07-28", "basic/transports/stdio.mdx", "Shutdown", Should,
        Stdio, Stdio, probes(&["transport/shutdown"]),
        "Servers **SHOULD** exit promptly when their standard input is closed or reads return end-of-file.";
    /// Nothing more for a cancelled request.
    CANCELLED_SILENT = "cancellation/no-further-messages", "2026-07-28", "basic/transports/stdio.mdx", "Cancellation", MustNot,
        Stdio, Stdio, outside("check never cancels a request it still waits for, so a message after a cancellation is never provoked"),
        "Servers **SHOULD** stop work on a cancelled request as soon as practical and **MUST NOT** send any further messages for it.";
    /// Messages are UTF-8.
    UTF8 = "transport/utf-8", "2026-07-28", "basic/transports/index.mdx", "Messages", Must,
        Base, Any, probes(&["transport/hygiene"]),
        "JSON-RPC messages **MUST** be UTF-8 encoded.";
    /// 2025-11-25: messages are UTF-8.
    LEGACY_UTF8 = "legacy/transport/utf-8", "2025-11-25", "basic/transports.mdx", "Transports", Must,
        Base, Any, probes(&["transport/hygiene"]),
        "JSON-RPC messages **MUST** be UTF-8 encoded.";
    /// Custom transports keep the message format.
    CUSTOM_TRANSPORTS = "transport/custom", "2026-07-28", "basic/transports/index.mdx", "Custom Transports", Must,
        Base, Any, outside("check speaks only stdio and Streamable HTTP, so a custom transport is never reached"),
        "Implementers who choose to support custom transports **MUST** preserve the JSON-RPC message format, the [message patterns](/specification/2026-07-28/basic/patterns), and the per-request metadata model. Custom transports **SHOULD** document their connection establishment, message framing, and cancellation patterns to aid interoperability.";
    /// 2025-11-25: custom transports keep the message format.
    LEGACY_CUSTOM_TRANSPORTS = "legacy/transport/custom", "2025-11-25", "basic/transports.mdx", "Custom Transports", Must,
        Base, Any, outside("check speaks only stdio and Streamable HTTP, so a custom transport is never reached"),
        "Implementers who choose to support custom transports **MUST** ensure they preserve the JSON-RPC message format and lifecycle requirements defined by MCP. Custom transports **SHOULD** document their specific connection establishment and message exchange patterns to aid interoperability.";
    /// One MCP endpoint that takes POST.
    HTTP_ENDPOINT = "http/endpoint", "2026-07-28", "basic/transports/streamable-http.mdx", "Streamable HTTP", Must,
        Http, Http, outside("check reaches an HTTP server only through the endpoint it is given: without one answering POST there is nothing to check"),
        "The server **MUST** provide a single HTTP endpoint path (hereafter referred to as the **MCP endpoint**) that supports POST.";
    /// 2025-11-25: one MCP endpoint that takes POST and GET.
    LEGACY_HTTP_ENDPOINT = "legacy/http/endpoint", "2025-11-25", "basic/transports.mdx", "Streamable HTTP", Must,
        Http, Http, outside("check reaches an HTTP server only through the endpoint it is given; what GET answers is legacy/http/get-stream"),
        "The server **MUST** provide a single HTTP endpoint path (hereafter referred to as the **MCP endpoint**) that supports both POST and GET methods.";
    /// A foreign `Origin` is refused with 403.
    HTTP_ORIGIN = "http/origin", "2026-07-28", "basic/transports/streamable-http.mdx", "Security & Endpoint", Must,
        Http, Http, probes(&["http/origin"]),
        "Servers **MUST** validate the `Origin` header on all incoming connections to prevent DNS rebinding attacks. - If the `Origin` header is present and invalid, servers **MUST** respond with HTTP 403 Forbidden.";
    /// 2025-11-25: a foreign `Origin` is refused with 403.
    LEGACY_HTTP_ORIGIN = "legacy/http/origin", "2025-11-25", "basic/transports.mdx", "Security Warning", Must,
        Http, Http, probes(&["http/origin"]),
        "Servers **MUST** validate the `Origin` header on all incoming connections to prevent DNS rebinding attacks - If the `Origin` header is present and invalid, servers **MUST** respond with HTTP 403 Forbidden.";
    /// Local servers listen on localhost.
    HTTP_BIND_LOCALHOST = "http/bind-localhost", "2026-07-28", "basic/transports/streamable-http.mdx", "Security & Endpoint", Should,
        Http, Http, outside("which interfaces a server listens on is seen only on its host, not through the URL check is given"),
        "When running locally, servers **SHOULD** bind only to localhost (127.0.0.1) rather than all network interfaces (0.0.0.0).";
    /// 2025-11-25: local servers listen on localhost.
    LEGACY_HTTP_BIND_LOCALHOST = "legacy/http/bind-localhost", "2025-11-25", "basic/transports.mdx", "Security Warning", Should,
        Http, Http, outside("which interfaces a server listens on is seen only on its host, not through the URL check is given"),
        "When running locally, servers **SHOULD** bind only to localhost (127.0.0.1) rather than all network interfaces (0.0.0.0)";
    /// Connections are authenticated.
    HTTP_AUTHENTICATION = "http/authentication", "2026-07-28", "basic/transports/streamable-http.mdx", "Security & Endpoint", Should,
        Http, Http, outside("whether authentication is proper for a deployment is not for a client to judge; a local test server rightly has none"),
        "Servers **SHOULD** implement proper authentication for all connections.";
    /// 2025-11-25: connections are authenticated.
    LEGACY_HTTP_AUTHENTICATION = "legacy/http/authentication", "2025-11-25", "basic/transports.mdx", "Security Warning", Should,
        Http, Http, outside("whether authentication is proper for a deployment is not for a client to judge; a local test server rightly has none"),
        "Servers **SHOULD** implement proper authentication for all connections";
    /// A notification POST is 202 with no body, or an HTTP error.
    HTTP_NOTIFICATION_202 = "http/notification-202", "2026-07-28", "basic/transports/streamable-http.mdx", "Sending Messages", Must,
        Http, Http, probes(&["http/responses"]),
        "If the body is a JSON-RPC _notification_: - If the server accepts it, the server **MUST** return HTTP status code `202 Accepted` with no body. - If the server cannot accept it, it **MUST** return an HTTP error status code (e.g., `400 Bad Request`).";
    /// 2025-11-25: a notification or response POST is 202 with no body, or an HTTP error.
    LEGACY_HTTP_NOTIFICATION_202 = "legacy/http/notification-202", "2025-11-25", "basic/transports.mdx", "Sending Messages to the Server", Must,
        Http, Http, probes(&["http/responses"]),
        "If the input is a JSON-RPC _response_ or _notification_: - If the server accepts the input, the server **MUST** return HTTP status code 202 Accepted with no body. - If the server cannot accept the input, it **MUST** return an HTTP error status code (e.g., 400 Bad Request).";
    /// Over HTTP, a request is answered with JSON or SSE.
    HTTP_CONTENT_TYPE = "http/content-type", "2026-07-28", "basic/transports/streamable-http.mdx", "Sending Messages", Must,
        Http, Http, probes(&["http/responses"]),
        "If the body is a JSON-RPC _request_, the server **MUST** return either `Content-Type: application/json` (a single JSON object) or `Content-Type: text/event-stream` (an SSE response stream).";
    /// 2025-11-25: a request is answered with JSON or SSE.
    LEGACY_HTTP_CONTENT_TYPE = "legacy/http/content-type", "2025-11-25", "basic/transports.mdx", "Sending Messages to the Server", Must,
        Http, Http, probes(&["http/responses"]),
        "If the input is a JSON-RPC _request_, the server **MUST** either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object.";
    /// Notifications on a request's stream relate to it.
    HTTP_STREAM_RELATED = "http/stream-notifications-related", "2026-07-28", "basic/transports/streamable-http.mdx", "Receiving Messages", Must,
        Http, Http, probes(&["http/stream-notifications"]),
        "The server **MAY** send JSON-RPC _notifications_ — for example, [`notifications/progress`][notifications-progress] or [`notifications/message`][notifications-message] — before the final response. These notifications **MUST** relate to the originating client request.";
    /// No server requests on a response stream.
    HTTP_NO_REQUESTS = "http/no-requests-on-stream", "2026-07-28", "basic/transports/streamable-http.mdx", "Receiving Messages", MustNot,
        Http, Http, probes(&["http/responses"]),
        "The server **MUST NOT** send independent JSON-RPC _requests_ on this stream.";
    /// The response ends the stream.
    HTTP_RESPONSE_ENDS_STREAM = "http/response-ends-stream", "2026-07-28", "basic/transports/streamable-http.mdx", "Receiving Messages", Should,
        Http, Http, probes(&["http/responses", "transport/hygiene"]),
        "The final JSON-RPC _response_ **SHOULD** terminate the stream.";
    /// 2025-11-25: the response ends the stream.
    LEGACY_HTTP_RESPONSE_ENDS_STREAM = "legacy/http/response-ends-stream", "2025-11-25", "basic/transports.mdx", "Sending Messages to the Server", Should,
        Http, Http, probes(&["http/responses", "transport/hygiene"]),
        "After the JSON-RPC _response_ has been sent, the server **SHOULD** terminate the SSE stream.";
    /// SSE replies turn proxy buffering off.
    HTTP_X_ACCEL_BUFFERING = "http/x-accel-buffering", "2026-07-28", "basic/transports/streamable-http.mdx", "Receiving Messages", Should,
        Http, Http, probes(&["http/responses"]),
        "When initiating an SSE stream, servers **SHOULD** include the `X-Accel-Buffering: no` header in the HTTP response.";
    /// Closing a response stream cancels the request.
    HTTP_CANCEL_ON_CLOSE = "http/cancel-on-close", "2026-07-28", "basic/transports/streamable-http.mdx", "Cancellation", Must,
        Http, Http, outside("what the server does with the work of a closed stream is internal, and once the stream is closed no further message can reach the client on it"),
        "Closing the SSE response stream **MUST** be treated by the server as cancellation of that request. […] The server **SHOULD** stop work on the cancelled request as soon as practical and **MUST NOT** send any further messages for it.";
    /// Over HTTP, a header that disagrees with the body is refused.
    HTTP_HEADER_MISMATCH = "http/header-mismatch", "2026-07-28", "basic/transports/streamable-http.mdx", "Server Validation", Must,
        Http, Http, probes(&["http/header-mirroring", "http/name-header-mismatch"]),
        "Servers that process the request body **MUST** reject requests where the values specified in the headers do not match the corresponding values in the request body. […] When rejecting a request due to header validation failure, servers **MUST** return HTTP status `400 Bad Request` and **MUST** include a JSON-RPC error response using the following error code: `-32020` (HeaderMismatch).";
    /// A missing standard header is refused like a mismatch.
    HTTP_HEADER_MISSING = "http/header-missing", "2026-07-28", "basic/transports/streamable-http.mdx", "Server Validation", Must,
        Http, Http, probes(&["http/header-mirroring"]),
        "When rejecting a request due to header validation failure, servers **MUST** return HTTP status `400 Bad Request` and **MUST** include a JSON-RPC error response using the following error code: […] Validation failure conditions include: - A required standard header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) is missing.";
    /// `MCP-Protocol-Version` must agree with `_meta`.
    HTTP_VERSION_HEADER_MISMATCH = "http/version-header-mismatch", "2026-07-28", "basic/transports/streamable-http.mdx", "Protocol Version Header", Must,
        Http, Http, probes(&["http/header-mirroring"]),
        "The header value **MUST** match the `io.modelcontextprotocol/protocolVersion` field carried in the request body's `_meta`. If the values do not match, the server **MUST** reject the request with `400 Bad Request` and a `HeaderMismatch` JSON-RPC error (see [Server Validation](#server-validation)).";
    /// A modern-only server refuses a request without `MCP-Protocol-Version`.
    HTTP_VERSION_HEADER_MISSING = "http/version-header-missing", "2026-07-28", "basic/transports/streamable-http.mdx", "Protocol Version Header", Must,
        Http, Http, probes(&["http/header-mirroring"]),
        "A server that supports clients implementing protocol versions earlier than `2025-06-18` (which did not define the `MCP-Protocol-Version` header) **MAY** treat a request that omits the header as protocol version `2025-03-26`. A server that does not support such clients **MUST** reject a request without the header per [Server Validation](#server-validation).";
    /// Base64-sentinel header values are decoded before comparing.
    HTTP_DECODE_BASE64 = "http/decode-base64", "2026-07-28", "basic/transports/streamable-http.mdx", "Value Encoding", Must,
        Http, Http, probes(&["http/header-mirroring"]),
        "In particular, servers **MUST** decode an encoded `Mcp-Name` or `Mcp-Param-{Name}` value before comparing it to the corresponding request body value during [Server Validation](#server-validation).";
    /// `Mcp-Param-*` headers are validated against the arguments.
    HTTP_PARAM_HEADERS = "http/param-headers", "2026-07-28", "basic/transports/streamable-http.mdx", "Server Behavior for Custom Headers", Must,
        Http, Http, probes(&["http/param-headers"]),
        "Servers **MUST** reject requests with a recognized `Mcp-Param-{Name}` header that contains invalid characters (see [Value Encoding](#value-encoding)). Any server that processes the message body **MUST** validate that encoded header values, after decoding if Base64-encoded, match the corresponding values in the request body. Servers **MUST** reject requests with a `400 Bad Request` HTTP status and JSON-RPC error code `-32020` (`HeaderMismatch`) if any validation fails.";
    /// Integer parameters compare numerically.
    HTTP_PARAM_NUMERIC = "http/param-numeric", "2026-07-28", "basic/transports/streamable-http.mdx", "Server Validation", Should,
        Http, Http, probes(&["http/param-headers"]),
        "When validating integer parameter values, servers **SHOULD** compare the header value and the body value numerically rather than as strings (e.g., `42.0` and `42` are considered equal).";
    /// `x-mcp-header` annotations follow their constraints.
    HTTP_X_MCP_HEADER = "http/x-mcp-header-valid", "2026-07-28", "basic/transports/streamable-http.mdx", "Schema Extension", Must,
        Tools, Any, outside("the same constraints are rows of server/tools.mdx (tools/x-mcp-header-*), whose probe checks every listed tool; checking them twice would report each broken annotation twice"),
        "**Constraints on `x-mcp-header` values**: - **MUST NOT** be empty - **MUST** match HTTP field-name token syntax (`1*tchar`, [RFC 9110 Section 5.1](https://datatracker.ietf.org/doc/html/rfc9110#section-5.1)) - **MUST NOT** contain control characters, including carriage return (CR, `\r`) or line feed (LF, `\n`) - **MUST** be case-insensitively unique among all `x-mcp-header` values in the `inputSchema` - **MUST** only be applied to parameters with primitive types (integer, string, boolean).";
    /// Header names compare case-insensitively.
    HTTP_HEADER_CASE = "http/header-name-case", "2026-07-28", "basic/transports/streamable-http.mdx", "Case Sensitivity", Must,
        Http, Http, probes(&["http/header-name-case"]),
        "Clients and servers **MUST** use case-insensitive comparisons for header names.";
    /// An unsupported version in the header is 400 with -32022.
    HTTP_UNSUPPORTED_VERSION = "http/unsupported-version", "2026-07-28", "basic/transports/streamable-http.mdx", "Protocol Version Header", Must,
        Http, Http, probes(&["http/status-codes"]),
        "If the server does not implement the requested protocol version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it **MUST** respond with `400 Bad Request` and an [`UnsupportedProtocolVersionError`][unsupported-version] listing its supported versions.";
    /// 2025-11-25: an unsupported version header is 400.
    LEGACY_HTTP_UNSUPPORTED_VERSION = "legacy/http/unsupported-version", "2025-11-25", "basic/transports.mdx", "Protocol Version Header", Must,
        Http, Http, probes(&["http/status-codes"]),
        "If the server receives a request with an invalid or unsupported `MCP-Protocol-Version`, it **MUST** respond with `400 Bad Request`.";
    /// An unknown method is 404 with -32601.
    HTTP_METHOD_NOT_FOUND = "http/method-not-found-404", "2026-07-28", "basic/transports/streamable-http.mdx", "Protocol Version Header", Must,
        Http, Http, probes(&["http/status-codes"]),
        "If the server does not implement the requested RPC method, it **MUST** respond with `404 Not Found` and a JSON-RPC error with code `-32601` (`Method not found`).";
    /// A modern-only server answers GET and DELETE with 405.
    HTTP_GET_DELETE_405 = "http/get-delete-405", "2026-07-28", "basic/transports/streamable-http.mdx", "Earlier Streamable HTTP Revisions", Should,
        Http, Http, probes(&["http/earlier-revisions"]),
        "A server that supports only this revision and receives such traffic from an older client **SHOULD** respond as follows: - HTTP GET or DELETE to the MCP endpoint: respond with `405 Method Not Allowed`.";
    /// A modern-only server has no sessions.
    HTTP_NO_SESSIONS = "http/no-sessions", "2026-07-28", "basic/transports/streamable-http.mdx", "Earlier Streamable HTTP Revisions", Should,
        Http, Http, probes(&["http/earlier-revisions"]),
        "A server that supports only this revision and receives such traffic from an older client **SHOULD** respond as follows: […] - An `Mcp-Session-Id` header on a request: ignore it, and do not mint or echo session IDs.";
    /// A modern-only server ignores `Last-Event-ID`.
    HTTP_LAST_EVENT_ID = "http/last-event-id-ignored", "2026-07-28", "basic/transports/streamable-http.mdx", "Earlier Streamable HTTP Revisions", Should,
        Http, Http, probes(&["http/earlier-revisions"]),
        "A server that supports only this revision and receives such traffic from an older client **SHOULD** respond as follows: […] - A `Last-Event-ID` header: ignore it; streams are not resumable.";
    /// The deprecated HTTP+SSE transport.
    HTTP_SSE_DEPRECATED = "http/http-sse-deprecated", "2026-07-28", "basic/transports/streamable-http.mdx", "HTTP+SSE Transport (2024-11-05)", ShouldNot,
        Http, Http, outside("check speaks Streamable HTTP only; whether a server also hosts the 2024-11-05 endpoints is not probed"),
        "New implementations **SHOULD NOT** adopt it; existing implementations **SHOULD** migrate to [Streamable HTTP](/specification/2026-07-28/basic/transports/streamable-http).";
    /// 2025-11-25: GET opens a stream or is 405.
    LEGACY_HTTP_GET_STREAM = "legacy/http/get-stream", "2025-11-25", "basic/transports.mdx", "Listening for Messages from the Server", Must,
        Http, Http, probes(&["http/earlier-revisions"]),
        "The server **MUST** either return `Content-Type: text/event-stream` in response to this HTTP GET, or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this endpoint.";
    /// 2025-11-25: the GET stream carries no responses.
    LEGACY_HTTP_GET_NO_RESPONSES = "legacy/http/get-no-responses", "2025-11-25", "basic/transports.mdx", "Listening for Messages from the Server", MustNot,
        Http, Http, probes(&["legacy/http/streams"]),
        "The server **MUST NOT** send a JSON-RPC _response_ on the stream **unless** [resuming](#resumability-and-redelivery) a stream associated with a previous client request.";
    /// 2025-11-25: SSE priming event.
    LEGACY_HTTP_SSE_PRIMING = "legacy/http/sse-priming", "2025-11-25", "basic/transports.mdx", "Sending Messages to the Server", Should,
        Http, Http, probes(&["legacy/http/streams"]),
        "The server **SHOULD** immediately send an SSE event consisting of an event ID and an empty `data` field in order to prime the client to reconnect (using that event ID as `Last-Event-ID`).";
    /// 2025-11-25: `retry` before closing a connection.
    LEGACY_HTTP_SSE_RETRY = "legacy/http/sse-retry", "2025-11-25", "basic/transports.mdx", "Sending Messages to the Server", Should,
        Http, Http, probes(&["legacy/http/streams"]),
        "If the server does close the _connection_ prior to terminating the _SSE stream_, it **SHOULD** send an SSE event with a standard [`retry`](https://html.spec.whatwg.org/multipage/server-sent-events.html#:~:text=field%20name%20is%20%22retry%22) field before closing the connection.";
    /// 2025-11-25: messages on a request's stream relate to it.
    LEGACY_HTTP_STREAM_RELATED = "legacy/http/stream-messages-related", "2025-11-25", "basic/transports.mdx", "Sending Messages to the Server", Should,
        Http, Http, probes(&["legacy/http/streams"]),
        "The SSE stream **SHOULD** eventually include a JSON-RPC _response_ for the JSON-RPC _request_ sent in the POST body. - The server **MAY** send JSON-RPC _requests_ and _notifications_ before sending the JSON-RPC _response_. These messages **SHOULD** relate to the originating client _request_.";
    /// 2025-11-25: one stream per message.
    LEGACY_HTTP_NO_BROADCAST = "legacy/http/no-broadcast", "2025-11-25", "basic/transports.mdx", "Multiple Connections", MustNot,
        Http, Http, probes(&["legacy/http/streams"]),
        "The server **MUST** send each of its JSON-RPC messages on only one of the connected streams; that is, it **MUST NOT** broadcast the same message across multiple streams.";
    /// 2025-11-25: event IDs are unique.
    LEGACY_HTTP_EVENT_IDS = "legacy/http/event-ids", "2025-11-25", "basic/transports.mdx", "Resumability and Redelivery", Must,
        Http, Http, probes(&["legacy/http/streams"]),
        "If present, the ID **MUST** be globally unique across all streams within that [session](#session-management)—or all streams with that specific client, if session management is not in use. - Event IDs **SHOULD** encode sufficient information to identify the originating stream, enabling the server to correlate a `Last-Event-ID` to the correct stream.";
    /// 2025-11-25: no replay across streams.
    LEGACY_HTTP_NO_CROSS_REPLAY = "legacy/http/no-cross-replay", "2025-11-25", "basic/transports.mdx", "Resumability and Redelivery", MustNot,
        Http, Http, probes(&["legacy/http/streams"]),
        "The server **MUST NOT** replay messages that would have been delivered on a different stream.";
    /// 2025-11-25: session IDs are visible ASCII.
    LEGACY_HTTP_SESSION_ID_ASCII = "legacy/http/session-id-ascii", "2025-11-25", "basic/transports.mdx", "Session Management", Must,
        Http, Http, probes(&["http/earlier-revisions"]),
        "The session ID **MUST** only contain visible ASCII characters (ranging from 0x21 to 0x7E).";
    /// 2025-11-25: session IDs are unguessable.
    LEGACY_HTTP_SESSION_ID_SECURE = "legacy/http/session-id-secure", "2025-11-25", "basic/transports.mdx", "Session Management", Should,
        Http, Http, outside("whether an ID is cryptographically secure cannot be told from a few samples"),
        "The session ID **SHOULD** be globally unique and cryptographically secure (e.g., a securely generated UUID, a JWT, or a cryptographic hash).";
    /// 2025-11-25: a request without the required session is 400.
    LEGACY_HTTP_SESSION_REQUIRED = "legacy/http/session-required-400", "2025-11-25", "basic/transports.mdx", "Session Management", Should,
        Http, Http, probes(&["http/earlier-revisions"]),
        "Servers that require a session ID **SHOULD** respond to requests without an `MCP-Session-Id` header (other than initialization) with HTTP 400 Bad Request.";
    /// 2025-11-25: a terminated session is 404.
    LEGACY_HTTP_SESSION_TERMINATED = "legacy/http/session-terminated-404", "2025-11-25", "basic/transports.mdx", "Session Management", Must,
        Http, Http, probes(&["http/earlier-revisions"]),
        "The server **MAY** terminate the session at any time, after which it **MUST** respond to requests containing that session ID with HTTP 404 Not Found.";
    /// 2025-11-25: no version header means 2025-03-26.
    LEGACY_HTTP_ASSUME_2025_03_26 = "legacy/http/assume-2025-03-26", "2025-11-25", "basic/transports.mdx", "Protocol Version Header", Should,
        Http, Http, outside("which revision a server assumes shows only where 2025-03-26 and later revisions answer differently, which no probe provokes"),
        "For backwards compatibility, if the server does _not_ receive an `MCP-Protocol-Version` header, and has no other way to identify the version - for example, by relying on the protocol version negotiated during initialization - the server **SHOULD** assume protocol version `2025-03-26`.";


    // ==== The tasks extension (io.modelcontextprotocol/tasks), specification/draft/tasks.md ====
    /// No task handle for a request that did not declare the extension.
    TASKS_NOT_UNDECLARED = "tasks/no-task-for-undeclared", "ext-tasks", "specification/draft/tasks.md", "Capability Negotiation", MustNot,
        Tasks, Any, probes(&["tasks/undeclared"]),
        "A server **MUST NOT** return `CreateTaskResult` to a client that did not include the extension capability on its request, regardless of prior declarations.";
    /// A call that needs a task answers -32021 to a client without the extension.
    TASKS_REQUIRED_CAPABILITY = "tasks/required-capability", "ext-tasks", "specification/draft/tasks.md", "Capability Negotiation", Must,
        Tasks, Any, probes(&["tasks/required"]),
        "If a server is unable to service a request to a client that does not declare this extension capability without returning `CreateTaskResult`, the server **MUST** return an error with the code `-32021` (Missing Required Client Capability), indicating the required extension in the error response";
    /// `resultType: "task"` on a task handle, and only there.
    TASKS_RESULT_TYPE = "tasks/result-type-task", "ext-tasks", "specification/draft/tasks.md", "Polymorphic Results", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "Servers **MUST** set `resultType` to `\"task\"` when returning a `CreateTaskResult` so that clients can distinguish it from a standard result. Servers **MUST NOT** set `resultType` to `\"task\"` on result types other than `CreateTaskResult`.";
    /// A task exists before its handle is returned.
    TASKS_DURABLE = "tasks/durable-create", "ext-tasks", "specification/draft/tasks.md", "Task Creation", MustNot,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "A server **MUST NOT** return `CreateTaskResult` until the task is durably created — that is, until a `tasks/get` for the returned `taskId` would resolve.";
    /// `tasks/get` answers the task in its current status.
    TASKS_GET_STATUS = "tasks/get-status", "ext-tasks", "specification/draft/tasks.md", "Task Polling", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "Upon receiving a `tasks/get` request, the server **MUST** check the status of the task and respond accordingly:";
    /// An `input_required` task carries its `inputRequests`.
    TASKS_GET_INPUT_REQUIRED = "tasks/get-input-required", "ext-tasks", "specification/draft/tasks.md", "Task Polling", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "If the status is `input_required`, the server **MUST** return a `Task` object with status `input_required` and an `inputRequests` field defined in [Multi Round-Trip Requests](https://modelcontextprotocol.io/specification/draft/basic/utilities/mrtr).";
    /// A completed task carries its result.
    TASKS_GET_COMPLETED = "tasks/get-completed", "ext-tasks", "specification/draft/tasks.md", "Task Polling", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "If the status is `completed`, the server **MUST** return a `Task` object with status `completed` and a `result` field containing the final result of the task.";
    /// A failed task carries its error.
    TASKS_GET_FAILED = "tasks/get-failed", "ext-tasks", "specification/draft/tasks.md", "Task Polling", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "If the status is `failed`, the server **MUST** return a `Task` object with status `failed` and the error that occurred during execution.";
    /// `tasks/get` results are `complete`.
    TASKS_GET_RESULT_TYPE = "tasks/get-result-type", "ext-tasks", "specification/draft/tasks.md", "Task Polling", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "The `resultType` field **MUST** be set to `\"complete\"` on this object as it is the standard result shape for the `tasks/get` request.";
    /// Input request keys are never reused within a task.
    TASKS_INPUT_KEYS_UNIQUE = "tasks/input-keys-unique", "ext-tasks", "specification/draft/tasks.md", "Task Update Requests", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "Each request key in `inputRequests` **MUST** be unique over the lifetime of a single task.";
    /// `tasks/update` answers `complete`.
    TASKS_UPDATE_RESULT_TYPE = "tasks/update-result-type", "ext-tasks", "specification/draft/tasks.md", "Task Update Requests", Must,
        Tasks, Any, probes(&["tasks/lifecycle"]),
        "The `resultType` field **MUST** be set to `\"complete\"` on `UpdateTaskResult` as it is the standard result shape for the `tasks/update` request.";
    /// `tasks/cancel` is acknowledged with an empty result.
    TASKS_CANCEL_ACK = "tasks/cancel-ack", "ext-tasks", "specification/draft/tasks.md", "Task Cancellation", Must,
        Tasks, Any, probes(&["tasks/cancel"]),
        "On success, the server **MUST** acknowledge the request with an empty result.";
    /// `tasks/cancel` answers `complete`.
    TASKS_CANCEL_RESULT_TYPE = "tasks/cancel-result-type", "ext-tasks", "specification/draft/tasks.md", "Task Cancellation", Must,
        Tasks, Any, probes(&["tasks/cancel"]),
        "The `resultType` field **MUST** be set to `\"complete\"` on `CancelTaskResult` as it is the standard result shape for the `tasks/cancel` request.";
    /// Task notifications need the extension declared.
    TASKS_LISTEN_UNDECLARED = "tasks/listen-undeclared", "ext-tasks", "specification/draft/tasks.md", "Task Status Notifications", Must,
        Tasks, Any, probes(&["tasks/listen-undeclared"]),
        "If a client requests task status notifications but does not declare the `io.modelcontextprotocol/tasks` extension capability, the server **MUST** return a JSON-RPC error specifying the missing capabilities";
    /// No progress or log messages on a task's listen stream.
    TASKS_LISTEN_NO_PROGRESS = "tasks/listen-no-progress", "ext-tasks", "specification/draft/tasks.md", "Task Status Notifications", MustNot,
        Tasks, Any, probes(&["tasks/listen-no-progress"]),
        "`notifications/progress` and `notifications/message` notifications **MUST NOT** be sent on the `subscriptions/listen` stream for a task";
    /// An unknown task id is -32602 on `tasks/get`.
    TASKS_UNKNOWN_ID_GET = "tasks/unknown-id-get", "ext-tasks", "specification/draft/tasks.md", "Protocol Errors", Must,
        Tasks, Any, probes(&["tasks/unknown-id"]),
        "Invalid or nonexistent `taskId`: `-32602` (Invalid params) — Servers **MUST** return this error for `tasks/get`.";
    /// ... and should be on `tasks/update` and `tasks/cancel`.
    TASKS_UNKNOWN_ID_OTHERS = "tasks/unknown-id-update-cancel", "ext-tasks", "specification/draft/tasks.md", "Protocol Errors", Should,
        Tasks, Any, probes(&["tasks/unknown-id"]),
        "Invalid or nonexistent `taskId`: `-32602` (Invalid params) — Servers **SHOULD** return this error for `tasks/update` and `tasks/cancel`.";
    /// `tasks/*` need the extension declared.
    TASKS_UNDECLARED_METHODS = "tasks/undeclared-methods", "ext-tasks", "specification/draft/tasks.md", "Protocol Errors", Must,
        Tasks, Any, probes(&["tasks/undeclared"]),
        "Missing required client capabilities: `-32021` (Missing Required Client Capability) — Servers **MUST** return this error for non-declaring clients issuing `tasks/get`, `tasks/update`, and `tasks/cancel` requests.";
    /// `failed` only for JSON-RPC errors.
    TASKS_FAILED_ONLY_PROTOCOL = "tasks/failed-only-protocol-errors", "ext-tasks", "specification/draft/tasks.md", "Task Execution Errors", MustNot,
        Tasks, Any, outside("whether a task's work ended in a JSON-RPC error or a tool error is known only inside the server; a client sees the status it is given"),
        "The `failed` status **MUST NOT** be used to represent non-JSON-RPC errors, such as a tool result that completed with `isError: true`.";
    /// Unguessable task ids.
    TASKS_ID_ENTROPY = "tasks/id-entropy", "ext-tasks", "specification/draft/tasks.md", "Security Considerations", Must,
        Tasks, Any, outside("the entropy of ids cannot be judged from the few a check sees"),
        "Servers **MUST** generate them with sufficient entropy that a third party cannot enumerate or guess them.";
    /// Every task request is authorized.
    TASKS_AUTH = "tasks/auth-binding", "ext-tasks", "specification/draft/tasks.md", "Security Considerations", Must,
        Tasks, Any, outside("needs two authenticated identities, which a check of one server connection does not have"),
        "Servers **MUST** perform authentication and authorization checks on each task-related request to ensure that the client has permission to access a task.";
    // ==== Authorization (2026-07-28 basic/authorization): 401 challenges and the OAuth 2.0
    // protected-resource metadata (RFC 9728) ====
    /// An HTTP server that asks for authorization follows the authorization spec.
    AUTH_CONFORM = "authorization/conform", "2026-07-28", "basic/authorization/index.mdx", "Protocol Requirements", Should,
        Authorization, Http, probes(&["http/authorization"]),
        "Authorization is **OPTIONAL** for MCP implementations. When supported: - Implementations using an HTTP-based transport **SHOULD** conform to this specification.";
    /// The server serves its protected-resource metadata.
    AUTH_PRM = "authorization/protected-resource-metadata", "2026-07-28", "basic/authorization/index.mdx", "Overview", Must,
        Authorization, Http, probes(&["http/authorization"]),
        "MCP servers **MUST** implement OAuth 2.0 Protected Resource Metadata ([RFC9728](https://datatracker.ietf.org/doc/html/rfc9728)). (RFC 9728 §2: `resource` is REQUIRED, the protected resource's resource identifier; §3.2: the metadata is a JSON object.)";
    /// The metadata names at least one authorization server.
    AUTH_PRM_AUTHORIZATION_SERVERS = "authorization/authorization-servers", "2026-07-28", "basic/authorization/authorization-server-discovery.mdx", "Authorization Server Location", Must,
        Authorization, Http, probes(&["http/authorization"]),
        "The Protected Resource Metadata document returned by the MCP server **MUST** include the `authorization_servers` field containing at least one authorization server.";
    /// The metadata's `resource` is the endpoint it was found for.
    AUTH_PRM_RESOURCE = "authorization/resource-matches", "2026-07-28", "basic/authorization/index.mdx", "Overview", Must,
        Authorization, Http, probes(&["http/authorization"]),
        "MCP servers **MUST** implement OAuth 2.0 Protected Resource Metadata ([RFC9728](https://datatracker.ietf.org/doc/html/rfc9728)). (RFC 9728 §3.3: \"The `resource` value returned **MUST** be identical to the protected resource's resource identifier value into which the well-known URI path suffix was inserted to create the URL used to retrieve the metadata.\" Metadata found through the `resource_metadata` parameter of a 401 likewise names the URL the client used.)";
    /// An invalid token is refused with 401.
    AUTH_INVALID_TOKEN_401 = "authorization/invalid-token-401", "2026-07-28", "basic/authorization/index.mdx", "Token Handling", Must,
        Authorization, Http, probes(&["http/authorization"]),
        "If validation fails, servers **MUST** respond according to [OAuth 2.1 Section 5.3](https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-5.3) error handling requirements. Invalid or expired tokens **MUST** receive a HTTP 401 response.";
    // ---- The resource-server rules `check --auth-issuer` probes with tokens of the issuer the
    // server trusts (mcp-test-check's `probes::auth_tokens`).
    /// A token for another resource is refused.
    AUTH_TOKEN_AUDIENCE = "authorization/token-audience", "2026-07-28", "basic/authorization/index.mdx", "Token Handling", Must,
        Authorization, Http, probes(&["auth/audience"]),
        "MCP servers **MUST** validate that access tokens were issued specifically for them as the intended audience, according to [RFC 8707 Section 2](https://www.rfc-editor.org/rfc/rfc8707.html#section-2).";
    /// An expired token gets 401.
    AUTH_TOKEN_EXPIRED = "authorization/expired-token-401", "2026-07-28", "basic/authorization/index.mdx", "Token Handling", Must,
        Authorization, Http, probes(&["auth/expired"]),
        "If validation fails, servers **MUST** respond according to [OAuth 2.1 Section 5.3](https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-5.3) error handling requirements. Invalid or expired tokens **MUST** receive a HTTP 401 response.";
    /// A token whose signature does not verify is refused.
    AUTH_TOKEN_VALIDATION = "authorization/token-validation", "2026-07-28", "basic/authorization/index.mdx", "Token Handling", Must,
        Authorization, Http, probes(&["auth/signature"]),
        "MCP servers, acting in their role as an OAuth 2.1 resource server, **MUST** validate access tokens as described in [OAuth 2.1 Section 5.2](https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-5.2).";
    /// Insufficient scope: 403 with `error="insufficient_scope"`.
    AUTH_INSUFFICIENT_SCOPE_403 = "authorization/insufficient-scope-403", "2026-07-28", "basic/authorization/index.mdx", "Runtime Insufficient Scope Errors", Should,
        Authorization, Http, probes(&["auth/insufficient-scope"]),
        "When a client makes a request with an access token with insufficient scope during runtime operations, the server **SHOULD** respond with: - `HTTP 403 Forbidden` status code (per [RFC 6750 Section 3.1](https://datatracker.ietf.org/doc/html/rfc6750#section-3.1)) - `WWW-Authenticate` header with the `Bearer` scheme and additional parameters: - `error=\"insufficient_scope\"` - indicating the specific type of authorization failure";
    /// The 403 names the scopes needed.
    AUTH_INSUFFICIENT_SCOPE_SCOPE = "authorization/insufficient-scope-scope", "2026-07-28", "basic/authorization/index.mdx", "Runtime Insufficient Scope Errors", Should,
        Authorization, Http, probes(&["auth/insufficient-scope"]),
        "**Server Scope Management**: When responding with insufficient scope errors, servers **SHOULD** include the scopes needed to satisfy the current operation in the `scope` parameter, consistent with [RFC 6750 Section 3.1](https://datatracker.ietf.org/doc/html/rfc6750#section-3.1).";
    /// One challenge names every scope the operation needs.
    AUTH_SCOPE_SINGLE_CHALLENGE = "authorization/scope-single-challenge", "2026-07-28", "basic/authorization/index.mdx", "Runtime Insufficient Scope Errors", Should,
        Authorization, Http, probes(&["auth/insufficient-scope"]),
        "Whatever scope-inclusion strategy a server adopts, servers **SHOULD** include all scopes required for the current operation in a single challenge.";
    /// The 401 challenge names the scopes needed.
    AUTH_CHALLENGE_SCOPE = "authorization/challenge-scope", "2026-07-28", "basic/authorization/index.mdx", "Scope Selection Strategy", Should,
        Authorization, Http, probes(&["auth/challenge"]),
        "MCP servers **SHOULD** include a `scope` parameter in the `WWW-Authenticate` header as defined in [RFC 6750 Section 3](https://datatracker.ietf.org/doc/html/rfc6750#section-3) to indicate the scopes required for accessing the resource.";
    /// No `offline_access` asked of clients.
    AUTH_NO_OFFLINE_ACCESS = "authorization/no-offline-access", "2026-07-28", "basic/authorization/index.mdx", "Refresh Tokens", ShouldNot,
        Authorization, Http, probes(&["auth/challenge"]),
        "**MCP Servers** (Protected Resources) **SHOULD NOT** include `offline_access` in `WWW-Authenticate` scope or Protected Resource Metadata `scopes_supported`, as refresh tokens are not a resource requirement.";
    /// No token passed through.
    AUTH_NO_PASSTHROUGH = "authorization/no-token-passthrough", "2026-07-28", "basic/authorization/index.mdx", "Token Handling", MustNot,
        Authorization, Http, outside("whether the server passes a client's token on to an upstream API is seen only by that API; a client of the MCP server sees the server accept or refuse the token, which the audience probe checks"),
        "MCP servers **MUST NOT** accept or transit any other tokens.";
    /// Scope hierarchies honoured.
    AUTH_SCOPE_HIERARCHY = "authorization/scope-hierarchy", "2026-07-28", "basic/authorization/index.mdx", "Step-Up Authorization Flow", Must,
        Authorization, Http, outside("which scope implies which is the server's own model, which no document a client can read describes"),
        "Servers **MUST** account for scope hierarchies, where a broader scope implies narrower ones, when deciding whether a token is sufficient for an operation.";

}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_each_text_carries_its_level() {
        let mut ids = HashSet::new();
        for clause in ALL {
            assert!(ids.insert(clause.id), "duplicate clause id {}", clause.id);
            assert!(
                clause
                    .text
                    .contains(&format!("**{}**", clause.level.keyword())),
                "{}: the text does not say {}",
                clause.id,
                clause.level
            );
        }
        assert_eq!(find("base/result-id"), Some(&RESULT_ID));
        assert_eq!(find("no/such"), None);
    }

    /// `mcp-test/REQUIREMENTS.md` is [`matrix_markdown`]; `UPDATE_REQUIREMENTS=1` rewrites it.
    #[test]
    fn the_requirements_matrix_file_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("REQUIREMENTS.md");
        let want = matrix_markdown();
        if std::env::var_os("UPDATE_REQUIREMENTS").is_some() {
            std::fs::write(&path, &want).expect("REQUIREMENTS.md is writable");
            return;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{} is not the matrix of src/spec/clauses.rs: run \
             `UPDATE_REQUIREMENTS=1 cargo test -p mcp-test --lib matrix`",
            path.display()
        );
    }

    #[test]
    fn every_row_is_checked_by_a_probe_or_says_why_not() {
        for clause in ALL {
            match clause.check {
                Check::Probes(names) => assert!(!names.is_empty(), "{}: no probe", clause.id),
                Check::Outside(why) => assert!(!why.is_empty(), "{}: no reason", clause.id),
                Check::NotYet(how) => assert!(!how.is_empty(), "{}: no plan", clause.id),
            }
        }
    }
}
