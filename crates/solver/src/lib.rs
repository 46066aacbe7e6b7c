//! Exact values of Djenon-aboure positions.
//!
//! From the start the game tree is small enough to search to the end: games
//! last at most 46 plies and about 49 million positions are reachable. An
//! exact solver is the yardstick for everything else in the project: how
//! much each move of a bot loses against perfect play, the top rung of the
//! bot ladder, and an exact adjudicator for the arbiter.
//!
//! The value of a position is the final seed margin of the side to move,
//! counting the seeds still on the board only (see [`Solver`]). The search
//! is MTD(f) over a fail-soft alpha-beta with a transposition table of
//! proven bounds; the start position takes about 56,000 nodes.
//!
//! ```
//! use aboure_engine::Position;
//! use aboure_solver::Solver;
//!
//! let mut solver = Solver::new(16);
//! let pos: Position = "0,0,0,0,2,1/0,1,0,0,0,0 s 22 22".parse().unwrap();
//! let values = solver.move_values(&pos);
//! assert_eq!(values[0].1, solver.value(&pos));
//! ```
#![deny(missing_docs)]

mod lookahead;
mod search;
mod solver;
mod table;

pub use solver::Solver;
