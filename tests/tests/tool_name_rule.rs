//! The tool-name rule has two copies: `mcp_test::wire::tool_name`, which owns it (the server's
//! build check), and `mcp-test-macros/src/tool_name.rs` (`#[derive(Tool)]`'s compile-time check;
//! a proc-macro crate cannot depend on mcp-test). Both run here over one corpus and must give
//! every name the expected verdict, the same problem and the same message; and their code must
//! be the same text.

#[path = "../../mcp-test-macros/src/tool_name.rs"]
mod macro_rule;

use mcp_test::wire::tool_name;

/// What the rule says of a name, in terms both copies map to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Valid,
    /// Empty or too long: how many characters.
    Length(usize),
    /// The first character outside the set, and its byte offset.
    Character(char, usize),
}

fn runtime(name: &str) -> (Verdict, Option<String>) {
    match tool_name::check(name) {
        Ok(()) => (Verdict::Valid, None),
        Err(error) => {
            let verdict = match error {
                tool_name::ToolNameError::Length { chars } => Verdict::Length(chars),
                tool_name::ToolNameError::Character { character, offset } => {
                    Verdict::Character(character, offset)
                }
                other => panic!("a problem this test does not know: {other:?}"),
            };
            (verdict, Some(error.to_string()))
        }
    }
}

fn macro_copy(name: &str) -> (Verdict, Option<String>) {
    match macro_rule::check(name) {
        Ok(()) => (Verdict::Valid, None),
        Err(error) => {
            let verdict = match error {
                macro_rule::ToolNameError::Length { chars } => Verdict::Length(chars),
                macro_rule::ToolNameError::Character { character, offset } => {
                    Verdict::Character(character, offset)
                }
            };
            (verdict, Some(error.to_string()))
        }
    }
}

/// The characters the spec allows, written out rather than computed, so the corpus does not
/// share the code under test.
const ALLOWED: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.";

/// Names with the verdict the spec's words give them.
fn corpus() -> Vec<(String, Verdict)> {
    use Verdict::{Character, Length, Valid};
    let mut corpus: Vec<(String, Verdict)> = vec![
        // Length: 1 to 128 characters.
        (String::new(), Length(0)),
        ("a".into(), Valid),
        ("a".repeat(127), Valid),
        ("a".repeat(128), Valid),
        ("a".repeat(129), Length(129)),
        ("a".repeat(1000), Length(1000)),
        // Characters, not bytes: 128 `é` are 256 bytes but 128 characters, so their problem is
        // the `é`; 129 of them are too long.
        ("é".repeat(128), Character('é', 0)),
        ("é".repeat(129), Length(129)),
        (format!("{}é", "a".repeat(127)), Character('é', 127)),
        (format!("{}é", "a".repeat(128)), Length(129)),
        // Every allowed character, and each punctuation mark alone and within a name.
        (ALLOWED.into(), Valid),
        ("_".into(), Valid),
        ("-".into(), Valid),
        (".".into(), Valid),
        ("...".into(), Valid),
        ("get_weather".into(), Valid),
        ("get-weather".into(), Valid),
        ("weather.get".into(), Valid),
        ("Weather.Get_v2-beta".into(), Valid),
        ("_leading".into(), Valid),
        ("trailing.".into(), Valid),
        ("123".into(), Valid),
        (ALLOWED.repeat(2).chars().take(128).collect(), Valid),
        // Spaces and other separators.
        ("add numbers".into(), Character(' ', 3)),
        (" add".into(), Character(' ', 0)),
        ("add ".into(), Character(' ', 3)),
        ("add\tnumbers".into(), Character('\t', 3)),
        ("add\nnumbers".into(), Character('\n', 3)),
        ("add\u{a0}numbers".into(), Character('\u{a0}', 3)),
        // Slashes, namespaces and other punctuation.
        ("files/read".into(), Character('/', 5)),
        ("a/b/c".into(), Character('/', 1)),
        ("files\\read".into(), Character('\\', 5)),
        ("admin:delete".into(), Character(':', 5)),
        ("a,b".into(), Character(',', 1)),
        ("a;b".into(), Character(';', 1)),
        ("user@host".into(), Character('@', 4)),
        ("a+b".into(), Character('+', 1)),
        ("tool!".into(), Character('!', 4)),
        ("what?".into(), Character('?', 4)),
        ("$ref".into(), Character('$', 0)),
        ("a~b".into(), Character('~', 1)),
        ("x=1".into(), Character('=', 1)),
        ("(paren)".into(), Character('(', 0)),
        ("quote\"d".into(), Character('"', 5)),
        ("it's".into(), Character('\'', 2)),
        ("nul\0".into(), Character('\0', 3)),
        // Multi-byte characters: the offset is in bytes.
        ("ñame".into(), Character('ñ', 0)),
        ("caf\u{e9}".into(), Character('é', 3)),
        ("cafe\u{301}".into(), Character('\u{301}', 4)),
        ("日本語".into(), Character('日', 0)),
        ("a日b".into(), Character('日', 1)),
        ("zero\u{200b}width".into(), Character('\u{200b}', 4)),
        ("emoji😀".into(), Character('😀', 5)),
        ("😀".repeat(128), Character('😀', 0)),
        ("é😀/".into(), Character('é', 0)),
        ("ｆｕｌｌ".into(), Character('ｆ', 0)),
        ("а".into(), Character('а', 0)), // Cyrillic a
        // The first bad character is the one reported.
        ("ok/then space".into(), Character('/', 2)),
        ("ok then/slash".into(), Character(' ', 2)),
    ];
    // Every ASCII character alone, judged by the written-out set.
    for byte in 0u8..=127 {
        let c = char::from(byte);
        let allowed = ALLOWED.contains(c);
        corpus.push((c.to_string(), if allowed { Valid } else { Character(c, 0) }));
        let within = format!("tool{c}name");
        corpus.push((within, if allowed { Valid } else { Character(c, 4) }));
    }
    corpus
}

#[test]
fn both_copies_give_every_name_the_expected_verdict() {
    let corpus = corpus();
    assert!(corpus.len() > 300, "{}", corpus.len());
    for (name, expected) in &corpus {
        let (verdict, message) = runtime(name);
        assert_eq!(verdict, *expected, "mcp_test::wire::tool_name on {name:?}");
        let (macro_verdict, macro_message) = macro_copy(name);
        assert_eq!(macro_verdict, *expected, "the macros' copy on {name:?}");
        assert_eq!(message, macro_message, "the messages for {name:?}");
    }
}

#[test]
fn the_messages_say_what_is_wrong() {
    let message = |name: &str| tool_name::check(name).unwrap_err().to_string();
    assert_eq!(message(""), "must be 1 to 128 characters long, is 0");
    assert_eq!(
        message(&"é".repeat(129)),
        "must be 1 to 128 characters long, is 129"
    );
    assert_eq!(message("files/read"), "'/' is not one of [A-Za-z0-9_.-]");
    assert_eq!(
        message("zero\u{200b}width"),
        "'\\u{200b}' is not one of [A-Za-z0-9_.-]"
    );
}

#[test]
fn a_server_refuses_the_names_the_rule_refuses() {
    use mcp_test::{BuildError, CallToolResult, Context, Server, Tool, ToolError};
    use serde_json::{Value, json};

    struct Named;
    impl Tool for Named {
        const NAME: &'static str = "files/read";
        fn input_schema() -> Value {
            json!({"type": "object"})
        }
        fn parse(_: Value) -> Result<Self, ToolError> {
            Ok(Named)
        }
        async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
            Ok(CallToolResult::text("read"))
        }
    }
    let error = Server::builder("s", "1")
        .tool::<Named>()
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        BuildError::InvalidToolName {
            name: "files/read".into(),
            reason: "'/' is not one of [A-Za-z0-9_.-]".into(),
        }
    );
}

/// The macros' copy is the code of `mcp_test::wire::tool_name` below its module docs: a change
/// to one that the corpus misses still fails here until the other follows.
#[test]
fn the_two_copies_are_the_same_code() {
    fn code(file: &str) -> String {
        file.lines()
            .skip_while(|line| line.starts_with("//!") || line.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    }
    let runtime = code(include_str!("../../mcp-test/src/wire/tool_name.rs"));
    let copy = code(include_str!("../../mcp-test-macros/src/tool_name.rs"));
    assert!(runtime.contains("pub fn check("), "{runtime}");
    assert_eq!(
        runtime, copy,
        "mcp-test-macros/src/tool_name.rs must be mcp-test/src/wire/tool_name.rs's code"
    );
}
