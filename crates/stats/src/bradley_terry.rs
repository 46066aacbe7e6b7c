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
mod options;
mod paired;
mod point;
mod profile;
mod ratings;

pub use bootstrap::{bootstrap, Bootstrap, BootstrapOptions, DEFAULT_BOOTSTRAP_SAMPLES};
pub use paired::{result_index, PairedResults, SeatedPairs};

pub use diagnostics::{cycles, goodness_of_fit, Cycle, FitTest, PairingResidual, CYCLE_LOS};

pub use error::RatingError;
pub use options::{Anchor, BradleyTerryOptions, LooseAnchor, RatingScale};
use point::{fit_point, Held};
pub use profile::Bounds;
pub use ratings::Ratings;

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
