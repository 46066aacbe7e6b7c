//! What `aboure bench openings` is given, and what it measured of one
//! source of openings: read by the table and by the real SPRTs alike, so
//! kept apart from both.

use aboure_stats::{Pentanomial, Sprt};

use super::Openings;

/// What `aboure bench openings` is given.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Game pairs measured per bot pair and source of openings.
    pub pairs: u64,
    /// Real SPRTs per bot pair from random openings and from the best book.
    pub runs: u64,
    /// Most pairs of one real SPRT.
    pub cap: u64,
    /// Plies of the books' openings (the random baseline has 4, as a
    /// tournament's default).
    pub plies: u32,
    /// The SPRT, in normalized Elo.
    pub sprt: Sprt,
    /// Threads playing the measured pairs, and real SPRTs run at once.
    pub threads: usize,
    /// Only the bot pairs whose index is listed (all if empty).
    pub only: Vec<usize>,
    /// Only the books whose value band holds 0.
    pub balanced_only: bool,
    /// The stream of the measured pairs; the real SPRTs use the next
    /// `runs` streams.
    pub seed: u64,
}

/// One source of openings measured for one bot pair.
pub(super) struct Row {
    pub(super) held_out: Openings,
    pub(super) counts: Pentanomial,
    pub(super) expected: Option<f64>,
}
