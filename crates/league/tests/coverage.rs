//! Intervals stay honest when the games were chosen adaptively: the 95%
//! intervals of the refit, after a league chose each pair from the
//! results before it, cover the true strengths about 95% of the time.

use aboure_league::{options, Entrant, Field, Rule};
use aboure_stats::{fit, BradleyTerryOptions, RatingScale};

use crate::support::run;

#[test]
fn ninety_five_percent_intervals_cover_the_truth_under_adaptive_pairing() {
    let truth = [150.0, 75.0, 25.0, 0.0, -50.0, -200.0];
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
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
        for (i, t) in truth.iter().enumerate() {
            intervals += 1;
            if (fitted.ratings[i] - (t - mean)).abs() <= fitted.errors[i] {
                covered += 1;
            }
        }
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
