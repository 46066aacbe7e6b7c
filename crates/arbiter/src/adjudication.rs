//! Ending games that would not end by themselves: a ply limit and repeated
//! positions. Both are scored like a natural end (each side keeps its row),
//! so the bot that was ahead on seeds is not robbed. Pure logic.

use std::collections::HashMap;

use aboure_engine::Position;
use aboure_records::Termination;

/// The adjudication rules of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A game reaching this many plies (opening and passes included) ends.
    pub max_plies: u32,
    /// A position (board and side to move) seen this often ends the game.
    pub repetitions: u32,
}

impl Default for Adjudication {
    fn default() -> Adjudication {
        Adjudication {
            max_plies: 400,
            repetitions: 3,
        }
    }
}

/// Watches one game's positions.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    seen: HashMap<u64, u32>,
    plies: u32,
}

impl Adjudicator {
    /// Starts watching a game at `start`.
    pub fn new(rules: Adjudication, start: &Position) -> Adjudicator {
        let mut adjudicator = Adjudicator {
            rules,
            seen: HashMap::new(),
            plies: 0,
        };
        adjudicator.seen.insert(start.hash(), 1);
        adjudicator
    }

    /// Records that a ply led to `position` (which is not game over) and
    /// says whether the game ends here.
    pub fn after_ply(&mut self, position: &Position) -> Option<Termination> {
        self.plies += 1;
        let count = self.seen.entry(position.hash()).or_insert(0);
        *count += 1;
        if *count >= self.rules.repetitions {
            Some(Termination::Repetition)
        } else if self.plies >= self.rules.max_plies {
            Some(Termination::MaxPlies)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_engine::Move;

    #[test]
    fn max_plies_counts_every_ply() {
        let rules = Adjudication {
            max_plies: 2,
            repetitions: 3,
        };
        let mut pos = Position::startpos();
        let mut adj = Adjudicator::new(rules, &pos);
        pos.play(Move::sow(2).unwrap()).unwrap();
        assert_eq!(adj.after_ply(&pos), None);
        let m = pos.legal_moves()[0];
        pos.play(m).unwrap();
        assert_eq!(adj.after_ply(&pos), Some(Termination::MaxPlies));
    }

    #[test]
    fn repetition_counts_the_start() {
        let rules = Adjudication {
            max_plies: 100,
            repetitions: 2,
        };
        let pos = Position::startpos();
        let mut adj = Adjudicator::new(rules, &pos);
        assert_eq!(adj.after_ply(&pos), Some(Termination::Repetition));
    }
}
