//! Is the Elo shown after an SPRT unbiased once corrected for the stop?
//!
//! The real [`Sprt`] is run pair by pair at several true Elo values (pairs
//! drawn from one distribution shifted to each), and at each stop both
//! estimates are taken. The corrected estimate's mean bias must be within
//! 3 standard errors of zero plus 1 nElo (the walk approximates the GSPRT's
//! first pairs); the naive one's is printed beside it and must be clearly
//! larger where the stop biases most, beyond the bounds (in the middle,
//! at 20, the two biases cancel by symmetry). Tests that stop with every
//! pair lost or won have no finite estimate; at most 2% may (these bounds
//! are wide, so tests are short: about 100 pairs).

use aboure_stats::characteristic::PairDistribution;
use aboure_stats::sprt_elo::stopped_elo;
use aboure_stats::{EloModel, Pentanomial, Sprt, SprtDecision};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Counts at the stop of one real test on pairs drawn from `p`.
fn real_test(sprt: &Sprt, p: [f64; 5], rng: &mut SmallRng) -> Pentanomial {
    let mut counts = Pentanomial::default();
    loop {
        crate::common::add_pair(&mut counts, p, rng);
        if sprt.status_pentanomial(&counts).decision != SprtDecision::Continue {
            return counts;
        }
    }
}

/// (mean naive bias, its s.e., mean corrected bias, its s.e., tests without an estimate).
fn biases(sprt: &Sprt, elo: f64, tests: usize, seed: u64) -> (f64, f64, f64, f64, usize) {
    let base = PairDistribution::from_draw_ratio(0.4).unwrap();
    let p = base.at_elo(elo, sprt.model()).unwrap().probabilities();
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut naive, mut corrected, mut missing) = (Vec::new(), Vec::new(), 0);
    for i in 0..tests {
        let counts = real_test(sprt, p, &mut rng);
        match stopped_elo(sprt, &counts, 150, seed + i as u64) {
            Some(e) => {
                naive.push(e.naive - elo);
                corrected.push(e.corrected - elo);
            }
            None => missing += 1,
        }
    }
    let mean_se = |v: &[f64]| {
        let n = v.len() as f64;
        let m = v.iter().sum::<f64>() / n;
        let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
        (m, (var / n).sqrt())
    };
    let (nb, ns) = mean_se(&naive);
    let (cb, cs) = mean_se(&corrected);
    (nb, ns, cb, cs, missing)
}

#[test]
fn the_corrected_estimate_is_unbiased_where_the_naive_one_is_not() {
    let sprt = Sprt::new(0.0, 40.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let tests = 160;
    for (k, elo) in [-10.0, 20.0, 50.0].into_iter().enumerate() {
        let (nb, ns, cb, cs, missing) = biases(&sprt, elo, tests, 1000 * k as u64);
        println!("true {elo}: naive bias {nb:.2} +/- {ns:.2}, corrected {cb:.2} +/- {cs:.2}, {missing} without");
        assert!(
            missing * 50 <= tests,
            "{missing} tests without an estimate at {elo}"
        );
        assert!(
            cb.abs() <= 3.0 * cs + 1.0,
            "corrected bias {cb} +/- {cs} at {elo}"
        );
        if elo != 20.0 {
            assert!(
                nb.abs() > 3.0 * ns + cb.abs(),
                "naive bias {nb} +/- {ns} at {elo}"
            );
        }
    }
}
