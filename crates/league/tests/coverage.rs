//! Intervals stay honest when the games were chosen adaptively: the 95%
//! intervals of the refit, after a league chose each pair from the
//! results before it, cover the true strengths about 95% of the time.

use aboure_league::{options, Entrant, Field, Focus, Intervals, Rule, Separation};
use aboure_stats::{fit, BradleyTerryOptions, RatingScale, Ratings, BAYESELO_PRIOR};

use crate::support::run;

/// How many of `fitted`'s 95% intervals cover the centred `truth`.
fn covering(truth: &[f64], fitted: &Ratings) -> usize {
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    (truth.iter().enumerate())
        .filter(|&(i, t)| (fitted.ratings[i] - (t - mean)).abs() <= fitted.errors[i])
        .count()
}

#[test]
fn ninety_five_percent_intervals_cover_the_truth_under_adaptive_pairing() {
    let truth = [150.0, 75.0, 25.0, 0.0, -50.0, -200.0];
    let entrants = [Entrant::active(0); 6];
    let raw = BradleyTerryOptions {
        scale: RatingScale::Raw,
        ..options()
    };
    let (mut covered, mut intervals, mut failed) = (0, 0, 0);
    for replication in 0..150u64 {
        let mut pairs = Vec::new();
        run(
            &Rule::default(),
            &entrants,
            &truth,
            &mut pairs,
            80,
            replication,
        );
        let games = Field::new(&entrants, &pairs).unwrap().games();
        let Ok(fitted) = fit(truth.len(), &games, &raw) else {
            failed += 1;
            continue;
        };
        intervals += truth.len();
        covered += covering(&truth, &fitted);
    }
    let coverage = covered as f64 / intervals as f64;
    // 900 intervals: one binomial standard error is 0.7%; the tolerance
    // allows about four of them either side (the six of one replication
    // are not independent).
    assert!(failed <= 3, "{failed} of 150 fits had no maximum");
    assert!(
        (0.92..=0.975).contains(&coverage),
        "coverage {coverage:.3} of {intervals} intervals"
    );
}

/// A top-k league spends its games where the top is decided, and its
/// intervals still cover the truth: the tail entrants it stops playing
/// (the chance they belong in the top is nil) are rated from the games
/// they had, without the outward bias a rule that leaves a pair once it
/// looks apart gives the ends of the table.
#[test]
fn a_top_k_league_at_a_fixed_budget_keeps_honest_intervals() {
    // Spaced as the bench's fields: far apart at the top, close in the tail.
    let truth: Vec<f64> = (0..10)
        .map(|k| 600.0 * (1.0 - ((k as f64 + 0.5) / 10.0).sqrt()))
        .collect();
    let entrants = [Entrant::active(0); 10];
    let rule = Rule {
        focus: Focus::Top(3),
        ..Rule::default()
    };
    let raw = BradleyTerryOptions {
        scale: RatingScale::Raw,
        ..options()
    };
    let (mut covered, mut intervals, mut failed) = (0, 0, 0);
    let mut top_share = 0.0;
    for replication in 0..100u64 {
        let mut pairs = Vec::new();
        run(&rule, &entrants, &truth, &mut pairs, 200, replication);
        let field = Field::new(&entrants, &pairs).unwrap();
        // Seats taken by the top four (the top three and their boundary).
        let counts = field.pair_counts();
        top_share += counts[..4].iter().sum::<usize>() as f64 / (2 * pairs.len()) as f64;
        let Ok(fitted) = fit(truth.len(), &field.games(), &raw) else {
            failed += 1;
            continue;
        };
        intervals += truth.len();
        covered += covering(&truth, &fitted);
    }
    let coverage = covered as f64 / intervals as f64;
    let top_share = top_share / 100.0;
    assert!(failed <= 2, "{failed} of 100 fits had no maximum");
    // 1,000 intervals: one binomial standard error is 0.7%.
    assert!(
        (0.92..=0.975).contains(&coverage),
        "coverage {coverage:.3} of {intervals} intervals"
    );
    // A round robin would seat the top four 40% of the time.
    assert!(
        top_share > 0.5,
        "the top four took {top_share:.2} of the seats"
    );
}

/// The case the two tests above are too small to show: a long tail, a
/// top-k focus, and a league that stops on its own verdict. A rule whose
/// exploring pairs went to near neighbours let each tail boundary keep
/// the estimate of the moment it looked apart, and the errors added up
/// along the tail (this test then covered 87.9%; the bench's 64 entrants,
/// 45%). With exploring pairs that never look at the results, the
/// refit with BayesElo's prior, which a league's report uses, covers the
/// truth at the league's stop.
#[test]
fn a_long_tail_stopped_on_its_top_keeps_honest_intervals() {
    let n = 24;
    let truth: Vec<f64> = (0..n)
        .map(|k| 1000.0 * (1.0 - ((k as f64 + 0.5) / n as f64).sqrt()))
        .collect();
    let entrants = vec![Entrant::active(0); n];
    let rule = Rule {
        focus: Focus::Top(4),
        until: Some(Separation {
            confidence: 0.95,
            tie_margin: 0.0,
            intervals: Intervals::FixedSample,
        }),
        ..Rule::default()
    };
    let with_prior = BradleyTerryOptions {
        scale: RatingScale::Raw,
        prior: Some(BAYESELO_PRIOR),
        ..options()
    };
    let (mut covered, mut intervals) = (0, 0);
    for replication in 0..40u64 {
        let mut pairs = Vec::new();
        run(&rule, &entrants, &truth, &mut pairs, 4000, replication);
        let games = Field::new(&entrants, &pairs).unwrap().games();
        let fitted = fit(n, &games, &with_prior).expect("a prior bounds every rating");
        intervals += truth.len();
        covered += covering(&truth, &fitted);
    }
    let coverage = covered as f64 / intervals as f64;
    // 960 intervals, 24 of each league sharing its luck: the band allows
    // about three standard errors of the leagues' spread either side.
    assert!(
        (0.92..=0.985).contains(&coverage),
        "coverage {coverage:.3} of {intervals} intervals"
    );
}
