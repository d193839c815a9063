//! The CI formats of a check hold exactly what the report holds: a SARIF result per finding
//! and per security finding, each pointing at the rule of its clause with the clause's level,
//! sentence and address; a GitHub workflow command per finding that unescapes back to its
//! message; a job summary row per finding; an HTML page whose marked numbers equal the JSON's.
//! Held to the deliberately broken server with several switches on, so there is something to
//! hold. (`scripts/reports` holds the same formats to Microsoft's SARIF validator and to a
//! browser, on every corpus server.)

use mcp_test::cases::Connected;
use mcp_test::client::Client;
use mcp_test_check::sarif::Artifact;
use mcp_test_check::{
    CheckOptions, CheckReport, Finding, Risk, SecurityFinding, SecurityRule, Severity,
    check_connected,
};
use serde_json::Value;
use std::time::Duration;
use tokio::process::Command;

const FIXTURE: &str = env!("CARGO_BIN_EXE_broken_server");

/// Switches of the broken server whose probes find a defect or a warning.
const BREAKS: &[&str] = &[
    "base/error-code-string",
    "tools/list-duplicate-name",
    "tools/name-with-space",
    "base/negative-ttl",
];

static RULE: SecurityRule = SecurityRule {
    id: "test/hidden-text",
    risk: Risk::High,
    title: "A test rule",
    help: "Only for this test.",
    source: "https://example.com/advisory",
};

async fn broken_report() -> CheckReport {
    let mut command = Command::new(FIXTURE);
    for name in BREAKS {
        command.args(["--break", name]);
    }
    command.kill_on_drop(true);
    let client = Client::spawn(command).await.expect("the fixture starts");
    let connected = Connected::probe(client, "broken_server")
        .await
        .expect("the fixture answers server/discover");
    let options = CheckOptions::default()
        .timeout(Duration::from_secs(10))
        .deadline(Some(Duration::from_secs(60)))
        .case_time(None);
    let mut report = check_connected(&connected, &options).await;
    // A note no clause backs (the switches give none), and what the security rules would
    // add, so each format is seen to carry both.
    let probe = report
        .probes
        .iter_mut()
        .find(|p| p.skipped.is_none())
        .expect("a probe ran");
    probe.findings.push(Finding {
        severity: Severity::Info,
        probe: probe.name.clone(),
        message: "a note: 50% of the calls took over 1 s, see\nthe next line".into(),
        clause: None,
        request: None,
        era: None,
    });
    report.security.push(SecurityFinding {
        rule: &RULE,
        message: "a description hides text in Unicode tag characters".into(),
        source: "tools/list".into(),
        subject: Some("add".into()),
        pointer: "/tools/0/description".into(),
        excerpt: "Adds.\\u{E0049}".into(),
        decoded: Some("I".into()),
        era: None,
    });
    assert!(
        report.count(Severity::Defect) > 0
            && report.count(Severity::Warning) > 0
            && report.count(Severity::Info) > 0,
        "the switches {BREAKS:?} must give defects, warnings and notes to hold the formats to:\n{}",
        report.to_text()
    );
    report
}

#[tokio::test]
async fn sarif_has_a_result_per_finding_under_the_rule_of_its_clause() {
    let report = broken_report().await;
    let artifact = Artifact::new(
        "src/server.py",
        Some("import mcp\n\n@tool\ndef add(): ...\n".into()),
    );
    let log = report.to_sarif(&artifact);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let results = run["results"].as_array().expect("results");
    let findings: Vec<_> = report.findings().collect();
    assert_eq!(
        results.len(),
        findings.len() + report.security.len(),
        "one result per finding and per security finding"
    );
    let mut ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "each rule once");
    for (finding, result) in findings.iter().zip(results) {
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], result["ruleId"], "ruleIndex points at its rule");
        let expected = match finding.severity {
            Severity::Defect => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        assert_eq!(result["level"], expected);
        assert!(
            result["message"]["text"]
                .as_str()
                .unwrap()
                .contains(&finding.message)
        );
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "src/server.py");
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
        if let Some(clause) = &finding.clause {
            assert_eq!(rule["id"], clause.id);
            assert_eq!(rule["helpUri"], clause.url());
            assert_eq!(rule["fullDescription"]["text"], clause.text);
            assert_eq!(
                rule["defaultConfiguration"]["level"], expected,
                "a clause's level is its findings' severity"
            );
        }
        if let Some(request) = &finding.request {
            assert_eq!(result["properties"]["request"]["method"], request.method);
        }
    }
    let security = results.last().unwrap();
    assert_eq!(security["ruleId"], "security/test/hidden-text");
    assert_eq!(security["level"], "error");
    // The tool it names is on line 4 of the artifact.
    assert_eq!(
        security["locations"][0]["physicalLocation"]["region"]["startLine"],
        4
    );
    let rule = &rules[security["ruleIndex"].as_u64().unwrap() as usize];
    assert_eq!(rule["properties"]["security-severity"], "8.0");
    assert_eq!(rule["helpUri"], RULE.source);
    // A fingerprint per result, and none twice.
    let mut prints: Vec<&str> = results
        .iter()
        .map(|r| r["partialFingerprints"]["mcpTest/v1"].as_str().unwrap())
        .collect();
    prints.sort_unstable();
    prints.dedup();
    assert_eq!(prints.len(), results.len(), "every fingerprint differs");
}

/// `::error file=F,line=N,title=T::MESSAGE` into (command, properties, message), unescaped.
fn parse_command(line: &str) -> (String, Vec<(String, String)>, String) {
    let unescape = |s: &str| {
        s.replace("%0A", "\n")
            .replace("%0D", "\r")
            .replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%25", "%")
    };
    let rest = line.strip_prefix("::").expect("a workflow command");
    let (head, message) = rest.split_once("::").expect("a message");
    let (command, properties) = head.split_once(' ').expect("properties");
    let properties = properties
        .split(',')
        .map(|p| {
            let (k, v) = p.split_once('=').expect("key=value");
            (k.to_owned(), unescape(v))
        })
        .collect();
    (command.to_owned(), properties, unescape(message))
}

#[tokio::test]
async fn github_commands_and_summary_carry_every_finding() {
    let report = broken_report().await;
    let artifact = Artifact::new("server.py", None);
    let text = report.to_github(&artifact);
    let lines: Vec<&str> = text.lines().collect();
    let findings: Vec<_> = report.findings().collect();
    assert_eq!(lines.len(), findings.len() + report.security.len());
    for (finding, line) in findings.iter().zip(&lines) {
        let (command, properties, message) = parse_command(line);
        let expected = match finding.severity {
            Severity::Defect => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        assert_eq!(command, expected, "{line}");
        assert!(properties.contains(&("file".into(), "server.py".into())));
        assert!(
            properties
                .iter()
                .any(|(k, v)| k == "title" && v.contains(&finding.probe))
        );
        assert!(message.starts_with(&finding.message), "{message}");
        if let Some(clause) = &finding.clause {
            assert!(message.contains(&clause.url()), "{message}");
        }
    }
    let (command, _, message) = parse_command(lines.last().unwrap());
    assert_eq!(command, "error");
    assert!(message.contains("Hidden text, decoded: \"I\""), "{message}");

    let summary = report.to_markdown_summary();
    let rows = summary
        .lines()
        .skip_while(|l| !l.starts_with("### Findings"))
        .skip(4)
        .take_while(|l| l.starts_with('|'))
        .count();
    assert_eq!(rows, findings.len(), "{summary}");
    assert!(summary.contains(&format!(
        "| {} | {} | {} |",
        report.count(Severity::Defect),
        report.count(Severity::Warning),
        report.count(Severity::Info)
    )));
    assert!(summary.contains("Security: 1 high, 0 medium, 0 low."));
}

/// The value at a `data-json` path (`a.b.0.c`, `.length` of a list).
fn at<'a>(json: &'a Value, path: &str) -> Option<Value> {
    let mut value: &'a Value = json;
    for part in path.split('.') {
        if part == "length"
            && let Some(list) = value.as_array()
        {
            return Some(Value::from(list.len()));
        }
        value = match value {
            Value::Object(map) => map.get(part)?,
            Value::Array(list) => list.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value.clone())
}

#[tokio::test]
async fn the_html_page_shows_the_numbers_of_the_json() {
    let report = broken_report().await;
    let html = report.to_html();
    let json = report.to_json();
    let mut marked = 0;
    for piece in html.split("<span data-json=\"").skip(1) {
        let (path, rest) = piece.split_once("\">").unwrap();
        let shown = rest.split_once("</span>").unwrap().0;
        let value = at(&json, path).unwrap_or_else(|| panic!("the JSON has no {path}"));
        assert_eq!(value.to_string(), shown, "{path}");
        marked += 1;
    }
    assert!(marked >= 10, "only {marked} numbers marked");
    // Self-contained: no stylesheet, script or image from elsewhere.
    for needle in ["<link", "src=\"http", "@import", "url(http"] {
        assert!(!html.contains(needle), "the page loads {needle}");
    }
    for finding in report.findings() {
        assert!(
            html.contains(&mcp_test_check::html::escape(&finding.message)),
            "the page leaves out {}",
            finding.message
        );
    }
}
