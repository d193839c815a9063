//! trybuild compile-fail cases for the mcp-test macros; each directory under `tests/ui/` belongs
//! to one macro (`testing/`: the `assert_*` macros and unwrappers) or one kind of handler
//! (`handlers/`: what resource, prompt and completion handlers return). Regenerate expected
//! output with `TRYBUILD=overwrite`, then read every .stderr. The derive's
//! pass cases are an ordinary test binary, `tests/pass.rs`: with no pass case here, trybuild
//! checks every compile-fail case in one batched `cargo check`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/mcp_test/*.rs");
    t.compile_fail("tests/ui/testing/*.rs");
    t.compile_fail("tests/ui/handlers/*.rs");
    t.compile_fail("tests/ui/tool/fail/*.rs");
}
