//! The one overall deadline of a check ([`CheckOptions::deadline`]) and what a report says
//! when the check did not run to its end ([`CheckReport::incomplete`]).
//!
//! The deadline sits on the session every probe request goes through
//! ([`Session`](mcp_test::__check::Session)): once it has passed, nothing more is sent and a
//! request in flight is no longer waited for, so every remaining probe ends at once. The
//! requests refused so are not the server's fault: [`finish`] takes the failures they caused
//! out of the report, drops the schema cases that did not run, and says in
//! [`CheckReport::incomplete`] that the check was cut short. A probe they cut short is
//! recorded as not run ([`Probe::skipped`](crate::Probe::skipped)), unless it had already
//! found a defect or a warning, which stands with a note. Everything that ran before is kept.

use super::{CheckOptions, CheckReport, Finding, Severity};
use crate::checker::{Checker, seconds};
use mcp_test::__check::Deadline;
use mcp_test::cases::Happened;
use mcp_test::target::DEADLINE_PASSED;
use std::sync::Arc;

/// Starts the deadline of `options` (if any) on the checker's session.
pub(super) fn start(c: &mut Checker<'_>, options: &CheckOptions) -> Option<Arc<Deadline>> {
    let deadline = Deadline::after(options.deadline?);
    c.session.set_deadline(deadline.clone());
    Some(deadline)
}

/// Whether a step that does not go through the session (the raw HTTP probes) may still run;
/// one that may not is counted as cut short.
pub(super) fn allows(deadline: Option<&Deadline>, step: &str) -> bool {
    match deadline {
        Some(d) if d.passed() => {
            let _ = d.refuse(step.to_owned());
            false
        }
        _ => true,
    }
}

/// Takes what the deadline refused out of `report` and says the check was cut short; a
/// report of a check the deadline did not cut is left as it is.
pub(super) fn finish(deadline: Option<&Deadline>, report: &mut CheckReport) {
    let Some(deadline) = deadline.filter(|d| d.refused() > 0) else {
        return;
    };
    for probe in &mut report.probes {
        let before = probe.findings.len();
        probe
            .findings
            .retain(|f| !f.message.contains(DEADLINE_PASSED));
        let cut = before - probe.findings.len();
        if cut == 0 {
            continue;
        }
        let why = format!(
            "{DEADLINE_PASSED}: {cut} of its requests {} not sent or not waited for",
            if cut == 1 { "was" } else { "were" }
        );
        if probe.failed() {
            // What it found before the deadline stands.
            probe.findings.push(Finding {
                severity: Severity::Info,
                probe: probe.name.clone(),
                message: format!("{why}, so it checked only part of what it covers"),
                clause: None,
                request: None,
                era: report.era,
            });
        } else {
            // Not run in full: neither passed nor failed.
            probe.skipped = Some(why);
        }
    }
    let before = report.cases.outcomes.len();
    report.cases.outcomes.retain(|o| {
        !matches!(&o.happened, Happened::Failed { message } if message.contains(DEADLINE_PASSED))
    });
    let cases = before - report.cases.outcomes.len();
    let first = deadline
        .first_refused()
        .map_or_else(String::new, |f| format!(", starting with {f}"));
    let cases = if cases > 0 {
        format!(" ({cases} schema cases among them are left out)")
    } else {
        String::new()
    };
    report.incomplete = Some(format!(
        "{DEADLINE_PASSED} of {}: {} requests were not sent or not waited for{first}{cases}; the report holds what ran before",
        seconds(deadline.budget()),
        deadline.refused()
    ));
}

impl CheckReport {
    /// The report of a check that could not run at all: `target` could not be reached, or
    /// did not answer the handshake. Only [`incomplete`](CheckReport::incomplete) is set;
    /// `mcp-test check` prints it in every format and exits 2.
    ///
    /// ```
    /// use mcp_test_check::CheckReport;
    /// let report = CheckReport::not_checked("http://127.0.0.1:9/mcp", "cannot connect: refused");
    /// assert_eq!(report.exit_code(), 2);
    /// assert_eq!(report.to_json()["incomplete"], "cannot connect: refused");
    /// assert!(report.to_junit().contains("<error message=\"cannot connect: refused\""));
    /// ```
    pub fn not_checked(target: impl Into<String>, reason: impl Into<String>) -> CheckReport {
        CheckReport {
            target: target.into(),
            incomplete: Some(reason.into()),
            ..CheckReport::default()
        }
    }

    /// The exit code of `mcp-test check` for this report: 1 when it found a defect, else 2
    /// when the check could not run to its end ([`incomplete`](CheckReport::incomplete):
    /// the server could not be reached, or the deadline passed), else 0.
    ///
    /// ```
    /// use mcp_test_check::{check, example_server, CheckOptions};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let report = check(&example_server(), &CheckOptions::default()).await;
    /// assert_eq!(report.exit_code(), 0);
    /// # }
    /// ```
    pub fn exit_code(&self) -> u8 {
        if self.has_defects() {
            1
        } else if self.cut_short().is_some() {
            2
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check, example_server};
    use mcp_test::target::{Target, TargetFuture};
    use mcp_test::{Caller, Server};
    use serde_json::Value;
    use std::time::Duration;
    use std::time::Instant;

    /// The example server, answering each message after `delay`; a `tools/call` never.
    struct Slow {
        server: Server,
        delay: Duration,
        hang_on_calls: bool,
    }

    impl Target for Slow {
        fn label(&self) -> String {
            "slow".to_owned()
        }
        fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
            Box::pin(async move {
                tokio::time::sleep(self.delay).await;
                if self.hang_on_calls && message["method"] == "tools/call" {
                    std::future::pending::<()>().await;
                }
                self.server.send(message, caller).await
            })
        }
    }

    /// Checks the example server answering after `delay` (and never a `tools/call` when
    /// `hang_on_calls`), with an overall `deadline` and a per-call `timeout`; the check must
    /// end well within five seconds whatever the server does.
    async fn check_slow(
        delay: Duration,
        hang_on_calls: bool,
        deadline: Duration,
        timeout: Duration,
    ) -> CheckReport {
        let slow = Slow {
            server: example_server(),
            delay,
            hang_on_calls,
        };
        let options = CheckOptions {
            deadline: Some(deadline),
            timeout,
            ..CheckOptions::default()
        };
        let started = Instant::now();
        let report = check(&slow, &options).await;
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "{took:?}");
        report
    }

    #[tokio::test]
    async fn a_check_cut_short_keeps_what_ran_and_blames_nothing_on_the_server() {
        let report = check_slow(
            Duration::from_millis(40),
            false,
            Duration::from_millis(600),
            Duration::from_secs(5),
        )
        .await;
        let why = report.incomplete.as_deref().expect("cut short");
        assert!(
            why.starts_with("cut short by the overall deadline of 0.6 s"),
            "{why}"
        );
        // What ran is there; the deadline is nobody's defect.
        assert!(report.probes.iter().any(|p| p.name == "discovery/fields"));
        assert_eq!(report.count(Severity::Defect), 0, "{}", report.to_text());
        assert_eq!(report.count(Severity::Warning), 0, "{}", report.to_text());
        let cut: Vec<&str> = report
            .probes
            .iter()
            .filter_map(|p| p.skipped.as_deref())
            .filter(|why| why.starts_with(DEADLINE_PASSED))
            .collect();
        assert!(!cut.is_empty(), "{}", report.to_text());
        assert_eq!(report.exit_code(), 2);
        assert!(report.to_text().contains("Incomplete: cut short"));
        assert_eq!(report.to_json()["incomplete"], why);
        assert!(report.to_junit().contains("errors=\"1\""));
    }

    #[tokio::test]
    async fn a_request_in_flight_is_not_waited_for_past_the_deadline() {
        // Every tool call hangs, and the per-call timeout is far longer than the deadline.
        let report = check_slow(
            Duration::ZERO,
            true,
            Duration::from_millis(500),
            Duration::from_secs(60),
        )
        .await;
        assert!(report.incomplete.is_some(), "{}", report.to_text());
        assert_eq!(report.count(Severity::Defect), 0, "{}", report.to_text());
        // The case whose call was cut is left out, not counted as a failure.
        assert!(
            report.cases.outcomes.is_empty(),
            "{:?}",
            report.cases.outcomes
        );
        assert!(report.incomplete.unwrap().contains("tools/call"));
    }

    #[tokio::test]
    async fn a_check_within_its_deadline_is_complete() {
        let report = check(&example_server(), &CheckOptions::default()).await;
        assert_eq!(report.incomplete, None);
        assert_eq!(report.to_json()["incomplete"], Value::Null);
        assert!(!report.to_junit().contains("<error"));
        assert!(!report.to_text().contains("Incomplete"));
    }

    #[test]
    fn seconds_are_whole_or_tenths() {
        assert_eq!(seconds(Duration::from_secs(600)), "600 s");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(seconds(Duration::from_millis(3970)), "4.0 s");
    }
}
