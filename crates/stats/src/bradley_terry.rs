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

use crate::result::PlayerResult;
use crate::wdl::Wdl;

mod bootstrap;
mod diagnostics;
mod error;
mod intervals;
mod paired;
mod point;
mod profile;

pub use bootstrap::{bootstrap, Bootstrap, BootstrapOptions, DEFAULT_BOOTSTRAP_SAMPLES};
pub use paired::{result_index, PairedResults, SeatedPairs};

pub use diagnostics::{cycles, goodness_of_fit, Cycle, FitTest, PairingResidual, CYCLE_LOS};

pub use error::RatingError;
use point::{fit_point, Held};
pub use profile::Bounds;

/// BayesElo's stopping rule for `mm` (its `Epsilon` default). The default
/// tolerance here is far tighter, so that the fit is the maximum itself;
/// BayesElo's printed ratings are within a few hundredths of an Elo of it.
pub const BAYESELO_TOLERANCE: f64 = 1e-5;

/// BayesElo's default prior: virtual draws per player (its `prior`
/// command's default), for [`BradleyTerryOptions::prior`].
pub const BAYESELO_PRIOR: f64 = 2.0;

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
    fit_counts_anchored(players, counts, options, &[])
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
    fit_counts_loosely_anchored(players, counts, options, anchors, &[])
}

/// Ordo's loose anchor: a normal prior on one player's rating (in the
/// reported scale), its mean `rating` and standard deviation `sd`, for a
/// rating list kept across runs whose old ratings are known only so well.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LooseAnchor {
    /// The player.
    pub player: usize,
    /// The prior's mean.
    pub rating: f64,
    /// The prior's standard deviation.
    pub sd: f64,
}

/// As [`fit_counts_anchored`], with loose anchors too: the ratings are
/// then the posterior mode (the likelihood times each loose anchor's
/// normal prior), absolute, their scale set by the anchors (fixed or
/// loose), and the covariance is the posterior's (the information plus
/// the priors' precision). With two players, one fixed and one loose, the
/// loose one's rating is about the precision-weighted mean of its prior
/// and of what the games say.
pub fn fit_counts_loosely_anchored(
    players: usize,
    counts: &[Wdl],
    options: &BradleyTerryOptions,
    fixed: &[(usize, f64)],
    loose: &[LooseAnchor],
) -> Result<Ratings, RatingError> {
    let (options, held) = resolve_anchors(players, options, fixed, loose)?;
    fit_point(players, counts, &options, &held).map(|point| point.ratings)
}

/// The options and anchors a fit runs with: one fixed anchor alone is
/// [`Anchor::Player`] (no players pinned); several, or any with loose
/// ones, are checked and held.
pub(crate) fn resolve_anchors<'a>(
    players: usize,
    options: &BradleyTerryOptions,
    fixed: &'a [(usize, f64)],
    loose: &'a [LooseAnchor],
) -> Result<(BradleyTerryOptions, Held<'a>), RatingError> {
    if let ([(player, rating)], []) = (fixed, loose) {
        let anchor = Anchor::Player {
            player: *player,
            rating: *rating,
        };
        return Ok((BradleyTerryOptions { anchor, ..*options }, Held::default()));
    }
    let bad = |what: String| Err(RatingError::InvalidOption(what));
    let each = (fixed.iter().map(|&(p, r)| (p, r, None)))
        .chain(loose.iter().map(|a| (a.player, a.rating, Some(a.sd))));
    for (k, (player, rating, sd)) in each.enumerate() {
        if player >= players {
            return bad(format!(
                "anchor player {player} does not exist ({players} players)"
            ));
        }
        if !rating.is_finite() {
            return bad(format!("anchor rating {rating} is not finite"));
        }
        if let Some(sd) = sd.filter(|sd| !(sd.is_finite() && *sd > 0.0)) {
            return bad(format!(
                "loose anchor of player {player}: its standard deviation {sd} must be positive"
            ));
        }
        let before = (fixed.iter().map(|a| a.0))
            .chain(loose.iter().map(|a| a.player))
            .take(k);
        if before.into_iter().any(|p| p == player) {
            return bad(format!("player {player} is anchored twice"));
        }
    }
    Ok((*options, Held { fixed, loose }))
}
