//! The distinct positions a number of plies from the start.
//!
//! Positions are found breadth first, children in move order, and the first
//! line found to each is kept: the order, and so a seeded book, depends on
//! nothing but the rules. A forced pass counts as a ply, like any move an
//! arbiter plays in an opening. Positions that end the game are dropped at
//! every depth (no game can be played from them).

use std::collections::HashSet;

use aboure_engine::{Move, Position};

/// A position and one line of moves from the start that reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The position.
    pub position: Position,
    /// Moves from the start to it.
    pub line: Vec<Move>,
}

/// Every distinct position exactly `plies` plies from the start where the
/// game goes on, in breadth-first order.
pub fn reach(plies: u32) -> Vec<Reached> {
    let mut level = vec![Reached {
        position: Position::startpos(),
        line: Vec::new(),
    }];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for parent in &level {
            for m in parent.position.legal_moves().iter().copied() {
                let mut position = parent.position;
                position.play_unchecked(m);
                if position.is_game_over() || !seen.insert(position) {
                    continue;
                }
                let mut line = parent.line.clone();
                line.push(m);
                next.push(Reached { position, line });
            }
        }
        level = next;
    }
    level
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_the_only_position_at_no_ply() {
        let start = reach(0);
        assert_eq!(start.len(), 1);
        assert_eq!(start[0].position, Position::startpos());
    }

    #[test]
    fn one_ply_gives_one_position_per_opening_move() {
        // All six pits hold 4 at the start: six moves, six different boards.
        assert_eq!(reach(1).len(), 6);
    }

    #[test]
    fn every_line_replays_to_its_position_and_none_repeats() {
        let reached = reach(4);
        let distinct: HashSet<_> = reached.iter().map(|r| r.position).collect();
        assert_eq!(distinct.len(), reached.len());
        for r in &reached {
            let mut pos = Position::startpos();
            for &m in &r.line {
                pos.play(m).unwrap();
            }
            assert_eq!(pos, r.position);
            assert_eq!(r.line.len(), 4);
            assert!(!pos.is_game_over());
        }
    }

    #[test]
    fn distinct_positions_are_no_more_than_the_lines() {
        // perft(4) from the start counts lines; transpositions make fewer
        // positions, never more.
        let lines = aboure_engine::perft(&Position::startpos(), 4);
        assert!(reach(4).len() as u64 <= lines);
    }
}
