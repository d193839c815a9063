//! The case generator on arbitrary JSON schemas: it never panics, and every case it expects to
//! succeed is valid against the schema it came from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_test::cases::{CaseOptions, Expectation, derive_cases};
use mcp_test::validation::SchemaValidator;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Ok(cases) = derive_cases("fuzzed", &schema, &CaseOptions::default()) else {
        return;
    };
    let validator = SchemaValidator::new(&schema).expect("derive_cases compiled it");
    for case in cases {
        if case.expectation == Expectation::Success {
            assert!(validator.is_valid(&case.args), "{}: {} is not valid", case.title, case.args);
        }
    }
});
