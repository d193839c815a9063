//! Rendering the merged report: as JSON ([`Coverage::to_json`]) or as text tables
//! ([`Coverage::to_text`]).

use super::{Coverage, Outcome, Row, Universe};
use serde_json::{Value, json};

impl Coverage {
    /// The report as JSON, for CI: per server its rows and summary, then the overall summary.
    pub fn to_json(&self) -> Value {
        let rows = |rows: &[Row], detail: &str| -> Value {
            Value::Array(rows.iter().map(|r| r.to_json(detail)).collect())
        };
        let servers: Vec<Value> = self
            .servers
            .iter()
            .map(|s| {
                json!({
                    "server": s.name,
                    "in_process": s.in_process,
                    "targets": s.labels,
                    "processes": s.processes,
                    "universe": match s.universe {
                        Universe::Registry => "registry",
                        Universe::Listed => "listed",
                        Universe::Unknown => "unknown",
                    },
                    "known": s.known.iter().collect::<Vec<_>>(),
                    "tools": rows(&s.tools, "action"),
                    "resources": rows(&s.resources, "detail"),
                    "templates": rows(&s.templates, "detail"),
                    "prompts": rows(&s.prompts, "detail"),
                    "completions": rows(&s.completions, "argument"),
                    "methods": rows(&s.methods, "detail"),
                    "summary": s.summary.to_json(),
                })
            })
            .collect();
        json!({
            "version": crate::testing::coverage::format::FORMAT_VERSION,
            "files": self.files,
            "requests": self.requests,
            "servers": servers,
            "summary": self.summary().to_json(),
        })
    }

    /// The report as text: per server a table per kind, uncovered rows marked `UNCOVERED`,
    /// requests to things the server does not list marked `not listed`, and a summary line;
    /// then the overall summary.
    pub fn to_text(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut out = format!(
            "MCP coverage: {} from {}, {}\n",
            plural(self.requests, "request", "requests"),
            plural(self.files, "process", "processes"),
            plural(self.servers.len(), "server", "servers")
        );
        for server in &self.servers {
            out.push('\n');
            let universe = match server.universe {
                Universe::Registry => "in process: every registered item",
                Universe::Listed => "in another process: the items the suite listed",
                Universe::Unknown => "in another process, never listed: only what was requested",
            };
            out.push_str(&format!(
                "== {} ({universe}; {} process{})\n",
                server.name,
                server.processes,
                if server.processes == 1 { "" } else { "es" }
            ));
            let sections: [(&str, &str, &[Row], &str); 5] = [
                ("tool", "action", &server.tools, "tools"),
                ("resource", "", &server.resources, "resources"),
                ("template", "", &server.templates, "templates"),
                ("prompt", "", &server.prompts, "prompts"),
                ("completion", "argument", &server.completions, "completions"),
            ];
            let mut tables: Vec<Vec<Vec<String>>> = sections
                .into_iter()
                .filter(|(_, _, rows, _)| !rows.is_empty())
                .map(|(head, detail, rows, kind)| {
                    table(head, detail, rows, server.known.contains(kind))
                })
                .collect();
            if !server.methods.is_empty() {
                tables.push(table("method", "", &server.methods, false));
            }
            out.push_str(&render(&tables));
            out.push_str(&format!("   {}\n", server.summary));
        }
        out.push_str(&format!("\ntotal: {}\n", self.summary()));
        out
    }
}

/// The cells of one table: a head row, then a row each; a dot for a zero count.
fn table(head: &str, detail: &str, rows: &[Row], known: bool) -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = Vec::with_capacity(rows.len() + 1);
    let mut first = vec![head.to_owned(), detail.to_owned(), "requests".to_owned()];
    first.extend(Outcome::ALL.map(|o| o.column().to_owned()));
    first.push(String::new());
    lines.push(first);
    for row in rows {
        let mut line = vec![
            if row.name.is_empty() {
                "(none given)".to_owned()
            } else {
                row.name.clone()
            },
            row.detail.clone().unwrap_or_default(),
            row.counts.total().to_string(),
        ];
        line.extend(Outcome::ALL.map(|o| match row.counts.get(o) {
            0 => ".".to_owned(),
            n => n.to_string(),
        }));
        line.push(
            if !row.listed && known {
                "not listed"
            } else if row.listed && !row.covered() {
                "UNCOVERED"
            } else {
                ""
            }
            .to_owned(),
        );
        lines.push(line);
    }
    lines
}

/// The tables of one server, their columns aligned across all of them: the count columns
/// right-aligned, the detail column left out when no row has one.
fn render(tables: &[Vec<Vec<String>>]) -> String {
    let lines = || tables.iter().flatten();
    let columns = 3 + Outcome::ALL.len() + 1;
    let widths: Vec<usize> = (0..columns)
        .map(|c| lines().map(|l| l[c].chars().count()).max().unwrap_or(0))
        .collect();
    let show_detail = tables
        .iter()
        .any(|t| t.iter().skip(1).any(|l| !l[1].is_empty()));
    let mut out = String::new();
    for line in lines() {
        let mut text = String::from("   ");
        for (c, cell) in line.iter().enumerate() {
            if c == 1 && !show_detail {
                continue;
            }
            let pad = widths[c].saturating_sub(cell.chars().count());
            if (2..columns - 1).contains(&c) {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            }
            text.push_str("  ");
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}
