//! One row of a CSV file or game of a PGN file, as both readers hand it
//! out: who played which side and the result, borrowed from the reader's
//! buffer (see [`crate::Rows`]).

use crate::problem::Problem;
use crate::summary::GameSummary;

/// What the next row of a CSV file or game of a PGN file holds.
#[derive(Debug)]
pub enum Row<'a> {
    /// `count` identical games (1 unless a CSV count column says more),
    /// the row starting on line `line`. The summary has an empty id, pair
    /// 0 and game 0 (rows are not paired) and termination `unknown`.
    Games {
        /// 1-based line where the row or game starts.
        line: usize,
        /// Who played which side, and the result.
        game: GameSummary<'a>,
        /// How many games the row stands for.
        count: u32,
    },
    /// A game without a result (PGN's `*`): not counted.
    Unfinished {
        /// 1-based line where the game starts.
        line: usize,
    },
    /// A row or game that cannot be counted, located.
    Problem(Problem),
}

/// The summary of a row: `south` moved first.
pub(crate) fn row_summary<'a>(
    south: &'a str,
    north: &'a str,
    result: crate::record::GameResult,
) -> GameSummary<'a> {
    use crate::summary::Text;
    use std::borrow::Cow;
    let text = |s: &'a str| Text(Cow::Borrowed(s));
    GameSummary {
        id: text(""),
        pairing: [text(south), text(north)],
        pair: 0,
        game: 0,
        south: text(south),
        north: text(north),
        result,
        termination: crate::record::Termination::Unknown,
        loser: None,
        detail: None,
    }
}
