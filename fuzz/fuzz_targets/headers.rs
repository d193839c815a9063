//! Header validation and the base64 sentinel: decoding never panics, encoding round-trips, and
//! a request with arbitrary mirrored-header values gets 200, 400 or 404, never a crash.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use mcp_test::headers::{decode_value, encode_value};
use mcp_test::testing::http::TestRouter;
use mcp_test::transport::http::HttpConfig;
use serde_json::json;
use std::sync::OnceLock;

fn router() -> &'static TestRouter {
    static R: OnceLock<TestRouter> = OnceLock::new();
    R.get_or_init(|| TestRouter::new(common::server().clone(), HttpConfig::default()))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = decode_value(&text);
    assert_eq!(decode_value(&encode_value(&text)).as_deref(), Ok(text.as_ref()));

    // Split the input into header values for Mcp-Name, Mcp-Param-Region and Mcp-Param-N.
    let mut parts = data.split(|&b| b == 0xff);
    let (name, region, n) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "_meta": common::meta(), "name": "echo",
        "arguments": {"text": "t", "region": String::from_utf8_lossy(region), "n": n.len()}}});
    let mut request = http::Request::post("/mcp")
        .header("host", "localhost")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call");
    for (header, value) in [("mcp-name", name), ("mcp-param-region", region), ("mcp-param-n", n)] {
        if let Ok(value) = http::HeaderValue::from_bytes(value) {
            request = request.header(header, value);
        }
    }
    let request = request.body(body.to_string()).expect("a request");
    let response = common::runtime().block_on(router().send(request));
    assert!(matches!(response.status().as_u16(), 200 | 400 | 404), "{}", response.status());
});
