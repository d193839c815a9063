//! Session cassettes: record a real session once, replay it as a regression test of the
//! server, or serve it as a mock server to whoever builds a client against it.
//!
//! A cassette is a JSON Lines file. Its first line is a [`Header`] (format version, era,
//! target, when recorded, HTTP headers with secret values redacted); each further line is one
//! [`Entry`]: a client message, the notifications and server requests (with the client's
//! answers) that came while it was answered, the response, and the JSON pointers of the
//! values that change from run to run ([`volatile_pointers`]: ids, `requestState`, task ids,
//! timestamps, server info). Every round of a multi-round call and every task poll is a line
//! of its own.
//!
//! - **Record**: [`Recorder`] wraps any [`Target`](crate::target::Target) and writes every
//!   exchange it forwards; [`Tap`] assembles the exchanges a proxy sees pass (what
//!   `mcp-test record` does between any client and any server).
//! - **Replay as a test**: [`replay`] / [`replay_with`] and [`assert_cassette!`](crate::assert_cassette) send the
//!   recorded requests in order, carry each new `requestState` and task id forward, and
//!   compare the answers around the volatile marks. A difference names the exchange, the line
//!   of the cassette, the JSON pointer and both values, and writes the live session to
//!   `<cassette>.pending` to review: accept it with `mv`, or re-record with
//!   `MCP_TEST_CASSETTE=overwrite`.
//! - **Replay as a server**: [`Responder`] answers requests from the cassette ([`Matcher`]:
//!   method and params, the volatile ones left out, and by default what a client declares
//!   about itself, its capabilities, `clientInfo` and protocol version, unless the recorded
//!   answer depended on it: [`MatchMode`]), [`serve`] over stdio's framing (what
//!   `mcp-test serve --cassette` runs).
//!
//! ```
//! use mcp_test::cassette::{Recorder, replay};
//! use mcp_test::testing::{RequestOptions, call_tool};
//! use mcp_test::prelude::*;
//!
//! /// Adds two integers.
//! #[derive(Tool)]
//! struct Add { a: i64, b: i64 }
//! impl Add {
//!     async fn run(self, _ctx: &Context) -> Result<String, ToolError> {
//!         Ok((self.a + self.b).to_string())
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! # let dir = std::env::temp_dir().join(format!("cassette-mod-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("add.jsonl");
//! let server = || Server::builder("calc", "1.0.0").tool::<Add>().build().unwrap();
//! // Record once...
//! let recorder = Recorder::create(server(), &path).unwrap();
//! call_tool(&recorder, "add", json!({"a": 2, "b": 3}), &RequestOptions::new()).await;
//! recorder.finish().unwrap();
//! // ...replay in CI.
//! mcp_test::assert_cassette!(server(), &path);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # }
//! ```

mod diff;
mod error;
mod format;
mod matcher;
mod record;
mod replay;
mod serve;

pub use diff::{Difference, differences};
pub use error::CassetteError;
pub use format::{
    Cassette, CassetteWriter, Entry, FORMAT_VERSION, Header, REDACTED, Recorded, ServerRequest,
    is_secret_header, redact_headers, volatile_pointers,
};
pub use matcher::{MatchMode, Matcher, Unmatched};
pub use record::{Recorder, Tap};
pub use replay::{
    CASSETTE_ENV, Replay, ReplayMode, ReplayOptions, pending_path, recorded_answers, replay,
    replay_with,
};
pub use serve::{ANSWER_WAIT, CassetteTarget, Reply, Responder, serve, serve_with};
