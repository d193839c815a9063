//! The wire model decodes every example message of the official 2026-07-28 schema that it
//! models, and re-encodes it to exactly the same JSON: nothing is lost or renamed.

use mcp_test::wire::{
    CallToolResult, ClientCapabilities, Content, ErrorObject, ResourceContents, Response,
    ServerCapabilities, ToolDefinition,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::PathBuf;

fn examples(kind: &str) -> Vec<(PathBuf, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/spec/examples")
        .join(kind);
    let mut out: Vec<(PathBuf, Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            (path, serde_json::from_str(&text).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no examples for {kind}");
    out
}

/// Decodes each example of `kind` as `T` and checks it re-encodes identically, after dropping
/// the keys in `ignored` (fields the server adds on the wire rather than the type).
fn round_trip<T: DeserializeOwned + Serialize>(kind: &str, ignored: &[&str]) -> usize {
    let all = examples(kind);
    for (path, mut value) in all.clone() {
        let typed: T = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Value::Object(map) = &mut value {
            for key in ignored {
                map.remove(*key);
            }
            // `isError: false` is the default; the model does not write it back.
            if map.get("isError") == Some(&Value::Bool(false)) {
                map.remove("isError");
            }
        }
        assert_eq!(
            serde_json::to_value(&typed).unwrap(),
            value,
            "{} does not round-trip",
            path.display()
        );
    }
    all.len()
}

#[test]
fn each_content_block_kind_round_trips() {
    for kind in [
        "TextContent",
        "ImageContent",
        "AudioContent",
        "ResourceLink",
        "EmbeddedResource",
    ] {
        round_trip::<Content>(kind, &[]);
    }
}

#[test]
fn content_blocks_decode_to_the_right_variant() {
    let (_, text) = examples("TextContent").remove(0);
    assert!(matches!(
        serde_json::from_value(text).unwrap(),
        Content::Text(_)
    ));
    let (_, image) = examples("ImageContent").remove(0);
    let Content::Image(image) = serde_json::from_value(image).unwrap() else {
        panic!("not an image")
    };
    assert!(image.annotations.is_some());
    let (_, embedded) = examples("EmbeddedResource").remove(0);
    let Content::Resource(embedded) = serde_json::from_value(embedded).unwrap() else {
        panic!("not an embedded resource")
    };
    assert!(matches!(embedded.resource, ResourceContents::Text { .. }));
}

#[test]
fn resource_contents_round_trip() {
    round_trip::<ResourceContents>("TextResourceContents", &[]);
    round_trip::<ResourceContents>("BlobResourceContents", &[]);
}

#[test]
fn call_tool_results_round_trip() {
    assert_eq!(
        round_trip::<CallToolResult>("CallToolResult", &["resultType"]),
        4
    );
}

#[test]
fn tools_and_capabilities_round_trip() {
    round_trip::<ToolDefinition>("Tool", &[]);
    round_trip::<mcp_test::wire::Resource>("Resource", &[]);
    round_trip::<ServerCapabilities>("ServerCapabilities", &[]);
    round_trip::<ClientCapabilities>("ClientCapabilities", &[]);
}

#[test]
fn responses_and_errors_round_trip() {
    round_trip::<Response>("CallToolResultResponse", &[]);
    round_trip::<Response>("ListToolsResultResponse", &[]);
    round_trip::<Response>("DiscoverResultResponse", &[]);
    for kind in [
        "ParseError",
        "InvalidParamsError",
        "InternalError",
        "MethodNotFoundError",
        "HeaderMismatchError",
        "MissingRequiredClientCapabilityError",
        "UnsupportedProtocolVersionError",
    ] {
        for (path, value) in examples(kind) {
            // Error examples are whole responses or bare error objects.
            if value.get("jsonrpc").is_some() {
                let typed: Response = serde_json::from_value(value.clone())
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(serde_json::to_value(&typed).unwrap(), value);
            } else {
                let typed: ErrorObject = serde_json::from_value(value.clone())
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(serde_json::to_value(&typed).unwrap(), value);
            }
        }
    }
}

#[test]
fn error_constructors_match_the_spec_examples() {
    let (_, example) = examples("UnsupportedProtocolVersionError").remove(0);
    let error = example.get("error").unwrap_or(&example);
    let supported: Vec<String> =
        serde_json::from_value(error["data"]["supported"].clone()).unwrap();
    let supported: Vec<&str> = supported.iter().map(String::as_str).collect();
    let built = ErrorObject::unsupported_protocol_version(
        &supported,
        error["data"]["requested"].as_str().unwrap(),
    );
    assert_eq!(built.code, error["code"].as_i64().unwrap() as i32);
    assert_eq!(built.data.as_ref(), Some(&error["data"]));
}

#[test]
fn requests_decode_with_typed_meta() {
    for (path, value) in examples("CallToolRequest") {
        let req: mcp_test::wire::Request = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let meta = mcp_test::wire::RequestMeta::parse(req.params.as_ref().unwrap().get("_meta"))
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert_eq!(meta.protocol_version, "2026-07-28");
        assert_eq!(serde_json::to_value(&req).unwrap(), value);
    }
}
