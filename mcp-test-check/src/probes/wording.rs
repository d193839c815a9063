//! The words of a finding: the modal verb a message uses is its clause's level, so a finding
//! never asks more than the clause it quotes (no "must" under a SHOULD).

use mcp_test::spec::clauses::Level;

/// The clause's keyword as a message writes it: `must`, `must not`, `should`, `should not`,
/// `may`.
pub(crate) fn keyword(level: Level) -> &'static str {
    match level {
        Level::Must => "must",
        Level::MustNot => "must not",
        Level::Should => "should",
        Level::ShouldNot => "should not",
        Level::May => "may",
    }
}

#[cfg(test)]
mod tests {
    use super::keyword;
    use mcp_test::spec::clauses::{self, Level};
    use std::collections::HashMap;

    #[test]
    fn the_keyword_is_the_levels() {
        assert_eq!(keyword(Level::Must), "must");
        assert_eq!(keyword(clauses::LEGACY_RESOURCE_NOT_FOUND.level), "should");
        assert_eq!(keyword(Level::ShouldNot), "should not");
    }

    /// Every `broke(&clauses::NAME, ...)` of the probes whose message (its first string)
    /// says "must" or "should" says the word of NAME's level: a "must" under a SHOULD clause
    /// overstates, a "should" under a MUST understates. The source is read as text: a clause
    /// passed in a variable is not seen here, and is held to its level where it is chosen.
    #[test]
    fn the_modal_word_of_every_quoted_clause_agrees_with_its_level() {
        let levels: HashMap<&str, Level> = clauses::ALL
            .iter()
            .map(|c| (const_name(c.id), c.level))
            .collect::<Vec<_>>()
            .into_iter()
            .filter_map(|(n, l)| n.map(|n| (n, l)))
            .collect();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/probes");
        let mut wrong = Vec::new();
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).expect("the probes folder") {
            let path = entry.expect("an entry").path();
            let text = std::fs::read_to_string(&path).expect("a probe file");
            for (at, _) in text.match_indices("broke(") {
                let call = &text[at..text.len().min(at + 900)];
                let Some(name) = literal_clause(call) else {
                    continue;
                };
                let Some(level) = levels.get(name) else {
                    continue;
                };
                let Some(message) = first_string_after(call, name) else {
                    continue;
                };
                seen += 1;
                let says_must = has_word(message, "must");
                let says_should = has_word(message, "should");
                let bad = match level {
                    Level::Must | Level::MustNot => says_should && !says_must,
                    Level::Should | Level::ShouldNot => says_must,
                    Level::May => says_must || says_should,
                };
                if bad {
                    wrong.push(format!("{}: {name} ({level}): {message}", path.display()));
                }
            }
        }
        assert!(
            seen > 50,
            "only {seen} findings were read: the scan is broken"
        );
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// The const name of the clause `id` as written in `clauses.rs`, found by its id there.
    fn const_name(id: &str) -> Option<&'static str> {
        let source = include_str!("../../../mcp-test/src/spec/clauses.rs");
        let needle = format!(" = \"{id}\",");
        let at = source.find(&needle)?;
        let start = source[..at].rfind(char::is_whitespace)? + 1;
        Some(&source[start..at])
    }

    /// The `NAME` of the first `clauses::NAME` among the first arguments of a call.
    fn literal_clause(call: &str) -> Option<&str> {
        let head = &call[..call.len().min(200)];
        let at = head.find("clauses::")? + "clauses::".len();
        let rest = &head[at..];
        let end = rest
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    }

    /// The first string literal after `name` in `call`.
    fn first_string_after<'a>(call: &'a str, name: &str) -> Option<&'a str> {
        let rest = &call[call.find(name)? + name.len()..];
        let start = rest.find('"')? + 1;
        let mut end = start;
        let bytes = rest.as_bytes();
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        rest.get(start..end)
    }

    fn has_word(text: &str, word: &str) -> bool {
        text.to_lowercase()
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| w == word)
    }
}
