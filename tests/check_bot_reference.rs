//! `aboure check-bot` passes every reference bot and the Python template bot,
//! each run as a real subprocess through the whole suite. These tests need
//! `python3` on the PATH.

use crate::support;

use support::{check_bot, ABOURE, PATIENT};

/// Every check, in report order (from `aboure check-bot --list`).
fn all_checks() -> Vec<String> {
    let out = std::process::Command::new(ABOURE)
        .args(["check-bot", "--list"])
        .output()
        .expect("run aboure check-bot --list");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

fn passes(bot: &[&str]) {
    let run = check_bot(&PATIENT, bot);
    let checks = all_checks();
    assert_eq!(run.with_status("PASS"), checks, "{}", run.dump());
    assert_eq!(
        run.summary(),
        format!("{} passed, 0 failed", checks.len()),
        "{}",
        run.dump()
    );
    assert_eq!(run.code, Some(0), "{}", run.dump());
}

#[test]
fn the_suite_has_every_check_the_protocol_needs() {
    let checks = all_checks();
    for name in [
        "handshake",
        "options",
        "ping",
        "newgame",
        "position-startpos",
        "position-set",
        "forced-pass",
        "one-legal-move",
        "go-clock",
        "go-movetime",
        "go-depth",
        "go-nodes",
        "go-infinite",
        "isready-while-thinking",
        "stop",
        "single-bestmove",
        "quit",
        "full-game",
    ] {
        assert!(checks.iter().any(|c| c == name), "{name} in {checks:?}");
    }
}

#[test]
fn random_passes() {
    passes(&[ABOURE, "bot", "random"]);
}

#[test]
fn greedy_passes() {
    passes(&[ABOURE, "bot", "greedy"]);
}

#[test]
fn alphabeta_passes() {
    passes(&[ABOURE, "bot", "alphabeta"]);
}

#[test]
fn mcts_passes() {
    passes(&[ABOURE, "bot", "mcts"]);
}

#[test]
fn perfect_passes() {
    passes(&[ABOURE, "bot", "perfect"]);
}

#[test]
fn the_python_bot_passes() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bots/python/bot.py");
    passes(&["python3", script]);
}

#[test]
fn every_built_in_bot_is_checked_here() {
    let out = std::process::Command::new(ABOURE)
        .args(["bot", "nobody"])
        .output()
        .expect("run aboure bot");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tested = "the built-in bots are: random, greedy, alphabeta, mcts, perfect";
    assert!(stderr.contains(tested), "{stderr}");
}
