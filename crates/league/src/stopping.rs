//! When a league has learnt what it was asked: every pair of neighbours in
//! the table (of the part the focus covers) either separated at the
//! configured confidence or shown to be within the tie margin.
//!
//! Separation is the likelihood of superiority of the upper neighbour,
//! `Phi(d / sigma)` for a difference `d` with standard error `sigma` from
//! the refit's covariance, at least the confidence. A tie is the two
//! one-sided tests of equivalence (Schuirmann's TOST): both
//! `d - z sigma > -margin` and `d + z sigma < margin`, with `z` the
//! confidence's normal quantile, so a pair is only called a tie when the
//! games show it cannot be more than the margin apart, never merely
//! because it is close. A pair with neither verdict is open, and an open
//! pair is where the next games go.

use aboure_stats::elo::normal_cdf;

use crate::focus::Focus;
use crate::intervals::Intervals;
use crate::table::Table;

/// What the games say about two neighbours in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The upper neighbour is stronger, at the confidence.
    Separated,
    /// They are within the tie margin of each other, at the confidence.
    WithinMargin,
    /// Neither yet.
    Open,
}

/// Two neighbours in the table and what is known of their order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbours {
    /// Their places in the table (0 the top), the lower one is `rank + 1`.
    pub rank: usize,
    /// The entrant at `rank`.
    pub upper: usize,
    /// The entrant at `rank + 1`.
    pub lower: usize,
    /// Rating difference (upper minus lower), the table's scale.
    pub difference: f64,
    /// Its standard error.
    pub error: f64,
    /// Probability the upper entrant is the stronger.
    pub los: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// How sure a league must be before it stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// One-sided confidence of each verdict (for example 0.95).
    pub confidence: f64,
    /// Neighbours closer than this (Elo, the table's scale) may be a tie.
    pub tie_margin: f64,
    /// Fixed-sample intervals, or anytime ones that stay honest when the
    /// league stops on them ([`crate::intervals`]).
    pub intervals: Intervals,
}

impl Separation {
    /// Fixed-sample verdicts at `confidence`, no tie margin.
    pub fn at(confidence: f64) -> Separation {
        Separation {
            confidence,
            tie_margin: 0.0,
            intervals: Intervals::FixedSample,
        }
    }
}

impl Separation {
    /// The verdict on every neighbour pair the focus covers, from the top.
    pub fn neighbours(&self, table: &Table, focus: Focus) -> Vec<Neighbours> {
        let order = &table.order;
        let covered = focus.boundaries(order.len());
        (0..covered)
            .map(|rank| {
                let (upper, lower) = (order[rank], order[rank + 1]);
                let difference = table.ratings.ratings[upper] - table.ratings.ratings[lower];
                let error = table.difference_variance(upper, lower).sqrt();
                let los = if error > 0.0 {
                    normal_cdf(difference / error)
                } else {
                    0.5
                };
                let verdict = self.verdict(difference, error, los);
                Neighbours {
                    rank,
                    upper,
                    lower,
                    difference,
                    error,
                    los,
                    verdict,
                }
            })
            .collect()
    }

    fn verdict(&self, difference: f64, error: f64, los: f64) -> Verdict {
        if error.is_nan() || error <= 0.0 {
            return Verdict::Open;
        }
        let z = self.intervals.one_sided(1.0 - self.confidence, error);
        let separated = match self.intervals {
            // The LOS is `Phi(d / sigma)`: the same test, kept in its form.
            Intervals::FixedSample => los >= self.confidence,
            Intervals::Anytime => difference > z * error,
        };
        if separated {
            Verdict::Separated
        } else if difference.abs() + z * error < self.tie_margin {
            Verdict::WithinMargin
        } else {
            Verdict::Open
        }
    }
}

/// True when every verdict is in: the league may stop.
pub fn settled(neighbours: &[Neighbours]) -> bool {
    neighbours.iter().all(|n| n.verdict != Verdict::Open)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_the_confidence_and_the_margin() {
        let s = Separation {
            tie_margin: 10.0,
            ..Separation::at(0.95)
        };
        let v = |d: f64, e: f64| s.verdict(d, e, normal_cdf(d / e));
        assert_eq!(v(20.0, 10.0), Verdict::Separated); // z = 2 > 1.645
        assert_eq!(v(15.0, 10.0), Verdict::Open); // z = 1.5
        assert_eq!(v(2.0, 4.0), Verdict::WithinMargin); // 2 + 6.6 < 10
        assert_eq!(v(2.0, 6.0), Verdict::Open); // 2 + 9.9 > 10
        assert_eq!(v(0.0, 0.0), Verdict::Open);
    }

    #[test]
    fn anytime_verdicts_need_the_wider_boundary() {
        let s = Separation {
            intervals: Intervals::Anytime,
            tie_margin: 30.0,
            ..Separation::at(0.95)
        };
        let v = |d: f64, e: f64| s.verdict(d, e, normal_cdf(d / e));
        // At sigma = 25 the boundary is 3.66 sigma (2 ln 20 + ln 2).
        assert_eq!(v(60.0, 25.0), Verdict::Open); // 2.4 sigma: fixed would separate
        assert_eq!(v(95.0, 25.0), Verdict::Separated); // 3.8 sigma
        assert_eq!(v(1.0, 4.0), Verdict::WithinMargin); // 1 + 4 x 3.15 < 30
        assert_eq!(v(1.0, 10.0), Verdict::Open); // 1 + 10 x 3.04 > 30
    }
}
