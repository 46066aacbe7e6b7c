//! The ratings' edge cases: what the report says when games cannot rate
//! every bot, or rate them only in groups, or hold nothing but draws.

use aboure_report::{IntervalKind, RatingStatus, Report, ReportOptions};

use crate::support;
use support::game;

#[test]
fn a_single_game_has_no_rating_and_says_why() {
    let report = Report::build(&[game("g", "a", "b", "1-0")], &ReportOptions::default());
    assert_eq!(report.ratings.status, RatingStatus::Unbounded);
    assert!(report.players.iter().all(|p| p.elo.is_none()));
    let text = report.text();
    assert!(
        text.contains("a conceded no point to b, so no Elo is given"),
        "{text}"
    );
    assert!(!text.contains("inf ") && !text.contains("NaN"), "{text}");
    assert_eq!(report.players[0].name, "a");
    let json = report.json();
    assert!(json["players"][0]["elo"].is_null());
    assert_eq!(json["ratings"]["status"], "unbounded");
}

#[test]
fn a_bot_with_all_losses_is_not_rated_but_the_others_are_listed() {
    let games = [
        game("1", "a", "b", "1-0"),
        game("2", "b", "a", "1-0"),
        game("3", "a", "z", "1-0"),
        game("4", "z", "b", "0-1"),
    ];
    let report = Report::build(&games, &ReportOptions::default());
    assert_eq!(report.ratings.status, RatingStatus::Unbounded);
    assert_eq!(report.players.last().unwrap().name, "z");
    assert!(
        report.text().contains("a, b conceded no point to z"),
        "{}",
        report.text()
    );
}

#[test]
fn disconnected_groups_are_rated_apart_and_said_to_be_incomparable() {
    let games = [
        game("1", "a", "b", "1-0"),
        game("2", "b", "a", "1/2-1/2"),
        game("3", "b", "a", "0-1"),
        game("4", "a", "b", "0-1"),
        game("5", "c", "d", "1-0"),
        game("6", "d", "c", "1-0"),
        game("7", "c", "d", "1/2-1/2"),
    ];
    let report = Report::build(&games, &ReportOptions::default());
    assert_eq!(report.ratings.status, RatingStatus::Disconnected);
    assert_eq!(report.ratings.groups, vec![vec!["a", "b"], vec!["c", "d"]]);
    let text = report.text();
    assert!(text.contains("NOT comparable across groups"), "{text}");
    assert!(text.contains("group 1: a, b; group 2: c, d"), "{text}");
    assert!(text.contains("Group"), "{text}");
    let groups: Vec<usize> = report.players.iter().map(|p| p.group).collect();
    assert_eq!(groups, [1, 1, 2, 2]);
    let json = report.json();
    assert!(json["ratings"]["first_move_advantage"].is_null());
    // No LOS across groups.
    assert!(json["los"]["matrix"][0][2].is_null());
    assert!(json["los"]["matrix"][0][1].is_f64());
}

#[test]
fn all_draws_hold_the_draw_parameter_and_say_so() {
    let games = [
        game("1", "a", "b", "1/2-1/2"),
        game("2", "b", "a", "1/2-1/2"),
    ];
    let report = Report::build(&games, &ReportOptions::default());
    assert_eq!(
        report.ratings.status,
        RatingStatus::Ok,
        "{:?}",
        report.ratings
    );
    assert!(
        report.text().contains("draw parameter cannot be fitted"),
        "{}",
        report.text()
    );
    let (a, b) = (
        report.players[0].elo.unwrap(),
        report.players[1].elo.unwrap(),
    );
    assert!(a.abs() < 1e-6 && b.abs() < 1e-6);
}

#[test]
fn a_circle_of_results_fails_the_fit_test_and_is_named_in_every_format() {
    // a beats b beats c beats a, 9 games of 10 each way; the ratings are
    // equal and predict half the points everywhere.
    let mut games = Vec::new();
    for (x, y) in [("a", "b"), ("b", "c"), ("c", "a")] {
        for k in 0..10 {
            let (south, north, result) = match (k % 2, k) {
                (_, 0) => (x, y, "0-1"),
                (0, _) => (x, y, "1-0"),
                _ => (y, x, "0-1"),
            };
            let id = format!("{x}{y}{k}");
            games.push(game(&id, south, north, result));
        }
    }
    let report = Report::build(&games, &ReportOptions::default());
    let fit = report
        .ratings
        .fit
        .as_ref()
        .expect("one fit covers everybody");
    assert_eq!(fit.degrees_of_freedom, 1);
    assert!(fit.p_value.unwrap() < 0.01, "{fit:?}");
    assert_eq!(fit.deviations.len(), 3);
    assert_eq!(report.ratings.cycles.len(), 1);
    assert_eq!(report.ratings.cycles[0].bots, ["a", "b", "c"]);
    let text = report.text();
    assert!(
        text.contains("WARNING: the ratings do not fit these results"),
        "{text}"
    );
    assert!(
        text.contains("WARNING: results go round in a circle beyond noise: a beat b (90.0%, LOS"),
        "{text}"
    );
    let json = report.json();
    assert_eq!(json["ratings"]["cycles"][0]["bots"][2], "c");
    assert_eq!(json["ratings"]["fit"]["degrees_of_freedom"], 1);
    let html = report.html();
    assert!(html.contains("results go round in a circle beyond noise"));
    assert!(html.contains("the ratings do not fit these results"));
}

#[test]
fn likelihood_intervals_are_asymmetric_for_a_bot_that_never_loses_and_the_report_says_so() {
    // "top" wins 9 and draws 1 of every 10 games against each of two
    // others, who split their games.
    let mut games = Vec::new();
    for other in ["b", "c"] {
        for k in 0..10 {
            let result = if k == 0 { "1/2-1/2" } else { "1-0" };
            let (south, north, result) = if k % 2 == 0 {
                ("top", other, result)
            } else {
                (other, "top", if k == 0 { "1/2-1/2" } else { "0-1" })
            };
            games.push(game(&format!("{other}{k}"), south, north, result));
        }
    }
    for k in 0..10 {
        let result = if k % 2 == 0 { "1-0" } else { "0-1" };
        games.push(game(&format!("bc{k}"), "b", "c", result));
    }
    let covariance = Report::build(&games, &ReportOptions::default());
    let options = ReportOptions {
        intervals: IntervalKind::Likelihood,
        ..Default::default()
    };
    let likelihood = Report::build(&games, &options);
    let top = |r: &Report| r.players.iter().find(|p| p.name == "top").unwrap().clone();
    let (c, l) = (top(&covariance), top(&likelihood));
    assert_eq!(c.elo, l.elo, "the same fit");
    let (e, lo, hi) = (l.elo.unwrap(), l.elo_low.unwrap(), l.elo_high.unwrap());
    assert!(hi - e > 1.3 * (e - lo), "upper end farther: {lo} {e} {hi}");
    let half = c.elo_high.unwrap() - e;
    assert!(
        (e - c.elo_low.unwrap() - half).abs() < 1e-9,
        "covariance: symmetric"
    );
    let text = likelihood.text();
    assert!(
        text.contains("95% intervals from the profile likelihood"),
        "{text}"
    );
    assert!(covariance
        .text()
        .contains("95% intervals from the covariance."));
    assert_eq!(likelihood.json()["ratings"]["intervals"], "likelihood");
    assert!(likelihood
        .html()
        .contains("intervals from the profile likelihood"));
}
