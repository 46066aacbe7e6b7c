//! Does `characteristic` predict what the real SPRT does?
//!
//! The real [`Sprt`] is run pair by pair (the LLR re-estimated after every
//! pair, as `aboure run` does) on pairs drawn from the same distribution
//! the calculation assumes, and its share of passes and mean length are
//! compared with the calculation's. Tolerances: pass probabilities within
//! 3 combined standard errors of the two simulations plus 0.02 (the walk
//! leaves out the GSPRT's noisy first pairs), mean lengths within 3
//! combined standard errors plus 5%.

use aboure_stats::characteristic::{characteristic, characteristic_curve, PairDistribution};
use aboure_stats::{EloModel, Pentanomial, Sprt, SprtDecision};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Pass share, mean length and its standard error of `runs` real tests.
fn real_runs(sprt: &Sprt, truth: &PairDistribution, runs: usize, seed: u64) -> (f64, f64, f64) {
    let p = truth.probabilities();
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut passed, mut lengths) = (0, Vec::new());
    for _ in 0..runs {
        let mut counts = Pentanomial::default();
        let decision = loop {
            crate::common::add_pair(&mut counts, p, &mut rng);
            let status = sprt.status_pentanomial(&counts);
            if status.decision != SprtDecision::Continue {
                break status.decision;
            }
        };
        passed += (decision == SprtDecision::AcceptH1) as usize;
        lengths.push(counts.pairs() as f64);
    }
    let n = runs as f64;
    let mean = lengths.iter().sum::<f64>() / n;
    let var = lengths.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (passed as f64 / n, mean, (var / n).sqrt())
}

fn check(sprt: &Sprt, base: &PairDistribution, elo: f64, runs: usize, seed: u64) {
    let calc = characteristic(sprt, base, elo, 4000, seed).unwrap();
    let truth = base.at_elo(elo, sprt.model()).unwrap();
    let (pass, mean, mean_error) = real_runs(sprt, &truth, runs, seed + 1);
    let pass_se = (pass * (1.0 - pass) / runs as f64 + calc.pass_error.powi(2)).sqrt();
    println!(
        "elo {elo}: pass {:.3} (real {pass:.3}), pairs {:.0} (real {mean:.0} +/- {mean_error:.0})",
        calc.pass, calc.expected_pairs
    );
    assert!(
        (calc.pass - pass).abs() <= 3.0 * pass_se + 0.02,
        "at {elo}: calculated pass {} against {pass} (se {pass_se})",
        calc.pass
    );
    // The walk's own length error is small next to the real runs'.
    let tolerance = 3.0 * mean_error * 1.1 + 0.05 * mean;
    assert!(
        (calc.expected_pairs - mean).abs() <= tolerance,
        "at {elo}: calculated {} pairs against {mean} (tolerance {tolerance})",
        calc.expected_pairs
    );
}

#[test]
fn the_calculation_matches_the_real_test() {
    let sprt = Sprt::new(0.0, 40.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let base = PairDistribution::from_draw_ratio(0.4).unwrap();
    for (k, elo) in [-20.0, 0.0, 20.0, 40.0].into_iter().enumerate() {
        check(&sprt, &base, elo, 300, 10 * k as u64);
    }
}

#[test]
fn the_calculation_matches_the_real_truncated_test() {
    let sprt = Sprt::new(0.0, 40.0, 0.05, 0.05, EloModel::Normalized)
        .unwrap()
        .truncated(150)
        .unwrap();
    let base = PairDistribution::new([0.05, 0.2, 0.5, 0.2, 0.05]).unwrap();
    for (k, elo) in [0.0, 40.0].into_iter().enumerate() {
        check(&sprt, &base, elo, 300, 100 + 10 * k as u64);
    }
}

#[test]
fn the_logistic_model_matches_too() {
    let sprt = Sprt::new(0.0, 30.0, 0.05, 0.1, EloModel::Logistic).unwrap();
    let base = PairDistribution::from_draw_ratio(0.2).unwrap();
    check(&sprt, &base, 15.0, 300, 200);
}

#[test]
fn error_rates_hold_at_the_hypotheses_and_the_cap_costs_some() {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let base = PairDistribution::from_draw_ratio(0.5).unwrap();
    let curve = characteristic_curve(&sprt, &base, &[0.0, 10.0], 4000, 7, 0).unwrap();
    // The overshoot makes the test conservative: rates at or below 5%.
    assert!(
        curve[0].pass <= 0.05 + 3.0 * curve[0].pass_error,
        "{curve:?}"
    );
    assert!(
        1.0 - curve[1].pass <= 0.05 + 3.0 * curve[1].pass_error,
        "{curve:?}"
    );
    assert_eq!(curve[0].truncated, 0.0);
    // Half the untruncated test's mean length as a cap: more errors, shorter.
    let cap = (curve[0].expected_pairs / 2.0) as u64;
    let capped = sprt.truncated(cap).unwrap();
    let short = characteristic_curve(&capped, &base, &[0.0, 10.0], 4000, 7, 1).unwrap();
    assert!(short[0].pass > curve[0].pass + 0.005, "{short:?}");
    assert!(short[1].pass < curve[1].pass - 0.005, "{short:?}");
    assert!(
        short[0].truncated > 0.1 && short[0].pairs_90 == cap,
        "{short:?}"
    );
    assert!(short[0].expected_pairs < curve[0].expected_pairs);
    // Seeded: the same figures whatever the threads.
    let again = characteristic_curve(&capped, &base, &[0.0, 10.0], 4000, 7, 2).unwrap();
    assert_eq!(short, again);
}
