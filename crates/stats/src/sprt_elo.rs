//! The Elo of a finished SPRT, corrected for the rule that stopped it.
//!
//! An SPRT stops when the LLR crosses a bound, so it stops early exactly
//! when its results ran ahead of the truth: tests that pass quickly were
//! lucky, tests that fail quickly unlucky, and the Elo of the counts at the
//! stop (the *naive* estimate) is biased away from the middle of the bounds
//! (fishtest issue 1924: a negative Elo shown for a test with more wins
//! than losses is this bias's other face, near `elo0`).
//!
//! The correction is Whitehead's bias-adjusted estimate: the true Elo
//! `theta` at which the naive estimate's mean, over tests run by the same
//! rule, equals the naive estimate observed. That mean is computed by
//! simulating the test with [`crate::characteristic`]'s random walk, on the
//! distribution nearest the observed pair frequencies with Elo `theta`
//! (the same draws at every `theta`, so the mean moves smoothly with it),
//! and `theta` is found by bisection. Simulated tests whose naive estimate
//! is infinite (every pair won, in a very short test) are left out of the
//! mean. The test `sprt_elo::` checks the result: over simulated runs of
//! the real [`Sprt`], the corrected estimate's mean bias is within its
//! sampling error of zero where the naive one's is not.

use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::characteristic::{PairDistribution, Walk};
use crate::pentanomial::Pentanomial;
use crate::sprt::{EloModel, Sprt};

/// The Elo at an SPRT's stop, as counted and corrected.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StoppedElo {
    /// The Elo of the counts, in the test's model.
    pub naive: f64,
    /// Corrected for the stopping rule (Whitehead's bias-adjusted estimate).
    pub corrected: f64,
}

/// Simulated tests per evaluation of the naive estimate's mean, by default.
pub const DEFAULT_RUNS: usize = 1000;

/// The naive and corrected Elo of a test that stopped at `counts`, in the
/// test's model; `None` when the naive estimate is not finite (a perfect or
/// null score, one outcome only) or no Elo near it explains it.
pub fn stopped_elo(
    sprt: &Sprt,
    counts: &Pentanomial,
    runs: usize,
    seed: u64,
) -> Option<StoppedElo> {
    let c = counts.counts();
    let naive = naive_elo(sprt.model(), c)?;
    let base = PairDistribution::from_counts(counts).ok()?;
    let mean_at = |theta: f64| mean_naive(sprt, &base, theta, runs, seed);
    let width = sprt.elo1() - sprt.elo0();
    let (mut lo, mut hi) = (naive - width, naive + width);
    // Widen until the bracket holds the root: the mean grows with theta.
    let mut tries = 0;
    while !(mean_at(lo)? <= naive && naive <= mean_at(hi)?) {
        tries += 1;
        if tries > 4 {
            return None;
        }
        let half = hi - lo;
        (lo, hi) = (lo - half / 2.0, hi + half / 2.0);
    }
    // 10 halvings: a 1000th of the bracket, below the simulation's noise.
    for _ in 0..10 {
        let mid = 0.5 * (lo + hi);
        if mean_at(mid)? < naive {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(StoppedElo {
        naive,
        corrected: 0.5 * (lo + hi),
    })
}

/// The Elo of pair counts `[LL, LD, WL+DD, WD, WW]` in `model`.
fn naive_elo(model: EloModel, counts: [u64; 5]) -> Option<f64> {
    let h = Pentanomial::from_fishtest(counts).head_to_head();
    match model {
        EloModel::Logistic => h.elo.value(),
        EloModel::Normalized => h.nelo.value(),
    }
}

/// Mean naive estimate of `runs` simulated tests at true Elo `theta`.
fn mean_naive(
    sprt: &Sprt,
    base: &PairDistribution,
    theta: f64,
    runs: usize,
    seed: u64,
) -> Option<f64> {
    let walk = Walk::new(sprt, &base.at_elo(theta, sprt.model()).ok()?).ok()?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut sum, mut n) = (0.0, 0usize);
    for _ in 0..runs {
        if let Some(e) = naive_elo(sprt.model(), walk.run(&mut rng).counts) {
            sum += e;
            n += 1;
        }
    }
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_pass_is_corrected_downwards_and_a_quick_fail_upwards() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        // Well above elo1 after few pairs: the test stopped on luck.
        let lucky = Pentanomial::from_fishtest([20, 150, 420, 200, 30]);
        let e = stopped_elo(&sprt, &lucky, 300, 1).unwrap();
        assert!(e.corrected < e.naive, "{e:?}");
        let unlucky = lucky.reversed();
        let f = stopped_elo(&sprt, &unlucky, 300, 1).unwrap();
        assert!(f.corrected > f.naive, "{f:?}");
        assert!(stopped_elo(&sprt, &Pentanomial::from_fishtest([0, 0, 0, 0, 9]), 300, 1).is_none());
    }
}
