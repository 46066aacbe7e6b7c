//! Does the goodness-of-fit test reject the model as often as it should,
//! and only then? Round robins are drawn from BayesElo's model itself
//! (the test must reject at 5% about 5% of the time: within 3 standard
//! errors) and from a field where one bot beats a second that beats a
//! third that beats the first (it must almost always reject, and the
//! circle must be found), with a seeded generator.

use aboure_stats::bradley_terry::{cycles, goodness_of_fit};
use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{fit_counts, BradleyTerryOptions, PlayerResult, Wdl};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::common::window;

/// Results by colour of `rounds` double round robins, game `i` first
/// against `j` won with the probability `play` gives.
fn tournament(
    n: usize,
    rounds: usize,
    rng: &mut SmallRng,
    mut play: impl FnMut(&mut SmallRng, usize, usize) -> PlayerResult,
) -> Vec<Wdl> {
    let mut counts = vec![Wdl::default(); n * n];
    for _ in 0..rounds {
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                counts[i * n + j].add(play(rng, i, j));
            }
        }
    }
    counts
}

#[test]
fn a_true_model_is_rejected_at_the_stated_rate() {
    let truth = [0.0, 40.0, -30.0, 90.0, -100.0, 10.0];
    let model = BayesEloModel {
        draw_elo: 120.0,
        advantage: 25.0,
    };
    let mut rng = SmallRng::seed_from_u64(21);
    let (trials, mut rejected, mut circles) = (400, 0, 0);
    for _ in 0..trials {
        let counts = tournament(6, 10, &mut rng, |rng, i, j| {
            model.play(rng, truth[i], truth[j])
        });
        let r = fit_counts(6, &counts, &BradleyTerryOptions::default()).unwrap();
        let t = goodness_of_fit(6, &counts, &r);
        assert_eq!(t.degrees_of_freedom, 15 - 5);
        rejected += (t.p_value.unwrap() < 0.05) as usize;
        circles += cycles(6, &counts).len();
    }
    let rate = rejected as f64 / trials as f64;
    let (lo, hi) = window(0.05, trials, 3.0);
    assert!(
        lo <= rate && rate <= hi,
        "rejected {rate} of true models, outside [{lo}, {hi}]"
    );
    assert_eq!(circles, 0, "a transitive field shows no circle");
}

#[test]
fn a_circle_is_rejected_and_found() {
    // Bots 0, 1, 2 of equal strength, but each beats the next 70% of the
    // time; bot 3 is ordinary.
    let mut rng = SmallRng::seed_from_u64(22);
    let (trials, mut rejected, mut found) = (100, 0, 0);
    for _ in 0..trials {
        let counts = tournament(4, 40, &mut rng, |rng, i, j| {
            let p = match (i, j) {
                (0, 1) | (1, 2) | (2, 0) => 0.7,
                (1, 0) | (2, 1) | (0, 2) => 0.3,
                _ => 0.5,
            };
            if rng.gen::<f64>() < p {
                PlayerResult::Win
            } else {
                PlayerResult::Loss
            }
        });
        let options = BradleyTerryOptions {
            fit_draw_elo: false,
            draw_elo: 0.0,
            ..Default::default()
        };
        let r = fit_counts(4, &counts, &options).unwrap();
        let t = goodness_of_fit(4, &counts, &r);
        rejected += (t.p_value.unwrap() < 0.01) as usize;
        found += cycles(4, &counts).iter().any(|c| c.players == [0, 1, 2]) as usize;
    }
    assert!(rejected >= 90, "rejected {rejected} of {trials} circles");
    assert!(found >= 70, "found {found} of {trials} circles");
}
