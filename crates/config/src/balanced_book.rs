//! The built-in balanced book: the openings an SPRT or a league plays when
//! its tournament file has no `[openings]` table.
//!
//! Why a book by default for these two formats: an SPRT's length grows as
//! `1 / nElo²`, and from every position 4 plies deep within 2 seeds of a
//! draw under perfect play, close versions of alphabeta reached real SPRT
//! verdicts in 1.7x to 2.0x fewer game pairs than from random 4-ply
//! openings (docs/openings.md has the figures, their commands, and the
//! pairs the book helps less: mcts, and bots far apart). A league settles
//! its neighbours' order the same way, pair by pair. Round robins and
//! gauntlets keep random openings, whose 512 positions weigh each by how
//! often play reaches it: their ratings are for the game as it is played,
//! and for nearly equal bots a book of 114 positions can favour one of
//! them.
//!
//! The book is the file `configs/balanced-4.txt`, embedded here as it is:
//! one copy, which a test checks is exactly what its recipe,
//! [`BALANCED_BOOK_RECIPE`], writes.

use crate::opening::{parse_opening_file, Opening};

/// The book's text: `configs/balanced-4.txt`.
pub const BALANCED_BOOK: &str = include_str!("../../../configs/balanced-4.txt");

/// The command that writes [`BALANCED_BOOK`].
pub const BALANCED_BOOK_RECIPE: &str =
    "aboure openings --count 114 --value=-2..2 --plies 4 --seed 1";

/// The openings of [`BALANCED_BOOK`], in its order.
pub fn balanced_book() -> Vec<Opening> {
    // The text is fixed at compile time and checked by the test below.
    parse_opening_file(BALANCED_BOOK).expect("the built-in balanced book parses")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_book_is_114_distinct_positions_four_plies_deep() {
        let book = balanced_book();
        assert_eq!(book.len(), 114);
        let mut starts: Vec<String> = book.iter().map(Opening::start_text).collect();
        assert!(book.iter().all(|o| o.moves.is_empty()));
        starts.sort();
        starts.dedup();
        assert_eq!(starts.len(), 114);
        let header = "# aboure openings: 114 openings, value -2..2, 4 plies, seed 1\n";
        assert!(BALANCED_BOOK.starts_with(header));
    }
}
