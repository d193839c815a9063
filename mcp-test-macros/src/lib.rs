//! Procedural macros for [`mcp-test`](https://docs.rs/mcp-test). Use them through `mcp_test`, which
//! re-exports them; generated code reaches the runtime through `mcp_test::__private`.
