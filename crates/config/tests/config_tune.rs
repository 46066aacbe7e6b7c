//! The `[tune]` table: what a valid one means, and every error with the
//! line and key it points at.

use crate::support::refused;
use aboure_config::{parse, Objective};

const BOT: &str = "[[bot]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\n";

fn tune(table: &str) -> String {
    format!(
        "{BOT}[tune]\nbot = \"ab\"\nparameters = {{ row_weight = {{ start = -50, min = -1000, max = 1000, step = 10 }} }}\n{table}"
    )
}

#[track_caller]
fn check(text: &str, expected: &str) {
    refused("t.toml", text, expected);
}

#[test]
fn a_tune_file_may_hold_the_tuned_bot_alone_and_has_the_documented_defaults() {
    let config = parse(&tune("iterations = 40\n"), "t.toml".as_ref()).unwrap();
    let t = config.tune().unwrap();
    assert_eq!(config.bot(t.bot()).name(), "ab");
    assert_eq!(t.opponent(), None);
    assert_eq!(t.objective(), Objective::Games { pairs: 1 });
    let s = t.spsa();
    assert_eq!(s.iterations, 40);
    assert_eq!((s.alpha, s.gamma, s.stability), (0.602, 0.101, 4.0));
    assert_eq!(s.r_end, aboure_config::GAMES_R_END);
    let p = &t.parameters()[0];
    assert_eq!(
        (p.name.as_str(), p.start, p.min, p.max, p.step),
        ("row_weight", -50.0, -1000.0, 1000.0, 10.0)
    );
    // Int or float is the bot's declaration's to say, at the tune's start.
    assert!(!p.integer);

    let text = tune("objective = \"accuracy\"\niterations = 5\npositions = 30\nspsa = { A = 1, r-end = 3 }\nconfirm = { elo0 = 0, elo1 = 5 }\n");
    let config = parse(&text, "t.toml".as_ref()).unwrap();
    let t = config.tune().unwrap();
    assert_eq!(t.objective(), Objective::Accuracy { positions: 30 });
    assert_eq!((t.spsa().stability, t.spsa().r_end), (1.0, 3.0));
    assert_eq!(t.confirm().map(|s| (s.elo0(), s.elo1())), Some((0.0, 5.0)));
}

#[test]
fn a_games_budget_is_turned_into_iterations_and_the_other_bot_is_the_opponent() {
    let text = format!(
        "{}[[bot]]\nname = \"m\"\nbuiltin = \"mcts\"\n",
        tune("games = 100\npairs = 2\n")
    );
    let config = parse(&text, "t.toml".as_ref()).unwrap();
    let t = config.tune().unwrap();
    // Two points, each in two pairs against the opponent: 8 games an iteration.
    assert_eq!(t.spsa().iterations, 12);
    assert_eq!(t.opponent().map(|o| config.bot(o).name()), Some("m"));
}

#[test]
fn tune_errors_name_the_line_and_key() {
    check(
        &tune(""),
        "t.toml:5:7: tune.iterations: a tune needs a budget",
    );
    check(
        &tune("iterations = 0\n"),
        "t.toml:7:14: tune.iterations: 0 is out of range",
    );
    check(
        &tune("iterations = 3\ngames = 10\n"),
        "t.toml:8:9: tune.games: give iterations or games, not both",
    );
    check(
        &tune("iterations = 3\nmethod = \"cma\"\n"),
        "t.toml:8:10: tune.method: \"cma\" is not \"spsa\"",
    );
    check(
        &tune("iterations = 3\nobjective = \"elo\"\n"),
        "tune.objective: \"elo\" is not \"games\" or \"accuracy\"",
    );
    check(
        &tune("iterations = 3\npositions = 5\n"),
        "tune.positions: positions only applies to objective = \"accuracy\"",
    );
    check(
        &tune("objective = \"accuracy\"\ngames = 5\n"),
        "tune.games: games only applies to objective = \"games\"",
    );
    check(
        &tune("iterations = 3\nspsa = { alpha = -1 }\n"),
        "t.toml:8:18: tune.spsa.alpha: -1 must be positive",
    );
    check(
        &tune("iterations = 3\nspsa = { A = -1 }\n"),
        "tune.spsa.A: -1 must not be negative",
    );
    check(
        &tune("iterations = 3\nspsa = { c = 1 }\n"),
        "unknown field `c`",
    );
    check(
        &tune("iterations = 3\nconfirm = { elo0 = 5, elo1 = 0 }\n"),
        "tune.confirm.elo1: elo0 (5) must be less than elo1 (0)",
    );
    let bad = |p: &str| {
        format!("{BOT}[tune]\nbot = \"ab\"\niterations = 3\nparameters = {{ w = {p} }}\n")
    };
    check(
        &bad("{ start = 5, min = 0, max = 4, step = 1 }"),
        "t.toml:7:30: tune.parameters.w.start: parameter w: start 5 is outside 0..=4",
    );
    check(
        &bad("{ start = 1, min = 4, max = 0, step = 1 }"),
        "tune.parameters.w.max: parameter w: the range 4..=0 is empty",
    );
    check(
        &bad("{ start = 1, min = 0, max = 4, step = 0 }"),
        "tune.parameters.w.step: parameter w: step 0 must be positive",
    );
    check(
        &bad("{ start = 1, min = 0, max = 4 }"),
        "missing field `step`",
    );
    check(
        &format!("{BOT}[tune]\nbot = \"ab\"\niterations = 3\nparameters = {{}}\n"),
        "tune.parameters: no parameters to tune",
    );
    check(
        &format!("{BOT}[tune]\nbot = \"x\"\niterations = 3\nparameters = {{}}\n"),
        "t.toml:5:7: tune.bot: no bot is named \"x\"",
    );
    let three = format!("{}[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n[[bot]]\nname = \"c\"\nbuiltin = \"random\"\n", tune("iterations = 3\n"));
    check(
        &three,
        "bot: a tune takes the bot and at most one opponent, found 3 bots",
    );
    let opponent = format!(
        "{}[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n",
        tune("iterations = 3\nobjective = \"accuracy\"\n")
    );
    check(&opponent, "the accuracy objective plays no games");
    // Without a [tune] table one bot is still too few.
    check(
        BOT,
        "a tournament needs at least two [[bot]] tables, found 1",
    );
}

#[test]
fn the_example_tune_file_is_valid() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tune.toml");
    let config = aboure_config::load(path.as_ref()).unwrap();
    let t = config.tune().unwrap();
    assert_eq!(t.objective(), Objective::Accuracy { positions: 200 });
    assert_eq!(t.spsa().iterations, 5);
    assert_eq!(t.parameters()[0].start, -50.0);
    assert!(t.confirm().is_some());
}
