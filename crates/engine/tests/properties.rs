//! Properties that hold for every position, checked on generated ones, with
//! the simple reference implementation as the oracle for move generation.

use crate::reference;

use aboure_engine::{playout, Move, Position, Side, PITS};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// A position from 48 seed placements: each seed goes to a pit (0..12) or to
/// South's (12) or North's (13) captures. Dense and sparse boards both occur,
/// and so do long relays and endless sowings.
fn position() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(0..14usize, 48),
        any::<bool>(),
        0..48usize,
    )
        .prop_map(|(places, north, captured)| {
            let mut pits = [0u8; PITS];
            let mut caps = [0u8; 2];
            for (i, &p) in places.iter().enumerate() {
                // The first `captured` seeds are taken off the board, so
                // endgames with few seeds are common too.
                let p = if i < captured { 12 + (p % 2) } else { p };
                match p {
                    12 => caps[0] += 1,
                    13 => caps[1] += 1,
                    _ => pits[p] += 1,
                }
            }
            let side = if north { Side::North } else { Side::South };
            Position::new(pits, side, caps).unwrap()
        })
}

fn to_ref(p: &Position) -> reference::RefPos {
    reference::RefPos {
        pits: p.pits().iter().map(|&n| n as u32).collect(),
        side: p.side_to_move().index(),
        captured: [
            p.captured(Side::South) as u32,
            p.captured(Side::North) as u32,
        ],
    }
}

fn total(p: &Position) -> u32 {
    p.pits().iter().map(|&n| n as u32).sum::<u32>()
        + p.captured(Side::South) as u32
        + p.captured(Side::North) as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn moves_and_results_agree_with_the_reference(p in position()) {
        let engine: Vec<(String, String)> = {
            let (moves, next, n) = p.children();
            (0..n).map(|i| (moves[i].to_string(), next[i].to_string())).collect()
        };
        let reference: Vec<(String, String)> = to_ref(&p)
            .moves()
            .into_iter()
            .map(|(m, next)| (m.map_or("pass".to_string(), |i| i.to_string()), next.notation()))
            .collect();
        prop_assert_eq!(&engine, &reference);
        let legal = p.legal_moves();
        prop_assert_eq!(legal.len(), engine.len());
        for i in 0..12 {
            let m = Move::sow(i).unwrap();
            prop_assert_eq!(p.is_legal(m), legal.contains(m), "pit {}", i);
        }
        prop_assert_eq!(p.is_legal(Move::Pass), legal.as_slice() == [Move::Pass]);
        prop_assert_eq!(p.is_game_over(), legal.is_empty());
    }

    #[test]
    fn seeds_are_conserved_and_detailed_play_agrees(p in position()) {
        for &m in p.legal_moves().iter() {
            let mut a = p;
            a.play(m).unwrap();
            prop_assert_eq!(total(&a), 48);
            let mut b = p;
            let d = b.play_detailed(m).unwrap();
            prop_assert_eq!(a, b);
            prop_assert_eq!(
                d.captured(),
                a.captured(p.side_to_move()) - p.captured(p.side_to_move())
            );
            prop_assert!(a.captured(!p.side_to_move()) == p.captured(!p.side_to_move()));
            prop_assert_eq!(a.side_to_move(), !p.side_to_move());
        }
    }

    #[test]
    fn notation_round_trips(p in position()) {
        let text = p.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), p);
        prop_assert_eq!(format!("  {text}\r\n").parse::<Position>().unwrap(), p);
    }

    #[test]
    fn playouts_end_with_all_seeds_counted(p in position(), seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let r = playout(&p, &mut rng);
        prop_assert_eq!(r.outcome.score[0] as u32 + r.outcome.score[1] as u32, 48);
    }

    #[test]
    fn equal_boards_hash_equal(p in position()) {
        let same = Position::new(p.pits(), p.side_to_move(), [
            p.captured(Side::North),
            p.captured(Side::South),
        ]).unwrap();
        prop_assert_eq!(p.hash(), same.hash());
    }
}

#[test]
fn random_games_agree_with_the_reference_move_by_move() {
    use rand::Rng;
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..2000 {
        let mut p = Position::startpos();
        let mut r = reference::RefPos::start();
        loop {
            let moves = r.moves();
            let legal = p.legal_moves();
            assert_eq!(moves.len(), legal.len(), "at {p}");
            if moves.is_empty() {
                let s = r.score();
                assert_eq!(p.outcome().unwrap().score, [s[0] as u8, s[1] as u8]);
                break;
            }
            let k = rng.gen_range(0..moves.len());
            p.play(legal[k]).unwrap();
            r = moves[k].1.clone();
            assert_eq!(p.to_string(), r.notation());
        }
    }
}
