//! The scanners of text: pure functions from one string to the [`Hit`]s of the rules it
//! breaks. Deterministic and offline: fixed character classes and regular expressions, no
//! model, no network.

use super::rules::{self, *};
use crate::SecurityRule;
use regex::Regex;
use std::sync::LazyLock;

/// Where a string was read, which decides the rules that apply: leaks (stack traces,
/// environment dumps) are looked for only in what a server returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A definition a model reads before any call: a name, title, description, schema text,
    /// the server's instructions.
    Definition,
    /// A name: only invisible and control characters are looked for.
    Name,
    /// What a server returned: a tool result, resource contents, a prompt's messages, an
    /// error message.
    Returned,
}

/// One rule broken by one string: what was found, the excerpt (escaped) and any hidden text
/// decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The rule broken.
    pub rule: &'static SecurityRule,
    /// What was found, in a sentence.
    pub message: String,
    /// The text around it, invisible and control characters escaped ([`escape`]).
    pub excerpt: String,
    /// The hidden text decoded (tag characters to ASCII), when some hid.
    pub decoded: Option<String>,
}

/// Every rule `text` breaks in `place`, at most one hit a rule.
///
/// ```
/// use mcp_test_check::security::{Place, scan_text};
/// let hidden = "Adds numbers.\u{E0049}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}";
/// let hits = scan_text(hidden, Place::Definition);
/// assert_eq!(hits[0].rule.id, "hidden/tag-characters");
/// assert_eq!(hits[0].decoded.as_deref(), Some("Ignore"));
/// assert!(scan_text("Reads a file. Matching may ignore case.", Place::Definition).is_empty());
/// ```
pub fn scan_text(text: &str, place: Place) -> Vec<Hit> {
    let mut hits = Vec::new();
    hidden(text, &mut hits);
    if place == Place::Name {
        return hits;
    }
    // What the rules below read: the text with hidden characters taken out and tags decoded,
    // so that an instruction split by zero-width characters is still read.
    let plain = visible(text);
    markup(&plain, &mut hits);
    instructions(&plain, &mut hits);
    secrets(&plain, &mut hits);
    if place == Place::Returned {
        stack_trace(&plain, &mut hits);
        environment(&plain, &mut hits);
    }
    hits
}

/// Compiles every pattern now, so that the first answer a check reads does not wait for it
/// (`check` calls it on a thread of its own as it starts).
pub(crate) fn warm() {
    for regex in [
        &*MARKUP,
        &*SECRECY_RE,
        &*OVERRIDE_RE,
        &*SENSITIVE_PATH,
        &*DIRECTIVE,
        &*EXFIL_PARAM,
        &*EXFIL_SIDE,
        &*EXFIL_URL,
        &*EXFIL_LINK,
        &*LOOT_FIELD,
        &*SHADOWING_RE,
        &*ENV_LINE,
    ] {
        let _ = regex.as_str();
    }
    let _ = SECRET_FORMATS.len() + STACK_FRAMES.len();
}

/// `text` with every character a reader does not see shown as `\u{..}` (and `\n`, `\t`,
/// `\r`, `\e` for the usual ones), at most `EXCERPT` characters.
///
/// ```
/// use mcp_test_check::security::escape;
/// assert_eq!(escape("a\u{200B}b\u{1b}[31m"), "a\\u{200B}b\\e[31m");
/// assert_eq!(escape("日本語 ok"), "日本語 ok");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            c if invisible(c) => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Whether `c` shows nothing: a control or format character (tags, zero-width, bidi, BOM).
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c as u32,
            0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
            | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
            | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0xE0000..=0xE0FFF)
}

/// How many characters an excerpt shows either side of what was found.
const AROUND: usize = 40;

/// The excerpt of `text` around the byte range `start..end`: up to [`AROUND`] characters
/// either side, escaped, with `…` where it was cut.
fn excerpt(text: &str, start: usize, end: usize) -> String {
    let before: String = {
        let mut chars: Vec<char> = text[..start].chars().rev().take(AROUND + 1).collect();
        let cut = chars.len() > AROUND;
        chars.truncate(AROUND);
        chars.reverse();
        let s: String = chars.into_iter().collect();
        if cut { format!("…{s}") } else { s }
    };
    let middle: String = {
        let m = &text[start..end];
        if m.chars().count() > 3 * AROUND {
            let head: String = m.chars().take(2 * AROUND).collect();
            format!("{head}…")
        } else {
            m.to_owned()
        }
    };
    let after: String = {
        let mut chars: Vec<char> = text[end..].chars().take(AROUND + 1).collect();
        let cut = chars.len() > AROUND;
        chars.truncate(AROUND);
        let s: String = chars.into_iter().collect();
        if cut { format!("{s}…") } else { s }
    };
    escape(&format!("{before}{middle}{after}"))
}

/// `text` as a model reads it once invisible characters go: tags decoded to ASCII, every
/// other invisible character but line breaks and tabs dropped.
fn visible(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c as u32 {
            0xE0020..=0xE007E => char::from_u32(c as u32 - 0xE0000),
            _ if c == '\n' || c == '\t' => Some(c),
            _ if c == '\r' => Some('\n'),
            _ if invisible(c) => None,
            _ => Some(c),
        })
        .collect()
}

fn push(
    hits: &mut Vec<Hit>,
    rule: &'static SecurityRule,
    message: String,
    excerpt: String,
    decoded: Option<String>,
) {
    if !hits.iter().any(|h| std::ptr::eq(h.rule, rule)) {
        hits.push(Hit {
            rule,
            message,
            excerpt,
            decoded,
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Invisible and deceptive characters

/// Whether `c` is an emoji or a part of an emoji sequence a ZWJ may join.
fn emoji(c: char) -> bool {
    matches!(c as u32,
        0x00A9 | 0x00AE | 0x203C | 0x2049 | 0x2122 | 0x2139 | 0x2194..=0x21AA | 0x231A..=0x23FF
        | 0x24C2 | 0x25AA..=0x27BF | 0x2934 | 0x2935 | 0x2B05..=0x2B55 | 0x3030 | 0x303D
        | 0x3297 | 0x3299 | 0xFE0F | 0x1F000..=0x1FAFF | 0xE0020..=0xE007F)
}

/// Whether `c` is a letter of a script in which ZWJ and ZWNJ shape words: Arabic (Persian,
/// Urdu...), Syriac, N'Ko, the Indic scripts, Sinhala, Myanmar, Mongolian.
fn joining_script(c: char) -> bool {
    matches!(c as u32,
        0x0600..=0x08FF | 0x0900..=0x0DFF | 0x1000..=0x109F
        | 0x1800..=0x18AF | 0xA8E0..=0xA8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF)
}

/// Whether `c` is a letter of a script written without spaces, where U+200B marks where a
/// line may break: Thai, Lao, Khmer, Myanmar, Tibetan, CJK, kana.
fn spaceless_script(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF | 0x0F00..=0x0FFF | 0x1000..=0x109F | 0x1780..=0x17FF | 0x3000..=0x30FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

fn zero_width(c: char) -> bool {
    matches!(
        c as u32,
        0x200B..=0x200D | 0x2060..=0x2064 | 0x180E | 0xFEFF | 0x034F | 0x115F | 0x1160 | 0x3164
    )
}

fn hidden(text: &str, hits: &mut Vec<Hit>) {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    // Tag characters: decode every run.
    let tags: Vec<&(usize, char)> = chars
        .iter()
        .filter(|(_, c)| matches!(*c as u32, 0xE0000..=0xE007F))
        .collect();
    // A tag run right after a flag emoji (U+1F3F4 followed by tags, ending in U+E007F) is a
    // subdivision flag, not hidden text.
    let flag_only = !tags.is_empty() && flag_sequences_only(&chars);
    if let (Some(first), Some(last), false) = (tags.first(), tags.last(), flag_only) {
        let decoded: String = tags
            .iter()
            .filter_map(|(_, c)| match *c as u32 {
                0xE0020..=0xE007E => char::from_u32(*c as u32 - 0xE0000),
                _ => None,
            })
            .collect();
        let end = last.0 + last.1.len_utf8();
        push(
            hits,
            &TAG_CHARACTERS,
            format!(
                "{} Unicode tag character(s) hide text: {:?}",
                tags.len(),
                decoded
            ),
            excerpt(text, first.0, end),
            Some(decoded),
        );
    }
    // Bidi controls.
    if let Some((i, c)) = chars
        .iter()
        .find(|(_, c)| matches!(*c as u32, 0x202A..=0x202E | 0x2066..=0x2069))
    {
        push(
            hits,
            &BIDI_CONTROLS,
            format!("bidirectional control U+{:04X}", *c as u32),
            excerpt(text, *i, i + c.len_utf8()),
            None,
        );
    }
    // Zero-width characters out of place.
    for (k, (i, c)) in chars.iter().enumerate() {
        if !zero_width(*c) {
            continue;
        }
        let prev = k.checked_sub(1).map(|p| chars[p].1);
        let next = chars.get(k + 1).map(|n| n.1);
        let both = |f: fn(char) -> bool| prev.is_some_and(f) && next.is_some_and(f);
        let legitimate = match *c as u32 {
            // A byte order mark at the very start.
            0xFEFF => k == 0,
            // ZWJ in an emoji sequence or a joining script; ZWNJ in a joining script.
            0x200D => both(emoji) || both(joining_script),
            0x200C => both(joining_script),
            // ZWSP as a line-break opportunity in a script without spaces.
            0x200B => prev.is_some_and(spaceless_script) || next.is_some_and(spaceless_script),
            _ => false,
        };
        let doubled = next.is_some_and(zero_width) || prev.is_some_and(zero_width);
        if !legitimate || doubled {
            let run_end = chars[k..]
                .iter()
                .take_while(|(_, c)| zero_width(*c))
                .count();
            push(
                hits,
                &ZERO_WIDTH,
                format!(
                    "zero-width character U+{:04X}{}",
                    *c as u32,
                    if run_end > 1 {
                        format!(" in a run of {run_end}")
                    } else {
                        String::new()
                    }
                ),
                excerpt(text, *i, i + c.len_utf8()),
                None,
            );
            break;
        }
    }
    // Terminal escapes and control characters.
    if let Some((i, c)) = chars.iter().find(|(_, c)| {
        let u = *c as u32;
        (u < 0x20 && !matches!(*c, '\n' | '\t' | '\r')) || (0x7F..=0x9F).contains(&u)
    }) {
        let what = match *c {
            '\u{1b}' => "a terminal escape sequence (ESC)".to_owned(),
            '\u{9b}' => "a terminal control sequence introducer (U+009B)".to_owned(),
            '\u{8}' => "a backspace, which overwrites text on a terminal".to_owned(),
            c => format!("control character U+{:04X}", c as u32),
        };
        push(
            hits,
            &TERMINAL_ESCAPE,
            what,
            excerpt(text, *i, (i + 12).min(text.len()).max(i + c.len_utf8())),
            None,
        );
    }
}

/// Whether every tag character of `chars` belongs to an emoji tag sequence (a subdivision
/// flag: U+1F3F4, tags, U+E007F).
fn flag_sequences_only(chars: &[(usize, char)]) -> bool {
    let mut in_flag = false;
    for (_, c) in chars {
        match *c as u32 {
            0x1F3F4 => in_flag = true,
            0xE007F if in_flag => in_flag = false,
            0xE0020..=0xE007E if in_flag => {}
            0xE0000..=0xE007F => return false,
            _ => in_flag = false,
        }
    }
    true
}

// ---------------------------------------------------------------------------------------------
// Markup and instructions aimed at the model

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a rule's pattern compiles")
}

static MARKUP: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)<\s*/?\s*(important|system|system[-_ ]?prompt|instructions?|secret|hidden|admin|critical|override|assistant[-_ ]?instructions?|ai[-_ ]?instructions?|note[-_ ]to[-_ ](the[-_ ])?(ai|model|assistant|llm))\s*>",
        r"|<!--[\s\S]*?-->",
        r"|<\|(im_start|im_end|system|endoftext)\|>",
        r"|\[/?INST\]|<</?SYS>>"
    ))
});

fn markup(text: &str, hits: &mut Vec<Hit>) {
    if let Some(m) = MARKUP.find(text) {
        let what = if m.as_str().starts_with("<!--") {
            "an HTML comment, which most clients do not show"
        } else {
            "markup addressed to the model"
        };
        push(
            hits,
            &HIDDEN_MARKUP,
            format!("{what}: {}", first_line(m.as_str())),
            excerpt(text, m.start(), m.end()),
            None,
        );
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    let short: String = line.chars().take(60).collect();
    escape(&short)
}

static SECRECY_RE: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)\b(do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t)\s+(tell|inform|notify|mention|reveal|disclose|alert)\b[^.\n]{0,40}?\b(the\s+)?users?\b",
        r"|\bwithout\s+(telling|informing|notifying|alerting|asking)\s+(the\s+)?users?\b",
        r"|\b(keep|hide)\s+(this|it|these|that)\s+(a\s+)?(secret\s+)?from\s+(the\s+)?users?\b",
        r"|\b(the\s+)?user\s+(must|should)\s+(not|never)\s+(know|see|find\s+out|be\s+told)\b",
        r"|\bdon'?t\s+let\s+the\s+user\s+(know|see)\b",
        r"|\b(do\s+not|don'?t|never)\s+(mention|reveal|disclose)\s+(this|these|that|it)\b",
    ))
});

static OVERRIDE_RE: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|preceding|other|system|original|existing|safety)\s+(instructions?|rules|guidelines|directions|prompts?|messages)\b",
        r"|\b(ignore|disregard|forget)\s+(all|everything)\s+(you\s+were\s+told|above|before)\b",
        r"|\b(ignore|disregard|forget)\s+your\s+(instructions?|rules|guidelines|system\s+prompt)\b",
        r"|\b(takes?|has)\s+precedence\s+over\s+(all|any|every|other|the)\s+(other\s+)?(instructions?|tools?|rules)\b",
        r"|\bnew\s+system\s+(prompt|instructions?)\s*:",
    ))
});

/// Credential files and directories a poisoned tool asks for.
static SENSITIVE_PATH: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)(~|\$HOME|/home/\w+|/root|%USERPROFILE%)?/?\.ssh\b(/[\w.-]+)?",
        r"|\bid_(rsa|dsa|ecdsa|ed25519)\b",
        r"|(~|\$HOME)?/?\.aws/(credentials|config)\b|~/\.aws\b",
        r"|(^|[\s`'\x22(])\.env\b",
        r"|/etc/(passwd|shadow)\b",
        r"|\.(npmrc|netrc|pgpass|git-credentials|pypirc)\b",
        r"|\.docker/config\.json|\.kube/config\b",
        r"|\b(mcp|claude_desktop_config)\.json\b",
        r"|\.config/gcloud\b|\bcredentials\.json\b",
    ))
});

/// A directive to read or pass on something, in the imperative (base form).
static DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(read|cat|pass|send|include|provide|attach|upload|append|copy|forward|paste|insert|put|print|output|dump|exfiltrate)\b",
    )
});

/// Something the model holds that an attacker wants.
/// (Not API keys, tokens or passwords as such: an honest tool may take its own key as an
/// argument.)
const LOOT: &str = r"(the\s+|all\s+|any\s+|its\s+|their\s+|full\s+|entire\s+|whole\s+|user'?s\s+|previous\s+|complete\s+|a\s+|list\s+of\s+|last\s+|recent\s+)*(conversation(\s+history)?|chat(\s+history)?|message\s+history|(previous|prior|last|recent|earlier)\s+messages|system\s+prompt|context\s+window|credentials|secrets|private\s+keys?|ssh\s+keys?|environment\s+variables|env\s+vars|contents?\s+of\s+(the\s+)?(file|~|/|\.)|(results?|outputs?)\s+of\s+(all\s+|every\s+|any\s+|the\s+)?(other|previous)\s+tools?(\s+calls?)?)";

static EXFIL_PARAM: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(pass|send|put|include|provide|add|append|insert|attach|forward|copy|paste|place|write|set)\b[^.\n]{{0,30}}?\b{LOOT}\b[^.\n]{{0,60}}?\b(as|in|into|to|inside|via)\s+(the\s+|a\s+|this\s+)?([`'\x22]?\w+[`'\x22]?\s+)?(parameter|param|argument|arg|field|property)\b"
    ))
});

static EXFIL_URL: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(send|post|upload|forward|transmit|submit|exfiltrate|report|leak)\b[^.\n]{{0,30}}?\b{LOOT}\b[^.\n]{{0,40}}?\bto\s+(https?://|the\s+(url|endpoint|webhook)\b)"
    ))
});

/// The content of what was just read, passed on under a quoted name: "read the file and pass
/// its content as 'sidenote'".
static EXFIL_SIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(pass|send|include|put|add|provide|append)\s+(its|their)\s+(full\s+|entire\s+)?contents?\s+(as|in|into|to)\s+(the\s+)?[`'\x22]\w+[`'\x22]",
    )
});

/// A link or image whose URL carries a placeholder the model is to fill with data.
static EXFIL_LINK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)!?\[[^\]]*\]\(https?://[^)\s]*[?&][\w-]+=(\{[^}]*\}|\$\{?[A-Z_]+\}?|<[^>]+>|\[[A-Z_ ]+\])[^)]*\)",
    )
});

/// A field the model is told to fill with the conversation or secrets: a parameter's own
/// description saying so.
static LOOT_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^\s*(put|include|add|provide|paste|insert|pass|write|place|fill\s+in|enter|attach)\s+(here\s+)?{LOOT}\s+(here|in\s+this\s+(field|parameter))?"
    ))
});

static SHADOWING_RE: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)\bwhen\s+this\s+tool\s+is\s+(available|present|loaded|installed|enabled|connected)\b",
        r"|\b(all|every|any)\s+(other\s+)?(tools?|servers?)\s+(must|should|shall|are\s+required\s+to)\b",
        r"|\b(any|all|every|the)\s+other\s+(mcp\s+)?servers?\b[^.\n]{0,40}\b(must|should|shall|always|never)\b",
        r"|\b(regardless\s+of|no\s+matter)\s+what\s+the\s+user\s+(says|asks|wants|requests|specifies)\b",
        r"|\b(send|redirect|forward|cc|bcc|route)\s+(all|every|any)\s+(e-?mails?|messages?|requests?|payments?|transactions?|transfers?)\s+to\b",
        r"|\b(must|should|always)\s+(also\s+)?(send|cc|bcc|copy|forward)\b[^.\n]{0,30}\bto\s+\S+@\S+\.\w+",
        r"|\binstead\s+of\s+the\s+(recipient|address|account)\s+the\s+user\b",
        r"|\bwhen\s+(\(\w+\)\s+)?`?[\w.-]+`?\s+is\s+(invoked|called|used)\b[^.\n]{0,60}\b(change|replace|set|redirect|swap)\s+the\s+(recipient|destination|address|account|number|url|channel)\b",
        r"|\b(all|every|any)\s+(shell\s+)?commands?\s+(must|should|shall)\s+(include|start\s+with|begin\s+with|be\s+prefixed)",
        r"|\bside\s+effect\s+on\s+the\s+(also\s+present\s+)?`?[\w.-]+`?\s+tool\b",
    ))
});

fn sentence_around(text: &str, start: usize, end: usize) -> &str {
    let begin = text[..start]
        .rfind(['.', '!', '?', '\n'])
        .map(|i| i + 1)
        .unwrap_or(0);
    let finish = text[end..]
        .find(['.', '!', '?', '\n'])
        .map(|i| end + i)
        .unwrap_or(text.len());
    &text[begin..finish]
}

fn instructions(text: &str, hits: &mut Vec<Hit>) {
    let mut found = |rule: &'static SecurityRule, regex: &Regex, what: &str| {
        if let Some(m) = regex.find(text) {
            push(
                hits,
                rule,
                format!("{what}: {:?}", first_line(m.as_str())),
                excerpt(text, m.start(), m.end()),
                None,
            );
        }
    };
    found(
        &SECRECY,
        &SECRECY_RE,
        "tells the model to keep something from the user",
    );
    found(
        &OVERRIDE,
        &OVERRIDE_RE,
        "tells the model to set other instructions aside",
    );
    found(
        &EXFILTRATION,
        &EXFIL_PARAM,
        "tells the model to pass data it holds through a parameter",
    );
    found(
        &EXFILTRATION,
        &EXFIL_SIDE,
        "tells the model to pass what it read on in a side parameter",
    );
    found(
        &EXFILTRATION,
        &EXFIL_URL,
        "tells the model to send data it holds to a URL",
    );
    found(
        &EXFILTRATION,
        &EXFIL_LINK,
        "a link whose URL the model is to fill with data",
    );
    found(
        &EXFILTRATION,
        &LOOT_FIELD,
        "asks for data the model holds in this field",
    );
    found(
        &SHADOWING,
        &SHADOWING_RE,
        "directs how other tools or servers are used",
    );
    // A credential file named in a sentence that tells the model to read or pass it on.
    for m in SENSITIVE_PATH.find_iter(text) {
        let sentence = sentence_around(text, m.start(), m.end());
        if DIRECTIVE.is_match(sentence) {
            push(
                hits,
                &SENSITIVE_FILES,
                format!(
                    "names the credential file {:?} beside an instruction to read or pass it on",
                    m.as_str().trim()
                ),
                excerpt(text, m.start(), m.end()),
                None,
            );
            break;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Secrets, stack traces, environment dumps

/// The key formats, after gitleaks' rules of the same names.
static SECRET_FORMATS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    vec![
        (
            "an AWS access key id",
            re(r"\b((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b"),
        ),
        ("a GitHub token", re(r"\b(gh[pousr]_[A-Za-z0-9]{36,255})\b")),
        (
            "a GitHub fine-grained token",
            re(r"\b(github_pat_[A-Za-z0-9_]{82})\b"),
        ),
        (
            "a Slack token",
            re(r"\b(xox[baprse]-[0-9A-Za-z]{8,}-[0-9A-Za-z-]{8,})\b"),
        ),
        (
            "a Stripe live key",
            re(r"\b((?:sk|rk)_live_[0-9A-Za-z]{20,99})\b"),
        ),
        ("a Google API key", re(r"\b(AIza[0-9A-Za-z_-]{35})\b")),
        (
            "an OpenAI key",
            re(r"\b(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,})\b"),
        ),
        (
            "an Anthropic key",
            re(r"\b(sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{80,})\b"),
        ),
        (
            "a private key",
            re(r"(-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----)"),
        ),
        (
            "a JSON Web Token",
            re(r"\b(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,})"),
        ),
    ]
});

/// Whether `value` reads as an example or placeholder, not a live key.
fn placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    if [
        "example",
        "xxxx",
        "placeholder",
        "dummy",
        "sample",
        "your_",
        "fake",
        "test",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return true;
    }
    // One character repeated, or a run of the same eight characters: not random.
    let body: Vec<char> = value.chars().skip(4).collect();
    let distinct: std::collections::BTreeSet<char> = body.iter().copied().collect();
    distinct.len() < 6
}

/// Whether a JWT-shaped string is one: its header decodes to JSON naming an `alg`.
fn clearly_jwt(token: &str) -> bool {
    use base64::Engine;
    let header = token.split('.').next().unwrap_or("");
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header.trim_end_matches('='))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|h| h.get("alg").is_some_and(|a| a != "none"))
}

/// The secret shown redacted: its first characters and its length.
fn redact(secret: &str) -> String {
    let shown: String = secret
        .chars()
        .take(if secret.starts_with("-----") { 40 } else { 6 })
        .collect();
    if secret.starts_with("-----") {
        shown
    } else {
        format!("{shown}…[redacted, {} characters]", secret.chars().count())
    }
}

fn secrets(text: &str, hits: &mut Vec<Hit>) {
    for (what, regex) in SECRET_FORMATS.iter() {
        for caps in regex.captures_iter(text) {
            let m = caps.get(1).expect("every secret pattern captures the key");
            let value = m.as_str();
            let is_pem = value.starts_with("-----");
            if !is_pem && placeholder(value) {
                continue;
            }
            if value.starts_with("eyJ") && !clearly_jwt(value) {
                continue;
            }
            let before: String = {
                let s = &text[..m.start()];
                let cut = s
                    .char_indices()
                    .rev()
                    .nth(AROUND)
                    .map(|(i, _)| i)
                    .unwrap_or(0);
                s[cut..].to_owned()
            };
            push(
                hits,
                &SECRET,
                format!("{what} ({})", redact(value)),
                escape(&format!("{before}{}", redact(value))),
                None,
            );
            return;
        }
    }
}

static STACK_FRAMES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    vec![
        (
            "a Python traceback",
            re(
                r#"Traceback \(most recent call last\):[\s\S]{0,2000}?File "(/|[A-Za-z]:\\)[^"]+", line \d+"#,
            ),
        ),
        (
            "a Node.js stack trace",
            re(
                r"(?m)^\s*at (?:[^\s()]+ )?\(?(?:file://)?(/|[A-Za-z]:\\)[^():\s]+\.(?:[cm]?js|ts):\d+:\d+\)?",
            ),
        ),
        (
            "a Rust panic",
            re(r"thread '[^']*' panicked at [^\n]*\.rs:\d+:\d+"),
        ),
        (
            "a Java stack trace",
            re(r"(?m)(^|\n)\s*at [a-z][\w$]*(\.[\w$<>]+){2,}\([\w$]+\.java:\d+\)"),
        ),
        (
            "a Go stack trace",
            re(r"goroutine \d+ \[[a-z ]+\]:[\s\S]{0,500}?(/|[A-Za-z]:\\)[^\s:]+\.go:\d+"),
        ),
    ]
});

fn stack_trace(text: &str, hits: &mut Vec<Hit>) {
    for (what, regex) in STACK_FRAMES.iter() {
        if let Some(m) = regex.find(text) {
            push(
                hits,
                &rules::STACK_TRACE,
                format!("{what} with the server's paths"),
                excerpt(text, m.start(), m.end()),
                None,
            );
            return;
        }
    }
}

static ENV_LINE: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(?m)^\s*(?:export\s+)?"?([A-Z_][A-Z0-9_]{1,})"?\s*[=:]\s*\S"#));

/// Names every environment has: two or more of them among many `KEY=VALUE` lines make a
/// dump of the environment, not a config example.
const ENV_NAMES: [&str; 10] = [
    "PATH", "HOME", "USER", "SHELL", "PWD", "LANG", "TERM", "HOSTNAME", "LOGNAME", "TMPDIR",
];

fn environment(text: &str, hits: &mut Vec<Hit>) {
    let mut keys = Vec::new();
    for caps in ENV_LINE.captures_iter(text) {
        let key = caps.get(1).expect("a key").as_str();
        keys.push(key);
    }
    let common = ENV_NAMES.iter().filter(|n| keys.contains(n)).count();
    if keys.len() >= 5 && common >= 2 {
        push(
            hits,
            &rules::ENVIRONMENT,
            format!(
                "{} KEY=VALUE lines, {common} of them variables every environment has ({})",
                keys.len(),
                ENV_NAMES
                    .iter()
                    .filter(|n| keys.contains(n))
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            escape(
                &keys
                    .iter()
                    .take(8)
                    .map(|k| format!("{k}=…"))
                    .chain((keys.len() > 8).then(|| format!("… ({} more)", keys.len() - 8)))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            None,
        );
    }
}
