//! Search speed, printed rather than asserted (speed goals are measurements,
//! not tests): `cargo test -p aboure-bots --release --test speed -- --ignored --nocapture`

mod common;

use std::time::{Duration, Instant};

use aboure_bots::{AlphaBetaPlayer, MctsPlayer};
use aboure_engine::Position;
use aboure_protocol::{Limits, Player};
use common::Local;

#[test]
#[ignore]
fn search_speed_from_the_start() {
    let limits = Limits {
        movetime: Some(Duration::from_secs(2)),
        ..Limits::default()
    };
    let mut a = AlphaBetaPlayer::default();
    let t = Instant::now();
    let mut search = Local::new();
    a.choose(&Position::startpos(), &[], &limits, &mut search);
    let out = a.last_search().unwrap();
    println!(
        "alphabeta: {:.2} M nodes/s, depth {} in {:?}, score {:?}",
        out.nodes as f64 / t.elapsed().as_secs_f64() / 1e6,
        out.depth,
        t.elapsed(),
        search.infos.last().and_then(|i| i.score)
    );
    let mut m = MctsPlayer::new(0.5, 1);
    let t = Instant::now();
    let mut search = Local::new();
    m.choose(&Position::startpos(), &[], &limits, &mut search);
    let info = search.infos.last().unwrap();
    println!(
        "mcts: {:.0} k playouts/s, score {:?}, pv {:?}",
        info.nodes.unwrap() as f64 / t.elapsed().as_secs_f64() / 1e3,
        info.score,
        info.pv
    );
}
