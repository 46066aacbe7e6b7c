//! An interval that holds at every look at once: for a league that refits
//! after every pair and stops on what it sees, and for a report that
//! shows that league's ratings.
//!
//! A fixed-sample interval, `x +/- z sigma` with `z` the normal quantile,
//! holds its confidence at one look chosen in advance; looked at after
//! every pair it is crossed by chance more often (optional stopping). The
//! normal-mixture confidence sequence (Robbins 1970; Howard, Ramdas,
//! McAuliffe and Sekhon 2021) holds, with probability at least
//! `1 - alpha`, at every look at once: for a statistic whose information
//! grows as `1 / sigma^2` the truth is within
//!
//! `sigma sqrt((1 + r) (ln(1 + 1/r) + 2 ln(1/alpha)))`, `r = sigma^2 / s0^2`,
//!
//! of the estimate. `s0` is where the sequence is tightest relative to
//! `sigma`; any choice keeps the guarantee, only the width at other
//! `sigma`s changes. The guarantee is exact for a sum of independent
//! normal increments; a Bradley-Terry refit is that only approximately,
//! which is why its coverage is measured (`aboure bench league`).

/// The standard error (Elo) at which a league's anytime intervals are
/// tightest: about where close neighbours are separated.
pub const LEAGUE_TUNED_AT: f64 = 25.0;

/// The normal-mixture boundary in units of `sigma`: the multiple of
/// `sigma` a two-sided sequence at error `alpha` (0.05 for 95%), tightest
/// at `tuned_at`, needs. It bounds each side at `alpha` too.
pub fn normal_mixture(alpha: f64, sigma: f64, tuned_at: f64) -> f64 {
    let r = (sigma / tuned_at).powi(2).max(1e-12);
    ((1.0 + r) * ((1.0 + 1.0 / r).ln() + 2.0 * (1.0 / alpha).ln())).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boundary_matches_the_formula_by_hand() {
        // r = 1: sqrt(2 (ln 2 + 2 ln 20)) = 3.656395...
        let at = normal_mixture(0.05, 25.0, 25.0);
        assert!((at - 3.656_395).abs() < 1e-5, "{at}");
        // r = 4: sqrt(5 (ln 1.25 + 2 ln 20)) = 5.6955...
        let wide = normal_mixture(0.05, 50.0, 25.0);
        let want = (5.0 * (1.25f64.ln() + 2.0 * 20f64.ln())).sqrt();
        assert!((wide - want).abs() < 1e-12, "{wide} {want}");
        // Stricter errors need wider sequences.
        assert!(normal_mixture(0.01, 25.0, 25.0) > at);
    }
}
