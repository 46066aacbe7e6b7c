//! The reference bots of Djenon-aboure: a ladder of players from random to
//! strong, against which any other bot's strength can be measured.
//!
//! Every bot implements [`aboure_protocol::Player`], so the protocol loop can
//! run it over stdin/stdout (`aboure bot NAME`) and tests can call it
//! in-process. [`builtin`] makes one by name:
//!
//! | name        | plays                                                        |
//! |-------------|--------------------------------------------------------------|
//! | `random`    | a uniformly random legal move                                |
//! | `greedy`    | the biggest capture now, ties by a simple evaluation         |
//! | `alphabeta` | iterative-deepening alpha-beta search                        |
//! | `mcts`      | UCT Monte Carlo tree search over random playouts             |
//! | `perfect`   | the exact best move, from the solver                          |
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
mod any;
pub mod budget;
pub mod eval;
mod greedy;
mod mcts;
pub mod negamax;
mod options;
mod perfect;
mod random;
mod table;

use aboure_protocol::Player;

pub use alphabeta::AlphaBetaPlayer;
pub use any::{AnyPlayer, OptionError};
pub use greedy::{tie_break, GreedyPlayer};
pub use mcts::MctsPlayer;
pub use options::FRESH_SEED;
pub use perfect::PerfectPlayer;
pub use random::RandomPlayer;

/// The author every reference bot announces.
pub const AUTHOR: &str = "the aboure project";

/// The names [`builtin`] knows, weakest first.
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
