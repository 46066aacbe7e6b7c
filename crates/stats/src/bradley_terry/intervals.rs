//! How sure the ratings are: their covariance (the inverse of the
//! observed information, as BayesElo's `covariance` command), the 95%
//! intervals and the likelihood-of-superiority matrix drawn from it. Kept
//! apart from the fit because it is a second computation on the fitted
//! parameters, with its own linear algebra.

use super::Anchor;
use crate::elo::{normal_cdf, Z95};
use crate::linalg::spd_inverse;
use crate::mm::{Condensed, Gammas};

/// A fit's uncertainty, in the reported scale.
pub(super) struct Intervals {
    /// Covariance matrix of the ratings.
    pub(super) covariance: Vec<Vec<f64>>,
    /// Half-width of each player's 95% interval.
    pub(super) errors: Vec<f64>,
    /// Likelihood that `i` is stronger than `j`.
    pub(super) los: Vec<Vec<f64>>,
}

impl Intervals {
    /// From the covariance of the raw ratings, the factor of the reported
    /// scale and the reported ratings.
    pub(super) fn new(raw: Vec<Vec<f64>>, scale: f64, ratings: &[f64]) -> Intervals {
        let n = ratings.len();
        let covariance: Vec<Vec<f64>> = raw
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
        Intervals {
            covariance,
            errors,
            los,
        }
    }
}

/// Covariance of the raw ratings: the inverse of the observed information
/// (the opposite of the Hessian of the log-likelihood in the ratings, the
/// draw and advantage parameters held at their fitted values, as BayesElo's
/// `ComputeCovariance`), under the anchoring constraint.
///
/// With fixed or loose anchors (`pinned`), the pinned players are held and
/// the others' ratings are absolute; `prior` is each raw rating's prior
/// precision (loose anchors; 0 for none).
pub(super) fn covariance(
    c: &Condensed,
    p: &Gammas,
    anchor: Anchor,
    pinned: Option<&[bool]>,
    prior: &[f64],
) -> Option<Vec<Vec<f64>>> {
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
    // Loose anchors add their prior's precision (the posterior's curvature).
    for (i, &t) in prior.iter().enumerate() {
        info[i * n + i] += t;
    }
    // Hold one player fixed: the information of the others is invertible.
    let fixed = match anchor {
        Anchor::Player { player, .. } => player,
        Anchor::Mean => n - 1,
    };
    let keep: Vec<usize> = match pinned {
        Some(pins) => (0..n).filter(|&i| !pins[i]).collect(),
        None => (0..n).filter(|&i| i != fixed).collect(),
    };
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
    if anchor == Anchor::Mean && pinned.is_none() {
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
