//! Games lost by forfeit, as the report counts and lists them: the kind of
//! a termination, the counts of each kind per bot, and one listed forfeit.
//! Below both the tally that counts them and the report that shows them.

use aboure_records::{Standing, Termination};
use serde::Serialize;

/// Forfeits of one bot by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FailureCounts {
    /// Out of time.
    pub time: u64,
    /// Illegal or unparsable move.
    pub illegal: u64,
    /// Crashed, exited or closed its pipe.
    pub crash: u64,
    /// Protocol violation, start-up failure, resource limit.
    pub other: u64,
}

impl FailureCounts {
    /// A bot's forfeits by kind (see [`failure_kind`]).
    pub fn of(standing: &Standing) -> FailureCounts {
        let mut c = FailureCounts::default();
        for (&termination, &n) in &standing.failures {
            c.add(failure_kind(termination), n);
        }
        c
    }

    /// All forfeits.
    pub fn total(&self) -> u64 {
        self.time + self.illegal + self.crash + self.other
    }

    /// Counts `n` forfeits of `kind`.
    pub fn add(&mut self, kind: FailureKind, n: u64) {
        match kind {
            FailureKind::Time => self.time += n,
            FailureKind::Illegal => self.illegal += n,
            FailureKind::Crash => self.crash += n,
            FailureKind::Other => self.other += n,
        }
    }
}

/// The kind of a forfeit, as the standings count it; serialised as its
/// [`FailureKind::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// Out of time.
    Time,
    /// Illegal or unparsable move.
    Illegal,
    /// Crashed, exited or closed its pipe.
    Crash,
    /// Protocol violation, start-up failure, resource limit.
    Other,
}

impl FailureKind {
    /// `time`, `illegal`, `crash` or `other`.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Time => "time",
            FailureKind::Illegal => "illegal",
            FailureKind::Crash => "crash",
            FailureKind::Other => "other",
        }
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of forfeit a termination is, as the standings count it.
pub fn failure_kind(t: Termination) -> FailureKind {
    match t {
        Termination::TimeForfeit => FailureKind::Time,
        Termination::IllegalMove => FailureKind::Illegal,
        Termination::Crash => FailureKind::Crash,
        _ => FailureKind::Other,
    }
}

/// A game lost by forfeit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    /// The game id.
    pub game: String,
    /// The bot that forfeited.
    pub bot: String,
    /// `time`, `illegal`, `crash` or `other`.
    pub kind: FailureKind,
    /// The termination as recorded.
    pub termination: Termination,
    /// What happened, as recorded.
    pub detail: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_kinds_serialise_as_their_names() {
        let kinds = [
            (Termination::TimeForfeit, "time"),
            (Termination::IllegalMove, "illegal"),
            (Termination::Crash, "crash"),
            (Termination::ProtocolViolation, "other"),
        ];
        for (termination, name) in kinds {
            let kind = failure_kind(termination);
            assert_eq!(kind.to_string(), name);
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{name}\""));
        }
    }
}
