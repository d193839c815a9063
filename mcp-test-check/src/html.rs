//! One self-contained HTML page per report, to look at in a browser: a check
//! ([`CheckReport::to_html`]), a test suite's MCP coverage ([`coverage_html`]) and a surface's
//! drift ([`drift_html`]). No network and no external asset: the styles and the one small
//! script (filters by severity) are inline, so the file can be attached to a CI run and
//! opened anywhere.
//!
//! Every number the page shows that the JSON report also holds is marked with the JSON path
//! it comes from (`data-json="summary.defect"`; `security.length` for a list's length), so a
//! test can hold the page to the JSON, and so can a reader's script.

use crate::report::{CheckReport, Finding, Risk, Severity};
use mcp_test::surface::{Class, Drift};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Escapes text for HTML: `&`, `<`, `>`, `"` and `'`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"
:root { --defect: #b3261e; --warning: #9a6700; --info: #57606a; --ok: #1a7f37; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #fff; }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: #f6f8fa; }
header h1 { margin: 0 0 4px; font-size: 20px; }
main { padding: 8px 24px 40px; max-width: 1200px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
table { border-collapse: collapse; margin: 6px 0 12px; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.card .n { font-size: 24px; font-weight: 600; display: block; }
.defect .n, .sev-defect, .risk-high, .class-breaking { color: var(--defect); }
.warning .n, .sev-warning, .risk-medium { color: var(--warning); }
.info .n, .sev-info, .risk-low, .class-cosmetic { color: var(--info); }
.ok, .class-additive { color: var(--ok); }
blockquote { margin: 4px 0; padding: 2px 10px; border-left: 3px solid var(--line); color: #444; }
.bar { display: inline-block; height: 10px; background: var(--ok); vertical-align: middle; }
.bar.miss { background: #e5534b; }
.filters button { margin-right: 6px; border: 1px solid var(--line); background: #fff; border-radius: 4px; padding: 2px 10px; cursor: pointer; }
.filters button[aria-pressed="false"] { opacity: .45; }
.muted { color: var(--info); }
.map { display: flex; flex-wrap: wrap; gap: 6px; }
.tile { border-radius: 4px; padding: 3px 8px; border: 1px solid var(--line); }
.tile.covered { background: #dafbe1; }
.tile.uncovered { background: #ffebe9; }
.tile.unlisted { background: #fff8c5; }
svg text { font: 11px system-ui, sans-serif; }
"#;

const SCRIPT: &str = r#"
window.addEventListener('error', function (e) {
  var errors = (document.documentElement.dataset.errors || '');
  document.documentElement.dataset.errors = errors + (e.message || 'error') + '\n';
});
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('.filters button').forEach(function (button) {
    button.addEventListener('click', function () {
      var on = button.getAttribute('aria-pressed') !== 'true';
      button.setAttribute('aria-pressed', on ? 'true' : 'false');
      document.querySelectorAll('[data-severity="' + button.dataset.filter + '"]').forEach(function (row) {
        row.hidden = !on;
      });
    });
  });
  var shown = document.querySelectorAll('[data-json]').length;
  document.documentElement.dataset.ready = String(shown);
});
"#;

/// A whole page: `title`, a header line under it, and `body`, with the inline styles and
/// script. For a report of another kind (a load run, say) built from this module's parts.
pub fn page(title: &str, subtitle: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"mcp-test {version}\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n<script>{SCRIPT}</script>\n</head>\n\
         <body>\n<header><h1>{title}</h1><div class=\"muted\">{subtitle}</div></header>\n\
         <main>\n{body}</main>\n</body>\n</html>\n",
        version = env!("CARGO_PKG_VERSION"),
        title = escape(title),
        subtitle = subtitle,
    )
}

/// A number the JSON report also holds at `path`.
pub fn number(path: &str, value: impl std::fmt::Display) -> String {
    format!("<span data-json=\"{}\">{value}</span>", escape(path))
}

/// A summary card: a big number with a label.
fn card(class: &str, label: &str, number_html: &str) -> String {
    format!("<div class=\"card {class}\"><span class=\"n\">{number_html}</span>{label}</div>")
}

/// A line chart of `series` (name and points) as inline SVG, `width` by `height` pixels,
/// its axes labelled; for a time series such as a load run's throughput or latency.
///
/// ```
/// let svg = mcp_test_check::html::line_chart(
///     "requests per second",
///     &[("rps", vec![(0.0, 10.0), (1.0, 12.0)])],
///     "seconds",
///     400,
///     160,
/// );
/// assert!(svg.starts_with("<svg"));
/// ```
pub fn line_chart(
    title: &str,
    series: &[(&str, Vec<(f64, f64)>)],
    x_label: &str,
    width: u32,
    height: u32,
) -> String {
    const COLOURS: [&str; 6] = [
        "#0969da", "#cf222e", "#1a7f37", "#8250df", "#9a6700", "#57606a",
    ];
    let points = series.iter().flat_map(|(_, p)| p.iter());
    let (mut x_max, mut y_max) = (0.0_f64, 0.0_f64);
    for &(x, y) in points {
        if x.is_finite() {
            x_max = x_max.max(x);
        }
        if y.is_finite() {
            y_max = y_max.max(y);
        }
    }
    let (x_max, y_max) = (x_max.max(1e-9), (y_max * 1.1).max(1e-9));
    let (left, right, top, bottom) = (48.0, 12.0, 22.0, 30.0);
    let (w, h) = (f64::from(width), f64::from(height));
    let (plot_w, plot_h) = (w - left - right, h - top - bottom);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{t}\">\
         <text x=\"{left}\" y=\"14\" font-weight=\"600\">{t}</text>\
         <line x1=\"{left}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"#888\"/>\
         <line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{y0}\" stroke=\"#888\"/>\
         <text x=\"{x1}\" y=\"{yl}\" text-anchor=\"end\">{xl} (max {x_max:.1})</text>\
         <text x=\"4\" y=\"{top}\">{y_max:.1}</text><text x=\"4\" y=\"{y0}\">0</text>",
        t = escape(title),
        y0 = top + plot_h,
        x1 = left + plot_w,
        yl = h - 6.0,
        xl = escape(x_label),
    );
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = points
            .iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .map(|&(x, y)| {
                format!(
                    "{:.1},{:.1}",
                    left + x / x_max * plot_w,
                    top + plot_h - y / y_max * plot_h
                )
            })
            .collect();
        let _ = write!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.6\" points=\"{}\"/>\
             <text x=\"{:.1}\" y=\"14\" fill=\"{colour}\">{}</text>",
            path.join(" "),
            left + 160.0 + 90.0 * i as f64,
            escape(name)
        );
    }
    svg + "</svg>"
}

fn severity_class(severity: Severity) -> &'static str {
    match severity {
        Severity::Defect => "defect",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// The findings of one session, grouped by area.
fn findings_html(findings: &[&Finding], out: &mut String) {
    let mut by_area: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
    for finding in findings {
        let area = finding.probe.split('/').next().unwrap_or("");
        by_area.entry(area).or_default().push(finding);
    }
    for (area, findings) in by_area {
        let _ = write!(
            out,
            "<h3>{} <span class=\"muted\">({})</span></h3>\n<table><tr><th>severity</th>\
             <th>probe</th><th>finding</th><th>clause</th></tr>\n",
            escape(area),
            findings.len()
        );
        for finding in findings {
            let class = severity_class(finding.severity);
            let request = finding.request.as_ref().map_or(String::new(), |r| {
                format!(
                    "<div class=\"muted\">request: <code>{}</code></div>",
                    escape(&r.to_string())
                )
            });
            let clause = finding.clause.as_ref().map_or(
                "<span class=\"muted\">none (a note)</span>".to_owned(),
                |c| {
                    format!(
                        "<a href=\"{url}\"><code>{id}</code></a> ({level})<blockquote>{text}\
                         </blockquote><div class=\"muted\">{loc}</div>",
                        url = escape(&c.url()),
                        id = escape(c.id),
                        level = c.level,
                        text = escape(&c.text.replace("**", "")),
                        loc = escape(&c.location()),
                    )
                },
            );
            let _ = writeln!(
                out,
                "<tr data-severity=\"{class}\"><td class=\"sev-{class}\">{class}</td>\
                 <td><code>{}</code></td><td>{}{request}</td><td>{clause}</td></tr>",
                escape(&finding.probe),
                escape(&finding.message),
            );
        }
        out.push_str("</table>\n");
    }
}

impl CheckReport {
    /// The report as one self-contained HTML page: the summary (counts per severity, per
    /// era and of security findings), the findings grouped by area with their clauses quoted
    /// and linked, the security findings with their evidence, the probes that did not run
    /// and why, the tools called and not called, and the requirements matrix per era.
    ///
    /// ```
    /// use mcp_test_check::{check, example_server, CheckOptions};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let report = check(&example_server(), &CheckOptions::default()).await;
    /// let html = report.to_html();
    /// assert!(html.starts_with("<!DOCTYPE html>"));
    /// assert!(!html.contains("http-equiv") && !html.contains("<link"));
    /// # }
    /// ```
    pub fn to_html(&self) -> String {
        let mut body = String::new();
        let eras: Vec<String> = self.eras().iter().map(ToString::to_string).collect();
        if let Some(why) = self.cut_short() {
            let _ = writeln!(
                body,
                "<p class=\"sev-defect\"><strong>Incomplete:</strong> {}</p>",
                escape(why)
            );
        }
        body.push_str("<h2>Summary</h2>\n<div class=\"cards\">");
        for (severity, label) in [
            (Severity::Defect, "defects"),
            (Severity::Warning, "warnings"),
            (Severity::Info, "notes"),
        ] {
            let class = severity_class(severity);
            body += &card(
                class,
                label,
                &number(&format!("summary.{class}"), self.count(severity)),
            );
        }
        body += &card(
            "security",
            "security findings",
            &number("security.length", self.security.len()),
        );
        body += &card(
            "",
            "tools listed",
            &number("tools.length", self.tools.len()),
        );
        body += &card(
            "",
            "schema cases",
            &number("cases.length", self.cases.outcomes.len()),
        );
        body.push_str("</div>\n");
        if self.other_era.is_some() {
            body.push_str(
                "<table><tr><th>era</th><th class=\"num\">defects</th><th class=\"num\">warnings\
                 </th><th class=\"num\">notes</th><th class=\"num\">probes run</th></tr>\n",
            );
            for (i, session) in self.sessions().enumerate() {
                let _ = write!(
                    body,
                    "<tr><td>{}</td>",
                    session.era.map_or("unknown".to_owned(), |e| e.to_string())
                );
                for class in ["defect", "warning", "info"] {
                    let severity = match class {
                        "defect" => Severity::Defect,
                        "warning" => Severity::Warning,
                        _ => Severity::Info,
                    };
                    let n = session
                        .probes
                        .iter()
                        .flat_map(|p| &p.findings)
                        .filter(|f| f.severity == severity)
                        .count();
                    // The first era's own counts are in the JSON's probes only; the
                    // other era's are its summary.
                    let shown = if i == 0 {
                        n.to_string()
                    } else {
                        number(&format!("other_era.summary.{class}"), n)
                    };
                    let _ = write!(body, "<td class=\"num\">{shown}</td>");
                }
                let ran = session
                    .probes
                    .iter()
                    .filter(|p| p.skipped.is_none())
                    .count();
                let _ = writeln!(body, "<td class=\"num\">{ran}</td></tr>");
            }
            body.push_str("</table>\n");
        }
        for (i, session) in self.sessions().enumerate() {
            let era = session.era.map_or("unknown".to_owned(), |e| e.to_string());
            let findings: Vec<&Finding> = session.probes.iter().flat_map(|p| &p.findings).collect();
            // This era's count is in the JSON only for one era, or for the other era.
            let count = match (i, self.other_era.is_some()) {
                (0, true) => findings.len().to_string(),
                (0, false) => number("findings.length", findings.len()),
                _ => number("other_era.findings.length", findings.len()),
            };
            let _ = writeln!(
                body,
                "<h2>Findings, {era} <span class=\"muted\">({count})</span></h2>"
            );
            if let Some(why) = &session.negotiation {
                let _ = writeln!(body, "<p class=\"muted\">{}</p>", escape(why));
            }
            if findings.is_empty() {
                body.push_str("<p class=\"ok\">No finding.</p>\n");
            } else {
                body.push_str(
                    "<div class=\"filters\">Show: \
                     <button data-filter=\"defect\" aria-pressed=\"true\">defects</button>\
                     <button data-filter=\"warning\" aria-pressed=\"true\">warnings</button>\
                     <button data-filter=\"info\" aria-pressed=\"true\">notes</button></div>\n",
                );
                findings_html(&findings, &mut body);
            }
            let skipped: Vec<_> = session
                .probes
                .iter()
                .filter_map(|p| p.skipped.as_deref().map(|why| (&p.name, why)))
                .collect();
            let _ = writeln!(
                body,
                "<h3>Probes not run, {era} <span class=\"muted\">({} of {})</span></h3>",
                skipped.len(),
                session.probes.len()
            );
            if !skipped.is_empty() {
                body.push_str(
                    "<details><summary>show them</summary>\n<table><tr><th>probe</th><th>why</th></tr>\n",
                );
                for (name, why) in skipped {
                    let _ = writeln!(
                        body,
                        "<tr><td><code>{}</code></td><td>{}</td></tr>",
                        escape(name),
                        escape(why)
                    );
                }
                body.push_str("</table>\n</details>\n");
            }
            let _ = writeln!(
                body,
                "<h3>Requirements covered, {era}</h3>\n<table><tr><th>area</th>\
                 <th class=\"num\">checked</th><th class=\"num\">not run</th>\
                 <th class=\"num\">no probe yet</th><th class=\"num\">outside a client's \
                 view</th></tr>"
            );
            let prefix = if i == 0 { "" } else { "other_era." };
            for (j, c) in session.coverage().iter().enumerate() {
                let _ = writeln!(
                    body,
                    "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                     <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                    c.area.name(),
                    number(&format!("{prefix}coverage.{j}.checked"), c.checked),
                    number(&format!("{prefix}coverage.{j}.skipped"), c.skipped),
                    number(&format!("{prefix}coverage.{j}.not_yet"), c.not_yet),
                    number(&format!("{prefix}coverage.{j}.outside"), c.outside),
                );
            }
            body.push_str("</table>\n");
        }
        body.push_str("<h2>Security</h2>\n");
        if self.security.is_empty() {
            body.push_str("<p class=\"ok\">No security finding.</p>\n");
        } else {
            let risk = |r: Risk| self.security.iter().filter(|f| f.rule.risk == r).count();
            let _ = writeln!(
                body,
                "<p>{} high, {} medium, {} low.</p>\n<table><tr><th>risk</th><th>rule</th>\
                 <th>where</th><th>evidence</th></tr>",
                risk(Risk::High),
                risk(Risk::Medium),
                risk(Risk::Low)
            );
            for finding in &self.security {
                let decoded = finding.decoded.as_ref().map_or(String::new(), |d| {
                    format!(
                        "<div>hidden text, decoded: <code>{}</code></div>",
                        escape(d)
                    )
                });
                let _ = writeln!(
                    body,
                    "<tr><td class=\"risk-{risk}\">{risk}</td><td><a href=\"{src}\"><code>{id}\
                     </code></a><div class=\"muted\">{title}</div></td><td>{source} \
                     <code>{pointer}</code>{subject}</td><td>{message}<div><code>{excerpt}\
                     </code></div>{decoded}</td></tr>",
                    risk = finding.rule.risk,
                    src = escape(finding.rule.source),
                    id = escape(finding.rule.id),
                    title = escape(finding.rule.title),
                    source = escape(&finding.source),
                    pointer = escape(&finding.pointer),
                    subject = finding.subject.as_ref().map_or(String::new(), |s| format!(
                        "<div class=\"muted\">{}</div>",
                        escape(s)
                    )),
                    message = escape(&finding.message),
                    excerpt = escape(&finding.excerpt),
                );
            }
            body.push_str("</table>\n");
        }
        let called = self.tools.iter().filter(|t| t.called).count();
        let _ = writeln!(
            body,
            "<h2>Tools <span class=\"muted\">({called} called of {})</span></h2>",
            self.tools.len()
        );
        if !self.tools.is_empty() {
            body.push_str(
                "<table><tr><th>tool</th><th>class</th><th>called</th><th>why not, and the flag \
                 that would call it</th></tr>\n",
            );
            for tool in &self.tools {
                let why = tool.not_called.as_deref().map_or(String::new(), escape);
                let with = tool
                    .allow_with
                    .as_deref()
                    .map_or(String::new(), |w| format!(" <code>{}</code>", escape(w)));
                let _ = writeln!(
                    body,
                    "<tr><td><code>{}</code></td><td>{}{}</td><td class=\"{}\">{}</td><td>{why}{with}\
                     </td></tr>",
                    escape(&tool.name),
                    tool.class,
                    if tool.open_world { " (open world)" } else { "" },
                    if tool.called { "ok" } else { "muted" },
                    if tool.called { "yes" } else { "no" },
                );
            }
            body.push_str("</table>\n");
        }
        page(
            &format!("mcp-test check: {}", self.target),
            &format!(
                "era{} {}; {} probes; mcp-test {}",
                if eras.len() == 1 { "" } else { "s" },
                escape(&eras.join(" and ")),
                self.sessions().map(|s| s.probes.len()).sum::<usize>(),
                env!("CARGO_PKG_VERSION")
            ),
            &body,
        )
    }
}

/// The outcome names of a coverage row's `outcomes` object that count as covered (every one
/// but the request not being answered at all is left to the JSON: the page shows them all).
fn outcome_cells(row: &Value, path: &str, outcomes: &[String]) -> String {
    let mut out = String::new();
    for outcome in outcomes {
        let n = row["outcomes"][outcome].as_u64().unwrap_or(0);
        let _ = write!(
            out,
            "<td class=\"num\">{}</td>",
            number(&format!("{path}.outcomes.{outcome}"), n)
        );
    }
    out
}

/// The MCP coverage of a test suite as one self-contained HTML page, from the JSON of
/// `mcp_test::testing::coverage::report::Coverage::to_json` (so the page and the JSON cannot
/// disagree): the overall summary, then per server a map of its tools, actions, resources,
/// templates, prompts and completion references coloured by outcome (covered, uncovered,
/// requested but not listed), and their tables with the count of each outcome.
pub fn coverage_html(coverage: &Value) -> String {
    let mut body = String::new();
    let kinds = [
        "tools",
        "actions",
        "resources",
        "templates",
        "prompts",
        "completions",
    ];
    body.push_str("<h2>Summary</h2>\n<table><tr><th>kind</th><th class=\"num\">covered</th><th class=\"num\">of</th><th>share</th></tr>\n");
    for kind in kinds {
        let tally = &coverage["summary"][kind];
        let (covered, total) = (
            tally["covered"].as_u64().unwrap_or(0),
            tally["total"].as_u64().unwrap_or(0),
        );
        let share = if total == 0 {
            100.0
        } else {
            covered as f64 * 100.0 / total as f64
        };
        let _ = writeln!(
            body,
            "<tr><td>{kind}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>\
             <span class=\"bar\" style=\"width:{:.0}px\"></span><span class=\"bar miss\" \
             style=\"width:{:.0}px\"></span> {share:.0} %</td></tr>",
            number(&format!("summary.{kind}.covered"), covered),
            number(&format!("summary.{kind}.total"), total),
            share * 1.5,
            (100.0 - share) * 1.5,
        );
    }
    body.push_str("</table>\n");
    let servers = coverage["servers"].as_array().cloned().unwrap_or_default();
    for (i, server) in servers.iter().enumerate() {
        let name = server["server"].as_str().unwrap_or("");
        let _ = writeln!(
            body,
            "<h2>{} <span class=\"muted\">({}; {} process(es))</span></h2>",
            escape(name),
            escape(server["universe"].as_str().unwrap_or("")),
            server["processes"]
        );
        body.push_str(
            "<p class=\"muted\">Map: <span class=\"tile covered\">covered</span> \
             <span class=\"tile uncovered\">uncovered</span> <span class=\"tile unlisted\">\
             requested, not listed</span></p>\n<div class=\"map\">",
        );
        for kind in ["tools", "resources", "templates", "prompts", "completions"] {
            for row in server[kind].as_array().into_iter().flatten() {
                let state = if row["listed"] == false {
                    "unlisted"
                } else if row["covered"] == true {
                    "covered"
                } else {
                    "uncovered"
                };
                let detail = row
                    .get("action")
                    .or_else(|| row.get("argument"))
                    .or_else(|| row.get("detail"))
                    .and_then(Value::as_str)
                    .map_or(String::new(), |d| format!(" · {}", escape(d)));
                let _ = write!(
                    body,
                    "<span class=\"tile {state}\" title=\"{kind}: {state}\"><code>{}</code>{detail}</span>",
                    escape(row["name"].as_str().unwrap_or(""))
                );
            }
        }
        body.push_str("</div>\n");
        for kind in ["tools", "resources", "templates", "prompts", "completions"] {
            let rows = server[kind].as_array().cloned().unwrap_or_default();
            if rows.is_empty() {
                continue;
            }
            let outcomes: Vec<String> = rows[0]["outcomes"]
                .as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default();
            let _ = write!(
                body,
                "<h3>{kind} ({} rows)</h3>\n<table><tr><th>name</th><th>covered</th>\
                 <th class=\"num\">requests</th>",
                number(&format!("servers.{i}.{kind}.length"), rows.len())
            );
            for outcome in &outcomes {
                let _ = write!(body, "<th class=\"num\">{}</th>", escape(outcome));
            }
            body.push_str("</tr>\n");
            for (j, row) in rows.iter().enumerate() {
                let path = format!("servers.{i}.{kind}.{j}");
                let detail = row
                    .get("action")
                    .or_else(|| row.get("argument"))
                    .or_else(|| row.get("detail"))
                    .and_then(Value::as_str)
                    .map_or(String::new(), |d| {
                        format!(" <span class=\"muted\">{}</span>", escape(d))
                    });
                let state = if row["listed"] == false {
                    "<span class=\"sev-warning\">not listed</span>"
                } else if row["covered"] == true {
                    "<span class=\"ok\">yes</span>"
                } else {
                    "<span class=\"sev-defect\">UNCOVERED</span>"
                };
                let _ = writeln!(
                    body,
                    "<tr><td><code>{}</code>{detail}</td><td>{state}</td><td class=\"num\">{}</td>{}</tr>",
                    escape(row["name"].as_str().unwrap_or("")),
                    number(
                        &format!("{path}.requests"),
                        row["requests"].as_u64().unwrap_or(0)
                    ),
                    outcome_cells(row, &path, &outcomes),
                );
            }
            body.push_str("</table>\n");
        }
    }
    page(
        "mcp-test coverage",
        &format!(
            "{} requests from {} processes, {} servers",
            number("requests", coverage["requests"].as_u64().unwrap_or(0)),
            number("files", coverage["files"].as_u64().unwrap_or(0)),
            number("servers.length", servers.len()),
        ),
        &body,
    )
}

/// A surface's drift as one self-contained HTML page: the counts per class, then every
/// change with its class, place and reason, breaking ones first. `old` and `new` name the
/// surfaces compared.
pub fn drift_html(drift: &Drift, old: &str, new: &str) -> String {
    let mut body = String::from("<h2>Summary</h2>\n<div class=\"cards\">");
    for class in [Class::Breaking, Class::Additive, Class::Cosmetic] {
        let name = class.to_string();
        body += &card(
            &format!("class-{name}"),
            &name,
            &number(&format!("summary.{name}"), drift.count(class)),
        );
    }
    body.push_str("</div>\n");
    if drift.changes.is_empty() {
        body.push_str("<p class=\"ok\">The surfaces are the same.</p>\n");
    } else {
        body.push_str(
            "<h2>Changes</h2>\n<table><tr><th>class</th><th>kind</th><th>item</th>\
             <th>where</th><th>why</th></tr>\n",
        );
        let mut changes: Vec<_> = drift.changes.iter().collect();
        changes.sort_by_key(|c| std::cmp::Reverse(c.class));
        for change in changes {
            let name = change.class.to_string();
            let l = &change.location;
            let variants: Vec<String> = l.variants.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                body,
                "<tr><td class=\"class-{name}\">{name}</td><td>{}</td><td><code>{}</code></td>\
                 <td><code>{}</code>{}</td><td>{}</td></tr>",
                l.kind.noun(),
                escape(&l.item),
                escape(&l.pointer),
                if variants.is_empty() {
                    String::new()
                } else {
                    format!(
                        " <span class=\"muted\">in {}</span>",
                        escape(&variants.join(" / "))
                    )
                },
                escape(&change.reason),
            );
        }
        body.push_str("</table>\n");
    }
    page(
        "mcp-test diff",
        &format!(
            "{} → {}: {} changes",
            escape(old),
            escape(new),
            number("changes.length", drift.changes.len())
        ),
        &body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_no_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn a_chart_of_no_points_is_still_an_image() {
        let svg = line_chart("empty", &[("none", vec![])], "s", 200, 100);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
}
