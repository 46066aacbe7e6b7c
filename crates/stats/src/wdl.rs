//! Trinomial head-to-head counts: wins, draws and losses.
//!
//! The simplest summary of a match, and what fastchess prints first. Its
//! variance treats games as independent, which overstates the error when
//! openings are played with colours swapped (see [`crate::Pentanomial`]).

use serde::Serialize;

use crate::estimate::{summarize, HeadToHead};
use crate::result::PlayerResult;

/// Wins, draws and losses of one player against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts from wins, draws and losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, result: PlayerResult) {
        match result {
            PlayerResult::Win => self.wins += 1,
            PlayerResult::Draw => self.draws += 1,
            PlayerResult::Loss => self.losses += 1,
        }
    }

    /// The same counts seen from the opponent.
    pub fn reversed(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (wins plus half the draws).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game, `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Empirical variance of one game's score, `None` without games.
    pub fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score()?;
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        Some(w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s)
    }

    /// Score, draw ratio, Elo and nElo with 95% intervals and LOS, computed
    /// as fastchess's `EloWDL` does.
    pub fn head_to_head(&self) -> HeadToHead {
        let games = self.games();
        let score = self.score();
        let variance = self.variance().unwrap_or(0.0);
        let (elo, nelo, los) = summarize(games, score.unwrap_or(0.5), variance, variance.sqrt());
        HeadToHead {
            games,
            score,
            draw_ratio: (games > 0).then(|| self.draws as f64 / games as f64),
            elo,
            nelo,
            los,
        }
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}
