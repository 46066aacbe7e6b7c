//! The coverage claim with the power to catch a shortfall: the 95%
//! intervals of a league's report (the refit with BayesElo's prior), at
//! the moment the league stopped on its own verdict, hold the true
//! strengths at least about 95% of the time.
//!
//! Each simulated league contributes one interval, of the entrant its
//! replication number names, so the trials are independent (the
//! intervals of one league share its luck and its centring, and pooling
//! them overstates what the count can tell). How many leagues: to tell a
//! true coverage of 95% from 93%, the test passes when at least 94.0% of
//! `N` intervals cover. With `N = 2000`, if the truth were 93% the count
//! is Binomial(2000, 0.93), mean 1860 and standard deviation 11.4, and
//! passing needs 1880, so the test fails with probability 95.9% (the
//! exact binomial tail: it would pass by luck 4.1% of the time); at a
//! true 95% (mean 1900, sd 9.7) it fails by bad luck 2.0% of the time.
//! Fewer leagues cannot do both: at 1,000 (passing at 940) the same two
//! risks are 11.8% and 6.7%.
//!
//! Measured: 1,919 of 2,000 intervals covered (95.95%); the same
//! intervals shrunk to 0.84 of their width covered 1,847 (92.35%), and
//! the test then fails, as it must. The anytime intervals
//! ([`Intervals::Anytime`]) covered all 2,000 (their cost in games is
//! measured by `aboure bench league`).

use aboure_league::{options, Entrant, Field, Focus, Intervals, Rule, Separation};
use aboure_stats::elo::bayeselo_scale;
use aboure_stats::{fit, BradleyTerryOptions, RatingScale, BAYESELO_PRIOR};

use crate::support::run;

/// Independent leagues, one interval each (the module's power calculation).
const LEAGUES: u64 = 2000;

/// The share of covering intervals below which the test fails.
const THRESHOLD: f64 = 0.94;

/// Six entrants spaced as real fields are (far apart at the top, close in
/// the tail), 600 Elo from first to last.
fn truth() -> Vec<f64> {
    let raw = |k: usize| 1.0 - ((k as f64 + 0.5) / 6.0).sqrt();
    (0..6).map(|k| 600.0 * raw(k) / (raw(0) - raw(5))).collect()
}

/// Covered intervals of `leagues` leagues stopped by their own verdict
/// (top 2 separated at 95%) with `intervals`, each judged at that width.
fn covered_at_stop(intervals: Intervals, leagues: u64) -> (usize, usize) {
    let truth = truth();
    let n = truth.len();
    let mean = truth.iter().sum::<f64>() / n as f64;
    let entrants = vec![Entrant::active(0); n];
    let rule = Rule {
        focus: Focus::Top(2),
        until: Some(Separation {
            intervals,
            ..Separation::at(0.95)
        }),
        ..Rule::default()
    };
    let raw = BradleyTerryOptions {
        scale: RatingScale::Raw,
        prior: Some(BAYESELO_PRIOR),
        ..options()
    };
    let one = |replication: u64| {
        let mut pairs = Vec::new();
        run(&rule, &entrants, &truth, &mut pairs, 2000, replication);
        let games = Field::new(&entrants, &pairs).unwrap().games();
        let fitted = fit(n, &games, &raw).expect("a prior bounds every rating");
        let e = replication as usize % n;
        let sigma = fitted.errors[e] / 1.96;
        let half = intervals.two_sided(0.05, sigma * bayeselo_scale(fitted.draw_elo)) * sigma;
        (fitted.ratings[e] - (truth[e] - mean)).abs() <= half
    };
    // Two threads, each a fixed share of the replications.
    let covered: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2u64)
            .map(|t| s.spawn(move || (t..leagues).step_by(2).filter(|&r| one(r)).count()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    (covered, leagues as usize)
}

#[test]
fn intervals_at_the_leagues_own_stop_cover_with_power_to_see_93_percent() {
    let (covered, trials) = covered_at_stop(Intervals::FixedSample, LEAGUES);
    let share = covered as f64 / trials as f64;
    assert!(
        share >= THRESHOLD,
        "{covered} of {trials} intervals covered ({:.2}%), below {:.1}%",
        100.0 * share,
        100.0 * THRESHOLD
    );
}
