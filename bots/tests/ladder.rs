//! The strength ladder: in-process game pairs between the reference bots.

mod common;

use std::time::{Duration, Instant};

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

#[test]
#[ignore]
fn explore() {
    let t = movetime(10);
    let mut a = AlphaBetaPlayer::default();
    let mut m = MctsPlayer::new(1.0, 1);
    let mut g = GreedyPlayer::new(3);
    let r = play_match(&mut m, &mut g, &t, &t, 50, 4, 1);
    println!("{}", r.describe("mcts", "greedy"));
    let r = play_match(&mut a, &mut m, &t, &t, 50, 4, 1);
    println!("{}", r.describe("alphabeta", "mcts"));
    let _ = (RandomPlayer::new(1), nodes(1));
}
