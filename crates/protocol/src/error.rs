//! The one error of message parsing: which line, and what is wrong with it.
//! The arbiter logs it next to the bot's name; the bot loop echoes it back as
//! an `info string`, so both sides see the offending text.

use std::fmt;

/// A line whose first word is a known message but whose rest is malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMessageError {
    line: String,
    problem: String,
}

impl ParseMessageError {
    pub(crate) fn new(line: &str, problem: impl Into<String>) -> ParseMessageError {
        ParseMessageError {
            line: line.trim().to_owned(),
            problem: problem.into(),
        }
    }

    /// The offending line, without surrounding whitespace.
    pub fn line(&self) -> &str {
        &self.line
    }

    /// What is wrong with it.
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for ParseMessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.line.escape_debug(), self.problem)
    }
}

impl std::error::Error for ParseMessageError {}
