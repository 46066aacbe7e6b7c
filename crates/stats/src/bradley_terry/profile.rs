//! Intervals from the profile likelihood: honest where the covariance is
//! not.
//!
//! The covariance interval is `rating +/- 1.96 sd`, symmetric, from the
//! curvature of the log-likelihood at its maximum: right when the
//! likelihood is near a parabola (many games, scores far from 0% and
//! 100%), wrong for a bot that almost never loses (its likelihood is flat
//! upwards: the truth may be far above) or one with a handful of games.
//! The profile likelihood interval is the set of ratings `r` whose best fit
//! with the rating held at `r` (every other parameter, draw and advantage
//! included, refitted) is within `1.96^2 / 2` of the maximum
//! log-likelihood: Wilks's theorem gives it 95% coverage without assuming
//! a parabola, and it is as asymmetric as the evidence.
//!
//! Holding a rating (relative to the anchoring: the mean, or the anchored
//! player) at a value is a linear constraint, which MM cannot take
//! directly; its Lagrangian can: maximizing the log-likelihood plus
//! `lambda` times the rating (MM with tilted wins, see
//! `mm::tilted_minorization_maximization`) gives, for each `lambda`, a
//! point of the profile curve. The ends are the `lambda` where the
//! deviance reaches `1.96^2`, found by doubling then bisection. An end
//! no `lambda` reaches (the likelihood never falls that far) is unbounded.

use super::Anchor;
use crate::elo::Z95;
use crate::mm::{log_likelihood, tilted_minorization_maximization, Condensed, Gammas, MmVariant};

/// One rating's 95% interval; `None` for an unbounded end.
pub type Bounds = (Option<f64>, Option<f64>);

/// The fit being profiled.
pub(super) struct Profiled<'a> {
    pub c: &'a Condensed,
    pub fitted: &'a Gammas,
    /// Fixed thetas (`None`: fitted), as the fit had them.
    pub fixed_w: Option<f64>,
    pub fixed_d: Option<f64>,
    pub anchor: Anchor,
    /// Reported rating = `scale * (raw rating - reference) + offset`.
    pub scale: f64,
    pub offset: f64,
    pub max_iterations: usize,
    /// Fixed anchors: these players' ratings are held, the others' are
    /// absolute.
    pub pinned: Option<&'a [bool]>,
}

/// Largest tilt tried, in virtual wins: far beyond any real field.
const LAMBDA_MOST: f64 = 1e9;

/// Precision of the profile fits: far below the deviance's resolution.
const TOLERANCE: f64 = 1e-9;

impl Profiled<'_> {
    /// Each player's profile likelihood interval, in the reported scale.
    pub(super) fn intervals(&self) -> Vec<Bounds> {
        let n = self.c.n;
        let best = log_likelihood(self.c, self.fitted);
        (0..n)
            .map(|i| {
                let weights = self.weights(i);
                if weights.iter().all(|&w| w == 0.0) {
                    // An anchored player: its rating is fixed.
                    let held = self.held(i);
                    return (Some(held), Some(held));
                }
                (
                    self.end(&weights, best, -1.0),
                    self.end(&weights, best, 1.0),
                )
            })
            .collect()
    }

    /// The rating of an anchored player.
    fn held(&self, i: usize) -> f64 {
        match self.pinned {
            Some(_) => self.scale * 400.0 * self.fitted.gamma[i].log10(),
            None => self.offset,
        }
    }

    /// The rating's weights on the raw ratings: itself less the reference.
    fn weights(&self, i: usize) -> Vec<f64> {
        let n = self.c.n;
        let mut w = vec![0.0; n];
        if let Some(pinned) = self.pinned {
            // Ratings are absolute: the rating itself, unless held.
            if !pinned[i] {
                w[i] = 1.0;
            }
            return w;
        }
        match self.anchor {
            Anchor::Mean => {
                w.iter_mut().for_each(|x| *x = -1.0 / n as f64);
                w[i] += 1.0;
            }
            Anchor::Player { player, .. } => {
                w[i] += 1.0;
                w[player] -= 1.0;
            }
        }
        w
    }

    /// The fit tilted by `lambda`: its deviance from the best and its
    /// rating (reported scale); `None` if it does not converge.
    fn tilted(&self, weights: &[f64], lambda: f64, best: f64) -> Option<(f64, f64)> {
        let tilt: Vec<f64> = weights.iter().map(|w| lambda * w).collect();
        let run = tilted_minorization_maximization(
            self.c,
            self.fixed_w,
            self.fixed_d,
            TOLERANCE,
            self.max_iterations,
            &MmVariant {
                tilt: Some(&tilt),
                start: Some(self.fitted),
                pinned: self.pinned,
                prior: None,
            },
        );
        if !run.converged {
            return None;
        }
        let raw: f64 = (run.params.gamma.iter())
            .zip(weights)
            .map(|(g, w)| w * 400.0 * g.log10())
            .sum();
        let deviance = 2.0 * (best - log_likelihood(self.c, &run.params));
        deviance
            .is_finite()
            .then_some((deviance, self.scale * raw + self.offset))
    }

    /// The end on `side` (-1 lower, +1 upper). Past some tilt the tilted
    /// fit has no maximum (the tilt outweighs a player's results): the
    /// profile's slope never gets that steep, so if the deviance has not
    /// reached the target below that tilt, it never does, and the end is
    /// unbounded.
    fn end(&self, weights: &[f64], best: f64, side: f64) -> Option<f64> {
        let target = Z95 * Z95;
        let (mut inside, mut lambda) = (0.0, 0.5);
        // Double until the deviance passes the target, or the fit fails.
        let (mut outside, mut found) = loop {
            match self.tilted(weights, side * lambda, best) {
                Some((d, r)) if d >= target => break (lambda, Some(r)),
                Some(_) if lambda < LAMBDA_MOST => {
                    inside = lambda;
                    lambda *= 2.0;
                }
                Some(_) => return None,
                None => break (lambda, None),
            }
        };
        for _ in 0..60 {
            if found.is_some() && outside - inside <= 1e-4 * outside {
                break;
            }
            let mid = 0.5 * (inside + outside);
            match self.tilted(weights, side * mid, best) {
                Some((d, _)) if d < target => inside = mid,
                Some((_, r)) => {
                    outside = mid;
                    found = Some(r);
                }
                // No maximum: the answer, if any, is below.
                None if found.is_none() => outside = mid,
                None => inside = mid,
            }
        }
        found
    }
}
