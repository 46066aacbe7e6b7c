//! The little dense linear algebra the covariance needs.
//!
//! Matrices are small (one row per player), symmetric and positive definite
//! once one player is held fixed, so a Cholesky inverse is all it takes.

/// Inverse of a symmetric positive definite `n x n` matrix (row-major), or
/// `None` if it is not numerically positive definite.
pub(crate) fn spd_inverse(a: &[f64], n: usize) -> Option<Vec<f64>> {
    // A = L L^T.
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[i * n + j];
            for k in 0..j {
                sum -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if sum <= 0.0 || !sum.is_finite() {
                    return None;
                }
                l[i * n + i] = sum.sqrt();
            } else {
                l[i * n + j] = sum / l[j * n + j];
            }
        }
    }
    // Columns of A^-1 by forward and back substitution.
    let mut inv = vec![0.0; n * n];
    let mut y = vec![0.0; n];
    for col in 0..n {
        for i in 0..n {
            let mut sum = if i == col { 1.0 } else { 0.0 };
            for k in 0..i {
                sum -= l[i * n + k] * y[k];
            }
            y[i] = sum / l[i * n + i];
        }
        for i in (0..n).rev() {
            let mut sum = y[i];
            for k in i + 1..n {
                sum -= l[k * n + i] * inv[k * n + col];
            }
            inv[i * n + col] = sum / l[i * n + i];
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverts_a_known_matrix() {
        let a = [4.0, 2.0, 0.6, 2.0, 2.0, 0.5, 0.6, 0.5, 3.0];
        let inv = spd_inverse(&a, 3).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                let expected = if i == j { 1.0 } else { 0.0 };
                assert!((p - expected).abs() < 1e-12);
            }
        }
        assert!(spd_inverse(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
    }
}
