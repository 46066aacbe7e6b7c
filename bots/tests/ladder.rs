//! The strength ladder: in-process game pairs between the reference bots,
//! each pair from the same random opening with colours swapped. A bot is
//! shown stronger when the 95% interval of its mean pair score (mean +/-
//! 1.96 sd / sqrt(n)) lies above one half.
//!
//! The default tests use node and playout limits, so they are reproducible
//! and quick; the `#[ignore]`d ones play at a fixed time per move:
//! `cargo test -p aboure-bots --release --test tests ladder:: -- --ignored --nocapture`

use crate::common;

use std::time::Duration;

use aboure_bots::{AlphaBetaPlayer, GreedyPlayer, MctsPlayer, RandomPlayer};
use aboure_protocol::{Player, SearchLimits};
use common::{play_match, MatchResult};

/// Plies of random play that make an opening.
const OPENING_PLIES: usize = 4;

fn nodes(n: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(n),
        ..SearchLimits::default()
    }
}

fn movetime(ms: u64) -> SearchLimits {
    SearchLimits {
        movetime: Some(Duration::from_millis(ms)),
        ..SearchLimits::default()
    }
}

fn none() -> SearchLimits {
    SearchLimits::default()
}

/// Plays the match, prints it, and checks that A is stronger.
fn stronger(
    a: (&str, &mut dyn Player, SearchLimits),
    b: (&str, &mut dyn Player, SearchLimits),
    pairs: usize,
    seed: u64,
) -> MatchResult {
    let r = play_match(a.1, b.1, &a.2, &b.2, pairs, OPENING_PLIES, seed);
    let line = r.describe(a.0, b.0);
    println!("{line}");
    assert!(r.interval().0 > 0.5, "not shown stronger: {line}");
    r
}

#[test]
fn greedy_beats_random() {
    let mut g = GreedyPlayer::new(1);
    let mut r = RandomPlayer::new(2);
    stronger(
        ("greedy", &mut g, none()),
        ("random", &mut r, none()),
        200,
        1,
    );
}

#[test]
fn alphabeta_beats_greedy() {
    let mut a = AlphaBetaPlayer::new(4);
    let mut g = GreedyPlayer::new(3);
    stronger(
        ("alphabeta", &mut a, nodes(2000)),
        ("greedy", &mut g, none()),
        150,
        2,
    );
}

#[test]
fn mcts_beats_greedy() {
    let mut m = MctsPlayer::new(0.5, 4);
    let mut g = GreedyPlayer::new(5);
    stronger(
        ("mcts", &mut m, nodes(500)),
        ("greedy", &mut g, none()),
        150,
        3,
    );
}

/// The ladder at 10 ms a move, and alphabeta against mcts head to head at
/// equal time.
#[test]
#[ignore]
fn ladder_at_ten_milliseconds() {
    let t = movetime(10);
    let mut r = RandomPlayer::new(11);
    let mut g = GreedyPlayer::new(12);
    let mut a = AlphaBetaPlayer::default();
    let mut m = MctsPlayer::new(0.5, 13);
    stronger(("greedy", &mut g, t), ("random", &mut r, t), 400, 21);
    stronger(("alphabeta", &mut a, t), ("greedy", &mut g, t), 200, 22);
    stronger(("mcts", &mut m, t), ("greedy", &mut g, t), 200, 23);
    for ms in [1, 10] {
        let t = movetime(ms);
        let res = play_match(&mut a, &mut m, &t, &t, 200, OPENING_PLIES, 24);
        println!(
            "{}",
            res.describe(&format!("alphabeta {ms} ms"), &format!("mcts {ms} ms"))
        );
    }
}

/// Alphabeta against mcts at matched small budgets (about 1 ms and 10 ms of
/// each at the speeds measured: 1.5 M nodes/s and 0.3 M playouts/s).
#[test]
#[ignore]
fn alphabeta_against_mcts_by_nodes() {
    for (ab_nodes, playouts) in [(1_500, 300), (15_000, 3_000)] {
        let mut a = AlphaBetaPlayer::default();
        let mut m = MctsPlayer::new(0.5, 31);
        let res = play_match(
            &mut a,
            &mut m,
            &nodes(ab_nodes),
            &nodes(playouts),
            200,
            OPENING_PLIES,
            32,
        );
        println!(
            "{}",
            res.describe(
                &format!("alphabeta {ab_nodes} nodes"),
                &format!("mcts {playouts} playouts")
            )
        );
    }
}

/// The search bots against exact play at 10 ms a move.
#[test]
#[ignore]
fn search_bots_against_perfect() {
    let t = movetime(10);
    let mut p = aboure_bots::PerfectPlayer::default();
    let mut a = AlphaBetaPlayer::default();
    let mut m = MctsPlayer::new(0.5, 41);
    for (name, bot) in [("alphabeta", &mut a as &mut dyn Player), ("mcts", &mut m)] {
        let res = play_match(bot, &mut p, &t, &t, 100, OPENING_PLIES, 42);
        println!(
            "{}",
            res.describe(&format!("{name} 10 ms"), "perfect 10 ms")
        );
    }
}
