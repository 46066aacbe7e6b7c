//! Several fixed anchors (Ordo's `-m`): the anchored players keep their
//! ratings, the others are fitted around them, and anchors that agree with
//! the results change nothing but the zero point.

use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{
    fit_counts, fit_counts_anchored, Anchor, BradleyTerryOptions, RatingError, Wdl,
};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Results by colour of `rounds` double round robins.
fn results(truth: &[f64], rounds: usize, seed: u64) -> Vec<Wdl> {
    let model = BayesEloModel {
        draw_elo: 120.0,
        advantage: 30.0,
    };
    let n = truth.len();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut counts = vec![Wdl::default(); n * n];
    for _ in 0..rounds {
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                counts[i * n + j].add(model.play(&mut rng, truth[i], truth[j]));
            }
        }
    }
    counts
}

#[test]
fn anchors_that_agree_with_the_results_only_move_the_zero_point() {
    let counts = results(&[0.0, 60.0, -40.0, 120.0, 20.0], 20, 5);
    let one = BradleyTerryOptions {
        anchor: Anchor::Player {
            player: 0,
            rating: 1500.0,
        },
        profile: true,
        ..Default::default()
    };
    let single = fit_counts(5, &counts, &one).unwrap();
    // Anchor players 0 and 3 where the single-anchor fit put them.
    let anchors = [(0, 1500.0), (3, single.ratings[3])];
    let options = BradleyTerryOptions {
        profile: true,
        ..Default::default()
    };
    let two = fit_counts_anchored(5, &counts, &options, &anchors).unwrap();
    for i in 0..5 {
        assert!(
            (two.ratings[i] - single.ratings[i]).abs() < 1e-6,
            "player {i}: {} against {}",
            two.ratings[i],
            single.ratings[i]
        );
    }
    // Held players have no uncertainty; the others less than with one anchor.
    assert_eq!((two.errors[0], two.errors[3]), (0.0, 0.0));
    for i in [1, 2, 4] {
        assert!(two.errors[i] < single.errors[i], "player {i}");
        let (lo, hi) = two.profile.as_ref().unwrap()[i];
        assert!(lo.unwrap() < two.ratings[i] && two.ratings[i] < hi.unwrap());
    }
    assert_eq!(
        two.profile.as_ref().unwrap()[3],
        (Some(two.ratings[3]), Some(two.ratings[3]))
    );
}

#[test]
fn anchors_pull_the_field_between_them() {
    let counts = results(&[0.0, 60.0, -40.0, 120.0, 20.0], 20, 6);
    let options = BradleyTerryOptions::default();
    let base = fit_counts_anchored(5, &counts, &options, &[(0, 0.0), (3, 100.0)]).unwrap();
    let wide = fit_counts_anchored(5, &counts, &options, &[(0, 0.0), (3, 300.0)]).unwrap();
    assert!((wide.ratings[3] - 300.0).abs() < 1e-9 && wide.ratings[0].abs() < 1e-9);
    for i in [1, 2, 4] {
        assert!(
            wide.ratings[i] > base.ratings[i],
            "player {i} moves up with the upper anchor"
        );
    }
    // A bad anchor list is refused, naming why.
    for (anchors, why) in [
        (vec![(0, 0.0), (0, 10.0)], "anchored twice"),
        (vec![(0, 0.0), (9, 10.0)], "does not exist"),
        (vec![(0, 0.0), (1, f64::NAN)], "not finite"),
    ] {
        match fit_counts_anchored(5, &counts, &options, &anchors) {
            Err(RatingError::InvalidOption(what)) => assert!(what.contains(why), "{what}"),
            other => panic!("{anchors:?}: {other:?}"),
        }
    }
}
