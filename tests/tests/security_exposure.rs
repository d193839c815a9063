//! `check`'s exposure rules end to end (`security::exposure`): a stdio server listening on
//! every interface (`poisoned_server --attack listen-all`), and the Streamable HTTP
//! `exposed_server` in 2025-11-25 behind one mistake at a time (sequential session ids, a
//! token taken in the URL, CORS with credentials), each required to draw its rule with its
//! evidence, and the honest servers none of the four.

use mcp_test::cases::{Connected, Era};
use mcp_test::client::{Client, HttpOptions};
use mcp_test_check::{CheckOptions, CheckReport, Reconnect, check_connected};
use std::time::Duration;
use tokio::io::AsyncBufReadExt;

const EXPOSURE: [&str; 4] = [
    "exposure/listens-beyond-loopback",
    "exposure/predictable-session-id",
    "exposure/credentials-in-url",
    "exposure/cors-credentials",
];

fn options() -> CheckOptions {
    CheckOptions::default()
        .timeout(Duration::from_secs(20))
        .deadline(Some(Duration::from_secs(120)))
}

fn exposure(report: &CheckReport) -> Vec<&'static str> {
    report
        .security
        .iter()
        .map(|f| f.rule.id)
        .filter(|id| EXPOSURE.contains(id))
        .collect()
}

/// The HTTP fixture started on a free port of 127.0.0.1, with its URL; killed when dropped.
async fn start_http(args: &[&str]) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_exposed_server"))
        .args(["--http", "127.0.0.1:0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the fixture starts");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("the fixture says where it listens")
        .unwrap()
        .unwrap();
    let address = line.strip_prefix("listening on ").expect("its address");
    (child, format!("http://{address}/mcp"))
}

/// `check` of the HTTP fixture in 2025-11-25, with `headers` on every request.
async fn check_http(args: &[&str], headers: &[&str]) -> CheckReport {
    let (_child, url) = start_http(args).await;
    let mut http = HttpOptions::new();
    for h in headers {
        http = http.header_line(h).unwrap();
    }
    let open = {
        let (url, http) = (url.clone(), http.clone());
        move |era: Era| {
            let (url, http) = (url.clone(), http.clone());
            async move {
                let client = Client::http_with(&url, &http)?;
                Connected::connect(client, "exposed_server", Some(era)).await
            }
        }
    };
    let connected = open(Era::Legacy).await.expect("the fixture answers");
    check_connected(&connected, &options().reconnect(Some(Reconnect::new(open)))).await
}

#[tokio::test]
async fn the_honest_http_server_draws_no_exposure_finding() {
    let report = check_http(&[], &[]).await;
    assert_eq!(
        exposure(&report),
        Vec::<&str>::new(),
        "{}",
        report.to_text()
    );
    assert!(report.security.is_empty(), "{}", report.to_text());
    // With a token it asks for, and takes only in the header.
    let report = check_http(&["--token", "t0ken"], &["Authorization: Bearer t0ken"]).await;
    assert!(report.security.is_empty(), "{}", report.to_text());
}

#[tokio::test]
async fn sequential_session_ids_are_predictable() {
    let report = check_http(&["--attack", "sequential-session-ids"], &[]).await;
    let f = report
        .security
        .iter()
        .find(|f| f.rule.id == "exposure/predictable-session-id")
        .unwrap_or_else(|| panic!("{}", report.to_text()));
    assert!(f.message.contains("sequential"), "{}", f.message);
    assert_eq!(f.era, Some(Era::Legacy));
    assert_eq!(exposure(&report), ["exposure/predictable-session-id"]);
}

#[tokio::test]
async fn a_token_taken_in_the_url_is_found_and_not_shown() {
    let report = check_http(
        &["--token", "s3cret-t0ken", "--attack", "token-in-query"],
        &["Authorization: Bearer s3cret-t0ken"],
    )
    .await;
    let f = report
        .security
        .iter()
        .find(|f| f.rule.id == "exposure/credentials-in-url")
        .unwrap_or_else(|| panic!("{}", report.to_text()));
    assert!(
        f.excerpt.contains("access_token=<redacted>"),
        "{}",
        f.excerpt
    );
    assert!(!report.to_json().to_string().contains("s3cret-t0ken"));
    assert_eq!(exposure(&report), ["exposure/credentials-in-url"]);
}

#[tokio::test]
async fn a_foreign_origin_allowed_with_credentials_is_found() {
    let report = check_http(&["--attack", "cors-credentials"], &[]).await;
    let f = report
        .security
        .iter()
        .find(|f| f.rule.id == "exposure/cors-credentials")
        .unwrap_or_else(|| panic!("{}", report.to_text()));
    assert!(
        f.excerpt.contains("https://evil.example") && f.excerpt.contains("Credentials: true"),
        "{}",
        f.excerpt
    );
    assert_eq!(exposure(&report), ["exposure/cors-credentials"]);
    // The foreign Origin served is the Origin probe's to report: the exposure rules say
    // nothing of it, so no server hears of it twice.
    let json = report.to_json().to_string();
    assert!(!json.contains("DNS rebinding) is the probe"), "{json}");
}

fn poisoned(args: &[&str]) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_poisoned_server"));
    command.args(args).kill_on_drop(true);
    command
}

async fn check_stdio(args: &'static [&'static str]) -> CheckReport {
    let client = Client::spawn(poisoned(args))
        .await
        .expect("the fixture starts");
    let connected = Connected::connect(client, "poisoned_server", Some(Era::Current))
        .await
        .expect("the fixture answers");
    let reconnect = Reconnect::new(move |era| async move {
        let client = Client::spawn(poisoned(args)).await?;
        Connected::connect(client, "poisoned_server", Some(era)).await
    });
    check_connected(&connected, &options().reconnect(Some(reconnect))).await
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_stdio_server_listening_on_every_interface_is_found() {
    let report = check_stdio(&["--attack", "listen-all"]).await;
    let f = report
        .security
        .iter()
        .find(|f| f.rule.id == "exposure/listens-beyond-loopback")
        .unwrap_or_else(|| panic!("{}", report.to_text()));
    assert!(f.excerpt.starts_with("0.0.0.0:"), "{}", f.excerpt);
    assert!(f.message.contains("pid "), "{}", f.message);
    assert_eq!(exposure(&report), ["exposure/listens-beyond-loopback"]);
    let honest = check_stdio(&[]).await;
    assert_eq!(
        exposure(&honest),
        Vec::<&str>::new(),
        "{}",
        honest.to_text()
    );
}
