//! The regressions file: the minimal failing arguments of each property, kept so the next run
//! replays them first (proptest's `proptest-regressions/`, one JSON file per tool).
//!
//! `<dir>/<tool>.json`:
//!
//! ```json
//! {"failures": [{"action": null, "property": "valid", "invariant": "no-protocol-error",
//!                "args": {"word": "aaaaaaa"}, "pointer": null}]}
//! ```
//!
//! A file that cannot be read or parsed is an error naming the file; nothing in it is trusted:
//! stored arguments are replayed only while they are still valid (or still broken in exactly
//! that place) for the tool's current schema.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One stored failure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Stored {
    /// The action of an action tool.
    #[serde(default)]
    pub(crate) action: Option<String>,
    /// `valid` or `broken`.
    pub(crate) property: String,
    /// The invariant that failed.
    pub(crate) invariant: String,
    /// The minimal failing arguments.
    pub(crate) args: Value,
    /// For `broken`: the one place the arguments break the schema.
    #[serde(default)]
    pub(crate) pointer: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    #[serde(default)]
    note: String,
    failures: Vec<Stored>,
}

const NOTE: &str = "Minimal failing arguments found by mcp-test's property tests, replayed first on every run. Commit this file; delete an entry once its bug is fixed and stays fixed.";

/// The file of `tool` in `dir`: the tool's name with every character outside
/// `[A-Za-z0-9_.-]` replaced by `_`.
pub(crate) fn path_of(dir: &Path, tool: &str) -> PathBuf {
    let name: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = name.trim_start_matches('.');
    dir.join(format!("{}.json", if name.is_empty() { "_" } else { name }))
}

/// The failures stored for `tool`; none when there is no file.
pub(crate) fn load(dir: &Path, tool: &str) -> Result<Vec<Stored>, String> {
    let path = path_of(dir, tool);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("regressions file {}: {e}", path.display())),
    };
    serde_json::from_str::<File>(&text)
        .map(|f| f.failures)
        .map_err(|e| {
            format!(
                "regressions file {}: not the expected JSON ({e}); fix or delete it",
                path.display()
            )
        })
}

/// Adds `failure` to `tool`'s file (once), writing a new file beside it and renaming it over
/// the old one, so a reader never sees half a file.
pub(crate) fn save(dir: &Path, tool: &str, failure: Stored) -> Result<PathBuf, String> {
    let path = path_of(dir, tool);
    let mut failures = load(dir, tool)?;
    if !failures.contains(&failure) {
        failures.push(failure);
    }
    let file = File {
        note: NOTE.to_owned(),
        failures,
    };
    let text = serde_json::to_string_pretty(&file)
        .map_err(|e| format!("regressions file {}: {e}", path.display()))?;
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("regressions directory {}: {e}", dir.display()))?;
    let temp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&temp, text + "\n")
        .and_then(|()| std::fs::rename(&temp, &path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            format!("regressions file {}: {e}", path.display())
        })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "mcp-test-regressions-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_failure_is_saved_once_and_loaded_back() {
        let dir = temp_dir("roundtrip");
        let stored = Stored {
            action: Some("get".into()),
            property: "valid".into(),
            invariant: "no-protocol-error".into(),
            args: serde_json::json!({"id": "a"}),
            pointer: None,
        };
        let path = save(&dir, "orders/v2", stored.clone()).unwrap();
        assert!(path.ends_with("orders_v2.json"), "{}", path.display());
        save(&dir, "orders/v2", stored.clone()).unwrap();
        assert_eq!(load(&dir, "orders/v2").unwrap(), vec![stored]);
        assert_eq!(load(&dir, "other").unwrap(), vec![]);
        std::fs::write(&path, "{not json").unwrap();
        let e = load(&dir, "orders/v2").unwrap_err();
        assert!(
            e.contains("orders_v2.json") && e.contains("not the expected JSON"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
