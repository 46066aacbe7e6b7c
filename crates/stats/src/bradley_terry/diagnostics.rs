//! Does the Bradley-Terry model fit the results?
//!
//! Ratings are one number per player, so they can only say "A is stronger
//! than B by so much" for every pairing at once. When bots have styles that
//! beat some and lose to others, the model's predictions for some pairings
//! miss by more than chance, and in the extreme the results go round in a
//! circle (A beats B beats C beats A) that no ratings can express. Two
//! checks, both on the results by colour and the fitted ratings:
//!
//! - [`goodness_of_fit`]: per pairing, the observed score against the
//!   model's prediction (both colours, with the fitted first-move advantage
//!   and draw parameter), its standardized residual `z`, and Pearson's
//!   chi-square `sum z^2` on `pairings - (players - 1)` degrees of freedom
//!   (one rating per player is fitted, less the anchoring). Games are taken
//!   as independent; game pairs of colour-swapped openings are usually
//!   anti-correlated, which makes the test conservative.
//! - [`cycles`]: every triple whose head-to-head results go round, each
//!   leg won with a likelihood of superiority of at least
//!   [`CYCLE_LOS`]: beyond noise, since a transitive truth must have one
//!   leg going against it, which happens with that confidence at most 1% of
//!   the time.

use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF};

use super::Ratings;
use crate::elo::bayeselo_probabilities;
use crate::wdl::Wdl;

/// One pairing's observed and predicted score.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairingResidual {
    /// The players, by index, `players[0] < players[1]`.
    pub players: [usize; 2],
    /// Games between them.
    pub games: u64,
    /// Points of `players[0]` (a draw is half a point).
    pub observed: f64,
    /// Points the model predicts for `players[0]`.
    pub expected: f64,
    /// `(observed - expected) / sqrt(variance)`, the variance of the points
    /// under the model.
    pub z: f64,
}

/// Pearson's chi-square test of the fit, and the pairings behind it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitTest {
    /// `sum z^2` over the pairings.
    pub chi_square: f64,
    /// Pairings that met, less the ratings fitted (`players - 1`); 0 when
    /// the ratings can fit every pairing exactly (no test).
    pub degrees_of_freedom: usize,
    /// Chance of a chi-square at least this large if the model holds;
    /// `None` without degrees of freedom.
    pub p_value: Option<f64>,
    /// Every pairing that met, the largest `|z|` first.
    pub pairings: Vec<PairingResidual>,
}

/// Observed against predicted scores of each pairing, from the results by
/// colour (`counts[i * players + j]`: `i` first against `j`, from `i`'s
/// view) and the ratings fitted on them.
pub fn goodness_of_fit(players: usize, counts: &[Wdl], ratings: &Ratings) -> FitTest {
    let n = players;
    let at = |i: usize, j: usize| counts.get(i * n + j).copied().unwrap_or_default();
    let mut pairings = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (first, second) = (at(i, j), at(j, i));
            let games = first.games() + second.games();
            if games == 0 {
                continue;
            }
            // Raw rating difference: the anchoring cancels, the scale not.
            let diff = (ratings.ratings[i] - ratings.ratings[j]) / ratings.scale;
            let south = bayeselo_probabilities(diff + ratings.advantage, ratings.draw_elo);
            let [l, d, w] = bayeselo_probabilities(-diff + ratings.advantage, ratings.draw_elo);
            let north = [w, d, l];
            let (mut expected, mut variance) = (0.0, 0.0);
            for (g, [w, d, _]) in [(first.games(), south), (second.games(), north)] {
                let s = w + d / 2.0;
                expected += g as f64 * s;
                variance += g as f64 * (w + d / 4.0 - s * s);
            }
            let observed = points(first) + points(second.reversed());
            let z = if variance > 0.0 {
                (observed - expected) / variance.sqrt()
            } else {
                0.0
            };
            pairings.push(PairingResidual {
                players: [i, j],
                games,
                observed,
                expected,
                z,
            });
        }
    }
    pairings.sort_by(|a, b| b.z.abs().total_cmp(&a.z.abs()));
    let chi_square: f64 = pairings.iter().map(|p| p.z * p.z).sum();
    let degrees_of_freedom = pairings.len().saturating_sub(n.saturating_sub(1));
    let p_value = (degrees_of_freedom > 0)
        .then(|| ChiSquared::new(degrees_of_freedom as f64).ok())
        .flatten()
        .map(|law| 1.0 - law.cdf(chi_square));
    FitTest {
        chi_square,
        degrees_of_freedom,
        p_value,
        pairings,
    }
}

fn points(w: Wdl) -> f64 {
    w.wins as f64 + w.draws as f64 / 2.0
}

/// Least likelihood of superiority of each leg of a reported cycle.
pub const CYCLE_LOS: f64 = 0.99;

/// Three players whose results go round: `players[0]` beat `players[1]`,
/// who beat `players[2]`, who beat `players[0]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cycle {
    /// The players, by index, the smallest first.
    pub players: [usize; 3],
    /// Each leg's score per game, of the winner of the leg: `players[0]`
    /// against `players[1]`, then 1 against 2, then 2 against 0.
    pub scores: [f64; 3],
    /// Each leg's likelihood of superiority.
    pub los: [f64; 3],
}

/// Every cycle of head-to-head wins with each leg's likelihood of
/// superiority at least [`CYCLE_LOS`], from the results by colour (as
/// [`goodness_of_fit`]).
pub fn cycles(players: usize, counts: &[Wdl]) -> Vec<Cycle> {
    let n = players;
    let at = |i: usize, j: usize| counts.get(i * n + j).copied().unwrap_or_default();
    // Both colours, from i's view.
    let h2h = |i: usize, j: usize| {
        let mut w = at(i, j);
        w += at(j, i).reversed();
        w
    };
    // Some((score, los)) when i beat j beyond noise.
    let beat = |i: usize, j: usize| {
        let h = h2h(i, j).head_to_head();
        let (score, los) = (h.score?, h.los?);
        (score > 0.5 && los >= CYCLE_LOS).then_some((score, los))
    };
    let mut found = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in a + 1..n {
                if c == b {
                    continue;
                }
                // a -> b -> c -> a; each cycle once, with a the smallest.
                if let (Some(x), Some(y), Some(z)) = (beat(a, b), beat(b, c), beat(c, a)) {
                    found.push(Cycle {
                        players: [a, b, c],
                        scores: [x.0, y.0, z.0],
                        los: [x.1, y.1, z.1],
                    });
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bradley_terry::{fit_counts, BradleyTerryOptions};

    /// `k` games each way between every two of three players; `wins[i][j]`
    /// wins of i against j per colour out of `k`, the rest losses.
    fn results(wins: [[u64; 3]; 3], k: u64) -> Vec<Wdl> {
        let mut counts = vec![Wdl::default(); 9];
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    counts[i * 3 + j] = Wdl::new(wins[i][j], 0, k - wins[i][j]);
                }
            }
        }
        counts
    }

    /// No draws: a plain Bradley-Terry model, whose fit matches scores.
    fn no_draws() -> BradleyTerryOptions {
        BradleyTerryOptions {
            fit_draw_elo: false,
            draw_elo: 0.0,
            ..Default::default()
        }
    }

    #[test]
    fn a_circle_fits_badly_and_is_found() {
        // 0 beats 1 beats 2 beats 0, 40 of 50 each way.
        let counts = results([[0, 40, 10], [10, 0, 40], [40, 10, 0]], 50);
        let r = fit_counts(3, &counts, &no_draws()).unwrap();
        let t = goodness_of_fit(3, &counts, &r);
        assert_eq!(t.degrees_of_freedom, 1);
        assert!(t.p_value.unwrap() < 1e-6, "{t:?}");
        // Equal ratings predict 50 of 100 points in each pairing.
        for p in &t.pairings {
            assert!((p.expected - 50.0).abs() < 1e-6, "{p:?}");
        }
        let found = cycles(3, &counts);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].players, [0, 1, 2]);
        assert!((found[0].scores[0] - 0.8).abs() < 1e-12);
    }

    #[test]
    fn a_transitive_field_fits_and_has_no_cycle() {
        let counts = results([[0, 30, 40], [20, 0, 30], [10, 20, 0]], 50);
        let r = fit_counts(3, &counts, &no_draws()).unwrap();
        let t = goodness_of_fit(3, &counts, &r);
        assert!(t.p_value.unwrap() > 0.05, "{t:?}");
        assert!(cycles(3, &counts).is_empty());
        // Two players: the ratings fit exactly, no test.
        let two = [
            Wdl::default(),
            Wdl::new(3, 0, 2),
            Wdl::new(1, 0, 4),
            Wdl::default(),
        ];
        let r = fit_counts(2, &two, &no_draws()).unwrap();
        let t = goodness_of_fit(2, &two, &r);
        assert_eq!((t.degrees_of_freedom, t.p_value), (0, None));
        assert!(t.pairings[0].z.abs() < 1e-6, "{t:?}");
    }
}
