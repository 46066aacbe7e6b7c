//! What can be wrong with a results file, whichever way it is read (JSON
//! lines, CSV, PGN; whole or streamed): a located problem with one line
//! (the game is not there), or a file that cannot be read at all. The
//! bottom of the readers, so each names it without the others.

use std::fmt;
use std::path::{Path, PathBuf};

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file.
    pub path: PathBuf,
    /// 1-based line number.
    pub line: usize,
    /// What kind of problem.
    pub kind: ProblemKind,
    /// What is wrong, in words.
    pub message: String,
}

/// The kinds of [`Problem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The last line has no newline: it was being written when the writer
    /// stopped. The game it held is not counted.
    TruncatedLastLine,
    /// A complete line that is not a valid record.
    Malformed,
}

impl Problem {
    /// A last line without its newline, of `bytes` bytes: written lines
    /// always end in one, so this one was cut short by a crash or a power
    /// cut. The one rule for it, whichever way a file is read.
    pub(crate) fn truncated(path: &Path, line: usize, bytes: usize) -> Problem {
        Problem {
            path: path.to_owned(),
            line,
            kind: ProblemKind::TruncatedLastLine,
            message: format!("{bytes} bytes without a newline"),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ProblemKind::TruncatedLastLine => "truncated last line (ignored)",
            ProblemKind::Malformed => "malformed line",
        };
        write!(
            f,
            "{}:{}: {what}: {}",
            self.path.display(),
            self.line,
            self.message
        )
    }
}

/// The file could not be read at all.
#[derive(Debug)]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read {}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}
