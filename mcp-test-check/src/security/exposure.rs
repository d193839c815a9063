//! Exposure: what a server leaves reachable beyond the client that started it, read from
//! outside (issue 47 item 6). Four rules, each deterministic and offline but for requests to
//! the server itself:
//!
//! - `exposure/listens-beyond-loopback`: the sockets a stdio server process that `check`
//!   started (and its descendants) listens on, read from Linux's `/proc` ([`listening`]);
//! - `exposure/predictable-session-id`: the `Mcp-Session-Id`s of a few extra 2025-11-25
//!   sessions ([`session_ids`], judged by [`predictable`]);
//! - `exposure/credentials-in-url`: the bearer token moved into `?access_token=` answered
//!   ([`token_in_query`]);
//! - `exposure/cors-credentials`: a foreign `Origin` allowed with credentials ([`cors`]).
//!
//! Each returns its findings and notes (plain sentences, which the caller records as the
//! notes of the probe [`PROBE`]); what another probe already reports is a note here at most.

use super::rules::{CORS_CREDENTIALS, CREDENTIALS_IN_URL, LISTENS_BEYOND_LOOPBACK, PREDICTABLE_ID};
use crate::SecurityFinding;
use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE, ORIGIN};
use http::{HeaderMap, HeaderValue, Method};
use mcp_test::__check::{HttpClient, HttpReply};
use mcp_test::cases::Era;
use mcp_test::client::HttpOptions;
use serde_json::{Value, json};
use std::time::Duration;

/// The probe whose notes say what the exposure rules did not judge (a rule that could not
/// run, an allowance short of a finding).
pub(crate) const PROBE: &str = "security/exposure";

/// What one exposure rule found: findings, and notes for the report's text.
#[derive(Default, Debug)]
pub(crate) struct Found {
    pub findings: Vec<SecurityFinding>,
    pub notes: Vec<String>,
}

impl Found {
    /// Puts the findings in `report`'s security section and the notes in the probe
    /// [`PROBE`] (made when the first note comes).
    pub(crate) fn record(self, report: &mut crate::CheckReport) {
        report.security.extend(self.findings);
        if self.notes.is_empty() {
            return;
        }
        let era = report.era;
        let notes = self.notes.into_iter().map(|message| crate::Finding {
            severity: crate::Severity::Info,
            probe: PROBE.to_owned(),
            message,
            clause: None,
            request: None,
            era,
        });
        match report.probes.iter_mut().find(|p| p.name == PROBE) {
            Some(probe) => probe.findings.extend(notes),
            None => report.probes.push(crate::Probe {
                name: PROBE.to_owned(),
                findings: notes.collect(),
                skipped: None,
                duration: None,
            }),
        }
    }

    fn extend(&mut self, other: Found) {
        self.findings.extend(other.findings);
        self.notes.extend(other.notes);
    }
}

fn finding(
    rule: &'static crate::SecurityRule,
    message: String,
    source: String,
    excerpt: String,
    era: Option<Era>,
) -> SecurityFinding {
    SecurityFinding {
        rule,
        message,
        source,
        subject: None,
        pointer: String::new(),
        excerpt,
        decoded: None,
        era,
    }
}

// ---------------------------------------------------------------------------------------
// exposure/listens-beyond-loopback

/// One listening TCP socket: its address as `ADDR:PORT` (`[ADDR]:PORT` for IPv6), whether
/// that address is loopback, and the process holding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listener {
    pub address: String,
    pub loopback: bool,
    pub pid: u32,
}

/// The listening sockets of process `pid` and its descendants that are bound beyond
/// loopback, as findings; `None` for `pid` (no process of the check's own: HTTP) is
/// nothing. Elsewhere than on Linux a note says the rule did not run.
pub(crate) fn listening(pid: Option<u32>, era: Option<Era>) -> Found {
    let Some(pid) = pid else {
        return Found::default();
    };
    let mut found = Found::default();
    if !cfg!(target_os = "linux") {
        found.notes.push(format!(
            "{} did not run: reading the sockets of a process needs Linux's /proc",
            LISTENS_BEYOND_LOOPBACK.id
        ));
        return found;
    }
    let listeners = linux::listeners(pid);
    for l in listeners.into_iter().filter(|l| !l.loopback) {
        found.findings.push(finding(
            &LISTENS_BEYOND_LOOPBACK,
            format!(
                "the server process check started (pid {pid}) listens on {} (TCP, in process {}): reachable from beyond this machine, where transports.mdx says a local server SHOULD bind only to localhost (127.0.0.1)",
                l.address, l.pid
            ),
            format!("process {}", l.pid),
            l.address,
            era,
        ));
    }
    found
}

mod linux {
    //! `/proc`: a process's descendants, its socket inodes, and the TCP listeners of its
    //! network namespace.
    use super::Listener;
    use std::collections::{BTreeSet, HashMap};
    use std::net::{Ipv4Addr, Ipv6Addr};

    /// `pid` and every process descending from it.
    fn family(pid: u32) -> Vec<u32> {
        let mut parents: HashMap<u32, Vec<u32>> = HashMap::new();
        if let Ok(dir) = std::fs::read_dir("/proc") {
            for entry in dir.flatten() {
                let Some(child) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
                    continue;
                };
                if let Some(ppid) = std::fs::read_to_string(format!("/proc/{child}/stat"))
                    .ok()
                    .and_then(|s| ppid_of(&s))
                {
                    parents.entry(ppid).or_default().push(child);
                }
            }
        }
        let mut out = vec![pid];
        let mut at = 0;
        while at < out.len() {
            let children = parents.get(&out[at]).cloned().unwrap_or_default();
            for c in children {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            at += 1;
        }
        out
    }

    /// The parent pid of a `/proc/PID/stat` line: the second field after the command's `)`.
    pub(super) fn ppid_of(stat: &str) -> Option<u32> {
        let rest = &stat[stat.rfind(')')? + 1..];
        rest.split_whitespace().nth(1)?.parse().ok()
    }

    /// The inodes of the sockets `pid` holds open.
    fn sockets(pid: u32) -> BTreeSet<u64> {
        let mut out = BTreeSet::new();
        if let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
            for entry in dir.flatten() {
                if let Ok(target) = std::fs::read_link(entry.path())
                    && let Some(inode) = target
                        .to_str()
                        .and_then(|t| t.strip_prefix("socket:["))
                        .and_then(|t| t.strip_suffix(']'))
                        .and_then(|t| t.parse().ok())
                {
                    out.insert(inode);
                }
            }
        }
        out
    }

    /// The listening sockets of a `/proc/net/tcp` or `tcp6` table: (inode, address, loopback).
    pub(super) fn table(text: &str) -> Vec<(u64, String, bool)> {
        let mut out = Vec::new();
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() < 10 || fields[3] != "0A" {
                continue;
            }
            let (Some((addr, port)), Ok(inode)) =
                (fields[1].split_once(':'), fields[9].parse::<u64>())
            else {
                continue;
            };
            let Ok(port) = u16::from_str_radix(port, 16) else {
                continue;
            };
            // Each 32-bit word is printed as the host reads the address's bytes (`%08X` of a
            // native u32), so its native bytes are the address's, in order.
            let words: Vec<u32> = (0..addr.len() / 8)
                .filter_map(|i| u32::from_str_radix(&addr[i * 8..i * 8 + 8], 16).ok())
                .collect();
            let (shown, loopback) = match words.as_slice() {
                [w] => {
                    let ip = Ipv4Addr::from(w.to_ne_bytes());
                    (format!("{ip}:{port}"), ip.is_loopback())
                }
                [a, b, c, d] => {
                    let mut bytes = [0u8; 16];
                    for (i, w) in [a, b, c, d].into_iter().enumerate() {
                        bytes[i * 4..i * 4 + 4].copy_from_slice(&w.to_ne_bytes());
                    }
                    let ip = Ipv6Addr::from(bytes);
                    let loopback =
                        ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback());
                    (format!("[{ip}]:{port}"), loopback)
                }
                _ => continue,
            };
            out.push((inode, shown, loopback));
        }
        out
    }

    /// The listening TCP sockets held by `pid` and its descendants.
    pub(super) fn listeners(pid: u32) -> Vec<Listener> {
        let mut out = Vec::new();
        for member in family(pid) {
            let held = sockets(member);
            if held.is_empty() {
                continue;
            }
            for name in ["tcp", "tcp6"] {
                let text = std::fs::read_to_string(format!("/proc/{member}/net/{name}"))
                    .unwrap_or_default();
                for (inode, address, loopback) in table(&text) {
                    let listener = Listener {
                        address,
                        loopback,
                        pid: member,
                    };
                    if held.contains(&inode) && !out.contains(&listener) {
                        out.push(listener);
                    }
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------
// Raw requests

/// The headers of a JSON-RPC POST.
fn json_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    headers
}

/// The first request of a session in `era`, with its headers: `server/discover` (headers
/// mirrored) or `initialize`.
fn opening(era: Era, id: &str) -> (Value, HeaderMap) {
    let mut headers = json_headers();
    match era {
        Era::Current => {
            let mut body = mcp_test::wire::build::build_request("server/discover", json!({}));
            body["id"] = json!(id);
            for (name, value) in mcp_test::wire::build::mirrored_headers(&body) {
                if let (Ok(name), Ok(value)) = (
                    http::HeaderName::try_from(name),
                    HeaderValue::try_from(value),
                ) {
                    headers.insert(name, value);
                }
            }
            (body, headers)
        }
        Era::Legacy => {
            let version = mcp_test::wire::LEGACY_PROTOCOL_VERSION;
            let body = json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
                "params": {"protocolVersion": version, "capabilities": {},
                    "clientInfo": {"name": "mcp-test", "version": env!("CARGO_PKG_VERSION")}}});
            (body, headers)
        }
    }
}

/// Whether `reply` is a 2xx carrying a JSON-RPC result.
fn served(reply: &HttpReply) -> bool {
    reply.status.is_success() && reply.messages().iter().any(|m| m.get("result").is_some())
}

fn header(reply: &HttpReply, name: &str) -> Option<String> {
    reply
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_owned())
}

/// What the exposure rules over HTTP need: the endpoint, its client, the era, the wait.
pub(crate) struct Http {
    pub url: String,
    pub options: HttpOptions,
    pub era: Era,
    pub timeout: Duration,
}

impl Http {
    async fn send(
        &self,
        client: &HttpClient,
        method: Method,
        url: &str,
        headers: HeaderMap,
        body: Option<&Value>,
    ) -> Result<HttpReply, String> {
        let uri = HttpClient::parse_url(url).map_err(|e| e.to_string())?;
        let body = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
        client
            .request(method, &uri, headers, body, self.timeout)
            .await
            .map_err(|e| e.to_string())
    }

    /// Ends the 2025-era session whose initialize answered `reply`, if it minted an id.
    async fn end(&self, client: &HttpClient, reply: &HttpReply) {
        let Some(id) = reply.headers.get("mcp-session-id").cloned() else {
            return;
        };
        let mut headers = HeaderMap::new();
        headers.insert("mcp-session-id", id);
        headers.insert(
            mcp_test::headers::PROTOCOL_VERSION,
            HeaderValue::from_static(mcp_test::wire::LEGACY_PROTOCOL_VERSION),
        );
        let _ = self
            .send(client, Method::DELETE, &self.url, headers, None)
            .await;
    }

    /// Every exposure rule over HTTP: the session ids in 2025-11-25; the token in the query
    /// and CORS only when `first` (the first session of a check, so each runs once).
    pub(crate) async fn run(&self, first: bool) -> Found {
        let mut found = Found::default();
        if self.era == Era::Legacy {
            found.extend(self.session_ids().await);
        }
        if first {
            found.extend(self.token_in_query().await);
            found.extend(self.cors().await);
        }
        found
    }

    // -----------------------------------------------------------------------------------
    // exposure/predictable-session-id

    /// Opens [`EXTRA_SESSIONS`] 2025-11-25 sessions, reads their `Mcp-Session-Id`s, closes
    /// them (DELETE), and judges the ids ([`predictable`]).
    pub(crate) async fn session_ids(&self) -> Found {
        let mut found = Found::default();
        let Ok(client) = HttpClient::with_options(&self.options) else {
            return found;
        };
        let mut ids = Vec::new();
        for i in 0..EXTRA_SESSIONS {
            let (body, headers) = opening(Era::Legacy, &format!("mcp-test-session-{i}"));
            let Ok(reply) = self
                .send(&client, Method::POST, &self.url, headers, Some(&body))
                .await
            else {
                break;
            };
            if let Some(id) = header(&reply, "mcp-session-id") {
                ids.push(id);
            }
            self.end(&client, &reply).await;
        }
        if ids.is_empty() {
            return found;
        }
        if ids.len() < 2 {
            found.notes.push(format!(
                "{}: only {} of {EXTRA_SESSIONS} extra sessions got an Mcp-Session-Id, too few to judge",
                PREDICTABLE_ID.id,
                ids.len()
            ));
            return found;
        }
        if let Some(why) = predictable(&ids) {
            found.findings.push(finding(
                &PREDICTABLE_ID,
                format!(
                    "{} sessions opened with initialize got the ids {}: {why}; a session id another client can guess lets it hijack the session (\"MCP servers MUST use secure, non-deterministic session IDs\")",
                    ids.len(),
                    ids.iter().map(|i| format!("{i:?}")).collect::<Vec<_>>().join(", ")
                ),
                "initialize (Mcp-Session-Id)".to_owned(),
                ids.join(" "),
                Some(Era::Legacy),
            ));
        }
        found
    }

    // -----------------------------------------------------------------------------------
    // exposure/credentials-in-url

    /// When the server wants a token (401 without one) and the check has one (an
    /// `Authorization: Bearer` header, from `--header` or `--auth-issuer`): the opening
    /// request with the token in `?access_token=` and no header must not be served.
    pub(crate) async fn token_in_query(&self) -> Found {
        let mut found = Found::default();
        let Some(token) = self
            .options
            .header_value("authorization")
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
        else {
            return found;
        };
        let bare = self.options.without_header("authorization");
        let Ok(client) = HttpClient::with_options(&bare) else {
            return found;
        };
        let (body, headers) = opening(self.era, "mcp-test-no-token");
        match self
            .send(&client, Method::POST, &self.url, headers, Some(&body))
            .await
        {
            Ok(reply) if reply.status == http::StatusCode::UNAUTHORIZED => {}
            Ok(reply) => {
                // It asks for no token: nothing to move into the URL.
                self.end(&client, &reply).await;
                return found;
            }
            Err(_) => return found,
        }
        let joined = if self.url.contains('?') { '&' } else { '?' };
        let encoded: String = form_encode(&token);
        let url = format!("{}{joined}access_token={encoded}", self.url);
        let (body, headers) = opening(self.era, "mcp-test-token-in-query");
        let Ok(reply) = self
            .send(&client, Method::POST, &url, headers, Some(&body))
            .await
        else {
            return found;
        };
        if served(&reply) {
            let method = body["method"].as_str().unwrap_or("").to_owned();
            found.findings.push(finding(
                &CREDENTIALS_IN_URL,
                format!(
                    "{method} without an Authorization header but with the bearer token in the URL (?access_token=) was served (HTTP {}), where the same request without a token got 401: a token in a URL ends up in logs, history and Referer headers (\"Access tokens MUST NOT be included in the URI query string\")",
                    reply.status.as_u16()
                ),
                format!("{method} (?access_token=)"),
                format!("{}{joined}access_token=<redacted>", self.url),
                Some(self.era),
            ));
        }
        self.end(&client, &reply).await;
        found
    }

    // -----------------------------------------------------------------------------------
    // exposure/cors-credentials

    /// A preflight and the opening POST, each with `Origin: https://evil.example`: a foreign
    /// origin (or `*`) allowed with `Access-Control-Allow-Credentials: true` by both, and the
    /// POST served, is the finding; less is a note at most.
    pub(crate) async fn cors(&self) -> Found {
        let mut found = Found::default();
        let Ok(client) = HttpClient::with_options(&self.options) else {
            return found;
        };
        let mut preflight = HeaderMap::new();
        preflight.insert(ORIGIN, HeaderValue::from_static(EVIL_ORIGIN));
        preflight.insert(
            "access-control-request-method",
            HeaderValue::from_static("POST"),
        );
        preflight.insert(
            "access-control-request-headers",
            HeaderValue::from_static(
                "content-type, mcp-protocol-version, mcp-session-id, authorization",
            ),
        );
        let preflight = self
            .send(&client, Method::OPTIONS, &self.url, preflight, None)
            .await
            .ok();
        let (body, mut headers) = opening(self.era, "mcp-test-cors");
        headers.insert(ORIGIN, HeaderValue::from_static(EVIL_ORIGIN));
        let Ok(post) = self
            .send(&client, Method::POST, &self.url, headers, Some(&body))
            .await
        else {
            return found;
        };
        self.end(&client, &post).await;
        let allows = |reply: &HttpReply| {
            let origin = header(reply, "access-control-allow-origin");
            let credentials = header(reply, "access-control-allow-credentials")
                .is_some_and(|c| c.eq_ignore_ascii_case("true"));
            (origin, credentials)
        };
        let (post_origin, post_credentials) = allows(&post);
        let foreign = |o: &Option<String>| {
            o.as_deref()
                .is_some_and(|o| o == "*" || o.eq_ignore_ascii_case(EVIL_ORIGIN))
        };
        let preflight_allows = preflight.as_ref().is_some_and(|p| {
            let (origin, credentials) = allows(p);
            p.status.is_success() && foreign(&origin) && credentials
        });
        let method = body["method"].as_str().unwrap_or("").to_owned();
        let post_served = served(&post);
        if post_served && foreign(&post_origin) && post_credentials && preflight_allows {
            let origin = post_origin.unwrap_or_default();
            found.findings.push(finding(
                &CORS_CREDENTIALS,
                format!(
                    "a preflight and {method} from Origin: {EVIL_ORIGIN} were answered Access-Control-Allow-Origin: {origin} with Access-Control-Allow-Credentials: true, and the {method} was served: any web page may call this server with the user's cookies or HTTP credentials and read the answers{}",
                    if origin == "*" {
                        " (browsers refuse the wildcard with credentials, per the Fetch standard, but the server means to allow credentialed calls from anywhere)"
                    } else {
                        " (the foreign origin reflected)"
                    }
                ),
                format!("{method} (Origin: {EVIL_ORIGIN})"),
                format!(
                    "Access-Control-Allow-Origin: {origin}; Access-Control-Allow-Credentials: true"
                ),
                Some(self.era),
            ));
        } else if foreign(&post_origin) && post_credentials {
            found.notes.push(format!(
                "{}: {method} from Origin: {EVIL_ORIGIN} was answered with Access-Control-Allow-Origin: {} and Access-Control-Allow-Credentials: true, but {}; not a finding",
                CORS_CREDENTIALS.id,
                post_origin.as_deref().unwrap_or(""),
                if !post_served {
                    "it was not served"
                } else {
                    "the preflight did not allow it, so a browser never sends it"
                }
            ));
        } else if post_origin.as_deref() == Some("*") {
            found.notes.push(format!(
                "{}: Access-Control-Allow-Origin: * without credentials: any page may read the answers, but sends no cookies or HTTP credentials with its calls; not a finding",
                CORS_CREDENTIALS.id
            ));
        }
        found
    }
}

/// How many extra 2025-11-25 sessions `exposure/predictable-session-id` opens.
pub(crate) const EXTRA_SESSIONS: usize = 4;

/// The foreign origin of `exposure/cors-credentials`.
pub(crate) const EVIL_ORIGIN: &str = "https://evil.example";

/// `value` percent-encoded for a query string (unreserved characters kept).
fn form_encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// Why the session ids `ids` (of sessions opened one after another) are predictable, or
/// `None`: two alike; all integers close together; a long common prefix with integer tails
/// that increase; a time-based UUID (versions 1, 2 and 6: a timestamp, a clock sequence and
/// a node, all guessable from one id seen); or shorter than [`MIN_ID_CHARS`] characters.
/// A UUID v4, or 128 random bits in hex or base64, passes.
///
/// ```text
/// ["1", "2", "3", "4"]                         -> sequential integers
/// ["sess-0001", "sess-0002", ...]              -> a common prefix and an increasing tail
/// ["c2a1...-4...", "9f0e...-4...", ...]        -> None (UUID v4)
/// ```
pub(crate) fn predictable(ids: &[String]) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    if let Some(twice) = ids.iter().find(|i| !seen.insert(i.as_str())) {
        return Some(format!("the id {twice:?} was given to two sessions"));
    }
    let numbers: Option<Vec<u128>> = ids.iter().map(|i| i.parse::<u128>().ok()).collect();
    if let Some(numbers) = numbers {
        let (min, max) = (numbers.iter().min()?, numbers.iter().max()?);
        if max - min <= CLOSE {
            return Some("they are integers close together (sequential)".to_owned());
        }
    }
    let prefix = common_prefix(ids);
    if prefix >= 4 {
        let tails: Option<Vec<u128>> = ids
            .iter()
            .map(|i| {
                let tail = &i[prefix..];
                tail.parse::<u128>()
                    .ok()
                    .or_else(|| u128::from_str_radix(tail, 16).ok())
            })
            .collect();
        if let Some(tails) = tails
            && tails
                .windows(2)
                .all(|w| w[1] > w[0] && w[1] - w[0] <= CLOSE)
        {
            return Some(format!(
                "they share the prefix {:?} and end in a number that increases",
                &ids[0][..prefix]
            ));
        }
    }
    let versions: Vec<Option<char>> = ids.iter().map(|i| uuid_version(i)).collect();
    if versions
        .iter()
        .all(|v| matches!(v, Some('1') | Some('2') | Some('6')))
    {
        return Some(format!(
            "they are time-based UUIDs (version {}): a timestamp, clock sequence and node, guessable from one id seen (RFC 9562 §8: UUIDs are not to be used as security capabilities unless random)",
            versions[0].unwrap_or('1')
        ));
    }
    if let Some(short) = ids.iter().find(|i| i.chars().count() < MIN_ID_CHARS) {
        return Some(format!(
            "the id {short:?} is {} characters long, too short to be unguessable (fewer than {MIN_ID_CHARS})",
            short.chars().count()
        ));
    }
    None
}

/// The fewest characters an unguessable session id has (16 hex digits: 64 bits).
pub(crate) const MIN_ID_CHARS: usize = 16;

/// How far apart integers (or increasing tails) count as sequential.
const CLOSE: u128 = 1000;

/// The length in bytes of the prefix all of `ids` share (at a character boundary).
fn common_prefix(ids: &[String]) -> usize {
    let Some(first) = ids.first() else {
        return 0;
    };
    let mut len = first.len();
    for id in &ids[1..] {
        len = first
            .char_indices()
            .zip(id.chars())
            .take_while(|((_, a), b)| a == b)
            .map(|((at, a), _)| at + a.len_utf8())
            .last()
            .unwrap_or(0)
            .min(len);
    }
    len
}

/// The version digit of a UUID in its canonical 8-4-4-4-12 hex form.
fn uuid_version(id: &str) -> Option<char> {
    let parts: Vec<&str> = id.split('-').collect();
    let lengths: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    if lengths != [8, 4, 4, 4, 12]
        || !parts
            .iter()
            .all(|p| p.chars().all(|c| c.is_ascii_hexdigit()))
    {
        return None;
    }
    parts[2].chars().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn sequential_prefixed_repeated_short_and_time_based_ids_are_predictable() {
        for (given, says) in [
            (ids(&["1", "2", "3", "4"]), "sequential"),
            (
                ids(&["1000000001", "1000000002", "1000000005"]),
                "sequential",
            ),
            (
                ids(&[
                    "session-000000000017",
                    "session-000000000018",
                    "session-000000000019",
                ]),
                "prefix",
            ),
            (
                ids(&["abcdefabcdefabcdef", "abcdefabcdefabcdef"]),
                "two sessions",
            ),
            (ids(&["x7Gq2", "pL0aZ", "Qm81r"]), "too short"),
            (
                ids(&[
                    "5f3a1b20-6f1c-11ef-8a2b-0242ac120002",
                    "5f3a1c88-6f1c-11ef-8a2b-0242ac120002",
                ]),
                "time-based",
            ),
        ] {
            let why = predictable(&given).unwrap_or_else(|| panic!("{given:?} passed"));
            assert!(why.contains(says), "{given:?}: {why}");
        }
    }

    #[test]
    fn random_uuids_and_random_hex_pass() {
        for given in [
            ids(&[
                "0b6e1c3e-8f4a-4d2b-9c1e-7a5f3d2b1c0a",
                "e3f1a9d2-5b7c-4e8f-a1b2-c3d4e5f60718",
                "7c2d9e4f-1a3b-4c5d-8e6f-9a0b1c2d3e4f",
                "f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b",
            ]),
            ids(&[
                "9f86d081884c7d659a2feaa0c55ad015",
                "3c59dc048e8850243be8079a5c74d079",
                "b6d767d2f8ed5d21a44b0e5886680cb9",
                "37693cfc748049e45d87b8c7d8b9aacd",
            ]),
            // The runtime's own: 32 random bytes in hex.
            ids(&[
                "6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590b0667322a",
                "bb67ae8584caa73b25742d7078b83b8925d0e9bcd4c4e5f1a1c0b6e8f3d2a9c7",
            ]),
        ] {
            assert_eq!(predictable(&given), None, "{given:?}");
        }
    }

    #[test]
    fn proc_tables_are_read_with_loopback_told_apart() {
        let v4 = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0000000000000000 100 0 0 10 0\n   1: 00000000:A2C4 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 222 1 0000000000000000 100 0 0 10 0\n   2: 0100007F:C350 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 333 1 0000000000000000 100 0 0 10 0\n";
        let t = linux::table(v4);
        assert_eq!(
            t,
            vec![
                (111, "127.0.0.1:8080".to_owned(), true),
                (222, "0.0.0.0:41668".to_owned(), false)
            ]
        );
        let v6 = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 444 1 0000000000000000 100 0 0 10 0\n   1: 00000000000000000000000000000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 555 1 0000000000000000 100 0 0 10 0\n";
        let t = linux::table(v6);
        assert_eq!(
            t,
            vec![
                (444, "[::1]:8080".to_owned(), true),
                (555, "[::]:8081".to_owned(), false)
            ]
        );
        assert_eq!(linux::ppid_of("12 (a (b) c) S 7 12 12 0"), Some(7));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_listener_on_every_interface_of_this_process_is_found_and_loopback_is_not() {
        let all = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
        let local = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let found = listening(Some(std::process::id()), None);
        let port = all.local_addr().unwrap().port();
        let local_port = local.local_addr().unwrap().port();
        assert!(
            found
                .findings
                .iter()
                .any(|f| f.excerpt == format!("0.0.0.0:{port}")),
            "{found:?}"
        );
        assert!(
            !found
                .findings
                .iter()
                .any(|f| f.excerpt.ends_with(&format!(":{local_port}"))),
            "{found:?}"
        );
    }
}
