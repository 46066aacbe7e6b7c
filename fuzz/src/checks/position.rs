//! Position notation and the rules behind it: a parsed position prints back
//! to itself, its legal moves agree with `is_legal`, `play`, `after`,
//! `play_detailed` and `children`, every move keeps the 48 seeds and passes
//! the turn, and perft 2 counts what the children say.

use aboure_engine::{perft, Move, Position, Side, PITS, TOTAL_SEEDS};

/// Parses `data` as a position and, when it parses, plays every legal move.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = text.parse::<Position>() else {
        return;
    };
    let printed = pos.to_string();
    let again: Position = printed
        .parse()
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
    assert_eq!(again, pos, "{text:?} -> {printed:?} does not round-trip");
    assert_eq!(again.hash(), pos.hash());
    assert_eq!(
        seeds(&pos),
        u32::from(TOTAL_SEEDS),
        "{printed}: seeds not conserved"
    );

    let legal = pos.legal_moves();
    let (moves, children, n) = pos.children();
    assert_eq!(
        &moves[..n],
        legal.as_slice(),
        "{printed}: children vs legal moves"
    );
    assert_eq!(
        pos.is_game_over(),
        legal.is_empty(),
        "{printed}: game over?"
    );
    assert_eq!(
        pos.outcome().is_some(),
        legal.is_empty(),
        "{printed}: outcome?"
    );
    if let Some(outcome) = pos.outcome() {
        assert_eq!(outcome.score, pos.score(), "{printed}: final score");
        assert_eq!(
            u32::from(outcome.score[0]) + u32::from(outcome.score[1]),
            u32::from(TOTAL_SEEDS),
            "{printed}: final score"
        );
    }

    let candidates = (0..PITS).filter_map(Move::sow).chain([Move::Pass]);
    for m in candidates {
        assert_eq!(
            pos.is_legal(m),
            legal.contains(m),
            "{printed}: is_legal({m})"
        );
        if !legal.contains(m) {
            assert!(pos.after(m).is_err(), "{printed}: illegal {m} was played");
            let mut copy = pos;
            assert!(copy.play(m).is_err(), "{printed}: illegal {m} was played");
            assert_eq!(copy, pos, "{printed}: a refused {m} changed the position");
        }
    }
    for (i, &m) in legal.iter().enumerate() {
        let after = pos
            .after(m)
            .unwrap_or_else(|e| panic!("{printed}: legal {m} refused: {e}"));
        let mut played = pos;
        played.play(m).unwrap();
        let mut unchecked = pos;
        unchecked.play_unchecked(m);
        let mut detailed = pos;
        let details = detailed
            .play_detailed(m)
            .unwrap_or_else(|e| panic!("{printed}: legal {m} refused in detail: {e}"));
        assert_eq!(details.mv, m);
        for p in [&played, &unchecked, &detailed, &children[i]] {
            assert_eq!(*p, after, "{printed}: ways of playing {m} disagree");
        }
        assert_eq!(
            seeds(&after),
            u32::from(TOTAL_SEEDS),
            "{printed} {m} -> {after}"
        );
        assert_eq!(
            after.side_to_move(),
            !pos.side_to_move(),
            "{printed}: {m} did not pass the turn"
        );
        for side in Side::BOTH {
            assert!(
                after.captured(side) >= pos.captured(side),
                "{printed}: {m} took captures back"
            );
        }
        let reprinted = after.to_string();
        assert_eq!(reprinted.parse::<Position>().ok(), Some(after));
    }

    let by_children: u64 = children[..n]
        .iter()
        .map(|c| c.legal_moves().len() as u64)
        .sum();
    assert_eq!(perft(&pos, 1), n as u64, "{printed}: perft 1");
    assert_eq!(perft(&pos, 2), by_children, "{printed}: perft 2");
}

fn seeds(pos: &Position) -> u32 {
    let board: u32 = pos.pits().iter().map(|&s| u32::from(s)).sum();
    board + u32::from(pos.captured(Side::South)) + u32::from(pos.captured(Side::North))
}
