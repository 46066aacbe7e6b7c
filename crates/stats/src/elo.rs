//! Conversions between expected score and Elo.
//!
//! Two scales are in use in the engine-testing world and reports need both:
//! *logistic Elo*, where a difference `d` means an expected score of
//! `1 / (1 + 10^(-d/400))`, and *normalized Elo* (nElo), which divides the
//! score excess by its standard deviation so that a given nElo needs the same
//! number of games to detect whatever the draw ratio. fishtest and fastchess
//! define nElo as `(score - 1/2) / sigma * 800 / ln 10`, with `sigma` the
//! standard deviation of one game's score (for game pairs, `sqrt(2)` times
//! that of a pair's average score), and so does this crate.

/// The 97.5% quantile of the standard normal law, used for 95% intervals
/// (the constant fastchess uses).
pub const Z95: f64 = 1.959963984540054;

/// nElo per unit of normalized score excess: `800 / ln 10` (about 347.44).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Expected score of a player `elo` logistic Elo stronger than its opponent.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo difference that gives the expected `score`.
///
/// `None` unless `0 < score < 1`: a perfect or null score has no finite Elo.
pub fn elo_from_score(score: f64) -> Option<f64> {
    if score > 0.0 && score < 1.0 {
        Some(-400.0 * (1.0 / score - 1.0).log10())
    } else {
        None
    }
}

/// Standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(-x / std::f64::consts::SQRT_2)
}

/// Win, draw and loss probabilities of BayesElo's model (Rémi Coulom).
///
/// `elo` is the rating difference in BayesElo's own scale including any
/// first-move advantage, `draw_elo` the draw parameter: a win has
/// probability `1 / (1 + 10^((draw_elo - elo)/400))`, a loss
/// `1 / (1 + 10^((draw_elo + elo)/400))`, a draw the rest.
pub fn bayeselo_probabilities(elo: f64, draw_elo: f64) -> [f64; 3] {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
    [win, 1.0 - win - loss, loss]
}

/// The factor BayesElo applies to its ratings after `mm` so that, near equal
/// strength, a rating difference means about what it means in logistic Elo:
/// `4x / (1 + x)^2` with `x = 10^(-draw_elo/400)`.
pub fn bayeselo_scale(draw_elo: f64) -> f64 {
    let x = 10f64.powf(-draw_elo / 400.0);
    4.0 * x / ((1.0 + x) * (1.0 + x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_round_trip() {
        for elo in [-800.0, -100.0, 0.0, 35.0, 400.0] {
            let back = elo_from_score(score_from_elo(elo)).unwrap();
            assert!((back - elo).abs() < 1e-9, "{elo} -> {back}");
        }
        assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-15);
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(0.0), None);
        assert_eq!(elo_from_score(f64::NAN), None);
    }

    #[test]
    fn normal_cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-15);
        // statrs's erfc is accurate to about 1e-12 here.
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-10);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457_05).abs() < 1e-10);
    }

    #[test]
    fn bayeselo_probabilities_sum_to_one_and_are_symmetric() {
        let [w, d, l] = bayeselo_probabilities(50.0, 97.3);
        assert!((w + d + l - 1.0).abs() < 1e-15);
        let [w2, d2, l2] = bayeselo_probabilities(-50.0, 97.3);
        assert!((w - l2).abs() < 1e-15 && (l - w2).abs() < 1e-15 && (d - d2).abs() < 1e-15);
        // No draw parameter: plain logistic.
        let [w, d, _] = bayeselo_probabilities(400.0, 0.0);
        assert!(d.abs() < 1e-15 && (w - 10.0 / 11.0).abs() < 1e-15);
        assert!((bayeselo_scale(0.0) - 1.0).abs() < 1e-15);
    }
}
