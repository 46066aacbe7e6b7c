//! The chi-square distribution's upper tail, for the goodness-of-fit test.
//!
//! Written here on `libm` (already built for `rand_distr`) rather than taken
//! from a statistics library: the one used before, `statrs`, brought
//! `nalgebra` and a dozen crates behind it into every build of the
//! workspace for this one number and `erfc`. The tail is the regularized
//! upper incomplete gamma function `Q(k/2, x/2)`, by its power series below
//! `x = a + 1` and by its continued fraction above (Numerical Recipes, 3rd
//! ed., 6.2), each converging to about `1e-15` relative.

/// `P(X >= x)` for a chi-square variable `X` with `degrees_of_freedom`.
///
/// `None` without degrees of freedom; 1 for `x <= 0`.
pub(crate) fn chi_square_upper_tail(x: f64, degrees_of_freedom: usize) -> Option<f64> {
    if degrees_of_freedom == 0 || x.is_nan() {
        return None;
    }
    if x <= 0.0 {
        return Some(1.0);
    }
    if x == f64::INFINITY {
        return Some(0.0);
    }
    Some(upper_gamma_regularized(
        degrees_of_freedom as f64 / 2.0,
        x / 2.0,
    ))
}

/// Iterations after which both expansions have converged for any argument
/// a tournament produces (they need about `sqrt(a)` to `a` terms).
const MAX_TERMS: usize = 10_000;

/// Relative size of the last term at which an expansion stops.
const EPSILON: f64 = 1e-16;

/// `Q(a, x) = Γ(a, x) / Γ(a)` for `a > 0`, `x > 0`.
fn upper_gamma_regularized(a: f64, x: f64) -> f64 {
    // x^a e^-x / Γ(a), the factor both expansions share, in logarithms so
    // that large arguments do not overflow.
    let prefactor = (a * x.ln() - x - libm::lgamma(a)).exp();
    if x < a + 1.0 {
        (1.0 - prefactor * lower_series(a, x)).clamp(0.0, 1.0)
    } else {
        (prefactor * upper_continued_fraction(a, x)).clamp(0.0, 1.0)
    }
}

/// `sum_n x^n / (a (a+1) ... (a+n))`: `P(a, x)` is it times the prefactor.
fn lower_series(a: f64, x: f64) -> f64 {
    let mut term = 1.0 / a;
    let mut sum = term;
    let mut denominator = a;
    for _ in 0..MAX_TERMS {
        denominator += 1.0;
        term *= x / denominator;
        sum += term;
        if term.abs() < sum.abs() * EPSILON {
            break;
        }
    }
    sum
}

/// `1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...))` by the modified Lentz
/// method: `Q(a, x)` is it times the prefactor.
fn upper_continued_fraction(a: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut fraction = d;
    for i in 1..MAX_TERMS {
        let i = i as f64;
        let an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let step = d * c;
        fraction *= step;
        if (step - 1.0).abs() < EPSILON {
            break;
        }
    }
    fraction
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, relative: f64) {
        assert!(
            (got - want).abs() <= relative * want.abs(),
            "got {got:e}, want {want:e}"
        );
    }

    /// The closed forms of the tail for 1 to 4 degrees of freedom, through
    /// `erfc` and `exp` alone: both expansions (small and large `x`) must
    /// agree with them.
    fn closed_form(x: f64, degrees_of_freedom: usize) -> f64 {
        let half = x / 2.0;
        match degrees_of_freedom {
            1 => libm::erfc(half.sqrt()),
            2 => (-half).exp(),
            3 => libm::erfc(half.sqrt()) + (2.0 * x / std::f64::consts::PI).sqrt() * (-half).exp(),
            4 => (-half).exp() * (1.0 + half),
            _ => unreachable!(),
        }
    }

    #[test]
    fn tail_matches_the_closed_forms() {
        for dof in 1..=4 {
            for x in [1e-6, 0.01, 0.3, 1.0, 2.5, 3.84, 7.0, 15.0, 40.0, 120.0] {
                close(
                    chi_square_upper_tail(x, dof).unwrap(),
                    closed_form(x, dof),
                    1e-12,
                );
            }
        }
    }

    #[test]
    fn tail_at_published_critical_values() {
        // Critical values of the chi-square table (NIST/SEMATECH e-Handbook,
        // 1.3.6.7.4), more digits from R's qchisq.
        close(
            chi_square_upper_tail(3.841_458_820_694_124, 1).unwrap(),
            0.05,
            1e-12,
        );
        close(
            chi_square_upper_tail(18.307_038_053_275_146, 10).unwrap(),
            0.05,
            1e-12,
        );
        close(
            chi_square_upper_tail(37.566_234_786_625_26, 20).unwrap(),
            0.01,
            1e-12,
        );
        close(
            chi_square_upper_tail(124.342_113_404_070_7, 100).unwrap(),
            0.05,
            1e-11,
        );
        close(
            chi_square_upper_tail(82.358_135_812_307_04, 100).unwrap(),
            0.9,
            1e-12,
        );
    }

    #[test]
    fn tail_edges() {
        assert_eq!(chi_square_upper_tail(3.0, 0), None);
        assert_eq!(chi_square_upper_tail(f64::NAN, 3), None);
        assert_eq!(chi_square_upper_tail(0.0, 3), Some(1.0));
        assert_eq!(chi_square_upper_tail(-1.0, 3), Some(1.0));
        assert_eq!(chi_square_upper_tail(1e6, 3), Some(0.0));
        assert_eq!(chi_square_upper_tail(f64::INFINITY, 3), Some(0.0));
    }
}
