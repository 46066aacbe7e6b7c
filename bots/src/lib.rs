//! The reference bots of Djenon-aboure: a ladder of players from random to
//! strong, against which any other bot's strength can be measured.
//!
//! Every bot implements [`aboure_protocol::Player`], so the protocol loop can
//! run it over stdin/stdout (`aboure bot NAME`) and tests can call it
//! in-process. [`builtin`] makes one by name:
//!
//! | name        | plays                                           | options                      |
//! |-------------|-------------------------------------------------|------------------------------|
//! | `random`    | a uniformly random legal move                   | `seed`                       |
//! | `greedy`    | the biggest capture now, ties by a simple eval  | `seed`                       |
//! | `alphabeta` | iterative-deepening alpha-beta search           | `depth`, `hash`, `quiescence`, `quiescence_plies`, `row_weight`, `mobility_weight`, `targets_weight`, `empty_weight` |
//! | `mcts`      | UCT Monte Carlo tree search over random games   | `exploration`, `margin_share`, `expand_after`, `seed` |
//! | `perfect`   | the exact best move, from the solver            | `hash`                       |
//!
//! The tunable parameters are options whose defaults are the values the
//! bots always played with, so a tune (SPSA, `aboure-spsa`) starts from
//! today's bot: alphabeta's evaluation weights in centi-seeds (`int`,
//! defaults 50, 0, 0; -1000 to 1000, either sign) and the captures its
//! quiescence search follows (6); mcts's exploration constant (a `float`,
//! 0.5, from 0 to 10), its margin share in hundredths (60) and the playouts
//! a leaf takes before it grows children (1).
//!
//! `seed` 0 (the default) seeds from the operating system, so two unseeded
//! instances differ; any other value makes the bot reproducible.
//!
//! Measured in-process (`tests/ladder.rs`, `tests/accuracy.rs`): greedy
//! beats random, alphabeta and mcts beat greedy by wide margins; alphabeta
//! and mcts score evenly against each other at equal time, but alphabeta
//! loses fewer seeds against perfect play and solves the start position in
//! about 0.1 s, after which it plays as `perfect` does. Every search bot
//! keeps a safety margin from its time limit ([`budget`]).
//!
//! ```
//! use aboure_bots::{builtin, BUILTIN};
//!
//! for name in BUILTIN {
//!     let bot = builtin(name).unwrap();
//!     assert!(!bot.name().is_empty());
//! }
//! assert!(builtin("nobody").is_none());
//! ```
#![deny(missing_docs)]

mod alphabeta;
pub mod budget;
mod configure;
pub mod eval;
mod greedy;
mod identity;
mod mcts;
pub mod negamax;
mod options;
mod perfect;
mod random;
pub mod seeded;
mod table;

use aboure_protocol::Player;

pub use alphabeta::AlphaBetaPlayer;
pub use configure::{configure, OptionError};
pub use greedy::{tie_break, Greedy, GreedyPlayer};
pub use identity::AUTHOR;
pub use mcts::MctsPlayer;
pub use options::FRESH_SEED;
pub use perfect::PerfectPlayer;
pub use random::{RandomPlayer, Uniform};
pub use seeded::Seeded;

/// The names [`builtin`] knows, roughly weakest first.
pub const BUILTIN: &[&str] = &["random", "greedy", "alphabeta", "mcts", "perfect"];

/// A reference bot by name, with its default options, or `None` for a name
/// not in [`BUILTIN`].
pub fn builtin(name: &str) -> Option<Box<dyn Player + Send>> {
    Some(match name {
        "random" => Box::new(RandomPlayer::default()),
        "greedy" => Box::new(GreedyPlayer::default()),
        "alphabeta" => Box::new(AlphaBetaPlayer::default()),
        "mcts" => Box::new(MctsPlayer::default()),
        "perfect" => Box::new(PerfectPlayer::default()),
        _ => return None,
    })
}
