//! The strength ladder: in-process game pairs between the reference bots.

mod common;

use aboure_bots::{AlphaBetaPlayer, GreedyPlayer, RandomPlayer};
use aboure_protocol::Limits;
use common::play_match;

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

#[test]
#[ignore]
fn explore() {
    let mut a = AlphaBetaPlayer::default();
    let mut g = GreedyPlayer::new(3);
    let r = play_match(&mut a, &mut g, &nodes(2000), &Limits::default(), 100, 4, 1);
    println!("{}", r.describe("alphabeta", "greedy"));
    let mut r1 = RandomPlayer::new(5);
    let r = play_match(
        &mut g,
        &mut r1,
        &Limits::default(),
        &Limits::default(),
        200,
        4,
        1,
    );
    println!("{}", r.describe("greedy", "random"));
    let _ = depth(1);
}
