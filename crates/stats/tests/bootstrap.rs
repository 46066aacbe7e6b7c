//! The bootstrap over game pairs: its resample keeps the pairs whole and
//! their number, its intervals are reproducible whatever the threads,
//! agree with the covariance where that is right, and stay open at the top
//! for a bot that rarely loses a pair.

use aboure_stats::bradley_terry::{bootstrap, BootstrapOptions, PairedResults, SeatedPairs};
use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{fit_counts, BradleyTerryOptions, PlayerResult, Wdl};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use PlayerResult::{Draw, Loss, Win};

/// `pairs` double round robins of game pairs (colours swapped) among
/// `truth`, and `singles` more games each way unpaired.
fn field(truth: &[f64], pairs: usize, singles: usize, seed: u64) -> PairedResults {
    let model = BayesEloModel {
        draw_elo: 120.0,
        advantage: 30.0,
    };
    let n = truth.len();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut by_colour = vec![Wdl::default(); n * n];
    let mut seated = vec![SeatedPairs::default(); n * n];
    for i in 0..n {
        for j in i + 1..n {
            for _ in 0..pairs {
                let south = model.play(&mut rng, truth[i], truth[j]);
                let north = !model.play(&mut rng, truth[j], truth[i]);
                by_colour[i * n + j].add(south);
                by_colour[j * n + i].add(!north);
                seated[i * n + j].add(south, north);
            }
            for _ in 0..singles {
                by_colour[i * n + j].add(model.play(&mut rng, truth[i], truth[j]));
                by_colour[j * n + i].add(model.play(&mut rng, truth[j], truth[i]));
            }
        }
    }
    let mut results = PairedResults::new(n, &by_colour);
    for i in 0..n {
        for j in i + 1..n {
            results.pair_up(i, j, &seated[i * n + j]).unwrap();
        }
    }
    results
}

#[test]
fn pairing_up_keeps_every_game_and_refuses_pairs_not_played() {
    let mut by_colour = vec![Wdl::default(); 4];
    by_colour[1] = Wdl::new(2, 1, 0); // 0 South against 1
    by_colour[2] = Wdl::new(0, 0, 3); // 1 South against 0: 0 won them
    let mut results = PairedResults::new(2, &by_colour);
    let mut pairs = SeatedPairs::default();
    pairs.add(Win, Win);
    pairs.add(Draw, Win);
    // Seen from player 1: its South games are 0's North games.
    results.pair_up(1, 0, &pairs.reversed()).unwrap();
    assert_eq!(results.by_colour(), by_colour);
    let mut more = SeatedPairs::default();
    more.add(Loss, Win);
    assert!(
        results.pair_up(0, 1, &more).is_err(),
        "0 never lost as South"
    );
}

#[test]
fn a_resample_keeps_the_number_of_pairs_and_singletons_and_their_mean() {
    let results = field(&[0.0, 50.0, -80.0], 30, 7, 1);
    let observed = results.by_colour();
    let mut rng = SmallRng::seed_from_u64(2);
    let n = 3;
    let games = |counts: &[Wdl]| counts.iter().map(Wdl::games).sum::<u64>();
    let mut mean = vec![0.0; n * n];
    let draws = 400;
    for _ in 0..draws {
        let r = results.resample(&mut rng);
        // 90 pairs and 42 singletons, both games of a pair kept together:
        // every cell's games as South equal its opponent's as North.
        assert_eq!(games(&r), games(&observed));
        for k in 0..n * n {
            mean[k] += r[k].wins as f64 / draws as f64;
        }
    }
    for k in (0..n * n).filter(|k| k / n != k % n) {
        let expected = observed[k].wins as f64;
        // The resample's mean is the observed count (within 5 sd of it).
        let sd = (expected / draws as f64).sqrt();
        assert!(
            (mean[k] - expected).abs() <= 5.0 * sd + 1e-9,
            "cell {k}: mean {} against {expected}",
            mean[k]
        );
    }
}

#[test]
fn the_two_games_of_a_pair_are_drawn_together() {
    // Every pair is won by whoever is South: each resample keeps that.
    let mut by_colour = vec![Wdl::default(); 4];
    by_colour[1] = Wdl::new(20, 0, 0);
    by_colour[2] = Wdl::new(20, 0, 0);
    let mut results = PairedResults::new(2, &by_colour);
    let mut pairs = SeatedPairs::default();
    for _ in 0..20 {
        pairs.add(Win, Loss);
    }
    results.pair_up(0, 1, &pairs).unwrap();
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..50 {
        assert_eq!(results.resample(&mut rng), by_colour);
    }
}

#[test]
fn intervals_are_reproducible_and_do_not_depend_on_the_threads() {
    let results = field(&[0.0, 60.0, -40.0, 120.0], 20, 0, 3);
    let options = BradleyTerryOptions::default();
    let run = |threads, seed| {
        let settings = BootstrapOptions {
            samples: 200,
            seed,
            threads,
        };
        bootstrap(&results, &options, (&[], &[]), &settings)
            .unwrap()
            .1
    };
    let one = run(1, 9);
    assert_eq!(one, run(3, 9));
    assert_ne!(
        one.bounds,
        run(1, 10).bounds,
        "another seed, other resamples"
    );
}

#[test]
fn intervals_agree_with_the_covariance_on_an_ordinary_field() {
    let results = field(&[0.0, 60.0, -40.0, 120.0, 20.0], 60, 0, 4);
    let options = BradleyTerryOptions::default();
    let settings = BootstrapOptions {
        samples: 1000,
        seed: 1,
        threads: 0,
    };
    let (ratings, boot) = bootstrap(&results, &options, (&[], &[]), &settings).unwrap();
    let plain = fit_counts(5, &results.by_colour(), &options).unwrap();
    assert_eq!(ratings.ratings, plain.ratings, "the same point estimate");
    for i in 0..5 {
        let (Some(lo), Some(hi)) = boot.bounds[i] else {
            panic!("player {i}: {:?}", boot.bounds[i]);
        };
        let (r, e) = (ratings.ratings[i], ratings.errors[i]);
        assert!(lo < r && r < hi, "player {i}: {r} outside [{lo}, {hi}]");
        // Independent games: the half-widths agree within 15%.
        for half in [r - lo, hi - r] {
            assert!(
                (half / e - 1.0).abs() < 0.15,
                "player {i}: half-width {half} against the covariance's {e}"
            );
        }
        assert_eq!((boot.above[i], boot.below[i], boot.unrated[i]), (0, 0, 0));
    }
}

#[test]
fn a_bot_that_rarely_loses_a_pair_has_no_upper_end() {
    // Player 0 won every pair but one, which it split.
    let n = 3;
    let mut by_colour = vec![Wdl::default(); n * n];
    let mut seated = vec![SeatedPairs::default(); n * n];
    let mut play = |i: usize, j: usize, south: PlayerResult, north: PlayerResult, k| {
        for _ in 0..k {
            by_colour[i * n + j].add(south);
            by_colour[j * n + i].add(!north);
            seated[i * n + j].add(south, north);
        }
    };
    play(0, 1, Win, Win, 9);
    play(0, 1, Win, Loss, 1);
    play(0, 2, Win, Win, 10);
    play(1, 2, Win, Loss, 4);
    play(1, 2, Win, Draw, 3);
    play(1, 2, Draw, Loss, 3);
    let mut results = PairedResults::new(n, &by_colour);
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        results.pair_up(i, j, &seated[i * n + j]).unwrap();
    }
    let settings = BootstrapOptions {
        samples: 500,
        seed: 5,
        threads: 0,
    };
    let (ratings, boot) = bootstrap(
        &results,
        &BradleyTerryOptions::default(),
        (&[], &[]),
        &settings,
    )
    .unwrap();
    // A resample misses the one split pair with chance (9/10)^10: 35%.
    let share = boot.above[0] as f64 / 500.0;
    assert!(
        (0.25..0.45).contains(&share),
        "{share} of resamples unbounded"
    );
    let (lo, hi) = boot.bounds[0];
    assert_eq!(hi, None, "no finite upper end");
    assert!(lo.is_some_and(|l| l < ratings.ratings[0]));
    // Centred on the mean, the others fall to -inf in those resamples.
    assert_eq!(boot.below[1], boot.above[0]);
    assert_eq!(boot.bounds[1].0, None);
}
