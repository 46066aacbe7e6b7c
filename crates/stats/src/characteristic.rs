//! What an SPRT will do before it is run: its pass probability and length
//! at each true Elo (the operating characteristic and the average sample
//! number, fishtest's `sprt_calc`).
//!
//! Method. The results of a pair follow a distribution over the five pair
//! scores. At a true Elo that distribution is the one closest (in
//! Kullback-Leibler divergence) to a base distribution, a draw ratio or
//! measured pentanomial frequencies, with the wanted expected score
//! (logistic) or t-value (normalized): the same constrained maximum
//! likelihood the GSPRT itself uses ([`crate::llr`]). As the pairs grow, the
//! GSPRT's LLR tends to a sum of independent per-pair increments
//! `ln(p1_i / p0_i)`, where `p0` and `p1` are that distribution's closest
//! ones under H0 and H1. So the test is a random walk with five step sizes;
//! it is simulated pair by pair (seeded, so the figures are reproducible),
//! which takes the overshoot of the bounds, the length's whole distribution
//! and a truncation at a cap into account where the Brownian-motion formulas
//! fishtest uses need corrections or have no closed form. A run of 2,000
//! walks gives pass probabilities within about +/-1.1% (one standard error
//! at 50%), in well under a second for bounds of 10 nElo.
//!
//! What it leaves out: the GSPRT re-estimates the distribution from the
//! results it has, so its first few dozen pairs wander more than the walk;
//! the test `characteristic::` checks the figures against the real
//! [`Sprt`] run pair by pair within stated tolerances.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::elo::{score_from_elo, NELO_PER_T};
use crate::llr::{mle_expected, mle_t_value};
use crate::pentanomial::Pentanomial;
use crate::sprt::{EloModel, Sprt};

/// Probabilities of a game pair's five scores, fishtest's order
/// `[LL, LD, WL+DD, WD, WW]` (0 to 2 points in half points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairDistribution {
    p: [f64; 5],
}

/// A pair distribution no test can be computed on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CharacteristicError {
    /// A probability is negative or not a number, or they sum to 0.
    #[error("pentanomial probabilities {0:?} must be 0 or more with a positive sum")]
    Probabilities([f64; 5]),
    /// A single outcome: every pair scores the same, the LLR never moves.
    #[error("pentanomial probabilities {0:?} give every pair the same score: no test decides")]
    OneOutcome([f64; 5]),
    /// The draw ratio is not in `[0, 1)`.
    #[error("draw ratio {0} must be at least 0 and less than 1")]
    DrawRatio(f64),
    /// No distribution near the base one has this Elo (beyond what its
    /// outcomes can score).
    #[error("Elo {0} is out of reach of these pair probabilities")]
    Elo(f64),
}

impl PairDistribution {
    /// From probabilities (or frequencies) of the five pair scores, scaled
    /// to sum to 1.
    pub fn new(p: [f64; 5]) -> Result<PairDistribution, CharacteristicError> {
        let total: f64 = p.iter().sum();
        if p.iter().any(|x| x.is_nan() || *x < 0.0) || !(total > 0.0 && total.is_finite()) {
            return Err(CharacteristicError::Probabilities(p));
        }
        if p.iter().filter(|x| **x > 0.0).count() < 2 {
            return Err(CharacteristicError::OneOutcome(p));
        }
        Ok(PairDistribution {
            p: p.map(|x| x / total),
        })
    }

    /// From measured pair counts, each empty bin counted as 0.001 pairs as
    /// the LLR counts it (fishtest's regularization): a sample may not have
    /// seen an outcome that the distributions near it still have.
    pub fn from_counts(counts: &Pentanomial) -> Result<PairDistribution, CharacteristicError> {
        PairDistribution::new(
            counts
                .counts()
                .map(|x| if x == 0 { 1e-3 } else { x as f64 }),
        )
    }

    /// Two independent games between equal players that draw with
    /// probability `draw_ratio`.
    pub fn from_draw_ratio(draw_ratio: f64) -> Result<PairDistribution, CharacteristicError> {
        if !(0.0..1.0).contains(&draw_ratio) {
            return Err(CharacteristicError::DrawRatio(draw_ratio));
        }
        let (w, d) = ((1.0 - draw_ratio) / 2.0, draw_ratio);
        // Loss, draw, win each; a pair's score is the sum of its games'.
        let g = [w, d, w];
        let mut p = [0.0; 5];
        for (i, a) in g.iter().enumerate() {
            for (j, b) in g.iter().enumerate() {
                p[i + j] += a * b;
            }
        }
        PairDistribution::new(p)
    }

    /// The probabilities, `[LL, LD, WL+DD, WD, WW]`.
    pub fn probabilities(&self) -> [f64; 5] {
        self.p
    }

    fn pdf(&self) -> Vec<(f64, f64)> {
        (0..5).map(|i| (i as f64 / 4.0, self.p[i])).collect()
    }

    /// The distribution nearest this one whose Elo, in `model`, is `elo`.
    pub fn at_elo(
        &self,
        elo: f64,
        model: EloModel,
    ) -> Result<PairDistribution, CharacteristicError> {
        let pdf = self.pdf();
        let shifted = match model {
            EloModel::Logistic => mle_expected(&pdf, score_from_elo(elo)),
            // A pair's t-value is sqrt(2) times a game's.
            EloModel::Normalized => {
                mle_t_value(&pdf, 0.5, elo / NELO_PER_T * std::f64::consts::SQRT_2)
            }
        };
        let p = shifted.ok_or(CharacteristicError::Elo(elo))?;
        let p = [p[0].1, p[1].1, p[2].1, p[3].1, p[4].1];
        if p.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return Err(CharacteristicError::Elo(elo));
        }
        PairDistribution::new(p)
    }
}

/// What a test does at one true Elo, over simulated runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Characteristic {
    /// The true Elo, in the test's model.
    pub elo: f64,
    /// Share of runs that accepted H1.
    pub pass: f64,
    /// Standard error of `pass` from the number of runs.
    pub pass_error: f64,
    /// Mean number of pairs to the decision.
    pub expected_pairs: f64,
    /// 90th percentile of the number of pairs.
    pub pairs_90: u64,
    /// Share of runs decided at the cap (0 for an untruncated test).
    pub truncated: f64,
    /// Runs simulated.
    pub runs: usize,
}

/// Most pairs one simulated run of an untruncated test may take: far
/// beyond any real test; a run that reaches it counts as truncated.
pub const WALK_LIMIT: u64 = 50_000_000;

/// The test's behaviour at each of `elos` (in its model), from `runs`
/// simulated walks each, seeded by `seed` and the point's index (so the
/// figures do not depend on `threads`, 0 for one per core).
pub fn characteristic_curve(
    sprt: &Sprt,
    base: &PairDistribution,
    elos: &[f64],
    runs: usize,
    seed: u64,
    threads: usize,
) -> Result<Vec<Characteristic>, CharacteristicError> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut out: Vec<Option<Result<Characteristic, CharacteristicError>>> = vec![None; elos.len()];
    std::thread::scope(|scope| {
        let chunks = out.chunks_mut(elos.len().div_ceil(threads).max(1));
        let mut first = 0;
        for chunk in chunks {
            let start = first;
            first += chunk.len();
            scope.spawn(move || {
                for (k, slot) in chunk.iter_mut().enumerate() {
                    let i = start + k;
                    let point_seed = seed.wrapping_add(i as u64);
                    *slot = Some(characteristic(sprt, base, elos[i], runs, point_seed));
                }
            });
        }
    });
    out.into_iter()
        .map(|c| c.expect("every point is computed"))
        .collect()
}

/// The test's behaviour at true Elo `elo`, from `runs` simulated walks.
pub fn characteristic(
    sprt: &Sprt,
    base: &PairDistribution,
    elo: f64,
    runs: usize,
    seed: u64,
) -> Result<Characteristic, CharacteristicError> {
    let walk = Walk::new(sprt, &base.at_elo(elo, sprt.model())?)?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut lengths = Vec::with_capacity(runs);
    let (mut passed, mut truncated) = (0usize, 0usize);
    for _ in 0..runs {
        let end = walk.run(&mut rng);
        passed += end.pass as usize;
        truncated += end.truncated as usize;
        lengths.push(end.pairs);
    }
    lengths.sort_unstable();
    let n = runs.max(1) as f64;
    let pass = passed as f64 / n;
    Ok(Characteristic {
        elo,
        pass,
        pass_error: (pass * (1.0 - pass) / n).sqrt(),
        expected_pairs: lengths.iter().map(|&x| x as f64).sum::<f64>() / n,
        pairs_90: quantile(&lengths, 0.9),
        truncated: truncated as f64 / n,
        runs,
    })
}

/// The `q` quantile of sorted values (the smallest value with at least
/// `q` of them at or below it), 0 for none.
fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// The LLR as a random walk: per-pair steps and their cumulative
/// probabilities.
pub(crate) struct Walk {
    cumulative: [f64; 4],
    steps: [f64; 5],
    lower: f64,
    upper: f64,
    max_pairs: u64,
}

/// How one simulated test ended.
pub(crate) struct WalkEnd {
    /// H1 accepted.
    pub pass: bool,
    /// Pairs played.
    pub pairs: u64,
    /// Decided at the cap.
    pub truncated: bool,
    /// The pairs by score, `[LL, LD, WL+DD, WD, WW]`.
    pub counts: [u64; 5],
}

impl Walk {
    /// The walk of `sprt`'s LLR on pairs drawn from `truth`.
    pub(crate) fn new(sprt: &Sprt, truth: &PairDistribution) -> Result<Walk, CharacteristicError> {
        let p0 = truth.at_elo(sprt.elo0(), sprt.model())?.p;
        let p1 = truth.at_elo(sprt.elo1(), sprt.model())?.p;
        let p = truth.p;
        // An outcome that never happens takes no step.
        let steps = std::array::from_fn(|i| {
            if p[i] > 0.0 {
                (p1[i] / p0[i]).ln()
            } else {
                0.0
            }
        });
        let mut cumulative = [0.0; 4];
        let mut sum = 0.0;
        for i in 0..4 {
            sum += p[i];
            cumulative[i] = sum;
        }
        Ok(Walk {
            cumulative,
            steps,
            lower: sprt.lower_bound(),
            upper: sprt.upper_bound(),
            max_pairs: sprt.max_pairs().unwrap_or(WALK_LIMIT),
        })
    }

    /// One simulated test.
    pub(crate) fn run(&self, rng: &mut SmallRng) -> WalkEnd {
        let mut llr = 0.0;
        let mut counts = [0; 5];
        for pairs in 1..=self.max_pairs {
            let u: f64 = rng.gen();
            let i = self.cumulative.iter().take_while(|&&c| u >= c).count();
            llr += self.steps[i];
            counts[i] += 1;
            if llr >= self.upper || llr <= self.lower {
                return WalkEnd {
                    pass: llr >= self.upper,
                    pairs,
                    truncated: false,
                    counts,
                };
            }
        }
        // The cap's rule, Sprt::status_after's: the sign of the LLR.
        WalkEnd {
            pass: llr > 0.0,
            pairs: self.max_pairs,
            truncated: true,
            counts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_ratio_gives_two_independent_even_games() {
        let d = PairDistribution::from_draw_ratio(0.5)
            .unwrap()
            .probabilities();
        let expected = [0.0625, 0.25, 0.375, 0.25, 0.0625];
        for (a, b) in d.iter().zip(expected) {
            assert!((a - b).abs() < 1e-15, "{d:?}");
        }
        assert!(PairDistribution::from_draw_ratio(1.0).is_err());
        assert!(PairDistribution::new([0.0, 0.0, 3.0, 0.0, 0.0]).is_err());
        assert!(PairDistribution::new([0.1, f64::NAN, 3.0, 0.0, 0.0]).is_err());
    }

    #[test]
    fn shifting_reaches_the_asked_elo() {
        let base = PairDistribution::from_draw_ratio(0.6).unwrap();
        let shifted = base
            .at_elo(30.0, EloModel::Logistic)
            .unwrap()
            .probabilities();
        let score: f64 = (0..5).map(|i| shifted[i] * i as f64 / 4.0).sum();
        assert!((score - score_from_elo(30.0)).abs() < 1e-9, "{score}");
    }

    #[test]
    fn quantiles_of_sorted_lengths() {
        let v: Vec<u64> = (1..=10).collect();
        assert_eq!(quantile(&v, 0.9), 9);
        assert_eq!(quantile(&v, 0.5), 5);
        assert_eq!(quantile(&v, 1.0), 10);
        assert_eq!(quantile(&[], 0.9), 0);
    }
}
