//! The conformance fixture server (`mcp-test/examples/conformance.rs`) as a binary of this crate,
//! so integration tests can start it as a process (`CARGO_BIN_EXE_conformance_fixture`): stdio by
//! default, or `--http 127.0.0.1:PORT` to serve `/mcp`; `--page-size N` pages its lists.

fn main() -> std::io::Result<()> {
    mcp_test_downstream::conformance::main()
}
