//! The rules of Djenon-aboure, exact and fast.
//!
//! Djenon-aboure is a two-row mancala of the Abouré people: 2 x 6 pits, four
//! seeds in each, relay sowing that puts the first seed back into the pit it
//! came from, and captures of pits holding 2 or 4 seeds that chain backwards
//! across both rows. `RULES.md` at the top of the repository is the full text.
//!
//! This crate knows nothing of I/O, processes or time. Everything else in the
//! project (bots, solver, arbiter, reports) stands on it, so it is small,
//! exhaustively tested against a second implementation, and fast: a position
//! is a `u128` of seed counts, a lap of sowing is one addition, and moves are
//! generated into stack arrays.
//!
//! ```
//! use aboure_engine::{Move, Position};
//!
//! let mut pos = Position::startpos();
//! let moves = pos.legal_moves();
//! assert_eq!(moves.len(), 6);
//! pos.play(Move::sow(2).unwrap()).unwrap();
//! // A relay round the board ends in a capture of the 2 in pit 5.
//! assert_eq!(pos.to_string(), "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0");
//! ```
#![deny(missing_docs)]

mod board;
mod details;
mod hash;
mod moves;
mod notation;
mod perft;
mod playout;
mod position;
mod side;

pub use details::{Lap, MoveDetails};
pub use moves::{Move, MoveList, ParseMoveError, Pit};
pub use notation::ParsePositionError;
pub use perft::perft;
pub use playout::{playout, PlayoutResult};
pub use position::{Children, IllegalMove, InvalidPosition, Outcome, Position};
pub use side::Side;

/// Pits on the board: two rows of six.
pub const PITS: usize = 12;
/// Pits in one player's row.
pub const ROW: usize = 6;
/// Seeds in the game: four in each pit at the start.
pub const TOTAL_SEEDS: u8 = 48;
