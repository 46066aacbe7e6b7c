//! How far each search bot is from perfect play: the seeds each move loses
//! against the solver's exact move values, over games between the bots.
//! Printed, not asserted:
//! `cargo test -p aboure-bots --release --test tests accuracy:: -- --ignored --nocapture`

use crate::common;

use aboure_bots::{AlphaBetaPlayer, GreedyPlayer, MctsPlayer};
use aboure_engine::{Move, Position, Side};
use aboure_protocol::{Player, SearchLimits};
use aboure_solver::Solver;
use common::{opening, Local};
use rand::rngs::SmallRng;
use rand::SeedableRng;

#[derive(Default)]
struct Loss {
    moves: u32,
    best: u32,
    seeds: i64,
    /// Moves that turned a win into a draw or loss, or a draw into a loss.
    results: u32,
}

impl Loss {
    fn describe(&self, name: &str) -> String {
        format!(
            "{name}: {} moves, {:.1}% best, {:.3} seeds lost a move, {:.1}% of moves lose a result",
            self.moves,
            100.0 * self.best as f64 / self.moves as f64,
            self.seeds as f64 / self.moves as f64,
            100.0 * self.results as f64 / self.moves as f64
        )
    }
}

/// Plays `games` games (colours alternating) and charges each move's loss.
fn measure(
    bots: [(&mut dyn Player, SearchLimits); 2],
    games: usize,
    solver: &mut Solver,
) -> [Loss; 2] {
    let mut loss = [Loss::default(), Loss::default()];
    let mut rng = SmallRng::seed_from_u64(77);
    let [(a, la), (b, lb)] = bots;
    for g in 0..games {
        let mut pos = opening(&mut rng, 4);
        let mut history: Vec<Position> = Vec::new();
        a.new_game();
        b.new_game();
        // Bot 0 plays South in even games.
        let south_is_a = g % 2 == 0;
        while !pos.is_game_over() && history.len() < 400 {
            let moves = pos.legal_moves();
            let m = if moves.as_slice() == [Move::Pass] {
                Move::Pass
            } else {
                let a_moves = (pos.side_to_move() == Side::South) == south_is_a;
                let (bot, limits, k) = if a_moves {
                    (&mut *a, la, 0)
                } else {
                    (&mut *b, lb, 1)
                };
                let m = bot.choose(&pos, &history, &limits, &mut Local::new());
                if moves.len() > 1 {
                    let values = solver.move_values(&pos);
                    let played = values.iter().find(|v| v.0 == m).unwrap().1;
                    let lost = values[0].1 - played;
                    // Values are future margins: the result needs the
                    // captures so far.
                    let me = pos.side_to_move();
                    let so_far = pos.captured(me) as i32 - pos.captured(!me) as i32;
                    let result = |v: i32| (v + so_far).signum();
                    loss[k].results += (result(played) < result(values[0].1)) as u32;
                    loss[k].moves += 1;
                    loss[k].best += (lost == 0) as u32;
                    loss[k].seeds += lost as i64;
                }
                m
            };
            history.push(pos);
            pos.play(m).unwrap();
        }
    }
    loss
}

#[test]
#[ignore]
fn mcts_settings() {
    let mut solver = Solver::new(256);
    for playouts in [300u64, 3000] {
        for c in [0.25, 0.5, 1.0] {
            let share = 0.6;
            let mut m = MctsPlayer::new(c, 3).with_margin_share(share);
            let mut a = AlphaBetaPlayer::default();
            let la = SearchLimits {
                nodes: Some(1500),
                ..SearchLimits::default()
            };
            let lm = SearchLimits {
                nodes: Some(playouts),
                ..SearchLimits::default()
            };
            let [x, _] = measure([(&mut m, lm), (&mut a, la)], 200, &mut solver);
            println!(
                "{}",
                x.describe(&format!("mcts {playouts} c {c} share {share}"))
            );
        }
    }
}

#[test]
#[ignore]
fn loss_against_perfect_play() {
    let mut solver = Solver::new(256);
    for (ab, playouts) in [(1_500u64, 300u64), (15_000, 3_000)] {
        let mut a = AlphaBetaPlayer::default();
        let mut m = MctsPlayer::new(0.5, 3);
        let la = SearchLimits {
            nodes: Some(ab),
            ..SearchLimits::default()
        };
        let lm = SearchLimits {
            nodes: Some(playouts),
            ..SearchLimits::default()
        };
        let [x, y] = measure([(&mut a, la), (&mut m, lm)], 100, &mut solver);
        println!("{}", x.describe(&format!("alphabeta {ab} nodes")));
        println!("{}", y.describe(&format!("mcts {playouts} playouts")));
    }
    let mut g = GreedyPlayer::new(4);
    let mut a = AlphaBetaPlayer::default();
    let la = SearchLimits {
        nodes: Some(1_500),
        ..SearchLimits::default()
    };
    let [x, _] = measure(
        [(&mut g, SearchLimits::default()), (&mut a, la)],
        100,
        &mut solver,
    );
    println!("{}", x.describe("greedy"));
}
