//! The tests `mcp-test generate --edge-cases --verify` writes for the bundled example server
//! (`mcp_test_check::example_server`), committed exactly as written: this crate's test run
//! compiles and runs them, and `mcp-test/tests/cli_generate.rs` fails when the generator's
//! output for that server changes, naming the command that rewrites the file.

// Generated text is kept as the generator writes it, not as rustfmt would.
#[rustfmt::skip]
#[path = "generated/example.rs"]
mod example;
