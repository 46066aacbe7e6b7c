//! BayesElo's prior in the report: the ratings are the statistics crate's
//! fit with the same virtual draws, a bot that won every game is rated,
//! and the report says which prior it used.

use aboure_report::{IntervalKind, RatingStatus, Report, ReportOptions};
use aboure_stats::bradley_terry::BootstrapOptions;
use aboure_stats::{fit, BradleyTerryOptions, Game, PlayerResult};

use crate::support;
use support::game;

/// Three bots, each pair meeting with both colours; "a" the strongest.
fn games() -> Vec<aboure_records::GameRecord> {
    let results = [
        ("a", "b", "1-0"),
        ("b", "a", "1/2-1/2"),
        ("a", "b", "1-0"),
        ("b", "a", "0-1"),
        ("a", "c", "1-0"),
        ("c", "a", "1-0"),
        ("b", "c", "1/2-1/2"),
        ("c", "b", "0-1"),
        ("b", "c", "1-0"),
        ("c", "b", "1-0"),
    ];
    (results.iter().enumerate())
        .map(|(k, (south, north, result))| game(&format!("g{k}"), south, north, result))
        .collect()
}

fn with_prior(prior: Option<f64>) -> ReportOptions {
    ReportOptions {
        prior,
        ..ReportOptions::default()
    }
}

#[test]
fn ratings_with_a_prior_are_the_statistics_crates_fit_with_that_prior() {
    let names = ["a", "b", "c"];
    let index = |name: &str| names.iter().position(|n| *n == name).unwrap();
    let fitted: Vec<Game> = games()
        .iter()
        .map(|g| {
            let result = match g.result.as_str() {
                "1-0" => PlayerResult::Win,
                "0-1" => PlayerResult::Loss,
                _ => PlayerResult::Draw,
            };
            Game::new(index(&g.south), index(&g.north), result)
        })
        .collect();
    let options = BradleyTerryOptions {
        prior: Some(2.0),
        ..BradleyTerryOptions::default()
    };
    let expected = fit(3, &fitted, &options).unwrap();
    let without = fit(3, &fitted, &BradleyTerryOptions::default()).unwrap();
    let report = Report::build(&games(), &with_prior(Some(2.0)));
    assert_eq!(report.ratings.status, RatingStatus::Ok);
    for p in &report.players {
        let i = index(&p.name);
        let (elo, e) = (expected.ratings[i], expected.errors[i]);
        let shown = p.elo.unwrap();
        assert!((shown - elo).abs() < 1e-9, "{}: {shown} vs {elo}", p.name);
        assert!((p.elo_low.unwrap() - (elo - e)).abs() < 1e-9, "{}", p.name);
        assert!((p.elo_high.unwrap() - (elo + e)).abs() < 1e-9, "{}", p.name);
        // The prior pulls the ratings in: not the maximum likelihood's.
        assert!(shown.abs() < without.ratings[i].abs(), "{}", p.name);
    }
    assert_eq!(
        report.ratings.first_move_advantage,
        Some(expected.advantage)
    );
    assert_eq!(report.ratings.draw_elo, Some(expected.draw_elo));
    assert_eq!(report.json()["ratings"]["prior"], 2.0);
}

#[test]
fn a_bot_that_won_every_game_is_rated_with_a_prior_and_the_report_says_which() {
    let games = [
        game("1", "a", "b", "1-0"),
        game("2", "b", "a", "0-1"),
        game("3", "a", "b", "1-0"),
    ];
    let none = Report::build(&games, &ReportOptions::default());
    assert_eq!(none.ratings.status, RatingStatus::Unbounded);
    assert_eq!(none.json()["ratings"]["prior"], 0.0);
    assert!(!none.text().contains("virtual draws"), "{}", none.text());
    assert!(!none.html().contains("virtual draws"));

    let report = Report::build(&games, &with_prior(Some(2.0)));
    assert_eq!(report.ratings.status, RatingStatus::Ok);
    assert_eq!(report.json()["ratings"]["status"], "ok");
    assert_eq!(report.players[0].name, "a");
    let (a, b) = (
        report.players[0].elo.unwrap(),
        report.players[1].elo.unwrap(),
    );
    assert!(a > b && a.is_finite(), "{a} {b}");
    let text = report.text();
    assert!(!text.contains("conceded no point"), "{text}");
    let line =
        "prior: 2 virtual draws per bot (BayesElo's default); --prior 0 for maximum likelihood";
    assert!(text.contains(line), "{text}");
    let html = report.html();
    let shown = html
        .find("prior: 2 virtual draws per bot (BayesElo")
        .map(|at| &html[at..]);
    assert!(
        shown.is_some_and(|s| s.contains("default); --prior 0 for maximum likelihood</p>")),
        "{html}"
    );
    let other = Report::build(&games, &with_prior(Some(0.5))).text();
    assert!(
        other.contains("prior: 0.5 virtual draws per bot; --prior 0 for maximum likelihood"),
        "{other}"
    );
}

#[test]
fn likelihood_and_bootstrap_intervals_count_the_prior_and_are_bounded() {
    let mut games = vec![
        game("1", "a", "b", "1-0"),
        game("2", "b", "a", "0-1"),
        game("3", "a", "c", "1-0"),
        game("4", "c", "a", "0-1"),
    ];
    games.extend([game("5", "b", "c", "1-0"), game("6", "c", "b", "1/2-1/2")]);
    let covariance = Report::build(&games, &with_prior(Some(2.0)));
    let likelihood = Report::build(
        &games,
        &ReportOptions {
            intervals: IntervalKind::Likelihood,
            ..with_prior(Some(2.0))
        },
    );
    let bootstrap = Report::build(
        &games,
        &ReportOptions {
            intervals: IntervalKind::Bootstrap,
            bootstrap: BootstrapOptions {
                samples: 200,
                seed: 7,
                threads: 1,
            },
            ..with_prior(Some(2.0))
        },
    );
    for report in [&likelihood, &bootstrap] {
        assert_eq!(report.ratings.status, RatingStatus::Ok);
        assert!(!report.text().contains("an end may be unbounded"));
        for (p, c) in report.players.iter().zip(&covariance.players) {
            // The same fit, prior included; every end bounded.
            assert_eq!(p.name, c.name);
            assert!((p.elo.unwrap() - c.elo.unwrap()).abs() < 1e-9, "{}", p.name);
            let (lo, hi) = (p.elo_low.unwrap(), p.elo_high.unwrap());
            assert!(lo <= p.elo.unwrap() && p.elo.unwrap() <= hi, "{}", p.name);
        }
    }
    // Without the prior, "a" (who never lost) is open at the top.
    let open = Report::build(
        &games,
        &ReportOptions {
            intervals: IntervalKind::Likelihood,
            ..ReportOptions::default()
        },
    );
    let top = open.players.iter().find(|p| p.name == "a");
    assert!(top.is_none_or(|p| p.elo_high.is_none()), "{top:?}");
}
