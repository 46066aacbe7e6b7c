//! A proportion's confidence interval: how sure a share of successes in
//! independent trials (intervals that covered the truth, leagues that
//! declared the right top) is.
//!
//! Wilson's score interval (Wilson 1927) rather than the normal
//! approximation `p +/- z sqrt(p (1 - p) / n)`, which collapses to a point
//! at 0 or n successes and undercovers near them, exactly where a
//! coverage of 95% or a success rate near 100% sits (Newcombe 1998 and
//! Brown, Cai and DasGupta 2001 compare the two).

/// Wilson's score interval `(lower, upper)` for `successes` of `trials` at
/// the normal quantile `z` (1.96 for 95%); `None` with no trials.
pub fn wilson(successes: usize, trials: usize, z: f64) -> Option<(f64, f64)> {
    if trials == 0 || successes > trials {
        return None;
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn matches_newcombes_published_intervals() {
        // Newcombe (1998), Table I, method 3 (score interval, no correction).
        let close = |got: (f64, f64), want: (f64, f64)| {
            (got.0 - want.0).abs() < 5e-5 && (got.1 - want.1).abs() < 5e-5
        };
        let a = wilson(81, 263, 1.959_964).unwrap();
        assert!(close(a, (0.2553, 0.3662)), "{a:?}");
        let b = wilson(15, 148, 1.959_964).unwrap();
        assert!(close(b, (0.0624, 0.1605)), "{b:?}");
        let c = wilson(0, 20, 1.959_964).unwrap();
        assert!(close(c, (0.0, 0.1611)), "{c:?}");
        let d = wilson(1, 29, 1.959_964).unwrap();
        assert!(close(d, (0.0061, 0.1718)), "{d:?}");
        assert_eq!(wilson(0, 0, 1.96), None);
    }
}
