//! `[tournament]` tables with `format = "league"`: what they set, and the
//! key each mistake is reported at.

use aboure_league::{rule_from_table, Focus, Intervals, LeagueConfigError, Rule, Separation};

fn parse(text: &str) -> Result<Rule, LeagueConfigError> {
    let table: toml::Table = text.parse().expect("test tables are valid TOML");
    rule_from_table(&table)
}

fn key_of(text: &str) -> &'static str {
    match parse(text) {
        Ok(rule) => panic!("{text:?} was accepted as {rule:?}"),
        Err(e) => e.key,
    }
}

#[test]
fn every_key_is_read() {
    let rule = parse(
        r#"format = "league"
games = 4000
until = "separated"
confidence = 0.99
tie-margin = "10 Elo"
focus = "top-8"
pairs = 3"#,
    )
    .unwrap();
    assert_eq!(rule.games, Some(4000));
    assert_eq!(rule.focus, Focus::Top(8));
    assert_eq!(
        rule.until,
        Some(Separation {
            confidence: 0.99,
            tie_margin: 10.0,
            intervals: Intervals::FixedSample,
        })
    );
    let budget = parse("format = \"league\"\ngames = 100").unwrap();
    assert_eq!(
        (budget.games, budget.until, budget.focus),
        (Some(100), None, Focus::All)
    );
    let defaults = parse("format = \"league\"\nuntil = \"separated\"\ntie-margin = 5").unwrap();
    assert_eq!(
        defaults.until,
        Some(Separation {
            confidence: 0.95,
            tie_margin: 5.0,
            intervals: Intervals::FixedSample,
        })
    );
}

#[test]
fn mistakes_name_their_key() {
    let league = "format = \"league\"\n";
    assert_eq!(key_of("format = \"swiss\"\ngames = 10"), "format");
    assert_eq!(key_of("games = 10"), "format");
    assert_eq!(key_of(&format!("{league}games = 0")), "games");
    assert_eq!(key_of(&format!("{league}games = \"many\"")), "games");
    assert_eq!(key_of(&format!("{league}until = \"done\"")), "until");
    assert_eq!(
        key_of(&format!("{league}until = \"separated\"\nconfidence = 1.5")),
        "confidence"
    );
    assert_eq!(
        key_of(&format!(
            "{league}until = \"separated\"\ntie-margin = \"ten\""
        )),
        "tie-margin"
    );
    assert_eq!(
        key_of(&format!("{league}until = \"separated\"\ntie-margin = -3")),
        "tie-margin"
    );
    assert_eq!(
        key_of(&format!("{league}games = 10\nfocus = \"top-0\"")),
        "focus"
    );
    assert_eq!(
        key_of(&format!("{league}games = 10\nfocus = \"best\"")),
        "focus"
    );
    assert_eq!(
        key_of(&format!("{league}games = 10\ntie-margin = 5")),
        "tie-margin"
    );
    assert_eq!(
        key_of(&format!(
            "{league}until = \"separated\"\nintervals = \"wide\""
        )),
        "intervals"
    );
    assert_eq!(
        key_of(&format!("{league}games = 10\nintervals = \"anytime\"")),
        "intervals"
    );
    assert_eq!(key_of(league), "games");
}

#[test]
fn anytime_intervals_are_an_option_of_the_stopping_rule() {
    let rule =
        parse("format = \"league\"\nuntil = \"separated\"\nintervals = \"anytime\"").unwrap();
    assert_eq!(rule.until.map(|u| u.intervals), Some(Intervals::Anytime));
    let fixed = parse("format = \"league\"\nuntil = \"separated\"\nintervals = \"fixed\"").unwrap();
    assert_eq!(
        fixed.until.map(|u| u.intervals),
        Some(Intervals::FixedSample)
    );
}

#[test]
fn the_message_says_where_and_what() {
    let err = parse("format = \"league\"\ngames = 10\nfocus = \"best\"").unwrap_err();
    assert_eq!(
        err.to_string(),
        "tournament.focus: \"best\" is not \"all\" or \"top-K\" (K at least 1)"
    );
}
