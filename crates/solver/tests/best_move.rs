//! `Solver::best_move`: exact when left alone, a legal move when stopped.

use std::cell::Cell;

use aboure_engine::Position;
use aboure_solver::Solver;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_position(rng: &mut SmallRng) -> Position {
    let mut pos = Position::startpos();
    for _ in 0..rng.gen_range(0..30) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.gen_range(0..moves.len())]).unwrap();
    }
    pos
}

#[test]
fn unhurried_best_move_is_exact() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut solver = Solver::new(16);
    for _ in 0..100 {
        let pos = random_position(&mut rng);
        let found = solver.best_move(&pos, &|| false);
        let values = solver.move_values(&pos);
        match found {
            None => assert!(values.is_empty() && pos.is_game_over(), "{pos}"),
            Some((m, v)) => {
                assert_eq!(v, Some(values[0].1), "{pos}");
                assert!(values.contains(&(m, values[0].1)), "{pos}: {m} not best");
            }
        }
    }
}

#[test]
fn stopped_best_move_is_legal() {
    let mut rng = SmallRng::seed_from_u64(12);
    for calls in [0u32, 1, 3, 10, 30] {
        let pos = Position::startpos();
        // A fresh table each time, so that the exact search cannot finish.
        let mut solver = Solver::new(1);
        let count = Cell::new(0u32);
        let stop = || {
            count.set(count.get() + 1);
            count.get() > calls
        };
        let (m, v) = solver.best_move(&pos, &stop).expect("the start has moves");
        assert!(pos.legal_moves().contains(m), "{m}");
        assert_eq!(
            v, None,
            "stopped after {calls} checks but claims an exact value"
        );
        let pos = random_position(&mut rng);
        if let Some((m, v)) = solver.best_move(&pos, &stop) {
            assert!(pos.legal_moves().contains(m), "{pos}: {m}");
            if let Some(v) = v {
                assert_eq!(v, solver.value(&pos), "{pos}");
            }
        }
    }
}

#[test]
fn finished_game_has_no_best_move() {
    let pos: Position = "1,0,0,0,0,1/0,0,1,0,0,1 n 22 22".parse().unwrap();
    assert!(pos.is_game_over());
    assert_eq!(Solver::new(1).best_move(&pos, &|| false), None);
}
