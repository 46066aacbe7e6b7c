//! One bot's line in the standings, a part of the report model
//! ([`crate::Report`]) that the league's leaderboard reads too.

use serde::Serialize;

use crate::failure::FailureCounts;

/// One bot's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerLine {
    /// 1 for the best.
    pub rank: usize,
    /// The bot's name.
    pub name: String,
    /// Rating (`null` when there is none, see `ratings.status`).
    pub elo: Option<f64>,
    /// Lower end of the 95% interval.
    pub elo_low: Option<f64>,
    /// Upper end of the 95% interval.
    pub elo_high: Option<f64>,
    /// Group of bots linked by games (1-based); ratings compare within a group.
    pub group: usize,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Points (wins plus half the draws).
    pub points: f64,
    /// Points per game.
    pub score: f64,
    /// Draws per game.
    pub draw_ratio: f64,
    /// Games lost by forfeit, by kind.
    pub failures: FailureCounts,
}
