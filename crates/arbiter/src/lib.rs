//! The arbiter: plays Djenon-aboure games and formats between bot
//! subprocesses.
//!
//! A validated tournament file (`aboure_config::Config`) names bots (any
//! command, or a built-in reference bot) and how they meet; [`schedule`]
//! turns it into a deterministic list of games, each opening played twice
//! with colours swapped (an SPRT stops it early, a league instead chooses
//! each next pair from the games so far, in its own module, `league`);
//! [`run`] plays them with bots as subprocesses speaking the line protocol,
//! measures each move on a monotonic clock, turns every failure (time,
//! illegal move, crash, garbage, a hung start-up) into a recorded loss, and
//! appends every finished game durably to `games.jsonl` so an interrupted
//! run can be resumed. Every format plays through one run loop (`seat`):
//! seats that each ask a source for the next pair (the schedule's, an
//! SPRT's that stops at its decision, a league's rule), play its missing
//! games and record them; the format is only the source. How a run ended
//! is a [`RunOutcome`], plain data that `aboure-report` words for the end
//! of `aboure run`.
//! Workers that share a run folder (`--shard`,
//! `--join`) claim its units through [`aboure_workers`], which owns
//! everything under `claims/`; every path of the folder is named by
//! [`aboure_records::RunFolder`].
//!
//! Reading the file is `aboure-config`'s job, tuning `aboure-tuning`'s.
//! Pure logic (schedule, clocks, adjudication) is separate from the I/O
//! (processes, games, the tournament) and tested without processes.
//! Standings are counted with the records crate's
//! [`aboure_records::Tally`], the one the report uses.
#![deny(missing_docs)]

mod adjudication;
mod clock;
mod dispatch;
mod error;
mod event;
mod game;
mod league;
mod lock;
mod outcome;
mod output;
pub mod program;
mod results;
mod run_options;
mod sandbox_record;
mod schedule;
mod seat;
pub mod sprt;
mod tournament;

// The tournament file is its own crate; the arbiter's modules name it
// `crate::config` and its openings `crate::opening`.
use aboure_config as config;
use aboure_config::opening;

pub use aboure_process::Limits;
pub use clock::Clock;
pub use dispatch::run;
pub use error::RunError;
pub use event::Event;
pub use game::go_message;
pub use league::LeagueRunError;
pub use outcome::RunOutcome;
pub use run_options::{default_concurrency, Observer, RunOptions};
pub use schedule::{schedule, GameSpec, Schedule, Shard};
pub use seat::{KeptBots, QUIT_GRACE};
pub use tournament::{launches, SharingCounts};

/// The claim queue of a scheduled run: its units as one worker process
/// sees them, and the claims it makes. The run loop drives it through the
/// schedule's source; it is public for the bench that drives the same
/// queue with games that take no time (`aboure bench workers`).
pub mod queue {
    pub use crate::tournament::queue::{Next, Queue, WriteCheck, REFRESH_AGE};
}
