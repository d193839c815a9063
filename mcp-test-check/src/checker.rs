//! The checker: one check's session, every response so far, and the probes recorded; the
//! [`Note`]s probes find before they become findings. Every probe builds on it.

use crate::{Finding, Probe, Severity, Shown};
use mcp_test::__check::Session;
use mcp_test::cases::Era;
use mcp_test::spec::clauses::{self, Clause};
use mcp_test::target::{Target, TargetError};
use serde_json::{Value, json};
use std::collections::HashSet;
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

    pub(crate) fn into_finding(self, probe: &str) -> Finding {
        Finding {
            severity: self.severity,
            probe: probe.to_owned(),
            message: self.message,
            clause: self.clause,
            request: self.request,
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
    /// When the last probe was recorded ([`Checker::lap`]).
    lap_start: Instant,
    /// How long one schema case may run ([`CheckOptions::case_time`](super::CheckOptions)).
    pub(crate) case_time: Option<Duration>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(target: &'a dyn Target, era: Era, timeout: Duration) -> Self {
        Checker {
            session: Session::new(target, timeout),
            era,
            log: Mutex::new(Vec::new()),
            probes: Vec::new(),
            dead: None,
            last: None,
            jobs: 1,
            lap_start: Instant::now(),
            case_time: None,
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
            .map(|n| n.into_finding(name))
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

    /// Sends a request the server must refuse with -32602 (Invalid params): the reply, in
    /// [`brief`], when it answered anything else; `None` when it refused it so, or when the
    /// request failed (recorded as by [`Checker::req`]).
    pub(crate) async fn req_not_invalid_params(
        &mut self,
        method: &str,
        params: Value,
        out: &mut Out,
    ) -> Option<String> {
        let invalid = Some(i64::from(mcp_test::wire::error_codes::INVALID_PARAMS));
        let r = self.req(method, params, out).await?;
        (r.pointer("/error/code").and_then(Value::as_i64) != invalid).then(|| brief(&r))
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
                if !mcp_test::cases::over_limit(&e) {
                    self.after_failure(e.to_string()).await;
                }
                None
            }
        }
    }

    /// What a request that got no usable reply says about the server: a reply past a limit
    /// of the client is a note naming the limit (no clause caps a message), one that is not
    /// UTF-8 breaks the UTF-8 rule, one under another id the id rule, and silence (or a
    /// transport failure) the rule that a call gets a response.
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

    /// After a call got no answer: the server is dead unless it still answers `tools/list`
    /// (a hang in one handler is then reported, and the check goes on).
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
    pub(crate) async fn alive(&self) -> bool {
        let method = if self.modern() {
            "server/discover"
        } else {
            "ping"
        };
        let (_, answer) = self.session.request(method, json!({})).await;
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
