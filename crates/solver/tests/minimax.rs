//! The solver against a plain minimax, written as simply as possible: no
//! pruning, no table, just the recurrence that defines the value.

use aboure_engine::{Move, Position, Side};
use aboure_solver::Solver;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The value by definition, or `None` past `budget` nodes.
fn minimax(pos: &Position, budget: &mut u64) -> Option<i32> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let me = pos.side_to_move();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(pos.row_seeds(me) as i32 - pos.row_seeds(!me) as i32);
    }
    let mut best = i32::MIN;
    for &m in moves.iter() {
        best = best.max(move_value(pos, m, budget)?);
    }
    Some(best)
}

fn move_value(pos: &Position, m: Move, budget: &mut u64) -> Option<i32> {
    let me = pos.side_to_move();
    let child = pos.after(m).expect("legal move");
    let captured = child.captured(me) as i32 - pos.captured(me) as i32;
    Some(captured - minimax(&child, budget)?)
}

/// Every legal move with its minimax value, or `None` if too big to check.
fn minimax_moves(pos: &Position, budget: u64) -> Option<Vec<(Move, i32)>> {
    let mut budget = budget;
    pos.legal_moves()
        .iter()
        .map(|&m| Some((m, move_value(pos, m, &mut budget)?)))
        .collect()
}

/// Checks the solver's move values and value against minimax; returns false
/// when the position was too big for minimax.
fn check(solver: &mut Solver, pos: &Position) -> bool {
    let Some(mut expected) = minimax_moves(pos, 200_000) else {
        return false;
    };
    let got = solver.move_values(pos);
    // Best first; compare as sets of (move, value).
    for w in got.windows(2) {
        assert!(w[0].1 >= w[1].1, "{pos}: not best first: {got:?}");
    }
    let mut sorted = got.clone();
    sorted.sort_by_key(|&(m, _)| m.to_string());
    expected.sort_by_key(|&(m, _)| m.to_string());
    assert_eq!(sorted, expected, "{pos}: solver (left) vs minimax (right)");
    let best = expected.iter().map(|&(_, v)| v).max();
    let value = solver.value(pos);
    match best {
        Some(b) => assert_eq!(value, b, "{pos}: value"),
        None => {
            let me = pos.side_to_move();
            assert_eq!(
                value,
                pos.row_seeds(me) as i32 - pos.row_seeds(!me) as i32,
                "{pos}: value of a finished game"
            );
        }
    }
    assert_eq!(solver.value_within(pos, u64::MAX), Some(value));
    true
}

#[test]
fn agrees_with_minimax_on_positions_from_random_games() {
    let mut rng = SmallRng::seed_from_u64(0xab0);
    // One table for every position, as in real use: stale entries must not
    // leak into other positions.
    let mut solver = Solver::new(8);
    let mut checked = 0;
    while checked < 300 {
        let mut pos = Position::startpos();
        let plies = rng.gen_range(6..40);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if check(&mut solver, &pos) {
            checked += 1;
        }
    }
}

#[test]
fn agrees_with_minimax_on_random_sparse_boards() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut checked = 0;
    while checked < 500 {
        let seeds = rng.gen_range(2..=16u32);
        let mut pits = [0u8; 12];
        for _ in 0..seeds {
            pits[rng.gen_range(0..12)] += 1;
        }
        let captured = 48 - seeds as u8;
        let split = rng.gen_range(0..=captured / 2) * 2;
        let side = if rng.gen() { Side::South } else { Side::North };
        let Ok(pos) = Position::new(pits, side, [split, captured - split]) else {
            continue;
        };
        // A fresh small table each time, and the shared one below.
        let mut solver = Solver::new(1);
        if check(&mut solver, &pos) {
            checked += 1;
        }
    }
}

#[test]
fn a_tiny_table_still_gives_exact_values() {
    // Constant eviction: bounds are lost, never wrong.
    let mut rng = SmallRng::seed_from_u64(3);
    let mut solver = Solver::new(0);
    let mut checked = 0;
    while checked < 60 {
        let mut pos = Position::startpos();
        for _ in 0..rng.gen_range(10..30) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if check(&mut solver, &pos) {
            checked += 1;
        }
    }
}
