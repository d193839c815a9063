//! Intentionally empty: this crate exists for its `tests/` directory, which uses mcp-test as a user would.
