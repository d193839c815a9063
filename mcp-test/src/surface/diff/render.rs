//! A [`Drift`] as text, JSON and Markdown (a pull-request comment).

use super::change::{Class, Drift};
use serde_json::{Value, json};

impl Drift {
    /// "2 breaking, 1 additive, 0 cosmetic".
    pub fn summary(&self) -> String {
        Class::ALL
            .iter()
            .map(|class| format!("{} {class}", self.count(*class)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// One line a change, worst class first, under a line of counts:
    ///
    /// ```
    /// use mcp_test::surface::{diff, Surface};
    /// use serde_json::json;
    /// let old = Surface::from_json(&json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]})).unwrap();
    /// let text = diff(&old, &Surface::new()).to_text();
    /// assert_eq!(text, "1 breaking, 0 additive, 0 cosmetic\nbreaking: tool \"a\": tool removed\n");
    /// ```
    pub fn to_text(&self) -> String {
        let mut text = format!("{}\n", self.summary());
        for class in Class::ALL {
            for change in self.of(class) {
                text.push_str(&format!("{change}\n"));
            }
        }
        text
    }

    /// `{"summary": {"breaking": N, "additive": N, "cosmetic": N}, "changes": [{"class",
    /// "kind", "item", "pointer", "reason"}]}`, worst class first; a change inside variants
    /// of tagged unions (an action of an action tool) also has `"variants": [{"tag":
    /// "action", "value": "post"}]`, outermost first.
    pub fn to_json(&self) -> Value {
        let changes: Vec<Value> = Class::ALL
            .iter()
            .flat_map(|class| self.of(*class))
            .map(|change| {
                let mut entry = json!({
                    "class": change.class,
                    "kind": change.location.kind,
                    "item": change.location.item,
                    "pointer": change.location.pointer,
                    "reason": change.reason,
                });
                if !change.location.variants.is_empty() {
                    entry["variants"] = json!(change.location.variants);
                }
                entry
            })
            .collect();
        json!({
            "summary": {
                "breaking": self.count(Class::Breaking),
                "additive": self.count(Class::Additive),
                "cosmetic": self.count(Class::Cosmetic),
            },
            "changes": changes,
        })
    }

    /// A Markdown comment for a pull request: a heading with the counts, then a table per
    /// class that has changes (what, where, why).
    ///
    /// ```
    /// use mcp_test::surface::{diff, Surface};
    /// let markdown = diff(&Surface::new(), &Surface::new()).to_markdown();
    /// assert!(markdown.starts_with("## Surface drift: 0 breaking, 0 additive, 0 cosmetic"));
    /// assert!(markdown.contains("No changes."));
    /// ```
    pub fn to_markdown(&self) -> String {
        let mut text = format!("## Surface drift: {}\n\n", self.summary());
        if self.changes.is_empty() {
            text.push_str("No changes.\n");
            return text;
        }
        for class in Class::ALL {
            let count = self.count(class);
            if count == 0 {
                continue;
            }
            let title = match class {
                Class::Breaking => "Breaking",
                Class::Additive => "Additive",
                Class::Cosmetic => "Cosmetic",
            };
            text.push_str(&format!(
                "### {title} ({count})\n\n| item | where | why |\n|---|---|---|\n"
            ));
            for change in self.of(class) {
                let item = match change.location.kind {
                    super::change::ItemKind::Capabilities => "capabilities".to_owned(),
                    kind => format!("{} `{}`", kind.noun(), cell(&change.location.item)),
                };
                let mut pointer: Vec<String> = change
                    .location
                    .variants
                    .iter()
                    .map(|v| format!("`{}`", cell(&v.to_string())))
                    .collect();
                if !change.location.pointer.is_empty() {
                    pointer.push(format!("`{}`", cell(&change.location.pointer)));
                }
                let pointer = pointer.join(" ");
                text.push_str(&format!(
                    "| {item} | {pointer} | {} |\n",
                    cell(&change.reason)
                ));
            }
            text.push('\n');
        }
        text
    }
}

/// Text fit for a table cell: pipes escaped, no line breaks.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}
