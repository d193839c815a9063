//! The dispatcher on arbitrary bytes: it never panics, every request gets exactly one JSON-RPC
//! result or error, and the id is echoed whenever it was readable.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return; // the transports answer -32700 before the dispatcher sees bytes
    };
    let reply = common::runtime().block_on(common::server().handle_json(text));
    let sent: Option<Value> = serde_json::from_str(text).ok();
    let readable_id = sent
        .as_ref()
        .and_then(|v| v.get("id"))
        .filter(|id| id.is_string() || id.is_i64())
        .cloned();
    let is_notification = sent.as_ref().is_some_and(|v| {
        v.is_object()
            && v.get("id").is_none()
            && v.get("method").is_some_and(Value::is_string)
            && v.get("jsonrpc") == Some(&Value::from("2.0"))
    });
    match reply {
        None => assert!(is_notification, "no reply to a non-notification: {text}"),
        Some(reply) => {
            assert!(!is_notification, "a notification was answered: {text}");
            let reply: Value = serde_json::from_str(&reply).expect("replies are JSON");
            assert_eq!(reply["jsonrpc"], "2.0");
            assert!(reply.get("result").is_some() != reply.get("error").is_some());
            if let Some(result) = reply.get("result") {
                assert!(result.get("resultType").is_some(), "{reply}");
            }
            if let Some(id) = readable_id
                && sent.as_ref().is_some_and(|v| v.get("jsonrpc") == Some(&Value::from("2.0")))
            {
                assert_eq!(reply["id"], id, "id not echoed for {text}");
            }
        }
    }
});
