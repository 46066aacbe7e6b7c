//! Simulated matches with known truth, shared by the simulation tests.
#![allow(dead_code)]

use aboure_stats::elo::{elo_from_score, NELO_PER_T};
use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{Pentanomial, PlayerResult};
use rand::Rng;

/// A match between player A (rating `elo`, BayesElo raw scale) and B
/// (rating 0), on openings that each favour the first player by their own
/// amount: games on the same opening are correlated, as in real matches.
pub struct Match {
    pub openings: Vec<f64>,
    pub draw_elo: f64,
}

impl Match {
    pub fn typical() -> Match {
        Match {
            openings: vec![-150.0, 0.0, 100.0, 250.0, 400.0],
            draw_elo: 120.0,
        }
    }

    /// A's win, draw, loss probabilities on `opening`.
    pub fn game(&self, elo: f64, opening: usize, a_first: bool) -> [f64; 3] {
        let model = BayesEloModel {
            draw_elo: self.draw_elo,
            advantage: self.openings[opening],
        };
        if a_first {
            model.probabilities(elo, 0.0)
        } else {
            let [w, d, l] = model.probabilities(0.0, elo);
            [l, d, w]
        }
    }

    /// Exact distribution of A's result in one game, opening and colour at random.
    pub fn game_distribution(&self, elo: f64) -> [f64; 3] {
        let mut out = [0.0; 3];
        let weight = 0.5 / self.openings.len() as f64;
        for o in 0..self.openings.len() {
            for a_first in [true, false] {
                let p = self.game(elo, o, a_first);
                for k in 0..3 {
                    out[k] += weight * p[k];
                }
            }
        }
        out
    }

    /// Exact distribution of A's points in a pair (0, 1/2, .., 2 points).
    pub fn pair_distribution(&self, elo: f64) -> [f64; 5] {
        let mut out = [0.0; 5];
        let weight = 1.0 / self.openings.len() as f64;
        for o in 0..self.openings.len() {
            let (g1, g2) = (self.game(elo, o, true), self.game(elo, o, false));
            // Index by half points: win 2, draw 1, loss 0.
            for (a, pa) in [(2, g1[0]), (1, g1[1]), (0, g1[2])] {
                for (b, pb) in [(2, g2[0]), (1, g2[1]), (0, g2[2])] {
                    out[a + b] += weight * pa * pb;
                }
            }
        }
        out
    }

    pub fn play_game<R: Rng>(&self, rng: &mut R, elo: f64) -> PlayerResult {
        let o = rng.gen_range(0..self.openings.len());
        let a_first = rng.gen();
        let p = self.game(elo, o, a_first);
        sample(rng, p)
    }

    pub fn play_pair<R: Rng>(&self, rng: &mut R, elo: f64) -> (PlayerResult, PlayerResult) {
        let o = rng.gen_range(0..self.openings.len());
        (
            sample(rng, self.game(elo, o, true)),
            sample(rng, self.game(elo, o, false)),
        )
    }
}

pub fn sample<R: Rng>(rng: &mut R, p: [f64; 3]) -> PlayerResult {
    let u: f64 = rng.gen();
    if u < p[0] {
        PlayerResult::Win
    } else if u < p[0] + p[1] {
        PlayerResult::Draw
    } else {
        PlayerResult::Loss
    }
}

/// Adds one game pair drawn from the pentanomial probabilities `p`
/// (LL, LD, DD or WL, WD, WW) to `counts`.
pub fn add_pair<R: Rng>(counts: &mut Pentanomial, p: [f64; 5], rng: &mut R) {
    let mut u: f64 = rng.gen();
    let bin = p.iter().position(|&x| {
        u -= x;
        u < 0.0
    });
    match bin.unwrap_or(4) {
        0 => counts.ll += 1,
        1 => counts.ld += 1,
        2 => counts.dd += 1,
        3 => counts.wd += 1,
        _ => counts.ww += 1,
    }
}

/// True logistic Elo of a per-game result distribution.
pub fn logistic_elo(p: [f64; 3]) -> f64 {
    elo_from_score(p[0] + 0.5 * p[1]).unwrap()
}

/// True nElo of a pair distribution (per-game sigma = sqrt(2) x pair sigma).
pub fn pair_nelo(p: [f64; 5]) -> f64 {
    let mean: f64 = (0..5).map(|i| p[i] * i as f64 / 4.0).sum();
    let var: f64 = (0..5).map(|i| p[i] * (i as f64 / 4.0 - mean).powi(2)).sum();
    (mean - 0.5) / (2.0 * var).sqrt() * NELO_PER_T
}

/// True logistic Elo of a pair distribution.
pub fn pair_distribution_elo(p: [f64; 5]) -> f64 {
    elo_from_score((0..5).map(|i| p[i] * i as f64 / 4.0).sum()).unwrap()
}

/// The `x` in `[lo, hi]` where increasing `f` reaches `target`.
pub fn solve(f: impl Fn(f64) -> f64, target: f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Acceptance window for an observed rate whose expectation is `p` over `n`
/// independent trials: `p +/- k` standard errors.
pub fn window(p: f64, n: usize, k: f64) -> (f64, f64) {
    let se = (p * (1.0 - p) / n as f64).sqrt();
    (p - k * se, p + k * se)
}
