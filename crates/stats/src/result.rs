//! The outcome of one game, seen from one player.
//!
//! Every count in this crate (W/D/L, pentanomial pairs, Bradley-Terry games)
//! is built from this one type, so "whose view" is decided once, here.

use serde::Serialize;

/// The result of one game from the point of view of a chosen player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerResult {
    /// The player won.
    Win,
    /// Neither side won.
    Draw,
    /// The player lost.
    Loss,
}

impl PlayerResult {
    /// Points scored: 1 for a win, 1/2 for a draw, 0 for a loss.
    pub fn points(self) -> f64 {
        match self {
            PlayerResult::Win => 1.0,
            PlayerResult::Draw => 0.5,
            PlayerResult::Loss => 0.0,
        }
    }

    /// The same game seen from the opponent.
    pub fn reversed(self) -> PlayerResult {
        match self {
            PlayerResult::Win => PlayerResult::Loss,
            PlayerResult::Draw => PlayerResult::Draw,
            PlayerResult::Loss => PlayerResult::Win,
        }
    }
}

impl std::ops::Not for PlayerResult {
    type Output = PlayerResult;
    fn not(self) -> PlayerResult {
        self.reversed()
    }
}
