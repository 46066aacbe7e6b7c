//! Books of openings chosen by what the solver knows.
//!
//! An SPRT's length grows as `1 / nElo²`, and a match's nElo depends on its
//! openings as much as on its bots: an opening that one side wins whatever
//! either bot does tells nothing about them. Chess tools choose openings by
//! engine evaluations; Djenon-aboure is solved, so aboure chooses them by
//! their exact values. A book is made in three steps, each its own module:
//!
//! - [`reach`]: every distinct position reached after a number of plies
//!   from the start, with one line of moves to it, never a finished game;
//! - [`appraise`]: each position's exact value for the side to move (the
//!   whole game's final seed margin under perfect play, captures so far
//!   included) and its sharpness: what a uniformly random move loses
//!   against the best, and how many moves keep the value;
//! - [`Book`]: the positions whose value and sharpness lie in the asked
//!   bands, [`BookSpec::count`] of them drawn by a seed, written one a line
//!   as an ordinary `[openings] file` with the figures in a comment.
//!
//! ```
//! use aboure_openings::{choose, Band, BookSpec};
//!
//! let spec = BookSpec::new(3, Band::new(-2, 2).unwrap(), None, 2, 1).unwrap();
//! let book = choose(&spec).unwrap();
//! assert_eq!(book.entries().len(), 3);
//! for entry in book.entries() {
//!     assert!((-2..=2).contains(&entry.appraisal.value));
//! }
//! ```
#![deny(missing_docs)]

mod appraisal;
mod band;
mod book;
mod reach;

pub use appraisal::{appraise, Appraisal};
pub use band::{Band, BandError};
pub use book::{
    appraised, choose, choose_from, Book, BookEntry, BookError, BookSpec, Selection, MAX_PLIES,
};
pub use reach::{reach, Reached};
