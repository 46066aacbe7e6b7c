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

use std::fmt;

use serde::Serialize;

use crate::elo::{bayeselo_scale, normal_cdf, Z95};
use crate::graph::{components, strong_components};
use crate::linalg::spd_inverse;
use crate::mm::{log_likelihood, minorization_maximization, Condensed, Gammas};
use crate::result::GameResult;
use crate::wdl::Wdl;

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
    pub result: GameResult,
}

impl Game {
    /// A game between `first` and `second` with `result` from `first`'s view.
    pub fn new(first: usize, second: usize, result: GameResult) -> Game {
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
}

/// Why ratings could not be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum RatingError {
    /// Fewer than two players.
    TooFewPlayers {
        /// The number given.
        players: usize,
    },
    /// A game names a player that does not exist.
    PlayerOutOfRange {
        /// Index of the game in the input.
        game: usize,
        /// The offending player index.
        player: usize,
        /// Number of players.
        players: usize,
    },
    /// A game of a player against itself.
    SelfPlay {
        /// Index of the game in the input.
        game: usize,
        /// The player.
        player: usize,
    },
    /// Invalid options (the message says which).
    InvalidOption(String),
    /// Some players played no game at all.
    NoGames {
        /// Those players.
        players: Vec<usize>,
    },
    /// No chain of games links these groups: their ratings are not comparable.
    Disconnected {
        /// The groups.
        groups: Vec<Vec<usize>>,
    },
    /// Some group scored every point against another (it never lost nor
    /// drew against it, directly or through a chain): maximum-likelihood
    /// ratings are infinitely apart. A prior makes them finite.
    Unbounded {
        /// The groups, in an order such that no group ever scored a point
        /// against an earlier one (the first never conceded a point to the others).
        groups: Vec<Vec<usize>>,
    },
    /// A fitted parameter runs off to infinity (e.g. a draw parameter when
    /// every game was drawn, an advantage when the first player never lost).
    ParameterUnbounded {
        /// `"draw_elo"` or `"advantage"`.
        parameter: &'static str,
    },
    /// The iterations did not converge within the limit. Short of a limit
    /// set too low, this means the likelihood has no maximum: ratings, the
    /// draw parameter or the advantage drift slowly towards infinity (as
    /// when a pair's only decisive game was won by the first player, so the
    /// advantage can explain it entirely). Fixing the draw and advantage
    /// parameters and adding a prior always gives finite ratings.
    NoConvergence {
        /// Iterations run.
        iterations: usize,
    },
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::TooFewPlayers { players } => {
                write!(f, "ratings need at least 2 players, got {players}")
            }
            RatingError::PlayerOutOfRange {
                game,
                player,
                players,
            } => write!(
                f,
                "game {game} names player {player}, but there are only {players} players"
            ),
            RatingError::SelfPlay { game, player } => {
                write!(f, "game {game} is player {player} against itself")
            }
            RatingError::InvalidOption(what) => write!(f, "invalid rating option: {what}"),
            RatingError::NoGames { players } => {
                write!(f, "players {players:?} played no game: they cannot be rated")
            }
            RatingError::Disconnected { groups } => write!(
                f,
                "no chain of games links these groups of players, so their ratings are not comparable: {groups:?}"
            ),
            RatingError::Unbounded { groups } => write!(
                f,
                "one group of players scored every point against another, so the ratings are infinitely apart (strongest first): {groups:?}; a prior makes them finite"
            ),
            RatingError::ParameterUnbounded { parameter } => write!(
                f,
                "the {parameter} parameter is infinite on these results (fix it or add a prior)"
            ),
            RatingError::NoConvergence { iterations } => write!(
                f,
                "the rating fit did not converge in {iterations} iterations: on these results the ratings or the draw/advantage parameters drift towards infinity; fix those parameters and add a prior"
            ),
        }
    }
}

impl std::error::Error for RatingError {}

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
    let p = run.params;
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
    let (reference, offset) = match options.anchor {
        Anchor::Mean => (raw.iter().sum::<f64>() / n as f64, 0.0),
        Anchor::Player { player, rating } => (raw[player], rating),
    };
    let ratings: Vec<f64> = raw
        .iter()
        .map(|r| scale * (r - reference) + offset)
        .collect();

    let covariance = covariance(&c, &p, options.anchor).ok_or(RatingError::NoConvergence {
        iterations: run.iterations,
    })?;
    let covariance: Vec<Vec<f64>> = covariance
        .into_iter()
        .map(|row| row.into_iter().map(|x| x * scale * scale).collect())
        .collect();
    let errors = (0..n)
        .map(|i| Z95 * covariance[i][i].max(0.0).sqrt())
        .collect();
    let los = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let var = covariance[i][i] + covariance[j][j] - 2.0 * covariance[i][j];
                    if i == j || var.is_nan() || var <= 0.0 {
                        0.5
                    } else {
                        normal_cdf((ratings[i] - ratings[j]) / var.sqrt())
                    }
                })
                .collect()
        })
        .collect();

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
    })
}

fn check_options(n: usize, o: &BradleyTerryOptions) -> Result<(), RatingError> {
    let bad = |s: String| Err(RatingError::InvalidOption(s));
    if let Some(prior) = o.prior {
        if !(prior > 0.0 && prior.is_finite()) {
            return bad(format!(
                "prior {prior} must be a positive number of virtual draws"
            ));
        }
    }
    if let Anchor::Player { player, rating } = o.anchor {
        if player >= n {
            return bad(format!(
                "anchor player {player} does not exist ({n} players)"
            ));
        }
        if !rating.is_finite() {
            return bad(format!("anchor rating {rating} is not finite"));
        }
    }
    if !o.advantage.is_finite() {
        return bad(format!("advantage {} is not finite", o.advantage));
    }
    if !(o.draw_elo.is_finite() && o.draw_elo >= 0.0) {
        return bad(format!("draw_elo {} must be finite and >= 0", o.draw_elo));
    }
    if o.tolerance.is_nan() || o.tolerance <= 0.0 {
        return bad(format!("tolerance {} must be positive", o.tolerance));
    }
    Ok(())
}

/// Cases where a fitted parameter has no finite maximum, known in advance.
fn check_parameters(c: &Condensed, o: &BradleyTerryOptions) -> Result<(), RatingError> {
    let (w, d, l): (f64, f64, f64) = (c.w.iter().sum(), c.d.iter().sum(), c.l.iter().sum());
    if o.fit_draw_elo && w + l == 0.0 {
        return Err(RatingError::ParameterUnbounded {
            parameter: "draw_elo",
        });
    }
    if o.fit_advantage && (l + d == 0.0 || w + d == 0.0) {
        return Err(RatingError::ParameterUnbounded {
            parameter: "advantage",
        });
    }
    Ok(())
}

/// Covariance of the raw ratings: the inverse of the observed information
/// (the opposite of the Hessian of the log-likelihood in the ratings, the
/// draw and advantage parameters held at their fitted values, as BayesElo's
/// `ComputeCovariance`), under the anchoring constraint.
fn covariance(c: &Condensed, p: &Gammas, anchor: Anchor) -> Option<Vec<Vec<f64>>> {
    let n = c.n;
    let x2 = (std::f64::consts::LN_10 / 400.0).powi(2);
    let (tw, td) = (p.theta_w, p.theta_d);
    let mut info = vec![0.0; n * n];
    for i in 0..n {
        for &j in &c.opponents[i] {
            let (gi, gj) = (p.gamma[i], p.gamma[j]);
            let (ij, ji) = (i * n + j, j * n + i);
            let sq = |x: f64| x * x;
            let h = gi
                * gj
                * td
                * tw
                * ((c.w[ij] + c.d[ij]) / sq(tw * gi + td * gj)
                    + (c.l[ij] + c.d[ij]) / sq(td * tw * gi + gj)
                    + (c.w[ji] + c.d[ji]) / sq(tw * gj + td * gi)
                    + (c.l[ji] + c.d[ji]) / sq(td * tw * gj + gi));
            info[i * n + j] -= h * x2;
            info[i * n + i] += h * x2;
        }
    }
    // Hold one player fixed: the information of the others is invertible.
    let fixed = match anchor {
        Anchor::Player { player, .. } => player,
        Anchor::Mean => n - 1,
    };
    let keep: Vec<usize> = (0..n).filter(|&i| i != fixed).collect();
    let m = keep.len();
    let truncated: Vec<f64> = (0..m * m)
        .map(|k| info[keep[k / m] * n + keep[k % m]])
        .collect();
    let inv = spd_inverse(&truncated, m)?;
    let mut cov = vec![vec![0.0; n]; n];
    for (a, &i) in keep.iter().enumerate() {
        for (b, &j) in keep.iter().enumerate() {
            cov[i][j] = inv[a * m + b];
        }
    }
    if anchor == Anchor::Mean {
        // Ratings minus their mean: C' = A C A^T with A = I - 11^T / n.
        let nf = n as f64;
        let row_mean: Vec<f64> = (0..n).map(|i| cov[i].iter().sum::<f64>() / nf).collect();
        let total_mean = row_mean.iter().sum::<f64>() / nf;
        for i in 0..n {
            for j in 0..n {
                cov[i][j] += total_mean - row_mean[i] - row_mean[j];
            }
        }
    }
    Some(cov)
}
