//! RFC 6570 URI templates as resource templates use them: parsing, expansion, and matching a
//! URI back to its variables.
//!
//! Supported expressions, one variable each:
//!
//! | expression | expands a value by | matches |
//! |---|---|---|
//! | `{var}` | percent-encoding everything but unreserved characters | one or more unreserved characters or `%XX` triplets: never `/`, `?`, `#`, ... |
//! | `{+var}` | keeping reserved characters (`/`, `:`, `?`, ...) and `%XX` triplets | one or more URI characters, `/` included |
//! | `{#var}` | `#` then as `{+var}` | `#` then as `{+var}` |
//!
//! Matching is anchored at both ends, percent-decodes each value (which must then be UTF-8),
//! and requires every variable to be non-empty: `test://items//data` does not match
//! `test://items/{id}/data`. When a reserved variable could end at several places, the longest
//! match that lets the rest of the template match wins.
//!
//! Matching is memoized and bounded: a URI that would need more than a million steps
//! (only possible with several `{+var}` and a hostile URI) matches nothing.
//!
//! Everything else RFC 6570 defines (the `.`, `/`, `;`, `?`, `&` operators, variable lists
//! `{a,b}`, the `:n` and `*` modifiers) and two expressions with no literal between them
//! (except before `{#var}`, whose `#` separates them) are refused when the template is
//! parsed, with the reason, rather than matched unreliably.
//!
//! ```
//! use mcp_test::uri_template::UriTemplate;
//!
//! let t = UriTemplate::parse("file:///{+path}{#section}").unwrap();
//! assert_eq!(t.variables().collect::<Vec<_>>(), ["path", "section"]);
//! let uri = t.expand([("path", "docs/read me.md"), ("section", "intro")]);
//! assert_eq!(uri, "file:///docs/read%20me.md#intro");
//!
//! let vars = t.match_uri(&uri).unwrap();
//! assert_eq!(vars.get("path"), Some("docs/read me.md"));
//! assert_eq!(vars.get("section"), Some("intro"));
//!
//! let item = UriTemplate::parse("test://template/{id}/data").unwrap();
//! assert_eq!(item.match_uri("test://template/123/data").unwrap().get("id"), Some("123"));
//! assert!(item.match_uri("test://template/1/2/data").is_none(), "{{id}} never spans a /");
//! ```

use std::fmt;

/// A parsed URI template; see the [module docs](self) for what is supported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Var { name: String, op: Op },
}

/// The operator of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// `{var}`
    Simple,
    /// `{+var}`
    Reserved,
    /// `{#var}`
    Fragment,
}

/// Why a template did not parse: the byte offset of the offending expression and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid URI template {template:?} at byte {offset}: {reason}")]
pub struct UriTemplateError {
    /// The template.
    pub template: String,
    /// Byte offset of the problem in the template.
    pub offset: usize,
    /// What is wrong.
    pub reason: String,
}

/// The variables a URI matched, in template order, percent-decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variables {
    pairs: Vec<(String, String)>,
}

impl Variables {
    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `(name, value)` pairs in template order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number of variables.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The variables deserialized into `T` (see [`string_args`](crate::string_args)): numbers,
    /// booleans and enums parse from the text.
    ///
    /// ```
    /// use mcp_test::uri_template::UriTemplate;
    /// #[derive(serde::Deserialize)]
    /// struct Page { book: String, page: u16 }
    /// let t = UriTemplate::parse("books://{book}/pages/{page}").unwrap();
    /// let p: Page = t.match_uri("books://dune/pages/12").unwrap().deserialize().unwrap();
    /// assert_eq!((p.book.as_str(), p.page), ("dune", 12));
    /// ```
    pub fn deserialize<T: serde::de::DeserializeOwned>(
        &self,
    ) -> Result<T, crate::string_args::StringArgsError> {
        crate::string_args::from_pairs(self.pairs.iter().cloned())
    }
}

impl UriTemplate {
    /// Parses a template.
    ///
    /// ```
    /// use mcp_test::uri_template::UriTemplate;
    /// let err = UriTemplate::parse("items://{?page}").unwrap_err();
    /// assert_eq!(err.offset, 8);
    /// assert!(err.reason.contains("`?`"), "{err}");
    /// ```
    pub fn parse(template: &str) -> Result<UriTemplate, UriTemplateError> {
        let fail = |offset: usize, reason: String| UriTemplateError {
            template: template.to_owned(),
            offset,
            reason,
        };
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = template.char_indices().peekable();
        while let Some((at, c)) = rest.next() {
            match c {
                '{' => {
                    let Some(close) = template[at..].find('}') else {
                        return Err(fail(at, "`{` is never closed by `}`".into()));
                    };
                    let body = &template[at + 1..at + close];
                    if body.contains('{') {
                        return Err(fail(at, "`{` inside an expression".into()));
                    }
                    let (op, name) = match body.chars().next() {
                        Some('+') => (Op::Reserved, &body[1..]),
                        Some('#') => (Op::Fragment, &body[1..]),
                        Some(o @ ('.' | '/' | ';' | '?' | '&' | '=' | ',' | '!' | '@' | '|')) => {
                            return Err(fail(
                                at,
                                format!(
                                    "the `{o}` operator is not supported (only {{var}}, {{+var}} and {{#var}} are)"
                                ),
                            ));
                        }
                        _ => (Op::Simple, body),
                    };
                    check_var_name(name).map_err(|reason| fail(at, reason.to_string()))?;
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    } else if op != Op::Fragment && matches!(parts.last(), Some(Part::Var { .. })) {
                        return Err(fail(
                            at,
                            "two expressions with no literal between them cannot be matched unambiguously"
                                .into(),
                        ));
                    }
                    if parts
                        .iter()
                        .any(|p| matches!(p, Part::Var { name: n, .. } if n == name))
                    {
                        return Err(fail(at, format!("the variable `{name}` appears twice")));
                    }
                    parts.push(Part::Var {
                        name: name.to_owned(),
                        op,
                    });
                    while rest.next_if(|&(i, _)| i <= at + close).is_some() {}
                }
                '}' => return Err(fail(at, "`}` without an opening `{`".into())),
                c if c.is_control() || c == ' ' => {
                    return Err(fail(
                        at,
                        format!("{c:?} cannot appear in a URI template literal"),
                    ));
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        Ok(UriTemplate {
            source: template.to_owned(),
            parts,
        })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The variable names, in template order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Var { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// Whether the template has a variable named `name`.
    pub fn has_variable(&self, name: &str) -> bool {
        self.variables().any(|v| v == name)
    }

    /// Expands the template with `vars`. As RFC 6570 says, a variable with no value expands to
    /// nothing (and `{#var}` then adds no `#`).
    ///
    /// ```
    /// use mcp_test::uri_template::UriTemplate;
    /// let t = UriTemplate::parse("search://{q}/{+rest}").unwrap();
    /// assert_eq!(t.expand([("q", "a/b c"), ("rest", "x/y?z")]), "search://a%2Fb%20c/x/y?z");
    /// assert_eq!(t.expand([("q", "ü")]), "search://%C3%BC/");
    /// ```
    pub fn expand<'a>(&self, vars: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
        let vars: Vec<(&str, &str)> = vars.into_iter().collect();
        let mut out = String::with_capacity(self.source.len());
        for part in &self.parts {
            match part {
                Part::Literal(l) => out.push_str(l),
                Part::Var { name, op } => {
                    let Some(&(_, value)) = vars.iter().find(|(n, _)| n == name) else {
                        continue;
                    };
                    if *op == Op::Fragment {
                        out.push('#');
                    }
                    encode(value, *op != Op::Simple, &mut out);
                }
            }
        }
        out
    }

    /// Matches a URI against the template; `None` when it does not match.
    pub fn match_uri(&self, uri: &str) -> Option<Variables> {
        let mut matcher = Matcher {
            spans: Vec::new(),
            failed: std::collections::HashSet::new(),
            budget: MATCH_BUDGET,
        };
        if !matcher.match_from(&self.parts, uri, 0) {
            return None;
        }
        let mut pairs = Vec::with_capacity(matcher.spans.len());
        for (name, start, end) in matcher.spans {
            pairs.push((name.to_owned(), decode(&uri[start..end])?));
        }
        Some(Variables { pairs })
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Why an expression's variable is not one this crate matches.
#[derive(Debug, thiserror::Error)]
enum VarNameError {
    #[error("an expression needs a variable name")]
    Empty,
    #[error("variable lists like {{{0}}} are not supported: use one variable per expression")]
    List(String),
    #[error("the `*` and `:n` modifiers are not supported (in `{0}`)")]
    Modifier(String),
    #[error("`{0}` is not a variable name (ASCII letters, digits, `_`, and `.` between them)")]
    Invalid(String),
}

fn check_var_name(name: &str) -> Result<(), VarNameError> {
    if name.is_empty() {
        return Err(VarNameError::Empty);
    }
    if name.contains(',') {
        return Err(VarNameError::List(name.to_owned()));
    }
    if name.ends_with('*') || name.contains(':') {
        return Err(VarNameError::Modifier(name.to_owned()));
    }
    let valid = name.split('.').all(|seg| {
        !seg.is_empty()
            && seg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '%')
    });
    if valid {
        Ok(())
    } else {
        Err(VarNameError::Invalid(name.to_owned()))
    }
}

fn is_unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')
}

fn is_reserved(c: char) -> bool {
    matches!(
        c,
        ':' | '/'
            | '?'
            | '#'
            | '['
            | ']'
            | '@'
            | '!'
            | '$'
            | '&'
            | '\''
            | '('
            | ')'
            | '*'
            | '+'
            | ','
            | ';'
            | '='
    )
}

fn encode(value: &str, keep_reserved: bool, out: &mut String) {
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        let triplet = keep_reserved
            && c == '%'
            && bytes.len() > i + 2
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit();
        if bytes[i].is_ascii() && (is_unreserved(c) || (keep_reserved && is_reserved(c)) || triplet)
        {
            out.push(c);
        } else {
            out.push_str(&format!("%{:02X}", bytes[i]));
        }
        i += 1;
    }
}

/// Percent-decodes; `None` when a triplet is malformed or the bytes are not UTF-8.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The end of the longest run from `start` of characters a variable with `op` may match
/// (non-ASCII is accepted as IRI text).
fn run_end(uri: &str, start: usize, op: Op) -> usize {
    let bytes = uri.as_bytes();
    let mut i = start;
    for (offset, c) in uri[start..].char_indices() {
        let at = start + offset;
        if at < i {
            continue; // inside a %XX triplet already accepted
        }
        let ok = if c == '%' {
            bytes.len() > at + 2
                && bytes[at + 1].is_ascii_hexdigit()
                && bytes[at + 2].is_ascii_hexdigit()
        } else {
            is_unreserved(c) || !c.is_ascii() || (op != Op::Simple && is_reserved(c))
        };
        if !ok {
            return at;
        }
        i = at + if c == '%' { 3 } else { c.len_utf8() };
    }
    i
}

/// The most steps one match may take. Backtracking over several `{+var}` can be quadratic or
/// worse in the URI's length; a URI that needs more steps than this matches nothing, so a
/// hostile URI cannot stall the server.
const MATCH_BUDGET: usize = 1_000_000;

/// Matching state: the spans found so far, the `(parts left, offset)` pairs known not to
/// match, and the steps left.
struct Matcher<'p> {
    spans: Vec<(&'p str, usize, usize)>,
    failed: std::collections::HashSet<(usize, usize)>,
    budget: usize,
}

impl<'p> Matcher<'p> {
    fn match_from(&mut self, parts: &'p [Part], uri: &str, at: usize) -> bool {
        let Some((first, rest)) = parts.split_first() else {
            return at == uri.len();
        };
        if self.budget == 0 || self.failed.contains(&(parts.len(), at)) {
            return false;
        }
        self.budget -= 1;
        let matched = match first {
            Part::Literal(l) => {
                uri[at..].starts_with(l.as_str()) && self.match_from(rest, uri, at + l.len())
            }
            Part::Var { name, op } => self.match_var(name, *op, rest, uri, at),
        };
        if !matched {
            self.failed.insert((parts.len(), at));
        }
        matched
    }

    fn match_var(&mut self, name: &'p str, op: Op, rest: &'p [Part], uri: &str, at: usize) -> bool {
        let mut start = at;
        if op == Op::Fragment {
            if !uri[at..].starts_with('#') {
                return false;
            }
            start += 1;
        }
        // Every place the value may end: after a whole character or %XX triplet.
        let max = run_end(uri, start, op);
        let mut ends = Vec::new();
        let mut i = start;
        while i < max {
            i += if uri.as_bytes()[i] == b'%' {
                3
            } else {
                uri[i..].chars().next().map_or(1, char::len_utf8)
            };
            ends.push(i.min(max));
        }
        for &end in ends.iter().rev() {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            self.spans.push((name, start, end));
            if self.match_from(rest, uri, end) {
                return true;
            }
            self.spans.pop();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(t: &str, uri: &str) -> Option<Vec<(String, String)>> {
        UriTemplate::parse(t).unwrap().match_uri(uri).map(|v| {
            v.iter()
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
                .collect()
        })
    }

    fn one(name: &str, value: &str) -> Option<Vec<(String, String)>> {
        Some(vec![(name.to_owned(), value.to_owned())])
    }

    #[test]
    fn simple_variables_match_one_segment_and_decode() {
        let t = "test://template/{id}/data";
        assert_eq!(vars(t, "test://template/123/data"), one("id", "123"));
        assert_eq!(vars(t, "test://template/a%20b/data"), one("id", "a b"));
        assert_eq!(vars(t, "test://template/%C3%BC/data"), one("id", "ü"));
        assert_eq!(
            vars(t, "test://template/ü/data"),
            one("id", "ü"),
            "IRI text"
        );
        assert_eq!(vars(t, "test://template//data"), None, "empty value");
        assert_eq!(vars(t, "test://template/a/b/data"), None, "no / in {{id}}");
        assert_eq!(vars(t, "test://template/a?b/data"), None);
        assert_eq!(vars(t, "test://template/%zz/data"), None, "bad triplet");
        assert_eq!(vars(t, "test://template/%FF/data"), None, "not UTF-8");
        assert_eq!(
            vars(t, "test://template/1/datax"),
            None,
            "anchored at the end"
        );
        assert_eq!(
            vars(t, "xtest://template/1/data"),
            None,
            "anchored at the start"
        );
    }

    #[test]
    fn reserved_variables_span_slashes_and_backtrack() {
        assert_eq!(
            vars("file:///{+path}", "file:///a/b/c.txt"),
            one("path", "a/b/c.txt")
        );
        assert_eq!(
            vars("file:///{+path}/raw", "file:///a/raw/b/raw"),
            one("path", "a/raw/b"),
            "longest match that lets the rest match"
        );
        assert_eq!(
            vars("repo://{owner}/{+path}", "repo://me/src/lib.rs"),
            Some(vec![
                ("owner".into(), "me".into()),
                ("path".into(), "src/lib.rs".into())
            ])
        );
        assert_eq!(
            vars("x://{+p}.md", "x://a%2Fb.md"),
            one("p", "a/b"),
            "triplets decode, and an end never splits one"
        );
    }

    #[test]
    fn fragments_need_their_hash() {
        let t = "doc://{name}{#section}";
        assert_eq!(
            vars(t, "doc://guide#setup/linux"),
            Some(vec![
                ("name".into(), "guide".into()),
                ("section".into(), "setup/linux".into())
            ])
        );
        assert_eq!(vars(t, "doc://guide"), None);
    }

    #[test]
    fn expansion_round_trips_through_matching() {
        let t = UriTemplate::parse("x://{a}/{+b}{#c}").unwrap();
        for (a, b, c) in [
            ("plain", "p/q", "frag"),
            ("sp ace", "with space/ü", "x y"),
            ("50%", "100%/x", "%"),
            ("a/b?c#d", "r?s", "t/u"),
        ] {
            let uri = t.expand([("a", a), ("b", b), ("c", c)]);
            let m = t
                .match_uri(&uri)
                .unwrap_or_else(|| panic!("{uri} should match"));
            assert_eq!(m.get("a"), Some(a), "{uri}");
            if !b.contains('%') {
                assert_eq!(m.get("b"), Some(b), "{uri}");
            }
        }
        // A `#` in a reserved value before {#c} is ambiguous: the longest match wins.
        let m = t.match_uri("x://a/r#s#t").unwrap();
        assert_eq!((m.get("b"), m.get("c")), (Some("r#s"), Some("t")));
        // Reserved expansion keeps existing triplets, as RFC 6570 §3.2.3 says.
        assert_eq!(t.expand([("a", "x"), ("b", "a%20b")]), "x://x/a%20b");
    }

    #[test]
    fn unsupported_and_malformed_templates_are_refused_with_a_reason() {
        for (template, offset, needle) in [
            ("x://{", 4, "never closed"),
            ("x://}", 4, "without an opening"),
            ("x://{}", 4, "needs a variable name"),
            ("x://{a,b}", 4, "variable lists"),
            ("x://{/a}", 4, "`/` operator"),
            ("x://{;a}", 4, "`;` operator"),
            ("x://{.a}", 4, "`.` operator"),
            ("x://{&a}", 4, "`&` operator"),
            ("x://{a*}", 4, "modifiers"),
            ("x://{a:3}", 4, "modifiers"),
            ("x://{a-b}", 4, "not a variable name"),
            ("x://{a}{b}", 7, "no literal between"),
            ("x://{a}/{a}", 8, "appears twice"),
            ("x:// {a}", 4, "cannot appear"),
            ("x://{a{b}}", 4, "inside an expression"),
        ] {
            let e = UriTemplate::parse(template).unwrap_err();
            assert_eq!(e.offset, offset, "{template}: {e}");
            assert!(e.reason.contains(needle), "{template}: {e}");
            assert!(e.to_string().contains(template), "{e}");
        }
    }

    #[test]
    fn hostile_uris_cannot_stall_matching() {
        let t = UriTemplate::parse("x://{+a}/{+b}/{+c}/{+d}/z").unwrap();
        let uri = format!("x://{}y", "/".repeat(20_000));
        assert!(t.match_uri(&uri).is_none());
        let ok = format!("x://a{}b/c/d/z", "/".repeat(5_000));
        let m = t
            .match_uri(&ok)
            .expect("a long URI that matches still matches");
        assert_eq!(m.get("d"), Some("d"));
    }

    #[test]
    fn literal_only_templates_match_exactly() {
        let t = UriTemplate::parse("test://static").unwrap();
        assert!(t.match_uri("test://static").unwrap().is_empty());
        assert!(t.match_uri("test://static/").is_none());
        assert_eq!(t.variables().count(), 0);
    }
}
