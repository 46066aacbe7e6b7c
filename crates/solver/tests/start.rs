//! The solved start position. The same figures come out of a plain minimax
//! over the whole reachable game graph in `examples/figures.rs`
//! (`cargo run --release -p aboure-solver --example figures`).

use aboure_engine::{Move, Position};
use aboure_solver::Solver;

fn sow(pit: usize) -> Move {
    Move::sow(pit).unwrap()
}

#[test]
fn start_position_is_a_four_seed_win_for_south() {
    let mut solver = Solver::new(64);
    let start = Position::startpos();
    assert_eq!(solver.value(&start), 4);
    assert_eq!(
        solver.move_values(&start),
        vec![
            (sow(4), 4),
            (sow(5), 2),
            (sow(3), -2),
            (sow(2), -6),
            (sow(0), -10),
            (sow(1), -10),
        ]
    );
}

#[test]
fn budgeted_solve_of_the_start_fails_then_succeeds() {
    let mut solver = Solver::new(64);
    let start = Position::startpos();
    assert_eq!(solver.value_within(&start, 1000), None);
    assert_eq!(solver.value_within(&start, u64::MAX), Some(4));
    // Everything is in the table now: a tiny budget is enough.
    assert_eq!(solver.value_within(&start, 10), Some(4));

    let mut solver = Solver::new(64);
    assert_eq!(solver.move_values_within(&start, 1000), None);
    let values = solver.move_values_within(&start, u64::MAX).unwrap();
    assert_eq!(values, solver.move_values(&start));
    assert_eq!(values[0], (sow(4), 4));
}

#[test]
fn the_table_carries_over_along_a_game() {
    // Solve the start, then follow the best line: every later position is
    // already solved, so the whole game costs few extra nodes.
    let mut solver = Solver::new(64);
    let mut pos = Position::startpos();
    solver.value(&pos);
    let after_start = solver.nodes();
    while let Some((m, Some(v))) = solver.best_move(&pos, &|| false) {
        assert_eq!(v, solver.value(&pos), "{pos}");
        let me = pos.side_to_move();
        let next = pos.after(m).unwrap();
        let captured = next.captured(me) as i32 - pos.captured(me) as i32;
        assert_eq!(solver.value(&next), captured - v, "{pos} then {m}");
        pos = next;
    }
    assert!(pos.is_game_over());
    let extra = solver.nodes() - after_start;
    assert!(
        extra < after_start / 10,
        "{extra} extra nodes after {after_start}"
    );
}
