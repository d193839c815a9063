//! Opening `requestState`: any state the server did not mint is rejected with -32602, whatever
//! the answers beside it; nothing panics.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (state, answers) = text.split_once('\n').unwrap_or((&text, "{}"));
    let answers: Value = serde_json::from_str(answers).unwrap_or(json!({}));
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "_meta": common::meta(), "name": "ask", "arguments": {},
        "inputResponses": answers, "requestState": state}});
    let reply = common::runtime()
        .block_on(common::server().handle_json(&body.to_string()))
        .expect("a request is answered");
    let reply: Value = serde_json::from_str(&reply).expect("replies are JSON");
    assert_eq!(reply["error"]["code"], -32602, "a forged state was accepted: {reply}");
});
