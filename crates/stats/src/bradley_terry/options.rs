//! How a Bradley-Terry fit is made: its options, the scale ratings are
//! reported in, and where they are pinned (fixed or loose anchors).

use serde::Serialize;

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
    /// iteration (BayesElo: [`BAYESELO_TOLERANCE`](super::BAYESELO_TOLERANCE)).
    pub tolerance: f64,
    /// Give up after this many iterations (BayesElo: 10000). Well-posed
    /// fits take tens to a few hundred; running out usually means the
    /// maximum does not exist (see [`RatingError::NoConvergence`](super::RatingError::NoConvergence)).
    pub max_iterations: usize,
    /// Also compute each rating's profile likelihood interval
    /// ([`Ratings::profile`](super::Ratings::profile)): honest near 0% or 100% scores and on few
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
