//! The outcome of one game, seen from one player.
//!
//! Every count in this crate (W/D/L, pentanomial pairs, Bradley-Terry games)
//! is built from this one type, so "whose view" is decided once, here.

use serde::Serialize;

/// The result of one game from the point of view of a chosen player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// The player won.
    Win,
    /// Neither side won.
    Draw,
    /// The player lost.
    Loss,
}

impl GameResult {
    /// Points scored: 1 for a win, 1/2 for a draw, 0 for a loss.
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    /// The same game seen from the opponent.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

impl std::ops::Not for GameResult {
    type Output = GameResult;
    fn not(self) -> GameResult {
        self.reversed()
    }
}
