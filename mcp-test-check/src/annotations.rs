//! Annotations that contradict the tool (security rule `annotations/read-only-contradicted`,
//! and what consent holds back): `readOnlyHint: true` on a tool whose name or
//! description says it deletes, writes, sends or executes.

/// Verbs that change state, read as the first word of a tool name: deletes, writes, sends,
/// executes. Words that also name pure computations (`format`, `merge`, `edit`, `create`,
/// `eval`) are left out: precision first.
const NAME_VERBS: &[&str] = &[
    "delete",
    "remove",
    "destroy",
    "erase",
    "purge",
    "wipe",
    "drop",
    "truncate",
    "kill",
    "terminate",
    "write",
    "overwrite",
    "update",
    "insert",
    "modify",
    "append",
    "upload",
    "rename",
    "move",
    "commit",
    "push",
    "publish",
    "deploy",
    "install",
    "uninstall",
    "reset",
    "revoke",
    "send",
    "transfer",
    "pay",
    "submit",
    "exec",
    "execute",
    "set",
    "cancel",
];

/// The same, as the first word of a description ("Deletes the file", "Delete the file").
const DESCRIPTION_VERBS: &[&str] = &[
    "delete",
    "deletes",
    "remove",
    "removes",
    "destroy",
    "destroys",
    "erase",
    "erases",
    "purge",
    "purges",
    "wipe",
    "wipes",
    "drop",
    "drops",
    "truncate",
    "truncates",
    "kill",
    "kills",
    "terminate",
    "terminates",
    "write",
    "writes",
    "overwrite",
    "overwrites",
    "create",
    "creates",
    "update",
    "updates",
    "insert",
    "inserts",
    "modify",
    "modifies",
    "edit",
    "edits",
    "append",
    "appends",
    "upload",
    "uploads",
    "rename",
    "renames",
    "move",
    "moves",
    "commit",
    "commits",
    "push",
    "pushes",
    "publish",
    "publishes",
    "deploy",
    "deploys",
    "install",
    "installs",
    "uninstall",
    "uninstalls",
    "reset",
    "resets",
    "revoke",
    "revokes",
    "send",
    "sends",
    "transfer",
    "transfers",
    "pay",
    "pays",
    "submit",
    "submits",
    "cancel",
    "cancels",
];

/// Verbs so clearly destructive or executing that they count anywhere in a name.
const STRONG: &[&str] = &[
    "delete",
    "destroy",
    "erase",
    "purge",
    "wipe",
    "overwrite",
    "truncate",
    "kill",
    "terminate",
    "exec",
    "execute",
    "shell",
    "bash",
    "rm",
    "rmdir",
    "uninstall",
];

/// Objects after `run`/`execute` that make it a command runner.
const RUNNABLE: &[&str] = &[
    "command", "cmd", "shell", "script", "bash", "code", "program", "process",
];

/// The words of a tool name: `delete_everything`, `deleteAll`, `file-delete`.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Why `tool` cannot be read-only by its own words, when it says `readOnlyHint: true`: the
/// word of its name or description that says it changes something. `None` when it is not
/// annotated read-only, or nothing contradicts it.
///
/// ```
/// use mcp_test_check::security::read_only_contradicted;
/// use serde_json::json;
/// let lying = json!({"name": "delete_everything", "annotations": {"readOnlyHint": true}});
/// assert!(read_only_contradicted(&lying).is_some());
/// let honest = json!({"name": "get_settings", "description": "Returns the settings.",
///     "annotations": {"readOnlyHint": true}});
/// assert!(read_only_contradicted(&honest).is_none());
/// ```
pub fn read_only_contradicted(tool: &serde_json::Value) -> Option<String> {
    let read_only = tool
        .pointer("/annotations/readOnlyHint")
        .and_then(serde_json::Value::as_bool)
        == Some(true);
    if !read_only {
        return None;
    }
    let name = tool.get("name").and_then(|n| n.as_str()).unwrap_or("");
    let ws = words(name);
    if let Some(first) = ws.first()
        && NAME_VERBS.contains(&first.as_str())
    {
        return Some(format!("its name {name:?} begins with {first:?}"));
    }
    if let Some(w) = ws.iter().find(|w| STRONG.contains(&w.as_str())) {
        return Some(format!("its name {name:?} says {w:?}"));
    }
    if let Some(pair) = ws.windows(2).find(|p| {
        matches!(p[0].as_str(), "run" | "exec" | "execute") && RUNNABLE.contains(&p[1].as_str())
    }) {
        return Some(format!("its name {name:?} says {:?}", pair.join("_")));
    }
    let description = tool
        .get("description")
        .and_then(|d| d.as_str())
        .unwrap_or("");
    let mut first_words = description
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase);
    let mut first = first_words.next();
    // "Permanently deletes ...", "Irreversibly ..."
    if first.as_deref().is_some_and(|w| w.ends_with("ly")) {
        first = first_words.next();
    }
    if let Some(first) = first {
        if DESCRIPTION_VERBS.contains(&first.as_str()) {
            return Some(format!("its description begins {first:?}"));
        }
        // "Executes a shell command", not "Runs a read-only SQL query".
        let next: Vec<String> = first_words.take(3).collect();
        if matches!(
            first.as_str(),
            "execute" | "executes" | "run" | "runs" | "exec"
        ) && next
            .iter()
            .any(|w| RUNNABLE.contains(&w.as_str()) || w == "arbitrary")
        {
            return Some(format!(
                "its description begins {:?}",
                format!("{first} {}", next.join(" "))
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ro(name: &str, description: &str) -> serde_json::Value {
        json!({"name": name, "description": description, "annotations": {"readOnlyHint": true}})
    }

    #[test]
    fn names_and_descriptions_that_write_contradict_read_only() {
        for (name, description) in [
            ("delete_everything", "Cleans up."),
            ("deleteAll", ""),
            ("file-delete", ""),
            ("send_email", "Sends an email."),
            ("run_shell_command", ""),
            (
                "cleanup",
                "Permanently deletes every file in the workspace.",
            ),
            ("do_it", "Executes a shell command."),
        ] {
            assert!(
                read_only_contradicted(&ro(name, description)).is_some(),
                "{name}"
            );
        }
    }

    #[test]
    fn readers_and_unannotated_tools_do_not() {
        for (name, description) in [
            ("get_settings", "Returns the settings."),
            ("list_deleted_items", "Lists items in the trash."),
            ("read_file", "Read the complete contents of a file."),
            ("get_post", "Gets a blog post."),
            ("format_date", "Formats a date as ISO 8601."),
            ("query", "Run a read-only SQL query."),
            ("edit_distance", "Computes the Levenshtein distance."),
            ("search_emails", "Searches emails by subject."),
            (
                "check_for_updates",
                "Checks whether an update is available.",
            ),
        ] {
            assert!(
                read_only_contradicted(&ro(name, description)).is_none(),
                "{name}"
            );
        }
        let unannotated = json!({"name": "delete_everything"});
        assert!(read_only_contradicted(&unannotated).is_none());
    }
}
