//! The checker: one check's session, every response so far, and the probes recorded; the
//! [`Note`]s probes find before they become findings. Every probe builds on it.

use crate::{Finding, Probe, Severity, Shown};
use futures_util::StreamExt;
use mcp_test::__check::{LateOutcome, Session};
use mcp_test::cases::Era;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::target::{Target, TargetError};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What one probe found, before it becomes [`Finding`]s.
pub(crate) type Out = Vec<Note>;

/// One thing a probe found: a clause broken, whose level sets the severity, or a note no
/// clause backs (always [`Severity::Info`]); with the request that showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Note {
    pub(crate) severity: Severity,
    pub(crate) clause: Option<Clause>,
    pub(crate) message: String,
    pub(crate) request: Option<Shown>,
}

impl Note {
    /// `clause` was broken, as `message` tells.
    pub(crate) fn broke(clause: &Clause, message: impl Into<String>) -> Self {
        Note {
            severity: Severity::from(clause.level),
            clause: Some(*clause),
            message: message.into(),
            request: None,
        }
    }

    /// For the record: no clause is broken.
    pub(crate) fn info(message: impl Into<String>) -> Self {
        Note {
            severity: Severity::Info,
            clause: None,
            message: message.into(),
            request: None,
        }
    }

    /// `clause` as it reads in `era`: a 2025-era server is held to the 2025-11-25 twin of a
    /// rule ([`clauses::in_2025`]); where that revision has none, the finding is a note
    /// naming the 2026-07-28 rule.
    pub(crate) fn broke_in(era: Era, clause: &Clause, message: impl Into<String>) -> Self {
        match era {
            Era::Current => Note::broke(clause, message),
            Era::Legacy => match clauses::in_2025(clause) {
                Some(old) => Note::broke(old, message),
                None => Note::info(format!(
                    "{} (2026-07-28 asks this, {clause}; 2025-11-25 does not)",
                    message.into()
                )),
            },
        }
    }

    /// The request that showed it.
    pub(crate) fn on(mut self, request: Option<Shown>) -> Self {
        self.request = request;
        self
    }

    pub(crate) fn into_finding(self, probe: &str, era: Option<Era>) -> Finding {
        Finding {
            severity: self.severity,
            probe: probe.to_owned(),
            message: self.message,
            clause: self.clause,
            request: self.request,
            era,
        }
    }
}

/// A response in one line: the error code and message, or the result shortened.
pub(crate) fn brief(r: &Value) -> String {
    if let Some(e) = r.get("error") {
        format!(
            "error {} {:?}",
            e.get("code").unwrap_or(&Value::Null),
            e.get("message").and_then(Value::as_str).unwrap_or("")
        )
    } else {
        format!(
            "result {}",
            mcp_test::cases::shorten(&r.get("result").unwrap_or(r).to_string(), 160)
        )
    }
}

/// `600 s`, `1.5 s`: whole seconds, or tenths.
pub(crate) fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// How much longer than the timeout a request that outlasted it is waited for, at least.
pub(crate) const MIN_EXTRA_PATIENCE: Duration = Duration::from_secs(5);

/// How long a request that outlasted `timeout` is waited for in all before it counts as
/// unanswered ([`Checker::settle`]): 3 × the timeout, and at least [`MIN_EXTRA_PATIENCE`]
/// more than it (a short timeout says nothing of a busy machine).
pub(crate) fn patience(timeout: Duration) -> Duration {
    timeout
        .saturating_mul(3)
        .max(timeout.saturating_add(MIN_EXTRA_PATIENCE))
}

/// Whether `e` is silence within a timeout: no verdict on its own (the timeout is the
/// sender's, not a rule of the protocol).
pub(crate) fn timed_out(e: &TargetError) -> bool {
    timed_out_text(&e.to_string())
}

/// Whether `message` (a failure as text, as [`Happened::Failed`] keeps it) is silence
/// within a timeout: how [`TargetError::Timeout`] and the client's own timeout read.
///
/// [`Happened::Failed`]: mcp_test::cases::Happened::Failed
pub(crate) fn timed_out_text(message: &str) -> bool {
    let message = message
        .strip_prefix("no answer to the call: ")
        .unwrap_or(message);
    (message.starts_with("no answer to ") || message.starts_with("no reply to "))
        && message.contains(" within ")
        && !message.contains("answered with id")
}

/// Whether `message` (a failure as text) is the server refusing the check's token for want
/// of a scope: a 403 with `error="insufficient_scope"` ([`ClientError::Forbidden`]), what the
/// authorization spec asks of a server (§Runtime Insufficient Scope Errors). Text, as
/// [`Happened::Failed`] keeps it, like [`timed_out_text`].
///
/// [`ClientError::Forbidden`]: mcp_test::client::ClientError::Forbidden
/// [`Happened::Failed`]: mcp_test::cases::Happened::Failed
pub(crate) fn refused_for_scope_text(message: &str) -> bool {
    message.contains("(HTTP 403, WWW-Authenticate: ") && message.contains("insufficient_scope")
}

/// The note for a request the server refused the check's token for want of a scope (see
/// [`refused_for_scope_text`]): no verdict on the server, which answered as it should, but
/// what the check could not see and how to let it.
pub(crate) fn refused_for_scope(what: &str, message: &str) -> String {
    format!(
        "{what} was refused for want of scope (HTTP 403 insufficient_scope, as basic/authorization asks), so what is behind it went unchecked; give the check's token the scope the challenge names (--auth-scope SCOPE, or list it in scopes_supported): {message}"
    )
}

/// The note for `what` (a request, as `tools/call (id 7)`), unanswered within `timeout`:
/// names the timeout and the flag that raises it. A request of the session is still waited
/// for afterwards ([`Checker::settle`]), which may add a defect.
pub(crate) fn timeout_text(what: &str, timeout: Duration) -> String {
    format!(
        "no answer to {what} within the {} timeout (`--timeout SECS` waits longer): the spec puts no time on an answer, the timeout is the client's (basic/lifecycle.mdx §Timeouts), so a slow answer is no verdict",
        seconds(timeout),
    )
}

/// Whether `message` names `request` (`tools/call (id 7)`), not a longer id (`(id 71)`).
fn mentions(message: &str, request: &str) -> bool {
    message.contains(request)
}

/// The id of `request` (`tools/call (id 7)`), when it is a number.
fn request_id(request: &str) -> Option<i64> {
    let (_, id) = request.rsplit_once("(id ")?;
    id.strip_suffix(')')?.parse().ok()
}

/// One request and its answer, kept for the results/errors probes.
pub(crate) struct Logged {
    pub(crate) method: String,
    pub(crate) id: i64,
    pub(crate) response: Value,
}

/// The state of one check: the session, every response so far, the probes run.
pub(crate) struct Checker<'a> {
    pub(crate) session: Session<'a>,
    pub(crate) era: Era,
    pub(crate) log: Mutex<Vec<Logged>>,
    probes: Vec<Probe>,
    /// Set when the server stopped answering: what happened.
    pub(crate) dead: Option<String>,
    /// The last request sent, which a finding names.
    pub(crate) last: Option<Shown>,
    /// How many schema cases run at once ([`CheckOptions::jobs`](super::CheckOptions::jobs)).
    pub(crate) jobs: usize,
    /// How many may be in flight for a slow server ([`CheckOptions::max_jobs`](super::CheckOptions::max_jobs)).
    pub(crate) max_jobs: usize,
    /// Whether the schema cases found the server slow to answer each request
    /// ([`window::SLOW_CASE`](crate::window::SLOW_CASE)): later probes that sample tools
    /// sample fewer.
    pub(crate) slow: bool,
    /// Runs before each schema case ([`CheckOptions::before_each`](super::CheckOptions::before_each)).
    pub(crate) before_each: Option<mcp_test::cases::ResetHook>,
    /// When the last probe was recorded ([`Checker::lap`]).
    lap_start: Instant,
    /// How long one schema case may run ([`CheckOptions::case_time`](super::CheckOptions)).
    pub(crate) case_time: Option<Duration>,
    /// Transport events a probe has judged already, by index into the connection's events
    /// (`Connection::events`, which only grow): `transport/hygiene` leaves them alone, so one
    /// thing the server did is one finding (a reply to a notification is not also a reply to
    /// no request in flight).
    pub(crate) judged_events: BTreeSet<usize>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(target: &'a dyn Target, era: Era, timeout: Duration) -> Self {
        let mut session = Session::new(target, timeout);
        session.keep_overdue(patience(timeout));
        Checker {
            session,
            era,
            log: Mutex::new(Vec::new()),
            probes: Vec::new(),
            dead: None,
            last: None,
            jobs: 1,
            max_jobs: 1,
            slow: false,
            before_each: None,
            lap_start: Instant::now(),
            case_time: None,
            judged_events: BTreeSet::new(),
        }
    }

    /// Every probe run, in order.
    pub(crate) fn into_probes(self) -> Vec<Probe> {
        self.probes
    }

    pub(crate) fn probe(&mut self, name: &str, f: impl FnOnce(&mut Out)) {
        let mut out = Vec::new();
        f(&mut out);
        self.push_probe(name, out);
    }

    /// Records a probe and what it found. A probe that found nothing after the server had
    /// stopped answering did not run: it is recorded as skipped.
    pub(crate) fn push_probe(&mut self, name: &str, out: Out) {
        if out.is_empty()
            && let Some(dead) = &self.dead
        {
            let why = format!("the server had stopped answering ({dead})");
            return self.skip_probe(name, why);
        }
        let mut seen = HashSet::new();
        let findings = out
            .into_iter()
            .filter(|n| seen.insert((n.severity, n.message.clone())))
            .map(|n| n.into_finding(name, Some(self.era)))
            .collect();
        let duration = Some(self.lap());
        self.probes.push(Probe {
            name: name.to_owned(),
            findings,
            skipped: None,
            duration,
        });
    }

    /// Records a probe that did not run, and why.
    pub(crate) fn skip_probe(&mut self, name: &str, why: impl Into<String>) {
        let duration = Some(self.lap());
        self.probes.push(Probe {
            name: name.to_owned(),
            findings: Vec::new(),
            skipped: Some(why.into()),
            duration,
        });
    }

    /// The time since the last probe was recorded (or the checker began): a probe's own time,
    /// since probes run one after the other and each is recorded when it ends.
    fn lap(&mut self) -> Duration {
        let now = Instant::now();
        let lap = now.duration_since(self.lap_start);
        self.lap_start = now;
        lap
    }

    /// `clause` broken, in this server's era ([`Note::broke_in`]), shown by the last request.
    pub(crate) fn broke(&self, clause: &Clause, message: impl Into<String>) -> Note {
        Note::broke_in(self.era, clause, message).on(self.last.clone())
    }

    /// A note for the record, on the last request.
    pub(crate) fn info(&self, message: impl Into<String>) -> Note {
        Note::info(message).on(self.last.clone())
    }

    /// Sends a request; a transport failure is recorded (and later probes skip).
    pub(crate) async fn req(
        &mut self,
        method: &str,
        params: Value,
        out: &mut Out,
    ) -> Option<Value> {
        let (id, body) = self.session.body(method, params);
        self.send(method, id, body, out).await
    }

    /// Sends `requests` (method, params) all at once and returns their answers in order, each
    /// recorded as by [`Checker::req`] and with the request it answers (for
    /// [`last`](Self::last), which a finding names): for requests whose answers do not depend
    /// on each other, so a server slow to answer each costs one round trip, not one for each.
    /// With [`jobs`](Self::jobs) 1, one after the other.
    pub(crate) async fn req_each(
        &mut self,
        requests: Vec<(&str, Value)>,
        out: &mut Out,
    ) -> Vec<(Shown, Option<Value>)> {
        if self.dead.is_some() {
            return Vec::new();
        }
        let sent: Vec<(&str, i64, Value)> = requests
            .into_iter()
            .map(|(method, params)| {
                let (id, body) = self.session.body(method, params);
                (method, id, body)
            })
            .collect();
        let session = &self.session;
        // `--jobs 1`: every request one after the other.
        let at_once = if self.jobs > 1 { sent.len() } else { 1 };
        let answers: Vec<_> = futures_util::stream::iter(&sent)
            .map(|(_, _, body)| session.raw(body.clone()))
            .buffered(at_once.max(1))
            .collect()
            .await;
        let mut results = Vec::with_capacity(sent.len());
        for ((method, id, _), answer) in sent.into_iter().zip(answers) {
            let shown = Shown {
                method: method.to_owned(),
                id: Some(id),
            };
            self.last = Some(shown.clone());
            match answer {
                Ok(response) => {
                    self.log_response(method, id, response.clone());
                    results.push((shown, Some(response)));
                }
                Err(e) => {
                    // Once the server is known gone, the requests in flight with the one
                    // that found it are no news.
                    if self.dead.is_none() {
                        out.push(self.failure(method, id, &e));
                        if !mcp_test::cases::over_limit(&e) {
                            self.after_failure(e.to_string()).await;
                        }
                    }
                    results.push((shown, None));
                }
            }
        }
        results
    }

    /// Sends a request that must not be answered with `member` (`"result"`: it must be
    /// refused; `"error"`: it must be served). When it is, a note that the server broke
    /// `clause` goes to `out`, its message `says` of the reply (in [`brief`]); a failed request
    /// is recorded as by [`Checker::req`].
    pub(crate) async fn req_not_answered_with(
        &mut self,
        member: &str,
        method: &str,
        params: Value,
        out: &mut Out,
        clause: &Clause,
        says: impl FnOnce(String) -> String,
    ) {
        if let Some(r) = self.req(method, params, out).await
            && r.get(member).is_some()
        {
            let note = self.broke(clause, says(brief(&r)));
            out.push(note);
        }
    }

    /// Sends a request the server must refuse with -32602 (Invalid params). When it answers
    /// anything else, a note that it broke `clause` goes to `out`, its message `says` of the
    /// reply (in [`brief`]); a failed request is recorded as by [`Checker::req`].
    pub(crate) async fn req_invalid_params(
        &mut self,
        method: &str,
        params: Value,
        out: &mut Out,
        clause: &Clause,
        says: impl FnOnce(String) -> String,
    ) {
        let invalid = Some(i64::from(mcp_test::wire::error_codes::INVALID_PARAMS));
        if let Some(r) = self.req(method, params, out).await
            && r.pointer("/error/code").and_then(Value::as_i64) != invalid
        {
            let note = self.broke(clause, says(brief(&r)));
            out.push(note);
        }
    }

    /// Sends `body` (a request for `method` with id `id`) as built; the response is kept for
    /// the results/errors probes, a transport failure is recorded (and later probes skip).
    pub(crate) async fn send(
        &mut self,
        method: &str,
        id: i64,
        body: Value,
        out: &mut Out,
    ) -> Option<Value> {
        let response = self.send_unkept(method, id, body, out).await?;
        self.log_response(method, id, response.clone());
        Some(response)
    }

    /// [`Checker::send`] without keeping the response for the results and errors probes
    /// (for messages of an extension, which the core schema does not describe).
    pub(crate) async fn send_unkept(
        &mut self,
        method: &str,
        id: i64,
        body: Value,
        out: &mut Out,
    ) -> Option<Value> {
        if self.dead.is_some() {
            return None;
        }
        self.last = Some(Shown {
            method: method.to_owned(),
            id: Some(id),
        });
        match self.session.raw(body).await {
            Ok(response) => Some(response),
            Err(e) => {
                out.push(self.failure(method, id, &e));
                // A server that over limit or refused a scope has answered: it is not gone.
                if !mcp_test::cases::over_limit(&e) && !refused_for_scope_text(&e.to_string()) {
                    self.after_failure(e.to_string()).await;
                }
                None
            }
        }
    }

    /// What a request that got no usable reply says about the server: a reply past a limit
    /// of the client is a note naming the limit (no clause caps a message), one that is not
    /// UTF-8 breaks the UTF-8 rule, one under another id the id rule, silence within the
    /// timeout a note naming it ([`timeout_text`]; [`Checker::settle`] judges it at the end),
    /// and a transport failure (the server exited, say) the rule that a call gets a response.
    pub(crate) fn failure(&self, method: &str, id: i64, e: &TargetError) -> Note {
        {
            use mcp_test::client::ClientError;
            match e {
                TargetError::Client(ClientError::NotUtf8 { .. }) => {
                    return self.broke(
                        if self.modern() {
                            &clauses::UTF8
                        } else {
                            &clauses::LEGACY_UTF8
                        },
                        format!("the reply to {method} (id {id}): {e}"),
                    );
                }
                TargetError::Client(ClientError::WrongId { .. }) => {
                    return self.broke(
                        &clauses::RESULT_ID,
                        format!("no answer to {method} (id {id}) under its id: {e}"),
                    );
                }
                _ => {}
            }
        }
        if let TargetError::WrongId { .. } = e {
            return self.broke(
                &clauses::RESULT_ID,
                format!("no answer to {method} (id {id}) under its id: {e}"),
            );
        }
        if timed_out(e) {
            return self.info(timeout_text(
                &format!("{method} (id {id})"),
                self.session.timeout,
            ));
        }
        if refused_for_scope_text(&e.to_string()) {
            return self.info(refused_for_scope(
                &format!("{method} (id {id})"),
                &e.to_string(),
            ));
        }
        if mcp_test::cases::over_limit(e) {
            return self.info(format!(
                "the reply to {method} (id {id}) went past a limit of this client, so it was not read: {e}; no clause caps a message, so this is no verdict on the server"
            ));
        }
        self.broke(
            &clauses::JSONRPC_RESPONSE,
            format!("no answer to {method} (id {id}): {e}"),
        )
    }

    /// What `what` (a request, as `tools/call (id 7)`) failing with `e` says: silence within
    /// the timeout is a note ([`timeout_text`]), anything else breaks the rule that a request
    /// gets a response.
    pub(crate) fn no_answer(&self, what: &str, e: &impl std::fmt::Display) -> Note {
        let text = e.to_string();
        if timed_out_text(&text) {
            self.info(timeout_text(what, self.session.timeout))
        } else if refused_for_scope_text(&text) {
            self.info(refused_for_scope(what, &text))
        } else {
            self.broke(
                &clauses::JSONRPC_RESPONSE,
                format!("no answer to {what}: {text}"),
            )
        }
    }

    /// Judges the requests that outlasted the timeout ([`Session::settle`]), waiting only
    /// for those, up to their [`patience`]: one answered late keeps the note it had (with
    /// when it was answered); one still unanswered while the server answered later requests
    /// is a defect quoting [`clauses::JSONRPC_RESPONSE`], on the probe that sent it (the one
    /// whose note names it; else the last probe). A server that answered nothing since is
    /// asked once more (`server/discover` or `ping`); one that still answers nothing was
    /// already taken for gone when the request timed out, which is not judged again.
    pub(crate) async fn settle(&mut self, progress: &mut (dyn FnMut(&str) + Send)) {
        let waiting = self.session.overdue();
        if waiting == 0 {
            return;
        }
        progress(&format!(
            "waiting for the late answers to {waiting} request(s) that outlasted the {} timeout (up to {} after each was sent)",
            seconds(self.session.timeout),
            seconds(patience(self.session.timeout)),
        ));
        let late = self.session.settle().await;
        // One more request, when nothing answered since: does the server still answer?
        let silent = late
            .iter()
            .any(|l| matches!(l.outcome, LateOutcome::Unanswered) && l.answered_since == 0);
        let more = usize::from(silent && self.dead.is_none() && self.alive().await);
        let mut unanswered = Vec::new();
        let mut found: std::collections::HashMap<String, String> = Default::default();
        for l in late {
            let what = &l.request;
            let answered_since = l.answered_since + more;
            let probe = self
                .probes
                .iter_mut()
                .rev()
                .find(|p| p.findings.iter().any(|f| mentions(&f.message, what)));
            if let Some(p) = &probe {
                found.insert(l.method.clone(), p.name.clone());
            }
            match l.outcome {
                LateOutcome::Answered(answer) => {
                    let Some(probe) = probe else { continue };
                    let after = seconds(l.waited);
                    let how = match answer {
                        Ok(_) => format!("it was answered {after} after it was sent"),
                        // Whatever ended it (the server closed, a reply past a limit) is
                        // reported where it happened to the requests that saw it.
                        Err(e) => format!("{after} after it was sent: {e}"),
                    };
                    for f in &mut probe.findings {
                        if f.severity == Severity::Info && mentions(&f.message, what) {
                            f.message = format!("{}; {how}", f.message);
                            break;
                        }
                    }
                }
                LateOutcome::Unanswered if answered_since > 0 && self.dead.is_none() => {
                    // A request no note names (one of several a note counts) belongs with
                    // the last one of its method that a note named.
                    let name = probe
                        .map(|p| p.name.clone())
                        .or_else(|| found.get(&l.method).cloned())
                        .or_else(|| self.probes.last().map(|p| p.name.clone()));
                    if let Some(name) = name {
                        unanswered.push((name, l, answered_since));
                    }
                }
                _ => {}
            }
        }
        // One defect per probe and method; the first request is shown, the rest counted.
        while let Some((name, first, answered_since)) =
            unanswered.first().map(|(n, l, a)| (n.clone(), l, *a))
        {
            let method = first.method.clone();
            let what = first.request.clone();
            let mut message = format!(
                "no answer to {what} in {} (the check waits {} for a late answer: 3 × the {} timeout, and at least {} more than it), while the server answered {answered_since} other request(s) after its timeout: every request must get a response",
                seconds(first.waited),
                seconds(patience(first.timeout)),
                seconds(first.timeout),
                seconds(MIN_EXTRA_PATIENCE),
            );
            let (same, rest): (Vec<_>, Vec<_>) = unanswered
                .into_iter()
                .partition(|(n, l, _)| *n == name && l.method == method);
            unanswered = rest;
            if same.len() > 1 {
                let others: Vec<String> = same[1..]
                    .iter()
                    .take(10)
                    .map(|(_, l, _)| l.request.clone())
                    .collect();
                let more = if same.len() > 11 { ", ..." } else { "" };
                message.push_str(&format!(
                    "; {} more {method} request(s) went unanswered the same way: {}{more}",
                    same.len() - 1,
                    others.join(", ")
                ));
            }
            let note =
                Note::broke_in(self.era, &clauses::JSONRPC_RESPONSE, message).on(Some(Shown {
                    method: method.clone(),
                    id: request_id(&what),
                }));
            if let Some(p) = self.probes.iter_mut().find(|p| p.name == name) {
                p.findings.push(note.into_finding(&p.name, Some(self.era)));
            }
        }
    }

    /// After a call got no answer: the server is dead unless it still answers
    /// ([`Checker::alive`]); a hang in one handler is then noted, and judged at the end
    /// ([`Checker::settle`]), and the check goes on.
    pub(crate) async fn after_failure(&mut self, message: String) {
        // The overall deadline, not the server, ended the call (see `deadline.rs`).
        if self.session.past_deadline() {
            return;
        }
        if !self.alive().await && !self.session.past_deadline() {
            self.dead = Some(message);
        }
    }

    /// Whether the server still answers: a request that changes nothing (`server/discover`
    /// of a 2026-07-28 server, `ping` of a 2025-era one) gets any answer, an error included.
    /// It is waited for up to the [`patience`], not just the timeout: a server that handles
    /// one request at a time answers it only once the slow call before it is done.
    pub(crate) async fn alive(&self) -> bool {
        let method = if self.modern() {
            "server/discover"
        } else {
            "ping"
        };
        let wait = patience(self.session.timeout);
        let (_, answer) = self.session.request_within(method, json!({}), wait).await;
        answer.is_ok()
    }

    /// Keeps `response` (to `method`, with id `id`) for the results and errors probes.
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

    pub(crate) fn modern(&self) -> bool {
        self.era == Era::Current
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_test::client::ClientError;

    #[test]
    fn the_wait_for_a_late_answer_is_three_timeouts_and_at_least_5_s_more() {
        assert_eq!(patience(Duration::from_secs(1)), Duration::from_secs(6));
        assert_eq!(patience(Duration::from_secs(30)), Duration::from_secs(90));
        assert_eq!(patience(Duration::MAX), Duration::MAX);
    }

    #[test]
    fn a_timeout_is_told_from_other_failures_as_mcp_test_words_them() {
        let session = TargetError::Timeout {
            request: "tools/call (id 7)".into(),
            after: Duration::from_secs(1),
        };
        let client = TargetError::Client(ClientError::Timeout {
            request: "tools/call (id 7)".into(),
            after: Duration::from_millis(500),
            stderr: String::new(),
        });
        assert!(timed_out(&session));
        assert!(timed_out(&client));
        assert!(timed_out_text(&format!("no answer to the call: {session}")));
        let wrong_id = TargetError::WrongId {
            request: "tools/call (id 7)".into(),
            expected: "7".into(),
            got: vec!["8".into()],
            after: Duration::from_secs(1),
        };
        assert!(!timed_out(&wrong_id));
        let gone = TargetError::NoResponse {
            request: "tools/call (id 7)".into(),
        };
        assert!(!timed_out(&gone));
        assert!(!timed_out_text("the server exited before replying"));
    }

    #[test]
    fn the_timeout_note_names_the_timeout_and_the_flag() {
        let text = timeout_text("tools/call (id 7)", Duration::from_secs(30));
        assert!(text.starts_with("no answer to tools/call (id 7) within the 30 s timeout"));
        assert!(text.contains("`--timeout SECS`"));
        assert!(!text.contains("must") && !text.contains("should"), "{text}");
        assert_eq!(request_id("tools/call (id 7)"), Some(7));
        assert_eq!(request_id("tools/call (id \"a\")"), None);
    }
}
