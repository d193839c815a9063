//! What the recording side and the reading side ([`report`](super::report)) of coverage
//! agree on: the variable that turns recording on and the version of the event format. Both
//! are public as `testing::coverage::ENV` and `testing::coverage::FORMAT_VERSION`.

/// The environment variable that turns recording on: the directory to write to.
///
/// ```
/// assert_eq!(mcp_test::testing::coverage::ENV, "MCP_TEST_COVERAGE");
/// ```
pub const ENV: &str = "MCP_TEST_COVERAGE";

/// The version of the event format, the `v` of every line.
pub const FORMAT_VERSION: u64 = 1;
