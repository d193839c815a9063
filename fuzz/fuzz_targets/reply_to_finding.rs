//! What `check` makes of a reply: arbitrary JSON as the outcome of schema cases (their
//! classification into findings) and as the response to a method (the results and errors
//! probe). Nothing panics, and every finding is as the rules say: its severity is the level
//! of the clause it quotes (MUST: defect, SHOULD: warning), a finding without a clause is a
//! note, and each says something.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_test::cases::Era;
use mcp_test::spec::clauses::Level;
use mcp_test_check::{Severity, __fuzz_reply_to_findings, example_server};
use serde_json::Value;
use std::sync::OnceLock;

const METHODS: [&str; 8] = [
    "tools/call",
    "tools/list",
    "server/discover",
    "resources/read",
    "prompts/get",
    "initialize",
    "completion/complete",
    "no/such-method",
];

fuzz_target!(|data: &[u8]| {
    static SERVER: OnceLock<mcp_test::Server> = OnceLock::new();
    if data.len() < 5 {
        return;
    }
    let era = if data[0] & 1 == 0 { Era::Current } else { Era::Legacy };
    let method = METHODS[usize::from(data[0] >> 1) % METHODS.len()];
    let pattern = u32::from_le_bytes([data[1], data[2], data[3], data[4]]);
    let Ok(reply) = serde_json::from_slice::<Value>(&data[5..]) else {
        return;
    };
    let server = SERVER.get_or_init(example_server);
    for finding in __fuzz_reply_to_findings(server, era, method, &reply, pattern) {
        assert!(!finding.message.is_empty(), "{finding:?}");
        match finding.clause {
            None => assert_eq!(finding.severity, Severity::Info, "{finding:?}"),
            Some(clause) => {
                let expected = match clause.level {
                    Level::Must | Level::MustNot => Severity::Defect,
                    Level::Should | Level::ShouldNot => Severity::Warning,
                    Level::May => Severity::Info,
                };
                assert_eq!(finding.severity, expected, "{finding:?}");
            }
        }
    }
});
