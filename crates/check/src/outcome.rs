//! The result of a suite run as data: one outcome per check, with its
//! transcript, so the command line, tests and any other front end decide how
//! to show it.

use std::time::Duration;

use crate::transcript::{Entry, Transcript};

/// How a check ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything it asserts held.
    Pass,
    /// Something it asserts did not hold.
    Fail {
        /// What went wrong, with the offending line where there is one.
        reason: String,
        /// Index of the first transcript entry of the exchange that failed.
        exchange: usize,
    },
    /// Not run, because a check it depends on failed.
    Skip {
        /// Why it was not run.
        reason: String,
    },
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOutcome {
    /// The check's name, e.g. `handshake`.
    pub name: &'static str,
    /// Passed, failed or skipped.
    pub status: Status,
    /// The one observation worth showing next to the status (the bot's
    /// name, an exit status, how the games went), if any.
    pub headline: Option<String>,
    /// What was observed when it passed (e.g. the time an answer took).
    pub details: Vec<String>,
    /// Things that are allowed but suspicious: `info` lines that do not
    /// parse, unknown lines, a non-zero exit status after `quit`.
    pub warnings: Vec<String>,
    /// How long each start of the bot in this check took, from the flush of
    /// `aboure 1` to the reading of `aboureok`: what every game of a
    /// tournament waits for.
    pub startups: Vec<Duration>,
    /// Everything sent and received during the check.
    pub transcript: Transcript,
    /// The last lines the bot wrote to standard error.
    pub stderr: Vec<String>,
}

impl CheckOutcome {
    /// True for [`Status::Pass`].
    pub fn passed(&self) -> bool {
        self.status == Status::Pass
    }

    /// True for [`Status::Fail`].
    pub fn failed(&self) -> bool {
        matches!(self.status, Status::Fail { .. })
    }

    /// The transcript entries of the exchange that failed (empty unless the
    /// check failed).
    pub fn failing_exchange(&self) -> &[Entry] {
        match self.status {
            Status::Fail { exchange, .. } => {
                let entries = self.transcript.entries();
                &entries[exchange.min(entries.len())..]
            }
            _ => &[],
        }
    }
}

/// The outcomes of a whole run, in the order the checks ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteReport {
    /// One outcome per check run.
    pub outcomes: Vec<CheckOutcome>,
}

impl SuiteReport {
    /// Checks that passed.
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.passed()).count()
    }

    /// Checks that failed.
    pub fn failed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.failed()).count()
    }

    /// Checks not run.
    pub fn skipped(&self) -> usize {
        self.outcomes.len() - self.passed() - self.failed()
    }

    /// True when every check ran and passed.
    pub fn all_passed(&self) -> bool {
        !self.outcomes.is_empty() && self.outcomes.iter().all(CheckOutcome::passed)
    }

    /// Every start-up of the bot in the run, in the order of the checks.
    pub fn startups(&self) -> impl Iterator<Item = Duration> + '_ {
        self.outcomes
            .iter()
            .flat_map(|o| o.startups.iter().copied())
    }

    /// The outcome of the check called `name`, if it ran.
    pub fn outcome(&self, name: &str) -> Option<&CheckOutcome> {
        self.outcomes.iter().find(|o| o.name == name)
    }
}
