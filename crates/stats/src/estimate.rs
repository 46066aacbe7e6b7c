//! Head-to-head estimates with their 95% intervals, as fastchess prints them.
//!
//! fastchess (and fishtest's `get_elo`) take the mean score per game (or per
//! game pair), its standard error from the empirical variance, form the
//! normal-approximation interval `score +/- 1.96 sigma / sqrt(n)` and map
//! both ends through the logistic to Elo; the printed error is half the
//! width of the mapped interval. nElo divides by the standard deviation
//! instead, so its interval is symmetric. This module does exactly that, and
//! says so explicitly when a number does not exist (no games, a perfect
//! score, no variance) instead of printing `inf` or `nan`.

use serde::Serialize;

use crate::elo::{elo_from_score, normal_cdf, NELO_PER_T, Z95};

/// A point estimate with a 95% interval whose ends may be unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95% interval; `None` when it is unbounded (the score
    /// interval reaches 0, or there is no variance to build it from).
    pub lower: Option<f64>,
    /// Upper end of the 95% interval; `None` when unbounded.
    pub upper: Option<f64>,
}

impl Interval {
    /// Half the width of the interval (fastchess's `+/-` figure), when both
    /// ends are bounded.
    pub fn error(&self) -> Option<f64> {
        Some((self.upper? - self.lower?) / 2.0)
    }

    /// Whether `x` lies within the interval (unbounded ends include all).
    pub fn contains(&self, x: f64) -> bool {
        self.lower.into_iter().all(|l| l <= x) && self.upper.into_iter().all(|u| x <= u)
    }
}

/// An Elo-like quantity that may have no finite value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Estimate {
    /// A finite estimate with its interval.
    Finite(Interval),
    /// Every point was scored: the difference is infinite in favour of the player.
    PlusInfinity,
    /// No point was scored: the difference is infinite against the player.
    MinusInfinity,
    /// Nothing can be said (no games, or 0/0 such as nElo with no variance).
    Undefined,
}

impl Estimate {
    /// The finite point estimate, if any.
    pub fn value(&self) -> Option<f64> {
        match self {
            Estimate::Finite(i) => Some(i.value),
            _ => None,
        }
    }

    /// The `+/-` half-width of the 95% interval, if the estimate and both
    /// ends of its interval are finite.
    pub fn error(&self) -> Option<f64> {
        match self {
            Estimate::Finite(i) => i.error(),
            _ => None,
        }
    }

    /// The interval, if the estimate is finite.
    pub fn interval(&self) -> Option<Interval> {
        match self {
            Estimate::Finite(i) => Some(*i),
            _ => None,
        }
    }
}

/// Everything a report says about one pairing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadToHead {
    /// Games played (twice the number of pairs for pentanomial counts).
    pub games: u64,
    /// Mean score per game of the player, `None` without games.
    pub score: Option<f64>,
    /// For W/D/L counts, draws per game. For pentanomial counts, the share
    /// of pairs that scored exactly 1 of 2 (fastchess's figure for pairs).
    pub draw_ratio: Option<f64>,
    /// Logistic Elo difference, positive when the player is stronger.
    pub elo: Estimate,
    /// Normalized Elo difference.
    pub nelo: Estimate,
    /// Likelihood of superiority, `Phi((score - 1/2) / standard error)`;
    /// `None` when there is no variance to compute it from.
    pub los: Option<f64>,
}

/// Builds the estimates from the mean `score` of `samples` independent
/// samples (games or pairs) whose empirical variance is `variance`;
/// `nelo_sigma` is the per-game standard deviation used for nElo.
pub(crate) fn summarize(
    samples: u64,
    score: f64,
    variance: f64,
    nelo_sigma: f64,
) -> (Estimate, Estimate, Option<f64>) {
    if samples == 0 {
        return (Estimate::Undefined, Estimate::Undefined, None);
    }
    // Exact comparisons are safe: a perfect score is computed exactly.
    if score >= 1.0 {
        return (Estimate::PlusInfinity, Estimate::PlusInfinity, None);
    }
    if score <= 0.0 {
        return (Estimate::MinusInfinity, Estimate::MinusInfinity, None);
    }
    let Some(elo) = elo_from_score(score) else {
        return (Estimate::Undefined, Estimate::Undefined, None);
    };
    if variance <= 0.0 {
        // Only possible at score 1/2 (all draws, or all pairs scoring 1 of 2):
        // the point is known, the normal approximation gives no interval.
        let elo = Estimate::Finite(Interval {
            value: elo,
            lower: None,
            upper: None,
        });
        return (elo, Estimate::Undefined, None);
    }
    let standard_error = (variance / samples as f64).sqrt();
    let low = score - Z95 * standard_error;
    let high = score + Z95 * standard_error;
    let elo = Estimate::Finite(Interval {
        value: elo,
        lower: elo_from_score(low),
        upper: elo_from_score(high),
    });
    let nelo_of = |s: f64| (s - 0.5) / nelo_sigma * NELO_PER_T;
    let nelo = Estimate::Finite(Interval {
        value: nelo_of(score),
        lower: Some(nelo_of(low)),
        upper: Some(nelo_of(high)),
    });
    let los = normal_cdf((score - 0.5) / standard_error);
    (elo, nelo, Some(los))
}
