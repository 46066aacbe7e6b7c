//! Does the SPRT err as rarely as it promises?
//!
//! Matches are simulated at exactly H0's and H1's strength (see `common`:
//! BayesElo's model with openings of uneven advantage), the test is run to a
//! decision with the LLR checked after every batch (as fishtest does), and
//! the observed false positive and false negative rates must not exceed
//! alpha and beta by more than 3 standard errors for the number of runs.
//! Checking by batches and the discrete steps make the test conservative,
//! so rates below alpha and beta are expected.
//!
//! Larger runs: `cargo test -p aboure-stats --release --test tests sprt_errors:: -- --ignored`

use crate::common;

use aboure_stats::{EloModel, Pentanomial, Sprt, SprtDecision, Wdl};
use common::{logistic_elo, pair_nelo, solve, window, Match};
use rand::rngs::SmallRng;
use rand::SeedableRng;

const K: f64 = 3.0;
const MAX_GAMES: usize = 200_000;

/// Runs `runs` pentanomial SPRTs at model strength `elo`; returns the share
/// that accepted H1 and the share that reached no decision.
fn pentanomial_runs(sprt: &Sprt, elo: f64, runs: usize, batch: usize, seed: u64) -> (f64, f64) {
    let m = Match::typical();
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut h1, mut undecided) = (0, 0);
    for _ in 0..runs {
        let mut p = Pentanomial::default();
        let decision = loop {
            for _ in 0..batch {
                let (a, b) = m.play_pair(&mut rng, elo);
                p.add_pair(a, b);
            }
            let d = sprt.status_pentanomial(&p).decision;
            if d != SprtDecision::Continue || 2 * p.pairs() as usize >= MAX_GAMES {
                break d;
            }
        };
        match decision {
            SprtDecision::AcceptH1 => h1 += 1,
            SprtDecision::Continue => undecided += 1,
            SprtDecision::AcceptH0 => {}
        }
    }
    (h1 as f64 / runs as f64, undecided as f64 / runs as f64)
}

/// Same with W/D/L counts of independent games.
fn trinomial_runs(sprt: &Sprt, elo: f64, runs: usize, batch: usize, seed: u64) -> (f64, f64) {
    let m = Match::typical();
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut h1, mut undecided) = (0, 0);
    for _ in 0..runs {
        let mut w = Wdl::default();
        let decision = loop {
            for _ in 0..batch {
                w.add(m.play_game(&mut rng, elo));
            }
            let d = sprt.status_trinomial(&w).decision;
            if d != SprtDecision::Continue || w.games() as usize >= MAX_GAMES {
                break d;
            }
        };
        match decision {
            SprtDecision::AcceptH1 => h1 += 1,
            SprtDecision::Continue => undecided += 1,
            SprtDecision::AcceptH0 => {}
        }
    }
    (h1 as f64 / runs as f64, undecided as f64 / runs as f64)
}

/// Model strengths at which the match is exactly at nElo `nelo` (pairs).
fn strength_for_pair_nelo(nelo: f64) -> f64 {
    let m = Match::typical();
    solve(|e| pair_nelo(m.pair_distribution(e)), nelo, -400.0, 400.0)
}

/// Model strength at which one game's expected score is logistic Elo `elo`.
fn strength_for_logistic_elo(elo: f64) -> f64 {
    let m = Match::typical();
    solve(|e| logistic_elo(m.game_distribution(e)), elo, -400.0, 400.0)
}

fn check_error_rates(name: &str, sprt: &Sprt, runs: usize, at_h0: (f64, f64), at_h1: (f64, f64)) {
    let (false_positive, undecided0) = at_h0;
    let (power, undecided1) = at_h1;
    let false_negative = 1.0 - power - undecided1;
    let (_, fp_max) = window(sprt.alpha(), runs, K);
    let (_, fn_max) = window(sprt.beta(), runs, K);
    println!("{name}: false positives {false_positive}, false negatives {false_negative}");
    assert_eq!(
        (undecided0, undecided1),
        (0.0, 0.0),
        "{name}: undecided runs"
    );
    assert!(
        false_positive <= fp_max,
        "{name}: false positive rate {false_positive} > {fp_max}"
    );
    assert!(
        false_negative <= fn_max,
        "{name}: false negative rate {false_negative} > {fn_max}"
    );
    // Not vacuous: errors do happen, at a rate of the promised order.
    assert!(
        false_positive > sprt.alpha() / 5.0,
        "{name}: {false_positive}"
    );
    assert!(
        false_negative > sprt.beta() / 5.0,
        "{name}: {false_negative}"
    );
}

#[test]
fn normalized_pentanomial_error_rates() {
    let sprt = Sprt::new(0.0, 30.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let runs = 1000;
    let h0 = pentanomial_runs(&sprt, strength_for_pair_nelo(0.0), runs, 8, 21);
    let h1 = pentanomial_runs(&sprt, strength_for_pair_nelo(30.0), runs, 8, 22);
    check_error_rates("normalized pentanomial", &sprt, runs, h0, h1);
}

#[test]
fn logistic_trinomial_error_rates() {
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.1, EloModel::Logistic).unwrap();
    let runs = 1000;
    let h0 = trinomial_runs(&sprt, strength_for_logistic_elo(0.0), runs, 16, 23);
    let h1 = trinomial_runs(&sprt, strength_for_logistic_elo(20.0), runs, 16, 24);
    check_error_rates("logistic trinomial", &sprt, runs, h0, h1);
}

#[test]
#[ignore = "large run, see module docs"]
fn large_error_rate_runs() {
    let runs = 4000;
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let h0 = pentanomial_runs(&sprt, strength_for_pair_nelo(0.0), runs, 4, 31);
    let h1 = pentanomial_runs(&sprt, strength_for_pair_nelo(20.0), runs, 4, 32);
    check_error_rates("normalized pentanomial, large", &sprt, runs, h0, h1);
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Logistic).unwrap();
    let h0 = pentanomial_runs(&sprt, strength_for_pair_logistic(0.0), runs, 4, 33);
    let h1 = pentanomial_runs(&sprt, strength_for_pair_logistic(10.0), runs, 4, 34);
    check_error_rates("logistic pentanomial, large", &sprt, runs, h0, h1);
}

fn strength_for_pair_logistic(elo: f64) -> f64 {
    let m = Match::typical();
    solve(
        |e| common::pair_distribution_elo(m.pair_distribution(e)),
        elo,
        -400.0,
        400.0,
    )
}
