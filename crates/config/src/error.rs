//! The one error of a tournament file: what is wrong, and where.

use std::fmt;
use std::path::PathBuf;

/// A problem in the tournament file, located by line and key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line (0 when the problem is not at one place).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The key, e.g. `bot[1].command` (empty if unknown).
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if !self.key.is_empty() {
            write!(f, ": {}", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}
