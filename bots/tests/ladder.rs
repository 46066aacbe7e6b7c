//! The strength ladder: in-process game pairs between the reference bots.

mod common;

use std::time::{Duration, Instant};

use aboure_bots::eval::Weights;
use aboure_bots::negamax::Settings;
use aboure_bots::{AlphaBetaPlayer, GreedyPlayer, MctsPlayer, RandomPlayer};
use aboure_engine::Position;
use aboure_protocol::{Limits, Player};
use common::{play_match, Local};

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn movetime(ms: u64) -> Limits {
    Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}

#[test]
#[ignore]
fn speed() {
    let mut a = AlphaBetaPlayer::default();
    let t = Instant::now();
    a.choose(
        &Position::startpos(),
        &[],
        &movetime(1000),
        &mut Local::new(),
    );
    let n = a.last_search().unwrap().nodes;
    println!(
        "alphabeta {} nodes/s depth {}",
        n as f64 / t.elapsed().as_secs_f64(),
        a.last_search().unwrap().depth
    );
    let mut m = MctsPlayer::new(1.0, 1);
    let mut s = Local::new();
    m.choose(&Position::startpos(), &[], &movetime(1000), &mut s);
    println!("mcts {:?}", s.infos.last());
}

fn ab(row: i32, mobility: i32, targets: i32, quiescence: bool) -> AlphaBetaPlayer {
    AlphaBetaPlayer::new(4).with_settings(Settings {
        weights: Weights {
            row,
            mobility,
            targets,
        },
        quiescence,
    })
}

#[test]
#[ignore]
fn explore_mcts() {
    let pairs: usize = std::env::var("PAIRS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let n: u64 = std::env::var("NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let l = nodes(n);
    for c in [0.3, 0.6, 1.0, 1.5] {
        let mut m = MctsPlayer::new(c, 1);
        let mut a = ab(50, 0, 0, true);
        let r = play_match(&mut m, &mut a, &l, &nodes(n * 5), pairs, 4, 9);
        println!(
            "{}",
            r.describe(&format!("mcts c={c}"), "alphabeta x5 nodes")
        );
    }
}

#[test]
#[ignore]
fn explore() {
    let pairs: usize = std::env::var("PAIRS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let n: u64 = std::env::var("NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let l = nodes(n);
    let variants: Vec<(&str, AlphaBetaPlayer)> = vec![
        ("row0", ab(0, 0, 0, true)),
        ("row25", ab(25, 0, 0, true)),
        ("row50", ab(50, 0, 0, true)),
        ("row50noq", ab(50, 0, 0, false)),
        ("row50tgt-10", ab(50, 0, -10, true)),
    ];
    for (name, mut v) in variants {
        let mut base = ab(50, 0, 0, true);
        let r = play_match(&mut v, &mut base, &l, &l, pairs, 4, 7);
        println!("{}", r.describe(name, "base"));
    }
    let _ = (
        RandomPlayer::new(1),
        GreedyPlayer::new(1),
        MctsPlayer::new(1.0, 1),
        movetime(1),
    );
}
