//! Intervals from a bootstrap over game pairs.
//!
//! The covariance and the profile likelihood both assume the games are
//! independent; the two games of a pair are not (they share an opening).
//! The bootstrap assumes only that pairs are: it resamples the pairs
//! whole, with replacement ([`PairedResults::resample`], exact and flat in
//! the number of games; games in no pair singly), redoes the full fit on
//! each resample (draw and first-move parameters included, warm-started
//! from the point estimate), and reports the 2.5% and 97.5% percentiles of
//! each rating over the resamples. On the small simulated fields of
//! [`crate::coverage`] (30 games a bot) these percentile intervals cover
//! the truth less often than they claim, 87% to 93% against the
//! covariance's 94% to 97% (`aboure bench coverage`); on a million games
//! they agree with the covariance's within 0.1 Elo.
//!
//! A resample in which some group of players conceded no point to the rest
//! has no finite ratings; its ratings are infinite, as the fit's limit is:
//! that group's players `+inf`; with ratings centred on the mean every
//! other player `-inf` (the mean goes up with the group); with anchors,
//! groups wholly above or below the anchors' groups `+inf` or `-inf`, and
//! players in an anchor's group have no value in that resample (counted in
//! [`Bootstrap::unrated`]). When more than 2.5% of the resamples put a
//! rating at `+inf`, its interval has no upper end: a bot that rarely loses
//! a pair gets an interval open at the top, not a finite made-up bound. A
//! refit that fails otherwise (a parameter off to infinity) gives no value
//! for anyone and is counted too.
//!
//! Each resample draws from its own generator, seeded by the seed and the
//! resample's number, so the intervals do not depend on the threads.

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;

use super::paired::PairedResults;
use super::point::{condense, fit_params, fit_point, placed, Held, PointFit};
use super::profile::Bounds;
use super::resolve_anchors;
use super::{Anchor, BradleyTerryOptions, LooseAnchor, RatingError, Ratings};
use crate::wdl::Wdl;

/// Resamples the report takes by default: the 2.5% and 97.5% percentiles
/// then each rest on the 25 most extreme resamples.
pub const DEFAULT_BOOTSTRAP_SAMPLES: usize = 1_000;

/// How to bootstrap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BootstrapOptions {
    /// Resamples drawn.
    pub samples: usize,
    /// Seed of the resamples (the same seed gives the same intervals).
    pub seed: u64,
    /// Threads refitting (0: one per core); the result does not depend on it.
    pub threads: usize,
}

impl Default for BootstrapOptions {
    fn default() -> Self {
        BootstrapOptions {
            samples: DEFAULT_BOOTSTRAP_SAMPLES,
            seed: 0,
            threads: 0,
        }
    }
}

/// Percentile intervals of the ratings over the resamples.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bootstrap {
    /// Each player's 95% interval, absolute ratings in the reported scale
    /// (`None`: that end is unbounded).
    pub bounds: Vec<Bounds>,
    /// Resamples drawn.
    pub samples: usize,
    /// For each player, resamples in which its rating was `+inf` (its
    /// group conceded no point to the rest).
    pub above: Vec<usize>,
    /// For each player, resamples in which its rating was `-inf`.
    pub below: Vec<usize>,
    /// For each player, resamples that gave it no value (see the module
    /// docs); its percentiles are over the others.
    pub unrated: Vec<usize>,
}

/// Fits ratings to `results` as [`super::fit_counts_loosely_anchored`]
/// does, and bootstraps their intervals over game pairs (loose anchors'
/// priors stay as they are; the games are resampled).
pub fn bootstrap(
    results: &PairedResults,
    options: &BradleyTerryOptions,
    (fixed, loose): (&[(usize, f64)], &[LooseAnchor]),
    settings: &BootstrapOptions,
) -> Result<(Ratings, Bootstrap), RatingError> {
    let n = results.players();
    if settings.samples == 0 {
        return Err(RatingError::InvalidOption(
            "a bootstrap needs at least one resample".to_owned(),
        ));
    }
    let (options, held) = resolve_anchors(n, options, fixed, loose)?;
    let point = fit_point(n, &results.by_colour(), &options, &held)?;
    let threads = match settings.threads {
        0 => std::thread::available_parallelism().map_or(1, |t| t.get()),
        t => t,
    };
    let mut values = vec![Vec::new(); settings.samples];
    // Nearby seeds give unrelated resamples.
    let base = crate::splitmix(settings.seed);
    std::thread::scope(|scope| {
        let per = settings.samples.div_ceil(threads).max(1);
        for (c, chunk) in values.chunks_mut(per).enumerate() {
            let (point, options, held) = (&point, &options, &held);
            scope.spawn(move || {
                for (k, slot) in chunk.iter_mut().enumerate() {
                    let index = (c * per + k) as u64;
                    let mut rng = SmallRng::seed_from_u64(base.wrapping_add(index));
                    let counts = results.resample(&mut rng);
                    *slot = refit(n, &counts, options, held, point);
                }
            });
        }
    });
    let summary = percentiles(n, &values);
    Ok((point.ratings, summary))
}

/// One resample's ratings (`NaN`: no value for that player).
fn refit(
    n: usize,
    counts: &[Wdl],
    options: &BradleyTerryOptions,
    held: &Held,
    point: &PointFit,
) -> Vec<f64> {
    match condense(n, counts, options) {
        Ok((c, _)) => {
            let pinned = point.pinned.as_deref();
            match fit_params(&c, options, held, pinned, Some(&point.params)) {
                Ok((p, _)) => placed(&p, options, pinned.is_some()).0,
                Err(_) => vec![f64::NAN; n],
            }
        }
        Err(RatingError::Unbounded { groups }) => limit(n, &groups, options.anchor, held),
        Err(_) => vec![f64::NAN; n],
    }
}

/// The ratings' limit when `groups` (strongest first: none scored against
/// an earlier one) are infinitely apart: see the module docs.
fn limit(n: usize, groups: &[Vec<usize>], anchor: Anchor, held: &Held) -> Vec<f64> {
    let mut level = vec![0; n];
    for (g, members) in groups.iter().enumerate() {
        for &p in members {
            level[p] = g;
        }
    }
    let held: Vec<usize> = match anchor {
        Anchor::Player { player, .. } if held.pins(n).is_none() => vec![player],
        _ => (held.fixed.iter().map(|a| a.0))
            .chain(held.loose.iter().map(|a| a.player))
            .collect(),
    };
    if held.is_empty() {
        // Centred on the mean: the top group above, the mean with it.
        return (0..n)
            .map(|i| match level[i] {
                0 => f64::INFINITY,
                _ => f64::NEG_INFINITY,
            })
            .collect();
    }
    let top = held.iter().map(|&a| level[a]).min().unwrap_or(0);
    let bottom = held.iter().map(|&a| level[a]).max().unwrap_or(0);
    (0..n)
        .map(|i| {
            if level[i] < top {
                f64::INFINITY
            } else if level[i] > bottom {
                f64::NEG_INFINITY
            } else {
                f64::NAN
            }
        })
        .collect()
}

/// 2.5% and 97.5% percentiles of each player's values (linear between
/// order statistics); an end at an infinite value is unbounded.
fn percentiles(n: usize, values: &[Vec<f64>]) -> Bootstrap {
    let mut out = Bootstrap {
        bounds: Vec::with_capacity(n),
        samples: values.len(),
        above: vec![0; n],
        below: vec![0; n],
        unrated: vec![0; n],
    };
    for i in 0..n {
        let mut x: Vec<f64> = values.iter().map(|v| v[i]).collect();
        out.unrated[i] = x.iter().filter(|v| v.is_nan()).count();
        out.above[i] = x.iter().filter(|&&v| v == f64::INFINITY).count();
        out.below[i] = x.iter().filter(|&&v| v == f64::NEG_INFINITY).count();
        x.retain(|v| !v.is_nan());
        x.sort_by(f64::total_cmp);
        out.bounds.push((quantile(&x, 0.025), quantile(&x, 0.975)));
    }
    out
}

/// The `q` quantile of sorted `x`, `None` when it is not finite.
fn quantile(x: &[f64], q: f64) -> Option<f64> {
    let last = x.len().checked_sub(1)?;
    let h = q * last as f64;
    let (lo, frac) = (h.floor() as usize, h - h.floor());
    let hi = (lo + 1).min(last);
    let v = if frac == 0.0 {
        x[lo]
    } else {
        x[lo] + frac * (x[hi] - x[lo])
    };
    v.is_finite().then_some(v)
}
