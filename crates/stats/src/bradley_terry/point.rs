//! The point fit: the results condensed and checked, the parameters
//! fitted by MM (with fixed anchors held), and the ratings placed on the
//! reported scale. Apart from the public entry points because the
//! bootstrap refits resamples with the same pieces, from the point
//! estimate.

use super::error::{check_options, check_parameters};
use super::intervals::{covariance, Intervals};
use super::profile::Profiled;
use super::{Anchor, BradleyTerryOptions, LooseAnchor, RatingError, RatingScale, Ratings};
use crate::elo::bayeselo_scale;
use crate::graph::{components, strong_components};
use crate::mm::{
    log_likelihood, tilted_minorization_maximization, Condensed, Gammas, LogPrior, MmVariant,
};
use crate::wdl::Wdl;

/// A point fit and what a refit of resampled results starts from.
pub(crate) struct PointFit {
    pub ratings: Ratings,
    /// The fitted parameters.
    pub params: Gammas,
    /// Which players are held at their anchors' ratings (several anchors).
    pub pinned: Option<Vec<bool>>,
}

/// The results condensed for the fit, each player's record, after the
/// checks that refuse ratings that do not exist.
pub(crate) fn condense(
    n: usize,
    counts: &[Wdl],
    options: &BradleyTerryOptions,
) -> Result<(Condensed, Vec<Wdl>), RatingError> {
    let mut c = Condensed::new(n);
    let mut records = vec![Wdl::default(); n];
    for first in 0..n {
        for second in (0..n).filter(|&s| s != first) {
            let k = first * n + second;
            let Some(&r) = counts.get(k) else { continue };
            c.w[k] = r.wins as f64;
            c.d[k] = r.draws as f64;
            c.l[k] = r.losses as f64;
            records[first] += r;
            records[second] += r.reversed();
        }
    }

    let idle: Vec<usize> = (0..n).filter(|&i| records[i].games() == 0).collect();
    if !idle.is_empty() {
        return Err(RatingError::NoGames { players: idle });
    }
    let groups = components(n, |i, j| c.games(i, j) > 0.0);
    if groups.len() > 1 {
        return Err(RatingError::Disconnected { groups });
    }
    if let Some(prior) = options.prior {
        c.add_prior(prior);
    }
    // i -> j when i scored against j (won or drew, either colour).
    let scored = |i: usize, j: usize| {
        let (ij, ji) = (i * n + j, j * n + i);
        c.w[ij] + c.d[ij] + c.l[ji] + c.d[ji] > 0.0
    };
    let strong = strong_components(n, scored);
    if strong.len() > 1 {
        return Err(RatingError::Unbounded { groups: strong });
    }
    check_parameters(&c, options)?;
    c.index_opponents();
    Ok((c, records))
}

/// The draw and advantage thetas the options hold fixed (`None`: fitted).
pub(crate) fn fixed_thetas(options: &BradleyTerryOptions) -> (Option<f64>, Option<f64>) {
    let fixed = |fit: bool, elo: f64| (!fit).then(|| 10f64.powf(elo / 400.0));
    (
        fixed(options.fit_advantage, options.advantage),
        fixed(options.fit_draw_elo, options.draw_elo),
    )
}

/// The anchors a fit holds: fixed ones (players pinned at a rating) and
/// loose ones (a normal prior on a player's rating).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Held<'a> {
    pub fixed: &'a [(usize, f64)],
    pub loose: &'a [LooseAnchor],
}

impl Held<'_> {
    /// Which players are pinned, when ratings are absolute (any anchor
    /// held this way).
    pub fn pins(&self, n: usize) -> Option<Vec<bool>> {
        (!self.fixed.is_empty() || !self.loose.is_empty()).then(|| {
            (0..n)
                .map(|i| self.fixed.iter().any(|a| a.0 == i))
                .collect()
        })
    }

    /// The loose anchors as priors on `ln gamma`, for reported ratings
    /// `scale * 400 log10(gamma)`.
    fn priors(&self, n: usize, scale: f64) -> Vec<Option<LogPrior>> {
        let k = scale * 400.0 / std::f64::consts::LN_10;
        let mut out = vec![None; n];
        for a in self.loose {
            out[a.player] = Some(LogPrior {
                mean: a.rating / k,
                precision: (k / a.sd).powi(2),
            });
        }
        out
    }

    /// The loose anchors' precision on each raw rating (0 for none).
    pub fn raw_precision(&self, n: usize, scale: f64) -> Vec<f64> {
        let mut out = vec![0.0; n];
        for a in self.loose {
            out[a.player] = (scale / a.sd).powi(2);
        }
        out
    }
}

/// Fits the parameters of condensed results, from `start` (else all ones),
/// with the anchors `held` (pinned: `pinned` says which).
pub(crate) fn fit_params(
    c: &Condensed,
    options: &BradleyTerryOptions,
    held: &Held,
    pinned: Option<&[bool]>,
    start: Option<&Gammas>,
) -> Result<(Gammas, usize), RatingError> {
    let (fixed_w, fixed_d) = fixed_thetas(options);
    let run = tilted_minorization_maximization(
        c,
        fixed_w,
        fixed_d,
        options.tolerance,
        options.max_iterations,
        &MmVariant {
            start,
            ..MmVariant::default()
        },
    );
    if !run.converged {
        return Err(RatingError::NoConvergence {
            iterations: run.iterations,
        });
    }
    let p = match pinned {
        None => run.params,
        Some(pins) => pin(c, run.params, held, pins, options, (fixed_w, fixed_d))?,
    };
    let advantage = 400.0 * p.theta_w.log10();
    let draw_elo = 400.0 * p.theta_d.log10();
    // Guards against parameters drifting away in cases the checks above
    // do not foresee (the likelihood then has no maximum).
    if advantage.is_nan() || advantage.abs() >= 4000.0 {
        return Err(RatingError::ParameterUnbounded {
            parameter: "advantage",
        });
    }
    if draw_elo.is_nan() || draw_elo >= 4000.0 {
        return Err(RatingError::ParameterUnbounded {
            parameter: "draw_elo",
        });
    }
    Ok((p, run.iterations))
}

/// Reported ratings of fitted parameters: `scale * (raw - reference) +
/// offset`, and that scale and offset.
pub(crate) fn placed(
    p: &Gammas,
    options: &BradleyTerryOptions,
    pinned: bool,
) -> (Vec<f64>, f64, f64) {
    let n = p.gamma.len();
    let raw: Vec<f64> = p.gamma.iter().map(|g| 400.0 * g.log10()).collect();
    let scale = match options.scale {
        RatingScale::BayesElo => bayeselo_scale(400.0 * p.theta_d.log10()),
        RatingScale::Raw => 1.0,
    };
    let (reference, offset) = match (options.anchor, pinned) {
        (_, true) => (0.0, 0.0),
        (Anchor::Mean, false) => (raw.iter().sum::<f64>() / n as f64, 0.0),
        (Anchor::Player { player, rating }, false) => (raw[player], rating),
    };
    let ratings = raw
        .iter()
        .map(|r| scale * (r - reference) + offset)
        .collect();
    (ratings, scale, offset)
}

pub(crate) fn fit_point(
    players: usize,
    counts: &[Wdl],
    options: &BradleyTerryOptions,
    held: &Held,
) -> Result<PointFit, RatingError> {
    let n = players;
    if n < 2 {
        return Err(RatingError::TooFewPlayers { players: n });
    }
    check_options(n, options)?;
    let (c, records) = condense(n, counts, options)?;
    if options.profile && !held.loose.is_empty() {
        return Err(RatingError::InvalidOption(
            "the profile likelihood does not take loose anchors (their prior is no likelihood); use the covariance or the bootstrap".to_owned(),
        ));
    }
    let pinned = held.pins(n);
    let (p, iterations) = fit_params(&c, options, held, pinned.as_deref(), None)?;
    let (fixed_w, fixed_d) = fixed_thetas(options);
    let advantage = 400.0 * p.theta_w.log10();
    let draw_elo = 400.0 * p.theta_d.log10();
    let (ratings, scale, offset) = placed(&p, options, pinned.is_some());

    let profile = options.profile.then(|| {
        Profiled {
            c: &c,
            fitted: &p,
            fixed_w,
            fixed_d,
            anchor: options.anchor,
            scale,
            offset,
            max_iterations: options.max_iterations,
            pinned: pinned.as_deref(),
        }
        .intervals()
    });
    let prior = held.raw_precision(n, scale);
    let cov = covariance(&c, &p, options.anchor, pinned.as_deref(), &prior)
        .ok_or(RatingError::NoConvergence { iterations })?;
    let Intervals {
        covariance,
        errors,
        los,
    } = Intervals::new(cov, scale, &ratings);

    let ratings = Ratings {
        ratings,
        errors,
        covariance,
        los,
        records,
        advantage,
        draw_elo,
        scale,
        log_likelihood: log_likelihood(&c, &p),
        iterations,
        profile,
    };
    Ok(PointFit {
        ratings,
        params: p,
        pinned,
    })
}

/// Refits with the fixed anchors' gammas held at their ratings and the
/// loose anchors' priors on. In BayesElo's scale the factor from raw
/// ratings depends on the fitted draw parameter, so the held gammas and
/// the priors are set again from each fit's factor until it settles (a
/// few rounds: the factor hardly moves).
fn pin(
    c: &Condensed,
    mut params: Gammas,
    held: &Held,
    pins: &[bool],
    options: &BradleyTerryOptions,
    (fixed_w, fixed_d): (Option<f64>, Option<f64>),
) -> Result<Gammas, RatingError> {
    let scale_of = |p: &Gammas| match options.scale {
        RatingScale::BayesElo => bayeselo_scale(400.0 * p.theta_d.log10()),
        RatingScale::Raw => 1.0,
    };
    let mut scale = scale_of(&params);
    for _ in 0..50 {
        for &(a, rating) in held.fixed {
            params.gamma[a] = 10f64.powf(rating / scale / 400.0);
        }
        let priors = held.priors(c.n, scale);
        let run = tilted_minorization_maximization(
            c,
            fixed_w,
            fixed_d,
            options.tolerance,
            options.max_iterations,
            &MmVariant {
                start: Some(&params),
                pinned: Some(pins),
                prior: Some(&priors),
                ..MmVariant::default()
            },
        );
        if !run.converged {
            return Err(RatingError::NoConvergence {
                iterations: run.iterations,
            });
        }
        params = run.params;
        let next = scale_of(&params);
        if (next - scale).abs() <= 1e-14 {
            break;
        }
        scale = next;
    }
    Ok(params)
}
