//! What a Bradley-Terry fit gives: the ratings, their intervals and
//! covariance, and the fitted model's parameters.

use serde::Serialize;

use super::profile::Bounds;
use crate::wdl::Wdl;

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
    /// The factor applied to raw ratings (1 for [`RatingScale::Raw`](super::RatingScale::Raw)).
    pub scale: f64,
    /// Log-likelihood of the results (with the prior's virtual draws, if any).
    pub log_likelihood: f64,
    /// MM iterations used.
    pub iterations: usize,
    /// With [`BradleyTerryOptions::profile`](super::BradleyTerryOptions::profile), each rating's 95% interval
    /// from the profile likelihood, as absolute `(lower, upper)` ratings
    /// (`None`: that end is unbounded).
    pub profile: Option<Vec<Bounds>>,
}
