//! The catalogue of security rules ([`RULES`]): each rule's id, risk, what it finds, why it
//! matters and the published attack or advisory it comes from. Every finding names one of
//! these; SARIF and the rules page list them all.

use crate::{Risk, SecurityRule};

const INVARIANT: &str =
    "https://invariantlabs.ai/blog/mcp-security-notification-tool-poisoning-attacks";
const TRAIL_LINE_JUMPING: &str = "https://blog.trailofbits.com/2025/04/21/jumping-the-line-how-mcp-servers-can-attack-you-before-you-ever-use-them/";
const TRAIL_ANSI: &str =
    "https://blog.trailofbits.com/2025/04/29/deceiving-users-with-ansi-terminal-codes-in-mcp/";
const EMBRACE_TAGS: &str =
    "https://embracethered.com/blog/posts/2024/hiding-and-finding-text-with-unicode-tags/";
const TROJAN_SOURCE: &str = "https://trojansource.codes/";
const GITLEAKS: &str = "https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml";
const OWASP_ERRORS: &str =
    "https://cheatsheetseries.owasp.org/cheatsheets/Error_Handling_Cheat_Sheet.html";
const MCP_TOOLS_ANNOTATIONS: &str =
    "https://modelcontextprotocol.io/specification/draft/server/tools#tool-annotations";

const MCP_TRANSPORTS_SECURITY: &str =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning";
const MCP_SESSION_HIJACKING: &str = "https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#session-hijacking";
const MCP_TOKEN_IN_URI: &str = "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#access-token-usage";
const FETCH_CORS_CREDENTIALS: &str = "https://fetch.spec.whatwg.org/#cors-protocol-and-credentials";

macro_rules! rule {
    ($name:ident, $id:literal, $risk:ident, $title:literal, $help:literal, $source:expr) => {
        #[doc = concat!("The rule `", $id, "` (see [`RULES`]).")]
        pub static $name: SecurityRule = SecurityRule {
            id: $id,
            risk: Risk::$risk,
            title: $title,
            help: $help,
            source: $source,
        };
    };
}

rule!(
    TAG_CHARACTERS,
    "hidden/tag-characters",
    High,
    "Unicode tag characters (U+E0000..U+E007F): text no user sees but a model reads",
    "Tag characters render as nothing, yet models read them as the ASCII they mirror (ASCII smuggling). The decoded text is shown.",
    EMBRACE_TAGS
);
rule!(
    BIDI_CONTROLS,
    "hidden/bidi-controls",
    High,
    "Bidirectional override, embedding or isolate controls",
    "U+202A..U+202E and U+2066..U+2069 reorder what a user sees against what a model reads (Trojan Source, CVE-2021-42574). Right-to-left text needs none of them; the marks U+200E/U+200F/U+061C are not flagged.",
    TROJAN_SOURCE
);
rule!(
    ZERO_WIDTH,
    "hidden/zero-width",
    Medium,
    "Zero-width or invisible characters outside the scripts and emoji that use them",
    "Zero-width spaces, joiners and word joiners hide or split words a user reads. A joiner inside an emoji sequence or between letters of a joining script (Persian, Indic) is left alone; two in a row never are.",
    EMBRACE_TAGS
);
rule!(
    TERMINAL_ESCAPE,
    "hidden/terminal-escape",
    High,
    "Terminal escape sequences or control characters",
    "ESC sequences (ANSI/CSI/OSC), C1 controls and backspaces can hide, recolour or overwrite text in a terminal client, so the user sees one thing and the model another.",
    TRAIL_ANSI
);
rule!(
    HIDDEN_MARKUP,
    "hidden/markup",
    Medium,
    "Markup that addresses the model: <IMPORTANT>, <SYSTEM>, chat-template tokens, HTML comments",
    "Tool-poisoning payloads wrap their instructions in tags such as <IMPORTANT> or hide them in HTML comments, which many clients do not render.",
    INVARIANT
);
rule!(
    SECRECY,
    "instruction/secrecy",
    High,
    "Tells the model to keep something from the user",
    "\"Do not tell the user\" has no place in an honest description or result: it is how a poisoned tool hides what it makes the model do.",
    INVARIANT
);
rule!(
    OVERRIDE,
    "instruction/override",
    High,
    "Tells the model to ignore or override its other instructions",
    "Prompt injection: text that tells the model to disregard previous, system or other instructions, or claims to take precedence over them.",
    TRAIL_LINE_JUMPING
);
rule!(
    SENSITIVE_FILES,
    "instruction/sensitive-files",
    High,
    "Tells the model to read or pass on credential files (~/.ssh, ~/.aws, .env, mcp.json...)",
    "The published tool-poisoning attack asks the model to read ~/.ssh/id_rsa or ~/.cursor/mcp.json and pass it along. A tool that reads files because that is its job does not name credential files.",
    INVARIANT
);
rule!(
    EXFILTRATION,
    "instruction/exfiltration",
    High,
    "Tells the model to send conversation, secrets or file contents through a parameter or URL",
    "A side parameter (`sidenote`, `context`) or a URL the model is told to fill with the conversation, credentials or another tool's output carries them to the server or a third party.",
    INVARIANT
);
rule!(
    SHADOWING,
    "instruction/shadowing",
    Medium,
    "Directs how other tools or servers must be used",
    "Tool shadowing: one server's description changes what the model does with another server's tools (all emails to one address, \"when this tool is available\"), reaching across the trust boundary.",
    INVARIANT
);
rule!(
    READ_ONLY_CONTRADICTED,
    "annotations/read-only-contradicted",
    High,
    "Annotated readOnlyHint: true, while its name or description says it deletes, writes, sends or executes",
    "Clients (check among them) call read-only tools without asking. A tool named or described as destructive that claims read-only is not called by check unless named with --tool.",
    MCP_TOOLS_ANNOTATIONS
);
rule!(
    CHANGED_SILENTLY,
    "rug/changed-silently",
    High,
    "A definition changed within the session with no list-changed notification",
    "A rug pull: the definition the user approved is replaced without the client being told, so it is never reviewed again.",
    INVARIANT
);
rule!(
    CHANGED_AFTER_CALL,
    "rug/changed-after-call",
    High,
    "A definition changed after a tool call, with no list-changed notification",
    "A rug pull that waits for the first use: the server turns malicious once a tool has been approved and called.",
    INVARIANT
);
rule!(
    CHANGED_BETWEEN_SESSIONS,
    "rug/changed-between-sessions",
    High,
    "A definition differs between two fresh sessions",
    "A server that serves another definition to a new session can show a reviewer one surface and the user another.",
    INVARIANT
);
rule!(
    PIN_CHANGED,
    "rug/pin-changed",
    High,
    "A definition of an approved tool differs from the pinned surface (--pin)",
    "Every change of an approved tool's description or schema since it was pinned is reported, so nothing changes unreviewed.",
    INVARIANT
);
rule!(
    SECRET,
    "leak/secret",
    High,
    "A credential in a well-known key format (AWS, GitHub, Slack, Stripe, Google, OpenAI, Anthropic, private key, JWT)",
    "A key in a definition or a result is a key the model and its logs now hold. Patterns follow gitleaks; the excerpt is redacted.",
    GITLEAKS
);
rule!(
    STACK_TRACE,
    "leak/stack-trace",
    Medium,
    "A stack trace with absolute paths or internal frames (Python, Node, Rust, Java, Go)",
    "A trace in an error or result tells an attacker the layout of the server and its dependencies (OWASP: error handling).",
    OWASP_ERRORS
);
rule!(
    ENVIRONMENT,
    "leak/environment",
    High,
    "An environment dump (many KEY=VALUE lines with PATH, HOME, ...)",
    "A server's environment holds its tokens and paths; a result that carries it hands them to the model.",
    OWASP_ERRORS
);

rule!(
    LISTENS_BEYOND_LOOPBACK,
    "exposure/listens-beyond-loopback",
    High,
    "A server process check started listens on an address beyond loopback (0.0.0.0, ::, a LAN address)",
    "A local server reachable from the network serves whoever reaches it: the MCP transport spec says that when running locally, servers SHOULD bind only to localhost (127.0.0.1) rather than all network interfaces (0.0.0.0). Read from /proc for the process check started and its descendants (Linux only).",
    MCP_TRANSPORTS_SECURITY
);
rule!(
    PREDICTABLE_ID,
    "exposure/predictable-session-id",
    Medium,
    "Mcp-Session-Id values that can be guessed: sequential, a fixed prefix with a counter, repeated, time-based UUIDs or too short",
    "A client that guesses another's session id can hijack the session: \"MCP servers MUST use secure, non-deterministic session IDs\" (Security Best Practices, session hijacking). Judged from a few extra 2025-11-25 sessions check opens and closes.",
    MCP_SESSION_HIJACKING
);
rule!(
    CREDENTIALS_IN_URL,
    "exposure/credentials-in-url",
    High,
    "The server accepts its bearer token in the URL (?access_token=)",
    "A token in a URL is written to server and proxy logs, browser history and Referer headers: \"Access tokens MUST NOT be included in the URI query string\" (MCP authorization; RFC 6750 §2.3, OAuth 2.1).",
    MCP_TOKEN_IN_URI
);
rule!(
    CORS_CREDENTIALS,
    "exposure/cors-credentials",
    High,
    "A foreign Origin (or *) allowed with Access-Control-Allow-Credentials: true",
    "Any web page the user visits may call the server with the user's cookies or HTTP credentials and read the answers (Fetch standard, CORS protocol and credentials; OWASP: CORS misconfiguration). `*` without credentials is a note.",
    FETCH_CORS_CREDENTIALS
);

/// Every rule, in the order the rules page lists them: what SARIF names as its rules.
///
/// ```
/// use mcp_test_check::security::RULES;
/// assert!(RULES.iter().any(|r| r.id == "hidden/tag-characters"));
/// let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
/// ids.dedup();
/// assert_eq!(ids.len(), RULES.len());
/// ```
pub static RULES: &[&SecurityRule] = &[
    &TAG_CHARACTERS,
    &BIDI_CONTROLS,
    &ZERO_WIDTH,
    &TERMINAL_ESCAPE,
    &HIDDEN_MARKUP,
    &SECRECY,
    &OVERRIDE,
    &SENSITIVE_FILES,
    &EXFILTRATION,
    &SHADOWING,
    &READ_ONLY_CONTRADICTED,
    &CHANGED_SILENTLY,
    &CHANGED_AFTER_CALL,
    &CHANGED_BETWEEN_SESSIONS,
    &PIN_CHANGED,
    &SECRET,
    &STACK_TRACE,
    &ENVIRONMENT,
    &LISTENS_BEYOND_LOOPBACK,
    &PREDICTABLE_ID,
    &CREDENTIALS_IN_URL,
    &CORS_CREDENTIALS,
];

/// The rule of id `id`, if any.
///
/// ```
/// use mcp_test_check::security::rule;
/// assert_eq!(rule("leak/secret").unwrap().id, "leak/secret");
/// assert!(rule("nope").is_none());
/// ```
pub fn rule(id: &str) -> Option<&'static SecurityRule> {
    RULES.iter().copied().find(|r| r.id == id)
}
