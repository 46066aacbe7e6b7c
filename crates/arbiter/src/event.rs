//! What a run reports while it goes, for progress displays. The library
//! sends events to an observer; it never prints.

use aboure_records::{GameRecord, Standing};

/// Something that happened during a run.
#[derive(Clone, Debug)]
pub enum Event {
    /// The run starts.
    Started {
        /// Games in the schedule, finished ones included.
        total: usize,
        /// Games already recorded (by earlier runs, or by other workers of
        /// the run), counted in the first [`Event::Standings`].
        previous: usize,
    },
    /// The standings of the run (every worker's games, earlier runs'
    /// included): the arbiter's one tally, sent at the start and after
    /// each game it counts, so a display needs no tally of its own.
    Standings(Vec<Standing>),
    /// The sandbox bots run in: its mode and layers (before any game).
    Sandbox(aboure_sandbox::Layers),
    /// A bot's process started afresh and finished its handshake, which
    /// took `took` (a process reused for another game sends none).
    BotStarted {
        /// The bot's name.
        bot: String,
        /// From before it was spawned to the end of its handshake.
        took: std::time::Duration,
    },
    /// A game starts.
    GameStarted {
        /// Its id.
        id: String,
        /// Bot playing South.
        south: String,
        /// Bot playing North.
        north: String,
    },
    /// A game finished and is safely on disk.
    GameFinished(Box<GameRecord>),
    /// Another worker of the run recorded a game (read from its file).
    Recorded(Box<GameRecord>),
    /// The workers of the run: alive, ended or dead, and what they hold.
    Workers(aboure_workers::RosterBrief),
    /// Where the SPRT stands, over every worker's games.
    Sprt(aboure_stats::OrderedStatus),
    /// A league stopped by its verdict (`until = "separated"`), after a
    /// pair finished: of the neighbour pairs the verdict covers, how many
    /// are settled now (separated, or within the tie margin), refitted
    /// from every finished pair. The league stops once all are (and its
    /// budget, if any, is not spent first).
    League {
        /// Neighbour pairs settled.
        settled: usize,
        /// Neighbour pairs the verdict covers.
        neighbours: usize,
    },
    /// The stop rule ended the run early (e.g. an SPRT decided).
    Stopped(String),
    /// The run was interrupted; games in progress are abandoned.
    Interrupted,
}
