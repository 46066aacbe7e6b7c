//! Drawing game results from known strengths.
//!
//! Statistics are only trustworthy if, on results drawn from a known truth,
//! the intervals cover that truth as often as they claim and the SPRT errs
//! as rarely as it promises. This module draws such results from BayesElo's
//! model, the same model the ratings are fitted with; the crate's tests use
//! it, and so can anyone checking a tournament design.

use rand::Rng;

use crate::elo::bayeselo_probabilities;
use crate::result::PlayerResult;

/// BayesElo's result model with a draw parameter and a first-move advantage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BayesEloModel {
    /// The draw parameter (0: no draws).
    pub draw_elo: f64,
    /// The first player's advantage.
    pub advantage: f64,
}

impl BayesEloModel {
    /// Win, draw and loss probabilities of the first player, given both
    /// players' ratings in BayesElo's raw scale.
    pub fn probabilities(&self, first: f64, second: f64) -> [f64; 3] {
        bayeselo_probabilities(first - second + self.advantage, self.draw_elo)
    }

    /// Expected score of the first player.
    pub fn expected_score(&self, first: f64, second: f64) -> f64 {
        let [w, d, _] = self.probabilities(first, second);
        w + 0.5 * d
    }

    /// One game's result, from the first player's view.
    pub fn play<R: Rng + ?Sized>(&self, rng: &mut R, first: f64, second: f64) -> PlayerResult {
        let [w, d, _] = self.probabilities(first, second);
        let u: f64 = rng.gen();
        if u < w {
            PlayerResult::Win
        } else if u < w + d {
            PlayerResult::Draw
        } else {
            PlayerResult::Loss
        }
    }
}
