//! Several fixed anchors (Ordo's `-m`): the anchored players keep their
//! ratings, the others are fitted around them, and anchors that agree with
//! the results change nothing but the zero point; and loose anchors
//! (Ordo's anchors with an uncertainty), priors on a rating.

use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{
    fit_counts, fit_counts_anchored, fit_counts_loosely_anchored, Anchor, BradleyTerryOptions,
    LooseAnchor, RatingError, Wdl,
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

/// Games of `a` (player 0) against `b` (player 1): `wins` and `losses`
/// of `a` with each colour, no draws.
fn two_players(wins: u64, losses: u64) -> Vec<Wdl> {
    let mut counts = vec![Wdl::default(); 4];
    counts[1] = Wdl::new(wins, 0, losses); // a South
    counts[2] = Wdl::new(losses, 0, wins); // b South
    counts
}

fn raw_fixed_play() -> BradleyTerryOptions {
    BradleyTerryOptions {
        scale: aboure_stats::RatingScale::Raw,
        fit_advantage: false,
        fit_draw_elo: false,
        ..Default::default()
    }
}

#[test]
fn a_loose_anchor_against_a_fixed_one_is_the_precision_weighted_mean() {
    // b scores 55% of 2,000 games: the games alone put it near +50 with
    // a standard error s near 8; its loose anchor says 0 +/- 10. The
    // likelihood is then nearly normal over the 20 Elo the prior pulls.
    let counts = two_players(450, 550);
    let options = raw_fixed_play();
    let games = fit_counts_anchored(2, &counts, &options, &[(0, 0.0)]).unwrap();
    let (d, s) = (games.ratings[1], games.errors[1] / 1.96);
    let (mu, sd) = (0.0, 10.0);
    let loose = [LooseAnchor {
        player: 1,
        rating: mu,
        sd,
    }];
    let r = fit_counts_loosely_anchored(2, &counts, &options, &[(0, 0.0)], &loose).unwrap();
    let (wd, wm) = (1.0 / (s * s), 1.0 / (sd * sd));
    let expected = (wd * d + wm * mu) / (wd + wm);
    assert_eq!(r.ratings[0], 0.0, "the fixed anchor holds");
    assert!(
        (r.ratings[1] - expected).abs() < 0.3,
        "posterior mode {} against the precision-weighted mean {expected} (games: {d} +/- {s})",
        r.ratings[1]
    );
    let posterior_sd = r.errors[1] / 1.96;
    let expected_sd = (wd + wm).powf(-0.5);
    assert!(
        (posterior_sd / expected_sd - 1.0).abs() < 0.02,
        "posterior sd {posterior_sd} against {expected_sd}"
    );
}

#[test]
fn loose_anchors_alone_set_the_scale_and_keep_the_differences() {
    let counts = results(&[0.0, 60.0, -40.0, 120.0], 20, 9);
    let options = BradleyTerryOptions::default();
    let plain = fit_counts(4, &counts, &options).unwrap();
    let one = [LooseAnchor {
        player: 2,
        rating: 1500.0,
        sd: 50.0,
    }];
    let r = fit_counts_loosely_anchored(4, &counts, &options, &[], &one).unwrap();
    // The likelihood does not see a shift: the one loose anchor sits at
    // its mean, the differences are the games'.
    assert!((r.ratings[2] - 1500.0).abs() < 1e-6, "{:?}", r.ratings);
    for i in 0..4 {
        let (got, want) = (
            r.ratings[i] - r.ratings[2],
            plain.ratings[i] - plain.ratings[2],
        );
        assert!(
            (got - want).abs() < 1e-6,
            "player {i}: {got} against {want}"
        );
    }
    // Two loose anchors, equally sure but far less than the games, that
    // disagree with them by 100 Elo: each gives way by half.
    let two = [
        LooseAnchor {
            player: 0,
            rating: 0.0,
            sd: 200.0,
        },
        LooseAnchor {
            player: 3,
            rating: plain.ratings[3] - plain.ratings[0] + 100.0,
            sd: 200.0,
        },
    ];
    let r = fit_counts_loosely_anchored(4, &counts, &options, &[], &two).unwrap();
    assert!((r.ratings[0] - 50.0).abs() < 2.0, "{:?}", r.ratings);
}

#[test]
fn loose_anchors_are_checked() {
    let counts = two_players(5, 5);
    let options = BradleyTerryOptions::default();
    let bad = |fixed: &[(usize, f64)], loose: &[LooseAnchor]| {
        fit_counts_loosely_anchored(2, &counts, &options, fixed, loose)
    };
    let at = |player, sd| LooseAnchor {
        player,
        rating: 0.0,
        sd,
    };
    assert!(matches!(
        bad(&[], &[at(1, 0.0)]),
        Err(RatingError::InvalidOption(_))
    ));
    assert!(matches!(
        bad(&[], &[at(2, 5.0)]),
        Err(RatingError::InvalidOption(_))
    ));
    assert!(matches!(
        bad(&[(1, 0.0)], &[at(1, 5.0)]),
        Err(RatingError::InvalidOption(_))
    ));
    let profiled = BradleyTerryOptions {
        profile: true,
        ..Default::default()
    };
    assert!(matches!(
        fit_counts_loosely_anchored(2, &counts, &profiled, &[], &[at(0, 5.0)]),
        Err(RatingError::InvalidOption(_))
    ));
}

#[test]
fn loose_anchors_far_weaker_than_a_million_games_converge() {
    // The results of 240 games, each counted 5,000 times; loose anchors
    // +/- 20 that put the field 660 Elo wider than the games do.
    let counts: Vec<Wdl> = results(&[0.0, 60.0, -40.0, 120.0], 20, 11)
        .into_iter()
        .map(|w| Wdl::new(5_000 * w.wins, 5_000 * w.draws, 5_000 * w.losses))
        .collect();
    let options = BradleyTerryOptions::default();
    let plain = fit_counts(4, &counts, &options).unwrap();
    let loose = [(3, 1000.0), (2, -340.0)].map(|(player, rating)| LooseAnchor {
        player,
        rating,
        sd: 20.0,
    });
    let r = fit_counts_loosely_anchored(4, &counts, &options, &[], &loose).unwrap();
    for i in 0..4 {
        // The games hold the differences (to a fraction of an Elo) ...
        let (got, want) = (
            r.ratings[i] - r.ratings[0],
            plain.ratings[i] - plain.ratings[0],
        );
        assert!((got - want).abs() < 1.0, "player {i}: {got} against {want}");
    }
    // ... and the anchors, equally sure, split the disagreement.
    let miss = (r.ratings[3] - 1000.0) + (r.ratings[2] + 340.0);
    assert!(miss.abs() < 1.0, "{:?}", r.ratings);
}
