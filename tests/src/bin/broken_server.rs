//! The deliberately broken server (`mcp-test/examples/broken_server/`) as a binary of this
//! crate, so `tests/broken_server.rs` can start it (`CARGO_BIN_EXE_broken_server`).

#[path = "../../../mcp-test/examples/broken_server/main.rs"]
mod broken_server;

fn main() -> std::io::Result<()> {
    broken_server::main()
}
