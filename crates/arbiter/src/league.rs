//! A league run (`format = "league"`): pairs decided one by one by the
//! league crate's rule, played, recorded, until the rule's verdict.
//!
//! The run keeps no state a crash could lose: the pairs of the league are
//! its games in `games.jsonl` (ids `l{pair}-g{game}`, the pairing named
//! South first), its entrants are in `run.json` (when each joined, when it
//! retired), and each decision is a function of those alone
//! ([`aboure_league::in_flight`]).
//!
//! A league plays through the run loop every format shares
//! ([`crate::seat`]): a number of seats that each ask for the next pair,
//! play its missing games and record them. What differs is where the next
//! pair comes from:
//! - a league played by one process (`solo.rs`) decides pair `n` from its
//!   own records in number order, so a resumed league plays the same pairs
//!   in the same order as one that was never stopped, finishing first any
//!   pair a crash cut short; several pairs are in play at once up to the
//!   league's `in_flight` (its first run's concurrency, recorded);
//! - workers sharing the folder (`--shard`, `--join`; `worker.rs`) decide
//!   from every worker's records and claim pair numbers as they decide
//!   them (`desk.rs`), and write `workers.json` as a tournament's workers
//!   do.
//!
//! When the league stops, the verdict on every neighbour pair of the final
//! table (refitted from every game) is printed and written to `run.json`.
//! What both sources do with a record (count it in the league's book, tell
//! the observer) and the verdict are `book.rs`'.

mod book;
mod desk;
pub(crate) mod entrants;
pub(crate) mod error;
mod pair;
mod solo;
mod worker;

use aboure_league::Rule;

pub(crate) use book::{
    memberships, news_events, record_game, stop_reason, verdict, written_events,
};
pub use error::LeagueRunError;

use crate::config::Config;
use crate::error::RunError;
use crate::outcome::RunOutcome;
use crate::run_options::RunOptions;

/// Runs the league of `config` (its rule `rule`) with `options`: as one
/// worker of a shared folder with `--join` or `--shard`, else alone.
pub(crate) async fn run(
    config: &Config,
    rule: Rule,
    options: RunOptions,
) -> Result<RunOutcome, RunError> {
    match options.join || options.shard.is_some() {
        true => worker::run(config, rule, options).await,
        false => solo::run(config, rule, options).await,
    }
}
