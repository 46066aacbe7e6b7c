//! The step of the argument that no position repeats within a game (see the
//! docs of the search module): every sowing either captures, taking seeds off
//! the board, or keeps every occupied pit occupied and fills an empty one;
//! a forced pass is followed by a sowing. Checked on random boards, sparse
//! and full, and on positions of random games.

use aboure_engine::{Move, Position, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn occupied(pos: &Position) -> u16 {
    pos.pits()
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

fn on_board(pos: &Position) -> u32 {
    pos.pits().iter().map(|&n| n as u32).sum()
}

fn check_moves(pos: &Position) {
    for &m in pos.legal_moves().iter() {
        let child = pos.after(m).unwrap();
        match m {
            Move::Pass => {
                assert_eq!(child.pits(), pos.pits(), "{pos}: pass");
                let replies = child.legal_moves();
                assert!(
                    !replies.is_empty() && !replies.contains(Move::Pass),
                    "{pos}: a pass must be answered by a sowing, got {replies:?}"
                );
            }
            Move::Sow(_) if on_board(&child) < on_board(pos) => {}
            Move::Sow(_) => {
                let (before, after) = (occupied(pos), occupied(&child));
                assert_eq!(after & before, before, "{pos} {m}: emptied a pit");
                assert!(after.count_ones() > before.count_ones(), "{pos} {m}");
            }
        }
    }
}

#[test]
fn every_move_makes_progress() {
    let mut rng = SmallRng::seed_from_u64(21);
    for _ in 0..20_000 {
        let seeds = rng.gen_range(2..=48u32);
        let mut pits = [0u8; 12];
        for _ in 0..seeds {
            pits[rng.gen_range(0..12)] += 1;
        }
        let captured = 48 - seeds as u8;
        let south = rng.gen_range(0..=captured / 2) * 2;
        let side = if rng.gen() { Side::South } else { Side::North };
        if let Ok(pos) = Position::new(pits, side, [south, captured - south]) {
            check_moves(&pos);
        }
    }
    for _ in 0..2_000 {
        let mut pos = Position::startpos();
        loop {
            check_moves(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
    }
}
