//! Ratings for many players: Bradley-Terry fitted as BayesElo does it.
//!
//! Head-to-head figures cannot rank more than two bots consistently; a
//! Bradley-Terry model gives every player one number such that differences
//! predict results. This is Rémi Coulom's BayesElo model: with
//! `g_i = 10^(r_i/400)`, `tw = 10^(advantage/400)`, `td = 10^(draw_elo/400)`,
//! the first player `i` beats `j` with probability `tw g_i / (tw g_i + td g_j)`,
//! loses with probability `g_j / (td tw g_i + g_j)` and draws otherwise. It is
//! fitted by maximum likelihood with his minorization-maximization algorithm,
//! like BayesElo's `mm 1 1` (the advantage and the draw parameter fitted too).
//!
//! Differences from BayesElo's defaults, on purpose: no prior unless asked
//! (BayesElo adds 2 virtual draws per player; [`BradleyTerryOptions::prior`]
//! does the same when set), and intervals from the full covariance
//! (BayesElo's `covariance` command) rather than the diagonal of the Hessian.
//! Ratings are reported in BayesElo's printed scale by default (it multiplies
//! by `4x / (1 + x)^2`, `x = 10^(-draw_elo/400)`, after `mm`), or raw.
//!
//! Ratings that do not exist are refused with a reason: players with no
//! games, groups of players with no chain of games between them, groups that
//! scored every point (or none) against the others, and a draw parameter or
//! advantage that runs off to infinity.

use serde::Serialize;

use crate::elo::bayeselo_scale;
use crate::graph::{components, strong_components};
use crate::mm::{
    log_likelihood, minorization_maximization, tilted_minorization_maximization, Condensed, Gammas,
    MmVariant,
};
use crate::result::PlayerResult;
use crate::wdl::Wdl;

mod diagnostics;
mod error;
mod intervals;
mod profile;

pub use diagnostics::{cycles, goodness_of_fit, Cycle, FitTest, PairingResidual, CYCLE_LOS};

pub use error::RatingError;
use error::{check_options, check_parameters};
use intervals::{covariance, Intervals};
pub use profile::Bounds;
use profile::Profiled;

/// BayesElo's stopping rule for `mm` (its `Epsilon` default). The default
/// tolerance here is far tighter, so that the fit is the maximum itself;
/// BayesElo's printed ratings are within a few hundredths of an Elo of it.
pub const BAYESELO_TOLERANCE: f64 = 1e-5;

/// One game between two players, given by their indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Game {
    /// The player who moved first (South).
    pub first: usize,
    /// The player who moved second (North).
    pub second: usize,
    /// The result from the first player's view.
    pub result: PlayerResult,
}

impl Game {
    /// A game between `first` and `second` with `result` from `first`'s view.
    pub fn new(first: usize, second: usize, result: PlayerResult) -> Game {
        Game {
            first,
            second,
            result,
        }
    }
}

/// The scale ratings are reported in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingScale {
    /// As BayesElo prints them after `mm`: raw ratings times
    /// [`crate::elo::bayeselo_scale`] of the fitted draw parameter, which
    /// makes small differences comparable to logistic Elo.
    #[default]
    BayesElo,
    /// BayesElo's model scale, `400 log10(gamma)`.
    Raw,
}

/// Where the ratings are pinned (the model only fixes differences).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Anchor {
    /// Mean rating 0, as BayesElo before its offset.
    #[default]
    Mean,
    /// The given player has the given rating (its interval is then zero and
    /// the others' intervals are relative to it).
    Player {
        /// The anchored player's index.
        player: usize,
        /// Its rating.
        rating: f64,
    },
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BradleyTerryOptions {
    /// Fit the first-move advantage (else use [`Self::advantage`]).
    pub fit_advantage: bool,
    /// Fit the draw parameter (else use [`Self::draw_elo`]).
    pub fit_draw_elo: bool,
    /// The advantage when not fitted, in BayesElo's raw scale (BayesElo: 0).
    pub advantage: f64,
    /// The draw parameter when not fitted (BayesElo: 97.3).
    pub draw_elo: f64,
    /// Virtual draws per player, spread as BayesElo's `prior` command does
    /// (BayesElo's default is 2). `None`: pure maximum likelihood.
    pub prior: Option<f64>,
    /// Where the ratings are pinned.
    pub anchor: Anchor,
    /// The scale of reported ratings and intervals.
    pub scale: RatingScale,
    /// Stop when no gamma changes by more than this relative amount
    /// (`|g - g'| / (g + g')`) and no theta by more than this amount in one
    /// iteration (BayesElo: [`BAYESELO_TOLERANCE`]).
    pub tolerance: f64,
    /// Give up after this many iterations (BayesElo: 10000). Well-posed
    /// fits take tens to a few hundred; running out usually means the
    /// maximum does not exist (see [`RatingError::NoConvergence`]).
    pub max_iterations: usize,
    /// Also compute each rating's profile likelihood interval
    /// ([`Ratings::profile`]): honest near 0% or 100% scores and on few
    /// games, at the cost of about a hundred refits per player.
    pub profile: bool,
}

impl Default for BradleyTerryOptions {
    /// BayesElo's `mm 1 1` without prior, centred on 0, printed scale.
    fn default() -> Self {
        BradleyTerryOptions {
            fit_advantage: true,
            fit_draw_elo: true,
            advantage: 0.0,
            draw_elo: 97.3,
            prior: None,
            anchor: Anchor::Mean,
            scale: RatingScale::BayesElo,
            tolerance: 1e-12,
            max_iterations: 10_000,
            profile: false,
        }
    }
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// Rating of each player, in the chosen scale and anchoring.
    pub ratings: Vec<f64>,
    /// Half-width of each player's 95% interval (`1.96 sqrt(variance)`),
    /// relative to the anchoring.
    pub errors: Vec<f64>,
    /// Covariance matrix of the ratings (row-major, players x players), in
    /// the reported scale.
    pub covariance: Vec<Vec<f64>>,
    /// `los[i][j]`: likelihood that player `i` is stronger than `j`,
    /// `Phi((r_i - r_j) / sqrt(var_i + var_j - 2 cov_ij))`; 1/2 on the diagonal.
    pub los: Vec<Vec<f64>>,
    /// Each player's own results (all colours, all opponents).
    pub records: Vec<Wdl>,
    /// First-move advantage, BayesElo's raw scale.
    pub advantage: f64,
    /// Draw parameter, BayesElo's raw scale.
    pub draw_elo: f64,
    /// The factor applied to raw ratings (1 for [`RatingScale::Raw`]).
    pub scale: f64,
    /// Log-likelihood of the results (with the prior's virtual draws, if any).
    pub log_likelihood: f64,
    /// MM iterations used.
    pub iterations: usize,
    /// With [`BradleyTerryOptions::profile`], each rating's 95% interval
    /// from the profile likelihood, as absolute `(lower, upper)` ratings
    /// (`None`: that end is unbounded).
    pub profile: Option<Vec<Bounds>>,
}

/// Fits ratings for `players` players (indices `0..players`) from `games`.
pub fn fit(
    players: usize,
    games: &[Game],
    options: &BradleyTerryOptions,
) -> Result<Ratings, RatingError> {
    let n = players;
    if n < 2 {
        return Err(RatingError::TooFewPlayers { players: n });
    }
    let mut counts = vec![Wdl::default(); n * n];
    for (index, g) in games.iter().enumerate() {
        for player in [g.first, g.second] {
            if player >= n {
                return Err(RatingError::PlayerOutOfRange {
                    game: index,
                    player,
                    players: n,
                });
            }
        }
        if g.first == g.second {
            return Err(RatingError::SelfPlay {
                game: index,
                player: g.first,
            });
        }
        counts[g.first * n + g.second].add(g.result);
    }
    fit_counts(n, &counts, options)
}

/// Fits ratings from results condensed by colour: `counts[i * players + j]`
/// holds the games `i` played first against `j`, from `i`'s view. The fit
/// needs nothing else, so a caller can count a million games in a few
/// hundred bytes and fit them as [`fit`] would. The diagonal is ignored.
pub fn fit_counts(
    players: usize,
    counts: &[Wdl],
    options: &BradleyTerryOptions,
) -> Result<Ratings, RatingError> {
    fit_with(players, counts, options, &[])
}

/// As [`fit_counts`], with several fixed anchors: each `(player, rating)`
/// holds that player at that rating (in the reported scale) and the others
/// are fitted around them, as Ordo's multiple anchors
/// ([`BradleyTerryOptions::anchor`] is then ignored). One anchor is
/// [`Anchor::Player`]; none is the options' anchoring.
pub fn fit_counts_anchored(
    players: usize,
    counts: &[Wdl],
    options: &BradleyTerryOptions,
    anchors: &[(usize, f64)],
) -> Result<Ratings, RatingError> {
    match anchors {
        [] => fit_counts(players, counts, options),
        [(player, rating)] => {
            let anchor = Anchor::Player {
                player: *player,
                rating: *rating,
            };
            fit_counts(players, counts, &BradleyTerryOptions { anchor, ..*options })
        }
        _ => {
            for (k, &(player, rating)) in anchors.iter().enumerate() {
                let bad = |what: String| Err(RatingError::InvalidOption(what));
                if player >= players {
                    return bad(format!(
                        "anchor player {player} does not exist ({players} players)"
                    ));
                }
                if !rating.is_finite() {
                    return bad(format!("anchor rating {rating} is not finite"));
                }
                if anchors[..k].iter().any(|a| a.0 == player) {
                    return bad(format!("player {player} is anchored twice"));
                }
            }
            fit_with(players, counts, options, anchors)
        }
    }
}

/// Refits with the anchored players' gammas held at their ratings. In
/// BayesElo's scale the factor from raw ratings depends on the fitted draw
/// parameter, so the held gammas are set again from each fit's factor
/// until it settles (a few rounds: the factor hardly moves).
fn pin(
    c: &Condensed,
    mut params: Gammas,
    anchors: &[(usize, f64)],
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
        for &(a, rating) in anchors {
            params.gamma[a] = 10f64.powf(rating / scale / 400.0);
        }
        let run = tilted_minorization_maximization(
            c,
            fixed_w,
            fixed_d,
            options.tolerance,
            options.max_iterations,
            &MmVariant {
                start: Some(&params),
                pinned: Some(pins),
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

fn fit_with(
    players: usize,
    counts: &[Wdl],
    options: &BradleyTerryOptions,
    anchors: &[(usize, f64)],
) -> Result<Ratings, RatingError> {
    let n = players;
    if n < 2 {
        return Err(RatingError::TooFewPlayers { players: n });
    }
    check_options(n, options)?;
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

    let fixed = |fit: bool, elo: f64| (!fit).then(|| 10f64.powf(elo / 400.0));
    let run = minorization_maximization(
        &c,
        fixed(options.fit_advantage, options.advantage),
        fixed(options.fit_draw_elo, options.draw_elo),
        options.tolerance,
        options.max_iterations,
    );
    if !run.converged {
        return Err(RatingError::NoConvergence {
            iterations: run.iterations,
        });
    }
    let (fixed_w, fixed_d) = (
        fixed(options.fit_advantage, options.advantage),
        fixed(options.fit_draw_elo, options.draw_elo),
    );
    let pinned: Option<Vec<bool>> =
        (!anchors.is_empty()).then(|| (0..n).map(|i| anchors.iter().any(|a| a.0 == i)).collect());
    let p = match &pinned {
        None => run.params,
        Some(pins) => pin(&c, run.params, anchors, pins, options, (fixed_w, fixed_d))?,
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

    let raw: Vec<f64> = p.gamma.iter().map(|g| 400.0 * g.log10()).collect();
    let scale = match options.scale {
        RatingScale::BayesElo => bayeselo_scale(draw_elo),
        RatingScale::Raw => 1.0,
    };
    let (reference, offset) = match (options.anchor, &pinned) {
        (_, Some(_)) => (0.0, 0.0),
        (Anchor::Mean, None) => (raw.iter().sum::<f64>() / n as f64, 0.0),
        (Anchor::Player { player, rating }, None) => (raw[player], rating),
    };
    let ratings: Vec<f64> = raw
        .iter()
        .map(|r| scale * (r - reference) + offset)
        .collect();

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
    let cov = covariance(&c, &p, options.anchor, pinned.as_deref()).ok_or(
        RatingError::NoConvergence {
            iterations: run.iterations,
        },
    )?;
    let Intervals {
        covariance,
        errors,
        los,
    } = Intervals::new(cov, scale, &ratings);

    Ok(Ratings {
        ratings,
        errors,
        covariance,
        los,
        records,
        advantage,
        draw_elo,
        scale,
        log_likelihood: log_likelihood(&c, &p),
        iterations: run.iterations,
        profile,
    })
}
