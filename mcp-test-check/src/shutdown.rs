//! The end of a check: close the server, and record how it ended as the probe
//! `transport/shutdown`.
//!
//! On stdio the client closes the server's stdin and gives it a short grace to exit
//! ([`CheckOptions::close_grace`]); a server still running then is stopped with its whole
//! process group (`SIGTERM`, then `SIGKILL` on Unix), as is anything it left running after
//! it exited. A 2026-07-28 server that had to be stopped breaks
//! [`STDIO_EXIT_ON_EOF`] (a SHOULD: a warning). The 2025-11-25 lifecycle (`basic/lifecycle.mdx`
//! §Shutdown) asks nothing of the server here, only of the client (close stdin, wait, then
//! `SIGTERM` and `SIGKILL`), so for a 2025-era server it is a note.

use super::{
    CheckOptions, CheckReport, Finding, Probe, Severity, check_one, close_own, may_run_beside,
    other_era, other_era_beside,
};
use mcp_test::cases::Connected;
use mcp_test::cases::Era;
use mcp_test::client::ClientError;
use mcp_test::spec::clauses::{Clause, STDIO_EXIT_ON_EOF, Transport};
use mcp_test::target::TransportEvent;
use std::process::ExitStatus;

/// The name of the probe [`CheckReport::record_shutdown`] adds.
pub const SHUTDOWN_PROBE: &str = "transport/shutdown";

impl CheckReport {
    /// Records how closing the server went (the outcome of
    /// [`Client::close`](mcp_test::client::Client::close)) as the probe `transport/shutdown`:
    ///
    /// - the process exited by itself: no finding (a non-zero status is a note);
    /// - it did not exit within the grace and was killed ([`ClientError::NoExit`]): a warning
    ///   quoting [`STDIO_EXIT_ON_EOF`] for a 2026-07-28 server, a note for a 2025-era one;
    /// - closing failed otherwise: a note;
    /// - there was no process (HTTP, or streams): the probe is recorded as not run.
    ///
    /// ```
    /// use mcp_test::cases::{Era};
    /// use mcp_test_check::{CheckReport, Severity};
    /// use mcp_test::client::ClientError;
    /// use std::time::Duration;
    /// let mut report = CheckReport { era: Some(Era::Current), ..CheckReport::default() };
    /// report.record_shutdown(&Err(ClientError::NoExit {
    ///     after: Duration::from_secs(2),
    ///     stderr: String::new(),
    /// }));
    /// let finding = report.findings().next().unwrap();
    /// assert_eq!(finding.probe, "transport/shutdown");
    /// assert_eq!(finding.severity, Severity::Warning);
    /// assert_eq!(finding.clause.unwrap().id, "stdio/exit-on-eof");
    /// ```
    pub fn record_shutdown(&mut self, outcome: &Result<Option<ExitStatus>, ClientError>) {
        let legacy = self.era == Some(Era::Legacy);
        let era = self.era;
        let finding = |severity: Severity, message: String, clause: Option<Clause>| Finding {
            severity,
            probe: SHUTDOWN_PROBE.to_owned(),
            message,
            clause,
            request: None,
            era,
        };
        let findings = match outcome {
            Ok(None) => {
                self.probes.push(Probe {
                    name: SHUTDOWN_PROBE.to_owned(),
                    findings: Vec::new(),
                    skipped: Some(
                        "no server process to close (Streamable HTTP, or streams)".into(),
                    ),
                    duration: None,
                });
                return;
            }
            Ok(Some(status)) if status.success() => Vec::new(),
            Ok(Some(status)) => vec![finding(
                Severity::Info,
                format!(
                    "the server exited with {status} after its stdin was closed (no clause says what status a server exits with)"
                ),
                None,
            )],
            Err(ClientError::NoExit { after, .. }) if legacy => vec![finding(
                Severity::Info,
                format!(
                    "the server was still running {after:?} after its stdin was closed, and was stopped (SIGTERM to its process group, then SIGKILL); 2025-11-25 basic/lifecycle.mdx §Shutdown asks nothing of the server here (the client closes stdin, waits, then terminates it), so a note"
                ),
                None,
            )],
            Err(ClientError::NoExit { after, .. }) => vec![finding(
                Severity::from(STDIO_EXIT_ON_EOF.level),
                format!(
                    "the server was still running {after:?} after its stdin was closed, and was stopped (SIGTERM to its process group, then SIGKILL)"
                ),
                Some(STDIO_EXIT_ON_EOF),
            )],
            Err(e) => vec![finding(
                Severity::Info,
                format!("closing the server failed: {e}"),
                None,
            )],
        };
        self.probes.push(Probe {
            name: SHUTDOWN_PROBE.to_owned(),
            findings,
            skipped: None,
            duration: None,
        });
    }
}

/// [`check`](super::check()) a connected server, then close it and record how it ended
/// ([`CheckReport::record_shutdown`]): the report `mcp-test check` prints. The requests that
/// outlasted the timeout are judged before the server is closed, once each was answered or
/// waited its wait out ([`CheckOptions::timeout`]). The close waits
/// [`CheckOptions::close_grace`] for a stdio server to exit before killing it; other clones
/// of the client can no longer send afterwards.
///
/// ```
/// use mcp_test::cases::{Connected};
/// use mcp_test_check::{check_connected, example_server, CheckOptions};
/// use mcp_test::client::Client;
/// use mcp_test::transport::stdio::{serve, StdioConfig};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// // The example server over a pair of in-memory pipes (a child process works the same way).
/// let (client_end, server_end) = tokio::io::duplex(64 * 1024);
/// let (server_read, server_write) = tokio::io::split(server_end);
/// tokio::spawn(serve(example_server(), server_read, server_write, StdioConfig::default()));
/// let (read, write) = tokio::io::split(client_end);
/// let connected = Connected::probe(Client::connect(read, write), "example").await.unwrap();
/// let report = check_connected(&connected, &CheckOptions::default()).await;
/// assert_eq!(report.exit_code(), 0, "{}", report.to_text());
/// # }
/// ```
pub async fn check_connected(connected: &Connected, options: &CheckOptions) -> CheckReport {
    check_connected_with_progress(connected, options, &mut |_| {}).await
}

/// [`check_connected`], calling `progress` with a line before each step.
///
/// A server that serves both eras gets its other era's check on a connection of its own
/// ([`CheckOptions::reconnect`]): beside the first when no write is consented to (each
/// session closing its server as it ends), else once the first has ended, while its server
/// closes.
pub async fn check_connected_with_progress(
    connected: &Connected,
    options: &CheckOptions,
    progress: &mut (dyn FnMut(&str) + Send),
) -> CheckReport {
    let started = std::time::Instant::now();
    let warmed = warm(connected, options);
    let report = if may_run_beside(options, connected.era, connected.era_chosen) {
        // Both eras at once, each on a process of its own; the lines of the other era's
        // session carry its era.
        let shared = std::sync::Mutex::new(&mut *progress);
        let say = |line: &str| {
            let mut progress = shared.lock().unwrap_or_else(|e| e.into_inner());
            (*progress)(line);
        };
        let first = async {
            let (mut report, serves_legacy, own) =
                check_one(connected, options, &mut |l| say(l)).await;
            sample_listeners(connected, &mut report);
            say(CLOSING);
            let outcome = close_with_own(connected, own, options).await;
            (report, serves_legacy, outcome)
        };
        let legacy = Era::Legacy;
        let mut say_legacy = |l: &str| say(&format!("[{legacy}] {l}"));
        let second = other_era_beside(options, &mut say_legacy);
        let ((mut report, serves_legacy, outcome), beside) = tokio::join!(first, second);
        record_close(connected, &mut report, &outcome);
        other_era(
            &mut report,
            serves_legacy,
            beside,
            options,
            started,
            &mut |l| say(l),
        )
        .await;
        report
    } else {
        let (mut report, serves_legacy, own) = check_one(connected, options, progress).await;
        sample_listeners(connected, &mut report);
        // Side by side: a process takes its grace to exit, and the other era's session, on a
        // connection of its own, need not wait for it.
        progress(CLOSING);
        let (outcome, ()) = tokio::join!(
            close_with_own(connected, own, options),
            other_era(&mut report, serves_legacy, None, options, started, progress)
        );
        record_close(connected, &mut report, &outcome);
        report
    };
    let mut report = report;
    crate::security::after_check(&mut report, options, progress).await;
    if let Some(reconnect) = warmed {
        reconnect.close_warm(options.close_grace).await;
    }
    report
}

/// The sockets the server process `check` started listens on, read once its session ended
/// and before it is closed (a server may open its port lazily): `exposure/listens-beyond-loopback`.
fn sample_listeners(connected: &Connected, report: &mut CheckReport) {
    crate::security::exposure::listening(connected.client.process_id(), report.era).record(report);
}

/// Closes `connected` and, side by side, the process of its own that the probes writing what
/// a client must not wrote to ([`check_one`]'s third part): how `connected` ended.
async fn close_with_own(
    connected: &Connected,
    own: Option<Connected>,
    options: &CheckOptions,
) -> Result<Option<ExitStatus>, ClientError> {
    let (outcome, ()) = tokio::join!(
        connected.client.close_within(options.close_grace),
        close_own(own)
    );
    outcome
}

/// Over stdio, starts the processes the check will need beside `connected` while its first
/// session runs ([`Reconnect::warm`](crate::Reconnect)): the one the probes that write what a
/// client must not (`base/invalid-request`, `base/malformed-message`) share, and,
/// unless the era was pinned, the one whose `initialize` asks whether the server serves
/// 2025-11-25 too. A server whose process takes a second to start then costs that second
/// about once. Over HTTP a connection of its own is one request, and nothing is warmed.
/// Returns the `Reconnect` whose warmed connections are closed at the end.
fn warm<'o>(connected: &Connected, options: &'o CheckOptions) -> Option<&'o crate::Reconnect> {
    let reconnect = options.reconnect.as_ref()?;
    let stdio = mcp_test::target::Target::connection(connected).transport == Some(Transport::Stdio);
    if !stdio || options.second_session {
        return None;
    }
    reconnect.warm(connected.era);
    if connected.era == Era::Current && !connected.era_chosen {
        reconnect.warm(Era::Legacy);
    }
    Some(reconnect)
}

/// One era's check of `connected` ([`check_one`]), then closing it.
pub(crate) async fn check_and_close(
    connected: &Connected,
    options: &CheckOptions,
    progress: &mut (dyn FnMut(&str) + Send),
) -> CheckReport {
    let (mut report, _, own) = check_one(connected, options, progress).await;
    progress(CLOSING);
    let outcome = close_with_own(connected, own, options).await;
    record_close(connected, &mut report, &outcome);
    report
}

/// What the progress line says as a server is closed.
const CLOSING: &str = "shutdown: closing the server";

/// Records in `report` how `connected` ended once closed (`outcome`: `transport/shutdown`).
fn record_close(
    connected: &Connected,
    report: &mut CheckReport,
    outcome: &Result<Option<ExitStatus>, ClientError>,
) {
    report.record_shutdown(outcome);
    // How the server's process group had to be stopped, if it had to be: for the record (no
    // clause says what a server may leave running; the client stops it all).
    let stopped = connected
        .client
        .transport_events()
        .into_iter()
        .filter_map(|e| match e {
            TransportEvent::GroupStopped { .. } => Some(Finding {
                severity: Severity::Info,
                probe: SHUTDOWN_PROBE.to_owned(),
                message: e.to_string(),
                clause: None,
                request: None,
                era: report.era,
            }),
            _ => None,
        });
    if let Some(probe) = report.probes.iter_mut().find(|p| p.name == SHUTDOWN_PROBE) {
        probe.findings.extend(stopped);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::time::Duration;

    fn report(era: Era) -> CheckReport {
        CheckReport {
            era: Some(era),
            ..CheckReport::default()
        }
    }

    fn no_exit() -> Result<Option<ExitStatus>, ClientError> {
        Err(ClientError::NoExit {
            after: Duration::from_secs(1),
            stderr: String::new(),
        })
    }

    #[test]
    fn the_check_closes_with_the_client_s_default_grace() {
        assert_eq!(
            CheckOptions::default().close_grace,
            mcp_test::client::DEFAULT_CLOSE_GRACE
        );
    }

    #[test]
    fn a_server_that_ignores_eof_breaks_a_should_in_2026_and_is_a_note_in_2025() {
        for (era, severity, clause, says) in [
            (
                Era::Current,
                Severity::Warning,
                Some(STDIO_EXIT_ON_EOF),
                "still running 1s",
            ),
            (Era::Legacy, Severity::Info, None, "2025-11-25"),
        ] {
            let mut r = report(era);
            r.record_shutdown(&no_exit());
            let f = r.findings().next().unwrap();
            assert_eq!((f.severity, f.clause), (severity, clause), "{era:?}");
            assert!(f.message.contains(says), "{era:?}: {}", f.message);
            assert!(!r.has_defects());
        }
    }

    #[test]
    fn a_clean_exit_passes_and_no_process_is_not_run() {
        let mut r = report(Era::Current);
        r.record_shutdown(&Ok(Some(ExitStatus::from_raw(0))));
        assert_eq!(r.probes.len(), 1);
        assert_eq!(r.probes[0].name, SHUTDOWN_PROBE);
        assert!(r.probes[0].findings.is_empty());
        // Exit code 3 (a wait status of 3 << 8): a note.
        r.record_shutdown(&Ok(Some(ExitStatus::from_raw(3 << 8))));
        assert_eq!(r.probes[1].findings[0].severity, Severity::Info);
        r.record_shutdown(&Ok(None));
        assert!(r.probes[2].skipped.is_some());
        assert!(!r.probes[2].passed());
    }
}
