//! Do the 95% intervals contain the truth 95% of the time?
//!
//! Results are drawn from known strengths (BayesElo's model with a draw
//! parameter and openings of uneven first-move advantage, see `common`),
//! many times over with a seeded generator, and the share of intervals that
//! contain the true value must fall within 3 standard errors of 95% for the
//! number of trials (for 1000 trials, 95% +/- 2.1%).
//!
//! The intervals are normal approximations, so their true coverage at a few
//! hundred games is only near 95% (about 94.2% for nElo at 400 games: the
//! variance is estimated too). The large runs, whose sampling error is far
//! smaller, check that the true coverage lies within 93%..97%.
//!
//! Rating intervals of every kind (covariance, profile likelihood and the
//! bootstrap over game pairs) are checked in the three fields of
//! `aboure_stats::coverage`: an ordinary one, a nearly perfect player, and
//! a newcomer with 20 games (full figures: `aboure bench coverage`).
//!
//! The default runs take a few seconds in the test profile. Larger runs:
//! `cargo test -p aboure-stats --release --test tests coverage:: -- --ignored`

use crate::common;

use aboure_stats::coverage::{coverage, IntervalMethod, SimulatedField};
use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{fit, BradleyTerryOptions, Game, Pentanomial, RatingScale, Wdl};
use common::{logistic_elo, pair_distribution_elo, pair_nelo, window, Match};
use rand::rngs::SmallRng;
use rand::SeedableRng;

const K: f64 = 3.0;

/// Share of matches of `games` independent games whose Elo and nElo
/// intervals contain the truth.
fn trinomial_coverage(matches: usize, games: usize, elo: f64, seed: u64) -> (f64, f64) {
    let m = Match::typical();
    let dist = m.game_distribution(elo);
    let true_elo = logistic_elo(dist);
    let mean = dist[0] + 0.5 * dist[1];
    let var =
        dist[0] * (1.0 - mean).powi(2) + dist[1] * (0.5 - mean).powi(2) + dist[2] * mean * mean;
    let true_nelo = (mean - 0.5) / var.sqrt() * aboure_stats::elo::NELO_PER_T;
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut elo_hits, mut nelo_hits) = (0, 0);
    for _ in 0..matches {
        let mut wdl = Wdl::default();
        for _ in 0..games {
            wdl.add(m.play_game(&mut rng, elo));
        }
        let h = wdl.head_to_head();
        elo_hits += h.elo.interval().is_some_and(|i| i.contains(true_elo)) as usize;
        nelo_hits += h.nelo.interval().is_some_and(|i| i.contains(true_nelo)) as usize;
    }
    (
        elo_hits as f64 / matches as f64,
        nelo_hits as f64 / matches as f64,
    )
}

/// Same for matches of `pairs` game pairs (opening shared, colours swapped),
/// with pentanomial intervals; also returns how often the W/D/L interval of
/// the same games (which ignores the pairing) contains the truth.
fn pentanomial_coverage(matches: usize, pairs: usize, elo: f64, seed: u64) -> (f64, f64, f64) {
    let m = Match::typical();
    let dist = m.pair_distribution(elo);
    let true_elo = pair_distribution_elo(dist);
    let true_nelo = pair_nelo(dist);
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut elo_hits, mut nelo_hits, mut wdl_hits) = (0, 0, 0);
    for _ in 0..matches {
        let mut p = Pentanomial::default();
        let mut wdl = Wdl::default();
        for _ in 0..pairs {
            let (a, b) = m.play_pair(&mut rng, elo);
            p.add_pair(a, b);
            wdl.add(a);
            wdl.add(b);
        }
        let h = p.head_to_head();
        elo_hits += h.elo.interval().is_some_and(|i| i.contains(true_elo)) as usize;
        nelo_hits += h.nelo.interval().is_some_and(|i| i.contains(true_nelo)) as usize;
        let w = wdl.head_to_head();
        wdl_hits += w.elo.interval().is_some_and(|i| i.contains(true_elo)) as usize;
    }
    let n = matches as f64;
    (
        elo_hits as f64 / n,
        nelo_hits as f64 / n,
        wdl_hits as f64 / n,
    )
}

/// Share of (tournament, player) intervals that contain the player's true
/// rating relative to the mean, over double round robins.
fn bradley_terry_coverage(tournaments: usize, rounds: usize, seed: u64) -> (f64, usize) {
    let truth = [0.0, 40.0, -30.0, 90.0, -100.0, 10.0];
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    let model = BayesEloModel {
        draw_elo: 120.0,
        advantage: 25.0,
    };
    let options = BradleyTerryOptions {
        scale: RatingScale::Raw,
        ..Default::default()
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut hits, mut trials) = (0, 0);
    for _ in 0..tournaments {
        let mut games = Vec::new();
        for _ in 0..rounds {
            for i in 0..truth.len() {
                for j in 0..truth.len() {
                    if i != j {
                        games.push(Game::new(i, j, model.play(&mut rng, truth[i], truth[j])));
                    }
                }
            }
        }
        // A tournament so lopsided that some rating is infinite has no
        // interval to check; with these strengths it does not happen.
        let r = fit(truth.len(), &games, &options).expect("finite ratings");
        for (i, t) in truth.iter().enumerate() {
            trials += 1;
            hits += ((r.ratings[i] - (t - mean)).abs() <= r.errors[i]) as usize;
        }
    }
    (hits as f64 / trials as f64, trials)
}

#[test]
fn trinomial_intervals_cover_the_truth() {
    let n = 1000;
    let (lo, hi) = window(0.95, n, K);
    let (elo, nelo) = trinomial_coverage(n, 400, 35.0, 1);
    assert!(
        lo <= elo && elo <= hi,
        "Elo coverage {elo} outside [{lo}, {hi}]"
    );
    assert!(
        lo <= nelo && nelo <= hi,
        "nElo coverage {nelo} outside [{lo}, {hi}]"
    );
}

#[test]
fn pentanomial_intervals_cover_the_truth() {
    let n = 1000;
    let (lo, hi) = window(0.95, n, K);
    let (elo, nelo, wdl) = pentanomial_coverage(n, 200, 35.0, 2);
    assert!(
        lo <= elo && elo <= hi,
        "Elo coverage {elo} outside [{lo}, {hi}]"
    );
    assert!(
        lo <= nelo && nelo <= hi,
        "nElo coverage {nelo} outside [{lo}, {hi}]"
    );
    // Openings of uneven advantage make the two games of a pair
    // anti-correlated: W/D/L intervals are then too wide.
    assert!(
        wdl > hi,
        "W/D/L coverage {wdl} should exceed {hi} on paired games"
    );
}

#[test]
fn bradley_terry_intervals_cover_the_truth() {
    let (coverage, trials) = bradley_terry_coverage(200, 3, 3);
    let (lo, hi) = window(0.95, trials, K);
    assert!(
        lo <= coverage && coverage <= hi,
        "coverage {coverage} outside [{lo}, {hi}] over {trials}"
    );
}

/// 93%..97%, or 95% +/- 3 standard errors if that is wider.
fn wide_window(n: usize) -> (f64, f64) {
    let (lo, hi) = window(0.95, n, K);
    (lo.min(0.93), hi.max(0.97))
}

#[test]
#[ignore = "large run, see module docs"]
fn large_coverage_runs() {
    let n = 20_000;
    let (lo, hi) = wide_window(n);
    for (name, x) in [
        ("trinomial Elo", trinomial_coverage(n, 400, 35.0, 10).0),
        ("trinomial nElo", trinomial_coverage(n, 400, -60.0, 11).1),
        ("pentanomial Elo", pentanomial_coverage(n, 200, 35.0, 12).0),
        (
            "pentanomial nElo",
            pentanomial_coverage(n, 200, -60.0, 13).1,
        ),
    ] {
        println!("{name}: {x}");
        assert!(
            lo <= x && x <= hi,
            "{name} coverage {x} outside [{lo}, {hi}]"
        );
    }
    let (coverage, trials) = bradley_terry_coverage(4000, 3, 14);
    let (lo, hi) = wide_window(trials);
    println!("Bradley-Terry: {coverage} over {trials}");
    assert!(lo <= coverage && coverage <= hi);
}

/// Coverage of every kind in each field (`aboure_stats::coverage`), each
/// within `window(method, tournaments)` for the tournaments with a finite
/// fit.
fn interval_coverage(
    trials: usize,
    samples: usize,
    seed: u64,
    window: impl Fn(IntervalMethod, usize) -> (f64, f64),
) {
    for (k, field) in SimulatedField::all().iter().enumerate() {
        for method in [
            IntervalMethod::Covariance,
            IntervalMethod::Likelihood,
            IntervalMethod::Bootstrap(samples),
        ] {
            let c = coverage(field, method, trials, seed + k as u64);
            let (lo, hi) = window(method, c.trials);
            println!(
                "{}, {method:?}: {:.1}% over {} ({} without finite ratings, {} open at the top)",
                field.name,
                100.0 * c.share(),
                c.trials,
                c.unrated,
                c.open_top
            );
            assert!(
                lo <= c.share() && c.share() <= hi,
                "{} {method:?}: coverage {} outside [{lo}, {hi}]",
                field.name,
                c.share()
            );
        }
    }
}

/// The percentile bootstrap under-covers these small fields: 92.7%
/// (ordinary), 86.9% (nearly perfect bot: its lower end too high) and
/// 91.8% (newcomer) over 2,000 tournaments (`aboure bench coverage`, README).
/// Its floor here is 80%, the others' 95% less 3 standard errors.
fn floor(method: IntervalMethod, n: usize) -> (f64, f64) {
    match method {
        IntervalMethod::Bootstrap(_) => (0.80, 1.0),
        _ => window(0.95, n, K),
    }
}

/// 100 tournaments a field, 200 resamples each: the covariance and the
/// likelihood within 95% +/- 3 standard errors (88.5% to 100% for 100
/// tournaments), the bootstrap at least 80%.
#[test]
fn rating_intervals_of_every_kind_cover_the_truth() {
    interval_coverage(100, 200, 30, floor);
}

#[test]
fn the_bootstrap_of_a_nearly_perfect_bot_is_often_open_at_the_top() {
    let field = &SimulatedField::all()[1];
    let c = coverage(field, IntervalMethod::Bootstrap(200), 60, 31);
    // It loses about 2% of its 30 games: a resample of its 15 pairs
    // without a loss is common, so many intervals have no upper end.
    assert!(c.open_top * 4 >= c.trials, "{c:?}");
    assert!(c.hits >= c.trials * 9 / 10, "{c:?}");
}

#[test]
#[ignore = "large run, see module docs"]
fn large_rating_interval_coverage() {
    // Over-covering is conservative, not dishonest: only the lower end
    // binds here (the covariance and the likelihood cover a nearly perfect
    // bot more than 95% of the time, the tournaments where it won every
    // game left out); the bootstrap under-covers (see `floor`).
    interval_coverage(2000, 200, 40, |m, n| match m {
        IntervalMethod::Bootstrap(_) => (0.85, 1.0),
        _ => (wide_window(n).0, 1.0),
    });
}
