//! What can go wrong with a cassette: reading or writing it, the target failing during a
//! replay, or the live answers differing from the recorded ones.

use super::diff::Difference;
use crate::target::TargetError;
use std::path::PathBuf;

/// A cassette could not be read, written or replayed, or its replay found differences.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CassetteError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line of the file is not what a cassette holds.
    #[error("{source_name}:{line}: {message}")]
    Format {
        /// The file (or the name given to [`Cassette::parse`](super::Cassette::parse)).
        source_name: String,
        /// The line (1-based).
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// The target failed while a recorded request was replayed.
    #[error("{source_name}:{line}: replaying `{method}` against {target}: {source}")]
    Target {
        /// The cassette.
        source_name: String,
        /// The line of the entry replayed.
        line: usize,
        /// Its method.
        method: String,
        /// The target's label.
        target: String,
        /// What failed (boxed: the error stays small on the success path).
        source: Box<TargetError>,
    },
    /// The live answers differ from the recorded ones: each difference, and where the live
    /// session was written for review.
    #[error("{}", super::diff::report(source_name, differences, pending.as_deref()))]
    Differs {
        /// The cassette.
        source_name: String,
        /// Every difference found.
        differences: Vec<Difference>,
        /// The pending file with the live session (accept it by moving it over the
        /// cassette), when it could be written.
        pending: Option<PathBuf>,
    },
}
