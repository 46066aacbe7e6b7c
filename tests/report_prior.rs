//! `aboure report --prior N` end to end: BayesElo's virtual draws on the
//! command line, the league's default of 2 from its `run.json`, and bad
//! values refused with a message.

use std::path::{Path, PathBuf};

use aboure_report::{load, Report, ReportOptions};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    crate::harness::report_fixture(name)
}

fn report(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["--no-accuracy"];
    all.extend_from_slice(args);
    crate::report_cli::aboure(&all)
}

/// The JSON report of `args`, which must succeed.
fn json(args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (ok, stdout, stderr) = report(&all);
    assert!(ok, "aboure report {all:?} failed: {stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// Each bot's rating, by name.
fn elos(report: &Value) -> Vec<(String, f64)> {
    let players = report["players"].as_array().unwrap();
    let mut elos: Vec<(String, f64)> = (players.iter())
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["elo"].as_f64().unwrap(),
            )
        })
        .collect();
    elos.sort_by(|a, b| a.0.cmp(&b.0));
    elos
}

/// A run folder holding the round-robin fixture's games and a `run.json`
/// whose format is `format`.
fn run_folder(dir: &Path, format: &str) {
    std::fs::copy(fixture("round-robin/games.jsonl"), dir.join("games.jsonl")).unwrap();
    let text = std::fs::read_to_string(fixture("sprt/run.json")).unwrap();
    let mut manifest: Value = serde_json::from_str(&text).unwrap();
    manifest["identity"]["format"] = Value::from(format);
    manifest.as_object_mut().unwrap().remove("sprt");
    std::fs::write(dir.join("run.json"), manifest.to_string()).unwrap();
}

#[test]
fn prior_on_the_command_line_is_the_reports_and_zero_is_maximum_likelihood() {
    let games = fixture("round-robin/games.jsonl");
    let file = games.to_str().unwrap();
    let plain = json(&[file]);
    let none = json(&["--prior", "0", file]);
    let two = json(&["--prior", "2", file]);
    assert_eq!(plain["ratings"]["prior"], 0.0);
    assert_eq!(none["ratings"]["prior"], 0.0);
    assert_eq!(two["ratings"]["prior"], 2.0);
    assert_eq!(elos(&plain), elos(&none), "without a run.json: no prior");
    // The library's report with the same prior on the same games.
    let (input, _) = load(std::slice::from_ref(&games)).unwrap();
    let options = ReportOptions {
        prior: Some(2.0),
        ..ReportOptions::default()
    };
    let expected = Report::build(&input.games, &options);
    let mut want: Vec<(String, f64)> = (expected.players.iter())
        .map(|p| (p.name.clone(), p.elo.unwrap()))
        .collect();
    want.sort_by(|a, b| a.0.cmp(&b.0));
    for ((name, got), (_, want)) in elos(&two).iter().zip(&want) {
        assert!((got - want).abs() < 1e-9, "{name}: {got} vs {want}");
    }
    assert_ne!(elos(&two), elos(&none), "the prior moves the ratings");
    let (ok, text, _) = report(&["--prior", "2", file]);
    assert!(ok);
    assert!(
        text.contains(
            "prior: 2 virtual draws per bot (BayesElo's default); --prior 0 for maximum likelihood"
        ),
        "{text}"
    );
    let (ok, text, _) = report(&["--prior", "0", file]);
    assert!(ok && !text.contains("virtual draws"), "{text}");
}

#[test]
fn a_league_folder_defaults_to_two_virtual_draws_and_other_folders_to_none() {
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("league");
    let round_robin = dir.path().join("round-robin");
    for (folder, format) in [(&league, "league"), (&round_robin, "round-robin")] {
        std::fs::create_dir(folder).unwrap();
        run_folder(folder, format);
    }
    let league = league.to_str().unwrap();
    let round_robin = round_robin.to_str().unwrap();
    let by_default = json(&[league]);
    assert_eq!(by_default["ratings"]["prior"], 2.0);
    assert_eq!(
        elos(&by_default),
        elos(&json(&["--prior", "2", round_robin]))
    );
    let told = json(&["--prior", "0", league]);
    assert_eq!(told["ratings"]["prior"], 0.0);
    assert_eq!(elos(&told), elos(&json(&[round_robin])));
    assert_eq!(json(&[round_robin])["ratings"]["prior"], 0.0);
}

#[test]
fn a_negative_or_non_finite_prior_is_refused_with_a_message() {
    let games = fixture("round-robin/games.jsonl");
    let file = games.to_str().unwrap();
    for bad in ["-1", "inf", "NaN", "two"] {
        let (ok, stdout, stderr) = report(&["--prior", bad, file]);
        assert!(!ok, "--prior {bad} accepted: {stdout}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains("--prior") && stderr.contains("virtual draws"),
            "--prior {bad}: {stderr}"
        );
    }
}
