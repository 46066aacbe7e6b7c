//! The generalized log-likelihood ratio of fishtest (Michel Van den Bergh).
//!
//! The results are an empirical distribution over outcome scores (3 bins for
//! W/D/L, 5 for game pairs). Under each hypothesis the true distribution is
//! unknown; the GSPRT replaces it by its maximum-likelihood estimate subject
//! to the hypothesis (expected score `s`, or t-value `(mu - 1/2) / sigma`),
//! and the LLR is `N * sum_i p_i ln(p1_i / p0_i)`. The constrained MLE comes
//! from the "secular equation" `sum_i p_i a_i / (1 + x a_i) = 0`, solved on
//! the interval where all weights stay positive. This is a line-by-line
//! transcription of fishtest's `LLRcalc.py`, including its regularization
//! (empty bins count as 0.001) and its ten-step fixed point for the t-value
//! MLE, so that the numbers agree with what fishtest prints.

/// An empirical distribution: `(value, probability)` pairs.
type Pdf = Vec<(f64, f64)>;

/// Solves `sum_i p_i a_i / (1 + x a_i) = 0` for `x`, where the `a_i` take
/// both signs. The left side decreases in `x` between the poles, so
/// bisection to the last bit is exact enough and cannot fail.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    const EPSILON: f64 = 1e-9;
    let v = pdf.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let w = pdf
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if v * w >= 0.0 || !v.is_finite() || !w.is_finite() {
        return None;
    }
    let f = |x: f64| pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / w + EPSILON, -1.0 / v - EPSILON);
    let (mut f_lo, f_hi) = (f(lo), f(hi));
    if f_lo.is_nan() || f_hi.is_nan() || f_lo * f_hi > 0.0 {
        return None;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let f_mid = f(mid);
        if f_mid == 0.0 {
            return Some(mid);
        }
        if (f_mid > 0.0) == (f_lo > 0.0) {
            lo = mid;
            f_lo = f_mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// Mean and variance of a distribution.
fn stats(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|&(a, p)| p * a).sum();
    let var = pdf.iter().map(|&(a, p)| p * (a - mean).powi(2)).sum();
    (mean, var)
}

/// MLE of the distribution with expectation `s`, given the empirical one.
pub(crate) fn mle_expected(pdf_hat: &[(f64, f64)], s: f64) -> Option<Pdf> {
    let shifted: Pdf = pdf_hat.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted)?;
    Some(
        pdf_hat
            .iter()
            .map(|&(a, p)| (a, p / (1.0 + x * (a - s))))
            .collect(),
    )
}

/// MLE of the distribution with t-value `(mu - reference) / sigma = t`.
pub(crate) fn mle_t_value(pdf_hat: &[(f64, f64)], reference: f64, t: f64) -> Option<Pdf> {
    let n = pdf_hat.len() as f64;
    let mut pdf: Pdf = pdf_hat.iter().map(|&(a, _)| (a, 1.0 / n)).collect();
    for _ in 0..10 {
        let previous = pdf.clone();
        let (mu, var) = stats(&pdf);
        let sigma = var.sqrt();
        let shifted: Pdf = pdf_hat
            .iter()
            .map(|&(a, p)| {
                let z = (mu - a) / sigma;
                (a - reference - t * sigma * (1.0 + z * z) / 2.0, p)
            })
            .collect();
        let x = secular(&shifted)?;
        pdf = pdf_hat
            .iter()
            .zip(&shifted)
            .map(|(&(a, p), &(b, _))| (a, p / (1.0 + x * b)))
            .collect();
        let change = previous
            .iter()
            .zip(&pdf)
            .map(|(u, v)| (u.1 - v.1).abs())
            .fold(0.0, f64::max);
        if change < 1e-9 {
            break;
        }
    }
    Some(pdf)
}

/// Regularized counts as a distribution over scores `i / (k - 1)`, with the
/// regularized total.
fn results_to_pdf(counts: &[u64]) -> (f64, Pdf) {
    let regularized: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = regularized.iter().sum();
    let last = (counts.len() - 1) as f64;
    let pdf = regularized
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / last, c / total))
        .collect();
    (total, pdf)
}

/// `N * sum_i p_i ln(p1_i / p0_i)`.
fn llr_of(total: f64, pdf: &[(f64, f64)], pdf0: &[(f64, f64)], pdf1: &[(f64, f64)]) -> f64 {
    total
        * pdf
            .iter()
            .zip(pdf0.iter().zip(pdf1))
            .map(|(&(_, p), (&(_, p0), &(_, p1)))| p * (p1.ln() - p0.ln()))
            .sum::<f64>()
}

/// fishtest's `LLR_logistic`: the hypotheses are expected scores `s0`, `s1`
/// (already converted from logistic Elo). `counts` go from the worst outcome
/// to the best (`[L, D, W]` or `[LL, LD, WL+DD, WD, WW]`). `None` when there
/// are no results or the scores are not strictly between 0 and 1.
pub(crate) fn llr_expectation(counts: &[u64], s0: f64, s1: f64) -> Option<f64> {
    if counts.iter().sum::<u64>() == 0 {
        return None;
    }
    let (total, pdf) = results_to_pdf(counts);
    let pdf0 = mle_expected(&pdf, s0)?;
    let pdf1 = mle_expected(&pdf, s1)?;
    Some(llr_of(total, &pdf, &pdf0, &pdf1))
}

/// fishtest's `LLR_normalized`: the hypotheses are t-values `t0`, `t1` of
/// the sample (per game for W/D/L, per pair for pentanomial counts).
pub(crate) fn llr_t_value(counts: &[u64], t0: f64, t1: f64) -> Option<f64> {
    if counts.iter().sum::<u64>() == 0 {
        return None;
    }
    let (total, pdf) = results_to_pdf(counts);
    let pdf0 = mle_t_value(&pdf, 0.5, t0)?;
    let pdf1 = mle_t_value(&pdf, 0.5, t1)?;
    Some(llr_of(total, &pdf, &pdf0, &pdf1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secular_root_solves_the_equation() {
        let pdf = [(-0.5, 0.2), (0.1, 0.5), (0.5, 0.3)];
        let x = secular(&pdf).unwrap();
        let f: f64 = pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum();
        assert!(f.abs() < 1e-12, "{f}");
        assert!(secular(&[(0.1, 0.5), (0.2, 0.5)]).is_none());
    }

    #[test]
    fn constrained_mle_has_the_required_expectation() {
        let (_, pdf) = results_to_pdf(&[10, 20, 30]);
        let mle = mle_expected(&pdf, 0.52).unwrap();
        let (mu, _) = stats(&mle);
        assert!((mu - 0.52).abs() < 1e-9);
        assert!((mle.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-9);

        let (_, pdf) = results_to_pdf(&[5, 30, 60, 31, 4]);
        let mle = mle_t_value(&pdf, 0.5, 0.05).unwrap();
        let (mu, var) = stats(&mle);
        assert!(((mu - 0.5) / var.sqrt() - 0.05).abs() < 1e-5);
    }
}
