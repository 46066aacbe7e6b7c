//! The SPSA arithmetic on problems whose answer is known.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Parameter, Spsa, SpsaSettings, SpsaState};

const TARGET: [f64; 2] = [30.0, -12.0];

/// A smooth score peaking at `TARGET`, with noise of standard deviation
/// `noise` (a sum of 12 uniforms, near normal).
fn noisy_score(v: &[f64], noise: f64, rng: &mut ChaCha8Rng) -> f64 {
    let clean: f64 = v
        .iter()
        .zip(TARGET)
        .map(|(x, t)| -((x - t) / 10.0).powi(2))
        .sum();
    let normal: f64 = (0..12).map(|_| rng.gen::<f64>()).sum::<f64>() - 6.0;
    clean + noise * normal
}

fn two_parameters() -> Vec<Parameter> {
    vec![
        Parameter::integer("weight", -80.0, -100.0, 100.0, 4.0).unwrap(),
        Parameter::real("margin", 60.0, -100.0, 100.0, 4.0).unwrap(),
    ]
}

/// Runs `spsa` to its end against the noisy score, `noise_seed` fixing the noise.
fn run(spsa: &mut Spsa, noise: f64, rng: &mut ChaCha8Rng) {
    while !spsa.finished() {
        let probe = spsa.probe();
        let gain = noisy_score(&probe.plus, noise, rng) - noisy_score(&probe.minus, noise, rng);
        spsa.update(&probe, gain).unwrap();
    }
}

#[test]
fn converges_on_a_noisy_quadratic_from_a_bad_start() {
    let mut settings = SpsaSettings::for_iterations(2000);
    // A score difference of about 1 per unit of gain here, so a larger
    // learning rate than fishtest's (whose gain is wins minus losses).
    settings.r_end = 0.1;
    for seed in 1..=5 {
        let mut spsa = Spsa::new(two_parameters(), settings.clone(), seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        run(&mut spsa, 0.5, &mut rng);
        for (theta, target) in spsa.state().theta.iter().zip(TARGET) {
            assert!(
                (theta - target).abs() < 3.0,
                "seed {seed}: {theta} should be within 3 of {target}"
            );
        }
    }
}

#[test]
fn a_saved_state_resumes_on_the_same_path() {
    let settings = SpsaSettings::for_iterations(200);
    let mut whole = Spsa::new(two_parameters(), settings.clone(), 9).unwrap();
    let mut whole_rng = ChaCha8Rng::seed_from_u64(1);
    let mut halves = Spsa::new(two_parameters(), settings.clone(), 9).unwrap();
    let mut halves_rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..77 {
        let (a, b) = (whole.probe(), halves.probe());
        assert_eq!(a, b);
        whole
            .update(&a, noisy_score(&a.plus, 0.3, &mut whole_rng))
            .unwrap();
        halves
            .update(&b, noisy_score(&b.plus, 0.3, &mut halves_rng))
            .unwrap();
    }
    let saved = serde_json::to_string(halves.state()).unwrap();
    let state: SpsaState = serde_json::from_str(&saved).unwrap();
    let mut resumed = Spsa::resume(two_parameters(), settings, state).unwrap();
    run(&mut whole, 0.3, &mut whole_rng);
    run(&mut resumed, 0.3, &mut halves_rng);
    assert_eq!(whole.state(), resumed.state());
    assert_eq!(resumed.state().iteration, 200);
}

#[test]
fn a_whole_tune_round_trips_through_json() {
    let spsa = Spsa::new(two_parameters(), SpsaSettings::for_iterations(10), 3).unwrap();
    let back: Spsa = serde_json::from_str(&serde_json::to_string(&spsa).unwrap()).unwrap();
    assert_eq!(back, spsa);
}

#[test]
fn theta_and_the_probes_stay_inside_the_range() {
    let params = vec![Parameter::real("x", 99.0, -100.0, 100.0, 5.0).unwrap()];
    let mut spsa = Spsa::new(params, SpsaSettings::for_iterations(50), 4).unwrap();
    for _ in 0..50 {
        let probe = spsa.probe();
        assert!(
            probe.plus[0] <= 100.0 && probe.minus[0] <= 100.0,
            "{probe:?}"
        );
        // Always pushed up: theta sticks to the top of the range.
        spsa.update(&probe, 1000.0 * probe.delta[0]).unwrap();
        assert!(spsa.state().theta[0] <= 100.0);
    }
    assert_eq!(spsa.state().theta[0], 100.0);
}

#[test]
fn integer_parameters_are_rounded_when_sent_and_kept_real_in_theta() {
    let p = Parameter::integer("n", 3.0, 0.0, 10.0, 1.0).unwrap();
    assert_eq!(p.sent(3.4), 3.0);
    assert_eq!(p.sent(3.5), 4.0);
    assert_eq!(p.sent(-2.7), 0.0);
    assert_eq!(p.sent(12.0), 10.0);
    let mut spsa = Spsa::new(vec![p], SpsaSettings::for_iterations(100), 5).unwrap();
    let probe = spsa.probe();
    assert!(
        probe
            .plus
            .iter()
            .chain(&probe.minus)
            .all(|v| v.fract() == 0.0),
        "{probe:?}"
    );
    // A tiny gain moves theta by less than one: theta keeps the fraction.
    spsa.update(&probe, 0.1).unwrap();
    assert!(spsa.state().theta[0].fract() != 0.0, "{:?}", spsa.state());
}

#[test]
fn the_perturbation_shrinks_to_the_step_and_the_gains_follow_fishtest() {
    let p = Parameter::real("x", 0.0, -1000.0, 1000.0, 2.0).unwrap();
    let settings = SpsaSettings::for_iterations(1000);
    let mut spsa = Spsa::new(vec![p], settings, 1).unwrap();
    // c_1 = c_end * N^gamma = 2 * 1000^0.101.
    let first = spsa.probe();
    assert!(
        (first.c[0] - 2.0 * 1000f64.powf(0.101)).abs() < 1e-12,
        "{first:?}"
    );
    // a_1 / c_1 with gain 1: r_end * c_end^2 * ((A + N) / (A + 1))^alpha / c_1.
    spsa.update(&first, first.delta[0]).unwrap();
    let a_1 = 0.002 * 4.0 * (1100.0f64 / 101.0).powf(0.602);
    assert!(
        (spsa.state().theta[0] - a_1 / first.c[0]).abs() < 1e-12,
        "{:?}",
        spsa.state()
    );
    while spsa.state().iteration < 999 {
        let probe = spsa.probe();
        spsa.update(&probe, 0.0).unwrap();
    }
    assert!((spsa.probe().c[0] - 2.0).abs() < 1e-12);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(Parameter::integer("x", 0.0, 5.0, 5.0, 1.0).is_err());
    assert!(Parameter::integer("x", 9.0, 0.0, 5.0, 1.0).is_err());
    assert!(Parameter::integer("x", 1.0, 0.0, 5.0, 0.0).is_err());
    let p = Parameter::real("x", 0.0, -1.0, 1.0, 0.1).unwrap();
    assert!(Spsa::new(vec![], SpsaSettings::for_iterations(5), 1).is_err());
    assert!(Spsa::new(
        vec![p.clone(), p.clone()],
        SpsaSettings::for_iterations(5),
        1
    )
    .is_err());
    assert!(Spsa::new(vec![p.clone()], SpsaSettings::for_iterations(0), 1).is_err());
    let state = SpsaState {
        seed: 1,
        iteration: 0,
        theta: vec![0.0, 0.0],
    };
    assert!(Spsa::resume(vec![p.clone()], SpsaSettings::for_iterations(5), state).is_err());
    let mut spsa = Spsa::new(vec![p], SpsaSettings::for_iterations(5), 1).unwrap();
    let probe = spsa.probe();
    spsa.update(&probe, 1.0).unwrap();
    assert!(spsa.update(&probe, 1.0).is_err(), "the same probe twice");
}
