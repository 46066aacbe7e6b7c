//! Search speed, printed rather than asserted (speed goals are measurements,
//! not tests): `cargo test -p aboure-bots --release --test tests speed:: -- --ignored --nocapture`

use crate::common;

use std::time::{Duration, Instant};

use aboure_bots::{AlphaBetaPlayer, MctsPlayer};
use aboure_engine::Position;
use aboure_protocol::{Player, SearchLimits};
use common::Local;

#[test]
#[ignore]
fn search_speed_from_the_start() {
    let limits = SearchLimits {
        movetime: Some(Duration::from_secs(2)),
        ..SearchLimits::default()
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

/// How long each bot's answers take at 10 ms a move, in-process: the
/// budget keeps 5 ms back for the pipes and the arbiter.
#[test]
#[ignore]
fn answer_times_at_ten_milliseconds() {
    let limits = SearchLimits {
        movetime: Some(Duration::from_millis(10)),
        ..SearchLimits::default()
    };
    for name in aboure_bots::BUILTIN {
        let mut times = Vec::new();
        let mut bot = aboure_bots::builtin(name).unwrap();
        let mut pos = Position::startpos();
        while !pos.is_game_over() {
            let moves = pos.legal_moves();
            let m = if moves.len() == 1 {
                moves[0]
            } else {
                let t = Instant::now();
                let m = bot.choose(&pos, &[], &limits, &mut Local::new());
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                m
            };
            pos.play(m).unwrap();
        }
        let max = times.iter().cloned().fold(0.0, f64::max);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        println!(
            "{name}: {} moves, mean {mean:.2} ms, max {max:.2} ms",
            times.len()
        );
    }
}
