//! A league's keys in the tournament file: what they mean once validated,
//! and every refusal with the file, line and key it names.

use crate::support::{refused, TWO_BOTS};
use aboure_config::{parse, Format};
use aboure_league::{Focus, Separation};

#[track_caller]
fn check(text: &str, expected: &str) {
    refused("l.toml", text, expected);
}

#[test]
fn the_league_keys_make_its_rule() {
    let text = format!(
        "[tournament]\nformat = \"league\"\ngames = 400\nuntil = \"separated\"\n\
         confidence = 0.99\ntie-margin = \"15 Elo\"\nfocus = \"top-3\"\nintervals = \"anytime\"\n\
         {TWO_BOTS}\
         retired = true\n"
    );
    let config = parse(&text, "l.toml".as_ref()).unwrap();
    assert_eq!(config.format(), Format::League);
    let rule = config.league().unwrap();
    assert_eq!(rule.games, Some(400));
    assert_eq!(rule.focus, Focus::Top(3));
    assert_eq!(
        rule.until,
        Some(Separation {
            confidence: 0.99,
            tie_margin: 15.0,
            intervals: aboure_league::Intervals::Anytime,
        })
    );
    assert!(!config.bots()[0].retired());
    assert!(config.bots()[1].retired());
    let plain = parse(TWO_BOTS, "t.toml".as_ref()).unwrap();
    assert!(plain.league().is_none());
}

#[test]
fn bad_league_keys_are_refused_at_their_line() {
    let league = |keys: &str| format!("[tournament]\nformat = \"league\"\n{keys}{TWO_BOTS}");
    check(
        &league(""),
        "l.toml:2:10: tournament.games: a league needs games = N or until = \"separated\"",
    );
    check(
        &league("games = 1\n"),
        "l.toml:3:9: tournament.games: 1 is not a whole number of games, at least 2",
    );
    check(
        &league("until = \"separated\"\nintervals = \"wide\"\n"),
        "l.toml:4:13: tournament.intervals: \"wide\" is not \"fixed\" or \"anytime\"",
    );
    check(
        &league("until = \"forever\"\n"),
        "l.toml:3:9: tournament.until: \"forever\" is not \"separated\"",
    );
    check(
        &league("until = \"separated\"\nconfidence = 1.5\n"),
        "l.toml:4:14: tournament.confidence: 1.5 is not a number between 0.5 and 1",
    );
    check(
        &league("until = \"separated\"\ntie-margin = \"ten\"\n"),
        "l.toml:4:14: tournament.tie-margin:",
    );
    check(
        &league("games = 10\nfocus = \"best\"\n"),
        "l.toml:4:9: tournament.focus: \"best\" is not \"all\" or \"top-K\"",
    );
    check(
        &league("games = 10\nconfidence = 0.9\n"),
        "l.toml:4:14: tournament.confidence: only means something with until = \"separated\"",
    );
    check(
        &league("games = 10\npairs = 3\n"),
        "l.toml:4:9: tournament.pairs: a league has no pairs per pairing",
    );
    check(
        &league("games = 10\nrestart = \"never\"\n"),
        "l.toml:4:11: tournament.restart: a league starts every game's bots afresh",
    );
}

#[test]
fn other_formats_refuse_the_league_keys() {
    check(
        &format!("[tournament]\ngames = 10\n{TWO_BOTS}"),
        "l.toml:2:9: tournament.games: only applies to format = \"league\"",
    );
    check(
        &format!("[tournament]\nformat = \"gauntlet\"\nfocus = \"top-2\"\n{TWO_BOTS}"),
        "l.toml:3:9: tournament.focus: only applies to format = \"league\"",
    );
    check(
        &format!("{TWO_BOTS}retired = true\n"),
        "l.toml:7:11: bot[1].retired: only applies to a league's entrants",
    );
    check(
        &format!("[tournament]\nformat = \"knockout\"\n{TWO_BOTS}"),
        "\"knockout\" is not \"round-robin\", \"gauntlet\", \"sprt\" or \"league\"",
    );
}

#[test]
fn the_example_league_is_a_league_of_six_reference_bots() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/league.toml");
    let config = aboure_config::load(&path).unwrap();
    assert_eq!(config.format(), Format::League);
    assert_eq!(config.bots().len(), 6);
    let rule = config.league().unwrap();
    assert_eq!(rule.games, Some(1200));
    assert_eq!(
        rule.until,
        Some(Separation {
            confidence: 0.95,
            tie_margin: 50.0,
            intervals: aboure_league::Intervals::FixedSample,
        })
    );
    assert_eq!(rule.focus, Focus::All);
}
