//! The `perfect` bot plays moves the solver proves best.

use crate::common;

use aboure_bots::PerfectPlayer;
use aboure_engine::{Move, Position};
use aboure_protocol::{Player, SearchLimits};
use aboure_solver::Solver;
use common::Local;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[test]
fn plays_a_best_move_when_it_has_the_time() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut bot = PerfectPlayer::new(16);
    let mut solver = Solver::new(16);
    let mut checked = 0;
    while checked < 60 {
        // A position 8 to 20 random plies into a game.
        let mut pos = Position::startpos();
        for _ in 0..rng.gen_range(8..20) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        let moves = pos.legal_moves();
        if moves.len() < 2 || moves.as_slice() == [Move::Pass] {
            continue;
        }
        let mut search = Local::new();
        // A depth limit does not apply to an exact solve: it solves to the end.
        let limits = SearchLimits {
            depth: Some(1),
            ..SearchLimits::default()
        };
        let m = bot.choose(&pos, &[], &limits, &mut search);
        let values = solver.move_values(&pos);
        let best = values[0].1;
        let played = values.iter().find(|(mv, _)| *mv == m).unwrap().1;
        assert_eq!(
            played, best,
            "{pos}: played {m} worth {played}; values {values:?}"
        );
        let margin =
            pos.captured(pos.side_to_move()) as i32 - pos.captured(!pos.side_to_move()) as i32;
        let info = search.infos.last().unwrap();
        assert_eq!(info.score, Some(best + margin), "{pos}");
        assert_eq!(info.string.as_deref(), Some("exact"));
        checked += 1;
    }
}

#[test]
fn node_limit_is_honoured() {
    // A small limit ends the solve early (or not at all, if the table
    // already holds the answer); either way a legal move comes back.
    let mut bot = PerfectPlayer::new(16);
    let mut search = Local::new();
    let limits = SearchLimits {
        nodes: Some(4096),
        ..SearchLimits::default()
    };
    let pos = Position::startpos();
    let m = bot.choose(&pos, &[], &limits, &mut search);
    assert!(pos.is_legal(m));
}
