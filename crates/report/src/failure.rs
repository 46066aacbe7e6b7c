//! Games lost by forfeit, as the report counts and lists them: the kind of
//! a termination, the counts of each kind per bot, one listed forfeit, and
//! the forfeits grouped by bot and kind (so that a bot failing every game
//! reads as one line with a count, not a line per game).
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
    /// Never became ready: no handshake in time, or could not be started.
    pub startup: u64,
    /// Protocol violation, resource limit.
    pub other: u64,
}

impl FailureCounts {
    /// A bot's forfeits by kind (see [`forfeit_kind`]).
    pub fn of(standing: &Standing) -> FailureCounts {
        let mut c = FailureCounts::default();
        for (&termination, &n) in &standing.failures {
            c.add(forfeit_kind(termination), n);
        }
        c
    }

    /// All forfeits.
    pub fn total(&self) -> u64 {
        self.time + self.illegal + self.crash + self.startup + self.other
    }

    /// Counts `n` forfeits of `kind`.
    pub fn add(&mut self, kind: ForfeitKind, n: u64) {
        match kind {
            ForfeitKind::Time => self.time += n,
            ForfeitKind::Illegal => self.illegal += n,
            ForfeitKind::Crash => self.crash += n,
            ForfeitKind::Startup => self.startup += n,
            ForfeitKind::Other => self.other += n,
        }
    }

    /// The forfeits of `kind`.
    pub fn of_kind(&self, kind: ForfeitKind) -> u64 {
        match kind {
            ForfeitKind::Time => self.time,
            ForfeitKind::Illegal => self.illegal,
            ForfeitKind::Crash => self.crash,
            ForfeitKind::Startup => self.startup,
            ForfeitKind::Other => self.other,
        }
    }
}

/// The kind of a forfeit, as the standings count it; serialised as its
/// [`ForfeitKind::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitKind {
    /// Out of time.
    Time,
    /// Illegal or unparsable move.
    Illegal,
    /// Crashed, exited or closed its pipe.
    Crash,
    /// Never became ready: no handshake in time, or could not be started.
    Startup,
    /// Protocol violation, resource limit.
    Other,
}

impl ForfeitKind {
    /// Every kind, in the order the standings show them.
    pub const ALL: [ForfeitKind; 5] = [
        ForfeitKind::Time,
        ForfeitKind::Illegal,
        ForfeitKind::Crash,
        ForfeitKind::Startup,
        ForfeitKind::Other,
    ];

    /// `time`, `illegal`, `crash`, `startup` or `other`.
    pub fn name(self) -> &'static str {
        match self {
            ForfeitKind::Time => "time",
            ForfeitKind::Illegal => "illegal",
            ForfeitKind::Crash => "crash",
            ForfeitKind::Startup => "startup",
            ForfeitKind::Other => "other",
        }
    }
}

impl std::fmt::Display for ForfeitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of forfeit a termination is, as the standings count it.
pub fn forfeit_kind(t: Termination) -> ForfeitKind {
    match t {
        Termination::TimeForfeit => ForfeitKind::Time,
        Termination::IllegalMove => ForfeitKind::Illegal,
        Termination::Crash => ForfeitKind::Crash,
        Termination::StartupFailure => ForfeitKind::Startup,
        _ => ForfeitKind::Other,
    }
}

/// A game lost by forfeit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    /// The game id.
    pub game: String,
    /// The bot that forfeited.
    pub bot: String,
    /// `time`, `illegal`, `crash`, `startup` or `other`.
    pub kind: ForfeitKind,
    /// The termination as recorded.
    pub termination: Termination,
    /// What happened, as recorded.
    pub detail: Option<String>,
}

/// The forfeits of one bot of one kind: how many, and the first of them
/// the report lists (none if every one listed is another's).
#[derive(Clone, Debug, PartialEq)]
pub struct FailureGroup<'a> {
    /// The bot that forfeited.
    pub bot: &'a str,
    /// The kind of its forfeits.
    pub kind: ForfeitKind,
    /// How many games it lost that way.
    pub count: u64,
    /// The first listed forfeit of this bot and kind.
    pub example: Option<&'a Failure>,
}

/// The forfeits grouped by bot (in the order given) and kind (in
/// [`ForfeitKind::ALL`]'s order), from each bot's complete counts and the
/// listed forfeits, which may be only the first of them.
pub fn failure_groups<'a>(
    counts: impl IntoIterator<Item = (&'a str, FailureCounts)>,
    listed: &'a [Failure],
) -> Vec<FailureGroup<'a>> {
    let mut groups = Vec::new();
    for (bot, counts) in counts {
        for kind in ForfeitKind::ALL {
            let count = counts.of_kind(kind);
            if count == 0 {
                continue;
            }
            let example = listed.iter().find(|f| f.bot == bot && f.kind == kind);
            groups.push(FailureGroup {
                bot,
                kind,
                count,
                example,
            });
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(game: &str, bot: &str, termination: Termination) -> Failure {
        Failure {
            game: game.to_owned(),
            bot: bot.to_owned(),
            kind: forfeit_kind(termination),
            termination,
            detail: Some(format!("{bot} in {game}")),
        }
    }

    #[test]
    fn forfeits_group_by_bot_and_kind_with_their_first_listed_example() {
        let listed = [
            failure("g1", "b", Termination::Crash),
            failure("g2", "a", Termination::TimeForfeit),
            failure("g3", "a", Termination::Crash),
            failure("g4", "a", Termination::TimeForfeit),
            failure("g5", "a", Termination::StartupFailure),
        ];
        let a = FailureCounts {
            time: 2,
            crash: 1,
            startup: 1,
            ..FailureCounts::default()
        };
        // More crashes than are listed: the count is the bot's own.
        let b = FailureCounts {
            crash: 7,
            illegal: 1,
            ..FailureCounts::default()
        };
        let groups = failure_groups([("a", a), ("b", b)], &listed);
        let seen: Vec<_> = groups
            .iter()
            .map(|g| (g.bot, g.kind, g.count, g.example.map(|f| f.game.as_str())))
            .collect();
        assert_eq!(
            seen,
            [
                ("a", ForfeitKind::Time, 2, Some("g2")),
                ("a", ForfeitKind::Crash, 1, Some("g3")),
                ("a", ForfeitKind::Startup, 1, Some("g5")),
                ("b", ForfeitKind::Illegal, 1, None),
                ("b", ForfeitKind::Crash, 7, Some("g1")),
            ]
        );
    }

    #[test]
    fn failure_kinds_serialise_as_their_names() {
        let kinds = [
            (Termination::TimeForfeit, "time"),
            (Termination::IllegalMove, "illegal"),
            (Termination::Crash, "crash"),
            (Termination::StartupFailure, "startup"),
            (Termination::ProtocolViolation, "other"),
        ];
        for (termination, name) in kinds {
            let kind = forfeit_kind(termination);
            assert_eq!(kind.to_string(), name);
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{name}\""));
        }
    }
}
