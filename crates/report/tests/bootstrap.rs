//! `--intervals bootstrap` in the report: game pairs resampled whole, an
//! interval open at the top for a bot that rarely loses a pair, and the
//! report saying which intervals it shows.

use aboure_records::GameRecord;
use aboure_report::{BootstrapSettings, IntervalKind, Report, ReportOptions};
use aboure_stats::bradley_terry::BootstrapOptions;

/// The two games of pair `pair` of `a` against `b`: `a` South first, with
/// the results of `a`'s South and North games (`"1-0"` etc., South's view).
fn pair(a: &str, b: &str, pair: u32, results: [&str; 2]) -> [GameRecord; 2] {
    [(0, a, b), (1, b, a)].map(|(game, south, north)| {
        let line = format!(
            r#"{{"id":"{a}-{b}-{pair}-{game}","pairing":["{a}","{b}"],"pair":{pair},"game":{game},"south":"{south}","north":"{north}","result":"{}","termination":"natural"}}"#,
            results[game as usize]
        );
        serde_json::from_str(&line).unwrap()
    })
}

fn bootstrapped(samples: usize) -> ReportOptions {
    ReportOptions {
        intervals: IntervalKind::Bootstrap,
        bootstrap: BootstrapOptions {
            samples,
            seed: 7,
            threads: 0,
        },
        ..Default::default()
    }
}

#[test]
fn pairs_that_split_by_colour_are_resampled_whole() {
    // Every pair is won by whoever is South, or drawn twice: resampled as
    // pairs, every resample rates a and b equal; resampled as games, they
    // would spread.
    let mut games = Vec::new();
    for k in 0..30 {
        let results = if k % 3 == 0 {
            ["1/2-1/2", "1/2-1/2"]
        } else {
            ["1-0", "1-0"]
        };
        games.extend(pair("a", "b", k, results));
    }
    let report = Report::build(&games, &bootstrapped(300));
    for p in &report.players {
        let (lo, hi) = (p.elo_low.unwrap(), p.elo_high.unwrap());
        assert!(
            lo.abs() < 1e-6 && hi.abs() < 1e-6,
            "{}: [{lo}, {hi}]",
            p.name
        );
    }
    let covariance = Report::build(&games, &ReportOptions::default());
    let width = covariance.players[0].elo_high.unwrap() - covariance.players[0].elo_low.unwrap();
    assert!(
        width > 50.0,
        "the covariance takes the games as independent: {width}"
    );
}

#[test]
fn a_bot_that_rarely_loses_a_pair_has_an_interval_open_at_the_top_and_the_report_says_so() {
    // "top" wins both games of every pair against b and c but one pair
    // against each, which it splits; b and c split theirs.
    let mut games = Vec::new();
    for other in ["b", "c"] {
        for k in 0..8 {
            let results = if k == 0 {
                ["1-0", "1-0"]
            } else {
                ["1-0", "0-1"]
            };
            games.extend(pair("top", other, k, results));
        }
    }
    for k in 0..8 {
        let results = if k % 2 == 0 {
            ["1-0", "1-0"]
        } else {
            ["1/2-1/2", "1-0"]
        };
        games.extend(pair("b", "c", k, results));
    }
    let report = Report::build(&games, &bootstrapped(400));
    let top = report.players.iter().find(|p| p.name == "top").unwrap();
    let (e, lo) = (top.elo.unwrap(), top.elo_low.unwrap());
    assert!(lo < e, "{lo} below {e}");
    assert_eq!(top.elo_high, None, "no finite upper end");
    // The same point estimate as the covariance report.
    let covariance = Report::build(&games, &ReportOptions::default());
    assert_eq!(covariance.players[0].elo, top.elo);

    let text = report.text();
    assert!(
        text.contains("95% intervals from the percentiles of a bootstrap over game pairs (pairs resampled whole, 400 resamples, seed 7"),
        "{text}"
    );
    assert!(text.contains(", +inf]"), "{text}");
    assert!(
        text.contains("top's interval has no upper end: in "),
        "{text}"
    );
    let json = report.json();
    assert_eq!(json["ratings"]["intervals"], "bootstrap");
    assert_eq!(json["ratings"]["bootstrap"]["samples"], 400);
    assert_eq!(json["ratings"]["bootstrap"]["seed"], 7);
    assert!(json["players"][0]["elo_high"].is_null());
    assert_eq!(
        report.ratings.bootstrap,
        Some(BootstrapSettings {
            samples: 400,
            seed: 7
        })
    );
    assert!(report.html().contains("bootstrap over game pairs"));
    assert_eq!(
        covariance.json()["ratings"]["bootstrap"],
        serde_json::Value::Null
    );
}
