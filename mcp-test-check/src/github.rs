//! GitHub Actions: a check's findings as workflow commands (`::error`, `::warning`,
//! `::notice`, shown as annotations on the run and on the file), and the Markdown job
//! summary written to `$GITHUB_STEP_SUMMARY`.

use crate::report::{CheckReport, Finding, Risk, Severity};
use crate::sarif::Artifact;
use std::fmt::Write as _;

/// Escapes a workflow command's message: `%`, `\r` and `\n` (GitHub's `escapeData`).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value: the message's escapes, and `:` and `,`
/// (GitHub's `escapeProperty`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The workflow command of a severity: defect → `error`, warning → `warning`, info →
/// `notice`.
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Defect => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// The workflow command of a security risk: high → `error`, medium → `warning`, low →
/// `notice`.
pub fn risk_command(risk: Risk) -> &'static str {
    match risk {
        Risk::High => "error",
        Risk::Medium => "warning",
        Risk::Low => "notice",
    }
}

/// One workflow command line.
fn line(command: &str, artifact: &Artifact, at: usize, title: &str, message: &str) -> String {
    format!(
        "::{command} file={},line={at},title={}::{}\n",
        escape_property(&artifact.uri),
        escape_property(title),
        escape_data(message)
    )
}

/// What a finding says, with its clause and request.
fn finding_message(finding: &Finding) -> String {
    let mut message = finding.message.clone();
    if let Some(request) = &finding.request {
        let _ = write!(message, "\nRequest: {request}");
    }
    if let Some(clause) = &finding.clause {
        let _ = write!(
            message,
            "\n{clause}: {}\n{}",
            clause.text.replace("**", ""),
            clause.url()
        );
    }
    message
}

/// Escapes a Markdown table cell: `|` and line breaks.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\r', '\n'], " ")
}

impl CheckReport {
    /// The findings as GitHub Actions workflow commands, one line each, located in
    /// `artifact`: `::error` for a defect (and a high security risk), `::warning` for a
    /// warning (a medium one), `::notice` for a note (a low one), each titled with its probe
    /// or rule and era; the message holds the request, the clause, its sentence and its
    /// address. A check cut short adds an `::error` saying why.
    ///
    /// ```
    /// use mcp_test_check::{check, example_server, CheckOptions, sarif::Artifact};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let report = check(&example_server(), &CheckOptions::default()).await;
    /// let lines = report.to_github(&Artifact::new("src/main.rs", None));
    /// assert!(lines.lines().all(|l| l.starts_with("::")));
    /// # }
    /// ```
    pub fn to_github(&self, artifact: &Artifact) -> String {
        let mut out = String::new();
        for finding in self.findings() {
            let era = finding.era.map_or(String::new(), |e| format!(" [{e}]"));
            let title = format!("mcp-test {}{era}", finding.probe);
            out += &line(
                command(finding.severity),
                artifact,
                1,
                &title,
                &finding_message(finding),
            );
        }
        for finding in &self.security {
            let title = format!("mcp-test security/{}", finding.rule.id);
            let mut message = format!(
                "{}\nIn {} at {}: \"{}\"",
                finding.message, finding.source, finding.pointer, finding.excerpt
            );
            if let Some(decoded) = &finding.decoded {
                let _ = write!(message, "\nHidden text, decoded: \"{decoded}\"");
            }
            let _ = write!(message, "\nSource: {}", finding.rule.source);
            let at = finding
                .subject
                .as_deref()
                .map_or(1, |subject| artifact.line_of(subject));
            out += &line(
                risk_command(finding.rule.risk),
                artifact,
                at,
                &title,
                &message,
            );
        }
        if let Some(why) = self.cut_short() {
            out += &line(
                "error",
                artifact,
                1,
                "mcp-test check incomplete",
                &format!("The check did not run to its end: {why}"),
            );
        }
        out
    }

    /// The Markdown job summary (`$GITHUB_STEP_SUMMARY`): the target, the counts per
    /// severity and era, the security findings' counts, the findings table, the probes that
    /// did not run, and the tools called and not called with the flags that would call them.
    pub fn to_markdown_summary(&self) -> String {
        let mut out = format!("## mcp-test check: `{}`\n\n", cell(&self.target));
        if let Some(why) = self.cut_short() {
            let _ = writeln!(out, "> **Incomplete:** {}\n", cell(why));
        }
        out += "| era | defects | warnings | notes |\n|---|---:|---:|---:|\n";
        for session in self.sessions() {
            let count = |severity: Severity| {
                session
                    .probes
                    .iter()
                    .flat_map(|p| &p.findings)
                    .filter(|f| f.severity == severity)
                    .count()
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                session.era.map_or("unknown".to_owned(), |e| e.to_string()),
                count(Severity::Defect),
                count(Severity::Warning),
                count(Severity::Info)
            );
        }
        if self.other_era.is_some() {
            let _ = writeln!(
                out,
                "| **all** | **{}** | **{}** | **{}** |",
                self.count(Severity::Defect),
                self.count(Severity::Warning),
                self.count(Severity::Info)
            );
        }
        let risk = |r: Risk| self.security.iter().filter(|f| f.rule.risk == r).count();
        let _ = writeln!(
            out,
            "\nSecurity: {} high, {} medium, {} low.\n",
            risk(Risk::High),
            risk(Risk::Medium),
            risk(Risk::Low)
        );
        let findings: Vec<&Finding> = self.findings().collect();
        if !findings.is_empty() {
            out += "### Findings\n\n| severity | era | probe | finding | clause |\n|---|---|---|---|---|\n";
            for finding in findings {
                let clause = finding.clause.as_ref().map_or(String::new(), |c| {
                    format!("[{} ({})]({})", cell(c.id), c.level, c.url())
                });
                let _ = writeln!(
                    out,
                    "| {} | {} | `{}` | {} | {clause} |",
                    finding.severity,
                    finding.era.map_or(String::new(), |e| e.to_string()),
                    cell(&finding.probe),
                    cell(&finding.message)
                );
            }
            out.push('\n');
        }
        if !self.security.is_empty() {
            out += "### Security\n\n| risk | rule | where | evidence |\n|---|---|---|---|\n";
            for finding in &self.security {
                let _ = writeln!(
                    out,
                    "| {} | [`{}`]({}) | {} `{}` | {}: `{}` |",
                    finding.rule.risk,
                    finding.rule.id,
                    finding.rule.source,
                    cell(&finding.source),
                    cell(&finding.pointer),
                    cell(&finding.message),
                    cell(&finding.excerpt).replace('`', "'")
                );
            }
            out.push('\n');
        }
        let skipped: Vec<(String, &str)> = self
            .sessions()
            .flat_map(|s| {
                s.probes.iter().filter_map(move |p| {
                    p.skipped.as_deref().map(|why| {
                        let era = s.era.map_or(String::new(), |e| format!(" [{e}]"));
                        (format!("{}{era}", p.name), why)
                    })
                })
            })
            .collect();
        if !skipped.is_empty() {
            let _ = writeln!(
                out,
                "<details><summary>{} probes not run</summary>\n\n| probe | why |\n|---|---|",
                skipped.len()
            );
            for (name, why) in skipped {
                let _ = writeln!(out, "| `{}` | {} |", cell(&name), cell(why));
            }
            out += "\n</details>\n\n";
        }
        if !self.tools.is_empty() {
            out += "### Tools\n\n| tool | class | called | why not / flag that would call it |\n|---|---|---|---|\n";
            for tool in &self.tools {
                let why = match (&tool.not_called, &tool.allow_with) {
                    (Some(why), Some(flag)) => format!("{} ({flag})", cell(why)),
                    (Some(why), None) => cell(why),
                    (None, _) => String::new(),
                };
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {why} |",
                    cell(&tool.name),
                    tool.class,
                    if tool.called { "yes" } else { "no" }
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_what_github_reads_as_syntax() {
        let artifact = Artifact::new("a,b:c.py", None);
        let text = line("error", &artifact, 3, "t:1,2", "50% done\nnext\r");
        assert_eq!(
            text,
            "::error file=a%2Cb%3Ac.py,line=3,title=t%3A1%2C2::50%25 done%0Anext%0D\n"
        );
    }

    #[test]
    fn a_cell_keeps_the_table_whole() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
    }
}
