//! How wide a verdict's interval is: for one look at a number of games
//! fixed in advance, or for a league that looks after every pair and
//! stops on what it sees.
//!
//! A league with `until` refits after every pair and stops at the first
//! look at which its verdicts are all in. A fixed-sample interval,
//! `d +/- z sigma` with `z` the normal quantile, holds its confidence at
//! one look; looked at after every pair it is crossed by chance more
//! often (optional stopping), and the entrants at the boundary that
//! stopped the league are the ones it errs on. [`Intervals::Anytime`]
//! replaces `z` by the normal-mixture confidence sequence's (Robbins
//! 1970; Howard, Ramdas, McAuliffe and Sekhon 2021): for a statistic whose
//! information grows as `1 / sigma^2`, with probability at least
//! `1 - alpha` the truth is within
//!
//! `sigma sqrt((1 + r) (ln(1 + 1/r) + 2 ln(1/alpha)))`, `r = sigma^2 / s0^2`,
//!
//! of the estimate at every look at once, so a league may stop whenever
//! it likes. `s0` ([`ANYTIME_TUNED_AT`]) is where the sequence is
//! tightest relative to `sigma`; any choice keeps the guarantee, only the
//! width at other `sigma`s changes. The guarantee is exact for a sum of
//! independent normal increments; a Bradley-Terry refit's difference is
//! that only approximately, so what it buys is measured (`aboure bench
//! league`), not assumed. It costs games: at `sigma = s0` and 95% the
//! factor is 3.66 where a one-sided fixed verdict uses 1.645.

use aboure_stats::elo::normal_cdf;

/// The standard error (Elo, the table's scale) at which the anytime
/// intervals are tightest: about where close neighbours are separated.
pub const ANYTIME_TUNED_AT: f64 = aboure_stats::confidence_sequence::LEAGUE_TUNED_AT;

/// Which intervals a league's verdicts use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Intervals {
    /// Valid at one look (the default): the normal quantile.
    #[default]
    FixedSample,
    /// Valid at every look at once: the normal-mixture confidence
    /// sequence, so stopping on them keeps their confidence.
    Anytime,
}

impl Intervals {
    /// The multiple of `sigma` a one-sided verdict at error `alpha` needs.
    pub fn one_sided(self, alpha: f64, sigma: f64) -> f64 {
        match self {
            Intervals::FixedSample => quantile(1.0 - alpha),
            // The two-sided sequence at `alpha` bounds each side too.
            Intervals::Anytime => mixture(alpha, sigma),
        }
    }

    /// The multiple of `sigma` of a two-sided interval at error `alpha`
    /// (0.05 for a 95% interval).
    pub fn two_sided(self, alpha: f64, sigma: f64) -> f64 {
        match self {
            Intervals::FixedSample => quantile(1.0 - alpha / 2.0),
            Intervals::Anytime => mixture(alpha, sigma),
        }
    }
}

/// The normal-mixture boundary in units of `sigma` (module docs).
fn mixture(alpha: f64, sigma: f64) -> f64 {
    aboure_stats::confidence_sequence::normal_mixture(alpha, sigma, ANYTIME_TUNED_AT)
}

/// The standard normal quantile of `p` in (0.5, 1), by bisection on the
/// crate's own normal distribution function (exact to 1e-12).
fn quantile(p: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_matches_published_values() {
        assert!((quantile(0.95) - 1.644_853_626_951).abs() < 1e-9);
        assert!((quantile(0.975) - 1.959_963_984_540).abs() < 1e-9);
    }

    #[test]
    fn fixed_sample_is_the_normal_quantile() {
        let f = Intervals::FixedSample;
        assert!((f.one_sided(0.05, 7.0) - 1.644_853_6).abs() < 1e-6);
        assert!((f.two_sided(0.05, 7.0) - 1.959_964_0).abs() < 1e-6);
    }

    #[test]
    fn anytime_matches_the_mixture_formula_and_is_wider() {
        let a = Intervals::Anytime;
        // r = 1: sqrt(2 (ln 2 + 2 ln 20)) = 3.6563...
        let at = a.two_sided(0.05, ANYTIME_TUNED_AT);
        assert!((at - 3.656_395).abs() < 1e-5, "{at}");
        // Wider than the fixed interval everywhere, growing slowly as
        // sigma shrinks (many games) and fast as it grows (few).
        for sigma in [1.0, 5.0, 25.0, 100.0, 400.0] {
            assert!(a.two_sided(0.05, sigma) > 1.96 * 1.5, "{sigma}");
        }
        assert!(a.two_sided(0.05, 1.0) < a.two_sided(0.05, 0.01));
        assert!(a.two_sided(0.05, 100.0) > a.two_sided(0.05, 25.0));
    }
}
