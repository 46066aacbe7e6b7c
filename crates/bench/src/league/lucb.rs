//! LUCB1 (Kalyanakrishnan, Tewari, Auer and Stone, 2012), the adaptive
//! rival built for exactly the league's top-k question, on score
//! statistics.
//!
//! Each entrant is an arm; sampling an arm plays one game pair against an
//! opponent drawn uniformly from the rest, and the arm's statistic is its
//! mean score per pair (0 to 1). Its expectation is the entrant's worth
//! against the field, the bench's truth ([`super::truth`]), whatever the
//! field, transitive or not: LUCB assumes no model. After one pair per
//! arm, each round takes the current top k by mean, and samples the one
//! of them with the lowest lower bound and the one outside with the
//! highest upper bound; it stops when that lower bound is above that
//! upper bound. The bounds are Hoeffding's with LUCB1's exploration rate
//! `beta(u, t) = sqrt(ln(5 n t^4 / (4 delta)) / (2u))` for an arm with
//! `u` samples at round `t`, which makes the declared set right with
//! probability at least `1 - delta` (here 0.05) on any field. The price of
//! assuming nothing: the bounds are for any distribution on [0, 1], and
//! a pair informs only the arm it was drawn for.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::run::{Outcome, Run};

/// LUCB's error probability.
pub const DELTA: f64 = 0.05;

/// Each arm's pairs and points, and the dice that draw its opponents.
struct Arms {
    sum: Vec<f64>,
    count: Vec<usize>,
    opponents: SmallRng,
}

impl Arms {
    /// One pair for `arm` against an opponent drawn uniformly from the
    /// rest, colours alternating over the arm's pairs.
    fn sample(&mut self, run: &mut Run, arm: usize) {
        let n = self.sum.len();
        let other = (arm + 1 + self.opponents.gen_range(0..n - 1)) % n;
        let points = if self.count[arm].is_multiple_of(2) {
            run.pair(arm, other)
        } else {
            2.0 - run.pair(other, arm)
        };
        self.sum[arm] += points / 2.0;
        self.count[arm] += 1;
    }

    fn mean(&self, a: usize) -> f64 {
        self.sum[a] / self.count[a] as f64
    }

    /// LUCB1's confidence radius of arm `a` at round `t`.
    fn beta(&self, a: usize, t: usize) -> f64 {
        let n = self.sum.len() as f64;
        let rate = (5.0 * n * (t as f64).powi(4) / (4.0 * DELTA)).ln();
        (rate / (2.0 * self.count[a] as f64)).sqrt()
    }
}

/// Plays LUCB1 for the top `k` until it stops or `cap` pairs are played.
pub(super) fn play(run: &mut Run, k: usize, cap: usize, seed: u64) -> Outcome {
    let n = run.truth.len();
    let mut arms = Arms {
        sum: vec![0.0; n],
        count: vec![0; n],
        opponents: SmallRng::seed_from_u64(seed ^ 0x1ac5_b1ac),
    };
    for arm in 0..n {
        arms.sample(run, arm);
    }
    let mut stopped = false;
    let mut declared = Vec::new();
    for t in 1.. {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| arms.mean(b).total_cmp(&arms.mean(a)).then(a.cmp(&b)));
        declared = order[..k].to_vec();
        let lower = |a: usize| arms.mean(a) - arms.beta(a, t);
        let upper = |a: usize| arms.mean(a) + arms.beta(a, t);
        let weakest = order[..k]
            .iter()
            .copied()
            .min_by(|&a, &b| lower(a).total_cmp(&lower(b)));
        let strongest_out = order[k..]
            .iter()
            .copied()
            .max_by(|&a, &b| upper(a).total_cmp(&upper(b)));
        let (Some(h), Some(l)) = (weakest, strongest_out) else {
            stopped = true;
            break;
        };
        if lower(h) > upper(l) {
            stopped = true;
            break;
        }
        if run.pairs.len() + 2 > cap {
            break;
        }
        arms.sample(run, h);
        arms.sample(run, l);
    }
    Outcome {
        games: run.games(),
        stopped,
        declared,
        claims_order: false,
        intervals: None,
    }
}
