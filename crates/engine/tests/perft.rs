//! perft from the start against the checked-in counts, which the simple
//! reference implementation recomputes here, so a change to either shows.

use crate::reference;

use aboure_engine::{perft, Position};

fn expected() -> Vec<(u32, u64)> {
    include_str!("perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (d, n) = l.split_once(' ').expect("depth and count");
            (d.parse().unwrap(), n.parse().unwrap())
        })
        .collect()
}

#[test]
fn reference_implementation_gives_the_checked_in_counts() {
    let start = reference::RefPos::start();
    for (depth, nodes) in expected() {
        assert_eq!(reference::perft(&start, depth), nodes, "depth {depth}");
    }
}

#[test]
fn engine_gives_the_checked_in_counts() {
    let table = expected();
    assert_eq!(table.len(), 8);
    for (depth, nodes) in table {
        assert_eq!(perft(&Position::startpos(), depth), nodes, "depth {depth}");
    }
}

#[test]
fn engine_agrees_with_reference_deeper_from_midgame_positions() {
    for text in [
        "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0",
        "0,3,0,7,1,9/2,0,5,3,1,1 s 8 8",
        "1,1,0,2,1,1/0,3,1,1,0,1 n 18 18",
    ] {
        let pos: Position = text.parse().unwrap();
        let mut r = reference::RefPos::start();
        r.pits = pos.pits().iter().map(|&n| n as u32).collect();
        r.side = pos.side_to_move().index();
        r.captured = [
            pos.captured(aboure_engine::Side::South) as u32,
            pos.captured(aboure_engine::Side::North) as u32,
        ];
        for depth in 1..=6 {
            assert_eq!(
                perft(&pos, depth),
                reference::perft(&r, depth),
                "{text} depth {depth}"
            );
        }
    }
}
